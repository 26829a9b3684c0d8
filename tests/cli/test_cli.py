"""The modelmine command line: outputs checked against the Python API, exit codes, bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import networkx as nx
import numpy as np
import pandas as pd
import pytest

import modelmine as mm
from modelmine.cli import main
from modelmine.operators import aggregate
from modelmine.selectors import get_selector

SEED = 11
FAST = ["--selector", "anova", "-b", "12", "-m", "15", "--seed", str(SEED)]


@pytest.fixture(scope="module")
def quiet_run(tmp_path_factory, page_left_out):
    """One quiet run (every default operator, mining, report) shared by the tests that read
    its directory: the directory and what it printed on stdout and stderr. No test reads
    its report's page, which is left out (`report` rebuilds a page from it below)."""
    import contextlib
    import io

    out = tmp_path_factory.mktemp("cli") / "colon-run"
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr), \
            page_left_out():
        # --quiet before the command (after it: the other runs below)
        code = main(["--quiet", "run", "embedded:colon", *FAST, "-k", "4", "--out", str(out)])
    assert code == 0
    return out, stdout.getvalue(), stderr.getvalue()


@pytest.fixture(scope="module")
def run_dir(quiet_run):
    return quiet_run[0]


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


def test_run_writes_every_output(run_dir):
    names = {p.name for p in run_dir.iterdir()}
    assert {"base_models.npz", "frequencies.csv", "signatures.json", "signatures",
            "itemsets.csv", "diagnostics.csv", "diagnostics.json", "run.json",
            "report.html"} <= names
    assert not [p for p in run_dir.parent.iterdir() if ".partial-" in p.name]


def test_run_outputs_equal_the_python_api(run_dir):
    # `embedded:colon` is the embedded data with its classes' names (tumour, normal)
    X, y, names = mm.datasets.load_colon(return_names=True, class_names=True)
    base = mm.bootstrap(X, y, selector="anova", n_bootstraps=12, n_features=15,
                        random_state=SEED, feature_names=names)
    saved = mm.BaseModels.load(run_dir)
    assert saved == base
    results = mm.MiningRun.load(run_dir).signatures
    assert list(results) == ["closedApr", "allMed"]
    direct = aggregate(base, "closedApr", n_features=15, random_state=SEED)
    assert results["closedApr"].to_dict() == direct.to_dict()
    alt = aggregate(base, "allMed", n_signatures=4, random_state=SEED)
    assert results["allMed"].to_dict() == alt.to_dict()
    # CSV and JSON say the same thing, with feature names and selection frequencies.
    table = pd.read_csv(run_dir / "signatures" / "allMed.csv")
    assert table.groupby("alternative")["index"].apply(list).tolist() == [
        s.features.tolist() for s in alt.signatures]
    freq = base.subsets.mean(axis=0)
    np.testing.assert_allclose(table["frequency"], freq[table["index"]])
    frequencies = pd.read_csv(run_dir / "frequencies.csv")
    np.testing.assert_allclose(frequencies.set_index("index").sort_index()["frequency"], freq)


def test_run_record_and_diagnostics(run_dir):
    record = json.loads((run_dir / "run.json").read_text())
    assert record["settings"]["random_state"] == str(SEED)
    assert record["settings"]["n_bootstraps"] == 12 and record["settings"]["n_features"] == 15
    assert record["versions"]["modelmine"] == mm.__version__
    diag = pd.read_csv(run_dir / "diagnostics.csv")
    Z = mm.BaseModels.load(run_dir).subsets.astype(float)
    M, d = Z.shape
    p = Z.mean(axis=0)
    k = Z.sum(axis=1).mean()
    expected = 1 - (M / (M - 1) * p * (1 - p)).mean() / (k / d * (1 - k / d))
    row = diag[diag["measure"] == "nogueira"].iloc[0]
    assert row["value"] == pytest.approx(expected)
    assert row["ci_low"] < row["value"] < row["ci_high"]


