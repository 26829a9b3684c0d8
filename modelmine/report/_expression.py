"""The report's sections on the signature genes' values: ``#expression`` (the genes by
class, or against a continuous or survival outcome) and ``#markers`` (which gene marks
which class, or the outcome, in which direction)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ._format import csv_link, e, img, table
from ._plots import natural_key, plot_expression_by_class, plot_expression_heatmap

__all__ = ["PANEL_GENES_SHOWN", "dot_plot", "expression", "heatmap_genes", "markers",
           "top_panel_genes"]

#: Genes per class the summary and the dot plot show of a per-class run (all of them are
#: in the markers table and markers.csv).
PANEL_GENES_SHOWN = 5


def heatmap_genes(page: Any) -> list[str]:
    """The genes the heat map shows: the consensus signature's kept in the expression
    values, else the first 30 kept."""
    genes = list(page.run.expression.columns[1:])
    shown = [page.names[j] for j in page.highlight] if page.highlight else genes[:30]
    return [g for g in shown if g in genes] or genes[:30]


def expression(page: Any) -> str:
    """``#expression``: the values of the signature genes by class (a clustered heat map and
    box plots), or, for a continuous or survival outcome, against the outcome."""
    frame = page.run.expression
    head = '<h2 id="expression">Expression of the signature genes</h2>'
    if not page.outcome_kind.classes and frame is not None:
        return head + "\n" + _outcome_expression(page, frame)
    if frame is None or frame.shape[1] < 2:
        return head + ('\n<p class="muted">The expression values are not part of this run '
                       "directory (written before modelmine kept them); rerun with "
                       "<code>modelmine run</code> to see the signature genes by class.</p>")
    shown = heatmap_genes(page)
    which = (f"{e(page.consensus.operator)} signature" if page.consensus else "signatures")
    return "\n".join([
        head,
        '<div class="note">Each row of the heat map is a sample, each column a gene of the '
        f"{which}; colours are z-scores (log2 first for raw intensities), samples grouped by "
        "class. A good signature shows blocks of colour that follow the class bar on the "
        "left.</div>",
        img(plot_expression_heatmap(frame, shown),
            "Clustered heat map of the signature genes by class", anchor="fig-heatmap"),
        img(plot_expression_by_class(frame, shown[:8]), "Expression of the top genes by class"),
        f'<p class="dl">{csv_link(frame.reset_index(), "expression.csv")}</p>'])


def _outcome_expression(page: Any, frame: pd.DataFrame) -> str:
    """``#expression`` of a continuous or survival run: the genes against the outcome,
    and the signature's out-of-fold prediction (:mod:`._outcome_plots`)."""
    from ._outcome_plots import (
        plot_kaplan_meier,
        plot_outcome_scatter,
        plot_predicted_observed,
        signature_predictions,
    )

    kind = page.outcome_kind
    genes = list(frame.columns[len(kind.columns):])
    shown = [page.names[j] for j in page.highlight] if page.highlight else genes[:30]
    shown = [g for g in shown if g in genes] or genes[:30]
    if not shown:
        return '<p class="muted">No gene of the signatures is kept.</p>'
    which = (f"the {e(page.consensus.operator)} signature" if page.consensus
             else "the signatures")
    note = ("The genes were chosen on all the samples: these figures show how they relate "
            "to the outcome, not an unbiased estimate of the signature's performance "
            "(<code>modelmine evaluate</code> selects inside each fold).")
    parts = []
    y = kind.values_from(frame)
    if not kind.censored:  # numbers
        pred = signature_predictions(frame, shown, kind)
        parts.append(f'<div class="note">Each panel is a gene of {which} against the '
                     "outcome, with its least-squares line and Spearman's rho; then the "
                     "outcome predicted from the signature's genes (ridge regression, "
                     f"5-fold, out of fold) against the observed one. {note}</div>")
        parts.append(img(plot_outcome_scatter(frame, shown[:8], y),
                         "The top genes against the outcome"))
        parts.append(img(plot_predicted_observed(
            np.asarray(y, dtype=np.float64), pred,
            "Signature: predicted against observed"), "Predicted against observed"))
    else:
        risk = signature_predictions(frame, shown, kind)
        fig, p_value = plot_kaplan_meier(y["time"], y["event"], risk,
                                         "Signature risk score, split at its median")
        parts.append(f'<div class="note">Kaplan-Meier curves of the samples above and at '
                     "or below the median of the signature's risk score (a Cox model of "
                     f"{which}'s genes with a small ridge penalty, 5-fold, out of fold); "
                     f"log-rank p = {p_value:.2g}. {note}</div>")
        parts.append(img(fig, "Kaplan-Meier curves by signature risk"))
    parts.append(f'<p class="dl">{csv_link(frame.reset_index(), "expression.csv")}</p>')
    return "\n".join(parts)


