"""Matplotlib figures of the report, each readable on its own (titles, axis labels, units).

Every function returns a :class:`matplotlib.figure.Figure` built with the object-oriented
API (no global pyplot state), so figures can be drawn in worker threads and saved as PNG or
SVG; :func:`figure_to_png` encodes one for embedding in the self-contained HTML report.
"""

from __future__ import annotations

import base64
import io
import re
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..base_models import BaseModels
from ..operators._signature import jaccard_similarities
from ._records import OperatorResult

__all__ = [
    "expression_scale",
    "figure_to_png",
    "plot_error_vs_stability",
    "plot_expression_by_class",
    "plot_expression_heatmap",
    "plot_lattice_top",
    "plot_membership",
    "plot_selection_frequency",
    "plot_signature_overlap",
    "plot_stability",
    "plot_stability_by_size",
    "plot_support_distribution",
    "stability_by_size",
]

_ACCENT = "#c2185b"
_BASE = "#4c72b0"
_GREY = "#9e9e9e"


def _plain_text(plot: Any) -> Any:
    """Build the figure with ``text.parse_math`` off: feature names, labels and titles are
    data, drawn as they are (a ``$`` in a gene name is not the start of TeX math, which
    made matplotlib fail on ``g1$^$`` and garble ``a$_b$c``)."""
    import functools

    import matplotlib

    @functools.wraps(plot)
    def plain(*args: Any, **kwargs: Any) -> Any:
        with matplotlib.rc_context({"text.parse_math": False}), warnings.catch_warnings():
            # a layout measured while the figure is built meets the control characters
            # that _drawable_text then replaces: the figure as drawn has none
            warnings.filterwarnings("ignore", _NO_GLYPH, UserWarning)
            made = plot(*args, **kwargs)
        for fig in made if isinstance(made, tuple) else (made,):
            if isinstance(fig, Figure):
                _drawable_text(fig)
        return made

    return plain


#: Control characters (a tab, a carriage return, ...) have no glyph in the fonts: each drew
#: "Glyph 9 missing from font" warnings and an empty box. Line breaks are kept (labels use
#: them).
_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")
#: matplotlib's warning for a control character (code 0 to 31, or 127) without a glyph.
_NO_GLYPH = r"Glyph ([0-9]|[12][0-9]|3[01]|127) \(.*\) missing from font"


def _drawable_text(fig: Figure) -> None:
    """Every text of ``fig`` with control characters as spaces (the names are data: a
    tab in a gene or class name), tick labels included."""
    from matplotlib.text import Text
    from matplotlib.ticker import FixedFormatter, FuncFormatter

    for text in fig.findobj(Text):
        shown = text.get_text()
        if _CONTROL.search(shown):
            text.set_text(_CONTROL.sub(" ", shown))
    for ax in fig.axes:  # tick labels given as text are made again at each draw
        for axis in (ax.xaxis, ax.yaxis):
            for formatter, setter in ((axis.get_major_formatter(), axis.set_major_formatter),
                                      (axis.get_minor_formatter(), axis.set_minor_formatter)):
                if isinstance(formatter, FixedFormatter | FuncFormatter):
                    setter(FuncFormatter(lambda x, pos, given=formatter: _CONTROL.sub(
                        " ", str(given(x, pos)))))


def _plain_log(axis: Any) -> None:
    """Tick labels of a log (or symlog) axis as plain numbers: matplotlib writes them as
    TeX math (``$10^{1}$``), which :func:`_plain_text` figures would show as typed."""
    from matplotlib.ticker import FuncFormatter, NullFormatter

    axis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:g}"))
    axis.set_minor_formatter(NullFormatter())


