"""modelmine: robust feature selection by mining the models a selector produces.

Woznica, Nguyen and Kalousis, "Model Mining for Robust Feature Selection" (KDD 2012).
"""

from . import datasets, selectors
from .base_models import BaseModels, bootstrap, resume
from .patterns import ItemsetLattice, Itemsets, mine_itemsets

__version__ = "0.1.0"

__all__ = [
    "BaseModels",
    "ItemsetLattice",
    "Itemsets",
    "__version__",
    "bootstrap",
    "datasets",
    "mine_itemsets",
    "resume",
    "selectors",
]
