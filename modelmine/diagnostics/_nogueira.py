"""Nogueira, Sechidis and Brown (JMLR 2018): the stability estimator for subsets of varying
size, its variance, confidence interval and the two hypothesis tests (sections 4 and 5)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.stats import norm

from ..validation import check_choice, check_real, param_error
from ._coerce import as_selection_matrix
from ._results import NogueiraResult, NogueiraTestResult


def _nogueira(Z: np.ndarray, confidence_level: float) -> NogueiraResult:
    M, d = Z.shape
    Zs = sp.csr_matrix(Z, dtype=np.float64)  # O(nnz) products below, no dense float copy
    p = np.asarray(Zs.sum(axis=0)).ravel() / M
    k = np.asarray(Zs.sum(axis=1)).ravel()
    kbar = float(p.sum())
    denom = (kbar / d) * (1.0 - kbar / d)
    if denom <= 0.0:
        # Every subset empty, or every subset full: the selections are identical.
        value, variance = 1.0, 0.0
    else:
        value = 1.0 - (M / (M - 1.0)) * float(np.mean(p * (1.0 - p))) / denom
        # Influence of subset i on the estimate (delta method on the U-statistic and on
        # kbar; docs/diagnostics.md). The k_i term enters with +value/2, as in the authors'
        # Python and Matlab code; their R code has the opposite sign, which the derivation
        # refutes (and the coverage test in tests/diagnostics detects).
        phi = (
            Zs @ p / d
            - k * kbar / d**2
            + (value / 2.0) * (2.0 * k * kbar / d**2 - k / d - kbar / d + 1.0)
        ) / denom
        variance = float(4.0 / M**2 * np.sum((phi - phi.mean()) ** 2))
    z = float(norm.ppf(0.5 + confidence_level / 2.0))
    se = math.sqrt(variance)
    return NogueiraResult(
        value=float(value), variance=variance,
        confidence_interval=(float(value - z * se), float(value + z * se)),
        confidence_level=confidence_level, n_subsets=M, n_features_in=d, mean_size=kbar,
    )


def nogueira_stability(
    subsets: Any, n_features_in: int | None = None, *, confidence_level: float = 0.95
) -> NogueiraResult:
    """Stability estimate of Nogueira, Sechidis and Brown (JMLR 2018), with variance and CI.

    ``Phi_hat = 1 - (1/d) sum_f s_f^2 / (kbar/d (1 - kbar/d))`` where ``s_f^2 = M/(M-1)
    p_f (1 - p_f)`` is the unbiased variance of the selection of feature ``f`` and ``kbar``
    the mean subset size (Definition 4). It handles subsets of varying size, is 0 in
    expectation for random selections, at most 1, and equals the average pairwise Pearson
    correlation (and Kuncheva's index) when all subsets have the same size.

    The variance is the paper's asymptotic one, ``4/M^2 sum_i (phi_i - phi_bar)^2``,
    and the interval the normal one of Corollary 9, ``Phi_hat -+ z_{1-alpha/2}
    sqrt(var)``. When every subset is empty (or every subset is full) the selections are
    identical: the estimate is 1 with variance 0.

    Parameters
    ----------
    subsets : BaseModels, SignatureSet, bool matrix (M, d) or sequence of index arrays
        At least 2 subsets.
    n_features_in : int, optional
        ``d``, required with index arrays.
    confidence_level : float, default=0.95
        ``1 - alpha`` of the interval.

    Returns
    -------
    NogueiraResult
    """
    func = "nogueira_stability"
    level = check_real(confidence_level, "confidence_level", func, low=0.0, high=1.0,
                       closed="neither")
    assert level is not None
    Z = as_selection_matrix(subsets, n_features_in, func=func)
    return _nogueira(Z, level)


_ALTERNATIVES = ("greater", "less", "two-sided")


def _normal_pvalue(stat: float, alternative: str) -> float:
    if alternative == "greater":
        return float(norm.sf(stat))
    if alternative == "less":
        return float(norm.cdf(stat))
    return float(min(1.0, 2.0 * norm.sf(abs(stat))))


def _ratio(num: float, var: float) -> float:
    if var > 0.0:
        return num / math.sqrt(var)
    # Degenerate variance: the estimate is exact.
    return 0.0 if num == 0.0 else math.copysign(math.inf, num)


def nogueira_test(
    subsets: Any, null_value: float, n_features_in: int | None = None, *,
    alternative: str = "greater",
) -> NogueiraTestResult:
    """Test H0: the population stability equals ``null_value`` (Nogueira et al. 2018).

    The statistic ``V = (Phi_hat - Phi_0) / sqrt(var(Phi_hat))`` is asymptotically
    standard normal under H0. The paper tests against H1: stability greater than
    ``Phi_0`` (the default); ``'less'`` and ``'two-sided'`` are also offered.

    Parameters
    ----------
    subsets : BaseModels, SignatureSet, bool matrix (M, d) or sequence of index arrays
    null_value : float
        ``Phi_0``, at most 1.
    n_features_in : int, optional
    alternative : {'greater', 'less', 'two-sided'}, default='greater'

    Returns
    -------
    NogueiraTestResult
    """
    func = "nogueira_test"
    phi0 = check_real(null_value, "null_value", func, high=1.0)
    assert phi0 is not None
    alternative = check_choice(alternative, "alternative", func, _ALTERNATIVES)
    est = _nogueira(as_selection_matrix(subsets, n_features_in, func=func), 0.95)
    stat = _ratio(est.value - phi0, est.variance)
    return NogueiraTestResult("value", stat, _normal_pvalue(stat, alternative), alternative,
                              (est,), phi0)


def nogueira_compare(
    subsets_1: Any, subsets_2: Any, n_features_in: int | None = None, *,
    alternative: str = "two-sided",
) -> NogueiraTestResult:
    """Test H0: two procedures have the same population stability (Nogueira et al. 2018,
    Theorem 10).

    ``T = (Phi_hat_2 - Phi_hat_1) / sqrt(var_1 + var_2)`` is asymptotically standard
    normal under H0 when the two collections are independent. Both must be over the same
    ``d`` features; their numbers of subsets may differ. ``'greater'`` means H1: the
    second procedure is more stable.

    Parameters
    ----------
    subsets_1, subsets_2 : bool matrices or sequences of index arrays
    n_features_in : int, optional
    alternative : {'two-sided', 'greater', 'less'}, default='two-sided'

    Returns
    -------
    NogueiraTestResult
    """
    func = "nogueira_compare"
    alternative = check_choice(alternative, "alternative", func, _ALTERNATIVES)
    Z1 = as_selection_matrix(subsets_1, n_features_in, func=func, name="subsets_1")
    Z2 = as_selection_matrix(subsets_2, n_features_in, func=func, name="subsets_2")
    if Z1.shape[1] != Z2.shape[1]:
        raise param_error("subsets_2", func,
                          f"subsets over the same {Z1.shape[1]} features as subsets_1",
                          f"subsets over {Z2.shape[1]} features", show=False)
    e1, e2 = _nogueira(Z1, 0.95), _nogueira(Z2, 0.95)
    stat = _ratio(e2.value - e1.value, e1.variance + e2.variance)
    return NogueiraTestResult("compare", stat, _normal_pvalue(stat, alternative),
                              alternative, (e1, e2))
