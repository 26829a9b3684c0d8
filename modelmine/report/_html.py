"""One self-contained HTML report of a model-mining run.

The page needs no network: the plots are PNG images embedded as ``data:`` URIs, the style
sheet is inline, there is no web font, and the only script is the lattice explorer's, inline
(:meth:`modelmine.ItemsetLattice.to_html`). It shows what Woznica, Nguyen and
Kalousis (KDD 2012) report for a run: the data and settings, the consensus signature and
each alternative (section 2), the per-feature selection frequency across the b base
models, the top of the closed-itemset lattice and the support distribution of the mined
itemsets (section 2.2), the Jaccard overlap among alternatives (section 3, eq. 1), the
stability of the base models with confidence intervals (Nogueira et al., JMLR 2018) and,
when an evaluation was run, error vs stability per operator (Table 2).
"""

from __future__ import annotations

import datetime as _dt
import html
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._files import write_text_atomic
from .._utils import jsonable, library_versions
from ..base_models import BaseModels
from ..constants import LATTICE_HTML_MAX_ITEMSETS, LATTICE_REPORT_MAX_ITEMSETS
from ..patterns import ItemsetLattice, Itemsets, mine_itemsets
from ..patterns._explorer import explorer_fragment
from ._diagnostics import NOTES, run_diagnostics
from ._plots import (
    plot_error_vs_stability,
    plot_lattice_top,
    plot_selection_frequency,
    plot_signature_overlap,
    plot_stability,
    plot_stability_path,
    plot_support_distribution,
    png_data_uri,
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
"""


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _fmt(v: Any, digits: int = 3) -> str:
    if v is None:
        return ""
    if isinstance(v, float | np.floating):
        return "" if not np.isfinite(v) else f"{float(v):.{digits}f}"
    return str(v)


def _table(frame: pd.DataFrame, *, digits: int = 3, max_rows: int | None = None) -> str:
    shown = frame if max_rows is None else frame.head(max_rows)
    head = "".join(f"<th>{_e(c)}</th>" for c in shown.columns)
    body = []
    for _, row in shown.iterrows():
        cells = []
        for v in row.tolist():
            numeric = isinstance(v, int | float | np.integer | np.floating) and not isinstance(
                v, bool)
            cls = ' class="num"' if numeric else ""
            cells.append(f"<td{cls}>{_e(_fmt(v, digits))}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    more = ""
    if max_rows is not None and len(frame) > max_rows:
        more = f'<p class="muted">{len(frame) - max_rows} more rows in the CSV files.</p>'
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>{more}"


def _kv_table(items: Mapping[str, Any]) -> str:
    rows = "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in items.items())
    return f"<table>{rows}</table>"


def _img(fig: Any, alt: str) -> str:
    uri = png_data_uri(fig)
    return f'<img src="{uri}" alt="{_e(alt)}">'


def _provenance_text(prov: Mapping[str, Any]) -> str:
    if not prov:
        return ""
    parts = []
    for k, v in prov.items():
        text = json.dumps(jsonable(v)) if not isinstance(v, str) else v
        if len(text) > 160:
            text = text[:157] + "..."
        parts.append(f"{k}: {text}")
    return '<p class="muted">Provenance: ' + _e("; ".join(parts)) + "</p>"


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
    lattice_explorer: bool = True,
) -> str:
    """Render the self-contained HTML report of a run.

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
        A permutation null (:func:`modelmine.diagnostics.selection_null`): the frequency
        plot draws its band, and the warnings use its q-values.
    stability_path : StabilityPathResult, optional
        Plotted in the diagnostics (:func:`modelmine.diagnostics.stability_path`).
    warnings : sequence of str, optional
        What not to trust, shown on the first screen; default
        :func:`modelmine.report.trust_warnings` of these results.
    lattice_explorer : bool, default=True
        Add the interactive lattice explorer (:meth:`modelmine.ItemsetLattice.to_html`) under
        the itemsets, holding at most LATTICE_REPORT_MAX_ITEMSETS itemsets (those of highest
        support); False keeps the page free of any script.

    Returns
    -------
    str
        The HTML text.
    """
    if diagnostics is None:
        diagnostics = run_diagnostics(base, {r.operator: r.result for r in results})
    names = [str(n) for n in base.feature_names]
    consensus = next((r for r in results if r.kind == "single"), None)
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
    out.append('<nav><a href="#data">Data and settings</a><a href="#signatures">Signatures</a>'
               '<a href="#frequency">Selection frequency</a><a href="#itemsets">Itemsets</a>'
               '<a href="#diagnostics">Diagnostics</a></nav>')

    # --- data and settings
    out.append('<h2 id="data">Data and settings</h2>')
    data_info = {"samples": base.n_samples, "features": base.n_features_in,
                 "classes": ", ".join(str(c) for c in base.classes)}
    data_info.update(dict(data_description or {}))
    out.append("<h3>Data</h3>" + _kv_table(data_info))
    sel = base.selector
    run_info: dict[str, Any] = {
        "selector": sel.get("name"),
        "selector parameters": json.dumps(jsonable(sel.get("params", {}))),
        "b (base models)": base.n_models,
        "m (features per base model)": base.n_features,
        "resampling": json.dumps(jsonable(base.resampling)),
        "seed (random_state)": base.random_state,
    }
    run_info.update(dict(settings or {}))
    out.append("<h3>Settings</h3>" + _kv_table(run_info))
    out.append("<h3>Versions</h3>" + _kv_table(library_versions()))

    # --- signatures
    out.append('<h2 id="signatures">Signatures</h2>')
    out.append('<div class="note">A signature is the set of features an operator extracts '
               "from the b base models. <b>frequency</b> is the fraction of base models that "
               "selected the feature (1 = every bootstrap sample chose it); <b>mean rank</b> "
               "is its average position in the selector's rankings (1 = best); <b>score</b> is "
               "the operator's own score, where it has one.</div>")
    if not results:
        out.append("<p>No operator was run.</p>")
    for res in results:
        if res.kind == "single":
            sig = res.signatures[0]
            out.append(f"<h3>{_e(res.operator)}: consensus signature of "
                       f"{len(sig.features)} features</h3>")
            out.append(_table(signature_table(base, sig)))
            out.append(_provenance_text(sig.provenance))
        else:
            out.append(f"<h3>{_e(res.operator)}: {len(res.signatures)} alternative "
                       "signatures</h3>")
            out.append('<div class="note">Alternative signatures are different feature sets '
                       "that each describe the data well (KDD 2012, section 2.3): "
                       "a biologist can pick the one with the most plausible genes.</div>")
            for i, sig in enumerate(res.signatures, start=1):
                opened = " open" if i == 1 else ""
                out.append(f"<details{opened}><summary>Alternative {i} "
                           f"({len(sig.features)} features: {_e(', '.join(sig.names[:5]))}"
                           f"{' ...' if len(sig.names) > 5 else ''})</summary>")
                out.append(_table(signature_table(base, sig)))
                out.append(_provenance_text(sig.provenance) + "</details>")
            if len(res.signatures) >= 2:
                out.append(_img(plot_signature_overlap(res),
                                f"Jaccard overlap among the alternatives of {res.operator}"))

    # --- frequency
    out.append('<h2 id="frequency">Selection frequency across the base models</h2>')
    out.append(_img(plot_selection_frequency(base, highlight=highlight, null=null),
                    "Per-feature selection frequency across the base models"))
    if null is not None:
        out.append(f'<div class="note">Black ticks: the 95 % quantile of each feature\'s '
                   f"frequency when the labels are permuted ({null.n_permutations} "
                   "permutations, same resamples); grey band: the pooled null. "
                   f"{null.significant(0.05).size} features are selected more often than "
                   "chance (Benjamini-Hochberg q &le; 0.05).</div>")
    out.append('<div class="note">Features that a selector picks on almost every bootstrap '
               "sample are robust to small changes of the data; features picked only "
               "sometimes are the unstable part of the selector's output.</div>")

    # --- itemsets
    out.append('<h2 id="itemsets">Frequent itemsets of the base models</h2>')
    if itemsets is None:
        out.append(f"<p>{_e(itemsets_note or 'The itemsets were not mined for this report.')}"
                   "</p>")
    else:
        out.append('<div class="note">An itemset is a group of features selected '
                   "<i>together</i>; its support is the fraction of base models containing "
                   "the whole group. Closed itemsets are those no superset matches in support; "
                   "closedApr builds the consensus signature from those of highest support "
                   "(KDD 2012, section 2.2).</div>")
        out.append(_img(plot_lattice_top(itemsets, names), "Top of the closed-itemset lattice"))
        out.append(_img(plot_support_distribution(itemsets, n_models=base.n_models),
                        "Support distribution of the mined itemsets"))
        if lattice_explorer:
            out.append(_explorer_section(base, results, itemsets))

    # --- diagnostics
    out.append('<h2 id="diagnostics">Diagnostics</h2>')
    out.append(_img(plot_stability(diagnostics), "Stability of the base models"))
    if stability_path is not None:
        out.append(_img(plot_stability_path(stability_path),
                        "Stability path: frequencies and stability along the path"))
    shown = diagnostics.drop(columns=["note"]).rename(
        columns={"ci_low": "95% CI low", "ci_high": "95% CI high"})
    out.append(_table(shown))
    out.append("<h3>How to read these numbers</h3>")
    used = {str(m).split(" ")[0] for m in diagnostics["measure"]}
    for key, text in NOTES.items():
        if key in used:
            out.append(f'<div class="note"><b>{_e(key)}</b>: {_e(text)}</div>')
    if evaluation is not None and len(evaluation):
        out.append("<h3>Error vs stability per operator</h3>")
        out.append(_img(plot_error_vs_stability(evaluation),
                        "Error vs stability per operator"))
        out.append(_table(evaluation))
        out.append('<div class="note">Each point is one operator evaluated by '
                   "cross-validation, selection inside the training folds only. KDD 2012 "
                   "(Table 2) finds closedApr the only operator better than no aggregation on "
                   "error while near the top on stability.</div>")
    else:
        out.append('<p class="muted">Error vs stability per operator appears here once the '
                   "cross-validation protocol has been run.</p>")

    body = "\n".join(out)
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{_e(title)}</title><style>{_CSS}</style></head>"
            f"<body><main>\n{body}\n</main></body></html>\n")


def _explorer_section(base: BaseModels, results: Sequence[OperatorResult],
                      itemsets: Itemsets) -> str:
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
            + explorer_fragment(lattice, signatures=signatures, func="build_report"))


def write_report(path: str | os.PathLike[str], base: BaseModels,
                 results: Sequence[OperatorResult] = (), **kwargs: Any) -> Path:
    """Write :func:`build_report` to ``path`` atomically (temporary file, then rename).

    Returns
    -------
    pathlib.Path
    """
    return write_text_atomic(Path(path), build_report(base, results, **kwargs))