def figure_to_png(fig: Figure, *, dpi: int = 110) -> bytes:
    """The PNG bytes of a figure (tight bounding box)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight", facecolor="white")
    return buf.getvalue()


def png_data_uri(fig: Figure, *, dpi: int = 110) -> str:
    """A ``data:image/png;base64,...`` URI of a figure, for an ``<img>`` tag."""
    return "data:image/png;base64," + base64.b64encode(figure_to_png(fig, dpi=dpi)).decode()


def _short(names: Sequence[str], limit: int = 3) -> str:
    names = list(names)
    text = ", ".join(names[:limit])
    return text + (f" +{len(names) - limit}" if len(names) > limit else "")


@_plain_text
def plot_selection_frequency(base: BaseModels, *, top: int = 30,
                             highlight: Sequence[int] = (), null: Any = None,
                             overview: bool = True) -> Figure:
    """Per-feature selection frequency across the b base models (KDD 2012, section 2).

    Left: the ``top`` most frequently selected features (bars in the accent colour are in
    ``highlight``, typically the consensus signature). Right: the frequency of every
    feature, sorted, which shows how concentrated the selector's choices are. With
    ``null`` (a :class:`~modelmine.evaluation.SelectionNullResult`), each bar shows the
    95 % quantile of its frequency under permuted labels (a tick: uncorrected), a star marks
    the bars that pass the Benjamini-Hochberg correction (q <= 0.05, what the report's
    caption counts), and the right panel the band of the pooled null (median to 95 %
    quantile). ``overview=False`` leaves the right panel out (the report's first screen
    shows the left one alone, at half the width).
    """
    freq = np.asarray(base.subsets).mean(axis=0)
    mean_rank = base.tied_ranks().mean(axis=0, dtype=np.float64)
    order = np.lexsort((np.arange(freq.size), mean_rank, -freq))
    shown = order[: min(top, freq.size)]
    marked = set(int(i) for i in highlight)
    height = max(3.2 if not overview else 4.0, 0.24 * len(shown) + 1.4)
    fig = Figure(figsize=(11 if overview else 4.6, height))
    ax, ax2 = (fig.subplots(1, 2, gridspec_kw={"width_ratios": [1.4, 1]}) if overview
               else (fig.subplots(), None))
    y = np.arange(len(shown))[::-1]
    colors = [_ACCENT if int(j) in marked else _BASE for j in shown]
    ax.barh(y, freq[shown], color=colors, height=0.75)
    handles: list[Any] = []
    if null is not None:
        from matplotlib.lines import Line2D

        band = np.asarray(null.band(0.95))
        ax.scatter(band[shown], y, marker="|", s=120, color="black", zorder=3)
        passing = np.isin(shown, np.asarray(null.significant(0.05), dtype=np.int64))
        ax.scatter(np.minimum(freq[shown][passing] + 0.025, 0.985), y[passing], marker="*",
                   s=45, color="black", zorder=3)
        handles = [Line2D([], [], color="black", marker="|", linestyle="", markersize=10,
                          label="95 % of its null (uncorrected)"),
                   Line2D([], [], color="black", marker="*", linestyle="", markersize=7,
                          label="q <= 0.05 (Benjamini-Hochberg)")]
    ax.set_yticks(y, [str(base.feature_names[j]) for j in shown], fontsize=8)
    ax.set_xlim(0, 1)
    ax.set_xlabel(f"selection frequency (fraction of the b = {base.n_models} base models)"
                  if overview else f"selection frequency (of b = {base.n_models} models)")
    ax.set_title(f"Top {len(shown)} features by selection frequency")
    ax.grid(axis="x", alpha=0.3)
    if marked:
        from matplotlib.patches import Patch

        handles = [Patch(color=_ACCENT, label="in the consensus signature"),
                   Patch(color=_BASE, label="not in it"), *handles]
    if handles:
        ax.legend(handles=handles, loc="lower right", fontsize=8)
    if ax2 is not None:
        _plot_all_frequencies(ax2, freq, null)
    fig.tight_layout()
    return fig


def _plot_all_frequencies(ax2: Any, freq: np.ndarray, null: Any) -> None:
    """The frequency of every feature, sorted, on a log axis (and the pooled null's band)."""
    sorted_freq = np.sort(freq)[::-1]
    nonzero = int(np.count_nonzero(sorted_freq))
    ranks = np.arange(1, sorted_freq.size + 1)
    ax2.plot(ranks[: max(nonzero, 1)], sorted_freq[: max(nonzero, 1)], color=_BASE, lw=1.6)
    if null is not None:
        flat = np.asarray(null.null_frequencies).ravel()
        ax2.axhspan(float(np.quantile(flat, 0.5)), float(np.quantile(flat, 0.95)),
                    color="grey", alpha=0.25,
                    label=f"permutation null (median to 95 %, {null.n_permutations} perm.)")
        ax2.legend(loc="upper right", fontsize=8)
    ax2.set_xscale("log")
    _plain_log(ax2.xaxis)
    ax2.set_ylim(0, 1.02)
    ax2.set_xlabel("features, most frequent first (log scale)")
    ax2.set_ylabel("selection frequency")
    ax2.set_title(f"All features: {nonzero} of {freq.size} ever selected")
    ax2.grid(alpha=0.3)


@_plain_text
def plot_signature_overlap(result: OperatorResult) -> Figure:
    """Heatmap of the pairwise Jaccard overlap among a multi-model operator's alternatives.

    The quantity averaged by KDD 2012's diversity (section 3, eq. 1; Table 4, "similarity").
    """
    jac = jaccard_similarities(result.signatures)
    k = jac.shape[0]
    side = min(9.0, 2.5 + 0.55 * k)
    fig = Figure(figsize=(side + 1.2, side))
    ax = fig.subplots()
    im = ax.imshow(jac, vmin=0, vmax=1, cmap="viridis")
    labels = [f"alt {i}" for i in range(1, k + 1)]
    ax.set_xticks(range(k), labels, rotation=45, ha="right", fontsize=8)
    ax.set_yticks(range(k), labels, fontsize=8)
    if k <= 15:
        for i in range(k):
            for j in range(k):
                ax.text(j, i, f"{jac[i, j]:.2f}", ha="center", va="center", fontsize=7,
                        color="white" if jac[i, j] < 0.6 else "black")
    off = jac[~np.eye(k, dtype=bool)]
    mean = float(off.mean()) if off.size else 1.0
    ax.set_title(f"{result.operator}: Jaccard overlap of the {k} alternatives\n"
                 f"(mean off-diagonal {mean:.2f}; lower = more diverse)")
    fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04, label="Jaccard similarity")
    fig.tight_layout()
    return fig


