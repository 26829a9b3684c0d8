"""The run directory: what :meth:`MiningRun.save` and ``modelmine run --out DIR`` write.

One format for both doors (``docs/DEVELOPING.md`` lists the files)::

    run.json                 settings, data description, command, library versions
    base_models.npz          the b base models (lossless, no pickle)
    signatures.json          every operator's Signature / SignatureSet (lossless)
    signatures/OPERATOR.csv  the same as tables, with frequency and mean rank
    frequencies.csv          every feature: selection frequency and mean rank
    diagnostics.csv/.json    stability of the base models, diversity of alternatives
    signatures.gmt           every signature as a gene set (GSEA, enrichment tools)
    markers.csv              per operator, gene and class: direction, effect, AUROC, frequency
    markers.gmt              per operator and class, the genes up and down in the class
    effects.csv              every tested feature: effect, p-value, q-value (volcano plot)
    class_signatures.json    per_class=True: each class's signatures against the rest
    class_frequencies.csv    per_class=True: selection frequencies per class
    expression.csv.gz        class and values of the signature genes per sample (report)
    covariates.csv.gz        with covariates: their encoded values per sample (markers)
    itemsets.csv             the closed itemsets at the run's minimum support
    report.html              the self-contained report

While :func:`modelmine.run` works with ``run_dir``, the directory holds ``checkpoint.json``
and the bootstrap checkpoints in ``bootstraps/``; both go once the files above are written,
so a directory with ``checkpoint.json`` is an interrupted run and one without it is done.
"""

from __future__ import annotations

import contextlib
import csv
import gzip
import json
import shutil
import zlib
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .. import _schema as schema
from .._csv import safe_cell, safe_frame
from .._files import regular_file, write_error
from .._files import write_text_atomic as _write_text
from .._progress import phase
from .._utils import jsonable
from ..base_models import BaseModels, DamagedCheckpointError, RunDirectory
from ..exceptions import DataError, InvalidParameterError, RunStateError
from ..operators import Signature, SignatureSet
from ..outcomes import default_registry
from ..selectors._scaling import SCALE_METHODS
from ..spec import RunSpec, setting, settings_schema

if TYPE_CHECKING:
    from ._run import MiningRun

__all__ = ["BOOTSTRAPS", "CHECKPOINT", "read_run", "write_run"]

RUN_FORMAT = "modelmine.run"
RUN_FORMAT_VERSION = 2
SIGNATURES_FORMAT = "modelmine.signatures"
CHECKPOINT = "checkpoint.json"
BOOTSTRAPS = "bootstraps"
EXPRESSION = "expression.csv.gz"
COVARIATES = "covariates.csv.gz"
CLASS_SIGNATURES = "class_signatures.json"
CLASS_FREQUENCIES = "class_frequencies.csv"
EFFECTS = "effects.csv"
CLASS_SIGNATURES_FORMAT = "modelmine.class_signatures"
_DIAGNOSTIC_COLUMNS = ["scope", "measure", "value", "ci_low", "ci_high", "note"]


def _write_json(path: Path, value: Any) -> None:
    _write_text(path, json.dumps(jsonable(value), indent=2))


def _no_constant(name: str) -> Any:
    raise ValueError(f"the non-finite number {name}, which modelmine never writes")


def _read_json(path: Path, what: str) -> Any:
    try:
        return json.loads(regular_file(path).read_text(encoding="utf-8"),
                          parse_constant=_no_constant)
    except FileNotFoundError:
        raise DataError(f"{str(path.parent)!r} has no {path.name}: it is not {what}.") from None
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError, the int digit limit
        raise DataError(f"{str(path)!r} is not valid JSON ({exc}).") from None
    except RecursionError:
        raise DataError(f"{str(path)!r} is not valid JSON (nested too deeply).") from None
    except OSError as exc:
        raise DataError(f"Cannot read {str(path)!r} ({exc.strerror or exc}).") from None


def _record(data: Any, path: Path, fmt: str, shape: dict[str, Any]) -> dict[str, Any]:
    """``data`` read from ``path``, checked: the format marker, then the declared schema."""
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise DataError(f"{str(path)!r} is not a {fmt} file.")
    settings = data.get("settings")
    outcome = settings.get("outcome") if isinstance(settings, dict) else None
    if isinstance(outcome, str) and outcome not in default_registry():
        # not damage: a kind a plugin registers (modelmine.outcomes entry points)
        known = ", ".join(map(repr, default_registry()))
        raise DataError(f"{str(path)!r} was made with the outcome kind {outcome!r}, which "
                        f"is not registered here (the kinds here: {known}): install or "
                        "import the package that registers it (modelmine.outcomes entry "
                        "points, modelmine.outcomes.register_outcome_kind), then load it "
                        "again.")
    return schema.check(data, shape, repr(str(path)))


# ----------------------------------------------------------------- declared schemas
def _seed_text(v: Any) -> bool:
    return schema.integer_text(v)


_SEED = (schema.Where(str, _seed_text, "the decimal text of a seed"), type(None))
_POSITIVE = schema.Where(int, lambda v: v >= 1, "an integer >= 1")
_FRACTION = schema.Where(float, lambda v: 0 < v <= 1, "a number in (0, 1]")
#: min_support as mm.run takes it: a fraction in (0, 1] or a count >= 1 (at most b, checked
#: against the record's n_bootstraps when it is read).
_SUPPORT = schema.Where(float, lambda v: (0 < v <= 1) if isinstance(v, float) else v >= 1,
                        "a fraction in (0, 1] or a count of base models >= 1")
