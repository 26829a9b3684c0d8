"""Selectors: (X, y) -> scores, a ranking, or a subset (the input of model mining).

Built in, by name: "chi2", "anova", "ig", "su", "relieff", "svm-rfe", "svm",
"l1-logistic", "random-forest", "cfs", and the rankers of Pes (2019) and Salman (2022):
"gainratio", "oner", "mrmr", "svm-rfe50" (ReliefF distance-weighted as WEKA:
``selector_params={"weight_by_distance": True}``). For continuous outcomes: "pearson",
"lasso", "elastic-net", "rrelieff", "random-forest", "svr-rfe"; for survival: "cox-score",
"coxnet", "boosted-cox" (:func:`selectors_for`). Any scikit-learn
estimator with ``coef_`` or ``feature_importances_``, any ``SelectorMixin`` and any
callable ``(X, y) -> scores`` are wrapped automatically by :func:`get_selector`. More
selectors come from :func:`register_selector` or the ``modelmine.selectors`` entry-point
group of an installed package; :func:`available` lists them all.
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
    available_selectors,
    chi2_contingency_scores,
    default_registry,
    get_selector,
    refresh,
    register_selector,
    selectors_for,
    weighted_f_classif,
    weighted_selectors,
)
from ._information import discretize, information_gain, symmetrical_uncertainty
from ._mrmr import MRMRResult, mrmr, sigma_discretize
from ._outcome_selectors import entry_ranking, rrelieff_scores
from ._rankers import OneRRules, gain_ratio, oner_rules, oner_scores
from ._relieff import relieff_scores
from ._relieff_weka import relieff_weka_scores
from ._singlecell import (
    LogRegSelector,
    WelchTSelector,
    WilcoxonSelector,
    rank_entries,
    welch_t,
    welch_t_pairwise,
    wilcoxon_auroc_pairwise,
    wilcoxon_z,
)
from ._svm_rfe import SVMRFEResult, svm_rfe, svm_rfe_ranking, svm_weights

__all__ = [
    "SELECTOR_ENTRY_POINT_GROUP",
    "CallableSelector",
    "EstimatorSelector",
    "FeatureModel",
    "LogRegSelector",
    "MRMRResult",
    "OneRRules",
    "SVMRFEResult",
    "Selector",
    "SelectorOutput",
    "SelectorRegistry",
    "WelchTSelector",
    "WilcoxonSelector",
    "available",
    "available_selectors",
    "average_ranks",
    "chi2_contingency_scores",
    "default_registry",
    "discretize",
    "entry_ranking",
    "gain_ratio",
    "get_selector",
    "information_gain",
    "model_from_output",
    "mrmr",
    "oner_rules",
    "oner_scores",
    "rank_entries",
    "ranks_from_scores",
    "refresh",
    "register_selector",
    "relieff_scores",
    "relieff_weka_scores",
    "rrelieff_scores",
    "selectors_for",
    "sigma_discretize",
    "svm_rfe",
    "svm_rfe_ranking",
    "svm_weights",
    "symmetrical_uncertainty",
    "weighted_f_classif",
    "weighted_selectors",
    "welch_t",
    "welch_t_pairwise",
    "wilcoxon_auroc_pairwise",
    "wilcoxon_z",
]
