"""SVM-RFE and SVMONE: linear-SVM feature importance, fast, and equal to scikit-learn.

SVMONE ranks the features by the weights of one linear SVM; SVM-RFE (Guyon et al., Machine
Learning 46, 2002) refits the SVM on the surviving features and removes the least important
ones until ``n_features_to_select`` remain. Both are base selectors of Woznica, Nguyen and
Kalousis, "Model Mining for Robust Feature Selection" (KDD 2012), Section 5 ("SVMRFE, 10 %
eliminated at each iteration, C = 0.5" and "SVMONE"), and SVM-RFE is the wrapper studied by
Saeys et al. (PKDD 2008) and Pes (2019).

Why this module is fast
-----------------------
``RFE(SVC(kernel="linear"))`` lets libsvm recompute dot products over all surviving features
at every step. Here the SVM dual is solved on the precomputed ``n x n`` linear kernel
``K = X_S X_S^T`` (``SVC(kernel="precomputed")``: the same libsvm solver, the same dual
problem, hence the same dual solution), the primal weights are recovered as
``w = sum_i dual_coef_i x_i`` on the surviving features ``S``, and when features ``R`` are
removed the kernel is *down-dated*, ``K <- K - X_R X_R^T``, instead of recomputed. With
``n << p`` (microarrays, text) one step then costs ``O(n^2 |R| + n |S|)`` instead of
``O(n^2 |S|)`` plus libsvm's kernel evaluations.

Down-dating subtracts large numbers from large numbers: after many steps the rounding error
of an entry of ``K`` is of the order of ``eps`` times the mass that was subtracted, not the
mass that is left. The kernel is therefore recomputed from the surviving columns whenever

* the removed part is at least as large as the surviving part (recomputing is then also the
  cheaper of the two), or
* the squared Frobenius mass of the surviving columns, ``trace(K)``, has fallen below 1/16 of
  its value at the last recomputation.

Each down-date adds an error of about ``eps`` times the entries involved, which Cauchy-Schwarz
(``|K_ij| <= trace(K)``) bounds by ``eps`` times the mass at the last recomputation; the
second rule keeps that mass within 16 times the current ``trace(K)``, so every entry of the
kernel stays within about ``16 * eps * (number of down-dates) * trace(K)`` of the truth, below
``1e-12 * trace(K)`` for a hundred steps: nine orders of magnitude under libsvm's stopping
tolerance. The rules fire rarely: on leukemia, removing 10 % of the remaining features per
step (76 fits), the kernel is computed from scratch three times in all.

Raw intensities
---------------
On raw (unnormalised) intensities the SVM itself changes: multiplying the data by ``a`` is
the same problem as keeping the data and multiplying ``C`` by ``a^2`` (substitute ``v = a
w`` in the primal), so ``C = 0.5`` on values in the tens of thousands is an almost hard
margin. libsvm's stopping rule does not depend on the units (with ``alpha' = a^2 alpha`` the
dual gradient, which ``tol`` bounds, is unchanged), and centring the kernel changes neither
the dual on its feasible set nor, in exact arithmetic, the SMO path (in floating point it
only moves the float32 rounding of libsvm's kernel cache: on raw prostate the stalled fit
below then took 205 million iterations instead of 41 million). What explodes is the number
of SMO iterations on the fits whose classes overlap, which for RFE are the last,
low-dimensional ones: on leukemia scaled to [0, 3.4e4] (800 genes, four classes, 10 % of the
remaining features per step) the fits on 800..5 features take 300-1600 iterations and those
on 4, 3 and 2 features 0.64, 5.0 and 10.7 million; on prostate (full, two classes, RFE's own
step rule) the one fit on 6 features took 41 million (5.7 s; scikit-learn's
``RFE(SVC(kernel="linear"))`` pays the same, 21 s in all). Each binary problem is therefore
given to libsvm with an iteration cap (:func:`_smo_iteration_cap`) and, if it stalls, solved
exactly by a primal-dual interior-point method (:func:`_dual_interior_point`), whose cost
(tens of ``n x n`` Cholesky factorisations) does not depend on ``C`` or on the units. The
result is the same SVM to about 1e-7 relative (libsvm's own accuracy at ``tol = 1e-3`` is
coarser); fits libsvm finishes under the cap are untouched. With thousands of rows (raw
madelon, n = 2,080, values up to 999) even the first fit stalls; the cap is set where the
two routes cost the same in measured time, ``n^2 / 3`` iterations (it was ``3 n^2``, ten
times too many: 13 million SMO iterations, 95 s, before the fallback ran anyway).

Text at scale (issue 15)
------------------------
On sparse word counts (BASEHOCK, PCMAC: about 1,800 x 4,900 per training fold) three costs
dominated besides libsvm: the kernel was handed to ``SVC`` in Fortran order (the layout of
scipy's sparse product), which ``SVC.fit`` copied at every fit; every down-date built a
dense ``n x n`` product; and every resample computed its kernel over all the features. Now
the kernel is C-ordered; a sparse down-date is subtracted at its non-zero entries (rare
words) or formed as a sparse-dense product (common words), whichever is cheaper
(:func:`_sparse_gram`); and :func:`linear_kernel` computes the kernel of the data once, so
that each resample's kernel is gathered from it (:func:`svm_rfe_rows`, used by
``mm.bootstrap`` through ``Selector.prepare`` / ``select_rows``). Every route sums each
kernel entry over the features in increasing order, so the kernel, and with it every libsvm
fit and the ranking, is bit for bit the one of ``svm_rfe(X[rows], y[rows])``. A dual
solver warm-started from the previous step was not adopted (it would move every fit within
libsvm's tolerance for a smaller gain than the distinct rows below).

Distinct rows
-------------
A bootstrap of ``n`` rows holds only about 63 % distinct rows. The soft-margin primal,
``min 1/2 |w|^2 + C sum_i xi_i`` subject to ``y_i (w . x_i + b) >= 1 - xi_i``, is the same
problem when ``m`` identical rows ``(x_i, y_i)`` are replaced by one row whose slack is
counted ``m`` times (``C_i = C m``): their constraints are identical, so an optimum gives
them equal slacks, and ``w`` is unique (the objective is strictly convex in ``w``). In the
dual the merged row's multiplier lives in ``[0, C m]`` and ``w = sum_i alpha_i y_i x_i`` over
the distinct rows. So :func:`svm_rfe` merges rows equal in every feature and in the label
(:func:`_distinct_rows`; the resample routes first merge repeated indices) and solves each
dual with libsvm's per-row ``C_i = C W_i`` (``SVC.fit(K, y, sample_weight=m)``; the
interior-point fallback takes the same boxes). The kernel, its gather and its down-dates
shrink by ``0.63^2``, libsvm's SMO by about as much. Once few features are left, more rows
agree on all the features still in play (on text, every document using none of the
surviving words): on sparse data, from ``_MERGE_MAX_FEATURES`` features down, rows equal on
the features in play and the label are merged too (:func:`_merge_on_features`), and the
kernel of the merged rows is computed afresh (cheap with few features); rows equal on some
features stay equal on every later subset. Dense data skip this search (microarrays: few
rows, real values, nothing to gain).

The SVM is the same, but libsvm walks another SMO path to it and stops elsewhere within its
tolerance (``tol``, and its float32 kernel cache): the rankings equal those of
``RFE(SVC(kernel="linear"))`` (and of the code before, which fed libsvm the repeated rows)
up to swaps of features whose importances differ by less than about ``1e-4`` of the fit's
largest at ``tol = 1e-3`` (the tests allow ``1e-3``; at ``tol = 1e-6``, ``1e-5``). Data with
no two equal rows (a whole microarray) take exactly the unweighted route of before. See
Guyon et al. (Machine Learning 46, 2002) for SVM-RFE itself; the merge is the standard
weighted-instance form of the C-SVM (libsvm's instance weights).

Other costs are kept linear: the features to remove are found by partition, not a full
sort, and the block of feature rows is compacted only when half of it is dead. BLAS runs on
one thread (see ``_one_blas_thread``).
"""

