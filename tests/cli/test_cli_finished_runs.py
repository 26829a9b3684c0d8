"""Nothing finished is ever hidden or deleted (issue 40, item 5), and `modelmine evaluate
--outcome` honours or refuses --sample-weight, --cache and --scheduler (item 13).

A run's directory is finalised before any extra step (--annotate, --evaluate, --pfer/--fdr,
--null, --figures); an extra that fails leaves the complete run in DIR, names DIR and the
command that adds the step, and `--resume DIR` adds it."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import modelmine as mm
from modelmine.cli import main

RUN = ["-b", "6", "-m", "3", "--seed", "4", "--quiet"]


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    rng = np.random.default_rng(0)
    n, p = 40, 10
    X = rng.normal(size=(n, p))
    frame = pd.DataFrame(X, columns=[f"g{i}" for i in range(p)])
    frame.insert(0, "id", [f"s{i}" for i in range(n)])
    frame["response"] = 2 * X[:, 0] + rng.normal(scale=0.5, size=n)
    frame["days"] = np.round(rng.exponential(size=n) * np.exp(-X[:, 1]) * 100 + 1, 1)
    frame["relapse"] = (rng.random(n) < 0.7).astype(int)
    frame["label"] = np.where(X[:, 2] + rng.normal(scale=0.5, size=n) > 0, "a", "b")
    frame["w"] = np.round(np.linspace(0.5, 2.0, n), 3)
    path = tmp_path_factory.mktemp("finished") / "table.csv"
    frame.to_csv(path, index=False)
    return path


def _regression(table):
    return [str(table), "--index-col", "id", "--drop", "days", "--drop", "relapse",
            "--drop", "label", "--drop", "w", "-t", "response", "--outcome", "regression",
            "-s", "pearson"]


def _survival(table):
    return [str(table), "--index-col", "id", "--drop", "response", "--drop", "label",
            "--drop", "w", "-t", "days", "--event", "relapse", "--outcome", "survival",
            "-s", "cox-score"]


def _classes(table):
    return [str(table), "--index-col", "id", "--drop", "response", "--drop", "days",
            "--drop", "relapse", "--drop", "w", "-t", "label", "-s", "anova"]


def _no_partials(directory):
    return not [p.name for p in directory.parent.iterdir() if p.name.startswith(
        f".{directory.name}.")]


@pytest.fixture(scope="module")
def survival_run(table, tmp_path_factory, page_left_out):
    """The survival run with --evaluate (3 folds) and --annotate, shared by the tests of
    both extras (--annotate when anndata is installed); its report's page, which they do
    not read, left out."""
    import importlib.util

    annotate = ["--annotate"] if importlib.util.find_spec("anndata") else []
    out = tmp_path_factory.mktemp("survival") / "surv"
    with page_left_out():
        assert main(["run", *_survival(table), *RUN, "--evaluate", "--n-folds", "3",
                     *annotate, "--out", str(out)]) == 0
    return out


def test_run_evaluate_for_regression_and_survival(table, survival_run, tmp_path,
                                                   report_page_left_out):
    """Both failed after the run ("n_folds ... in [2, 1]": the outcome was not passed). The
    survival run is the shared one (with --annotate too)."""
    regression = tmp_path / "reg"
    assert main(["run", *_regression(table), *RUN, "--evaluate", "--n-folds", "3",
                 "--out", str(regression)]) == 0
    for out, measure in ((regression, "rmse"), (survival_run, "1 - harrell_c")):
        evaluation = pd.read_csv(out / "evaluation.csv")
        assert {"closedApr", "nobagg"} <= set(evaluation.operator)  # single-model ones
        assert set(evaluation.error_measure) == {measure}
        assert evaluation.stability.between(-1, 1).all()
        assert _no_partials(out)


def test_run_annotate_for_survival(table, survival_run):
    """It failed casting the structured target; the times and events are now in obs (the
    shared survival run, with --evaluate too)."""
    anndata = pytest.importorskip("anndata")
    obs = anndata.read_h5ad(survival_run / "annotated.h5ad").obs
    frame = pd.read_csv(table, index_col="id")
    assert np.allclose(obs["days"].to_numpy(), frame["days"].to_numpy())
    assert (obs["relapse"].to_numpy() == frame["relapse"].astype(bool).to_numpy()).all()


def test_a_failing_extra_never_hides_or_deletes_the_finished_run(table, tmp_path, capsys,
                                                                 page_left_out):
    out = tmp_path / "run"
    # 30 folds cannot hold every class: the evaluation fails, after the run (whose page,
    # rewritten by the resume below, is left out)
    with page_left_out():
        assert main(["run", *_classes(table), *RUN, "--evaluate", "--n-folds", "30",
                     "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "'n_folds'" in err and f"complete in {str(out)!r}" in err
    assert f"--resume {out} --evaluate" in err
    assert _no_partials(out)
    saved = mm.BaseModels.load(out)
    # the run is the complete one: the API's bootstrap of the same table
    data = mm.datasets.read_data(table, "label", index_col="id",
                                 drop=["response", "days", "relapse", "w"])
    assert saved == mm.bootstrap(data.X, data.y, selector="anova", n_bootstraps=6,
                                 n_features=3, feature_names=data.feature_names,
                                 random_state=4, progress=False)
    assert not (out / "evaluation.csv").exists()
    # A later run refuses to replace it (it used to delete the hidden one)
    assert main(["run", *_classes(table), *RUN, "--out", str(out)]) == 2
    assert "already exists" in capsys.readouterr().err
    # --resume on the finished run adds the step, without refitting the run
    assert main(["run", "--resume", str(out), "--evaluate", "--n-folds", "3",
                 "--quiet"]) == 0
    assert saved == mm.BaseModels.load(out)
    evaluation = pd.read_csv(out / "evaluation.csv")
    assert {"closedApr", "nobagg"} <= set(evaluation.operator)
    assert "Error vs stability" in (out / "report.html").read_text(encoding="utf-8")
    assert _no_partials(out)
    # without anything to add, there is still nothing to resume
    assert main(["run", "--resume", str(out), "--quiet"]) == 2
    assert "That run finished" in capsys.readouterr().err


# ------------------------------------------------------------------- evaluate --outcome
def _evaluate(data, out, *extra):
    return ["evaluate", *data, "-o", "mostFreq", "-b", "4", "-m", "3", "--n-folds", "3",
            "--seed", "1", "--quiet", "--out", str(out), *extra]


def test_evaluate_outcome_honours_weights(table, tmp_path):
    """--sample-weight reached no fold of a regression evaluation (silently)."""
    data = [a if a != "pearson" else "random-forest" for a in _regression(table)]
    data = [a for i, a in enumerate(data) if not (a == "w" or (a == "--drop"
                                                              and data[i + 1] == "w"))]
    out, plain = tmp_path / "weighted", tmp_path / "plain"
    assert main(_evaluate(data, out, "--sample-weight", "w")) == 0
    assert main(_evaluate([*data, "--drop", "w"], plain)) == 0
    record = json.loads((out / "evaluation.json").read_text())
    assert record["settings"]["design"]["sample_weight"]
    assert "design" not in json.loads((plain / "evaluation.json").read_text())["settings"]
    weighted, unweighted = (pd.read_csv(d / "folds.csv") for d in (out, plain))
    assert not weighted.equals(unweighted)


def test_evaluate_outcome_honours_the_cache(table, tmp_path):
    out, cache = tmp_path / "ev", tmp_path / "cache"
    assert main(_evaluate(_regression(table), out, "--cache", str(cache))) == 0
    assert len(list(cache.glob("*.npz"))) == 3  # one per (selector, fold)
    again = tmp_path / "again"
    assert main(_evaluate(_regression(table), again, "--cache", str(cache))) == 0
    pd.testing.assert_frame_equal(pd.read_csv(out / "folds.csv"),
                                  pd.read_csv(again / "folds.csv"))


def test_evaluate_outcome_honours_the_scheduler(table, tmp_path, capsys, monkeypatch):
    """An unreachable --scheduler was ignored; it is refused before the first fit."""
    pytest.importorskip("distributed")
    # unreachable either way: one second is enough to know it
    monkeypatch.setattr("modelmine.base_models._executors.CONNECT_TIMEOUT", "1s")
    out = tmp_path / "ev"
    assert main(_evaluate(_survival(table), out, "--scheduler", "tcp://127.0.0.1:9")) == 2
    err = capsys.readouterr().err
    assert "--executor" in err and "could not be reached" in err
    assert not out.exists()
