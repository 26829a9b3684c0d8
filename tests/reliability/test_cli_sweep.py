"""A sweep of the command line: every option of every command, given out-of-range and
wrong-type values, must exit 2 with one line that names the option (never exit 1, never a
traceback). The options are read from the parser itself, so a new option is swept too."""

from __future__ import annotations

import argparse

import pytest
from reliability_helpers import leave_report_page_out, lines

from modelmine.cli import _main as cli_main
from modelmine.cli import build_parser, main

#: Values that no option of this type accepts.
_BAD_BY_TYPE = {
    cli_main._pos_int: ["0", "-3", "abc", "1.5", ""],
    cli_main._nonneg_int: ["-1", "x", "2.5"],
    cli_main._jobs: ["0", "many"],
    cli_main._folds: ["2", "0", "ten"],
    cli_main._fraction: ["0", "1.5", "-0.2", "nan", "inf", "abc"],
    cli_main._pos_real: ["0", "-1", "nan", "inf", "abc"],
    cli_main._open_fraction: ["0", "1", "1.5", "-0.2", "nan", "abc"],
    cli_main._permutations: ["9", "0", "-5", "ten"],
    cli_main._selector_param: ["novalue", "=1", "no_such_param=1"],
}

#: Values too large for the data at hand (they pass the parser; the command refuses them).
#: m and the signature size above p are not refused: they are capped at p with a warning
#: (the one policy, modelmine.spec.capped; test_reliability_defects checks it).
_TOO_LARGE = {"n_bootstraps": "1000000000000"}

#: Free-text options and a value each that names nothing that exists.
_NOWHERE = {
    "selector": "no-such-selector",
    "operator": "noSuchOperator",
    "target": "no_column",
    "covariates": "no_column",
    "classifier": "no-such-classifier",
    "resume": "/nonexistent/run",
    "evaluation": "/nonexistent/evaluation.csv",
    "cache": "/dev/null/cache",
    "out": "/dev/null/out",
    "labels": "/nonexistent/labels.csv",
    "labels_column": "no_column",
    "index_col": "no_column",
    "layer": "no_layer",
    "drop": "no_column",
    "groups": "no_column",
    "weights": "no_column",
    "time": "no_column",
    "event": "no_column",
    "keep_columns": "no_such_*",
    "figures": "/dev/null/figures",
    "gene_sets": "/nonexistent/sets.gmt",
    "modalities": "rna=/nonexistent/rna.csv",
}

#: Options that take any value or none (flags), or whose "bad" value is legitimately used.
_SKIP = {"help", "version", "quiet", "verbose", "debug", "force", "executor", "command", "action",
         "transpose", "backed", "stratify", "annotate", "evaluate", "weighted_resampling",
         "per_class", "annotate_full", "intersect",
         "use_raw"}  # a flag; on a table it is refused (test_reliability_round5)


def _commands(tmp, data_csv, finished_run):
    """A valid command line of each command, into which one bad option is put."""
    fast = ["-s", "anova", "-b", "12", "-m", "5", "--seed", "1"]
    return {
        "run": ["run", str(data_csv), "-t", "y", *fast, "--out", str(tmp / "o")],
        "lattice": ["lattice", str(data_csv), "-t", "y", *fast, "--out", str(tmp / "l.graphml")],
        "evaluate": [
            "evaluate",
            str(data_csv),
            "-t",
            "y",
            "-s",
            "anova",
            "-o",
            "mostFreq",
            "-c",
            "tree",
            "-b",
            "4",
            "-m",
            "3",
            "--folds",
            "3",
            "--out",
            str(tmp / "e"),
        ],
        "report": ["report", str(finished_run), "--out", str(tmp / "r.html")],
        "operators": ["operators"],
        "datasets": ["datasets", "export", "colon", str(tmp / "c.csv")],
    }


def _options(command: str) -> list[argparse.Action]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    chosen = sub.choices[command]
    if command == "datasets":
        inner = next(a for a in chosen._actions if isinstance(a, argparse._SubParsersAction))
        chosen = inner.choices["export"]
    # hidden options are the old spellings of renamed ones (deprecated, swept as the new)
    return [a for a in chosen._actions if a.option_strings and a.dest not in _SKIP
            and a.help != argparse.SUPPRESS]


def _setting_values(action: argparse.Action) -> list[str]:
    """Bad values of a run setting's option, by its declared constraint (the options of
    modelmine.spec.SETTINGS parse with the constraint, not with a function of the CLI)."""
    from modelmine.spec import SETTINGS, Fraction, Integer

    one = next((s for s in SETTINGS if set(s.flags) & set(action.option_strings)), None)
    if one is None or not one.flags:
        return []
    if isinstance(one.constraint, Integer):
        return ["0", "-3", "abc", "1.5", ""]
    if isinstance(one.constraint, Fraction):
        return ["0", "1.5", "-0.2", "nan", "abc"]
    return ["bogus"]  # a name of no registered operator, a seed or support that is no number


def _cases():
    for command in ("run", "lattice", "evaluate", "report", "operators", "datasets"):
        for action in _options(command):
            opt = max(action.option_strings, key=len)
            values = list(_BAD_BY_TYPE.get(action.type, []) or _setting_values(action))
            if action.choices:
                values.append("bogus")
            if action.dest in _TOO_LARGE:
                values.append(_TOO_LARGE[action.dest])
            if action.dest in _NOWHERE and action.type is None and not action.choices:
                values.append(_NOWHERE[action.dest])
            for value in values:
                yield pytest.param(command, action, opt, value, id=f"{command}{opt}={value}")


def _names(action: argparse.Action) -> list[str]:
    names = [o for o in action.option_strings if o.startswith("--")]
    names.append(action.dest)
    names.append(action.dest.replace("_", " "))
    return [n.lower() for n in names]


def test_the_commands_of_the_sweep_are_valid(tmp_path, data_csv, finished_run, capsys,
                                             monkeypatch):
    """Without the bad option each command line succeeds: the option alone is refused.
    ``run`` and ``report`` leave their report's page out (leave_report_page_out): the page
    of finished_run is built by its fixture, and `modelmine report`'s in tests/cli."""
    leave_report_page_out(monkeypatch)
    for argv in _commands(tmp_path, data_csv, finished_run).values():
        assert main([*argv, "-q"]) == 0, capsys.readouterr().err


def test_the_sweep_covers_every_option_with_a_bad_value():
    """Each option of every command is swept, or listed above as a flag / free value."""
    swept = {(c, a.dest) for c, a, _, _ in (p.values for p in _cases())}
    for command in ("run", "lattice", "evaluate", "report", "operators", "datasets"):
        for action in _options(command):
            assert (command, action.dest) in swept, f"{command} {action.option_strings}"


@pytest.mark.parametrize("command, action, opt, value", list(_cases()))
def test_a_bad_option_exits_2_with_one_line_naming_it(
    command, action, opt, value, tmp_path, data_csv, finished_run, capsys
):
    argv = _commands(tmp_path, data_csv, finished_run)[command]
    if command == "report" and action.dest == "out":
        argv = argv[:-2]
    argv = [*argv, f"{opt}={value}"]
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    assert len(lines(err)) == 1, err
    assert "Traceback" not in err
    assert any(name in err.lower() for name in _names(action)), err
