"""Selectors that scale on sparse counts, one cluster against the rest (issue 29, item 2).

Three marker-gene statistics of single-cell analysis, each computed on a CSR count matrix
without densifying it, for one class against the rest on every resample of
:func:`modelmine.bootstrap` and, for the per-class panels, for every class of a resample at
once (:meth:`~modelmine.selectors.Selector.select_rows_one_vs_rest`):

- ``"wilcoxon"`` (:class:`WilcoxonSelector`): |z| of the tie-corrected Wilcoxon rank-sum
  (Mann-Whitney) test, scanpy's ``rank_genes_groups(method="wilcoxon", tie_correct=True)``
  scores. The zeros of a column share one mid-rank; only its non-zero entries are sorted,
  once for all the resamples of the data (:func:`rank_entries`): a resample's ranks follow
  from the multiplicities of its rows without another sort (:func:`wilcoxon_z`).
- ``"t-test"`` (:class:`WelchTSelector`): |t| of Welch's unequal-variance t-test, from the
  class sums and sums of squares of the non-zero entries (:func:`welch_t`), scanpy's
  ``method="t-test"`` scores and :func:`scipy.stats.ttest_ind` with ``equal_var=False``.
- ``"logreg"`` (:class:`LogRegSelector`): |coefficients| of an L1 (default) or L2 logistic
  regression of the class against the rest, fitted by liblinear or SAGA on the sparse
  matrix.

Pullin and McCarthy (Genome Biology 2024) compare 59 marker-gene selection methods on
single-cell data: the Wilcoxon rank-sum test, the t-test and logistic regression are among
the most effective, the simple tests among the fastest.

References
----------
.. [1] Mann, H. B. and Whitney, D. R. (1947). On a test of whether one of two random
   variables is stochastically larger than the other. *Annals of Mathematical Statistics*
   18(1), 50-60.
.. [2] Welch, B. L. (1947). The generalization of "Student's" problem when several
   different population variances are involved. *Biometrika* 34(1-2), 28-35.
.. [3] Ntranos, V., Yi, L., Melsted, P. and Pachter, L. (2019). A discriminative learning
   approach to differential expression analysis for single-cell RNA-seq. *Nature Methods*
   16, 163-166.
.. [4] Pullin, J. M. and McCarthy, D. J. (2024). A comparison of marker gene selection
   methods for single-cell RNA sequencing data. *Genome Biology* 25, 56.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp

from ..validation import check_choice, check_int, check_real
from ._base import LIBLINEAR_LOCK, Selector, SelectorOutput

__all__ = ["DIRECTIONS", "LogRegSelector", "RankedEntries", "WelchTSelector",
           "WilcoxonSelector", "directed", "rank_entries", "weakest", "welch_t",
           "welch_t_pairwise", "wilcoxon_auroc_pairwise", "wilcoxon_z"]

#: |t| of a feature whose two groups are each constant, at different values: Welch's t is
#: infinite there, the feature separates the groups perfectly. Scores must be finite (and
#: are stored as float32 by the bootstrap): the largest float32 ranks it first.
SEPARATED_SCORE = float(np.finfo(np.float32).max)

#: What a marker's direction may be: higher in the class ("up"), lower ("down"), either.
DIRECTIONS = ("both", "up", "down")


def directed(stat: np.ndarray, direction: str) -> np.ndarray:
    """A signed statistic (z, t, a coefficient) as a score, higher = better: ``|stat|``
    for ``"both"``, ``stat`` for ``"up"`` (markers higher in the class), ``-stat`` for
    ``"down"``."""
    if direction == "up":
        return stat
    if direction == "down":
        return -stat
    return np.abs(stat)


def _direction(direction: str, owner: str) -> str:
    return check_choice(direction, "direction", owner, list(DIRECTIONS))


def _comparison(owner: str, direction: str, reference: str) -> tuple[str, str]:
    """A selector's ``direction`` and ``reference`` ("rest" or "each"), checked."""
    return (_direction(direction, owner),
            check_choice(reference, "reference", owner, ["rest", "each"]))


def _comparison_params(selector: Any) -> dict[str, Any]:
    """The non-default ``direction`` and ``reference`` (the records of runs made before
    they existed read the same)."""
    out: dict[str, Any] = {}
    if selector.direction != "both":
        out["direction"] = selector.direction
    if selector.reference != "rest":
        out["reference"] = selector.reference
    return out


# --------------------------------------------------------------------------------------
# Wilcoxon rank-sum
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RankedEntries:
    """The non-zero entries of a matrix sorted by column, then value: what every resample's
    Wilcoxon ranks are computed from (:func:`rank_entries`, :func:`wilcoxon_z`).

    Attributes
    ----------
    n_samples, n_features : int
        The shape of the matrix.
    rows, cols : ndarray of intp, shape (nnz,)
        The row and the column of each non-zero entry, in sorted order.
    run : ndarray of intp, shape (nnz,)
        The run of ties (equal column and value) each entry belongs to, 0..n_runs-1.
    run_col : ndarray of intp, shape (n_runs,)
        The column of each run.
    run_positive : ndarray of bool, shape (n_runs,)
        Whether the run's value is positive (ranked above the zeros) or negative (below).
    col_first_run : ndarray of intp, shape (n_features,)
        The index of the first run of each column (of the next column's first run for a
        column without non-zero entries).
    run_start : ndarray of intp, shape (n_runs + 1,)
        The first entry of each run (its entries are ``run_start[r]:run_start[r + 1]``),
        then the number of entries.
    """

    n_samples: int
    n_features: int
    rows: np.ndarray
    cols: np.ndarray
    run: np.ndarray
    run_col: np.ndarray
    run_positive: np.ndarray
    col_first_run: np.ndarray
    run_start: np.ndarray

    @property
    def n_runs(self) -> int:
        """The number of runs of tied non-zero values over all columns."""
        return int(self.run_col.size)


def rank_entries(X: Any) -> RankedEntries:
    """Sort the non-zero entries of each column of X once, ties grouped into runs.

    The entries are sorted by column, then value, ties in row order (``lexsort``'s
    permutation, :func:`column_value_order`); explicit zeros of a sparse matrix are left
    out, as the implicit ones: the zeros of a column are ranked together, as one tie, by
    :func:`wilcoxon_z`. A sparse matrix is never densified (a dense one is read through its
    non-zero entries); a float32 one is sorted as it is, without a float64 copy.

    Parameters
    ----------
    X : ndarray or scipy.sparse matrix of shape (n_samples, n_features)
        Finite values; negative values are allowed (they rank below the zeros).

    Returns
    -------
    RankedEntries
    """
    n, p = X.shape
    if sp.issparse(X):
        Xc = sp.csc_matrix(X)
        if Xc.dtype not in (np.float32, np.float64):
            Xc = Xc.astype(np.float64)
        return _rank_columns(Xc.data, Xc.indices, Xc.indptr, n)
    Xd = np.asarray(X, dtype=np.float64)
    cols, rows = np.nonzero(Xd.T)  # column-major: grouped by column
    indptr = np.r_[0, np.cumsum(np.bincount(cols, minlength=p))]
    return _rank_columns(Xd[rows, cols], rows, indptr, n)


