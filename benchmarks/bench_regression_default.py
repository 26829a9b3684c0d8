"""Benchmark: the default regression selector on a raw-intensity microarray (issue 39, item 1).

Design: the predictors are prostate (``mm.datasets.load_prostate()``, 102 x 5966, log10
intensities) back on the raw scale, ``10 ** X`` (values 10 to 16,000, as a lab's array);
for every seed (``numpy.random.default_rng(seed)``) five planted genes S with random signs
``beta_j = +-1`` on their standardised values, and Gaussian noise making
``R^2 = var(X_S beta) / var(y)`` equal ``--r2`` (0.7) in expectation. The truth is S; the
score of a ranking is how many of S are among its best m = 20 (the default m) and best 5.

Selectors: ``svr-rfe`` (modelmine's, the regression default before this benchmark),
``lasso`` (modelmine's, order of entry on the LARS path; the default since), the library
route ``RFE(SVR(kernel="linear"), step=0.1)`` of scikit-learn on the standardised data
(its tied ``ranking_`` ordered by index, as a user gets it), and, with ``--old-seeds``,
the svr-rfe before issue 39 (``RFE(LinearSVR(epsilon=0,
max_iter=10000))`` on [0, 1]-scaled features, tied ranks ordered by index). For each, the
seconds of one fit and whether reversing the columns reverses the ranking exactly.

Run: ``.venv/bin/python benchmarks/bench_regression_default.py --out
benchmarks/results/regression_default.csv`` (prints the tables, the commit and the command;
the log is the printed output). ``--seeds 2 --old-seeds 0`` for a quick look.
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Callable

import numpy as np
import pandas as pd
from _record import finish, head_commit

import modelmine as mm
from modelmine.selectors import get_selector

M = 20


def raw_prostate() -> np.ndarray:
    X, _ = mm.datasets.load_prostate()
    return 10.0 ** np.asarray(X, dtype=np.float64)


def planted(X: np.ndarray, seed: int, r2: float) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    S = rng.choice(X.shape[1], 5, replace=False)
    Z = X[:, S]
    Z = (Z - Z.mean(0)) / Z.std(0)
    signal = Z @ rng.choice([-1.0, 1.0], size=5)
    noise_sd = np.sqrt(signal.var() * (1 - r2) / r2)
    return S, signal + noise_sd * rng.normal(size=X.shape[0])


def total_order(ranking: np.ndarray) -> np.ndarray:
    """Ranks 1..p from a ranking with ties, ties to the lower column index (as a user's
    ``argsort``, and as modelmine's base models turn a tied ranking into a subset)."""
    order = np.argsort(ranking, kind="stable")
    out = np.empty(order.size, dtype=np.int64)
    out[order] = np.arange(1, order.size + 1)
    return out


def _standardised(X: np.ndarray) -> np.ndarray:
    sd = X.std(0)
    return np.where(sd > 0, (X - X.mean(0)) / np.where(sd > 0, sd, 1.0), 0.0)


def library_svr_rfe(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    from sklearn.feature_selection import RFE
    from sklearn.svm import SVR

    return RFE(SVR(kernel="linear"), n_features_to_select=1, step=0.1).fit(
        _standardised(X), (y - y.mean()) / y.std()).ranking_


def old_svr_rfe(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    from sklearn.feature_selection import RFE
    from sklearn.svm import LinearSVR

    lo, span = X.min(axis=0), np.ptp(X, axis=0)
    Z = np.where(span > 0, (X - lo) / np.where(span > 0, span, 1.0), 0.0)
    svr = LinearSVR(C=1.0, epsilon=0.0, max_iter=10000, random_state=0, dual=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return RFE(svr, n_features_to_select=1, step=0.1).fit(
            Z, (y - y.mean()) / y.std()).ranking_


def ours(name: str) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    sel = get_selector(name).for_outcome("regression")
    return lambda X, y: sel.select(X, y, random_state=0).ranking


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--old-seeds", type=int, default=3,
                    help="seeds on which the pre-issue-39 svr-rfe also runs (slow)")
    ap.add_argument("--r2", type=float, default=0.7)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    commit = head_commit()
    X = raw_prostate()
    methods = {"svr-rfe": ours("svr-rfe"), "lasso": ours("lasso"),
               "sklearn RFE(SVR linear)": library_svr_rfe, "svr-rfe before issue 39": old_svr_rfe}
    rows = []
    for seed in range(args.seeds):
        S, y = planted(X, seed, args.r2)
        for name, fit in methods.items():
            if name == "svr-rfe before issue 39" and seed >= args.old_seeds:
                continue
            start = time.perf_counter()
            ranking = fit(X, y)
            seconds = time.perf_counter() - start
            r = total_order(ranking)
            # the user's ranking of the reversed file, mapped back to the columns here
            reversed_total = total_order(fit(X[:, ::-1], y))[::-1]
            rows.append({
                "seed": seed, "selector": name, "seconds": seconds,
                "found_top20": int(np.sum(r[S] <= M)), "found_top5": int(np.sum(r[S] <= 5)),
                "top20_in_first_quarter": int(np.sum(np.flatnonzero(r <= M) < X.shape[1] / 4)),
                "reversal_exact": bool(np.array_equal(reversed_total, r)),
            })
            print(rows[-1], flush=True)
    table = finish(rows, args.out, commit)
    summary = table.groupby("selector").agg(
        seeds=("seed", "size"), found_top20=("found_top20", "mean"),
        found_top20_sd=("found_top20", "std"), found_top5=("found_top5", "mean"),
        top20_in_first_quarter=("top20_in_first_quarter", "mean"),
        reversal_exact=("reversal_exact", "mean"), seconds=("seconds", "median"))
    with pd.option_context("display.width", 200):
        print(summary.to_string(float_format=lambda v: f"{v:.2f}"))
    # paired comparison on the seeds both ran: svr-rfe minus lasso
    wide = table.pivot(index="seed", columns="selector", values="found_top20")
    diff = wide["svr-rfe"] - wide["lasso"]
    print(f"# found_top20, svr-rfe minus lasso over {diff.size} seeds: mean {diff.mean():.2f}, "
          f"SE {diff.std(ddof=1) / np.sqrt(diff.size):.2f}")


if __name__ == "__main__":
    main()
