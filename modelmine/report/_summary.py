"""``#summary``, the first screen of the run report: the question, the verdict, the
figures that matter and the panel."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._utils import is_positional
from ._expression import PANEL_GENES_SHOWN, dot_plot, heatmap_genes
from ._format import e, table
from ._itemset_sections import cooccurrence_verdict
from ._plots import plot_expression_heatmap, plot_selection_frequency, png_data_uri
from ._words import shareable

__all__ = ["summary"]

#: Genes the first screen's figures show (the figures below show more), and their width in
#: inches: about 500 pixels at the page's 110 dpi with their legends, two side by side in
#: the page's 1,044-pixel column, so their 7-8 point text is drawn at its size on a
#: 1,400-pixel screen.
SUMMARY_GENES, SUMMARY_WIDTH = 10, 4.2


def summary(page: Any) -> str:
    """``#summary``, the first screen a PI reads: the question, the verdict (stability,
    how many genes are defensible at which error level, whether itemsets beat chance),
    the figures that matter (small enough to read at their size, each linked to its full
    figure below) and the panel."""
    parts = ['<section id="summary" class="summary"><h2>Summary</h2>',
             f"<p><b>Question.</b> {_question(page)}</p>", "<ul>", *_verdict(page), "</ul>",
             _figures(page), _panel(page),
             '<p class="muted">The details follow: the data and settings, every '
             "signature, the expression of its genes, the markers by class, the "
             "alternatives, stability, itemsets and diagnostics.</p></section>"]
    return "\n".join(parts)


def _thumb(fig: Any, alt: str, target: str) -> str:
    return (f'<a href="#{target}" title="the full figure"><img class="thumb" '
            f'src="{png_data_uri(fig)}" alt="{e(alt)}"></a>')


def _figures(page: Any) -> str:
    """The selection frequencies of the top genes, the markers' dot plot and the heat map
    of the consensus genes, each linked to its full figure."""
    thumbs = [_thumb(plot_selection_frequency(page.base, top=SUMMARY_GENES,
                                              highlight=page.highlight, null=page.null,
                                              overview=False),
                     "Selection frequency of the top genes", "fig-frequency")]
    dots = dot_plot(page, max_genes=SUMMARY_GENES, width=SUMMARY_WIDTH - 0.4)
    if dots is not None:
        thumbs.append(_thumb(dots[0], "Dot plot of the top marker genes by class",
                             "fig-markers"))
    frame = page.run.expression
    if page.outcome_kind.classes and frame is not None and frame.shape[1] >= 2:
        genes = heatmap_genes(page)[:SUMMARY_GENES]
        thumbs.append(_thumb(plot_expression_heatmap(frame, genes, width=SUMMARY_WIDTH),
                             "Heat map of the top signature genes by class", "fig-heatmap"))
    return '<div class="thumbs">' + "".join(thumbs) + "</div>"


def _question(page: Any) -> str:
    base = page.base
    source = shareable(str(dict(page.run.data or {}).get("source", "the data")))
    classes = ", ".join(str(c) for c in base.classes)
    question = page.outcome_kind.question.format(classes=e(classes))
    named = (f", named x0 to x{base.n_features_in - 1} by their column positions"
             if is_positional(page.names) else "")
    return (f"{question} {e(source)} ({base.n_samples} samples x "
            f"{base.n_features_in:,} features{named}), in which direction, and how surely? "
            f"{e(str(base.selector.get('name')))} on {base.n_models} resamples.")


def _verdict(page: Any) -> list[str]:
    """The verdict's items: stability, defensible genes, co-selection."""
    from ._trust import stability_note

    items = []
    diagnostics = page.diagnostics
    nog = diagnostics[diagnostics["measure"] == "nogueira"]
    if len(nog):
        value, low, high = (float(nog.iloc[0][k]) for k in ("value", "ci_low", "ci_high"))
        band = ("not informative, as each model takes most of the features (see the "
                "caution above)" if stability_note(page.base) is not None else
                "poor (below 0.4)" if value < 0.4 else
                "intermediate to good (0.4 to 0.75)" if value < 0.75 else
                "excellent (0.75 or more)")
        items.append(f"<li><b>Stability</b> of the base models (Nogueira): {value:.2f} "
                     f"[95 % CI {low:.2f} to {high:.2f}], {band}.</li>")
    if page.consensus is not None:
        items += _defensible(page)
    if page.itemset_test is not None:
        items.append(f"<li><b>Co-selection</b>: {e(cooccurrence_verdict(page.itemset_test))}"
                     "</li>")
    return items


