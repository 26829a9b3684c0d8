"""The run directory: what :meth:`MiningRun.save` and ``modelmine run --out DIR`` write.

One format for both doors (``docs/DEVELOPING.md`` lists the files)::

    run.json                 settings, data description, command, library versions
    base_models.npz          the b base models (lossless, no pickle)
    signatures.json          every operator's Signature / SignatureSet (lossless)
    signatures/OPERATOR.csv  the same as tables, with frequency and mean rank
    frequencies.csv          every feature: selection frequency and mean rank
    diagnostics.csv/.json    stability of the base models, diversity of alternatives
    itemsets.csv             the closed itemsets at the run's minimum support
    report.html              the self-contained report

While :func:`modelmine.run` works with ``run_dir``, the directory holds ``checkpoint.json``
and the bootstrap checkpoints in ``bootstraps/``; both go once the files above are written,
so a directory with ``checkpoint.json`` is an interrupted run and one without it is done.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .._files import write_text_atomic as _write_text
from .._utils import jsonable
from ..base_models import BaseModels, RunDirectory
from ..exceptions import DataError, RunStateError
from ..operators import Signature, SignatureSet

if TYPE_CHECKING:
    from ._run import MiningRun

__all__ = ["BOOTSTRAPS", "CHECKPOINT", "read_run", "write_run"]

RUN_FORMAT = "modelmine.run"
RUN_FORMAT_VERSION = 2
SIGNATURES_FORMAT = "modelmine.signatures"
CHECKPOINT = "checkpoint.json"
BOOTSTRAPS = "bootstraps"
_DIAGNOSTIC_COLUMNS = ["scope", "measure", "value", "ci_low", "ci_high", "note"]


def _write_json(path: Path, value: Any) -> None:
    _write_text(path, json.dumps(jsonable(value), indent=2))


def _read_json(path: Path, what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError(f"{str(path.parent)!r} has no {path.name}: it is not {what}.") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise DataError(f"{str(path)!r} is not valid JSON ({exc}).") from None


def _record(data: Any, path: Path, fmt: str, keys: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise DataError(f"{str(path)!r} is not a {fmt} file.")
    missing = [k for k in keys if k not in data]
    if missing:
        raise DataError(f"{str(path)!r} lacks the field(s) {missing}.")
    return data


# ----------------------------------------------------------------- tables
def diagnostics_from_records(records: list[dict[str, Any]]) -> pd.DataFrame:
    frame = pd.DataFrame(records, columns=_DIAGNOSTIC_COLUMNS)
    for col in ("value", "ci_low", "ci_high"):
        frame[col] = pd.to_numeric(frame[col]).astype(np.float64)
    frame["note"] = frame["note"].fillna("")
    return frame


# ----------------------------------------------------------------- write / read
def write_run(run: MiningRun, directory: Path, *, with_report: bool = True) -> None:
    """Write every file of the run directory into ``directory`` (which exists)."""
    from .. import report

    base = run.base_models
    base.save(directory / "base_models.npz")
    run.frequencies().reset_index().to_csv(directory / "frequencies.csv", index=False)
    _write_json(directory / "signatures.json", {
        "format": SIGNATURES_FORMAT, "format_version": 2,
        "operators": [{"operator": name,
                       "kind": "single" if isinstance(sig, Signature) else "multi",
                       "result": sig.to_dict()} for name, sig in run.signatures.items()]})
    (directory / "signatures").mkdir(exist_ok=True)
    for name, sig in run.signatures.items():
        report.signature_table(base, sig).to_csv(directory / "signatures" / f"{name}.csv",
                                          index=False)
    table = run.diagnostics
    table.to_csv(directory / "diagnostics.csv", index=False)
    _write_json(directory / "diagnostics.json", table.to_dict(orient="records"))
    if run.itemsets is not None:
        run.itemsets.to_frame().to_csv(directory / "itemsets.csv", index=False)
    _write_json(directory / "run.json", {
        "format": RUN_FORMAT, "format_version": RUN_FORMAT_VERSION,
        "title": f"modelmine report: {Path(str(run.data.get('source'))).name}",
        "command": run.command, "settings": run.settings, "data": run.data,
        "versions": run.versions, "itemsets_note": run.itemsets_note})
    if with_report:
        write_report(run, directory / "report.html")


def read_run(directory: Path, cls: type[MiningRun]) -> MiningRun:
    """Read a run directory back into a :class:`MiningRun` equal to the one saved."""
    if not directory.is_dir():
        raise DataError(f"No run directory at {str(directory)!r}.")
    if (directory / CHECKPOINT).exists():
        raise RunStateError(f"{str(directory)!r} holds an interrupted run: continue it with "
                            "modelmine.resume(run_dir, X, y) or `modelmine run --resume`.")
    meta = _record(_read_json(directory / "run.json", "a modelmine run directory"),
                   directory / "run.json", RUN_FORMAT, ("settings", "data"))
    if int(meta.get("format_version", 0)) > RUN_FORMAT_VERSION:
        raise DataError(f"{str(directory)!r} was written by a newer modelmine (run format "
                        f"{meta['format_version']}).")
    base = BaseModels.load(directory / "base_models.npz")
    sig_path = directory / "signatures.json"
    stored = _record(_read_json(sig_path, "a modelmine run directory"), sig_path,
                     SIGNATURES_FORMAT, ("operators",))
    signatures: dict[str, Signature | SignatureSet] = {}
    for entry in stored["operators"]:
        maker = Signature if entry.get("kind") == "single" else SignatureSet
        try:
            signatures[str(entry["operator"])] = maker.from_dict(entry["result"])
        except (KeyError, TypeError, ValueError) as exc:
            raise DataError(f"{str(sig_path)!r} holds a malformed signature ({exc}).") from None
    diag = _read_json(directory / "diagnostics.json", "a modelmine run directory")
    if not isinstance(diag, list):
        raise DataError(f"{str(directory / 'diagnostics.json')!r} is not a list of rows.")
    return cls(base_models=base, signatures=signatures, settings=meta["settings"],
               data=meta["data"], diagnostics_table=diagnostics_from_records(diag),
               command=meta.get("command"), versions=meta.get("versions") or {})


def write_report(run: MiningRun, path: Path, *,
                 evaluation: pd.DataFrame | None = None, null: Any = None,
                 stability_path: Any = None) -> Path:
    """Write the HTML report of ``run`` to ``path`` atomically."""
    from ..report import build_report, operator_result

    settings = run.settings
    results = [operator_result(name, sig, {"n_features": settings["n_features"]}
                               if isinstance(sig, Signature)
                               else {"n_signatures": len(sig)})
               for name, sig in run.signatures.items()]
    shown = {"operators": ", ".join(run.signatures),
             "k (alternatives)": settings["n_signatures"],
             "minimum support": settings["min_support"]}
    text = build_report(run.base_models, results, diagnostics=run.diagnostics,
                        itemsets=run.itemsets, itemsets_note=run.itemsets_note,
                        evaluation=evaluation, settings=shown,
                        data_description={k: v for k, v in run.data.items()
                                          if k not in ("n_samples", "n_features_in")},
                        title=f"modelmine report: {Path(str(run.data.get('source'))).name}",
                        null=null, stability_path=stability_path)
    _write_text(path, text)
    return path


# ----------------------------------------------------------------- checkpoints
def start_checkpoint(directory: Path, settings: dict[str, Any], data: dict[str, Any],
                     command: Any) -> None:
    """Open ``directory`` for a new run: refuse a finished or foreign one, record settings."""
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
                     ("settings", "data"))
    recorded = record["settings"].get("random_state")
    seed = None if recorded is None else int(recorded)
    if (directory / BOOTSTRAPS / "manifest.json").exists():
        seed = int(RunDirectory.read_manifest(directory / BOOTSTRAPS)["settings"]
                   ["random_state"])
    record["random_state"] = seed
    return record


def finish_checkpoint(run: MiningRun, directory: Path) -> None:
    """Write the run's files into its ``run_dir``, then drop the checkpoints (last)."""
    write_run(run, directory)
    shutil.rmtree(directory / BOOTSTRAPS, ignore_errors=True)
    (directory / CHECKPOINT).unlink()
