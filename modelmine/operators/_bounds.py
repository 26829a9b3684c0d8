"""Error bounds of stability selection: the expected number of false selections (PFER).

Three bounds on E[V], the expected number of noise features whose selection frequency
reaches a threshold pi, given q (the mean number of features each base model selects) and p
(the number of features):

- ``"mb"``: Meinshausen and Buehlmann (2010, JRSS-B 72, Theorem 1):
  ``E[V] <= q^2 / ((2 pi - 1) p)`` for pi in (0.5, 1], under exchangeability of the noise
  features and a selector no worse than random guessing; subsamples of size n/2.
  Shah and Samworth (2013, Theorem 1) show it also holds for complementary pairs.
- ``"ss-unimodal"`` and ``"ss-r-concave"``: Shah and Samworth (2013, JRSS-B 75, sections
  3.3-3.4, equations 8-9), for complementary pairs subsampling (CPSS) with B pairs, under
  the extra assumption that the distribution of the simultaneous selection frequency is
  unimodal, respectively r-concave (r = -1/2 for the pairs, r = -1/4 for single halves).

The code follows the R package stabs (Hofner and Hothorn, ``R/helpers.R``: ``um_const``,
``D``, ``minD``, ``optimal_cutoff``, ``maxQ``), itself adapted from Shah and Samworth's
``r_concave_tail.R``; thresholds of the SS bounds live on the grid of multiples of
1/(2B), the frequencies 2B models can take.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy.optimize import brentq

from ..validation import check_choice, check_int, check_real, param_error

__all__ = ["BOUND_METHODS", "max_q_r_concave", "pfer_bound", "threshold_for_pfer"]

#: The PFER bounds, with the resampling schemes they cover and what they assume.
BOUND_METHODS = {
    "mb": {
        "reference": "Meinshausen and Buehlmann (2010), Theorem 1",
        "resampling": ("subsample with sample_fraction=0.5", "complementary-pairs"),
        "assumptions": "the noise features are exchangeable (their selections have the same "
        "distribution) and the selector is no worse than random guessing",
    },
    "ss-unimodal": {
        "reference": "Shah and Samworth (2013), section 3.4, equation (9)",
        "resampling": ("complementary-pairs",),
        "assumptions": "the simultaneous selection frequency of the noise features in a "
        "complementary pair has a unimodal distribution, and the selector is "
        "no worse than random guessing (q/p for a noise feature)",
    },
    "ss-r-concave": {
        "reference": "Shah and Samworth (2013), section 3.3, equation (8)",
        "resampling": ("complementary-pairs",),
        "assumptions": "the selection frequencies of the noise features are r-concave "
        "(r = -1/2 for the pairs' simultaneous selection, r = -1/4 for single "
        "halves), and the selector is no worse than random guessing",
    },
}

#: B, the number of complementary pairs the SS bounds assume when not told (stabs' default).
DEFAULT_N_PAIRS = 50


def _method(method: object, func: str) -> str:
    return check_choice(method, "method", func, tuple(BOUND_METHODS))


def _q_p(q: object, p: object, func: str) -> tuple[float, int]:
    p_ = check_int(p, "p", func, min_value=1)
    q_ = check_real(q, "q", func, low=0.0, high=float(p_), closed="right")
    return q_, p_


def _um_const(cutoff: float, n_pairs: int, theta: float, func: str) -> float:
    """stabs' ``um_const``: the denominator of the unimodal bound (Shah and Samworth 2013,
    equation 9, in the form q^2 / p / c)."""
    if cutoff <= 0.75:
        lowest = 0.5 + min(theta**2, 1.0 / (2 * n_pairs) + 0.75 * theta**2)
        if cutoff < lowest:
            raise param_error(
                "threshold",
                func,
                f"at least {lowest:.6g} for the unimodal bound "
                f"with q/p = {theta:.6g} and {n_pairs} pairs "
                "(0.5 + min(theta^2, 1/(2B) + 3/4 theta^2), Shah and Samworth "
                "2013, equation 9)",
                cutoff,
            )
        return 2.0 * (2.0 * cutoff - 1.0 - 1.0 / (2 * n_pairs))
    return (1.0 + 1.0 / n_pairs) / (4.0 * (1.0 - cutoff + 1.0 / (2 * n_pairs)))


@lru_cache(maxsize=256)
def _a_values(theta: float, n: int, r: float) -> tuple[float, ...]:
    """The ``a_k`` of stabs' ``D`` (k = k_start..n): roots of
    ``sum_j j (a + j)^s / sum_j (a + j)^s = theta * n`` (j = 0..k, s = 1/r), found from the
    previous one downwards as ``uniroot`` does. Index k of the result (1-based as in R)."""
    s = 1.0 / r
    theta_b = theta * n
    k_start = math.ceil(2 * theta_b) + 1
    a_vec = [100000.0] * (n + 1)  # a_vec[0] unused; R's rep(100000, B)
    for k in range(k_start, n + 1):
        j = np.arange(k + 1, dtype=np.float64)

        def calc(a: float, j: np.ndarray = j) -> float:
            w = (a + j) ** s
            return float((j * w).sum() / w.sum() - theta_b)

        a_vec[k] = brentq(calc, 0.00001, a_vec[k - 1], xtol=np.finfo(float).eps ** 0.75)
    return tuple(a_vec)


def _power(x: np.ndarray, s: float) -> np.ndarray:
    """``x ** s``, by multiplications for the exponents of the bounds (s = -2, -4)."""
    if s == -2.0:
        return 1.0 / (x * x)
    if s == -4.0:
        x2 = x * x
        return 1.0 / (x2 * x2)
    return x**s


def _tail_d(theta: float, which: int, n: int, r: float) -> float:
    """stabs' ``D(theta, which, B, r)``: the largest upper tail probability P(X >= which/n)
    of an r-concave distribution on {0, 1/n, ..., 1} with mean theta (Shah and Samworth
    2013, section 3.3; their ``r_concave_tail.R``)."""
    s = 1.0 / r
    theta_b = theta * n
    k_start = math.ceil(2 * theta_b) + 1
    if which < k_start:
        return 1.0
    if k_start > n:
        raise ValueError("theta too large")
    a_vec = np.asarray(_a_values(theta, n, r))
    # R's optimize() maximises OptimInt over [a_(k+1), a_k] for each k = k_start..n-1; here
    # a golden-section search runs for all k at once (the objective is evaluated on a
    # padded k x (n+1) matrix), then the ends are checked too.
    kk = np.arange(k_start, n, dtype=np.float64)
    if kk.size == 0:
        return 0.0
    j = np.arange(n + 1, dtype=np.float64)
    in_k = j[None, :] <= kk[:, None]
    weight = np.where(in_k, kk[:, None] + 1 - j[None, :], 0.0)
    below_t = (j < which).astype(np.float64)
    lead = kk + 1 - theta_b

    def objective(a: np.ndarray) -> np.ndarray:
        w = _power(a[:, None] + j[None, :], s)  # the numerator runs to t - 1, even past k
        return 1.0 - lead * (w @ below_t) / (weight * w).sum(axis=1)

    ks = np.arange(k_start, n)
    lo, hi = a_vec[ks + 1].copy(), a_vec[ks].copy()
    best = np.maximum(objective(lo), objective(hi))
    ratio = (math.sqrt(5.0) - 1.0) / 2.0
    x1, x2 = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
    f1, f2 = objective(x1), objective(x2)
    for _ in range(64):
        left = f1 >= f2  # the maximum lies in [lo, x2]
        hi = np.where(left, x2, hi)
        lo = np.where(left, lo, x1)
        x2n = np.where(left, x1, lo + ratio * (hi - lo))
        x1n = np.where(left, hi - ratio * (hi - lo), x2)
        f2n = np.where(left, f1, np.nan)
        f1n = np.where(left, np.nan, f2)
        x1, x2 = x1n, x2n
        need1, need2 = np.isnan(f1n), np.isnan(f2n)
        f1 = np.where(need1, objective(x1), f1n)
        f2 = np.where(need2, objective(x2), f2n)
    best = np.maximum(best, np.maximum(f1, f2))
    return float(best.max())


def max_q_r_concave(p: int, n_pairs: int) -> int:
    """stabs' ``maxQ(p, B)``: the largest q for which the r-concave bound is defined."""
    q = np.arange(1, p + 1)
    return int((np.ceil(q * 4.0 * n_pairs / p) + 1 - 2 * n_pairs < 0).sum())


