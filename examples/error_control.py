"""
Stability and error control: how many of these genes are noise?
===============================================================

A selection frequency says how often the base models chose a gene, not whether the gene
is more than noise. Three ways to answer that on the colon data (62 tissues x 2000 genes),
each on the same base models (docs/error_control.md):

- **stability selection** keeps the genes selected by more than a threshold share of the
  resamples, with a bound on the expected number of false selections (Meinshausen and
  Buehlmann 2010; Shah and Samworth 2013, whose complementary pairs it uses);
- **stabl** appends a permuted copy of every gene and chooses the threshold where the
  estimated false discovery proportion of the real genes is lowest (Hedou et al. 2024);
- **the permutation null** refits the selector on permuted labels and gives every gene a
  p-value and a Benjamini-Hochberg q-value for its frequency.

The stability path shows how the frequencies and the stability (Nogueira, Sechidis and
Brown, JMLR 2018) move with the size of the base models.

Run it::

    python examples/error_control.py [--fast] [--out DIR]   # b = 100, 100 permutations; or 20, 10
"""

import argparse
from pathlib import Path

import modelmine as mm

parser = argparse.ArgumentParser(description="Stability and error control on the colon data: "
                                 "stability selection, stabl, the permutation null.")
parser.add_argument("--fast", action="store_true",
                    help="b = 20, 10 permutations (the test suite, the gallery)")
parser.add_argument("--out", type=Path, default=None, help="directory for the tables as CSV")
args = parser.parse_args()
b, permutations = (20, 10) if args.fast else (100, 100)

# %%
# Base models fit for error control
# ---------------------------------
# Complementary pairs: b / 2 splits of the tissues into two disjoint halves, both halves
# used. One permuted copy of every gene is appended: the models record which of these
# artificial genes they pick, which stabl reads.
X, y, names = mm.datasets.load_colon(return_names=True)
base = mm.bootstrap(X, y, selector="anova", n_bootstraps=b, n_features=20,
                    resampling="complementary-pairs", artificial_features="permutation",
                    feature_names=names, random_state=0)
print(base)
stability = mm.diagnostics.nogueira_stability(base)
low, high = stability.confidence_interval
print(f"Nogueira stability {stability.value:.2f} [95% CI {low:.2f}, {high:.2f}]")

# %%
# Stability selection: at most one false selection expected
# ---------------------------------------------------------
sig = mm.aggregate(base, "stabilitySelection", pfer=1.0)
print(f"threshold {sig.provenance['threshold']:.2f}: {len(sig)} genes, "
      f"E[false selections] <= {sig.provenance['pfer_bound']:.2f}")
print("  " + ", ".join(sig.names))
print(sig.provenance["statement"])

# %%
# stabl: the threshold of least estimated false discovery
# --------------------------------------------------------
st = mm.aggregate(base, "stabl", fdr=0.2)
print(f"stabl: threshold {st.provenance['threshold']:.2f}, estimated FDP+ "
      f"{st.provenance['fdp_plus']:.2f}: {len(st)} genes")
print("  " + ", ".join(st.names))

# %%
# The permutation null
# --------------------
# The selector refitted on permuted labels: how often would each gene be chosen if it had
# nothing to do with the classes? Each gene's p-value, and q-value over all 2000.
null = mm.evaluation.selection_null(X, y, base=base, n_permutations=permutations,
                                    random_state=0)
table = null.to_frame()
print(table.head(10).to_string())
print(f"{len(null.significant(0.05))} genes at q <= 0.05 ({permutations} permutations of the "
      "labels)")

# %%
# The stability path
# ------------------
# The selection frequencies and the stability for base models of 5 to 100 genes.
path = mm.diagnostics.stability_path(base, n_features_grid=[5, 10, 20, 50, 100])
path_figure = mm.report.plot_stability_path(path, top=10)

# %%
# Files
# -----
if args.out:
    args.out.mkdir(parents=True, exist_ok=True)
    table.to_csv(args.out / "selection_null.csv")
    sig.to_frame().to_csv(args.out / "stabilitySelection.csv")
    st.to_frame().to_csv(args.out / "stabl.csv")
    path_figure.savefig(args.out / "stability_path.png", dpi=110)
    print("wrote selection_null.csv, stabilitySelection.csv, stabl.csv and stability_path.png")
