"""One model-mining run: bootstrap, mine, aggregate, diagnose, in one call and one object.

The whole flow of Woznica, Nguyen and Kalousis (KDD 2012, sections 2-3): a selector on b
resamples gives the base models (:func:`modelmine.bootstrap`); the registered operators turn
them into consensus and alternative signatures (:func:`modelmine.operators.apply_operators`);
the closed itemsets (section 2.1) and the diagnostics (stability of the base models,
Nogueira et al. 2018; diversity of the alternatives, KDD 2012 eq. 1) describe them.
:func:`run` returns it all as an immutable :class:`MiningRun`; :meth:`MiningRun.save` writes
the run directory that ``modelmine run`` writes, and :meth:`MiningRun.load` reads it back.
"""

from __future__ import annotations

import html
import os
import shutil
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp

from .._data import check_container
from .._doors import door
from .._files import atomic_directory, directory_lock
from .._progress import phase
from .._utils import frozen, jsonable, library_versions, positional_names
from ..base_models import (
    BaseModels,
    CheckedRun,
    RunDirectoryError,
    check_run_data,
    fit_base_models,
    fit_class_models,
)
from ..constants import LOW_DIMENSIONAL_P, default_n_features
from ..datasets import LoadedData
from ..datasets._multiomic import as_loaded
from ..exceptions import DataError
from ..operators import Signature, SignatureSet, apply_operators
from ..outcomes import DEFAULT_OUTCOME, outcome_kind
from ..patterns import ItemsetLattice, Itemsets, TooManyItemsetsError, mine_itemsets
from ..report import range_text, scaling_statement
from ..spec import DEFAULT_OPERATORS, RunSpec
from ..validation import param_error
from . import _store

__all__ = ["DEFAULT_OPERATORS", "MiningRun", "resume", "run"]

_FUNC = "run"


