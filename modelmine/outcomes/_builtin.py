"""The built-in outcome kinds: class labels, a continuous value, a censored survival time.

Each is one :class:`~modelmine.outcomes.OutcomeKind`, declared to the registry when the
package is imported (the registry never imports the kinds it serves). What they hold was
spread over seven tables keyed by the outcome's name before issue 48 (the outcomes, the
default selectors, the output columns, the evaluation's models and measures, the selectors
that adjust for covariates and the covariate nulls).
"""

from __future__ import annotations

from ._kinds import OutcomeKind, add_builtins
from ._models import (
    coxph,
    regression_measures,
    rf_regressor,
    ridge,
    rsf,
    squared_errors,
    survival_measures,
)
from ._target import (
    check_classes,
    check_survival,
    check_values,
    group_strata_of_survival,
    group_strata_of_values,
    require_survival,
)

__all__ = ["CLASSIFICATION", "REGRESSION", "SURVIVAL"]

#: Class labels: SVM-RFE by default (KDD 2012's selector); the classifiers of the KDD'12
#: protocol measure a signature; covariates enter the selectors of ``CLASS_ADJUSTMENT``, and
#: the null draws a class from the logistic model of the covariates (or permutes within
#: strata of them).
CLASSIFICATION = OutcomeKind(
    name="classification",
    description="class labels",
    check_target=check_classes,
    default_selector="svm-rfe",
    columns=("class",),
    classes=True,
    measures=("error",),
    covariate_nulls=("parametric", "raw", "strata"),
    question="Which genes separate the classes {classes} of",
)

#: A continuous value: the lasso by default (its regression analogue of SVM-RFE,
#: ``benchmarks/results/regression_default.csv``); ridge regression or a random forest on a
#: signature, RMSE and R^2 per fold, each sample's squared error; every selector adjusted
#: for covariates on residuals, the null by Freedman and Lane (1983).
REGRESSION = OutcomeKind(
    name="regression",
    description="a continuous value",
    check_target=check_values,
    default_selector="lasso",
    columns=("outcome",),
    group_strata=group_strata_of_values,
    models={"ridge": ridge, "rf": rf_regressor},
    measures=("rmse", "r2"),
    measure=regression_measures,
    sample_errors=squared_errors,
    sample_loss="squared_error",
    error_measure="rmse",
    covariate_nulls=("freedman-lane", "raw", "strata"),
    question="Which genes predict the continuous outcome of",
    strata_note="{n} quantile bins of y ({labels})",
)

#: A right-censored survival time: the elastic-net Cox path (stabs' survival learner) by
#: default; a Cox model or a random survival forest on a signature, concordance and the
#: integrated Brier score per fold; covariates enter the Cox selectors only; no covariate
#: null (censored times have no exchangeable residuals).
SURVIVAL = OutcomeKind(
    name="survival",
    description="a censored survival time (the time and the event indicator)",
    check_target=check_survival,
    default_selector="coxnet",
    columns=("time", "event"),
    censored=True,
    requires=require_survival,
    group_strata=group_strata_of_survival,
    models={"coxph": coxph, "rsf": rsf},
    measures=("harrell_c", "uno_c", "integrated_brier"),
    measure=survival_measures,
    error_measure="harrell_c",
    higher_is_better=True,
    adjusted_selectors=("cox-score", "coxnet"),
    question="Which genes predict survival (censored times) in",
    strata_note="{labels}",
)

add_builtins((CLASSIFICATION, REGRESSION, SURVIVAL))
