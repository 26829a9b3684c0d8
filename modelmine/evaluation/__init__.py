"""The evaluation protocol of Woznica, Nguyen and Kalousis (KDD 2012, section 3).

:func:`evaluate` cross-validates selectors x operators x classifiers (error, stability,
agreement, diversity) and returns an :class:`EvaluationResult` with the KDD'12 Table 2 and
Table 4 layouts and the Saeys et al. (2008) single-versus-ensemble robustness table.
For a continuous or survival outcome (``outcome=``) the same :class:`EvaluationResult`
holds that outcome's measures (RMSE, R^2; concordance, integrated Brier score) with the
models of its kind (:attr:`modelmine.outcomes.OutcomeKind.models`).
Every protocol (KDD'12, outcomes, Pes's :func:`evaluate_thresholds`, Salman's
:func:`compare_aggregations`, grouped folds) runs on one fold engine: its folds, its seeds
(:data:`SEED_DERIVATIONS`) and its runner. Classifiers come from a registry
(:func:`register_classifier`, the ``modelmine.classifiers`` entry-point group;
:func:`available_classifiers` lists them).
"""

from typing import Any

from .._deprecation import moved_names
from ._aggregations import SALMAN_AGGREGATIONS, AggregationComparison, compare_aggregations
from ._classifiers import (
    ClassifierRegistry,
    IBkClassifier,
    available_classifiers,
    get_classifier,
    make_classifier,
    register_classifier,
)
from ._error_check import ErrorControlCheck, check_error_control
from ._folds import SEED_DERIVATIONS
from ._groups import LeaveOneGroupOutResult, grouping_effect, leave_one_group_out
from ._null import (
    MIN_PERMUTATIONS,  # noqa: F401 (internal)
    SelectionNullResult,
    selection_null,
)
from ._outcomes import evaluate_outcome
from ._pooling import pool_differences
from ._protocol import KDD12_SELECTORS, evaluate
from ._result import (
    EvaluationResult,
    average_points,  # noqa: F401 (internal)
)
from ._thresholds import (
    PES_SELECTOR_PARAMS,
    PES_SELECTORS,
    PES_THRESHOLDS,
    ThresholdResult,
    evaluate_thresholds,
)

#: The public names. Those imported above with ``noqa: F401 (internal)`` are not public:
#: other modules of the project import them from here (issue 38).
__all__ = [
    "KDD12_SELECTORS",
    "PES_SELECTORS",
    "PES_SELECTOR_PARAMS",
    "PES_THRESHOLDS",
    "SALMAN_AGGREGATIONS",
    "SEED_DERIVATIONS",
    "AggregationComparison",
    "ClassifierRegistry",
    "ErrorControlCheck",
    "EvaluationResult",
    "IBkClassifier",
    "LeaveOneGroupOutResult",
    "SelectionNullResult",
    "ThresholdResult",
    "available_classifiers",
    "check_error_control",
    "compare_aggregations",
    "evaluate",
    "evaluate_outcome",
    "evaluate_thresholds",
    "get_classifier",
    "grouping_effect",
    "leave_one_group_out",
    "make_classifier",
    "pool_differences",
    "register_classifier",
    "selection_null",
]


#: Names of the previous release served for one more, with a FutureWarning (issue 38):
#: ``evaluate`` returns one result type, :class:`EvaluationResult`, for every outcome.
_MOVED = {
    "OutcomeEvaluation": "modelmine.evaluation.EvaluationResult",
}
_moved = moved_names(__name__, _MOVED)


def __getattr__(name: str) -> Any:
    if name in _MOVED:
        return _moved(name)
    # The evaluation's selectors were named DEFAULT_SELECTORS, as the outcomes' default
    # selector mapping of modelmine.spec (issue 38): the old name, for one release.
    if name == "DEFAULT_SELECTORS":
        import warnings

        warnings.warn("modelmine.evaluation.DEFAULT_SELECTORS is deprecated: use "
                      "modelmine.evaluation.KDD12_SELECTORS (the selectors of KDD'12; the "
                      "default selector of each outcome is modelmine.spec.DEFAULT_SELECTORS)",
                      FutureWarning, stacklevel=2)
        return KDD12_SELECTORS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
