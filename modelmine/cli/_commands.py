"""The subcommands of ``modelmine``: run, operators, lattice, evaluate, report, datasets."""

from __future__ import annotations

import argparse
import contextlib
import csv
import dataclasses
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._csv import restore_cell, safe_frame
from .._doors import door_of
from .._files import (
    atomic_directory,
    atomic_file,
    check_output_target,
    directory_lock,
    remove_stale_partials,
    replace_directory,
)
from ..base_models import BaseModels, bootstrap
from ..datasets import EMBEDDED_PREFIX, LoadedData, read_data
from ..exceptions import DataError
from ..operators import Signature, SignatureSet
from ..outcomes import DEFAULT_OUTCOME, outcome_kind
from ..pipeline import MiningRun

__all__ = ["cmd_datasets", "cmd_evaluate", "cmd_lattice", "cmd_markers", "cmd_operators",
           "cmd_report", "cmd_run"]

def _say(args: argparse.Namespace, text: str = "") -> None:
    if not args.quiet:
        print(text)


def _read_input(args: argparse.Namespace, source: str, target: str | None = None,
                options: dict[str, Any] | None = None) -> LoadedData:
    """read_data with the input options of the command line (or the recorded ones of a
    resumed run); the reader's notes go to stderr unless --quiet."""
    import warnings

    from ..datasets import ManyClassesWarning, MetadataColumnsWarning, ScaledValuesWarning

    recorded = options is not None  # --resume: the run's own record of how it read
    if options is None:
        options = {key: getattr(args, key, None) for key in _INPUT_OPTIONS}
        time = getattr(args, "time", None)
        if time is not None:
            if target is not None:
                raise DataError("--time names the time column of a survival outcome; give "
                                "it instead of --target, not with it.")
            if options.get("outcome") is None or not outcome_kind(
                    options["outcome"], func="modelmine").censored:
                raise DataError("--time names the time column of a survival outcome: add "
                                "--outcome survival and --event COLUMN.")
            target = time
        if options.get("outcome") == DEFAULT_OUTCOME:
            options["outcome"] = None  # read_data's default: not recorded
        if options.get("labels"):
            options["labels"] = str(Path(options["labels"]).resolve())
        if options.get("modalities"):  # --modality NAME=FILE: where the file is, for --resume
            options["modalities"] = [
                item if "=" not in item else
                f"{item.partition('=')[0]}={Path(item.partition('=')[2]).resolve()}"
                for item in options["modalities"]]
    kwargs = {k: v for k, v in options.items() if v not in (None, False)}
    from ..datasets._biodata import cli_door

    with warnings.catch_warnings(record=True) as caught, cli_door():
        warnings.simplefilter("always", ManyClassesWarning)
        warnings.simplefilter("always", MetadataColumnsWarning)
        warnings.simplefilter("always", ScaledValuesWarning)
        # run.json's read_options keep the key "weights" (files as they were); read_data's
        # keyword is sample_weight (issue 38)
        call = {("sample_weight" if k == "weights" else k): v for k, v in kwargs.items()}
        source, call = _modality_tables(source, call, recorded)
        data = read_data(source, target, **call)
    cautions = [f"warning: {w.message}" for w in caught if issubclass(
        w.category, ManyClassesWarning | MetadataColumnsWarning | ScaledValuesWarning)]
    # --quiet silences the reader's notes, never a warning about the data (issue 26)
    for note in [*([] if args.quiet else data.notes), *cautions]:
        print(f"modelmine {args.command}: {note}", file=sys.stderr)
    return dataclasses.replace(data, read_options=kwargs)


def _modality_tables(source: Any, call: dict[str, Any],
                     recorded: bool = False) -> tuple[Any, dict[str, Any]]:
    """--modality NAME=FILE (repeatable): the tables of a multi-omic run, as read_data's
    mapping of modality names to files (DATA then omitted; a resumed run's recorded
    source is their description); --modality NAME chooses modalities of an .h5mu DATA."""
    items = call.pop("modalities", None)
    if not items:
        return source, call
    pairs = [item.partition("=") for item in items]
    if all(sep for _, sep, _ in pairs):
        names = [name for name, _, _ in pairs]
        if (source is not None and not recorded) or len(set(names)) != len(names):
            raise DataError("--modality NAME=FILE gives the tables of a multi-omic run, each "
                            "modality once, without DATA" + (
                                "" if source is None else f" (got DATA {source!r} too)") + ".")
        return {name: file for name, _, file in pairs}, call
    if any(sep for _, sep, _ in pairs):
        raise DataError("--modality takes either NAME=FILE (the tables of a multi-omic run) "
                        "or NAME (a modality of an .h5mu DATA), not both kinds.")
    return source, {**call, "modalities": [name for name, _, _ in pairs]}


#: The options of `_add_input_options` (cli/_main.py), as read_data's keyword arguments.
_INPUT_OPTIONS = ("labels", "labels_column", "index_col", "transpose", "layer", "backed",
                  "drop", "groups", "weights", "keep_columns", "outcome", "event",
                  "covariates", "modalities", "intersect", "use_raw")


def _selector_params(args: argparse.Namespace, selector: str) -> dict[str, Any]:
    """--selector-param KEY=VALUE pairs, checked against the selector's parameters."""
    import inspect

    from ..selectors import get_selector

    params = dict(getattr(args, "selector_param", None) or [])
    if not params:
        return params
    spec = get_selector(selector, func="modelmine run")  # an unknown name fails here first
    accepted = [n for n, prm in inspect.signature(type(spec).__init__).parameters.items()
                if n != "self" and prm.kind is not inspect.Parameter.VAR_KEYWORD]
    unknown = [k for k in params if k not in accepted]
    if unknown:
        raise DataError(f"--selector-param {unknown[0]!r}: selector {selector!r} takes no such "
                        f"parameter; expected one of: {', '.join(accepted) or '(none)'}.")
    try:
        get_selector(selector, params, func="modelmine run")
    except (TypeError, ValueError) as exc:
        raise DataError(f"--selector-param: {exc}") from None
    return params


def _outcome_selector(args: argparse.Namespace) -> tuple[str, str]:
    """The run's outcome (--outcome) and selector (--selector, or the outcome's default)."""
    kind = outcome_kind(getattr(args, "outcome", None) or DEFAULT_OUTCOME, func="modelmine")
    return kind.name, args.selector or kind.default_selector