#: How read_data was called (cli/_commands.py ``_INPUT_OPTIONS``): a resumed run reads its
#: data again with these keyword arguments, so no other key is accepted.
_READ_OPTION_NAMES = ("labels", "labels_column", "index_col", "transpose", "layer", "backed",
                      "drop", "groups", "weights", "keep_columns", "outcome", "event",
                      "covariates", "modalities", "intersect", "use_raw")
_READ_OPTIONS = schema.Where(
    {"labels": schema.Optional(str), "labels_column": schema.Optional(str),
     "index_col": schema.Optional(str), "transpose": schema.Optional(bool),
     "layer": schema.Optional(str), "backed": schema.Optional(bool),
     "drop": schema.Optional(schema.ListOf(str)), "groups": schema.Optional(str),
     "weights": schema.Optional(str),
     "keep_columns": schema.Optional(schema.ListOf(str)),
     "outcome": schema.Optional(schema.Where(
         str, lambda v: v in default_registry(), "a registered outcome kind")),
     "event": schema.Optional(str), "covariates": schema.Optional(schema.ListOf(str)),
     # multi-omic input: --modality NAME or NAME=FILE (absolute), --intersect
     "modalities": schema.Optional(schema.ListOf(str)),
     "intersect": schema.Optional(bool),
     # --use-raw: an .h5ad's .raw matrix (issue 50)
     "use_raw": schema.Optional(bool)},
    lambda v: set(v) <= set(_READ_OPTION_NAMES),
    "an object of the options " + ", ".join(_READ_OPTION_NAMES))
_DATA = {"source": str, "format": str, "target": (str, type(None)),
         "storage": schema.Optional(str), "n_samples": schema.Optional(_POSITIVE),
         "n_features_in": schema.Optional(_POSITIVE),
         "layer": schema.Optional(str), "labels": schema.Optional(str),
         "read_options": schema.Optional(_READ_OPTIONS),
         # multi-omic data: each modality's number of features, in column order
         "modalities": schema.Optional(schema.MapOf(_POSITIVE))}
#: ``scale`` of :func:`modelmine.run` (selectors/_scaling.py SCALE_METHODS).
_SCALE = schema.Where(str, lambda v: v in SCALE_METHODS,
                      "one of " + ", ".join(repr(m) for m in SCALE_METHODS))
_COMMAND = schema.Optional((schema.ListOf(str), type(None)))
# mm.run(artificial_features=...) / bootstrap's ARTIFICIAL_FEATURES.
_ARTIFICIAL = schema.Optional(schema.Where(str, lambda v: v in ("permutation", "knockoff"),
                                           "'permutation' or 'knockoff'"))
def _run_schema() -> dict[str, Any]:
    """The schema of run.json; its ``settings`` are declared by ``modelmine.spec.SETTINGS``
    (read when called, so that a setting declared there is checked here too)."""
    return {
        "format": str,
        "format_version": _POSITIVE,
        "command": _COMMAND,
        "settings": settings_schema(),
        "data": _DATA,
        "versions": schema.Optional(schema.MapOf((str, type(None)))),
        "itemsets_note": schema.Optional((str, type(None))),
        # sha256 of the value tables beside it (issue 50: an edited expression.csv.gz
        # loaded and was drawn); runs written before have none
        "checksums": schema.Optional(schema.MapOf(schema.Where(
            str, lambda v: len(v) == 64 and all(c in "0123456789abcdef" for c in v),
            "a sha256 in hexadecimal"))),
    }


#: The files of a run directory that run.json checksums (their values are read back as
#: data: the report draws them, the markers are computed from them).
CHECKSUMMED = (EXPRESSION, COVARIATES)


def _file_sha256(path: Path) -> str:
    import hashlib

    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _check_checksums(directory: Path, recorded: Mapping[str, str] | None) -> None:
    """The checksummed files as run.json recorded them: an edited or replaced one is
    refused, naming it and what to do (runs written before have no checksums; a deleted
    one reads as absent, as in a run written before the file existed)."""
    for name, sha in (recorded or {}).items():
        if name not in CHECKSUMMED:
            raise DataError(f"{str(directory / 'run.json')!r} is corrupt: field "
                            f"'checksums' names {name!r}, which is not a file it checks.")
        path = directory / name
        if _file_sha256(regular_file(path)) != sha:
            raise DataError(f"{str(path)!r} was changed or is corrupt (its checksum does "
                            "not match run.json): restore it, or delete it to load the run "
                            "without it.")


def _checkpoint_schema() -> dict[str, Any]:
    """The schema of checkpoint.json: the settings of run.json, of which a checkpoint
    holds every key of format version 2, and ``checkpoint_every``."""
    settings = settings_schema()
    settings.update({
        "selector_params": dict, "operator_params": dict,
        "operators": schema.Where(schema.ListOf(str), bool, "a non-empty list"),
        "checkpoint_every": _POSITIVE})
    settings["resampling"] = {**settings["resampling"],
                              "fraction": (_FRACTION, type(None)), "stratify": bool}
    return {"format": str, "format_version": _POSITIVE, "command": _COMMAND,
            "settings": settings, "data": _DATA}


_SIGNATURE = {"features": schema.ListOf(schema.Where(int, lambda v: v >= 0,
                                                     "an integer >= 0")),
              "names": schema.ListOf(str)}
