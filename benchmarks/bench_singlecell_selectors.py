"""The sparse single-cell selectors against scanpy and scipy (issue 29, item 2).

Simulated counts: 20,000 cells x 2,000 genes (``--quick``: 5,000 cells), about 5 %
non-zero, negative-binomial values, 8 clusters with 10 planted markers each, log1p-
transformed (CSR, float64). Timed, best of ``--repeats``:

- one cluster against the rest, one fit: ``wilcoxon`` against scanpy's
  ``rank_genes_groups(method="wilcoxon", tie_correct=True, groups=[c])`` and
  :func:`scipy.stats.mannwhitneyu` (on the dense matrix: scipy ranks dense arrays only);
  ``t-test`` against scanpy's ``method="t-test"`` and :func:`scipy.stats.ttest_ind`
  (``equal_var=False``, dense); ``logreg`` (L1, liblinear) against the
  ``LogisticRegression`` fit it wraps;
- every cluster against the rest (the per-class panels,
  ``select_rows_one_vs_rest`` on all the cells, ``prepare`` included): against scanpy on
  all the groups (one call) and scipy once per cluster; ``logreg``: 8 liblinear fits
  against the same fits by hand, and scanpy's ``method="logreg"`` (one multinomial lbfgs
  fit, another model: a time for scale only);
- one bootstrap resample, every cluster against the rest, as :func:`modelmine.bootstrap`
  runs it (the column sort of ``prepare`` shared by the chunk's resamples, not timed)
  against scanpy on the resampled cells (``adata[rows]``).

With ``--pairwise`` (written to ``singlecell_selectors_pairwise.csv`` instead): one
resample capped at 500 cells per cluster (as ``marker_panels`` draws them), every cluster
against each other cluster, ``marker_panels``' statistics: ``wilcoxon`` (the weakest
AUROC - 1/2 of the pairs, ``reference="each"``) against :func:`scipy.stats.mannwhitneyu`
on each pair of clusters, and ``t-test`` (the weakest Welch t) against
:func:`scipy.stats.ttest_ind` on each pair (dense: scipy takes dense arrays only).

Each row also gives the largest relative difference of the statistics from the
reference's (|z| and |t| against scanpy's float32 scores: about 6e-8). Ratios are ours /
reference (below 1: ours is faster). scanpy's rank tests run numba-parallel on every core
(``os.cpu_count()`` is printed); ours are single-threaded numpy.

Writes ``benchmarks/results/singlecell_selectors.csv``.

Run: ``.venv/bin/python benchmarks/bench_singlecell_selectors.py [--quick] [--repeats 3]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.sparse as sp
from scipy import stats

from modelmine.selectors._singlecell import (
    LogRegSelector,
    WelchTSelector,
    WilcoxonSelector,
)

RESULTS = Path(__file__).parent / "results"


def best(fn, repeats: int) -> tuple[float, object]:
    """The fastest of ``repeats`` calls of ``fn`` (seconds) and its last result."""
    out, res = np.inf, None
    for _ in range(repeats):
        t = time.perf_counter()
        res = fn()
        out = min(out, time.perf_counter() - t)
    return out, res


def simulate(n: int, p: int = 2000, n_clusters: int = 8, density: float = 0.05,
             seed: int = 0) -> tuple[sp.csr_matrix, np.ndarray]:
    """log1p of negative-binomial counts, ~``density`` non-zero, 10 markers per cluster."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_clusters, n)
    size = int(density * n * p * 0.97)
    rows = [rng.integers(0, n, size)]
    cols = [rng.integers(0, p, size)]
    vals = [rng.negative_binomial(2, 0.5, size) + 1.0]
    for k in range(n_clusters):
        cells = np.flatnonzero(y == k)
        for g in range(10 * k, 10 * k + 10):
            on = cells[rng.random(cells.size) < 0.5]
            rows.append(on)
            cols.append(np.full(on.size, g))
            vals.append(rng.negative_binomial(4, 0.3, on.size) + 1.0)
    X = sp.coo_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                      shape=(n, p)).tocsr()
    X.sum_duplicates()
    X.data = np.log1p(X.data)
    return X, y


