"""One self-contained HTML report of a model-mining run.

The page needs no network: the plots are PNG images embedded as ``data:`` URIs, the style
sheet is inline, there is no web font, and the only script is the lattice explorer's, inline
(:meth:`modelmine.ItemsetLattice.to_html`). It shows what Woznica, Nguyen and Kalousis
(KDD 2012) report for a run, for a biologist: the data and settings, the consensus signature
as genes with their frequencies and integer ranks (section 2), their expression by class,
each alternative (section 2.2) as a gene x alternative matrix and the Jaccard overlap among
them (section 3, eq. 1), the per-feature selection frequency, the stability of the base
models and of each signature size with confidence intervals (Nogueira et al., JMLR 2018),
error vs stability per operator (Table 2) or the command that computes it, and the
closed-itemset lattice (section 2.1) with its explorer. Every table downloads as CSV
(data: URLs).

The page is a list of sections (:data:`._sections.SECTIONS`), each a small function of
the run (:class:`._context.Page`); this module puts them on one page.
"""

from __future__ import annotations

import datetime as _dt
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from .._files import write_text_atomic
from .._page import html_page
from ..base_models import BaseModels
from ..patterns import Itemsets
from . import _sections
from ._context import Page, ReportRun
from ._format import CSS, FIGURES, e
from ._records import OperatorResult
from ._summary import summary

__all__ = ["build_report", "write_report", "write_run_report"]


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

    From its pieces, for other layouts (:meth:`modelmine.MiningRun.report` writes the
    report of a whole run). The page is the summary, then the sections of
    docs/report.md, each with an anchor (``#data``, ``#signatures``, ``#expression``,
    ``#markers``, ``#alternatives``, ``#stability``, ``#itemsets``, ``#diagnostics``);
    every table downloads as CSV from the page (data: URLs: no network, no script).

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
        lists the itemsets with their lift and q-value. The lattice explorer rings the
        groups co-selected for real (:func:`modelmine.diagnostics.self_sufficient_itemsets`,
        computed here with its defaults and seed 0, or the table given when it is one of
        that function's); False leaves the rings out too.

    Returns
    -------
    str
        The HTML text.
    """
    run = ReportRun(base_models=base, signatures={r.operator: r.result for r in results},
                    data=dict(data_description or {}), diagnostics_table=diagnostics,
                    itemsets=itemsets, itemsets_note=itemsets_note, expression=expression,
                    command=command)
    page = Page(run=run, evaluation=evaluation, null=null, stability_path=stability_path,
                error_control=error_control, title=title, warnings=warnings,
                lattice_explorer=lattice_explorer, significance=significance,
                given_markers=markers, given_grid=marker_grid,
                extra_settings=dict(settings or {}),
                given_evaluation_command=evaluation_command, given_results=list(results))
    return render(page, figures_dir)


def render(page: Page, figures_dir: str | os.PathLike[str] | None = None) -> str:
    """The page: its title, cautions and navigation, the summary, then every section of
    :data:`._sections.SECTIONS` that has something to show, in order."""
    token = FIGURES.set(None if figures_dir is None else (Path(figures_dir), set()))
    try:
        shown = [(s, text) for s in _sections.SECTIONS if (text := s.render(page))]
        body = "\n".join(text for _, text in shown)
        now = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        out = [f"<h1>{e(page.title)}</h1>",
               f'<p class="muted">Generated {now} by modelmine: robust feature selection by '
               "mining the models a selector produces on bootstrap samples (Woznica, Nguyen "
               "and Kalousis, KDD 2012).</p>",
               *(f'<div class="warning"><b>Caution:</b> {e(text)}</div>'
                 for text in page.cautions),
               '<nav><a href="#summary">Summary</a>'
               + "".join(f'<a href="#{s.anchor}">{e(s.name)}</a>' for s, _ in shown)
               + "</nav>",
               summary(page), body]
        return html_page(page.title, "<main>\n" + "\n".join(out) + "\n</main>", CSS)
    finally:
        FIGURES.reset(token)


def write_run_report(path: str | os.PathLike[str], run: Any, *,
                     figures_dir: str | os.PathLike[str] | None = None,
                     **studies: Any) -> Path:
    """Write the report of a :class:`modelmine.MiningRun` to ``path`` atomically; the
    ``studies`` (``evaluation``, ``null``, ``stability_path``, ``error_control``, and
    ``given_markers`` when the caller has them) are :class:`._context.Page`'s fields."""
    return write_text_atomic(Path(path), render(Page.of_run(run, **studies), figures_dir))


def write_report(path: str | os.PathLike[str], base: BaseModels,
                 results: Sequence[OperatorResult] = (), **kwargs: Any) -> Path:
    """Write :func:`build_report` to ``path`` atomically (temporary file, then rename).

    Returns
    -------
    pathlib.Path
    """
    return write_text_atomic(Path(path), build_report(base, results, **kwargs))
