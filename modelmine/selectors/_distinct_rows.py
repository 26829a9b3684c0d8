"""Distinct rows of a resample, with their multiplicities: each SVM fitted once per row.

A bootstrap sample repeats rows. The primal of the linear SVM with row i repeated c_i times
equals the one with row i once and the cost C * c_i (Guyon et al. 2002's SVM, libsvm's
``sample_weight``), so SVM-RFE solves over the distinct rows only. Rows are grouped exactly
(a mixed 64-bit hash, then a value check, with a byte-wise fallback); at the last steps of
RFE on sparse data, rows equal on the features still in play are merged too.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray

# Rows of sparse data equal on the features still in play are merged (see
# _merge_on_features) from this many features down, each time the number in play has
# fallen by a third since the last search, and only when at least a tenth of the rows go:
# on a BASEHOCK bootstrap (1,119 distinct rows) 2 % of them are equal on 154 features,
# 9 % on 114, a third on 47 and nine tenths on 8.
_MERGE_MAX_FEATURES = 128
_MERGE_MIN_SHRINK = 0.9


def _distinct_rows(
    X: Any, y: NDArray[Any], counts: NDArray[Any] | None = None
) -> tuple[NDArray[np.intp], NDArray[Any]] | None:
    """Rows of ``(X, y)`` equal in every feature and in the label, merged.

    Returns ``(first, weight)``: the position of each group's first row, groups in the
    order of their first row, and the group's multiplicity (the sum of ``counts`` over its
    rows, 1 per row when None); or None when no two rows are equal.

    Each row gets an integer hash, the sum modulo ``2^64`` over its stored entries of a
    mixed (splitmix64) function of the entry's 64 bits and its column, so equal rows always
    hash alike whatever their storage order; rows grouped by label and hash are then
    compared value for value with their group's first row, and a hash collision falls back
    to comparing the rows' bytes. Dense rows are first grouped by their label and 32 spread
    columns, which settles a whole microarray (no equal rows) and a bootstrap of it
    (its groups are its repeats) without hashing every entry. ``O(nnz)``,
    vectorised. Equal values in different bits (``-0.0`` and ``0.0``), and for sparse rows
    explicit zeros, merely keep rows apart.
    """
    n = X.shape[0]
    y_code = np.unique(np.asarray(y), return_inverse=True)[1].ravel().astype(np.int64)
    salt = _row_hash_salt(X.shape[1])
    if sp.issparse(X):
        Xr = sp.csr_matrix(X, dtype=np.float64)
        bits = np.ascontiguousarray(Xr.data, dtype=np.float64).view(np.uint64)
        running = np.concatenate([[np.uint64(0)], np.cumsum(_mix64(bits ^ salt[Xr.indices]))])
        h = (running[Xr.indptr[1:]] - running[Xr.indptr[:-1]]).view(np.int64)
        first, label = _groups(np.stack([y_code, h], axis=1))
    else:
        Xr = np.asarray(X, dtype=np.float64)
        # rows differing in the label or in one of 32 spread columns differ: most often
        # settled here (colon's values take 3 levels: 8 columns leave 4 pairs of its rows)
        spread = np.unique(np.linspace(0, Xr.shape[1] - 1, min(Xr.shape[1], 32)).astype(int))
        head = Xr[:, spread].view(np.int64)
        first, label = _groups(np.column_stack([y_code, head]))
        if first.shape[0] < n and not _equal_to_first(Xr, first, label):
            h = _mix64(Xr.view(np.uint64) ^ salt[None, :]).sum(axis=1, dtype=np.uint64)
            first, label = _groups(np.stack([y_code, h.view(np.int64)], axis=1))
    if first.shape[0] == n:
        return None
    if not _equal_to_first(Xr, first, label):  # a hash collision
        return _distinct_rows_by_bytes(Xr, y_code, counts)
    weight = np.bincount(label, weights=counts, minlength=first.shape[0])
    return first, _summed(weight, counts)


def _summed(weight: NDArray[Any], counts: NDArray[Any] | None) -> NDArray[Any]:
    """Merged multiplicities as integers when the counts were integers (or None), and as
    the exact float sums when they were sample weights (``C_i = C w_i``)."""
    if counts is None or np.asarray(counts).dtype.kind in "iu":
        return np.rint(weight).astype(np.int64)
    return np.asarray(weight, dtype=np.float64)


def _groups(key: NDArray[np.int64]) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Rows of ``key`` grouped by equal keys: each group's first row, and each row's group,
    groups numbered in the order of their first row."""
    _, first_seen, by_key = np.unique(key, axis=0, return_index=True, return_inverse=True)
    rank = np.empty(first_seen.shape[0], dtype=np.intp)
    rank[np.argsort(first_seen, kind="stable")] = np.arange(first_seen.shape[0])
    return np.sort(first_seen).astype(np.intp), rank[by_key.ravel()]