def _itemset_list(itemsets: Any) -> tuple[list[frozenset[int]], np.ndarray]:
    sets = [frozenset(int(i) for i in s) for s in itemsets.itemsets]
    return sets, np.asarray(itemsets.support, dtype=np.float64)


#: The lattice figure's width, label font size, and the room around and between its boxes
#: (inches).
_LATTICE_WIDTH, _LATTICE_FONT, _LATTICE_GAP, _LATTICE_ROW = 11.0, 8.0, 0.12, 0.62


def _label_width(text: str) -> float:
    """The width in inches of a boxed label: its widest line in the label font (measured
    on the font's outlines, no renderer needed) and the box's padding."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextPath

    prop = FontProperties(size=_LATTICE_FONT)
    widest = max(TextPath((0, 0), line or " ", prop=prop).get_extents().width
                 for line in text.split("\n"))
    return (widest + 2 * 0.45 * _LATTICE_FONT + 2) / 72.0


def _lattice_rows(order: list[int], widths: dict[int, float], room: float
                  ) -> list[list[int]]:
    """The itemsets of one size, in order, packed into as few lines as fit ``room``."""
    lines: list[list[int]] = [[]]
    used = 0.0
    for i in order:
        need = widths[i] + (_LATTICE_GAP if lines[-1] else 0.0)
        if lines[-1] and used + need > room:
            lines.append([])
            used, need = 0.0, widths[i]
        lines[-1].append(i)
        used += need
    return lines


@_plain_text
def plot_lattice_top(itemsets: Any, feature_names: Sequence[str], *, top: int = 12) -> Figure:
    """The top of the closed-itemset lattice: the ``top`` itemsets of highest support.

    Nodes are placed in rows by itemset size (singletons at the top), a row wrapped onto
    more lines when its boxes would not fit side by side (no box covers another), and
    labelled with their features and support (with the count of base models); edges are
    the Hasse (cover) relations among the shown itemsets (KDD 2012, section 2.1). Ties in
    support go to the smaller, then the lexicographically smaller itemset.
    """
    sets, support = _itemset_list(itemsets)
    names = [str(n) for n in feature_names]
    keep = [i for i in range(len(sets)) if sets[i]]
    keep.sort(key=lambda i: (-support[i], len(sets[i]), sorted(sets[i])))
    keep = keep[:top]
    if not keep:
        fig = Figure(figsize=(_LATTICE_WIDTH, 2.0))
        ax = fig.subplots()
        ax.set_axis_off()
        ax.text(0.5, 0.5, "no frequent itemsets at this support", ha="center", va="center")
        return fig
    n_models = getattr(itemsets, "n_transactions", None)
    label = {i: _short([names[j] for j in sorted(sets[i])]) + f"\nsupport {support[i]:.2f}"
             + (f" ({round(float(support[i]) * n_models)}/{n_models})" if n_models else "")
             for i in keep}
    widths = {i: _label_width(label[i]) for i in keep}
    left = 0.75  # the row names ("size 2") sit in this margin
    room = _LATTICE_WIDTH - left - 0.1
    rows: list[list[int]] = []
    for size in sorted({len(sets[i]) for i in keep}):
        members = sorted((i for i in keep if len(sets[i]) == size),
                         key=lambda i: (-support[i], sorted(sets[i])))
        rows += [line for line in _lattice_rows(members, widths, room)]
    height = 0.9 + _LATTICE_ROW * len(rows) + 0.4 * (len({len(sets[r[0]]) for r in rows}) - 1)
    fig = Figure(figsize=(_LATTICE_WIDTH, height))
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0 - 0.75 / height))
    ax.set_axis_off()
    ax.set_xlim(0, _LATTICE_WIDTH)
    ax.set_ylim(height - 0.75, 0)  # inches from the top, under the title
    pos: dict[int, tuple[float, float]] = {}
    y, previous = 0.35, None
    for line in rows:
        size = len(sets[line[0]])
        if previous is not None and size != previous:
            y += 0.4
        if size != previous:
            ax.text(0.1, y, f"size {size}", ha="left", va="center", fontsize=8,
                    color="#555555")
        total = sum(widths[i] for i in line) + _LATTICE_GAP * (len(line) - 1)
        x = left + (room - total) / 2
        for i in line:
            pos[i] = (x + widths[i] / 2, y)
            x += widths[i] + _LATTICE_GAP
        y += _LATTICE_ROW
        previous = size
    for a in keep:  # cover edges: a < b with no shown c strictly between
        for b in keep:
            if sets[a] < sets[b] and not any(sets[a] < sets[c] < sets[b] for c in keep):
                (x0, y0), (x1, y1) = pos[a], pos[b]
                ax.plot([x0, x1], [y0, y1], color=_GREY, lw=1, zorder=1)
    smax = float(support[keep].max())
    for i in keep:
        shade = 0.35 + 0.65 * float(support[i]) / smax
        ax.text(*pos[i], label[i], ha="center", va="center", fontsize=_LATTICE_FONT,
                zorder=2, bbox={"boxstyle": "round,pad=0.35",
                                "fc": (1.0, 1 - 0.45 * shade, 1 - 0.25 * shade),
                                "ec": _ACCENT, "lw": 0.8})
    fig.suptitle(f"Top {len(keep)} closed itemsets by support (the fraction of the base "
                 "models containing them);\nlines join an itemset to its smallest shown "
                 "supersets", fontsize=11, y=1.0 - 0.1 / height, va="top")
    return fig


@_plain_text
def plot_support_distribution(itemsets: Any, *, n_models: int | None = None) -> Figure:
    """Histogram of the supports of the mined itemsets, stacked by itemset size."""
    sets, support = _itemset_list(itemsets)
    fig = Figure(figsize=(9, 4.2))
    ax = fig.subplots()
    if not sets:
        ax.text(0.5, 0.5, "no frequent itemsets", ha="center", va="center")
        ax.set_axis_off()
        return fig
    lengths = np.array([len(s) for s in sets])
    groups = [(1, 1, "size 1"), (2, 2, "size 2"), (3, 4, "size 3-4"), (5, 10**9, "size 5+")]
    data, labels = [], []
    for lo, hi, label in groups:
        sel = support[(lengths >= lo) & (lengths <= hi)]
        if sel.size:
            data.append(sel)
            labels.append(f"{label} ({sel.size})")
    bins = np.linspace(float(support.min()) - 1e-9, 1.0, 21).tolist()
    ax.hist(data, bins=bins, stacked=True, label=labels, edgecolor="white")
    ax.set_xlabel("support (fraction of the base models containing the itemset)"
                  + (f", b = {n_models}" if n_models else ""))
    ax.set_ylabel("number of itemsets")
    ax.set_title(f"Support distribution of the {len(sets)} mined itemsets")
    ax.legend(title="itemset size (count)", fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return fig


@_plain_text
def plot_stability(diagnostics: pd.DataFrame) -> Figure:
    """Stability of the base models by measure, with the confidence interval where known."""
    rows = diagnostics[diagnostics["scope"] == "base models"].reset_index(drop=True)
    fig = Figure(figsize=(8, 0.55 * max(len(rows), 1) + 1.6))
    ax = fig.subplots()
    y = np.arange(len(rows))[::-1]
    vals = rows["value"].to_numpy(dtype=float)
    lo = rows["ci_low"].to_numpy(dtype=float)
    hi = rows["ci_high"].to_numpy(dtype=float)
    ax.barh(y, vals, color=_BASE, height=0.6)
    has = np.isfinite(lo) & np.isfinite(hi)
    if has.any():
        ax.errorbar(vals[has], y[has], xerr=[vals[has] - lo[has], hi[has] - vals[has]],
                    fmt="none", ecolor="black", capsize=4, lw=1.2,
                    label="95 % confidence interval")
        ax.legend(loc="lower right", fontsize=8)
    for yi, v in zip(y, vals):
        ax.text(min(v, 0.98) + 0.01 if v >= 0 else 0.01, yi, f"{v:.3f}", va="center",
                fontsize=8)
    ax.set_yticks(y, rows["measure"].tolist())
    ax.set_xlim(min(0.0, float(np.nanmin(vals)) - 0.05) if len(vals) else 0.0, 1.05)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("stability of the base models (1 = identical selections)")
    ax.set_title("Stability of the selector across the bootstrap samples")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig


@_plain_text
def plot_error_vs_stability(evaluation: pd.DataFrame) -> Figure:
    """Error vs stability per operator: the trade-off discussed in KDD 2012 (Table 2) and
    by Saeys et al. (PKDD 2008, RPT). Expects columns ``operator``, ``error``, ``stability``.
    """
    fig = Figure(figsize=(7.5, 5))
    ax = fig.subplots()
    for _, row in evaluation.iterrows():
        ax.scatter(row["stability"], row["error"], s=45, color=_ACCENT, zorder=2)
        ax.annotate(str(row["operator"]), (row["stability"], row["error"]),
                    textcoords="offset points", xytext=(5, 4), fontsize=8)
    ax.set_xlabel("stability of the signatures across CV folds (higher = better)")
    ax.set_ylabel("classification error on held-out folds (lower = better)")
    ax.set_title("Error vs stability per operator (best: bottom right)")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


@_plain_text
def plot_stability_path(path: Any, *, top: int = 10) -> Figure:
    """A stability path (:func:`modelmine.diagnostics.stability_path`): left, the selection
    frequency of the ``top`` features along the grid (Meinshausen and Buehlmann 2010,
    section 2.3); right, Nogueira's stability with its confidence interval."""
    fig = Figure(figsize=(11, 4.2))
    ax, ax2 = fig.subplots(1, 2)
    grid = np.asarray(path.grid, dtype=float)
    for j in path.top_features(top):
        ax.plot(grid, path.frequencies[:, j], lw=1.4, label=str(path.feature_names[j]))
    ax.set_xscale("log")
    _plain_log(ax.xaxis)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel(path.parameter)
    ax.set_ylabel("selection frequency")
    ax.set_title("Stability path: most frequent features")
    ax.legend(fontsize=7, loc="lower right")
    ax.grid(alpha=0.3)
    ax2.plot(grid, path.stability, color=_BASE, lw=1.6, marker="o", ms=3)
    ax2.fill_between(grid, path.ci_low, path.ci_high, color=_BASE, alpha=0.2,
                     label=f"{path.confidence_level:.0%} CI")
    ax2.set_xscale("log")
    _plain_log(ax2.xaxis)
    ax2.set_xlabel(path.parameter)
    ax2.set_ylabel("Nogueira stability")
    ax2.set_title("Stability of the base models along the path")
    ax2.legend(fontsize=8)
    ax2.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def natural_key(text: str) -> tuple[Any, ...]:
    """Sort key of class labels as people read them: "2" before "10" (cluster numbers),
    text in its own order."""
    parts = re.split(r"(\d+)", str(text))
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts if p)


