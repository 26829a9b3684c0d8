"""Patterns over the base models: itemset mining, the itemset lattice, distances, k-medoids.

The b selected subsets are transactions for frequent / closed / maximal itemset mining
(:func:`mine_itemsets`, :class:`ItemsetLattice`) and points for k-medoids under the
Jaccard distance (Woznica, Nguyen and Kalousis, KDD 2012, section 2).
"""

from ._lattice import DRAW_FORMATS, EXPORT_FORMATS, ItemsetLattice
from ._mining import BACKENDS, KINDS, Itemsets, mine_itemsets

__all__ = [
    "BACKENDS",
    "DRAW_FORMATS",
    "EXPORT_FORMATS",
    "KINDS",
    "ItemsetLattice",
    "Itemsets",
    "mine_itemsets",
]
