"""What every section of the run report reads: the run, and the studies made of it.

A section is a small function of a :class:`Page` (:mod:`._sections`). The page holds the
run (a :class:`modelmine.MiningRun`, read through its public attributes, or a
:class:`ReportRun` made of the pieces :func:`modelmine.report.build_report` was given),
the studies that refit it (the evaluation, the permutation null, the stability path, the
error-control check) and the page's options; what several sections share (the consensus,
the markers, the test of the itemsets) is computed once, on first use.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..base_models import BaseModels
from ..exceptions import DataError
from ..outcomes import OutcomeKind
from ..patterns import Itemsets
from ._diagnostics import run_diagnostics
from ._records import OperatorResult, operator_result
from ._trust import trust_warnings

__all__ = ["REPORT_FDR", "REPORT_RANDOMIZATIONS", "Page", "ReportRun", "run_markers"]

#: Randomised selection matrices behind the report's test of the itemsets (p-values down to
#: 1/1001: with 20 itemsets tested, Benjamini-Hochberg at 0.05 can then pass a single one).
REPORT_RANDOMIZATIONS = 1000
#: The false discovery rate at which the report counts an itemset as beating chance.
REPORT_FDR = 0.05


@dataclass(frozen=True)
class ReportRun:
    """A run made of the pieces :func:`~modelmine.report.build_report` takes: the public
    attributes of :class:`modelmine.MiningRun` that the sections read."""

    base_models: BaseModels
    signatures: Mapping[str, Any]
    data: Mapping[str, Any] = field(default_factory=dict)
    settings: Mapping[str, Any] = field(default_factory=dict)
    diagnostics_table: pd.DataFrame | None = None
    itemsets: Itemsets | None = None
    itemsets_note: str | None = None
    expression: pd.DataFrame | None = None
    command: Sequence[str] | None = None
    class_signatures: Mapping[str, Any] = field(default_factory=dict)

    @property
    def diagnostics(self) -> pd.DataFrame:
        if self.diagnostics_table is not None:
            return self.diagnostics_table
        return run_diagnostics(self.base_models, dict(self.signatures))


@dataclass(frozen=True, eq=False)
class Page:
    """One report: the run, the studies of it, the page's options.

    Sections read ``page.run`` (what the run carries) and ``page.base`` (its base models),
    the studies (``page.evaluation``, ``page.enrichment``, ``page.null``,
    ``page.stability_path``, ``page.error_control``), and the shared views below.
    """

    run: Any
    evaluation: pd.DataFrame | None = None
    #: :meth:`modelmine.MiningRun.enrichment` of the run (``enrichment.csv``), or None.
    enrichment: pd.DataFrame | None = None
    null: Any = None
    stability_path: Any = None
    error_control: Any = None
    title: str = "modelmine report"
    warnings: Sequence[str] | None = None
    lattice_explorer: bool = True
    significance: pd.DataFrame | bool | None = True
    given_markers: pd.DataFrame | None = None
    given_grid: tuple[pd.DataFrame, pd.DataFrame] | None = None
    extra_settings: Mapping[str, Any] = field(default_factory=dict)
    given_evaluation_command: str | None = None
    given_results: Sequence[OperatorResult] | None = None

    @classmethod
    def of_run(cls, run: Any, **studies: Any) -> Page:
        """The page of a :class:`modelmine.MiningRun`: its title from the data's file name,
        its markers and dot plot computed from the run when not given."""
        source = Path(str(run.data.get("source"))).name
        return cls(run=run, title=f"modelmine report: {source}", **studies)

    # ------------------------------------------------------------- the run
    @property
    def base(self) -> BaseModels:
        return self.run.base_models

    @property
    def from_run(self) -> bool:
        """Whether the page shows a whole run (not pieces given to build_report)."""
        return not isinstance(self.run, ReportRun)

    @cached_property
    def names(self) -> list[str]:
        return [str(n) for n in self.base.feature_names]

    @cached_property
    def frequency(self) -> np.ndarray:
        return np.asarray(self.base.subsets).mean(axis=0)

    @cached_property
    def results(self) -> list[OperatorResult]:
        """Each operator's signature(s), in the run's order."""
        if self.given_results is not None:
            return list(self.given_results)
        return [operator_result(name, sig) for name, sig in self.run.signatures.items()]

    @property
    def singles(self) -> list[OperatorResult]:
        return [r for r in self.results if r.kind == "single"]

    @property
    def multis(self) -> list[OperatorResult]:
        return [r for r in self.results if r.kind == "multi"]

    @property
    def consensus(self) -> OperatorResult | None:
        """The first single-model operator's result, the signature the page leads with."""
        return self.singles[0] if self.singles else None

    @cached_property
    def highlight(self) -> list[int]:
        """The consensus signature's feature indices (drawn in the accent colour)."""
        return ([int(f) for f in self.consensus.signatures[0].features]
                if self.consensus else [])

    @cached_property
    def diagnostics(self) -> pd.DataFrame:
        return self.run.diagnostics

    @cached_property
    def cautions(self) -> list[str]:
        if self.warnings is not None:
            return list(self.warnings)
        return trust_warnings(self.base, {r.operator: r.result for r in self.results},
                              diagnostics=self.diagnostics, null=self.null)

    @property
    def outcome_kind(self) -> OutcomeKind:
        """What the run's outcome is (:class:`~modelmine.outcomes.OutcomeKind`): the
        sections show classes, numbers or censored times by it."""
        return self.base.spec.outcome_kind

    # ------------------------------------------------------------- markers
    @cached_property
    def markers(self) -> pd.DataFrame | None:
        """Every operator's markers table, stacked (:func:`run_markers`)."""
        if self.given_markers is not None or not self.from_run:
            return self.given_markers
        return run_markers(self.run, self.null)

    @cached_property
    def marker_grid(self) -> tuple[pd.DataFrame, pd.DataFrame] | None:
        """The dot plot's data of a per-class run (:meth:`modelmine.MiningRun.marker_grid`)."""
        if self.given_grid is not None or not self.from_run:
            return self.given_grid
        if not self.run.class_signatures or self.run.expression is None:
            return None
        try:
            return self.run.marker_grid()
        except (DataError, ValueError):
            return None

    # ------------------------------------------------------------- itemsets
    @cached_property
    def itemset_test(self) -> pd.DataFrame | None:
        """Whether the itemsets beat chance: the table given, or
        :func:`modelmine.diagnostics.itemset_significance`'s default family (itemsets
        chosen on a random half of the base models and tested on the other half: issue
        39), or None (not asked, no itemsets, or fewer than 4 base models)."""
        if self.significance is False or self.run.itemsets is None:
            return None
        if isinstance(self.significance, pd.DataFrame):
            return self.significance
        if self.base.n_models < 4:  # two halves of two models at least: nothing to test
            return None
        from ..diagnostics import itemset_significance

        return itemset_significance(self.base, n_randomizations=REPORT_RANDOMIZATIONS,
                                    random_state=0)

    @cached_property
    def co_selection(self) -> pd.DataFrame | None:
        """Which itemsets are co-selected for real, for the lattice explorer's rings: the
        table given as ``significance`` when it is one of
        :func:`modelmine.diagnostics.self_sufficient_itemsets`, else that function's
        default (every itemset searched on all the base models, calibrated by swap
        randomisation, seed 0), or None (no explorer, tests not asked, no itemsets, or
        fewer than 4 base models)."""
        if (not self.lattice_explorer or self.significance is False
                or self.run.itemsets is None):
            return None
        if isinstance(self.significance, pd.DataFrame):
            given = self.significance
            return given if "self_sufficient" in given.columns else None
        if self.base.n_models < 4:
            return None
        from ..diagnostics import self_sufficient_itemsets

        return self_sufficient_itemsets(self.base, random_state=0)

    # ------------------------------------------------------------- studies
    @cached_property
    def evaluation_suggestion(self) -> Any:
        """How to add error vs stability to this report, when it has no evaluation
        (:func:`._studies.evaluation_suggestion`)."""
        from ._studies import WHAT, Suggestion, evaluation_suggestion

        if self.given_evaluation_command is not None:
            return Suggestion(f"{WHAT}:", self.given_evaluation_command)
        if not self.from_run:
            return Suggestion(f"{WHAT}:", "modelmine run DATA ... --evaluate --out DIR")
        return evaluation_suggestion(self.run)


def run_markers(run: Any, null: Any = None) -> pd.DataFrame | None:
    """Every operator's markers table of a :class:`modelmine.MiningRun`, stacked
    (:meth:`~modelmine.MiningRun.markers`): the pooled signatures' (with the q-values of
    ``null`` when given) and, for a per-class run, the per-class panels'; None without the
    run's expression values. What ``markers.csv`` holds and the report shows."""
    if run.expression is None:
        return None
    parts = []
    for name in run.signatures:
        with contextlib.suppress(DataError):  # no gene of it among the kept values
            parts.append(run.markers(name, null=null, per_class=False))
        if run.class_signatures:
            with contextlib.suppress(DataError, ValueError):
                parts.append(run.markers(name, per_class=True))
    return pd.concat(parts, ignore_index=True) if parts else None
