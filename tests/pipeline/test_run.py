"""mm.run and MiningRun: the pipeline equals its stages, saves and loads losslessly, resumes."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import modelmine as mm
from modelmine.cli import main
from modelmine.report import run_diagnostics

SEED = 3
SETTINGS = {"selector": "anova", "operators": ["closedApr", "mostFreq", "allMed"],
            "n_bootstraps": 12, "n_features": 8, "n_signatures": 4, "random_state": SEED}


@pytest.fixture(scope="module")
def colon():
    return mm.datasets.read_data("embedded:colon")


@pytest.fixture(scope="module")
def run(colon):
    return mm.run(colon, **SETTINGS)


def test_run_equals_its_stages_called_by_hand(colon, run):
    base = mm.bootstrap(colon.X, colon.y, selector="anova", n_bootstraps=12, n_features=8,
                        feature_names=colon.feature_names, random_state=SEED)
    assert run.base_models == base
    seed = SEED % 2**32
    expected = {"closedApr": mm.aggregate(base, "closedApr", n_features=8, random_state=seed),
                "mostFreq": mm.aggregate(base, "mostFreq", n_features=8, random_state=seed),
                "allMed": mm.aggregate(base, "allMed", n_signatures=4, random_state=seed)}
    assert list(run.signatures) == list(expected)
    for name, sig in expected.items():
        assert run.signatures[name].to_dict() == sig.to_dict()
    pd.testing.assert_frame_equal(run.diagnostics, run_diagnostics(base, expected))
    closed = mm.mine_itemsets(base, itemset_type="closed", min_support=0.2)
    assert run.itemsets is not None and run.itemsets.to_frame().equals(closed.to_frame())
    assert len(run.lattice()) == len(mm.ItemsetLattice(closed))
    nog = mm.diagnostics.nogueira_stability(base.subsets)
    assert run.stability().value == pytest.approx(nog.value)
    assert run.settings["n_bootstraps"] == 12 and run.settings["n_signatures"] == 4
    assert run.data["source"] == "embedded:colon" and run.data["n_features_in"] == 2000


@pytest.fixture(scope="module")
def saved(run, tmp_path_factory, page_left_out):
    """The module's run saved by MiningRun.save (report.html with its page left out: no
    test reads it), read by the tests below and never written to."""
    with page_left_out():
        return run.save(tmp_path_factory.mktemp("saved") / "py")


def test_save_load_round_trip_and_cli_directory_is_the_same_format(run, saved, tmp_path,
                                                                   report_page_left_out):
    loaded = mm.MiningRun.load(saved)
    assert loaded == run
    assert isinstance(loaded.signatures["allMed"], mm.SignatureSet)
    # `modelmine run` with the same settings writes the same directory: same files, and it
    # loads back equal to the Python run.
    out = tmp_path / "cli"
    assert main(["run", "embedded:colon", "-s", "anova", "-o", "closedApr", "-o", "mostFreq",
                 "-o", "allMed", "-b", "12", "-m", "8", "-k", "4", "--seed", str(SEED),
                 "-q", "--out", str(out)]) == 0
    files = {p.relative_to(out) for p in out.rglob("*")}
    assert files == {p.relative_to(saved) for p in saved.rglob("*")}
    from_cli = mm.MiningRun.load(out)
    assert from_cli == run
    assert from_cli.command is not None and from_cli.command[0] == "modelmine"
    for name in ("signatures.json", "diagnostics.json", "frequencies.csv"):
        assert (out / name).read_bytes() == (saved / name).read_bytes()


def test_load_refuses_what_is_not_a_finished_run(tmp_path):
    with pytest.raises(mm.exceptions.DataError, match="No run directory"):
        mm.MiningRun.load(tmp_path / "nothing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(mm.exceptions.DataError, match=r"no run\.json"):
        mm.MiningRun.load(tmp_path / "empty")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "run.json").write_text("[1]")
    with pytest.raises(mm.exceptions.DataError, match=r"not a modelmine\.run file"):
        mm.MiningRun.load(tmp_path / "bad")


def test_run_dir_checkpoints_and_resume_is_bit_identical(colon, run, saved, tmp_path,
                                                         monkeypatch, page_left_out):
    import modelmine.pipeline._run as run_module

    def boom(*args, **kwargs):
        raise RuntimeError("killed after the bootstraps")

    monkeypatch.setattr(run_module, "apply_operators", boom)
    directory = tmp_path / "work"
    with pytest.raises(RuntimeError, match="killed"):
        mm.run(colon, **SETTINGS, run_dir=directory)
    assert (directory / "checkpoint.json").exists()
    with pytest.raises(mm.exceptions.RunStateError, match="interrupted run"):
        mm.MiningRun.load(directory)
    with pytest.raises(mm.exceptions.RunStateError, match="interrupted run waits"):
        mm.run(colon, **SETTINGS, run_dir=directory)
    monkeypatch.undo()
    with page_left_out():  # the run directory's files are under test, not its page
        resumed = mm.resume(directory, colon)
    assert resumed == run
    assert sorted(p.name for p in directory.iterdir()) == sorted(
        p.name for p in saved.iterdir())
    assert mm.MiningRun.load(directory) == run
    with pytest.raises(mm.exceptions.RunStateError, match="finished run"):
        mm.run(colon, **SETTINGS, run_dir=directory)
    with pytest.raises(mm.exceptions.RunStateError, match="that run finished"):
        mm.resume(directory, colon)


def test_resume_without_a_seed_takes_the_recorded_one(colon, tmp_path, monkeypatch,
                                                       page_left_out):
    import modelmine.pipeline._run as run_module

    monkeypatch.setattr(run_module, "apply_operators",
                        lambda *a, **k: (_ for _ in ()).throw(RuntimeError("stop")))
    settings = {**SETTINGS, "random_state": None}
    with pytest.raises(RuntimeError):
        mm.run(colon, **settings, run_dir=tmp_path / "w")
    monkeypatch.undo()
    with page_left_out():
        resumed = mm.resume(tmp_path / "w", colon)
    again = mm.run(colon, **{**settings, "random_state": resumed.base_models.random_state})
    assert resumed == again


def test_one_policy_caps_n_signatures_everywhere(colon, tmp_path):
    # A selector whose every base model is the same: one distinct model, so allMed can
    # return one alternative whatever k was asked; every door caps the same way.
    fixed = np.linspace(1.0, 0.0, colon.shape[1])

    def same_scores(X, y):
        return fixed

    r = mm.run(colon.X, colon.y, selector=same_scores, operators=["allMed"],
               n_bootstraps=5, n_features=6, n_signatures=10, random_state=0)
    alts = r.signatures["allMed"]
    assert len(alts) == 1
    assert alts.provenance["n_signatures_requested"] == 10
    assert alts.provenance["n_signatures_cap"] == 1
    base = r.base_models
    direct = mm.aggregate(base, "allMed", n_signatures=10)
    assert len(direct) == 1 and direct.provenance["n_signatures_requested"] == 10
    est = mm.ModelMiningSelector(selector=same_scores, operator="allMed", n_bootstraps=5,
                                 n_features=6, n_signatures=10, random_state=0)
    est.fit(colon.X, colon.y)
    assert len(est.signatures_) == 1


def test_cli_caps_k_instead_of_failing(tmp_path, capsys, report_page_left_out):
    # mostRep-like data: with b = 2 base models, allMed cannot return 10 alternatives.
    out = tmp_path / "r"
    assert main(["run", "embedded:colon", "-s", "anova", "-b", "2", "-m", "5", "-k", "10",
                 "-o", "allMed", "--seed", "1", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "k = 2, not 10" in printed
    record = json.loads((out / "signatures.json").read_text())
    assert len(record["operators"][0]["result"]["signatures"]) == 2


def test_bad_input_fails_before_any_work(colon):
    with pytest.raises(ValueError, match=r"'operators' parameter of run .*Did you mean "
                                         r"'closedApr'"):
        mm.run(colon, operators=["closedApri"])
    with pytest.raises(ValueError, match=r"'operators' parameter of run must be distinct"):
        mm.run(colon, operators=["allMed", "allMed"])
    with pytest.raises(ValueError, match=r"'y' parameter of run must be None"):
        mm.run(colon, colon.y)
    with pytest.raises(ValueError, match=r"'y' parameter of run must be the class labels"):
        mm.run(colon.X)
    with pytest.raises(ValueError, match=r"'min_support' parameter of run"):
        mm.run(colon, min_support=1.5)


def test_rich_display_in_jupyter(run):
    page = run._repr_html_()
    assert "closedApr" in page and "allMed" in page and "Nogueira" in page
    assert "MiningRun(" in repr(run)


def _html_cells(page):
    """The header and the rows of the one table of an HTML fragment, as text."""
    from html.parser import HTMLParser

    rows: list[list[str]] = []

    class Cells(HTMLParser):
        def handle_starttag(self, tag, attrs):
            if tag == "tr":
                rows.append([])
            elif tag in ("td", "th"):
                rows[-1].append("")

        def handle_data(self, data):
            if rows and rows[-1]:
                rows[-1][-1] += data

    Cells().feed(page)
    return rows[0], rows[1:]


def test_base_models_and_signatures_show_in_jupyter(run):
    # BaseModels and Signature have a display of their own, as MiningRun has (issue 52)
    base = run.base_models
    page = base._repr_html_()
    assert (f"{base.n_models} base models of anova on 62 samples x 2000 features"
            in page)
    head, rows = _html_cells(page)
    assert head == ["feature", "frequency", "mean rank"] and len(rows) == 10
    freq = base.subsets.mean(axis=0)  # the ten most frequent, by brute force
    shown = [r[0] for r in rows]
    theirs = freq[[list(base.feature_names).index(f) for f in shown]]
    assert [f"{v:.3f}" for v in theirs] == [r[1] for r in rows]
    assert list(theirs) == sorted(theirs, reverse=True) and theirs.min() == np.sort(freq)[-10]
    sig = run.signatures["closedApr"]
    head, rows = _html_cells(sig._repr_html_())
    assert head[:3] == ["position", "feature", "index"]
    assert [r[1] for r in rows] == sig.names.tolist()[:20]
    assert [int(r[2]) for r in rows] == sig.features.tolist()[:20]
    wide = mm.Signature(np.arange(25), [f"<g{i}>" for i in range(25)], operator="x")
    page = wide._repr_html_()
    assert "&lt;g0&gt;" in page and "<g0>" not in page and "and 5 more" in page
    assert len(_html_cells(page)[1]) == 20


def test_examples_use_public_names_only():
    for path in sorted(Path(__file__).parents[2].joinpath("examples").glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                parts = node.module.split(".")
                assert parts[0] != "modelmine" or not any(p.startswith("_") for p in parts), (
                    f"{path.name} imports the private module {node.module}")
                names = [a.name for a in node.names]
                assert not (parts[0] == "modelmine" and any(n.startswith("_") for n in names)), (
                    f"{path.name} imports private names {names} from {node.module}")
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not (
                    node.attr.startswith("__") and node.attr.endswith("__")):
                base = node.value
                while isinstance(base, ast.Attribute):
                    base = base.value
                assert not (isinstance(base, ast.Name) and base.id == "mm"), (
                    f"{path.name} uses the private attribute {node.attr}")
