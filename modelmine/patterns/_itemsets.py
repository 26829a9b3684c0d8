"""Transactions and itemsets: what the miners read and what they return.

The b selected subsets of the base models are transactions (KDD 2012, section 2.1);
:class:`Itemsets` holds the frequent, closed or maximal itemsets mined from them, in one
canonical order, with their supports. The miners are in ``_mining.py``.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Iterator, Sequence
from functools import cached_property
from itertools import pairwise
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp

from ..validation import check_int, param_error

__all__ = ["Itemsets", "TooManyItemsetsError", "Transactions", "as_transactions"]


# --------------------------------------------------------------------------------------------
# Input
# --------------------------------------------------------------------------------------------


class Transactions:
    """A transaction database as a CSR boolean matrix (b, p) plus item names.

    Internal helper of :func:`mine_itemsets`; kept so that results can answer
    ``models_containing`` without copying the caller's data.
    """

    def __init__(self, matrix: sp.csr_matrix, feature_names: np.ndarray) -> None:
        matrix = sp.csr_matrix(matrix, dtype=bool)
        matrix.sum_duplicates()
        matrix.sort_indices()
        self.matrix = matrix
        self.feature_names = feature_names

    @property
    def n_transactions(self) -> int:
        return int(self.matrix.shape[0])

    @property
    def n_items(self) -> int:
        return int(self.matrix.shape[1])

    @cached_property
    def item_counts(self) -> np.ndarray:
        return np.asarray(self.matrix.sum(axis=0)).ravel().astype(np.int64)

    @cached_property
    def csc(self) -> sp.csc_matrix:
        out = self.matrix.tocsc()
        out.sort_indices()
        return out

    def rows_containing(self, items: np.ndarray) -> np.ndarray:
        """Indices of the transactions that contain every item of ``items``."""
        if len(items) == 0:
            return np.arange(self.n_transactions)
        csc = self.csc
        cols = sorted(items.tolist(), key=lambda j: csc.indptr[j + 1] - csc.indptr[j])
        rows = csc.indices[csc.indptr[cols[0]] : csc.indptr[cols[0] + 1]]
        for j in cols[1:]:
            if len(rows) == 0:
                break
            rows = np.intersect1d(rows, csc.indices[csc.indptr[j] : csc.indptr[j + 1]],
                                  assume_unique=True)
        return rows.astype(np.intp)

    def lists(self, items: np.ndarray | None = None) -> list[list[int]]:
        """Transactions as lists of item indices, restricted to ``items`` when given."""
        m = self.matrix if items is None else self.matrix[:, items]
        idx = m.indices if items is None else items[m.indices]
        return [idx[m.indptr[i] : m.indptr[i + 1]].tolist() for i in range(m.shape[0])]


def as_transactions(data: Any, func: str = "mine_itemsets") -> Transactions:
    """Turn any accepted input into :class:`Transactions`.

    Accepted: an object with ``.subsets`` (bool array (b, p)) and ``.feature_names``
    (a BaseModels), a boolean matrix (numpy or scipy.sparse, rows = transactions), or a
    list of item sets (iterables of hashable items, mapped to indices in sorted order).
    """
    if isinstance(data, Transactions):
        return data
    names: np.ndarray | None = None
    if hasattr(data, "subsets") and not isinstance(data, np.ndarray):
        given = getattr(data, "feature_names", None)
        names = None if given is None else np.asarray(given, dtype=object)
        data = data.subsets
    if sp.issparse(data):
        matrix = sp.csr_matrix(data)
        if matrix.dtype != bool:
            if matrix.nnz and not np.isin(matrix.data, (0, 1)).all():
                raise param_error("data", func, "a boolean (0/1) transaction matrix", data)
            matrix = matrix.astype(bool)
    elif isinstance(data, np.ndarray) or (
        isinstance(data, Sequence) and len(data) and isinstance(data[0], np.ndarray)
        and np.ndim(data[0]) == 1 and np.asarray(data[0]).dtype == bool
    ):
        arr = np.asarray(data)
        if arr.ndim != 2:
            raise param_error("data", func, "a 2-d boolean transaction matrix (b, p)", arr)
        if arr.dtype != bool:
            if not (np.issubdtype(arr.dtype, np.number) and np.isin(arr, (0, 1)).all()):
                raise param_error("data", func, "a boolean (0/1) transaction matrix", arr)
            arr = arr.astype(bool)
        # One pass over the dense matrix (scipy's own conversion makes two).
        flat = np.flatnonzero(arr)
        indptr = np.zeros(arr.shape[0] + 1, np.int64)
        np.cumsum(np.bincount(flat // max(arr.shape[1], 1), minlength=arr.shape[0]),
                  out=indptr[1:])
        matrix = sp.csr_matrix((np.ones(len(flat), bool), flat % max(arr.shape[1], 1),
                                indptr), shape=arr.shape)
    elif isinstance(data, Iterable) and not isinstance(data, (str, bytes)):
        try:
            tracts = [set(t) for t in data]
        except TypeError:  # an item that is itself a list (or a transaction that is a number)
            bad = next(t for t in data if not _hashable_items(t))
            raise param_error("data", func, "a list of item sets of hashable items (strings, "
                              "numbers)", f"an item set {bad!r}"[:120], exc=TypeError,
                              show=False) from None
        labels = sorted(set().union(*tracts), key=_sort_key) if tracts else []
        code = {v: k for k, v in enumerate(labels)}
        indptr = np.zeros(len(tracts) + 1, dtype=np.int64)
        np.cumsum([len(t) for t in tracts], out=indptr[1:])
        indices = np.fromiter((code[v] for t in tracts for v in sorted(t, key=code.__getitem__)),
                              dtype=np.int32, count=int(indptr[-1]))
        matrix = sp.csr_matrix((np.ones(len(indices), bool), indices, indptr),
                               shape=(len(tracts), len(labels)))
        names = np.array([str(v) for v in labels], dtype=object)
    else:
        raise param_error("data", func, "a BaseModels, a boolean matrix or a list of item sets",
                          data, exc=TypeError)
    if matrix.shape[0] == 0:
        raise param_error("data", func, "a non-empty set of transactions",
                          "an empty transaction set", show=False)
    if names is None or len(names) != matrix.shape[1]:
        names = np.array([str(j) for j in range(matrix.shape[1])], dtype=object)
    return Transactions(matrix, names)


def _hashable_items(t: Any) -> bool:
    try:
        set(t)
    except TypeError:
        return False
    return True


def _sort_key(v: Any) -> tuple[int, Any]:
    # Numbers before strings, each in natural order: deterministic for mixed labels too.
    if isinstance(v, numbers.Real) and not isinstance(v, bool):
        return (0, v)
    return (1, str(v))


# --------------------------------------------------------------------------------------------
# Result
# --------------------------------------------------------------------------------------------


class Itemsets:
    """Itemsets mined from the base models, stored compactly (CSR) with their supports.

    Itemset ``i`` holds the feature indices ``indices[indptr[i]:indptr[i+1]]`` (ascending)
    and occurs in ``counts[i]`` of the ``n_transactions`` transactions. Itemsets are ordered
    by support descending, then length descending, then lexicographically on the sorted
    feature indices (ties never depend on hash order).

    Built by :func:`mine_itemsets`; see Woznica et al., KDD 2012, Section 3.2.
    """

    def __init__(
        self, indptr: np.ndarray, indices: np.ndarray, counts: np.ndarray, *,
        itemset_type: str,
        min_count: int, max_len: int | None, transactions: Transactions, backend: str,
    ) -> None:
        for arr in (indptr, indices, counts):
            arr.setflags(write=False)
        self._indptr = indptr
        self._indices = indices
        self._counts = counts
        self._itemset_type = itemset_type
        self._min_count = min_count
        self._max_len = max_len
        self._transactions = transactions
        self._backend = backend

    # -- stored fields ------------------------------------------------------------------
    @property
    def indptr(self) -> np.ndarray:
        """CSR row pointer (int64, length ``len(self) + 1``)."""
        return self._indptr

    @property
    def indices(self) -> np.ndarray:
        """CSR item indices (int32), ascending within each itemset."""
        return self._indices

    @property
    def counts(self) -> np.ndarray:
        """Absolute supports: number of transactions containing each itemset."""
        return self._counts

    @property
    def itemset_type(self) -> str:
        """'frequent', 'closed' or 'maximal'."""
        return self._itemset_type

    @property
    def min_count(self) -> int:
        """The minimum absolute support used."""
        return self._min_count

    @property
    def max_len(self) -> int | None:
        """The maximum itemset length used (None: unbounded)."""
        return self._max_len

    @property
    def backend(self) -> str:
        """The backend that mined these itemsets ('lcm', 'pyfim' or 'mlxtend')."""
        return self._backend

    @property
    def n_transactions(self) -> int:
        """Number of transactions (base models) b."""
        return self._transactions.n_transactions

    @property
    def feature_names(self) -> np.ndarray:
        """Names of the p items (features)."""
        return self._transactions.feature_names

    @property
    def transactions(self) -> sp.csr_matrix:
        """The transactions as a boolean CSR matrix (b, p)."""
        return self._transactions.matrix

    # -- derived, lazily ------------------------------------------------------------------
    @cached_property
    def support(self) -> np.ndarray:
        """Supports as fractions of the b transactions (float64)."""
        out = self._counts / self.n_transactions
        out.setflags(write=False)
        return out

    @cached_property
    def lengths(self) -> np.ndarray:
        """Number of items of each itemset."""
        out = np.diff(self._indptr)
        out.setflags(write=False)
        return out

    @cached_property
    def itemsets(self) -> tuple[tuple[int, ...], ...]:
        """All itemsets as tuples of feature indices (built once, on first access)."""
        flat = self._indices.tolist()
        bounds = self._indptr.tolist()
        return tuple(tuple(flat[a:b]) for a, b in pairwise(bounds))

    def __len__(self) -> int:
        return len(self._counts)

    def __getitem__(self, i: int) -> tuple[int, ...]:
        return tuple(self.items_of(i).tolist())

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        for i in range(len(self)):
            yield self[i]

    def __repr__(self) -> str:
        return (f"Itemsets(itemset_type={self._itemset_type!r}, n_itemsets={len(self)}, "
                f"min_count={self._min_count}, n_transactions={self.n_transactions}, "
                f"backend={self._backend!r})")

    def _check_index(self, i: Any, func: str) -> int:
        return int(check_int(i, "i", func, min_value=-len(self), max_value=len(self) - 1)) % max(
            len(self), 1)

    def items_of(self, i: int) -> np.ndarray:
        """Item indices of itemset ``i`` (a read-only view into ``indices``)."""
        i = self._check_index(i, "Itemsets.items_of")
        return self._indices[self._indptr[i] : self._indptr[i + 1]]

    def names_of(self, i: int) -> tuple[str, ...]:
        """Feature names of itemset ``i``."""
        return tuple(str(n) for n in self.feature_names[self.items_of(i)])

    def models_containing(self, i: int) -> np.ndarray:
        """Indices of the base models (transactions) that contain itemset ``i``."""
        return self._transactions.rows_containing(self.items_of(i))

    def to_frame(self) -> pd.DataFrame:
        """A DataFrame with columns itemset (feature names), items, support, count, length."""
        names = self.feature_names
        items = self.itemsets
        return pd.DataFrame({
            "itemset": [tuple(str(n) for n in names[list(t)]) for t in items],
            "items": list(items),
            "support": self.support,
            "count": self._counts,
            "length": self.lengths,
        })

    def to_sparse(self) -> sp.csr_matrix:
        """Itemsets as a boolean CSR matrix (n_itemsets, p)."""
        return sp.csr_matrix(
            (np.ones(len(self._indices), bool), self._indices, self._indptr),
            shape=(len(self), self._transactions.n_items))


class TooManyItemsetsError(ValueError):
    """Raised by the ``max_itemsets`` guard of :func:`mine_itemsets`; ``n_itemsets`` is the
    number of itemsets the run would have produced when it was counted, a lower bound
    otherwise: ``max_itemsets + 1`` when the 'lcm' enumeration stopped at the limit, the
    frequent count for mlxtend's closed route."""

    def __init__(self, message: str, *, n_itemsets: int):
        super().__init__(message)
        self.n_itemsets = n_itemsets
