"""The HTML report of a marker-panels run (issue 29): one page a biologist can open.

:func:`build_marker_report` gathers what :func:`modelmine.singlecell.marker_panels`
returned and the cells it ran on: the settings; per cluster its size, its panel, the
stability of its base models (Nogueira, Sechidis and Brown, JMLR 2018) and the weakest
AUROC of its panel; a dot plot of every panel gene in every cluster (the fraction of cells
expressing it, and its log2 fold change, as scanpy's ``dotplot``); per cluster the panel's
genes with their selection frequency and its Wilson interval, log fold change, AUROC and
adjusted p-value; and the combinations with their co-selection test.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._files import write_text_atomic
from .._page import html_page
from .._progress import phase
from .._utils import library_versions

__all__ = ["LOW_PANEL_STABILITY", "build_marker_report", "panel_dot_data",
           "write_marker_report"]

#: Below this Nogueira stability a cluster's panel gets a caution in the report: Nogueira,
#: Sechidis and Brown (JMLR 2018, section 4) read their estimator on the scale of Fleiss's
#: kappa, whose "excellent agreement beyond chance" starts at 0.75 (Fleiss 1981). Rare
#: clusters fall below it (0.62-0.74 against about 0.91 for the others on a 30k-cell atlas,
#: issue 39): their panel changes from resample to resample more than the others'.
LOW_PANEL_STABILITY = 0.75


def panel_dot_data(adata: Any, result: Any, *, layer: str | None = None,
                   max_genes: int = 60) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(log2 fold change, fraction expressing)`` of the panel genes (rows) in every
    cluster (columns), from the cells: a cluster's mean over the rest's (of ``expm1`` for
    log-normalised values, as the panels' table), and its fraction of cells above 0."""
    groupby = result.settings["groupby"]
    genes: list[str] = []
    for panel in result.panels.values():
        genes.extend(g for g in panel if g not in genes)
    genes = genes[:max_genes]
    from ..diagnostics._markers import expression_columns, fold_changes

    raw = result.settings.get("use_raw") and layer is None
    X = adata.raw.X if raw else adata.X if layer is None else adata.layers[layer]
    index = pd.Index([str(v) for v in (adata.raw.var_names if raw else adata.var_names)])
    # the scale marker_panels read the values on (recorded in its settings)
    sub = expression_columns(X, index.get_indexer(pd.Index(genes)),
                             result.settings.get("values") == "log-normalised")
    labels = adata.obs[groupby].astype(str).to_numpy()
    clusters = list(result.panels)
    effect = pd.DataFrame(index=genes, columns=clusters, dtype=np.float64)
    share = pd.DataFrame(index=genes, columns=clusters, dtype=np.float64)
    for c in clusters:
        inside = labels == c
        effect[c] = fold_changes(sub, inside)
        share[c] = (sub[inside] > 0).mean(axis=0)
    return effect, share


