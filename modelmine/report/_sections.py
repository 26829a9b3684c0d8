"""The sections of the run report, in page order, and the small ones themselves.

A section is a function of the :class:`~._context.Page` (the run and the studies made of
it) that returns its HTML, starting with a heading that carries its anchor, or "" when it
has nothing to show (it is then left out of the page and of the navigation bar). Adding a
section is one function plus one :class:`Section` in :data:`SECTIONS`
(docs/DEVELOPING.md, "Add a report section").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._utils import is_positional, library_versions
from ._biology_sections import enrichment, volcano
from ._context import Page
from ._expression import expression, markers
from ._format import (
    SIGNATURE_FORMATS,
    command_text,
    csv_link,
    e,
    img,
    kv_table,
    provenance,
    readable,
    slug,
    table,
)
from ._itemset_sections import itemsets
from ._plots import (
    plot_error_vs_stability,
    plot_membership,
    plot_selection_frequency,
    plot_signature_overlap,
    plot_stability,
    plot_stability_by_size,
    plot_stability_path,
    stability_by_size,
)
from ._records import signature_table
from ._words import (
    resampling_statement,
    scaling_statement,
    shareable,
    unset_text,
)

__all__ = ["SECTIONS", "Section"]


@dataclass(frozen=True)
class Section:
    """One section of the run report: its anchor (``report.html#anchor``), its name in the
    navigation bar, and the function of the page that writes it."""

    anchor: str
    name: str
    render: Callable[[Page], str]


# ---------------------------------------------------------------- data and settings
def _classes_entry(base: Any) -> dict[str, str]:
    """The data table's row on the classes; for a continuous or survival outcome, what
    the labels the resampling keeps are (not classes: strata of the outcome, in the
    words of its kind's ``strata_note``)."""
    labels = ", ".join(str(c) for c in base.classes)
    kind = base.spec.outcome_kind
    if kind.classes:
        return {"classes": labels}
    strata = kind.strata_note.format(n=len(base.classes), labels=labels) or labels
    return {"resampling strata": f"{strata}: a {kind.name} run has no classes; these only "
            "stratify and check the resamples"}


def _run_settings(page: Page) -> dict[str, Any]:
    """The mining settings a whole run records (operators, signature size, k, support)."""
    settings = page.run.settings
    if not page.from_run:
        return {}
    return {"operators": ", ".join(page.run.signatures),
            "signature size": settings.get("signature_size", settings["n_features"]),
            "k (alternatives)": settings["n_signatures"],
            "minimum support": settings["min_support"]}


def _scaling(page: Page) -> str:
    """How the selector saw the values: the run's record (``data.scaling``), else the
    same sentence from the base models' settings."""
    stated = dict(page.run.data or {}).get("scaling")
    if stated:
        return str(stated)
    try:
        return scaling_statement(page.base.spec)
    except ValueError:  # a custom selector read back from disk: its object is not stored
        return str(page.base.selector.get("scale", "none"))


def _data_rows(page: Page) -> dict[str, Any]:
    """The data table: size, classes, where the data come from (file names, not paths),
    what the values are, and whether the feature names are only positions."""
    base = page.base
    rows: dict[str, Any] = {"samples": base.n_samples, "features": base.n_features_in,
                            **_classes_entry(base)}
    if is_positional(page.names):
        rows["feature names"] = (f"none in the data: x0 to x{base.n_features_in - 1} are "
                                 "the columns' positions (x0 the first)")
    for key, value in shareable(dict(page.run.data or {})).items():
        if key in ("n_samples", "n_features_in", "scaling"):
            continue  # the sizes are above, the scaling is a setting (below)
        if key == "read_options" and isinstance(value, Mapping):
            rows["read with"] = ", ".join(f"{k} = {v}" for k, v in value.items())
        else:
            rows[key] = value
    return rows


def data_and_settings(page: Page) -> str:
    """``#data``: the data, the settings, the command line and the versions."""
    base = page.base
    sel = base.selector
    params = dict(sel.get("params", {}) or {})
    run_info: dict[str, Any] = {
        "selector": sel.get("name"),
        "selector parameters": ", ".join(f"{k} = {readable(v, page.names)}"
                                         for k, v in params.items()) or "defaults",
        "feature scaling": _scaling(page),
        "b (base models)": base.n_models,
        "m (features per base model)": (base.n_features if base.n_features is not None
                                        else unset_text("n_features")),
        "resampling": resampling_statement(base.resampling),
        "seed (random_state)": base.random_state,
        **_run_settings(page), **dict(page.extra_settings)}
    out = ['<h2 id="data">Data and settings</h2>',
           "<h3>Data</h3>" + kv_table(_data_rows(page), csv="data.csv"),
           "<h3>Settings</h3>" + kv_table(run_info, csv="settings.csv")]
    if page.run.command:
        out.append("<p>Command: <code>"
                   f"{e(command_text(shareable(list(page.run.command))))}</code></p>")
    out.append("<details><summary>Versions</summary>"
               + kv_table(library_versions(), csv="versions.csv") + "</details>")
    return "\n".join(out)


# ---------------------------------------------------------------- signatures
def signature_frame(page: Page, sig: Any) -> pd.DataFrame:
    """A signature for the page: rank, gene, frequency, mean rank, score (no indices), and
    each gene's p- and q-value when a permutation null was run."""
    frame = signature_table(page.base, sig, page.null)
    # a medoid's score is the gene's rank in its base model: not the signature's rank
    frame = frame.rename(columns={"rank": "rank in its base model"})
    frame = frame.rename(columns={"position": "rank", "feature": "gene",
                                  "mean_rank": "mean rank"})
    cols = ["rank", "gene", "frequency", "mean rank"]
    cols += [c for c in frame.columns if c not in (*cols, "index", "alternative")]
    return frame[[c for c in cols if c in frame.columns]].copy()


def signatures(page: Page) -> str:
    """``#signatures``: each consensus signature as a table, with how it was made."""
    out = ['<h2 id="signatures">Signatures</h2>',
           '<div class="note">A signature is the set of genes an operator extracts from the '
           "b base models. <b>frequency</b> is the fraction of base models that selected the "
           "gene (1 = every bootstrap sample chose it); <b>mean rank</b> is its average "
           "position in the selector's rankings (1 = best); <b>rank</b> is its place in the "
           "signature. The same genes are in signatures.gmt for enrichment tools.</div>"]
    if not page.results:
        out.append("<p>No operator was run.</p>")
    elif not page.singles:
        out.append('<p>No consensus operator was run; see <a href="#alternatives">the '
                   "alternatives</a>.</p>")
    for res in page.singles:
        sig, name = res.signatures[0], slug(res.operator)
        out.append(f"<h3>{e(res.operator)}: consensus signature of "
                   f"{len(sig.features)} genes</h3>")
        out.append(table(signature_frame(page, sig), csv=f"{name}.csv",
                         formats=SIGNATURE_FORMATS))
        out.append(provenance(sig.provenance, page.names, f"{name}-provenance"))
    return "\n".join(out)


# ---------------------------------------------------------------- error control
def error_control(page: Page) -> str:
    """``#error-control``: the run's genes checked by stability selection or Stabl."""
    check = page.error_control
    if check is None:
        return ""
    return "\n".join([
        '<h2 id="error-control">Error control of this run</h2>',
        '<div class="note">The run\'s selector, with its settings, fitted beside it on '
        "complementary pairs of half-samples (Shah and Samworth 2013)"
        + (" with permuted decoy features (Stabl, Hedou et al. 2024)"
           if "stabl" in check.table.columns else "")
        + ": the run itself is as asked, its genes are checked. "
        + " ".join(e(t) for t in check.statements) + "</div>",
        table(check.table, csv="error_control.csv", max_rows=60)])


# ---------------------------------------------------------------- alternatives
def _alternatives_of(page: Page, res: Any) -> list[str]:
    out = [f"<h3>{e(res.operator)}: {len(res.signatures)} alternative signatures</h3>",
           '<div class="note">Alternative signatures are different gene sets that each '
           "describe the data well (KDD 2012, section 2.2): a biologist can pick the one "
           "with the most plausible genes.</div>"]
    name = slug(res.operator)
    if res.signatures:
        out.append(img(plot_membership(res, page.frequency, page.names),
                       f"Genes x alternatives of {res.operator}"))
    if len(res.signatures) >= 2:
        out.append(img(plot_signature_overlap(res),
                       f"Jaccard overlap among the alternatives of {res.operator}"))
    member = pd.DataFrame({"gene": sorted({page.names[int(f)] for s in res.signatures
                                           for f in s.features})})
    for i, sig in enumerate(res.signatures, start=1):
        member[f"alt {i}"] = member["gene"].isin(set(sig.names.tolist()))
    out.append(f'<p class="dl">{csv_link(member, f"{name}-membership.csv")}</p>')
    for i, sig in enumerate(res.signatures, start=1):
        out.append(f"<details><summary>Alternative {i} ({len(sig.features)} genes: "
                   f"{e(', '.join(sig.names[:5]))}{' ...' if len(sig.names) > 5 else ''})"
                   "</summary>")
        out.append(table(signature_frame(page, sig), csv=f"{name}-alt{i}.csv",
                         formats=SIGNATURE_FORMATS))
        out.append(provenance(sig.provenance, page.names, f"{name}-alt{i}-provenance")
                   + "</details>")
    return out


def alternatives(page: Page) -> str:
    """``#alternatives``: each multi-model operator's alternatives (KDD 2012, 2.3)."""
    out = ['<h2 id="alternatives">Alternative signatures</h2>']
    if not page.multis:
        out.append('<p class="muted">No multi-model operator was run (allMed, '
                   "allClosedApr, ...: <code>--operator allMed</code>).</p>")
    for res in page.multis:
        out += _alternatives_of(page, res)
    return "\n".join(out)


# ---------------------------------------------------------------- stability
def _null_note(page: Page) -> str:
    base, null = page.base, page.null
    shown_top = min(30, base.n_features_in)
    order = np.lexsort((np.arange(base.n_features_in),
                        base.tied_ranks().mean(axis=0, dtype=np.float64),
                        -base.subsets.mean(axis=0)))
    starred = int(np.isin(order[:shown_top],
                          np.asarray(null.significant(0.05), dtype=np.int64)).sum())
    return (f'<div class="note">Black ticks: the 95 % quantile of each feature\'s '
            f"frequency when the labels are permuted ({null.n_permutations} "
            "permutations, same resamples), before any correction: a bar beyond its "
            "tick is not yet significant once the p features are tested together. "
            f"Stars: the {null.significant(0.05).size} features selected more often "
            "than chance after the Benjamini-Hochberg correction (q &le; 0.05), "
            f"{starred} of them among the {shown_top} drawn. Grey band (right): "
            "the pooled null.</div>")


def _error_vs_stability(page: Page) -> str:
    evaluation = page.evaluation
    if evaluation is not None and len(evaluation):
        return "\n".join([
            img(plot_error_vs_stability(evaluation), "Error vs stability per operator"),
            table(evaluation, csv="evaluation.csv"),
            '<div class="note">Each point is one operator evaluated by cross-validation, '
            "selection inside the training folds only. KDD 2012 (Table 2) finds closedApr "
            "the only operator better than no aggregation on error while near the top on "
            "stability.</div>"])
    how = page.evaluation_suggestion
    return f"<p>Not run for this report. {e(how.text)}</p><pre>{e(how.code)}</pre>"


def stability(page: Page) -> str:
    """``#stability``: selection frequencies, stability by size, error vs stability."""
    base = page.base
    out = ['<h2 id="stability">Stability</h2>',
           '<h3 id="frequency">Selection frequency across the base models</h3>',
           img(plot_selection_frequency(base, highlight=page.highlight, null=page.null),
               "Per-feature selection frequency across the base models",
               anchor="fig-frequency")]
    if page.null is not None:
        out.append(_null_note(page))
    out.append('<div class="note">Genes that a selector picks on almost every bootstrap '
               "sample are robust to small changes of the data; genes picked only "
               "sometimes are the unstable part of the selector's output.</div>")
    every = base.summary(top=base.n_features_in).reset_index()
    out.append(f'<p class="dl">{csv_link(every, "frequencies.csv")}</p>')
    out.append("<h3>Stability as the signature size varies</h3>")
    by_size = stability_by_size(base)
    if len(by_size):
        out.append(img(plot_stability_by_size(by_size, m=base.n_features),
                       "Stability against signature size"))
        out.append(table(by_size, csv="stability-by-size.csv"))
    out.append("<h3>Error vs stability per operator</h3>")
    out.append(_error_vs_stability(page))
    return "\n".join(out)


# ---------------------------------------------------------------- diagnostics
def diagnostics(page: Page) -> str:
    """``#diagnostics``: stability of the base models, diversity, how to read them."""
    from ._diagnostics import NOTES

    table_ = page.diagnostics
    out = ['<h2 id="diagnostics">Diagnostics</h2>',
           img(plot_stability(table_), "Stability of the base models")]
    if page.stability_path is not None:
        out.append(img(plot_stability_path(page.stability_path),
                       "Stability path: frequencies and stability along the path"))
    shown = table_.drop(columns=["note"]).rename(
        columns={"ci_low": "95% CI low", "ci_high": "95% CI high"})
    out.append(table(shown, csv="diagnostics.csv"))
    out.append("<h3>How to read these numbers</h3>")
    used = {str(m).split(" ")[0] for m in table_["measure"]}
    out += [f'<div class="note"><b>{e(key)}</b>: {e(text)}</div>'
            for key, text in NOTES.items() if key in used]
    return "\n".join(out)


#: The sections of the page, in order (the summary, first, is :func:`._summary.summary`).
SECTIONS: list[Section] = [
    Section("data", "Data", data_and_settings),
    Section("signatures", "Signatures", signatures),
    Section("expression", "Expression", expression),
    Section("error-control", "Error control", error_control),
    Section("markers", "Markers", markers),
    Section("volcano", "Volcano", volcano),
    Section("enrichment", "Enrichment", enrichment),
    Section("alternatives", "Alternatives", alternatives),
    Section("stability", "Stability", stability),
    Section("itemsets", "Itemsets", itemsets),
    Section("diagnostics", "Diagnostics", diagnostics),
]