@pytest.fixture(scope="module")
def verbose_csv_run(tmp_path_factory, page_left_out):
    """colon exported to CSV by `modelmine datasets export`, then one -v run of that file
    (FAST, mostFreq), shared by the tests of what a run prints and of the CSV round trip:
    the CSV, the run directory, what the run printed on stdout and stderr, and the
    ``modelmine`` logger's (level, handlers) before and after the run (its report's page,
    which no test reads, left out)."""
    import contextlib
    import io
    import logging

    root = tmp_path_factory.mktemp("cli-csv")
    csv = root / "colon.csv"
    assert main(["datasets", "export", "colon", str(csv), "--quiet"]) == 0
    logger = logging.getLogger("modelmine")
    before = (logger.level, list(logger.handlers))
    out = root / "from-csv"
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr), \
            page_left_out():
        code = main(["run", str(csv), "--target", "class", *FAST, "--operator", "mostFreq",
                     "--out", str(out), "-v"])
    assert code == 0, stderr.getvalue()
    after = (logger.level, list(logger.handlers))
    return csv, out, stdout.getvalue(), stderr.getvalue(), before, after


def test_run_prints_a_concise_table(verbose_csv_run):
    _, _, text, err, before, after = verbose_csv_run  # the shared -v run, of the CSV
    assert "stability of the base models (Nogueira)" in text
    assert "mostFreq" in text and "report.html" in text
    assert len(_lines(text)) <= 8
    # -v: on stderr, a line as each phase starts and, at debug, each operator (issue 52)
    lines = [line for line in err.splitlines() if line.startswith("modelmine: ")]
    assert lines[:2] == ["modelmine: operators: mostFreq on the 12 base models",
                         "modelmine: operator mostFreq (single-model)"], lines
    assert "modelmine: report: the figures and the page" in lines and any(
        line.startswith("modelmine: mining: ") for line in lines)
    assert after == before  # the logger as main() found it


def test_quiet_prints_nothing(quiet_run):
    _, out, err = quiet_run  # the shared run, asked for --quiet
    assert out == "" and err == ""


def test_csv_export_then_run_gives_the_same_models(verbose_csv_run, run_dir):
    csv, out = verbose_csv_run[:2]  # the shared run of the exported CSV
    exported = pd.read_csv(csv)
    X, _ = mm.datasets.load_colon()
    np.testing.assert_array_equal(exported.drop(columns="class").to_numpy(), X)
    assert mm.BaseModels.load(out) == mm.BaseModels.load(run_dir)


def test_operators_lists_the_registry(capsys):
    assert main(["operators", "--format", "csv"]) == 0
    table = pd.read_csv(__import__("io").StringIO(capsys.readouterr().out))
    truth = mm.operators.available_operators()
    assert table["name"].tolist() == truth["name"].tolist()
    row = table.set_index("name").loc["closedApr"]
    assert row["kind"] == "single" and row["origin"] == "built-in"
    assert table.set_index("name").loc["allMed", "kind"] == "multi"
    assert main(["operators", "--kind", "multi"]) == 0
    text = capsys.readouterr().out
    assert "allMed" in text and "closedApr" not in text


@pytest.mark.parametrize("fmt", ["graphml", "gexf", "json"])
def test_lattice_from_a_run_directory(run_dir, tmp_path, fmt, capsys):
    out = tmp_path / f"lat.{fmt}"
    assert main(["lattice", str(run_dir), "--min-support", "0.4", "--format", fmt,
                 "--out", str(out)]) == 0
    assert out.stat().st_size > 0
    if fmt == "graphml":
        graph = nx.read_graphml(out)
    elif fmt == "gexf":
        graph = nx.read_gexf(out)
    else:
        graph = None
        json.loads(out.read_text())
    if graph is not None:
        from modelmine.patterns import mine_itemsets

        closed = mine_itemsets(mm.BaseModels.load(run_dir).subsets, itemset_type="closed",
                               min_support=0.4)
        # Every closed itemset is a node (the lattice may add a root for the empty set).
        assert graph.number_of_nodes() in (len(closed), len(closed) + 1)
    assert "wrote" in capsys.readouterr().out