def _r_concave(q: float, p: int, threshold: float, n_pairs: int, func: str) -> float:
    """p * stabs' ``minD(q, p, pi, B)``."""
    most = max_q_r_concave(p, n_pairs)
    if q > most:
        raise param_error(
            "q",
            func,
            f"at most {most} for the r-concave bound with p = {p} "
            f"and {n_pairs} pairs (stabs' maxQ)",
            q,
        )
    which = math.ceil(float(f"{threshold * 2 * n_pairs:.10g}"))
    d1 = _tail_d(q**2 / p**2, which - n_pairs, n_pairs, -0.5)
    d2 = _tail_d(q / p, which, 2 * n_pairs, -0.25)
    return min(1.0, d1, d2) * p


def _n_pairs(n_pairs: object, func: str) -> int:
    return check_int(n_pairs, "n_pairs", func, min_value=2)


def pfer_bound(
    *, threshold: float, q: float, p: int, method: str = "mb", n_pairs: int = DEFAULT_N_PAIRS
) -> float:
    """Upper bound on the expected number of false selections of stability selection.

    E[V], V = the number of noise features whose selection frequency is at least
    ``threshold`` when each base model selects q features on average among p.

    - ``"mb"``: ``q^2 / ((2 pi - 1) p)`` (Meinshausen and Buehlmann 2010, Theorem 1);
    - ``"ss-unimodal"``: ``q^2 / (p c(pi))`` with ``c = 2 (2 pi - 1 - 1/(2B))`` for
      pi <= 3/4 and ``c = 4 (1 - pi + 1/(2B)) / (1 + 1/B)`` inverted for pi > 3/4 (Shah and
      Samworth 2013, equation 9; stabs' ``um_const``);
    - ``"ss-r-concave"``: ``p min(1, D(q^2/p^2, 2B pi - B, B, -1/2), D(q/p, 2B pi, 2B,
      -1/4))`` (Shah and Samworth 2013, equation 8; stabs' ``minD``).

    Parameters
    ----------
    threshold : float
        pi, the selection frequency threshold, in (0.5, 1] ([0.5, 1] for
        ``"ss-r-concave"``).
    q : float
        Mean number of features each base model selects, in (0, p].
    p : int
        Number of features.
    method : {"mb", "ss-unimodal", "ss-r-concave"}, default="mb"
    n_pairs : int, default=50
        B, the number of complementary pairs (2B base models) for the Shah-Samworth
        bounds (ignored by ``"mb"``).

    Returns
    -------
    float
        The bound (it may exceed p when the threshold is too low to say anything).

    Examples
    --------
    stabs' vignette: p = 9, q = 2, cutoff 0.75, 50 pairs, unimodal: "PFER (*): 0.454".

    >>> round(pfer_bound(threshold=0.75, q=2, p=9, method="ss-unimodal"), 3)
    0.454
    """
    func = "pfer_bound"
    meth = _method(method, func)
    q_, p_ = _q_p(q, p, func)
    # The r-concave bound is finite at 0.5 (stabs scans its cutoffs down to 0.5); the
    # others divide by 2 pi - 1.
    pi = check_real(
        threshold,
        "threshold",
        func,
        low=0.5,
        high=1.0,
        closed="both" if meth == "ss-r-concave" else "right",
    )
    if meth == "mb":
        return q_**2 / ((2 * pi - 1) * p_)
    b = _n_pairs(n_pairs, func)
    if meth == "ss-unimodal":
        return q_**2 / p_ / _um_const(pi, b, q_ / p_, func)
    return _r_concave(q_, p_, pi, b, func)


