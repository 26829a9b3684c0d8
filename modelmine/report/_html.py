"""One self-contained HTML report of a model-mining run.

The page needs no network: the plots are PNG images embedded as ``data:`` URIs, the style
sheet is inline, there is no web font, and the only script is the lattice explorer's, inline
(:meth:`modelmine.ItemsetLattice.to_html`). It shows what Woznica, Nguyen and Kalousis
(KDD 2012) report for a run, for a biologist: the data and settings, the consensus signature
as genes with their frequencies and integer ranks (section 2), their expression by class,
each alternative (section 2.3) as a gene x alternative matrix and the Jaccard overlap among
them (section 3, eq. 1), the per-feature selection frequency, the stability of the base
models and of each signature size with confidence intervals (Nogueira et al., JMLR 2018),
error vs stability per operator (Table 2) or the command that computes it, and the
closed-itemset lattice (section 2.2) with its explorer. Every table downloads as CSV
(data: URLs).
"""

from __future__ import annotations

import base64
import contextvars
import datetime as _dt
import html
import io
import os
import re
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._files import write_text_atomic
from .._page import html_page
from .._utils import library_versions
from ..base_models import BaseModels
from ..constants import LATTICE_HTML_MAX_ITEMSETS, LATTICE_REPORT_MAX_ITEMSETS
from ..patterns import ItemsetLattice, Itemsets, mine_itemsets
from ..patterns._explorer import explorer_fragment
from ._diagnostics import NOTES, run_diagnostics
from ._plots import (
    plot_error_vs_stability,
    plot_expression_by_class,
    plot_expression_heatmap,
    plot_lattice_top,
    plot_membership,
    plot_selection_frequency,
    plot_signature_overlap,
    plot_stability,
    plot_stability_by_size,
    plot_stability_path,
    plot_support_distribution,
    png_data_uri,
    stability_by_size,
)
from ._records import OperatorResult, signature_table
from ._trust import trust_warnings

__all__ = ["build_report", "write_report"]

_CSS = """
body{font-family:-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;margin:0;color:#222;
background:#fafafa;line-height:1.45}
main{max-width:1100px;margin:0 auto;padding:24px 28px 60px;background:#fff}
h1{font-size:1.7em;margin:0 0 4px}h2{border-bottom:2px solid #c2185b;padding-bottom:3px;
margin-top:36px}h3{margin-bottom:6px}
table{border-collapse:collapse;margin:8px 0 14px;font-size:0.9em}
th,td{border:1px solid #ddd;padding:3px 9px;text-align:left}
th{background:#f2f2f2}td.num{text-align:right;font-variant-numeric:tabular-nums}
img{max-width:100%;height:auto;display:block;margin:10px 0;border:1px solid #eee}
.warning{background:#fdf3e7;border-left:4px solid #c0392b;padding:6px 12px;margin:8px 0}
.note{background:#f6f8fb;border-left:4px solid #4c72b0;padding:6px 12px;margin:8px 0;
font-size:0.92em}.muted{color:#666;font-size:0.9em}
details{margin:6px 0}summary{cursor:pointer;font-weight:600}
nav a{margin-right:14px}
pre,code{background:#f4f4f4;font-size:0.9em}pre{padding:8px 10px;white-space:pre-wrap}
p.dl{margin:-8px 0 12px;font-size:0.85em}a.csv{color:#4c72b0}
.summary{border:1px solid #e3e3e3;padding:4px 16px 8px;margin:14px 0;background:#fcfcfd}
.summary h2{margin-top:10px}.summary ul{margin:6px 0;padding-left:20px}
.thumbs{display:flex;gap:8px;align-items:flex-start}
img.thumb{width:32%;max-height:300px;object-fit:contain;margin:4px 0}
@media print{.summary{page-break-after:always}}
"""


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _fmt(v: Any, digits: int = 3) -> str:
    """A single value: floats with ``digits`` decimals, whole ones (ranks) as integers."""
    if v is None:
        return ""
    if isinstance(v, bool | np.bool_):
        return "yes" if v else "no"
    if isinstance(v, float | np.floating):
        if not np.isfinite(v):
            return ""
        if float(v).is_integer() and abs(float(v)) < 1e15:
            return str(int(v))
        return f"{float(v):.{digits}f}"
    return str(v)


#: Formats of the signature tables' columns.
_SIGNATURE_FORMATS = {"frequency": "{:.2f}", "mean rank": "{:.1f}"}


def _csv_link(frame: pd.DataFrame, name: str) -> str:
    """A link that downloads ``frame`` as ``name`` (a data: URL; the page stays offline)."""
    from .._csv import safe_frame

    data = base64.b64encode(safe_frame(frame).to_csv(index=False).encode("utf-8")).decode(
        "ascii")
    return (f'<a class="csv" download="{_e(name)}" '
            f'href="data:text/csv;charset=utf-8;base64,{data}">download {_e(name)}</a>')


def p_text(v: Any) -> str:
    """A p- or q-value for people: three decimals, "< 0.001" below that (never "0.000",
    which reads as impossible), "" when missing."""
    if v is None or not np.isfinite(float(v)):
        return ""
    v = float(v)
    return "< 0.001" if v < 0.001 else f"{v:.3f}"


def _is_p_column(name: Any) -> bool:
    text = str(name).replace("_", " ").lower()
    return text in ("p value", "q value", "p", "q") or text.endswith((" p value",
                                                                     " q value"))


