"""Diagnostics: stability, diversity, agreement, performance and significance.

Pure functions on subsets, rankings, scores and predictions, each returning a small result
object. Each takes the previous stage's objects as they are (BaseModels, Signature,
SignatureSet, a boolean matrix or index sets; :func:`as_selection_matrix`). Modules by
family: ``_subsets`` (Jaccard, Dice, Kuncheva, Pearson), ``_nogueira`` (estimator,
variance, tests), ``_rankings`` (Spearman, Canberra, scores), ``_measures`` (the registry).
See ``docs/diagnostics.md`` for every measure, its formula and its reference.
"""

from ..operators import pfer_bound, threshold_for_pfer
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
from ._coerce import as_rankings, as_scores, as_selection_matrix
from ._error_check import ErrorControlCheck, check_error_control
from ._groups import LeaveOneGroupOutResult, grouping_effect, leave_one_group_out
from ._itemset_null import curveball, itemset_significance
from ._markers import EFFECT_MEASURES, marker_table
from ._measures import (
    MEASURE_ENTRY_POINT_GROUP,
    MeasureRegistry,
    StabilityMeasure,
    available_measures,
    get_measure,
    measure_spec,
    register_measure,
    stability,
)
from ._nogueira import nogueira_compare, nogueira_stability, nogueira_test
from ._null import MIN_PERMUTATIONS, SelectionNullResult, selection_null
from ._outcome_markers import cox_univariate, outcome_marker_table
from ._paths import StabilityPathResult, stability_path
from ._rankings import (
    canberra_stability,
    score_pearson_stability,
    score_std_stability,
    spearman_stability,
)
from ._results import FrequencyResult, NogueiraResult, NogueiraTestResult, StabilityResult
from ._significance import (
    McNemarResult,
    PairedTestResult,
    PointsRanking,
    bh_qvalues,
    mcnemar_test,
    paired_ttest,
    points_ranking,
    wilcoxon_test,
)
from ._subsets import (
    dice_stability,
    jaccard_stability,
    kuncheva_stability,
    pairwise_similarity,
    pearson_stability,
    selection_frequency,
)

__all__ = [
    "EFFECT_MEASURES",
    "MEASURE_ENTRY_POINT_GROUP",
    "MIN_PERMUTATIONS",
    "AgreementResult",
    "DiversityResult",
    "ErrorControlCheck",
    "FrequencyResult",
    "LeaveOneGroupOutResult",
    "McNemarResult",
    "MeasureRegistry",
    "NogueiraResult",
    "NogueiraTestResult",
    "PairedTestResult",
    "PerformanceResult",
    "PointsRanking",
    "RPTResult",
    "SelectionNullResult",
    "StabilityMeasure",
    "StabilityPathResult",
    "StabilityResult",
    "agreement",
    "as_rankings",
    "as_scores",
    "as_selection_matrix",
    "available_measures",
    "bh_qvalues",
    "canberra_stability",
    "check_error_control",
    "cox_univariate",
    "curveball",
    "dice_stability",
    "diversity",
    "get_measure",
    "grouping_effect",
    "itemset_significance",
    "jaccard_stability",
    "kuncheva_stability",
    "leave_one_group_out",
    "marker_table",
    "mcnemar_test",
    "measure_spec",
    "nogueira_compare",
    "nogueira_stability",
    "nogueira_test",
    "outcome_marker_table",
    "paired_ttest",
    "pairwise_similarity",
    "pearson_stability",
    "pfer_bound",
    "points_ranking",
    "register_measure",
    "rpt",
    "score_pearson_stability",
    "score_std_stability",
    "selection_frequency",
    "selection_null",
    "signature_performance",
    "spearman_stability",
    "stability",
    "stability_path",
    "threshold_for_pfer",
    "wilcoxon_test",
]