def door_spec(args: argparse.Namespace, door: Any, **given: Any) -> Any:
    """The :class:`~modelmine.RunSpec` of a subcommand from its options: every setting the
    door (:class:`modelmine._doors.Door`) takes that has command-line flags, read from its
    option (the door's default when the option is absent), and checked by the door alone,
    before the data are read (its messages name the options: ``_main.option_of``).
    ``given``: settings the command computed itself."""
    from ..spec import setting
    from ._options import setting_dest

    settings: dict[str, Any] = {}
    for name in door.settings():
        dest = setting_dest(name)
        if setting(name).flags and hasattr(args, dest):
            settings[name] = getattr(args, dest)
    if "selector" in door.settings():
        if settings.get("selector") is None:  # the door's (or the outcome's) default
            settings.pop("selector", None)
        chosen = settings.get("selector") or door.default("selector") or \
            _outcome_selector(args)[1]
        if "selector_params" in door.settings():
            settings["selector_params"] = _selector_params(args, chosen)
    settings.update(given)
    return door.spec(settings)


def run_spec(args: argparse.Namespace, **given: Any) -> Any:
    """The run's specification from the options of ``modelmine run``
    (:func:`door_spec` of :func:`modelmine.run`'s door)."""
    from .. import pipeline  # noqa: F401 (its doors register themselves)

    return door_spec(args, door_of("run"), **given)


def _bootstrap(data: LoadedData, args: argparse.Namespace) -> BaseModels:
    return bootstrap(data.X, data.y, spec=door_spec(args, door_of("bootstrap")),
                     feature_names=data.feature_names, n_jobs=args.n_jobs,
                     executor=getattr(args, "executor", None),
                     progress=False if args.quiet else None, groups=data.groups,
                     sample_weight=data.sample_weight)


def _partial_dir(out: str | os.PathLike[str]) -> Path:
    """Where ``modelmine run --out DIR`` works: the ``run_dir`` ``.DIR.partial`` beside DIR.

    DIR itself appears only when the run is complete (the finished ``.DIR.partial`` is
    renamed to it), so a directory under the name the user asked for is never half-written.
    """
    path = Path(out).expanduser()
    return path.parent / f".{path.name}.partial"


def _absolute_source(source: str) -> str:
    # The checkpoint records where the data are, for --resume from any directory.
    return source if source.startswith(EMBEDDED_PREFIX) else str(Path(source).resolve())


def _summary(run: MiningRun, out: Path, quiet: bool, null: Any = None,
             check: Any = None) -> None:
    # CAUTION lines go to stderr and are never silenced: --quiet is for progress and the
    # summary table, not for what not to trust (issue 26)
    for text in run.warnings(null):
        print(f"CAUTION: {text}", file=sys.stderr)
    for text in () if check is None else check.statements:
        if "not distinguishable" in text:
            print(f"CAUTION: {text}", file=sys.stderr)
    if quiet:
        return
    for text in () if check is None else check.statements:
        print(f"error control: {text}")
    base = run.base_models
    diag = run.diagnostics
    nog = diag[diag["measure"] == "nogueira"].iloc[0]
    print(f"{base.n_models} base models of {base.selector_name} on "
          f"{base.n_samples} samples x {base.n_features_in} features (seed {base.random_state})")
    for key in ("values", "scaling", "m", "covariates"):
        if run.data.get(key):
            print(f"{key}: {run.data[key]}")
    print(f"stability of the base models (Nogueira): {nog['value']:.3f} "
          f"[95% CI {nog['ci_low']:.3f}, {nog['ci_high']:.3f}]")
    rows: list[dict[str, Any]] = []
    freq = base.subsets.mean(axis=0)
    for name, result in run.signatures.items():
        multi = isinstance(result, SignatureSet)
        sigs: list[Signature] = list(result) if isinstance(result, SignatureSet) else [result]
        for i, sig in enumerate(sigs, start=1):
            if multi and i > 3:
                rows.append({"operator": "", "#": "...", "size": "", "mean freq": "",
                             "top features": f"({len(sigs) - 3} more in the files)"})
                break
            idx = list(sig.features)
            top = ", ".join(sig.names[:5]) + (" ..." if len(sig.names) > 5 else "")
            rows.append({"operator": name if i == 1 else "", "#": str(i) if multi else "-",
                         "size": len(idx),
                         "mean freq": f"{freq[idx].mean():.2f}" if idx else "",
                         "top features": top})
        requested = result.provenance.get("n_signatures_requested")
        if requested is not None:
            rows.append({"operator": "", "#": "", "size": "", "mean freq": "",
                         "top features": f"(k = {len(sigs)}, not {requested}: "
                         f"{result.provenance.get('n_signatures_capped_because')})"})
    print(pd.DataFrame(rows).to_string(index=False))
    print(f"wrote {out}/ (open {out}/report.html)")


#: What ``modelmine run --resume DIR`` may be given: everything else is the recorded run's.
#: --annotate, --evaluate, --folds, --pfer/--fdr, --null and --figures add files to the
#: finished directory (annotated.h5ad, evaluation.csv, ...) without changing the run, so a
#: resumed run (interrupted, or finished and missing one of them) may ask for them.
_RESUME_OPTIONS = {"resume", "quiet", "debug", "n_jobs", "executor", "help", "force",
                   "annotate", "annotate_full", "evaluate", "n_folds", "pfer", "fdr", "null",
                   "figures", "gene_sets"}


def _annotating(args: argparse.Namespace) -> bool:
    """--annotate, or --annotate-full (which implies it)."""
    return bool(getattr(args, "annotate", False) or getattr(args, "annotate_full", False))


