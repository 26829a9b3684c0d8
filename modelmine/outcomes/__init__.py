"""Outcomes beyond classes: continuous values and censored survival times.

The target of a run (:class:`Outcome`, checked by :func:`check_outcome`), its strata for
resampling, and the survival statistics the selectors, the evaluation and the report share
(:func:`cox_score_statistics`, the univariate Cox score test of every feature).
"""

from ._cox import cox_score_statistics
from ._target import (
    OUTCOMES,
    SURVIVAL_DTYPE,
    Outcome,
    check_outcome,
    regression_strata,
    require_survival,
    standardized_target,
    survival_arrays,
)

__all__ = [
    "OUTCOMES",
    "SURVIVAL_DTYPE",
    "Outcome",
    "check_outcome",
    "cox_score_statistics",
    "regression_strata",
    "require_survival",
    "standardized_target",
    "survival_arrays",
]