def _table(frame: pd.DataFrame, *, digits: int = 3, max_rows: int | None = None,
           csv: str | None = None, formats: Mapping[str, str] | None = None) -> str:
    """An HTML table; a float column whose values are all whole numbers (ranks, counts)
    shows them as integers, ``formats`` gives a column its own format (``"{:.1f}"``);
    p- and q-values below 0.001 show as "< 0.001" (:func:`p_text`)."""
    shown = frame if max_rows is None else frame.head(max_rows)
    head = "".join(f"<th>{_e(str(c).replace('_', ' '))}</th>" for c in shown.columns)
    cell_formats: list[Any] = []
    for col in shown.columns:
        values = shown[col]
        fmt: Any = (formats or {}).get(str(col))
        if fmt is None and _is_p_column(col):
            cell_formats.append(p_text)
            continue
        if fmt is None and pd.api.types.is_float_dtype(values):
            finite = values.to_numpy(dtype=np.float64)
            finite = finite[np.isfinite(finite)]
            if finite.size and np.all(finite == np.round(finite)):
                fmt = "{:.0f}"
        cell_formats.append(fmt)
    body = []
    for row in shown.itertuples(index=False):
        cells = []
        for v, fmt in zip(row, cell_formats):
            numeric = isinstance(v, int | float | np.integer | np.floating) and not isinstance(
                v, bool | np.bool_)
            cls = ' class="num"' if numeric else ""
            text = (fmt(v) if callable(fmt) and numeric else
                    fmt.format(v) if fmt and numeric and np.isfinite(v)
                    else _fmt(v, digits))
            cells.append(f"<td{cls}>{_e(text)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    more = ""
    if max_rows is not None and len(frame) > max_rows:
        more = (f'<p class="muted">{len(frame) - max_rows} more rows in the CSV'
                f"{' below' if csv else ' files'}.</p>")
    link = f'<p class="dl">{_csv_link(frame, csv)}</p>' if csv else ""
    return (f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
            f"{more}{link}")


def _kv_table(items: Mapping[str, Any], *, csv: str | None = None) -> str:
    rows = "".join(f"<tr><th>{_e(k)}</th><td>{_e(_fmt(v))}</td></tr>"
                   for k, v in items.items())
    link = ""
    if csv:
        frame = pd.DataFrame({"name": list(items), "value": [_fmt(v) for v in items.values()]})
        link = f'<p class="dl">{_csv_link(frame, csv)}</p>'
    return f"<table>{rows}</table>{link}"


def _markers_section(markers: pd.DataFrame,
                     grid: tuple[pd.DataFrame, pd.DataFrame] | None = None) -> str:
    """``#markers``: which gene marks which class, as a dot plot and a table."""
    from ._plots import plot_marker_dots

    first = markers.signature.iloc[0]
    per_class = markers[(markers.signature == first) & (markers.panel == "per_class")]
    chosen = per_class if not per_class.empty else markers[
        (markers.signature == first) & (markers.panel == "pooled")]
    measure = str(chosen.effect_measure.iloc[0]).replace("_", " ")
    effect = chosen.pivot_table(index="feature", columns="class", values="effect_size",
                                sort=False)
    from ._plots import natural_key

    effect = effect[sorted(effect.columns, key=natural_key)]  # clusters 0, 1, 2, ..., 10
    if per_class.empty:
        size = chosen.assign(sep=(2 * chosen.auroc - 1).abs()).pivot_table(
            index="feature", columns="class", values="sep", sort=False)
        size_label, what = "|2 AUROC - 1|", (
            f"the genes of the {_e(first)} signature; each dot is a gene (column) in a class "
            "(row) against the rest: its colour the effect size, its area how well the gene "
            "separates the class (|2 AUROC - 1|: 0 none, 1 perfectly)")
    else:
        if grid is not None:
            effect, size = grid
            if "adjusted_odds_ratio" in chosen.columns:  # a run adjusted for covariates
                measure = "log odds ratio per SD, adjusted for the covariates"
        else:
            size = chosen.pivot_table(index="feature", columns="class", values="frequency",
                                      sort=False)
        size_label, what = "frequency", (
            f"the per-class panels of {_e(first)} (each class against the rest, on the "
            "run's own resamples); a dot's area is how often the class's base models "
            "selected the gene, its colour the effect size in that class")
        top = _top_panel_genes(chosen)
        if len(top) < len(effect):
            what += (f"; of the {len(effect)} panel genes it shows the "
                     f"{PANEL_GENES_SHOWN} most frequently selected of each class "
                     f"({len(top)} genes; all of them in the table)")
            effect = effect.loc[[g for g in effect.index if g in top]]
            size = size.loc[[g for g in size.index if g in top]]
    parts = ['<h2 id="markers">Markers: which gene marks which class</h2>',
             f'<div class="note">The dot plot shows {what}. Red: higher in the class than '
             f"in the rest; blue: lower ({_e(measure)}). The table gives every value "
             "(<code>markers.csv</code>).</div>",
             _img(plot_marker_dots(effect, size.fillna(0.0), size_label=size_label,
                                   effect_label=measure),
                  "Dot plot of the marker genes by class"),
             _table(chosen.drop(columns=["signature"]), csv="markers.csv", max_rows=60)]
    return "\n".join(parts)


def _top_panel_genes(per_class: pd.DataFrame) -> set[str]:
    """The PANEL_GENES_SHOWN most frequently selected genes of each class's panel (a dot
    plot of every gene of every panel, 180 for 18 classes, cannot be read)."""
    keep: set[str] = set()
    for _, part in per_class.groupby("class", sort=False):
        keep |= set(part.sort_values("frequency", ascending=False, kind="stable")
                    .feature.head(PANEL_GENES_SHOWN).astype(str))
    return keep


def _outcome_of(expression: pd.DataFrame | None) -> str:
    """The run's outcome, read from the leading column(s) of its expression table."""
    if expression is None or expression.shape[1] == 0:
        return "classification"
    first = str(expression.columns[0])
    return {"outcome": "regression", "time": "survival"}.get(first, "classification")


def _outcome_expression_section(expression: pd.DataFrame, kind: str, names: Any,
                                highlight: Any, consensus: Any) -> str:
    """``#expression`` of a continuous or survival run: the genes against the outcome,
    and the signature's out-of-fold prediction (:mod:`._outcome_plots`)."""
    from ._outcome_plots import (
        plot_kaplan_meier,
        plot_outcome_scatter,
        plot_predicted_observed,
        signature_predictions,
    )

    lead = 1 if kind == "regression" else 2
    genes = list(expression.columns[lead:])
    shown = [names[j] for j in highlight] if highlight else genes[:30]
    shown = [g for g in shown if g in genes] or genes[:30]
    if not shown:
        return '<p class="muted">No gene of the signatures is kept.</p>'
    which = f"the {_e(consensus.operator)} signature" if consensus else "the signatures"
    note = ("The genes were chosen on all the samples: these figures show how they relate "
            "to the outcome, not an unbiased estimate of the signature's performance "
            "(<code>modelmine evaluate</code> selects inside each fold).")
    parts = []
    if kind == "regression":
        pred = signature_predictions(expression, shown, kind)
        parts.append(f'<div class="note">Each panel is a gene of {which} against the '
                     "outcome, with its least-squares line and Spearman's rho; then the "
                     "outcome predicted from the signature's genes (ridge regression, "
                     f"5-fold, out of fold) against the observed one. {note}</div>")
        parts.append(_img(plot_outcome_scatter(expression, shown[:8]),
                          "The top genes against the outcome"))
        parts.append(_img(plot_predicted_observed(
            expression["outcome"].to_numpy(dtype=np.float64), pred,
            "Signature: predicted against observed"), "Predicted against observed"))
    else:
        risk = signature_predictions(expression, shown, kind)
        fig, p_value = plot_kaplan_meier(expression["time"].to_numpy(dtype=np.float64),
                                         expression["event"].to_numpy().astype(bool), risk,
                                         "Signature risk score, split at its median")
        parts.append(f'<div class="note">Kaplan-Meier curves of the samples above and at '
                     "or below the median of the signature's risk score (a Cox model of "
                     f"{which}'s genes with a small ridge penalty, 5-fold, out of fold); "
                     f"log-rank p = {p_value:.2g}. {note}</div>")
        parts.append(_img(fig, "Kaplan-Meier curves by signature risk"))
    parts.append(f'<p class="dl">{_csv_link(expression.reset_index(), "expression.csv")}'
                 "</p>")
    return "\n".join(parts)


def _outcome_markers_section(markers: pd.DataFrame) -> str:
    """``#markers`` of a continuous or survival run: direction and strength of every
    signature gene with the outcome (:func:`modelmine.diagnostics.outcome_marker_table`)."""
    first = markers.signature.iloc[0]
    chosen = markers[markers.signature == first]
    survival = "hazard_ratio" in chosen.columns
    adjusted = str(chosen.effect_measure.iloc[0]).endswith("_adjusted")
    if survival:
        from ._outcome_plots import plot_hazard_ratios

        model = ("Cox model of the gene and the covariates, Breslow ties" if adjusted
                 else "univariate Cox model, Breslow ties")
        what = ("the hazard ratio per standard deviation of each gene of the "
                f"{_e(first)} signature ({model}) with its 95 % Wald interval, and its "
                "concordance oriented by its direction; red: higher values, higher hazard "
                "(risk); blue: protective")
        figure = _img(plot_hazard_ratios(chosen), "Hazard ratios of the signature genes")
    else:
        what = (("the partial correlation and the least-squares slope of each gene of the "
                 f"{_e(first)} signature in the model of the outcome on the gene and the "
                 "covariates") if adjusted else
                ("Spearman's rho of each gene of the "
                 f"{_e(first)} signature with the outcome (up: higher with the outcome)"))
        figure = ""
    return "\n".join([
        '<h2 id="markers">Markers: which gene marks the outcome, in which direction</h2>',
        f'<div class="note">The table gives {what}, the p-value, and how often the b base '
        "models selected the gene (with its Wilson interval); <code>markers.csv</code>."
        "</div>", figure,
        _table(chosen.drop(columns=["signature"]), csv="markers.csv", max_rows=60)])


#: Where :func:`build_report` writes its figures for a paper (``figures_dir=``), and the
#: names used so far: set for the duration of one call.
_FIGURES: contextvars.ContextVar[tuple[Path, set[str]] | None] = contextvars.ContextVar(
    "modelmine_report_figures", default=None)

#: The resolution of the PNG files ``figures_dir`` receives (print quality).
FIGURE_DPI = 300


def _img(fig: Any, alt: str) -> str:
    """The figure as a PNG ``<img>``, with its SVG and PDF as downloads (vector, for a
    paper); with ``figures_dir`` also written there as SVG, PDF and 300-dpi PNG."""
    uri = png_data_uri(fig)
    slug = _slug(alt)[:60] or "figure"
    links = []
    for fmt, mime in (("svg", "image/svg+xml"), ("pdf", "application/pdf")):
        buf = io.BytesIO()
        fig.savefig(buf, format=fmt, bbox_inches="tight", facecolor="white")
        data = base64.b64encode(buf.getvalue()).decode("ascii")
        links.append(f'<a class="csv" download="{slug}.{fmt}" href="data:{mime};base64,'
                     f'{data}">{fmt.upper()}</a>')
    target = _FIGURES.get()
    if target is not None:
        directory, used = target
        name, i = slug, 2
        while name in used:
            name, i = f"{slug}-{i}", i + 1
        used.add(name)
        for fmt in ("svg", "pdf"):
            fig.savefig(directory / f"{name}.{fmt}", format=fmt, bbox_inches="tight",
                        facecolor="white")
        fig.savefig(directory / f"{name}.png", format="png", dpi=FIGURE_DPI,
                    bbox_inches="tight", facecolor="white")
    return (f'<img src="{uri}" alt="{_e(alt)}">'
            f'<p class="dl">download: {" ".join(links)}</p>')


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_") or "table"


def _readable(value: Any, names: Sequence[str], key: str = "") -> str:
    """A provenance value in words: feature indices as gene names, lists shortened."""
    if isinstance(value, Mapping):
        return "; ".join(f"{k} = {_readable(v, names, str(k))}" for k, v in value.items())
    if isinstance(value, list | tuple):
        if key in _FEATURE_KEYS and all(isinstance(v, int) for v in value):
            items = [names[v] if 0 <= v < len(names) else str(v) for v in value]
        else:
            items = [_readable(v, names, key) for v in value]
        if not items:
            return "none"
        return ", ".join(items[:12]) + (f", ... ({len(items)} in all)" if len(items) > 12
                                        else "")
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


#: Provenance keys whose lists hold feature indices (shown as feature names).
_FEATURE_KEYS = {"items", "added", "features", "filled_by_frequency", "cut"}
#: Provenance keys the settings table already shows.
_PROVENANCE_SKIP = {"operator", "kind", "base_models", "origin"}


def _provenance(prov: Mapping[str, Any], names: Sequence[str], csv: str) -> str:
    """Provenance as small tables: the scalar facts, then each list of records (itemsets)."""
    if not prov:
        return ""
    facts: dict[str, str] = {}
    parts: list[str] = []
    for key, value in prov.items():
        if key in _PROVENANCE_SKIP:
            continue
        if key == "params" and isinstance(value, Mapping):
            facts["parameters"] = ", ".join(f"{k} = {_readable(v, names)}"
                                            for k, v in value.items()) or "defaults"
        elif (isinstance(value, list) and value
              and all(isinstance(v, Mapping) for v in value)):
            frame = pd.DataFrame([{k: _readable(v, names, str(k)) if isinstance(v, list)
                                   else v for k, v in rec.items()} for rec in value])
            parts.append(f"<p><b>{_e(key.replace('_', ' '))}</b></p>"
                         + _table(frame, csv=f"{csv}-{_slug(key)}.csv"))
        else:
            facts[key.replace("_", " ")] = _readable(value, names, key)
    head = "<details><summary>How this signature was made</summary>"
    return head + _kv_table(facts) + "".join(parts) + "</details>"


def _signature_frame(base: BaseModels, sig: Any, null: Any = None) -> pd.DataFrame:
    """A signature for the page: rank, gene, frequency, mean rank, score (no indices), and
    each gene's p- and q-value when a permutation null was run."""
    frame = signature_table(base, sig, null)
    frame = frame.rename(columns={"position": "rank", "feature": "gene",
                                  "mean_rank": "mean rank"})
    cols = ["rank", "gene", "frequency", "mean rank"]
    cols += [c for c in frame.columns if c not in (*cols, "index", "alternative")]
    frame = frame[[c for c in cols if c in frame.columns]].copy()
    return frame


def _resampling_text(res: Mapping[str, Any]) -> str:
    method = str(res.get("method", "bootstrap"))
    fraction = res.get("fraction")
    what = "with replacement" if method == "bootstrap" else "without replacement"
    size = f"{float(fraction):.0%} of the samples" if fraction is not None else ""
    strat = "stratified by class" if res.get("stratify") else "not stratified"
    return ", ".join(t for t in (f"{method} ({what})", size, strat) if t)


def _command_text(command: Sequence[str]) -> str:
    return " ".join(shlex.quote(str(c)) for c in command)


def build_report(
    base: BaseModels,
    results: Sequence[OperatorResult] = (),
    *,
    diagnostics: pd.DataFrame | None = None,
    itemsets: Itemsets | None = None,
    itemsets_note: str | None = None,
    evaluation: pd.DataFrame | None = None,
    settings: Mapping[str, Any] | None = None,
    data_description: Mapping[str, Any] | None = None,
    title: str = "modelmine report",
    null: Any = None,
    stability_path: Any = None,
    warnings: Sequence[str] | None = None,
    expression: pd.DataFrame | None = None,
    command: Sequence[str] | None = None,
    evaluation_command: str | None = None,
    lattice_explorer: bool = True,
    significance: pd.DataFrame | bool | None = True,
    markers: pd.DataFrame | None = None,
    marker_grid: tuple[pd.DataFrame, pd.DataFrame] | None = None,
    error_control: Any = None,
    figures_dir: str | os.PathLike[str] | None = None,
) -> str:
    """Render the self-contained HTML report of a run.

    Sections, each with an anchor to link to: ``#data`` (data, settings, versions),
    ``#signatures`` (consensus signatures: genes, selection frequency, integer ranks, how
    each was made), ``#expression`` (a clustered heat map of the signature genes by class
    and box plots of the top genes), ``#alternatives`` (each multi-model operator's
    alternatives, KDD 2012 section 2.3: gene x alternative membership and Jaccard
    overlap), ``#stability`` (selection frequency, stability as the signature size varies,
    Nogueira et al. 2018, and error vs stability, KDD 2012 Table 2), ``#itemsets`` (the
    closed-itemset lattice, section 2.2) and ``#diagnostics``. Every table can be
    downloaded as CSV from the page (data: URLs: no network, no script).

    Parameters
    ----------
    base : BaseModels
        The b base models (their selection frequencies and stability are plotted).
    results : sequence of OperatorResult
        The signatures of each operator (see :func:`modelmine.report.operator_result`).
    diagnostics : DataFrame, optional
        As returned by :func:`modelmine.report.run_diagnostics`; computed when None.
    itemsets : Itemsets, optional
        Closed itemsets of the base models (``.itemsets``, ``.support``) for the lattice
        and the support distribution; those sections say so when it is None.
    itemsets_note : str, optional
        Why there are no itemsets (:func:`modelmine.pipeline.run_itemsets`), shown in their place.
    evaluation : DataFrame, optional
        Columns ``operator``, ``error``, ``stability`` (and any others, shown in a table)
        from the cross-validation protocol; adds the error vs stability plot.
    settings : mapping, optional
        Run settings shown in the settings table (selector, b, m, k, seed, ...).
    data_description : mapping, optional
        What the data is (source, samples, features, classes).
    title : str
    null : SelectionNullResult, optional
        A permutation null (:func:`modelmine.evaluation.selection_null`): the frequency
        plot draws its band, and the warnings use its q-values.
    stability_path : StabilityPathResult, optional
        Plotted in the diagnostics (:func:`modelmine.diagnostics.stability_path`).
    warnings : sequence of str, optional
        What not to trust, shown on the first screen; default
        :func:`modelmine.report.trust_warnings` of these results.
    markers : DataFrame, optional
        :meth:`modelmine.MiningRun.markers` tables (pooled and per-class panels stacked):
        the ``#markers`` section, a dot plot of genes x classes (size: the selection
        frequency in the class's panel, or the separation ``|2 AUROC - 1|`` for the pooled
        signature; colour: the effect size) and the table.
    figures_dir : path-like, optional
        Also write every figure there, for a paper: ``NAME.svg``, ``NAME.pdf`` and
        ``NAME.png`` at 300 dpi, NAME from the figure's caption (the directory must
        exist). Each figure of the page offers its SVG and PDF as downloads either way.
    error_control : ErrorControlCheck, optional
        :func:`modelmine.evaluation.check_error_control` of the run: its statements on
        the first screen's error-control note and its gene table in ``#error-control``.
    marker_grid : (DataFrame, DataFrame), optional
        :meth:`modelmine.MiningRun.marker_grid` of a per-class run: the dot plot then shows
        every panel gene in every class (frequency in the class's base models, effect).
    expression : DataFrame, optional
        :attr:`modelmine.MiningRun.expression` (class first, then genes); without it the
        expression section says how to get it.
    command : sequence of str, optional
        The command line of the run, shown in the settings.
    evaluation_command : str, optional
        The exact command that produces the error vs stability section, shown when
        ``evaluation`` is None.
    lattice_explorer : bool, default=True
        Add the interactive lattice explorer (:meth:`modelmine.ItemsetLattice.to_html`) under
        the itemsets, holding at most LATTICE_REPORT_MAX_ITEMSETS itemsets (those of highest
        support); False keeps the page free of any script.
    significance : DataFrame, bool, default=True
        Whether the itemsets beat chance (``#cooccurrence``): a table of
        :func:`modelmine.diagnostics.itemset_significance`, or True to compute it here for
        the report's closed itemsets of two or more features (REPORT_RANDOMIZATIONS
        randomised selection matrices, seed 0), or False to leave the section out. The
        section says in one sentence whether the run's co-selection exceeds chance, and
        lists the itemsets with their lift and q-value.

    Returns
    -------
    str
        The HTML text.
    """
    token = _FIGURES.set(None if figures_dir is None else (Path(figures_dir), set()))
    try:
        return _build(base, results, diagnostics=diagnostics, itemsets=itemsets,
                      itemsets_note=itemsets_note, evaluation=evaluation, settings=settings,
                      data_description=data_description, title=title, null=null,
                      stability_path=stability_path, warnings=warnings,
                      expression=expression, command=command,
                      evaluation_command=evaluation_command,
                      lattice_explorer=lattice_explorer, significance=significance,
                      markers=markers, marker_grid=marker_grid,
                      error_control=error_control)
    finally:
        _FIGURES.reset(token)


def _classes_entry(base: BaseModels) -> dict[str, str]:
    """The data table's row on the classes; for a continuous or survival outcome, what
    the labels the resampling keeps are (not classes: strata of the outcome)."""
    labels = ", ".join(str(c) for c in base.classes)
    outcome = str(base.selector.get("outcome", "classification"))
    if outcome == "regression":
        return {"resampling strata": f"{len(base.classes)} quantile bins of y ({labels}): "
                "a regression run has no classes; these only stratify and check the "
                "resamples"}
    if outcome == "survival":
        return {"resampling strata": f"{labels}: a survival run has no classes; these only "
                "stratify and check the resamples"}
    return {"classes": labels}


def _build(base: BaseModels, results: Sequence[OperatorResult], *, diagnostics: Any,
           itemsets: Any, itemsets_note: Any, evaluation: Any, settings: Any,
           data_description: Any, title: str, null: Any, stability_path: Any,
           warnings: Any, expression: Any, command: Any, evaluation_command: Any,
           lattice_explorer: bool, significance: Any, markers: Any, marker_grid: Any,
           error_control: Any) -> str:
    if diagnostics is None:
        diagnostics = run_diagnostics(base, {r.operator: r.result for r in results})
    names = [str(n) for n in base.feature_names]
    freq = np.asarray(base.subsets).mean(axis=0)
    singles = [r for r in results if r.kind == "single"]
    multis = [r for r in results if r.kind == "multi"]
    consensus = singles[0] if singles else None
    highlight = [int(f) for f in consensus.signatures[0].features] if consensus else []
    now = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")

    out: list[str] = []
    out.append(f"<h1>{_e(title)}</h1>")
    out.append(f'<p class="muted">Generated {now} by modelmine: robust feature selection by '
               "mining the models a selector produces on bootstrap samples (Woznica, Nguyen "
               "and Kalousis, KDD 2012).</p>")
    if warnings is None:
        warnings = trust_warnings(base, {r.operator: r.result for r in results},
                                  diagnostics=diagnostics, null=null)
    for text in warnings:
        out.append(f'<div class="warning"><b>Caution:</b> {_e(text)}</div>')
    out.append('<nav><a href="#summary">Summary</a><a href="#data">Data</a>'
               '<a href="#signatures">Signatures</a>'
               + ('<a href="#error-control">Error control</a>'
                  if error_control is not None else "")
               + '<a href="#expression">Expression</a><a href="#markers">Markers</a>'
               '<a href="#alternatives">Alternatives</a>'
               '<a href="#stability">Stability</a><a href="#itemsets">Itemsets</a>'
               '<a href="#diagnostics">Diagnostics</a></nav>')
    summary_at = len(out)
    verdict: dict[str, str] = {}

    # --- data and settings
    out.append('<h2 id="data">Data and settings</h2>')
    data_info: dict[str, Any] = {"samples": base.n_samples, "features": base.n_features_in,
                                 **_classes_entry(base)}
    for key, value in dict(data_description or {}).items():
        if key == "read_options" and isinstance(value, Mapping):
            data_info["read with"] = ", ".join(f"{k} = {v}" for k, v in value.items())
        else:
            data_info[key] = value
    out.append("<h3>Data</h3>" + _kv_table(data_info, csv="data.csv"))
    sel = base.selector
    params = dict(sel.get("params", {}) or {})
    run_info: dict[str, Any] = {
        "selector": sel.get("name"),
        "selector parameters": ", ".join(f"{k} = {_readable(v, names)}"
                                         for k, v in params.items()) or "defaults",
        "feature scaling": sel.get("scale", "none"),
        "b (base models)": base.n_models,
        "m (features per base model)": base.n_features,
        "resampling": _resampling_text(base.resampling),
        "seed (random_state)": base.random_state,
    }
    run_info.update(dict(settings or {}))
    out.append("<h3>Settings</h3>" + _kv_table(run_info, csv="settings.csv"))
    if command:
        out.append(f"<p>Command: <code>{_e(_command_text(command))}</code></p>")
    out.append("<details><summary>Versions</summary>"
               + _kv_table(library_versions(), csv="versions.csv") + "</details>")

    # --- consensus signatures
    out.append('<h2 id="signatures">Signatures</h2>')
    out.append('<div class="note">A signature is the set of genes an operator extracts '
               "from the b base models. <b>frequency</b> is the fraction of base models that "
               "selected the gene (1 = every bootstrap sample chose it); <b>mean rank</b> "
               "is its average position in the selector's rankings (1 = best); <b>rank</b> is "
               "its place in the signature. The same genes are in signatures.gmt for "
               "enrichment tools.</div>")
    if not results:
        out.append("<p>No operator was run.</p>")
    elif not singles:
        out.append('<p>No consensus operator was run; see <a href="#alternatives">the '
                   "alternatives</a>.</p>")
    for res in singles:
        sig = res.signatures[0]
        out.append(f"<h3>{_e(res.operator)}: consensus signature of "
                   f"{len(sig.features)} genes</h3>")
        out.append(_table(_signature_frame(base, sig, null), csv=f"{_slug(res.operator)}.csv",
                          formats=_SIGNATURE_FORMATS))
        out.append(_provenance(sig.provenance, names, f"{_slug(res.operator)}-provenance"))

    # --- expression
    out.append('<h2 id="expression">Expression of the signature genes</h2>')
    kind = _outcome_of(expression)
    if kind != "classification":
        assert expression is not None
        out.append(_outcome_expression_section(expression, kind, names, highlight,
                                               consensus))
    elif expression is None or expression.shape[1] < 2:
        out.append('<p class="muted">The expression values are not part of this run '
                   "directory (written before modelmine kept them); rerun with "
                   "<code>modelmine run</code> to see the signature genes by class.</p>")
    else:
        shown_genes = ([names[j] for j in highlight] if highlight
                       else list(expression.columns[1:31]))
        shown_genes = [g for g in shown_genes if g in expression.columns[1:]]
        if not shown_genes:
            shown_genes = list(expression.columns[1:31])
        out.append('<div class="note">Each row of the heat map is a sample, each column a '
                   "gene of the " + (f"{_e(consensus.operator)} signature"
                                     if consensus else "signatures")
                   + "; colours are z-scores (log2 first for raw intensities), samples "
                   "grouped by class. A good signature shows blocks of colour that follow "
                   "the class bar on the left.</div>")
        out.append(_img(plot_expression_heatmap(expression, shown_genes),
                        "Clustered heat map of the signature genes by class"))
        out.append(_img(plot_expression_by_class(expression, shown_genes[:8]),
                        "Expression of the top genes by class"))
        out.append(f'<p class="dl">{_csv_link(expression.reset_index(), "expression.csv")}'
                   "</p>")

    # --- error control of the run (--pfer / --fdr)
    if error_control is not None:
        out.append('<h2 id="error-control">Error control of this run</h2>')
        out.append('<div class="note">The run\'s selector, with its settings, fitted beside '
                   "it on complementary pairs of half-samples (Shah and Samworth 2013)"
                   + (" with permuted decoy features (Stabl, Hedou et al. 2024)"
                      if "stabl" in error_control.table.columns else "")
                   + ": the run itself is as asked, its genes are checked. "
                   + " ".join(_e(t) for t in error_control.statements) + "</div>")
        out.append(_table(error_control.table, csv="error_control.csv", max_rows=60))

    # --- markers
    if markers is not None and not markers.empty and "class" not in markers.columns:
        out.append(_outcome_markers_section(markers))
    elif markers is not None and not markers.empty:
        out.append(_markers_section(markers, marker_grid))
    else:
        out.append('<h2 id="markers">Markers: which gene marks which class</h2>'
                   '<p class="muted">Computed from the expression values of a run '
                   "(<code>MiningRun.markers()</code>, <code>markers.csv</code>).</p>")

    # --- alternatives
    out.append('<h2 id="alternatives">Alternative signatures</h2>')
    if not multis:
        out.append('<p class="muted">No multi-model operator was run (allMed, '
                   "allClosedApr, ...: <code>--operator allMed</code>).</p>")
    for res in multis:
        out.append(f"<h3>{_e(res.operator)}: {len(res.signatures)} alternative "
                   "signatures</h3>")
        out.append('<div class="note">Alternative signatures are different gene sets '
                   "that each describe the data well (KDD 2012, section 2.3): "
                   "a biologist can pick the one with the most plausible genes.</div>")
        if res.signatures:
            out.append(_img(plot_membership(res, freq, names),
                            f"Genes x alternatives of {res.operator}"))
        if len(res.signatures) >= 2:
            out.append(_img(plot_signature_overlap(res),
                            f"Jaccard overlap among the alternatives of {res.operator}"))
        member = pd.DataFrame({"gene": sorted({names[int(f)] for s in res.signatures
                                                for f in s.features})})
        for i, sig in enumerate(res.signatures, start=1):
            member[f"alt {i}"] = member["gene"].isin(set(sig.names.tolist()))
        link = _csv_link(member, f"{_slug(res.operator)}-membership.csv")
        out.append(f'<p class="dl">{link}</p>')
        for i, sig in enumerate(res.signatures, start=1):
            out.append(f"<details><summary>Alternative {i} "
                       f"({len(sig.features)} genes: {_e(', '.join(sig.names[:5]))}"
                       f"{' ...' if len(sig.names) > 5 else ''})</summary>")
            out.append(_table(_signature_frame(base, sig, null),
                              csv=f"{_slug(res.operator)}-alt{i}.csv",
                              formats=_SIGNATURE_FORMATS))
            out.append(_provenance(sig.provenance, names,
                                   f"{_slug(res.operator)}-alt{i}-provenance") + "</details>")

    # --- stability
    out.append('<h2 id="stability">Stability</h2>')
    out.append('<h3 id="frequency">Selection frequency across the base models</h3>')
    out.append(_img(plot_selection_frequency(base, highlight=highlight, null=null),
                    "Per-feature selection frequency across the base models"))
    if null is not None:
        shown_top = min(30, base.n_features_in)
        starred = int(np.isin(np.lexsort((np.arange(base.n_features_in),
                                          base.tied_ranks().mean(axis=0, dtype=np.float64),
                                          -base.subsets.mean(axis=0)))[:shown_top],
                              np.asarray(null.significant(0.05), dtype=np.int64)).sum())
        out.append(f'<div class="note">Black ticks: the 95 % quantile of each feature\'s '
                   f"frequency when the labels are permuted ({null.n_permutations} "
                   "permutations, same resamples), before any correction: a bar beyond its "
                   "tick is not yet significant once the p features are tested together. "
                   f"Stars: the {null.significant(0.05).size} features selected more often "
                   "than chance after the Benjamini-Hochberg correction (q &le; 0.05), "
                   f"{starred} of them among the {shown_top} drawn. Grey band (right): "
                   "the pooled null.</div>")
    out.append('<div class="note">Genes that a selector picks on almost every bootstrap '
               "sample are robust to small changes of the data; genes picked only "
               "sometimes are the unstable part of the selector's output.</div>")
    every = base.summary(top=base.n_features_in).reset_index()
    out.append(f'<p class="dl">{_csv_link(every, "frequencies.csv")}</p>')
    out.append("<h3>Stability as the signature size varies</h3>")
    by_size = stability_by_size(base)
    if len(by_size):
        out.append(_img(plot_stability_by_size(by_size, m=base.n_features),
                        "Stability against signature size"))
        out.append(_table(by_size, csv="stability-by-size.csv"))
    out.append("<h3>Error vs stability per operator</h3>")
    if evaluation is not None and len(evaluation):
        out.append(_img(plot_error_vs_stability(evaluation),
                        "Error vs stability per operator"))
        out.append(_table(evaluation, csv="evaluation.csv"))
        out.append('<div class="note">Each point is one operator evaluated by '
                   "cross-validation, selection inside the training folds only. KDD 2012 "
                   "(Table 2) finds closedApr the only operator better than no aggregation on "
                   "error while near the top on stability.</div>")
    else:
        how = (f"<pre>{_e(evaluation_command)}</pre>" if evaluation_command else
               "<pre>modelmine run DATA ... --evaluate --out DIR</pre>")
        out.append("<p>Not run for this report. The cross-validated error and stability of "
                   "each operator (KDD 2012, Table 2) come from:</p>" + how)

    # --- itemsets
    out.append('<h2 id="itemsets">Frequent itemsets of the base models</h2>')
    if itemsets is None:
        out.append(f"<p>{_e(itemsets_note or 'The itemsets were not mined for this report.')}"
                   "</p>")
    else:
        out.append('<div class="note">An itemset is a group of genes selected '
                   "<i>together</i>; its support is the fraction of base models containing "
                   "the whole group. Closed itemsets are those no superset matches in support; "
                   "closedApr builds the consensus signature from those of highest support "
                   "(KDD 2012, section 2.2).</div>")
        out.append(_img(plot_lattice_top(itemsets, names), "Top of the closed-itemset lattice"))
        out.append(_img(plot_support_distribution(itemsets, n_models=base.n_models),
                        "Support distribution of the mined itemsets"))
        top = itemsets.to_frame() if hasattr(itemsets, "to_frame") else None
        if top is not None and len(top):
            out.append(f'<p class="dl">{_csv_link(top, "itemsets.csv")}</p>')
        table = None if significance is False else _significance_table(
            base, itemsets, significance)
        if lattice_explorer:
            out.append(_explorer_section(base, results, itemsets, table))
        if table is not None:
            out.append(_significance_section(table, significance))
            verdict["itemsets"] = cooccurrence_verdict(table)

    # --- diagnostics
    out.append('<h2 id="diagnostics">Diagnostics</h2>')
    out.append(_img(plot_stability(diagnostics), "Stability of the base models"))
    if stability_path is not None:
        out.append(_img(plot_stability_path(stability_path),
                        "Stability path: frequencies and stability along the path"))
    shown = diagnostics.drop(columns=["note"]).rename(
        columns={"ci_low": "95% CI low", "ci_high": "95% CI high"})
    out.append(_table(shown, csv="diagnostics.csv"))
    out.append("<h3>How to read these numbers</h3>")
    used = {str(m).split(" ")[0] for m in diagnostics["measure"]}
    for key, text in NOTES.items():
        if key in used:
            out.append(f'<div class="note"><b>{_e(key)}</b>: {_e(text)}</div>')

    out.insert(summary_at, _summary_section(
        base, consensus, diagnostics, null, error_control, markers, verdict,
        data_description, "\n".join(out)))
    body = "\n".join(out)
    return html_page(title, f"<main>\n{body}\n</main>", _CSS)


#: The figures the summary shows again as thumbnails, by their ``alt`` text.
_SUMMARY_FIGURES = ("Per-feature selection frequency across the base models",
                    "Dot plot of the marker genes by class",
                    "Clustered heat map of the signature genes by class")


def _summary_section(base: BaseModels, consensus: Any, diagnostics: pd.DataFrame,
                     null: Any, error_control: Any, markers: pd.DataFrame | None,
                     verdict: Mapping[str, str], data_description: Any,
                     body: str) -> str:
    """``#summary``, the first screen a PI reads: the question, the verdict (stability,
    how many genes are defensible at which error level, whether itemsets beat chance),
    the panel and the three figures that matter (thumbnails linking to their sections)."""
    source = dict(data_description or {}).get("source", "the data")
    classes = ", ".join(str(c) for c in base.classes)
    outcome = str(base.selector.get("outcome", "classification"))
    question = (f"Which genes separate the classes {_e(classes)} of" if outcome ==
                "classification" else "Which genes predict the continuous outcome of"
                if outcome == "regression" else "Which genes predict survival (censored "
                "times) in")
    parts = ['<section id="summary" class="summary"><h2>Summary</h2>',
             f"<p><b>Question.</b> {question} "
             f"{_e(str(source))} ({base.n_samples} samples x {base.n_features_in:,} "
             f"features), in which direction, and how surely? "
             f"{_e(str(base.selector.get('name')))} on {base.n_models} resamples.</p>",
             "<ul>"]
    nog = diagnostics[diagnostics["measure"] == "nogueira"]
    if len(nog):
        value, low, high = (float(nog.iloc[0][k]) for k in ("value", "ci_low", "ci_high"))
        from ._trust import stability_note

        band = ("not informative, as each model takes most of the features (see the "
                "caution above)" if stability_note(base) is not None else
                "poor (below 0.4)" if value < 0.4 else
                "intermediate to good (0.4 to 0.75)" if value < 0.75 else
                "excellent (0.75 or more)")
        parts.append(f"<li><b>Stability</b> of the base models (Nogueira): {value:.2f} "
                     f"[95 % CI {low:.2f} to {high:.2f}], {band}.</li>")
    if consensus is not None:
        sig = consensus.signatures[0]
        if null is not None:
            q = np.asarray(null.q_values)[np.asarray(sig.features, dtype=np.int64)]
            parts.append(f"<li><b>Defensible genes</b>: {int((q <= 0.05).sum())} of the "
                         f"{len(sig.features)} genes of {_e(consensus.operator)} are "
                         "selected more often than under permuted labels (q &le; 0.05, "
                         f"{null.n_permutations} permutations).</li>")
        if error_control is not None:
            for text in error_control.statements:
                parts.append(f"<li><b>Error control</b>: {_e(text)}</li>")
        if null is None and error_control is None:
            parts.append("<li><b>Defensible genes</b>: not checked in this run. "
                         "<code>--null N</code> (a permutation null) or <code>--pfer V</code> "
                         "/ <code>--fdr Q</code> (stability selection, Stabl) say how many "
                         "genes beat chance at a stated error level.</li>")
    if "itemsets" in verdict:
        parts.append(f"<li><b>Co-selection</b>: {_e(verdict['itemsets'])}</li>")
    parts.append("</ul>")
    thumbs = []
    for alt in _SUMMARY_FIGURES:
        found = re.search(r'<img src="([^"]+)" alt="' + re.escape(_e(alt)) + '"', body)
        if found:
            thumbs.append(f'<img class="thumb" src="{found.group(1)}" alt="{_e(alt)}">')
    if thumbs:
        parts.append('<div class="thumbs">' + "".join(thumbs) + "</div>")
    if markers is not None and not markers.empty and "class" not in markers.columns:
        first = markers.signature.iloc[0]
        part = markers[markers.signature == first]
        keep = [c for c in ("feature", "direction", "effect_size", "hazard_ratio",
                            "p_value", "frequency", "q_value") if c in part.columns]
        parts.append(f"<h3>The panel: {_e(str(first))}</h3>")
        parts.append(_table(part[keep].rename(columns={"feature": "gene"}), max_rows=10))
    elif markers is not None and not markers.empty:
        first = markers.signature.iloc[0]
        per_class = markers[(markers.signature == first) & (markers.panel == "per_class")]
        if len(per_class):  # a per-class run answers per class first (issue 39)
            parts.append(_class_panels_summary(per_class, str(first)))
        part = markers[(markers.signature == first) & (markers.panel == "pooled")]
        if len(part) and len(per_class):
            parts.append(f"<h3>The pooled panel: {_e(str(first))} (all classes at once)"
                         "</h3>")
        if len(part):
            best = (part.sort_values("auroc", ascending=False)
                    .drop_duplicates("feature").set_index("feature"))
            order = [g for g in dict.fromkeys(part.feature)]
            panel = pd.DataFrame({
                "gene": order,
                "marks (higher in)": [best.loc[g, "class"] for g in order],
                "effect": [best.loc[g, "effect_size"] for g in order],
                "AUROC": [best.loc[g, "auroc"] for g in order],
                "frequency": [best.loc[g, "frequency"] for g in order]})
            if "q_value" in best.columns:
                panel["q value"] = [best.loc[g, "q_value"] for g in order]
            more = len(panel) - 10
            if not len(per_class):
                parts.append(f"<h3>The panel: {_e(str(first))}</h3>")
            parts.append(_table(panel, max_rows=10)
                         + (f'<p class="muted">{more} more genes in <a href="#markers">the '
                            "markers</a>.</p>" if more > 0 else ""))
    parts.append('<p class="muted">The details follow: the data and settings, every '
                 "signature, the expression of its genes, the markers by class, the "
                 "alternatives, stability, itemsets and diagnostics.</p></section>")
    return "\n".join(parts)


#: Genes per class the summary and the dot plot show of a per-class run (all of them are
#: in the markers table and markers.csv).
PANEL_GENES_SHOWN = 5


def _class_panels_summary(per_class: pd.DataFrame, operator: str) -> str:
    """The first screen of a per-class run: each class with the top genes of its own
    panel (each class against the rest), the most frequently selected first."""
    rows = []
    for cls, part in per_class.groupby("class", sort=False):
        top = part.sort_values("frequency", ascending=False, kind="stable").head(
            PANEL_GENES_SHOWN)
        rows.append({"class": cls, "panel genes": len(part),
                     f"top {PANEL_GENES_SHOWN} (frequency in the class's models)": ", ".join(
                         f"{g} ({f:.2f})" for g, f in zip(top.feature, top.frequency))})
    return (f"<h3>The per-class panels: {_e(operator)} (each class against the rest)</h3>"
            + _table(pd.DataFrame(rows), max_rows=40)
            + '<p class="muted">Every gene of every panel, with its direction and effect, '
            'is in <a href="#markers">the markers</a>.</p>')


#: Randomised selection matrices behind the report's test of the itemsets (p-values down to
#: 1/1001: with 20 itemsets tested, Benjamini-Hochberg at 0.05 can then pass a single one).
REPORT_RANDOMIZATIONS = 1000
#: The false discovery rate at which the report counts an itemset as beating chance.
REPORT_FDR = 0.05


def cooccurrence_verdict(table: pd.DataFrame, fdr: float = REPORT_FDR) -> str:
    """One sentence: do the itemsets' supports exceed what the models' sizes and the
    features' selection frequencies explain (issue 25; Gionis et al., TKDD 2007)?"""
    n = len(table)
    if n == 0:
        return ("No itemset of two or more features reaches the minimum support, so there "
                "is no co-selection structure to test.")
    sig = table[table["q_value"] <= fdr]
    lift = float(np.median(table["lift"]))
    if len(sig) == 0:
        return (f"None of the {n:,} itemsets of two or more features is co-selected more "
                f"often than chance at q <= {fdr:g} (median lift {lift:.2f}): the features "
                "are selected together about as often as their frequencies predict, so the "
                "itemsets describe frequent features, not groups that go together.")
    return (f"{len(sig):,} of the {n:,} itemsets of two or more features are co-selected "
            f"more often than chance at q <= {fdr:g} (median lift {lift:.2f}, largest "
            f"{float(table['lift'].max()):.2f}): the run's co-selection structure exceeds "
            "what the models' sizes and the features' frequencies explain.")


def _significance_table(base: BaseModels, itemsets: Itemsets,
                        significance: pd.DataFrame | bool | None) -> pd.DataFrame | None:
    """The given table, or itemset_significance's default family: itemsets chosen on a
    random half of the base models and tested on the other half (issue 39: the report's
    own closed itemsets, mined from the models whose supports are tested, gave q-values
    that were too small)."""
    if isinstance(significance, pd.DataFrame):
        return significance
    if base.n_models < 4:  # two halves of two models at least: nothing to test
        return None
    from ..diagnostics import itemset_significance

    return itemset_significance(base, n_randomizations=REPORT_RANDOMIZATIONS,
                                random_state=0)


def _family_sentence(table: pd.DataFrame) -> str:
    """Which itemsets the q-values are over (``table.attrs`` of itemset_significance)."""
    family = table.attrs.get("family")
    if family == "split":
        return (f"Tested: the itemsets chosen on a random half of the base models "
                f"({table.attrs['n_selection']} models: closed itemsets of two or more "
                "features, those furthest above independence there), their supports tested "
                f"on the other half ({table.attrs['n_test']} models), so that the choice "
                "cannot favour chance co-selection. ")
    if family == "given":
        return ("Tested: the itemsets given, on all the base models (calibrated only if "
                "they were not chosen from these models' co-selection). ")
    return ""


def _significance_section(table: pd.DataFrame,
                          significance: pd.DataFrame | bool | None) -> str:
    computed = not isinstance(significance, pd.DataFrame)
    out = ['<h3 id="cooccurrence">Do the itemsets beat chance?</h3>',
           f"<p><b>{_e(cooccurrence_verdict(table))}</b></p>",
           '<div class="note">Each itemset\'s support is compared with its support in '
           f"{REPORT_RANDOMIZATIONS if computed else 'the'}"
           " randomised selection matrices that keep every base model's size and every "
           "feature's selection frequency (curveball swaps, Gionis et al. 2007; Strona et "
           "al. 2014). Lift: support over the product of the items' frequencies (1 = "
           "independent). q: Benjamini-Hochberg over the itemsets tested "
           "(<code>mm.diagnostics.itemset_significance</code>). "
           f"{_e(_family_sentence(table))}</div>"]
    if len(table):
        shown = table[["itemset", "support", "expected_support", "lift", "p_value",
                       "q_value"]].copy()
        shown["itemset"] = shown["itemset"].map(lambda t: ", ".join(map(str, t)))
        out.append(_table(shown, max_rows=25, csv="itemset_significance.csv"))
    return "\n".join(out)


def _explorer_section(base: BaseModels, results: Sequence[OperatorResult],
                      itemsets: Itemsets, significance: pd.DataFrame | None = None) -> str:
    """The lattice explorer of the report's closed itemsets (those of highest support when
    there are more than LATTICE_REPORT_MAX_ITEMSETS: closed itemsets do not depend on the
    threshold, so mining again at the cut count gives exactly them)."""
    if itemsets.itemset_type != "closed" or itemsets.max_len is not None:
        return ""
    closed = itemsets
    note = ""
    if len(closed) > LATTICE_REPORT_MAX_ITEMSETS:
        cut = int(np.sort(closed.counts)[::-1][LATTICE_REPORT_MAX_ITEMSETS]) + 1
        closed = mine_itemsets(base, itemset_type="closed", min_support=cut)
        note = (f" It holds the {len(closed):,} closed itemsets of support &ge; "
                f"{cut}/{base.n_models} of the {len(itemsets):,} mined (the report's cap); "
                "<code>modelmine lattice DIR --format html</code> writes a page with up to "
                f"{LATTICE_HTML_MAX_ITEMSETS:,}.")
    lattice = ItemsetLattice(closed)
    signatures = {r.operator: r.result for r in results}
    return ("<h3>Explore the lattice</h3>"
            '<div class="note">Search a feature, filter by support, size or signature, click '
            "an itemset for its base models and signatures, compare two signatures, export "
            f"the selection (docs/lattice.md).{note}</div>"
            + explorer_fragment(lattice, signatures=signatures, func="build_report",
                                significance=significance))


def write_report(path: str | os.PathLike[str], base: BaseModels,
                 results: Sequence[OperatorResult] = (), **kwargs: Any) -> Path:
    """Write :func:`build_report` to ``path`` atomically (temporary file, then rename).

    Returns
    -------
    pathlib.Path
    """
    return write_text_atomic(Path(path), build_report(base, results, **kwargs))
