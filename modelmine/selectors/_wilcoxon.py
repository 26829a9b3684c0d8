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

from ._singlecell import rank_entries, rank_sum_auroc, rank_sum_z, rank_sums

__all__ = ["wilcoxon_by_group"]


def wilcoxon_by_group(X: Any, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The Wilcoxon rank-sum z (tie-corrected) and AUROC of every column of X, each group
    against the rest (Mann and Whitney 1947), all groups from one ranking.

    The zeros of a column share one mid-rank, so only the non-zero entries are sorted (one
    ``lexsort`` of all of them, by column then value) and the matrix is never densified;
    negative values rank below the zeros. The rank sums are the selector's
    (:func:`~modelmine.selectors._singlecell.rank_sums`, one kernel).
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
        per_col = np.bincount(X.indices, minlength=X.shape[1])
        ends = np.r_[0, np.cumsum(per_col)]
        return _by_blocks(lambda a, b: X[:, a:b], ends, X.shape[1], codes)
    Xc = sp.csc_matrix(X)  # float32 stays float32; each block is sorted in float64
    Xc.eliminate_zeros()
    if Xc.nnz > _BLOCK_NNZ:  # blocks of columns: the sort's memory stays bounded
        return _by_blocks(lambda a, b: Xc[:, a:b], Xc.indptr, Xc.shape[1], codes)
    return _wilcoxon_block(Xc, codes)


def _by_blocks(block: Any, ends: np.ndarray, p: int,
               codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_wilcoxon_block` on consecutive blocks of columns of at most
    ``_BLOCK_NNZ`` non-zero entries (``ends``: the cumulative entries before each column;
    ``block(a, b)``: columns a..b-1)."""
    parts = []
    a = 0
    while a < p:
        b = max(int(np.searchsorted(ends, ends[a] + _BLOCK_NNZ, side="right")) - 1, a + 1)
        parts.append(_wilcoxon_block(block(a, b), codes))
        a = b
    return (np.concatenate([z for z, _ in parts], axis=1),
            np.concatenate([u for _, u in parts], axis=1))


#: Non-zero entries sorted at once by :func:`wilcoxon_by_group` (about 250 MiB of work
#: arrays): larger matrices are taken a block of columns at a time.
_BLOCK_NNZ = 1 << 22


def _wilcoxon_block(Xc: Any, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`wilcoxon_by_group` on a block of columns: the one rank-sum kernel
    (:func:`~modelmine.selectors._singlecell.rank_sums`) on its sorted non-zero entries."""
    rank_sum, n1, N, factor = rank_sums(rank_entries(Xc), codes,
                                        np.arange(int(codes.max()) + 1))
    return rank_sum_z(rank_sum, n1, N, factor), rank_sum_auroc(rank_sum, n1, N)