def _rank_columns(data: np.ndarray, rows: np.ndarray, indptr: np.ndarray,
                  n: int) -> RankedEntries:
    """:func:`rank_entries` of the matrix of n rows whose column j holds the values
    ``data[indptr[j]:indptr[j + 1]]`` in the rows ``rows[...]`` (CSC arrays, rows
    ascending within a column; explicit zeros are dropped here)."""
    p = indptr.size - 1
    indptr = np.asarray(indptr, dtype=np.intp)
    keep = data != 0
    if not keep.all():
        kept = np.r_[0, np.cumsum(keep, dtype=np.intp)]
        data, rows, indptr = data[keep], rows[keep], kept[indptr]
    order = _grouped_order(data, indptr)  # within each column: the entries stay in place
    v, rows = data[order], rows[order].astype(np.intp, copy=False)
    cols = np.repeat(np.arange(p, dtype=np.intp), np.diff(indptr))
    new = np.empty(v.size, dtype=bool)
    new[:1] = True
    np.not_equal(v[1:], v[:-1], out=new[1:])
    new[indptr[:-1][np.diff(indptr) > 0]] = True  # a column's first entry opens a run
    run = np.cumsum(new, dtype=np.intp) - 1
    first = np.flatnonzero(new)
    run_col = cols[first]
    return RankedEntries(
        n_samples=int(n), n_features=int(p), rows=rows, cols=cols, run=run,
        run_col=run_col, run_positive=v[first] > 0,
        col_first_run=np.searchsorted(run_col, np.arange(p, dtype=np.intp)),
        run_start=np.r_[first, v.size].astype(np.intp, copy=False))


def column_value_order(data: np.ndarray, cols: np.ndarray, p: int) -> np.ndarray:
    """``np.lexsort((data, cols))``, the same permutation, faster: a stable sort by value,
    then a stable sort by column, which numpy does by radix for 16-bit keys (up to 65,536
    columns). Values that float32 holds exactly (a float32 atlas, counts) are sorted by
    radix too, by the two 16-bit halves of their float32 bits made order-preserving
    (:func:`_radix_value_order`). Entries already grouped by column (``cols``
    non-decreasing, as a CSC matrix holds them) are sorted a few columns at a time
    (:func:`_grouped_order`), so that the sort's work arrays stay in the processor's
    cache."""
    if p > 1 << 16 or data.size < 1 << 12:
        return np.lexsort((data, cols))
    if not np.any(cols[1:] < cols[:-1]):
        return _grouped_order(data, np.searchsorted(cols, np.arange(p + 1)))
    single = data.astype(np.float32) + np.float32(0.0)
    if np.array_equal(single, data):
        by_value = _radix_value_order(single)
    else:
        by_value = np.argsort(data, kind="stable")
    return by_value[np.argsort(cols[by_value].astype(np.uint16), kind="stable")]


def _radix_value_order(single: np.ndarray) -> np.ndarray:
    """The stable sort of float32 values (-0.0 given as 0.0) by numpy's 16-bit radix sort:
    their order-preserving bits (:func:`_order_key`) sorted by the low half, then by the
    high half."""
    key = _order_key(single)
    by_value = np.argsort((key & 0xFFFF).astype(np.uint16), kind="stable")
    return by_value[np.argsort((key[by_value] >> 16).astype(np.uint16), kind="stable")]


def _order_key(single: np.ndarray) -> np.ndarray:
    """The bits of float32 values (-0.0 given as 0.0) as uint32 in the values' order:
    negative values' bits inverted, the sign bit set on the others (positive values:
    their bits as they are, a view, since the order of all of them is all that counts)."""
    bits = single.view(np.uint32)
    if single.size and single.min() > 0:
        return bits
    return np.where(bits >> 31 == 1, ~bits, bits | np.uint32(1 << 31))


#: Entries sorted at once by :func:`_grouped_order` (its work arrays fit in the cache).
_SORT_BLOCK = 1 << 16


def _grouped_order(data: np.ndarray, indptr: np.ndarray) -> np.ndarray:
    """The stable sort by value within each column of entries grouped by column (column j
    at ``indptr[j]:indptr[j + 1]``): ``lexsort((data, cols))``, taken a few columns (about
    ``_SORT_BLOCK`` entries) at a time. Float32-exact values are sorted by numpy's 16-bit
    radix sort: the low half of their order-preserving bits (:func:`_order_key`), then the
    high half and the column at once when the block's high halves span few values (their
    span times its columns fits 16 bits: values of a few binary orders of magnitude, as
    log-normalised counts), else one after the other; other values by a stable
    comparison sort, then the column."""
    single = data.astype(np.float32) + np.float32(0.0)  # -0.0 ties with 0.0, as in data
    exact = data.dtype == np.float32 or bool(np.array_equal(single, data))
    key = _order_key(single) if exact else None
    order = np.empty(data.size, dtype=np.intp)
    p = indptr.size - 1
    a = 0
    while a < p:
        b = int(np.searchsorted(indptr, indptr[a] + _SORT_BLOCK, side="right")) - 1
        b = min(max(b, a + 1), a + (1 << 16))
        s, e = int(indptr[a]), int(indptr[b])
        if e > s:
            col = (np.repeat(np.arange(b - a, dtype=np.uint16), np.diff(indptr[a:b + 1]))
                   if b - a > 1 else None)
            if key is None:
                local = np.argsort(data[s:e], kind="stable")
            else:
                local = np.argsort((key[s:e] & 0xFFFF).astype(np.uint16), kind="stable")
                high = (key[s:e] >> 16).astype(np.uint16)
                low_high = int(high.min())
                span = int(high.max()) - low_high + 1
                if col is not None and span * (b - a) <= 1 << 16:
                    col = col * np.uint16(span) + (high - np.uint16(low_high))
                else:
                    local = local[np.argsort(high[local], kind="stable")]
            if col is not None:
                local = local[np.argsort(col[local], kind="stable")]
            order[s:e] = local + s
        a = b
    return order


def _sums(index: np.ndarray, weights: np.ndarray | None, size: int) -> np.ndarray:
    """``bincount(index, weights, size)`` as float64 (also for no entries at all, or no
    weights: numpy then returns integers), summed in entry order."""
    return np.bincount(index, weights=weights, minlength=size).astype(np.float64,
                                                                        copy=False)


