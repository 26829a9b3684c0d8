"""Speed of the rankers of Pes (2019) and Salman (2022) against their references.

On the colon data (62 x 2000; a column subset where the reference is too slow, then
extrapolated linearly in the number of columns, which is how every reference scales):

- gainratio: vectorised contingency tables vs a per-feature scipy / scikit-learn loop on the
  same MDL codes (discretisation excluded from both);
- (oner: against WEKA itself in ``benchmarks/bench_weka_information.py``);
- mrmr: the vectorised forward selection vs Peng's own C++ program (pymrmr, when it is
  installed) and the plain greedy loop of the tests (20 features selected);
- relieff (weight_by_distance): the vectorised WEKA ReliefF vs the scalar translation of
  WEKA's ReliefFAttributeEval of the tests.

Prints one line per selector: seconds of ours, of the reference, and the ratio.
Run: ``python benchmarks/bench_studies_selectors.py [--fast]``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import math
import os
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import entropy
from sklearn.metrics import mutual_info_score

import modelmine as mm
from modelmine.selectors import (
    discretize,
    mrmr,
    relieff_weka_scores,
    sigma_discretize,
)
from modelmine.selectors._information import _ig_and_entropies

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "selectors"))
from test_studies_selectors import _greedy_mrmr, _weka_relieff


def timed(fn, repeat: int = 1) -> float:
    best = math.inf
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fast", action="store_true")
    args = parser.parse_args()
    X, y = mm.datasets.load_colon()
    X = np.asarray(X, dtype=np.float64)
    y = np.unique(y, return_inverse=True)[1].astype(np.int64)
    p = X.shape[1]
    rows = []

    codes, n_levels = discretize(X, y)
    ours = timed(lambda: _ig_and_entropies(codes, n_levels, y), 3)

    def gr_ref():
        for j in range(p):
            split = entropy(np.bincount(codes[:, j]), base=2)
            if split > 1e-6:
                mutual_info_score(codes[:, j], y)

    rows.append(("gainratio (tables, p=2000)", ours, timed(gr_ref)))

    Xm = X[:, :300]
    sel = 10 if args.fast else 20
    ours = timed(lambda: mrmr(Xm, y, n_selected=sel), 3)
    ref = timed(lambda: _greedy_mrmr(sigma_discretize(Xm), y, "MID", sel))
    rows.append((f"mrmr vs greedy loop (p=300, {sel} selected)", ours, ref))
    try:
        import pymrmr

        df = pd.DataFrame(np.column_stack([y, sigma_discretize(Xm)]),
                          columns=["class", *[f"f{j}" for j in range(300)]])
        with open(os.devnull, "w") as null, contextlib.redirect_stdout(io.StringIO()):
            fd = os.dup(1)
            os.dup2(null.fileno(), 1)  # Peng's program prints from C++
            try:
                ref = timed(lambda: pymrmr.mRMR(df, "MID", sel))
            finally:
                os.dup2(fd, 1)
                os.close(fd)
        rows.append((f"mrmr vs pymrmr (Peng's C++, p=300, {sel} selected)", ours, ref))
    except ImportError:
        pass

    cols = 10 if args.fast else 25
    ours = timed(lambda: relieff_weka_scores(X, y), 3)
    ref = timed(lambda: _weka_relieff(X[:, :cols], y, 10, True)) * p / cols
    rows.append(("relieff weight_by_distance (p=2000)", ours, ref))

    print(f"{'selector':55s} {'ours s':>9s} {'reference s':>12s} {'ratio':>8s}")
    for name, a, b in rows:
        print(f"{name:55s} {a:9.4f} {b:12.3f} {b / a:8.1f}x")


if __name__ == "__main__":
    main()