def scanpy_run(adata, method: str, groups, **kwargs):
    """rank_genes_groups on adata; its scores as an array (groups x genes, gene order)."""
    import scanpy as sc

    sc.tl.rank_genes_groups(adata, "cluster", method=method, groups=groups,
                            reference="rest", n_genes=adata.n_vars, use_raw=False,
                            **kwargs)
    res = adata.uns["rank_genes_groups"]
    col = pd.Index(adata.var_names)
    names = res["names"].dtype.names
    out = np.zeros((len(names), adata.n_vars))
    for i, g in enumerate(names):
        out[i, col.get_indexer(res["names"][g])] = np.asarray(res["scores"][g], float)
    return out


def rel_diff(ours: np.ndarray, ref: np.ndarray) -> float:
    """The largest |ours - |ref|| / max(|ref|, 1)."""
    ref = np.abs(np.asarray(ref, dtype=np.float64))
    return float(np.max(np.abs(ours - ref) / np.maximum(ref, 1.0)))


def tie_terms(dense: np.ndarray) -> np.ndarray:
    """sum (t^3 - t) over the runs of tied values of each column (for z from U)."""
    srt = np.sort(dense, axis=0)
    out = np.zeros(dense.shape[1])
    for j in range(dense.shape[1]):
        edges = np.flatnonzero(np.r_[True, srt[1:, j] != srt[:-1, j], True])
        t = np.diff(edges).astype(np.float64)
        out[j] = np.sum(t ** 3 - t)
    return out


def mwu(dense: np.ndarray, y: np.ndarray, c: int):
    """scipy's Mann-Whitney U test of cluster c against the rest (asymptotic, ties)."""
    return stats.mannwhitneyu(dense[y == c], dense[y != c], axis=0, use_continuity=False,
                              method="asymptotic")


