"""The one coercion of the diagnostics' inputs: subsets, rankings and scores.

Every diagnostic takes what the stage before it produced (a :class:`~modelmine.BaseModels`,
a :class:`~modelmine.Signature`, a :class:`~modelmine.SignatureSet`, a sequence of
signatures), a boolean matrix (dense or sparse) or a list of index sets, through
:func:`as_selection_matrix` (subsets) and :func:`as_rankings` / :func:`as_scores`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from ..base_models import BaseModels
from ..operators import Signature, SignatureSet
from ..validation import check_int, param_error

# --------------------------------------------------------------------------------------
# Input handling
# --------------------------------------------------------------------------------------


def _from_stage_objects(obj: Any) -> tuple[Any, int | None]:
    """The boolean matrix behind a stage's object, and p when the object knows it.

    BaseModels: its b subsets; a Signature: one row; a SignatureSet or a sequence of
    Signatures: one row per signature. Anything else is returned as it is.
    """
    if isinstance(obj, BaseModels):
        return obj.subsets, obj.n_features_in
    sigs: list[Signature] | None = None
    if isinstance(obj, Signature):
        sigs = [obj]
    elif isinstance(obj, SignatureSet) or (
            isinstance(obj, (list, tuple)) and obj
            and all(isinstance(s, Signature) for s in obj)):
        sigs = list(obj)
    if sigs is None:
        return obj, None
    sizes = {s.n_features_in for s in sigs}
    p = sizes.pop() if len(sizes) == 1 else None
    if p is None:
        return [s.features for s in sigs], None  # index sets: n_features_in then required
    return np.vstack([s.mask(p) for s in sigs]), p


def as_rankings(data: Any, func: str) -> Any:
    """Full rankings of the features: a BaseModels gives its tied (fractional) ranks."""
    return data.tied_ranks() if isinstance(data, BaseModels) else data


def as_scores(data: Any, func: str) -> Any:
    """Scores of the features: a BaseModels gives its scores (refused when it has none)."""
    if isinstance(data, BaseModels):
        if data.scores is None:
            raise param_error("scores", func, "base models with scores", "base models of "
                              f"the ranking-only selector {data.selector_name!r}",
                              show=False)
        return data.scores
    return data


def as_selection_matrix(
    subsets: Any, n_features_in: int | None = None, *, func: str = "as_selection_matrix",
    name: str = "subsets", min_subsets: int = 2,
) -> np.ndarray:
    """Turn subsets into a boolean selection matrix ``Z`` of shape ``(M, d)``.

    Parameters
    ----------
    subsets : BaseModels, Signature, SignatureSet, sequence of Signatures, array-like of
        shape (M, d) of bool or 0/1 (dense or sparse), or sequence of M index arrays
        What the previous stage produced (base models: their b subsets; signatures: one row
        each), a boolean (or 0/1) matrix whose rows mark the selected features, or ``M``
        arrays of distinct feature indices (then ``n_features_in`` is required). A 2-D integer array
        is read as a 0/1 matrix when it only holds 0 and 1 and has ``n_features_in`` columns
        (or ``n_features_in`` is None), and as rows of indices otherwise.
    n_features_in : int, optional
        Total number of features ``d``; required for index arrays.
    func, name : str
        Function and parameter names used in error messages.
    min_subsets : int, default=2
        Fewest subsets accepted.

    Returns
    -------
    Z : ndarray of shape (M, d), dtype bool
    """
    if n_features_in is not None:
        n_features_in = check_int(n_features_in, "n_features_in", func, min_value=1)
    subsets, known_p = _from_stage_objects(subsets)
    if known_p is not None:
        if n_features_in is not None and n_features_in != known_p:
            raise param_error("n_features_in", func, f"None or {known_p} (the number of "
                              f"features of the {name})", n_features_in)
        n_features_in = known_p
    if hasattr(subsets, "to_numpy") and getattr(subsets, "ndim", 1) == 2:
        subsets = subsets.to_numpy()
    if sp.issparse(subsets):
        subsets = subsets.toarray()
    Z: np.ndarray | None = None
    if isinstance(subsets, np.ndarray) and subsets.ndim == 2:
        Z = _matrix_from_array(subsets, n_features_in, func, name)
    elif isinstance(subsets, (list, tuple)):
        rows = list(subsets)
        if rows and all(isinstance(r, np.ndarray) and r.dtype == bool for r in rows):
            Z = _matrix_from_array(_stack(rows, func, name), n_features_in, func, name)
        elif n_features_in is None:
            try:
                arr = np.asarray(rows)
            except ValueError:
                arr = None
            if arr is None or arr.ndim != 2 or arr.dtype == object:
                raise param_error(
                    "n_features_in", func,
                    "an integer >= 1 when the subsets are given as arrays of feature "
                    "indices", None,
                )
            Z = _matrix_from_array(arr, None, func, name)
        else:
            Z = _matrix_from_indices(rows, n_features_in, func, name)
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
    a: np.ndarray, n_features_in: int | None, func: str, name: str
) -> np.ndarray:
    if a.dtype == bool:
        if n_features_in is not None and a.shape[1] != n_features_in:
            raise param_error(name, func, f"a boolean matrix with {n_features_in} columns",
                              a)
        if a.shape[1] == 0:
            raise param_error(name, func, "a matrix with at least one column", a)
        return np.ascontiguousarray(a)
    if not (np.issubdtype(a.dtype, np.integer) or np.issubdtype(a.dtype, np.floating)):
        raise param_error(name, func, "a boolean or 0/1 matrix, or arrays of feature indices",
                          a, exc=TypeError)
    binary = bool(np.isin(a, (0, 1)).all())
    if binary and (n_features_in is None or a.shape[1] == n_features_in) and a.shape[1] > 0:
        return a.astype(bool)
    if n_features_in is None:
        raise param_error(
            name, func,
            "a boolean or 0/1 matrix (or arrays of feature indices together with "
            "n_features_in)", a,
        )
    return _matrix_from_indices(list(a), n_features_in, func, name)


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
    data = as_rankings(data, func) if kind == "rankings" else as_scores(data, func)
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


def _flag(value: Any, func: str, name: str = "pairwise") -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise param_error(name, func, "a bool", value, exc=TypeError)
    return bool(value)
