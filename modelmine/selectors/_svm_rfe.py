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

Warm starts
-----------
Every step of RFE fits the SVM on the same rows with the same labels and boxes
``0 <= alpha_i <= C_i``; only the kernel changes. The previous step's multipliers are thus
feasible for the next dual, and usually close to its optimum. ``solver="warm"`` solves each
step with modelmine's SMO (``_smo.c``: libsvm's working-set selection of Fan, Chen and Lin,
JMLR 2005, its two-variable update with per-row ``C_i`` and its stopping rule
``m(a) - M(a) < tol`` and its shrinking; a float64 kernel, no float32 cache) started from them
(:func:`._svm_solver._fit_dual_warm`); merged rows restart it from zero. Each fit stops
within the same tolerance as libsvm's, at another point. The cost is the number of SMO
iterations, which the warm start cuts on microarrays and text and does not on madelon
(noisy, most multipliers at their bound: about 19,000 iterations per fit either way;
there the float64 rows without libsvm's per-fit overhead still make it 1.2x faster).
Which features SVM-RFE keeps depends on that tolerance more than on the solver: at
``tol = 1e-3`` the top 20 of two correct solvers overlap by about two thirds
(``docs/selectors_svm_rfe.md``, "Solver tolerance").

Other costs are kept linear: the features to remove are found by partition, not a full
sort, and the block of feature rows is compacted only when half of it is dead. BLAS runs on
one thread (see ``_one_blas_thread``).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray

from .._utils import readonly as _readonly
from ..validation import check_choice, check_int, check_real, param_error
from ._distinct_rows import _MERGE_MAX_FEATURES, _merge_on_features, _merged
from ._svm_solver import (
    _RECOMPUTE_MASS_RATIO,
    _downdate,
    _fast_sklearn,
    _feature_major,
    _fit_dual,
    _fit_dual_warm,
    _gram,
    _one_blas_thread,
    _warm_solver,
    _weights,
)

__all__ = ["SVMRFEResult", "svm_rfe", "svm_rfe_ranking", "svm_weights"]

_STEP_RULES = ("original", "remaining")

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
    sample_weight: NDArray[Any] | None = None,
    solver: str = "libsvm",
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
    sample_weight : ndarray of shape (n_samples,), optional
        Non-negative weights: row i gets the box ``C_i = C w_i``, as
        ``SVC.fit(X, y, sample_weight=w)`` (rows of weight 0 are left out). Integer
        weights fit the same SVM as the rows repeated that many times.
    solver : {"libsvm", "warm"}, default="libsvm"
        ``"libsvm"``: each step's SVM by scikit-learn's ``SVC(kernel="precomputed")``,
        from zero. ``"warm"``: by modelmine's SMO (``_smo.c``: libsvm's working-set
        rule, update, stopping rule and shrinking), each step started from the
        previous step's multipliers, which stay feasible when features are removed. The
        same SVM to the tolerance ``tol``; the two stop at different points within it, so
        rankings can differ by swaps of features whose importances are that close
        ("Warm starts" in the module docstring; ``docs/selectors_svm_rfe.md``).

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
    solver = _check_solver(solver, "svm_rfe")
    with _one_blas_thread(), _fast_sklearn():
        Xd, yd, weights = _merged(*_weighted_rows(X, np.asarray(y), sample_weight))
        return _svm_rfe(Xd, yd, *args, weights=weights, solver=solver)


#: The ``solver`` values of :func:`svm_rfe` and the "svm-rfe" selector.
SVM_RFE_SOLVERS = ("libsvm", "warm")


def _check_solver(solver: Any, func: str) -> str:
    solver = check_choice(solver, "solver", func, list(SVM_RFE_SOLVERS))
    if solver == "warm":
        _warm_solver()  # refuse now, by name, where the compiled SMO did not build
    return solver


def _weighted_rows(
    X: Any, y: NDArray[Any], sample_weight: NDArray[Any] | None
) -> tuple[Any, NDArray[Any], NDArray[np.float64] | None]:
    """``(X, y, w)`` without the rows of weight 0 (a box ``[0, 0]``: such a row never
    moves the SVM), ``w`` None when unweighted."""
    if sample_weight is None:
        return X, y, None
    w = np.asarray(sample_weight, dtype=np.float64)
    keep = w > 0
    if not keep.all():
        X, y, w = X[keep], y[keep], w[keep]
    return X, y, w


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
    solver: str = "libsvm",
) -> SVMRFEResult:
    """The elimination loop of :func:`svm_rfe`, on validated arguments; ``K0`` is the
    kernel of ``X`` when it is known already (a fresh array the loop may overwrite), and
    ``weights`` the multiplicity of each row (see :func:`_fit_dual`); ``solver="warm"``
    starts each step's SMO from the previous step's multipliers (:func:`_fit_dual_warm`)."""
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
    warm = solver == "warm"
    start: list[NDArray[np.float64]] | None = None

    while remaining.shape[0] > n_select:
        n_rem = remaining.shape[0]
        per_step.append(n_rem)
        if warm:
            D, start = _fit_dual_warm(K, y, C, tol, weights, start)
        else:
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
            start = None  # other rows: the next SMO starts from zero
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
        D = _fit_dual_warm(K, y, C, tol, weights, start)[0] if warm else \
            _fit_dual(K, y, C, tol, weights)
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
    sample_weight: NDArray[Any] | None = None,
    solver: str = "libsvm",
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
        sample_weight=sample_weight,
        solver=solver,
    ).ranking


def svm_weights(
    X: Any, y: NDArray[Any], *, C: float = 0.5, tol: float = 1e-3,
    sample_weight: NDArray[Any] | None = None,
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
    sample_weight : ndarray of shape (n_samples,), optional
        Non-negative weights, ``C_i = C w_i`` (as ``SVC.fit(..., sample_weight=w)``).

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
        Xd, yd, weights = _merged(*_weighted_rows(X, np.asarray(y), sample_weight))
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
