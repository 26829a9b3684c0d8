"""Every tested gene's effect, p-value and q-value: the table behind a volcano plot.

The markers (:func:`~modelmine.diagnostics.marker_table`,
:func:`~modelmine.diagnostics.outcome_marker_table`) describe the genes of a signature.
:func:`effect_table` gives the same columns for **every** feature the run tested, computed
by the same functions (one implementation: a signature gene's row here equals its row in
the markers), with the Benjamini-Hochberg (1995) q-value over all the tested features
(within each class for class labels), the family a differential-expression table uses
(limma's ``topTable``, scanpy's ``rank_genes_groups``): q-values over the signature's genes
alone would be over a family chosen by the selection.

The effect, by outcome:

- classes (each against the rest): the log2 fold change of the class means with a
  pseudocount of 1 for counts and raw intensities, else Hedges' g (``effect_measure``
  names it, decided once on all the data), the AUROC, and the two-sided Mann-Whitney
  p-value of the same U;
- regression: Spearman's rho with its p-value, Pearson's r and the slope;
- survival: the log hazard ratio per SD of the univariate Cox model (Breslow ties) with
  its Wald p-value; with covariates, each of these adjusted as the markers adjust them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp

from .._utils import positional_names
from ..outcomes import DEFAULT_OUTCOME, outcome_kind
from ..validation import check_choice, param_error
from ._markers import EFFECT_MEASURES, marker_table
from ._significance import bh_qvalues

__all__ = ["effect_table"]

#: Columns taken at a time (dense, float64): the largest block is n x 512 values.
_CHUNK = 512

def data_effect_measure(X: Any) -> str:
    """The effect size a class comparison reports for these values: the log2 fold change
    for counts and raw intensities (non-negative with a maximum above 100, the rule of
    :func:`~modelmine.diagnostics.marker_table`), else the standardised mean difference."""
    if sp.issparse(X):
        stored = sp.csr_matrix(X).data
        low = min(float(stored.min()), 0.0) if stored.size else 0.0
        high = max(float(stored.max()), 0.0) if stored.size else 0.0
    else:
        arr = np.asarray(X, dtype=np.float64)
        low, high = (float(arr.min()), float(arr.max())) if arr.size else (0.0, 0.0)
    return "log2_fold_change" if low >= 0 and high > 100 else "standardized_mean_difference"


def effect_table(X: Any, y: Any, outcome: Any = DEFAULT_OUTCOME, *,
                 feature_names: Any = None, covariates: Any = None,
                 effect: str = "auto", modalities: Any = None) -> pd.DataFrame:
    """The effect, p-value and q-value of every feature: one row per feature (and class).

    The columns of the markers (:func:`~modelmine.diagnostics.marker_table` for classes,
    :func:`~modelmine.diagnostics.outcome_marker_table` for a continuous or survival
    outcome), computed by them on blocks of columns, with ``q_value`` the
    Benjamini-Hochberg q-value of ``p_value`` over every feature of X (within each class)
    and ``rank_in_class`` / ``rank`` over all of them. Classes: the effect measure is
    decided once on all the values (``effect="auto"``; on each modality's values with
    ``modalities``), so every block of columns reports the same one. With ``covariates``
    the classes' rows add the adjusted odds ratio columns (Firth's estimate and penalised
    likelihood ratio p-value, as in the markers; the profile intervals, twenty constrained
    fits a gene, are the markers' only and NaN here) and the outcomes' effects are
    adjusted, as in the markers.

    Parameters
    ----------
    X : array-like, sparse matrix or DataFrame of shape (n_samples, p)
    y : array-like
        Class labels, numbers (regression) or the structured array of ``event`` and
        ``time`` (survival).
    outcome : str or OutcomeKind, default="classification"
        "classification", "regression", "survival" or another registered kind
        (:func:`modelmine.outcomes.outcome_kind`): class labels, numbers or censored times.
    feature_names : sequence of str, optional
        Default: the DataFrame's columns, else ``x0``, ``x1``, ...
    covariates : ndarray of shape (n_samples, q), optional
        Encoded covariates to adjust for (:class:`modelmine.outcomes.Covariates` values).
    effect : {"auto", "log2_fold_change", "standardized_mean_difference"}, default="auto"
        Classes only.
    modalities : sequence of (str, int), optional
        Multi-omic data (:attr:`modelmine.BaseModels.modalities`): each modality's name and
        number of columns, in column order. Adds a ``modality`` column after ``feature``;
        with ``effect="auto"`` the effect measure is decided on each modality's own values
        (raw protein intensities get a log2 fold change, log-scale transcripts Hedges' g),
        while the q-values and ranks stay over every feature.

    Returns
    -------
    pandas.DataFrame
        Classes: ``class``, ``feature``, ``direction``, ``effect_size``,
        ``effect_measure``, ``auroc``, ``p_value``, ``q_value``, ``mean_in_class``,
        ``mean_rest``, ``n_in_class``, ``rank_in_class`` (and the adjusted columns),
        sorted by class then rank. Outcomes: the columns of ``outcome_marker_table`` with
        ``q_value`` after ``p_value``, sorted by ``rank``.
    """
    func = "effect_table"
    kind = outcome_kind(outcome, func=func)
    effect = check_choice(effect, "effect", func, EFFECT_MEASURES)
    if isinstance(X, pd.DataFrame):
        names = [str(c) for c in X.columns] if feature_names is None else None
        X = X.to_numpy(dtype=np.float64)
    else:
        names = None
    p = X.shape[1]
    if names is None:
        names = ([str(v) for v in feature_names] if feature_names is not None
                 else positional_names(p).tolist())
    if len(names) != p:
        raise param_error("feature_names", func, f"{p} names, one per column",
                          len(names), show=False)
    matrix = sp.csc_matrix(X) if sp.issparse(X) else np.asarray(X)
    Z = None if covariates is None else np.asarray(covariates, dtype=np.float64)
    segments = _segments(modalities, p, func)
    parts = []
    if kind.classes:
        whole = data_effect_measure(matrix) if effect == "auto" else effect
        for _, start, stop in segments:
            measure = whole if effect != "auto" or len(segments) == 1 else (
                data_effect_measure(matrix[:, start:stop]))
            parts += _class_blocks(matrix, y, names, start, stop, measure, Z)
        table = _with_modality(pd.concat(parts, ignore_index=True), segments, names)
        return _by_class(table, names)
    from ._outcome_markers import outcome_marker_table

    for a in range(0, p, _CHUNK):
        frame = pd.DataFrame(_dense(matrix, a, min(a + _CHUNK, p)),
                             columns=names[a:a + _CHUNK])
        parts.append(outcome_marker_table(frame, y, kind, covariates=Z))
    table = _with_modality(pd.concat(parts, ignore_index=True), segments, names)
    table.insert(list(table.columns).index("p_value") + 1, "q_value",
                 bh_qvalues(table["p_value"].to_numpy()))
    order = np.lexsort((np.arange(len(table)), -np.abs(table["effect_size"].to_numpy())))
    table = table.iloc[order].reset_index(drop=True)
    table["rank"] = np.arange(1, len(table) + 1)
    return table


def _segments(modalities: Any, p: int, func: str) -> list[tuple[str, int, int]]:
    """The column blocks ``(modality, start, stop)``: one unnamed block without
    modalities."""
    if modalities is None or len(modalities) == 0:
        return [("", 0, p)]
    from ..datasets._multiomic import check_modalities

    try:
        blocks = check_modalities(modalities, p)
    except Exception as exc:
        raise param_error("modalities", func, f"(name, columns) pairs covering the {p} "
                          "columns", str(exc), show=False) from None
    out, start = [], 0
    for name, size in blocks:
        out.append((name, start, start + size))
        start += size
    return out


def _with_modality(table: pd.DataFrame, segments: list[tuple[str, int, int]],
                   names: list[str]) -> pd.DataFrame:
    """The table with a ``modality`` column after ``feature`` (multi-omic data only)."""
    if len(segments) == 1 and not segments[0][0]:
        return table
    of = {names[j]: name for name, a, b in segments for j in range(a, b)}
    table.insert(list(table.columns).index("feature") + 1, "modality",
                 table["feature"].map(of).to_numpy())
    return table


def _class_blocks(matrix: Any, y: Any, names: list[str], start: int, stop: int,
                  measure: str, Z: Any) -> list[pd.DataFrame]:
    """The markers' rows of columns ``start:stop``, ``_CHUNK`` columns at a time."""
    parts = []
    for a in range(start, stop, _CHUNK):
        b = min(a + _CHUNK, stop)
        frame = pd.DataFrame(_dense(matrix, a, b), columns=names[a:b])
        part = marker_table(frame, y, effect=measure)
        if Z is not None:
            from ._outcome_markers import adjusted_class_effects

            # every gene: Firth's odds ratio and test; the profile intervals are the
            # markers' (twenty constrained fits a gene)
            part = part.merge(adjusted_class_effects(frame, y, Z, intervals=False),
                              on=["feature", "class"], how="left", sort=False)
        parts.append(part)
    return parts


def _dense(matrix: Any, a: int, b: int) -> np.ndarray:
    block = matrix[:, a:b]
    return (block.toarray() if sp.issparse(block) else np.asarray(block)).astype(np.float64)


def _by_class(table: pd.DataFrame, names: list[str]) -> pd.DataFrame:
    """The blocks' rows, per class: q-values and ranks over every feature, sorted by rank
    (ties: the column order)."""
    position = {n: j for j, n in enumerate(names)}
    out = []
    for _, part in table.groupby("class", sort=False):
        part = part.copy()
        part["q_value"] = bh_qvalues(part["p_value"].to_numpy())
        column = part["feature"].map(position).to_numpy()
        order = np.lexsort((column, -np.abs(part["auroc"].to_numpy() - 0.5)))
        part = part.iloc[order]
        part["rank_in_class"] = np.arange(1, len(part) + 1)
        out.append(part)
    frame = pd.concat(out, ignore_index=True)
    cols = list(frame.columns)
    cols.remove("q_value")
    cols.insert(cols.index("p_value") + 1, "q_value")
    return frame[cols]
