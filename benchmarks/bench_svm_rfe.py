"""Benchmark: modelmine's SVM-RFE against scikit-learn's RFE, on real microarray data.

Compares, on colon (62 x 2000) and leukemia (72 x 7129), a full elimination down to one
feature with 10 % of the original features removed per step (C = 0.5, as in Woznica et al.,
KDD 2012):

* ``svm_rfe`` (modelmine: libsvm on the precomputed, down-dated linear kernel);
* ``RFE(SVC(kernel="linear", C=0.5), step=0.1)``: the same model, the reference;
* ``RFE(LinearSVC(C=0.5), step=0.1)``: the route users often take (liblinear: squared
  hinge loss and a penalised intercept, hence a different model and a different ranking).

Prints the median CPU and wall time of a few repeats, the CPU ratio library / ours, and the
agreement of the scikit-learn-style tied rankings with ours (fraction of features with the
same rank and Spearman correlation).
Then, on one bootstrap of each data set (the rows ``mm.bootstrap`` fits, about 63 % of them
distinct), both step rules: ``svm_rfe(X[rows], y[rows])`` (the distinct rows weighted by their
multiplicities) against the same elimination with the rows repeated (the route before issue
15's distinct-row solve) and against the scikit-learn route on the same resample
(``RFE(SVC(kernel="linear", C=0.5), step=0.1)``, or that SVC refitted on the survivors with
the remaining rule).
Run: ``.venv/bin/python benchmarks/bench_svm_rfe.py [--repeats 5] [--quick]``.
"""

from __future__ import annotations

import argparse
import os
import time
import warnings

import numpy as np
from scipy.stats import spearmanr
from sklearn.exceptions import ConvergenceWarning
from sklearn.feature_selection import RFE
from sklearn.svm import SVC, LinearSVC

from modelmine import datasets
from modelmine.selectors import _svm_rfe, _svm_solver
from modelmine.selectors._svm_rfe import svm_rfe


