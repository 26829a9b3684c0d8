"""
Per-class markers: a panel of genes for every cell type
=======================================================

With three or more classes, a consensus signature says which genes separate the classes,
not which gene marks which class. ``mm.run(..., per_class=True)`` also selects every class
against the rest, on the run's own bootstrap resamples, so each class gets its own stable
panel, and ``run.markers()`` says for each gene of a panel its direction, effect, AUROC and
selection frequency (docs/markers.md).

The data are scanpy's ``pbmc68k_reduced`` (700 blood cells x 765 genes, log-normalised,
shipped with scanpy), labelled by the ten FACS-sorted populations of Zheng et al. (2017),
``bulk_labels``.

Run it::

    python examples/per_class_markers.py [--fast] [--out DIR]   # b = 100, or 20
"""

import argparse
import warnings
from pathlib import Path

import numpy as np
import scanpy as sc
from matplotlib.figure import Figure

import modelmine as mm

parser = argparse.ArgumentParser(description="Per-class marker panels of ten blood cell "
                                 "types (scanpy's pbmc68k_reduced).")
parser.add_argument("--fast", action="store_true", help="b = 20 (the test suite, the gallery)")
parser.add_argument("--out", type=Path, default=None, help="directory for markers.csv")
args = parser.parse_args()
b = 20 if args.fast else 100

# %%
# The cells
# ---------
with warnings.catch_warnings():
    warnings.simplefilter("ignore", FutureWarning)  # anndata's notes on its own future
    adata = sc.datasets.pbmc68k_reduced().raw.to_adata()
print(adata.obs["bulk_labels"].value_counts().to_string())

# %%
# One run, a panel per class
# --------------------------
# ANOVA's F on b resamples; mostFreq keeps each panel's 5 most frequently selected genes.
run = mm.run(adata, "obs:bulk_labels", selector="anova", operators=["mostFreq"],
             n_bootstraps=b, n_features=5, per_class=True, random_state=0, progress=False)
for cell_type, panel in run.class_signatures.items():
    print(f"{cell_type:>30}: {', '.join(panel['mostFreq'].names)}")

# %%
# The markers table
# -----------------
# One row per class and gene of its panel: up or down in the class, the effect (the
# standardised mean difference on log-normalised data), the AUROC of the gene alone, how
# often the base models chose it.
markers = run.markers()
columns = ["class", "feature", "direction", "effect_size", "auroc", "frequency"]
print(markers[columns].head(15).to_string(index=False))

# %%
# The panels at a glance
# ----------------------
# Genes (rows) by cell type (columns): the dot's size is how often the class's base models
# selected the gene, its colour the effect in that class against the rest.
effect, frequency = run.marker_grid()
dots = Figure(figsize=(8, 0.22 * len(effect) + 1.8))
axes = dots.subplots()
rows, cols = np.meshgrid(np.arange(len(effect)), np.arange(effect.shape[1]), indexing="ij")
limit = float(np.nanmax(np.abs(effect.to_numpy())))
points = axes.scatter(cols.ravel(), rows.ravel(), s=120 * frequency.to_numpy().ravel() + 2,
                      c=effect.to_numpy().ravel(), cmap="RdBu_r", vmin=-limit, vmax=limit)
axes.set_xticks(range(effect.shape[1]), effect.columns, rotation=45, ha="right")
axes.set_yticks(range(len(effect)), effect.index)
axes.invert_yaxis()
axes.set_title("Per-class panels: size = selection frequency, colour = effect")
measure = markers["effect_measure"].iloc[0].replace("_", " ")
dots.colorbar(points, ax=axes, label=f"effect in the class ({measure})")
dots.tight_layout()

# %%
# Files
# -----
if args.out:
    args.out.mkdir(parents=True, exist_ok=True)
    markers.to_csv(args.out / "markers.csv", index=False)
    dots.savefig(args.out / "panels.png", dpi=110)
    print("wrote markers.csv and panels.png")
