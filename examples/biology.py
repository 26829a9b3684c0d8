"""
From a signature to biology: effects, a volcano plot, enrichment
================================================================

A signature is a list of genes; a biologist asks which way each gene goes, how strongly,
and which pathways the list is enriched in (docs/biology.md). On the colon data (Alon et
al. 1999; 62 tissues x 2000 genes, embedded in modelmine) this example gives every tested
gene's effect, p- and q-value (``run.effects()``), draws the volcano plot with the
consensus signature marked, and tests gene sets for over-representation in every signature
(``run.enrichment``: hypergeometric, the tested genes as the universe, Benjamini-Hochberg).

The colon data carry column names, not gene symbols, so the gene sets here are made up, and
say so: "HELD_OUT_UP" and "HELD_OUT_DOWN" hold the 40 genes most up / down in class 1
(against -1) on the first half of the tissues only; the "RANDOM_*" sets are drawn at random.
The run is then made on the other half, so a signature enriched in the held-out sets finds,
on new tissues, the genes that separated the first half (replication), and one enriched in a
random set would be chance. With a real study, pass your platform's annotation
(``feature_map=``) and MSigDB's or GO's GMT file instead.

Run it::

    python examples/biology.py --out colon-biology           # SVM-RFE, b = 150: about a minute
    python examples/biology.py --fast --out /tmp/biology     # ANOVA, b = 20: a few seconds
"""

import argparse
from pathlib import Path

import numpy as np

import modelmine as mm
from modelmine.diagnostics import effect_table
from modelmine.report import plot_volcano

parser = argparse.ArgumentParser(description="From a signature to biology on the colon data: "
                                 "every gene's effect, a volcano plot, and enrichment.")
parser.add_argument("--out", default="colon-biology", help="output directory")
parser.add_argument("--fast", action="store_true",
                    help="a quick check: ANOVA selector, b = 20 (the test suite, the gallery)")
parser.add_argument("--random-state", "--seed", dest="random_state", type=int, default=0)
args = parser.parse_args()
selector, b = ("anova", 20) if args.fast else ("svm-rfe", 150)

# %%
# Gene sets to test, from the first half of the tissues
# -----------------------------------------------------
X, y, names = mm.datasets.load_colon(return_names=True)
names = [str(n) for n in names]
rng = np.random.default_rng(args.random_state)
order = rng.permutation(len(y))
first, second = np.sort(order[: len(y) // 2]), np.sort(order[len(y) // 2:])
# the held-out sets: the genes most up / down in class 1 on the first half alone
held = effect_table(X[first], y[first], feature_names=names)
one = held[held["class"] == held["class"].max()]
up = one[one.direction == "up"].sort_values("p_value").feature.head(40)
down = one[one.direction == "down"].sort_values("p_value").feature.head(40)
sets = {"HELD_OUT_UP": list(up), "HELD_OUT_DOWN": list(down)}
for i in range(8):
    sets[f"RANDOM_{i + 1}"] = list(rng.choice(names, size=40, replace=False))

# %%
# The run on the other half, and every gene's effect
# --------------------------------------------------
run = mm.run(X[second], y[second], selector=selector, operators=["closedApr", "allMed"],
             n_bootstraps=b, n_features=20, n_signatures=5, feature_names=names,
             random_state=args.random_state, progress=False)
out = Path(args.out)
out.mkdir(parents=True, exist_ok=True)
effects = run.effects()
effects.to_csv(out / "effects.csv", index=False)
significant = int((effects[effects["class"] == effects["class"].max()].q_value <= 0.05).sum())
print(f"colon, second half ({len(second)} tissues): {significant} of {len(names)} genes "
      "differ between the classes at q <= 0.05 (Mann-Whitney, Benjamini-Hochberg over all "
      "2000)")
volcano = plot_volcano(effects, {"closedApr": list(run.signatures["closedApr"].names)})
volcano.savefig(out / "volcano.png", dpi=120)

# %%
# Enrichment of the gene sets in the signatures
# ---------------------------------------------
table = run.enrichment(sets)
table.to_csv(out / "enrichment.csv", index=False)
consensus = table[table.signature == "closedApr"]
print(consensus[["gene_set", "overlap", "set_size", "universe", "p_value",
                 "q_value"]].head(4).to_string(index=False))
print("wrote effects.csv, volcano.png and enrichment.csv")
