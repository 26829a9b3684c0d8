"""A command line that answers at once (issue 52, item 4): ``modelmine --help``,
``--version`` and ``import modelmine`` import none of the scientific stack. An invariant on
the modules a fresh interpreter imports (``python -X importtime`` lists each), not a timing:
the times are benchmarks/bench_cli_startup.py's (benchmarks/results/cli_startup.csv)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import modelmine as mm
from modelmine.cli import build_parser

#: What --help, --version and `import modelmine` must not load.
STACK = ("numpy", "scipy", "sklearn", "pandas", "networkx", "pyarrow", "matplotlib")


def _imported(tmp_path, *args: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """A fresh ``python -X importtime ARGS``, and every module it imported (run from an
    empty folder: ``-m`` puts the working directory first on the path)."""
    env = {**os.environ, "COLUMNS": "200"}
    env.pop("PYTHONPROFILEIMPORTTIME", None)
    done = subprocess.run([sys.executable, "-X", "importtime", *args], capture_output=True,
                          text=True, env=env, cwd=tmp_path)
    modules = set(re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s+(\S+)$", done.stderr,
                             flags=re.M))
    return done, {m.split(".")[0] for m in modules}


@pytest.mark.parametrize(("args", "code"), [
    (["--help"], 0), (["--version"], 0), ([], 2), (["--no-such-option"], 2)])
def test_the_command_line_answers_without_the_scientific_stack(args, code, tmp_path):
    done, modules = _imported(tmp_path, "-m", "modelmine", *args)
    assert done.returncode == code, done.stderr[-2000:]
    assert sorted(modules & set(STACK)) == []
    if args == ["--version"]:
        assert done.stdout == f"modelmine {mm.__version__}\n"
    if args == ["--help"]:
        # the top-level help is the full parser's, though no subcommand's options were built
        assert done.stdout == build_parser().format_help()


def test_import_modelmine_defers_the_stack_to_first_use(tmp_path):
    done, modules = _imported(tmp_path, "-c", "import modelmine as mm; mm.settings.verbosity")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "modelmine" in modules and sorted(modules & set(STACK)) == []


def test_the_published_start_up_figures_are_the_benchmarks():
    # docs/cli.md quotes benchmarks/results/cli_startup.csv; its rows of this code's
    # answers import nothing of the stack (recomputed above), each under a second there
    table = pd.read_csv(Path(__file__).resolve().parents[2] / "benchmarks" / "results"
                        / "cli_startup.csv").set_index(["tree", "command"])
    text = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text()
    for command in ("modelmine --help", "modelmine --version", "import modelmine"):
        after, before = table.loc[("after", command)], table.loc[("before", command)]
        assert after["stack_imported"] == "none" and after["median_s"] < 1.0
        assert f"{after['median_s']:.2f} s ({before['median_s']:.1f} s" in text
    assert f"{table.loc[('after', 'modelmine run --help'), 'median_s']:.1f} s" in text
