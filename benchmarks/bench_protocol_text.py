"""Benchmark: the KDD'12 protocol on BASEHOCK (issue 15's end-to-end target).

Issue 15 asks for ``mm.evaluate`` with the KDD'12 setting (Woznica, Nguyen and Kalousis,
KDD 2012, Section 3: 10 folds x b = 150, the seven selectors, every operator, the three
classifiers) on BASEHOCK (1,993 x 4,862 sparse word counts) in under 60 minutes on the
2-core machine with ``n_jobs=2``, and the share of each selector.

Two modes:

* ``--full``: the protocol itself through :func:`modelmine.evaluate`; prints the wall time
  against the target and the task time per selector.
* default (one fold): the selectors' part of the protocol, which dominates it, measured on
  the first of the 10 stratified folds: ``mm.bootstrap`` (b resamples plus the fit on the
  whole training part, as the protocol does) per selector with ``n_jobs`` workers; prints
  the wall time per selector, its share, and 10 x the fold's wall time against the
  target, labelled as an extrapolation (the operators and classifiers are not included:
  on leukemia they are a few per cent of the protocol, ``bench_protocol.py``).

Run: ``.venv/bin/python benchmarks/bench_protocol_text.py [--n-jobs 2] [--n-bootstraps 150]
[--selectors ...] [--full]``; ``--quick``: b = 5 and three selectors.
"""

from __future__ import annotations

import argparse
import os
import resource
import time

import numpy as np
from sklearn.model_selection import StratifiedKFold

import modelmine as mm

TARGET_SECONDS = 60 * 60
KDD12_SELECTORS = ["ig", "chi2", "su", "relieff", "svm-rfe", "svm", "cfs"]


def one_fold(X, y, selectors, b, n_jobs, folds):
    train, _ = next(StratifiedKFold(folds, shuffle=True, random_state=0).split(X, y))
    Xt, yt = X[train], y[train]
    rows = []
    for name in selectors:
        t0 = time.perf_counter()
        mm.bootstrap(Xt, yt, name, n_bootstraps=b, n_features=20, random_state=0,
                     n_jobs=n_jobs, progress=False)
        wall = time.perf_counter() - t0
        rows.append((name, wall))
        print(f"  {name:<9} wall {wall:8.1f} s", flush=True)
    total = sum(r[1] for r in rows)
    print(f"one fold ({Xt.shape[0]} training rows), b = {b}, n_jobs = {n_jobs}: "
          f"{total:.0f} s wall for {len(selectors)} selectors")
    for name, wall in rows:
        print(f"  share {name:<9}{wall / total:6.1%}")
    est = folds * total
    print(f"extrapolated to {folds} folds (selectors only): {est:.0f} s = {est / 60:.1f} min; "
          f"target {TARGET_SECONDS / 60:.0f} min: "
          f"{'within' if est < TARGET_SECONDS else 'ABOVE'} "
          f"(ratio {est / TARGET_SECONDS:.2f} of the budget; an extrapolation, not the run)")


def full(X, y, names, selectors, b, n_jobs, folds):
    t0 = time.perf_counter()
    res = mm.evaluate(X, y, selectors=selectors, operators=None,
                      classifiers=["svm", "1nn", "tree"], feature_names=names,
                      n_folds=folds, n_bootstraps=b, n_features=20, n_signatures=10,
                      random_state=0, n_jobs=n_jobs, progress=False)
    wall = time.perf_counter() - t0
    print(f"wall time: {wall:.0f} s ({wall / 60:.1f} min); target "
          f"{TARGET_SECONDS / 60:.0f} min: {'met' if wall < TARGET_SECONDS else 'MISSED'} "
          f"(ratio {wall / TARGET_SECONDS:.2f} of the budget)")
    busy = res.tasks.groupby("selector", sort=False).seconds.sum()
    for sel, sec in busy.items():
        print(f"  {sel:<10}{sec:8.0f} s  ({sec / busy.sum():.0%})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--n-bootstraps", type=int, default=150)
    parser.add_argument("--selectors", nargs="+", default=KDD12_SELECTORS)
    parser.add_argument("--full", action="store_true", help="run mm.evaluate itself")
    parser.add_argument("--quick", action="store_true", help="b = 5, ig / relieff / svm")
    args = parser.parse_args()
    if args.quick:
        args.n_bootstraps, args.selectors = 5, ["ig", "relieff", "svm"]
    X, y, names = mm.datasets.load_basehock(return_names=True)
    y = np.asarray(y)
    print(f"BASEHOCK {X.shape[0]} x {X.shape[1]} (sparse), {args.folds} folds, "
          f"b = {args.n_bootstraps}, selectors {args.selectors}; cores visible "
          f"{os.cpu_count()}, load average {os.getloadavg()[0]:.1f}")
    if args.full:
        full(X, y, names, args.selectors, args.n_bootstraps, args.n_jobs, args.folds)
    else:
        one_fold(X, y, args.selectors, args.n_bootstraps, args.n_jobs, args.folds)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS of this process: {peak:.0f} MiB; load average at the end "
          f"{os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