def _class_colors(labels: Any) -> tuple[list[str], dict[str, Any]]:
    from matplotlib import colormaps

    classes = sorted({str(v) for v in labels}, key=natural_key)
    cmap = colormaps["tab10" if len(classes) <= 10 else "tab20"]
    palette = {c: cmap(i % cmap.N) for i, c in enumerate(classes)}
    return classes, palette


def _looks_raw(values: np.ndarray) -> bool:
    """Raw intensities or counts: non-negative with a maximum above 100 (log-scale them)."""
    return bool(values.size) and float(values.min()) >= 0 and float(values.max()) > 100


def expression_scale(values: np.ndarray) -> tuple[np.ndarray, str]:
    """Values for display: log2(x + 1) when they look like raw intensities or counts
    (non-negative with a maximum above 100), then each gene centred and scaled (z-score).

    Returns the matrix and a phrase saying what was done, for the axis label.
    """
    vals = np.asarray(values, dtype=np.float64)
    what = "z-score"
    # a few variables on their own scales (a clinical table: age, BMI, 0/1 indicators) are
    # not intensities: only a column that itself looks raw would be logged, and most do not
    raw_columns = [_looks_raw(vals[:, j]) for j in range(vals.shape[1])] if vals.ndim == 2 \
        else [True]
    if _looks_raw(vals) and sum(raw_columns) * 2 > len(raw_columns):
        vals = np.log2(vals + 1.0)
        what = "z-score of log2(x + 1)"
    sd = vals.std(axis=0)
    z = (vals - vals.mean(axis=0)) / np.where(sd > 0, sd, 1.0)
    return z, what


