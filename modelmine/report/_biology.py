"""The figures of a run's biology: every gene's effect against its significance.

A volcano plot (Cui and Churchill, Genome Biology 2003; the figure of limma's
``volcanoplot`` and of every differential-expression paper) draws each tested gene at its
effect (x) and ``-log10 p`` (y); here the genes of the signatures and panels are marked and
labelled, so a reader sees whether the stably selected genes are also the ones with the
largest effects, or selected for another reason (a combination, a redundancy broken).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..validation import param_error
from ._plots import _plain_text

__all__ = ["plot_volcano", "volcano_data"]

#: The colours of the marked groups, in turn (the report's accent first).
_MARKS = ("#c2185b", "#2e7d32", "#ef6c00", "#6a1b9a", "#00838f")

#: The smallest p-value drawn: an exact 0 (underflow) is drawn at this height.
_P_FLOOR = 1e-300


def volcano_data(effects: pd.DataFrame, cls: Any = None) -> pd.DataFrame:
    """The points of a volcano plot: one row per feature with ``feature``, ``x`` (the
    effect size), ``y`` (``-log10 p``) and ``q_value`` (and ``modality``, ``measure`` for
    a multi-omic run), from a run's :meth:`effects` table (for class labels, the rows of
    class ``cls``: default the last class, the "case" of a two-class comparison, whose
    rows mirror the first's)."""
    frame = effects
    if "class" in effects.columns:
        classes = list(dict.fromkeys(effects["class"]))
        chosen = classes[-1] if cls is None else cls
        if chosen not in classes:
            raise param_error("cls", "volcano_data", "one of the classes "
                              f"({', '.join(map(repr, classes))})", cls)
        frame = effects[effects["class"] == chosen]
    p = np.clip(frame["p_value"].to_numpy(dtype=np.float64), _P_FLOOR, 1.0)
    out = pd.DataFrame({"feature": frame["feature"].astype(str).to_numpy(),
                        "x": frame["effect_size"].to_numpy(dtype=np.float64),
                        "y": -np.log10(p),
                        "q_value": frame["q_value"].to_numpy(dtype=np.float64)})
    if "modality" in frame.columns:
        out["modality"] = frame["modality"].astype(str).to_numpy()
        out["measure"] = frame["effect_measure"].astype(str).to_numpy()
    return out


@_plain_text
def plot_volcano(effects: pd.DataFrame, marked: Mapping[str, Sequence[str]] | None = None,
                 *, cls: Any = None, q_threshold: float = 0.05, max_labels: int = 25,
                 title: str | None = None, modalities: Sequence[str] | None = None
                 ) -> Figure:
    """Every tested gene's effect against ``-log10 p``, the signatures' genes marked.

    A multi-omic run's table (a ``modality`` column) gets one panel per modality, side
    by side on one ``-log10 p`` axis, each with its own effect measure on x (a log2 fold
    change of raw intensities and Hedges' g of log values are not one scale); the
    dashed line is the same in every panel (the q-values are over all the features).

    Parameters
    ----------
    effects : DataFrame
        :meth:`modelmine.MiningRun.effects`.
    marked : mapping of str to sequence of str, optional
        Group name (a signature, a class's panel) -> genes to mark and label, each group
        in its colour (a gene of several groups takes the first).
    cls : optional
        The class whose comparison with the rest is drawn (default: the last class).
    q_threshold : float, default=0.05
        The dashed line: the largest p-value whose q-value is at most this.
    max_labels : int, default=25
        Labels for at most this many marked genes (the most significant), over all panels.
    title : str, optional
    modalities : sequence of str, optional
        A multi-omic table's panels, in this order (the run's:
        ``[name for name, _ in run.base_models.modalities]``); default: as the modalities
        first appear in the table.

    Returns
    -------
    matplotlib.figure.Figure
    """
    data = volcano_data(effects, cls)
    panels: list[Any] = [None]
    if "modality" in data.columns:
        present = list(dict.fromkeys(data["modality"]))
        panels = [m for m in (modalities or []) if m in present]
        panels += [m for m in present if m not in panels]
    fig = Figure(figsize=(7.0 if len(panels) == 1 else 4.2 * len(panels), 5.2),
                 layout="constrained")
    axes = fig.subplots(1, len(panels), sharey=True, squeeze=False)[0]
    passing = data.y[data.q_value <= q_threshold]
    line = float(passing.min()) if len(passing) else None
    shown = set(sorted(_marked_heights(data, marked), reverse=True)[:max_labels])
    for ax, modality in zip(axes, panels, strict=True):
        part = data if modality is None else data[data["modality"] == modality]
        part = part.reset_index(drop=True)
        measure = (str(part["measure"].iloc[0]) if modality is not None and len(part) else
                   str(effects["effect_measure"].iloc[0]) if len(effects) else "effect")
        _draw(ax, part, marked, shown, line, q_threshold)
        ax.set_xlabel(measure.replace("_", " "))
        if modality is not None:
            ax.set_title(f"{modality} ({len(part):,} features)", fontsize=9)
    axes[0].set_ylabel("-log10 p")
    what = ""
    if "class" in effects.columns:
        chosen = list(dict.fromkeys(effects["class"]))[-1] if cls is None else cls
        what = f": {chosen} against the rest"
    heading = title or f"Every tested gene{what}"
    if len(panels) == 1:
        axes[0].set_title(heading)
    else:
        fig.suptitle(heading)
    return fig


def _marked_heights(data: pd.DataFrame, marked: Mapping[str, Sequence[str]] | None
                    ) -> list[tuple[float, str]]:
    """(height, gene) of every marked gene present, each once."""
    index = {g: i for i, g in enumerate(data.feature)}
    seen: dict[str, float] = {}
    for genes in (marked or {}).values():
        for g in genes:
            if str(g) in index and str(g) not in seen:
                seen[str(g)] = float(data.y.iloc[index[str(g)]])
    return [(h, g) for g, h in seen.items()]


def _draw(ax: Any, data: pd.DataFrame, marked: Mapping[str, Sequence[str]] | None,
          labelled: set[tuple[float, str]], line: float | None, q_threshold: float) -> None:
    """One panel: the tested genes in grey, each marked group in its colour, the labels
    of ``labelled`` genes, the q line."""
    ax.scatter(data.x, data.y, s=6, color="#b0b0b0", alpha=0.6, linewidths=0,
               label=f"tested genes ({len(data):,})", rasterized=len(data) > 5000)
    index = {g: i for i, g in enumerate(data.feature)}
    seen: set[str] = set()
    for k, (group, genes) in enumerate((marked or {}).items()):
        rows = [index[str(g)] for g in genes if str(g) in index and str(g) not in seen]
        if not rows:
            continue
        seen.update(data.feature.iloc[rows])
        part = data.iloc[rows]
        ax.scatter(part.x, part.y, s=26, color=_MARKS[k % len(_MARKS)],
                   edgecolors="black", linewidths=0.4, label=f"{group} ({len(rows)})",
                   zorder=3)
    for height, gene in sorted(labelled, reverse=True):
        if gene in index:
            row = data.iloc[index[gene]]
            ax.annotate(gene, (row.x, height), xytext=(3, 3), textcoords="offset points",
                        fontsize=7, zorder=4)
    if line is not None:
        ax.axhline(line, color="#555555", linestyle="--", linewidth=0.8,
                   label=f"q = {q_threshold:g} (Benjamini-Hochberg)")
    ax.axvline(0.0, color="#555555", linewidth=0.6)
    ax.legend(fontsize=7, loc="best", frameon=False)