_SIGNATURES_SCHEMA = {
    "format": str,
    "operators": schema.ListOf({
        "operator": str,
        "kind": schema.Where(str, lambda v: v in ("single", "multi"), "'single' or 'multi'"),
        "result": dict}),
}
#: A stored number of the diagnostics: finite (a measure's value, an interval's end) and of
#: the size a measure has (all of them are within [-1e6, 1e6]; 1e308 made the report's
#: error bars overflow).
_NUMBER = (schema.Where(float, lambda v: abs(v) <= 1e6, "a number in [-1e6, 1e6]"),
           type(None))
_DIAGNOSTICS_SCHEMA = schema.ListOf(schema.Where(
    {"scope": str, "measure": str, "value": _NUMBER, "ci_low": _NUMBER, "ci_high": _NUMBER,
     "note": schema.Optional((str, type(None)))},
    lambda r: r["value"] is None or (
        (r["ci_low"] is None or r["ci_low"] <= r["value"])
        and (r["ci_high"] is None or r["value"] <= r["ci_high"])),
    "a record whose interval holds its value (ci_low <= value <= ci_high)"))


# ----------------------------------------------------------------- tables
def diagnostics_from_records(records: list[dict[str, Any]]) -> pd.DataFrame:
    frame = pd.DataFrame(records, columns=_DIAGNOSTIC_COLUMNS)
    for col in ("value", "ci_low", "ci_high"):
        frame[col] = pd.to_numeric(frame[col]).astype(np.float64)
    frame["note"] = frame["note"].fillna("")
    return frame


# ----------------------------------------------------------------- write / read
def write_run(run: MiningRun, directory: Path, *, with_report: bool = True,
              spreadsheet_safe: bool = True) -> None:
    """Write every file of the run directory into ``directory`` (which exists).

    ``spreadsheet_safe``: text cells of the CSV files that would start a formula get a
    leading apostrophe (``modelmine._csv``).

    Raises
    ------
    OSError
        A file could not be written (disk full, permissions): the message names it.
    """
    phase("saving: the run's files%s", " and its report" if with_report else "")
    try:
        _write_run(run, directory, with_report=with_report,
                   spreadsheet_safe=spreadsheet_safe)
    except OSError as exc:
        if "Could not write" in str(exc):  # already names its file
            raise
        raise write_error(directory, exc) from exc


def write_null_tables(run: MiningRun, directory: Path, null: Any) -> None:
    """After a permutation null of a finished run: its signature tables and markers with
    each gene's p- and q-value (``signatures/OPERATOR.csv``, ``markers.csv``)."""
    from .. import report

    for name, sig in run.signatures.items():
        safe_frame(report.signature_table(run.base_models, sig, null)).to_csv(
            directory / "signatures" / f"{name}.csv", index=False)
    markers = _markers(run, null) if run.expression is not None else None
    if markers is not None:
        safe_frame(markers).to_csv(directory / "markers.csv", index=False)


def _signatures_record(signatures: Any) -> dict[str, Any]:
    return {"format": SIGNATURES_FORMAT, "format_version": 2,
            "operators": [{"operator": name,
                           "kind": "single" if isinstance(sig, Signature) else "multi",
                           "result": sig.to_dict()} for name, sig in signatures.items()]}


def _markers(run: MiningRun, null: Any = None) -> pd.DataFrame | None:
    """Every operator's markers table (:func:`modelmine.report.run_markers`)."""
    from ..report import run_markers

    return run_markers(run, null)


def _write_run(run: MiningRun, directory: Path, *, with_report: bool,
               spreadsheet_safe: bool = True) -> None:
    from .. import report

    base = run.base_models
    base.save(directory / "base_models.npz")
    safe = spreadsheet_safe
    safe_frame(run.frequencies().reset_index(), safe).to_csv(directory / "frequencies.csv",
                                                             index=False)
    _write_json(directory / "signatures.json", _signatures_record(run.signatures))
    if run.class_signatures and run.class_frequencies is not None:
        _write_json(directory / CLASS_SIGNATURES, {
            "format": CLASS_SIGNATURES_FORMAT, "format_version": 1,
            "classes": [{"class": cls, **_signatures_record(ops)}
                        for cls, ops in run.class_signatures.items()]})
        # Names neutralised as the other tables (issue 40); read back by _read_class_panels.
        safe_frame(run.class_frequencies.rename_axis("feature"), safe).to_csv(
            directory / CLASS_FREQUENCIES)
    (directory / "signatures").mkdir(exist_ok=True)
    for name, sig in run.signatures.items():
        safe_frame(report.signature_table(base, sig), safe).to_csv(
            directory / "signatures" / f"{name}.csv", index=False)
    _write_text(directory / "signatures.gmt", report.signatures_gmt(
        run.signatures, description=f"modelmine {run.settings.get('selector')} on "
        f"{Path(str(run.data.get('source'))).name}"))
    markers = None
    if run.covariates is not None:
        run.covariates.to_csv(directory / COVARIATES, compression="gzip")
    if run.expression is not None:
        run.expression.to_csv(directory / EXPRESSION, compression="gzip")
        markers = _markers(run)
        if markers is not None:
            safe_frame(markers, safe).to_csv(directory / "markers.csv", index=False)
            _write_text(directory / "markers.gmt", report.markers_gmt(markers))
    if run.effects_table is not None:
        # read back by _read_effects (names as written: spreadsheet-safe or not)
        safe_frame(run.effects_table, safe).to_csv(directory / EFFECTS, index=False)
    table = run.diagnostics
    safe_frame(table, safe).to_csv(directory / "diagnostics.csv", index=False)
    _write_json(directory / "diagnostics.json", table.to_dict(orient="records"))
    if run.itemsets is not None:
        safe_frame(run.itemsets.to_frame(), safe).to_csv(directory / "itemsets.csv",
                                                          index=False)
    checksums = {name: _file_sha256(directory / name) for name in CHECKSUMMED
                 if (directory / name).is_file()}
    _write_json(directory / "run.json", {
        "format": RUN_FORMAT, "format_version": RUN_FORMAT_VERSION,
        "title": f"modelmine report: {Path(str(run.data.get('source'))).name}",
        "command": run.command, "settings": run.settings, "data": run.data,
        "versions": run.versions, "itemsets_note": run.itemsets_note,
        **({"checksums": checksums} if checksums else {})})
    if with_report:
        write_report(run, directory / "report.html", markers=markers)