def _leaf_order(matrix: np.ndarray) -> np.ndarray:
    """Rows in the leaf order of an average-linkage clustering (Euclidean distance)."""
    if matrix.shape[0] < 3:
        return np.arange(matrix.shape[0])
    from scipy.cluster.hierarchy import leaves_list, linkage

    return leaves_list(linkage(matrix, method="average", metric="euclidean"))


@_plain_text
def plot_expression_heatmap(expression: pd.DataFrame, genes: Sequence[str], *,
                            title: str = "", width: float | None = None) -> Figure:
    """Clustered heat map of samples x genes with a class colour bar.

    ``expression`` is :attr:`modelmine.MiningRun.expression` (class in the first column,
    then one column per gene); samples and genes are ordered by average-linkage
    clustering of the z-scored values (:func:`expression_scale`), the samples within each
    class, so the classes stay in blocks and the colour bar reads at a glance.
    """
    labels = expression.iloc[:, 0].astype(str).to_numpy()
    genes = [g for g in genes if g in expression.columns[1:]]
    z, what = expression_scale(expression[genes].to_numpy(dtype=np.float64))
    classes, palette = _class_colors(labels)
    order = np.concatenate([np.flatnonzero(labels == c)[_leaf_order(
        z[labels == c])] for c in classes])
    gene_order = _leaf_order(z.T)
    shown = np.clip(z[np.ix_(order, gene_order)], -3, 3)
    n, g = shown.shape
    fig = Figure(figsize=(width or min(14.0, 3.0 + 0.28 * g),
                          min(12.0 if width is None else 5.0, 2.5 + 0.09 * n)))
    ax_bar, ax = fig.subplots(1, 2, gridspec_kw={"width_ratios": [0.035 * max(g, 8) / 8, 1],
                                                  "wspace": 0.02}, sharey=True)
    from matplotlib.colors import ListedColormap

    codes = np.array([classes.index(lbl) for lbl in labels[order]])[:, None]
    ax_bar.imshow(codes, aspect="auto", interpolation="nearest",
                  cmap=ListedColormap([palette[c] for c in classes]), vmin=-0.5,
                  vmax=len(classes) - 0.5)
    ax_bar.set_xticks([0], ["class"], rotation=90, fontsize=8)
    ax_bar.set_yticks([])
    im = ax.imshow(shown, aspect="auto", interpolation="nearest", cmap="RdBu_r", vmin=-3,
                   vmax=3)
    ax.set_xticks(range(g), [genes[j] for j in gene_order], rotation=90, fontsize=7)
    ax.set_yticks([])
    ax.set_xlabel("genes (clustered)")
    ax_bar.set_ylabel(f"{n} samples, grouped by class and clustered within it")
    from matplotlib.patches import Patch

    ax.legend(handles=[Patch(color=palette[c], label=c) for c in classes], title="class",
              loc="upper left", bbox_to_anchor=(1.12, 1.0), fontsize=8, frameon=False)
    fig.colorbar(im, ax=ax, fraction=0.03, pad=0.01, label=what + " (clipped at ±3)")
    ax.set_title(title or f"Expression of {g} signature genes by class")
    return fig


