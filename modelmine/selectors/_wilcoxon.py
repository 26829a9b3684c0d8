"""The Wilcoxon rank-sum statistics of every group at once, on all the cells (issue 29).

:func:`wilcoxon_by_group` gives the tie-corrected z and the AUROC of each group against
the rest for every column, from one sort of the non-zero entries (the zeros of a column
share one mid-rank), as scanpy's ``rank_genes_groups(method="wilcoxon", tie_correct=True)``:
what :func:`modelmine.singlecell.marker_panels` reports for each cluster on all its cells.
The ``"wilcoxon"`` selector (:class:`~modelmine.selectors._singlecell.WilcoxonSelector`)
computes the same z on each resample from a sort shared by the resamples of a chunk.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from ._singlecell import column_value_order

__all__ = ["wilcoxon_by_group"]


def wilcoxon_by_group(X: Any, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The Wilcoxon rank-sum z (tie-corrected) and AUROC of every column of X, each group
    against the rest (Mann and Whitney 1947), all groups from one ranking.

    Non-negative values only (counts or log-normalised counts): the zeros of a column are
    its smallest values and share one mid-rank, so only the non-zero entries are sorted (one
    ``lexsort`` of all of them, by column then value) and the matrix is never densified.
    For group c with n1 cells, ``R1`` is the sum of its cells' ranks,
    ``z = (R1 - n1 (n + 1) / 2) / sqrt(n1 n0 / 12 (n + 1 - T))`` with the tie term
    ``T = sum (t^3 - t) / (n (n - 1))`` over the column's tied values, as scanpy's
    ``rank_genes_groups(method="wilcoxon", tie_correct=True)``, and
    ``AUROC = (R1 - n1 (n1 + 1) / 2) / (n1 n0)``.

    Parameters
    ----------
    X : ndarray or scipy.sparse matrix of shape (n_cells, p), non-negative
    codes : ndarray of int, shape (n_cells,)
        Group codes 0..K-1.

    Returns
    -------
    z, auroc : ndarray of shape (K, p)
    """
    codes = np.asarray(codes, dtype=np.intp)
    if sp.issparse(X) and X.format == "csr" and X.nnz > _BLOCK_NNZ:
        # an atlas by rows: its blocks of columns are sliced from it, one at a time, so
        # that no column-major copy of the whole matrix is made
        if X.data.size and X.data.min() < 0:
            return _wilcoxon_dense(sp.csc_matrix(X, dtype=np.float64), codes)
        per_col = np.bincount(X.indices, minlength=X.shape[1])
        ends = np.r_[0, np.cumsum(per_col)]
        return _by_blocks(lambda a, b: sp.csc_matrix(X[:, a:b]), ends, X.shape[1], codes)
    Xc = sp.csc_matrix(X)  # float32 stays float32; each block is sorted in float64
    if Xc.dtype.kind != "f":
        Xc = Xc.astype(np.float64)
    Xc.eliminate_zeros()
    if Xc.data.size and Xc.data.min() < 0:
        return _wilcoxon_dense(sp.csc_matrix(Xc, dtype=np.float64), codes)
    if Xc.nnz > _BLOCK_NNZ:  # blocks of columns: the sort's memory stays bounded
        return _by_blocks(lambda a, b: Xc[:, a:b], Xc.indptr, Xc.shape[1], codes)
    return _wilcoxon_block(Xc, codes)


