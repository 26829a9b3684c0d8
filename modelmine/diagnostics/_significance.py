"""Significance tests for comparing feature selection procedures, and the KDD'12 points.

Woznica, Nguyen and Kalousis (KDD 2012, Section 3) compare every pair of methods with
McNemar's test on the paired test-set errors and with a paired t-test on per-fold
stability and agreement, at alpha = 0.05, and rank the methods by points: 1 for a
significant win, 0.5 for no significant difference, 0 for a significant loss, summed over
all pairs. This module provides those tests (McNemar exact and continuity-corrected,
paired t-test, Wilcoxon signed-rank, and the stability comparison of Nogueira et al. 2018)
and the points ranking on top of them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats
from scipy.stats import false_discovery_control

from ..validation import check_choice, check_real, param_error
from ._nogueira import nogueira_compare

__all__ = [
    "McNemarResult",
    "PairedTestResult",
    "PointsRanking",
    "bh_qvalues",
    "mcnemar_test",
    "paired_ttest",
    "points_ranking",
    "wilcoxon_test",
]

_MCNEMAR_METHODS = ("exact", "chi2")
_ALTERNATIVES = ("two-sided", "greater", "less")


@dataclass(frozen=True)
class McNemarResult:
    """McNemar's test on paired classifications (McNemar 1947; Dietterich 1998, §3.4).

    Attributes
    ----------
    statistic : float
        ``'exact'``: the smaller discordant count, the binomial statistic;
        ``'chi2'``: ``(|n_a_only - n_b_only| - 1)^2 / (n_a_only + n_b_only)`` (the
        continuity correction is capped so that equal counts give 0).
    pvalue : float
        Two-sided.
    method : str
        ``'exact'`` or ``'chi2'``.
    n_a_only : int
        Samples that classifier A gets right and B wrong.
    n_b_only : int
        Samples that B gets right and A wrong.
    n_samples : int
    """

    statistic: float
    pvalue: float
    method: str
    n_a_only: int
    n_b_only: int
    n_samples: int

    def winner(self, alpha: float = 0.05) -> str | None:
        """``'a'`` or ``'b'`` when the difference is significant at ``alpha``, else None."""
        a = check_real(alpha, "alpha", "McNemarResult.winner", low=0.0, high=1.0,
                       closed="neither")
        assert a is not None
        if self.pvalue >= a or self.n_a_only == self.n_b_only:
            return None
        return "a" if self.n_a_only > self.n_b_only else "b"


def _paired_vectors(a: Any, b: Any, func: str, *, bool_only: bool = False
                    ) -> tuple[np.ndarray, np.ndarray]:
    x, y = np.asarray(a), np.asarray(b)
    for name, v in (("a", x), ("b", y)):
        if v.ndim != 1 or v.size == 0:
            raise param_error(name, func, "a non-empty 1-D array", v)
    if x.size != y.size:
        raise param_error("b", func, f"an array of the same length as a ({x.size})",
                          f"length {y.size}", show=False)
    if bool_only:
        for name, v in (("a", x), ("b", y)):
            if v.dtype != bool and not np.isin(v, (0, 1)).all():
                raise param_error(
                    name, func,
                    "a boolean vector of correct classifications (or predictions with "
                    "y_true)", v,
                )
        return x.astype(bool), y.astype(bool)
    return x, y


def mcnemar_test(
    a: Any, b: Any, *, y_true: Any = None, method: str = "exact"
) -> McNemarResult:
    """McNemar's test of equal error rates of two classifiers on the same test samples.

    Only the discordant samples count: ``n_a_only`` (A right, B wrong) and ``n_b_only``.
    Under H0 ``n_a_only ~ Binomial(n_a_only + n_b_only, 1/2)``. ``'exact'`` gives the
    two-sided binomial p-value ``min(1, 2 P(X <= min(n_a_only, n_b_only)))``; ``'chi2'``
    the continuity-corrected chi-square with one degree of freedom (Edwards 1948). Used by
    Woznica et al. (KDD 2012, Section 3) to compare errors. With 10 and 2 discordant
    samples the exact p-value is 0.0385742 and the corrected chi-square 4.0833 (p
    0.043308).

    Parameters
    ----------
    a, b : array-like of shape (n,)
        Correctness (bool) of classifiers A and B per sample or, with ``y_true``, their
        predictions.
    y_true : array-like of shape (n,), optional
        True labels; when given, ``a`` and ``b`` are predictions.
    method : {'exact', 'chi2'}, default='exact'

    Returns
    -------
    McNemarResult
    """
    func = "mcnemar_test"
    method = check_choice(method, "method", func, _MCNEMAR_METHODS)
    if y_true is not None:
        pa, pb = _paired_vectors(a, b, func)
        t = np.asarray(y_true)
        if t.shape != pa.shape:
            raise param_error("y_true", func, f"an array of {pa.size} labels like a and b", t)
        ca, cb = pa == t, pb == t
    else:
        ca, cb = _paired_vectors(a, b, func, bool_only=True)
    n10 = int(np.count_nonzero(ca & ~cb))
    n01 = int(np.count_nonzero(~ca & cb))
    n = n10 + n01
    if n == 0:
        return McNemarResult(0.0, 1.0, method, n10, n01, ca.size)
    if method == "exact":
        stat = float(min(n10, n01))
        p = min(1.0, 2.0 * float(stats.binom.cdf(min(n10, n01), n, 0.5)))
    else:
        stat = max(abs(n10 - n01) - 1.0, 0.0) ** 2 / n
        p = float(stats.chi2.sf(stat, df=1))
    return McNemarResult(stat, p, method, n10, n01, ca.size)


@dataclass(frozen=True)
class PairedTestResult:
    """A paired test on per-fold values (t-test or Wilcoxon signed-rank).

    Attributes
    ----------
    test : str
        ``'ttest'`` or ``'wilcoxon'``.
    statistic : float
        Student's t, or Wilcoxon's T (as returned by :func:`scipy.stats.wilcoxon`).
    pvalue : float
    alternative : str
    mean_difference : float
        Mean of ``a - b``.
    n : int
        Number of pairs.
    """

    test: str
    statistic: float
    pvalue: float
    alternative: str
    mean_difference: float
    n: int


def _degenerate(
    diff: np.ndarray, scale: float, alternative: str
) -> tuple[float, float] | None:
    """Handle differences without spread (up to rounding relative to ``scale``), where
    scipy returns NaN or a meaningless huge statistic."""
    tol = 1e-12 * max(scale, 1e-300)
    if np.all(np.abs(diff) <= tol):
        return 0.0, 1.0
    if np.ptp(diff) <= tol:
        # Identical nonzero differences: the limit of the t statistic, decisive.
        stat = math.copysign(math.inf, float(diff.mean()))
        if alternative == "two-sided":
            return stat, 0.0
        hit = (alternative == "greater") == (stat > 0)
        return stat, 0.0 if hit else 1.0
    return None


def paired_ttest(a: Any, b: Any, *, alternative: str = "two-sided") -> PairedTestResult:
    """Paired Student t-test on per-fold values (:func:`scipy.stats.ttest_rel`).

    Used by Woznica et al. (KDD 2012, Section 3) for per-fold stability and agreement. All
    differences zero gives t = 0 and p = 1; identical nonzero differences give an infinite
    t and p = 0 (scipy returns NaN there).

    Parameters
    ----------
    a, b : array-like of shape (n_folds,)
        Paired values, n_folds >= 2.
    alternative : {'two-sided', 'greater', 'less'}, default='two-sided'
        ``'greater'``: the mean of ``a - b`` is positive.

    Returns
    -------
    PairedTestResult
    """
    func = "paired_ttest"
    alternative = check_choice(alternative, "alternative", func, _ALTERNATIVES)
    x, y = _paired_vectors(a, b, func)
    x, y = _finite(x, "a", func), _finite(y, "b", func)
    if x.size < 2:
        raise param_error("a", func, "at least 2 paired values", x)
    diff = x - y
    special = _degenerate(diff, float(np.abs(np.r_[x, y]).max()), alternative)
    if special is None:
        res = stats.ttest_rel(x, y, alternative=alternative)
        special = (float(res.statistic), float(res.pvalue))
    return PairedTestResult("ttest", special[0], special[1], alternative,
                            float(diff.mean()), x.size)


def wilcoxon_test(a: Any, b: Any, *, alternative: str = "two-sided") -> PairedTestResult:
    """Wilcoxon signed-rank test on per-fold values (:func:`scipy.stats.wilcoxon`).

    A non-parametric alternative to the paired t-test (Demšar 2006). Zero differences are
    dropped (scipy's default ``zero_method='wilcox'``); all differences zero gives p = 1.

    Parameters
    ----------
    a, b : array-like of shape (n_folds,)
    alternative : {'two-sided', 'greater', 'less'}, default='two-sided'

    Returns
    -------
    PairedTestResult
    """
    func = "wilcoxon_test"
    alternative = check_choice(alternative, "alternative", func, _ALTERNATIVES)
    x, y = _paired_vectors(a, b, func)
    x, y = _finite(x, "a", func), _finite(y, "b", func)
    diff = x - y
    if np.all(diff == 0):
        return PairedTestResult("wilcoxon", 0.0, 1.0, alternative, 0.0, x.size)
    res = stats.wilcoxon(x, y, alternative=alternative)
    return PairedTestResult("wilcoxon", float(res.statistic), float(res.pvalue), alternative,
                            float(diff.mean()), x.size)


def _finite(v: np.ndarray, name: str, func: str) -> np.ndarray:
    try:
        out = v.astype(float)
    except (TypeError, ValueError):
        raise param_error(name, func, "an array of numbers", v, exc=TypeError) from None
    if not np.isfinite(out).all():
        raise param_error(name, func, "finite values", v)
    return out


# --------------------------------------------------------------------------------------
# Points ranking
# --------------------------------------------------------------------------------------

#: A pairwise test: (values of A, values of B) -> (p-value, sign), sign > 0 when A is
#: better, < 0 when B is better, 0 for no direction.
_PairTest = Callable[[Any, Any], tuple[float, float]]


def _by_mcnemar(method: str) -> _PairTest:
    def run(a: Any, b: Any) -> tuple[float, float]:
        r = mcnemar_test(a, b, method=method)
        return r.pvalue, float(np.sign(r.n_a_only - r.n_b_only))
    return run


def _by_paired(test: Callable[..., PairedTestResult]) -> _PairTest:
    def run(a: Any, b: Any) -> tuple[float, float]:
        r = test(a, b)
        return r.pvalue, float(np.sign(r.mean_difference))
    return run


def _by_nogueira(a: Any, b: Any) -> tuple[float, float]:
    r = nogueira_compare(a, b)
    # T is (Phi_b - Phi_a) / se: A is better when T < 0.
    return r.pvalue, float(-np.sign(r.statistic))


_POINT_TESTS: dict[str, tuple[_PairTest, str]] = {
    "mcnemar": (_by_mcnemar("exact"), "correctness vectors (bool, one per test sample)"),
    "mcnemar_chi2": (_by_mcnemar("chi2"), "correctness vectors (bool, one per test sample)"),
    "ttest": (_by_paired(paired_ttest), "per-fold values"),
    "wilcoxon": (_by_paired(wilcoxon_test), "per-fold values"),
    "nogueira": (_by_nogueira, "selection matrices (M, d)"),
}


@dataclass(frozen=True, repr=False)
class PointsRanking:
    """The KDD'12 points ranking of a set of methods (Woznica et al. 2012, Section 3).

    Attributes
    ----------
    points : pandas.Series
        Points per method, highest first (ties keep the input order).
    table : pandas.DataFrame
        Per method: ``wins``, ``ties``, ``losses`` and ``points``, in input order.
    outcome : pandas.DataFrame
        ``outcome.loc[a, b]``: the points ``a`` earns against ``b`` (1, 0.5 or 0; NaN on
        the diagonal).
    pvalues : pandas.DataFrame
        The p-value of every pair (symmetric; NaN on the diagonal).
    test : str
    alpha : float
    """

    points: pd.Series
    table: pd.DataFrame
    outcome: pd.DataFrame
    pvalues: pd.DataFrame
    test: str
    alpha: float

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}: {v:g}" for k, v in self.points.items())
        return f"PointsRanking(test={self.test!r}, alpha={self.alpha:g}, points={{{shown}}})"


def points_ranking(
    results: Any, *, test: str = "mcnemar", alpha: float = 0.05, higher_is_better: bool = True,
    y_true: Any = None,
) -> PointsRanking:
    """Rank methods by points over all pairwise significance tests (KDD 2012, Section 3).

    For every pair of methods the chosen test decides: a significant difference (p <
    ``alpha``) gives the better method 1 point and the other 0; otherwise each gets 0.5.
    A method's points are summed over its ``n_methods - 1`` opponents. Woznica et al. use
    McNemar's test for errors and the paired t-test for stability and agreement, with
    alpha = 0.05, and average such points over datasets and selectors (their Table 2).

    Parameters
    ----------
    results : mapping of str to array-like, or pandas.DataFrame
        One entry per method (a DataFrame: one column per method). What an entry holds
        depends on ``test``:

        - ``'mcnemar'`` / ``'mcnemar_chi2'``: the boolean correctness of the method on each
          test sample (or its predictions, with ``y_true``); the method right more often on
          the discordant samples wins. ``higher_is_better`` is not used.
        - ``'ttest'`` / ``'wilcoxon'``: paired per-fold values (the same folds for every
          method), for example per-fold agreement or error.
        - ``'nogueira'``: the method's selection matrix ``(M, d)`` over the folds; the test
          of Nogueira et al. (2018, Theorem 10) compares stabilities.
    test : {'mcnemar', 'mcnemar_chi2', 'ttest', 'wilcoxon', 'nogueira'}, default='mcnemar'
    alpha : float in (0, 1), default=0.05
    higher_is_better : bool, default=True
        For ``'ttest'`` and ``'wilcoxon'``: set False for values such as error.
    y_true : array-like, optional
        True labels, when McNemar entries are predictions.

    Returns
    -------
    PointsRanking
    """
    func = "points_ranking"
    test = check_choice(test, "test", func, tuple(_POINT_TESTS))
    a = check_real(alpha, "alpha", func, low=0.0, high=1.0, closed="neither")
    assert a is not None
    if not isinstance(higher_is_better, (bool, np.bool_)):
        raise param_error("higher_is_better", func, "a bool", higher_is_better, exc=TypeError)
    if isinstance(results, pd.DataFrame):
        results = {c: results[c].to_numpy() for c in results.columns}
    if not isinstance(results, Mapping):
        raise param_error("results", func, "a mapping from method name to its results",
                          results, exc=TypeError)
    names = list(results)
    if len(names) < 2:
        raise param_error("results", func, "the results of at least 2 methods",
                          f"{len(names)} method(s)", show=False)
    values = dict(results)
    if test.startswith("mcnemar") and y_true is not None:
        t = np.asarray(y_true)
        values = {}
        for name in names:
            pred = np.asarray(results[name])
            if pred.shape != t.shape:
                raise param_error("results", func,
                                  f"predictions of {t.size} samples like y_true",
                                  f"{pred.shape} for {name!r}", show=False)
            values[name] = pred == t
    elif y_true is not None:
        raise param_error("y_true", func, "None unless test is 'mcnemar' or 'mcnemar_chi2'",
                          "an array", show=False)
    pair_test = _POINT_TESTS[test][0]
    flip = (not higher_is_better) and test in ("ttest", "wilcoxon")
    n = len(names)
    outcome = np.full((n, n), np.nan)
    pvalues = np.full((n, n), np.nan)
    for i in range(n):
        for j in range(i + 1, n):
            p, sign = pair_test(values[names[i]], values[names[j]])
            if flip:
                sign = -sign
            pvalues[i, j] = pvalues[j, i] = p
            if p < a and sign != 0:
                outcome[i, j] = 1.0 if sign > 0 else 0.0
            else:
                outcome[i, j] = 0.5
            outcome[j, i] = 1.0 - outcome[i, j]
    off = ~np.eye(n, dtype=bool)
    wins = ((outcome == 1.0) & off).sum(axis=1)
    losses = ((outcome == 0.0) & off).sum(axis=1)
    ties = ((outcome == 0.5) & off).sum(axis=1)
    pts = np.nansum(outcome, axis=1)
    table = pd.DataFrame({"wins": wins, "ties": ties, "losses": losses, "points": pts},
                         index=pd.Index(names, name="method"))
    order = np.argsort(-pts, kind="stable")
    points = pd.Series(pts[order], index=pd.Index([names[k] for k in order], name="method"),
                       name="points")
    return PointsRanking(
        points=points, table=table,
        outcome=pd.DataFrame(outcome, index=names, columns=names),
        pvalues=pd.DataFrame(pvalues, index=names, columns=names), test=test, alpha=a,
    )


def bh_qvalues(p_values: Any) -> np.ndarray:
    """Benjamini-Hochberg (1995) adjusted p-values (q-values), in the input order.

    ``q_(i) = min_{j >= i} min(1, m p_(j) / j)`` over the sorted p-values
    (``scipy.stats.false_discovery_control(method="bh")``).
    """
    p = np.asarray(p_values, dtype=np.float64)
    if p.size == 0:
        return p.copy()
    return np.asarray(false_discovery_control(p, method="bh"), dtype=np.float64)
