"""ReliefF feature weights, vectorised, with the exact semantics of ``skrebate.ReliefF``.

ReliefF (Kononenko 1994; Robnik-Sikonja & Kononenko 2003) is one of the selectors of the
KDD'12 model-mining study (Woznica, Nguyen & Kalousis 2012, Section 5: "ReliefF with 10
neighbours") and of the ensemble-stability study of Saeys et al. (PKDD 2008, Section 3).
:func:`relieff_scores` (the "relieff" selector with ``variant="skrebate"``; WEKA's is the
default, :mod:`._relieff_weka`) reproduces
``skrebate.ReliefF(n_neighbors=10).feature_importances_`` (scikit-rebate 0.8) to rounding
error, including its quirks (listed in the docstring), but replaces its per-instance,
per-feature Python loops by a handful of array operations:

1. feature types and ranges, by column blocks (a CSR matrix is never densified whole);
2. the n x n distance matrix: ``scipy.spatial.distance.pdist`` (city-block) over the
   range-scaled continuous features, exact integer mismatch counts (one sparse matrix
   product) over the discrete ones;
3. the k nearest hits and the k nearest misses of each class for every instance at once,
   from one row-wise ``argsort`` and a cumulative count per class;
4. the weight update as a sum over the (instance, neighbour) pairs with skrebate's weights
   as integers over one denominator (exact on discrete features: equal weights are equal
   floats); sparse rows are differenced as sparse rows.

The resamples of :func:`modelmine.bootstrap` share one data set's work (issue 15):
:class:`ReliefFFold` (``ReliefFSelector.prepare``) keeps the mismatch counts between all
rows once, and :func:`resample_relieff_scores` (``select_rows``) scores ``X[rows]`` from the
resample's distinct rows, with the same neighbours and ranks as ``relieff_scores(X[rows])``.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray
from scipy.spatial.distance import pdist, squareform

from ..validation import check_int, param_error

__all__ = ["ReliefFFold", "relieff_scores", "resample_relieff_scores"]

# Values per feature at or below which skrebate treats a feature as discrete
# (``categorical_threshold=10``: "<= threshold unique values -> categorical").
_DISCRETE_THRESHOLD = 10
# Elements of float64 work arrays materialised at once (about 32 MB).
_BLOCK_ELEMENTS = 1 << 22
# Elements per block of dense (pair x feature) diffs in the weight update: small enough to
# stay in cache, which makes the update several times faster than with large blocks.
_PAIR_BLOCK_ELEMENTS = 1 << 16


def _column_blocks(X: Any, width: int) -> Iterator[tuple[int, int, NDArray[np.float64]]]:
    """Yield ``(start, stop, dense block)`` over column blocks of ``X`` (dense or sparse)."""
    p = X.shape[1]
    Xc: Any = X.tocsc() if sp.issparse(X) else X
    for start in range(0, p, width):
        stop = min(p, start + width)
        block: Any = Xc[:, start:stop]
        yield start, stop, (block.toarray() if sp.issparse(block) else np.asarray(block))


def _block_width(n_rows: int) -> int:
    return max(1, _BLOCK_ELEMENTS // max(1, n_rows))


def _feature_info(
    X: NDArray[np.float64] | sp.spmatrix,
) -> tuple[NDArray[np.bool_], NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """Per feature: is it discrete, its minimum, its range (max - min) and its std (ddof=0).

    A feature is discrete when it takes at most 10 distinct values (skrebate's
    ``categorical_threshold``); a constant feature is therefore discrete.
    """
    n, p = X.shape
    discrete = np.empty(p, dtype=bool)
    mn = np.empty(p)
    rng = np.empty(p)
    std = np.empty(p)
    for a, b, block in _column_blocks(X, _block_width(n)):
        s = np.sort(block, axis=0)
        n_unique = 1 + np.count_nonzero(s[1:] != s[:-1], axis=0)
        discrete[a:b] = n_unique <= _DISCRETE_THRESHOLD
        mn[a:b] = s[0]
        rng[a:b] = s[-1] - s[0]
        std[a:b] = np.std(block, axis=0)
    return discrete, mn, rng, std


def _mismatch_counts(Xd: NDArray[np.float64] | sp.spmatrix) -> NDArray[np.int64]:
    """Number of features on which each pair of rows differs (exact integers, n x n).

    With A the indicator of non-zero entries and E the one-hot encoding of the non-zero
    (feature, value) pairs, rows i and j differ on ``nz_i + nz_j - (A A^T)_ij - (E E^T)_ij``
    features: a feature counts once when exactly one of the two values is zero, and once
    when both are non-zero but different. This stays sparse for text counts.
    """
    csc = sp.csc_matrix(Xd)
    csc.eliminate_zeros()
    n = csc.shape[0]
    if csc.nnz == 0:
        return np.zeros((n, n), dtype=np.int64)
    cols = np.repeat(np.arange(csc.shape[1]), np.diff(csc.indptr))
    rows = csc.indices
    # Code the non-zero (feature, value) pairs: sort by (feature, value), number the runs.
    order = np.lexsort((csc.data, cols))
    c_sorted, v_sorted = cols[order], csc.data[order]
    new_run = np.r_[True, (c_sorted[1:] != c_sorted[:-1]) | (v_sorted[1:] != v_sorted[:-1])]
    codes = np.empty(rows.size, dtype=np.int64)
    codes[order] = np.cumsum(new_run) - 1
    ones = np.ones(rows.size, dtype=np.int64)
    A = sp.csr_matrix((ones, (rows, cols)), shape=(n, csc.shape[1]))
    E = sp.csr_matrix((ones, (rows, codes)), shape=(n, int(codes.max()) + 1))
    both = (A @ A.T).toarray()
    equal = (E @ E.T).toarray()
    nz = np.diff(A.indptr).astype(np.int64)
    return nz[:, None] + nz[None, :] - both - equal


def _distance_matrix(
    X: NDArray[np.float64] | sp.spmatrix,
    discrete: NDArray[np.bool_],
    mn: NDArray[np.float64],
    rng: NDArray[np.float64],
) -> NDArray[np.float64]:
    """skrebate's distance matrix between instances (no missing values).

    - all discrete: Hamming distance (fraction of differing features);
    - all continuous: city-block distance of the features scaled to [0, 1] by ``(x - min) /
      (max - min)``;
    - mixed: ``Hamming(discrete part) * p + city-block(scaled continuous part)``; the
      Hamming part is multiplied by the total number of features p, not by the number of
      discrete ones (a skrebate quirk, reproduced).
    """
    n, p = X.shape
    cidx = np.flatnonzero(~discrete)
    didx = np.flatnonzero(discrete)
    cdist = np.zeros(n * (n - 1) // 2)
    if cidx.size:
        Xc = X[:, cidx]
        for a, b, block in _column_blocks(Xc, _block_width(n)):
            # Same operations, in the same order, as skrebate's pre_normalize.
            scaled = (block - mn[cidx[a:b]]) / rng[cidx[a:b]]
            cdist += pdist(scaled, metric="cityblock")
    if didx.size == 0:
        return squareform(cdist)
    mism = _mismatch_counts(X[:, didx])
    hamming = mism / float(didx.size)
    if cidx.size == 0:
        return hamming
    return hamming * float(p) + squareform(cdist)


def _neighbour_pairs(
    D: NDArray[np.float64], y: NDArray[np.int64], n_neighbors: int, n_classes: int
) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """(instance, neighbour) pairs of the ReliefF update, as skrebate chooses them.

    Each instance takes, in increasing distance, its first k instances of every class.
    The instance itself sits at distance ``sys.maxsize`` (so last) and is therefore one of
    its own hits when its class has at most k members. Ties follow ``numpy.argsort``'s
    default order on the row, exactly as in skrebate. The weight of each pair comes from
    :func:`_weight_table`.
    """
    Dm = D.copy()
    np.fill_diagonal(Dm, float(sys.maxsize))
    return _first_of_each_class(Dm, y, n_neighbors, n_classes)


def _first_of_each_class(
    rows: NDArray[np.float64], y: NDArray[np.int64], n_neighbors: int, n_classes: int
) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """The one skrebate neighbour search: each row of distances (to the columns, whose
    classes are ``y``; the instance itself at ``sys.maxsize``) sorted by ``numpy.argsort``'s
    default order, and its first ``n_neighbors`` columns of every class kept. Returns the
    (row, column) pairs, by row, then by distance. Used on the whole data
    (:func:`_neighbour_pairs`) and on a resample's rows (:func:`_exact_instance_neighbours`).
    """
    order = np.argsort(rows, axis=1)
    ys = y[order]
    selected = np.zeros(order.shape, dtype=bool)
    for c in range(n_classes):
        in_c = ys == c
        selected |= in_c & (np.cumsum(in_c, axis=1) <= n_neighbors)
    r, pos = np.nonzero(selected)
    return r, order[r, pos]


def _weight_table(
    y: NDArray[np.int64], n_neighbors: int, n_classes: int
) -> tuple[NDArray[np.float64], float]:
    """Weight of a pair by (instance class, neighbour class), over a common denominator.

    The weight of a hit is ``-1/h`` (h = min(n_c, k) hits), that of a miss of class c is
    ``m_c (K - 1) / m^2`` (m_c = min(n_c, k) misses of class c, m in total): skrebate
    weights each miss class by its frequency among the selected neighbours, not by its
    prior as in Kononenko (1994). Returned as ``(table, denominator)`` with integer
    entries in the table whenever the common denominator allows it, so that a feature's
    weight is an exact integer sum divided once: features with equal weights get equal
    floats, and their ranks follow the feature index (the ranking convention), never
    rounding noise.
    """
    counts = np.minimum(np.bincount(y, minlength=n_classes), n_neighbors)
    total = int(counts.sum())
    table = [[Fraction(0)] * n_classes for _ in range(n_classes)]
    for ci in np.flatnonzero(counts):
        misses = total - int(counts[ci])
        table[ci][ci] = Fraction(-1, int(counts[ci]))
        for cj in np.flatnonzero(counts):
            if cj != ci:
                table[ci][cj] = Fraction(int(counts[cj]) * (n_classes - 1), misses * misses)
    flat = [w for row in table for w in row]
    den = math.lcm(*(w.denominator for w in flat))
    # Exact while |numerator| <= sum |w| * den * (pairs) stays below 2**53.
    if den * max(1, int(y.size)) * n_classes * (n_neighbors + 1) < 2**53:
        return np.array([float(w * den) for w in flat]), float(den)
    return np.array([float(w) for w in flat]), 1.0


def _merge_pairs(
    inst: NDArray[np.intp],
    neigh: NDArray[np.intp],
    cls: NDArray[np.intp],
    count: NDArray[np.float64],
    n_rows: int,
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.float64]]:
    """Merge (a, b) with (b, a) pairs of the same class pair (diff is symmetric), summing
    their counts; pairs of a row with itself (diff 0) are dropped."""
    keep = inst != neigh  # diff 0
    lo = np.minimum(inst[keep], neigh[keep]).astype(np.int64)
    hi = np.maximum(inst[keep], neigh[keep]).astype(np.int64)
    key = (cls[keep].astype(np.int64) * n_rows + lo) * n_rows + hi
    uniq, first = np.unique(key, return_inverse=True)
    total = np.bincount(first, weights=count[keep], minlength=uniq.size).astype(np.float64)
    key_u = np.asarray(uniq, dtype=np.int64)
    return (key_u // n_rows) % n_rows, key_u % n_rows, key_u // (n_rows * n_rows), total


def _pair_update(
    X: Any,
    lo: NDArray[np.int64],
    hi: NDArray[np.int64],
    cls: NDArray[np.int64],
    count: NDArray[np.float64],
    table: NDArray[np.float64],
    denominator: float,
    discrete: NDArray[np.bool_],
    rng: NDArray[np.float64],
    std: NDArray[np.float64],
    n_instances: int,
) -> NDArray[np.float64]:
    """The ReliefF weights: ``sum over pairs of weight * diff(x_lo, x_hi) / n``.

    The diffs of each feature are first summed per class pair (``cls`` indexes the
    flattened K x K ``table``), ``count`` times each: exact integers for discrete
    features, whatever the order of the pairs. A sparse ``X`` is differenced row pair by
    row pair as sparse rows (only the union of their non-zeros), never densified.
    """
    p = X.shape[1]
    plain = not discrete.any()
    # The ramp of mixed data: a diff above the std counts 1 (plain data: never).
    threshold = np.where(discrete, 0.0, np.inf if plain else std)
    safe_rng = np.where(discrete, 1.0, rng)
    # Integer pair weights (the table's entries times the pair counts) and two sums: diffs
    # of 1 (discrete features, and ramps above the std in mixed data) and raw |a - b| of
    # continuous features, divided by the range only at the end. On count data both sums
    # are exact integers, whatever the order of the pairs.
    weights = table[cls] * count
    cont = ~discrete
    ones = np.zeros(p)
    raws = np.zeros(p)
    if sp.issparse(X):
        # Sparse rows: the pair blocks only bound the memory of the differenced rows.
        chunk = max(1, _BLOCK_ELEMENTS // max(1, p))
        for start in range(0, lo.size, chunk):
            sl = slice(start, start + chunk)
            diff = abs(X[lo[sl]] - X[hi[sl]]).tocsr()
            diff.eliminate_zeros()
            col, val = diff.indices, diff.data
            w = np.repeat(weights[sl], np.diff(diff.indptr))
            is_raw = cont[col] & (val <= threshold[col])
            ones += np.bincount(col[~is_raw], weights=w[~is_raw], minlength=p)
            if is_raw.any():
                raws += np.bincount(col[is_raw], weights=w[is_raw] * val[is_raw], minlength=p)
    else:
        chunk = max(1, _PAIR_BLOCK_ELEMENTS // max(1, p))
        for start in range(0, lo.size, chunk):
            sl = slice(start, start + chunk)
            raw = np.abs(X[lo[sl]] - X[hi[sl]])
            if plain:
                raws += weights[sl] @ raw
                continue
            is_raw = cont & (raw <= threshold)
            ones += weights[sl] @ ((raw != 0) & ~is_raw)
            if cont.any():
                raws += weights[sl] @ np.where(is_raw, raw, 0.0)
    scores = ones + raws / safe_rng
    return scores / (denominator * float(n_instances))


def relieff_scores(
    X: NDArray[np.float64] | sp.spmatrix, y: NDArray[np.int64], *, n_neighbors: int = 10
) -> NDArray[np.float64]:
    """ReliefF weights equal to ``skrebate.ReliefF``: "relieff" with variant="skrebate".

    The scores of the "relieff" selector with ``variant="skrebate"`` (its default until issue
    37; WEKA's :func:`relieff_weka_scores` since), equal to
    ``skrebate.ReliefF(n_neighbors=...)``. ReliefF (Kononenko 1994; Robnik-Sikonja & Kononenko
    2003, Section 2.2) rewards a feature that differs between an instance and its nearest misses
    and penalises one that differs between an instance and its nearest hits. It is the "ReliefF
    (10 neighbours)" selector of Woznica, Nguyen & Kalousis (KDD 2012, Section 5) and of Saeys
    et al. (PKDD 2008, Section 3). Every instance is used (m = n), as in skrebate.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features_in) or scipy.sparse CSR matrix
        Float64 data without missing values. A sparse matrix is processed by column and
        row blocks and never densified whole.
    y : ndarray of shape (n_samples,)
        Int64 class codes 0..K-1, K >= 2, every class present.
    n_neighbors : int, default=10
        k: number of nearest hits and of nearest misses per other class.

    Returns
    -------
    ndarray of shape (n_features,)
        Feature weights in [-1, 1], higher = more relevant. A constant feature gets 0.

    Notes
    -----
    Semantics reproduced from scikit-rebate 0.8 (``skrebate/relieff.py`` and
    ``skrebate/scoring_utils.py``), including its quirks:

    - a feature with at most 10 distinct values is discrete (diff = 1 if the values
      differ), otherwise continuous (diff = ``|a - b| / (max - min)``); a constant feature
      is discrete, so its weight is exactly 0;
    - distances: see :func:`_distance_matrix`; in *mixed* data (both kinds present) the
      Hamming part is scaled by the total number of features, and the diff of a continuous
      feature becomes the ramp ``1 if |a - b| > std else |a - b| / (max - min)`` (std with
      ddof=0). Adding a single constant column to continuous data therefore switches to
      the mixed rules and changes every weight, exactly as in skrebate;
    - neighbours: k nearest hits and k nearest misses of every other class, ties broken by
      ``numpy.argsort``'s default order; an instance whose class has at most k members
      counts itself as one of its hits (diff 0);
    - multiclass: misses of class c are weighted by ``m_c / m`` times (K - 1), where m_c is
      the number of selected misses of class c and m their total, instead of
      ``P(c) / (1 - P(class))``; with at least k members per class this is the plain mean
      over all misses;
    - the weight of a feature is ``sum_i (-mean hit diff + weighted miss diff) / n``.

    skrebate treats a target with more than 10 distinct values as continuous (regression
    ReliefF); class codes here are always nominal, so any K >= 3 uses the multiclass rule.
    """
    n = X.shape[0]
    n_classes = int(y.max()) + 1
    discrete, mn, rng, std = _feature_info(X)
    D = _distance_matrix(X, discrete, mn, rng)
    inst, neigh = _neighbour_pairs(D, y, int(n_neighbors), n_classes)
    table, denominator = _weight_table(y, int(n_neighbors), n_classes)
    lo, hi, cls, count = _merge_pairs(
        inst, neigh, y[inst] * n_classes + y[neigh], np.ones(inst.size), n
    )
    rows: Any = sp.csr_matrix(X) if sp.issparse(X) else X
    return _pair_update(rows, lo, hi, cls, count, table, denominator, discrete, rng, std, n)


# ------------------------------------------------------------------------------------------
# Shared work across the resamples of one data set (issue 15)
# ------------------------------------------------------------------------------------------


#: The most memory the shared mismatch counts of :class:`ReliefFFold` may take while they are
#: built (512 MiB: a fold of about 4,300 rows; madelon's 2,340 take 146 MiB); beyond it
#: each resample computes its own distances, blockwise, with the same scores.
FOLD_BUDGET = 1 << 29


def fold_bytes(n_rows: int) -> int:
    """Peak bytes of :class:`ReliefFFold` on ``n_rows`` rows: the two int64 co-occurrence
    products and their int64 difference (``_mismatch_counts``), then the int32 copy kept."""
    return 28 * n_rows * n_rows


class ReliefFFold:
    """What every resample of one data set shares for ReliefF, computed once.

    All the resamples of :func:`modelmine.bootstrap` draw rows of the same data (one
    training fold of the KDD'12 protocol, Woznica, Nguyen & Kalousis 2012, Section 5).
    skrebate's ReliefF on a resample ``X[rows]`` depends on the resample only through

    - the feature types, minima, ranges and std of ``X[rows]`` (a feature with at most 10
      distinct values in the fold has at most 10 in any resample, so it stays discrete;
      only the fold's continuous features are counted again);
    - the distances between its rows, which are those between the distinct fold rows it
      holds (a row drawn twice is at distance 0 from its copy);
    - the nearest neighbours among those rows, counted with their multiplicities.

    This object keeps the fold's data, its discrete features and the exact integer
    mismatch counts between all pairs of fold rows over them (``n x n``, int32).
    :func:`resample_relieff_scores` then scores a resample from them.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features_in) or scipy.sparse matrix
        Float64 data without missing values.
    y : ndarray of shape (n_samples,)
        Int64 class codes.
    """

    def __init__(self, X: NDArray[np.float64] | sp.spmatrix, y: NDArray[np.int64]):
        n, p = X.shape
        self.shape = (n, p)
        self.sparse = bool(sp.issparse(X))
        self.X: Any = (
            sp.csr_matrix(X, dtype=np.float64) if self.sparse else np.asarray(X, dtype=np.float64)
        )
        self.y = np.asarray(y, dtype=np.int64)
        discrete, _, _, _ = _feature_info(self.X)
        self.fold_discrete = discrete
        self.fold_continuous = np.flatnonzero(~discrete)
        didx = np.flatnonzero(discrete)
        # Exact integer counts; int32 halves the memory (counts are at most p).
        self.mismatch: NDArray[np.int32] | None = (
            _mismatch_counts(self.X[:, didx]).astype(np.int32) if didx.size else None
        )


def _resample_feature_info(
    fold: ReliefFFold, uniq: NDArray[np.intp], rows: NDArray[np.intp]
) -> tuple[NDArray[np.bool_], NDArray[np.float64], NDArray[np.float64]]:
    """Feature types, minima and ranges of ``X[rows]`` from its distinct rows ``X[uniq]``.

    Equal to :func:`_feature_info` on ``X[rows]``: minima and maxima are values taken
    from the data, the range is the same subtraction, and the count of distinct values
    does not depend on how often a row is drawn.
    """
    Xu = fold.X[uniq]
    if fold.sparse:
        mn = np.asarray(Xu.min(axis=0).toarray()).ravel()
        mx = np.asarray(Xu.max(axis=0).toarray()).ravel()
    else:
        mn = Xu.min(axis=0)
        mx = Xu.max(axis=0)
    discrete = fold.fold_discrete.copy()
    cont = fold.fold_continuous
    width = _block_width(uniq.size)
    for a in range(0, cont.size, width):
        cols = cont[a : a + width]
        block: Any = Xu[:, cols]
        s = np.sort(block.toarray() if sp.issparse(block) else block, axis=0)
        n_unique = 1 + np.count_nonzero(s[1:] != s[:-1], axis=0)
        discrete[cols] = n_unique <= _DISCRETE_THRESHOLD
    return discrete, mn, mx - mn


def _resample_distances(
    fold: ReliefFFold,
    uniq: NDArray[np.intp],
    n_rows: int,
    discrete: NDArray[np.bool_],
    mn: NDArray[np.float64],
    rng: NDArray[np.float64],
) -> NDArray[np.float64]:
    """:func:`_distance_matrix` of ``X[rows]`` restricted to its distinct rows ``uniq``.

    The same operations in the same order as on ``X[rows]`` (the column blocks of the
    city-block part are those of ``n_rows`` rows), so every distance is bit-identical;
    the discrete part is the fold's exact mismatch counts plus those over the fold's
    continuous features that are discrete in the resample.
    """
    p = fold.shape[1]
    m = uniq.size
    Xu = fold.X[uniq]
    cidx = np.flatnonzero(~discrete)
    didx = np.flatnonzero(discrete)
    cdist = np.zeros(m * (m - 1) // 2)
    if cidx.size:
        for a, b, block in _column_blocks(Xu[:, cidx], _block_width(n_rows)):
            scaled = (block - mn[cidx[a:b]]) / rng[cidx[a:b]]
            cdist += pdist(scaled, metric="cityblock")
    if didx.size == 0:
        return squareform(cdist)
    mism = np.zeros((m, m), dtype=np.int64)
    if fold.mismatch is not None:
        mism += fold.mismatch[np.ix_(uniq, uniq)]
    became = fold.fold_continuous[discrete[fold.fold_continuous]]
    if became.size:
        mism += _mismatch_counts(Xu[:, became])
    hamming = mism / float(didx.size)
    if cidx.size == 0:
        return hamming
    return hamming * float(p) + squareform(cdist)


def _exact_instance_neighbours(
    Du: NDArray[np.float64],
    inv: NDArray[np.intp],
    instances: NDArray[np.intp],
    yb: NDArray[np.int64],
    n_neighbors: int,
    n_classes: int,
) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """(distinct row, neighbour) pairs of the resample's ``instances``, as skrebate picks them.

    Each instance's distance row over the resample (``Du[inv[i], inv]``, itself at
    ``sys.maxsize``) goes through the same search as the whole data's
    (:func:`_first_of_each_class`), whose ``numpy.argsort`` order decides between
    different rows at the same distance; by blocks of instances.
    """
    n_b = inv.size
    inst_l, neigh_l = [], []
    step = max(1, _BLOCK_ELEMENTS // max(1, n_b))
    for start in range(0, instances.size, step):
        block = instances[start : start + step]
        rows = Du[inv[block]][:, inv]
        rows[np.arange(block.size), block] = float(sys.maxsize)
        r, cols = _first_of_each_class(rows, yb, n_neighbors, n_classes)
        inst_l.append(inv[block[r]])
        neigh_l.append(inv[cols])
    return np.concatenate(inst_l), np.concatenate(neigh_l)


def _resample_neighbour_pairs(
    Du: NDArray[np.float64],
    yu: NDArray[np.int64],
    mult: NDArray[np.int64],
    inv: NDArray[np.intp],
    yb: NDArray[np.int64],
    n_neighbors: int,
    n_classes: int,
) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.float64]]:
    """(instance row, neighbour row, number of such pairs) over the distinct rows.

    Every copy of a distinct row has the same neighbours up to which copy of a neighbour
    is taken, which does not change the weights (copies have equal values and class), as
    long as the k-th neighbour of a class is not tied in distance with another distinct
    row: then ``numpy.argsort``'s order on the whole resample row decides, so such rows
    are replayed exactly, copy by copy (:func:`_exact_instance_neighbours`). Pairs of a
    row with itself (diff 0) are dropped.
    """
    m = Du.shape[0]
    k = n_neighbors
    arange = np.arange(m)
    inst_l: list[NDArray[np.intp]] = []
    neigh_l: list[NDArray[np.intp]] = []
    count_l: list[NDArray[np.float64]] = []
    ambiguous = np.zeros(m, dtype=bool)
    for c in range(n_classes):
        cols = np.flatnonzero(yu == c)
        if cols.size == 0:
            continue
        Dc = Du[:, cols]
        mc = np.broadcast_to(mult[cols], Dc.shape).copy()
        # The row's own entry stands for its other copies (distance 0); with none left
        # it is moved out of the way (the instance itself comes last, as in skrebate).
        own = np.flatnonzero(yu == c)
        pos_own = np.searchsorted(cols, own)
        mc[own, pos_own] -= 1
        Dc = Dc.copy()
        Dc[own, pos_own] = np.where(mc[own, pos_own] > 0, Dc[own, pos_own], np.inf)
        total = mc.sum(axis=1)
        width = min(cols.size, k + 1)
        if cols.size > k + 1:
            part = np.argpartition(Dc, k, axis=1)[:, :width]
        else:
            part = np.broadcast_to(np.arange(cols.size), (m, cols.size))
        dpart = np.take_along_axis(Dc, part, axis=1)
        srt = np.argsort(dpart, axis=1, kind="stable")
        part = np.take_along_axis(part, srt, axis=1)
        ds = np.take_along_axis(dpart, srt, axis=1)
        ms = np.take_along_axis(mc, part, axis=1)
        before = np.cumsum(ms, axis=1) - ms
        take = np.clip(k - before, 0, ms)
        full = total <= k  # the whole class is taken (itself included, with diff 0)
        take[full] = ms[full]
        # Ambiguity: the last row taken shares its distance with another distinct row that
        # is not wholly taken.
        has = take > 0
        last = width - 1 - np.argmax(has[:, ::-1], axis=1)
        dstar = ds[arange, last]
        nxt = np.minimum(last + 1, width - 1)
        tie_after = (last + 1 < width) & (ds[arange, nxt] == dstar) & (ms[arange, nxt] > 0)
        prv = np.maximum(last - 1, 0)
        partial = take[arange, last] < ms[arange, last]
        tie_before = (last > 0) & (ds[arange, prv] == dstar) & partial
        ambiguous |= ~full & has.any(axis=1) & (tie_after | tie_before)
        r, q = np.nonzero(has)
        inst_l.append(r)
        neigh_l.append(cols[part[r, q]])
        count_l.append(take[r, q].astype(np.float64) * mult[r])
    inst = np.concatenate(inst_l)
    neigh = np.concatenate(neigh_l)
    count = np.concatenate(count_l)
    keep = ~ambiguous[inst] & (inst != neigh)
    inst, neigh, count = inst[keep], neigh[keep], count[keep]
    if ambiguous.any():
        ex_i, ex_n = _exact_instance_neighbours(
            Du, inv, np.flatnonzero(ambiguous[inv]), yb, k, n_classes
        )
        inst = np.concatenate([inst, ex_i])
        neigh = np.concatenate([neigh, ex_n])
        count = np.concatenate([count, np.ones(ex_i.size)])
    return inst, neigh, count


def resample_relieff_scores(
    fold: ReliefFFold, rows: NDArray[np.intp], *, n_neighbors: int = 10
) -> NDArray[np.float64]:
    """ReliefF weights of the resample ``X[rows], y[rows]`` from the fold's shared work.

    Equal to ``relieff_scores(X[rows], y[rows], n_neighbors=...)`` (and so to
    ``skrebate.ReliefF``; Kononenko 1994, Robnik-Sikonja & Kononenko 2003, Section 2.2,
    as used by Woznica, Nguyen & Kalousis, KDD 2012, Section 5): the same neighbours,
    hence the same ranking, and weights within rounding error (the sums run in another
    order). ``rows`` may repeat: a row drawn twice is two instances at distance 0, as
    skrebate sees ``X[rows]``. The work runs over the distinct rows of the resample: the
    distances between them (bit-identical to those in ``X[rows]``), their neighbours
    counted with multiplicities, and the weight update over (row, neighbour) pairs
    weighted by how often they occur.

    Parameters
    ----------
    fold : ReliefFFold
        The shared work for the data ``X, y`` the rows index.
    rows : int ndarray of shape (n_rows,)
        Row indices of the resample (with repeats).
    n_neighbors : int, default=10
        k: number of nearest hits and of nearest misses per other class.

    Returns
    -------
    ndarray of shape (n_features,)
    """
    func = "resample_relieff_scores"
    k = check_int(n_neighbors, "n_neighbors", func, min_value=1)
    given = np.asarray(rows)
    n_fold = fold.shape[0]
    if (
        given.ndim != 1
        or given.size == 0
        or not np.issubdtype(given.dtype, np.integer)
        or given.min() < 0
        or given.max() >= n_fold
    ):
        raise param_error(
            "rows",
            func,
            f"a non-empty 1-d array of row indices in [0, {n_fold})",
            rows,
        )
    rows = given.astype(np.intp)
    n_b = rows.size
    p = fold.shape[1]
    uniq, inv, mult = np.unique(rows, return_inverse=True, return_counts=True)
    yb = fold.y[rows]
    yu = fold.y[uniq]
    n_classes = int(yb.max()) + 1
    discrete, mn, rng = _resample_feature_info(fold, uniq, rows)
    Du = _resample_distances(fold, uniq, n_b, discrete, mn, rng)
    inst, neigh, count = _resample_neighbour_pairs(
        Du, yu, mult.astype(np.int64), inv, yb, k, n_classes
    )

    table, denominator = _weight_table(yb, k, n_classes)
    lo, hi, cls, count = _merge_pairs(
        inst, neigh, yu[inst] * n_classes + yu[neigh], count, uniq.size
    )
    std = np.zeros(p)
    if discrete.any() and (~discrete).any():  # mixed data: the ramp needs the std
        cont = np.flatnonzero(~discrete)
        Xcb: Any = fold.X[:, cont][rows] if fold.sparse else fold.X[np.ix_(rows, cont)]
        std[cont] = np.std(Xcb.toarray() if sp.issparse(Xcb) else Xcb, axis=0)
    return _pair_update(
        fold.X[uniq], lo, hi, cls, count, table, denominator, discrete, rng, std, n_b
    )