def cmd_run(args: argparse.Namespace) -> int:

    resume = args.resume is not None
    if resume and (args.data is not None or args.out is not None):
        raise DataError("--resume DIR takes the data and the output directory of the "
                        "interrupted run: give neither DATA nor --out.")
    if resume:
        fixed = sorted(set(getattr(args, "given", ())) - _RESUME_OPTIONS)
        if fixed:
            shown = ", ".join("--" + d.replace("_", "-") for d in fixed)
            raise DataError(f"--resume DIR continues the run with its recorded settings; "
                            f"{shown} cannot change them (start a new run with --out to use "
                            "other settings).")
    if not resume and args.data is None and not any(
            "=" in m for m in getattr(args, "modalities", None) or ()):
        raise DataError("DATA is required (a data file or embedded:NAME), unless --resume "
                        "or --modality NAME=FILE tables.")
    out = Path(args.resume or args.out or (
        f"modelmine-run-{args.random_state if args.random_state is not None else 'latest'}"))
    partial = _partial_dir(out)
    # Cheap checks first, so that bad input fails before any long work.
    check_output_target(out, force=args.force or resume)
    if getattr(args, "gene_sets", None) is not None:  # a bad GMT fails before the run
        from ..datasets import read_gmt

        read_gmt(args.gene_sets)
    figures = _figures_dir(args)
    with directory_lock(out):
        # Under the lock no other run writes DIR: what a killed one left is stale.
        remove_stale_partials(out)
        if resume and _extras_asked(args) and _finished(out, partial):
            # --resume on a finished run adds the extra outputs asked (a step that failed
            # after the run, or one asked later): the run itself is not refitted.
            run, data = _load_finished(args, out)
        else:
            try:
                run, data = _run_or_resume(args, out, partial, resume)
            except BaseException as exc:
                _stopped_note(exc, out, partial)
                raise
            # The run is finished: DIR holds it before any extra step runs, so that an
            # extra that fails never hides or deletes it (docs/reliability.md).
            replace_directory(partial, out)
        null, check = _extras(run, data, out, args, figures)
    _summary(run, out, args.quiet, null, check)
    return 0


def _stopped_note(exc: BaseException, out: Path, partial: Path) -> None:
    """The note of a run that stopped: how many bootstraps are saved and the command that
    continues it; or, when the checkpoint itself is what fails (`--resume` would fail the
    same way again: another version, other data, a manifest naming files elsewhere), the
    command that starts over (issue 50: advice that works)."""
    from ..base_models import RunDirectoryError
    from ..pipeline import _store

    checkpoint = (partial / _store.CHECKPOINT).exists()
    if checkpoint and _resumable(partial) and not isinstance(exc, RunDirectoryError):
        saved = _store.saved_bootstraps(partial)
        exc.__notes__ = [f"The run stopped; {saved} bootstraps are saved in "
                         f"{str(partial)!r}: continue it with `modelmine run --resume "
                         f"{out}`."]
    elif checkpoint or partial.is_symlink():
        exc.__notes__ = [f"{str(partial)!r} cannot be resumed (--resume would fail the same "
                         f"way); start over with {_restart_command(partial, out)}, which "
                         "replaces it."]


def _restart_command(partial: Path, out: Path) -> str:
    """The recorded command of the run in ``partial`` with --force (quoted for a shell),
    or, when it cannot be read, the advice to run the command again with --force."""
    import shlex

    from ..pipeline import _store

    try:
        command = _store.read_checkpoint(partial).get("command")
    except (DataError, OSError, ValueError):
        command = None
    if not command or command[0] != "modelmine" or "run" not in command:
        return (f"the run's own command (`modelmine run DATA ... --out {out}`) and --force "
                f"(or remove {str(partial)!r} and run it again)")
    argv = [str(a) for a in command]
    for i, arg in enumerate(argv):  # the DIR resumed, wherever the run was started from
        if arg == "--out" and i + 1 < len(argv):
            argv[i + 1] = str(out)
        elif arg.startswith("--out="):
            argv[i] = f"--out={out}"
    return "`" + shlex.join([*argv, *([] if "--force" in argv else ["--force"])]) + "`"


def _figures_dir(args: argparse.Namespace) -> Path | None:
    """--figures DIR, made ready: a new or empty directory, or one --force empties of its
    figures (SVG, PDF, PNG files only; anything else in it is refused)."""
    text = getattr(args, "figures", None)
    if text is None:
        return None
    directory = Path(text).expanduser()
    if directory.exists():
        if not directory.is_dir() or directory.is_symlink():
            raise DataError(f"--figures {text!r} exists and is not a directory.")
        present = list(directory.iterdir())
        if present and not args.force:
            raise DataError(f"--figures {text!r} is not empty ({len(present)} entries); "
                            "give a new directory, or --force to replace its figures.")
        others = [p.name for p in present if p.suffix.lower() not in (".svg", ".pdf", ".png")
                  or not p.is_file()]
        if others:
            raise DataError(f"--figures {text!r} holds files that are not figures "
                            f"({', '.join(others[:3])}); modelmine replaces figures only.")
        for p in present:
            p.unlink()
    directory.mkdir(parents=True, exist_ok=True)
    return directory


def _error_control(run: MiningRun, data: LoadedData, directory: Path,
                   args: argparse.Namespace) -> Any:
    """--pfer / --fdr: the run's genes checked by stabilitySelection and stabl on
    complementary pairs fitted beside it (error_control.csv, error_control/); the run
    itself is as asked."""
    from ..evaluation import check_error_control

    check = check_error_control(run, data, pfer=args.pfer, fdr=args.fdr,
                                groups=data.groups, sample_weight=data.sample_weight,
                                n_jobs=args.n_jobs, executor=args.executor,
                                progress=False if args.quiet else None)
    check.run.save(directory / "error_control", report=False)
    safe_frame(check.table).to_csv(directory / "error_control.csv", index=False)
    return check


def _resumable(partial: Path) -> bool:
    """Whether the checkpoint in ``partial`` can be read (so --resume can continue it)."""
    from ..pipeline import _store

    try:
        _store.read_checkpoint(partial)
    except (DataError, OSError, ValueError):
        return False
    return True