def test_report_rebuilds_the_page(run_dir, tmp_path):
    out = tmp_path / "share.html"
    assert main(["report", str(run_dir), "--out", str(out), "--quiet"]) == 0
    text = out.read_text()
    assert text.startswith("<!DOCTYPE html>") and "closedApr" in text and "allMed" in text
    assert main(["report", str(tmp_path), "--quiet"]) == 2


def test_datasets_list(capsys):
    assert main(["datasets"]) == 0
    text = capsys.readouterr().out
    for name in mm.datasets.available().index:
        assert name in text


def test_evaluate_writes_the_protocol_tables(tmp_path, capsys):
    out = tmp_path / "eval"
    argv = ["evaluate", "embedded:colon", "-s", "anova", "-o", "closedApr", "-o", "allMed",
            "-c", "svm", "-b", "8", "-m", "10", "-k", "3", "--folds", "3", "--seed", "1",
            "--out", str(out)]
    assert main(argv) == 0
    assert "Table 2" in capsys.readouterr().out
    names = sorted(p.name for p in out.iterdir())
    assert names == ["evaluation.csv", "evaluation.json", "folds.csv", "points.csv",
                     "robustness.csv", "stability.csv", "table2.csv", "table4.csv"]
    # Independent truth: the same protocol called from Python.
    X, y, names_ = mm.datasets.load_colon(return_names=True, class_names=True)
    truth = mm.evaluate(X, y, selectors=["anova"], operators=["closedApr", "allMed"],
                        classifiers=["svm"], n_folds=3, n_bootstraps=8, n_features=10,
                        n_signatures=3, feature_names=names_, random_state=1, progress=False)
    folds = pd.read_csv(out / "folds.csv")
    np.testing.assert_allclose(folds["error"], truth.folds["error"])
    evaluation = pd.read_csv(out / "evaluation.csv")
    assert list(evaluation["operator"]) == list(truth.to_frame("table2").index)
    np.testing.assert_allclose(evaluation["stability"], truth.to_frame("table2")["stability"])


def test_report_with_an_evaluation(run_dir, tmp_path, capsys):
    import shutil

    run, ev = tmp_path / "run", tmp_path / "eval"
    shutil.copytree(run_dir, run)  # `report` rewrites report.html: a copy of the shared run
    pd.DataFrame({"operator": ["closedApr", "nobagg"], "error": [0.1, 0.2],
                  "stability": [0.5, 0.3]}).to_csv(tmp_path / "evaluation.csv", index=False)
    assert main(["report", str(run), "--evaluation", str(tmp_path / "evaluation.csv")]) == 0
    assert "error vs stability" in (run / "report.html").read_text().lower()
    capsys.readouterr()  # its phase lines (report, mining) on stderr
    _bad(["report", str(run), "--evaluation", str(ev / "missing.csv")], capsys,
         "No such evaluation file")
    (tmp_path / "wrong.csv").write_text("a,b\n1,2\n")
    _bad(["report", str(run), "--evaluation", str(tmp_path / "wrong.csv")], capsys,
         "lacks the column(s)")


#: The child stops itself after its first checkpointed chunk (it says so in a file and
#: waits to be killed), so the kill lands at a known moment.
_KILLED_RUN = """
import sys, time
from modelmine.base_models import _rundir
from modelmine.cli import main

write_chunk = _rundir.RunDirectory.write_chunk

def write_and_stop(self, cid, arrays):
    write_chunk(self, cid, arrays)
    with open(sys.argv[2], "w") as fh:
        fh.write("1")
    time.sleep(600)

_rundir.RunDirectory.write_chunk = write_and_stop
sys.exit(main(["run", "embedded:colon", "--selector", "random-forest", "-b", "40", "-m", "10",
               "--seed", "4", "--out", sys.argv[1], "-q"]))
"""