def build_marker_report(result: Any, adata: Any, *, title: str = "modelmine marker panels",
                        layer: str | None = None) -> str:
    """The report of a :class:`~modelmine.singlecell.MarkerPanels` as one HTML page.

    Parameters
    ----------
    result : MarkerPanels
        What :func:`~modelmine.singlecell.marker_panels` returned.
    adata : anndata.AnnData
        The cells it ran on (for the dot plot).
    title : str
    layer : str, optional
        The layer the panels were computed on (default: the one recorded in ``result``).

    Returns
    -------
    str
    """
    from ..diagnostics import nogueira_stability
    from ..diagnostics._markers import _wilson
    from ._format import CSS as _CSS
    from ._format import e as _e
    from ._format import img as _img
    from ._format import kv_table as _kv_table
    from ._format import table as _table
    from ._plots import plot_marker_dots

    layer = result.settings.get("layer") if layer is None else layer
    settings = dict(result.settings)
    sizes = adata.obs[settings["groupby"]].astype(str).value_counts()
    b = int(settings["n_bootstraps"])
    summary, details, cautions = [], [], []
    for cluster, genes in result.panels.items():
        rows = result.table[(result.table["class"] == cluster) & result.table.in_panel]
        stab = nogueira_stability(result.base_models[cluster])
        if stab.value < LOW_PANEL_STABILITY:
            cautions.append(
                f"cluster {cluster} ({int(sizes.get(cluster, 0)):,} cells): panel "
                f"stability {stab.value:.2f}, below {LOW_PANEL_STABILITY} (the start of "
                "excellent agreement on Fleiss's kappa scale, which Nogueira et al. 2018 "
                "use): its panel changes between resamples; trust its genes by their "
                "frequency and interval below, not by their place in the panel (a larger "
                "-b narrows the intervals, not the instability).")
        summary.append({"cluster": cluster, "cells": int(sizes.get(cluster, 0)),
                        "panel": ", ".join(genes),
                        "median frequency": float(rows.frequency.median())
                        if len(rows) else float("nan"),
                        "stability": stab.value,
                        "weakest AUROC": float(rows.auroc.min()) if len(rows) else
                        float("nan")})
        low, high = _wilson(rows.frequency.to_numpy(dtype=np.float64), b, 1.959964)
        shown = rows.assign(frequency_low=low, frequency_high=high)[
            ["feature", "frequency", "frequency_low", "frequency_high", "log2_fold_change",
             "auroc", "q_value", "mean_rank"]].rename(columns={"feature": "gene"})
        details.append(f"<details><summary>{_e(cluster)}: {_e(', '.join(genes))}</summary>"
                       f"{_table(shown)}</details>")
    effect, share = panel_dot_data(adata, result, layer=layer)
    # a gene absent from the rest has log2 fold change near +30 (the pseudocount): the
    # colours are clipped at +-5 so that the others stay readable
    dots = plot_marker_dots(effect.clip(-5, 5), share, size_label="fraction expressing",
                            effect_label="log2 fold change, cluster / rest (clipped at 5)")
    combos = result.combinations
    if len(combos):
        combos = combos.assign(features=combos["features"].map(
            lambda g: " + ".join(g) if isinstance(g, list | tuple) else str(g)))
        combo_html = _table(combos)
    else:
        combo_html = ('<p class="muted">No two genes were selected together in at least '
                      f'{settings.get("combination_support", 0.3):g} of the resamples.</p>')
    n_cells, n_genes = adata.shape
    shown_settings = {"cells": f"{n_cells:,}", "genes": f"{n_genes:,}",
                      "clusters": len(result.panels), **settings}
    versions = ", ".join(f"{k} {v}" for k, v in library_versions().items())
    body = [
        f"<h1>{_e(title)}</h1>",
        f'<p class="muted">{_e(versions)}</p>',
        "<h2>Settings</h2>", _kv_table(shown_settings),
        '<div class="note">Each cluster was compared with '
        + ("each other cluster (its weakest comparison)" if settings.get("reference") ==
           "each" else "the rest of the cells")
        + f" on {b} resamples of at most {_e(settings.get('max_cells_per_group'))} cells "
        "per cluster; its panel is its most frequently selected genes. Stability is "
        "Nogueira's estimator over the cluster's base models (1: the same genes every "
        "time; 0: chance).</div>",
        "<h2>Panels</h2>",
        *(f'<div class="warning"><b>Caution:</b> {_e(text)}</div>' for text in cautions),
        _table(pd.DataFrame(summary)),
        "<h2>Every panel gene in every cluster</h2>",
        _img(dots, "panel genes by cluster"),
        "<h2>Each cluster's panel</h2>", *details,
        "<h2>Genes that mark a cluster together</h2>",
        '<p class="muted">Frequent itemsets of the cluster\'s base models: how often the '
        "genes were selected together (support), against the product of their "
        "frequencies (lift), the p- and q-value of that co-selection against chance, and "
        "the AUROC of their combined score.</p>",
        combo_html,
    ]
    return html_page(title, f"<main>{''.join(body)}</main>", _CSS)


def write_marker_report(path: str | os.PathLike[str], result: Any, adata: Any,
                        **kwargs: Any) -> Path:
    """Write :func:`build_marker_report` to ``path`` atomically."""
    phase("report: the figures and the page")
    return write_text_atomic(Path(path), build_marker_report(result, adata, **kwargs))
