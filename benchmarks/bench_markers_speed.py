"""marker_panels against scanpy's Wilcoxon on a denser atlas (issue 39.8), in one process.

The atlas (seeded): ``--cells`` cells x ``--genes`` genes of Poisson counts whose gene
means are log-normal around ``--mean`` (about ``--density`` of the entries non-zero),
``--clusters`` clusters of which two are rare (300 cells), 10 planted markers per cluster
(counts x 3 in the cluster's cells); CSR float32, normalised to 10^4 counts per cell and
log1p-transformed, as scanpy users do before ``rank_genes_groups``.

Measured back to back in this one process (the machine is shared: a ratio of two timings
taken together is what is reported): ``sc.tl.rank_genes_groups(method="wilcoxon")`` on
all the cells, then ``marker_panels`` at its defaults (wilcoxon against each cluster,
b = 50, 500 cells per cluster and resample, one process), then scanpy again; the ratio is
marker_panels' time over the mean of scanpy's two.

Run: ``.venv/bin/python benchmarks/bench_markers_speed.py [--cells 30000 --genes 2000]``;
writes ``benchmarks/results/markers_speed.csv`` (one row appended per run, with the
commit) and prints the figures.
"""

from __future__ import annotations

import argparse
import subprocess
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.sparse as sp

RESULTS = Path(__file__).parent / "results"


def make_dense_atlas(n_cells: int, n_genes: int, n_clusters: int, mean: float,
                     seed: int = 0):
    import anndata

    rng = np.random.default_rng(seed)
    sizes = np.r_[np.full(n_clusters - 2, (n_cells - 600) // (n_clusters - 2)), 300, 300]
    sizes[0] += n_cells - sizes.sum()
    labels = np.repeat(np.arange(n_clusters), sizes)
    gene_mean = mean * rng.lognormal(0, 1, n_genes) / np.exp(0.5)
    blocks = []
    for k in range(n_clusters):
        mu = np.tile(gene_mean, (sizes[k], 1))
        mu[:, 10 * k:10 * k + 10] *= 3
        blocks.append(sp.csr_matrix(rng.poisson(mu).astype(np.float32)))
    X = sp.vstack(blocks, format="csr")
    total = np.asarray(X.sum(axis=1)).ravel()
    X = sp.diags((1e4 / np.maximum(total, 1)).astype(np.float32)) @ X
    X.data = np.log1p(X.data).astype(np.float32)
    obs = pd.DataFrame({"cluster": pd.Categorical(labels.astype(str))},
                       index=[f"c{i}" for i in range(n_cells)])
    var = pd.DataFrame(index=[f"g{j}" for j in range(n_genes)])
    return anndata.AnnData(X=sp.csr_matrix(X, dtype=np.float32), obs=obs, var=var)


def main() -> None:
    import scanpy as sc

    from modelmine.singlecell import marker_panels

    parser = argparse.ArgumentParser()
    parser.add_argument("--cells", type=int, default=30000)
    parser.add_argument("--genes", type=int, default=2000)
    parser.add_argument("--clusters", type=int, default=10)
    parser.add_argument("--mean", type=float, default=0.3)
    parser.add_argument("-b", type=int, default=50)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    adata = make_dense_atlas(args.cells, args.genes, args.clusters, args.mean)
    density = adata.X.nnz / np.prod(adata.shape)
    times = {}
    t = time.perf_counter()
    sc.tl.rank_genes_groups(adata.copy(), "cluster", method="wilcoxon")
    times["scanpy_1"] = time.perf_counter() - t
    t = time.perf_counter()
    marker_panels(adata, "cluster", n_bootstraps=args.b, progress=False)
    times["marker_panels"] = time.perf_counter() - t
    t = time.perf_counter()
    sc.tl.rank_genes_groups(adata.copy(), "cluster", method="wilcoxon")
    times["scanpy_2"] = time.perf_counter() - t
    scanpy = (times["scanpy_1"] + times["scanpy_2"]) / 2
    import modelmine

    # the commit of the modelmine measured (the checkout PYTHONPATH points to), and whether
    # its working tree had changes
    where = Path(modelmine.__file__).parent
    commit = subprocess.run(["git", "describe", "--always", "--dirty"], capture_output=True,
                            text=True, cwd=where).stdout.strip()
    row = {"commit": commit, "cells": args.cells, "genes": args.genes,
           "clusters": args.clusters, "density": round(float(density), 4), "b": args.b,
           **{k: round(v, 2) for k, v in times.items()},
           "ratio": round(times["marker_panels"] / scanpy, 2)}
    print(row)
    RESULTS.mkdir(exist_ok=True)
    out = RESULTS / "markers_speed.csv"
    table = pd.concat([pd.read_csv(out), pd.DataFrame([row])]) if out.exists() \
        else pd.DataFrame([row])
    table.to_csv(out, index=False)


if __name__ == "__main__":
    main()