def markers(page: Any) -> str:
    """``#markers``: which gene marks which class (a dot plot and the table), or the
    direction and strength of each gene with a continuous or survival outcome."""
    table_ = page.markers
    if table_ is not None and not table_.empty and "class" not in table_.columns:
        return _outcome_markers(table_)
    if table_ is not None and not table_.empty:
        return _class_markers(page)
    return ('<h2 id="markers">Markers: which gene marks which class</h2>'
            '<p class="muted">Computed from the expression values of a run '
            "(<code>MiningRun.markers()</code>, <code>markers.csv</code>).</p>")


def _dot_data(chosen: pd.DataFrame, per_class: pd.DataFrame, first: str,
              grid: tuple[pd.DataFrame, pd.DataFrame] | None
              ) -> tuple[pd.DataFrame, pd.DataFrame, str, str, str]:
    """The dot plot's colour (effect) and size tables, the size's label, what the plot
    shows in words, and the effect's measure."""
    measure = str(chosen.effect_measure.iloc[0]).replace("_", " ")
    effect = chosen.pivot_table(index="feature", columns="class", values="effect_size",
                                sort=False)
    effect = effect[sorted(effect.columns, key=lambda c: natural_key(str(c)))]  # 0, 1, ..., 10
    if per_class.empty:
        size = chosen.assign(sep=(2 * chosen.auroc - 1).abs()).pivot_table(
            index="feature", columns="class", values="sep", sort=False)
        return effect, size, "|2 AUROC - 1|", (
            f"the genes of the {e(first)} signature; each dot is a gene (column) in a class "
            "(row) against the rest: its colour the effect size, its area how well the gene "
            "separates the class (|2 AUROC - 1|: 0 none, 1 perfectly)"), measure
    if grid is not None:
        effect, size = grid
        if "adjusted_odds_ratio" in chosen.columns:  # a run adjusted for covariates
            measure = "log odds ratio per SD, adjusted for the covariates (Firth)"
    else:
        size = chosen.pivot_table(index="feature", columns="class", values="frequency",
                                  sort=False)
    what = (f"the per-class panels of {e(first)} (each class against the rest, on the "
            "run's own resamples); a dot's area is how often the class's base models "
            "selected the gene, its colour the effect size in that class")
    top = top_panel_genes(chosen)
    if len(top) < len(effect):
        what += (f"; of the {len(effect)} panel genes it shows the "
                 f"{PANEL_GENES_SHOWN} most frequently selected of each class "
                 f"({len(top)} genes; all of them in the table)")
        effect = effect.loc[[g for g in effect.index if g in top]]
        size = size.loc[[g for g in size.index if g in top]]
    return effect, size, "frequency", what, measure


