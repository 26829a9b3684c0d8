"""ReliefF as WEKA's ReliefFAttributeEval, with optional distance weighting, vectorised.

Pes (2019, Section 3.1) ranks with WEKA's ReliefF "in its distance-weighted form": the
influence of the j-th nearest neighbour (j = 0, 1, ...) decreases as
``exp(-(j / sigma)^2)`` (Robnik-Sikonja and Kononenko 2003, Section 2.3; WEKA's ``-W``,
``sigma = 2`` by default). WEKA's ReliefF also differs from scikit-rebate's (our default
"relieff", :func:`modelmine.selectors.relieff_scores`) without the weighting:

- every feature is numeric: ``diff = |a - b| / (max - min)`` (0 for a constant feature),
  and the distance between two records is the sum of the diffs (Manhattan);
- the k nearest hits exclude the record itself;
- in multiclass data the misses of class c are weighted by ``P(c) / (1 - P(class))``,
  the class priors of the data (Kononenko 1994), not by their frequency among neighbours.

:func:`relieff_weka_scores` computes the distance matrix once
(``scipy.spatial.distance.pdist``), replays WEKA's neighbour search for all records at once
(so that ties in distance resolve as in WEKA), and sums the weighted diffs of all
(record, neighbour) pairs by blocks.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray
from scipy.spatial.distance import pdist, squareform

from ..validation import check_int, check_real
from ._relieff import _block_width, _column_blocks

__all__ = ["relieff_weka_scores"]

_PAIR_BLOCK_ELEMENTS = 1 << 16


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


def _nearest_per_class(
    D: NDArray[np.float64], y: NDArray[np.int64], k: int, n_classes: int
) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.intp]]:
    """(record, neighbour, rank by distance) triples, chosen exactly as WEKA's findKHitMiss.

    WEKA scans the other records in index order and keeps, per class, k slots: a record
    fills the next free slot, or replaces the first slot of largest distance when it is
    strictly nearer. Among equal distances this keeps a particular set, so the scan is
    replayed here, for all records at once (one step per scanned record). The kept
    neighbours are then ranked by distance as WEKA's ``Utils.sort`` ranks them (a
    quicksort, so equal distances are not ranked by slot: see :func:`_weka_sort`).
    """
    n = D.shape[0]
    slot_d = np.full((n, n_classes, k), np.inf)
    slot_i = np.full((n, n_classes, k), -1, dtype=np.intp)
    everyone = np.arange(n)
    for i in range(n):
        rows = everyone[everyone != i]
        c = int(y[i])
        d = D[rows, i]
        slots = slot_d[rows, c]
        worst = np.argmax(slots, axis=1)  # first slot of the largest distance
        take = d < slots[np.arange(rows.size), worst]
        r, w = rows[take], worst[take]
        slot_d[r, c, w] = d[take]
        slot_i[r, c, w] = i
    rank = np.zeros((n, n_classes, k), dtype=np.intp)
    filled = (slot_i >= 0).sum(axis=2)
    for r in range(n):
        for c in range(n_classes):
            s = int(filled[r, c])
            rank[r, c, _weka_sort(slot_d[r, c, :s].tolist())] = np.arange(s)
    inst, cls, slot = np.nonzero(slot_i >= 0)
    return inst, slot_i[inst, cls, slot], rank[inst, cls, slot]


def relieff_weka_scores(
    X: NDArray[np.float64] | sp.spmatrix,
    y: NDArray[np.int64],
    *,
    n_neighbors: int = 10,
    weight_by_distance: bool = True,
    sigma: float = 2.0,
) -> NDArray[np.float64]:
    """ReliefF weights as WEKA's ReliefFAttributeEval (all records sampled).

    Kononenko (1994); Robnik-Sikonja and Kononenko (2003, Section 2.3) for the distance
    weighting; the "ReliefF" ranker of Pes (2019, Section 3.1). For every record: its
    ``n_neighbors`` nearest hits and nearest misses of every other class (Manhattan
    distance of range-scaled features, the record itself excluded; ties in distance
    resolved as WEKA's scan resolves them); the weight of a feature falls by the hits' diffs and
    rises by the misses' diffs; the sum is divided by n.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features_in) or scipy.sparse matrix
        Float64 data without missing values.
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
    n, p = X.shape
    n_classes = int(y.max()) + 1
    mn, rng = _ranges(X)
    safe = np.where(rng > 0, rng, 1.0)
    dist = np.zeros(n * (n - 1) // 2)
    for a, b, block in _column_blocks(X, _block_width(n)):
        scaled = np.where(rng[a:b] > 0, (block - mn[a:b]) / safe[a:b], 0.0)
        dist += pdist(scaled, metric="cityblock")
    D = squareform(dist)
    inst, neigh, j = _nearest_per_class(D, y, k, n_classes)

    counts = np.bincount(y, minlength=n_classes)
    # Neighbours stored per (record, class): k, or fewer when the class is small.
    stored = np.minimum(counts[None, :] - np.eye(n_classes, dtype=np.int64)[y], k)
    yi, yj = y[inst], y[neigh]
    n_stored = stored[inst, yj].astype(np.float64)
    if weight_by_distance:
        by_rank = np.exp(-((np.arange(k) / sig) ** 2))
        norm = np.concatenate([[0.0], np.cumsum(by_rank)])
        w = by_rank[j] / norm[stored[inst, yj]]
    else:
        w = 1.0 / n_stored
    prior = counts / float(n)
    miss_factor = prior[yj] / (1.0 - prior[yi]) if n_classes > 2 else np.ones(yj.size)
    weights = np.where(yi == yj, -w, w * miss_factor)

    scores = np.zeros(p)
    const = rng <= 0
    for sl, xi, xj in pair_blocks(X, inst, neigh):
        diff = np.abs((xi - mn) / safe - (xj - mn) / safe)
        diff[:, const] = 0.0
        scores += weights[sl] @ diff
    return scores / float(n)


def pair_blocks(X: Any, inst: NDArray[np.intp], neigh: NDArray[np.intp]
                ) -> Iterator[tuple[slice, NDArray[np.float64], NDArray[np.float64]]]:
    """The rows of the (record, neighbour) pairs, dense, a block of pairs at a time (about
    2^16 values per block, so that no n x p matrix is ever densified)."""
    rows: Any = sp.csr_matrix(X) if sp.issparse(X) else np.asarray(X, dtype=np.float64)
    chunk = max(1, _PAIR_BLOCK_ELEMENTS // max(1, X.shape[1]))
    for start in range(0, inst.size, chunk):
        sl = slice(start, start + chunk)
        xi: Any = rows[inst[sl]]
        xj: Any = rows[neigh[sl]]
        if sp.issparse(xi):
            xi, xj = xi.toarray(), xj.toarray()
        yield sl, xi, xj
