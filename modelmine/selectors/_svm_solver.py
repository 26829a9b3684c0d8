"""The linear SVM of SVM-RFE and SVMONE: the dual on a precomputed kernel, down-dated.

Guyon et al. (Machine Learning 46, 2002) refit a linear SVM at every step of RFE; KDD 2012
(Woznica, Nguyen and Kalousis, Section 5) uses SVM-RFE and SVMONE with C = 0.5. This module
holds the solver that :mod:`modelmine.selectors._svm_rfe` runs at each step: libsvm's SMO on
the precomputed linear kernel (``SVC(kernel="precomputed")``: the same dual as
``SVC(kernel="linear")``), an interior-point fallback where SMO stalls, the kernel's
down-dating when features are removed, and the primal weights recovered from the dual.
See the module docstring of ``_svm_rfe.py`` for why and for the error bounds.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray
from scipy.linalg import cho_factor, cho_solve
from sklearn import config_context
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC
from threadpoolctl import ThreadpoolController

from ..validation import param_error

# Recompute the kernel from scratch once the surviving mass is below this fraction of the
# mass at the last recomputation (see the module docstring for the error bound).
_RECOMPUTE_MASS_RATIO = 1.0 / 16.0

# A multiply-add of a sparse-sparse product, with the scatter of its entries into the
# kernel, costs about this many of a sparse-dense product's (with its n^2 subtraction):
# 30-90 ns against 3-4 ns, measured on blocks of rare to common words of a BASEHOCK
# bootstrap (1,793 rows, a 26 MB kernel), scipy 1.17.
_SPARSE_PRODUCT_COST = 20.0

# The interior-point fallback (see _dual_interior_point): iteration limit and relative
# tolerance on the complementarity gap and the residuals.
_IPM_MAX_ITER = 100
_IPM_TOL = 1e-10

# The libsvm iteration cap (see _smo_iteration_cap): an SMO iteration on a precomputed
# kernel of n rows costs about _SMO_COST_PER_ROW * n flops at the speed of a BLAS Cholesky
# (16 us per iteration at n = 2,080 against 0.75 s per factorisation of that kernel, raw
# madelon, numpy's OpenBLAS on one thread, same process), and an interior-point solve
# takes about _IPM_TYPICAL_ITER factorisations (27 on raw madelon, 20-40 on raw
# microarrays).
_SMO_COST_PER_ROW = 30.0
_IPM_TYPICAL_ITER = 30.0
_SMO_MIN_CAP = 100_000


_CONTROLLER: list[ThreadpoolController] = []


def _one_blas_thread() -> Any:
    """Context limiting BLAS to one thread.

    The products here are ``n x n`` with small ``n``: threads buy nothing, and on a loaded
    machine OpenBLAS's waiting threads cost ten times the work (measured on leukemia);
    bootstraps run in parallel processes anyway. The controller inspects the loaded
    libraries (a few milliseconds), so it is built once, on first use, not on import.
    """
    if not _CONTROLLER:
        _CONTROLLER.append(ThreadpoolController())
    return _CONTROLLER[0].limit(limits=1, user_api="blas")


def _fast_sklearn() -> Any:
    # The kernel and labels are built here, clean and finite: skip sklearn's re-validation
    # on every one of the many SVC fits (it costs more than the fit on small problems).
    return config_context(assume_finite=True, skip_parameter_validation=True)


def _feature_major(X: Any) -> tuple[Any, NDArray[np.float64], NDArray[np.bool_]]:
    """``X.T`` with one row per feature (dense C-ordered or CSR), squared column norms, and
    which columns are constant.

    Rows of this layout are gathered cheaply, both dense and sparse; sparse input is never
    densified.
    """
    if sp.issparse(X):
        Xt = sp.csr_matrix(X.T, dtype=np.float64)
        Xt.sum_duplicates()
        sq = np.asarray(Xt.multiply(Xt).sum(axis=1), dtype=np.float64).ravel()
        high = np.asarray(Xt.max(axis=1).toarray()).ravel()
        low = np.asarray(Xt.min(axis=1).toarray()).ravel()
    else:
        Xt = np.ascontiguousarray(np.asarray(X, dtype=np.float64).T)
        sq = np.einsum("ij,ij->i", Xt, Xt)
        high, low = Xt.max(axis=1), Xt.min(axis=1)
    return Xt, sq, high == low


def _gram(Ft: Any) -> NDArray[np.float64]:
    """``F F^T`` (n x n, dense, C-ordered) from the feature-major block ``Ft = F^T``.

    C order matters: ``SVC.fit`` copies any other layout into a C-ordered one, which on
    text (n = 1,800) cost 15 ms per fit, as much as libsvm's own solve. Sparse blocks take
    the cheaper route of :func:`_sparse_gram`.
    """
    if sp.issparse(Ft):
        G = _sparse_gram(Ft)
        if isinstance(G, np.ndarray):
            return G
        # The sparse product is symmetric bit for bit (entry (i, j) and (j, i) add the same
        # products in the same order of features): the transpose of its dense copy is the
        # C-ordered kernel, without a second n x n array.
        return np.asarray(G.toarray(), dtype=np.float64).T
    return np.ascontiguousarray(Ft.T @ Ft, dtype=np.float64)


def _downdate(K: NDArray[np.float64], Ft_out: Any) -> None:
    """``K -= F_R F_R^T`` in place, for the block ``Ft_out = F_R^T`` of removed features.

    A sparse product is subtracted at its structurally non-zero entries only (the others
    would subtract an exact 0.0), so the kernel is the same, bit for bit, as after
    subtracting the dense product.
    """
    if not sp.issparse(Ft_out):
        K -= Ft_out.T @ Ft_out
        return
    G = _sparse_gram(Ft_out)
    if isinstance(G, np.ndarray):
        K -= G
    elif not K.flags.c_contiguous:  # never here (kernels are built C-ordered); still exact
        K -= G.toarray()
    elif 4 * G.nnz > K.size:
        # dense enough that the scatter's index arrays would take more memory; the
        # transpose (equal, see _gram) has K's layout, so numpy needs no buffer
        K -= G.toarray().T
    else:
        # Scatter along K's rows: entry (i, j) of a compressed row or column i is
        # subtracted at flat position i * n + j, in memory order (twice as fast as
        # K[rows, cols] on a 26 MB kernel). For a CSC product that writes G[j, i] at (i, j),
        # the same value: G is symmetric bit for bit (see _gram). The coordinates of a
        # product are distinct, so fancy-index subtraction is exact.
        n = K.shape[0]
        flat = np.repeat(np.arange(n, dtype=np.int64) * n, np.diff(G.indptr))
        flat += G.indices
        K.reshape(-1)[flat] -= G.data


def _sparse_gram(Ft: Any) -> Any:
    """``F F^T`` for a sparse feature-major block ``Ft``: a sparse matrix or a dense array.

    Two routes with the same values, bit for bit. The sparse product (rare words: few of
    the ``n^2`` entries are touched) costs about ``_SPARSE_PRODUCT_COST`` times its number
    of multiply-adds, ``sum_k nnz_k^2``; the product of ``F`` with the dense ``F^T`` (common
    words) costs ``nnz n + n^2`` and a dense ``p x n`` temporary, so it is only taken for
    blocks of at most ``n / 2`` features (the temporary is then at most half the kernel:
    sparse input is never densified). Both sum each entry ``sum_k F_ik F_jk`` over the
    features ``k`` in increasing order (scipy's compressed products walk the features of a
    sample in index order; the dense route only adds exact zeros besides), so the kernel
    depends neither on the route nor on which other rows the block has.
    """
    n = Ft.shape[1]
    if 2 * Ft.shape[0] <= n:
        per_feature = np.diff(Ft.indptr).astype(np.float64)
        sparse_cost = _SPARSE_PRODUCT_COST * float(per_feature @ per_feature)
        if sparse_cost > float(Ft.nnz) * n + float(n) * n:
            return np.asarray(Ft.T @ Ft.toarray(), dtype=np.float64, order="C")
    return Ft.T @ Ft


def _smo_iteration_cap(n: int) -> int:
    """libsvm iterations allowed before the interior-point solver takes over.

    The cap is where the two routes cost about the same, so that the fallback never costs
    more than about twice the cheaper one. Measured, not counted in flops: an SMO iteration
    on a precomputed kernel of ``n`` rows costs about ``_SMO_COST_PER_ROW * n`` flops at the
    speed of a BLAS Cholesky factorisation (libsvm's two kernel rows and its
    working-set scan are memory-bound loops, not BLAS), and the interior point solves about
    ``_IPM_TYPICAL_ITER`` systems of one factorisation of ``n^3 / 3`` flops: the cap is
    ``n^2 / 3``. The floor of 10^5 iterations (a few milliseconds per hundred rows) leaves
    every fit libsvm finishes normally (a few hundred to a few thousand iterations on
    microarrays and text) to libsvm, and keeps the microarrays of up to 182 samples (the
    cap is the floor, now as before) exactly where they were. The cap before this fix,
    ``3 n^2``, counted an SMO iteration as ``4 n`` flops: ten times too cheap, so at
    ``n = 2,080`` libsvm ground through 13 million iterations (95 s) before the fallback.
    """
    ipm = _IPM_TYPICAL_ITER * n**3 / 3.0
    return max(_SMO_MIN_CAP, int(ipm / (_SMO_COST_PER_ROW * n)))


def _fit_dual(
    K: NDArray[np.float64],
    y: NDArray[Any],
    C: float,
    tol: float,
    weights: NDArray[np.float64] | None = None,
) -> NDArray[np.float64]:
    """Solve the SVM dual on kernel ``K``; return the primal coefficient matrix ``D``.

    ``D`` has shape (n_samples, n_pairs) with one column per binary SVM (one for two
    classes, one per pair of classes in scikit-learn's one-vs-one order otherwise), so that
    the weights of the linear SVMs are ``X_S^T D``, exactly as ``SVC.coef_`` is built from
    ``dual_coef_`` and ``support_vectors_`` (``sklearn.svm._base._one_vs_one_coef``).

    libsvm (``SVC(kernel="precomputed")``) solves each binary problem; one that has not
    converged after :func:`_smo_iteration_cap` iterations is solved exactly by
    :func:`_dual_interior_point` instead (see "Raw intensities" in the module docstring).

    ``weights`` (positive, one per row) gives row ``i`` the box ``0 <= alpha_i <= C
    weights_i`` (libsvm's ``C_i = C W_i``, ``SVC.fit(..., sample_weight=weights)``): a row
    standing for ``m`` identical rows of a resample has weight ``m`` (see "Distinct rows"
    in the module docstring). None is the unweighted problem (every ``C_i = C``).
    """
    n = K.shape[0]
    cap = _smo_iteration_cap(n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        clf = SVC(kernel="precomputed", C=C, tol=tol, max_iter=cap).fit(K, y, sample_weight=weights)
    dual = clf.dual_coef_
    support = clf.support_
    n_classes = dual.shape[0] + 1
    stalled = np.atleast_1d(clf.n_iter_) >= cap
    if n_classes == 2:
        D = np.zeros((n, 1))
        D[support, 0] = dual[0]
    else:
        locs = np.concatenate([[0], np.cumsum(clf.n_support_)])
        D = np.zeros((n, n_classes * (n_classes - 1) // 2))
        pair = 0
        for c1 in range(n_classes):
            sv1 = slice(locs[c1], locs[c1 + 1])
            for c2 in range(c1 + 1, n_classes):
                sv2 = slice(locs[c2], locs[c2 + 1])
                D[support[sv1], pair] = dual[c2 - 1, sv1]
                D[support[sv2], pair] = dual[c1, sv2]
                pair += 1
    if stalled.any():
        pairs = _pairs(n_classes)
        for k in np.flatnonzero(stalled):
            rows, ypm = _pair_problem(y, clf.classes_, *pairs[k])
            alpha = _dual_interior_point(
                K[np.ix_(rows, rows)], ypm, C, None if weights is None else weights[rows]
            )
            D[:, k] = 0.0
            D[rows, k] = _dual_column(ypm, alpha, n_classes)
    return D


def _pairs(n_classes: int) -> list[tuple[int, int]]:
    """The binary problems of the one-vs-one SVMs, in libsvm's (and ``dual_coef_``'s)
    order: class indices ``(c1, c2)``, ``c1 < c2``."""
    return [(a, b) for a in range(n_classes) for b in range(a + 1, n_classes)]


def _pair_problem(y: NDArray[Any], labels: NDArray[Any], c1: int, c2: int
                  ) -> tuple[NDArray[np.intp], NDArray[np.float64]]:
    """The rows of the pair ``(c1, c2)`` and their labels, +1 for ``labels[c1]``."""
    rows = np.flatnonzero((y == labels[c1]) | (y == labels[c2]))
    return rows, np.where(y[rows] == labels[c1], 1.0, -1.0)


def _dual_column(ypm: NDArray[np.float64], alpha: NDArray[np.float64],
                 n_classes: int) -> NDArray[np.float64]:
    """The pair's column of ``D`` from its multipliers, signed as scikit-learn's
    ``dual_coef_`` (negated for two classes)."""
    return (-1.0 if n_classes == 2 else 1.0) * ypm * alpha


def _warm_solver() -> Any:
    """``solve`` of modelmine's compiled SMO (``_smo.c``), or a clear error naming
    ``solver``."""
    import importlib

    try:  # by name: a compiled module, not a source file of this package
        solve = importlib.import_module(f"{__package__}._smo").solve
    except ImportError as exc:  # an install without a C compiler
        raise param_error(
            "solver", "svm_rfe", "'libsvm' on an install without modelmine's compiled SMO "
            "(modelmine/selectors/_smo.c did not build)", "warm", exc=ImportError) from exc
    return solve


def _fit_dual_warm(
    K: NDArray[np.float64],
    y: NDArray[Any],
    C: float,
    tol: float,
    weights: NDArray[np.float64] | None,
    start: list[NDArray[np.float64]] | None,
) -> tuple[NDArray[np.float64], list[NDArray[np.float64]]]:
    """:func:`_fit_dual` by modelmine's SMO (``_smo.c``), each binary dual started from
    ``start`` (the multipliers of the previous SVM-RFE step on the same rows, one array
    per pair of classes; None: from zero). Returns ``D`` as :func:`_fit_dual` does and the
    multipliers, for the next step.

    The same problem as libsvm's (the dual of ``SVC(kernel="precomputed")`` with boxes
    ``C_i = C weights_i``, one-vs-one over the sorted classes, the same working-set rule
    and the same stopping rule ``m(a) - M(a) < tol``), solved from a feasible point that
    is usually near the new optimum: removing the least important features changes the
    kernel a little. A pair that has not converged after :func:`_smo_iteration_cap`
    iterations is solved by :func:`_dual_interior_point`, as in :func:`_fit_dual`.
    """
    solve = _warm_solver()
    labels = np.unique(y)
    n, n_classes = K.shape[0], labels.size
    box_all = np.full(n, C) if weights is None else C * np.asarray(weights, dtype=np.float64)
    pairs = _pairs(n_classes)
    D = np.zeros((n, len(pairs)))
    alphas: list[NDArray[np.float64]] = []
    for k, (c1, c2) in enumerate(pairs):
        rows, ypm = _pair_problem(y, labels, c1, c2)
        # two classes: every row, the kernel as it is (no n x n gather)
        Kp = K if rows.size == n else K[np.ix_(rows, rows)]
        box = box_all[rows]
        alpha = np.zeros(rows.size) if start is None else start[k].copy()
        if solve(Kp, ypm, box, alpha, tol, _smo_iteration_cap(rows.size)) < 0:
            alpha = _dual_interior_point(
                np.ascontiguousarray(Kp), ypm, C, None if weights is None else weights[rows])
        alphas.append(alpha)
        D[rows, k] = _dual_column(ypm, alpha, n_classes)
    return D, alphas


def _dual_interior_point(
    K: NDArray[np.float64],
    ypm: NDArray[np.float64],
    C: float,
    weights: NDArray[np.float64] | None = None,
) -> NDArray[np.float64]:
    """The exact optimum ``alpha`` of one binary C-SVM dual, by a primal-dual interior point.

    Solves ``min 1/2 a^T Q a - sum(a)`` subject to ``y^T a = 0`` and ``0 <= a_i <= C_i``,
    with ``Q = (y y^T) * K`` and ``C_i = C m_i`` (``m = weights``, all 1 when None: the
    problem libsvm solves), in the variable ``b = a / (C m)``, whose box is ``[0, 1]``:
    ``min 1/2 b^T H b - m^T b`` with ``H = C (m m^T) * Q`` (the objective divided by ``C``)
    subject to ``(y m)^T b = 0``. Mehrotra's
    predictor-corrector method (Nocedal & Wright, Numerical Optimization, 2nd ed., Section
    16.6), one Cholesky factorisation of ``C Q + diag(d)`` per iteration (``O(n^3)``). Its
    number of iterations barely depends on ``C`` or on the units of the data, whereas
    libsvm's SMO needs millions of iterations when ``C`` times the squared scale of the data
    is huge and the classes overlap (an almost hard margin on non-separable data).
    """
    n = K.shape[0]
    m = np.ones(n) if weights is None else np.asarray(weights, dtype=np.float64)
    # with m = 1 (no weights) every product by m below is exact: the unweighted problem
    # is solved exactly as before weights existed
    H = C * (ypm[:, None] * K * ypm[None, :])
    if weights is not None:
        H *= m[:, None] * m[None, :]
    ym = ypm * m  # the equality constraint in b
    scale = max(float(np.abs(np.diagonal(H)).max()), 1.0)
    beta = np.full(n, 0.5)
    z = np.full(n, scale)
    u = np.full(n, scale)
    lam = 0.0

    for _ in range(_IPM_MAX_ITER):
        s = 1.0 - beta
        r_d = H @ beta - m - lam * ym - z + u
        r_p = float(ym @ beta)
        mu = float(z @ beta + u @ s) / (2 * n)
        if (
            mu < _IPM_TOL
            and np.abs(r_d).max() < _IPM_TOL * (1.0 + scale)
            and abs(r_p) < _IPM_TOL * n
        ):
            break
        M = H.copy()
        M[np.diag_indices(n)] += z / beta + u / s
        try:
            factor = cho_factor(M, lower=True)
        except np.linalg.LinAlgError:
            # H is PSD only up to rounding; near the solution the barrier terms of the
            # variables at a bound vanish and a rank-deficient H can lose definiteness.
            # Shifting the Newton matrix (not the problem) by rounding size restores it.
            M[np.diag_indices(n)] += n * np.finfo(float).eps * scale
            factor = cho_factor(M, lower=True)
        g = cho_solve(factor, ym)
        state = (factor, g, float(ym @ g), ym, r_d, r_p, beta, s, z, u)
        # predictor (affine scaling), then Mehrotra's centring-corrector step
        db, dz, du, _ = _ipm_direction(state, -z * beta, -u * s)
        alpha = min(1.0, _ipm_step(beta, s, z, u, db, dz, du))
        mu_aff = float(
            (z + alpha * dz) @ (beta + alpha * db) + (u + alpha * du) @ (s - alpha * db)
        ) / (2 * n)
        sigma = (mu_aff / mu) ** 3
        db, dz, du, dl = _ipm_direction(
            state, sigma * mu - z * beta - dz * db, sigma * mu - u * s + du * db
        )
        alpha = min(1.0, 0.995 * _ipm_step(beta, s, z, u, db, dz, du))
        beta = beta + alpha * db
        z = z + alpha * dz
        u = u + alpha * du
        lam += alpha * dl
    return C * m * beta


def _ipm_step(*arrays: NDArray[np.float64]) -> float:
    """Largest step keeping ``beta, 1 - beta, z, u`` non-negative along their directions."""
    beta, s, z, u, db, dz, du = arrays
    step = np.inf
    for v, dv in ((beta, db), (s, -db), (z, dz), (u, du)):
        neg = dv < 0
        if neg.any():
            step = min(step, float(np.min(-v[neg] / dv[neg])))
    return step


def _ipm_direction(
    state: tuple[Any, ...], rc_z: NDArray[np.float64], rc_u: NDArray[np.float64]
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], float]:
    """Newton direction of the interior-point iteration for complementarity targets
    ``rc_z`` (of ``z * beta``) and ``rc_u`` (of ``u * (1 - beta)``): the reduced system
    ``(H + diag(z / beta + u / s)) d_beta - y d_lam = r`` with ``y^T d_beta = -r_p``,
    solved by block elimination of ``d_lam``."""
    factor, g, yg, ypm, r_d, r_p, beta, s, z, u = state
    a = cho_solve(factor, -r_d + rc_z / beta - rc_u / s)
    d_lam = (-r_p - float(ypm @ a)) / yg
    d_beta = a + g * d_lam
    return d_beta, (rc_z - z * d_beta) / beta, (rc_u + u * d_beta) / s, d_lam


def _weights(Ft: Any, D: NDArray[np.float64], constant: NDArray[np.bool_]) -> NDArray[np.float64]:
    """Primal weights (n_features_in_play, n_pairs) = ``X_S^T D``.

    The weight of a constant feature is exactly zero (``w_j = c sum_i y_i alpha_i`` and the
    dual constraint makes the sum zero); the solver leaves a rounding residue that would
    order constant features arbitrarily, so it is set to zero and the documented tie rule
    orders them.
    """
    W = np.asarray(Ft @ D, dtype=np.float64)
    W[constant] = 0.0
    return W
