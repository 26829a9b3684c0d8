"""modelmine: robust feature selection by mining the models a selector produces.

Woznica, Nguyen and Kalousis, "Model Mining for Robust Feature Selection" (KDD 2012).
"""

from . import datasets, diagnostics, operators, patterns, report, selectors
from .base_models import BaseModels, bootstrap, resume
from .estimator import ModelMiningSelector
from .operators import Signature, SignatureSet, aggregate, register_operator
from .patterns import ItemsetLattice, Itemsets, mine_itemsets

__version__ = "0.1.0"

__all__ = [
    "BaseModels",
    "ItemsetLattice",
    "Itemsets",
    "ModelMiningSelector",
    "Signature",
    "SignatureSet",
    "__version__",
    "aggregate",
    "bootstrap",
    "datasets",
    "diagnostics",
    "mine_itemsets",
    "operators",
    "patterns",
    "register_operator",
    "report",
    "resume",
    "selectors",
]