def u_to_z(u: np.ndarray, n1: int, n: int, ties: np.ndarray) -> np.ndarray:
    """|z| from scipy's U1 and the tie term (its p-values underflow for markers)."""
    n0 = n - n1
    sd = np.sqrt(n1 * n0 / 12.0 * ((n + 1) - ties / (n * (n - 1.0))))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.nan_to_num(np.abs(u - n1 * n0 / 2.0) / sd)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="5,000 cells instead of 20,000")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--pairwise", action="store_true",
                    help="only the capped resample, each cluster against each other")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    if args.out is None:
        args.out = str(RESULTS / ("singlecell_selectors_pairwise.csv" if args.pairwise
                                  else "singlecell_selectors.csv"))
    warnings.simplefilter("ignore")
    import scanpy as sc
    from sklearn.linear_model import LogisticRegression

    n = 5000 if args.quick else 20000
    X, y = simulate(n)
    K = int(y.max()) + 1
    p = X.shape[1]
    print(f"{n} cells x {p} genes, {X.nnz / (n * p):.1%} non-zero, {K} clusters; "
          f"{os.cpu_count()} CPUs; python {platform.python_version()}, "
          f"scanpy {sc.__version__ if hasattr(sc, '__version__') else '?'}", flush=True)
    adata = sc.AnnData(X)
    adata.obs["cluster"] = pd.Categorical([f"c{k}" for k in y],
                                          categories=[f"c{k}" for k in range(K)])
    # numba compiles scanpy's rank tests at the first call: warm up on a small copy
    small = adata[:300].copy()
    for method in ("wilcoxon", "t-test"):
        scanpy_run(small, method, "all", tie_correct=True)
    dense = X.toarray()  # scipy's tests take dense arrays only
    wil, tt, lr = WilcoxonSelector(), WelchTSelector(), LogRegSelector(C=0.1)
    r = args.repeats
    rows = []

    def add(task, selector, ours, ref_name, ref, diff):
        rows.append({"cells": n, "genes": p, "clusters": K, "task": task,
                     "selector": selector, "seconds": ours, "reference": ref_name,
                     "reference_seconds": ref, "ratio": ours / ref,
                     "max_rel_diff": diff})
        print(f"{task:<22} {selector:<9} {ours:8.3f} s  vs {ref_name:<42} {ref:8.3f} s"
              f"  ratio {ours / ref:6.3f}  diff {diff:.1e}", flush=True)

    if args.pairwise:
        pairwise(X, y, dense, r, add)
        finish(rows, args)
        return

    # -- one cluster against the rest ------------------------------------------------
    yb = (y == 0).astype(np.int64)
    t_ours, z = best(lambda: wil.select(X, yb, random_state=0).scores, r)
    t_ref, ref = best(lambda: scanpy_run(adata, "wilcoxon", ["c0"], tie_correct=True), r)
    add("one vs rest", "wilcoxon", t_ours, "scanpy rank_genes_groups wilcoxon", t_ref,
        rel_diff(z, ref[0]))
    ties = tie_terms(dense)
    t_ref, res = best(lambda: mwu(dense, y, 0), 1)
    add("one vs rest", "wilcoxon", t_ours, "scipy mannwhitneyu (dense)", t_ref,
        rel_diff(z, u_to_z(res.statistic, int(yb.sum()), n, ties)))
    t_ours, t = best(lambda: tt.select(X, yb, random_state=0).scores, r)
    t_ref, ref = best(lambda: scanpy_run(adata, "t-test", ["c0"]), r)
    add("one vs rest", "t-test", t_ours, "scanpy rank_genes_groups t-test", t_ref,
        rel_diff(t, ref[0]))
    t_ref, ref = best(lambda: stats.ttest_ind(dense[y == 0], dense[y != 0],
                                              equal_var=False).statistic, r)
    add("one vs rest", "t-test", t_ours, "scipy ttest_ind Welch (dense)", t_ref,
        rel_diff(t, np.nan_to_num(ref)))
    t_ours, coef = best(lambda: lr.select(X, yb, random_state=0).scores, r)
    t_ref, ref = best(lambda: LogisticRegression(
        C=0.1, l1_ratio=1.0, solver="liblinear", max_iter=1000, random_state=0).fit(
        X, yb).coef_[0], r)
    add("one vs rest", "logreg", t_ours, "sklearn LogisticRegression L1 liblinear", t_ref,
        rel_diff(coef, ref))

    # -- every cluster against the rest (all the cells) ---------------------------------
    classes = tuple(range(K))
    everyone = np.arange(n)

    def panels(sel, prepared=None):
        prep = sel.prepare(X, y) if prepared is None else prepared
        outs = sel.select_rows_one_vs_rest([prep] * K, X, y, everyone, classes,
                                           random_state=0)
        return np.stack([o.scores for o in outs])

    t_ours, z = best(lambda: panels(wil), r)
    t_ref, ref = best(lambda: scanpy_run(adata, "wilcoxon", "all", tie_correct=True), r)
    add("all clusters", "wilcoxon", t_ours, "scanpy rank_genes_groups wilcoxon", t_ref,
        rel_diff(z, ref))
    t_ref, res = best(lambda: [mwu(dense, y, c) for c in classes], 1)
    ref = np.stack([u_to_z(rc.statistic, int((y == c).sum()), n, ties)
                    for c, rc in zip(classes, res)])
    add("all clusters", "wilcoxon", t_ours, "scipy mannwhitneyu per cluster (dense)",
        t_ref, rel_diff(z, ref))
    t_ours, t = best(lambda: panels(tt), r)
    t_ref, ref = best(lambda: scanpy_run(adata, "t-test", "all"), r)
    add("all clusters", "t-test", t_ours, "scanpy rank_genes_groups t-test", t_ref,
        rel_diff(t, ref))
    t_ref, ref = best(lambda: np.stack([np.nan_to_num(stats.ttest_ind(
        dense[y == c], dense[y != c], equal_var=False).statistic) for c in classes]), r)
    add("all clusters", "t-test", t_ours, "scipy ttest_ind Welch per cluster (dense)",
        t_ref, rel_diff(t, ref))
    t_ours, coef = best(lambda: panels(lr), 1)
    t_ref, ref = best(lambda: np.stack([np.abs(LogisticRegression(
        C=0.1, l1_ratio=1.0, solver="liblinear", max_iter=1000, random_state=0).fit(
        X, (y == c).astype(int)).coef_[0]) for c in classes]), 1)
    add("all clusters", "logreg", t_ours, "sklearn LogisticRegression L1, per cluster",
        t_ref, rel_diff(coef, ref))
    t_ref, _ = best(lambda: scanpy_run(adata, "logreg", "all", max_iter=1000), 1)
    add("all clusters", "logreg", t_ours, "scanpy logreg (multinomial: other model)",
        t_ref, float("nan"))

    # -- one bootstrap resample, every cluster against the rest --------------------------
    rng = np.random.default_rng(1)
    drawn = rng.integers(0, n, n)
    prepared = wil.prepare(X, y)

    def resample_panels(sel, prep):
        outs = sel.select_rows_one_vs_rest([prep] * K, X, y, drawn, classes,
                                           random_state=0)
        return np.stack([o.scores for o in outs])

    def scanpy_resample(method, **kwargs):
        sub = sc.AnnData(X[drawn])
        sub.obs["cluster"] = adata.obs["cluster"].to_numpy()[drawn]
        return scanpy_run(sub, method, "all", **kwargs)

    t_ours, z = best(lambda: resample_panels(wil, prepared), r)
    t_ref, ref = best(lambda: scanpy_resample("wilcoxon", tie_correct=True), r)
    add("bootstrap resample", "wilcoxon", t_ours, "scanpy wilcoxon on adata[rows]", t_ref,
        rel_diff(z, ref))
    t_ours, t = best(lambda: resample_panels(tt, None), r)
    t_ref, ref = best(lambda: scanpy_resample("t-test"), r)
    add("bootstrap resample", "t-test", t_ours, "scanpy t-test on adata[rows]", t_ref,
        rel_diff(t, ref))

    finish(rows, args)