def dot_plot(page: Any, max_genes: int | None = None, width: float | None = None
             ) -> tuple[Any, str, str] | None:
    """The markers' dot plot of a classification run (genes x classes), what it shows in
    words and its effect measure; at most ``max_genes`` genes (the first of the table), at
    ``width`` inches when given. None without class markers."""
    from ._plots import plot_marker_dots

    table_ = page.markers
    if table_ is None or table_.empty or "class" not in table_.columns:
        return None
    first = table_.signature.iloc[0]
    per_class = table_[(table_.signature == first) & (table_.panel == "per_class")]
    chosen = per_class if not per_class.empty else table_[
        (table_.signature == first) & (table_.panel == "pooled")]
    effect, size, size_label, what, measure = _dot_data(chosen, per_class, first,
                                                        page.marker_grid)
    if max_genes is not None:
        effect = effect.iloc[:max_genes]
    fig = plot_marker_dots(effect, size.fillna(0.0), size_label=size_label,
                           effect_label=measure, width=width)
    return fig, what, measure


def _class_markers(page: Any) -> str:
    """``#markers`` of a classification run: a dot plot and the table."""
    made = dot_plot(page)
    assert made is not None  # markers() checked the table
    fig, what, measure = made
    first = page.markers.signature.iloc[0]
    per_class = page.markers[(page.markers.signature == first)
                             & (page.markers.panel == "per_class")]
    chosen = per_class if not per_class.empty else page.markers[
        (page.markers.signature == first) & (page.markers.panel == "pooled")]
    parts = ['<h2 id="markers">Markers: which gene marks which class</h2>',
             f'<div class="note">The dot plot shows {what}. Red: higher in the class than '
             f"in the rest; blue: lower ({e(measure)}). The table gives every value "
             "(<code>markers.csv</code>).</div>",
             img(fig, "Dot plot of the marker genes by class", anchor="fig-markers"),
             table(chosen.drop(columns=["signature"]), csv="markers.csv", max_rows=60)]
    return "\n".join(parts)


def top_panel_genes(per_class: pd.DataFrame) -> set[str]:
    """The PANEL_GENES_SHOWN most frequently selected genes of each class's panel (a dot
    plot of every gene of every panel, 180 for 18 classes, cannot be read)."""
    keep: set[str] = set()
    for _, part in per_class.groupby("class", sort=False):
        keep |= set(part.sort_values("frequency", ascending=False, kind="stable")
                    .feature.head(PANEL_GENES_SHOWN).astype(str))
    return keep


def _outcome_markers(markers_: pd.DataFrame) -> str:
    """``#markers`` of a continuous or survival run: direction and strength of every
    signature gene with the outcome (:func:`modelmine.diagnostics.outcome_marker_table`)."""
    first = markers_.signature.iloc[0]
    chosen = markers_[markers_.signature == first]
    survival = "hazard_ratio" in chosen.columns
    adjusted = str(chosen.effect_measure.iloc[0]).endswith("_adjusted")
    if survival:
        from ._outcome_plots import plot_hazard_ratios

        model = ("Cox model of the gene and the covariates, Breslow ties" if adjusted
                 else "univariate Cox model, Breslow ties")
        what = ("the hazard ratio per standard deviation of each gene of the "
                f"{e(first)} signature ({model}) with its 95 % Wald interval, and its "
                "concordance oriented by its direction; red: higher values, higher hazard "
                "(risk); blue: protective")
        figure = img(plot_hazard_ratios(chosen), "Hazard ratios of the signature genes")
    else:
        what = (("the partial correlation and the least-squares slope (per SD) of each gene of the "
                 f"{e(first)} signature in the model of the outcome on the gene and the "
                 "covariates") if adjusted else
                ("Spearman's rho of each gene of the "
                 f"{e(first)} signature with the outcome (up: higher with the outcome)"))
        figure = ""
    return "\n".join([
        '<h2 id="markers">Markers: which gene marks the outcome, in which direction</h2>',
        f'<div class="note">The table gives {what}, the p-value, and how often the b base '
        "models selected the gene (with its Wilson interval); <code>markers.csv</code>."
        "</div>", figure,
        table(chosen.drop(columns=["signature"]), csv="markers.csv", max_rows=60)])
