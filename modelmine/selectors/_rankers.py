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

from ..validation import check_int, param_error
from ._information import _discretized_ig, _mdl_kernel, doc_discretized, gain_ratio_of
from ._relieff import _column_blocks

__all__ = ["JavaRandom", "OneRRules", "gain_ratio", "oner_rules", "oner_scores", "weka_cv_folds"]

# Elements of (test rows x features x breakpoints) compared at once when predicting.
_PREDICT_ELEMENTS = 1 << 22


@doc_discretized
def gain_ratio(
    X: NDArray[np.float64] | sp.spmatrix,
    y: NDArray[np.int64],
    *,
    discretization: str = "mdl",
    n_bins: int = 10,
    better_encoding: bool = True,
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
    ig, _, h_f = _discretized_ig(X, y, discretization, n_bins, "gain_ratio", better_encoding)
    return gain_ratio_of(ig, h_f)


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


def _distinct_counts(
    block: NDArray[np.float64], y: NDArray[np.int64], n_classes: int
) -> tuple[NDArray[np.int64], NDArray[np.float64], NDArray[np.int64]]:
    """Class counts of each distinct value of each column of a dense block, in increasing
    order: counts (b, width, K), values (b, width) and the number of distinct values (b,)."""
    n, b = block.shape
    order = np.argsort(block, axis=0, kind="stable")
    xs = np.take_along_axis(block, order, axis=0).T
    ys = y[order].T
    group = np.zeros((b, n), dtype=np.int64)
    np.cumsum(xs[:, 1:] > xs[:, :-1], axis=1, out=group[:, 1:])
    n_groups = group[:, -1] + 1 if n else np.zeros(b, dtype=np.int64)
    width = int(n_groups.max()) if b and n else 0
    cell = (np.arange(b)[:, None] * width + group) * n_classes + ys
    counts = np.bincount(cell.ravel(), minlength=b * width * n_classes)
    values = np.zeros((b, width))
    values[np.arange(b)[:, None], group] = xs
    return counts.reshape(b, width, n_classes), values, n_groups


def _pass_one(
    counts: NDArray[np.int64], values: NDArray[np.float64], n_groups: NDArray[np.int64],
    bsize: int,
) -> tuple[NDArray[np.int64], NDArray[np.float64], NDArray[np.int64], NDArray[np.int64]]:
    """WEKA 3.6's first merging pass over the distinct values (see :func:`oner_rules`), all
    columns at once: the class counts of each pass-1 bucket ``(b, width, k)``, the
    breakpoint after each (+inf after the last), their number per column, and the pass-1
    bucket of each distinct value ``(b, width)``. Compiled (``_mdl.c``) when it is built,
    else :func:`_pass_one_numpy`: the same integers and midpoints."""
    b, width, k = counts.shape
    kernel = _mdl_kernel()
    if kernel is None or b == 0 or k == 0:
        return _pass_one_numpy(counts, values, n_groups, bsize)
    w = max(width, 1)
    h_counts = np.zeros((b, w, k), dtype=np.int64)
    h_bp = np.full((b, w), np.inf)
    n_h = np.empty(b, dtype=np.int64)
    member = np.zeros((b, w), dtype=np.int64)
    values = np.ascontiguousarray(values, dtype=np.float64)
    kernel.pass_one(np.ascontiguousarray(counts, dtype=np.int64), values, values.shape[1],
                    np.ascontiguousarray(n_groups, dtype=np.int64), int(bsize), h_counts,
                    h_bp, n_h, member)
    return h_counts, h_bp, n_h, member


def _pass_one_numpy(
    counts: NDArray[np.int64], values: NDArray[np.float64], n_groups: NDArray[np.int64],
    bsize: int,
) -> tuple[NDArray[np.int64], NDArray[np.float64], NDArray[np.int64], NDArray[np.int64]]:
    """:func:`_pass_one` by numpy, one distinct value at a time for all columns."""
    b, width, k = counts.shape
    # columns by decreasing number of values: at step g the columns still advancing are
    # a prefix, so every step works on views (the results are put back in column order)
    order = np.argsort(-n_groups, kind="stable")
    n_sorted = n_groups[order]
    # value-major copies: the columns of one value are contiguous
    by_value = np.ascontiguousarray(counts[order].transpose(1, 0, 2))
    vals = np.ascontiguousarray(values[order].T)
    rows = np.arange(b)
    acc = by_value[0].copy() if width else np.zeros((b, k), dtype=np.int64)
    h_counts = np.zeros((b, max(width, 1), k), dtype=np.int64)  # pass-1 buckets
    h_bp = np.full((b, max(width, 1)), np.inf)  # breakpoint after each pass-1 bucket
    n_h = np.zeros(b, dtype=np.int64)
    member = np.zeros((max(width, 1), b), dtype=np.int64)
    for g in range(1, width):
        live = int(np.count_nonzero(n_sorted > g))
        if live == 0:
            break
        new = by_value[g, :live]
        old = acc[:live]
        top = np.argmax(old, axis=1)
        old_top = np.take_along_axis(old, top[:, None], axis=1)[:, 0]
        merge = (np.argmax(new, axis=1) == top) | (old_top < bsize)
        c = np.flatnonzero(~merge)  # a bucket closes before value g
        h_counts[c, n_h[c]] = old[c]
        h_bp[c, n_h[c]] = (vals[g - 1, c] + vals[g, c]) / 2.0
        n_h[c] += 1
        acc[:live] = np.where(merge[:, None], old + new, new)
        member[g, :live] = n_h[:live]
    h_counts[rows, n_h] = acc
    n_h += 1
    back = np.empty_like(order)
    back[order] = rows
    return h_counts[back], h_bp[back], n_h[back], member.T[back]


def _rules_block(
    counts: NDArray[np.int64], values: NDArray[np.float64], n_groups: NDArray[np.int64],
    bsize: int,
) -> tuple[list[NDArray[np.float64]], list[NDArray[np.int64]], NDArray[np.int64],
           NDArray[np.int64]]:
    """WEKA 3.6's two merging passes over the distinct values (see :func:`oner_rules`),
    all columns at once; per column its breakpoints and bucket classes, and the bucket
    counts and the number of training records classified correctly."""
    h_counts, h_bp, n_h, _ = _pass_one(counts, values, n_groups, bsize)
    b = counts.shape[0]
    # pass 2: consecutive buckets of the same class (Utils.maxIndex: first maximum) merge
    h_cls = np.argmax(h_counts, axis=2)
    n_correct = np.take_along_axis(h_counts, h_cls[:, :, None], axis=2)[:, :, 0]
    valid = np.arange(h_counts.shape[1])[None, :] < n_h[:, None]
    n_correct = (n_correct * valid).sum(axis=1)
    # a pass-1 bucket ends a final bucket when the next one has another class
    ends = valid.copy()
    ends[:, :-1] &= ~(valid[:, 1:] & (h_cls[:, 1:] == h_cls[:, :-1]))
    bps: list[NDArray[np.float64]] = []
    cls: list[NDArray[np.int64]] = []
    for j in range(b):
        e = np.flatnonzero(ends[j])
        cls.append(h_cls[j, e])
        bps.append(h_bp[j, e[:-1]])
    return bps, cls, n_correct, np.array([c.size for c in cls], dtype=np.int64)


def oner_rules(
    X: NDArray[np.float64] | sp.spmatrix, y: NDArray[np.int64], *, min_bucket_size: int = 6
) -> OneRRules:
    """Build Holte's OneR rule of every numeric feature, as WEKA 3.6's ``OneR.newNumericRule``.

    Holte (1993, Section 2.2), as WEKA 3.6.14 implements it (read from its bytecode): the
    records are grouped by distinct value, in increasing order, each group with its class
    counts. A first pass merges each group into the bucket before it when the group's
    majority class (the first class of largest count) equals the bucket's, or when the
    bucket's majority count is below ``min_bucket_size``; a second pass merges consecutive
    buckets of the same majority class. Each bucket predicts its majority class; a
    breakpoint is the midpoint of the two distinct values on either side of a bucket's end.
    Grouping by value makes the rule independent of the order of tied records.

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
    k = int(y.max()) + 1 if n else 1
    bsize = int(min_bucket_size)
    all_bps: list[NDArray[np.float64]] = []
    all_cls: list[NDArray[np.int64]] = []
    correct = np.zeros(p, dtype=np.int64)
    n_buckets = np.zeros(p, dtype=np.int64)
    width = max(1, _PREDICT_ELEMENTS // max(1, n * (k + 2)))
    for a, b, block in _column_blocks(X, width):
        counts, values, n_groups = _distinct_counts(np.asarray(block, dtype=np.float64), y, k)
        bps, cls, correct[a:b], n_buckets[a:b] = _rules_block(counts, values, n_groups, bsize)
        all_bps += bps
        all_cls += cls
    nb = int(n_buckets.max()) if p else 1
    breakpoints = np.full((p, max(nb - 1, 0)), np.inf)
    classes = np.zeros((p, max(nb, 1)), dtype=np.int64)
    for j in range(p):
        m = all_cls[j].size
        breakpoints[j, : m - 1] = all_bps[j]
        classes[j, :m] = all_cls[j]
        classes[j, m:] = all_cls[j][-1]
    return OneRRules(breakpoints, classes, n_buckets, correct)


class JavaRandom:
    """``java.util.Random``: the generator WEKA draws its cross-validation folds from.

    The 48-bit linear congruential generator of the Java platform specification
    (``java.util.Random``, multiplier 0x5DEECE66D, increment 11), with ``nextInt(bound)``
    as the JDK defines it, so that WEKA's ``Instances.randomize(new Random(seed))`` can be
    replayed exactly.
    """

    _MASK = (1 << 48) - 1

    def __init__(self, seed: int) -> None:
        self._seed = (int(seed) ^ 0x5DEECE66D) & self._MASK

    def _next(self, bits: int) -> int:
        self._seed = (self._seed * 0x5DEECE66D + 0xB) & self._MASK
        r = self._seed >> (48 - bits)
        return r - (1 << 32) if r >= 1 << 31 else r

    def next_int(self, bound: int) -> int:
        """``Random.nextInt(bound)``: uniform in [0, bound)."""
        r = self._next(31)
        m = bound - 1
        if bound & m == 0:
            return (bound * r) >> 31
        u = r
        while True:
            r = u % bound
            t = (u - r + m) & 0xFFFFFFFF
            if t < 1 << 31:  # Java: u - r + m >= 0 as a 32-bit int
                return r
            u = self._next(31)


def weka_cv_folds(y: NDArray[np.int64], folds: int, seed: int) -> list[NDArray[np.intp]]:
    """The test rows of each fold of WEKA's ``Evaluation.crossValidateModel``.

    WEKA 3.6 shuffles the records with ``Instances.randomize(new Random(seed))``, groups
    them by class (``Instances.stratify``: each class in turn gathered by swaps), deals them
    to the folds in turn (``stratStep``), and takes fold ``i`` as the ``i``-th contiguous
    block (``testCV``: the first ``n mod folds`` folds one record larger).

    Parameters
    ----------
    y : ndarray of shape (n_samples,)
        Class codes.
    folds : int
        Number of folds, 2 to n_samples.
    seed : int
        WEKA's ``-S`` (its default is 1).

    Returns
    -------
    list of ndarray
        Row indices of each fold's test set.
    """
    n = y.shape[0]
    rnd = JavaRandom(seed)
    idx = list(range(n))
    for j in range(n - 1, 0, -1):
        r = rnd.next_int(j + 1)
        idx[j], idx[r] = idx[r], idx[j]
    index = 1
    while index < n:
        first = y[idx[index - 1]]
        for j in range(index, n):
            if y[idx[j]] == first:
                idx[index], idx[j] = idx[j], idx[index]
                index += 1
        index += 1
    strat = [idx[i] for s in range(folds) for i in range(s, n, folds)]
    out = []
    for i in range(folds):
        size = n // folds + (1 if i < n % folds else 0)
        offset = i if i < n % folds else n % folds
        start = i * (n // folds) + offset
        out.append(np.array(strat[start : start + size], dtype=np.intp))
    return out


def oner_scores(
    X: NDArray[np.float64] | sp.spmatrix,
    y: NDArray[np.int64],
    *,
    min_bucket_size: int = 6,
    folds: int | None = 10,
    random_state: int = 1,
) -> NDArray[np.float64]:
    """Percent accuracy of each feature's OneR rule: the "OneR" ranker of Pes (2019,
    Section 3.1), as WEKA 3.6's OneRAttributeEval computes it.

    A OneR classifier (:func:`oner_rules`, Holte 1993) is built on each feature alone and
    its accuracy estimated by ``folds``-fold cross-validation with WEKA's own folds
    (:func:`weka_cv_folds`: ``Instances.randomize(new Random(random_state))``, then
    stratified), or on the training data itself when ``folds`` is None (WEKA's ``-D``).
    The score is WEKA's, ``(1 - errorRate) * 100``: with the defaults it equals
    ``OneRAttributeEval`` (``-S 1 -F 10 -B 6``) to the last bit.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features_in) or scipy.sparse matrix
    y : ndarray of shape (n_samples,)
        Int64 class codes 0..K-1.
    min_bucket_size : int, default=6
        WEKA's ``-B``.
    folds : int or None, default=10
        WEKA's ``-F`` (at most n_samples), or None for the training-set accuracy (``-D``).
    random_state : int, default=1
        WEKA's ``-S``, the seed of ``java.util.Random`` that shuffles the records.

    Returns
    -------
    ndarray of shape (n_features,)
        Accuracy in percent, in [0, 100].
    """
    check_int(min_bucket_size, "min_bucket_size", "oner_scores", min_value=1)
    check_int(folds, "folds", "oner_scores", min_value=2, allow_none=True)
    n = X.shape[0]
    if folds is not None and folds > n:
        raise param_error("folds", "oner_scores", f"at most the number of samples ({n}), as "
                          "in WEKA's cross-validation", folds)
    Xr: Any = sp.csr_matrix(X) if sp.issparse(X) else np.asarray(X, dtype=np.float64)
    if folds is None:
        hits = oner_rules(Xr, y, min_bucket_size=min_bucket_size).n_correct.astype(np.float64)
    else:
        hits = np.zeros(X.shape[1])
        for test in weka_cv_folds(y, int(folds), int(random_state)):
            train = np.setdiff1d(np.arange(n), test)
            rules = oner_rules(Xr[train], y[train], min_bucket_size=min_bucket_size)
            hits += (rules.predict(Xr[test]) == y[test][:, None]).sum(axis=0)
    # Evaluation.errorRate() = incorrect / n, and OneRAttributeEval returns (1 - it) * 100
    return (1.0 - (n - hits) / float(n)) * 100.0
