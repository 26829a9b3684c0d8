"""modelmine: robust feature selection by mining the models a selector produces.

Woznica, Nguyen and Kalousis, "Model Mining for Robust Feature Selection" (KDD 2012).
"""

from . import datasets, selectors
from .base_models import BaseModels, bootstrap

__version__ = "0.1.0"

__all__ = ["BaseModels", "__version__", "bootstrap", "datasets", "selectors"]