def _run_or_resume(args: argparse.Namespace, out: Path, partial: Path,
                   resume: bool) -> tuple[MiningRun, LoadedData]:
    import shutil

    from .. import pipeline
    from ..pipeline import _store

    progress = False if args.quiet else None
    if resume:
        if not (partial / _store.CHECKPOINT).exists():
            raise DataError(f"No interrupted run to resume for {str(out)!r}: nothing at "
                            f"{str(partial)!r}." + (" That run finished." if out.exists()
                                                     else ""))
        recorded = _store.read_checkpoint(partial)["data"]
        if _annotating(args):
            from ..datasets._biodata import import_anndata

            import_anndata()  # fail before the long work when the extra is missing
        options = dict(recorded.get("read_options") or {})
        data = _read_input(args, recorded["source"],
                           None if options.get("labels") else recorded["target"], options)
        resumed = pipeline.resume(partial, data, n_jobs=args.n_jobs, executor=args.executor,
                                  progress=progress)
        assert isinstance(resumed, MiningRun)  # the partial directory holds checkpoint.json
        run = resumed
    else:
        operators = list(args.operator or pipeline.DEFAULT_OPERATORS)
        op_params: dict[str, dict[str, Any]] = {}
        strategy = getattr(args, "itemset_strategy", None)
        if strategy is not None:
            for name in ("closedApr", "maxApr"):
                if name in operators:
                    op_params[name] = {"strategy": strategy}
        # --pfer / --fdr check the run as asked, beside it (_error_control): they never
        # change its resampling or its features (issue 26)
        spec = run_spec(args, operators=operators, operator_params=op_params)
        data = _read_input(args, args.data, args.target)
        if not data.read_options.get("modalities") or args.data is not None:
            data = dataclasses.replace(data, source=_absolute_source(data.source))
        if "n_features" not in getattr(args, "given", ()):  # the default m adapts to p
            from ..constants import default_n_features

            spec = spec.replace(func="run", n_features=default_n_features(data.shape[1]))
        if _annotating(args):
            from ..datasets._biodata import import_anndata

            import_anndata()  # fail before the long work when the extra is missing
        if partial.is_symlink():
            raise DataError(f"{str(partial)!r} is a symbolic link; modelmine never writes "
                            "a run through one. Remove it and run again.")
        if partial.exists():
            if (partial / _store.CHECKPOINT).exists() and not args.force:
                raise DataError(f"An interrupted run of {str(out)!r} waits in "
                                f"{str(partial)!r}: continue it with `modelmine run --resume "
                                f"{out}`, or pass --force to start over.")
            # Under the lock: a stale or abandoned checkpoint (or one --force replaces).
            shutil.rmtree(partial)
        run = pipeline.run(data, spec=spec, n_jobs=args.n_jobs, executor=args.executor,
                           run_dir=partial, progress=progress,
                           command=["modelmine", *getattr(args, "argv", sys.argv[1:])])
    return run, data


def _extras_asked(args: argparse.Namespace) -> bool:
    """Whether the command asks for an output added to a finished run."""
    return bool(_annotating(args) or getattr(args, "evaluate", False)
                or getattr(args, "pfer", None) is not None
                or getattr(args, "fdr", None) is not None
                or getattr(args, "null", None) is not None
                or getattr(args, "figures", None) is not None
                or getattr(args, "gene_sets", None) is not None)


def _finished(out: Path, partial: Path) -> bool:
    """A finished run in DIR (and no interrupted one beside it)."""
    return (not (partial / "checkpoint.json").exists() and out.is_dir()
            and (out / "run.json").is_file())


def _load_finished(args: argparse.Namespace, out: Path) -> tuple[MiningRun, LoadedData]:
    """The finished run of DIR, and its data read again as the run recorded them."""
    if _annotating(args):
        from ..datasets._biodata import import_anndata

        import_anndata()  # fail before the work when the extra is missing
    run = MiningRun.load(out)
    recorded = json.loads((out / "run.json").read_text(encoding="utf-8"))["data"]
    options = dict(recorded.get("read_options") or {})
    data = _read_input(args, recorded["source"],
                       None if options.get("labels") else recorded["target"], options)
    return run, data


#: The option that asks for each extra output, for the message when one fails.
_EXTRA_OPTION = {"annotate": "--annotate", "evaluate": "--evaluate",
                 "enrichment": "--gene-sets",
                 "error control": "--pfer/--fdr", "null": "--null", "report": "--figures"}


def _extras(run: MiningRun, data: LoadedData, out: Path, args: argparse.Namespace,
            figures: Path | None) -> tuple[Any, Any]:
    """The outputs added to the finished run in DIR (--annotate, --gene-sets, --evaluate,
    --pfer/--fdr, --null, --figures), each written aside and moved into DIR when it is complete.

    A step that fails leaves DIR as it was (the run, and the steps that finished before
    it), and its message names DIR and the command that adds the step later."""
    from ..pipeline import _store

    null = check = None
    step = ""
    try:
        if _annotating(args):
            step = "annotate"
            from ..report import annotate_anndata

            with _staged(out) as stage:
                annotate_anndata(run, data, full=bool(getattr(args, "annotate_full", False))
                                 ).write_h5ad(stage / "annotated.h5ad")
        if getattr(args, "gene_sets", None) is not None:
            step = "enrichment"
            with _staged(out) as stage:
                safe_frame(run.enrichment(args.gene_sets)).to_csv(stage / "enrichment.csv",
                                                                   index=False)
        if getattr(args, "evaluate", False):
            step = "evaluate"
            with _staged(out) as stage:
                _evaluate_run(run, data, args, stage)
        if getattr(args, "pfer", None) is not None or getattr(args, "fdr", None) is not None:
            step = "error control"
            with _staged(out) as stage:
                check = _error_control(run, data, stage, args)
        if getattr(args, "null", None) is not None:
            step = "null"
            with _staged(out, merge=("signatures",)) as stage:  # its tables, with q-values
                null = _null(run, data, stage, args)
        if (null is not None or check is not None or figures is not None
                or getattr(args, "gene_sets", None) is not None):
            step = "report"
            evaluation = (pd.read_csv(out / "evaluation.csv")
                          if (out / "evaluation.csv").exists() else None)
            enriched = (read_enrichment(out / "enrichment.csv")
                        if (out / "enrichment.csv").exists() else None)
            with _staged(out) as stage:
                _store.write_report(run, stage / "report.html", evaluation=evaluation,
                                    null=null, error_control=check, figures_dir=figures,
                                    enrichment=enriched)
    except BaseException as exc:
        exc.__notes__ = [*getattr(exc, "__notes__", []),
                         f"The run itself is complete in {str(out)!r}; only {step} failed. "
                         f"Add it later with `modelmine run --resume {out} "
                         f"{_EXTRA_OPTION[step]} ...`."]
        raise
    return null, check


