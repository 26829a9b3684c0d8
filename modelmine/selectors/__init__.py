"""Selectors: (X, y) -> scores, a ranking, or a subset (the input of model mining).

Built in, by name: "chi2", "anova", "ig", "su", "relieff", "svm-rfe", "svm",
"l1-logistic", "random-forest". Any scikit-learn estimator with ``coef_`` or
``feature_importances_``, any ``SelectorMixin`` and any callable ``(X, y) -> scores`` are
wrapped automatically by :func:`get_selector`. More selectors come from
:func:`register_selector` or the ``modelmine.selectors`` entry-point group of an installed
package; :func:`available` lists them all.
"""

from ._base import (
    CallableSelector,
    EstimatorSelector,
    FeatureModel,
    Selector,
    SelectorOutput,
    average_ranks,
    model_from_output,
    ranks_from_scores,
)
from ._builtin import (
    SELECTOR_ENTRY_POINT_GROUP,
    SelectorRegistry,
    available,
    chi2_contingency_scores,
    default_registry,
    get_selector,
    refresh,
    register_selector,
)
from ._information import discretize, information_gain, symmetrical_uncertainty
from ._relieff import relieff_scores
from ._svm_rfe import SVMRFEResult, svm_rfe, svm_rfe_ranking, svm_weights

__all__ = [
    "SELECTOR_ENTRY_POINT_GROUP",
    "CallableSelector",
    "EstimatorSelector",
    "FeatureModel",
    "SVMRFEResult",
    "Selector",
    "SelectorOutput",
    "SelectorRegistry",
    "available",
    "average_ranks",
    "chi2_contingency_scores",
    "default_registry",
    "discretize",
    "get_selector",
    "information_gain",
    "model_from_output",
    "ranks_from_scores",
    "refresh",
    "register_selector",
    "relieff_scores",
    "svm_rfe",
    "svm_rfe_ranking",
    "svm_weights",
    "symmetrical_uncertainty",
]
