"""The univariate Cox score test of every feature at once (Cox 1972; Breslow ties).

For a feature x and the Cox model with one coefficient, the score test of beta = 0 uses
the derivatives of the log partial likelihood at 0, where every subject has weight 1:

    U = sum over event times t of ( sum of x over the d_t events at t
                                    - d_t * mean of x over the risk set R_t ),
    I = sum over event times t of d_t * variance of x over R_t (population variance),

and the statistic is ``U^2 / I``, chi-square with one degree of freedom (Breslow's
handling of tied times). For a binary feature and untied times it is the log-rank
statistic (Mantel 1966), which the tests check against scikit-survival's
``compare_survival``. The risk-set sums of x and x^2 are cumulative sums over the samples
sorted by decreasing time, so all p features cost O(n p).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

__all__ = ["cox_score_statistics"]

_BLOCK = 2048


def cox_score_statistics(X: Any, event: np.ndarray, time: np.ndarray, *,
                         return_parts: bool = False) -> Any:
    """Cox score test statistic ``U^2 / I`` of each column of X (Breslow ties).

    Parameters
    ----------
    X : ndarray or scipy.sparse matrix of shape (n_samples, p)
    event : ndarray of bool, shape (n_samples,)
        True where the event was observed, False where the time is censored.
    time : ndarray of float, shape (n_samples,)
    return_parts : bool, default=False
        Also return U (its sign is the direction: positive = a higher value, a higher
        hazard) and I.

    Returns
    -------
    ndarray of shape (p,), or (statistic, U, I)
        0 where the feature is constant over every risk set of an event (I = 0).
    """
    event = np.asarray(event, dtype=bool)
    time = np.asarray(time, dtype=np.float64)
    order = np.argsort(-time, kind="stable")
    t_sorted, e_sorted = time[order], event[order]
    # the last position (in decreasing time) of each distinct time: the risk set of time
    # t is every sample of time >= t, so its sums are the cumulative sums up to there
    last = np.r_[np.flatnonzero(t_sorted[1:] != t_sorted[:-1]), t_sorted.size - 1]
    group = np.searchsorted(last, np.arange(t_sorted.size))  # each sample's distinct time
    d = np.bincount(group, weights=e_sorted.astype(np.float64), minlength=last.size)
    at_risk = (last + 1).astype(np.float64)
    keep = d > 0
    p = X.shape[1]
    U = np.empty(p)
    info = np.empty(p)
    for a in range(0, p, _BLOCK):
        b = min(a + _BLOCK, p)
        block = X[:, a:b]
        block = block.toarray() if sp.issparse(block) else np.asarray(block, np.float64)
        xs = block[order]
        s1 = np.cumsum(xs, axis=0)[last][keep]
        s2 = np.cumsum(xs * xs, axis=0)[last][keep]
        ev = np.zeros((last.size, b - a))
        np.add.at(ev, group[e_sorted], xs[e_sorted])
        n_r, d_k = at_risk[keep][:, None], d[keep][:, None]
        mean = s1 / n_r
        U[a:b] = (ev[keep] - d_k * mean).sum(axis=0)
        info[a:b] = (d_k * np.maximum(s2 / n_r - mean * mean, 0.0)).sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        stat = np.where(info > 1e-12 * np.maximum(1.0, np.abs(U)), U * U / info, 0.0)
    return (stat, U, info) if return_parts else stat