def _check_support(settings: dict[str, Any], path: Path) -> None:
    """A count min_support names at most b base models (the schema checked the rest)."""
    support, b = settings["min_support"], settings["n_bootstraps"]
    if isinstance(support, int) and support > b:
        raise DataError(f"{str(path)!r} is corrupt: field 'settings.min_support' is the "
                        f"count {support}, above the {b} base models of the run.")


def _check_operator_params(settings: dict[str, Any], path: Path) -> None:
    """Each recorded operator's parameters are parameters it takes: checked when the record
    is read, before any bootstrap of a resumed run (they used to fail after all of them)."""
    from ..operators import get_operator

    for name, params in settings["operator_params"].items():
        if name not in settings["operators"]:
            raise DataError(f"{str(path)!r} is corrupt: field 'settings.operator_params' "
                            f"names {name!r}, which is not among the run's operators.")
        try:
            op = get_operator(name)
        except ValueError:
            raise DataError(f"{str(path)!r} names the operator {name!r}, which is not "
                            "registered here (a plugin that is not installed?).") from None
        if not isinstance(params, dict):
            raise DataError(f"{str(path)!r} is corrupt: field 'settings.operator_params."
                            f"{name}' must be an object.")
        unknown = sorted(set(params) - set(op.params))
        if unknown:
            raise DataError(f"{str(path)!r} is corrupt: field 'settings.operator_params."
                            f"{name}' holds {unknown}, which {name!r} does not take "
                            f"(it takes: {sorted(op.params) or 'none'}).")


def read_run(directory: Path, cls: type[MiningRun]) -> MiningRun:
    """Read a run directory back into a :class:`MiningRun` equal to the one saved."""
    if not directory.is_dir():
        raise DataError(f"No run directory at {str(directory)!r}.")
    if (directory / CHECKPOINT).exists():
        raise RunStateError(f"{str(directory)!r} holds an interrupted run: continue it with "
                            "modelmine.resume(run_dir, X, y) or `modelmine run --resume`.")
    run_path = directory / "run.json"
    raw = _read_json(run_path, "a modelmine run directory")
    version = raw.get("format_version") if isinstance(raw, dict) else None
    if isinstance(version, int) and version > RUN_FORMAT_VERSION:
        raise DataError(f"{str(run_path)!r} was written by a newer modelmine (run format "
                        f"{version}).")
    meta = _record(raw, run_path, RUN_FORMAT, _run_schema())
    _check_support(meta["settings"], run_path)
    base_path = regular_file(directory / "base_models.npz")
    if not base_path.is_file():
        raise DataError(f"{str(directory)!r} has no base_models.npz: it is not a complete "
                        "modelmine run directory.")
    base = BaseModels.load(base_path)
    for key, value in (("n_samples", base.n_samples), ("n_features_in", base.n_features_in)):
        if key in meta["data"] and meta["data"][key] != value:
            raise DataError(f"{str(run_path)!r} is corrupt: field 'data.{key}' is "
                            f"{meta['data'][key]}, but base_models.npz holds {value}.")
    sig_path = directory / "signatures.json"
    stored = _record(_read_json(sig_path, "a modelmine run directory"), sig_path,
                     SIGNATURES_FORMAT, _SIGNATURES_SCHEMA)
    signatures: dict[str, Signature | SignatureSet] = {}
    for i, entry in enumerate(stored["operators"]):
        signatures[entry["operator"]] = _signature(entry, base, sig_path,
                                                   f"operators[{i}].result")
    kinds = {name: "single" if isinstance(sig, Signature) else "multi"
             for name, sig in signatures.items()}
    spec = stored_spec(meta["settings"], run_path, record=base.selector, kinds=kinds)
    class_signatures, class_frequencies = _read_class_panels(directory, base)
    diag_path = directory / "diagnostics.json"
    diag = schema.check(_read_json(diag_path, "a modelmine run directory"),
                        _DIAGNOSTICS_SCHEMA, repr(str(diag_path)))
    recorded = meta.get("checksums")
    if recorded:  # a deleted one reads as absent (as the refusal advises); an edited one not
        recorded = {name: sha for name, sha in recorded.items()
                    if (directory / name).exists() or (directory / name).is_symlink()}
    _check_checksums(directory, recorded)
    expression = _read_expression(directory / EXPRESSION, base)
    effects = _read_effects(directory / EFFECTS, base, expression)
    return cls(base_models=base, signatures=signatures, spec=spec,
               data=meta["data"], diagnostics_table=diagnostics_from_records(diag),
               command=meta.get("command"), versions=meta.get("versions") or {},
               expression=expression, class_signatures=class_signatures,
               class_frequencies=class_frequencies,
               covariates=_read_covariates(directory / COVARIATES, base),
               effects_table=effects, design=meta["settings"].get("design") or {})


