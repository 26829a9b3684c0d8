"""`modelmine run` on data as biologists have it, end to end: .h5ad, expression + labels
files, genes-by-samples tables; the options of mm.run; outputs back into AnnData and GMT.
The truth: the Python API on the same arrays, and the files the run wrote."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import modelmine as mm
from modelmine.cli import main

anndata = pytest.importorskip("anndata")

SEED = 4
FAST = ["--selector", "anova", "-b", "8", "-m", "12", "--seed", str(SEED), "--quiet"]


@pytest.fixture(scope="module")
def colon(colon_raw):
    return colon_raw


@pytest.fixture(scope="module")
def h5ad(tmp_path_factory, colon):
    raw, labels, names, ids = colon
    path = tmp_path_factory.mktemp("h5ad") / "colon.h5ad"
    obs = pd.DataFrame({"diagnosis": pd.Categorical(labels)}, index=ids)
    adata = anndata.AnnData(X=raw, obs=obs, var=pd.DataFrame({"chrom": "1"}, index=names))
    adata.write_h5ad(path)
    return path


@pytest.fixture(scope="module")
def fast_truth(colon):
    """What the FAST options ask for, through the Python API on the same arrays."""
    raw, labels, names, _ = colon
    return mm.bootstrap(
        raw,
        labels,
        selector="anova",
        n_bootstraps=8,
        n_features=12,
        feature_names=names,
        random_state=SEED,
    )


def _run_h5ad(h5ad, out, *options):
    """`modelmine run COLON.h5ad --target obs:diagnosis` with FAST and ``options``."""
    return main(["run", str(h5ad), "--target", "obs:diagnosis", *FAST, *options, "--out", str(out)])


@pytest.fixture(scope="module")
def annotated_run(tmp_path_factory, h5ad):
    """The h5ad run with closedApr, allMed (-k 3) and --annotate, without --evaluate: shared
    by the tests that read it."""
    out = tmp_path_factory.mktemp("annotated") / "run"
    assert _run_h5ad(h5ad, out, "-o", "closedApr", "-o", "allMed", "-k", "3",
                     "--annotate") == 0
    return out


@pytest.fixture(scope="module")
def evaluated_run(tmp_path_factory, h5ad, first_page_left_out):
    """The h5ad run with closedApr, mostFreq, --evaluate (3 folds) and --annotate-full (a
    full copy of the data): shared by the tests that read it (the page they read is the one
    --evaluate writes; the finished run's page before it is left out)."""
    out = tmp_path_factory.mktemp("evaluated") / "run"
    with first_page_left_out():
        assert _run_h5ad(h5ad, out, "-o", "closedApr", "-o", "mostFreq", "--evaluate",
                         "--folds", "3", "--annotate-full") == 0
    return out


def _gmt(path):
    sets = {}
    for line in path.read_text().splitlines():
        name, _, *genes = line.split("\t")
        sets[name] = genes
    return sets


def test_h5ad_run_annotates_the_anndata_and_writes_gmt(annotated_run, evaluated_run, colon,
                                                      h5ad, fast_truth):
    _, labels, names, ids = colon
    out = annotated_run
    run = mm.MiningRun.load(out)
    assert run.base_models == fast_truth
    annotated = anndata.read_h5ad(out / "annotated.h5ad")
    assert annotated.var["chrom"].tolist() == ["1"] * len(names)  # the user's var is kept
    np.testing.assert_allclose(
        annotated.var["modelmine_frequency"], fast_truth.subsets.mean(axis=0)
    )
    consensus = set(run.signatures["closedApr"].names.tolist())
    assert set(annotated.var_names[annotated.var["modelmine_closedApr"]]) == consensus
    alts = list(run.signatures["allMed"])
    for i, sig in enumerate(alts, start=1):
        column = annotated.var[f"modelmine_allMed_alt{i}"]
        assert set(annotated.var_names[column]) == set(sig.names.tolist())
    gmt = _gmt(out / "signatures.gmt")
    assert list(gmt) == ["closedApr"] + [f"allMed_alt{i}" for i in range(1, len(alts) + 1)]
    assert gmt["closedApr"] == run.signatures["closedApr"].names.tolist()
    # The report shows the expression of the genes by sample ID and class.
    assert run.expression.index.tolist() == ids.tolist()
    assert run.expression["class"].tolist() == labels.tolist()
    html = (out / "report.html").read_text()
    for anchor in (
        "data",
        "signatures",
        "expression",
        "alternatives",
        "stability",
        "itemsets",
        "diagnostics",
    ):
        assert f'id="{anchor}"' in html
    # --annotate writes the annotations only (issue 26, item 4): no matrix, a small file;
    # uns["modelmine"] is a nested dict (not a JSON string); --annotate-full copies the data
    assert annotated.X is None
    assert (out / "annotated.h5ad").stat().st_size < h5ad.stat().st_size / 4
    settings = annotated.uns["modelmine"]["settings"]
    assert isinstance(settings, dict) and settings["n_bootstraps"] == 8
    assert settings["selector"] == "anova" and settings["signature_size"] == 12
    # the shared --evaluate run asked for --annotate-full (the same bootstraps: FAST)
    copied = anndata.read_h5ad(evaluated_run / "annotated.h5ad")
    np.testing.assert_array_equal(np.asarray(copied.X), anndata.read_h5ad(h5ad).X)
    assert copied.var["modelmine_frequency"].tolist() == annotated.var[
        "modelmine_frequency"].tolist()


def test_expression_and_labels_files_with_the_run_options(tmp_path, colon,
                                                         report_page_left_out):
    raw, labels, names, ids = colon
    raw, names = raw[:, :300], names[:300]
    expr = pd.DataFrame(raw, columns=names)
    expr.insert(0, "sample", ids)
    expr.to_csv(tmp_path / "expr.tsv", sep="\t", index=False)
    order = np.random.default_rng(1).permutation(len(ids))
    pd.DataFrame({"sample": ids[order], "tissue": labels[order]}).to_csv(
        tmp_path / "labels.csv", index=False
    )
    out = tmp_path / "run"
    assert (
        main(
            [
                "run",
                str(tmp_path / "expr.tsv"),
                "--labels",
                str(tmp_path / "labels.csv"),
                "--selector",
                "svm-rfe",
                "-b",
                "4",
                "-m",
                "20",
                "--signature-size",
                "8",
                "--seed",
                str(SEED),
                "--quiet",
                "--resampling",
                "subsample",
                "--sample-fraction",
                "0.8",
                "--stratify",
                "--scale",
                "standard",
                "--selector-param",
                "C=0.1",
                "--selector-param",
                "step=0.5",
                "-o",
                "mostFreq",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    run = mm.MiningRun.load(out)
    settings = run.settings
    assert settings["scale"] == "standard" and settings["signature_size"] == 8
    assert dict(settings["resampling"]) == {
        "method": "subsample",
        "stratify": True,
        "fraction": 0.8,
    }
    assert settings["selector_params"]["C"] == 0.1
    assert len(run.signatures["mostFreq"]) == 8
    # The truth: the API on the arrays, with the scaling the option names.
    truth = mm.run(
        raw,
        labels,
        feature_names=names,
        selector="svm-rfe",
        selector_params={"C": 0.1, "step": 0.5},
        operators=["mostFreq"],
        n_bootstraps=4,
        n_features=20,
        signature_size=8,
        resampling="subsample",
        sample_fraction=0.8,
        stratify=True,
        scale="standard",
        random_state=SEED,
    )
    assert run.base_models == truth.base_models
    assert run.signatures["mostFreq"].names.tolist() == truth.signatures["mostFreq"].names.tolist()
    assert run.data["labels"].endswith("labels.csv")


def test_genes_by_samples_file_through_the_cli(tmp_path, colon, fast_truth,
                                               report_page_left_out):
    raw, labels, names, ids = colon
    table = pd.DataFrame(raw.T, columns=ids)
    table.insert(0, "gene", names)
    table.to_csv(tmp_path / "matrix.csv", index=False)
    pd.DataFrame({"id": ids, "y": labels}).to_csv(tmp_path / "y.tsv", sep="\t", index=False)
    out = tmp_path / "run"
    assert (
        main(
            [
                "run",
                str(tmp_path / "matrix.csv"),
                "--transpose",
                "--labels",
                str(tmp_path / "y.tsv"),
                *FAST,
                "-o",
                "avgRank",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    assert mm.BaseModels.load(out) == fast_truth


def test_many_small_classes_warn_and_run(tmp_path, capsys, report_page_left_out):
    X, _, names = mm.datasets.load_leukemia(return_names=True)
    classes = np.repeat([f"type{i}" for i in range(18)], 4)  # 18 classes of 4 samples
    frame = pd.DataFrame(X[:, :200], columns=names[:200])
    frame["type"] = classes
    frame.to_csv(tmp_path / "many.csv", index=False)
    out = tmp_path / "run"
    assert (
        main(
            [
                "run",
                str(tmp_path / "many.csv"),
                "-t",
                "type",
                "--selector",
                "anova",
                "-b",
                "4",
                "-m",
                "6",
                "-o",
                "mostFreq",
                "--seed",
                "0",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    err = capsys.readouterr().err
    assert "warning: --target 'type'" in err and "18 classes for 72 samples" in err
    assert len(mm.MiningRun.load(out).base_models.classes) == 18


@pytest.mark.parametrize(
    "args, message",
    [
        (["-t", "age"], "looks continuous"),
        (["-t", "class", "--selector-param", "gamma=2"], "--selector-param 'gamma'"),
        (["-t", "class", "--selector-param", "C"], "expected KEY=VALUE"),
        (["-t", "class", "--scale", "robust"], "argument --scale: invalid choice"),
        (["--labels", "LABELS"], "matches 0 of the 20 samples"),
        (["-t", "class", "--layer", "x"], "--layer does not apply"),
    ],
)
def test_bad_input_is_one_line_with_exit_status_2(tmp_path, capsys, args, message):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.normal(size=(20, 5)), columns=[f"g{i}" for i in range(5)])
    frame.insert(0, "id", [f"s{i}" for i in range(20)])
    frame["class"] = np.repeat([0, 1], 10)
    frame["age"] = rng.uniform(20, 80, 20)
    frame.to_csv(tmp_path / "d.csv", index=False)
    pd.DataFrame({"id": [f"x{i}" for i in range(20)], "y": 1}).to_csv(
        tmp_path / "labels.csv", index=False
    )
    args = [str(tmp_path / "labels.csv") if a == "LABELS" else a for a in args]
    code = main(
        [
            "run",
            str(tmp_path / "d.csv"),
            *args,
            "--selector",
            "svm-rfe",
            "--out",
            str(tmp_path / "o"),
        ]
    )
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert message in err and len(err.splitlines()) == 1, err


def test_h5ad_without_the_obs_column_exits_2(tmp_path, h5ad, capsys):
    code = main(["run", str(h5ad), "--target", "obs:subtype", "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 2 and "obs:subtype is not a column" in err and "'diagnosis'" in err


def test_run_evaluate_puts_error_vs_stability_in_the_report(evaluated_run):
    out = evaluated_run
    table = pd.read_csv(out / "evaluation.csv")
    assert set(table["operator"]) >= {"closedApr", "mostFreq"}
    assert table["error"].between(0, 1).all() and table["stability"].notna().all()
    html = (out / "report.html").read_text()
    assert "Error vs stability per operator" in html and 'alt="Error vs stability' in html
    record = json.loads((out / "run.json").read_text())
    assert "--evaluate" in record["command"]


def test_report_names_the_evaluation_command_when_not_run(annotated_run):
    out = annotated_run  # the shared run without --evaluate
    html = (out / "report.html").read_text()
    assert "Not run for this report" in html
    assert "--target obs:diagnosis" in html  # the run's command, in the settings
    # the evaluation added to the finished run, not everything fitted again (issue 50)
    assert "<pre>modelmine run --resume run --evaluate</pre>" in html
