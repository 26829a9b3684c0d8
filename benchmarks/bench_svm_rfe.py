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
Run: ``.venv/bin/python benchmarks/bench_svm_rfe.py [--repeats 5]``.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from scipy.stats import spearmanr
from sklearn.exceptions import ConvergenceWarning
from sklearn.feature_selection import RFE
from sklearn.svm import SVC, LinearSVC

from modelmine import datasets
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
    args = parser.parse_args()
    warnings.simplefilter("ignore", ConvergenceWarning)

    header = (f"{'dataset':<10}{'method':<28}{'CPU (s)':>9}{'wall (s)':>10}{'lib/ours':>10}"
              f"{'same rank':>11}{'Spearman':>10}")
    print(header)
    print("-" * len(header))
    for name in ("colon", "leukemia"):
        X, y = getattr(datasets, f"load_{name}")()[:2]
        X = np.asarray(X, dtype=np.float64)
        y = np.unique(y, return_inverse=True)[1]
        t_ours, w_ours, ours = _median_time(args.repeats, svm_rfe, X, y, C=0.5, step=0.1)
        rows = [("modelmine svm_rfe", t_ours, w_ours, ours.ranking_tied)]
        for label, est in (("RFE(SVC(linear))", SVC(kernel="linear", C=0.5)),
                           ("RFE(LinearSVC)", LinearSVC(C=0.5))):
            rfe = RFE(est, n_features_to_select=1, step=0.1)
            t_lib, w_lib, fitted = _median_time(max(1, args.repeats // 2 + 1), rfe.fit, X, y)
            rows.append((label, t_lib, w_lib, fitted.ranking_))
        for label, t, w, ranking in rows:
            same = np.mean(ranking == ours.ranking_tied)
            rho = spearmanr(ranking, ours.ranking_tied).statistic
            print(f"{name:<10}{label:<28}{t:>9.4f}{w:>10.4f}{t / t_ours:>10.1f}{same:>11.3f}"
                  f"{rho:>10.3f}")
        # the papers' rule, 10 % of the remaining features per step (no library equivalent)
        t_rem, w_rem, rem = _median_time(args.repeats, svm_rfe, X, y, C=0.5, step=0.1,
                                         step_rule="remaining")
        print(f"{name:<10}{'svm_rfe step_rule=remaining':<28}{t_rem:>9.4f}{w_rem:>10.4f}"
              f"   ({rem.n_steps} fits, {rem.n_kernel_computations} kernels from scratch)")


if __name__ == "__main__":
    main()