@pytest.mark.slow
def test_run_killed_midway_then_resumed(tmp_path, capsys, killed_when_written):
    out = tmp_path / "run"
    partial = tmp_path / ".run.partial"
    stopped = tmp_path / "stopped"
    killed_when_written(_KILLED_RUN, out, stopped, marker=stopped)
    assert not out.exists()  # nothing that looks complete
    _bad(["run", "embedded:colon", "--out", str(out)], capsys, "--resume")
    assert main(["run", "--resume", str(out), "-q"]) == 0
    capsys.readouterr()  # -q keeps the run's CAUTION lines on stderr (issue 26): read them
    assert not partial.exists()
    X, y, names = mm.datasets.load_colon(return_names=True, class_names=True)
    truth = mm.bootstrap(X, y, selector="random-forest", n_bootstraps=40, n_features=10,
                         random_state=4, feature_names=names)
    assert mm.BaseModels.load(out) == truth
    _bad(["run", "--resume", str(out)], capsys, "That run finished")
    _bad(["run", "embedded:colon", "--resume", str(out)], capsys, "give neither DATA")


@pytest.mark.parametrize("command", [[], ["run"], ["operators"], ["lattice"], ["evaluate"],
                                     ["report"], ["datasets"], ["datasets", "export"]])
def test_help_has_worked_examples(command, capsys):
    assert main([*command, "--help"]) == 0
    text = capsys.readouterr().out
    assert "worked example" in text
    assert "modelmine" in text


# ----------------------------------------------------------------------------- bad input
def _bad(argv, capsys, pattern):
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    assert len(_lines(err)) == 1, err
    assert "Traceback" not in err
    assert pattern in err, err
    return err


def test_missing_file(tmp_path, capsys):
    _bad(["run", str(tmp_path / "nope.csv"), "--target", "y", "--out", str(tmp_path / "o")],
         capsys, "No such file")
    assert not (tmp_path / "o").exists()


def test_malformed_csv(tmp_path, capsys):
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b,y\n1,2,x\n1,2,3,4,5,6\n")
    _bad(["run", str(bad), "--target", "y", "--out", str(tmp_path / "o")], capsys,
         "Malformed CSV")


def test_target_that_does_not_exist_lists_close_names(tmp_path, capsys):
    csv = tmp_path / "d.csv"
    pd.DataFrame({"gene1": [1, 2, 3, 4], "gene2": [4, 3, 2, 1],
                  "diagnosis": ["a", "b", "a", "b"]}).to_csv(csv, index=False)
    _bad(["run", str(csv), "--target", "diagnostic", "--out", str(tmp_path / "o")], capsys,
         "'diagnosis'")


def test_non_numeric_feature_columns_are_named(tmp_path, capsys):
    csv = tmp_path / "d.csv"
    pd.DataFrame({"gene1": [1, 2, 3, 4], "tissue": ["x", "y", "x", "y"],
                  "label": [0, 1, 0, 1]}).to_csv(csv, index=False)
    _bad(["run", str(csv), "--target", "label", "--out", str(tmp_path / "o")], capsys,
         "'tissue'")


