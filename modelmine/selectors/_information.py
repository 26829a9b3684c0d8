"""Information gain and symmetrical uncertainty of discretised features, vectorised.

"IG" and "SYM" are two of the seven selectors of the KDD'12 model-mining study (Woznica,
Nguyen & Kalousis 2012, Section 5), and symmetrical uncertainty is the "SU" selector of
Saeys et al. (PKDD 2008, Section 3). Both papers ran WEKA's InfoGainAttributeEval and
SymmetricalUncertAttributeEval, which first discretise every numeric feature with the
supervised MDL method of Fayyad & Irani (1993). :func:`discretize` reproduces that
discretisation (weka.filters.supervised.attribute.Discretize with its defaults): the search
runs column by column in the compiled kernel ``_mdl.c`` when it is built, else in numpy
over all features at once, one level of the recursion at a time (the same cuts, bit for
bit); :func:`information_gain` and
:func:`symmetrical_uncertainty` then build all the (feature, level, class) contingency tables
with a single ``bincount``.
"""

from __future__ import annotations

import functools
import importlib
import math
from collections.abc import Iterator
from typing import Any

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray

from .._docstring import fill_doc
from ..validation import check_choice, check_flag, check_int
from ._relieff import _column_blocks

__all__ = [
    "SortedColumns",
    "discretize",
    "information_gain",
    "resample_scores",
    "symmetrical_uncertainty",
]

_METHODS = ("mdl", "quantile", "uniform")
# Elements of the per-block work arrays (columns are processed in blocks of this size).
_BLOCK_ELEMENTS = 1 << 21
_LN2 = math.log(2.0)

#: numpydoc of the parameters shared by the scores of discretised features (IG and SU here,
#: gain ratio in ``_rankers``), filled in by :data:`doc_discretized`.
DOC_FRAGMENTS = {
    "discretized_params": """\
X : ndarray of shape (n_samples, n_features_in) or scipy.sparse CSR matrix
        Float64 data without missing values.
    y : ndarray of shape (n_samples,)
        Int64 class codes 0..K-1.
    discretization : {"mdl", "quantile", "uniform"}, default="mdl"
        How each feature is discretised first (:func:`discretize`).
    n_bins : int, default=10
        Bins of the unsupervised discretisations ("quantile", "uniform").
    better_encoding : bool, default=True
        "mdl" only: charge the candidate cut points of each interval in the MDL cost, as
        WEKA's attribute evaluators do (see :func:`discretize`).""",
}
doc_discretized = fill_doc(DOC_FRAGMENTS)