@contextlib.contextmanager
def _staged(out: Path, merge: tuple[str, ...] = ()) -> Iterator[Path]:
    """A temporary directory beside DIR whose entries move into DIR when the block ends
    without error, replacing those of the same name; removed either way. The directories
    named in ``merge`` (DIR's own, such as ``signatures``) start empty in it and have
    their files moved into DIR's one by one (the others are replaced whole)."""
    import shutil
    import tempfile

    stage = Path(tempfile.mkdtemp(prefix=f".{out.name}.partial-", dir=out.parent))
    try:
        for name in merge:
            (stage / name).mkdir()
        yield stage
        for entry in sorted(stage.iterdir()):
            target = out / entry.name
            if entry.name in merge:
                target.mkdir(exist_ok=True)
                for item in sorted(entry.iterdir()):
                    os.replace(item, target / item.name)
                continue
            if target.is_dir() and not target.is_symlink():
                shutil.rmtree(target)
            os.replace(entry, target)
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def _null(run: MiningRun, data: LoadedData, directory: Path, args: argparse.Namespace) -> Any:
    """The permutation null of a finished run, written beside it (null.csv,
    null_itemsets.csv) and drawn in its report (with the evaluation of --evaluate)."""
    from ..evaluation import selection_null
    from ..pipeline import _store

    itemsets = next((s for s in run.signatures.values() if isinstance(s, Signature)
                     and s.provenance.get("itemsets")), None)
    if not args.quiet:
        print(f"modelmine {args.command}: {_null_estimate(run, data, args)}",
              file=sys.stderr, flush=True)
    log = None if sys.stdout.isatty() else directory / "null.log"
    null = selection_null(data.X, data.y, run=run, n_permutations=args.null,
                          # the run's own seed (--random-state, or the recorded one on --resume)
                          itemsets=itemsets, random_state=int(run.base_models.random_state),
                          n_jobs=args.n_jobs,
                          executor=args.executor, progress=False if args.quiet else None,
                          # an adjusted run's covariates come with it: the null keeps their
                          # effect (Freedman-Lane; the classes' logistic model on them)
                          groups=data.groups, sample_weight=data.sample_weight, log=log)
    safe_frame(null.to_frame()).to_csv(directory / "null.csv")
    _store.write_null_tables(run, directory, null)
    if len(null.itemsets):
        safe_frame(null.itemset_table()).to_csv(directory / "null_itemsets.csv", index=False)
    return null


def _null_estimate(run: MiningRun, data: LoadedData, args: argparse.Namespace) -> str:
    """How long the permutation null will take: one refit of the selector on the first
    resample, timed, times the permutations and the base models, over the workers."""
    import os
    import time


    base = run.base_models
    fits = args.null * base.n_models
    what = f"permutation null: {args.null} permutations x {base.n_models} refits"
    try:
        selector = run.spec.selectors[0]
        rows = base.resample(0)
        y = np.unique(data.y, return_inverse=True)[1]
        start = time.perf_counter()
        selector.select(data.X[rows], y[rows], random_state=0)
        one = time.perf_counter() - start
    except Exception:  # an estimate only: the null itself reports any real failure
        return what
    if args.n_jobs is None:
        workers = 1
    elif args.n_jobs < 0:
        workers = max(1, (os.cpu_count() or 1) + 1 + args.n_jobs)
    else:
        workers = args.n_jobs
    total = one * fits / min(workers, fits)
    when = f"about {total / 60:.0f} min" if total >= 90 else f"about {total:.0f} s"
    return (f"{what} of {base.selector_name}, {when} on {workers} worker(s) (one refit took "
            f"{one:.2g} s); progress in the bar" + ("" if sys.stdout.isatty() else
                                                   " and in null.log"))


def _evaluate_run(run: MiningRun, data: LoadedData, args: argparse.Namespace,
                  directory: Path) -> None:
    """`modelmine run --evaluate`: the KDD 2012 protocol on the run's own outcome, selector,
    scaling and operators, written as DIR/evaluation.csv, and the report rebuilt with it.

    For a continuous or survival outcome, the run's single-model operators are evaluated
    (one signature per fold) with the outcome's first model (ridge regression, a Cox
    model); ``error`` is then the RMSE, or 1 - Harrell's concordance, named in
    ``error_measure``."""
    from ..evaluation import evaluate

    # the run's own selector (built for its outcome, scaled as the run built it), its
    # operators (for an outcome, the single-model ones) and its settings, per fold
    result = evaluate(
        data.X, data.y, run=run, n_folds=args.n_folds, feature_names=data.feature_names,
        n_jobs=args.n_jobs, executor=args.executor, progress=False if args.quiet else None,
        # an adjusted run's covariates come with it: each fold's fits adjusted, as the run's
        groups=data.groups, sample_weight=data.sample_weight)
    if run.spec.outcome_kind.classes:
        table = result.to_frame("table2").reset_index()[["operator", "error", "stability",
                                               "error_points", "stability_points"]]
    else:
        table = _outcome_table(result)
    safe_frame(table).to_csv(directory / "evaluation.csv", index=False)
    run.report(directory / "report.html", evaluation=table)


def _outcome_table(result: Any) -> pd.DataFrame:
    """evaluation.csv of an outcome: per operator, the error (RMSE, or 1 - Harrell's C) and
    the stability across folds (Nogueira), then the outcome's own measures."""
    summary = result.summary()
    stability = result.stability()[["operator", "nogueira"]]
    table = summary.drop(columns=["selector", "classifier", "model"],
                         errors="ignore").merge(
        stability.rename(columns={"nogueira": "stability"}), on="operator")
    error, measure = result.outcome_kind.error_of(table)
    table.insert(1, "error", error)
    table.insert(2, "stability", table.pop("stability"))
    table.insert(3, "error_measure", measure)
    return table


def cmd_operators(args: argparse.Namespace) -> int:
    from ..operators import available_operators as available

    frame = available()
    if args.kind:
        frame = frame[frame["kind"] == args.kind]
    cols = [c for c in ("name", "kind", "origin", "description") if c in frame.columns]
    frame = frame[cols]
    if args.format == "csv":
        sys.stdout.write(frame.to_csv(index=False))
    elif args.format == "json":
        print(json.dumps(frame.to_dict(orient="records"), indent=2))
    elif not args.quiet:
        with pd.option_context("display.max_colwidth", 70, "display.width", 200):
            print(frame.to_string(index=False))
    return 0