def pairwise(X, y, dense, r, add) -> None:
    """One resample capped at 500 cells per cluster, every cluster against each other
    cluster: ours (the weakest pairwise statistic) against scipy on each pair."""
    K = int(y.max()) + 1
    classes = tuple(range(K))
    rng = np.random.default_rng(2)
    drawn = np.sort(np.concatenate([rng.choice(np.flatnonzero(y == k), min(
        500, round(0.8 * int((y == k).sum()))), replace=False) for k in classes]))
    Xd, yd = dense[drawn], y[drawn]

    def ours(sel):
        outs = sel.select_rows_one_vs_rest([sel.prepare(X, y)] * K, X, y, drawn, classes,
                                           random_state=0)
        return np.stack([o.scores for o in outs])

    def scipy_pairs(test):
        out = np.full((K, X.shape[1]), np.inf)
        for c in classes:
            for j in classes:
                if j != c:
                    out[c] = np.minimum(out[c], test(Xd[yd == c], Xd[yd == j]))
        return out

    def auroc(a, b):
        return stats.mannwhitneyu(a, b).statistic / (a.shape[0] * b.shape[0]) - 0.5

    def welch(a, b):
        return np.nan_to_num(stats.ttest_ind(a, b, equal_var=False).statistic)

    wil = WilcoxonSelector(direction="up", reference="each")
    t_ours, z = best(lambda: ours(wil), r)
    t_ref, ref = best(lambda: scipy_pairs(auroc), 1)
    add("capped resample, each", "wilcoxon", t_ours,
        f"scipy mannwhitneyu per pair ({K * (K - 1)} pairs)", t_ref, signed_diff(z, ref))
    tt = WelchTSelector(direction="up", reference="each")
    t_ours, t = best(lambda: ours(tt), r)
    t_ref, ref = best(lambda: scipy_pairs(welch), 1)
    add("capped resample, each", "t-test", t_ours,
        f"scipy ttest_ind Welch per pair ({K * (K - 1)} pairs)", t_ref,
        signed_diff(t, ref))


def signed_diff(ours: np.ndarray, ref: np.ndarray) -> float:
    """The largest |ours - ref| / max(|ref|, 1) (signed statistics: direction "up")."""
    return float(np.max(np.abs(ours - ref) / np.maximum(np.abs(ref), 1.0)))


def finish(rows, args) -> None:
    table = pd.DataFrame(rows)
    print(table.to_string(index=False, float_format=lambda v: f"{v:.4g}"))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(args.out, index=False)
    print(f"# command: .venv/bin/python {Path(sys.argv[0]).as_posix()} "
          f"{' '.join(sys.argv[1:])}; wrote {args.out}")


if __name__ == "__main__":
    main()
