"""Stability of a feature selection procedure: subsets, rankings and scores.

Stability is the similarity of the outputs a selector returns on perturbed versions of the
data (bootstrap samples, cross-validation training folds). The measures here follow

- Kalousis, Prados and Hilario (2007), "Stability of feature selection algorithms": average
  pairwise Jaccard similarity of subsets, Spearman correlation of rankings, Pearson
  correlation of scores;
- Kuncheva (2007), "A stability index for feature selection": the consistency index for
  subsets of equal size;
- Nogueira and Brown (ECML 2016), "Measuring the stability of feature selection": pairwise
  Pearson (phi) correlation of selection vectors, with its edge cases;
- Nogueira, Sechidis and Brown (JMLR 2018), "On the stability of feature selection
  algorithms": the estimator for subsets of varying size, its variance, confidence interval
  and two hypothesis tests;
- Jurman et al. (2008), "Algebraic stability indicators for ranked lists in molecular
  profiling": the Canberra distance of rankings, normalised by its value on random lists;
- Salman et al. (2022), "The stability of different aggregation techniques in ensemble
  feature selection": the average standard deviation of feature scores.

Subsets come as a boolean matrix ``Z`` of shape ``(M, d)`` (row ``i`` marks the features of
subset ``i``) or as ``M`` arrays of feature indices plus ``n_features = d``. The pairwise
measures are vectorised: those linear in the overlap (Kuncheva, Pearson, Nogueira) need only
column sums, the others (Jaccard, Dice) take the overlaps ``Z Z^T`` block by block through a
matrix product on the columns that are ever selected (or a sparse product when that is
cheaper), never a Python loop over pairs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.stats import norm

from .._utils import readonly
from ..validation import check_choice, check_int, check_real, param_error

__all__ = [
    "STABILITY_MEASURES",
    "FrequencyResult",
    "NogueiraResult",
    "NogueiraTestResult",
    "StabilityMeasure",
    "StabilityResult",
    "as_selection_matrix",
    "canberra_stability",
    "dice_stability",
    "jaccard_stability",
    "kuncheva_stability",
    "nogueira_compare",
    "nogueira_stability",
    "nogueira_test",
    "pairwise_similarity",
    "pearson_stability",
    "score_pearson_stability",
    "score_std_stability",
    "selection_frequency",
    "spearman_stability",
    "stability",
]

#: Row blocks for the overlap products: bounds the memory of Jaccard / Dice to
#: ``_BLOCK_ROWS * M`` floats whatever the number of subsets.
_BLOCK_ROWS = 512


# --------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------


def _readonly(a: np.ndarray | None) -> np.ndarray | None:
    return None if a is None else readonly(a)


@dataclass(frozen=True, repr=False)
class StabilityResult:
    """Stability of a collection of subsets, rankings or score vectors.

    Attributes
    ----------
    measure : str
        Name of the measure (a key of :data:`STABILITY_MEASURES`).
    value : float
        The stability (or, for ``canberra`` and ``score_std``, the instability: see
        ``higher_is_more_stable``).
    n_subsets : int
        Number ``M`` of subsets / rankings / score vectors compared.
    n_features : int
        Total number ``d`` of features.
    higher_is_more_stable : bool
        Direction of the measure: True for similarities, False for distances.
    pairwise : ndarray of shape (M, M) or None
        The similarity (or distance) of every pair, when asked for with ``pairwise=True``;
        the diagonal holds the value of a subset against itself. Read-only.
    details : mapping
        Measure-specific extras (for example the raw Canberra distance and its expectation
        under random rankings).
    """

    measure: str
    value: float
    n_subsets: int
    n_features: int
    higher_is_more_stable: bool = True
    pairwise: np.ndarray | None = None
    details: Mapping[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _readonly(self.pairwise)
        object.__setattr__(self, "details", MappingProxyType(dict(self.details)))

    def __float__(self) -> float:
        return float(self.value)

    def __repr__(self) -> str:
        extra = "".join(f", {k}={v:.6g}" for k, v in self.details.items())
        return (
            f"StabilityResult(measure={self.measure!r}, value={self.value:.6g}, "
            f"n_subsets={self.n_subsets}, n_features={self.n_features}{extra})"
        )


@dataclass(frozen=True, repr=False)
class NogueiraResult:
    """The Nogueira, Sechidis and Brown (JMLR 2018) stability estimate with its uncertainty.

    Attributes
    ----------
    value : float
        The estimate ``1 - mean_f s_f^2 / (kbar/d (1 - kbar/d))`` (Definition 4 of the paper).
    variance : float
        Its asymptotic variance, the one the paper's Corollary 9 interval uses (see
        ``docs/diagnostics.md`` for the derivation and the sign of the cardinality term).
    confidence_interval : tuple of float
        ``value -+ z_{1 - alpha/2} sqrt(variance)`` (Corollary 9 of the paper).
    confidence_level : float
        ``1 - alpha``.
    n_subsets, n_features : int
        ``M`` and ``d``.
    mean_size : float
        ``kbar``, the mean number of selected features.
    """

    value: float
    variance: float
    confidence_interval: tuple[float, float]
    confidence_level: float
    n_subsets: int
    n_features: int
    mean_size: float

    measure = "nogueira"
    higher_is_more_stable = True

    @property
    def standard_error(self) -> float:
        """Square root of the variance."""
        return math.sqrt(self.variance)

    def interval(self, confidence_level: float) -> tuple[float, float]:
        """The asymptotic normal confidence interval at another level."""
        level = check_real(
            confidence_level, "confidence_level", "NogueiraResult.interval", low=0.0,
            high=1.0, closed="neither",
        )
        assert level is not None
        z = float(norm.ppf(0.5 + level / 2.0))
        return (self.value - z * self.standard_error, self.value + z * self.standard_error)

    def __float__(self) -> float:
        return float(self.value)

    def __repr__(self) -> str:
        lo, hi = self.confidence_interval
        return (
            f"NogueiraResult(value={self.value:.6g}, variance={self.variance:.6g}, "
            f"ci{100 * self.confidence_level:g}=({lo:.6g}, {hi:.6g}), "
            f"n_subsets={self.n_subsets}, n_features={self.n_features}, "
            f"mean_size={self.mean_size:.6g})"
        )


@dataclass(frozen=True)
class NogueiraTestResult:
    """A hypothesis test of Nogueira, Sechidis and Brown (JMLR 2018).

    Attributes
    ----------
    test : str
        ``'value'`` (H0: the population stability equals ``null_value``) or ``'compare'``
        (H0: two procedures have the same population stability).
    statistic : float
        ``V = (Phi_hat - Phi_0) / sqrt(var)`` or ``T = (Phi_hat_2 - Phi_hat_1) /
        sqrt(var_1 + var_2)``; asymptotically standard normal under H0.
    pvalue : float
    alternative : str
        ``'greater'``, ``'less'`` or ``'two-sided'``.
    estimates : tuple of NogueiraResult
        The estimate(s) the statistic is built from.
    null_value : float or None
        ``Phi_0`` for the one-sample test.
    """

    test: str
    statistic: float
    pvalue: float
    alternative: str
    estimates: tuple[NogueiraResult, ...]
    null_value: float | None = None

    def reject(self, alpha: float = 0.05) -> bool:
        """Whether H0 is rejected at level ``alpha``."""
        a = check_real(alpha, "alpha", "NogueiraTestResult.reject", low=0.0, high=1.0,
                       closed="neither")
        assert a is not None
        return bool(self.pvalue < a)


@dataclass(frozen=True, repr=False)
class FrequencyResult:
    """Per-feature selection frequencies over ``M`` subsets.

    Attributes
    ----------
    frequencies : ndarray of shape (d,)
        Fraction of the subsets that contain each feature (``hat p_f`` of Nogueira et al.).
    counts : ndarray of shape (d,)
        Number of subsets that contain each feature.
    n_subsets : int
    feature_names : ndarray of shape (d,) or None
    """

    frequencies: np.ndarray
    counts: np.ndarray
    n_subsets: int
    feature_names: np.ndarray | None = None

    def __post_init__(self) -> None:
        _readonly(self.frequencies)
        _readonly(self.counts)
        _readonly(self.feature_names)

    def to_series(self) -> Any:
        """The frequencies as a pandas Series indexed by feature name (or index), most
        frequent first; ties keep feature order (stable sort)."""
        import pandas as pd

        index = (
            self.feature_names if self.feature_names is not None
            else np.arange(self.frequencies.size)
        )
        s = pd.Series(self.frequencies, index=index, name="frequency")
        order = np.argsort(-self.frequencies, kind="stable")
        return s.iloc[order]

    def top(self, n: int) -> np.ndarray:
        """Indices of the ``n`` most frequently selected features (ties by feature index)."""
        n_ = check_int(n, "n", "FrequencyResult.top", min_value=0,
                       max_value=self.frequencies.size)
        return np.argsort(-self.frequencies, kind="stable")[:n_]

    def __repr__(self) -> str:
        top = self.top(min(5, self.frequencies.size))
        shown = ", ".join(f"{i}: {self.frequencies[i]:.3g}" for i in top)
        return (
            f"FrequencyResult(n_subsets={self.n_subsets}, "
            f"n_features={self.frequencies.size}, top={{{shown}}})"
        )


# --------------------------------------------------------------------------------------
# Input handling
# --------------------------------------------------------------------------------------


def as_selection_matrix(
    subsets: Any, n_features: int | None = None, *, func: str = "as_selection_matrix",
    name: str = "subsets", min_subsets: int = 2,
) -> np.ndarray:
    """Turn subsets into a boolean selection matrix ``Z`` of shape ``(M, d)``.

    Parameters
    ----------
    subsets : array-like of shape (M, d) of bool or 0/1, or sequence of M index arrays
        A boolean (or 0/1) matrix whose rows mark the selected features, or ``M`` arrays
        of distinct feature indices (then ``n_features`` is required). A 2-D integer array
        is read as a 0/1 matrix when it only holds 0 and 1 and has ``n_features`` columns
        (or ``n_features`` is None), and as rows of indices otherwise.
    n_features : int, optional
        Total number of features ``d``; required for index arrays.
    func, name : str
        Function and parameter names used in error messages.
    min_subsets : int, default=2
        Fewest subsets accepted.

    Returns
    -------
    Z : ndarray of shape (M, d), dtype bool
    """
    if n_features is not None:
        n_features = check_int(n_features, "n_features", func, min_value=1)
    if hasattr(subsets, "to_numpy") and getattr(subsets, "ndim", 1) == 2:
        subsets = subsets.to_numpy()
    if sp.issparse(subsets):
        subsets = subsets.toarray()
    Z: np.ndarray | None = None
    if isinstance(subsets, np.ndarray) and subsets.ndim == 2:
        Z = _matrix_from_array(subsets, n_features, func, name)
    elif isinstance(subsets, (list, tuple)):
        rows = list(subsets)
        if rows and all(isinstance(r, np.ndarray) and r.dtype == bool for r in rows):
            Z = _matrix_from_array(_stack(rows, func, name), n_features, func, name)
        elif n_features is None:
            try:
                arr = np.asarray(rows)
            except ValueError:
                arr = None
            if arr is None or arr.ndim != 2 or arr.dtype == object:
                raise param_error(
                    "n_features", func,
                    "an integer >= 1 when the subsets are given as arrays of feature "
                    "indices", None,
                )
            Z = _matrix_from_array(arr, None, func, name)
        else:
            Z = _matrix_from_indices(rows, n_features, func, name)
    if Z is None:
        raise param_error(
            name, func,
            "a boolean matrix of shape (M, d) or a sequence of arrays of feature indices",
            subsets, exc=TypeError,
        )
    if Z.shape[0] < min_subsets:
        raise param_error(
            name, func, f"a collection of at least {min_subsets} subsets",
            f"{Z.shape[0]} subset(s)", show=False,
        )
    return Z


def _stack(rows: list[np.ndarray], func: str, name: str) -> np.ndarray:
    sizes = {r.shape for r in rows}
    if len(sizes) != 1 or rows[0].ndim != 1:
        raise param_error(name, func, "boolean masks of one common length",
                          f"masks of shapes {sorted(sizes)}", show=False)
    return np.vstack(rows)


def _matrix_from_array(
    a: np.ndarray, n_features: int | None, func: str, name: str
) -> np.ndarray:
    if a.dtype == bool:
        if n_features is not None and a.shape[1] != n_features:
            raise param_error(name, func, f"a boolean matrix with {n_features} columns",
                              a)
        if a.shape[1] == 0:
            raise param_error(name, func, "a matrix with at least one column", a)
        return np.ascontiguousarray(a)
    if not (np.issubdtype(a.dtype, np.integer) or np.issubdtype(a.dtype, np.floating)):
        raise param_error(name, func, "a boolean or 0/1 matrix, or arrays of feature indices",
                          a, exc=TypeError)
    binary = bool(np.isin(a, (0, 1)).all())
    if binary and (n_features is None or a.shape[1] == n_features) and a.shape[1] > 0:
        return a.astype(bool)
    if n_features is None:
        raise param_error(
            name, func,
            "a boolean or 0/1 matrix (or arrays of feature indices together with "
            "n_features)", a,
        )
    return _matrix_from_indices(list(a), n_features, func, name)


def _matrix_from_indices(rows: list[Any], d: int, func: str, name: str) -> np.ndarray:
    Z = np.zeros((len(rows), d), dtype=bool)
    for i, r in enumerate(rows):
        idx = np.asarray(r)
        if idx.ndim != 1 or (idx.size and not np.issubdtype(idx.dtype, np.integer)):
            raise param_error(name, func, "a sequence of 1-D arrays of integer feature indices",
                              f"entry {i} = {_short(r)}", show=False, exc=TypeError)
        if idx.size and (idx.min() < 0 or idx.max() >= d):
            raise param_error(name, func, f"feature indices in [0, {d - 1}]",
                              f"entry {i} = {_short(r)}", show=False)
        if np.unique(idx).size != idx.size:
            raise param_error(name, func, "subsets without repeated feature indices",
                              f"entry {i} = {_short(r)}", show=False)
        Z[i, idx] = True
    return Z


def _short(x: Any) -> str:
    text = repr(np.asarray(x).tolist()) if not isinstance(x, str) else repr(x)
    return text if len(text) <= 60 else text[:57] + "..."


def _as_matrix_2d(
    data: Any, func: str, name: str, *, kind: str, min_rows: int = 2
) -> np.ndarray:
    """Rankings or scores: a finite 2-D numeric array with at least ``min_rows`` rows."""
    if hasattr(data, "to_numpy"):
        data = data.to_numpy()
    try:
        a = np.asarray(data, dtype=float)
    except (TypeError, ValueError):
        raise param_error(name, func, f"a 2-D numeric array of {kind} of shape (M, d)", data,
                          exc=TypeError) from None
    if a.ndim != 2 or a.shape[1] == 0:
        raise param_error(name, func, f"a 2-D numeric array of {kind} of shape (M, d)", a)
    if a.shape[0] < min_rows:
        raise param_error(name, func, f"a collection of at least {min_rows} {kind}",
                          f"{a.shape[0]} row(s)", show=False)
    if not np.isfinite(a).all():
        raise param_error(name, func, f"finite {kind}", "non-finite values", show=False)
    return a


def _check_rankings(R: Any, func: str, *, ties: bool = False) -> np.ndarray:
    a = _as_matrix_2d(R, func, "rankings", kind="rankings")
    d = a.shape[1]
    if ties:
        # Fractional rankings: ranks in [1, d], tied features sharing their average rank,
        # so every row still sums to d (d + 1) / 2.
        af = np.asarray(a, dtype=np.float64)
        total = d * (d + 1) / 2.0
        if not (np.all(np.isfinite(af)) and af.min(initial=1) >= 1 and af.max(initial=1) <= d
                and np.allclose(af.sum(axis=1), total, rtol=0, atol=1e-6 * total)):
            raise param_error(
                "rankings", func,
                f"rows of ranks in [1, {d}] (rank 1 = best; ties sharing their average rank)",
                "rows that are not", show=False,
            )
        return af
    expected = np.arange(1, d + 1)
    if not np.array_equal(np.sort(a, axis=1), np.broadcast_to(expected, a.shape)):
        raise param_error(
            "rankings", func,
            f"rows that are permutations of the ranks 1..{d} (rank 1 = best)",
            "rows that are not", show=False,
        )
    return a


# --------------------------------------------------------------------------------------
# Pairwise building blocks
# --------------------------------------------------------------------------------------


def _overlap_blocks(
    Z: np.ndarray,
) -> Iterator[tuple[slice, np.ndarray | None, sp.csr_matrix | None]]:
    """Yield ``(rows, dense, sparse)`` with ``Z[rows] @ Z.T = dense + sparse``, by blocks.

    ``Z Z^T`` is the sum over features of the outer products of the columns, so the
    columns can be split: the ``h`` most frequently selected ones go through a dense BLAS
    product (cost about ``M^2 h``), the rest through a sparse product (cost about
    ``sum_f c_f^2`` over them, ``c_f`` the column counts, with a larger constant). ``h``
    minimises the total; never-selected columns are dropped. Bootstrap selections have a
    few features chosen almost always and a long tail of rare ones, which this split
    serves well. Either part is None when empty.
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
    for start in range(0, M, _BLOCK_ROWS):
        rows = slice(start, min(M, start + _BLOCK_ROWS))
        dense = (D[rows] @ D.T).astype(np.float64) if D is not None else None
        sparse = sp.csr_matrix(S[rows] @ ST) if S is not None else None
        yield rows, dense, sparse