def cmd_lattice(args: argparse.Namespace) -> int:
    source = Path(args.source)
    if source.is_dir():
        base = BaseModels.load(source)
        default = source / f"lattice.{args.format}"
    else:
        data = _read_input(args, args.source, args.target)
        base = None
        default = Path(f"lattice.{args.format}")
    out = Path(args.out) if args.out else default
    if out.suffix.lower() != f".{args.format}":
        raise DataError(f"--out {str(out)!r} does not end in .{args.format} (the --format).")
    with atomic_file(out, force=args.force) as tmp:
        if base is None:
            base = _bootstrap(data, args)
        lattice = _mine_lattice(base, args)
        if args.format == "html":
            from ..constants import LATTICE_HTML_MAX_ITEMSETS

            _lattice_html(lattice, source, tmp, LATTICE_HTML_MAX_ITEMSETS)
        elif args.format in ("png", "svg"):
            lattice.draw(tmp)
        else:
            lattice.write(tmp)
    graph = lattice.graph
    _say(args, f"wrote {out} ({graph.number_of_nodes()} itemsets, "
               f"{graph.number_of_edges()} edges, min support {args.min_support:g})")
    if args.format == "html":
        from ..constants import LATTICE_HTML_MAX_ITEMSETS

        if len(lattice.closed) > LATTICE_HTML_MAX_ITEMSETS:
            _say(args, f"the page holds the closed itemsets of highest support (at most "
                       f"{LATTICE_HTML_MAX_ITEMSETS:,} of {len(lattice.closed):,}) and says so; "
                       "raise --min-support to explore a smaller lattice whole")
    return 0


def _mine_lattice(base: BaseModels, args: argparse.Namespace) -> Any:
    """The lattice at --min-support; when there are too many itemsets (the guard that also
    leaves a run's report without them), say so and how to mine with a higher support."""
    from ..patterns import ItemsetLattice, TooManyItemsetsError

    try:
        return ItemsetLattice.from_base(base, min_support=args.min_support)
    except TooManyItemsetsError as exc:
        raise DataError(
            f"No lattice at minimum support {args.min_support:g}: {exc} Mine with a higher "
            f"support: modelmine lattice {args.source} --min-support S (S above "
            f"{args.min_support:g}).") from exc


def _lattice_html(lattice: Any, source: Path, tmp: Path, max_itemsets: int) -> None:
    """The explorer page, with the run's signatures when ``source`` is a run directory."""
    signatures = None
    if source.is_dir() and (source / "run.json").exists():
        signatures = MiningRun.load(source).signatures
    lattice.to_html(tmp, signatures=signatures, max_itemsets=max_itemsets,
                    title=f"modelmine lattice explorer: {source.resolve().name}")


def cmd_evaluate(args: argparse.Namespace) -> int:
    from ..evaluation import evaluate
    from ..operators import operator_kinds

    seed = 0 if args.random_state is None else args.random_state
    out = args.out or f"modelmine-evaluation-{seed}"
    check_output_target(out, force=args.force)
    if args.operator:
        operator_kinds(args.operator)
    spec = door_spec(args, door_of("evaluate"))  # checked before the data are read
    data = _read_input(args, args.data, args.target)
    if args.n_features > data.shape[1]:  # refused, not clamped: as `modelmine run`
        raise DataError(f"-m/--n-features must be at most the {data.shape[1]} features of "
                        f"{data.source!r}; got {args.n_features}.")
    if not spec.outcome_kind.classes:
        return _evaluate_outcome(args, data, spec, out)
    result = evaluate(
        data.X, data.y, selectors=args.selector, operators=args.operator,
        classifiers=args.classifier, n_folds=args.n_folds, feature_names=data.feature_names,
        n_jobs=args.n_jobs, executor=args.executor, cache_dir=args.cache,
        progress=False if args.quiet else None, groups=data.groups,
        sample_weight=data.sample_weight, covariates=data.covariates, spec=spec)
    table2 = result.to_frame("table2")
    multi = [op for op, kind in result.operator_kinds.items() if kind == "multi"]
    with atomic_directory(out, force=args.force) as tmp:
        safe_frame(result.folds).to_csv(tmp / "folds.csv", index=False)
        safe_frame(result.points()).to_csv(tmp / "points.csv", index=False)
        safe_frame(table2).to_csv(tmp / "table2.csv")
        safe_frame(result.stability()).to_csv(tmp / "stability.csv")
        safe_frame(result.robustness_table()).to_csv(tmp / "robustness.csv")
        if multi:
            safe_frame(result.to_frame("table4")).to_csv(tmp / "table4.csv")
        # The report's error vs stability plot reads this file.
        safe_frame(table2.reset_index()[["operator", "error", "stability", "error_points",
                                         "stability_points"]]).to_csv(
            tmp / "evaluation.csv", index=False)
        _write_evaluation_record(tmp, result.settings, data.source)
    if not args.quiet:
        with pd.option_context("display.width", 160, "display.precision", 3):
            print(f"{args.n_folds}-fold evaluation on {data.source} "
                  f"({result.settings.get('seconds', float('nan')):.0f} s); KDD 2012 Table 2 "
                  "points, higher is better:")
            print(table2.to_string())
        print(f"wrote {out}")
    return 0


def _evaluate_outcome(args: argparse.Namespace, data: LoadedData, spec: Any,
                      out: str) -> int:
    """`modelmine evaluate --outcome regression|survival`: the folds' measures, their
    summary, the stability across folds and (regression) the paired differences."""
    from ..evaluation import evaluate

    outcome = spec.outcome
    # --sample-weight, --cache and --scheduler are honoured as for classes (issue 40, item 13).
    result = evaluate(
        data.X, data.y, selectors=args.selector, operators=args.operator,
        classifiers=args.classifier, n_folds=args.n_folds, feature_names=data.feature_names,
        n_jobs=args.n_jobs, executor=args.executor, cache_dir=args.cache,
        progress=False if args.quiet else None, groups=data.groups,
        sample_weight=data.sample_weight, covariates=data.covariates, spec=spec)
    summary = result.summary()
    with atomic_directory(out, force=args.force) as tmp:
        safe_frame(result.folds).to_csv(tmp / "folds.csv", index=False)
        safe_frame(summary).to_csv(tmp / "summary.csv", index=False)
        safe_frame(result.stability()).to_csv(tmp / "stability.csv", index=False)
        safe_frame(result.predictions).to_csv(tmp / "predictions.csv", index=False)
        if spec.outcome_kind.sample_loss is not None:  # errors per sample: pairs
            safe_frame(result.paired_differences()).to_csv(tmp / "paired_differences.csv",
                                                           index=False)
        _write_evaluation_record(tmp, result.settings, data.source)
    if not args.quiet:
        with pd.option_context("display.width", 160, "display.precision", 3):
            print(f"{args.n_folds}-fold evaluation ({outcome}) on {data.source}:")
            print(summary.to_string(index=False))
        print(f"wrote {out}")
    return 0


