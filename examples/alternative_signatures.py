"""
Alternative leukemia signatures, and how much they overlap
==========================================================

Woznica, Nguyen and Kalousis (KDD 2012, section 4.2, Table 4): on leukemia (72 samples x
7129 genes, Golub et al. 1999), the multi-model operator allMed returns k alternative
signatures that are diverse yet each a model the selector made. This example builds the
base models, the closedApr consensus signature and k allMed alternatives, and compares
them by their pairwise Jaccard overlap.

Run it::

    python examples/alternative_signatures.py              # svm-rfe, b = 150, k = 10 (the paper)
    python examples/alternative_signatures.py --fast       # anova, b = 30, k = 4 (the gallery)
    python examples/alternative_signatures.py --out DIR    # also write the signatures as CSV
"""

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

import modelmine as mm

parser = argparse.ArgumentParser(description="Alternative leukemia signatures with allMed and "
                                 "closedApr, and how much they overlap.")
parser.add_argument("--fast", action="store_true", help="small run (the test suite, the gallery)")
parser.add_argument("--selector", default=None,
                    help="selector of the base models (default: svm-rfe; anova with --fast)")
parser.add_argument("--out", default=None, help="directory for the signatures as CSV")
args = parser.parse_args()
b, k = (30, 4) if args.fast else (150, 10)
selector = args.selector or ("anova" if args.fast else "svm-rfe")

# %%
# The base models
# ---------------
# b fits of the selector on bootstrap samples, each keeping its m = 20 best genes.
X, y, names = mm.datasets.load_leukemia(return_names=True)
base = mm.bootstrap(X, y, selector=selector, n_bootstraps=b, n_features=20,
                    feature_names=names, random_state=0, n_jobs=2)
print(base)

# %%
# One consensus signature
# -----------------------
# closedApr joins the closed gene sets of highest support until it holds m genes (KDD
# 2012, section 2.1); its provenance says how many itemsets it used (the paper's Table 3).
closed = mm.aggregate(base, "closedApr", n_features=20)
prov = closed.provenance
print(f"closedApr: {prov['n_itemsets_used']} itemsets, mean size "
      f"{prov['mean_itemset_size']:.1f}, mean support {prov['mean_itemset_support']:.2f}")
print("  " + " ".join(closed.names))

# %%
# k alternatives
# --------------
# allMed clusters the base models by k-medoids on their Jaccard distances and returns each
# cluster's medoid: k signatures, each one of the models the selector made.
alts = mm.aggregate(base, "allMed", n_signatures=k)
print(f"allMed: {k} alternative signatures (medoids of k-medoids on Jaccard distances)")
for i, sig in enumerate(alts):
    print(f"  [{i}] cluster of {sig.provenance['cluster_size']:3d} models, overlap with "
          f"closedApr {sig.overlap(closed):.2f}: " + " ".join(sig.names[:8]) + " ...")

# %%
# How different the alternatives are
# ----------------------------------
# The mean of the pairwise overlaps is the paper's "similarity" of Table 4: the lower, the
# more diverse the alternatives.
sim = alts.overlap()
np.set_printoptions(precision=2, suppress=True, linewidth=120)
print("Pairwise Jaccard overlap among the allMed signatures:")
print(sim)
print(f"mean pairwise overlap (KDD 2012 Table 4 'similarity'): {alts.mean_overlap():.2f}")
overlap_figure = mm.report.plot_signature_overlap(mm.report.operator_result("allMed", alts))

# %%
# Files
# -----
# With ``--out``, the signatures and the overlap matrix as CSV.
if args.out:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    closed.to_frame().to_csv(out / "closedApr.csv")
    alts.to_frame().to_csv(out / "allMed.csv", index=False)
    pd.DataFrame(sim).to_csv(out / "allMed_overlap.csv")
    print(f"wrote {out}/closedApr.csv, allMed.csv, allMed_overlap.csv")