def threshold_for_pfer(
    *, pfer: float, q: float, p: int, method: str = "mb", n_pairs: int = DEFAULT_N_PAIRS
) -> float:
    """The lowest frequency threshold whose PFER bound is within ``pfer``.

    - ``"mb"``: ``pi = (q^2 / (pfer p) + 1) / 2`` (Meinshausen and Buehlmann 2010,
      Theorem 1 solved for pi; stabs' ``stabsel_parameters`` with ``sampling.type="MB"``);
    - ``"ss-unimodal"``: the first of the grid ``1/2 + (2..B)/(2B)`` above
      ``1/2 + min((q/p)^2, 1/(2B) + 3/4 (q/p)^2)`` whose bound is strictly below
      ``pfer`` (stabs' ``optimal_cutoff``);
    - ``"ss-r-concave"``: scanning the grid ``k/(2B)`` from 1 down, the last threshold
      before the bound first exceeds ``pfer`` (stabs' ``optimal_cutoff``).

    Parameters
    ----------
    pfer : float
        The target expected number of false selections, > 0.
    q, p, method, n_pairs
        As in :func:`pfer_bound`.

    Returns
    -------
    float
        pi in (0.5, 1], or ``inf`` when no threshold up to 1 keeps the bound within
        ``pfer`` (then nothing can be selected with that guarantee; stabs would return 1
        and warn).

    Examples
    --------
    stabs' vignette: ``stabsel_parameters(q = 3, PFER = 1, p = 10, sampling.type = "MB")``
    gives "Cutoff: 0.95".

    >>> round(threshold_for_pfer(pfer=1, q=3, p=10), 6)
    0.95
    """
    func = "threshold_for_pfer"
    meth = _method(method, func)
    target = check_real(pfer, "pfer", func, low=0.0, closed="neither")
    q_, p_ = _q_p(q, p, func)
    if meth == "mb":
        pi = (q_**2 / (target * p_) + 1) / 2
        return pi if pi <= 1.0 else math.inf
    b = _n_pairs(n_pairs, func)
    theta = q_ / p_
    if meth == "ss-unimodal":
        grid = 0.5 + np.arange(2, b + 1) / (2.0 * b)
        lowest = min(0.5 + theta**2, 0.5 + 1 / (2 * b) + 0.75 * theta**2)
        for pi in grid[grid > lowest]:
            if q_**2 / p_ / _um_const(float(pi), b, theta, func) < target:
                return float(pi)
        return math.inf
    if q_ > max_q_r_concave(p_, b):
        return math.inf
    # stabs scans k/(2B) from 1 downwards and stops at the first bound above pfer; the
    # bound decreases as the threshold rises (a tail probability), so a bisection over the
    # grid finds the same threshold with a logarithmic number of bounds.
    grid = np.arange(b, 2 * b + 1) / (2.0 * b)  # 0.5 .. 1, ascending

    def ok(i: int) -> bool:
        return _r_concave(q_, p_, float(grid[i]), b, func) <= target

    if not ok(grid.size - 1):
        return math.inf
    lo, hi = -1, grid.size - 1  # ok(hi) holds; ok(lo) is taken to fail
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return float(grid[hi])