from __future__ import annotations

import numbers
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray
from scipy.linalg import cho_factor, cho_solve
from sklearn import config_context
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC
from threadpoolctl import ThreadpoolController

from .._utils import readonly as _readonly
from ..validation import check_choice, check_int, check_real, param_error

__all__ = [
    "LinearKernel",
    "SVMRFEResult",
    "linear_kernel",
    "svm_rfe",
    "svm_rfe_ranking",
    "svm_rfe_rows",
    "svm_weights",
    "svm_weights_rows",
]

_STEP_RULES = ("original", "remaining")

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

# Rows of sparse data equal on the features still in play are merged (see
# _merge_on_features) from this many features down, each time the number in play has
# fallen by a third since the last search, and only when at least a tenth of the rows go:
# on a BASEHOCK bootstrap (1,119 distinct rows) 2 % of them are equal on 154 features,
# 9 % on 114, a third on 47 and nine tenths on 8.
_MERGE_MAX_FEATURES = 128
_MERGE_MIN_SHRINK = 0.9


@dataclass(frozen=True)
class SVMRFEResult:
    """The outcome of one SVM-RFE run.

    Attributes
    ----------
    ranking : ndarray of shape (n_features,), dtype int64
        Total order, a permutation of ``1..p``; 1 is the best feature (the last survivor).
        Features eliminated at a later step rank better than those eliminated earlier;
        within one step the one with the larger importance ranks better, and exact ties go
        to the lower feature index. The survivors are ordered by their importance in a
        final SVM fitted on them alone.
    ranking_tied : ndarray of shape (n_features,), dtype int64
        The ranking of ``sklearn.feature_selection.RFE``: 1 for the survivors, and every
        feature eliminated in the same step shares one rank (2 for the last step, ...).
    support : ndarray of shape (n_features,), dtype bool
        The ``n_features_to_select`` survivors.
    importances : ndarray of shape (n_features,), dtype float64
        The importance of each feature in the last SVM it took part in (the fit that
        eliminated it, or the final fit for the survivors): ``w_j^2`` for two classes, the
        sum of ``w_j^2`` over the one-vs-one SVMs for more, as ``RFE`` computes it.
    n_features_per_step : ndarray of shape (n_steps,), dtype int64
        Number of features in play at each elimination fit.
    n_kernel_computations : int
        How often the kernel was computed from scratch (1 + recomputations against drift).
    """

    ranking: NDArray[np.int64]
    ranking_tied: NDArray[np.int64]
    support: NDArray[np.bool_]
    importances: NDArray[np.float64]
    n_features_per_step: NDArray[np.int64]
    n_kernel_computations: int

    @property
    def n_steps(self) -> int:
        """Number of elimination steps (SVM fits before the final one)."""
        return int(self.n_features_per_step.shape[0])

    def top(self, m: int) -> NDArray[np.int64]:
        """Indices of the ``m`` best features, best first."""
        count = check_int(m, "m", "SVMRFEResult.top", min_value=0, max_value=self.ranking.shape[0])
        return np.argsort(self.ranking, kind="stable")[:count].astype(np.int64)


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