def run_settings(spec: RunSpec, base: BaseModels, design: Mapping[str, Any]
                 ) -> dict[str, Any]:
    """What ``run.json`` stores under ``settings`` (format version 2): the spec's record
    (:meth:`RunSpec.to_settings`) with what its base models resolved (the selector's
    name and fitted parameters, the resampling record, m, the signatures' size) and what
    the data brought (``design``). :attr:`MiningRun.settings` is this view."""
    settings = {**spec.to_settings(), "selector": base.selector["name"],
                "selector_params": base.selector["params"],
                "resampling": dict(base.resampling), "n_features": base.n_features,
                "signature_size": (base.n_features if spec.signature_size is None
                                   else spec.signature_size)}
    if design:
        settings["design"] = dict(design)
    return settings


def resolved_spec(spec: RunSpec, base: BaseModels, func: str) -> RunSpec:
    """The run's spec as its base models resolved it (what ``run.json`` reads back):
    the settings of :func:`run_settings` read again; a selector this cannot rebuild (a
    custom object) keeps its object, with m and the signatures' size resolved."""
    settings = run_settings(spec, base, {})
    if all(isinstance(s, str) for s in (spec.selector if spec.heterogeneous
                                         else [spec.selector])):
        return spec_of_settings(settings, func, record=base.selector)
    return spec.replace(func, n_features=base.n_features,
                        signature_size=settings["signature_size"])


def spec_of_settings(settings: Mapping[str, Any], func: str = "MiningRun", *,
                     record: Mapping[str, Any] | None = None,
                     kinds: Mapping[str, str] | None = None) -> RunSpec:
    """The :class:`~modelmine.RunSpec` a run's stored settings describe
    (:meth:`RunSpec.from_settings`): a heterogeneous ensemble is stored as the names
    joined by "+"; a selector it cannot rebuild (a custom object, a plugin not installed)
    is held as its ``record`` (the base models' description), an operator not registered
    here with its recorded ``kinds``."""
    return RunSpec.from_settings(dict(settings), record=record, kinds=kinds, func=func)


def stored_spec(settings: dict[str, Any], path: Path, *, record: Mapping[str, Any],
                kinds: Mapping[str, str]) -> RunSpec:
    """The :class:`~modelmine.RunSpec` of stored settings, checked as the API checks them;
    a value it refuses is reported against the file and its key (not a parameter or a
    command-line option: the user did not type it). A selector or an operator that is not
    registered here (a plugin that is not installed; a custom selector's object) is kept
    as its record (``record``, the base models' description; ``kinds``, the signatures'),
    so that the run still loads, with a spec that refuses to refit it."""
    try:
        return spec_of_settings(settings, "MiningRun.load", record=record, kinds=kinds)
    except (TypeError, ValueError) as exc:
        text = " ".join(str(exc).split())
        if not isinstance(exc, InvalidParameterError) or exc.param is None:
            raise DataError(f"{str(path)!r} is corrupt: its settings are refused: {text}"
                            ) from None
        key = exc.param
        with contextlib.suppress(KeyError):
            key = setting(key).stored
        head = f"The {exc.param!r} parameter of {exc.func} "
        raise DataError(f"{str(path)!r} is corrupt: field 'settings.{key}' "
                        f"{text.removeprefix(head)}") from None


#: The numeric columns of effects.csv that every row must hold, finite; p- and q-values
#: in [0, 1].
_EFFECT_NUMBERS = ("effect_size", "p_value", "q_value")


def _read_effects(path: Path, base: BaseModels,
                  expression: pd.DataFrame | None) -> pd.DataFrame | None:
    """``effects.csv`` (every tested feature's effect), checked against the base models:
    its features are theirs (each once for each of their classes), its effects finite,
    its p- and q-values in [0, 1]. The class labels take the type the expression table
    gives them (``expression.csv.gz``). None when absent (a directory from before the
    file)."""
    if not path.exists() and not path.is_symlink():
        return None
    where = repr(str(path))
    regular_file(path)
    try:
        frame = pd.read_csv(path, keep_default_na=False, na_values={
            c: [""] for c in ("effect_size", "p_value", "q_value", "auroc", "hazard_ratio",
                              "hr_low", "hr_high", "concordance", "pearson_r", "slope",
                              "adjusted_odds_ratio", "adjusted_or_low", "adjusted_or_high",
                              "adjusted_p_value", "mean_in_class", "mean_rest")},
                            dtype={"feature": str, "class": str, "modality": str})
    except (OSError, UnicodeDecodeError, ValueError, pd.errors.ParserError,
            pd.errors.EmptyDataError) as exc:
        raise DataError(f"{where} is corrupt: it is not a CSV table ({exc}).") from None
    missing = [c for c in ("feature", "direction", "effect_measure", *_EFFECT_NUMBERS)
               if c not in frame.columns]
    if missing:
        raise DataError(f"{where} is corrupt: it has no column {missing[0]!r}.")
    names = [str(f) for f in base.feature_names]
    known = set(names) | {str(safe_cell(n)) for n in names}
    back = {str(safe_cell(n)): n for n in names}
    if not frame["feature"].isin(known).all():
        bad = frame.loc[~frame["feature"].isin(known), "feature"].iloc[0]
        raise DataError(f"{where} is corrupt: {schema.describe(bad)} is not a feature of "
                        "base_models.npz.")
    frame["feature"] = [n if n in set(names) else back.get(n, n) for n in frame["feature"]]
    groups = frame.groupby("class", sort=False) if "class" in frame.columns else [(None, frame)]
    classes = [str(c) for c in base.classes]
    written = {str(safe_cell(c)): c for c in classes} | {c: c for c in classes}
    # every class of the base models (a table cut after a class, or with its header only,
    # held every feature once for each class it kept)
    every_class = "class" not in frame.columns or not classes or (
        {written.get(c, c) for c in frame["class"]} == set(classes))
    if not every_class or any(len(part) != len(names) or part["feature"].nunique() != len(names)
                              for _, part in groups):
        raise DataError(f"{where} is corrupt: it must hold every feature of "
                        f"base_models.npz once{' per class' if 'class' in frame else ''}.")
    for col in _EFFECT_NUMBERS:
        try:
            values = frame[col].to_numpy(dtype=np.float64)
        except ValueError:
            values = np.full(len(frame), np.nan)
        if not np.isfinite(values).all() or (col != "effect_size" and not (
                (values >= 0) & (values <= 1)).all()):
            raise DataError(f"{where} is corrupt: field {col!r} must hold finite numbers"
                            + ("" if col == "effect_size" else " in [0, 1]") + ".")
    if "class" in frame.columns and expression is not None and "class" in expression:
        labels = {str(v): v for v in expression["class"].to_numpy()}
        frame["class"] = [labels.get(c, c) for c in frame["class"]]
    return frame


