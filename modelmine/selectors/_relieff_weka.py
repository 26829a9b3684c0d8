"""ReliefF as WEKA's ReliefFAttributeEval, with optional distance weighting, vectorised.

Pes (2019, Section 3.1) ranks with WEKA's ReliefF "in its distance-weighted form": the
influence of the j-th nearest neighbour (j = 0, 1, ...) decreases as
``exp(-(j / sigma)^2)`` (Robnik-Sikonja and Kononenko 2003, Section 2.3; WEKA's ``-W``,
``sigma = 2`` by default). WEKA's ReliefF, the default of the "relieff" selector since
issue 37, also differs from scikit-rebate's (``variant="skrebate"``,
:func:`modelmine.selectors.relieff_scores`) without the weighting:

- every feature is numeric: ``diff = |a - b| / (max - min)`` (0 for a constant feature),
  and the distance between two records is the sum of the diffs (Manhattan);
- the k nearest hits exclude the record itself;
- in multiclass data the misses of class c are weighted by ``P(c) / (1 - P(class))``,
  the class priors of the data (Kononenko 1994), not by their frequency among neighbours.

:func:`relieff_weka_scores` computes the distances between the records once, replays
WEKA's neighbour search for all records at once (so that ties in distance resolve as in
WEKA), and sums the weighted diffs of all (record, neighbour) pairs by blocks.

The resamples of :func:`modelmine.bootstrap` (issue 37): :class:`WekaReliefFFold`
(``ReliefFSelector.prepare`` with ``variant="weka"`` or ``weight_by_distance=True``) holds
the data once, and :func:`resample_relieff_weka_scores` (``select_rows``) scores
``X[rows]`` from the resample's distinct rows. WEKA scales each feature by the range of
the data it is given, so the range, and with it every distance, changes from one
resample to the next (on a BASEHOCK bootstrap a fifth of the words change range and
99 % of the rows hold one of them: ``docs/selectors_relieff_info.md``): the distances
cannot be shared exactly, and are computed per resample, over its distinct rows only and,
for sparse data, over the non-zeros only (:func:`_sparse_distances`), entry for entry the
floats of the dense computation on ``X[rows]``. Everything after the distances is the one
code of both routes, so ``select_rows`` equals ``select(X[rows], y[rows])`` bit for bit.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray
from scipy.spatial.distance import cdist, pdist, squareform

from ..validation import check_int, check_real, param_error
from ._relieff import _block_width, _column_blocks

__all__ = ["WekaReliefFFold", "relieff_weka_scores", "resample_relieff_weka_scores"]

_PAIR_BLOCK_ELEMENTS = 1 << 16
#: Bytes the distances of one resample may take at once (:func:`working_set_bytes`: the
#: distances between its distinct rows and WEKA's neighbour slots). Beyond it the records
#: are taken a tile at a time (:func:`_tiles`), with equal results.
MEMORY_BUDGET = 1 << 28
# Dense data with at most this fraction of non-zeros is held sparse (same floats).
_SPARSE_DENSITY = 0.1
# A sparse column with at least 1/_DENSE_COLUMN of the rows non-zero updates all pairs in
# one dense operation instead of its rows and columns.
_DENSE_COLUMN = 4


def _ranges(X: Any) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    n, p = X.shape
    mn = np.empty(p)
    rng = np.empty(p)
    for a, b, block in _column_blocks(X, _block_width(n)):
        mn[a:b] = block.min(axis=0)
        rng[a:b] = block.max(axis=0) - mn[a:b]
    return mn, rng


def _weka_sort(values: list[float]) -> list[int]:
    """Indices of ``values`` in increasing order, ties ordered as WEKA 3.6's ``Utils.sort``.

    ``weka.core.Utils.sort(double[])`` (WEKA 3.6.14) is a median-of-three quicksort with
    insertion of the pivot at ``right - 1``, not a stable sort: among equal values its order
    depends on the positions. ReliefF's distance weighting (``-W``) gives the j-th entry of
    this order the weight of rank j, so equal distances must be ordered as WEKA orders them.
    Checked against the jar on random arrays with ties (``tests/selectors/test_weka_relieff.py``).
    """
    arr = values
    index = list(range(len(arr)))

    def cswap(a: int, b: int) -> None:
        if arr[index[a]] > arr[index[b]]:
            index[a], index[b] = index[b], index[a]

    def partition(lo: int, hi: int, pivot: float) -> int:
        hi -= 1
        while True:
            lo += 1
            while arr[index[lo]] < pivot:
                lo += 1
            hi -= 1
            while arr[index[hi]] > pivot:
                hi -= 1
            if lo >= hi:
                return lo
            index[lo], index[hi] = index[hi], index[lo]

    def quicksort(left: int, right: int) -> None:
        diff = right - left
        if diff <= 0:
            return
        if diff == 1:
            cswap(left, right)
            return
        if diff == 2:
            cswap(left, left + 1)
            cswap(left, right)
            cswap(left + 1, right)
            return
        centre = (left + right) // 2
        cswap(left, centre)
        cswap(left, right)
        cswap(centre, right)
        index[centre], index[right - 1] = index[right - 1], index[centre]
        mid = partition(left, right, arr[index[right - 1]])
        index[mid], index[right - 1] = index[right - 1], index[mid]
        quicksort(left, mid - 1)
        quicksort(mid + 1, right)

    quicksort(0, len(arr) - 1)
    return index


def _slot_ranks(slot_d: NDArray[np.float64], filled: NDArray[np.intp]) -> NDArray[np.intp]:
    """The rank of each kept neighbour among its record's neighbours of the same class, as
    WEKA's ``Utils.sort`` orders their distances (``slot_d`` of shape (records, classes,
    k), the first ``filled`` slots in use). Distinct distances have one increasing order,
    found by one ``argsort``; the slot lists holding a tie go through :func:`_weka_sort`."""
    k = slot_d.shape[2]
    rank = np.empty(slot_d.shape, dtype=np.intp)
    np.put_along_axis(rank, np.argsort(slot_d, axis=2, kind="stable"),
                      np.arange(k)[None, None, :], axis=2)
    srt = np.sort(slot_d, axis=2)
    tied = (srt[:, :, 1:] == srt[:, :, :-1]) & np.isfinite(srt[:, :, 1:])
    for r, c in zip(*np.nonzero(tied.any(axis=2)), strict=True):
        s = int(filled[r, c])
        rank[r, c, _weka_sort(slot_d[r, c, :s].tolist())] = np.arange(s)
    return rank


def _scan(
    D: NDArray[np.float64], row_of: NDArray[np.intp], cols: NDArray[np.intp] | None,
    receivers: NDArray[np.intp], y: NDArray[np.int64], k: int, n_classes: int,
) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.intp], NDArray[np.intp],
           NDArray[np.intp]]:
    """WEKA's findKHitMiss for the records ``receivers`` (increasing positions among the
    ``n = row_of.size`` records): the distances from record i to the receivers are
    ``D[row_of[i]]``, or ``D[row_of[i], cols]`` (a distinct row's distances read for
    each of its copies).

    WEKA scans the other records in index order and keeps, per class, k slots: a record
    fills the next free slot, or replaces the first slot of largest distance when it is
    strictly nearer. Among equal distances this keeps a particular set, so the scan is
    replayed here, for all receivers at once (one step per scanned record; the largest
    slot of a receiver is found again only when its slots change); a receiver's slots
    depend on its own distances only, so the receivers may be taken in tiles.
    Returns ``(record, neighbour, rank, class, slot)`` of every kept neighbour, by record,
    class and slot; the rank orders the neighbours of a class as :func:`_slot_ranks`.
    """
    n, n_r = row_of.size, receivers.size
    # Class-major slots: the slots of one class for all receivers are one contiguous view.
    slot_d = np.full((n_classes, n_r, k), np.inf)
    slot_i = np.full((n_classes, n_r, k), -1, dtype=np.intp)
    worst = np.zeros((n_classes, n_r), dtype=np.intp)  # first slot of the largest distance
    worst_d = np.full((n_classes, n_r), np.inf)
    local = np.full(n, -1, dtype=np.intp)
    local[receivers] = np.arange(n_r)
    d = np.empty(n_r)
    for i in range(n):
        c = int(y[i])
        if cols is None:
            d[:] = D[row_of[i]]
        else:
            np.take(D[row_of[i]], cols, out=d)
        if local[i] >= 0:
            d[local[i]] = np.inf  # not its own neighbour: never strictly nearer
        r = np.flatnonzero(d < worst_d[c])
        if r.size == 0:
            continue
        w = worst[c, r]
        slot_d[c, r, w] = d[r]
        slot_i[c, r, w] = i
        changed = slot_d[c, r]
        w = np.argmax(changed, axis=1)
        worst[c, r] = w
        worst_d[c, r] = changed[np.arange(r.size), w]
    slot_d = slot_d.transpose(1, 0, 2)
    kept = slot_i.transpose(1, 0, 2) >= 0
    rank = _slot_ranks(slot_d, kept.sum(axis=2))
    inst, cls, slot = np.nonzero(kept)
    return (receivers[inst], slot_i[cls, inst, slot], rank[inst, cls, slot], cls, slot)


def _nearest_per_class(
    D: NDArray[np.float64], y: NDArray[np.int64], k: int, n_classes: int
) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.intp]]:
    """(record, neighbour, rank by distance) triples, chosen exactly as WEKA's findKHitMiss
    (:func:`_scan` over all records of the symmetric distance matrix ``D``). The kept
    neighbours are ranked by distance as WEKA's ``Utils.sort`` ranks them (a quicksort,
    so equal distances are not ranked by slot: see :func:`_weka_sort`)."""
    everyone = np.arange(D.shape[0])
    inst, neigh, rank, _, _ = _scan(D, everyone, None, everyone, y, k, n_classes)
    return inst, neigh, rank


@dataclass(frozen=True, eq=False)  # holds the data: compared by identity, never by value
class WekaReliefFFold:
    """The data whose resamples WEKA's ReliefF scores, held once for all of them.

    All the bootstraps of :func:`modelmine.bootstrap` draw rows of one training fold
    (KDD 2012, Section 5; issue 37). WEKA's ReliefF on a resample ``X[rows]`` depends on
    the resample through the feature ranges of ``X[rows]`` (those of its distinct rows),
    the distances between its distinct rows (a row drawn twice is two records at
    distance 0) and the class of each draw. :func:`resample_relieff_weka_scores` computes
    them from the distinct rows; built by :meth:`of`.

    Attributes
    ----------
    X : ndarray or scipy.sparse CSR matrix of shape (n_samples, n_features_in)
        The data, float64; CSR (sorted indices, no stored zeros) when given sparse or
        when at most a tenth of its values are non-zero.
    """

    X: Any

    @classmethod
    def of(cls, X: Any) -> WekaReliefFFold:
        """The fold of ``X`` (dense or sparse, float64 values without missing values)."""
        if sp.issparse(X):
            Xc = sp.csr_matrix(X, dtype=np.float64)  # not a copy when it is one already
            if not Xc.has_canonical_format or not Xc.data.all():
                Xc = Xc.copy()
                Xc.sum_duplicates()  # canonical: sorted indices, one entry per position
                Xc.eliminate_zeros()  # an explicit -0.0 would be read as a value
            return cls(X=Xc)
        dense = np.asarray(X, dtype=np.float64)
        if np.count_nonzero(dense) <= _SPARSE_DENSITY * dense.size:
            # mostly zeros (PCMAC is read as a dense array): the non-zeros' distances are
            # the same floats, for a fraction of the work
            return cls(X=sp.csr_matrix(dense))
        return cls(X=dense)

    @property
    def n_samples(self) -> int:
        """Number of rows of the data the resamples draw from."""
        return int(self.X.shape[0])


def working_set_bytes(n_rows: int, n_distinct: int, n_classes: int, n_neighbors: int,
                      n_features: int = 0, *, sparse: bool = True,
                      n_tile: int | None = None, n_receivers: int | None = None) -> int:
    """Bytes WEKA's ReliefF holds at once for the distances of a resample of ``n_rows``
    rows, ``n_distinct`` of them distinct (the KDD'12 memory guard of issue 37).

    Float64 values: the distances of the distinct rows of the tile (all of them when
    ``n_tile`` is None) to all distinct rows, twice (the running total and the column block
    being summed; for dense data the condensed ``pdist`` pair and its square form), and
    for dense data one scaled column block (at most ``2^22`` values of ``n_features``
    columns); WEKA's slots (distance, record, rank and the largest slot per receiver,
    class and neighbour) of the ``n_receivers`` records of the tile (all the rows when
    None); for a tile, its distances spread over its records (``n_distinct x
    n_receivers``, twice). A bootstrap of a BASEHOCK training fold (1,794 rows, 1,136
    distinct): 21.8 MB; of a madelon fold (2,340 rows, 1,482 distinct): 42.6 MB
    (``docs/selectors_relieff_info.md``).
    """
    n, m = int(n_rows), int(n_distinct)
    block = 0 if sparse else min(m * int(n_features), m * _block_width(n))
    if n_tile is None:
        return 8 * (2 * m * m + block) + 32 * n * n_classes * n_neighbors
    t, r = int(n_tile), int(n if n_receivers is None else n_receivers)
    return 8 * (2 * t * m + 2 * m * r + block) + 32 * r * n_classes * n_neighbors


def _tiles(mult: NDArray[np.int64], n_classes: int, k: int, n_features: int, sparse: bool,
           budget: int) -> list[tuple[int, int]]:
    """Contiguous ranges of the distinct rows (``mult``: the number of records of each)
    whose working set (:func:`working_set_bytes`) stays within ``budget`` bytes: one range
    when all fit. Refused, with the figures, when the distances of a single distinct row
    do not fit."""
    m = mult.size
    n = int(mult.sum())
    whole = working_set_bytes(n, m, n_classes, k, n_features, sparse=sparse)
    if whole <= budget:
        return [(0, m)]
    cum = np.concatenate([[0], np.cumsum(mult, dtype=np.int64)])
    block = 0 if sparse else min(m * n_features, m * _block_width(n))
    out: list[tuple[int, int]] = []
    lo = 0
    while lo < m:
        hi = np.arange(lo + 1, m + 1, dtype=np.int64)
        r = cum[hi] - cum[lo]
        # working_set_bytes of the tiles lo:hi, for every hi at once
        need = 8 * (2 * (hi - lo) * m + 2 * m * r + block) + 32 * r * n_classes * k
        fits = int(np.count_nonzero(need <= budget))  # need grows with hi: a prefix fits
        if fits == 0:
            raise MemoryError(
                f"WEKA's ReliefF on a resample of {n:,} rows ({m:,} distinct) needs "
                f"{int(need[0]) / 2**20:,.2f} MiB for the distances of one row, above the "
                f"budget of {budget / 2**20:,.2f} MiB (all rows at once: "
                f"{whole / 2**20:,.2f} MiB)")
        out.append((lo, lo + fits))
        lo += fits
    return out


def _dense_distances(Xu: NDArray[np.float64], mn: NDArray[np.float64],
                     rng: NDArray[np.float64], n_rows: int, lo: int, hi: int
                     ) -> NDArray[np.float64]:
    """Distances from the distinct rows ``lo:hi`` of ``Xu`` to all of them (dense data):
    ``pdist`` (one tile) or ``cdist`` (a tile) over the range-scaled column blocks of a
    data set of ``n_rows`` rows, summed block after block: per pair, the floats of the
    computation on all the ``n_rows`` rows."""
    m = Xu.shape[0]
    safe = np.where(rng > 0, rng, 1.0)
    whole = lo == 0 and hi == m
    total = np.zeros(m * (m - 1) // 2) if whole else np.zeros((hi - lo, m))
    for a, b, block in _column_blocks(Xu, _block_width(n_rows)):
        scaled = np.where(rng[a:b] > 0, (block - mn[a:b]) / safe[a:b], 0.0)
        total += (pdist(scaled, metric="cityblock") if whole
                  else cdist(scaled[lo:hi], scaled, metric="cityblock"))
    return squareform(total) if whole else total


def _sparse_distances(Xu: sp.csr_matrix, mn: NDArray[np.float64], rng: NDArray[np.float64],
                      n_rows: int, lo: int, hi: int) -> NDArray[np.float64]:
    """:func:`_dense_distances` of sparse rows, from their non-zeros only.

    Per pair, the dense computation adds ``|s_i - s_j|`` (``s = (x - min) / range``) column
    after column within a column block and the blocks one after the other; a column where
    the two values are equal adds 0.0, which leaves a float unchanged. So does this one,
    column after column within the same blocks, but only over the pairs where one of the
    two rows is non-zero in the column: its non-zero rows' pairs with all rows, and the
    other rows' pairs with its non-zero rows (there ``|0 - s_j| = s_j``). With all the
    rows in one tile the matrix stays symmetric, and the second update is the transpose of
    the first (the same sum, computed once). A column whose zeros do not scale to 0
    (negative values beside zeros), or that is non-zero in a quarter of the rows or more,
    updates all pairs in one dense operation. Each pair therefore receives exactly the
    same additions, in the same order, as in ``pdist``: equal floats. Cost: about
    ``2 nnz x n_distinct`` additions instead of ``n_distinct^2 p / 2``.
    """
    m, p = Xu.shape
    safe = np.where(rng > 0, rng, 1.0)
    Xc = Xu.tocsc()
    Xc.sort_indices()
    indptr, indices = Xc.indptr, Xc.indices
    col_of = np.repeat(np.arange(p), np.diff(indptr))
    # The same operation as on a dense block, on the stored values.
    data = (Xc.data - mn[col_of]) / safe[col_of]
    zero_at = (0.0 - mn) / safe  # what the column's zeros scale to
    whole = lo == 0 and hi == m
    t = hi - lo
    total = np.zeros((t, m))
    width = _block_width(n_rows)
    outside = np.empty(t, dtype=bool)
    col = np.empty(m)
    for a in range(0, p, width):
        cols = np.arange(a, min(p, a + width))
        cols = cols[(rng[cols] > 0) & (indptr[cols + 1] > indptr[cols])]
        if cols.size == 0:
            continue
        acc = np.zeros((t, m))
        for f in cols.tolist():
            nz = indices[indptr[f]:indptr[f + 1]]
            s = data[indptr[f]:indptr[f + 1]]
            dense = nz.size == m or zero_at[f] != 0.0 or _DENSE_COLUMN * nz.size >= m
            col.fill(zero_at[f] if dense else 0.0)
            col[nz] = s
            if dense:
                acc += np.abs(col[lo:hi, None] - col[None, :])
                continue
            if whole:
                acc[nz] += np.abs(np.subtract.outer(s, col))
                acc[:, nz] = acc[nz].T  # the pairs (other row, non-zero row): the same sums
                continue
            inside = nz[(nz >= lo) & (nz < hi)]
            if inside.size:
                acc[inside - lo] += np.abs(np.subtract.outer(col[inside], col))
            outside.fill(True)
            outside[inside - lo] = False
            sub = acc[:, nz]
            np.add(sub, s[None, :], out=sub, where=outside[:, None])
            acc[:, nz] = sub
        total += acc
    return total


def _ranges_of_rows(Xu: Any) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Minimum and range of each feature over the rows ``Xu``: :func:`_ranges` without
    densifying (the same values, the same subtraction)."""
    if sp.issparse(Xu):
        mn = np.asarray(Xu.min(axis=0).toarray(), dtype=np.float64).ravel()
        mx = np.asarray(Xu.max(axis=0).toarray(), dtype=np.float64).ravel()
    else:
        mn, mx = Xu.min(axis=0), Xu.max(axis=0)
    return mn, mx - mn