def test_output_that_cannot_be_written(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    _bad(["run", "embedded:colon", *FAST, "--out", str(blocker / "run")], capsys,
         "is not a directory")
    existing = tmp_path / "existing"
    existing.mkdir()
    (existing / "keep.txt").write_text("mine")
    _bad(["run", "embedded:colon", *FAST, "--out", str(existing)], capsys, "--force")
    assert (existing / "keep.txt").read_text() == "mine"


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores directory permissions")
def test_read_only_parent(tmp_path, capsys):
    parent = tmp_path / "ro"
    parent.mkdir()
    parent.chmod(0o500)
    try:
        _bad(["run", "embedded:colon", *FAST, "--out", str(parent / "run")], capsys,
             "not writable")
    finally:
        parent.chmod(0o700)


def test_usage_errors_are_one_line(capsys):
    _bad(["run", "embedded:colon", "-b", "zero"], capsys, "expected an integer >= 2")
    _bad(["run", "embedded:colon", "--jobs", "0"], capsys, "expected a non-zero integer")
    _bad(["--seed", "-1", "run", "embedded:colon"], capsys, "expected a non-negative integer")
    _bad(["frobnicate"], capsys, "invalid choice")
    _bad(["run", "embedded:colon", *FAST, "--operator", "closedAp"], capsys,
         "Did you mean 'closedApr'")


def test_failure_midway_leaves_nothing_that_looks_complete(tmp_path, monkeypatch, capsys):
    import modelmine.report._html

    def boom(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(modelmine.report._html, "render", boom)
    out = tmp_path / "run"
    assert main(["run", "embedded:colon", *FAST, "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "disk on fire" in err and "--debug" in err and "Traceback" not in err
    # Nothing under DIR; only the hidden checkpoint of the finished bootstraps remains, so
    # that `--resume DIR` does not recompute them.
    assert [p.name for p in tmp_path.iterdir()] == [".run.partial"]
    assert not out.exists()
    manifest = json.loads((tmp_path / ".run.partial" / "bootstraps" / "manifest.json")
                          .read_text())
    assert len(manifest["chunks"]) == 2  # 12 bootstraps, checkpoints of 10


def test_debug_shows_the_traceback(tmp_path, capsys):
    main(["--debug", "run", str(tmp_path / "missing.csv"), "--target", "y"])
    assert "Traceback" in capsys.readouterr().err


@pytest.mark.slow
def test_force_replaces_a_run(tmp_path, run_dir, report_page_left_out):
    out = tmp_path / "again"
    for _ in range(2):
        assert main(["run", "embedded:colon", *FAST, "-o", "mostFreq", "--quiet", "--force",
                     "--out", str(out)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["again"]


@pytest.mark.slow
def test_jobs_do_not_change_the_result(tmp_path, run_dir, report_page_left_out):
    out = tmp_path / "par"
    assert main(["run", "embedded:colon", *FAST, "-k", "4", "--jobs", "2", "--quiet",
                 "--out", str(out)]) == 0
    assert mm.BaseModels.load(out) == mm.BaseModels.load(run_dir)
    assert (out / "signatures.json").read_text() == (run_dir / "signatures.json").read_text()


@pytest.mark.slow
def test_python_dash_m_entry_point():
    proc = subprocess.run([sys.executable, "-m", "modelmine", "--version"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == f"modelmine {mm.__version__}"
    script = Path(sys.executable).parent / "modelmine"
    if script.exists():
        proc = subprocess.run([str(script), "operators", "--format", "json"],
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0
        assert "closedApr" in {row["name"] for row in json.loads(proc.stdout)}


def test_run_survives_itemsets_that_would_explode(tmp_path, monkeypatch, capsys):
    # The report's itemsets come last; when the max_itemsets guard refuses them (here made
    # tiny, the real guard), the run keeps everything else and the report says why.
    import functools

    import modelmine.pipeline._run as run_module

    monkeypatch.setattr(run_module, "mine_itemsets", functools.partial(mm.mine_itemsets,
                                                                 max_itemsets=2))
    out = tmp_path / "run"
    assert main(["run", "embedded:colon", *FAST, "--out", str(out), "-q"]) == 0
    assert (out / "base_models.npz").exists() and not (out / "itemsets.csv").exists()
    page = (out / "report.html").read_text()
    assert "Not mined at minimum support 0.2" in page and "max_itemsets" in page


def test_lattice_html_explorer_from_a_run_directory(run_dir, tmp_path, capsys):
    import re

    out = tmp_path / "explorer.html"
    assert main(["lattice", str(run_dir), "--min-support", "0.3", "--format", "html",
                 "--out", str(out)]) == 0
    assert "wrote" in capsys.readouterr().out
    text = out.read_text(encoding="utf-8")
    data = json.loads(re.search(r'id="lattice-data">(.*?)</script>', text, re.S).group(1))
    from modelmine.patterns import mine_itemsets

    closed = mine_itemsets(mm.BaseModels.load(run_dir).subsets, itemset_type="closed",
                           min_support=0.3)
    assert data["n_kept"] == len(closed) == len(data["count"]) - 1
    # the run's signatures are on the page, by feature name
    run = mm.MiningRun.load(run_dir)
    labels = [s["label"] for s in data["signatures"]]
    assert labels == ["closedApr (consensus)"] + [f"allMed alternative {k}"
                                                 for k in range(1, 5)]
    first = [data["names"][f] for f in data["signatures"][0]["features"]]
    assert sorted(first) == sorted(run.signatures["closedApr"].names.tolist())
    # the Python door: MiningRun.lattice() carries the run's signatures into the same page
    lattice = run.lattice(min_support=0.3)
    assert lattice.signatures is run.signatures
    again = lattice.to_html(tmp_path / "again.html", title=data_title(text))
    assert again.read_text(encoding="utf-8") == text


def data_title(text: str) -> str:
    import html
    import re

    return html.unescape(re.search(r"<title>(.*?)</title>", text).group(1))


def test_lattice_with_too_many_itemsets_says_how_to_mine(run_dir, tmp_path, capsys,
                                                         monkeypatch):
    from modelmine.patterns import ItemsetLattice

    real = ItemsetLattice.from_base.__func__

    def capped(cls, base, min_support=0.2, **kwargs):  # the guard at 5 itemsets
        return real(cls, base, min_support=min_support, max_itemsets=5)

    monkeypatch.setattr(ItemsetLattice, "from_base", classmethod(capped))
    out = tmp_path / "x.html"
    assert main(["lattice", str(run_dir), "--min-support", "0.1", "--format", "html",
                 "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "No lattice at minimum support 0.1" in err and "--min-support S" in err
    assert not out.exists()


def test_lattice_html_above_the_cap_keeps_the_top_and_says_so(run_dir, tmp_path, capsys,
                                                             monkeypatch):
    import re

    import modelmine.constants

    monkeypatch.setattr(modelmine.constants, "LATTICE_HTML_MAX_ITEMSETS", 5)
    out = tmp_path / "top.html"
    assert main(["lattice", str(run_dir), "--min-support", "0.3", "--format", "html",
                 "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "the page holds the closed itemsets of highest support (at most 5 of" in said
    text = out.read_text(encoding="utf-8")
    data = json.loads(re.search(r'id="lattice-data">(.*?)</script>', text, re.S).group(1))
    assert data["n_kept"] <= 5 < data["n_total"]
    assert f"This page holds the {data['n_kept']:,} of highest support" in text


def test_flags_match_the_api_and_the_default_seed_is_fixed(tmp_path, report_page_left_out):
    """issue 23: the long flags are the API's names (--random-state, --n-jobs,
    --sample-fraction, --executor, --n-folds), the old ones (--seed, --jobs, --fraction,
    --scheduler, --folds) are the same options (parsed to the same arguments; the runs
    equal), and two default runs give the same result (the default seed is 0, as the
    API's)."""
    from modelmine.cli import build_parser

    parser = build_parser()
    assert vars(parser.parse_args(["evaluate", "embedded:colon", "--n-folds", "3",
                                   "--executor", "tcp://h:1"])) == vars(parser.parse_args(
        ["evaluate", "embedded:colon", "--folds", "3", "--scheduler", "tcp://h:1"]))
    base = ["run", "embedded:colon", "-s", "anova", "-b", "6", "-m", "5", "-k", "2", "-q"]
    outs = {}
    for tag, extra in {"default": [], "api": ["--random-state", "0", "--n-jobs", "1",
                                              "--resampling", "subsample",
                                              "--sample-fraction", "0.8"],
                       "old": ["--seed", "0", "--jobs", "1", "--resampling", "subsample",
                               "--fraction", "0.8"]}.items():
        assert main([*base, *extra, "--out", str(tmp_path / tag)]) == 0
        outs[tag] = mm.MiningRun.load(tmp_path / tag)
    assert vars(parser.parse_args([*base, "--random-state", "0", "--fraction", "0.8"])) == \
        vars(parser.parse_args([*base, "--seed", "0", "--sample-fraction", "0.8"]))
    again = tmp_path / "default-again"
    assert main([*base, "--out", str(again)]) == 0
    assert mm.MiningRun.load(again) == outs["default"]
    assert outs["default"].settings["random_state"] == "0"
    assert outs["api"] == outs["old"]
    assert outs["api"].base_models.resampling["fraction"] == 0.8
    truth = mm.run(*mm.datasets.load_colon(class_names=True), selector="anova",
                   n_bootstraps=6, n_features=5,
                   n_signatures=2)
    assert np.array_equal(outs["default"].base_models.subsets, truth.base_models.subsets)


def test_itemset_strategy_reaches_closed_and_max_apr(tmp_path, report_page_left_out):
    # the paper's literal reading by default (closedApr = mostFreq up to ties); the
    # structure-seeking area reading on request, recorded in the run settings
    out = tmp_path / "area-run"
    assert main(["run", "embedded:colon", *FAST, "-o", "closedApr", "-o", "maxApr",
                 "-o", "mostFreq", "--itemset-strategy", "area", "--quiet",
                 "--out", str(out)]) == 0
    record = json.loads((out / "run.json").read_text())
    assert record["settings"]["operator_params"] == {"closedApr": {"strategy": "area"},
                                                     "maxApr": {"strategy": "area"}}
    base = mm.BaseModels.load(out)
    expected = aggregate(base, "closedApr", n_features=15, strategy="area")
    sig = mm.MiningRun.load(out).signatures["closedApr"]
    assert sig.provenance["strategy"] == "area"
    assert sig.features.tolist() == expected.features.tolist()
    default = aggregate(base, "closedApr", n_features=15)
    assert default.provenance["strategy"] == "literal"


#: The same kill after the first chunk, for SVM-RFE on modelmine's warm-started SMO at a
#: tight tolerance: a selector parameter that is not a default must survive the kill,
#: the resume and the evaluation the resumed run adds (issue 37).
_KILLED_WARM_RUN = _KILLED_RUN.replace(
    '"--selector", "random-forest", "-b", "40"',
    '"--selector", "svm-rfe", "--selector-param", "solver=warm", "--selector-param", '
    '"tol=1e-7", "-b", "24"')


@pytest.mark.slow
def test_warm_svm_rfe_run_killed_resumed_and_evaluated(tmp_path, capsys,
                                                      killed_when_written):
    pytest.importorskip("modelmine.selectors._smo")
    assert _KILLED_WARM_RUN != _KILLED_RUN
    out = tmp_path / "run"
    stopped = tmp_path / "stopped"
    killed_when_written(_KILLED_WARM_RUN, out, stopped, marker=stopped)
    assert not out.exists()
    assert main(["run", "--resume", str(out), "--evaluate", "--folds", "3", "-q"]) == 0
    capsys.readouterr()
    settings = json.loads((out / "run.json").read_text())["settings"]
    assert settings["selector_params"]["solver"] == "warm"
    assert settings["selector_params"]["tol"] == 1e-7
    X, y, names = mm.datasets.load_colon(return_names=True, class_names=True)
    params = {"solver": "warm", "tol": 1e-7}
    # Independent truth: the same resamples from Python, and (for the solver itself) the
    # exact SVM: libsvm at 1e-9 ranks every resample's top 10 the same way.
    truth = mm.bootstrap(X, y, selector="svm-rfe", selector_params=params, n_bootstraps=24,
                         n_features=10, random_state=4, feature_names=names)
    resumed = mm.BaseModels.load(out)
    assert resumed == truth
    exact = mm.bootstrap(X, y, selector="svm-rfe",
                         selector_params={"solver": "libsvm", "tol": 1e-9}, n_bootstraps=24,
                         n_features=10, random_state=4, feature_names=names)
    assert [set(s) for s in resumed.subsets] == [set(s) for s in exact.subsets]
    evaluation = pd.read_csv(out / "evaluation.csv")
    python = mm.evaluate(X, y, selectors={"svm-rfe": get_selector("svm-rfe", params)},
                         operators=list(evaluation["operator"]), n_folds=3,
                         n_bootstraps=24, n_features=10,
                         n_signatures=int(settings["n_signatures"]),
                         feature_names=names, random_state=4, progress=False)
    table = python.to_frame("table2")
    np.testing.assert_allclose(evaluation["error"], table.loc[evaluation["operator"], "error"])
    np.testing.assert_allclose(evaluation["stability"],
                               table.loc[evaluation["operator"], "stability"])
    assert (out / "report.html").exists()
