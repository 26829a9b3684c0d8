"""Diagnostics: stability, diversity, agreement, performance and significance.

Pure functions on subsets, rankings, scores and predictions, each returning a small result
object. Each takes the previous stage's objects as they are (BaseModels, Signature,
SignatureSet, a boolean matrix or index sets; :func:`as_selection_matrix`). Modules by
family: ``_subsets`` (Jaccard, Dice, Kuncheva, Pearson), ``_nogueira`` (estimator,
variance, tests), ``_rankings`` (Spearman, Canberra, scores), ``_measures`` (the registry).
See ``docs/diagnostics.md`` for every measure, its formula and its reference.
"""

from .._deprecation import moved_names
from ._agreement import (
    AgreementResult,
    DiversityResult,
    PerformanceResult,
    RPTResult,
    agreement,
    diversity,
    rpt,
    signature_performance,
)
from ._effects import effect_table
from ._enrichment import enrichment
from ._itemset_null import (
    curveball,  # noqa: F401 (internal)
    itemset_significance,
)
from ._markers import marker_table
from ._measures import (
    MeasureRegistry,
    StabilityMeasure,
    available_measures,
    get_measure,
    measure_spec,
    register_measure,
    stability,
)
from ._nogueira import nogueira_compare, nogueira_stability, nogueira_test
from ._outcome_markers import cox_univariate, outcome_marker_table
from ._paths import StabilityPathResult, stability_path
from ._rankings import (
    canberra_stability,
    score_pearson_stability,
    score_std_stability,
    spearman_stability,
)
from ._results import FrequencyResult, NogueiraResult, NogueiraTestResult, StabilityResult
from ._self_sufficient import productivity_pvalue, self_sufficient_itemsets
from ._significance import (
    McNemarResult,
    PairedTestResult,
    PointsRanking,
    mcnemar_test,
    paired_ttest,
    points_ranking,
    wilcoxon_test,
)
from ._subsets import (
    dice_stability,
    jaccard_stability,
    kuncheva_stability,
    pairwise_similarity,  # noqa: F401 (internal)
    pearson_stability,
    selection_frequency,
)

#: Names of the previous release's ``__all__`` that moved or stopped being public (issue 38);
#: they warn for one release.
_MOVED = {
    "as_selection_matrix": "modelmine.diagnostics._coerce.as_selection_matrix",
    "bh_qvalues": "modelmine.diagnostics._significance.bh_qvalues",
    # the workflows that refit the flow (the permutation null, the error-control check, what
    # grouping changes) moved to modelmine.evaluation, above the pipeline: the diagnostics
    # hold the pure measures
    "MIN_PERMUTATIONS": "modelmine.evaluation._null.MIN_PERMUTATIONS",
    "ErrorControlCheck": "modelmine.evaluation.ErrorControlCheck",
    "LeaveOneGroupOutResult": "modelmine.evaluation.LeaveOneGroupOutResult",
    "SelectionNullResult": "modelmine.evaluation.SelectionNullResult",
    "check_error_control": "modelmine.evaluation.check_error_control",
    "grouping_effect": "modelmine.evaluation.grouping_effect",
    "leave_one_group_out": "modelmine.evaluation.leave_one_group_out",
    "selection_null": "modelmine.evaluation.selection_null",
    "pfer_bound": "modelmine.operators.pfer_bound",
    "threshold_for_pfer": "modelmine.operators.threshold_for_pfer",
}
__getattr__ = moved_names(__name__, _MOVED)

#: The public names. Those imported above with ``noqa: F401 (internal)`` are not public:
#: other modules of the project import them from here (issue 38).
__all__ = [
    "AgreementResult",
    "DiversityResult",
    "FrequencyResult",
    "McNemarResult",
    "MeasureRegistry",
    "NogueiraResult",
    "NogueiraTestResult",
    "PairedTestResult",
    "PerformanceResult",
    "PointsRanking",
    "RPTResult",
    "StabilityMeasure",
    "StabilityPathResult",
    "StabilityResult",
    "agreement",
    "available_measures",
    "canberra_stability",
    "cox_univariate",
    "dice_stability",
    "diversity",
    "effect_table",
    "enrichment",
    "get_measure",
    "itemset_significance",
    "jaccard_stability",
    "kuncheva_stability",
    "marker_table",
    "mcnemar_test",
    "measure_spec",
    "nogueira_compare",
    "nogueira_stability",
    "nogueira_test",
    "outcome_marker_table",
    "paired_ttest",
    "pearson_stability",
    "points_ranking",
    "productivity_pvalue",
    "register_measure",
    "rpt",
    "score_pearson_stability",
    "score_std_stability",
    "selection_frequency",
    "self_sufficient_itemsets",
    "signature_performance",
    "spearman_stability",
    "stability",
    "stability_path",
    "wilcoxon_test",
]