def _read_covariates(path: Path, base: BaseModels) -> pd.DataFrame | None:
    """``covariates.csv.gz`` of a run with covariates (encoded, one row per sample)."""
    if not path.exists():
        return None
    regular_file(path)
    where = repr(str(path))
    try:
        frame = pd.read_csv(path, index_col=0, compression="gzip")
    except (OSError, EOFError, zlib.error, UnicodeDecodeError, ValueError,
            pd.errors.ParserError, pd.errors.EmptyDataError):
        raise DataError(f"{where} is corrupt: it is not a gzip CSV table.") from None
    values = frame.to_numpy()
    if (frame.shape[0] != base.n_samples or values.dtype.kind not in "iuf"
            or not np.isfinite(values.astype(np.float64)).all()):
        raise DataError(f"{where} is corrupt: it must hold finite numbers, one row per "
                        f"sample ({base.n_samples}).")
    frame.index = frame.index.astype(str)
    return frame.astype(np.float64)


def _read_class_panels(directory: Path, base: BaseModels
                       ) -> tuple[dict[str, Any], pd.DataFrame | None]:
    """``class_signatures.json`` and ``class_frequencies.csv`` of a per-class run, checked
    (both or neither; the features are the base models')."""
    path, freq_path = directory / CLASS_SIGNATURES, directory / CLASS_FREQUENCIES
    if not path.exists() and not freq_path.exists():
        return {}, None
    if not (path.exists() and freq_path.exists()):
        missing = CLASS_FREQUENCIES if path.exists() else CLASS_SIGNATURES
        raise DataError(f"{str(directory)!r} is corrupt: it has per-class panels without "
                        f"{missing}.")
    stored = _record(_read_json(path, "a modelmine run directory"), path,
                     CLASS_SIGNATURES_FORMAT, {"format": str, "format_version": int,
                                               "classes": schema.ListOf(dict)})
    panels: dict[str, Any] = {}
    for i, entry in enumerate(stored["classes"]):
        entry = schema.check(entry, {"class": str, **_SIGNATURES_SCHEMA}, repr(str(path)))
        panels[entry["class"]] = {
            e["operator"]: _signature(e, base, path, f"classes[{i}].operators[{j}].result")
            for j, e in enumerate(entry["operators"])}
    try:
        # Names as written, whatever they are ("NA", "None", "", "1.0"): no NA parsing,
        # the names as text (issue 40); the frequencies are checked as numbers below.
        freqs = pd.read_csv(regular_file(freq_path), keep_default_na=False, na_filter=False,
                            dtype=str)
        freqs = freqs.set_index(freqs.columns[0])
    except (ValueError, OSError, IndexError, pd.errors.ParserError) as exc:
        raise DataError(f"{str(freq_path)!r} is corrupt: {exc}") from None
    names = [str(f) for f in base.feature_names]
    # Written spreadsheet-safe or not (MiningRun.save(spreadsheet_safe=...)): a name is
    # matched as it is or neutralised (safe_cell), and given back as it is.
    classes = {str(c): str(c) for c in panels} | {str(safe_cell(str(c))): str(c)
                                                  for c in panels}
    index = list(freqs.index)
    header = [classes.get(str(c)) for c in freqs.columns]
    try:
        values = freqs.to_numpy(dtype=np.float64)
    except ValueError:
        values = np.full(freqs.shape, np.nan)
    if (str(freqs.index.name) not in ("feature", "'feature")
            or (index != names and index != [str(safe_cell(n)) for n in names])
            or None in header or sorted(str(h) for h in header) != sorted(str(c) for c in panels)
            or not np.isfinite(values).all() or not ((values >= 0) & (values <= 1)).all()):
        raise DataError(f"{str(freq_path)!r} is corrupt: it must hold a frequency in [0, 1] "
                        "for every feature of the base models and every class of "
                        f"{CLASS_SIGNATURES}.")
    freqs = pd.DataFrame(values, index=pd.Index(names, name="feature"),
                         columns=pd.Index(header))
    return panels, freqs


