"""Outcomes beyond classes: continuous values and censored survival times.

What an outcome is (:class:`OutcomeKind`: one per kind, in one registry,
:func:`outcome_kind`, :func:`register_outcome_kind`; issue 48, item 4), the target of a run
(:class:`Outcome`, checked by :func:`check_outcome`), its strata for resampling, and the
survival statistics the selectors, the evaluation and the report share
(:func:`cox_score_statistics`, the univariate Cox score test of every feature), and the
clinical covariates a run adjusts for (:func:`check_covariates`, :func:`cox_fit`,
:func:`logistic_fit`, and Firth's penalised :func:`firth_logistic` of the adjusted odds
ratios).
"""

from . import _builtin  # noqa: F401  (declares the built-in kinds to the registry)
from ._covariates import Covariates, check_covariates, cox_fit, logistic_fit
from ._cox import cox_score_statistics
from ._firth import FirthFit, firth_logistic
from ._kinds import (
    DEFAULT_OUTCOME,  # noqa: F401 (internal)
    KindView,  # noqa: F401 (internal)
    Outcome,
    OutcomeKind,
    OutcomeKindRegistry,
    available_outcome_kinds,
    builtin_kinds,  # noqa: F401 (internal)
    check_outcome,
    default_registry,
    outcome_kind,
    register_outcome_kind,
)
from ._target import (
    SURVIVAL_DTYPE,
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
    "OutcomeKind",
    "OutcomeKindRegistry",
    "available_outcome_kinds",
    "check_covariates",
    "check_outcome",
    "cox_fit",
    "cox_score_statistics",
    "default_registry",
    "firth_logistic",
    "logistic_fit",
    "outcome_kind",
    "register_outcome_kind",
]
