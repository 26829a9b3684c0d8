"""modelmine: robust feature selection by mining the models a selector produces.

Woznica, Nguyen and Kalousis, "Model Mining for Robust Feature Selection" (KDD 2012).
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

from ._deprecation import moved_names
from ._version import __version__
from .config import settings

if TYPE_CHECKING:  # what the lazy names below resolve to, for type checkers and IDEs
    from . import (
        config,
        constants,
        datasets,
        diagnostics,
        evaluation,
        operators,
        outcomes,
        patterns,
        pipeline,
        report,
        selectors,
        singlecell,
        spec,
        validation,
    )
    from .base_models import BaseModels, bootstrap
    from .estimator import ModelMiningSelector
    from .evaluation import evaluate
    from .exceptions import ModelmineError
    from .operators import Signature, SignatureSet, aggregate
    from .patterns import ItemsetLattice, mine_itemsets
    from .pipeline import MiningRun, resume, run
    from .spec import RunSpec

#: The subpackages and modules of ``mm.<name>``, and the module of each main entry point:
#: imported on first use (scientific Python's lazy loading, SPEC 1), so that ``import
#: modelmine`` and ``modelmine --help`` load none of numpy, scipy, scikit-learn, pandas,
#: networkx, pyarrow or matplotlib (issue 52).
_SUBMODULES = ("config", "constants", "datasets", "diagnostics", "evaluation", "operators",
               "outcomes", "patterns", "pipeline", "report", "selectors", "singlecell", "spec",
               "validation")
_ENTRY_POINTS = {
    "BaseModels": "base_models", "bootstrap": "base_models",
    "ModelMiningSelector": "estimator", "evaluate": "evaluation",
    "ModelmineError": "exceptions", "Signature": "operators", "SignatureSet": "operators",
    "aggregate": "operators", "ItemsetLattice": "patterns", "mine_itemsets": "patterns",
    "MiningRun": "pipeline", "resume": "pipeline", "run": "pipeline", "RunSpec": "spec",
}

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
    if name in _ENTRY_POINTS:
        value = getattr(importlib.import_module(f".{_ENTRY_POINTS[name]}", __name__), name)
        globals()[name] = value
        return value
    if name in _SUBMODULES or (name not in _MOVED and not name.startswith("__")
                               and importlib.util.find_spec(f"{__name__}.{name}")):
        # any module of the package, as when `import modelmine` imported them all (the
        # import binds it here: asked once)
        return importlib.import_module(f".{name}", __name__)
    return _moved(name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


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
    "config",
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
    "settings",
    "singlecell",
    "spec",
    "validation",
]
