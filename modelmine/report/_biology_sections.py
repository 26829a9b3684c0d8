"""The report's biology sections: every tested gene's effect (a volcano plot) and the
over-representation of the user's gene sets in the signatures (docs/biology.md).

Each is a function of the :class:`~._context.Page` registered in
:data:`._sections.SECTIONS`. The volcano reads the run's own effects table
(:meth:`modelmine.MiningRun.effects`, ``effects.csv``); the enrichment is a study of the
run given gene sets, handed to the report as ``enrichment=`` (``run.enrichment(sets)``;
``modelmine run --gene-sets FILE`` writes ``enrichment.csv`` and the report reads it).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ._biology import plot_volcano
from ._context import Page
from ._format import e, img, table

__all__ = ["enrichment", "volcano"]

#: The q-value the sections count as significant (Benjamini-Hochberg).
_Q = 0.05

#: Rows of the enrichment table shown on the page (every row is in the CSV).
_ENRICHMENT_ROWS = 25


def _genes(sig: Any) -> list[str]:
    sigs = getattr(sig, "signatures", None)
    return [str(g) for s in (sigs if sigs is not None else [sig]) for g in s.names]


def _marked(page: Page, cls: Any) -> dict[str, list[str]]:
    """The genes to mark: the consensus signature's, and the drawn class's own panel of
    that operator (a per-class run)."""
    lead = page.consensus
    if lead is None:
        return {}
    marked = {lead.operator: _genes(lead.result)}
    panels = page.run.class_signatures
    if cls is not None and str(cls) in panels and lead.operator in panels[str(cls)]:
        marked[f"{lead.operator}, {cls} panel"] = _genes(panels[str(cls)][lead.operator])
    return marked


def volcano(page: Page) -> str:
    """``#volcano``: every tested feature's effect against ``-log10 p``, the consensus
    signature's genes marked (:func:`modelmine.report.plot_volcano`), and how many of them
    pass q <= 0.05 among all the features tested; one panel per modality of a multi-omic
    run."""
    effects = getattr(page.run, "effects_table", None) if page.from_run else None
    if effects is None or not len(effects):
        return ""
    cls = list(dict.fromkeys(effects["class"]))[-1] if "class" in effects.columns else None
    shown = effects if cls is None else effects[effects["class"] == cls]
    marked = _marked(page, cls)
    fig = plot_volcano(effects, marked, cls=cls,
                       modalities=[name for name, _ in page.base.modalities])
    out = ['<h2 id="volcano">Every tested gene</h2>',
           img(fig, "Volcano plot: every tested gene's effect against -log10 p")]
    what = "" if cls is None else f" ({e(cls)} against the rest)"
    passing = int((shown["q_value"] <= _Q).sum())
    text = (f"<p>Each of the {len(shown):,} features the run tested at its effect and "
            f"p-value{what}, from the same functions as the markers; the dashed line is "
            f"q = {_Q:g} (Benjamini-Hochberg over all of them): {passing:,} pass.")
    for name, genes in marked.items():
        rows = shown[shown["feature"].astype(str).isin(genes)]
        text += (f" Of the {len(genes)} genes of {e(name)}, {int((rows.q_value <= _Q).sum())}"
                 f" pass.")
    out.append(text + " <code>effects.csv</code> holds every row.</p>")
    if "modality" in shown.columns:
        lead = next(iter(marked.values()), [])
        counts = pd.DataFrame([
            {"modality": m, "features": len(part), "effect measure":
             str(part["effect_measure"].iloc[0]).replace("_", " "),
             f"q <= {_Q:g}": int((part["q_value"] <= _Q).sum()),
             "in the consensus": int(part["feature"].astype(str).isin(lead).sum())}
            for m, part in shown.groupby("modality", sort=False)])
        out.append(table(counts))
    return "\n".join(out)


def enrichment(page: Page) -> str:
    """``#enrichment``: the gene sets over-represented in the signatures and panels (the
    study given as ``enrichment=``: :meth:`modelmine.MiningRun.enrichment`)."""
    frame = page.enrichment
    if frame is None or not len(frame):
        return ""
    order = frame.sort_values(["q_value", "p_value"], kind="stable")
    universe = int(frame["universe"].iloc[0])
    passing = int((frame["q_value"] <= _Q).sum())
    return "\n".join([
        '<h2 id="enrichment">Gene-set enrichment</h2>',
        f"<p>Over-representation of {frame['gene_set'].nunique():,} gene sets in "
        f"{frame['signature'].nunique():,} signatures and panels. The universe is the "
        f"{universe:,} features the run tested, not the genome, and each set is restricted "
        "to it; hypergeometric p (the one-sided Fisher test), Benjamini-Hochberg q over "
        f"the sets tested against each signature: {passing:,} of {len(frame):,} rows pass "
        f"q <= {_Q:g}.</p>",
        table(order, csv="enrichment.csv", max_rows=_ENRICHMENT_ROWS)])
