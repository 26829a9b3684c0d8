"""modelmine: robust feature selection by mining the models a selector produces.

Woznica, Nguyen and Kalousis, "Model Mining for Robust Feature Selection" (KDD 2012).
"""

from typing import Any

from . import (
    constants,
    datasets,
    diagnostics,
    evaluation,
    operators,
    outcomes,
    patterns,
    pipeline,
    selectors,
    singlecell,
    spec,
    validation,
)
from ._version import __version__
from .base_models import BaseModels, bootstrap
from .estimator import ModelMiningSelector
from .evaluation import (
    EvaluationResult,
    ThresholdResult,
    compare_aggregations,
    evaluate,
    evaluate_thresholds,
)
from .exceptions import DataError, ModelmineError, RunStateError
from .operators import Signature, SignatureSet, aggregate, register_operator
from .patterns import ItemsetLattice, Itemsets, mine_itemsets
from .pipeline import MiningRun, resume, run
from .spec import RunSpec


def __getattr__(name: str) -> Any:
    # The report pulls in matplotlib: load it on first use, not with every import.
    if name == "report":
        import importlib

        return importlib.import_module(".report", __name__)
    raise AttributeError(f"module 'modelmine' has no attribute {name!r}")

__all__ = [
    "BaseModels",
    "DataError",
    "EvaluationResult",
    "ItemsetLattice",
    "Itemsets",
    "MiningRun",
    "ModelMiningSelector",
    "ModelmineError",
    "RunSpec",
    "RunStateError",
    "Signature",
    "SignatureSet",
    "ThresholdResult",
    "__version__",
    "aggregate",
    "bootstrap",
    "compare_aggregations",
    "constants",
    "datasets",
    "diagnostics",
    "evaluate",
    "evaluate_thresholds",
    "evaluation",
    "mine_itemsets",
    "operators",
    "outcomes",
    "patterns",
    "pipeline",
    "register_operator",
    "report",
    "resume",
    "run",
    "selectors",
    "singlecell",
    "spec",
    "validation",
]
