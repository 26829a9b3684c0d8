"""Which method finds the planted markers of a hard atlas: marker_panels against scanpy and
COSG, with the power of the comparison (issue 29, target 2).

On ``--seeds`` atlases of ``_atlas.make_hard_atlas`` (unequal clusters, two rare ones,
lineages sharing markers, specific markers of varied strength and detection), each
method's top ``--top`` genes per cluster are scored against the cluster's planted specific
markers: precision (hits / top) and recall (hits / planted). The methods:

- scanpy ``rank_genes_groups`` with ``method="wilcoxon"`` and ``"t-test"`` (ranked by the
  signed score, up-regulated first, as scanpy users read them);
- COSG (``cosg.cosg``);
- ``mm.singlecell.marker_panels`` (b = ``--b``, at most 500 cells per cluster and
  resample), with the wilcoxon and t-test selectors, against each other cluster
  (``reference="each"``) or the rest, ``direction`` "up" or "both".

The comparison is paired by cluster and atlas: for each method against marker_panels'
default, the mean difference of recall over the clusters, its standard error, a 95 %
interval, the Wilcoxon signed-rank p, and the smallest difference the comparison had 80 %
power to see (2.8 standard errors, two-sided 5 %).

Writes ``benchmarks/results/singlecell_recovery.csv`` (one row per atlas, cluster and
method) and ``.log`` (the summary, the commit and the command).
Run: ``.venv/bin/python benchmarks/bench_singlecell_recovery.py [--seeds 5]``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).parent))
from _atlas import make_hard_atlas

RESULTS = Path(__file__).parent / "results"

#: The reference methods.
REFERENCES = ("scanpy wilcoxon", "scanpy t-test", "COSG")

#: marker_panels' settings compared (name -> keyword arguments, every one spelled out so
#: that a change of marker_panels' defaults cannot relabel a row); the first is the
#: default.
VARIANTS = {
    "marker_panels wilcoxon up each": {"selector": "wilcoxon", "direction": "up",
                                       "reference": "each"},
    "marker_panels wilcoxon up": {"selector": "wilcoxon", "direction": "up",
                                  "reference": "rest"},
    "marker_panels wilcoxon both": {"selector": "wilcoxon", "direction": "both",
                                    "reference": "rest"},
    "marker_panels t-test up each": {"selector": "t-test", "direction": "up",
                                     "reference": "each"},
    "marker_panels t-test up": {"selector": "t-test", "direction": "up",
                                "reference": "rest"},
}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--cells", type=int, default=20_000)
    ap.add_argument("--genes", type=int, default=3_000)
    ap.add_argument("--clusters", type=int, default=12)
    ap.add_argument("--rare", type=int, default=150)
    ap.add_argument("--lineage-markers", type=int, default=10)
    ap.add_argument("--b", type=int, default=50)
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--variants", nargs="*", default=list(VARIANTS))
    ap.add_argument("--references", nargs="*", default=list(REFERENCES),
                    help="the reference methods to run (none: marker_panels only)")
    ap.add_argument("--out", default=str(RESULTS / "singlecell_recovery.csv"))
    return ap.parse_args(argv)


def one_atlas(seed: int, args: argparse.Namespace) -> list[dict]:
    """Every method on the atlas of ``seed``: one row per cluster and method."""
    import scanpy as sc

    import modelmine as mm

    adata, planted = make_hard_atlas(args.cells, args.genes, args.clusters, seed,
                                     rare=args.rare, lineage_markers=args.lineage_markers)
    groups = list(adata.obs["cluster"].cat.categories)
    sizes = adata.obs["cluster"].value_counts()
    tops: dict[str, tuple[float, dict[str, list[str]]]] = {}
    for method in ("wilcoxon", "t-test"):
        if f"scanpy {method}" not in args.references:
            continue
        ref = adata.copy()
        t = time.perf_counter()
        sc.tl.rank_genes_groups(ref, "cluster", method=method, n_genes=args.top,
                                use_raw=False)
        names = ref.uns["rank_genes_groups"]["names"]
        tops[f"scanpy {method}"] = (time.perf_counter() - t,
                                    {g: list(names[g][:args.top]) for g in groups})
    if "COSG" in args.references:
        import cosg

        ref = adata.copy()
        t = time.perf_counter()
        cosg.cosg(ref, groupby="cluster", n_genes_user=args.top, key_added="cosg")
        names = ref.uns["cosg"]["names"]
        tops["COSG"] = (time.perf_counter() - t, {g: list(names[g][:args.top])
                                                  for g in groups})
    for name in args.variants:
        ref = adata.copy()
        t = time.perf_counter()
        result = mm.singlecell.marker_panels(ref, "cluster", n_bootstraps=args.b,
                                             n_features=args.top, max_per_class=500,
                                             random_state=seed, n_jobs=args.jobs,
                                             progress=False, **VARIANTS[name])
        tops[name] = (time.perf_counter() - t, result.panels)
    rows = []
    for method, (seconds, top) in tops.items():
        for g in groups:
            hits = len(set(top[g]) & planted[g])
            rows.append({"seed": seed, "lineage_markers": args.lineage_markers,
                         "cluster": g, "cells": int(sizes[g]),
                         "method": method, "hits": hits,
                         "precision": hits / max(1, len(top[g])),
                         "recall": hits / len(planted[g]), "seconds": seconds})
    return rows


def paired_summary(table: pd.DataFrame, baseline: str) -> pd.DataFrame:
    """Each method against ``baseline``, paired by atlas and cluster: the mean difference
    of recall (method - baseline), its SE, 95 % interval, the signed-rank p and the
    smallest difference with 80 % power (2.8 SE)."""
    from scipy.stats import wilcoxon

    wide = table.pivot_table(index=["seed", "cluster"], columns="method", values="recall")
    out = []
    for method in wide.columns:
        d = (wide[method] - wide[baseline]).to_numpy()
        se = float(d.std(ddof=1) / np.sqrt(d.size)) if d.size > 1 else float("nan")
        p = float(wilcoxon(d).pvalue) if np.any(d != 0) else 1.0
        rare = table[(table.method == method)].groupby("cluster").cells.first()
        small = rare[rare <= rare.min()].index
        out.append({"method": method, "recall": float(wide[method].mean()),
                    "rare_recall": float(wide[method].loc[
                        wide.index.get_level_values("cluster").isin(small)].mean()),
                    "difference": float(d.mean()), "se": se,
                    "low": float(d.mean() - 1.96 * se), "high": float(d.mean() + 1.96 * se),
                    "signed_rank_p": p, "detectable": 2.8 * se, "pairs": int(d.size),
                    "seconds": float(table[table.method == method].groupby("seed")
                                     .seconds.first().mean())})
    return pd.DataFrame(out).sort_values("recall", ascending=False)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    warnings.simplefilter("ignore")
    rows = []
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        rows.extend(one_atlas(seed, args))
        print(f"atlas {seed} done", flush=True)
    table = pd.DataFrame(rows)
    baseline = args.variants[0]
    summary = paired_summary(table, baseline)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, cwd=Path(__file__).parent).stdout.strip()
    command = ("command: .venv/bin/python benchmarks/bench_singlecell_recovery.py "
               + " ".join(sys.argv[1:] if argv is None else argv))
    text = "\n".join([f"{command}; commit {commit}",
                      f"{args.seeds} atlases of {args.cells:,} cells x {args.genes:,} genes, "
                      f"{args.clusters} clusters (one of 30 %, two of {args.rare}), "
                      f"{args.lineage_markers} markers per lineage of 4 clusters, "
                      f"{args.top} genes per cluster; differences of recall against "
                      f"{baseline!r}, paired by atlas and cluster",
                      summary.to_string(index=False, float_format=lambda v: f"{v:.3f}")])
    print(text)
    table.to_csv(args.out, index=False)
    Path(args.out).with_suffix(".log").write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