@dataclass(frozen=True, eq=False)
class MiningRun:
    """The result of :func:`run`: base models, signatures, itemsets and diagnostics. Immutable.

    Attributes
    ----------
    base_models : BaseModels
        The b base models (KDD 2012, section 2).
    signatures : mapping of str to Signature or SignatureSet
        One entry per operator, in the order asked: a :class:`~modelmine.Signature` for a
        single-model operator, a :class:`~modelmine.SignatureSet` of k alternatives for a
        multi-model one. Read-only.
    spec : RunSpec
        The settings of the run, the one record it holds (:class:`~modelmine.RunSpec`,
        with m capped at p, the seed resolved and the selector's parameters as fitted):
        the one the run was made with, or, for a run read from its directory, the one
        ``run.json`` stores. Workflows that refit derive theirs from it
        (``run.spec.replace(...)``). Never None: a custom selector read back from a file
        (its object is not stored) is held as a
        :class:`~modelmine.selectors.RecordedSelector`, which refuses to refit.
    data : mapping
        Where the data came from (``source``, ``format``, ``target``, ``storage``,
        ``n_samples``, ``n_features_in``). Read-only.
    command : tuple of str or None
        The command line that made the run, when it came from ``modelmine run``.
    versions : mapping
        Versions of modelmine and the libraries behind the results.
    expression : DataFrame or None
        The data of the report's expression section: one row per sample (index: sample
        IDs), the class label in the first column, then the values of the genes in any
        signature (at most ``EXPRESSION_MAX_GENES``, the most frequently selected first).
        None for runs read from directories written before it existed.
    class_signatures : mapping
        With ``per_class=True``: class label (as text) -> operator -> the signature of that
        class against the rest, from base models fitted on the run's own resamples (empty
        otherwise). Read-only.
    class_frequencies : DataFrame or None
        With ``per_class=True``: the selection frequency of every feature (rows) in the
        base models of each class against the rest (columns, the class labels as text).
    covariates : DataFrame or None
        With ``covariates=``: their encoded values per sample (a categorical covariate as
        indicators of its levels but the first), which :meth:`markers` adjusts for.
    effects_table : DataFrame or None
        Every tested feature's effect, p-value and q-value (:meth:`effects`); None for a
        run read from a directory written before ``effects.csv`` existed.
    design : mapping
        What the data brought (not a setting): the groups' sizes and checksum, the sample
        weights' use and range (``run.json`` records it under ``settings.design``).
    """

    base_models: BaseModels
    signatures: Mapping[str, Signature | SignatureSet]
    spec: RunSpec
    data: Mapping[str, Any]
    diagnostics_table: pd.DataFrame = field(repr=False)
    command: tuple[str, ...] | None = None
    versions: Mapping[str, str] = field(default_factory=dict)
    expression: pd.DataFrame | None = field(default=None, repr=False)
    class_signatures: Mapping[str, Mapping[str, Signature | SignatureSet]] = field(
        default_factory=dict, repr=False)
    class_frequencies: pd.DataFrame | None = field(default=None, repr=False)
    covariates: pd.DataFrame | None = field(default=None, repr=False)
    effects_table: pd.DataFrame | None = field(default=None, repr=False)
    design: Mapping[str, Any] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.base_models, BaseModels):
            raise param_error("base_models", "MiningRun", "a BaseModels",
                              type(self.base_models).__name__, exc=TypeError, show=False)
        sigs = dict(self.signatures)
        for name, sig in sigs.items():
            if not isinstance(sig, Signature | SignatureSet):
                raise param_error("signatures", "MiningRun", "a mapping of operator names to "
                                  "Signature or SignatureSet", f"{type(sig).__name__} for "
                                  f"{name!r}", exc=TypeError, show=False)
        object.__setattr__(self, "signatures", frozen(sigs))
        if not isinstance(self.spec, RunSpec):
            raise param_error("spec", "MiningRun", "a RunSpec", type(self.spec).__name__,
                              exc=TypeError, show=False)
        object.__setattr__(self, "data", frozen(jsonable(dict(self.data))))
        object.__setattr__(self, "design", frozen(jsonable(dict(self.design))))
        object.__setattr__(self, "versions", frozen(jsonable(dict(self.versions))))
        if self.command is not None:
            object.__setattr__(self, "command", tuple(str(c) for c in self.command))
        object.__setattr__(self, "diagnostics_table", self.diagnostics_table.copy())
        if self.expression is not None:
            object.__setattr__(self, "expression", self.expression.copy())
        object.__setattr__(self, "class_signatures", frozen(
            {str(c): frozen(dict(ops)) for c, ops in dict(self.class_signatures).items()}))
        if self.class_frequencies is not None:
            object.__setattr__(self, "class_frequencies", self.class_frequencies.copy())
        if self.covariates is not None:
            object.__setattr__(self, "covariates", self.covariates.copy())
        if self.effects_table is not None:
            object.__setattr__(self, "effects_table", self.effects_table.copy())

    # ------------------------------------------------------------------ views
    @property
    def settings(self) -> Mapping[str, Any]:
        """The record ``run.json`` stores: :meth:`RunSpec.to_settings` of :attr:`spec`,
        with what its base models resolved (the selector's record, the resampling's, m,
        the signatures' size) and :attr:`design`. A read-only view."""
        memo = self.__dict__.get("_settings")
        if memo is None:
            memo = frozen(jsonable(_store.run_settings(self.spec, self.base_models,
                                                       self.design)))
            object.__setattr__(self, "_settings", memo)
        return memo

    @property
    def diagnostics(self) -> pd.DataFrame:
        """Stability of the base models and diversity of each operator's alternatives.

        A copy: columns ``scope``, ``measure``, ``value``, ``ci_low``, ``ci_high``, ``note``
        (see :func:`modelmine.report.run_diagnostics`). The result objects behind the rows
        come from :meth:`stability` and :func:`modelmine.diagnostics.diversity`.
        """
        return self.diagnostics_table.copy()

    def stability(self, confidence_level: float = 0.95) -> Any:
        """Nogueira stability of the base models with variance and confidence interval.

        Nogueira, Sechidis and Brown (JMLR 2018), through
        :func:`modelmine.diagnostics.nogueira_stability`.
        """
        from ..diagnostics import nogueira_stability

        return nogueira_stability(self.base_models.subsets,
                                  confidence_level=confidence_level)

    @cached_property
    def _mined(self) -> tuple[Itemsets | None, str | None]:
        # The stored value as it is: an integer is a count of base models, a float a
        # fraction (float() would turn the count 1 into the fraction 1.0).
        return run_itemsets(self.base_models, self.settings["min_support"])

    @property
    def itemsets(self) -> Itemsets | None:
        """The closed itemsets of the base models at the run's ``min_support`` (KDD 2012,
        section 2.1), or None when they would exceed the mining guard (see
        :attr:`itemsets_note`)."""
        return self._mined[0]

    @property
    def itemsets_note(self) -> str | None:
        """Why :attr:`itemsets` is None, else None."""
        return self._mined[1]

    def lattice(self, min_support: float | None = None) -> ItemsetLattice:
        """The Hasse diagram of the closed itemsets (:class:`~modelmine.ItemsetLattice`).

        The lattice carries the run's signatures, so ``run.lattice().to_html(path)`` shows
        them in the explorer (``docs/lattice.md``).

        Parameters
        ----------
        min_support : float or int, optional
            Default: the run's ``min_support`` (its :attr:`itemsets` are reused).
        """
        if min_support is None:
            if self.itemsets is None:
                raise DataError(f"{self.itemsets_note} Pass a higher min_support to "
                                "MiningRun.lattice.")
            return ItemsetLattice(self.itemsets, signatures=self.signatures)
        return ItemsetLattice.from_base(self.base_models, min_support=min_support,
                                        signatures=self.signatures)

    @property
    def outcome(self) -> str:
        """What the run's y was: "classification", "regression" or "survival"."""
        return str(self.spec.outcome)

    @property
    def outcome_values(self) -> Any:
        """The outcome per sample from :attr:`expression`: the class labels, the values
        (regression), or the structured array of event and time (survival)."""
        if self.expression is None:
            return None
        return self.spec.outcome_kind.values_from(self.expression)

    def frequencies(self) -> pd.DataFrame:
        """Every feature with its selection frequency and mean rank, most frequent first."""
        return self.base_models.summary(top=self.base_models.n_features_in)

    def markers(self, operator: str | None = None, *, null: Any = None,
                effect: str = "auto", per_class: bool | None = None) -> pd.DataFrame:
        """Which gene of the signature marks which class: one row per gene and class.

        For the genes of ``operator``'s signature (of all its alternatives for a
        multi-model operator): the direction, effect size (log2 fold change for counts and
        raw intensities, else the standardised mean difference, named in
        ``effect_measure``), AUROC and class means of each class against the rest, the
        selection frequency with its Wilson interval over the b base models, the gene's
        rank within the class, and the q-value of a permutation null when ``null`` is
        given (:func:`modelmine.diagnostics.marker_table`, on the values the run keeps in
        :attr:`expression`). ``modelmine run`` writes it as ``markers.csv``.

        Parameters
        ----------
        operator : str, optional
            Default: the run's first operator.
        null : SelectionNullResult, optional
            A permutation null of the run (:func:`modelmine.evaluation.selection_null`)
            whose per-gene q-values fill the ``q_value`` column.
        effect : {"auto", "log2_fold_change", "standardized_mean_difference"}
        per_class : bool, optional
            The per-class panels: for each class, the genes of its own signature against
            the rest, with the selection frequency of the class's base models; one row per
            class and gene of its panel. Default: the panels for a run made with
            ``per_class=True`` (what it was asked for), else the pooled signature's
            markers; False gives the pooled ones of a per-class run, True refuses a run
            without panels. With covariates, pooled and per-class rows carry the
            adjusted odds ratio per SD of the class (against the rest) on the gene and
            the covariates (``adjusted_odds_ratio``, ``adjusted_or_low``,
            ``adjusted_or_high``, ``adjusted_p_value``).

        Returns
        -------
        pandas.DataFrame
            Columns as :func:`~modelmine.diagnostics.marker_table`, plus ``signature``
            (the operator) and ``panel`` (``"pooled"``, or ``"per_class"``).
        """
        from ..diagnostics import marker_table

        auto = effect == "auto"
        effect = self._effect_measure(effect)
        if per_class is None:
            per_class = bool(self.class_signatures)
        if per_class:
            if null is not None:
                raise param_error("null", "MiningRun.markers", "None for the per-class "
                                  "panels (the null is of the pooled selection; pass "
                                  "per_class=False)", type(null).__name__, show=False)
            return self._class_markers(operator, effect, auto=auto)
        name = self._markers_operator(operator)
        assert self.expression is not None
        kind = self.spec.outcome_kind
        lead = kind.columns
        kept = [g for g in _genes_of(self.signatures[name])
                if g in self.expression.columns and g not in lead]
        if not kept:
            raise DataError(f"None of the genes of {name!r} are among the values the run "
                            "keeps (MiningRun.expression).")
        base = self.base_models
        q = None
        if null is not None:
            table = null.to_frame()
            q = table["q_value"].reindex([str(f) for f in base.feature_names]).to_numpy()
        Z = None if self.covariates is None else self.covariates.to_numpy(np.float64)
        if not kind.classes:
            from ..diagnostics import outcome_marker_table

            frame = outcome_marker_table(
                self.expression[kept], self.outcome_values, kind,
                frequency=self._kept_values(base.subsets.mean(axis=0), kept),
                n_models=base.n_models,
                q_values=None if q is None else self._kept_values(q, kept), covariates=Z)
            frame = self._modality_markers(frame, None, None, auto=False)
            frame.insert(0, "signature", name)
            frame.insert(1, "panel", "pooled")
            return frame
        frame = marker_table(self.expression[kept], self.expression["class"].to_numpy(),
                             frequency=self._kept_values(base.subsets.mean(axis=0), kept),
                             n_models=base.n_models,
                             q_values=None if q is None else self._kept_values(q, kept),
                             effect=effect)
        frame = self._modality_markers(frame, self.expression[kept],
                                       self.expression["class"].to_numpy(), auto=auto)
        if Z is not None:
            from ..diagnostics._outcome_markers import adjusted_class_effects

            frame = frame.merge(adjusted_class_effects(
                self.expression[kept], self.expression["class"].to_numpy(), Z),
                on=["feature", "class"], how="left", sort=False)
        frame.insert(0, "signature", name)
        frame.insert(1, "panel", "pooled")
        return frame

    def effects(self) -> pd.DataFrame:
        """Every tested feature's effect, p-value and q-value: the table of a volcano plot.

        The markers' columns (:meth:`markers`: the same functions, so a signature gene's
        effect and p-value are its markers' ones) for every feature of the data, with
        ``q_value`` the Benjamini-Hochberg q-value over all of them (within each class):
        each class against the rest (log2 fold change or Hedges' g, AUROC, Mann-Whitney
        p), or Spearman's rho (regression), or the Cox hazard ratio per SD (survival);
        adjusted for the run's covariates as the markers are.
        (:func:`modelmine.diagnostics.effect_table`; ``effects.csv`` in the run
        directory.) A multi-omic run adds ``modality``.

        Returns
        -------
        pandas.DataFrame
            A copy.
        """
        if self.effects_table is None:
            raise DataError("This run directory predates effects.csv (every tested "
                            "feature's effect); run it again.")
        return self.effects_table.copy()

    def gene_lists(self) -> dict[str, list[str]]:
        """Every signature and per-class panel as a gene list, under the names of
        ``signatures.gmt`` and ``markers.gmt``: the operator (a consensus),
        ``OPERATOR_alt<i>`` (the i-th alternative), ``OPERATOR_CLASS`` (a class's panel)."""
        from ..report import signature_sets

        lists = {name: [str(g) for g in sig.names]
                 for name, sig in signature_sets(self.signatures)}
        for cls, ops in self.class_signatures.items():
            for name, sig in signature_sets(ops):
                lists[f"{name}_{cls}"] = [str(g) for g in sig.names]
        return lists

    def enrichment(self, gene_sets: Any, *, min_size: int = 1) -> pd.DataFrame:
        """Over-representation of each gene set in every signature and per-class panel.

        The universe is the features the run tested (its base models' features), and each
        set is restricted to it: hypergeometric p-value of the overlap, Benjamini-Hochberg
        q-value over the sets tested against each signature
        (:func:`modelmine.diagnostics.enrichment`; ``docs/biology.md``).

        Parameters
        ----------
        gene_sets : path-like or mapping of str to sequence of str
            A GMT file (MSigDB's hallmarks, a GO export: nothing is downloaded) or set
            name -> genes.
        min_size : int, default=1
            Sets with fewer genes among the tested ones are not tested.

        Returns
        -------
        pandas.DataFrame
            ``signature``, ``gene_set``, ``overlap``, ``signature_size``, ``set_size``,
            ``universe``, ``expected``, ``fold_enrichment``, ``p_value``, ``q_value``,
            ``genes``.
        """
        from ..datasets._genesets import gene_sets_of
        from ..diagnostics import enrichment

        sets = gene_sets_of(gene_sets, "MiningRun.enrichment")
        return enrichment(self.gene_lists(), sets,
                          [str(f) for f in self.base_models.feature_names],
                          min_size=min_size)

    def marker_grid(self, operator: str | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
        """The per-class panels as two genes x classes matrices, the data of a dot plot.

        Rows: the genes of every class's panel of ``operator`` (a run with
        ``per_class=True``); columns: the classes. ``effect``: each gene's effect size in
        each class against the rest (:func:`~modelmine.diagnostics.marker_table`);
        ``frequency``: how often the base models of each class selected it. A run adjusted
        for covariates gives the adjusted effect instead: the gene's log odds ratio per SD
        of being in the class, the covariates held fixed (Firth's estimate, as
        ``markers()`` reports it,
        ``diagnostics._outcome_markers.adjusted_class_effects``).

        Returns
        -------
        effect, frequency : pandas.DataFrame
        """
        from ..diagnostics import marker_table

        panels = self._class_markers(operator, "auto")
        genes = list(dict.fromkeys(panels.feature))
        assert self.expression is not None and self.class_frequencies is not None
        labels = self.expression["class"].to_numpy()
        if self.covariates is not None:
            from ..diagnostics._outcome_markers import adjusted_class_effects

            table = adjusted_class_effects(self.expression[genes], labels,
                                           self.covariates.to_numpy(np.float64),
                                           intervals=False)
            table["effect_size"] = np.log(table["adjusted_odds_ratio"].astype(float))
        else:
            table = marker_table(self.expression[genes], labels,
                                 effect=self._effect_measure("auto"))
        effect = table.pivot_table(index="feature", columns="class", values="effect_size",
                                   sort=False).reindex(genes)
        frequency = self.class_frequencies.loc[genes]
        frequency.columns = list(effect.columns)
        return effect, frequency

    def _class_markers(self, operator: str | None, effect: str, *,
                       auto: bool = False) -> pd.DataFrame:
        from ..diagnostics import marker_table

        if not self.class_signatures or self.class_frequencies is None:
            raise param_error("per_class", "MiningRun.markers", "False for a run without "
                              "per-class panels (run it with per_class=True)", True)
        name = self._markers_operator(operator)
        assert self.expression is not None
        labels = self.expression["class"].to_numpy()
        text = np.asarray([str(v) for v in labels])
        parts = []
        for cls, ops in self.class_signatures.items():
            kept = [g for g in _genes_of(ops[name]) if g in self.expression.columns]
            if not kept:
                continue
            inside = np.where(text == cls, cls, "rest")
            table = marker_table(self.expression[kept], inside,
                                 frequency=self.class_frequencies.loc[kept, cls].to_numpy(),
                                 n_models=self.base_models.n_models, effect=effect)
            table = self._modality_markers(table, self.expression[kept], inside, auto=auto)
            part = table[table["class"] == cls].copy()
            if self.covariates is not None:  # the class against the rest, adjusted
                from ..diagnostics._outcome_markers import adjusted_class_effects

                part = part.merge(adjusted_class_effects(
                    self.expression[kept], inside, self.covariates.to_numpy(np.float64),
                    classes=[cls]), on=["feature", "class"], how="left", sort=False)
            part["class"] = labels[text == cls][0]
            parts.append(part)
        frame = pd.concat(parts, ignore_index=True)
        frame.insert(0, "signature", name)
        frame.insert(1, "panel", "per_class")
        return frame

    def _modality_markers(self, frame: pd.DataFrame, values: pd.DataFrame | None,
                          labels: Any, *, auto: bool) -> pd.DataFrame:
        """Markers of a multi-omic run: each gene's ``modality`` (after ``feature``) and,
        for ``effect="auto"``, its effect in the measure its modality's values call for
        (the one :meth:`effects` reports: a log2 fold change for raw intensities, Hedges'
        g for log-scale values). Other runs' markers as they are."""
        blocks = self.base_models.modalities
        if not blocks:
            return frame
        from ..datasets._multiomic import modality_of

        frame = frame.copy()
        frame.insert(list(frame.columns).index("feature") + 1, "modality",
                     modality_of(frame["feature"], [k for k, _ in blocks]))
        table = self.effects_table
        if not auto or values is None or table is None or "effect_measure" not in table:
            return frame
        from ..diagnostics import marker_table

        measure_of = dict(zip(table["feature"].astype(str), table["effect_measure"],
                              strict=True))
        for measure in sorted({measure_of[f] for f in frame["feature"]} -
                              set(frame["effect_measure"])):
            genes = list(dict.fromkeys(f for f in frame["feature"] if measure_of[f] == measure))
            redo = marker_table(values[genes], labels, effect=measure).set_index(
                ["class", "feature"])
            rows = frame["feature"].isin(genes).to_numpy()
            keys = pd.MultiIndex.from_arrays([frame.loc[rows, "class"], frame.loc[rows,
                                                                                  "feature"]])
            frame.loc[rows, "effect_size"] = redo.loc[keys, "effect_size"].to_numpy()
            frame.loc[rows, "effect_measure"] = measure
        return frame

    def _effect_measure(self, effect: str) -> str:
        """The effect size of the class markers: the one asked, else (``"auto"``) the one
        the run decided on all its values (:meth:`effects`), so that a gene's markers and
        effects rows agree; the markers' own rule for runs without effects."""
        table = self.effects_table
        if (effect == "auto" and table is not None and len(table)
                and "auroc" in table.columns):
            return str(table["effect_measure"].iloc[0])
        return effect

    def _markers_operator(self, operator: str | None) -> str:
        """The operator whose markers are asked (default: the first), checked, and the
        expression values they are computed from, checked to be there."""
        name = next(iter(self.signatures)) if operator is None else operator
        if name not in self.signatures:
            raise param_error("operator", "MiningRun.markers", "one of the run's operators "
                              f"({', '.join(map(repr, self.signatures))})", operator)
        if self.expression is None:
            raise DataError("This run directory predates the expression values that "
                            "markers are computed from; run it again.")
        return name

    def _kept_values(self, values: np.ndarray, kept: list[str]) -> np.ndarray:
        index = {str(f): j for j, f in enumerate(self.base_models.feature_names)}
        return np.asarray([values[index[g]] for g in kept], dtype=np.float64)

    # ------------------------------------------------------------- files
    def save(self, path: str | os.PathLike[str], *, force: bool = False,
             report: bool = True, spreadsheet_safe: bool = True) -> Path:
        """Write the run directory (the format ``modelmine run --out DIR`` writes).

        The directory appears complete or not at all (written under a temporary name in
        the same parent, then renamed). See ``docs/DEVELOPING.md`` for its files.

        Parameters
        ----------
        path : path-like
        force : bool, default=False
            Replace an existing directory.
        report : bool, default=True
            Also write ``report.html``.
        spreadsheet_safe : bool, default=True
            In the CSV files meant for people (``frequencies.csv``, ``signatures/*.csv``,
            ``diagnostics.csv``, ``itemsets.csv``), a text cell that a spreadsheet would
            run as a formula (it starts with ``=``, ``+``, ``-``, ``@``) gets a leading
            apostrophe (OWASP's advice on CSV injection); False writes them as they are.
            The files modelmine reads back are exact either way.
        """
        with atomic_directory(path, force=force) as tmp:
            _store.write_run(self, tmp, with_report=report, spreadsheet_safe=spreadsheet_safe)
        return Path(path)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> MiningRun:
        """Read a run directory written by :meth:`save`, :func:`run` or ``modelmine run``."""
        return _store.read_run(Path(path), cls)

    def report(self, path: str | os.PathLike[str], *,
               evaluation: pd.DataFrame | None = None, null: Any = None,
               stability_path: Any = None, error_control: Any = None,
               figures_dir: str | os.PathLike[str] | None = None,
               enrichment: pd.DataFrame | None = None) -> Path:
        """Write the self-contained HTML report of the run to ``path``.

        Parameters
        ----------
        path : path-like
        evaluation : DataFrame, optional
            The ``evaluation.csv`` of ``modelmine evaluate`` (error vs stability per
            operator).
        null : SelectionNullResult, optional
            :func:`modelmine.evaluation.selection_null` of the run's base models: its band
            in the frequency plot, its q-values in the warnings.
        stability_path : StabilityPathResult, optional
            :func:`modelmine.diagnostics.stability_path`, plotted in the diagnostics.
        error_control : ErrorControlCheck, optional
            :func:`modelmine.evaluation.check_error_control` of the run: its statements
            on the first screen, its table in ``#error-control``.
        figures_dir : path-like, optional
            An existing directory that also receives every figure as SVG, PDF and PNG at
            300 dpi (for a paper).
        enrichment : DataFrame, optional
            :meth:`enrichment` of the run (the ``enrichment.csv`` of ``modelmine run
            --gene-sets``): the report's ``#enrichment`` section. Every run's report has
            ``#volcano``, from :meth:`effects`.
        """
        if enrichment is not None:
            from ..diagnostics._enrichment import ENRICHMENT_COLUMNS

            missing = [c for c in ENRICHMENT_COLUMNS
                       if not isinstance(enrichment, pd.DataFrame) or c not in enrichment]
            if missing:
                raise param_error("enrichment", "MiningRun.report", "the table of "
                                  "MiningRun.enrichment (columns " + ", ".join(
                                      ENRICHMENT_COLUMNS) + ")",
                                  type(enrichment).__name__ if not isinstance(
                                      enrichment, pd.DataFrame) else
                                  f"a table without {missing[0]!r}", exc=TypeError,
                                  show=False)
        return _store.write_report(self, Path(path), evaluation=evaluation, null=null,
                                   stability_path=stability_path,
                                   error_control=error_control, figures_dir=figures_dir,
                                   enrichment=enrichment)

    def warnings(self, null: Any = None) -> list[str]:
        """What not to trust in this run, in plain words with the numbers
        (:func:`modelmine.report.trust_warnings`): poor stability of the base models,
        error-controlled operators letting fewer features through than the signatures
        hold, features no more frequent than under a permutation ``null``."""
        from ..report import trust_warnings

        return trust_warnings(self.base_models, self.signatures,
                              diagnostics=self.diagnostics_table, null=null)

    # ------------------------------------------------------------- display
    def __eq__(self, other: object) -> bool:
        """Same base models, signatures (features, scores, provenance), settings, data and
        diagnostics."""
        if not isinstance(other, MiningRun):
            return NotImplemented
        return (self.base_models == other.base_models
                and list(self.signatures) == list(other.signatures)
                and all(self.signatures[k].to_dict() == other.signatures[k].to_dict()
                        for k in self.signatures)
                and jsonable(self.settings) == jsonable(other.settings)
                and jsonable(self.data) == jsonable(other.data)
                and _same_table(self.diagnostics_table, other.diagnostics_table))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        ops = ", ".join(self.signatures)
        return (f"MiningRun(selector={self.settings.get('selector')!r}, "
                f"n_bootstraps={self.base_models.n_models}, "
                f"n_features_in={self.base_models.n_features_in}, operators=[{ops}])")

    def _repr_html_(self) -> str:
        base = self.base_models
        e = html.escape
        rows = []
        for name, sig in self.signatures.items():
            sigs = [sig] if isinstance(sig, Signature) else list(sig)
            shown = ", ".join(sigs[0].names[:8].tolist()) + (" ..." if len(sigs[0]) > 8 else "")
            what = "consensus" if isinstance(sig, Signature) else f"{len(sigs)} alternatives"
            rows.append(f"<tr><td>{e(name)}</td><td>{e(what)}</td><td>{len(sigs[0])}</td>"
                        f"<td>{e(shown)}</td></tr>")
        stab = self.diagnostics_table
        nog = stab[stab["measure"] == "nogueira"]
        line = ""
        if len(nog):
            r = nog.iloc[0]
            line = (f"<p>Stability of the base models (Nogueira): <b>{r['value']:.3f}</b> "
                    f"[95% CI {r['ci_low']:.3f}, {r['ci_high']:.3f}]</p>")
        return (f"<div><p><b>MiningRun</b>: {base.n_models} base models of "
                f"{e(str(self.settings.get('selector')))} on {base.n_samples} samples x "
                f"{base.n_features_in} features (seed {base.random_state})</p>{line}"
                "<table><thead><tr><th>operator</th><th>output</th><th>size</th>"
                f"<th>features</th></tr></thead><tbody>{''.join(rows)}</tbody></table></div>")


def _same_table(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    if list(a.columns) != list(b.columns) or len(a) != len(b):
        return False
    for col in a.columns:
        x, y = a[col].to_numpy(), b[col].to_numpy()
        if x.dtype.kind == "f" or y.dtype.kind == "f":
            if not np.array_equal(x.astype(float), y.astype(float), equal_nan=True):
                return False
        elif not (a[col].astype(str).to_numpy() == b[col].astype(str).to_numpy()).all():
            return False
    return True


def run_itemsets(base: BaseModels, min_support: float) -> tuple[Itemsets | None, str | None]:
    """The closed itemsets a run shows (KDD 2012, section 2.1), or why there are none.

    When the ``max_itemsets`` guard of :func:`modelmine.mine_itemsets` finds that they would
    explode at this support (univariate selectors with a large m), the run keeps everything
    else and says why.
    """
    phase("mining: the closed itemsets of the %d base models at minimum support %g",
          base.n_models, min_support)
    try:
        return mine_itemsets(base, itemset_type="closed", min_support=min_support), None
    except TooManyItemsetsError as exc:
        return None, (f"Not mined at minimum support {min_support:g}: {exc} Use a higher "
                      "min_support (`modelmine lattice DIR --min-support S`).")


#: The most genes :attr:`MiningRun.expression` keeps for the report (a heat map of more
#: columns is unreadable, and the run directory stays small).
EXPRESSION_MAX_GENES = 200


def _genes_of(result: Signature | SignatureSet) -> list[str]:
    """The genes of a signature, or of every alternative of a set, each once, in order."""
    genes: list[str] = []
    for sig in [result] if isinstance(result, Signature) else list(result):
        genes += [str(g) for g in sig.names if str(g) not in genes]
    return genes


def signature_expression(X: Any, y: Any, base: BaseModels,
                         signatures: Mapping[str, Signature | SignatureSet],
                         sample_names: Any = None,
                         outcome: Any = DEFAULT_OUTCOME) -> pd.DataFrame:
    """The values of the signatures' genes per sample, with the outcome first (the class;
    the value; or the time and the event indicator: the outcome kind's
    :attr:`~modelmine.outcomes.OutcomeKind.columns`).

    The genes of every signature, the most frequently selected first (ties: mean rank,
    then index), at most :data:`EXPRESSION_MAX_GENES` beyond those of the single-model
    signatures (all kept, so that :meth:`MiningRun.markers` covers every consensus and
    per-class panel).
    """
    if isinstance(X, LoadedData):
        X, y, sample_names = X.X, X.y, X.sample_names
    chosen = sorted({int(f) for sig in signatures.values()
                     for one in ([sig] if isinstance(sig, Signature) else list(sig))
                     for f in one.features})
    freq = base.subsets.mean(axis=0)
    rank = base.tied_ranks().mean(axis=0, dtype=np.float64)
    chosen.sort(key=lambda j: (-freq[j], rank[j], j))
    single = {int(f) for sig in signatures.values() if isinstance(sig, Signature)
              for f in sig.features}
    cap = max(EXPRESSION_MAX_GENES, len(single))
    first = [j for j in chosen if j in single] + [j for j in chosen if j not in single]
    kept = set(first[:cap])
    cols = np.asarray([j for j in chosen if j in kept], dtype=np.int64)
    matrix: Any = (X.to_numpy() if isinstance(X, pd.DataFrame)
                   else X if sp.issparse(X) else np.asarray(X))
    block = matrix[:, cols]
    block = block.toarray() if sp.issparse(block) else np.asarray(block, dtype=np.float64)
    index = (pd.Index([str(s) for s in sample_names], name="sample")
             if sample_names is not None else pd.RangeIndex(block.shape[0], name="sample"))
    frame = pd.DataFrame(block, index=index,
                         columns=[str(base.feature_names[j]) for j in cols])
    lead = outcome_kind(outcome, func=_FUNC).target_columns(y)
    for at, (name, values) in enumerate(lead.items()):
        frame.insert(at, name, values)
    return frame


def _describe(X: Any, y: Any, source: LoadedData | None) -> dict[str, Any]:
    described: dict[str, Any]
    if source is not None:
        described = {"source": source.source, "format": source.format,
                     "target": source.target}
        if source.layer is not None:
            described["layer"] = source.layer
        if source.labels is not None:
            described["labels"] = source.labels
        if source.read_options:
            described["read_options"] = dict(source.read_options)
        if source.modalities:  # multi-omic: the blocks, in column order
            described["modalities"] = {k: v for k, v in source.modalities}
    else:
        described = {"source": type(X).__name__, "format": "python", "target": None}
    described["storage"] = "sparse" if sp.issparse(X) else "dense"
    described["n_samples"], described["n_features_in"] = (int(s) for s in X.shape)
    described["values"] = values_statement(X)
    if source is not None and len(source.modalities) > 1:  # each block on its own scale
        start, parts = 0, []
        for name, size in source.modalities:
            parts.append(f"{name}: {values_statement(X[:, start:start + size])}")
            start += size
        described["values"] = "; ".join(parts)
    return described


def values_statement(X: Any) -> str:
    """What the values look like, in words: raw intensities or counts (non-negative with a
    maximum above 100, the report's rule for its heat map), or log-scale / centred values,
    with their range."""
    if sp.issparse(X):
        stored = sp.csr_matrix(X).data
        low = min(float(stored.min()), 0.0) if stored.size else 0.0
        high = max(float(stored.max()), 0.0) if stored.size else 0.0
    else:
        arr = X.to_numpy() if isinstance(X, pd.DataFrame) else np.asarray(X)
        low, high = (float(arr.min()), float(arr.max())) if arr.size else (0.0, 0.0)
        if arr.ndim == 2 and 0 < arr.shape[1] < LOW_DIMENSIONAL_P and arr.shape[0]:
            raw = (arr.min(axis=0) >= 0) & (arr.max(axis=0) > 100)
            if (raw.any() and not raw.all()) or len(_column_kinds(arr)) >= 2:
                # a clinical table: each variable on its own scale (age, blood pressure,
                # 0/1 indicators), neither intensities nor log-scale values
                return mixed_statement(arr, low, high)
    if low >= 0 and high > 100:
        return (f"raw intensities or counts (non-negative, {range_text(low, high)}): the "
                "report draws them on a log scale")
    return f"log-scale or centred values ({range_text(low, high)})"


def _column_kinds(arr: np.ndarray) -> dict[str, int]:
    """How many columns are binary, take few (at most 10) integer values, or are
    continuous (the kinds present only)."""
    out: dict[str, int] = {}
    for j in range(arr.shape[1]):
        col = np.asarray(arr[:, j], dtype=np.float64)
        distinct = np.unique(col)
        kind = ("binary" if distinct.size <= 2 else "with few integer values"
                if np.all(col == np.round(col)) and distinct.size <= 10 else "continuous")
        out[kind] = out.get(kind, 0) + 1
    return out


def mixed_statement(arr: np.ndarray, low: float, high: float) -> str:
    """The values of a low-dimensional table, described per column: how many are 0/1
    indicators, how many take few integer values, how many are continuous."""
    counts = _column_kinds(arr)
    kinds = [f"{counts[what]} {what}" for what in ("continuous", "with few integer values",
                                                    "binary") if what in counts]
    return (f"{arr.shape[1]} variables on their own scales ({', '.join(kinds)}; "
            f"{range_text(low, high)} overall), as a clinical table: no log scale is "
            "assumed, and the report z-scores each variable")


@door("run")
def run(
    X: Any,
    y: Any = None,
    *,
    feature_names: Any = None,
    n_jobs: int | None = None,
    executor: Any = None,
    run_dir: str | os.PathLike[str] | None = None,
    checkpoint_every: int = 10,
    progress: bool | None = None,
    command: Sequence[str] | None = None,
    groups: Any = None,
    sample_weight: Any = None,
    covariates: Any = None,
    spec: RunSpec,
) -> MiningRun:
    """Mine the models of a feature selector: base models, signatures, itemsets, diagnostics.

    The model-mining flow of Woznica, Nguyen and Kalousis (KDD 2012, sections 2-3) in one
    call: ``selector`` on ``n_bootstraps`` resamples (:func:`modelmine.bootstrap`), each
    operator on the base models (:func:`modelmine.operators.apply_operators`), the closed
    itemsets at ``min_support`` and the diagnostics (Nogueira stability with its confidence
    interval, Nogueira et al. 2018; diversity of alternatives, KDD 2012 eq. 1).

    Parameters
    ----------
    X : array-like, DataFrame, sparse matrix, AnnData, or LoadedData
        The data (n_samples x p), an ``anndata.AnnData`` (observations = samples, its
        ``var_names`` the feature names; see :func:`modelmine.datasets.from_anndata` for a
        layer), or what :func:`modelmine.datasets.read_data` returned (then ``y`` and the
        feature names come with it).
    y : array-like of shape (n_samples,), or str, optional
        Class labels; required unless ``X`` is a LoadedData. For an AnnData,
        ``"obs:COLUMN"`` names a column of its ``obs``. A continuous target is refused
        unless ``outcome`` says what it is (:func:`modelmine.datasets.check_target`).
    **settings
    feature_names : sequence of str, optional
        As in :func:`modelmine.bootstrap`.
    n_jobs, executor : optional
        Workers for the bootstrap (joblib) or a Dask client / scheduler address. Results
        do not depend on them.
    run_dir : path-like, optional
        Checkpoint the run here while it works (settings, then every
        ``checkpoint_every`` bootstraps); when it finishes the directory holds the saved
        run (as :meth:`MiningRun.save`). A killed run continues with :func:`resume`,
        bit-identical to an uninterrupted one.
    checkpoint_every : int, default=10
    progress : bool or None
        Progress bar (None: when stderr is a terminal).
    command : sequence of str, optional
        The command line to record in ``run.json`` (``modelmine run`` passes its own).
    groups : array-like of shape (n_samples,), or str, optional
        The unit each sample belongs to (patient, donor, batch): every resampling scheme
        draws whole groups (:func:`modelmine.bootstrap`; ``docs/groups.md``). For an
        AnnData, ``"obs:COLUMN"``; a LoadedData read with ``groups=`` brings its own.
        ``run.json`` records the number of groups and a checksum.
    sample_weight : array-like of shape (n_samples,), or str, optional
        Sample weights, given to the selector on each resample (selectors that take them:
        :func:`modelmine.selectors.weighted_selectors`) or, with ``weighted_resampling``,
        drawing the resamples. ``"obs:COLUMN"`` for an AnnData.
    covariates : DataFrame, mapping, or sequence of str, optional
        Clinical covariates (age, sex, stage, batch) the run adjusts for: a DataFrame of
        one row per sample (numeric columns as they are, text columns one-hot), or the
        names of columns of X (a DataFrame or a LoadedData; they are then not features).
        Missing values are refused. They travel with the rows of every resample and enter
        the fit where the model allows: survival ``cox-score`` (the score test adjusted for
        them) and ``coxnet`` (unpenalised); every regression selector (y and the genes
        replaced by their residuals on them); not the classification selectors. The
        markers report effects adjusted for them (hazard ratio, regression slope, odds
        ratio per SD). Their names are the run's ``covariates`` setting (recorded in
        ``run.json``); ``docs/outcomes.md``.

    Returns
    -------
    MiningRun

    Examples
    --------
    >>> import modelmine as mm
    >>> X, y = mm.datasets.load_colon()
    >>> r = mm.run(X, y, selector="anova", operators=["closedApr", "allMed"],
    ...            n_bootstraps=20, n_features=10, n_signatures=3, random_state=0)
    >>> len(r.signatures["closedApr"]), len(r.signatures["allMed"])
    (10, 3)
    """
    if not isinstance(X, LoadedData):  # before any work: a mapping's names and tables too
        check_container(X, "X", _FUNC, loaded=True)
    # a MuData, or a mapping of modality names to tables: one LoadedData (issue 51)
    X, y, groups, sample_weight = as_loaded(X, y, groups, sample_weight)
    groups, sample_weight = _design_columns(X, groups, sample_weight)
    X, y, source, feature_names = _data(X, y, feature_names, spec.outcome)
    X, feature_names, covs = take_covariates(X, covariates, spec.covariates, source,
                                             feature_names)
    if covs is not None and tuple(spec.covariates) != covs.sources:
        spec = spec.replace(func=_FUNC, covariates=covs.sources)
    X, feature_names, mapped = map_features(X, feature_names, spec, source)
    return _execute(X, y, spec, Execution(n_jobs=n_jobs, executor=executor,
                                          run_dir=run_dir, checkpoint_every=checkpoint_every,
                                          progress=progress, command=command),
                    source=source, feature_names=feature_names, resuming=False,
                    groups=groups, sample_weight=sample_weight, covariates=covs,
                    mapped=mapped)


def map_features(X: Any, feature_names: Any, spec: RunSpec, source: LoadedData | None,
                 func: str = _FUNC) -> tuple[Any, Any, str | None]:
    """The data with their probes mapped to genes and collapsed (the spec's
    ``feature_map``, ``collapse``, ``unmapped``), and what was done, in words (None
    without a map)."""
    gene_map = spec.feature_map
    if gene_map is None:
        return X, feature_names, None
    from ..datasets._genemap import collapse_features, feature_map_statement

    names = feature_names
    if names is None:
        names = ([str(c) for c in X.columns] if isinstance(X, pd.DataFrame)
                 else positional_names(X.shape[1]).tolist())
    out, genes, record = collapse_features(X, names, gene_map, rule=spec.collapse,
                                           unmapped=spec.unmapped, func=func)
    where = ("the map given" if spec.feature_map_columns is None else
             f"the map's columns {spec.feature_map_columns[0]!r} -> "
             f"{spec.feature_map_columns[1]!r}")
    return out, genes, feature_map_statement(record, where)


def take_covariates(X: Any, covariates: Any, names: Sequence[str],
                    source: LoadedData | None, feature_names: Any,
                    func: str = _FUNC) -> tuple[Any, Any, Any]:
    """The covariates of a run, checked and encoded, and X without them
    (:func:`modelmine.outcomes._covariates.take_covariates`, with those a LoadedData was
    read with).

    Returns
    -------
    X, feature_names, Covariates or None
    """
    from ..outcomes._covariates import take_covariates as take

    return take(X, covariates, names, feature_names,
                read=None if source is None else source.covariates, func=func)


def _design_columns(X: Any, groups: Any, sample_weight: Any) -> tuple[Any, Any]:
    """The groups and weights of a run: as given, ``"obs:COLUMN"`` of an AnnData, or those
    a LoadedData was read with."""
    from ..datasets._biodata import design_column, is_anndata, split_obs_target

    out = []
    for option, value in (("groups", groups), ("sample_weight", sample_weight)):
        if isinstance(value, str):
            if not is_anndata(X):
                raise param_error(option, _FUNC, "an array-like of one value per sample "
                                  "('obs:COLUMN' names a column of an AnnData's obs)", value)
            col = split_obs_target(value) or value
            if col not in X.obs.columns:
                raise param_error(option, _FUNC, "a column of the AnnData's obs",
                                  f"obs:{col}", show=False)
            value = design_column(X.obs[col], f"{option} obs:{col}", "the AnnData",
                                  numeric=option == "sample_weight")
        elif value is None and isinstance(X, LoadedData):
            value = X.groups if option == "groups" else X.sample_weight
        out.append(value)
    return out[0], out[1]


@dataclass(frozen=True)
class Execution:
    """How a run is carried out, as opposed to what it computes (:class:`RunSpec`):
    workers, executor, checkpoints, progress, and the command line to record. Results
    never depend on it."""

    n_jobs: int | None = None
    executor: Any = None
    run_dir: str | os.PathLike[str] | None = None
    checkpoint_every: int = 10
    progress: bool | None = None
    command: Sequence[str] | None = None


def _data(X: Any, y: Any, feature_names: Any, outcome: Any = DEFAULT_OUTCOME
          ) -> tuple[Any, Any, LoadedData | None, Any]:
    """The doors' data: an AnnData, a LoadedData, or X and y; continuous targets refused
    for an outcome of classes."""
    from ..datasets import check_target, from_anndata
    from ..datasets._biodata import is_anndata

    classes = outcome_kind(outcome, func=_FUNC).classes
    if not isinstance(X, LoadedData):  # a foreign container: refused before any work
        check_container(X, "X", _FUNC, loaded=True)
    if isinstance(X, list | tuple):  # rows of values (checked): the array the run reads
        X = np.asarray(X)
    if y is not None:
        check_container(y, "y", _FUNC, target=True)
    if is_anndata(X):
        if y is None:
            raise param_error("y", _FUNC, "the labels, or 'obs:COLUMN' for a column of the "
                              "AnnData's obs", None)
        X, y = from_anndata(X, y), None
        if classes:  # a continuous obs column: say how to ask for it
            check_target(X.y, where=f"({X.target} of the AnnData)", option="y")
    source = X if isinstance(X, LoadedData) else None
    if source is not None:
        if y is not None:
            raise param_error("y", _FUNC, "None when X is a LoadedData (it holds the labels)",
                              type(y).__name__, show=False)
        X, y = source.X, source.y
        feature_names = source.feature_names if feature_names is None else feature_names
    elif y is None:
        raise param_error("y", _FUNC, "the class labels (array-like of shape (n_samples,))",
                          None)
    elif classes:
        check_target(y, where="(the labels)", option="y")
    return X, y, source, feature_names


def _execute(X: Any, y: Any, spec: RunSpec, execution: Execution, *,
             source: LoadedData | None, feature_names: Any, resuming: bool,
             groups: Any = None, sample_weight: Any = None,
             covariates: Any = None, mapped: str | None = None) -> MiningRun:
    if not spec.operators:
        raise param_error("operators", _FUNC, "at least one operator name", "none",
                          show=False)
    # Everything that can be checked before the first fit is checked before anything is
    # written: a run refused here leaves nothing behind.
    checked = check_run_data(X, y, spec, feature_names=feature_names,
                             n_jobs=execution.n_jobs, func=_FUNC, groups=groups,
                             sample_weight=sample_weight,
                             modalities=() if source is None else source.modalities)
    lead = spec.outcome_kind.columns
    taken = sorted(set(lead) & {str(f) for f in checked.data.feature_names})
    if taken:  # the expression table leads with these columns (expression.csv.gz)
        raise param_error("feature_names", _FUNC, "names other than "
                          f"{', '.join(map(repr, lead))}, the "
                          f"outcome's columns of the run's expression table",
                          f"a feature named {taken[0]!r} (rename it)", show=False)
    if covariates is not None:
        checked = _with_covariates(checked, covariates)
    described = _describe(X, y, source)
    described["scaling"] = scaling_statement(checked.spec)
    if source is not None and len(source.modalities) > 1 and checked.spec.scale == "none" \
            and not any(getattr(s, "scale", "none") == "minmax" for s in checked.spec.selectors):
        described["scaling"] += (
            "; each modality keeps its own scale (the values above): a "
            "selector that weighs features by their units (a penalised regression, an SVM "
            "without its own scaling) favours one block; scale='standard' gives each "
            "feature unit variance inside each resample (docs/biology.md, measured)")
    p = checked.data.n_features_in
    if p < LOW_DIMENSIONAL_P and checked.spec.n_features == default_n_features(p):
        described["m"] = (f"{checked.spec.n_features} = round(p / 3), the default m for data "
                          f"of fewer than {LOW_DIMENSIONAL_P} features (m = 20 would take "
                          "nearly every variable in every model)")
    if covariates is not None:
        described["covariates"] = covariates_statement(checked, covariates)
    if mapped is not None:
        described["feature_map"] = mapped
    directory = None if execution.run_dir is None else Path(execution.run_dir)
    if directory is None:
        return _mine(X, y, checked, execution, directory=None, resuming=resuming,
                     described=described, source=source)

    with directory_lock(directory):
        existed = directory.exists()
        if not resuming:
            try:
                # Everything a resume needs, before the first fit: the specification (with
                # its resolved seed, the run's one record of it) and the data's description.
                _store.start_checkpoint(directory, {
                    **checked.spec.to_settings(),
                    "checkpoint_every": execution.checkpoint_every},
                    described, None if execution.command is None else list(execution.command))
            except BaseException:
                if not existed:  # even the record could not be written: leave nothing
                    shutil.rmtree(directory, ignore_errors=True)
                raise
        else:  # a damaged bootstrap manifest: its chunks are refitted from the seed
            _store.damaged_bootstraps(directory)
        try:
            return _mine(X, y, checked, execution, directory=directory, resuming=resuming,
                         described=described, source=source)
        except BaseException as exc:
            if not resuming and _store.discard_unstarted(directory, existed):
                raise
            saved = _store.saved_bootstraps(directory)
            if isinstance(exc, RunDirectoryError):  # the checkpoint itself: resume fails again
                _add_note(exc, f"The checkpoint in {str(directory)!r} cannot be continued "
                          "(modelmine.resume would fail the same way); remove it and run "
                          "again to start over.")
            elif (directory / _store.CHECKPOINT).exists():
                _add_note(exc, f"The run stopped; {saved} of {spec.n_bootstraps} bootstraps "
                          f"are saved in {str(directory)!r}: continue it with "
                          f"modelmine.resume({str(directory)!r}, X, y).")
            raise


def _with_covariates(checked: CheckedRun, covariates: Any) -> CheckedRun:
    """The checked run with its covariates, refused where no fit could use them as asked
    (before the first fit)."""
    import dataclasses

    design = checked.design
    if design.sample_weight is not None and not design.weighted_resampling:
        raise param_error("covariates", _FUNC, "no covariates with sample weights given to "
                          "the selector (pass weighted_resampling=True to draw the "
                          "resamples by weight instead)", list(covariates.sources),
                          show=False)
    from ..outcomes._covariates import check_not_explained

    kind = checked.spec.outcome_kind
    check_not_explained(covariates.values, checked.data.y if kind.classes
                        else checked.data.target, kind, func=_FUNC)
    checked = dataclasses.replace(checked, covariates=covariates)
    checked.selectors  # noqa: B018  (refuses a selector that cannot take them, now)
    return checked


def covariates_statement(checked: CheckedRun, covariates: Any) -> str:
    """Which covariates the run adjusts for, and where they enter, in words."""
    names = ", ".join(covariates.sources)
    encoded = ("" if list(covariates.columns) == list(covariates.sources) else
               f" (encoded as {', '.join(covariates.columns)})")
    kind = checked.spec.outcome_kind
    names_of = [s.name for s in checked.spec.selectors]
    sel = ", ".join(names_of)
    how = {"cox-score": "cox-score's score test of each gene", "coxnet": "coxnet, "
           "unpenalised, so in every model of its path"}
    from ..selectors._covariates import CLASS_ADJUSTMENT

    ways = {"unpenalised": "the covariates unpenalised in its penalised logistic "
                           "regression", "ancova": "the analysis of covariance of each "
                           "gene on the classes and them", "residuals": "each gene "
                           "replaced by its residuals on them, in each resample"}
    classes = [f"{n} ({ways[CLASS_ADJUSTMENT[n][0]]})" if n in CLASS_ADJUSTMENT else
               f"not {n} (a selector modelmine cannot adjust)" for n in names_of]
    if kind.classes:
        where, effect = "in every fit of " + "; ".join(classes), "odds ratios"
    elif kind.censored:
        where = "in every fit of " + "; ".join(how.get(n, n) for n in names_of)
        effect = "hazard ratios"
    else:  # numbers: every selector on residuals
        where = (f"in every fit of {sel} (y and each gene replaced by their residuals on "
                 "them, in each resample)")
        effect = "slopes"
    return (f"{names}{encoded}: adjusted for {where}, and in the markers' {effect} per SD "
            "(the gene and the covariates in one model)")


def _add_note(exc: BaseException, note: str) -> None:
    if hasattr(exc, "add_note"):  # Python 3.11+
        exc.add_note(note)


def _mine(X: Any, y: Any, checked: CheckedRun, execution: Execution, *,
          directory: Path | None, resuming: bool, described: dict[str, Any],
          source: LoadedData | None) -> MiningRun:
    spec = checked.spec
    with warnings.catch_warnings():  # run() has warned already (n_jobs above the cores)
        warnings.filterwarnings("ignore", category=UserWarning, message="n_jobs=")
        # equal scores are the run's caution (MiningRun.warnings), said once
        warnings.filterwarnings("ignore", category=RuntimeWarning,
                                message=r"bootstrap: \d+ of the \d+ base models scored")
        base = fit_base_models(
            checked, executor=execution.executor,
            run_dir=None if directory is None else directory / _store.BOOTSTRAPS,
            resume=resuming, checkpoint_every=execution.checkpoint_every,
            progress=execution.progress)
    # the run's spec as its base models resolved it (the selector's parameters as fitted,
    # the signatures' size): the one run.json stores, the same after MiningRun.load
    spec = _store.resolved_spec(spec, base, _FUNC)
    design = {} if checked.design.empty else checked.design.describe()
    phase("operators: %s on the %d base models", ", ".join(spec.operator_kinds),
          base.n_models)
    signatures = apply_operators(base, spec.operator_kinds, n_features=spec.signature_size,
                                 n_signatures=spec.n_signatures, params=spec.operator_params)
    class_signatures: dict[str, Any] = {}
    class_frequencies = None
    if spec.per_class:
        class_models = fit_class_models(checked, executor=execution.executor,
                                        progress=execution.progress)
        freqs = {}
        for label, models in class_models.items():
            class_signatures[str(label)] = apply_operators(
                models, spec.operator_kinds, n_features=spec.signature_size,
                n_signatures=spec.n_signatures, params=spec.operator_params)
            freqs[str(label)] = models.subsets.mean(axis=0)
        class_frequencies = pd.DataFrame(freqs, index=pd.Index(
            [str(f) for f in base.feature_names], name="feature"))
    from ..report import run_diagnostics

    phase("diagnostics: the stability, diversity and agreement of the signatures")
    target = y if checked.data.target is None else checked.data.target
    result = MiningRun(base_models=base, signatures=signatures, spec=spec,
                       data=described, diagnostics_table=run_diagnostics(base, signatures),
                       command=None if execution.command is None else tuple(execution.command),
                       versions=library_versions(),
                       expression=signature_expression(
                           X, target,
                           base, {**signatures, **{
                               f"{c}:{op}": sig for c, ops in class_signatures.items()
                               for op, sig in ops.items()}},
                           None if source is None else source.sample_names,
                           outcome=spec.outcome),
                       class_signatures=class_signatures,
                       class_frequencies=class_frequencies,
                       covariates=_covariate_frame(checked, source), design=design,
                       effects_table=run_effects(X, target, base, spec.outcome,
                                                 checked.covariates))
    if directory is not None:
        _store.finish_checkpoint(result, directory)
    return result


def run_effects(X: Any, y: Any, base: BaseModels, outcome: str,
                covariates: Any = None) -> pd.DataFrame:
    """Every feature's effect, p- and q-value (:func:`modelmine.diagnostics.effect_table`)
    on the run's data, under the base models' feature names."""
    from ..diagnostics import effect_table

    phase("effects: every feature's effect, p- and q-value")
    if isinstance(X, LoadedData):
        X, y = X.X, X.y
    labels = y.to_numpy() if isinstance(y, pd.Series) else y
    matrix = X.to_numpy(dtype=np.float64) if isinstance(X, pd.DataFrame) else X
    return effect_table(matrix, labels, outcome,
                        feature_names=[str(f) for f in base.feature_names],
                        covariates=None if covariates is None else covariates.values,
                        modalities=base.modalities or None)


def _covariate_frame(checked: CheckedRun, source: LoadedData | None) -> pd.DataFrame | None:
    covs = checked.covariates
    if covs is None:
        return None
    names = None if source is None else source.sample_names
    index = (pd.Index([str(s) for s in names], name="sample") if names is not None
             else pd.RangeIndex(covs.values.shape[0], name="sample"))
    return pd.DataFrame(covs.values, index=index, columns=list(covs.columns))


def resume(run_dir: str | os.PathLike[str], X: Any, y: Any = None, *, selector: Any = None,
           feature_names: Any = None, n_jobs: int | None = None, executor: Any = None,
           progress: bool | None = None, groups: Any = None,
           sample_weight: Any = None, covariates: Any = None) -> MiningRun | BaseModels:
    """Continue an interrupted run: the one door for every kind of checkpoint.

    A directory that :func:`run` was checkpointing into (``checkpoint.json``) gives the
    :class:`MiningRun`; one that :func:`modelmine.bootstrap` was recording into
    (``manifest.json``) gives the :class:`~modelmine.BaseModels` (through
    :func:`modelmine.base_models.resume`, the bootstrap stage's own). The settings are the
    recorded :class:`~modelmine.RunSpec` (with its seed); the data must be the run's
    (checked by fingerprint). The result is bit-identical to an uninterrupted run (a
    killed run loses at most ``checkpoint_every`` bootstraps).

    Parameters
    ----------
    run_dir : path-like
        The ``run_dir`` of the interrupted :func:`run` or :func:`modelmine.bootstrap`.
    X, y : the run's data (or a LoadedData as ``X``).
    selector : Selector, estimator or callable, optional
        Only for a run with a custom selector (built-in ones are rebuilt from the record).
    feature_names, n_jobs, executor, progress : as in :func:`run`.
    groups, sample_weight : optional
        The run's groups and sample weights, when it had them (checked by fingerprint: a
        resumed run with other groups is refused).
    covariates : DataFrame, optional
        The run's covariates when it was given their values (covariates named as columns
        of X are taken from X again).

    Returns
    -------
    MiningRun or BaseModels
    """
    directory = Path(run_dir)
    if (not (directory / _store.CHECKPOINT).exists()
            and (directory / "manifest.json").exists()):
        from ..base_models import resume as resume_bootstrap

        return resume_bootstrap(directory, X, y, selector=selector,
                                feature_names=feature_names, n_jobs=n_jobs,
                                executor=executor, progress=progress, groups=groups,
                                sample_weight=sample_weight)
    record = _store.read_checkpoint(directory)
    settings = dict(record["settings"])
    settings["random_state"] = record["random_state"]
    spec = RunSpec.from_settings(settings, selector=selector, func="resume")
    if not isinstance(X, LoadedData):  # before any work: a mapping's names and tables too
        check_container(X, "X", _FUNC, loaded=True)
    # a MuData, or a mapping of modality names to tables: one LoadedData (issue 51)
    X, y, groups, sample_weight = as_loaded(X, y, groups, sample_weight)
    groups, sample_weight = _design_columns(X, groups, sample_weight)
    X, y, source, feature_names = _data(X, y, feature_names, spec.outcome)
    X, feature_names, covs = take_covariates(X, covariates, spec.covariates, source,
                                             feature_names, func="resume")
    X, feature_names, mapped = map_features(X, feature_names, spec, source, "resume")
    return _execute(X, y, spec, Execution(
        n_jobs=n_jobs, executor=executor, run_dir=directory,
        checkpoint_every=settings["checkpoint_every"], progress=progress,
        command=record.get("command")), source=source, feature_names=feature_names,
        resuming=True, groups=groups, sample_weight=sample_weight, covariates=covs,
        mapped=mapped)