def _signature(entry: dict[str, Any], base: BaseModels, path: Path, field: str
               ) -> Signature | SignatureSet:
    """One stored operator result, checked against its schema and the base models."""
    where = repr(str(path))
    result = entry["result"]
    parts = ([(field, result)] if entry["kind"] == "single" else
             [(f"{field}.signatures[{j}]", s) for j, s in enumerate(
                 schema.check(result, {"signatures": schema.ListOf(dict)}, where)
                 ["signatures"])])
    for name, part in parts:
        schema.check(part, _SIGNATURE, where)
        features, names = part["features"], part["names"]
        if len(features) != len(names) or any(f >= base.n_features_in for f in features):
            raise DataError(f"{where} is corrupt: {name} names features that are not among "
                            f"the {base.n_features_in} of base_models.npz.")
        if [str(n) for n in base.feature_names[features]] != names:
            raise DataError(f"{where} is corrupt: the names of {name} are not those of its "
                            "features in base_models.npz.")
    maker = Signature if entry["kind"] == "single" else SignatureSet
    try:
        return maker.from_dict(result)
    except (KeyError, TypeError, ValueError) as exc:
        raise DataError(f"{where} holds a malformed signature in {field} ({exc}).") from None


#: The largest magnitude a stored expression value may have: the report's heat map clusters
#: the genes by Euclidean distance, whose squares overflow float64 from about 1e154 (1e308
#: in expression.csv.gz broke the report). Real intensities are below 1e7.
EXPRESSION_MAX_ABS = 1e100


