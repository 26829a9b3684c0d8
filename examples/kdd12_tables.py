"""
The KDD'12 tables, ours beside the paper's
==========================================

Woznica, Nguyen and Kalousis (KDD 2012, section 4) rank their single-model operators by
points (Table 2: a point for every significant win in error or stability, over the datasets
and selectors) and compare the alternatives of the multi-model operators on leukemia
(Table 4: agreement, error and similarity of the k models). ``make reproduce-full`` reran
their protocol at their full setting (10 folds x b = 150, six datasets, seven selectors) and
``make publish-kdd12`` committed its tables to ``docs/kdd12/`` (docs/reproduction.md).
This example reads those committed tables, draws each operator's points beside the paper's,
and lists how the paper's claims fared (``examples/kdd12_findings.py`` tests each with its
power, per domain).

Run it::

    python examples/kdd12_tables.py [--results DIR] [--out DIR]   # DIR: a finished run's tables

It reads files only, so ``--fast`` changes nothing.
"""

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

parser = argparse.ArgumentParser(description="The KDD'12 tables of the committed run beside "
                                 "the paper's.")
parser.add_argument("--results", type=Path,
                    default=Path(sys.argv[0]).resolve().parents[1] / "docs" / "kdd12",
                    help="the tables of a finished run (default: the committed docs/kdd12)")
parser.add_argument("--out", type=Path, default=None, help="directory for the figure")
parser.add_argument("--fast", action="store_true",
                    help="accepted for the examples' common interface (files only)")
args = parser.parse_args()

# %%
# Table 2: points for error and stability
# ---------------------------------------
# Each operator's points (SVM error by McNemar's test, stability by the paired t-test),
# averaged over every dataset and selector, ours and the paper's.
table2 = pd.read_csv(args.results / "table2.csv").set_index("operator")
print(table2[["error_points", "paper_error_points", "stability_points",
              "paper_stability_points"]].to_string())

points = Figure(figsize=(9, 4))
axes = points.subplots(1, 2, sharey=True)
rows = np.arange(len(table2))
for ax, quantity in zip(axes, ("error", "stability")):
    ax.barh(rows - 0.2, table2[f"{quantity}_points"], height=0.4, label="ours",
            color="#1f4e79")
    ax.barh(rows + 0.2, table2[f"paper_{quantity}_points"], height=0.4, label="KDD'12",
            color="#c9a227")
    ax.set_title(f"{quantity} points (higher is better)")
    ax.set_xlabel("points")
axes[0].set_yticks(rows, table2.index)
axes[0].invert_yaxis()
axes[1].legend(loc="lower right")
points.suptitle("KDD'12 Table 2, average over every dataset and selector")
points.tight_layout()

# %%
# Table 4: the alternatives on leukemia
# -------------------------------------
# The k = 10 alternative models of each multi-model operator: how often the classifiers
# trained on them agree, their error, and how similar they are (Jaccard), ours and the
# paper's where it gives them.
table4 = pd.read_csv(args.results / "table4.csv")
print(table4[["operator", "selector", "svm_agreement", "svm_error", "similarity",
              "paper_svm_agreement", "paper_svm_error", "paper_similarity"]]
      .to_string(index=False))

# %%
# The paper's claims, tested
# --------------------------
# Every comparison of sections 4.1-4.2 in the paper's direction, per domain: *holds*,
# *opposite*, *refuted* (significant against it, or not significant with power 0.8 to see
# the paper's effect) or *untestable* (not significant, too little power).
findings = pd.read_csv(args.results / "findings.csv")
verdicts = findings.groupby("domain")["verdict"].value_counts().unstack(fill_value=0)
print(verdicts.to_string())

# %%
# Files
# -----
if args.out:
    args.out.mkdir(parents=True, exist_ok=True)
    points.savefig(args.out / "table2_points.png", dpi=110)
    print("wrote table2_points.png")
