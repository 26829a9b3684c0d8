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
    effect size), ``y`` (``-log10 p``) and ``q_value``, from a run's :meth:`effects`
    table (for class labels, the rows of class ``cls``: default the last class, the
    "case" of a two-class comparison, whose rows mirror the first's)."""
    frame = effects
    if "class" in effects.columns:
        classes = list(dict.fromkeys(effects["class"]))
        chosen = classes[-1] if cls is None else cls
        if chosen not in classes:
            raise param_error("cls", "volcano_data", "one of the classes "
                              f"({', '.join(map(repr, classes))})", cls)
        frame = effects[effects["class"] == chosen]
    p = np.clip(frame["p_value"].to_numpy(dtype=np.float64), _P_FLOOR, 1.0)
    return pd.DataFrame({"feature": frame["feature"].astype(str).to_numpy(),
                         "x": frame["effect_size"].to_numpy(dtype=np.float64),
                         "y": -np.log10(p),
                         "q_value": frame["q_value"].to_numpy(dtype=np.float64)})


@_plain_text
def plot_volcano(effects: pd.DataFrame, marked: Mapping[str, Sequence[str]] | None = None,
                 *, cls: Any = None, q_threshold: float = 0.05, max_labels: int = 25,
                 title: str | None = None) -> Figure:
    """Every tested gene's effect against ``-log10 p``, the signatures' genes marked.

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
        Labels for at most this many marked genes (the most significant).
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure
    """
    data = volcano_data(effects, cls)
    measure = str(effects["effect_measure"].iloc[0]) if len(effects) else "effect"
    fig = Figure(figsize=(7.0, 5.2), layout="constrained")
    ax = fig.add_subplot()
    ax.scatter(data.x, data.y, s=6, color="#b0b0b0", alpha=0.6, linewidths=0,
               label=f"tested genes ({len(data):,})", rasterized=len(data) > 5000)
    index = {g: i for i, g in enumerate(data.feature)}
    seen: set[str] = set()
    labelled: list[tuple[float, str]] = []
    for k, (group, genes) in enumerate((marked or {}).items()):
        rows = [index[str(g)] for g in genes if str(g) in index and str(g) not in seen]
        if not rows:
            continue
        seen.update(data.feature.iloc[rows])
        part = data.iloc[rows]
        ax.scatter(part.x, part.y, s=26, color=_MARKS[k % len(_MARKS)],
                   edgecolors="black", linewidths=0.4, label=f"{group} ({len(rows)})",
                   zorder=3)
        labelled += list(zip(part.y.astype(float), part.feature.astype(str), strict=True))
    for _height, gene in sorted(labelled, reverse=True)[:max_labels]:
        row = data.iloc[index[gene]]
        ax.annotate(gene, (row.x, row.y), xytext=(3, 3), textcoords="offset points",
                    fontsize=7, zorder=4)
    passing = data.y[data.q_value <= q_threshold]
    if len(passing):
        ax.axhline(float(passing.min()), color="#555555", linestyle="--", linewidth=0.8,
                   label=f"q = {q_threshold:g} (Benjamini-Hochberg)")
    ax.axvline(0.0, color="#555555", linewidth=0.6)
    ax.set_xlabel(measure.replace("_", " "))
    ax.set_ylabel("-log10 p")
    what = ""
    if "class" in effects.columns:
        shown = list(dict.fromkeys(effects["class"]))[-1] if cls is None else cls
        what = f": {shown} against the rest"
    ax.set_title(title or f"Every tested gene{what}")
    ax.legend(fontsize=7, loc="upper left", frameon=False)
    return fig