def _read_expression(path: Path, base: BaseModels) -> pd.DataFrame | None:
    """``expression.csv.gz``, checked against the base models (None when absent: a run
    directory written before the file existed).

    Its declared shape: a header ``sample, class, GENE...``; one row per sample of the
    base models; every gene a feature of ``base_models.npz``, its values finite numbers;
    no missing class.
    """
    if not path.exists() and not path.is_symlink():
        return None
    where = repr(str(path))
    regular_file(path)
    try:
        # Class labels and sample names as written ("NA", "None" are labels, issue 40).
        frame = pd.read_csv(path, index_col=0, compression="gzip", keep_default_na=False,
                            na_values={"time": [""], "event": [""]})
        with gzip.open(path, "rt", encoding="utf-8", newline="") as fh:
            header = next(csv.reader(fh), [])
        if len(header) == frame.shape[1] + 1:  # an empty gene name is not 'Unnamed: 3'
            frame.columns = pd.Index(header[1:], dtype=object)
    except pd.errors.EmptyDataError:
        raise DataError(f"{where} is corrupt: it is empty.") from None
    except (OSError, EOFError, zlib.error, UnicodeDecodeError, ValueError, csv.Error,
            pd.errors.ParserError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise DataError(f"{where} is corrupt: it is not a gzip CSV table ({first}).") from None
    columns = [str(c) for c in frame.columns]
    head = columns[0] if columns else None
    lead = {"class": ["class"], "outcome": ["outcome"], "time": ["time", "event"]}.get(
        head or "")
    if lead is None or columns[:len(lead)] != lead:
        raise DataError(f"{where} is corrupt: its first column must be 'class', 'outcome' "
                        f"or 'time' then 'event'; it is {schema.describe(head)}.")
    if frame.shape[0] != base.n_samples:
        raise DataError(f"{where} is corrupt: it has {frame.shape[0]} rows, but "
                        f"base_models.npz holds {base.n_samples} samples.")
    for col in lead:
        if frame[col].isna().any():
            raise DataError(f"{where} is corrupt: field {col!r} has missing values.")
    known = {str(n) for n in base.feature_names}
    unknown = [c for c in columns[len(lead):] if c not in known]
    if unknown:
        raise DataError(f"{where} is corrupt: {schema.describe(unknown[0])} is not a "
                        "feature of base_models.npz.")
    genes = frame.iloc[:, len(lead):]
    numeric = all(pd.api.types.is_numeric_dtype(genes[c])
                  and not pd.api.types.is_bool_dtype(genes[c]) for c in genes.columns)
    values = genes.to_numpy(dtype=np.float64) if numeric else None
    if values is None or not np.isfinite(values).all():
        raise DataError(f"{where} is corrupt: the gene values must be finite numbers.")
    if values.size and np.abs(values).max() > EXPRESSION_MAX_ABS:
        raise DataError(f"{where} is corrupt: a gene value is beyond +-{EXPRESSION_MAX_ABS:g} "
                        "(the report's clustering squares them).")
    frame.columns = pd.Index(columns)
    frame.index = frame.index.astype(str)
    return frame


def write_report(run: MiningRun, path: Path, *,
                 evaluation: pd.DataFrame | None = None, null: Any = None,
                 stability_path: Any = None, error_control: Any = None,
                 figures_dir: Any = None, markers: pd.DataFrame | None = None,
                 enrichment: pd.DataFrame | None = None) -> Path:
    """Write the HTML report of ``run`` to ``path`` atomically (``markers``: the run's
    markers tables when the caller has them already, else computed by the report)."""
    from ..report import write_run_report

    phase("report: the figures and the page")
    return write_run_report(path, run, evaluation=evaluation, null=null,
                            stability_path=stability_path, error_control=error_control,
                            figures_dir=figures_dir, given_markers=markers,
                            enrichment=enrichment)


# ----------------------------------------------------------------- checkpoints
def start_checkpoint(directory: Path, settings: dict[str, Any], data: dict[str, Any],
                     command: Any) -> None:
    """Open ``directory`` for a new run: refuse a finished or foreign one, record settings."""
    if directory.is_symlink():
        raise RunStateError(f"run_dir {str(directory)!r} is a symbolic link; modelmine never "
                            "writes a run through one.")
    if directory.exists():
        if not directory.is_dir():
            raise RunStateError(f"run_dir {str(directory)!r} exists and is not a directory.")
        if (directory / CHECKPOINT).exists():
            raise RunStateError(f"An interrupted run waits in {str(directory)!r}: continue it "
                                "with modelmine.resume(run_dir, X, y), or delete it.")
        if (directory / "run.json").exists():
            raise RunStateError(f"{str(directory)!r} holds a finished run: read it with "
                                "modelmine.MiningRun.load, or choose another run_dir.")
        if any(directory.iterdir()):
            raise RunStateError(f"run_dir {str(directory)!r} is not empty and is not a "
                                "modelmine run.")
    elif not directory.parent.is_dir():
        directory.parent.mkdir(parents=True, exist_ok=True)
    directory.mkdir(parents=True, exist_ok=True)
    _write_json(directory / CHECKPOINT, {"format": "modelmine.checkpoint",
                                         "format_version": 1, "settings": settings,
                                         "data": data, "command": command})


def read_checkpoint(directory: Path) -> dict[str, Any]:
    """The record of an interrupted run, with the seed its bootstraps were drawn from."""
    path = directory / CHECKPOINT
    if not path.exists():
        finished = (directory / "run.json").exists()
        raise RunStateError(f"No interrupted run in {str(directory)!r}"
                            + (": that run finished." if finished else "."))
    record = _record(_read_json(path, "an interrupted run"), path, "modelmine.checkpoint",
                     _checkpoint_schema())
    _check_support(record["settings"], path)
    _check_operator_params(record["settings"], path)
    recorded = record["settings"]["random_state"]
    seed = None if recorded is None else int(recorded)
    manifest = directory / BOOTSTRAPS / "manifest.json"
    if manifest.exists() or manifest.is_symlink():
        try:
            seed = int(RunDirectory.read_manifest(directory / BOOTSTRAPS)["settings"]
                       ["random_state"])
        except DamagedCheckpointError:
            if seed is None:  # nothing else records the seed: the chunks cannot be refitted
                raise
            # the seed of checkpoint.json, recorded before any chunk: a resume refits the
            # chunks from it (damaged_bootstraps)
    record["random_state"] = seed
    return record


def damaged_bootstraps(directory: Path) -> None:
    """Before a resume (under the run's lock): when the manifest of the checkpointed
    bootstraps is damaged or missing, none of their chunks can be checked, so they are
    removed and fitted again from the seed that ``checkpoint.json`` recorded before the
    first chunk (a warning names the manifest); a run fitted from that seed is the
    uninterrupted one. A readable manifest is left to the bootstrap stage, which refits
    its damaged chunks one by one (:class:`~modelmine.base_models.RunDirectory`)."""
    import warnings

    folder = directory / BOOTSTRAPS
    if folder.is_symlink() or not folder.is_dir():
        return
    manifest = folder / "manifest.json"
    try:
        if not (manifest.exists() or manifest.is_symlink()):
            if not any(folder.iterdir()):
                return
            why = "manifest.json is missing"
        else:
            RunDirectory.read_manifest(folder)
            return
    except DamagedCheckpointError as exc:
        why = " ".join(str(exc).split()).rstrip(".")
    chunks = sorted(p.name for p in folder.glob("chunk-*.npz"))
    seed = read_checkpoint(directory)["random_state"]
    shutil.rmtree(folder)
    warnings.warn(
        f"The checkpoint of the run in {str(directory)!r} is damaged: {why}. Its "
        f"{len(chunks)} chunk file(s) cannot be checked without it and every bootstrap is "
        f"fitted again from the recorded seed {seed}: the run ends as an uninterrupted one "
        "would.", RuntimeWarning, stacklevel=3)


def finish_checkpoint(run: MiningRun, directory: Path) -> None:
    """Write the run's files into its ``run_dir``, then drop the checkpoints (last)."""
    write_run(run, directory)
    shutil.rmtree(directory / BOOTSTRAPS, ignore_errors=True)
    with contextlib.suppress(FileNotFoundError):  # left by a killed bootstrap
        (directory / f".{BOOTSTRAPS}.lock").unlink()
    (directory / CHECKPOINT).unlink()


def saved_bootstraps(directory: Path) -> int:
    """How many bootstraps of the run in ``directory`` are checkpointed (0 when none, or
    when the manifest cannot be read)."""
    try:
        manifest = RunDirectory.read_manifest(directory / BOOTSTRAPS)
        every = int(manifest["settings"]["checkpoint_every"])
        b = int(manifest["settings"]["n_bootstraps"])
        return sum(min(every, b - int(c) * every) for c in manifest["chunks"])
    except (DataError, ValueError, KeyError, TypeError, OSError):
        return 0


def discard_unstarted(directory: Path, existed: bool) -> bool:
    """After a failed run: remove what it wrote in ``directory`` when no bootstrap was
    checkpointed (so nothing blocks the next run), and say whether it did. A directory
    that existed (empty) before the run is emptied, not removed."""
    if not (directory / CHECKPOINT).exists() or saved_bootstraps(directory) > 0:
        return False
    if existed:
        for child in directory.iterdir():
            if child.is_dir() and not child.is_symlink():
                shutil.rmtree(child, ignore_errors=True)
            else:
                child.unlink(missing_ok=True)
    else:
        shutil.rmtree(directory, ignore_errors=True)
    return True
