"""OneR on the resamples of one data set, from its columns sorted once (issue 37).

WEKA's OneRAttributeEval (the "OneR" ranker of Pes 2019, Section 3.1;
:func:`._rankers.oner_scores`) builds Holte's rule of every feature on each training part
of a 10-fold cross-validation and counts its hits on the test part. A rule depends on its
training records only through the class counts of each distinct value of the feature, in
increasing order (:func:`._rankers.oner_rules`), and a prediction only through the value.
All the resamples of :func:`modelmine.bootstrap` draw rows of one data set, whose columns
:class:`._information.SortedColumns` sorts once (the MDL selectors' shared route): each
cross-validation part then costs one ``bincount`` of its rows' value indices, weighted by
how often each row is drawn there (sparse data: of the stored entries only), instead of a
sort of a dense copy. :func:`resample_oner_scores` equals :func:`._rankers.oner_scores`
on ``X[rows], y[rows]`` bit for bit: the same counts, values, rules and hits (integers).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ..validation import check_int, param_error
from ._information import (
    SortedColumns,
    _compact_present,
    _dense_counts,
    _mdl_kernel,
    _sparse_counts,
    record_weights,
)
from ._rankers import _pass_one, weka_cv_folds

__all__ = ["resample_oner_scores"]


def _value_counts(fold: SortedColumns, records: NDArray[np.intp], y_full: NDArray[np.int64],
                  weights: tuple[NDArray[np.float64], NDArray[np.float64]] | None,
                  n_classes: int, a: int, b: int, width: int) -> NDArray[np.int64]:
    """Class counts per (column, value index) of columns ``a:b`` over ``records`` (rows of
    the data, repeats counted; ``weights``: their :func:`._information.record_weights`),
    shape ``(b - a, width, n_classes)``: the classes up to the largest among the records,
    as :func:`._rankers.oner_rules` counts them."""
    if weights is not None:
        counts = _sparse_counts(fold, a, b, width, weights[0], y_full, weights[1])
        return counts[:, :, :n_classes].astype(np.int64)
    return _dense_counts(fold, a, b, width, records, y_full[records], n_classes)


def _bucket_classes(fold: SortedColumns, a: int, b: int, width: int,
                    counts: NDArray[np.int64], bsize: int) -> tuple[NDArray[np.int64],
                                                                    NDArray[np.int64]]:
    """The rules of columns ``a:b`` built on ``counts`` (WEKA's passes of
    :func:`._rankers.oner_rules` over the values present), as the class each rule
    predicts for every value index of the data (``(b - a, width)``), and the records each
    rule classifies correctly.

    The second pass merges neighbouring buckets of the same class only, so a value's class
    is that of its first-pass bucket. A value present in the training records lies in the
    bucket the first pass put it in; an absent one lies between two present values, and
    only the breakpoint right after the bucket of the lower one can separate them (WEKA:
    ``while (v >= breakpoint[i]) i++``). Compiled (``_mdl.c``'s ``oner_predict``) when it is
    built: the same integers and midpoints, so the same rules."""
    kernel = _mdl_kernel()
    if kernel is not None and b > a and width:
        predicted = np.empty((b - a, width), dtype=np.int64)
        n_correct = np.empty(b - a, dtype=np.int64)
        kernel.oner_predict(np.ascontiguousarray(counts, dtype=np.int64), fold.values[a:b],
                            fold.values.shape[1], int(bsize), predicted, n_correct)
        return predicted, n_correct
    _, _, _, present, n_present, compact, values = _compact_present(fold, a, counts)
    w2 = compact.shape[1]
    h_counts, h_bp, n_h, member = _pass_one(compact, values, n_present, bsize)
    h_cls = np.argmax(h_counts, axis=2)
    n_correct = np.take_along_axis(h_counts, h_cls[:, :, None], axis=2)[:, :, 0]
    n_correct = (n_correct * (np.arange(h_counts.shape[1])[None, :] < n_h[:, None])).sum(axis=1)
    # the first-pass bucket of every value index: that of the last present value at or
    # below it, plus one when the value reaches that bucket's breakpoint
    below = np.cumsum(present, axis=1) - 1  # compact index of the last present value <= g
    has_below = below >= 0
    below = np.maximum(below, 0)
    bucket = np.take_along_axis(member, below, axis=1) if w2 else np.zeros_like(below)
    after = np.take_along_axis(h_bp, bucket, axis=1)
    vals = fold.values[a:b, :width]
    bucket = np.where(has_below & ~present & (vals >= after), bucket + 1, bucket)
    return np.take_along_axis(h_cls, bucket, axis=1), n_correct


def _hits(fold: SortedColumns, records: NDArray[np.intp], y_full: NDArray[np.int64],
          weights: tuple[NDArray[np.float64], NDArray[np.float64]] | None,
          a: int, b: int, predicted: NDArray[np.int64]) -> NDArray[np.int64]:
    """Records (repeats counted; ``weights``: their
    :func:`._information.record_weights`) whose class the rule of each column of ``a:b``
    predicts, ``predicted`` being each rule's class per value index."""
    cols = b - a
    if weights is None:
        assert fold.group is not None
        kernel = _mdl_kernel()
        if kernel is not None and cols and predicted.shape[1]:
            hits = np.zeros(cols, dtype=np.int64)
            kernel.dense_hits(fold.group, fold.shape[1], a,
                              np.ascontiguousarray(records, dtype=np.int64),
                              np.ascontiguousarray(y_full[records], dtype=np.int64),
                              np.ascontiguousarray(predicted, dtype=np.int64), hits)
            return hits
        pred = np.take_along_axis(predicted.T, fold.group[records, a:b], axis=0)
        return (pred == y_full[records][:, None]).sum(axis=0)
    multiplicity, totals = weights
    n_classes = totals.shape[0]
    lo, hi = fold.indptr[a], fold.indptr[b]
    r = fold.rows[lo:hi]
    col = np.repeat(np.arange(cols), np.diff(fold.indptr[a : b + 1]))
    stored_pred = predicted[col, fold.entry_group[lo:hi]]
    hits = np.bincount(col, weights=multiplicity[r] * (stored_pred == y_full[r]),
                       minlength=cols)
    # the rows not stored hold 0: the class totals minus what the stored entries took
    stored = np.bincount(col * n_classes + y_full[r], weights=multiplicity[r],
                         minlength=cols * n_classes).reshape(cols, n_classes)
    zero = np.minimum(fold.zero_group[a:b], predicted.shape[1] - 1)
    zero_class = predicted[np.arange(cols), zero]
    hits += (totals[None, :] - stored)[np.arange(cols), zero_class]
    return np.rint(hits).astype(np.int64)


def resample_oner_scores(fold: SortedColumns, y: NDArray[np.int64], rows: NDArray[np.intp], *,
                         min_bucket_size: int = 6, folds: int | None = 10,
                         random_state: int = 1) -> NDArray[np.float64]:
    """WEKA's OneRAttributeEval on the resample ``X[rows], y[rows]``, from ``fold``.

    Equal, bit for bit, to :func:`modelmine.selectors.oner_scores` on ``X[rows]``,
    ``y[rows]`` with the same parameters (the "OneR" ranker of Pes 2019, Section 3.1; Holte
    1993), without sorting the resample: see the module docstring.

    Parameters
    ----------
    fold : SortedColumns
        Built once from the full ``X`` (``SortedColumns(X)``).
    y : ndarray of shape (n_samples,)
        Int64 class codes of the full data.
    rows : ndarray of int
        The resample's rows (repeats allowed), in the order of its records.
    min_bucket_size, folds, random_state
        As :func:`modelmine.selectors.oner_scores`.

    Returns
    -------
    ndarray of shape (n_features,)
        Accuracy in percent, in [0, 100].
    """
    func = "resample_oner_scores"
    bsize = check_int(min_bucket_size, "min_bucket_size", func, min_value=1)
    check_int(folds, "folds", func, min_value=2, allow_none=True)
    rows = np.asarray(rows, dtype=np.intp)
    n = rows.shape[0]
    if folds is not None and folds > n:
        raise param_error("folds", func, f"at most the number of samples ({n}), as in "
                          "WEKA's cross-validation", folds)
    y_r = y[rows]
    parts: list[tuple[NDArray[np.intp], NDArray[np.intp] | None]]
    if folds is None:
        parts = [(rows, None)]
    else:
        parts = []
        for test in weka_cv_folds(y_r, int(folds), int(random_state)):
            train = np.setdiff1d(np.arange(n), test)
            parts.append((rows[train], rows[test]))
    p = fold.shape[1]
    hits = np.zeros(p)
    for train_rows, test_rows in parts:
        n_classes = int(y[train_rows].max()) + 1  # as oner_rules on the training part
        # each part's row weights once, not once per column block
        train_w = record_weights(fold, train_rows, y)
        test_w = None if test_rows is None else record_weights(fold, test_rows, y)
        for a, b, width in fold.blocks(train_rows.shape[0], n_classes):
            counts = _value_counts(fold, train_rows, y, train_w, n_classes, a, b, width)
            predicted, n_correct = _bucket_classes(fold, a, b, width, counts, bsize)
            if test_rows is None:
                hits[a:b] = n_correct
            else:
                hits[a:b] += _hits(fold, test_rows, y, test_w, a, b, predicted)
    # Evaluation.errorRate() = incorrect / n, and OneRAttributeEval returns (1 - it) * 100
    return (1.0 - (n - hits) / float(n)) * 100.0
