"""The evaluation protocol of Woznica, Nguyen and Kalousis (KDD 2012, section 3).

:func:`evaluate` cross-validates selectors x operators x classifiers (error, stability,
agreement, diversity) and returns an :class:`EvaluationResult` with the KDD'12 Table 2 and
Table 4 layouts and the Saeys et al. (2008) single-versus-ensemble robustness table.
For a continuous or survival outcome (``outcome=``), :class:`OutcomeEvaluation` (RMSE,
R^2; concordance, integrated Brier score) with the models of :data:`OUTCOME_MODELS`.
Classifiers come from a registry (:func:`register_classifier`, the ``modelmine.classifiers``
entry-point group; :func:`available_classifiers` lists them).
"""

from ._aggregations import SALMAN_AGGREGATIONS, AggregationComparison, compare_aggregations
from ._classifiers import (
    ClassifierRegistry,
    available_classifiers,
    get_classifier,
    make_classifier,
    register_classifier,
)
from ._outcomes import (
    OUTCOME_MODELS,  # noqa: F401 (internal)
    OutcomeEvaluation,
    evaluate_outcome,
)
from ._protocol import (
    DEFAULT_SELECTORS,  # noqa: F401 (internal)
    evaluate,
)
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
    "PES_SELECTORS",
    "PES_SELECTOR_PARAMS",
    "PES_THRESHOLDS",
    "SALMAN_AGGREGATIONS",
    "AggregationComparison",
    "ClassifierRegistry",
    "EvaluationResult",
    "OutcomeEvaluation",
    "ThresholdResult",
    "available_classifiers",
    "compare_aggregations",
    "evaluate",
    "evaluate_outcome",
    "evaluate_thresholds",
    "get_classifier",
    "make_classifier",
    "register_classifier",
]