def _slots(codes: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """For each sample, the position of its class in ``classes`` (-1: not asked for)."""
    lookup = np.full(max(int(codes.max(initial=0)), int(classes.max(initial=0))) + 1, -1,
                     dtype=np.intp)
    lookup[classes] = np.arange(classes.size, dtype=np.intp)
    return lookup[codes]


def wilcoxon_z(ranked: RankedEntries, codes: Any, classes: Any,
               counts: Any = None) -> np.ndarray:
    """The tie-corrected Wilcoxon rank-sum z of each class of ``classes`` against the rest.

    For a class of ``n1`` of the ``N`` samples, with ``R1`` the sum of its samples' ranks
    (mid-ranks for ties) in a column,
    ``z = (R1 - n1 (N + 1) / 2) / sqrt(n1 n0 / 12 ((N + 1) - T / (N (N - 1))))``, with
    ``n0 = N - n1`` and the tie term ``T = sum (t^3 - t)`` over the column's runs of ``t``
    tied values (Mann and Whitney 1947): scanpy's ``rank_genes_groups(method="wilcoxon",
    tie_correct=True)`` scores. All the zeros of a column form one run of mid-rank
    ``N_neg + (N_zero + 1) / 2``; the ranks of the non-zero entries come from their sorted
    order (:func:`rank_entries`), so the matrix is never densified. A constant column (and
    a class that is empty or all the samples) has z = 0.

    ``counts`` gives the multiplicity of each sample: the data is then the matrix with row
    i repeated ``counts[i]`` times (a bootstrap resample ``X[rows]`` is
    ``counts = bincount(rows)``), and the ranks of that matrix follow from the sorted order
    of the original one without another sort. Ranks are half-integers and their sums are
    exact in float64 (up to about 2e5 samples), so the result equals that of the repeated
    matrix itself, bit for bit, and a class's z does not depend on the other classes.

    Parameters
    ----------
    ranked : RankedEntries
        :func:`rank_entries` of the matrix.
    codes : array-like of int, shape (n_samples,)
        Class codes, non-negative.
    classes : array-like of int
        The codes of the classes to test, each against all the other samples.
    counts : array-like of int, shape (n_samples,), optional
        Multiplicities of the samples (0 leaves a sample out). Default: 1 each.

    Returns
    -------
    ndarray of shape (len(classes), n_features)
    """
    rank_sum, n1, N, factor = rank_sums(ranked, codes, classes, counts)
    return rank_sum_z(rank_sum, n1, N, factor)


def rank_sums(ranked: RankedEntries, codes: Any, classes: Any, counts: Any = None
              ) -> tuple[np.ndarray, np.ndarray, float, np.ndarray]:
    """The one Wilcoxon rank-sum kernel (Mann and Whitney 1947) behind :func:`wilcoxon_z`,
    :func:`~modelmine.selectors._wilcoxon.wilcoxon_by_group` and every AUROC of a class
    against the rest (:func:`rank_sum_auroc`); arguments as :func:`wilcoxon_z`.

    Returns ``(R1, n1, N, factor)``: the rank sum of each class in each column, shape
    (L, p); the class sizes, shape (L, 1); the number of samples; and
    ``(N + 1) - T / (N (N - 1))`` per column (0 for a constant column), the tie-corrected
    variance of the rank sum being ``n1 n0 / 12 factor``.
    """
    n, p = ranked.n_samples, ranked.n_features
    codes = np.asarray(codes, dtype=np.intp)
    classes = np.atleast_1d(np.asarray(classes, dtype=np.intp))
    w = (np.ones(n, dtype=np.float64) if counts is None
         else np.asarray(counts, dtype=np.float64))
    N = float(w.sum())
    L = classes.size
    we = w[ranked.rows]
    # the weight (number of samples) of each run of ties, and of each column's non-zeros
    t = _sums(ranked.run, we, ranked.n_runs)
    nonzero = _sums(ranked.run_col, t, p)
    negative = _sums(ranked.run_col, np.where(ranked.run_positive, 0.0, t), p)
    zeros = N - nonzero
    # the mid-rank of each run: the weight of the column's runs before it, plus the zeros
    # for a positive run (negative values < 0 < positive values), plus (t + 1) / 2
    before = np.cumsum(t) - t
    before -= before[ranked.col_first_run[ranked.run_col]]
    mid = before + (t + 1.0) / 2.0 + np.where(ranked.run_positive,
                                              zeros[ranked.run_col], 0.0)
    zero_mid = negative + (zeros + 1.0) / 2.0
    # the rank sums of the classes: their non-zero entries, then their zeros
    slot = _slots(codes, classes)[ranked.rows]
    keep = slot >= 0
    if not keep.all():
        slot, cols, we_k, run = slot[keep], ranked.cols[keep], we[keep], ranked.run[keep]
    else:
        cols, we_k, run = ranked.cols, we, ranked.run
    flat = slot * p + cols
    rank_sum = _sums(flat, we_k * mid[run], L * p).reshape(L, p)
    in_nonzero = _sums(flat, we_k, L * p).reshape(L, p)
    n1 = _sums(codes, w, int(classes.max(initial=0)) + 1)[classes]
    n1 = n1[:, None]
    rank_sum += (n1 - in_nonzero) * zero_mid[None, :]
    ties = _sums(ranked.run_col, t ** 3 - t, p) + zeros ** 3 - zeros
    # (N + 1) - T / (N (N - 1)) is 0 for a constant column and at least 3 otherwise
    factor = (N + 1.0) - ties / (N * (N - 1.0)) if N > 1 else np.zeros(p)
    factor = np.where(factor < 1.0, 0.0, factor)
    return rank_sum, n1, N, factor


def rank_sum_z(rank_sum: np.ndarray, n1: np.ndarray, N: float,
               factor: np.ndarray) -> np.ndarray:
    """The tie-corrected z of :func:`rank_sums`' output (0 where the variance is 0)."""
    var = n1 * (N - n1) / 12.0 * factor[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(var > 0, (rank_sum - n1 * (N + 1.0) / 2.0) / np.sqrt(var), 0.0)
    return z


def rank_sum_auroc(rank_sum: np.ndarray, n1: np.ndarray, N: float) -> np.ndarray:
    """The AUROC of each class against the rest from :func:`rank_sums`' output:
    ``U / (n1 n0)`` with ``U = R1 - n1 (n1 + 1) / 2`` (ties count 1/2; 0.5 for a class
    that is empty or all the samples)."""
    n0 = N - n1
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(n1 * n0 > 0, (rank_sum - n1 * (n1 + 1.0) / 2.0) / (n1 * n0), 0.5)


def wilcoxon_auroc_pairwise(ranked: RankedEntries, codes: Any, classes: Any,
                            counts: Any = None) -> np.ndarray:
    """The AUROC of each class of ``classes`` against each other class, every column.

    ``A[i, j] = U / (n_c n_j)``, the Mann-Whitney U of class ``c = classes[i]`` against
    class j alone (the pairs (x in c, y in j) with x > y, ties counting 1/2) over the
    product of their sizes: the probability that a cell of c expresses the gene more than
    a cell of j (``scipy.stats.mannwhitneyu(...).statistic / (n_c n_j)``, sklearn's
    ``roc_auc_score``). Pairs with the class itself or with a class absent from the
    samples are NaN. This is the pairwise Wilcoxon comparison of scran's ``findMarkers``
    (``test.type="wilcox"``, whose effect size is this AUC; Lun, McCarthy and Marioni
    2016).

    From the sorted non-zero entries of :func:`rank_entries`, the zeros of a column being
    one tie: the weight of every class in each run of ties and, by one cumulative sum
    over the runs, below each run within its column, ``G[run, j]`` = j's weight below
    the run plus half of it in the run; the U of class c against every j is then the sum
    of G over c's entries, one sparse product for all the classes (entries x classes);
    the zeros are counted in closed form (c's positive entries are above j's zeros, c's
    zeros above j's negative entries and tied with j's zeros). Every term is a whole or
    half number, exact in float64, so U does not depend on the order of the sums.

    Parameters
    ----------
    ranked : RankedEntries
    codes : array-like of int, shape (n_samples,)
    classes : array-like of int
    counts : array-like of int, shape (n_samples,), optional
        Multiplicities of the samples (0 leaves a sample out). Default: 1 each.

    Returns
    -------
    ndarray of shape (len(classes), K, n_features), K = the largest code + 1
    """
    n, p = ranked.n_samples, ranked.n_features
    codes = np.asarray(codes, dtype=np.intp)
    classes = np.atleast_1d(np.asarray(classes, dtype=np.intp))
    K = max(int(codes.max(initial=0)), int(classes.max(initial=0))) + 1
    L = classes.size
    w = (np.ones(n, dtype=np.intp) if counts is None
         else np.asarray(counts, dtype=np.intp))
    sizes = _sums(codes, w, K)
    N = float(sizes.sum())
    cls = codes[ranked.rows]
    we = None if bool(np.all(w == 1)) else w[ranked.rows]
    # whole numbers: int32 while no sum can pass 2^31 (half the memory traffic), float64
    # (exact below 2^53) beyond
    dtype = np.int32 if 2 * N * (N + 1) < 2**31 else np.float64
    # each class's weight among a column's non-zero entries, and among its negative ones
    by_col = ranked.cols * K + cls
    nonzero = _sums(by_col, we, p * K).reshape(p, K).T
    if ranked.run_positive.all():
        negative = np.zeros((K, p))
    else:
        neg = ~ranked.run_positive[ranked.run]
        negative = _sums(by_col[neg], None if we is None else we[neg], p * K).reshape(p, K).T
    zeros = sizes[:, None] - nonzero
    # the row of the product each entry adds to (its column x L + its class's slot), and
    # its weight there (None: 1 each; 0: its class is not asked)
    if np.array_equal(classes, np.arange(K)):
        rows, asked = by_col, None if we is None else we.astype(dtype)
    else:
        slot = _slots(codes, classes)[ranked.rows]
        rows = ranked.cols * L + np.maximum(slot, 0)
        asked = np.where(slot >= 0, 1 if we is None else we, 0).astype(dtype)
    U = np.empty((L, K, p))
    # the non-zero entries' U by blocks of columns of at most _PAIRWISE_CELLS run x class
    # cells (the memory of the cumulative sums stays bounded)
    per_col = np.diff(np.r_[ranked.col_first_run, ranked.n_runs])
    ends = np.r_[0, np.cumsum(per_col)]
    before = nonzero.T.astype(dtype)
    a = 0
    while a < p:
        b = int(np.searchsorted(ends, ends[a] + _PAIRWISE_CELLS // K, side="right")) - 1
        b = max(b, a + 1)
        twice = _pairwise_nonzero(ranked, a, b, cls, we, rows, asked, before, L, dtype)
        U[:, :, a:b] = twice.reshape(b - a, L, K).transpose(1, 2, 0)
        a = b
    U *= 0.5
    # c's positive entries above j's zeros; c's zeros above j's negative entries, tied
    # with j's zeros
    positive = nonzero - negative
    U += positive[classes][:, None, :] * zeros[None, :, :]
    U += zeros[classes][:, None, :] * (negative[None, :, :] + 0.5 * zeros[None, :, :])
    with np.errstate(divide="ignore", invalid="ignore"):
        A = U / (sizes[classes][:, None, None] * sizes[None, :, None])
    A[:, sizes == 0] = np.nan
    A[sizes[classes] == 0] = np.nan
    A[np.arange(L), classes] = np.nan
    return A


#: Run x class cells of the cumulative sums :func:`wilcoxon_auroc_pairwise` holds at once
#: (two arrays of them, of int32 or float64: at most 32 MiB).
_PAIRWISE_CELLS = 1 << 21


def _pairwise_nonzero(ranked: RankedEntries, a: int, b: int, cls: np.ndarray,
                      we: np.ndarray | None, rows: np.ndarray, asked: np.ndarray | None,
                      nonzero: np.ndarray, L: int, dtype: Any) -> np.ndarray:
    """Twice the U of each asked class against each class over the non-zero entries of
    columns a..b-1 alone, shape ((b - a) L, K): row ``(column - a) L + slot``. Per entry:
    its class ``cls``, weight ``we`` (None: 1 each), row ``rows`` (column x L + slot) and
    weight in its row ``asked`` (None: 1 each); ``nonzero``: the weight of each class's
    non-zero entries, per column (n_features, K)."""
    p, K = ranked.n_features, nonzero.shape[1]
    ra = int(ranked.col_first_run[a])
    rb = int(ranked.col_first_run[b]) if b < p else ranked.n_runs
    ea, eb = int(ranked.run_start[ra]), int(ranked.run_start[rb])
    R = rb - ra
    if R == 0:
        return np.zeros(((b - a) * L, K), dtype=dtype)
    entries = slice(ea, eb)
    # each class's weight in each run of ties, then up to each run within its column: a
    # cumulative sum over the runs, each column restarted by taking off, at its first
    # run, the weight of the column before it
    at = ranked.run[entries] * K
    at += cls[entries] - ra * K
    T = np.bincount(at, weights=None if we is None else we[entries],
                    minlength=R * K).astype(dtype).reshape(R, K)
    filled = np.flatnonzero(np.diff(np.r_[ranked.col_first_run[a:b], rb])) + a
    first, before = ranked.col_first_run[filled[1:]] - ra, nonzero[filled[:-1]]
    T[first] -= before
    G = np.cumsum(T, axis=0, dtype=dtype)
    # twice (below the run + half of the run) = 2 (up to the run) - (in the run)
    G *= 2
    G -= T
    G[first] -= before  # T held the restart there
    data = np.ones(eb - ea, dtype=dtype) if asked is None else asked[entries]
    Q = sp.csc_matrix((data, rows[entries] - a * L, ranked.run_start[ra:rb + 1] - ea),
                      shape=((b - a) * L, R))
    return np.asarray(Q @ G)


class _Ranking:
    """The ranks a resample's Wilcoxon statistics need, from the cheaper of two routes.

    A resample that holds at least half of the samples (a bootstrap, a subsample of 0.8)
    reads the data's own ranking (:func:`rank_entries` of all of X, made on first need
    and kept for every later resample of the chunk) through the multiplicities of its
    rows. A resample of fewer distinct samples (capped per cluster: 10,000 of an atlas's
    100,000 cells) ranks its own distinct rows, ``X[unique(rows)]``, with their
    multiplicities: memory and work then follow the resample, not the atlas; its columns
    are ranked by blocks of at most ``_RESAMPLE_BLOCK_NNZ`` entries, so that the sort's
    work arrays stay bounded. Both give the ranks of ``X[rows]``; the statistics of a
    column depend on that column alone.
    """

    def __init__(self, X: Any):
        self.X = X
        self.full: RankedEntries | None = None

    def blocks(self, rows: np.ndarray) -> Iterator[tuple[RankedEntries, Any, np.ndarray]]:
        """``(ranked, samples, counts)`` for consecutive blocks of columns: the ranking,
        the samples it covers (an index into X's rows, or all of them) and each one's
        multiplicity in ``rows``."""
        n = self.X.shape[0]
        distinct, mult = np.unique(rows, return_counts=True)
        if 2 * distinct.size >= n:
            if self.full is None:
                self.full = rank_entries(self.X)
            yield self.full, slice(None), np.bincount(rows, minlength=n)
            return
        Xs = self.X[distinct]
        if not sp.issparse(Xs) or Xs.nnz <= _RESAMPLE_BLOCK_NNZ:
            yield rank_entries(Xs), distinct, mult
            return
        # one column-major copy of the resample's rows, ranked a block of columns at a time
        # from views of its arrays
        Xs = sp.csc_matrix(Xs)
        if Xs.dtype not in (np.float32, np.float64):
            Xs = Xs.astype(np.float64)
        ends = Xs.indptr
        a = 0
        while a < Xs.shape[1]:
            b = int(np.searchsorted(ends, ends[a] + _RESAMPLE_BLOCK_NNZ, side="right")) - 1
            b = max(b, a + 1)
            s, e = int(ends[a]), int(ends[b])
            yield (_rank_columns(Xs.data[s:e], Xs.indices[s:e], ends[a:b + 1] - s,
                                 distinct.size), distinct, mult)
            a = b


#: Non-zero entries of a small resample ranked at once (:class:`_Ranking`).
_RESAMPLE_BLOCK_NNZ = 1 << 20


def _as_ranking(prepared: Any, X: Any) -> _Ranking:
    """``prepared`` as a :class:`_Ranking` (a RankedEntries of all of X is kept as is)."""
    if isinstance(prepared, _Ranking):
        return prepared
    ranking = _Ranking(X)
    if isinstance(prepared, RankedEntries):
        ranking.full = prepared
    return ranking


class WilcoxonSelector(Selector):
    """z of the tie-corrected Wilcoxon rank-sum test, one class against the rest.

    The Mann-Whitney U / Wilcoxon rank-sum test (Mann and Whitney 1947) of class 1 against
    class 0, as a normal z with the tie correction: the ``scores`` of scanpy's
    ``rank_genes_groups(method="wilcoxon", tie_correct=True)``, and the z of
    :func:`scipy.stats.mannwhitneyu` (``method="asymptotic"``, ``use_continuity=False``).
    The score is ``|z|`` (``direction="both"``: markers that are up or down in the class both
    rank high), z (``"up"``: higher in the class, the order of scanpy's table) or -z
    (``"down"``). With ``reference="each"`` the class is compared with each other class
    alone, by the AUROC of the pair (:func:`wilcoxon_auroc_pairwise`), and scored by its
    weakest comparison, ``min_j (AUROC_cj - 1/2)`` directed as above (scran's
    ``findMarkers(test.type="wilcox", pval.type="all")``): a marker must separate the
    class from every other one, its siblings included. Pullin and McCarthy (Genome
    Biology 2024) find the Wilcoxon test among
    the most effective of 59 marker-gene selection methods for single-cell data.

    Sparse counts stay sparse: the zeros of a column share one mid-rank and only the
    non-zero entries are sorted (:func:`rank_entries`), once per chunk of resamples
    (:meth:`prepare`, independent of the labels); each resample's ranks then come from
    the multiplicities of its rows (a resample of fewer than half of the samples, such
    as the capped resamples of an atlas, ranks its own rows instead: :class:`_Ranking`),
    and every class of a resample is scored from the same ranks
    (:meth:`select_rows_one_vs_rest`, :func:`wilcoxon_z`). Negative values (scaled data)
    are ranked below the zeros. With more than two classes, :meth:`select` scores a
    feature by the largest score of the classes, each against the rest.
    """

    name = "wilcoxon"
    kind = "scores"
    supports_sparse = True
    supports_multiclass = True
    prepare_uses_labels = False
    takes_float32 = True

    def __init__(self, direction: str = "both", reference: str = "rest"):
        self.direction, self.reference = _comparison(type(self).__name__, direction,
                                                     reference)

    def get_params(self) -> dict[str, Any]:
        return _comparison_params(self)

    def _scores(self, ranked: RankedEntries, codes: np.ndarray, classes: np.ndarray,
                counts: Any) -> np.ndarray:
        """One row of scores per class: the directed z against the rest, or the weakest
        directed AUROC - 1/2 against each other class."""
        if self.reference == "each":
            A = wilcoxon_auroc_pairwise(ranked, codes, classes, counts)
            return weakest(A - 0.5, self.direction)
        return directed(wilcoxon_z(ranked, codes, classes, counts), self.direction)

    def prepare(self, X: Any, y: np.ndarray) -> _Ranking:
        """The data's ranking, made on first need and kept for the chunk's resamples
        (:class:`_Ranking`)."""
        return _Ranking(X)

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        return self._output(rank_entries(X), y, None, y)

    def select_rows(self, prepared: Any, X: Any, y: np.ndarray, rows: np.ndarray, *,
                    random_state: int) -> SelectorOutput:
        if prepared is None:
            return self.select(X[rows], y[rows], random_state=random_state)
        top = int(y[rows].max(initial=0))
        classes = np.array([1]) if top <= 1 else np.arange(top + 1)
        z = self._blocked(_as_ranking(prepared, X), y, rows, classes)
        return SelectorOutput(scores=z[0] if top <= 1 else z.max(axis=0))

    def _blocked(self, ranking: _Ranking, y: np.ndarray, rows: np.ndarray,
                 classes: np.ndarray) -> np.ndarray:
        """:meth:`_scores` of the resample ``rows``, block of columns by block."""
        parts = [self._scores(ranked, y[at], classes, counts)
                 for ranked, at, counts in ranking.blocks(rows)]
        return parts[0] if len(parts) == 1 else np.concatenate(parts, axis=1)

    def select_rows_one_vs_rest(self, prepared: list[Any], X: Any, y: np.ndarray,
                                rows: np.ndarray, classes: tuple[int, ...], *,
                                random_state: int) -> list[SelectorOutput]:
        """Every class of ``classes`` against the rest from one ranking of the resample:
        the ranks do not depend on the labels, a class's rank sum is one ``bincount``
        (each class's z equals that of ``select_rows`` on ``y == c``, bit for bit)."""
        ranking = _as_ranking(prepared[0] if len(prepared) else None, X)
        z = self._blocked(ranking, y, rows, np.asarray(classes, dtype=np.intp))
        return [SelectorOutput(scores=z[i]) for i in range(len(classes))]

    def _output(self, ranked: RankedEntries, y: np.ndarray, counts: Any,
                drawn: np.ndarray) -> SelectorOutput:
        """Binary labels (those drawn at most 1): the score of class 1; more: the
        largest score of the classes."""
        top = int(drawn.max(initial=0))
        classes = np.array([1]) if top <= 1 else np.arange(top + 1)
        z = self._scores(ranked, y, classes, counts)
        return SelectorOutput(scores=z[0] if top <= 1 else z.max(axis=0))


# --------------------------------------------------------------------------------------
# Welch's t-test
# --------------------------------------------------------------------------------------


def welch_t(X: Any, codes: Any, classes: Any) -> np.ndarray:
    """Welch's t of each class of ``classes`` against the rest, for every column of X.

    ``t = (m1 - m0) / sqrt(s1^2 / n1 + s0^2 / n0)`` with the group means ``m`` and the
    unbiased variances ``s^2`` (ddof=1) of the class (1) and of the rest (0) (Welch 1947):
    :func:`scipy.stats.ttest_ind` with ``equal_var=False``, and scanpy's
    ``rank_genes_groups(method="t-test")`` scores. The means and variances come from the
    column sums and sums of squares of the class and of all the samples (the rest is their
    difference), one ``bincount`` over the non-zero entries of a sparse matrix (never
    densified). Conventions where t is undefined or infinite (the score must be finite):

    - a group of fewer than 2 samples: t = 0 (its variance is undefined);
    - a column constant over all the samples: t = 0 (scanpy's, for scipy's NaN);
    - both groups constant, at different values (zero variances, a perfect separation):
      ``+-SEPARATED_SCORE`` (the largest float32), for scipy's +-inf.

    Whether a group is constant is decided exactly, from the minimum and maximum of its
    values, not from a rounded variance. A class's t does not depend on the other classes:
    it equals, bit for bit, the t of the binary labels ``codes == c``.

    Parameters
    ----------
    X : ndarray or scipy.sparse matrix of shape (n_samples, n_features)
    codes : array-like of int, shape (n_samples,)
        Class codes, non-negative.
    classes : array-like of int
        The codes of the classes to test, each against all the other samples.

    Returns
    -------
    ndarray of shape (len(classes), n_features)
    """
    codes = np.asarray(codes, dtype=np.intp)
    classes = np.atleast_1d(np.asarray(classes, dtype=np.intp))
    n, p = X.shape
    L = classes.size
    K = max(int(codes.max(initial=0)), int(classes.max(initial=0))) + 1
    sizes = np.bincount(codes, minlength=K).astype(np.float64)
    if sp.issparse(X):
        Xr = sp.csr_matrix(X, dtype=np.float64)
        v, cols = Xr.data, Xr.indices.astype(np.intp, copy=False)
        row = np.repeat(np.arange(n, dtype=np.intp), np.diff(Xr.indptr))
        code = codes[row]
        sq = v * v
        s_tot = _sums(cols, v, p)
        q_tot = _sums(cols, sq, p)
        slot = _slots(codes, classes)[row]
        keep = slot >= 0
        flat = slot[keep] * p + cols[keep]
        s1 = _sums(flat, v[keep], L * p).reshape(L, p)
        q1 = _sums(flat, sq[keep], L * p).reshape(L, p)
        lo_k, hi_k = _class_ranges(code * p + cols, v, sizes, p)
    else:
        Xd = np.asarray(X, dtype=np.float64)
        s_tot, q_tot = Xd.sum(axis=0), (Xd * Xd).sum(axis=0)
        s1, q1 = np.zeros((L, p)), np.zeros((L, p))
        for i, c in enumerate(classes):
            part = Xd[codes == c]
            s1[i], q1[i] = part.sum(axis=0), (part * part).sum(axis=0)
        lo_k, hi_k = np.full((K, p), np.inf), np.full((K, p), -np.inf)
        for k in np.flatnonzero(sizes):
            part = Xd[codes == k]
            lo_k[k], hi_k[k] = part.min(axis=0), part.max(axis=0)
    n1 = sizes[classes][:, None]
    n0 = n - n1
    s0, q0 = s_tot[None, :] - s1, q_tot[None, :] - q1
    # the range of the class and of the rest (the other classes), exactly
    lo1, hi1 = lo_k[classes], hi_k[classes]
    lo0, hi0 = np.full((L, p), np.inf), np.full((L, p), -np.inf)
    for i, c in enumerate(classes):
        others = np.flatnonzero((np.arange(K) != c) & (sizes > 0))
        if others.size:
            lo0[i], hi0[i] = lo_k[others].min(axis=0), hi_k[others].max(axis=0)
    flat1, flat0 = lo1 == hi1, lo0 == hi0
    with np.errstate(divide="ignore", invalid="ignore"):
        m1, m0 = s1 / n1, s0 / n0
        ss1 = np.where(flat1, 0.0, np.maximum(q1 - s1 * m1, 0.0))
        ss0 = np.where(flat0, 0.0, np.maximum(q0 - s0 * m0, 0.0))
        se2 = ss1 / ((n1 - 1.0) * n1) + ss0 / ((n0 - 1.0) * n0)
        t = (m1 - m0) / np.sqrt(se2)
    separated = flat1 & flat0 & (lo1 != lo0)
    t = np.where(se2 > 0, t, np.where(separated, np.sign(lo1 - lo0) * SEPARATED_SCORE, 0.0))
    t[((n1 < 2) | (n0 < 2)).ravel()] = 0.0
    return np.nan_to_num(t, nan=0.0, posinf=SEPARATED_SCORE, neginf=-SEPARATED_SCORE)


def _class_ranges(flat: np.ndarray, v: np.ndarray, sizes: np.ndarray,
                  p: int) -> tuple[np.ndarray, np.ndarray]:
    """The minimum and maximum of each class (rows) and column, zeros included, exactly:
    from the non-zero entries ``v`` at ``flat = class * p + column`` (a class with fewer
    non-zero entries than samples holds a zero too)."""
    K = sizes.size
    nz = v != 0
    at = flat[nz]
    nnz_k = np.bincount(at, minlength=K * p).reshape(K, p)
    lo = np.full(K * p, np.inf)
    hi = np.full(K * p, -np.inf)
    np.minimum.at(lo, at, v[nz])
    np.maximum.at(hi, at, v[nz])
    has_zero = nnz_k < sizes[:, None]
    return (np.where(has_zero, np.minimum(lo.reshape(K, p), 0.0), lo.reshape(K, p)),
            np.where(has_zero, np.maximum(hi.reshape(K, p), 0.0), hi.reshape(K, p)))


def _class_moments(X: Any, codes: np.ndarray, K: int) -> tuple[np.ndarray, ...]:
    """Per class k < K and column: the size, sum, sum of squares, minimum and maximum
    (zeros included), from one ``bincount`` over the non-zero entries of a sparse X."""
    n, p = X.shape
    sizes = np.bincount(codes, minlength=K).astype(np.float64)
    if sp.issparse(X):
        Xr = sp.csr_matrix(X, dtype=np.float64)
        v = Xr.data
        cols = Xr.indices.astype(np.intp, copy=False)
        code = codes[np.repeat(np.arange(n, dtype=np.intp), np.diff(Xr.indptr))]
        flat = code * p + cols
        s_k = _sums(flat, v, K * p).reshape(K, p)
        q_k = _sums(flat, v * v, K * p).reshape(K, p)
        return (sizes, s_k, q_k, *_class_ranges(flat, v, sizes, p))
    Xd = np.asarray(X, dtype=np.float64)
    s_k, q_k = np.zeros((K, p)), np.zeros((K, p))
    lo_k, hi_k = np.full((K, p), np.inf), np.full((K, p), -np.inf)
    for k in np.flatnonzero(sizes):
        part = Xd[codes == k]
        s_k[k], q_k[k] = part.sum(axis=0), (part * part).sum(axis=0)
        lo_k[k], hi_k[k] = part.min(axis=0), part.max(axis=0)
    return sizes, s_k, q_k, lo_k, hi_k


def welch_t_pairwise(X: Any, codes: Any, classes: Any) -> np.ndarray:
    """Welch's t of each class of ``classes`` against each other class, every column.

    ``t[i, j]`` is Welch's t of class ``classes[i]`` against class j alone (Welch 1947;
    :func:`scipy.stats.ttest_ind` with ``equal_var=False`` on the two classes' values),
    with the conventions of :func:`welch_t` (a class of fewer than 2 samples or two equal
    constant classes: 0; two constant classes at different values: +-``SEPARATED_SCORE``).
    Pairs with the class itself, or with a class of fewer than 2 samples (absent ones
    included), are NaN. This is
    the pairwise comparison of scran's ``findMarkers`` (Lun, McCarthy and Marioni 2016),
    which ranks a gene of a cluster by its weakest difference to any other cluster
    (``pval.type="all"``): a gene shared with a sibling cluster is then not a marker.

    Parameters
    ----------
    X : ndarray or scipy.sparse matrix of shape (n_samples, n_features)
    codes : array-like of int, shape (n_samples,)
    classes : array-like of int

    Returns
    -------
    ndarray of shape (len(classes), K, n_features), K = the largest code + 1
    """
    codes = np.asarray(codes, dtype=np.intp)
    classes = np.atleast_1d(np.asarray(classes, dtype=np.intp))
    K = max(int(codes.max(initial=0)), int(classes.max(initial=0))) + 1
    sizes, s_k, q_k, lo_k, hi_k = _class_moments(X, codes, K)
    flat = lo_k == hi_k
    with np.errstate(divide="ignore", invalid="ignore"):
        m_k = s_k / sizes[:, None]
        ss_k = np.where(flat, 0.0, np.maximum(q_k - s_k * m_k, 0.0))
        v_k = ss_k / ((sizes[:, None] - 1.0) * sizes[:, None])  # s^2 / n
        se2 = v_k[classes][:, None, :] + v_k[None, :, :]
        t = (m_k[classes][:, None, :] - m_k[None, :, :]) / np.sqrt(se2)
    separated = flat[classes][:, None, :] & flat[None, :, :] & (
        lo_k[classes][:, None, :] != lo_k[None, :, :])
    t = np.where(se2 > 0, t, np.where(separated, np.sign(
        lo_k[classes][:, None, :] - lo_k[None, :, :]) * SEPARATED_SCORE, 0.0))
    t = np.nan_to_num(t, nan=0.0, posinf=SEPARATED_SCORE, neginf=-SEPARATED_SCORE)
    small = sizes < 2
    t[small[classes]] = 0.0
    t[:, small] = np.nan  # no variance: no comparison (an absent class neither)
    t[np.arange(classes.size), classes] = np.nan
    return t


def weakest(t: np.ndarray, direction: str) -> np.ndarray:
    """Each class's score against its nearest other class: the minimum over the other
    classes of the directed statistic (``t[i, j]`` of :func:`welch_t_pairwise`); 0 for a
    class with no other class."""
    d = directed(t, direction)
    with np.errstate(invalid="ignore"):
        out = np.nanmin(np.where(np.isnan(d), np.inf, d), axis=1)
    return np.where(np.isinf(out) & (out > 0), 0.0, out)


class WelchTSelector(Selector):
    """t of Welch's t-test, one class against the rest or against each other class.

    Welch's unequal-variance t (Welch 1947) of class 1 against class 0: scanpy's
    ``rank_genes_groups(method="t-test")`` scores and :func:`scipy.stats.ttest_ind` with
    ``equal_var=False``, computed from the class sums and sums of squares over the
    non-zero entries of a sparse matrix (never densified; :func:`welch_t`). The score is
    ``|t|`` (``direction="both"``), t (``"up"``: higher in the class) or -t (``"down"``).
    With ``reference="each"`` the class is compared with each other class alone and
    scored by its weakest comparison (:func:`welch_t_pairwise`, scran's ``findMarkers``
    with ``pval.type="all"``): a marker must separate the class from every other one,
    its siblings included. A constant feature, or a group of fewer than 2 samples, scores
    0; a feature whose two groups are each constant at different values scores
    ``SEPARATED_SCORE`` (the largest float32, for an infinite t). With more than two
    classes, :meth:`select` scores a feature by the largest score of the classes. The per-class
    panels score every class of a resample from one pass over it
    (:meth:`select_rows_one_vs_rest`). Pullin and McCarthy (Genome Biology 2024) compare it
    with 58 other marker-gene selection methods.
    """

    name = "t-test"
    kind = "scores"
    supports_sparse = True
    supports_multiclass = True
    prepare_uses_labels = False
    takes_float32 = True
    #: what marker_panels checks the values against (scanpy's t-test expects them too)
    expects = "log-normalised"

    def __init__(self, direction: str = "both", reference: str = "rest"):
        self.direction, self.reference = _comparison(type(self).__name__, direction,
                                                     reference)

    def get_params(self) -> dict[str, Any]:
        return _comparison_params(self)

    def _scores(self, X: Any, y: np.ndarray, classes: np.ndarray) -> np.ndarray:
        if self.reference == "each" and int(y.max(initial=0)) > 1:
            return weakest(welch_t_pairwise(X, y, classes), self.direction)
        return directed(welch_t(X, y, classes), self.direction)

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        top = int(y.max(initial=0))
        classes = np.array([1]) if top <= 1 else np.arange(top + 1)
        t = self._scores(X, y, classes)
        return SelectorOutput(scores=t[0] if top <= 1 else t.max(axis=0))

    def select_rows_one_vs_rest(self, prepared: list[Any], X: Any, y: np.ndarray,
                                rows: np.ndarray, classes: tuple[int, ...], *,
                                random_state: int) -> list[SelectorOutput]:
        """Every class of ``classes`` against the rest from one pass over the resample
        (each class's t equals that of ``select_rows`` on ``y == c``, bit for bit)."""
        t = self._scores(X[rows], y[rows], np.asarray(classes, dtype=np.intp))
        return [SelectorOutput(scores=t[i]) for i in range(len(classes))]


# --------------------------------------------------------------------------------------
# Logistic regression
# --------------------------------------------------------------------------------------


class LogRegSelector(Selector):
    """Coefficients of a penalised logistic regression, one class against the rest.

    A :class:`sklearn.linear_model.LogisticRegression` of class 1 against class 0, fitted
    on the sparse matrix as it is (liblinear and SAGA take CSR input): L1 (default; most
    coefficients are exactly 0, those features score 0) or L2, with the inverse
    regularisation strength ``C``. The score of a feature is ``|coef|`` (``direction="both"``),
    coef (``"up"``: higher odds of the class as the feature rises) or -coef (``"down"``).
    With more than two
    classes, :meth:`select` fits each class against the rest and scores a feature by its
    largest ``|coef|``. Logistic regression as a marker-gene selector: Ntranos et al. (Nature
    Methods 2019), scanpy's ``rank_genes_groups(method="logreg")`` (a multinomial fit);
    Pullin and McCarthy (Genome Biology 2024) compare it with 58 other methods.

    liblinear seeds a process-global C random generator: its fits hold
    ``LIBLINEAR_LOCK`` (see :class:`modelmine.selectors._builtin.L1LogisticSelector`).

    Parameters
    ----------
    C : float, default=1.0
        Inverse regularisation strength (> 0).
    penalty : {"l1", "l2"}, default="l1"
    solver : {"liblinear", "saga"}, default="liblinear"
    max_iter : int, default=1000
    tol : float, default=1e-4
        The solver's stopping tolerance.
    """

    name = "logreg"
    kind = "scores"
    supports_sparse = True
    supports_multiclass = True
    prepare_uses_labels = False
    #: what marker_panels checks the values against
    expects = "log-normalised"

    def __init__(self, C: float = 1.0, penalty: str = "l1", solver: str = "liblinear",
                 max_iter: int = 1000, tol: float = 1e-4, direction: str = "both"):
        self.direction = _direction(direction, "LogRegSelector")
        self.C = check_real(C, "C", "LogRegSelector", low=0, closed="neither")
        self.penalty = check_choice(penalty, "penalty", "LogRegSelector", ["l1", "l2"])
        self.solver = check_choice(solver, "solver", "LogRegSelector", ["liblinear", "saga"])
        self.max_iter = check_int(max_iter, "max_iter", "LogRegSelector", min_value=1)
        self.tol = check_real(tol, "tol", "LogRegSelector", low=0, closed="neither")

    def estimator(self, random_state: int) -> Any:
        """The unfitted :class:`~sklearn.linear_model.LogisticRegression` of one fit."""
        from sklearn.linear_model import LogisticRegression

        return LogisticRegression(
            C=self.C, l1_ratio=1.0 if self.penalty == "l1" else 0.0, solver=self.solver,
            max_iter=self.max_iter, tol=self.tol, random_state=random_state)

    def _binary(self, X: Any, y: np.ndarray, random_state: int) -> np.ndarray:
        """The directed coefficients of one fit of ``y`` (0 / 1) (``|coef|`` for "both");
        zeros when the labels hold one class."""
        if y.size == 0 or y.min() == y.max():
            return np.zeros(X.shape[1])
        model = self.estimator(random_state)
        if self.solver == "liblinear":
            with LIBLINEAR_LOCK:
                model.fit(X, y)
        else:
            model.fit(X, y)
        return directed(np.asarray(model.coef_, dtype=np.float64)[0], self.direction)

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        top = int(y.max(initial=0))
        if top <= 1:
            return SelectorOutput(scores=self._binary(X, y, random_state))
        coef = np.stack([self._binary(X, (y == c).astype(np.int64), random_state)
                         for c in range(top + 1)])
        return SelectorOutput(scores=coef.max(axis=0))

    def select_rows_one_vs_rest(self, prepared: list[Any], X: Any, y: np.ndarray,
                                rows: np.ndarray, classes: tuple[int, ...], *,
                                random_state: int) -> list[SelectorOutput]:
        """Each class against the rest on the resample, drawn (``X[rows]``) once."""
        Xr, yr = X[rows], y[rows]
        return [SelectorOutput(scores=self._binary(Xr, (yr == c).astype(np.int64),
                                                   random_state)) for c in classes]

    def get_params(self) -> dict[str, Any]:
        out = {"C": self.C, "penalty": self.penalty, "solver": self.solver,
               "max_iter": self.max_iter, "tol": self.tol}
        if self.direction != "both":
            out["direction"] = self.direction
        return out
