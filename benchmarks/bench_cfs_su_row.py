"""One SU row of CFS on sparse text: the rare-entry route against the dense pass.

docs/selectors_cfs.md.

BASEHOCK (1993 x 4862 word counts), one 10-fold CV training fold (StratifiedKFold, seed 0,
first fold), MDL-discretised as CFS does. For ``--rows`` features g (the first ones with more
than one level) it times ``su_matrix_row`` (one pass over the n x p codes) and
``_RareCodes.su_row`` (the entries off each feature's most frequent code), checks they are
equal, and prints the median seconds per row of each.

    python benchmarks/bench_cfs_su_row.py [--rows 5] [--out FILE.csv]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from _record import finish, head_commit
from sklearn.model_selection import StratifiedKFold

import modelmine as mm
from modelmine.selectors._cfs import _column_entropies, _RareCodes, su_matrix_row
from modelmine.selectors._information import discretize


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=5)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    X, y = mm.datasets.load("basehock")
    train, _ = next(StratifiedKFold(10, shuffle=True, random_state=0).split(np.zeros(len(y)), y))
    X = X[train]
    y = np.asarray(y)[train]
    t = time.perf_counter()
    codes, levels = discretize(X, y, method="mdl")
    t_mdl = time.perf_counter() - t
    h = _column_entropies(codes, levels)
    t = time.perf_counter()
    rare = _RareCodes(codes, levels)
    t_prep = time.perf_counter() - t
    dense, sparse = [], []
    for g in np.flatnonzero(levels > 1)[: args.rows]:
        t = time.perf_counter()
        a = su_matrix_row(codes, levels, int(g), h)
        dense.append(time.perf_counter() - t)
        t = time.perf_counter()
        b = rare.su_row(codes, levels, int(g), h)
        sparse.append(time.perf_counter() - t)
        assert np.array_equal(a, b)
    rows = [{"data": "basehock fold 0", "n": codes.shape[0], "p": codes.shape[1],
             "off_mode_fraction": round(rare.fraction, 5), "rows": len(dense),
             "dense_s_per_row": round(statistics.median(dense), 4),
             "rare_s_per_row": round(statistics.median(sparse), 4),
             "rare_prepare_s": round(t_prep, 3), "mdl_s": round(t_mdl, 2)}]
    finish(rows, args.out, head_commit())


if __name__ == "__main__":
    main()