def _by_blocks(block: Any, ends: np.ndarray, p: int,
               codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_wilcoxon_block` on consecutive blocks of columns of at most
    ``_BLOCK_NNZ`` non-zero entries (``ends``: the cumulative entries before each column;
    ``block(a, b)``: columns a..b-1 as CSC)."""
    parts = []
    a = 0
    while a < p:
        b = max(int(np.searchsorted(ends, ends[a] + _BLOCK_NNZ, side="right")) - 1, a + 1)
        Xb = block(a, b)
        Xb.eliminate_zeros()
        parts.append(_wilcoxon_block(Xb, codes))
        a = b
    return (np.concatenate([z for z, _ in parts], axis=1),
            np.concatenate([u for _, u in parts], axis=1))


#: Non-zero entries sorted at once by :func:`wilcoxon_by_group` (about 250 MiB of work
#: arrays): larger matrices are taken a block of columns at a time.
_BLOCK_NNZ = 1 << 22


def _wilcoxon_block(Xc: Any, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`wilcoxon_by_group` on a CSC block of non-negative columns."""
    Xc = sp.csc_matrix(Xc, dtype=np.float64)
    n, p = Xc.shape
    K = int(codes.max()) + 1
    sizes = np.bincount(codes, minlength=K).astype(np.float64)
    nnz = np.diff(Xc.indptr)
    col = np.repeat(np.arange(p), nnz)
    order = column_value_order(Xc.data, col, Xc.shape[1])
    v, c, r = Xc.data[order], col[order], Xc.indices[order]
    # runs of equal (column, value): the ties among the non-zero entries
    start = np.r_[True, (c[1:] != c[:-1]) | (v[1:] != v[:-1])] if v.size else np.zeros(0, bool)
    run = np.cumsum(start) - 1
    first = np.flatnonzero(start)
    length = np.diff(np.r_[first, v.size]).astype(np.float64)
    pos = np.arange(v.size) - Xc.indptr[c]  # 0-based position among the column's non-zeros
    mid = pos[first] + (length - 1) / 2.0  # the run's average position
    zeros = (n - nnz).astype(np.float64)
    rank = zeros[c] + mid[run] + 1.0
    rank_sum = np.bincount(codes[r] * p + c, weights=rank, minlength=K * p).reshape(K, p)
    in_nnz = np.bincount(codes[r] * p + c, minlength=K * p).reshape(K, p)
    zero_rank = (zeros + 1.0) / 2.0
    rank_sum += (sizes[:, None] - in_nnz) * zero_rank[None, :]
    ties = np.bincount(c[first], weights=length ** 3 - length, minlength=p) \
        + zeros ** 3 - zeros
    tie_term = ties / (n * (n - 1.0)) if n > 1 else np.zeros(p)
    n1 = sizes[:, None]
    n0 = n - n1
    var = n1 * n0 / 12.0 * ((n + 1.0) - tie_term[None, :])
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(var > 0, (rank_sum - n1 * (n + 1.0) / 2.0) / np.sqrt(var), 0.0)
        auroc = np.where(n1 * n0 > 0, (rank_sum - n1 * (n1 + 1.0) / 2.0) / (n1 * n0), 0.5)
    return z, auroc


def _wilcoxon_dense(Xc: Any, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`wilcoxon_by_group` for data with negative values (the zeros are then not the
    smallest values): each block of columns ranked densely."""
    from scipy.stats import rankdata

    n, p = Xc.shape
    K = int(codes.max()) + 1
    onehot = np.zeros((K, n))
    onehot[codes, np.arange(n)] = 1.0
    n1 = onehot.sum(axis=1)[:, None]
    n0 = n - n1
    z = np.zeros((K, p))
    auroc = np.full((K, p), 0.5)
    width = max(1, int(2**22 // max(n, 1)))
    for a in range(0, p, width):
        b = min(p, a + width)
        block = Xc[:, a:b].toarray()
        rank_sum = onehot @ rankdata(block, axis=0)
        srt = np.sort(block, axis=0)
        edge = np.vstack([np.ones((1, b - a), bool), srt[1:] != srt[:-1]])
        ties = np.zeros(b - a)
        for j in range(b - a):
            t = np.diff(np.r_[np.flatnonzero(edge[:, j]), n]).astype(np.float64)
            ties[j] = float((t ** 3 - t).sum())
        tie_term = ties / (n * (n - 1.0)) if n > 1 else np.zeros(b - a)
        var = n1 * n0 / 12.0 * ((n + 1.0) - tie_term[None, :])
        with np.errstate(divide="ignore", invalid="ignore"):
            z[:, a:b] = np.where(var > 0, (rank_sum - n1 * (n + 1.0) / 2.0) / np.sqrt(var), 0.0)
            auroc[:, a:b] = np.where(n1 * n0 > 0,
                                     (rank_sum - n1 * (n1 + 1.0) / 2.0) / (n1 * n0), 0.5)
    return z, auroc