def cmd_markers(args: argparse.Namespace) -> int:
    """`modelmine markers DATA.h5ad --groupby obs:COL --out DIR`: marker_panels, written
    as tables, a GMT file, an annotations .h5ad and an HTML report (docs/singlecell.md).
    DIR is checked before the work and locked while it is written, as `modelmine run`'s;
    the tables are written before the report, so a failing report never loses them."""
    from ..datasets._biodata import import_anndata
    from ..singlecell import marker_panels

    anndata = import_anndata()
    source = Path(args.data)
    if source.suffix.lower() != ".h5ad" or not source.is_file():
        raise DataError(f"DATA must be an existing .h5ad file (cells x genes); got "
                        f"{args.data!r}.")
    out = Path(args.out or "modelmine-markers-"
               f"{args.random_state if args.random_state is not None else 'latest'}")
    check_output_target(out, force=args.force)
    with directory_lock(out, "markers run"):
        # Under the lock no other run writes DIR: what a killed one left is stale.
        remove_stale_partials(out)
        try:
            adata = anndata.read_h5ad(source)
        except Exception as exc:  # h5py and anndata raise many types on a foreign file
            raise DataError(f"Cannot read AnnData file {args.data!r}: {_first_line(exc)}") \
                from None
        seed = 0 if args.random_state is None else args.random_state
        try:
            result = marker_panels(
                adata, args.groupby, layer=args.layer, use_raw=bool(args.use_raw),
                direction=args.direction, reference=args.reference, groups=args.groups,
                n_jobs=args.n_jobs, progress=False if args.quiet else None,
                spec=door_spec(args, door_of("marker_panels"), random_state=seed))
        except DataError as exc:  # the API calls the data 'AnnData': name the file
            raise DataError(str(exc).replace("'AnnData'", repr(str(source)))) from None
        failed: BaseException | None = None
        with atomic_directory(out, force=args.force) as tmp:
            _write_names_csv(safe_frame(result.table), tmp / "markers.csv")
            combos = result.combinations.assign(
                features=result.combinations["features"].map(" + ".join))
            _write_names_csv(safe_frame(combos), tmp / "combinations.csv")
            (tmp / "panels.gmt").write_text(_gmt(result.panels, source.name),
                                            encoding="utf-8")
            _annotations(anndata, adata, result).write_h5ad(tmp / "annotations.h5ad")
            try:
                result.write_report(tmp / "report.html", adata)
            except Exception as exc:  # the tables above are kept whatever the report does
                failed = exc
        if failed is not None:
            failed.__notes__ = [*getattr(failed, "__notes__", []),
                                f"The panels are written in {str(out)!r} (markers.csv, "
                                "combinations.csv, panels.gmt, annotations.h5ad); only "
                                "report.html failed."]
            raise failed
    if not args.quiet:
        for group, genes in result.panels.items():
            print(f"{group}: {', '.join(genes)}")
        print(f"wrote {out}")
    return 0


def _write_names_csv(frame: pd.DataFrame, path: Path) -> None:
    """``frame`` as CSV; every field quoted when a text cell holds a carriage return,
    which the csv writer (quoting only the "\\n" of its line terminator) leaves bare and
    readers take for the end of a row (issue 40: a gene named "g\\r")."""
    text = frame.select_dtypes(include=["object", "string"])
    bare_cr = any(text[c].map(lambda v: isinstance(v, str) and "\r" in v).any()
                  for c in text.columns)
    frame.to_csv(path, index=False, quoting=csv.QUOTE_ALL if bare_cr else csv.QUOTE_MINIMAL)


def _gmt_field(text: object) -> str:
    """One field of a GMT line: tabs, line breaks and other control characters (which
    would split the field or the line into bogus sets) become single spaces."""
    return " ".join("".join(ch if ch.isprintable() else " " for ch in str(text)).split())


def _gmt(panels: dict[str, list[str]], source: str) -> str:
    """panels.gmt: one line per cluster, its name, a description, its genes (Broad's GMT)."""
    lines = ["\t".join([_gmt_field(group),
                        _gmt_field(f"modelmine panel of {group} ({source})"),
                        *(_gmt_field(g) for g in genes)])
             for group, genes in panels.items()]
    return "\n".join(lines) + "\n"


def _annotations(anndata: Any, adata: Any, result: Any) -> Any:
    """annotations.h5ad: the cells' obs, the reported genes (var with the panel columns)
    and their values as read, and the panels in uns in scanpy's layout, so that
    ``sc.pl.rank_genes_groups_dotplot`` plots the file as it is."""
    import scipy.sparse as sp

    from ..report import h5_key

    settings = result.settings
    key = "modelmine_markers"
    genes = list(dict.fromkeys(result.table["feature"].astype(str)))
    raw = bool(settings.get("use_raw"))
    source = adata.raw if raw else adata
    index = pd.Index([str(v) for v in source.var_names])
    cols = index.get_indexer(pd.Index(genes))
    X = source.X if raw or settings.get("layer") is None else adata.layers[settings["layer"]]
    values = X[:, cols]
    # sparse stays sparse, except under 50 genes, where scanpy's dendrogram (which its
    # dotplot draws) averages the matrix itself and fails on a sparse one
    values = sp.csr_matrix(values) if sp.issparse(values) and len(genes) >= 50 else \
        np.asarray(values.toarray() if sp.issparse(values) else values)
    var = pd.DataFrame(index=pd.Index(genes))
    for group, panel in result.panels.items():  # "/" is refused in h5ad keys
        var[f"{key}_{h5_key(group)}"] = var.index.isin(panel)
    obs = adata.obs.copy()
    # scanpy groups by a categorical column (it bins a numeric one): the clusters as text,
    # in the panels' order
    groupby = settings["groupby"]
    obs[groupby] = pd.Categorical(obs[groupby].astype(str), categories=list(result.panels))
    notes = anndata.AnnData(X=values, obs=obs, var=var)
    notes.uns[key] = adata.uns[key]
    if raw:  # scanpy's dotplot reads .raw when the panels say use_raw
        notes.raw = notes.copy()
    return notes


