"""One linear kernel shared by the resamples of a data set: svm-rfe and svm per resample.

``prepare`` of the svm-rfe and svm selectors computes the linear kernel of sparse data once
(:func:`linear_kernel`); each resample's fit gathers its rows from it
(:func:`svm_rfe_rows`, :func:`svm_weights_rows`), equal to :func:`svm_rfe` and
:func:`svm_weights` on ``X[rows]`` (KDD 2012, Section 5; docs/selectors_svm_rfe.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray

from .._utils import readonly as _readonly
from ..validation import param_error
from ._distinct_rows import _distinct_rows, _first_occurrences
from ._svm_rfe import (
    SVMRFEResult,
    _check_common,
    _check_rfe,
    _check_solver,
    _svm_rfe,
    _svm_weights,
)
from ._svm_solver import _fast_sklearn, _feature_major, _gram, _one_blas_thread

__all__ = ["LinearKernel", "linear_kernel", "svm_rfe_rows", "svm_weights_rows"]


@dataclass(frozen=True, eq=False)  # an n x n array: compared by identity, never by value
class LinearKernel:
    """The linear kernel ``X X^T`` of one data set, computed once and shared by the SVM
    fits on its resamples (issue 15).

    All the bootstraps of :func:`modelmine.bootstrap` draw rows of the same data, and the
    kernel of a resample ``X[rows]`` is the sub-matrix ``K[rows][:, rows]`` of the data's
    kernel: an ``n^2`` gather instead of a product over all the features. Built by
    :func:`linear_kernel`; :func:`svm_rfe_rows` and :func:`svm_weights_rows` use it.

    Attributes
    ----------
    matrix : ndarray of shape (n_samples, n_samples), float64, read-only
        ``X X^T``, entry for entry the value :func:`svm_rfe` computes on any resample.
    """

    matrix: NDArray[np.float64]

    @property
    def n_samples(self) -> int:
        """Number of rows of the data set the kernel belongs to."""
        return int(self.matrix.shape[0])

    def of_rows(self, rows: NDArray[np.intp]) -> NDArray[np.float64]:
        """The kernel of ``X[rows]`` (rows may repeat): a new C-ordered, writable array."""
        return self.matrix.take(rows, axis=0).take(rows, axis=1)


def linear_kernel(X: Any) -> LinearKernel | None:
    """The shared linear kernel of ``X`` for :func:`svm_rfe_rows`, or None (dense ``X``).

    Only for sparse ``X``: the sparse product behind the kernel sums each entry over the
    features in increasing order, whatever the other rows are, so the sub-matrix of a
    resample's rows equals, bit for bit, the kernel computed on the resample itself, and
    the SVM-RFE ranking is exactly that of :func:`svm_rfe` on ``X[rows]``. BLAS promises no
    such thing for dense data (its blocking and kernels depend on the shape), so dense
    resamples keep computing their own kernel; on microarrays (n < 200) it is cheap.

    Parameters
    ----------
    X : scipy.sparse matrix of shape (n_samples, n_features_in), or ndarray
        The data whose resamples will be fitted.

    Returns
    -------
    LinearKernel or None
        Its ``n x n`` matrix takes ``8 n^2`` bytes (26 MB for a BASEHOCK training fold).
    """
    if not sp.issparse(X):
        return None
    with _one_blas_thread():
        return LinearKernel(matrix=_readonly(_gram(_feature_major(X)[0])))


def _check_rows(kernel: LinearKernel, X: Any, rows: Any, func: str) -> NDArray[np.intp]:
    if not isinstance(kernel, LinearKernel):
        raise param_error(
            "kernel", func, "a LinearKernel (from linear_kernel)", kernel, exc=TypeError
        )
    if X.shape[0] != kernel.n_samples:
        raise param_error(
            "X",
            func,
            f"a matrix of {kernel.n_samples} rows, the rows of the kernel",
            f"a matrix of {X.shape[0]} rows",
            show=False,
        )
    idx = np.asarray(rows)
    if (
        idx.ndim != 1
        or idx.dtype.kind not in "iu"
        or idx.size == 0
        or (idx.min() < 0 or idx.max() >= kernel.n_samples)
    ):
        raise param_error(
            "rows", func, f"a non-empty 1-D array of row indices in [0, {kernel.n_samples})", rows
        )
    return idx.astype(np.intp, copy=False)


def _distinct_resample(
    kernel: LinearKernel, X: Any, y: NDArray[Any], idx: NDArray[np.intp]
) -> tuple[NDArray[np.intp], NDArray[np.float64], Any, NDArray[Any], NDArray[np.float64] | None]:
    """The distinct rows of the resample ``X[idx], y[idx]`` with their multiplicities:
    ``(rows, K, X[rows], y[rows], weights)``, ``K`` gathered from the shared kernel.

    Repeated indices are merged first (``np.unique``, groups in the order of their first
    draw), then distinct indices whose rows are equal (:func:`_merged`): the same rows, in
    the same order and with the same weights, as :func:`svm_rfe` merges in ``X[idx]``.
    """
    rows, counts = _first_occurrences(idx)
    Xd, yd = X[rows], y[rows]
    found = _distinct_rows(Xd, yd, counts)
    if found is not None:
        first, counts = found
        rows, Xd, yd = rows[first], Xd[first], yd[first]
    weights = None if bool((counts == 1).all()) else counts.astype(np.float64)
    return rows, kernel.of_rows(rows), Xd, yd, weights


def svm_rfe_rows(
    kernel: LinearKernel,
    X: Any,
    y: NDArray[Any],
    rows: NDArray[np.intp],
    *,
    C: float = 0.5,
    step: int | float = 0.1,
    step_rule: str = "original",
    n_features_to_select: int = 1,
    tol: float = 1e-3,
    solver: str = "libsvm",
) -> SVMRFEResult:
    """SVM-RFE on the resample ``X[rows], y[rows]``, its kernel taken from ``kernel``.

    Exactly :func:`svm_rfe` on ``X[rows], y[rows]`` (the same distinct rows with the same
    multiplicities, the same kernel entry for entry, the same libsvm fits), without the
    kernel product over all the features: the SVMRFE base selector of Woznica, Nguyen and
    Kalousis (KDD 2012, Section 5) fitted on the b resamples of one data set, as issue 15
    asks ("the fold's linear kernel once"). The resample's distinct rows are fitted once
    each, weighted by their multiplicity (``C_i = C m_i``: the same SVM, see "Distinct
    rows" in the module docstring), so only their kernel is gathered.

    Parameters
    ----------
    kernel : LinearKernel
        ``linear_kernel(X)``.
    X : scipy.sparse matrix of shape (n_samples, n_features_in)
        The data ``kernel`` was computed on.
    y : ndarray of shape (n_samples,), int
        Class codes of all the rows of ``X``.
    rows : ndarray of int, 1-D
        The resample's row indices (repeats allowed).
    C, step, step_rule, n_features_to_select, tol, solver
        As :func:`svm_rfe`.

    Returns
    -------
    SVMRFEResult
        Equal to ``svm_rfe(X[rows], y[rows], ...)``.
    """
    func = "svm_rfe_rows"
    idx = _check_rows(kernel, X, rows, func)
    args = _check_rfe(X, C, step, step_rule, n_features_to_select, tol, func)
    solver = _check_solver(solver, func)
    with _one_blas_thread(), _fast_sklearn():
        _, K0, Xd, yd, weights = _distinct_resample(kernel, X, np.asarray(y), idx)
        return _svm_rfe(Xd, yd, *args, K0=K0, weights=weights, solver=solver)


def svm_weights_rows(
    kernel: LinearKernel,
    X: Any,
    y: NDArray[Any],
    rows: NDArray[np.intp],
    *,
    C: float = 0.5,
    tol: float = 1e-3,
) -> NDArray[np.float64]:
    """SVMONE scores on the resample ``X[rows], y[rows]``, its kernel taken from ``kernel``.

    Exactly :func:`svm_weights` on ``X[rows], y[rows]`` (KDD 2012, Section 5, "SVMONE"),
    the kernel of the resample's distinct rows gathered from ``linear_kernel(X)`` instead
    of recomputed, each row weighted by its multiplicity as :func:`svm_weights` does.

    Parameters
    ----------
    kernel, X, y, rows
        As :func:`svm_rfe_rows`.
    C, tol
        As :func:`svm_weights`.

    Returns
    -------
    ndarray of shape (n_features,), float64
        Equal to ``svm_weights(X[rows], y[rows], ...)``.
    """
    func = "svm_weights_rows"
    idx = _check_rows(kernel, X, rows, func)
    C, tol = _check_common(C, tol, func)
    with _one_blas_thread(), _fast_sklearn():
        _, K0, Xd, yd, weights = _distinct_resample(kernel, X, np.asarray(y), idx)
        return _svm_weights(Xd, yd, C, tol, K=K0, weights=weights)
