"""SVR-RFE: recursive feature elimination with a linear epsilon-SVR (issue 39, item 1).

The regression analogue of SVM-RFE (Guyon et al., Machine Learning 46, 2002): at each step a
linear epsilon-SVR (libsvm, Chang and Lin 2011) is fitted on the features still in play,
each feature's importance is ``w_j^2`` and the least important go. It is
``RFE(SVR(kernel="linear"), step=step)`` of scikit-learn on the standardised data, with
three differences that matter on raw microarrays:

* **Scaled inside.** The features are centred and scaled to unit variance, the target too.
  The former route (liblinear's ``LinearSVR`` on [0, 1]-scaled, uncentred intensities,
  ``max_iter=10000``) did not converge on raw intensities: 13 min on a 171-sample array,
  and weights that were the stopping point of the coordinate descent, not the SVR.
  libsvm's SMO on the standardised kernel converges (``tol``) in milliseconds.
* **A total order, independent of the column order.** ``RFE.ranking_`` gives every feature
  removed in one step the same rank; ordering the tied ones by their index made the top 20
  depend on where the genes sit in the file (16 of the top 20 among the first 87 columns).
  Here, within a step, the feature with the larger importance ranks better.
* **The same fit whatever the column order.** The columns are put in a canonical order (by
  their standardised values, :func:`_canonical_order`) before any arithmetic, so that every
  kernel sum runs over the features in the same order: permuting the columns permutes the
  ranking exactly, bit for bit (only columns identical in the raw data are ordered
  between themselves by their position).

The kernel ``K = Z_S Z_S^T`` is computed once and down-dated as features leave
(``K <- K - Z_R Z_R^T``), recomputed from the surviving columns when the removed mass is at
least the surviving mass or ``trace(K)`` has fallen below 1/16 of its value at the last
recomputation (the rule of :mod:`modelmine.selectors._svm_rfe`).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ._svm_solver import _RECOMPUTE_MASS_RATIO, _fast_sklearn, _one_blas_thread

__all__ = ["svr_rfe_ranking"]


def _standardised(X: NDArray[np.float64]) -> NDArray[np.float64]:
    sd = X.std(axis=0)
    return np.where(sd > 0, (X - X.mean(axis=0)) / np.where(sd > 0, sd, 1.0), 0.0)


def _canonical_order(Z: NDArray[np.float64], X: NDArray[np.float64]) -> NDArray[np.intp]:
    """Column order that depends only on the columns' contents.

    Lexicographic by the standardised values, row by row, then by the raw values (columns
    equal once standardised, ``x_b = a x_a + c``, are exact ties of every fit). The first
    three rows decide almost always; the full sort runs only when two columns agree there.
    """
    head = Z[: min(3, Z.shape[0])]
    order = np.lexsort(head[::-1])
    keys = head[:, order]
    if keys.shape[1] > 1 and np.any(np.all(keys[:, 1:] == keys[:, :-1], axis=0)):
        order = np.lexsort(np.vstack([X[::-1], Z[::-1]]))
    return order


def svr_rfe_ranking(
    X: NDArray[np.float64],
    y: NDArray[np.float64],
    *,
    C: float = 1.0,
    epsilon: float = 0.1,
    step: float = 0.1,
    tol: float = 1e-3,
) -> NDArray[np.int64]:
    """The SVR-RFE ranking of every feature (1 = best, a permutation of 1..p).

    Parameters
    ----------
    X : ndarray of shape (n_samples, p)
    y : ndarray of shape (n_samples,)
        The continuous target.
    C, epsilon, tol :
        Of the linear epsilon-SVR (:class:`sklearn.svm.SVR`), on the standardised target.
    step : float in (0, 1) or int >= 1
        As :class:`sklearn.feature_selection.RFE`: ``int(max(1, step * p))`` features go at
        each step (an integer: that many).

    Returns
    -------
    ndarray of int64, shape (p,)
        Features removed later rank better; within a step, the larger ``w_j^2`` ranks better.
        Grouped by step, the ranks are ``RFE(SVR(kernel="linear"), step=step,
        n_features_to_select=1).ranking_`` on the standardised data.
    """
    from sklearn.svm import SVR

    Xd = np.asarray(X, dtype=np.float64)
    p = Xd.shape[1]
    ranking = np.ones(p, dtype=np.int64)
    if p < 2:
        return ranking
    Z = _standardised(Xd)
    canon = _canonical_order(Z, Xd)
    Z = np.ascontiguousarray(Z[:, canon])
    sd = float(np.std(y))
    ys = (y - np.mean(y)) / (sd if sd > 0 else 1.0)
    n_step = int(step) if step >= 1 else int(max(1, step * p))
    alive = np.arange(p)
    out = np.empty(p, dtype=np.int64)
    next_rank = p
    with _one_blas_thread(), _fast_sklearn():
        K = Z @ Z.T
        mass_at_compute = float(np.trace(K))
        while alive.size > 1:
            svr = SVR(kernel="precomputed", C=C, epsilon=epsilon, tol=tol).fit(K, ys)
            w = svr.dual_coef_[0] @ Z[svr.support_][:, alive]
            importance = w * w
            k = min(n_step, alive.size - 1)
            # the k least important, the least first (exact ties: the earlier canonical column)
            gone = np.lexsort((alive, importance))[:k]
            out[alive[gone]] = np.arange(next_rank, next_rank - k, -1)
            next_rank -= k
            removed = alive[gone]
            alive = np.delete(alive, gone)
            if alive.size <= 1:
                break
            Zr = Z[:, removed]
            Zs = Z[:, alive]
            if removed.size >= alive.size:
                K = Zs @ Zs.T
                mass_at_compute = float(np.trace(K))
            else:
                K = K - Zr @ Zr.T
                if float(np.trace(K)) < _RECOMPUTE_MASS_RATIO * mass_at_compute:
                    K = Zs @ Zs.T
                    mass_at_compute = float(np.trace(K))
        out[alive] = 1
    ranking[canon] = out
    return ranking