def _ratio_values(
    r: np.ndarray, ki: np.ndarray, kj: np.ndarray, measure: str
) -> np.ndarray:
    """Jaccard ``r / (ki + kj - r)`` or Dice ``2 r / (ki + kj)``; 0 where undefined
    (two empty sets, counted separately)."""
    if measure == "jaccard":
        num, den = r, ki + kj - r
    else:
        num, den = 2.0 * r, ki + kj
    out = np.zeros(np.broadcast_shapes(np.shape(num), np.shape(den)))
    np.divide(num, den, out=out, where=den > 0)
    return out


def _ratio_stability(Z: np.ndarray, measure: str, pairwise: bool) -> tuple[float, Any]:
    M = Z.shape[0]
    k = Z.sum(axis=1).astype(np.float64)
    empty = k == 0
    n_empty = int(empty.sum())
    # Ordered pairs of two empty subsets: similarity 1 by convention.
    total = float(n_empty * (n_empty - 1))
    full = np.empty((M, M)) if pairwise else None
    for rows, dense, sparse in _overlap_blocks(Z):
        idx = np.arange(rows.start, rows.stop)
        if dense is None and full is None:
            # Pairs without overlap score 0: only the stored overlaps matter.
            assert sparse is not None
            coo = sparse.tocoo()
            i = coo.row + rows.start
            off = i != coo.col
            total += float(_ratio_values(coo.data[off].astype(np.float64), k[i[off]],
                                         k[coo.col[off]], measure).sum())
            continue
        R = dense if dense is not None else np.zeros((idx.size, M))
        if sparse is not None:
            R += sparse.toarray()
        S = _ratio_values(R, k[rows, None], k[None, :], measure)
        S[idx - rows.start, idx] = 0.0
        total += float(S.sum())
        if full is not None:
            S[np.ix_(empty[rows], empty)] = 1.0
            S[idx - rows.start, idx] = 1.0
            full[rows] = S
    return total / (M * (M - 1)), full