# --------------------------------------------------------------------------------------
# WEKA's entropy formulas (weka.core.ContingencyTables), in bits, term order preserved.
# --------------------------------------------------------------------------------------
def _xlnx(a: NDArray[np.float64]) -> NDArray[np.float64]:
    """``a * ln(a)``, 0 for a <= 0 (WEKA's ``lnFunc``)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(a > 0, a * np.log(np.where(a > 0, a, 1.0)), 0.0)


def _weka_entropy(counts: NDArray[np.float64]) -> NDArray[np.float64]:
    """Entropy (bits) of each row of class counts: ``ContingencyTables.entropy``."""
    value = np.zeros(counts.shape[0])
    total = np.zeros(counts.shape[0])
    for k in range(counts.shape[1]):
        value = value - _xlnx(counts[:, k])
        total = total + counts[:, k]
    with np.errstate(divide="ignore", invalid="ignore"):
        out = (value + _xlnx(total)) / (total * _LN2)
    return np.where(total > 0, out, 0.0)


def _weka_conditional_entropy(
    left: NDArray[np.float64], right: NDArray[np.float64]
) -> NDArray[np.float64]:
    """Class entropy (bits) given a binary split: ``ContingencyTables.entropyConditionedOnRows``."""
    value = np.zeros(left.shape[0])
    total = np.zeros(left.shape[0])
    for part in (left, right):
        row_sum = np.zeros(part.shape[0])
        for k in range(part.shape[1]):
            value = value + _xlnx(part[:, k])
            row_sum = row_sum + part[:, k]
        value = value - _xlnx(row_sum)
        total = total + row_sum
    with np.errstate(divide="ignore", invalid="ignore"):
        out = -value / (total * _LN2)
    return np.where(total > 0, out, 0.0)


def _mdl_accepts(
    prior: NDArray[np.float64],
    left: NDArray[np.float64],
    right: NDArray[np.float64],
    n_inst: NDArray[np.float64],
    n_cut_points: NDArray[np.float64] | None = None,
) -> NDArray[np.bool_]:
    """Fayyad & Irani's MDL acceptance test (1993, Section 3), as WEKA's FayyadAndIranisMDL.

    ``gain > (log2(T) + log2(3^k - 2) - (k E - k1 E1 - k2 E2)) / N``, N instances in the
    set, k / k1 / k2 classes present in the set / left / right part, E / E1 / E2 their
    entropies, T the number of candidate cut points: ``n_cut_points`` (the boundaries
    between distinct values, WEKA's "better encoding", which its attribute evaluators use)
    or, when None, ``N - 1`` (Fayyad and Irani's count, the default of WEKA's Discretize
    filter).
    """
    prior_ent = _weka_entropy(prior)
    gain = prior_ent - _weka_conditional_entropy(left, right)
    k = np.count_nonzero(prior > 0, axis=1).astype(np.float64)
    k1 = np.count_nonzero(left > 0, axis=1).astype(np.float64)
    k2 = np.count_nonzero(right > 0, axis=1).astype(np.float64)
    delta = np.log(3.0**k - 2.0) / _LN2 - (
        k * prior_ent - k2 * _weka_entropy(right) - k1 * _weka_entropy(left)
    )
    n_cuts = n_inst - 1.0 if n_cut_points is None else n_cut_points
    return gain > (np.log(n_cuts) / _LN2 + delta) / n_inst


def _mdl_cuts_block(
    block: NDArray[np.float64], y: NDArray[np.int64], n_classes: int, better_encoding: bool = True
) -> tuple[NDArray[np.intp], NDArray[np.float64]]:
    """MDL cut points of every column of a dense block: (column index, cut value) pairs.

    The recursion of WEKA's ``cutPointsForSubset`` is run breadth-first over all columns:
    at each level every open interval (column, start, stop) of the sorted column is tried
    at every boundary between two distinct values; the first boundary of least class
    entropy is kept if it lowers the entropy and passes the MDL test, and then splits the
    interval into two new open intervals. Cut value = midpoint of the two values.

    Only boundaries between distinct values can be cuts, so each column is first reduced
    to its distinct values and their class counts (one ``bincount``), and the search runs
    over those: on word counts a column has a handful of distinct values among thousands
    of rows. The entropies, the tie rule (first boundary in sorted order) and the MDL test
    see exactly the counts of the row-wise search, so the cuts are the same, bit for bit.
    """
    n, b = block.shape
    order = np.argsort(block, axis=0, kind="stable")
    xs = np.take_along_axis(block, order, axis=0).T  # (b, n) sorted values per column
    ys = y[order].T
    # group = index of the distinct value within its column, in increasing order
    group = np.zeros((b, n), dtype=np.int64)
    np.cumsum(xs[:, 1:] > xs[:, :-1], axis=1, out=group[:, 1:])
    n_groups = group[:, -1] + 1 if n else np.zeros(b, dtype=np.int64)
    width = int(n_groups.max()) if b else 0
    cell = (np.arange(b)[:, None] * width + group) * n_classes + ys
    counts = np.bincount(cell.ravel(), minlength=b * width * n_classes)
    values = np.zeros((b, width))
    values[np.arange(b)[:, None], group] = xs
    _, _, cut_feat, cut_val = _search_levels(
        counts.reshape(b, width, n_classes), values, n, better_encoding)
    return cut_feat, cut_val


def _weka_conditional_entropy_counts(
    left: NDArray[np.int64], right: NDArray[np.int64], xlnx: NDArray[np.float64]
) -> NDArray[np.float64]:
    """:func:`_weka_conditional_entropy` of integer counts, ``x ln x`` read from a table.

    ``xlnx[c]`` = :func:`_xlnx` of ``c`` for every count ``c`` that can occur, so each term,
    each sum (same order) and the result are those of :func:`_weka_conditional_entropy` on
    the same counts held in float64, bit for bit; a gather replaces the where / log / where
    passes of every term.
    """
    value = np.zeros(left.shape[0])
    total = np.zeros(left.shape[0], dtype=np.int64)
    for part in (left, right):
        row_sum = np.zeros(part.shape[0], dtype=np.int64)
        for k in range(part.shape[1]):
            value = value + xlnx[part[:, k]]
            row_sum = row_sum + part[:, k]
        value = value - xlnx[row_sum]
        total = total + row_sum
    with np.errstate(divide="ignore", invalid="ignore"):
        out = -value / (total * _LN2)
    return np.where(total > 0, out, 0.0)


def _weka_entropy_counts(
    counts: NDArray[np.int64], xlnx: NDArray[np.float64]
) -> NDArray[np.float64]:
    """:func:`_weka_entropy` of integer counts with ``x ln x`` from a table, bit for bit."""
    value = np.zeros(counts.shape[0])
    total = np.zeros(counts.shape[0], dtype=np.int64)
    for k in range(counts.shape[1]):
        value = value - xlnx[counts[:, k]]
        total = total + counts[:, k]
    with np.errstate(divide="ignore", invalid="ignore"):
        out = (value + xlnx[total]) / (total * _LN2)
    return np.where(total > 0, out, 0.0)


def _mdl_accepts_counts(
    prior: NDArray[np.int64],
    left: NDArray[np.int64],
    right: NDArray[np.int64],
    prior_ent: NDArray[np.float64],
    xlnx: NDArray[np.float64],
    n_cut_points: NDArray[np.float64] | None = None,
) -> NDArray[np.bool_]:
    """:func:`_mdl_accepts` of integer counts (``prior_ent`` = the prior's entropy), bit for
    bit: the same terms in the same order, ``x ln x`` read from the table ``xlnx``."""
    gain = prior_ent - _weka_conditional_entropy_counts(left, right, xlnx)
    k = np.count_nonzero(prior > 0, axis=1).astype(np.float64)
    k1 = np.count_nonzero(left > 0, axis=1).astype(np.float64)
    k2 = np.count_nonzero(right > 0, axis=1).astype(np.float64)
    delta = np.log(3.0**k - 2.0) / _LN2 - (
        k * prior_ent
        - k2 * _weka_entropy_counts(right, xlnx)
        - k1 * _weka_entropy_counts(left, xlnx)
    )
    n_inst = prior.sum(axis=1).astype(np.float64)
    n_cuts = n_inst - 1.0 if n_cut_points is None else n_cut_points
    return gain > (np.log(n_cuts) / _LN2 + delta) / n_inst


def _mdl_search(
    cum: NDArray[np.float64],
    values: NDArray[np.float64],
    n_groups: NDArray[np.int64],
    better_encoding: bool = True,
) -> tuple[NDArray[np.intp], NDArray[np.float64]]:
    """WEKA's MDL recursion over the distinct values of each column.

    ``cum[j, g]`` holds the class counts of the values of column ``j`` below its ``g``-th
    distinct value (shape (b, width + 1, K); integers, in any numeric dtype),
    ``values[j, g]`` that value and ``n_groups[j]`` the number of distinct values; returns
    (column, cut value) pairs. ``better_encoding``: the MDL cost counts the candidate cut
    points of the interval (its distinct values - 1), as WEKA's attribute evaluators do,
    instead of its instances - 1 (see :func:`discretize`).
    """
    b = cum.shape[0]
    icum = cum.astype(np.int64, copy=False)
    # x ln x of every count that can occur (0 .. the largest column total): the candidates'
    # entropies become gathers (see _weka_conditional_entropy_counts)
    n_max = int(icum[:, -1].sum(axis=1).max()) if b else 0
    xlnx = _xlnx(np.arange(n_max + 1, dtype=np.float64))
    feat = np.arange(b)
    start = np.zeros(b, dtype=np.intp)
    stop = n_groups.astype(np.intp)
    cut_feat: list[NDArray[np.intp]] = []
    cut_val: list[NDArray[np.float64]] = []
    while feat.size:
        n_cand = stop - start - 1
        keep = n_cand >= 1
        feat, start, stop, n_cand = feat[keep], start[keep], stop[keep], n_cand[keep]
        if feat.size == 0:
            break
        offsets = np.cumsum(n_cand) - n_cand
        seg = np.repeat(np.arange(feat.size), n_cand)
        pos = start[seg] + np.arange(seg.size) - offsets[seg]  # cut after group pos
        f = feat[seg]
        below = icum[f, pos + 1]
        left = below - icum[f, start[seg]]
        right = icum[f, stop[seg]] - below
        ent = _weka_conditional_entropy_counts(left, right, xlnx)
        seg_min = np.minimum.reduceat(ent, offsets)
        first = np.minimum.reduceat(
            np.where(ent == seg_min[seg], np.arange(seg.size), seg.size), offsets
        )
        prior = icum[feat, stop] - icum[feat, start]
        # WEKA keeps a cut only if it strictly lowers the entropy (gain > 0) and passes MDL.
        prior_ent = _weka_entropy_counts(prior, xlnx)
        accept = seg_min < prior_ent
        accept &= _mdl_accepts_counts(prior, left[first], right[first], prior_ent, xlnx,
                                      n_cand.astype(np.float64) if better_encoding else None)
        cpos = pos[first][accept]
        cf = feat[accept]
        cut_feat.append(cf)
        cut_val.append((values[cf, cpos] + values[cf, cpos + 1]) / 2.0)
        feat = np.concatenate([cf, cf])
        start = np.concatenate([start[accept], cpos + 1])
        stop = np.concatenate([cpos + 1, stop[accept]])
    if not cut_feat:
        return np.empty(0, dtype=np.intp), np.empty(0)
    return np.concatenate(cut_feat), np.concatenate(cut_val)


@functools.lru_cache(maxsize=1)
def _mdl_kernel() -> Any | None:
    """modelmine's compiled MDL search (``_mdl.c``), or None on an install without a C
    compiler (the numpy search, :func:`_mdl_search`, gives the same cuts)."""
    try:  # by name: a compiled module, not a source file of this package
        return importlib.import_module(f"{__package__}._mdl")
    except ImportError:
        return None


@functools.lru_cache(maxsize=8)
def _kernel_tables(n_max: int, n_classes: int) -> tuple[NDArray[np.float64], ...]:
    """The tables the compiled search reads its transcendentals from, made by numpy as
    :func:`_mdl_search` makes them: ``x ln x`` and ``ln x`` of 0 .. ``n_max`` and
    ``ln(3^k - 2)`` of k = 0 .. ``n_classes`` (so its floats are numpy's, bit for bit).
    Read-only, made once per (resample size, classes) and shared by every block and
    resample of that size."""
    counts = np.arange(n_max + 1, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_n = np.log(counts)
        log_3k = np.log(3.0 ** np.arange(n_classes + 1, dtype=np.float64) - 2.0)
    tables = (_xlnx(counts), log_3k, log_n)
    for table in tables:
        table.flags.writeable = False
    return tables


def _search_levels(
    counts: NDArray[np.int64], values: NDArray[np.float64], n_max: int, better_encoding: bool
) -> tuple[NDArray[np.int32], NDArray[np.int64], NDArray[np.intp], NDArray[np.float64]]:
    """WEKA's MDL search of every column of a block from its class counts per distinct value.

    ``counts`` (cols, width, K) int64: the class counts of each value index of each
    column (0 for a value absent); ``values`` (cols, >= width) float64: the distinct values
    in increasing order; ``n_max`` at least every column's total. Returns ``(levels,
    n_cuts, cut_feat, cut_val)``: the level of each value index present (the number of its
    column's cuts below it; 0 for the others), the number of cuts of each column and the
    cuts as (column, value) pairs. The compiled kernel (``_mdl.c``) when it is built, else
    :func:`_mdl_search` over the values present; the same cuts, bit for bit
    (``tests/selectors/test_information.py``).
    """
    cols, width, n_classes = counts.shape
    kernel = _mdl_kernel()
    if kernel is None or cols == 0 or width == 0:
        return _search_levels_numpy(counts, values[:, :width], better_encoding)
    counts = np.ascontiguousarray(counts, dtype=np.int64)
    values = np.ascontiguousarray(values, dtype=np.float64)
    xlnx, log_3k, log_n = _kernel_tables(n_max, n_classes)
    levels = np.empty((cols, width), dtype=np.int32)
    n_cuts = np.empty(cols, dtype=np.int64)
    cap = cols * max(width - 1, 0)
    cut_feat = np.empty(cap, dtype=np.int64)
    cut_val = np.empty(cap)
    total = kernel.search(counts, values, values.shape[1], n_classes, bool(better_encoding),
                          xlnx, log_3k, log_n, _LN2, levels, n_cuts, cut_feat, cut_val)
    return levels, n_cuts, cut_feat[:total].astype(np.intp, copy=False), cut_val[:total]


def _search_levels_numpy(
    counts: NDArray[np.int64], values: NDArray[np.float64], better_encoding: bool
) -> tuple[NDArray[np.int32], NDArray[np.int64], NDArray[np.intp], NDArray[np.float64]]:
    """:func:`_search_levels` by numpy: the columns reduced to their values present
    (:func:`_compact`), :func:`_mdl_search`, and each value's level from the cuts."""
    cols, width, _ = counts.shape
    jj, gg, new, n_present, compact, vals = _compact(counts, values)
    w2 = compact.shape[1]
    cum = np.zeros((cols, w2 + 1, counts.shape[2]))
    cum[:, 1:, :] = np.cumsum(compact, axis=1)
    cut_feat, cut_val = _mdl_search(cum, vals, n_present, better_encoding)
    above = (vals[cut_feat] > cut_val[:, None]).ravel()
    cell = (cut_feat[:, None] * w2 + np.arange(w2)).ravel()[above]
    level = np.bincount(cell, minlength=cols * w2).reshape(cols, w2)
    levels = np.zeros((cols, width), dtype=np.int32)
    levels[jj, gg] = level[jj, new]
    return levels, np.bincount(cut_feat, minlength=cols).astype(np.int64), cut_feat, cut_val


def _level_table(
    counts: NDArray[Any], levels: NDArray[np.int32], n_levels: int
) -> NDArray[np.float64]:
    """The (column, level, class) counts of a block: each value's class counts added at its
    level (integer sums held in float64: any order gives the same floats)."""
    cols, width, n_classes = counts.shape
    kernel = _mdl_kernel()
    if kernel is not None and cols and width:
        table = np.zeros((cols, n_levels, n_classes))
        kernel.level_table(np.ascontiguousarray(counts, dtype=np.int64),
                           np.ascontiguousarray(levels, dtype=np.int32), n_levels, table)
        return table
    flat = ((np.arange(cols)[:, None] * n_levels + levels)[:, :, None] * n_classes
            + np.arange(n_classes)).ravel()
    return (np.bincount(flat, weights=counts.ravel(), minlength=cols * n_levels * n_classes)
            .astype(np.float64, copy=False).reshape(cols, n_levels, n_classes))


def _codes_from_cuts(
    block: NDArray[np.float64], cut_feat: NDArray[np.intp], cut_val: NDArray[np.float64]
) -> tuple[NDArray[np.int32], NDArray[np.int64]]:
    """Code of x = number of cut points c < x (WEKA: ``x <= c`` falls in the lower bin)."""
    n, b = block.shape
    codes = np.zeros((n, b), dtype=np.int32)
    n_levels = 1 + np.bincount(cut_feat, minlength=b).astype(np.int64)
    if cut_feat.size:
        order = np.argsort(cut_feat, kind="stable")
        cut_feat, cut_val = cut_feat[order], cut_val[order]
        above = block[:, cut_feat] > cut_val
        uniq, first = np.unique(cut_feat, return_index=True)
        codes[:, uniq] = np.add.reduceat(above, first, axis=1, dtype=np.int32)
    return codes, n_levels


def _interior_cuts(
    block: NDArray[np.float64], method: str, n_bins: int
) -> tuple[NDArray[np.intp], NDArray[np.float64]]:
    """Unsupervised cut points: equal-width ("uniform") or equal-frequency ("quantile").

    Interior edges are ``numpy.linspace(min, max, n_bins + 1)`` (as :func:`pandas.cut`) or
    the sample quantiles ``j / n_bins`` with linear interpolation (as :func:`pandas.qcut`);
    edges equal to the minimum, the maximum or to a previous edge are dropped (qcut's
    ``duplicates="drop"``), so a constant feature has a single level.
    """
    lo, hi = block.min(axis=0), block.max(axis=0)
    if method == "uniform":
        edges = np.linspace(lo, hi, n_bins + 1, axis=1)[:, 1:-1]
    else:
        edges = np.quantile(block, np.arange(1, n_bins) / n_bins, axis=0).T
    valid = (edges > lo[:, None]) & (edges < hi[:, None])
    valid[:, 1:] &= edges[:, 1:] != edges[:, :-1]
    feat, col = np.nonzero(valid)
    return feat, edges[feat, col]


def discretize(
    X: NDArray[np.float64] | sp.spmatrix,
    y: NDArray[np.int64],
    *,
    method: str = "mdl",
    n_bins: int = 10,
    better_encoding: bool = True,
) -> tuple[NDArray[np.int32], NDArray[np.int64]]:
    """Discretise every feature: supervised MDL (default), equal-frequency or equal-width.

    ``"mdl"`` is the multi-interval entropy discretisation of Fayyad & Irani (1993) with
    their MDL stopping rule, exactly as WEKA's supervised ``Discretize`` filter with its
    defaults, which InfoGainAttributeEval and SymmetricalUncertAttributeEval apply before
    scoring; the KDD'12 study (Woznica et al. 2012, Section 5) and Saeys et al. (PKDD 2008,
    Section 3) used them.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features_in) or scipy.sparse CSR matrix
        Float64 data without missing values. Sparse input is processed by column blocks,
        never densified whole.
    y : ndarray of shape (n_samples,)
        Int64 class codes 0..K-1 (used by "mdl" only).
    method : {"mdl", "quantile", "uniform"}, default="mdl"
    n_bins : int, default=10
        Number of bins for "quantile" and "uniform" (ignored by "mdl").
    better_encoding : bool, default=True
        "mdl" only: the MDL cost of a cut counts the candidate cut points of the interval
        (the boundaries between its distinct values), as WEKA's attribute evaluators
        (InfoGain, GainRatio, SymmetricalUncert, ChiSquared, CfsSubsetEval) set on their
        Discretize filter (``setUseBetterEncoding(true)``). False charges ``N - 1``
        candidates for N instances, as Fayyad and Irani (1993) and the default of WEKA's
        standalone Discretize filter (without ``-E``). The two differ on tied values
        (three-level microarrays, counts): see ``docs/weka.md``.

    Returns
    -------
    codes : int32 ndarray of shape (n_samples, n_features_in)
        Level of each value, 0 .. n_levels[j] - 1, in increasing order of the values.
    n_levels : int64 ndarray of shape (n_features,)
        Number of intervals of each feature (number of cut points + 1); 1 for a feature
        without cut points (for example a constant one), whose IG and SU are then 0.

    Notes
    -----
    A value equal to a cut point falls in the lower interval (WEKA's convention, as
    ``pandas.cut`` / ``qcut`` with right-closed bins). For "mdl" the cut candidates are the
    midpoints between consecutive distinct sorted values; the first candidate of least
    class entropy wins ties.
    """
    method = check_choice(method, "method", "discretize", _METHODS)
    n_bins = int(check_int(n_bins, "n_bins", "discretize", min_value=2))
    better_encoding = check_flag(better_encoding, "better_encoding", "discretize")
    n, p = X.shape
    n_classes = int(y.max()) + 1
    codes = np.empty((n, p), dtype=np.int32)
    n_levels = np.empty(p, dtype=np.int64)
    per_column = n * (n_classes + 2) if method == "mdl" else n * max(n_bins, 2)
    width = max(1, _BLOCK_ELEMENTS // per_column)
    for a, b, block in _column_blocks(X, width):
        if method == "mdl":
            cut_feat, cut_val = _mdl_cuts_block(block, y, n_classes, better_encoding)
        else:
            cut_feat, cut_val = _interior_cuts(block, method, int(n_bins))
        codes[:, a:b], n_levels[a:b] = _codes_from_cuts(block, cut_feat, cut_val)
    return codes, n_levels


# --------------------------------------------------------------------------------------
# Contingency tables and the two scores (natural logarithms).
# --------------------------------------------------------------------------------------
def _contingency(
    codes: NDArray[np.integer[Any]], n_levels: NDArray[np.int64], y: NDArray[np.int64]
) -> NDArray[np.float64]:
    """All (feature, level, class) counts at once: one ``bincount`` -> (p, L, K)."""
    p = codes.shape[1]
    n_classes = int(y.max()) + 1
    width = int(n_levels.max()) if p else 1
    flat = (np.arange(p, dtype=np.int64)[None, :] * width + codes) * n_classes + y[:, None]
    table = np.bincount(flat.ravel(), minlength=p * width * n_classes)
    return table.reshape(p, width, n_classes).astype(np.float64)


def _entropy_nats(counts: NDArray[np.float64], axis: int) -> NDArray[np.float64]:
    """Shannon entropy (nats) of count vectors along ``axis`` (0 log 0 = 0)."""
    total = counts.sum(axis=axis, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        prob = np.where(total > 0, counts / total, 0.0)
        terms = np.where(prob > 0, -prob * np.log(np.where(prob > 0, prob, 1.0)), 0.0)
    return terms.sum(axis=axis)


def _ig_and_entropies(
    codes: NDArray[np.integer[Any]], n_levels: NDArray[np.int64], y: NDArray[np.int64]
) -> tuple[NDArray[np.float64], float, NDArray[np.float64]]:
    """IG (nats) of every feature, H(C) and H(F) of every feature, from discrete codes.

    IG = H(C) - H(C | F) = sum_{v,c} (n_vc / n) log(n n_vc / (n_v n_c)), computed as the
    mutual information (the form of :func:`sklearn.metrics.mutual_info_score`, better
    conditioned than a difference of entropies) and clipped at 0.
    """
    return _ig_from_table(_contingency(codes, n_levels, y), y)


def _discretized_ig(
    X: NDArray[np.float64] | sp.spmatrix,
    y: NDArray[np.int64],
    discretization: Any,
    n_bins: Any,
    func: str,
    better_encoding: Any = True,
) -> tuple[NDArray[np.float64], float, NDArray[np.float64]]:
    """IG, H(C) and H(F) after :func:`discretize`, the parameters checked for ``func``
    (the public scores of discretised features: IG, SU and gain ratio)."""
    check_choice(discretization, "discretization", func, _METHODS)
    check_int(n_bins, "n_bins", func, min_value=2)
    check_flag(better_encoding, "better_encoding", func)
    codes, n_levels = discretize(X, y, method=discretization, n_bins=n_bins,
                                 better_encoding=bool(better_encoding))
    return _ig_and_entropies(codes, n_levels, y)


def _ig_from_table(
    table: NDArray[np.float64], y: NDArray[np.int64]
) -> tuple[NDArray[np.float64], float, NDArray[np.float64]]:
    """IG (nats), H(C) and H(F) from the (feature, level, class) counts of the labels ``y``."""
    n = y.shape[0]
    n_v = table.sum(axis=2, keepdims=True)
    n_c = np.bincount(y, minlength=table.shape[2]).astype(np.float64)[None, None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(
            table > 0,
            table
            / n
            * (
                np.log(np.where(table > 0, table, 1.0))
                + math.log(n)
                - np.log(np.where(n_v > 0, n_v, 1.0))
                - np.log(n_c)
            ),
            0.0,
        )
    ig = np.clip(terms.sum(axis=(1, 2)), 0.0, None)
    h_f = _entropy_nats(n_v[:, :, 0], axis=1)
    # A feature with one observed level carries no information: exactly 0, not rounding.
    ig[np.count_nonzero(n_v[:, :, 0], axis=1) <= 1] = 0.0
    h_c = float(_entropy_nats(n_c[0, 0][None, :], axis=1)[0])
    return ig, h_c, h_f


def _su(ig: NDArray[np.float64], h_c: float, h_f: NDArray[np.float64]) -> NDArray[np.float64]:
    """SU = 2 IG / (H(C) + H(F)), 0 where the denominator is 0."""
    denom = h_c + h_f
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denom > 0, 2.0 * ig / np.where(denom > 0, denom, 1.0), 0.0)


def chi2_from_table(table: NDArray[np.float64], n: int) -> NDArray[np.float64]:
    """Pearson's chi-square of each feature's (level, class) table: sum (O - E)^2 / E."""
    rows = table.sum(axis=2, keepdims=True)
    cols = table.sum(axis=1, keepdims=True)
    expected = rows * cols / n
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(expected > 0, (table - expected) ** 2 / expected, 0.0)
    return terms.sum(axis=(1, 2))


@doc_discretized
def information_gain(
    X: NDArray[np.float64] | sp.spmatrix,
    y: NDArray[np.int64],
    *,
    discretization: str = "mdl",
    n_bins: int = 10,
    better_encoding: bool = True,
) -> NDArray[np.float64]:
    """Information gain IG(C; F) = H(C) - H(C | F), in bits, of every discretised feature.

    The "IG" selector of Woznica, Nguyen & Kalousis (KDD 2012, Section 5), as WEKA's
    InfoGainAttributeEval: each feature is first discretised by :func:`discretize`
    (Fayyad & Irani MDL, with WEKA's "better encoding", by default). In bits, as WEKA
    reports it; equal to WEKA 3.6's scores to 1e-14 on the shared datasets
    (``tests/selectors/test_weka_information.py``).

    Parameters
    ----------
    %(discretized_params)s

    Returns
    -------
    ndarray of shape (n_features,)
        IG >= 0; 0 for a feature discretised into a single level (for example a constant
        one, or one where MDL finds no cut).
    """
    return _discretized_ig(X, y, discretization, n_bins, "information_gain",
                           better_encoding)[0] / _LN2


@doc_discretized
def symmetrical_uncertainty(
    X: NDArray[np.float64] | sp.spmatrix,
    y: NDArray[np.int64],
    *,
    discretization: str = "mdl",
    n_bins: int = 10,
    better_encoding: bool = True,
) -> NDArray[np.float64]:
    """Symmetrical uncertainty SU(C; F) = 2 IG(C; F) / (H(C) + H(F)) of every feature.

    The "SYM" selector of Woznica, Nguyen & Kalousis (KDD 2012, Section 5) and the "SU"
    selector of Saeys, Abeel & Van de Peer (PKDD 2008, Section 3), as WEKA's
    SymmetricalUncertAttributeEval, on features discretised by :func:`discretize`. SU lies
    in [0, 1] and does not depend on the base of the logarithm.

    Parameters
    ----------
    %(discretized_params)s

    Returns
    -------
    ndarray of shape (n_features,)
        SU in [0, 1]; 0 when H(C) + H(F) = 0 and for a single-level feature.
    """
    ig, h_c, h_f = _discretized_ig(X, y, discretization, n_bins, "symmetrical_uncertainty",
                                   better_encoding)
    return _su(ig, h_c, h_f)


# --------------------------------------------------------------------------------------
# One sort per fold, shared by its resamples (bootstrap): MDL, IG, SU and chi2.
# --------------------------------------------------------------------------------------
class SortedColumns:
    """Each column's distinct values and every row's value index, computed once per data set.

    All the resamples of :func:`modelmine.bootstrap` draw rows of the same data: a
    resample's MDL discretisation (Fayyad & Irani 1993, as WEKA, used by the KDD'12 "IG",
    "SYM" and "CHI" selectors, Woznica et al. 2012, Section 5) needs only the class counts
    of each distinct value of each column among its rows, which one ``bincount`` over the
    value indices gives without sorting again (rows drawn twice count twice, as in
    ``X[rows]``). :func:`resample_scores` then returns exactly the scores of
    :func:`information_gain`, :func:`symmetrical_uncertainty` and the chi2 selector on
    ``X[rows], y[rows]``, bit for bit.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features) or scipy.sparse matrix
        Float64 data without missing values; dense input is sorted by column blocks,
        sparse input by its stored entries only.
    """

    def __init__(self, X: NDArray[np.float64] | sp.spmatrix):
        n, p = X.shape
        self.shape = (n, p)
        self.sparse = sp.issparse(X)
        self.group: NDArray[np.int32] | None = None
        if self.sparse:
            self._init_sparse(X)
            return
        self.group = np.empty((n, p), dtype=np.int32)
        blocks: list[NDArray[np.float64]] = []
        self.n_groups = np.empty(p, dtype=np.int64)
        for a, b, block in _column_blocks(X, max(1, _BLOCK_ELEMENTS // max(1, n))):
            order = np.argsort(block, axis=0, kind="stable")
            xs = np.take_along_axis(block, order, axis=0)
            group = np.zeros(block.shape, dtype=np.int32)
            np.cumsum(xs[1:] > xs[:-1], axis=0, out=group[1:])
            np.put_along_axis(self.group[:, a:b], order, group, axis=0)
            self.n_groups[a:b] = group[-1] + 1 if n else 0
            vals = np.zeros((b - a, int(self.n_groups[a:b].max()) if n else 0))
            vals[np.arange(b - a)[None, :], group] = xs
            blocks.append(vals)
        width = max((v.shape[1] for v in blocks), default=0)
        self.values = np.zeros((p, width))
        col = 0
        for vals in blocks:
            self.values[col : col + vals.shape[0], : vals.shape[1]] = vals
            col += vals.shape[0]

    def blocks(self, n_rows: int, n_classes: int) -> Iterator[tuple[int, int, int]]:
        """Column blocks ``(start, stop, width)`` for counting ``n_rows`` rows: ``width``
        the block's largest number of distinct values. Dense data: a block's value indices
        are (rows x columns); sparse: its work arrays are (columns x distinct values x
        classes), the stored entries counted once; either way about ``_BLOCK_ELEMENTS``."""
        p = self.shape[1]
        per_column = self.values.shape[1] * (n_classes + 2)
        if not self.sparse:
            per_column = max(n_rows, per_column)
        step = max(1, _BLOCK_ELEMENTS // per_column)
        for a in range(0, p, step):
            b = min(p, a + step)
            yield a, b, int(self.n_groups[a:b].max()) if b > a else 0

    def _init_sparse(self, X: sp.spmatrix) -> None:
        """Sparse input: only the stored entries are sorted, O(nnz log nnz), never n x p.

        Keeps the stored entries (row, column, value index) and the index of the value 0
        in each column, so that a resample's counts cost O(nnz). A column's distinct values
        are its stored values plus 0 when some of its rows are not stored: the same values,
        in the same order, as a sort of the dense column.
        """
        n, p = self.shape
        Xc = sp.csc_matrix(X, dtype=np.float64, copy=True)
        Xc.sum_duplicates()
        self.indptr = Xc.indptr.astype(np.int64)
        self.rows = Xc.indices.astype(np.int64)
        stored = np.diff(self.indptr)
        nnz = self.rows.shape[0]
        # one virtual entry of value 0 per column with rows not stored
        implicit = np.flatnonzero(stored < n)
        col = np.concatenate([np.repeat(np.arange(p), stored), implicit])
        val = np.concatenate([Xc.data, np.zeros(implicit.shape[0])])
        order = np.lexsort((val, col))
        sv, sc = val[order], col[order]
        first = np.ones(sv.shape[0], dtype=bool)  # first entry of a distinct value
        first[1:] = (sc[1:] != sc[:-1]) | (sv[1:] > sv[:-1])
        self.n_groups = np.bincount(sc[first], minlength=p).astype(np.int64)
        base = np.cumsum(self.n_groups) - self.n_groups
        group = np.cumsum(first) - 1 - base[sc]
        width = int(self.n_groups.max()) if p else 0
        self.values = np.zeros((p, width))
        self.values[sc, group] = sv
        real = order < nnz
        self.entry_group = np.empty(nnz, dtype=np.int64)
        self.entry_group[order[real]] = group[real]
        self.zero_group = np.count_nonzero(
            (self.values < 0) & (np.arange(width)[None, :] < self.n_groups[:, None]), axis=1
        )


#: Dense data with at most this fraction of non-zeros are sorted as sparse (same counts).
_SPARSE_DENSITY = 0.1


def _nonzeros_up_to(dense: NDArray[Any], limit: float) -> int:
    """``np.count_nonzero(dense)`` when it is at most ``limit``, else some count above it:
    the rows are counted block by block and the count stops once it passes ``limit``, so
    deciding that a large dense matrix is not mostly zeros reads about ``limit`` of its
    entries, not all of them."""
    n, p = dense.shape
    step = max(1, _BLOCK_ELEMENTS // max(p, 1))
    total = 0
    for start in range(0, n, step):
        total += int(np.count_nonzero(dense[start:start + step]))
        if total > limit:
            break
    return total


def sorted_columns(X: NDArray[np.float64] | sp.spmatrix) -> SortedColumns:
    """:class:`SortedColumns` of ``X``, dense data that are mostly zeros (PCMAC is read as
    a dense array) taken by their non-zeros: the same distinct values and counts, so the
    same scores, for a fraction of the work (issue 37)."""
    if not sp.issparse(X):
        dense = np.asarray(X, dtype=np.float64)
        limit = _SPARSE_DENSITY * dense.size
        if _nonzeros_up_to(dense, limit) <= limit:
            return SortedColumns(sp.csr_matrix(dense))
    return SortedColumns(X)


def sorted_columns_nbytes(X: NDArray[np.float64] | sp.spmatrix) -> int:
    """Peak bytes of :func:`sorted_columns` on ``X``, bounded from its shape and non-zeros
    (checked against ``tracemalloc`` in ``tests/base_models/test_shared_memory.py``).

    Dense: the ``n x p`` int32 value indices and the ``p x width`` float64 distinct values
    (``width``, the most distinct values of a column, at most ``n``), ``12 n p``, plus one
    block's sort (about :data:`_BLOCK_ELEMENTS` values, 40 bytes each). Sparse (and dense
    data that are mostly zeros, converted first): the CSC copy, each entry's row and value
    index (int64), the transient sort of the entries plus one per column, and the distinct
    values, ``width`` at most one more than the most non-zeros of a column.
    """
    n, p = X.shape
    convert = 0
    if not sp.issparse(X):
        dense = np.asarray(X)
        nnz = _nonzeros_up_to(dense, _SPARSE_DENSITY * dense.size)
        if nnz > _SPARSE_DENSITY * dense.size:
            return 12 * n * p + 40 * min(n * p, max(n, _BLOCK_ELEMENTS))
        most = int(np.count_nonzero(dense, axis=0).max()) if p else 0
        convert = n * p + 28 * nnz + 8 * (n + 1)  # csr_matrix(dense): a mask, the indices
    else:
        S: Any = X
        nnz = int(S.nnz)
        if S.format == "csc":
            counts = np.diff(S.indptr)
        else:
            counts = np.bincount(S.indices if S.format == "csr" else S.tocoo().col, minlength=p)
        most = int(counts.max()) if p else 0
    width = min(n, most + 1)
    entries = nnz + p
    return convert + 28 * nnz + 8 * (p + 1) + 96 * entries + 8 * p * width + 48 * p


def _block_levels(
    fold: SortedColumns, rows: NDArray[np.intp], y: NDArray[np.int64], n_classes: int,
    better_encoding: bool = True,
) -> Iterator[tuple[int, NDArray[np.int64], NDArray[np.int32], NDArray[np.int64]]]:
    """Per column block of the resample ``rows`` (``y`` = its labels): WEKA's MDL search
    over the class counts of the values present (:func:`_search_levels`), yielded as
    ``(a, counts, levels, n_cuts)``: the class counts of each value index of columns
    ``a:``, the level of each (the number of cuts below it) and each column's number of
    cuts."""
    weights = y_full = None
    if fold.sparse:
        y_full = np.zeros(fold.shape[0], dtype=np.int64)
        y_full[rows] = y
        weights = record_weights(fold, rows, y_full, n_classes)
    for a, b, width in fold.blocks(rows.shape[0], n_classes):
        if weights is not None:
            counts = _sparse_counts(fold, a, b, width, weights[0], y_full,
                                    weights[1]).astype(np.int64)
        else:
            counts = _dense_counts(fold, a, b, width, rows, y, n_classes)
        levels, n_cuts, _, _ = _search_levels(counts, fold.values[a:b], rows.shape[0],
                                              better_encoding)
        yield a, counts, levels, n_cuts


def _dense_counts(fold: SortedColumns, a: int, b: int, width: int, rows: NDArray[np.intp],
                  y: NDArray[np.int64], n_classes: int) -> NDArray[np.int64]:
    """Class counts per (column, value index) of columns ``a:b`` of dense ``fold`` among
    ``rows`` (a row drawn twice counts twice): one pass over the resample's value indices
    (compiled, or one ``bincount``)."""
    assert fold.group is not None
    cols = b - a
    kernel = _mdl_kernel()
    if kernel is not None and cols and width:
        counts = np.zeros((cols, width, n_classes), dtype=np.int64)
        kernel.dense_counts(fold.group, fold.shape[1], a,
                            np.ascontiguousarray(rows, dtype=np.int64),
                            np.ascontiguousarray(y, dtype=np.int64), width, n_classes, counts)
        return counts
    cell = (np.arange(cols)[None, :] * width + fold.group[rows, a:b]) * n_classes
    flat = np.bincount((cell + y[:, None]).ravel(), minlength=cols * width * n_classes)
    return flat.astype(np.int64, copy=False).reshape(cols, width, n_classes)


def _compact(counts: NDArray[Any], values: NDArray[np.float64]) -> tuple[
        NDArray[np.intp], NDArray[np.intp], NDArray[np.intp], NDArray[np.int64],
        NDArray[Any], NDArray[np.float64]]:
    """Each column of a block (class counts per value index ``counts``, the values
    ``values``) reduced to the values its rows hold, in increasing order: ``(jj, gg, new,
    n_present, compact, vals)``: value index ``gg`` of column ``jj`` is present and becomes
    its ``new``-th; the number present per column; their counts (``counts``' dtype) and
    values, left-aligned."""
    cols = counts.shape[0]
    present: NDArray[np.bool_] = np.asarray((counts > 0).any(axis=2))
    jj, gg = np.nonzero(present)
    n_present = np.bincount(jj, minlength=cols).astype(np.int64)
    new = (np.arange(jj.size) - (np.cumsum(n_present) - n_present)[jj]).astype(np.intp)
    w2 = int(n_present.max()) if cols else 0
    compact = np.zeros((cols, w2, counts.shape[2]), dtype=counts.dtype)
    compact[jj, new] = counts[jj, gg]
    vals = np.zeros((cols, w2))
    vals[jj, new] = values[jj, gg]
    return jj, gg, new, n_present, compact, vals


def _compact_present(fold: SortedColumns, a: int, counts: NDArray[Any]) -> tuple[
        NDArray[np.intp], NDArray[np.intp], NDArray[np.intp], NDArray[np.bool_],
        NDArray[np.int64], NDArray[Any], NDArray[np.float64]]:
    """:func:`_compact` of columns ``a:`` of ``fold`` (class counts per value index
    ``counts``), with the present mask: ``(jj, gg, new, present, n_present, compact,
    values)``."""
    cols, width, _ = counts.shape
    jj, gg, new, n_present, compact, values = _compact(counts, fold.values[a:a + cols, :width])
    present = np.zeros((cols, width), dtype=bool)
    present[jj, gg] = True
    return jj, gg, new, present, n_present, compact, values


def record_weights(fold: SortedColumns, records: NDArray[np.intp], y_full: NDArray[np.int64],
                   n_classes: int | None = None
                   ) -> tuple[NDArray[np.float64], NDArray[np.float64]] | None:
    """For sparse ``fold``: how often each row of the data is among ``records`` (float64)
    and the class totals over them (``n_classes`` of them at least; default: up to the
    largest label of ``y_full``), once per set of records (:func:`_sparse_counts` takes
    them for every column block); None for dense ``fold``."""
    if not fold.sparse:
        return None
    multiplicity = np.bincount(records, minlength=fold.shape[0]).astype(np.float64)
    totals = np.bincount(y_full, weights=multiplicity,
                         minlength=int(y_full.max()) + 1 if n_classes is None else n_classes)
    return multiplicity, totals.astype(np.float64)


def _resample_tables(
    fold: SortedColumns, rows: NDArray[np.intp], y: NDArray[np.int64], n_classes: int,
    better_encoding: bool = True,
) -> NDArray[np.float64]:
    """The (feature, MDL level, class) counts of the resample ``rows`` (``y`` = its labels).

    Per column block: class counts per distinct value present in the resample (one pass
    over its value indices), WEKA's MDL search over them (:func:`_search_levels`), the
    level of each value = number of cuts below it (:func:`_block_levels`), and each
    value's counts added at its level (:func:`_level_table`). The table has the
    width of :func:`_contingency` on the resample's codes, so every later sum is the same.
    """
    p = fold.shape[1]
    blocks: list[tuple[int, NDArray[np.float64]]] = []
    max_levels = 1
    for a, counts, levels, n_cuts in _block_levels(fold, rows, y, n_classes, better_encoding):
        n_levels = 1 + int(n_cuts.max(initial=0))
        max_levels = max(max_levels, n_levels)
        blocks.append((a, _level_table(counts, levels, n_levels)))
    table = np.zeros((p, max_levels, n_classes))
    for a, part in blocks:
        table[a : a + part.shape[0], : part.shape[1]] = part
    return table


def resample_codes(
    fold: SortedColumns, y: NDArray[np.int64], rows: NDArray[np.intp],
    better_encoding: bool = True,
) -> tuple[NDArray[np.int32], NDArray[np.int64]]:
    """:func:`discretize` (MDL) of the resample ``X[rows], y[rows]``, from ``fold``.

    Equal to ``discretize(X[rows], y[rows], method="mdl")`` (the codes and the number of
    levels of each feature, as WEKA's supervised Discretize gives CfsSubsetEval; KDD 2012,
    Section 5, "CFS"), without sorting the resample: the cuts come from the class counts
    of the values present (:func:`_block_levels`), and each record takes the level of
    its value. Issue 37: the CFS selector's shared route.
    """
    y_r = y[rows]
    n_classes = int(y_r.max()) + 1
    n, p = rows.shape[0], fold.shape[1]
    codes = np.zeros((n, p), dtype=np.int32)
    n_levels = np.ones(p, dtype=np.int64)
    distinct, record_of = np.unique(rows, return_inverse=True)
    for a, _, by_group, n_cuts in _block_levels(fold, rows, y_r, n_classes,
                                                 bool(better_encoding)):
        cols = n_cuts.shape[0]
        n_levels[a : a + cols] += n_cuts
        if fold.sparse:
            # every row of the resample holds 0 where nothing is stored, then its entries
            zero = np.minimum(fold.zero_group[a : a + cols], by_group.shape[1] - 1)
            block = np.repeat(by_group[np.arange(cols), zero][None, :], distinct.size, axis=0)
            lo, hi = fold.indptr[a], fold.indptr[a + cols]
            r = fold.rows[lo:hi]
            col = np.repeat(np.arange(cols), np.diff(fold.indptr[a : a + cols + 1]))
            pos = np.searchsorted(distinct, r)
            drawn = (pos < distinct.size) & (distinct[np.minimum(pos, distinct.size - 1)] == r)
            block[pos[drawn], col[drawn]] = by_group[col[drawn], fold.entry_group[lo:hi][drawn]]
            codes[:, a : a + cols] = block[record_of]
        else:
            assert fold.group is not None
            codes[:, a : a + cols] = np.take_along_axis(
                by_group.T, fold.group[rows, a : a + cols], axis=0)
    return codes, n_levels


def _sparse_counts(
    fold: SortedColumns,
    a: int,
    b: int,
    width: int,
    multiplicity: Any,
    y_full: Any,
    totals: Any,
) -> NDArray[np.float64]:
    """Class counts per (column, value index) of columns ``a:b`` from the stored entries.

    Each stored entry adds its row's multiplicity in the resample; the value 0 gets the
    class totals minus what the stored entries took (explicit zeros land in its own index).
    Counts are integers held exactly in float64: the same numbers as the dense route.
    """
    cols = b - a
    n_classes = totals.shape[0]
    lo, hi = fold.indptr[a], fold.indptr[b]
    r = fold.rows[lo:hi]
    col = np.repeat(np.arange(cols), np.diff(fold.indptr[a : b + 1]))
    cell = ((col * width + fold.entry_group[lo:hi]) * n_classes) + y_full[r]
    flat: NDArray[np.float64] = np.bincount(
        cell, weights=multiplicity[r], minlength=cols * width * n_classes
    ).astype(np.float64, copy=False)
    counts = flat.reshape(cols, width, n_classes)
    # class counts of each column's stored entries (integers: any order of sums is exact)
    stored = np.bincount(
        col * n_classes + y_full[r], weights=multiplicity[r], minlength=cols * n_classes
    ).reshape(cols, n_classes)
    # (a column without zeros gets 0 added; its index is clipped into the block)
    zero = np.minimum(fold.zero_group[a:b], width - 1)
    counts[np.arange(cols), zero] += totals[None, :] - stored
    return counts


def resample_scores(
    fold: SortedColumns, y: NDArray[np.int64], rows: NDArray[np.intp], score: str,
    better_encoding: bool = True,
) -> NDArray[np.float64]:
    """IG, SU, chi2 or gain ratio after MDL discretisation of the resample ``X[rows]``,
    ``y[rows]``.

    Equal, bit for bit, to :func:`information_gain`, :func:`symmetrical_uncertainty`, the
    chi2 selector (WEKA's InfoGain / SymmetricalUncert / ChiSquared attribute evaluators,
    KDD'12 Section 5) or :func:`modelmine.selectors.gain_ratio` (GainRatioAttributeEval,
    Pes 2019, Section 3.1) called on the resample, without sorting it.

    Parameters
    ----------
    fold : SortedColumns
        Built once from the full ``X``.
    y : ndarray of shape (n_samples,)
        Int64 class codes of the full data.
    rows : ndarray of int
        The resample's rows (repeats allowed).
    score : {"ig", "su", "chi2", "gainratio"}
    better_encoding : bool, default=True
        As in :func:`discretize`.
    """
    score = check_choice(score, "score", "resample_scores", ["ig", "su", "chi2", "gainratio"])
    y_r = y[rows]
    n_classes = int(y_r.max()) + 1
    table = _resample_tables(fold, rows, y_r, n_classes, bool(better_encoding))
    if score == "chi2":
        return chi2_from_table(table, rows.shape[0])
    ig, h_c, h_f = _ig_from_table(table, y_r)
    if score == "ig":
        return ig / _LN2
    if score == "gainratio":
        return gain_ratio_of(ig, h_f)
    return _su(ig, h_c, h_f)


# WEKA's Utils.eq tolerance: a split entropy within 1e-6 bits of 0 gives a gain ratio of 0.
_WEKA_EPS = 1e-6


def gain_ratio_of(ig: NDArray[np.float64], h_f: NDArray[np.float64]) -> NDArray[np.float64]:
    """``IG / H(F)`` (both in nats), 0 where the split information ``H(F)`` is 0 to WEKA's
    tolerance of 1e-6 bits (``ContingencyTables.gainRatio``; Pes 2019, Section 3.1)."""
    split = h_f / _LN2  # bits, for WEKA's tolerance
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(split > _WEKA_EPS, ig / np.where(h_f > 0, h_f, 1.0), 0.0)