def _median_time(repeats: int, func, *args, **kwargs):
    """Median CPU time and median wall time of ``repeats`` calls, and the last result.

    CPU time (all of this process's threads) is the headline: on a shared machine the wall
    time mostly measures the other users. Every method here runs on one thread (libsvm,
    liblinear, and svm_rfe limits BLAS to one thread), so the comparison is fair.
    """
    cpu, wall, result = [], [], None
    for _ in range(repeats):
        c0, w0 = time.process_time(), time.perf_counter()
        result = func(*args, **kwargs)
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return float(np.median(cpu)), float(np.median(wall)), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="one repeat of everything")
    args = parser.parse_args()
    if args.quick:
        args.repeats = 1
    warnings.simplefilter("ignore", ConvergenceWarning)
    print("load average {:.1f} / {:.1f} / {:.1f}".format(*os.getloadavg()))

    header = (
        f"{'dataset':<10}{'method':<28}{'CPU (s)':>9}{'wall (s)':>10}{'lib/ours':>10}"
        f"{'same rank':>11}{'Spearman':>10}"
    )
    print(header)
    print("-" * len(header))
    for name in ("colon", "leukemia"):
        X, y = _microarray(name)
        t_ours, w_ours, ours = _median_time(args.repeats, svm_rfe, X, y, C=0.5, step=0.1)
        rows = [("modelmine svm_rfe", t_ours, w_ours, ours.ranking_tied)]
        for label, est in (
            ("RFE(SVC(linear))", SVC(kernel="linear", C=0.5)),
            ("RFE(LinearSVC)", LinearSVC(C=0.5)),
        ):
            rfe = RFE(est, n_features_to_select=1, step=0.1)
            t_lib, w_lib, fitted = _median_time(max(1, args.repeats // 2 + 1), rfe.fit, X, y)
            rows.append((label, t_lib, w_lib, fitted.ranking_))
        for label, t, w, ranking in rows:
            same = np.mean(ranking == ours.ranking_tied)
            rho = spearmanr(ranking, ours.ranking_tied).statistic
            print(
                f"{name:<10}{label:<28}{t:>9.4f}{w:>10.4f}{t / t_ours:>10.1f}{same:>11.3f}"
                f"{rho:>10.3f}"
            )
        # the papers' rule, 10 % of the remaining features per step (no library equivalent)
        t_rem, w_rem, rem = _median_time(
            args.repeats, svm_rfe, X, y, C=0.5, step=0.1, step_rule="remaining"
        )
        print(
            f"{name:<10}{'svm_rfe step_rule=remaining':<28}{t_rem:>9.4f}{w_rem:>10.4f}"
            f"   ({rem.n_steps} fits, {rem.n_kernel_computations} kernels from scratch)"
        )
    bench_bootstrap(args.repeats)


def _repeated_rows(X, y, rule):
    """The elimination with the bootstrap's rows repeated (no weights): before issue 15's
    distinct-row solve."""
    with _svm_solver._one_blas_thread(), _svm_solver._fast_sklearn():
        return _svm_rfe._svm_rfe(X, y, 0.5, 0.1, rule, 1, 1e-3)


def _svc_rfe_remaining(X, y):
    """SVC(kernel="linear", C=0.5) refitted on the survivors, 10 % of the remaining removed
    per step: RFE's procedure with the papers' rule; returns the tied ranking."""
    p = X.shape[1]
    alive, step_of, k = np.arange(p), np.zeros(p, dtype=np.int64), 0
    while alive.size > 1:
        imp = (SVC(kernel="linear", C=0.5).fit(X[:, alive], y).coef_ ** 2).sum(axis=0)
        out = np.argsort(imp, kind="stable")[: min(max(1, int(0.1 * alive.size)), alive.size - 1)]
        k += 1
        step_of[alive[out]] = k
        alive = np.delete(alive, out)
    return np.where(step_of == 0, 1, k - step_of + 2)


def _microarray(name: str) -> tuple[np.ndarray, np.ndarray]:
    """A shared microarray as float64 values and 0..k-1 class codes."""
    X, y = getattr(datasets, f"load_{name}")()[:2]
    return np.asarray(X, dtype=np.float64), np.unique(y, return_inverse=True)[1]


def bench_bootstrap(repeats: int) -> None:
    print(f"\none bootstrap (seed 0), CPU seconds, median of {repeats}")
    header = (
        f"{'dataset':<10}{'rule':<11}{'distinct':>9}{'ours':>8}{'repeated':>10}"
        f"{'ref':>8}{'ref/ours':>10}{'repeated/ours':>15}{'same rank':>11}"
    )
    print(header)
    print("-" * len(header))
    for name in ("colon", "leukemia"):
        X, y = _microarray(name)
        rows = np.random.default_rng(0).choice(X.shape[0], X.shape[0])
        Xb, yb = X[rows], y[rows]
        for rule in ("original", "remaining"):
            t_ours, _, ours = _median_time(repeats, svm_rfe, Xb, yb, step=0.1, step_rule=rule)
            t_rep, _, _ = _median_time(repeats, _repeated_rows, Xb, yb, rule)
            if rule == "original":
                rfe = RFE(SVC(kernel="linear", C=0.5), n_features_to_select=1, step=0.1)
                t_ref, _, fitted = _median_time(repeats, rfe.fit, Xb, yb)
                tied = fitted.ranking_
            else:
                t_ref, _, tied = _median_time(repeats, _svc_rfe_remaining, Xb, yb)
            same = np.mean(tied == ours.ranking_tied)
            print(
                f"{name:<10}{rule:<11}{np.unique(rows).size / rows.size:>9.3f}{t_ours:>8.4f}"
                f"{t_rep:>10.4f}{t_ref:>8.4f}{t_ref / t_ours:>10.1f}{t_rep / t_ours:>15.1f}"
                f"{same:>11.3f}"
            )
    print("load average {:.1f} / {:.1f} / {:.1f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
