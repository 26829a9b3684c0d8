"""Benchmark: the cost of per-class panels (``per_class=True``) against one multiclass run
(issue 26, item 1).

A per-class run fits the multiclass base models and, on the same resamples, each class
against the rest (K more fits per resample). This prints, per dataset and selector, the
wall time of one multiclass run, of the per-class run (both together), and of K separate
binary runs (one per class, ``y == c``, as a user would do by hand), and the ratios.

Data: scikit-learn's optical digits (1,797 x 64, 10 classes, Salman 2022's data) and the
leukemia microarray made four-class (ALL / AML split at the median of the first gene within
each, as the tests' multiclass shapes).

Run: ``.venv/bin/python benchmarks/bench_per_class.py [--bootstraps 30] [--out CSV]``.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from _record import finish, head_commit
from sklearn.datasets import load_digits

import modelmine as mm


def datasets():
    X, y = load_digits(return_X_y=True)
    yield "digits", X.astype(np.float64), y
    X, y = mm.datasets.load_leukemia()[:2]
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y).astype(str)
    four = y.copy()
    for c in np.unique(y):
        inside = y == c
        high = X[:, 0] > np.median(X[inside, 0])
        four[inside & high] = f"{c}-high"
    yield "leukemia-4", X, four


def timed(X, y, selector, b, per_class):
    start = time.perf_counter()
    mm.run(X, y, selector=selector, operators=["mostFreq"], n_bootstraps=b, n_features=10,
           per_class=per_class, random_state=0, n_jobs=1)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bootstraps", type=int, default=30)
    parser.add_argument("--selectors", nargs="+", default=["anova", "ig", "svm-rfe"])
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    warnings.filterwarnings("ignore")
    commit = head_commit()
    rows = []
    for name, X, y in datasets():
        classes = np.unique(y)
        for selector in args.selectors:
            multi = timed(X, y, selector, args.bootstraps, False)
            per = timed(X, y, selector, args.bootstraps, True)
            separate = sum(timed(X, (y == c).astype(int), selector, args.bootstraps, False)
                           for c in classes)
            rows.append({"dataset": name, "selector": selector, "classes": classes.size,
                         "b": args.bootstraps, "multiclass_s": round(multi, 2),
                         "per_class_s": round(per, 2), "k_binary_runs_s": round(separate, 2),
                         "per_class_over_multiclass": round(per / multi, 2),
                         "per_class_over_k_runs": round(per / separate, 2)})
    finish(rows, args.out, commit)


if __name__ == "__main__":
    main()
