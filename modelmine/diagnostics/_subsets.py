"""Stability of subsets: Jaccard, Dice (Kalousis et al. 2007), Kuncheva (2007), Pearson
(Nogueira and Brown 2016); selection frequencies; pairwise similarities for diversity.

The pairwise measures are vectorised: Kuncheva and Pearson need only column sums, Jaccard
and Dice take the overlaps ``Z Z^T`` block by block through the one overlap kernel,
:func:`modelmine.patterns.overlap_blocks`, never a Python loop over pairs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.sparse as sp

from ..patterns import overlap_blocks
from ..validation import check_choice, param_error
from ._coerce import _flag, as_selection_matrix
from ._results import FrequencyResult, StabilityResult

_BLOCK_ROWS = 512


# --------------------------------------------------------------------------------------
# Pairwise building blocks
# --------------------------------------------------------------------------------------


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
    for rows, dense, sparse in overlap_blocks(Z, block_rows=_BLOCK_ROWS):
        idx = np.arange(rows.start, rows.stop)
        if dense is None and full is None:
            # Pairs without overlap score 0: only the stored overlaps matter (none at all
            # when no subset holds a feature: every pair is two empty subsets, counted above)
            if sparse is None:
                continue
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


def _ratio_result(subsets: Any, n_features_in: int | None, pairwise: Any,
                  measure: str) -> StabilityResult:
    """Jaccard or Dice stability of subsets, the pairwise matrix on request."""
    func = f"{measure}_stability"
    Z = as_selection_matrix(subsets, n_features_in, func=func)
    value, full = _ratio_stability(Z, measure, _flag(pairwise, func))
    return StabilityResult(measure, value, Z.shape[0], Z.shape[1], pairwise=full)


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
    subsets: Any, n_features_in: int | None = None, *, pairwise: bool = False
) -> StabilityResult:
    """Average pairwise Jaccard similarity of subsets (Kalousis et al. 2007, Section 3.1).

    ``S_J = 2 / (M (M - 1)) sum_{i<j} |s_i & s_j| / |s_i | s_j|``, in [0, 1]. Two empty
    subsets have similarity 1. On the A2 example of Nogueira and Brown (2016) it is 11/18.

    Parameters
    ----------
    subsets : BaseModels, SignatureSet, bool matrix (M, d) or sequence of index arrays
        See :func:`as_selection_matrix`; at least 2 subsets.
    n_features_in : int, optional
        ``d``, required with index arrays.
    pairwise : bool, default=False
        Also return the ``(M, M)`` matrix of pairwise values (memory ``8 M^2`` bytes).

    Returns
    -------
    StabilityResult
    """
    return _ratio_result(subsets, n_features_in, pairwise, "jaccard")


def dice_stability(
    subsets: Any, n_features_in: int | None = None, *, pairwise: bool = False
) -> StabilityResult:
    """Average pairwise Dice similarity ``2 |s_i & s_j| / (|s_i| + |s_j|)`` of subsets.

    The Dice (Sørensen) coefficient is the similarity used by Dunne et al. (2002) and
    reviewed by Nogueira, Sechidis and Brown (JMLR 2018, Table 1); two empty subsets have
    similarity 1.

    Parameters
    ----------
    subsets : BaseModels, SignatureSet, bool matrix (M, d) or sequence of index arrays
    n_features_in : int, optional
    pairwise : bool, default=False
        Also return the ``(M, M)`` matrix of pairwise values.

    Returns
    -------
    StabilityResult
    """
    return _ratio_result(subsets, n_features_in, pairwise, "dice")


def kuncheva_stability(
    subsets: Any, n_features_in: int | None = None, *, pairwise: bool = False
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
    subsets : BaseModels, SignatureSet, bool matrix (M, d) or sequence of index arrays
    n_features_in : int, optional
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
    Z = as_selection_matrix(subsets, n_features_in, func=func)
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
    subsets: Any, n_features_in: int | None = None, *, pairwise: bool = False
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
    subsets : BaseModels, SignatureSet, bool matrix (M, d) or sequence of index arrays
    n_features_in : int, optional
    pairwise : bool, default=False
        Also return the ``(M, M)`` matrix of pairwise values.

    Returns
    -------
    StabilityResult
    """
    func = "pearson_stability"
    Z = as_selection_matrix(subsets, n_features_in, func=func)
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


def selection_frequency(
    subsets: Any, n_features_in: int | None = None, *, feature_names: Any = None
) -> FrequencyResult:
    """Fraction of the subsets that select each feature (``hat p_f``, Nogueira et al. 2018).

    Parameters
    ----------
    subsets : BaseModels, SignatureSet, bool matrix (M, d) or sequence of index arrays
        At least one subset.
    n_features_in : int, optional
    feature_names : array-like of shape (d,), optional

    Returns
    -------
    FrequencyResult
    """
    func = "selection_frequency"
    Z = as_selection_matrix(subsets, n_features_in, func=func, min_subsets=1)
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
# Pairwise similarity of subsets, for diversity
# --------------------------------------------------------------------------------------

_PAIRWISE_FUNCS: dict[str, Callable[..., StabilityResult]] = {
    "jaccard": jaccard_stability,
    "dice": dice_stability,
    "kuncheva": kuncheva_stability,
    "pearson": pearson_stability,
}
#: The similarities :func:`pairwise_similarity` computes for every pair of subsets.
PAIRWISE_MEASURES = tuple(_PAIRWISE_FUNCS)


def pairwise_similarity(
    subsets: Any, n_features_in: int | None = None, *, measure: str = "jaccard"
) -> StabilityResult:
    """Pairwise similarity matrix and its off-diagonal mean for one subset measure.

    Parameters
    ----------
    subsets : BaseModels, SignatureSet, bool matrix (M, d) or sequence of index arrays
    n_features_in : int, optional
    measure : {'jaccard', 'dice', 'kuncheva', 'pearson'}, default='jaccard'

    Returns
    -------
    StabilityResult
        With ``pairwise`` filled.
    """
    measure = check_choice(measure, "measure", "pairwise_similarity", tuple(_PAIRWISE_FUNCS))
    return _PAIRWISE_FUNCS[measure](subsets, n_features_in, pairwise=True)