def _equal_to_first(X: Any, first: NDArray[np.intp], label: NDArray[np.intp]) -> bool:
    """Whether every row of ``X`` equals its group's first row, value for value."""
    lead = first[label]
    moved = np.flatnonzero(lead != np.arange(X.shape[0]))
    if sp.issparse(X):
        diff = X[moved] - X[lead[moved]]
        diff.eliminate_zeros()
        return bool(diff.nnz == 0)
    return bool(np.array_equal(X[moved], X[lead[moved]]))


def _row_hash_salt(p: int) -> NDArray[np.uint64]:
    """``p`` fixed random 64-bit words, one per column (the row hash of
    :func:`_distinct_rows`)."""
    return np.random.default_rng(20261123).integers(0, 2**64, size=max(p, 1), dtype=np.uint64)


def _mix64(u: NDArray[np.uint64]) -> NDArray[np.uint64]:
    """splitmix64's finaliser, elementwise (a bijection of 64-bit words that spreads every
    input bit over the output: float bits of small counts differ in a few high bits only)."""
    u = u ^ (u >> np.uint64(30))
    u = u * np.uint64(0xBF58476D1CE4E5B9)
    u = u ^ (u >> np.uint64(27))
    u = u * np.uint64(0x94D049BB133111EB)
    return u ^ (u >> np.uint64(31))


def _distinct_rows_by_bytes(
    X: Any, y_code: NDArray[np.int64], counts: NDArray[Any] | None
) -> tuple[NDArray[np.intp], NDArray[Any]] | None:
    """:func:`_distinct_rows` by the bytes of each row (the fallback after a collision)."""
    n = X.shape[0]
    if sp.issparse(X):
        Xr = X if X.has_sorted_indices else X.sorted_indices()
        ptr, ind, val = Xr.indptr, Xr.indices, Xr.data
        keys = [
            (int(y_code[i]), ind[ptr[i] : ptr[i + 1]].tobytes(), val[ptr[i] : ptr[i + 1]].tobytes())
            for i in range(n)
        ]
    else:
        keys = [(int(y_code[i]), X[i].tobytes(), b"") for i in range(n)]
    group: dict[Any, int] = {}
    label = np.fromiter((group.setdefault(k, len(group)) for k in keys), np.intp, count=n)
    if len(group) == n:
        return None
    first = np.full(len(group), n, dtype=np.intp)
    np.minimum.at(first, label, np.arange(n, dtype=np.intp))
    weight = np.bincount(label, weights=counts, minlength=len(group))
    return first, _summed(weight, counts)


def _merged(
    X: Any, y: NDArray[Any], counts: NDArray[Any] | None = None
) -> tuple[Any, NDArray[Any], NDArray[np.float64] | None]:
    """``(X, y)`` with equal rows merged (:func:`_distinct_rows`), and the rows' weights:
    their multiplicities (``counts`` summed), or None when every row stands for itself."""
    found = _distinct_rows(X, y, counts)
    if found is not None:
        first, counts = found
        X = X.tocsr()[first] if sp.issparse(X) else X[first]
        y = y[first]
    if counts is None or bool((counts == 1).all()):
        return X, y, None
    return X, y, counts.astype(np.float64)


def _merge_on_features(
    Fs: Any, y: NDArray[Any], weights: NDArray[np.float64] | None
) -> tuple[Any, NDArray[Any], NDArray[np.float64], NDArray[np.float64]] | None:
    """Rows equal on the features in play (``Fs``, feature-major) and in the label, merged
    when that removes at least ``1 - _MERGE_MIN_SHRINK`` of them: ``(Fs over the merged
    rows, their labels, their summed weights, the squared norms of the features over
    them)``, or None.

    Once few features are left, many rows agree on all of them (on sparse text, every
    document using none of the surviving words); the SVM on the features in play is the
    same with equal rows merged (the primal argument of "Distinct rows" in the module
    docstring), and rows equal on these features stay equal on every later subset.
    """
    found = _distinct_rows(Fs.T, y, weights)
    if found is None or found[0].shape[0] > _MERGE_MIN_SHRINK * y.shape[0]:
        return None
    first, counts = found
    F = Fs[:, first]
    if sp.issparse(F):
        F = sp.csr_matrix(F)
        sq = np.asarray(F.multiply(F).sum(axis=1), dtype=np.float64).ravel()
    else:
        F = np.ascontiguousarray(F)
        sq = np.einsum("ij,ij->i", F, F)
    return F, y[first], counts.astype(np.float64), sq


def _first_occurrences(idx: NDArray[np.intp]) -> tuple[NDArray[np.intp], NDArray[np.int64]]:
    """The distinct values of ``idx`` in the order of their first occurrence, and how often
    each occurs."""
    values, first, counts = np.unique(idx, return_index=True, return_counts=True)
    order = np.argsort(first, kind="stable")
    return values[order], counts[order].astype(np.int64)
