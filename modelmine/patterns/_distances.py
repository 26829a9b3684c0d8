"""Jaccard distances between base models, vectorised.

Woznica, Nguyen and Kalousis (KDD 2012, section 2.1, "exact structure preservation") compare
base models by the Jaccard distance of their feature subsets,
``d(S_i, S_j) = 1 - |S_i & S_j| / |S_i | S_j|``; mostRep, largeMed, medClosedApr, medMaxApr
and allMed run (k-)medoids on these distances.

The intersection counts ``|S_i & S_j|`` are a Gram matrix of the b x p 0/1 matrix. Base
model subsets are small (m = 20 of thousands of features) and their column counts are very
uneven: a few features are selected by almost every model, most by a handful. The Gram
matrix is therefore split by columns (:func:`overlap_blocks`, the one overlap kernel of
modelmine): the most frequently selected columns go through a dense float32 BLAS product,
the rare ones through a sparse CSR product, the split chosen to minimise the cost. Counts
are exact: float32 represents integers up to 2**24 exactly, far above any subset size.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import scipy.sparse as sp

from ..validation import param_error

__all__ = ["BLOCK_ROWS", "intersection_counts", "jaccard_distances", "jaccard_rows",
           "overlap_blocks"]

_FUNC = "jaccard_distances"


def _as_subsets(models: Any) -> np.ndarray:
    """The (b, p) boolean subsets of a BaseModels object or of a matrix."""
    subsets = getattr(models, "subsets", models)
    if sp.issparse(subsets):
        subsets = subsets.toarray()
    arr = np.asarray(subsets)
    if arr.ndim != 2:
        raise param_error("models", _FUNC, "a BaseModels or a 2-D boolean matrix (b, p)", arr)
    if arr.dtype != bool:
        if not np.isin(arr, (0, 1)).all():
            raise param_error("models", _FUNC, "a 0/1 or boolean matrix", arr)
        arr = arr.astype(bool)
    return arr


#: Row blocks of :func:`overlap_blocks`: bounds the memory of a pass over ``Z Z^T`` to
#: ``BLOCK_ROWS * b`` values whatever the number of subsets.
BLOCK_ROWS = 512


def overlap_blocks(
    Z: np.ndarray, *, block_rows: int = BLOCK_ROWS, dtype: Any = np.float64,
) -> Iterator[tuple[slice, np.ndarray | None, sp.csr_matrix | None]]:
    """Yield ``(rows, dense, sparse)`` with ``Z[rows] @ Z.T = dense + sparse``, by blocks.

    ``Z Z^T`` is the sum over features of the outer products of the columns, so the
    columns can be split: the ``h`` most frequently selected ones go through a dense BLAS
    product (cost about ``M^2 h``), the rest through a sparse product (cost about
    ``sum_f c_f^2`` over them, ``c_f`` the column counts, with a larger constant). ``h``
    minimises the total; never-selected columns are dropped. Bootstrap selections have a
    few features chosen almost always and a long tail of rare ones, which this split
    serves well. Either part is None when empty. ``dense`` has the given ``dtype``; the
    counts are exact (float32 holds integers up to 2**24).

    The one kernel for subset overlaps: Jaccard distances between base models
    (:func:`jaccard_distances`), the pairwise stability measures and the overlaps of
    signatures all use it.
    """
    M = Z.shape[0]
    rows_nz, cols_nz = np.nonzero(Z)
    counts = np.bincount(cols_nz, minlength=Z.shape[1])
    used = np.flatnonzero(counts)
    order = used[np.argsort(-counts[used], kind="stable")]
    sq = np.square(counts[order], dtype=np.float64)
    # tail[h] = sum of c_f^2 over the columns after the h heaviest.
    tail = np.concatenate([np.cumsum(sq[::-1])[::-1], [0.0]])
    cost = float(M) * M * np.arange(order.size + 1) + 40.0 * tail
    h = int(np.argmin(cost))
    # float32 products of 0/1 values are exact below 2**24 features.
    D = np.ascontiguousarray(Z[:, order[:h]], dtype=np.float32) if h > 0 else None
    S = ST = None
    if h < order.size:
        rank = np.full(Z.shape[1], -1)
        rank[order[h:]] = np.arange(order.size - h)
        keep = rank[cols_nz] >= 0
        S = sp.csr_matrix(
            (np.ones(int(keep.sum()), dtype=np.float32), (rows_nz[keep], rank[cols_nz[keep]])),
            shape=(M, order.size - h),
        )
        ST = S.T.tocsc()
    step = max(1, int(block_rows))
    for start in range(0, M, step):
        rows = slice(start, min(M, start + step))
        dense = (D[rows] @ D.T).astype(dtype, copy=False) if D is not None else None
        sparse = sp.csr_matrix(S[rows] @ ST) if S is not None else None
        yield rows, dense, sparse


def intersection_counts(subsets: np.ndarray) -> np.ndarray:
    """``|S_i & S_j|`` for every pair of rows of a boolean (b, p) matrix, as float32 (b, b).

    Assembled from :func:`overlap_blocks` in one block.
    """
    b = subsets.shape[0]
    gram = np.zeros((b, b), dtype=np.float32)
    for rows, dense, sparse in overlap_blocks(subsets, block_rows=max(b, 1),
                                              dtype=np.float32):
        if dense is not None:
            gram[rows] += dense
        if sparse is not None:
            part = sparse.tocoo()  # canonical: no duplicate (row, col) pairs
            gram[part.row + rows.start, part.col] += part.data
    return gram


def jaccard_rows(subsets: np.ndarray, *, block_rows: int = BLOCK_ROWS,
                 columns: np.ndarray | None = None
                 ) -> Iterator[tuple[slice, np.ndarray]]:
    """Yield ``(rows, D[rows])``: the Jaccard distances of a block of rows of a boolean
    (b, p) matrix to every row (or, with ``columns``, to the rows of that other boolean
    matrix), float64, by blocks of ``block_rows``: the memory of one block, whatever b.

    The values are those of :func:`jaccard_distances` bit for bit (the same float32
    ratio of exact counts, then ``1 - ratio`` in float64; 0 between two empty subsets),
    except that the diagonal of a block of the matrix itself is not set to 0 here (it is
    0 already: ``|S & S| = |S | S|``).
    """
    sizes = subsets.sum(axis=1).astype(np.float32)
    if columns is None:
        other_sizes = sizes
        blocks: Any = ((rows, dense, sparse) for rows, dense, sparse in overlap_blocks(
            subsets, block_rows=block_rows, dtype=np.float32))
    else:
        other_sizes = columns.sum(axis=1).astype(np.float32)
        right = np.ascontiguousarray(columns.T, dtype=np.float32)
        left = subsets

        def cross() -> Iterator[tuple[slice, np.ndarray, None]]:
            step = max(1, int(block_rows))
            for start in range(0, left.shape[0], step):
                rows = slice(start, min(left.shape[0], start + step))
                yield rows, np.asarray(left[rows], dtype=np.float32) @ right, None

        blocks = cross()
    for rows, dense, sparse in blocks:
        inter = np.zeros((rows.stop - rows.start, other_sizes.size), dtype=np.float32)
        if dense is not None:
            inter += dense
        if sparse is not None:
            part = sparse.tocoo()
            inter[part.row, part.col] += part.data
        union = np.add.outer(sizes[rows], other_sizes)
        union -= inter
        with np.errstate(invalid="ignore", divide="ignore"):
            np.divide(inter, union, out=inter, where=union > 0)
        inter[union == 0] = 1.0
        dist = np.subtract(1.0, inter, dtype=np.float64)
        np.clip(dist, 0.0, 1.0, out=dist)
        yield rows, dist


def jaccard_distances(models: Any, *, dtype: Any = np.float64) -> np.ndarray:
    """Pairwise Jaccard distances between the subsets of base models.

    ``d(S_i, S_j) = 1 - |S_i & S_j| / |S_i | S_j|`` (KDD 2012, section 2.1), with
    ``d = 0`` when both subsets are empty (as :func:`scipy.spatial.distance.pdist`).

    Parameters
    ----------
    models : BaseModels or array-like of bool, shape (b, p)
        Base models (their ``subsets`` are used) or a boolean / 0-1 matrix, one row per
        model (sparse matrices are accepted).
    dtype : numpy dtype, default=float64
        Floating type of the result (float32 halves the memory at b in the thousands).

    Returns
    -------
    ndarray of shape (b, b)
        Symmetric, zero diagonal, values in [0, 1]. Equal to
        ``squareform(pdist(subsets, "jaccard"))`` up to rounding. Filled by blocks of rows
        (:func:`jaccard_rows`): the result is the only b x b array held.
    """
    subsets = _as_subsets(models)
    b = subsets.shape[0]
    dist = np.empty((b, b), dtype=dtype)
    for rows, block in jaccard_rows(subsets):
        dist[rows] = block
    np.fill_diagonal(dist, 0.0)
    return dist
