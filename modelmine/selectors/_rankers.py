"""Gain ratio and OneR: two of the univariate rankers of Pes (2019, Section 3.1), vectorised.

Pes (2019) ran WEKA's GainRatioAttributeEval ("GainR") and OneRAttributeEval ("OneR")
among the seven rankers of her stability study; their WEKA definitions are reproduced here.

- :func:`gain_ratio`: ``IG(C; F) / H(F)`` on features discretised by Fayyad and Irani's MDL
  method (the discretisation of :func:`modelmine.selectors.information_gain`), 0 where
  ``H(F)`` is 0 (WEKA's ``ContingencyTables.gainRatio``).
- :func:`oner_scores`: the accuracy of Holte's (1993) one-attribute rule built on each
  feature with WEKA's bucketing of numeric values (minimum bucket size 6), estimated by
  stratified k-fold cross-validation (WEKA's default, 10 folds) or on the training data.
  The rules of all features are built at once: one pass over the sorted values in which
  every feature advances by one record per step (a vectorised state machine).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray

from ..validation import check_int
from ._information import _discretized_ig, doc_discretized
from ._relieff import _column_blocks

__all__ = ["OneRRules", "gain_ratio", "oner_rules", "oner_scores"]

# WEKA's Utils.eq tolerance: a split entropy within 1e-6 of 0 gives a gain ratio of 0.
_WEKA_EPS = 1e-6
_LN2 = float(np.log(2.0))
# Elements of (test rows x features x breakpoints) compared at once when predicting.
_PREDICT_ELEMENTS = 1 << 22


@doc_discretized
def gain_ratio(
    X: NDArray[np.float64] | sp.spmatrix,
    y: NDArray[np.int64],
    *,
    discretization: str = "mdl",
    n_bins: int = 10,
) -> NDArray[np.float64]:
    """Gain ratio ``IG(C; F) / H(F)`` of every discretised feature (Quinlan 1986).

    The "GainR" ranker of Pes (2019, Section 3.1), as WEKA's GainRatioAttributeEval: each
    feature is first discretised by :func:`modelmine.selectors.discretize` (Fayyad and
    Irani's MDL method by default), then its information gain is divided by its split
    information ``H(F)``; a feature whose split information is 0 (to WEKA's tolerance of
    1e-6 bits) scores 0. The ratio does not depend on the base of the logarithm.

    Parameters
    ----------
    %(discretized_params)s

    Returns
    -------
    ndarray of shape (n_features,)
        Gain ratio in [0, 1].
    """
    ig, _, h_f = _discretized_ig(X, y, discretization, n_bins, "gain_ratio")
    split = h_f / _LN2  # bits, for WEKA's tolerance
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(split > _WEKA_EPS, ig / np.where(h_f > 0, h_f, 1.0), 0.0)


class OneRRules:
    """The one-attribute rules of every feature (Holte 1993), as WEKA's OneR builds them.

    Attributes
    ----------
    breakpoints : ndarray of shape (p, max_buckets - 1)
        Breakpoints of each feature's rule, increasing, padded with +inf.
    classes : ndarray of int, shape (p, max_buckets)
        Class predicted in each bucket (padded with the last bucket's class).
    n_buckets : ndarray of int, shape (p,)
    n_correct : ndarray of int, shape (p,)
        Training records each rule classifies correctly.
    """

    def __init__(
        self,
        breakpoints: np.ndarray,
        classes: np.ndarray,
        n_buckets: np.ndarray,
        n_correct: np.ndarray,
    ) -> None:
        self.breakpoints = breakpoints
        self.classes = classes
        self.n_buckets = n_buckets
        self.n_correct = n_correct

    def predict(self, X: Any) -> NDArray[np.int64]:
        """Class of each record by each feature's rule: shape (n_samples, p).

        A value ``v`` falls in the first bucket whose breakpoint exceeds it (WEKA's
        ``while (v >= breakpoint[i]) i++``).
        """
        n = X.shape[0]
        p = self.breakpoints.shape[0]
        nbp = self.breakpoints.shape[1]
        out = np.empty((n, p), dtype=np.int64)
        width = max(1, _PREDICT_ELEMENTS // max(1, n * max(nbp, 1)))
        for a, b, block in _column_blocks(X, width):
            bucket = (block[:, :, None] >= self.breakpoints[None, a:b, :]).sum(axis=2)
            out[:, a:b] = np.take_along_axis(self.classes[a:b], bucket.T, axis=1).T
        return out


def oner_rules(
    X: NDArray[np.float64] | sp.spmatrix, y: NDArray[np.int64], *, min_bucket_size: int = 6
) -> OneRRules:
    """Build Holte's OneR rule of every numeric feature, as WEKA's ``OneR.newNumericRule``.

    Holte (1993, Section 2.2) and WEKA: records are sorted by the feature's value (a
    stable sort: equal values keep their order); a bucket is filled until its majority
    class has ``min_bucket_size`` members, then extended while the next record has the same
    class, then while the next value equals the last; the bucket predicts its majority class
    (ties: the class that triggered the bucket's end, else the lowest class code); a bucket
    whose class equals the previous bucket's (or whose majority count equals the previous
    class's count in it) merges with it; a breakpoint is the midpoint of the two values on
    either side of the bucket's end.

    Parameters
    ----------
    X : ndarray of shape (n_samples, p) or scipy.sparse matrix
    y : ndarray of shape (n_samples,)
        Int64 class codes 0..K-1.
    min_bucket_size : int, default=6
        WEKA's ``-B`` (Holte's SMALL).

    Returns
    -------
    OneRRules
    """
    n, p = X.shape
    k = int(y.max()) + 1
    bsize = int(min_bucket_size)
    Xany: Any = X
    Xd = Xany.toarray() if sp.issparse(Xany) else np.asarray(Xany, dtype=np.float64)
    order = np.argsort(Xd, axis=0, kind="stable")
    xs = np.take_along_axis(Xd, order, axis=0).T.copy()  # (p, n) sorted values
    ys = y[order].T.copy()  # (p, n) classes in that order
    rows = np.arange(p)

    pos = np.zeros(p, dtype=np.int64)
    phase = np.zeros(p, dtype=np.int8)  # 0 fill, 1 same class, 2 same value, 3 done
    cur = np.zeros(p, dtype=np.int64)  # the class that last entered the bucket ("it")
    counts = np.zeros((p, k), dtype=np.int64)
    n_buckets = np.zeros(p, dtype=np.int64)
    prev = np.zeros(p, dtype=np.int64)
    correct = np.zeros(p, dtype=np.int64)
    max_buckets = n + 1
    bps = np.full((p, max_buckets), np.inf)
    cls = np.zeros((p, max_buckets), dtype=np.int64)
    if n == 0:
        phase[:] = 3

    while True:
        fill = np.flatnonzero(phase == 0)
        same_class = np.flatnonzero(phase == 1)
        same_value = np.flatnonzero(phase == 2)
        if fill.size == 0 and same_class.size == 0 and same_value.size == 0:
            break
        # Fill: take the next record; stop when its class reaches the bucket size.
        if fill.size:
            c = ys[fill, pos[fill]]
            counts[fill, c] += 1
            pos[fill] += 1
            cur[fill] = c
            move = (counts[fill, c] >= bsize) | (pos[fill] >= n)
            phase[fill[move]] = 1
        # Same class: take the next record while it has the bucket's trigger class.
        if same_class.size:
            f = same_class
            ok = pos[f] < n
            nxt = np.where(ok, ys[f, np.minimum(pos[f], n - 1)], -1)
            take = ok & (nxt == cur[f])
            t = f[take]
            counts[t, cur[t]] += 1
            pos[t] += 1
            phase[f[~take]] = 2
        # Same value: take the next record while its value equals the last one.
        if same_value.size:
            f = same_value
            ok = pos[f] < n
            pi = np.minimum(pos[f], n - 1)
            take = ok & (xs[f, np.maximum(pi - 1, 0)] == xs[f, pi])
            t = f[take]
            counts[t, ys[t, pos[t]]] += 1
            pos[t] += 1
            _close(
                f[~take], counts, cur, prev, n_buckets, correct, bps, cls, xs, pos, n, phase, rows
            )

    nb = int(n_buckets.max()) if p else 1
    breakpoints = bps[:, : max(nb - 1, 0)].copy()
    # The last bucket has no breakpoint (WEKA copies breakpoints[v] for v < cl - 1 only).
    breakpoints[np.arange(breakpoints.shape[1])[None, :] >= n_buckets[:, None] - 1] = np.inf
    classes = cls[:, :nb].copy()
    last = classes[rows, np.maximum(n_buckets - 1, 0)]
    pad = np.arange(nb)[None, :] >= n_buckets[:, None]
    classes = np.where(pad, last[:, None], classes)
    return OneRRules(breakpoints, classes, n_buckets, correct)


def _close(
    f: np.ndarray,
    counts: np.ndarray,
    cur: np.ndarray,
    prev: np.ndarray,
    n_buckets: np.ndarray,
    correct: np.ndarray,
    bps: np.ndarray,
    cls: np.ndarray,
    xs: np.ndarray,
    pos: np.ndarray,
    n: int,
    phase: np.ndarray,
    rows: np.ndarray,
) -> None:
    """End the current bucket of features ``f``: its class, merging, breakpoint."""
    if f.size == 0:
        return
    cnt = counts[f]
    best = cur[f].copy()
    # WEKA: for j ascending, it = j when counts[j] > counts[it].
    top = cnt.max(axis=1)
    first_max = np.argmax(cnt == top[:, None], axis=1)
    best = np.where(cnt[np.arange(f.size), best] == top, best, first_max)
    has_prev = n_buckets[f] > 0
    pv = prev[f]
    best = np.where(
        has_prev & (cnt[np.arange(f.size), pv] == cnt[np.arange(f.size), best]), pv, best
    )
    merge = has_prev & (best == pv)
    n_buckets[f[merge]] -= 1
    correct[f] += cnt[np.arange(f.size), best]
    slot = n_buckets[f]
    cls[f, slot] = best
    inside = pos[f] < n
    fi = f[inside]
    bps[fi, slot[inside]] = (xs[fi, pos[fi] - 1] + xs[fi, pos[fi]]) / 2.0
    n_buckets[f] += 1
    prev[f] = best
    counts[f] = 0
    phase[f] = np.where(inside, 0, 3)


def oner_scores(
    X: NDArray[np.float64] | sp.spmatrix,
    y: NDArray[np.int64],
    *,
    min_bucket_size: int = 6,
    folds: int | None = 10,
    random_state: int = 0,
) -> NDArray[np.float64]:
    """Accuracy of each feature's OneR rule: the "OneR" ranker of Pes (2019, Section 3.1).

    As WEKA's OneRAttributeEval: a OneR classifier (:func:`oner_rules`, Holte 1993) is
    built on each feature alone and its accuracy estimated by stratified ``folds``-fold
    cross-validation (WEKA's default: 10 folds), or on the training data itself when
    ``folds`` is None (WEKA's ``-E``). WEKA shuffles the folds with its own ``Random(1)``;
    here :class:`sklearn.model_selection.StratifiedKFold` shuffles them with
    ``random_state``, so scores match WEKA's in distribution, not digit for digit.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features_in) or scipy.sparse matrix
    y : ndarray of shape (n_samples,)
        Int64 class codes 0..K-1.
    min_bucket_size : int, default=6
    folds : int or None, default=10
        Cross-validation folds (capped at the smallest class size, at least 2), or None
        for the training-set accuracy.
    random_state : int, default=0
        Seed of the fold assignment.

    Returns
    -------
    ndarray of shape (n_features,)
        Accuracy in [0, 1].
    """
    check_int(min_bucket_size, "min_bucket_size", "oner_scores", min_value=1)
    check_int(folds, "folds", "oner_scores", min_value=2, allow_none=True)
    n = X.shape[0]
    if folds is None:
        return oner_rules(X, y, min_bucket_size=min_bucket_size).n_correct / float(n)
    from sklearn.model_selection import StratifiedKFold

    n_splits = max(2, min(int(folds), int(np.bincount(y).min())))
    cv = StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=random_state)
    Xr: Any = sp.csr_matrix(X) if sp.issparse(X) else np.asarray(X, dtype=np.float64)
    hits = np.zeros(X.shape[1])
    for train, test in cv.split(np.zeros(n), y):
        rules = oner_rules(Xr[train], y[train], min_bucket_size=min_bucket_size)
        hits += (rules.predict(Xr[test]) == y[test][:, None]).sum(axis=0)
    return hits / float(n)
