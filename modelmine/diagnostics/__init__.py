"""Diagnostics: stability, diversity, agreement, performance and significance.

Pure functions on subsets, rankings, scores and predictions, each returning a small result
object. Each takes the previous stage's objects as they are (BaseModels, Signature,
SignatureSet, a boolean matrix or index sets; :func:`as_selection_matrix`). Modules by
family: ``_subsets`` (Jaccard, Dice, Kuncheva, Pearson), ``_nogueira`` (estimator,
variance, tests), ``_rankings`` (Spearman, Canberra, scores), ``_measures`` (the registry).
See ``docs/diagnostics.md`` for every measure, its formula and its reference.
"""

from typing import Any

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
    "as_rankings",
    "as_scores",
    "as_selection_matrix",
    "available_measures",
    "bh_qvalues",
    "canberra_stability",
    "cox_univariate",
    "curveball",
    "dice_stability",
    "diversity",
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
    "pairwise_similarity",
    "pearson_stability",
    "pfer_bound",
    "points_ranking",
    "register_measure",
    "rpt",
    "score_pearson_stability",
    "score_std_stability",
    "selection_frequency",
    "signature_performance",
    "spearman_stability",
    "stability",
    "stability_path",
    "threshold_for_pfer",
    "wilcoxon_test",
]


#: The workflows that refit the flow (the permutation null, the error-control check, what
#: grouping changes) moved to :mod:`modelmine.evaluation`, above the pipeline (issue 38): the
#: diagnostics hold the pure measures. Their old paths here warn, for one release.
_MOVED = ("MIN_PERMUTATIONS", "ErrorControlCheck", "LeaveOneGroupOutResult",
          "SelectionNullResult", "check_error_control", "grouping_effect",
          "leave_one_group_out", "selection_null")


def __getattr__(name: str) -> Any:
    if name in _MOVED:
        import warnings

        from .. import evaluation

        warnings.warn(f"modelmine.diagnostics.{name} is now modelmine.evaluation.{name}; "
                      "the old path will be removed in the next release",
                      DeprecationWarning, stacklevel=2)
        return getattr(evaluation, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
