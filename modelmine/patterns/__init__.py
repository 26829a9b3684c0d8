"""Patterns over the base models: itemset mining, the itemset lattice, distances, k-medoids.

The b selected subsets are transactions for frequent / closed / maximal itemset mining
(:func:`mine_itemsets`, :class:`ItemsetLattice`) and points for k-medoids under the
Jaccard distance (Woznica, Nguyen and Kalousis, KDD 2012, section 2).
"""

from ._distances import intersection_counts, jaccard_distances, overlap_blocks
from ._itemsets import Itemsets, TooManyItemsetsError
from ._kmedoids import (
    KMedoidsResult,
    available_backends,
    kmedoids,
    kmedoids_range,
    silhouette,
    swap_descent,
)
from ._lattice import DRAW_FORMATS, EXPORT_FORMATS, ItemsetLattice
from ._mining import BACKENDS, ITEMSET_TYPES, mine_itemsets

__all__ = [
    "BACKENDS",
    "DRAW_FORMATS",
    "EXPORT_FORMATS",
    "ITEMSET_TYPES",
    "ItemsetLattice",
    "Itemsets",
    "KMedoidsResult",
    "TooManyItemsetsError",
    "available_backends",
    "intersection_counts",
    "jaccard_distances",
    "kmedoids",
    "kmedoids_range",
    "mine_itemsets",
    "overlap_blocks",
    "silhouette",
    "swap_descent",
]
