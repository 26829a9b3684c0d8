"""Benchmark: the MDL-based selectors, OneR and CFS against WEKA 3.6 on every shared dataset
(issue 24).

For every column of colon, leukemia, prostate, BASEHOCK, PCMAC and madelon (and leukemia with
its classes split at random into four), WEKA's attribute evaluators are built on the same
data (``EvalAll``, full double precision: ``tests/weka_oracle.py``) and compared with ours:

* ``ig`` / ``su`` / ``chi2`` / ``gainratio`` against ``InfoGainAttributeEval``,
  ``SymmetricalUncertAttributeEval``, ``ChiSquaredAttributeEval``, ``GainRatioAttributeEval``:
  the number of features whose score differs from WEKA's by more than 1e-12 (relative),
  the top-20 overlap, and the same with ``better_encoding=False`` (Fayyad and Irani's N - 1
  candidate cuts, modelmine's behaviour before issue 24);
* ``oner`` against ``OneRAttributeEval`` (10-fold cross-validation, seed 1, bucket 6):
  features whose score differs at all;
* ``cfs`` against ``CfsSubsetEval`` with ``BestFirst -D 1 -N 5``: whether the subsets are
  equal, and their sizes.

Times: one WEKA run (JVM start included) against one call of ours, wall seconds.

Run: ``.venv/bin/python benchmarks/bench_weka_information.py [--quick] [--out CSV]``
(``--quick``: colon and leukemia, the first 500 columns; needs ``java`` and WEKA 3.6's
``weka.jar``).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from _record import finish, head_commit
from weka_oracle import attribute_scores, selected_subset

import modelmine as mm
from modelmine.selectors import (
    discretize,
    gain_ratio,
    get_selector,
    information_gain,
    oner_scores,
    symmetrical_uncertainty,
)
from modelmine.selectors._builtin import chi2_contingency_scores


def _chi2(X, y, better_encoding=True):
    codes, levels = discretize(X, y, better_encoding=better_encoding)
    return chi2_contingency_scores(codes, levels, y)


MDL = [
    ("ig", "InfoGainAttributeEval", information_gain),
    ("su", "SymmetricalUncertAttributeEval", symmetrical_uncertainty),
    ("chi2", "ChiSquaredAttributeEval", _chi2),
    ("gainratio", "GainRatioAttributeEval", gain_ratio),
]


def _cases(quick: bool):
    names = ["colon", "leukemia"] if quick else [
        "colon", "leukemia", "prostate", "basehock", "pcmac", "madelon"]
    for name in names:
        X, y = mm.datasets.load(name)
        y = np.unique(np.asarray(y), return_inverse=True)[1]
        X = sp.csr_matrix(X, dtype=np.float64) if sp.issparse(X) else np.asarray(X, float)
        if quick:
            X = X[:, :500]
        yield name, X, y
    if not quick:
        X, y = mm.datasets.load("leukemia")
        y = np.unique(np.asarray(y), return_inverse=True)[1]
        rs = np.random.RandomState(0)
        y[(y == 0) & (rs.rand(y.size) < 0.4)] = 2
        y[(y == 1) & (rs.rand(y.size) < 0.4)] = 3
        yield "leukemia-4class", np.asarray(X, float), y


def _timed(func, *args, **kwargs):
    t0 = time.perf_counter()
    out = func(*args, **kwargs)
    return out, time.perf_counter() - t0


def _top20(a, b) -> int:
    return len(set(np.argsort(-a, kind="stable")[:20]) & set(np.argsort(-b, kind="stable")[:20]))


def _differ(ours, weka) -> int:
    return int(np.sum(np.abs(ours - weka) > 1e-12 * np.maximum(1.0, np.abs(weka))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--out", default=None, help="write the table to this CSV")
    args = parser.parse_args()
    commit = head_commit()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        for name, X, y in _cases(args.quick):
            n, p = X.shape
            base = {"dataset": name, "n": n, "p": p}
            for sel, evaluator, func in MDL:
                weka, t_weka = _timed(attribute_scores, tmp_path, X, y, evaluator)
                ours, t_ours = _timed(func, X, y)
                plain = func(X, y, better_encoding=False)
                rows.append({**base, "selector": sel, "weka": evaluator,
                             "differ": _differ(ours, weka), "top20": _top20(ours, weka),
                             "differ_n_minus_1": _differ(plain, weka),
                             "top20_n_minus_1": _top20(plain, weka),
                             "weka_s": round(t_weka, 2), "ours_s": round(t_ours, 3)})
                print(rows[-1], flush=True)
            weka, t_weka = _timed(attribute_scores, tmp_path, X, y, "OneRAttributeEval")
            ours, t_ours = _timed(oner_scores, X, y)
            rows.append({**base, "selector": "oner", "weka": "OneRAttributeEval",
                         "differ": int(np.sum(ours != weka)), "top20": _top20(ours, weka),
                         "weka_s": round(t_weka, 2), "ours_s": round(t_ours, 3)})
            print(rows[-1], flush=True)
            search = "weka.attributeSelection.BestFirst -D 1 -N 5"
            weka_set, t_weka = _timed(selected_subset, tmp_path, X, y, "CfsSubsetEval", search)
            out, t_ours = _timed(get_selector("cfs").select, X, y, random_state=0)
            ours_set = np.flatnonzero(out.support).tolist()
            rows.append({**base, "selector": "cfs", "weka": "CfsSubsetEval + BestFirst",
                         "differ": len(set(ours_set) ^ set(weka_set)),
                         "subset_equal": ours_set == weka_set, "size_ours": len(ours_set),
                         "size_weka": len(weka_set),
                         "weka_s": round(t_weka, 2), "ours_s": round(t_ours, 3)})
            print(rows[-1], flush=True)
    finish(rows, args.out, commit)


if __name__ == "__main__":
    main()
