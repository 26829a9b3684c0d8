"""
Single-cell marker panels, where scanpy reads them
==================================================

A marker panel is a few genes that mark a cluster, for FACS, imaging or a qPCR panel.
``mm.singlecell.marker_panels`` gives every cluster of an AnnData its panel of stably
selected genes in one call: on each resample (capped per cluster) the Wilcoxon selector
scores the genes of the cluster against each other cluster, and the panel is the genes
selected most often (docs/singlecell.md). It writes the result into ``adata.uns`` in the
layout of ``sc.tl.rank_genes_groups``, so scanpy's own plots draw it.

The data are scanpy's ``pbmc68k_reduced`` (700 blood cells x 765 genes, log-normalised,
shipped with scanpy), clustered by Louvain.

Run it::

    python examples/singlecell_panels.py [--fast] [--out DIR]   # b = 50, or 20
"""

import argparse
import warnings
from pathlib import Path

import matplotlib.pyplot as plt
import scanpy as sc

import modelmine as mm

parser = argparse.ArgumentParser(description="Single-cell marker panels of scanpy's "
                                 "pbmc68k_reduced clusters.")
parser.add_argument("--fast", action="store_true", help="b = 20 (the test suite, the gallery)")
parser.add_argument("--out", type=Path, default=None, help="directory for the marker report")
args = parser.parse_args()
b = 20 if args.fast else 50

# %%
# The cells and their clusters
# ----------------------------
with warnings.catch_warnings():
    warnings.simplefilter("ignore", FutureWarning)  # anndata's notes on its own future
    adata = sc.datasets.pbmc68k_reduced().raw.to_adata()
print(adata)
print(adata.obs["louvain"].value_counts().sort_index().to_string())

# %%
# A panel per cluster
# -------------------
panels = mm.singlecell.marker_panels(adata, "louvain", n_bootstraps=b, n_features=5,
                                     max_per_class=100, progress=False)
print(panels)
for cluster, genes in panels.panels.items():
    print(f"cluster {cluster:>2}: {', '.join(genes)}")

# %%
# In scanpy's layout
# ------------------
# ``adata.uns["modelmine_markers"]`` is what ``sc.tl.rank_genes_groups`` writes: scanpy's
# readers and plots take it as their own.
print(sc.get.rank_genes_groups_df(adata, group="1", key="modelmine_markers").head())
with warnings.catch_warnings():
    warnings.simplefilter("ignore", FutureWarning)  # scanpy's notes on its own future
    sc.pl.rank_genes_groups_dotplot(adata, key="modelmine_markers", n_genes=3,
                                    dendrogram=False, show=False)
plt.gcf().suptitle("marker panels (modelmine) in scanpy's dot plot")

# %%
# A report for the biologist
# --------------------------
# One self-contained page: each cluster's panel, its stability, the dot plot and the gene
# combinations the resamples select together.
if args.out:
    args.out.mkdir(parents=True, exist_ok=True)
    page = panels.write_report(args.out / "markers.html", adata)
    print(f"wrote {page.name}")
