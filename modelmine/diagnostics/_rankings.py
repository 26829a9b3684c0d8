"""Stability of rankings and scores: Spearman (Kalousis et al. 2007), Canberra (Jurman et
al. 2008), Pearson of scores, average standard deviation of scores (Salman et al. 2022)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..validation import param_error
from ._coerce import _as_matrix_2d, _check_rankings, _flag
from ._results import StabilityResult
from ._subsets import _correlation_with_edges, _mean_offdiag_dot, _row_correlation_units

# --------------------------------------------------------------------------------------
# Rankings and scores
# --------------------------------------------------------------------------------------


def spearman_stability(rankings: Any, *, pairwise: bool = False) -> StabilityResult:
    """Average pairwise Spearman rank correlation of full rankings (Kalousis et al. 2007).

    The Pearson correlation of the ranks, in [-1, 1]; without ties it equals
    ``1 - 6 sum_f (r_if - r_jf)^2 / (d (d^2 - 1))``. Tied features may share their average
    rank (fractional ranks, as :meth:`modelmine.BaseModels.tied_ranks` gives): the
    correlation of such ranks is Spearman's coefficient corrected for ties. Computed in
    O(M d).

    Parameters
    ----------
    rankings : array-like, shape (M, d)
        Ranks 1..d (1 = best), ties sharing their average rank.
    pairwise : bool, default=False
        Also return the ``(M, M)`` matrix of pairwise values.

    Returns
    -------
    StabilityResult
    """
    func = "spearman_stability"
    R = _check_rankings(rankings, func, ties=True)
    if R.shape[1] < 2:
        raise param_error("rankings", func, "rankings of at least 2 features", R)
    U, _ = _row_correlation_units(R)
    value = _mean_offdiag_dot(U)
    full = U @ U.T if _flag(pairwise, func) else None
    return StabilityResult("spearman", value, R.shape[0], R.shape[1], pairwise=full)


def _expected_canberra(d: int) -> float:
    """Exact ``E sum_f |a_f - b_f| / (a_f + b_f)`` for two independent random permutations.

    Each position holds an independent uniform pair of ranks in 1..d, so the expectation
    is ``(1/d) sum_{a, b = 1..d} |a - b| / (a + b)``, computed in O(d) blocks of O(d).
    """
    b = np.arange(1, d + 1, dtype=np.float64)
    total = 0.0
    for start in range(0, d, 1024):
        a = b[start:start + 1024, None]
        total += float(np.sum(np.abs(a - b) / (a + b)))
    return total / d


def canberra_stability(rankings: Any, *, pairwise: bool = False) -> StabilityResult:
    """Average pairwise Canberra distance of full rankings, normalised (Jurman et al. 2008).

    ``Ca(r_i, r_j) = sum_f |r_if - r_jf| / (r_if + r_jf)`` weighs disagreements at the top
    of the lists more than at the bottom. The reported value is the average pairwise
    distance divided by its exact expectation for two independent random permutations of
    ``d`` ranks (Jurman et al. 2008, Section 2.2), so 0 means identical rankings and 1 the
    disagreement of random rankings: lower is more stable. The raw mean distance and the
    expectation are in ``details``.

    Parameters
    ----------
    rankings : array-like of int, shape (M, d)
        Rows are permutations of 1..d.
    pairwise : bool, default=False
        Also return the ``(M, M)`` matrix of normalised pairwise distances.

    Returns
    -------
    StabilityResult
    """
    func = "canberra_stability"
    R = _check_rankings(rankings, func)
    M, d = R.shape
    if d < 2:
        raise param_error("rankings", func, "rankings of at least 2 features", R)
    expected = _expected_canberra(d)
    D = np.zeros((M, M))
    for i in range(M - 1):
        # One row against all later rows, vectorised over pairs and features.
        a, b = R[i], R[i + 1:]
        D[i, i + 1:] = np.sum(np.abs(a - b) / (a + b), axis=1)
    D = D + D.T
    raw = float(D.sum() / (M * (M - 1)))
    full = D / expected if _flag(pairwise, func) else None
    return StabilityResult(
        "canberra", raw / expected, M, d, higher_is_more_stable=False, pairwise=full,
        details={"mean_distance": raw, "expected_random": expected},
    )


def score_pearson_stability(scores: Any, *, pairwise: bool = False) -> StabilityResult:
    """Average pairwise Pearson correlation of feature-score vectors (Kalousis et al. 2007).

    A constant score vector cannot be correlated: as for subsets (Nogueira and Brown
    2016), a pair with exactly one constant vector scores 0 and a pair of two constant
    vectors scores 1. Computed in O(M d).

    Parameters
    ----------
    scores : array-like of float, shape (M, d)
    pairwise : bool, default=False
        Also return the ``(M, M)`` matrix of pairwise values.

    Returns
    -------
    StabilityResult
    """
    func = "score_pearson_stability"
    S = _as_matrix_2d(scores, func, "scores", kind="score vectors")
    groups = np.zeros(S.shape[0], dtype=int)
    value, full = _correlation_with_edges(S, groups, _flag(pairwise, func))
    return StabilityResult("score_pearson", value, S.shape[0], S.shape[1], pairwise=full)


def score_std_stability(scores: Any, *, normalize: bool = True) -> StabilityResult:
    """Average standard deviation of the feature scores across runs (Salman et al. 2022).

    ``ASD = (1/d) sum_f sd(x_1f, ..., x_Mf)`` with the sample standard deviation
    (``ddof=1``). With ``normalize=True`` each run's scores are first min-max scaled to
    [0, 1] (a constant run maps to 0), so that selectors with different score scales can
    be compared; the value is then in [0, 0.5*sqrt(M/(M-1))]. Lower is more stable.

    Parameters
    ----------
    scores : array-like of float, shape (M, d)
    normalize : bool, default=True

    Returns
    -------
    StabilityResult
    """
    func = "score_std_stability"
    S = _as_matrix_2d(scores, func, "scores", kind="score vectors")
    if _flag(normalize, func, "normalize"):
        lo = S.min(axis=1, keepdims=True)
        span = S.max(axis=1, keepdims=True) - lo
        S = np.divide(S - lo, span, out=np.zeros_like(S), where=span > 0)
    value = float(np.mean(np.std(S, axis=0, ddof=1)))
    return StabilityResult("score_std", value, S.shape[0], S.shape[1],
                           higher_is_more_stable=False)