def _equal_size(Z: np.ndarray, func: str, measure: str) -> int:
    k = Z.sum(axis=1)
    if np.any(k != k[0]):
        raise param_error(
            "subsets", func,
            f"subsets of one common size for the {measure} measure (use 'nogueira' for "
            "subsets of varying size)",
            f"sizes {sorted(set(k.tolist()))[:10]}", show=False,
        )
    return int(k[0])


def _mean_offdiag_dot(U: np.ndarray) -> float:
    """Mean of ``u_i . u_j`` over ordered pairs ``i != j``, in O(M d): no pair loop."""
    M = U.shape[0]
    s = U.sum(axis=0)
    return float((s @ s - np.einsum("ij,ij->", U, U)) / (M * (M - 1)))


def _row_correlation_units(A: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Centred, unit-norm rows; rows with zero variance come back as zeros, flagged."""
    C = A - A.mean(axis=1, keepdims=True)
    norms = np.sqrt(np.einsum("ij,ij->i", C, C))
    constant = norms <= 1e-12 * np.maximum(1.0, np.abs(A).max(axis=1))
    U = np.zeros_like(C)
    np.divide(C, norms[:, None], out=U, where=~constant[:, None])
    return U, constant


def _correlation_with_edges(
    A: np.ndarray, groups: np.ndarray, pairwise: bool
) -> tuple[float, np.ndarray | None]:
    """Average pairwise Pearson correlation of the rows of ``A``.

    Rows of zero variance cannot be correlated. Following Nogueira and Brown (2016,
    Section 4) a pair with exactly one such row scores 0, and a pair of two such rows
    scores 1 when they are of the same kind (``groups``: e.g. both empty or both full
    subsets) and 0 otherwise.
    """
    M = A.shape[0]
    U, constant = _row_correlation_units(A)
    total = _mean_offdiag_dot(U) * (M * (M - 1))
    _, sizes = np.unique(groups[constant], return_counts=True)
    total += float(np.sum(sizes * (sizes - 1.0)))
    value = total / (M * (M - 1))
    full = None
    if pairwise:
        full = U @ U.T
        both = constant[:, None] & constant[None, :]
        same = groups[:, None] == groups[None, :]
        full[both] = same[both].astype(float)
        np.fill_diagonal(full, 1.0)
    return float(value), full


# --------------------------------------------------------------------------------------
# Subset measures
# --------------------------------------------------------------------------------------

def jaccard_stability(
    subsets: Any, n_features: int | None = None, *, pairwise: bool = False
) -> StabilityResult:
    """Average pairwise Jaccard similarity of subsets (Kalousis et al. 2007, Section 3.1).

    ``S_J = 2 / (M (M - 1)) sum_{i<j} |s_i & s_j| / |s_i | s_j|``, in [0, 1]. Two empty
    subsets have similarity 1. On the A2 example of Nogueira and Brown (2016) it is 11/18.

    Parameters
    ----------
    subsets : bool matrix of shape (M, d) or sequence of index arrays
        See :func:`as_selection_matrix`; at least 2 subsets.
    n_features : int, optional
        ``d``, required with index arrays.
    pairwise : bool, default=False
        Also return the ``(M, M)`` matrix of pairwise values (memory ``8 M^2`` bytes).

    Returns
    -------
    StabilityResult
    """
    Z = as_selection_matrix(subsets, n_features, func="jaccard_stability")
    value, full = _ratio_stability(Z, "jaccard", _flag(pairwise, "jaccard_stability"))
    return StabilityResult("jaccard", value, Z.shape[0], Z.shape[1], pairwise=full)


def dice_stability(
    subsets: Any, n_features: int | None = None, *, pairwise: bool = False
) -> StabilityResult:
    """Average pairwise Dice similarity ``2 |s_i & s_j| / (|s_i| + |s_j|)`` of subsets.

    The Dice (Sørensen) coefficient is the similarity used by Dunne et al. (2002) and
    reviewed by Nogueira, Sechidis and Brown (JMLR 2018, Table 1); two empty subsets have
    similarity 1.

    Parameters
    ----------
    subsets : bool matrix of shape (M, d) or sequence of index arrays
    n_features : int, optional
    pairwise : bool, default=False
        Also return the ``(M, M)`` matrix of pairwise values.

    Returns
    -------
    StabilityResult
    """
    Z = as_selection_matrix(subsets, n_features, func="dice_stability")
    value, full = _ratio_stability(Z, "dice", _flag(pairwise, "dice_stability"))
    return StabilityResult("dice", value, Z.shape[0], Z.shape[1], pairwise=full)


def kuncheva_stability(
    subsets: Any, n_features: int | None = None, *, pairwise: bool = False
) -> StabilityResult:
    """Kuncheva's consistency index (Kuncheva 2007, Definition 2), averaged over pairs.

    For subsets of one common size ``k``, ``I_C(s_i, s_j) = (r - k^2/d) / (k - k^2/d)``
    with ``r = |s_i & s_j|``; it corrects for the overlap expected by chance, so a random
    selection scores about 0. It is defined only for equal sizes and ``0 < k < d``: for
    varying sizes use :func:`nogueira_stability`, which reduces to Kuncheva's index when
    the sizes are equal (Nogueira et al. 2018). As ``r`` enters linearly,
    the average needs only the column sums of ``Z``.

    Parameters
    ----------
    subsets : bool matrix of shape (M, d) or sequence of index arrays
    n_features : int, optional
    pairwise : bool, default=False
        Also return the ``(M, M)`` matrix of pairwise values.

    Returns
    -------
    StabilityResult

    Raises
    ------
    ValueError
        If the subsets do not all have the same size, or that size is 0 or ``d``.
    """
    func = "kuncheva_stability"
    Z = as_selection_matrix(subsets, n_features, func=func)
    M, d = Z.shape
    k = _equal_size(Z, func, "Kuncheva")
    if k in (0, d):
        raise param_error("subsets", func,
                          f"subsets of a size strictly between 0 and {d} for the Kuncheva "
                          "index", f"subsets of size {k}", show=False)
    c = Z.sum(axis=0).astype(np.float64)
    mean_r = float((c @ c - M * k) / (M * (M - 1)))
    expected = k * k / d
    value = (mean_r - expected) / (k - expected)
    full = None
    if _flag(pairwise, func):
        Zf = Z.astype(np.float64)
        full = (Zf @ Zf.T - expected) / (k - expected)
    return StabilityResult("kuncheva", value, M, d, pairwise=full)


def pearson_stability(
    subsets: Any, n_features: int | None = None, *, pairwise: bool = False
) -> StabilityResult:
    """Average pairwise Pearson (phi) correlation of selection vectors.

    Nogueira and Brown (ECML 2016), Section 4: ``phi(s_i, s_j) = (r - k_i k_j / d) /
    (d v_i v_j)`` with ``v_i = sqrt(k_i/d (1 - k_i/d))``. It is undefined when a subset is
    empty or holds all features; as in that paper a pair scores 0 when exactly one of its
    subsets is empty or full, and 1 when both are empty or both are full (an empty and a
    full subset score 0, see ``docs/diagnostics.md``). With subsets of one size it equals
    Kuncheva's index. Computed from the centred unit rows in O(M d).

    Parameters
    ----------
    subsets : bool matrix of shape (M, d) or sequence of index arrays
    n_features : int, optional
    pairwise : bool, default=False
        Also return the ``(M, M)`` matrix of pairwise values.

    Returns
    -------
    StabilityResult
    """
    func = "pearson_stability"
    Z = as_selection_matrix(subsets, n_features, func=func)
    M, d = Z.shape
    want = _flag(pairwise, func)
    k = Z.sum(axis=1)
    groups = np.where(k == 0, 0, np.where(k == d, 1, 2))
    if want:
        value, full = _correlation_with_edges(Z.astype(np.float64), groups, True)
        return StabilityResult("pearson", value, M, d, pairwise=full)
    # phi_ij = a_i a_j (r_ij - k_i k_j / d) with a_i = 1 / sqrt(k_i (1 - k_i / d)), so the
    # sum over all ordered pairs of regular subsets is ||Z^T a||^2 - (a . k)^2 / d, and
    # each diagonal term is 1: O(nnz) through a sparse product.
    kf = k.astype(np.float64)
    regular = groups == 2
    a = np.zeros(M)
    a[regular] = 1.0 / np.sqrt(kf[regular] * (1.0 - kf[regular] / d))
    za = sp.csr_matrix(Z).T @ a
    total = float(za @ za - (a @ kf) ** 2 / d - regular.sum())
    _, sizes = np.unique(groups[~regular], return_counts=True)
    total += float(np.sum(sizes * (sizes - 1.0)))
    return StabilityResult("pearson", total / (M * (M - 1)), M, d)


def _nogueira(Z: np.ndarray, confidence_level: float) -> NogueiraResult:
    M, d = Z.shape
    Zs = sp.csr_matrix(Z, dtype=np.float64)  # O(nnz) products below, no dense float copy
    p = np.asarray(Zs.sum(axis=0)).ravel() / M
    k = np.asarray(Zs.sum(axis=1)).ravel()
    kbar = float(p.sum())
    denom = (kbar / d) * (1.0 - kbar / d)
    if denom <= 0.0:
        # Every subset empty, or every subset full: the selections are identical.
        value, variance = 1.0, 0.0
    else:
        value = 1.0 - (M / (M - 1.0)) * float(np.mean(p * (1.0 - p))) / denom
        # Influence of subset i on the estimate (delta method on the U-statistic and on
        # kbar; docs/diagnostics.md). The k_i term enters with +value/2, as in the authors'
        # Python and Matlab code; their R code has the opposite sign, which the derivation
        # refutes (and the coverage test in tests/diagnostics detects).
        phi = (
            Zs @ p / d
            - k * kbar / d**2
            + (value / 2.0) * (2.0 * k * kbar / d**2 - k / d - kbar / d + 1.0)
        ) / denom
        variance = float(4.0 / M**2 * np.sum((phi - phi.mean()) ** 2))
    z = float(norm.ppf(0.5 + confidence_level / 2.0))
    se = math.sqrt(variance)
    return NogueiraResult(
        value=float(value), variance=variance,
        confidence_interval=(float(value - z * se), float(value + z * se)),
        confidence_level=confidence_level, n_subsets=M, n_features=d, mean_size=kbar,
    )


def nogueira_stability(
    subsets: Any, n_features: int | None = None, *, confidence_level: float = 0.95
) -> NogueiraResult:
    """Stability estimate of Nogueira, Sechidis and Brown (JMLR 2018), with variance and CI.

    ``Phi_hat = 1 - (1/d) sum_f s_f^2 / (kbar/d (1 - kbar/d))`` where ``s_f^2 = M/(M-1)
    p_f (1 - p_f)`` is the unbiased variance of the selection of feature ``f`` and ``kbar``
    the mean subset size (Definition 4). It handles subsets of varying size, is 0 in
    expectation for random selections, at most 1, and equals the average pairwise Pearson
    correlation (and Kuncheva's index) when all subsets have the same size.

    The variance is the paper's asymptotic one, ``4/M^2 sum_i (phi_i - phi_bar)^2``,
    and the interval the normal one of Corollary 9, ``Phi_hat -+ z_{1-alpha/2}
    sqrt(var)``. When every subset is empty (or every subset is full) the selections are
    identical: the estimate is 1 with variance 0.

    Parameters
    ----------
    subsets : bool matrix of shape (M, d) or sequence of index arrays
        At least 2 subsets.
    n_features : int, optional
        ``d``, required with index arrays.
    confidence_level : float, default=0.95
        ``1 - alpha`` of the interval.

    Returns
    -------
    NogueiraResult
    """
    func = "nogueira_stability"
    level = check_real(confidence_level, "confidence_level", func, low=0.0, high=1.0,
                       closed="neither")
    assert level is not None
    Z = as_selection_matrix(subsets, n_features, func=func)
    return _nogueira(Z, level)


_ALTERNATIVES = ("greater", "less", "two-sided")


def _normal_pvalue(stat: float, alternative: str) -> float:
    if alternative == "greater":
        return float(norm.sf(stat))
    if alternative == "less":
        return float(norm.cdf(stat))
    return float(min(1.0, 2.0 * norm.sf(abs(stat))))


def _ratio(num: float, var: float) -> float:
    if var > 0.0:
        return num / math.sqrt(var)
    # Degenerate variance: the estimate is exact.
    return 0.0 if num == 0.0 else math.copysign(math.inf, num)


def nogueira_test(
    subsets: Any, null_value: float, n_features: int | None = None, *,
    alternative: str = "greater",
) -> NogueiraTestResult:
    """Test H0: the population stability equals ``null_value`` (Nogueira et al. 2018).

    The statistic ``V = (Phi_hat - Phi_0) / sqrt(var(Phi_hat))`` is asymptotically
    standard normal under H0. The paper tests against H1: stability greater than
    ``Phi_0`` (the default); ``'less'`` and ``'two-sided'`` are also offered.

    Parameters
    ----------
    subsets : bool matrix of shape (M, d) or sequence of index arrays
    null_value : float
        ``Phi_0``, at most 1.
    n_features : int, optional
    alternative : {'greater', 'less', 'two-sided'}, default='greater'

    Returns
    -------
    NogueiraTestResult
    """
    func = "nogueira_test"
    phi0 = check_real(null_value, "null_value", func, high=1.0)
    assert phi0 is not None
    alternative = check_choice(alternative, "alternative", func, _ALTERNATIVES)
    est = _nogueira(as_selection_matrix(subsets, n_features, func=func), 0.95)
    stat = _ratio(est.value - phi0, est.variance)
    return NogueiraTestResult("value", stat, _normal_pvalue(stat, alternative), alternative,
                              (est,), phi0)


def nogueira_compare(
    subsets_1: Any, subsets_2: Any, n_features: int | None = None, *,
    alternative: str = "two-sided",
) -> NogueiraTestResult:
    """Test H0: two procedures have the same population stability (Nogueira et al. 2018,
    Theorem 10).

    ``T = (Phi_hat_2 - Phi_hat_1) / sqrt(var_1 + var_2)`` is asymptotically standard
    normal under H0 when the two collections are independent. Both must be over the same
    ``d`` features; their numbers of subsets may differ. ``'greater'`` means H1: the
    second procedure is more stable.

    Parameters
    ----------
    subsets_1, subsets_2 : bool matrices or sequences of index arrays
    n_features : int, optional
    alternative : {'two-sided', 'greater', 'less'}, default='two-sided'

    Returns
    -------
    NogueiraTestResult
    """
    func = "nogueira_compare"
    alternative = check_choice(alternative, "alternative", func, _ALTERNATIVES)
    Z1 = as_selection_matrix(subsets_1, n_features, func=func, name="subsets_1")
    Z2 = as_selection_matrix(subsets_2, n_features, func=func, name="subsets_2")
    if Z1.shape[1] != Z2.shape[1]:
        raise param_error("subsets_2", func,
                          f"subsets over the same {Z1.shape[1]} features as subsets_1",
                          f"subsets over {Z2.shape[1]} features", show=False)
    e1, e2 = _nogueira(Z1, 0.95), _nogueira(Z2, 0.95)
    stat = _ratio(e2.value - e1.value, e1.variance + e2.variance)
    return NogueiraTestResult("compare", stat, _normal_pvalue(stat, alternative),
                              alternative, (e1, e2))


def selection_frequency(
    subsets: Any, n_features: int | None = None, *, feature_names: Any = None
) -> FrequencyResult:
    """Fraction of the subsets that select each feature (``hat p_f``, Nogueira et al. 2018).

    Parameters
    ----------
    subsets : bool matrix of shape (M, d) or sequence of index arrays
        At least one subset.
    n_features : int, optional
    feature_names : array-like of shape (d,), optional

    Returns
    -------
    FrequencyResult
    """
    func = "selection_frequency"
    Z = as_selection_matrix(subsets, n_features, func=func, min_subsets=1)
    names = None
    if feature_names is not None:
        names = np.asarray(feature_names)
        if names.shape != (Z.shape[1],):
            raise param_error("feature_names", func, f"an array of {Z.shape[1]} names",
                              names)
        names = names.copy()
    counts = Z.sum(axis=0).astype(np.int64)
    return FrequencyResult(counts / Z.shape[0], counts, Z.shape[0], names)


# --------------------------------------------------------------------------------------
# Rankings and scores
# --------------------------------------------------------------------------------------


def spearman_stability(rankings: Any, *, pairwise: bool = False) -> StabilityResult:
    """Average pairwise Spearman rank correlation of full rankings (Kalousis et al. 2007).

    The Pearson correlation of the ranks, in [-1, 1]; without ties it equals
    ``1 - 6 sum_f (r_if - r_jf)^2 / (d (d^2 - 1))``. Tied features may share their average
    rank (fractional ranks, as :meth:`modelmine.BaseModels.tied_ranks` gives): the
    correlation of such ranks is Spearman's coefficient corrected for ties. Computed in
    O(M d).

    Parameters
    ----------
    rankings : array-like, shape (M, d)
        Ranks 1..d (1 = best), ties sharing their average rank.
    pairwise : bool, default=False
        Also return the ``(M, M)`` matrix of pairwise values.

    Returns
    -------
    StabilityResult
    """
    func = "spearman_stability"
    R = _check_rankings(rankings, func, ties=True)
    if R.shape[1] < 2:
        raise param_error("rankings", func, "rankings of at least 2 features", R)
    U, _ = _row_correlation_units(R)
    value = _mean_offdiag_dot(U)
    full = U @ U.T if _flag(pairwise, func) else None
    return StabilityResult("spearman", value, R.shape[0], R.shape[1], pairwise=full)


def _expected_canberra(d: int) -> float:
    """Exact ``E sum_f |a_f - b_f| / (a_f + b_f)`` for two independent random permutations.

    Each position holds an independent uniform pair of ranks in 1..d, so the expectation
    is ``(1/d) sum_{a, b = 1..d} |a - b| / (a + b)``, computed in O(d) blocks of O(d).
    """
    b = np.arange(1, d + 1, dtype=np.float64)
    total = 0.0
    for start in range(0, d, 1024):
        a = b[start:start + 1024, None]
        total += float(np.sum(np.abs(a - b) / (a + b)))
    return total / d


def canberra_stability(rankings: Any, *, pairwise: bool = False) -> StabilityResult:
    """Average pairwise Canberra distance of full rankings, normalised (Jurman et al. 2008).

    ``Ca(r_i, r_j) = sum_f |r_if - r_jf| / (r_if + r_jf)`` weighs disagreements at the top
    of the lists more than at the bottom. The reported value is the average pairwise
    distance divided by its exact expectation for two independent random permutations of
    ``d`` ranks (Jurman et al. 2008, Section 2.2), so 0 means identical rankings and 1 the
    disagreement of random rankings: lower is more stable. The raw mean distance and the
    expectation are in ``details``.

    Parameters
    ----------
    rankings : array-like of int, shape (M, d)
        Rows are permutations of 1..d.
    pairwise : bool, default=False
        Also return the ``(M, M)`` matrix of normalised pairwise distances.

    Returns
    -------
    StabilityResult
    """
    func = "canberra_stability"
    R = _check_rankings(rankings, func)
    M, d = R.shape
    if d < 2:
        raise param_error("rankings", func, "rankings of at least 2 features", R)
    expected = _expected_canberra(d)
    D = np.zeros((M, M))
    for i in range(M - 1):
        # One row against all later rows, vectorised over pairs and features.
        a, b = R[i], R[i + 1:]
        D[i, i + 1:] = np.sum(np.abs(a - b) / (a + b), axis=1)
    D = D + D.T
    raw = float(D.sum() / (M * (M - 1)))
    full = D / expected if _flag(pairwise, func) else None
    return StabilityResult(
        "canberra", raw / expected, M, d, higher_is_more_stable=False, pairwise=full,
        details={"mean_distance": raw, "expected_random": expected},
    )


def score_pearson_stability(scores: Any, *, pairwise: bool = False) -> StabilityResult:
    """Average pairwise Pearson correlation of feature-score vectors (Kalousis et al. 2007).

    A constant score vector cannot be correlated: as for subsets (Nogueira and Brown
    2016), a pair with exactly one constant vector scores 0 and a pair of two constant
    vectors scores 1. Computed in O(M d).

    Parameters
    ----------
    scores : array-like of float, shape (M, d)
    pairwise : bool, default=False
        Also return the ``(M, M)`` matrix of pairwise values.

    Returns
    -------
    StabilityResult
    """
    func = "score_pearson_stability"
    S = _as_matrix_2d(scores, func, "scores", kind="score vectors")
    groups = np.zeros(S.shape[0], dtype=int)
    value, full = _correlation_with_edges(S, groups, _flag(pairwise, func))
    return StabilityResult("score_pearson", value, S.shape[0], S.shape[1], pairwise=full)


def score_std_stability(scores: Any, *, normalize: bool = True) -> StabilityResult:
    """Average standard deviation of the feature scores across runs (Salman et al. 2022).

    ``ASD = (1/d) sum_f sd(x_1f, ..., x_Mf)`` with the sample standard deviation
    (``ddof=1``). With ``normalize=True`` each run's scores are first min-max scaled to
    [0, 1] (a constant run maps to 0), so that selectors with different score scales can
    be compared; the value is then in [0, 0.5*sqrt(M/(M-1))]. Lower is more stable.

    Parameters
    ----------
    scores : array-like of float, shape (M, d)
    normalize : bool, default=True

    Returns
    -------
    StabilityResult
    """
    func = "score_std_stability"
    S = _as_matrix_2d(scores, func, "scores", kind="score vectors")
    if _flag(normalize, func, "normalize"):
        lo = S.min(axis=1, keepdims=True)
        span = S.max(axis=1, keepdims=True) - lo
        S = np.divide(S - lo, span, out=np.zeros_like(S), where=span > 0)
    value = float(np.mean(np.std(S, axis=0, ddof=1)))
    return StabilityResult("score_std", value, S.shape[0], S.shape[1],
                           higher_is_more_stable=False)


def _flag(value: Any, func: str, name: str = "pairwise") -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise param_error(name, func, "a bool", value, exc=TypeError)
    return bool(value)


# --------------------------------------------------------------------------------------
# Pairwise similarity of subsets, for diversity
# --------------------------------------------------------------------------------------

_PAIRWISE_FUNCS: dict[str, Callable[..., StabilityResult]] = {
    "jaccard": jaccard_stability,
    "dice": dice_stability,
    "kuncheva": kuncheva_stability,
    "pearson": pearson_stability,
}


def pairwise_similarity(
    subsets: Any, n_features: int | None = None, *, measure: str = "jaccard"
) -> StabilityResult:
    """Pairwise similarity matrix and its off-diagonal mean for one subset measure.

    Parameters
    ----------
    subsets : bool matrix of shape (M, d) or sequence of index arrays
    n_features : int, optional
    measure : {'jaccard', 'dice', 'kuncheva', 'pearson'}, default='jaccard'

    Returns
    -------
    StabilityResult
        With ``pairwise`` filled.
    """
    measure = check_choice(measure, "measure", "pairwise_similarity", tuple(_PAIRWISE_FUNCS))
    return _PAIRWISE_FUNCS[measure](subsets, n_features, pairwise=True)


# --------------------------------------------------------------------------------------
# Registry
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StabilityMeasure:
    """A registered stability measure.

    Attributes
    ----------
    name : str
    func : callable
        The function computing it.
    input_kind : {'subsets', 'rankings', 'scores'}
        What it takes: selection matrices / index arrays, full rankings, or scores.
    higher_is_more_stable : bool
    reference : str
    """

    name: str
    func: Callable[..., Any]
    input_kind: str
    higher_is_more_stable: bool
    reference: str


STABILITY_MEASURES: Mapping[str, StabilityMeasure] = MappingProxyType({
    m.name: m for m in (
        StabilityMeasure("jaccard", jaccard_stability, "subsets", True,
                         "Kalousis et al. 2007"),
        StabilityMeasure("dice", dice_stability, "subsets", True, "Dunne et al. 2002"),
        StabilityMeasure("kuncheva", kuncheva_stability, "subsets", True, "Kuncheva 2007"),
        StabilityMeasure("pearson", pearson_stability, "subsets", True,
                         "Nogueira and Brown 2016"),
        StabilityMeasure("nogueira", nogueira_stability, "subsets", True,
                         "Nogueira, Sechidis and Brown 2018"),
        StabilityMeasure("spearman", spearman_stability, "rankings", True,
                         "Kalousis et al. 2007"),
        StabilityMeasure("canberra", canberra_stability, "rankings", False,
                         "Jurman et al. 2008"),
        StabilityMeasure("score_pearson", score_pearson_stability, "scores", True,
                         "Kalousis et al. 2007"),
        StabilityMeasure("score_std", score_std_stability, "scores", False,
                         "Salman et al. 2022"),
    )
})


def stability(
    data: Any, measure: str = "nogueira", *, n_features: int | None = None, **kwargs: Any
) -> StabilityResult | NogueiraResult:
    """Stability of a collection of subsets, rankings or scores, by measure name.

    Parameters
    ----------
    data : array-like
        Subsets (bool matrix ``(M, d)`` or index arrays) for ``'jaccard'``, ``'dice'``,
        ``'kuncheva'``, ``'pearson'``, ``'nogueira'``; full rankings ``(M, d)`` for
        ``'spearman'`` and ``'canberra'``; scores ``(M, d)`` for ``'score_pearson'`` and
        ``'score_std'``.
    measure : str, default='nogueira'
        A key of :data:`STABILITY_MEASURES`.
    n_features : int, optional
        ``d`` when subsets are given as index arrays.
    **kwargs
        Passed to the measure's function (``pairwise``, ``confidence_level``,
        ``normalize``).

    Returns
    -------
    StabilityResult or NogueiraResult
    """
    name = check_choice(measure, "measure", "stability", tuple(STABILITY_MEASURES))
    info = STABILITY_MEASURES[name]
    if info.input_kind == "subsets":
        return info.func(data, n_features, **kwargs)
    if n_features is not None:
        n = check_int(n_features, "n_features", "stability", min_value=1)
        width = np.shape(data)[-1] if np.ndim(data) == 2 else None
        if width != n:
            raise param_error("n_features", "stability",
                              f"None or the number of columns of the {info.input_kind}",
                              n_features)
    return info.func(data, **kwargs)
