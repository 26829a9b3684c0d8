"""
The closed-itemset lattice of leukemia's base models
====================================================

The base models of a selector are transactions; the gene sets they share most often are
their frequent itemsets, and the closed ones (no superset with the same support) form a
lattice (Woznica, Nguyen and Kalousis, KDD 2012, section 2.1: closedApr and maxApr build
their signatures from them). This example mines the base models of the "chi2" selector
(chi-square on MDL-discretised expression) on leukemia, lists the itemsets of highest
support, draws the top of their lattice and writes it for Cytoscape, Gephi or Graphviz.

Run it::

    python examples/lattice.py [--fast] [--out DIR]     # b = 150 (the paper), or 40
"""

# sphinx_gallery_thumbnail_number = 3

import argparse
import tempfile
from pathlib import Path

import matplotlib.image
from matplotlib.figure import Figure

import modelmine as mm
from modelmine.patterns import ItemsetLattice, mine_itemsets

parser = argparse.ArgumentParser(description="Mine the base models of leukemia and export / "
                                 "draw their closed-itemset lattice.")
parser.add_argument("--fast", action="store_true", help="b = 40 instead of 150")
parser.add_argument("--out", type=Path, default=None, help="output directory")
args = parser.parse_args()
out = args.out or Path(tempfile.mkdtemp(prefix="modelmine-lattice-"))
out.mkdir(parents=True, exist_ok=True)

# %%
# Base models and their itemsets
# ------------------------------
# ``modelmine.bootstrap`` with the chi2 selector, the top 20 genes of each of b bootstrap
# resamples (KDD 2012, section 3: b = 150, m = 20); then the closed and the maximal
# itemsets held by at least 30 % of the models.
X, y, names = mm.datasets.load_leukemia(return_names=True)
base = mm.bootstrap(X, y, selector="chi2", n_bootstraps=40 if args.fast else 150,
                    n_features=20, random_state=0, feature_names=names)
closed = mine_itemsets(base, itemset_type="closed", min_support=0.3)
maximal = mine_itemsets(base, itemset_type="maximal", min_support=0.3)
print(f"{len(closed)} closed and {len(maximal)} maximal itemsets at support 0.3")
print(closed.to_frame().head(10).to_string())

# %%
# The itemsets of highest support, and how support falls with size
# -----------------------------------------------------------------
top_figure = mm.report.plot_lattice_top(closed, list(names), top=12)
support_figure = mm.report.plot_support_distribution(closed, n_models=base.n_models)

# %%
# The lattice
# -----------
# The Hasse diagram of the closed itemsets (a networkx graph): an edge from each itemset to
# its smallest closed supersets. Written in four formats, and drawn layered by size.
lattice = ItemsetLattice(closed)
print(lattice)
for fmt in ("graphml", "gexf", "json", "dot"):
    print("wrote", lattice.write(out / f"leukemia_lattice.{fmt}").name)
print("wrote", lattice.draw(out / "leukemia_lattice.png", max_nodes=120).name)
print("wrote", lattice.draw(out / "leukemia_lattice.svg", max_nodes=120).name)
drawing = Figure(figsize=(10, 7))
axes = drawing.subplots()
axes.imshow(matplotlib.image.imread(out / "leukemia_lattice.png"))
axes.set_axis_off()
axes.set_title("ItemsetLattice.draw: the top of the lattice, coloured by support")