@_plain_text
def plot_expression_by_class(expression: pd.DataFrame, genes: Sequence[str]) -> Figure:
    """One box plot with the samples as points per gene, by class, in the data's units (on
    a log axis when they look like raw intensities or counts, as :func:`expression_scale`
    decides)."""
    labels = expression.iloc[:, 0].astype(str).to_numpy()
    genes = [g for g in genes if g in expression.columns[1:]]
    raw = _looks_raw(expression[genes].to_numpy(dtype=np.float64))
    classes, palette = _class_colors(labels)
    cols = min(4, max(1, len(genes)))
    rows = int(np.ceil(len(genes) / cols)) if genes else 1
    width = max(2.6, 0.45 * len(classes) + 1.4)
    fig = Figure(figsize=(min(16.0, cols * width), 2.9 * rows))
    axes = np.atleast_1d(fig.subplots(rows, cols, squeeze=False)).ravel()
    rng = np.random.default_rng(0)  # jitter only
    for ax, gene in zip(axes, genes):
        values = expression[gene].to_numpy(dtype=np.float64)
        groups = [values[labels == c] for c in classes]
        ax.boxplot(groups, widths=0.55, showfliers=False,
                   medianprops={"color": "black"})
        for i, (c, vals) in enumerate(zip(classes, groups), start=1):
            ax.scatter(i + rng.uniform(-0.16, 0.16, vals.size), vals, s=9, alpha=0.75,
                       color=palette[c], zorder=3)
        ax.set_xticks(range(1, len(classes) + 1), classes, rotation=45 if len(classes) > 3
                      else 0, ha="right" if len(classes) > 3 else "center", fontsize=7)
        ax.set_title(gene, fontsize=9)
        if raw:
            ax.set_yscale("symlog", linthresh=1.0)
            _plain_log(ax.yaxis)
        ax.tick_params(axis="y", labelsize=7)
        ax.grid(axis="y", alpha=0.3)
    for ax in axes[len(genes):]:
        ax.set_axis_off()
    fig.suptitle("Expression of the top consensus genes by class (values as in the data"
                 + (", log axis)" if raw else ")"))
    fig.tight_layout()
    return fig