def _defensible(page: Any) -> list[str]:
    """How many consensus genes beat a permutation null, what error control keeps."""
    items = []
    sig, null, check = page.consensus.signatures[0], page.null, page.error_control
    if null is not None:
        q = np.asarray(null.q_values)[np.asarray(sig.features, dtype=np.int64)]
        items.append(f"<li><b>Defensible genes</b>: {int((q <= 0.05).sum())} of the "
                     f"{len(sig.features)} genes of {e(page.consensus.operator)} are "
                     "selected more often than under permuted labels (q &le; 0.05, "
                     f"{null.n_permutations} permutations).</li>")
    if check is not None:
        items += [f"<li><b>Error control</b>: {e(text)}</li>" for text in check.statements]
    if null is None and check is None:
        items.append("<li><b>Defensible genes</b>: not checked in this run. "
                     "<code>--null N</code> (a permutation null) or <code>--pfer V</code> "
                     "/ <code>--fdr Q</code> (stability selection, Stabl) say how many "
                     "genes beat chance at a stated error level.</li>")
    return items


def _panel(page: Any) -> str:
    """The consensus genes, with the class each marks (or the outcome's direction)."""
    markers = page.markers
    if markers is None or markers.empty:
        return ""
    first = markers.signature.iloc[0]
    if "class" not in markers.columns:
        part = markers[markers.signature == first]
        keep = [c for c in ("feature", "direction", "effect_size", "hazard_ratio",
                            "p_value", "frequency", "q_value") if c in part.columns]
        return (f"<h3>The panel: {e(str(first))}</h3>"
                + table(part[keep].rename(columns={"feature": "gene"}), max_rows=10))
    parts = []
    per_class = markers[(markers.signature == first) & (markers.panel == "per_class")]
    if len(per_class):  # a per-class run answers per class first (issue 39)
        parts.append(_class_panels(per_class, str(first)))
    part = markers[(markers.signature == first) & (markers.panel == "pooled")]
    if len(part) and len(per_class):
        parts.append(f"<h3>The pooled panel: {e(str(first))} (all classes at once)</h3>")
    if len(part):
        if not len(per_class):
            parts.append(f"<h3>The panel: {e(str(first))}</h3>")
        parts.append(_pooled_panel(part))
    return "\n".join(parts)


def _pooled_panel(part: pd.DataFrame) -> str:
    best = (part.sort_values("auroc", ascending=False)
            .drop_duplicates("feature").set_index("feature"))
    order = list(dict.fromkeys(part.feature))
    panel = pd.DataFrame({
        "gene": order,
        "marks (higher in)": [best.loc[g, "class"] for g in order],
        "effect": [best.loc[g, "effect_size"] for g in order],
        "AUROC": [best.loc[g, "auroc"] for g in order],
        "frequency": [best.loc[g, "frequency"] for g in order]})
    if "q_value" in best.columns:
        panel["q value"] = [best.loc[g, "q_value"] for g in order]
    more = len(panel) - 10
    return (table(panel.head(10))
            + (f'<p class="muted">{more} more genes in <a href="#markers">the '
               "markers</a>.</p>" if more > 0 else ""))


def _class_panels(per_class: pd.DataFrame, operator: str) -> str:
    """The first screen of a per-class run: each class with the top genes of its own
    panel (each class against the rest), the most frequently selected first."""
    rows = []
    for cls, part in per_class.groupby("class", sort=False):
        top = part.sort_values("frequency", ascending=False, kind="stable").head(
            PANEL_GENES_SHOWN)
        rows.append({"class": cls, "panel genes": len(part),
                     f"top {PANEL_GENES_SHOWN} (frequency in the class's models)": ", ".join(
                         f"{g} ({f:.2f})" for g, f in zip(top.feature, top.frequency))})
    return (f"<h3>The per-class panels: {e(operator)} (each class against the rest)</h3>"
            + table(pd.DataFrame(rows), max_rows=40)
            + '<p class="muted">Every gene of every panel, with its direction and effect, '
            'is in <a href="#markers">the markers</a>.</p>')