def _scores_of_rows(fold: WekaReliefFFold, rows: NDArray[np.intp], yb: NDArray[np.int64],
                    k: int, weight_by_distance: bool, sigma: float, budget: int
                    ) -> NDArray[np.float64]:
    """WEKA's ReliefF weights of the records ``fold.X[rows]`` with classes ``yb``."""
    X = fold.X
    n, p = rows.size, X.shape[1]
    n_classes = int(yb.max()) + 1
    uniq, inv, mult = np.unique(rows, return_inverse=True, return_counts=True)
    m = uniq.size
    Xu = X[uniq]
    mn, rng = _ranges_of_rows(Xu)
    distances = _sparse_distances if sp.issparse(Xu) else _dense_distances
    parts = []
    for lo, hi in _tiles(mult, n_classes, k, p, sp.issparse(Xu), budget):
        Du = distances(Xu, mn, rng, n, lo, hi)  # (hi - lo) x m
        receivers = np.flatnonzero((inv >= lo) & (inv < hi))
        if receivers.size == n:  # all rows at once: a distinct row's distances, per copy
            cols = None if m == n and not (inv != receivers).any() else inv
            parts.append(_scan(Du, inv, cols, receivers, yb, k, n_classes))
        else:  # a tile: distinct row u to receiver r, at [u, r]
            At = np.ascontiguousarray(Du.take(inv[receivers] - lo, axis=0).T)
            del Du
            parts.append(_scan(At, inv, None, receivers, yb, k, n_classes))
            del At
    if len(parts) == 1:
        inst, neigh, j = parts[0][:3]
    else:  # the order of one scan over all records: by record, class and slot
        inst, neigh, j, cls, slot = (np.concatenate(a) for a in zip(*parts, strict=True))
        order = np.lexsort((slot, cls, inst))
        inst, neigh, j = inst[order], neigh[order], j[order]

    counts = np.bincount(yb, minlength=n_classes)
    # Neighbours stored per (record, class): k, or fewer when the class is small.
    stored = np.minimum(counts[None, :] - np.eye(n_classes, dtype=np.int64)[yb], k)
    yi, yj = yb[inst], yb[neigh]
    n_stored = stored[inst, yj].astype(np.float64)
    if weight_by_distance:
        by_rank = np.exp(-((np.arange(k) / sigma) ** 2))
        norm = np.concatenate([[0.0], np.cumsum(by_rank)])
        w = by_rank[j] / norm[stored[inst, yj]]
    else:
        w = 1.0 / n_stored
    prior = counts / float(n)
    miss_factor = prior[yj] / (1.0 - prior[yi]) if n_classes > 2 else np.ones(yj.size)
    weights = np.where(yi == yj, -w, w * miss_factor)

    safe = np.where(rng > 0, rng, 1.0)
    scores = np.zeros(p)
    const = rng <= 0
    if 16 * m * p <= budget:  # the distinct rows scaled once: the same floats per block
        dense_u: Any = Xu.toarray() if sp.issparse(Xu) else Xu
        scaled = (dense_u - mn) / safe
        del dense_u
        a, b = inv[inst], inv[neigh]
        chunk = max(1, _PAIR_BLOCK_ELEMENTS // max(1, p))
        for start in range(0, inst.size, chunk):
            sl = slice(start, start + chunk)
            diff = np.abs(scaled[a[sl]] - scaled[b[sl]])
            diff[:, const] = 0.0
            scores += weights[sl] @ diff
        return scores / float(n)
    for sl, xi, xj in pair_blocks(X, rows[inst], rows[neigh]):
        diff = np.abs((xi - mn) / safe - (xj - mn) / safe)
        diff[:, const] = 0.0
        scores += weights[sl] @ diff
    return scores / float(n)


def relieff_weka_scores(
    X: NDArray[np.float64] | sp.spmatrix,
    y: NDArray[np.int64],
    *,
    n_neighbors: int = 10,
    weight_by_distance: bool = True,
    sigma: float = 2.0,
) -> NDArray[np.float64]:
    """ReliefF weights as WEKA's ReliefFAttributeEval: the "relieff" selector's default.

    All records sampled; the scores of the "relieff" selector by default (``variant="weka"``,
    since issue 37). Kononenko (1994); Robnik-Sikonja and Kononenko (2003, Section 2.3) for the
    distance weighting; the "ReliefF" ranker of Pes (2019, Section 3.1). For every record: its
    ``n_neighbors`` nearest hits and nearest misses of every other class (Manhattan distance of
    range-scaled features, the record itself excluded; ties in distance resolved as WEKA's scan
    resolves them); the weight of a feature falls by the hits' diffs and rises by the misses'
    diffs; the sum is divided by n.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features_in) or scipy.sparse matrix
        Float64 data without missing values. Sparse data is never densified whole, and
        its distances are summed over the non-zeros (the same floats as dense).
    y : ndarray of shape (n_samples,)
        Int64 class codes 0..K-1, K >= 2.
    n_neighbors : int, default=10
        k (WEKA's ``-K``).
    weight_by_distance : bool, default=True
        Weight the j-th nearest neighbour (j = 0, 1, ...) of a class by
        ``exp(-(j / sigma)^2)``, normalised over that class's neighbours (WEKA's ``-W``);
        False gives equal influence (``1 / k``).
    sigma : float, default=2.0
        WEKA's ``-A``.

    Returns
    -------
    ndarray of shape (n_features,)
        Weights in [-1, 1]; higher = more relevant.
    """
    func = "relieff_weka_scores"
    k = int(check_int(n_neighbors, "n_neighbors", func, min_value=1))
    sig = float(check_real(sigma, "sigma", func, low=0, closed="neither"))
    fold = WekaReliefFFold.of(X)
    return _scores_of_rows(fold, np.arange(fold.n_samples), np.asarray(y, dtype=np.int64),
                           k, bool(weight_by_distance), sig, MEMORY_BUDGET)


def resample_relieff_weka_scores(
    fold: WekaReliefFFold,
    y: NDArray[np.int64],
    rows: NDArray[np.intp],
    *,
    n_neighbors: int = 10,
    weight_by_distance: bool = True,
    sigma: float = 2.0,
    memory_budget: int = MEMORY_BUDGET,
) -> NDArray[np.float64]:
    """WEKA's ReliefF weights of the resample ``X[rows], y[rows]`` of the fold's data.

    Equal, bit for bit, to ``relieff_weka_scores(X[rows], y[rows], ...)`` (WEKA's
    ReliefFAttributeEval, Kononenko 1994; Robnik-Sikonja and Kononenko 2003, Section 2.3;
    Pes 2019, Section 3.1), where a row drawn c times is c records at distance 0 from
    each other, as WEKA reads a data set with repeated rows: the copies are hits of each
    other, fill WEKA's slots in the order of the draw, and count in the class priors.
    The feature ranges are those of the resample (WEKA normalises by the data it is
    given); the distances are computed between the distinct rows only and spread over
    the copies; the neighbour search and the weight update are the same code as
    :func:`relieff_weka_scores`.

    Parameters
    ----------
    fold : WekaReliefFFold
        The data ``X`` the rows index (:meth:`WekaReliefFFold.of`).
    y : ndarray of shape (n_samples,)
        Int64 class codes of all the fold's rows.
    rows : int ndarray of shape (n_rows,)
        Row indices of the resample, in the order of the draw (with repeats).
    n_neighbors, weight_by_distance, sigma :
        As in :func:`relieff_weka_scores`.
    memory_budget : int, default=MEMORY_BUDGET (256 MiB)
        Bytes the distances may take at once (:func:`working_set_bytes`); above it the
        records are taken in tiles, with equal results.

    Returns
    -------
    ndarray of shape (n_features,)
    """
    func = "resample_relieff_weka_scores"
    if not isinstance(fold, WekaReliefFFold):
        raise param_error("fold", func, "a WekaReliefFFold (WekaReliefFFold.of(X))", fold,
                          exc=TypeError)
    k = int(check_int(n_neighbors, "n_neighbors", func, min_value=1))
    sig = float(check_real(sigma, "sigma", func, low=0, closed="neither"))
    budget = int(check_int(memory_budget, "memory_budget", func, min_value=1))
    n_fold = fold.n_samples
    labels = np.asarray(y)
    if labels.shape != (n_fold,) or labels.dtype.kind not in "iu" or (
            n_fold and labels.min() < 0):
        raise param_error("y", func, f"class codes (non-negative integers) of the fold's "
                          f"{n_fold} rows", labels)
    given = np.asarray(rows)
    if (given.ndim != 1 or given.size == 0 or given.dtype.kind not in "iu"
            or given.min() < 0 or given.max() >= n_fold):
        raise param_error("rows", func,
                          f"a non-empty 1-d array of row indices in [0, {n_fold})", rows)
    idx = given.astype(np.intp)
    return _scores_of_rows(fold, idx, labels[idx].astype(np.int64), k,
                           bool(weight_by_distance), sig, budget)


def pair_blocks(X: Any, inst: NDArray[np.intp], neigh: NDArray[np.intp]
                ) -> Iterator[tuple[slice, NDArray[np.float64], NDArray[np.float64]]]:
    """The rows of the (record, neighbour) pairs, dense, a block of pairs at a time (about
    2^16 values per block, so that no n x p matrix is ever densified)."""
    chunk = max(1, _PAIR_BLOCK_ELEMENTS // max(1, X.shape[1]))
    if sp.issparse(X):
        csr = sp.csr_matrix(X)
        for start in range(0, inst.size, chunk):
            sl = slice(start, start + chunk)
            yield sl, _dense_rows(csr, inst[sl]), _dense_rows(csr, neigh[sl])
        return
    rows = np.asarray(X, dtype=np.float64)
    for start in range(0, inst.size, chunk):
        sl = slice(start, start + chunk)
        yield sl, rows[inst[sl]], rows[neigh[sl]]


def _dense_rows(csr: sp.csr_matrix, idx: NDArray[np.intp]) -> NDArray[np.float64]:
    """``csr[idx].toarray()`` for a few rows, without building the sparse slice (for a
    matrix in canonical format: sorted indices, no duplicate entries)."""
    if not csr.has_canonical_format:
        return np.asarray(csr[idx].toarray(), dtype=np.float64)
    starts = csr.indptr[idx]
    lens = csr.indptr[idx + 1] - starts
    pos = np.arange(int(lens.sum())) + np.repeat(starts - np.cumsum(lens) + lens, lens)
    out = np.zeros((idx.size, csr.shape[1]))
    out[np.repeat(np.arange(idx.size), lens), csr.indices[pos]] = csr.data[pos]
    return out
