"""Benchmark: the KDD'12 evaluation protocol on leukemia, wall time on this machine.

The full protocol of Woznica, Nguyen and Kalousis (KDD 2012, section 3) on leukemia
(72 x 7129): 10 stratified folds x 150 bootstraps x 4 selectors (IG, ReliefF, SVM-RFE,
SVMONE) x every registered operator x 3 classifiers (linear SVM, 1NN, tree). Target: under
15 minutes of wall time on 2 cores.

Prints the wall time against the target, the CPU time of this process and its workers
(from the per-task times), the split of the work by selector, and the number of signatures
evaluated. ``--folds`` and ``--n-bootstraps`` shrink the run for a quick look.

Run: ``.venv/bin/python benchmarks/bench_protocol.py [--n-jobs 2] [--executor tcp://...]``.
"""

from __future__ import annotations

import argparse
import os
import time

import modelmine as mm
from modelmine.evaluation import evaluate
from modelmine.operators import available_operators as available

TARGET_SECONDS = 15 * 60


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--n-bootstraps", type=int, default=150)
    parser.add_argument("--executor", default=None, help="a Dask scheduler address")
    args = parser.parse_args()

    X, y, names = mm.datasets.load_leukemia(return_names=True)
    ops = available()
    t0 = time.perf_counter()
    res = evaluate(X, y, selectors=["ig", "relieff", "svm-rfe", "svm"], operators=None,
                   classifiers=["svm", "1nn", "tree"], feature_names=names,
                   n_folds=args.folds, n_bootstraps=args.n_bootstraps, n_features=20,
                   n_signatures=10, random_state=0, n_jobs=args.n_jobs,
                   executor=args.executor, progress=False)
    wall = time.perf_counter() - t0
    n_sigs = int(res.folds.groupby(["selector", "operator", "fold"]).n_signatures.first().sum())
    print(f"leukemia {X.shape[0]} x {X.shape[1]}: {args.folds} folds x {args.n_bootstraps} "
          f"bootstraps x 4 selectors x {len(ops)} operators x 3 classifiers "
          f"({n_sigs} signatures, {len(res.predictions)} test predictions)")
    print(f"cores visible: {os.cpu_count()}, n_jobs={args.n_jobs}, "
          f"executor={args.executor or 'joblib'}")
    print(f"wall time: {wall:.0f} s ({wall / 60:.1f} min); target {TARGET_SECONDS / 60:.0f} min:"
          f" {'met' if wall < TARGET_SECONDS else 'MISSED'} "
          f"(ratio {wall / TARGET_SECONDS:.2f} of the budget)")
    busy = res.tasks.groupby("selector", sort=False).seconds.sum()
    print(f"task time summed over workers: {busy.sum():.0f} s "
          f"(parallel efficiency {busy.sum() / (wall * max(1, args.n_jobs)):.2f})")
    for sel, sec in busy.items():
        print(f"  {sel:<10}{sec:8.0f} s  ({sec / busy.sum():.0%})")
    if not res.skipped.empty:
        skipped = res.skipped.groupby(["selector", "operator"]).size()
        print("operators that did not apply (selector, operator: folds):",
              ", ".join(f"{s}/{o}: {n}" for (s, o), n in skipped.items()))


if __name__ == "__main__":
    main()
