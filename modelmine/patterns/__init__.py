"""Patterns over the base models: itemset mining, the itemset lattice, distances, k-medoids.

The b selected subsets are transactions for frequent / closed / maximal itemset mining
(:func:`mine_itemsets`, :class:`ItemsetLattice`) and points for k-medoids under the
Jaccard distance (Woznica, Nguyen and Kalousis, KDD 2012, section 2).
"""

from ._distances import (
    intersection_counts,  # noqa: F401 (internal)
    jaccard_distances,
    overlap_blocks,
)
from ._itemsets import Itemsets, TooManyItemsetsError
from ._kmedoids import (
    KMedoidsResult,
    available_backends,
    kmedoids,
    kmedoids_range,
    silhouette,
    swap_descent,  # noqa: F401 (internal)
)
from ._lattice import ItemsetLattice
from ._mining import mine_itemsets

#: The public names. Those imported above with ``noqa: F401 (internal)`` are not public:
#: other modules of the project import them from here (issue 38).
__all__ = [
    "ItemsetLattice",
    "Itemsets",
    "KMedoidsResult",
    "TooManyItemsetsError",
    "available_backends",
    "jaccard_distances",
    "kmedoids",
    "kmedoids_range",
    "mine_itemsets",
    "overlap_blocks",
    "silhouette",
]
