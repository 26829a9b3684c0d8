"""What the report says (issue 52 item 2, issue 50 items 7 and 9): the classes and genes by
the data's own names, a note when the genes are only positions, no raw ``None`` or ``nan``,
one statement of the feature scaling, values with consistent significant figures, no local
path in any shared output, the resampling of whole groups named, and an evaluation command
that ``modelmine run`` accepts.

Oracles: the publications' class names and counts, the data's own range and groups, the
temporary directory's path searched in every file, and the command line itself (run as the
report writes it). Figures are built, not drawn: the page's words are under test.
"""

from __future__ import annotations

import dataclasses
import gzip
import html
import json
import os
import re
import shlex

import numpy as np
import pandas as pd
import pytest

import modelmine as mm
from modelmine.cli import main


def visible_text(page: str) -> str:
    """The words a reader sees: no script, style, tag or data: URL."""
    page = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r'data:[^"]+', "", page)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def rows(page: str, heading: str) -> dict[str, str]:
    """The name -> value rows of the key-value table under ``<h3>heading</h3>``."""
    part = page[page.index(f"<h3>{heading}</h3>"):]
    part = part[:part.index("</table>")]
    return {html.unescape(k): html.unescape(v) for k, v in
            re.findall(r"<tr><th>(.*?)</th><td>(.*?)</td></tr>", part)}


@pytest.fixture(scope="module")
def colon_page(tmp_path_factory):
    """The embedded colon as `modelmine run embedded:colon` reads it, at a small b."""
    data = mm.datasets.read_data("embedded:colon")
    first = dataclasses.replace(data, X=data.X[:, :200], feature_names=data.feature_names[:200])
    run = mm.run(first, selector="anova", operators=["closedApr"], n_bootstraps=6,
                 n_features=5, random_state=0, progress=False)
    page = run.report(tmp_path_factory.mktemp("colon") / "r.html").read_text("utf-8")
    return run, page


def test_the_classes_are_the_datas_own_names(colon_page):
    run, page = colon_page
    # Alon et al. 1999: 40 tumours, 22 normal tissues (the file's codes -1 and 1)
    assert rows(page, "Data")["classes"] == "normal, tumour"
    summary = page[page.index('id="summary"'):page.index('id="data"')]
    assert "separate the classes normal, tumour of embedded:colon" in summary
    markers = run.markers()
    assert set(markers["class"]) == {"normal", "tumour"}
    assert not re.search(r"<td>-?1</td>", summary)  # no class shown as a code


def test_genes_named_by_position_are_said_to_be(colon_page, cli_runs):
    _, page = colon_page
    note = rows(page, "Data")["feature names"]
    assert note.startswith("none in the data: x0 to x199 are the columns' positions")
    assert "named x0 to x199 by their column positions" in visible_text(page)
    # genes with names (the CLI runs' file): no such note
    named = (cli_runs / "plain" / "report.html").read_text("utf-8")
    assert "feature names" not in rows(named, "Data") and "column positions" not in named


def test_no_raw_none_or_nan_in_the_words(colon_page):
    # issue 52: "min support requested None", "cut None", "median lift nan" at small b
    words = visible_text(colon_page[1])
    assert re.findall(r"\bNone\b(?! of\b)", words) == []  # not "None of the itemsets"
    assert re.findall(r"\bnan\b", words, flags=re.I) == []
    assert "min support requested not given" in " ".join(words.split())


def test_the_settings_and_the_data_state_one_feature_scaling(cli_runs):
    # issue 52: "feature scaling: none" beside "each feature scaled to [0, 1]"
    run = mm.MiningRun.load(cli_runs / "plain")
    page = (cli_runs / "plain" / "report.html").read_text("utf-8")
    assert rows(page, "Settings")["feature scaling"] == run.data["scaling"]
    assert run.data["scaling"].startswith("each feature scaled to [0, 1] inside each "
                                          "resample by svm-rfe")
    assert "scaling" not in rows(page, "Data")
    assert visible_text(page).count("scaled to [0, 1]") == 1


def test_the_values_keep_three_significant_figures_at_both_ends():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(30, 10))
    X[0, 0], X[1, 1] = -3.5488, 4.15807  # issue 52: "(-3.5488 to 4.15807)"
    y = np.repeat([0, 1], 15)
    kw = dict(selector="anova", n_bootstraps=2, n_features=3, operators=["mostFreq"],
              progress=False)
    low, high = (float(f"{v:.3g}") for v in (X.min(), X.max()))
    assert mm.run(X, y, **kw).data["values"] == (f"log-scale or centred values ({low:.2f} "
                                                 f"to {high:.2f})")
    whole = np.round(X * 10)  # whole values stay whole
    assert mm.run(whole, y, **kw).data["values"].endswith(
        f"({int(whole.min())} to {int(whole.max())})")


def test_the_resampling_line_says_whole_groups_were_drawn(colon_page, cli_runs):
    # issue 50: "bootstrap (with replacement), 100 % of the samples" for whole patients
    grouped = rows((cli_runs / "adjusted" / "report.html").read_text("utf-8"), "Settings")
    patients = pd.read_csv(cli_runs / "colon.csv")["patient"]
    assert grouped["resampling"].startswith(
        "bootstrap of whole groups (with replacement), 100% of the "
        f"{patients.nunique()} groups, each drawn group with all its samples")
    assert rows(colon_page[1], "Settings")["resampling"] == (
        "bootstrap (with replacement), 100% of the samples, not stratified")