def _distinct_rows(
    X: Any, y: NDArray[Any], counts: NDArray[Any] | None = None
) -> tuple[NDArray[np.intp], NDArray[np.int64]] | None:
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
    return first, np.rint(weight).astype(np.int64)


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
) -> tuple[NDArray[np.intp], NDArray[np.int64]] | None:
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
    return first, np.rint(weight).astype(np.int64)


def _merged(
    X: Any, y: NDArray[Any], counts: NDArray[np.int64] | None = None
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
        labels = clf.classes_
        pairs = [(a, b) for a in range(n_classes) for b in range(a + 1, n_classes)]
        sign = -1.0 if n_classes == 2 else 1.0  # sklearn negates the binary dual_coef_
        for k in np.flatnonzero(stalled):
            c1, c2 = pairs[k]
            rows = np.flatnonzero((y == labels[c1]) | (y == labels[c2]))
            ypm = np.where(y[rows] == labels[c1], 1.0, -1.0)
            alpha = _dual_interior_point(
                K[np.ix_(rows, rows)], ypm, C, None if weights is None else weights[rows]
            )
            D[:, k] = 0.0
            D[rows, k] = sign * ypm * alpha
    return D


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


def _squared_importance(W: NDArray[np.float64]) -> NDArray[np.float64]:
    # RFE's rule: _get_feature_importances(..., transform_func="square") squares coef_ and,
    # for 2-D coef_ (one row per one-vs-one SVM), sums the squares over the rows.
    if W.shape[1] == 1:
        return W[:, 0] ** 2
    return (W**2).sum(axis=1)


def _smallest_stable(imp: NDArray[np.float64], k: int) -> NDArray[np.intp]:
    """The positions ``np.argsort(imp, kind="stable")[:k]``, as a set, in O(p).

    RFE removes exactly these: every value below the k-th smallest, then the lowest
    indices among the values equal to it.
    """
    if k >= imp.shape[0]:
        return np.arange(imp.shape[0])
    kth = np.partition(imp, k - 1)[k - 1]
    below = np.flatnonzero(imp < kth)
    equal = np.flatnonzero(imp == kth)
    return np.concatenate([below, equal[: k - below.shape[0]]])


def _check_common(C: Any, tol: Any, func: str) -> tuple[float, float]:
    C = check_real(C, "C", func, low=0.0, closed="neither")
    tol = check_real(tol, "tol", func, low=0.0, closed="neither")
    return float(C), float(tol)


def _check_step(step: Any, func: str) -> int | float:
    expected = "an integer >= 1 or a real number in (0, 1)"
    if isinstance(step, bool) or not isinstance(step, numbers.Real):
        raise param_error("step", func, expected, step, exc=TypeError)
    if isinstance(step, numbers.Integral):
        if int(step) < 1:
            raise param_error("step", func, expected, step)
        return int(step)
    value = float(step)
    if not (np.isfinite(value) and 0.0 < value < 1.0):
        raise param_error("step", func, expected, step)
    return value


def _n_to_remove(step: int | float, step_rule: str, n_original: int, n_remaining: int) -> int:
    if isinstance(step, int):
        return step
    if step_rule == "original":
        # Exactly sklearn.feature_selection.RFE: int(max(1, step * n_features)).
        return int(max(1, step * n_original))
    return max(1, int(step * n_remaining))


def svm_rfe(
    X: Any,
    y: NDArray[Any],
    *,
    C: float = 0.5,
    step: int | float = 0.1,
    step_rule: str = "original",
    n_features_to_select: int = 1,
    tol: float = 1e-3,
) -> SVMRFEResult:
    """Recursive feature elimination with a linear SVM (SVM-RFE), on a down-dated kernel.

    At each step a linear C-SVM is fitted on the features still in play, each feature gets
    the importance ``w_j^2`` (summed over the one-vs-one SVMs when there are more than two
    classes, as ``sklearn.feature_selection.RFE`` does with ``SVC(kernel="linear").coef_``),
    and the least important ones are removed, until ``n_features_to_select`` remain. This
    is the SVMRFE base selector of Woznica, Nguyen and Kalousis (KDD 2012, Section 5; the
    method is Guyon et al., Machine Learning 46, 2002).

    Parameters
    ----------
    X : ndarray or scipy.sparse matrix of shape (n_samples, n_features_in), float64
        Data. Sparse input stays sparse (only the ``n x n`` kernel is dense).
    y : ndarray of shape (n_samples,), int
        Class codes ``0..K-1``, ``K >= 2``.
    C : float, default=0.5
        SVM regularisation (KDD 2012 uses 0.5).
    step : int or float, default=0.1
        An integer removes that many features per step. A float in (0, 1) is a fraction,
        interpreted by ``step_rule``.
    step_rule : {"original", "remaining"}, default="original"
        ``"original"``: a fraction removes ``int(max(1, step * n_features))`` features per
        step, exactly as ``sklearn.feature_selection.RFE``. ``"remaining"``: it removes
        ``max(1, int(step * n_remaining))`` of the features still in play, the papers'
        "10 % eliminated at each iteration".
    n_features_to_select : int, default=1
        Number of survivors; a step never removes more than would leave fewer.
    tol : float, default=1e-3
        libsvm stopping tolerance (as ``SVC(tol=...)``).

    Returns
    -------
    SVMRFEResult
        Total and scikit-learn-style rankings, survivors, importances at elimination.

    Notes
    -----
    The features removed at a step are those ``RFE`` removes: the first ones of a stable
    ascending sort of the importances (among exact ties at the cut, the lower index goes
    first), so that ``ranking_tied`` is ``RFE(...).ranking_``. Within the step, the total
    order then ranks larger importance better and, on exact ties, the lower index better.

    Rows equal in every feature and in the label (the repeats of a bootstrap) are merged
    into one row with ``C_i = C m_i`` for ``m_i`` copies, and at the low-dimensional steps
    rows equal on the features still in play are merged likewise: the soft-margin primal,
    hence the SVM of SVM-RFE (Guyon et al., 2002), is unchanged, but libsvm stops at another
    point within its tolerance, so on data with equal rows the ranking may differ from the
    unmerged fit (and from ``RFE(SVC)``) by swaps of features whose importances are equal
    to within the solver's tolerance ("Distinct rows" in the module docstring).
    """
    args = _check_rfe(X, C, step, step_rule, n_features_to_select, tol, "svm_rfe")
    with _one_blas_thread(), _fast_sklearn():
        Xd, yd, weights = _merged(X, np.asarray(y))
        return _svm_rfe(Xd, yd, *args, weights=weights)


def _check_rfe(
    X: Any, C: Any, step: Any, step_rule: Any, n_features_to_select: Any, tol: Any, func: str
) -> tuple[float, int | float, str, int, float]:
    """The parameters of :func:`svm_rfe`, checked: ``(C, step, step_rule, n_select, tol)``."""
    C, tol = _check_common(C, tol, func)
    step = _check_step(step, func)
    step_rule = check_choice(step_rule, "step_rule", func, _STEP_RULES)
    n_select = check_int(
        n_features_to_select, "n_features_to_select", func, min_value=1, max_value=X.shape[1]
    )
    assert n_select is not None
    return C, step, step_rule, n_select, tol


def _svm_rfe(
    X: Any,
    y: NDArray[Any],
    C: float,
    step: int | float,
    step_rule: str,
    n_select: int,
    tol: float,
    K0: NDArray[np.float64] | None = None,
    weights: NDArray[np.float64] | None = None,
) -> SVMRFEResult:
    """The elimination loop of :func:`svm_rfe`, on validated arguments; ``K0`` is the
    kernel of ``X`` when it is known already (a fresh array the loop may overwrite), and
    ``weights`` the multiplicity of each row (see :func:`_fit_dual`)."""
    n_features = X.shape[1]
    Xt, sq, constant = _feature_major(X)
    ranking = np.zeros(n_features, dtype=np.int64)
    step_of = np.zeros(n_features, dtype=np.int64)  # 0 = survivor
    importances = np.zeros(n_features, dtype=np.float64)
    per_step: list[int] = []

    remaining = np.arange(n_features)
    # Ft is a block of feature rows holding the features in play at positions `rows`; it is
    # compacted only when half of it is dead, so gathers cost O(p) in total, not per step.
    Ft, const_block, rows = Xt, constant, np.arange(n_features)
    K = _gram(Ft) if K0 is None else K0
    n_kernel = 1
    base_mass = float(sq.sum())
    next_worst = n_features  # the next rank to hand out, from the bottom
    checked = 3 * n_features  # features in play at the last search for equal rows
    # Only sparse data (text) merge rows equal on the features in play: there most rows
    # agree once few words are left, while on dense microarrays (n < 200, real values)
    # the search buys nothing and whole data sets keep exactly their unweighted fits.
    sparse_input = sp.issparse(Xt)

    while remaining.shape[0] > n_select:
        n_rem = remaining.shape[0]
        per_step.append(n_rem)
        D = _fit_dual(K, y, C, tol, weights)
        imp = _squared_importance(_weights(Ft, D, const_block)[rows])
        n_out = min(_n_to_remove(step, step_rule, n_features, n_rem), n_rem - n_select)
        out_local = _smallest_stable(imp, n_out)
        keep_mask = np.ones(n_rem, dtype=bool)
        keep_mask[out_local] = False

        # Total order within the step: larger importance first, ties by lower index.
        out = remaining[out_local]
        best_first = np.lexsort((out, -imp[out_local]))
        ranking[out[best_first]] = np.arange(next_worst - n_out + 1, next_worst + 1)
        next_worst -= n_out
        step_of[out] = len(per_step)
        importances[out] = imp[out_local]

        remaining = remaining[keep_mask]
        if remaining.shape[0] == n_select == 1:
            break  # the last survivor needs no further fit
        mass = float(sq[remaining].sum())
        Ft_out = Ft[rows[out_local]]
        rows = rows[keep_mask]
        if 2 * rows.shape[0] < Ft.shape[0]:
            Ft, const_block = Ft[rows], const_block[rows]
            rows = np.arange(rows.shape[0])
        merged = None
        if (
            sparse_input
            and remaining.shape[0] <= _MERGE_MAX_FEATURES
            and 3 * remaining.shape[0] <= 2 * checked
        ):
            checked = remaining.shape[0]
            Fs = Ft if rows.shape[0] == Ft.shape[0] else Ft[rows]
            merged = _merge_on_features(Fs, y, weights)
        if merged is not None:
            Ft, y, weights, sq_in_play = merged
            const_block, rows = const_block[rows], np.arange(rows.shape[0])
            sq = np.zeros_like(sq)
            sq[remaining] = sq_in_play
            K = _gram(Ft)
            n_kernel += 1
            base_mass = float(sq_in_play.sum())
        elif n_out >= remaining.shape[0] or mass < _RECOMPUTE_MASS_RATIO * base_mass:
            K = _gram(Ft if rows.shape[0] == Ft.shape[0] else Ft[rows])
            n_kernel += 1
            base_mass = mass
        else:
            _downdate(K, Ft_out)

    if remaining.shape[0] > 1 or not per_step:
        # Order the survivors by a final SVM on them alone (RFE's estimator_).
        D = _fit_dual(K, y, C, tol, weights)
        imp = _squared_importance(_weights(Ft, D, const_block)[rows])
        best_first = np.lexsort((remaining, -imp))
        importances[remaining] = imp
    else:
        # One survivor: its importance in the last fit it took part in.
        best_first = np.zeros(1, dtype=np.intp)
        importances[remaining] = imp[keep_mask]
    ranking[remaining[best_first]] = np.arange(1, remaining.shape[0] + 1)

    n_steps = len(per_step)
    ranking_tied = np.where(step_of == 0, 1, n_steps - step_of + 2).astype(np.int64)
    support = step_of == 0
    return SVMRFEResult(
        ranking=_readonly(ranking),
        ranking_tied=_readonly(ranking_tied),
        support=_readonly(support),
        importances=_readonly(importances),
        n_features_per_step=_readonly(np.asarray(per_step, dtype=np.int64)),
        n_kernel_computations=n_kernel,
    )


def svm_rfe_ranking(
    X: Any,
    y: NDArray[Any],
    *,
    C: float = 0.5,
    step: int | float = 0.1,
    step_rule: str = "original",
    n_features_to_select: int = 1,
    tol: float = 1e-3,
) -> NDArray[np.int64]:
    """Full SVM-RFE ranking of the features, a permutation of ``1..p`` (1 = best).

    The SVMRFE selector of Woznica, Nguyen and Kalousis (KDD 2012, Section 5). Same
    parameters as :func:`svm_rfe`, which also returns the scikit-learn-style tied ranking;
    this is ``svm_rfe(...).ranking``.

    Returns
    -------
    ndarray of shape (n_features,), dtype int64
        Distinct ranks: later elimination ranks better; within one step larger importance
        ranks better, exact ties going to the lower feature index.
    """
    return svm_rfe(
        X,
        y,
        C=C,
        step=step,
        step_rule=step_rule,
        n_features_to_select=n_features_to_select,
        tol=tol,
    ).ranking


def svm_weights(
    X: Any, y: NDArray[Any], *, C: float = 0.5, tol: float = 1e-3
) -> NDArray[np.float64]:
    """Feature importance from one linear SVM (SVMONE).

    The SVMONE base selector of Woznica, Nguyen and Kalousis (KDD 2012, Section 5): one
    linear C-SVM on all the features; the score of a feature is ``|w_j|`` for two classes
    and, for more, RFE's rule on the one-vs-one weights of ``SVC(kernel="linear").coef_``:
    the sum over the ``K (K - 1) / 2`` binary SVMs of ``w_j^2``.

    Parameters
    ----------
    X : ndarray or scipy.sparse matrix of shape (n_samples, n_features_in), float64
        Data; sparse input is never densified.
    y : ndarray of shape (n_samples,), int
        Class codes ``0..K-1``, ``K >= 2``.
    C : float, default=0.5
        SVM regularisation.
    tol : float, default=1e-3
        libsvm stopping tolerance.

    Returns
    -------
    ndarray of shape (n_features,), float64
        Larger is more important.

    Notes
    -----
    Rows equal in every feature and in the label are fitted once with ``C_i = C m_i``
    (the same SVM; "Distinct rows" in the module docstring).
    """
    C, tol = _check_common(C, tol, "svm_weights")
    with _one_blas_thread(), _fast_sklearn():
        Xd, yd, weights = _merged(X, np.asarray(y))
        return _svm_weights(Xd, yd, C, tol, weights=weights)


def _svm_weights(
    X: Any,
    y: NDArray[Any],
    C: float,
    tol: float,
    K: NDArray[np.float64] | None = None,
    weights: NDArray[np.float64] | None = None,
) -> NDArray[np.float64]:
    """SVMONE scores on validated arguments; ``K`` is the kernel of ``X`` when known,
    ``weights`` the multiplicity of each row."""
    Xt, _, constant = _feature_major(X)
    D = _fit_dual(_gram(Xt) if K is None else K, y, C, tol, weights)
    W = _weights(Xt, D, constant)
    if W.shape[1] == 1:
        return np.abs(W[:, 0])
    return _squared_importance(W)


# ------------------------------------------------------- one kernel shared by the resamples


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
    C, step, step_rule, n_features_to_select, tol
        As :func:`svm_rfe`.

    Returns
    -------
    SVMRFEResult
        Equal to ``svm_rfe(X[rows], y[rows], ...)``.
    """
    func = "svm_rfe_rows"
    idx = _check_rows(kernel, X, rows, func)
    args = _check_rfe(X, C, step, step_rule, n_features_to_select, tol, func)
    with _one_blas_thread(), _fast_sklearn():
        _, K0, Xd, yd, weights = _distinct_resample(kernel, X, np.asarray(y), idx)
        return _svm_rfe(Xd, yd, *args, K0=K0, weights=weights)


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
