"""Outcomes beyond classes: continuous values and censored survival times.

The target of a run (:class:`Outcome`, checked by :func:`check_outcome`), its strata for
resampling, and the survival statistics the selectors, the evaluation and the report share
(:func:`cox_score_statistics`, the univariate Cox score test of every feature), and the
clinical covariates a run adjusts for (:func:`check_covariates`, :func:`cox_fit`,
:func:`logistic_fit`, and Firth's penalised :func:`firth_logistic` of the adjusted odds
ratios).
"""

from ._covariates import Covariates, check_covariates, cox_fit, logistic_fit
from ._cox import cox_score_statistics
from ._firth import FirthFit, firth_logistic
from ._target import (
    OUTCOMES,  # noqa: F401 (internal)
    SURVIVAL_DTYPE,
    Outcome,
    check_outcome,
    regression_strata,  # noqa: F401 (internal)
    require_survival,  # noqa: F401 (internal)
    standardized_target,  # noqa: F401 (internal)
    survival_arrays,  # noqa: F401 (internal)
)

#: The public names. Those imported above with ``noqa: F401 (internal)`` are not public:
#: other modules of the project import them from here (issue 38).
__all__ = [
    "SURVIVAL_DTYPE",
    "Covariates",
    "FirthFit",
    "Outcome",
    "check_covariates",
    "check_outcome",
    "cox_fit",
    "cox_score_statistics",
    "firth_logistic",
    "logistic_fit",
]
