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
from ._deprecation import moved_names
from ._version import __version__
from .base_models import BaseModels, bootstrap
from .estimator import ModelMiningSelector
from .evaluation import evaluate
from .exceptions import ModelmineError
from .operators import Signature, SignatureSet, aggregate
from .patterns import ItemsetLattice, mine_itemsets
from .pipeline import MiningRun, resume, run
from .spec import RunSpec

#: Top-level names of the previous release that live in one subpackage only now (issue 38):
#: ``mm.<name>`` is kept for the main entry points; these warn for one release.
_MOVED = {
    "DataError": "modelmine.exceptions.DataError",
    "EvaluationResult": "modelmine.evaluation.EvaluationResult",
    "Itemsets": "modelmine.patterns.Itemsets",
    "RunStateError": "modelmine.exceptions.RunStateError",
    "ThresholdResult": "modelmine.evaluation.ThresholdResult",
    "compare_aggregations": "modelmine.evaluation.compare_aggregations",
    "evaluate_thresholds": "modelmine.evaluation.evaluate_thresholds",
    "register_operator": "modelmine.operators.register_operator",
}
_moved = moved_names(__name__, _MOVED)

def __getattr__(name: str) -> Any:
    # The report pulls in matplotlib: load it on first use, not with every import.
    if name == "report":
        import importlib

        return importlib.import_module(".report", __name__)
    return _moved(name)

__all__ = [
    "BaseModels",
    "ItemsetLattice",
    "MiningRun",
    "ModelMiningSelector",
    "ModelmineError",
    "RunSpec",
    "Signature",
    "SignatureSet",
    "__version__",
    "aggregate",
    "bootstrap",
    "constants",
    "datasets",
    "diagnostics",
    "evaluate",
    "evaluation",
    "mine_itemsets",
    "operators",
    "outcomes",
    "patterns",
    "pipeline",
    "report",
    "resume",
    "run",
    "selectors",
    "singlecell",
    "spec",
    "validation",
]
