"""The subcommands of ``modelmine``: run, operators, lattice, evaluate, report, datasets."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp

from ..base_models import BaseModels, bootstrap
from ._output import atomic_directory, atomic_file
from ._readers import EMBEDDED_PREFIX, DataError, LoadedData, read_data

__all__ = ["cmd_datasets", "cmd_evaluate", "cmd_lattice", "cmd_operators",
           "cmd_report", "cmd_run", "run_to_directory"]

DEFAULT_OPERATORS = ("closedApr", "allMed")


def _say(args: argparse.Namespace, text: str = "") -> None:
    if not args.quiet:
        print(text)


def _operator_kinds(names: list[str]) -> dict[str, str]:
    """Check operator names against the registry; return name -> 'single' | 'multi'."""
    from .._validation import closest_names
    from ..operators import available

    frame = available()
    kinds = dict(zip(frame["name"].astype(str), frame["kind"].astype(str)))
    for name in names:
        if name not in kinds:
            close = closest_names(name, kinds, n=1)
            hint = f" Did you mean {close[0]!r}?" if close else ""
            raise DataError(f"Unknown operator {name!r}; see `modelmine operators`.{hint}")
    return {n: kinds[n] for n in names}


def _bootstrap(data: LoadedData, args: argparse.Namespace,
               run_dir: Path | None = None, resume: bool = False) -> BaseModels:
    m = min(args.features, data.shape[1])
    return bootstrap(data.X, data.y, selector=args.selector, n_bootstraps=args.bootstraps,
                     n_features=m, feature_names=data.feature_names,
                     random_state=args.seed, n_jobs=args.jobs,
                     executor=getattr(args, "scheduler", None), run_dir=run_dir,
                     resume=resume, progress=False if args.quiet else None)


def _partial_dir(out: str | os.PathLike[str]) -> Path:
    """Where ``modelmine run --out DIR`` checkpoints its bootstraps: ``.DIR.partial``."""
    path = Path(out).expanduser()
    return path.parent / f".{path.name}.partial"


# What `run --resume` takes back from the interrupted run (everything that shapes results).
_RESUMED = ("data", "target", "selector", "bootstraps", "features", "seed", "operator",
            "signatures", "min_support")


def run_to_directory(data: LoadedData, out: str | os.PathLike[str], *, selector: str = "svm-rfe",
                     operators: list[str] | tuple[str, ...] = DEFAULT_OPERATORS,
                     n_bootstraps: int = 150, n_features: int = 20, n_signatures: int = 10,
                     min_support: float = 0.2, seed: int | None = None,
                     n_jobs: int | None = None, quiet: bool = True, force: bool = False,
                     command: list[str] | None = None) -> dict[str, Any]:
    """Everything ``modelmine run`` does, as a function: bootstrap, operators, files.

    Returns the run record (also saved as ``run.json``) with the printed summary pieces.
    """
    ns = argparse.Namespace(selector=selector, bootstraps=n_bootstraps, features=n_features,
                            seed=seed, jobs=n_jobs, quiet=quiet)
    kinds = _operator_kinds(list(operators))
    with atomic_directory(out, force=force) as tmp:
        base = _bootstrap(data, ns)
        return _write_run(tmp, Path(out), data, base, kinds, ns, n_signatures=n_signatures,
                          min_support=min_support, command=command)


def _write_run(tmp: Path, final: Path, data: LoadedData, base: BaseModels,
               kinds: dict[str, str], ns: argparse.Namespace, *, n_signatures: int,
               min_support: float, command: list[str] | None) -> dict[str, Any]:
    from ..operators import aggregate
    from ..report import (
        operator_result,
        report_itemsets,
        run_diagnostics,
        signatures_json,
        write_report,
    )
    from ..report._html import library_versions
    from ..report._records import jsonable

    m = base.n_features or ns.features
    results = []
    for name, kind in kinds.items():
        if kind == "multi":
            k = min(n_signatures, base.n_models)
            res = aggregate(base, name, n_signatures=k, random_state=base.random_state % 2**32)
            params = {"n_signatures": k}
        else:
            res = aggregate(base, name, n_features=m, random_state=base.random_state % 2**32)
            params = {"n_features": m}
        results.append(operator_result(name, res, params))
    base.save(tmp / "base_models.npz")
    freq = base.summary(top=base.n_features_in).reset_index()
    freq.to_csv(tmp / "frequencies.csv", index=False)
    (tmp / "signatures.json").write_text(signatures_json(results), encoding="utf-8")
    (tmp / "signatures").mkdir()
    for result in results:
        result.to_frame(base).to_csv(tmp / "signatures" / f"{result.operator}.csv",
                                     index=False)
    diagnostics = run_diagnostics(base, results)
    diagnostics.to_csv(tmp / "diagnostics.csv", index=False)
    (tmp / "diagnostics.json").write_text(
        json.dumps(jsonable(diagnostics.to_dict(orient="records")), indent=2),
        encoding="utf-8")
    itemsets, itemsets_note = report_itemsets(base, min_support)
    if itemsets is not None:
        itemsets.to_frame().to_csv(tmp / "itemsets.csv", index=False)
    settings = {"selector": base.selector.get("name"), "b": base.n_models, "m": m,
                "k": n_signatures, "operators": list(kinds), "min_support": min_support,
                "seed": base.random_state, "jobs": ns.jobs}
    described = {"source": data.source, "format": data.format, "target": data.target,
                 "storage": "sparse" if sp.issparse(data.X) else "dense"}
    record = {"format": "modelmine.run", "format_version": 1,
              "title": f"modelmine report: {Path(data.source).name}",
              "command": command, "settings": settings, "data": described,
              "versions": library_versions()}
    (tmp / "run.json").write_text(json.dumps(jsonable(record), indent=2), encoding="utf-8")
    shown = {"operators": ", ".join(kinds), "k (alternatives)": n_signatures,
             "minimum support": min_support}
    write_report(tmp / "report.html", base, results, diagnostics=diagnostics,
                 itemsets=itemsets, itemsets_note=itemsets_note, settings=shown,
                 data_description=described, title=record["title"])
    record["results"] = results
    record["diagnostics"] = diagnostics
    record["base_models"] = base
    record["out"] = str(final)
    return record


def _summary(record: dict[str, Any], quiet: bool) -> None:
    if quiet:
        return
    base: BaseModels = record["base_models"]
    diag: pd.DataFrame = record["diagnostics"]
    nog = diag[diag["measure"] == "nogueira"].iloc[0]
    print(f"{base.n_models} base models of {base.selector.get('name')} on "
          f"{base.n_samples} samples x {base.n_features_in} features (seed {base.random_state})")
    print(f"stability of the base models (Nogueira): {nog['value']:.3f} "
          f"[95% CI {nog['ci_low']:.3f}, {nog['ci_high']:.3f}]")
    rows: list[dict[str, Any]] = []
    freq = base.subsets.mean(axis=0)
    for res in record["results"]:
        for i, sig in enumerate(res.signatures, start=1):
            if res.kind == "multi" and i > 3:
                rows.append({"operator": "", "#": "...", "size": "", "mean freq": "",
                             "top features": f"({len(res.signatures) - 3} more in the files)"})
                break
            idx = list(sig.features)
            top = ", ".join(sig.names[:5]) + (" ..." if len(sig.names) > 5 else "")
            rows.append({"operator": res.operator if i == 1 else "",
                         "#": str(i) if res.kind == "multi" else "-", "size": len(idx),
                         "mean freq": f"{freq[idx].mean():.2f}" if idx else "",
                         "top features": top})
    print(pd.DataFrame(rows).to_string(index=False))
    print(f"wrote {record['out']}/ (open {record['out']}/report.html)")


def cmd_run(args: argparse.Namespace) -> int:
    import shutil

    from ..base_models import RunDirectory

    resume = args.resume is not None
    if resume:
        if args.data is not None or args.out is not None:
            raise DataError("--resume DIR takes the data and the output directory of the "
                            "interrupted run: give neither DATA nor --out.")
        partial = _partial_dir(args.resume)
        if not (partial / "cli.json").exists():
            raise DataError(f"No interrupted run to resume for {str(args.resume)!r}: nothing "
                            f"at {str(partial)!r}."
                            + (" That run finished." if Path(args.resume).exists() else ""))
        saved = json.loads((partial / "cli.json").read_text(encoding="utf-8"))
        for key in _RESUMED:
            setattr(args, key, saved[key])
        manifest = RunDirectory.read_manifest(partial / "bootstraps")
        args.seed = int(manifest["settings"]["random_state"])
    elif args.data is None:
        raise DataError("DATA is required (a data file or embedded:NAME), unless --resume.")
    operators = args.operator or list(DEFAULT_OPERATORS)
    out = args.resume or args.out or (
        f"modelmine-run-{args.seed if args.seed is not None else 'latest'}")
    partial = _partial_dir(out)
    # Cheap checks first, so bad input fails before any long work.
    from ._output import check_output_target

    check_output_target(out, force=args.force or resume)
    kinds = _operator_kinds(list(operators))
    assert args.data is not None
    data = read_data(args.data, args.target)
    if not resume:
        if partial.exists():
            if not args.force:
                raise DataError(f"An interrupted run of {str(out)!r} waits in "
                                f"{str(partial)!r}: continue it with `modelmine run --resume "
                                f"{out}`, or pass --force to start over.")
            shutil.rmtree(partial)
        partial.mkdir(parents=True)
        (partial / "cli.json").write_text(json.dumps(
            {key: getattr(args, key) for key in _RESUMED}, indent=1), encoding="utf-8")
    with atomic_directory(out, force=args.force or resume) as tmp:
        base = _bootstrap(data, args, run_dir=partial / "bootstraps", resume=resume)
        record = _write_run(tmp, Path(out), data, base, kinds, args,
                            n_signatures=args.signatures, min_support=args.min_support,
                            command=["modelmine", *sys.argv[1:]])
    shutil.rmtree(partial, ignore_errors=True)  # DIR is complete: the checkpoints go
    _summary(record, args.quiet)
    return 0


def cmd_operators(args: argparse.Namespace) -> int:
    from ..operators import available

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
    from ..patterns import ItemsetLattice

    source = Path(args.source)
    if source.is_dir():
        base = BaseModels.load(source)
        default = source / f"lattice.{args.format}"
    else:
        data = read_data(args.source, args.target)
        base = None
        default = Path(f"lattice.{args.format}")
    out = Path(args.out) if args.out else default
    if out.suffix.lower() != f".{args.format}":
        raise DataError(f"--out {str(out)!r} does not end in .{args.format} (the --format).")
    with atomic_file(out, force=args.force) as tmp:
        if base is None:
            base = _bootstrap(data, args)
        lattice = ItemsetLattice.from_base(base, min_support=args.min_support)
        if args.format in ("png", "svg"):
            lattice.draw(tmp)
        else:
            lattice.write(tmp)
    graph = lattice.graph
    _say(args, f"wrote {out} ({graph.number_of_nodes()} itemsets, "
               f"{graph.number_of_edges()} edges, min support {args.min_support:g})")
    return 0


def cmd_evaluate(args: argparse.Namespace) -> int:
    from ..evaluation import DEFAULT_SELECTORS, evaluate
    from ._output import check_output_target

    seed = 0 if args.seed is None else args.seed
    out = args.out or f"modelmine-evaluation-{seed}"
    check_output_target(out, force=args.force)
    if args.operator:
        _operator_kinds(list(args.operator))
    data = read_data(args.data, args.target)
    m = min(args.features, data.shape[1])
    result = evaluate(
        data.X, data.y, selectors=args.selector or list(DEFAULT_SELECTORS),
        operators=args.operator, classifiers=args.classifier or ("svm", "1nn", "tree"),
        n_folds=args.folds, n_bootstraps=args.bootstraps, n_features=m,
        n_signatures=args.signatures, feature_names=data.feature_names, random_state=seed,
        n_jobs=args.jobs, executor=args.scheduler, cache_dir=args.cache,
        progress=False if args.quiet else None)
    table2 = result.table2()
    multi = [op for op, kind in result.operator_kinds.items() if kind == "multi"]
    with atomic_directory(out, force=args.force) as tmp:
        result.folds.to_csv(tmp / "folds.csv", index=False)
        result.points().to_csv(tmp / "points.csv", index=False)
        table2.to_csv(tmp / "table2.csv")
        result.stability().to_csv(tmp / "stability.csv")
        result.robustness_table().to_csv(tmp / "robustness.csv")
        if multi:
            result.table4().to_csv(tmp / "table4.csv")
        # The report's error vs stability plot reads this file.
        table2.reset_index()[["operator", "error", "stability", "error_points",
                              "stability_points"]].to_csv(tmp / "evaluation.csv", index=False)
        (tmp / "evaluation.json").write_text(json.dumps(
            {"settings": result.settings, "data": data.source,
             "command": ["modelmine", *sys.argv[1:]]}, indent=1, default=str),
            encoding="utf-8")
    if not args.quiet:
        with pd.option_context("display.width", 160, "display.precision", 3):
            print(f"{args.folds}-fold evaluation on {data.source} "
                  f"({result.settings.get('seconds', float('nan')):.0f} s); KDD 2012 Table 2 "
                  "points, higher is better:")
            print(table2.to_string())
        print(f"wrote {out}")
    return 0


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
    missing = {"operator", "error", "stability"} - set(table.columns)
    if missing:
        raise DataError(f"{str(file)!r} lacks the column(s) {sorted(missing)}: it is not the "
                        "evaluation.csv of `modelmine evaluate`.")
    return table


def _first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def cmd_report(args: argparse.Namespace) -> int:
    from ..report import report_from_directory

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
    with atomic_file(out, force=args.force or args.out is None) as tmp:
        report_from_directory(d, tmp, evaluation=evaluation)
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
                frame.to_parquet(tmp, index=False)
            else:
                frame.to_csv(tmp, index=False, sep="\t" if suffix == ".tsv" else ",")
    _say(args, f"wrote {out} ({data.shape[0]} samples x {data.shape[1]} features + 'class')")
    return 0