@_plain_text
def plot_marker_dots(effect: pd.DataFrame, size: pd.DataFrame, *, size_label: str,
                     effect_label: str, width: float | None = None) -> Figure:
    """A dot plot of genes x classes, as single-cell users know it (scanpy's ``dotplot``):
    the dot's area follows ``size`` (in [0, 1]), its colour ``effect`` (diverging around 0:
    red up in the class, blue down).

    Parameters
    ----------
    effect, size : DataFrame
        Genes (rows) x classes (columns), the same labels.
    size_label, effect_label : str
        What the sizes and colours are, for the legend and the colour bar.
    width : float, optional
        The figure's width in inches (default: from the number of genes).
    """
    genes, classes = list(effect.index), [str(c) for c in effect.columns]
    E = effect.to_numpy(dtype=np.float64)
    S = np.clip(size.reindex(index=effect.index, columns=effect.columns)
                .to_numpy(dtype=np.float64), 0.0, 1.0)
    lim = float(np.nanmax(np.abs(E))) if np.isfinite(E).any() else 1.0
    fig = Figure(figsize=(width or min(18.0, 2.5 + 0.32 * len(genes)),
                          1.6 + 0.36 * len(classes)))
    ax = fig.subplots()
    gx, cy = np.meshgrid(np.arange(len(genes)), np.arange(len(classes)), indexing="ij")
    dots = ax.scatter(gx.ravel(), cy.ravel(), s=20 + 260 * S.ravel(), c=E.ravel(),
                      cmap="RdBu_r", vmin=-lim or -1, vmax=lim or 1, edgecolors="0.4",
                      linewidths=0.4)
    ax.set_xticks(range(len(genes)), genes, rotation=90, fontsize=7)
    ax.set_yticks(range(len(classes)), classes, fontsize=8)
    ax.set_xlim(-0.7, len(genes) - 0.3)
    ax.set_ylim(len(classes) - 0.5, -0.5)
    fig.colorbar(dots, ax=ax, label=effect_label, shrink=0.8)
    for value in (0.25, 0.5, 1.0):
        ax.scatter([], [], s=20 + 260 * value, color="0.7", edgecolors="0.4",
                   label=f"{value:g}")
    narrow = fig.get_figwidth() < 6  # the title on two lines, as wide as the plot
    ax.set_title("Which gene marks which class" + ("\n" if narrow else " ")
                 + "(each class against the rest)")
    fig.tight_layout()
    # the size legend right of the colour bar, outside the axes' layout (the tight bounding
    # box of the saved figure takes it in): inside it, it covered the colour bar's label
    fig.legend(*ax.get_legend_handles_labels(), title=size_label, loc="upper left",
               bbox_to_anchor=(1.0, 0.95), frameon=False, fontsize=7, title_fontsize=7)
    return fig


