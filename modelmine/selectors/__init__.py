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

from .._deprecation import moved_names
from ._base import (
    CallableSelector,  # noqa: F401 (internal)
    EstimatorSelector,  # noqa: F401 (internal)
    FeatureModel,  # noqa: F401 (internal)
    Selector,
    SelectorOutput,
    average_ranks,  # noqa: F401 (internal)
    model_from_output,  # noqa: F401 (internal)
    ranks_from_scores,  # noqa: F401 (internal)
)
from ._builtin import (
    SelectorRegistry,
    available_selectors,
    chi2_contingency_scores,  # noqa: F401 (internal)
    default_registry,
    get_selector,
    params_from_record,  # noqa: F401 (internal)
    record_from_file,  # noqa: F401 (internal)
    refresh,
    register_selector,
    selectors_for,
    weighted_f_classif,
    weighted_selectors,
)
from ._information import discretize, information_gain, symmetrical_uncertainty
from ._mrmr import (
    MRMRResult,
    mrmr,
    sigma_discretize,  # noqa: F401 (internal)
)
from ._outcome_selectors import rrelieff_scores
from ._rankers import OneRRules, gain_ratio, oner_rules, oner_scores
from ._recorded import RecordedSelector  # noqa: F401 (internal)
from ._relieff import relieff_scores
from ._relieff_weka import relieff_weka_scores
from ._singlecell import (
    LogRegSelector,
    WelchTSelector,
    WilcoxonSelector,
    welch_t_pairwise,
    wilcoxon_auroc_pairwise,
)
from ._svm_rfe import SVMRFEResult, svm_rfe, svm_rfe_ranking, svm_weights

#: Names of the previous release's ``__all__`` that moved or stopped being public (issue 38);
#: they warn for one release.
_MOVED = {
    "available": "modelmine.selectors.available_selectors",
}
__getattr__ = moved_names(__name__, _MOVED)

#: The public names. Those imported above with ``noqa: F401 (internal)`` are not public:
#: other modules of the project import them from here (issue 38).
__all__ = [
    "LogRegSelector",
    "MRMRResult",
    "OneRRules",
    "SVMRFEResult",
    "Selector",
    "SelectorOutput",
    "SelectorRegistry",
    "WelchTSelector",
    "WilcoxonSelector",
    "available_selectors",
    "default_registry",
    "discretize",
    "gain_ratio",
    "get_selector",
    "information_gain",
    "mrmr",
    "oner_rules",
    "oner_scores",
    "refresh",
    "register_selector",
    "relieff_scores",
    "relieff_weka_scores",
    "rrelieff_scores",
    "selectors_for",
    "svm_rfe",
    "svm_rfe_ranking",
    "svm_weights",
    "symmetrical_uncertainty",
    "weighted_f_classif",
    "weighted_selectors",
    "welch_t_pairwise",
    "wilcoxon_auroc_pairwise",
]
