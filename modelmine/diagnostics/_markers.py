"""Which gene marks which class, in which direction, how strongly and how surely.

A signature says which genes are stably selected; a biomarker study also asks, for each
gene and class (one class against the rest): is it up or down, by how much (the effect
size), how well does it separate (AUROC), and how often was it selected (the frequency
with its interval). :func:`marker_table` answers for any set of genes;
:meth:`modelmine.MiningRun.markers` for a run's signature.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
from scipy.stats import norm

from .._utils import positional_names
from ..selectors._wilcoxon import wilcoxon_by_group
from ..validation import check_choice, check_real, param_error

__all__ = ["EFFECT_MEASURES", "marker_table"]

#: The effect sizes of :func:`marker_table`.
EFFECT_MEASURES = ("auto", "log2_fold_change", "standardized_mean_difference")


def _looks_raw(values: np.ndarray) -> bool:
    """Counts or raw intensities: non-negative with a maximum above 100 (the report's rule
    for its heat map, ``report._plots.expression_scale``)."""
    return bool(values.size) and float(values.min()) >= 0 and float(values.max()) > 100


def expression_columns(X: Any, cols: Any, log_data: bool) -> np.ndarray:
    """The columns ``cols`` of X, dense float64, on the scale of the fold changes: the
    values themselves (counts), or ``expm1`` of log1p-normalised values (scanpy's
    convention for its log-normalised input)."""
    sub = X[:, cols]
    sub = np.asarray(sub.toarray() if sp.issparse(sub) else sub, dtype=np.float64)
    return np.expm1(sub) if log_data else sub


def fold_changes(sub: np.ndarray, in_group: np.ndarray) -> np.ndarray:
    """log2 fold change of the cluster's mean over the rest's, with a pseudocount of 1e-9,
    for each column of :func:`expression_columns`."""
    m1 = sub[in_group].mean(axis=0)
    m0 = sub[~in_group].mean(axis=0)
    return np.log2((m1 + 1e-9) / (m0 + 1e-9))


def marker_table(
    X: Any, y: Any, features: Any = None, *, feature_names: Any = None,
    frequency: Any = None, n_models: int | None = None, q_values: Any = None,
    effect: str = "auto", confidence_level: float = 0.95,
) -> pd.DataFrame:
    """One row per gene and class: direction, effect size, AUROC, class means, frequency.

    For each class c (against the rest, as for a marker gene of a cluster) and each gene:
    ``mean_in_class`` and ``mean_rest``; ``direction`` ("up" when the class mean is the
    larger); ``effect_size``, the log2 fold change of the class means with a pseudocount of 1,
    ``log2((mean_in_class + 1) / (mean_rest + 1))``, for counts and raw intensities
    (non-negative data whose maximum is above 100), else the standardised mean difference
    (Hedges' g: the difference of the means over the pooled standard deviation, times
    ``1 - 3 / (4 (n - 2) - 1)``), named in ``effect_measure``; ``auroc``, the probability
    that a sample of the class has the larger value (ties counted one half: the
    Mann-Whitney U over ``n_class x n_rest``); ``p_value``, the two-sided Mann-Whitney
    test of that U (normal approximation, tie-corrected, without continuity correction:
    scipy's ``mannwhitneyu(method="asymptotic", use_continuity=False)``);
    ``rank_in_class``, the gene's rank among the table's genes by ``|auroc - 0.5|``
    within the class (1: the best separator); and,
    when given, the selection ``frequency`` with its Wilson interval over the b models
    (Wilson 1927; the models' resamples overlap, so the interval is a lower bound on the
    uncertainty) and the ``q_value`` of a permutation null.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, p), or DataFrame
    y : array-like of shape (n_samples,)
        Class labels (two or more classes).
    features : sequence of int or str, optional
        The genes (column indices or names); default: every column.
    feature_names : sequence of str, optional
        Default: the DataFrame's columns, else ``x0``, ``x1``, ...
    frequency : array-like of shape (p,), optional
        Selection frequency of every column (``BaseModels.frequencies()``), with
        ``n_models`` (b) for its interval.
    n_models : int, optional
    q_values : array-like of shape (p,), optional
        Per-column q-values (``SelectionNullResult.to_frame()["q_value"]``).
    effect : {"auto", "log2_fold_change", "standardized_mean_difference"}, default="auto"
    confidence_level : float, default=0.95

    Returns
    -------
    pandas.DataFrame
        Columns ``class``, ``feature``, ``direction``, ``effect_size``, ``effect_measure``,
        ``auroc``, ``p_value``, ``mean_in_class``, ``mean_rest``, ``n_in_class``, ``rank_in_class``,
        then ``frequency``, ``frequency_low``, ``frequency_high`` and ``q_value`` when given;
        sorted by class, then ``rank_in_class``.
    """
    func = "marker_table"
    effect = check_choice(effect, "effect", func, EFFECT_MEASURES)
    level = check_real(confidence_level, "confidence_level", func, low=0.0, high=1.0,
                       closed="neither")
    if isinstance(X, pd.DataFrame):
        names = np.asarray([str(c) for c in X.columns]) if feature_names is None else None
        X = X.to_numpy(dtype=np.float64)
    else:
        names = None
    p = X.shape[1]
    if names is None:
        names = (np.asarray([str(v) for v in feature_names]) if feature_names is not None
                 else positional_names(p))
    labels = np.asarray(y)
    if labels.shape != (X.shape[0],):
        raise param_error("y", func, f"{X.shape[0]} labels, one per sample",
                          f"shape {labels.shape}", show=False)
    classes, codes = np.unique(labels, return_inverse=True)
    if classes.size < 2:
        raise param_error("y", func, "two or more classes", f"{classes.size} class",
                          show=False)
    cols = _columns(features, names, func)
    block = X[:, cols]
    block = block.toarray() if sp.issparse(block) else np.asarray(block, dtype=np.float64)
    measure = effect if effect != "auto" else (
        "log2_fold_change" if _looks_raw(block) else "standardized_mean_difference")
    # the AUROC of each class against the rest: the Mann-Whitney U (ties: average ranks)
    # over n1 n0, from the one rank-sum kernel
    zs, aurocs = wilcoxon_by_group(block, codes)
    n = block.shape[0]
    freq = None if frequency is None else np.asarray(frequency, dtype=np.float64)
    if freq is not None and (freq.shape != (p,) or n_models is None):
        raise param_error("frequency", func, f"{p} frequencies with n_models", "other",
                          show=False)
    qv = None if q_values is None else np.asarray(q_values, dtype=np.float64)
    z = float(norm.ppf(0.5 + level / 2))
    parts = []
    for c, label in enumerate(classes):
        inside = codes == c
        n1, n0 = int(inside.sum()), int(n - inside.sum())
        m1, m0 = block[inside].mean(axis=0), block[~inside].mean(axis=0)
        auroc = aurocs[c]
        if measure == "log2_fold_change":
            size = np.log2((m1 + 1.0) / (m0 + 1.0))
        else:
            v1 = block[inside].var(axis=0, ddof=1) if n1 > 1 else np.zeros(len(cols))
            v0 = block[~inside].var(axis=0, ddof=1) if n0 > 1 else np.zeros(len(cols))
            pooled = np.sqrt(((n1 - 1) * v1 + (n0 - 1) * v0) / max(n - 2, 1))
            with np.errstate(divide="ignore", invalid="ignore"):
                g = np.where(pooled > 0, (m1 - m0) / pooled, 0.0)
            size = g * (1.0 - 3.0 / (4.0 * (n - 2) - 1.0)) if n > 2 else g
        order = np.argsort(-np.abs(auroc - 0.5), kind="stable")
        rank = np.empty(len(cols), dtype=np.int64)
        rank[order] = np.arange(1, len(cols) + 1)
        part = pd.DataFrame({
            "class": label, "feature": names[cols],
            "direction": np.where(m1 > m0, "up", np.where(m1 < m0, "down", "none")),
            "effect_size": size, "effect_measure": measure, "auroc": auroc,
            # the two-sided test of the same U: z tie-corrected, no continuity correction
            # (scipy's mannwhitneyu(method="asymptotic", use_continuity=False))
            "p_value": np.minimum(1.0, 2.0 * norm.sf(np.abs(zs[c]))),
            "mean_in_class": m1, "mean_rest": m0, "n_in_class": n1, "rank_in_class": rank})
        if freq is not None:
            assert n_models is not None
            f = freq[cols]
            low, high = _wilson(f, int(n_models), z)
            part["frequency"], part["frequency_low"], part["frequency_high"] = f, low, high
        if qv is not None:
            part["q_value"] = qv[cols]
        parts.append(part.sort_values("rank_in_class", kind="stable"))
    return pd.concat(parts, ignore_index=True)


def _columns(features: Any, names: np.ndarray, func: str) -> np.ndarray:
    if features is None:
        return np.arange(names.size)
    index = {n: j for j, n in enumerate(names.tolist())}
    out = []
    for f in features:
        if isinstance(f, str):
            if f not in index:
                raise param_error("features", func, "feature names of X", f)
            out.append(index[f])
        else:
            j = int(f)
            if not 0 <= j < names.size:
                raise param_error("features", func, f"column indices in [0, {names.size})", j)
            out.append(j)
    if not out:
        raise param_error("features", func, "at least one feature", "none", show=False)
    return np.asarray(out, dtype=np.int64)


def _wilson(f: np.ndarray, b: int, z: float) -> tuple[np.ndarray, np.ndarray]:
    """The Wilson score interval of proportions ``f`` of ``b`` trials."""
    centre = (f + z * z / (2 * b)) / (1 + z * z / b)
    half = z / (1 + z * z / b) * np.sqrt(f * (1 - f) / b + z * z / (4 * b * b))
    return np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)