@pytest.fixture(scope="module")
def cli_runs(tmp_path_factory):
    """Two `modelmine run`s of a CSV and a label file given by absolute paths, into
    absolute --out directories: one plain, one adjusted for a covariate and drawing whole
    patients (two samples each)."""
    root = tmp_path_factory.mktemp("a lab's shared folder")
    X, _ = mm.datasets.load_colon()
    y = mm.datasets.load_colon(class_names=True)[1]
    ids = [f"S{i:02d}" for i in range(len(y))]
    frame = pd.DataFrame(X[:, :40], columns=[f"G{j}" for j in range(40)],
                         index=pd.Index(ids, name="sample"))
    frame["age"] = np.random.default_rng(6).normal(60, 9, len(y)).round(1)
    frame["patient"] = [f"P{i // 2:02d}" for i in range(len(y))]
    frame.to_csv(root / "colon.csv")
    pd.DataFrame({"sample": ids, "tissue": y}).to_csv(root / "labels.csv", index=False)
    common = [str(root / "colon.csv"), "--labels", str(root / "labels.csv"), "-s", "svm-rfe",
              "-b", "4", "-m", "5", "-o", "closedApr", "-q"]
    assert main(["run", *common, "--drop", "age", "--drop", "patient",
                 "--out", str(root / "plain")]) == 0
    assert main(["run", *common, "--covariate", "age", "--groups", "patient",
                 "--out", str(root / "adjusted")]) == 0
    return root


def _suggestion(directory) -> tuple[str, str]:
    page = (directory / "report.html").read_text("utf-8")
    part = page[page.index("Not run for this report."):]
    text = visible_text(part[:part.index("</p>")])
    return " ".join(text.split()), html.unescape(re.search(r"<pre>(.*?)</pre>", part,
                                                           re.S).group(1))


def test_no_local_path_in_any_shared_output(cli_runs):  # issue 52
    root = str(cli_runs)
    for run_dir in ("plain", "adjusted"):
        for path in sorted((cli_runs / run_dir).rglob("*")):
            if path.is_dir() or path.suffix == ".npz":
                continue
            data = path.read_bytes()
            text = (gzip.decompress(data) if path.suffix == ".gz" else data).decode("utf-8")
            if path.name == "run.json":  # what --resume reads back keeps the paths
                record = json.loads(text)
                for key in ("source", "labels", "read_options"):
                    record["data"].pop(key, None)
                record.pop("command")
                text = json.dumps(record, ensure_ascii=False)
            assert root not in text and root.replace("/", "\\/") not in text, path
    page = (cli_runs / "plain" / "report.html").read_text("utf-8")
    assert "colon.csv (62 samples" in visible_text(page)  # the file's name, not its path


def test_the_suggested_evaluation_is_added_to_the_run_without_refitting_it(
        cli_runs, monkeypatch):
    # issue 50: the report suggested `--evaluate --force`, which refits everything
    text, code = _suggestion(cli_runs / "plain")
    assert code == "modelmine run --resume plain --evaluate"
    assert "without refitting it" in text
    models = cli_runs / "plain" / "base_models.npz"
    before = os.stat(models).st_mtime_ns, os.stat(models).st_ino
    monkeypatch.chdir(cli_runs)  # where the run's command was typed
    assert main([*shlex.split(code)[1:], "--n-folds", "3", "-q"]) == 0
    assert (os.stat(models).st_mtime_ns, os.stat(models).st_ino) == before
    table = pd.read_csv(cli_runs / "plain" / "evaluation.csv")
    assert set(table["operator"]) == {"closedApr", "nobagg"}
    assert 'alt="Error vs stability per operator"' in (
        cli_runs / "plain" / "report.html").read_text("utf-8")


def test_a_covariate_run_suggests_the_same_command_and_the_cli_takes_it(cli_runs, monkeypatch,
                                                                       capsys):
    # issue 50: `--evaluate --force` was suggested for a run with --covariate, which the CLI
    # refused; --evaluate now adjusts each fold for the run's covariates
    text, code = _suggestion(cli_runs / "adjusted")
    assert code == "modelmine run --resume adjusted --evaluate"
    assert "each fold adjusted for age, as the run" in text
    monkeypatch.chdir(cli_runs)
    import modelmine.evaluation as evaluation

    def first_fold(*args, covariates=None, run=None, **kwargs):  # reached: stopped
        # the covariates come with the run (issue 48): its settings name them, it holds
        # their values
        if covariates is None:
            assert run.covariates is not None and len(run.covariates) == 62
            covariates = run.covariates
        raise RuntimeError(f"reached the evaluation, covariates {list(covariates.columns)}")

    monkeypatch.setattr(evaluation, "evaluate", first_fold)
    assert main(shlex.split(code)[1:]) != 0
    assert "reached the evaluation, covariates ['age']" in capsys.readouterr().err