@_plain_text
def plot_membership(result: OperatorResult, frequency: np.ndarray,
                    feature_names: Sequence[str], *, max_genes: int = 60) -> Figure:
    """Gene x alternative membership matrix of a multi-model operator's signatures.

    Rows: the genes of any alternative, those in most alternatives first (ties: higher
    selection frequency); a filled cell marks membership; the bar on the right gives the
    gene's selection frequency across the base models. It shows at a glance which genes
    all alternatives share and which are interchangeable (the UpSet view of the sets).
    """
    sigs = result.signatures
    k = len(sigs)
    genes = sorted({int(f) for s in sigs for f in s.features})
    member = np.array([[int(g) in set(int(f) for f in s.features) for s in sigs]
                       for g in genes], dtype=bool).reshape(len(genes), k)
    order = sorted(range(len(genes)), key=lambda r: (-member[r].sum(),
                                                     -frequency[genes[r]], genes[r]))
    order = order[:max_genes]
    member = member[order]
    rows = [genes[r] for r in order]
    fig = Figure(figsize=(min(12.0, 3.5 + 0.45 * k), min(16.0, 1.8 + 0.2 * len(rows))))
    ax, ax_f = fig.subplots(1, 2, gridspec_kw={"width_ratios": [max(k, 2), 2.2],
                                               "wspace": 0.05}, sharey=True)
    yy, xx = np.nonzero(member)
    ax.scatter(xx, yy, s=38, color=_ACCENT, zorder=2)
    for j in range(k):
        ax.axvline(j, color="#eeeeee", lw=0.6, zorder=1)
    ax.set_xticks(range(k), [f"alt {j}" for j in range(1, k + 1)], rotation=90, fontsize=8)
    ax.set_yticks(range(len(rows)), [str(feature_names[g]) for g in rows], fontsize=7)
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlim(-0.6, k - 0.4)
    ax.set_title(f"{result.operator}: which genes each alternative holds")
    ax_f.barh(range(len(rows)), [frequency[g] for g in rows], color=_BASE, height=0.7)
    ax_f.set_xlim(0, 1)
    ax_f.set_xlabel("selection\nfrequency", fontsize=8)
    ax_f.tick_params(axis="x", labelsize=7)
    fig.subplots_adjust(left=0.3, right=0.97, bottom=0.12, top=0.93, wspace=0.05)
    return fig


def stability_by_size(base: BaseModels, sizes: Sequence[int] | None = None,
                      confidence_level: float = 0.95) -> pd.DataFrame:
    """Nogueira stability of the top-s features of the b rankings, for each size s.

    The base models' rankings cut at s features instead of m (Nogueira, Sechidis and Brown,
    JMLR 2018, with its confidence interval): how stable a signature of each size would
    be. Default sizes: 1, 2, 5, 10, 20, 50, ... up to p, and m itself.

    Returns
    -------
    DataFrame
        Columns ``size``, ``stability``, ``ci_low``, ``ci_high``.
    """
    from ..diagnostics import nogueira_stability

    p = base.n_features_in
    if sizes is None:
        grid = {s * 10**e for e in range(7) for s in (1, 2, 5)}
        if base.n_features:
            grid.add(int(base.n_features))
        sizes = sorted(s for s in grid if s < p)
    rows = []
    ranks = np.asarray(base.ranks)
    for s in sizes:
        res = nogueira_stability(ranks <= s, confidence_level=confidence_level)
        lo, hi = res.confidence_interval
        rows.append({"size": int(s), "stability": float(res.value), "ci_low": float(lo),
                     "ci_high": float(hi)})
    return pd.DataFrame(rows, columns=["size", "stability", "ci_low", "ci_high"])


@_plain_text
def plot_stability_by_size(table: pd.DataFrame, *, m: int | None = None) -> Figure:
    """Stability against signature size (:func:`stability_by_size`), with its interval."""
    fig = Figure(figsize=(8, 4.2))
    ax = fig.subplots()
    x = table["size"].to_numpy(dtype=float)
    ax.fill_between(x, table["ci_low"], table["ci_high"], color=_BASE, alpha=0.2,
                    label="95 % confidence interval")
    ax.plot(x, table["stability"], marker="o", color=_BASE, lw=1.6,
            label="Nogueira stability")
    if m:
        ax.axvline(m, color=_ACCENT, ls="--", lw=1.2, label=f"m = {m} (this run)")
    ax.set_xscale("log")
    _plain_log(ax.xaxis)
    ax.set_ylim(min(0.0, float(table["ci_low"].min()) - 0.05) if len(table) else 0.0, 1.02)
    ax.set_xlabel("signature size: top s features of each base model's ranking (log scale)")
    ax.set_ylabel("stability (1 = identical)")
    ax.set_title("How stable a signature of each size is across the bootstrap samples")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    fig.tight_layout()
    return fig