def _write_evaluation_record(directory: Path, settings: Any, source: str) -> None:
    """``evaluation.json``: the settings, the data and the command line of an evaluation."""
    (directory / "evaluation.json").write_text(json.dumps(
        {"settings": settings, "data": source, "command": ["modelmine", *sys.argv[1:]]},
        indent=1, default=str), encoding="utf-8")


def read_evaluation(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read ``evaluation.csv`` of ``modelmine evaluate`` for the report."""
    file = Path(path)
    if not file.is_file():
        raise DataError(f"No such evaluation file: {str(file)!r} (the evaluation.csv that "
                        "`modelmine evaluate --out DIR` writes).")
    try:
        table = pd.read_csv(file)
    except (pd.errors.ParserError, UnicodeDecodeError, pd.errors.EmptyDataError) as exc:
        raise DataError(f"{str(file)!r} is not a readable CSV ({_first_line(exc)}).") from None
    table.columns = [restore_cell(c) for c in table.columns]
    for col in table.columns:
        if pd.api.types.is_object_dtype(table[col]) or pd.api.types.is_string_dtype(
                table[col]):
            table[col] = table[col].map(restore_cell)  # what safe_frame wrote
    missing = {"operator", "error", "stability"} - set(table.columns)
    if missing:
        raise DataError(f"{str(file)!r} lacks the column(s) {sorted(missing)}: it is not the "
                        "evaluation.csv of `modelmine evaluate`.")
    return table


def read_enrichment(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read the ``enrichment.csv`` of ``modelmine run --gene-sets`` for the report."""
    from ..diagnostics._enrichment import ENRICHMENT_COLUMNS

    file = Path(path)
    try:
        table = pd.read_csv(file, keep_default_na=False, na_values={
            c: [""] for c in ENRICHMENT_COLUMNS if c not in ("signature", "gene_set", "genes")},
            dtype={"signature": str, "gene_set": str, "genes": str})
    except (OSError, pd.errors.ParserError, UnicodeDecodeError, ValueError,
            pd.errors.EmptyDataError) as exc:
        raise DataError(f"{str(file)!r} is not a readable CSV ({_first_line(exc)}).") from None
    table.columns = [restore_cell(c) for c in table.columns]
    for col in ("signature", "gene_set", "genes"):
        if col in table.columns:
            table[col] = table[col].map(restore_cell)  # what safe_frame wrote
    missing = [c for c in ENRICHMENT_COLUMNS if c not in table.columns]
    if missing:
        raise DataError(f"{str(file)!r} lacks the column(s) {missing}: it is not the "
                        "enrichment.csv of `modelmine run --gene-sets`.")
    return table


def _first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def cmd_report(args: argparse.Namespace) -> int:
    d = Path(args.directory)
    if not d.exists():
        raise DataError(f"No such run directory: {str(d)!r}.")
    if not d.is_dir():
        raise DataError(f"{str(d)!r} is not a directory; give the --out DIR of "
                        "`modelmine run`.")
    if not (d / "base_models.npz").exists():
        raise DataError(f"{str(d)!r} holds no base_models.npz: it is not a run directory of "
                        "`modelmine run`.")
    out = Path(args.out) if args.out else d / "report.html"
    evaluation = read_evaluation(args.evaluation) if args.evaluation else None
    figures = _figures_dir(args)
    with atomic_file(out, force=args.force or args.out is None) as tmp:
        if evaluation is None and (d / "evaluation.csv").exists():
            evaluation = read_evaluation(d / "evaluation.csv")
        enriched = (read_enrichment(d / "enrichment.csv")
                    if (d / "enrichment.csv").exists() else None)
        MiningRun.load(d).report(tmp, evaluation=evaluation, figures_dir=figures,
                                 enrichment=enriched)
    _say(args, f"wrote {out}")
    return 0


def cmd_datasets(args: argparse.Namespace) -> int:
    from ..datasets import available

    table = available()
    if getattr(args, "action", None) in (None, "list"):
        if not args.quiet:
            shown = table.drop(columns=["reference"])
            with pd.option_context("display.max_colwidth", 60, "display.width", 200):
                print(shown.to_string())
            print(f"\nuse one with `modelmine run {EMBEDDED_PREFIX}NAME`, or export it with "
                  "`modelmine datasets export NAME FILE`")
        return 0
    data = read_data(EMBEDDED_PREFIX + args.name)
    out = Path(args.out)
    suffix = out.suffix.lower()
    if suffix not in (".csv", ".tsv", ".parquet", ".mat"):
        raise DataError(f"Cannot export to {str(out)!r}: use a .csv, .tsv, .parquet or .mat "
                        "file name.")
    with atomic_file(out, force=args.force) as tmp:
        if suffix == ".mat":
            from scipy.io import savemat

            savemat(tmp, {"X": data.X, "Y": np.asarray(data.y).reshape(-1, 1)},
                    do_compression=True)
        else:
            X = data.X.toarray() if hasattr(data.X, "toarray") else data.X
            frame = pd.DataFrame(X, columns=data.feature_names)
            if np.all(frame.to_numpy() == np.round(frame.to_numpy())):
                frame = frame.astype(np.int64)
            frame["class"] = data.y
            if suffix == ".parquet":
                from ..exceptions import require_extra

                require_extra("pyarrow", "parquet", "Writing Parquet")
                frame.to_parquet(tmp, index=False)
            else:
                frame.to_csv(tmp, index=False, sep="\t" if suffix == ".tsv" else ",")
    _say(args, f"wrote {out} ({data.shape[0]} samples x {data.shape[1]} features + 'class')")
    return 0
