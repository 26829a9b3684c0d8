"""`modelmine run` / `evaluate` with --groups and --sample-weight (issue 28): the columns come out
of the features, the run equals the Python API on the same arrays, the run records them and
a killed run resumes with them; bad columns get one-line errors with exit status 2."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import modelmine as mm
from modelmine.cli import main

FAST = ["--selector", "anova", "-b", "8", "-m", "6", "--seed", "3", "--quiet"]


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    X, y, names = mm.datasets.load_colon(return_names=True)
    X = np.asarray(X)[:, :40]
    rng = np.random.default_rng(0)
    patients = np.array([f"P{g:02d}" for g in rng.integers(0, 24, size=y.size)])
    weights = np.round(rng.uniform(0.5, 2.0, y.size), 3)
    frame = pd.DataFrame(X, columns=list(names[:40]))
    frame.insert(0, "patient", patients)
    frame["weight"] = weights
    frame["class"] = y
    path = tmp_path_factory.mktemp("groups") / "colon.csv"
    frame.to_csv(path, index=False)
    return path, X, np.asarray(y), patients, weights, np.asarray(names[:40], dtype=str)


def _bad(argv, capsys, *patterns):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    for p in patterns:
        assert p in err, err


def test_run_with_groups_and_weights_equals_the_api(tmp_path, table, capsys,
                                                    report_page_left_out):
    path, X, y, patients, weights, names = table
    # one run with --null and --evaluate: the run itself is the one without them (the
    # extras are added beside the finished run), and they rerun the selector on the same
    # grouped, weighted resamples
    out = tmp_path / "run"
    assert main(["run", str(path), "--target", "class", "--groups", "patient", "--sample-weight",
                 "weight", *FAST, "--null", "10", "--evaluate", "--n-folds", "3",
                 "--out", str(out)]) == 0
    capsys.readouterr()
    run = mm.MiningRun.load(out)
    assert list(run.base_models.feature_names) == list(names)  # both columns left out
    truth = mm.bootstrap(X, y, selector="anova", n_bootstraps=8, n_features=6,
                         random_state=3, feature_names=names, groups=patients,
                         sample_weight=weights)
    np.testing.assert_array_equal(run.base_models.subsets, truth.subsets)
    np.testing.assert_array_equal(run.base_models.sample_indices, truth.sample_indices)
    record = json.loads((out / "run.json").read_text())
    assert record["data"]["read_options"] == {"groups": "patient", "weights": "weight"}
    assert (out / "null.csv").exists() and (out / "evaluation.csv").exists()
    assert record["settings"]["design"]["groups"]["n_groups"] == np.unique(patients).size
    assert record["settings"]["design"]["sample_weight"]["use"] == "selector"
    # --weighted-resampling: the weights draw the resamples, any selector works
    out2 = tmp_path / "run2"
    assert main(["run", str(path), "--target", "class", "--sample-weight", "weight",
                 "--drop", "patient", "--weighted-resampling", "--selector", "ig", "-b", "4",
                 "-m", "5", "-q", "--out", str(out2)]) == 0
    capsys.readouterr()
    assert json.loads((out2 / "run.json").read_text())["settings"]["weighted_resampling"]


def test_evaluate_with_groups_uses_grouped_folds(tmp_path, table, capsys):
    path, *_ = table
    out = tmp_path / "ev"
    assert main(["evaluate", str(path), "--target", "class", "--groups", "patient",
                 "--selector", "anova", "--operator", "mostFreq", "--classifier", "svm",
                 "--n-folds", "3", "-b", "4", "-m", "5", "-q", "--out", str(out)]) == 0
    capsys.readouterr()
    assert (out / "table2.csv").exists()


def test_bad_group_and_weight_columns(tmp_path, table, capsys):
    path, *_ = table
    out = str(tmp_path / "x")
    _bad(["run", str(path), "--target", "class", "--groups", "donor", *FAST, "--out", out],
         capsys, "--groups 'donor' is not a column")
    _bad(["run", str(path), "--target", "class", "--sample-weight", "patient", *FAST, "--out",
          out], capsys, "--sample-weight 'patient'", "must hold numbers")
    _bad(["run", str(path), "--target", "class", "--sample-weight", "weight", "--drop", "patient",
          "--selector", "ig", "-b", "4", "-m", "5", "--out", out], capsys, "(--sample-weight)",
         "selector 'ig'")
    _bad(["run", "embedded:colon", "--groups", "patient", *FAST, "--out", out], capsys,
         "--groups", "embedded")
    _bad(["run", "embedded:colon", "--weighted-resampling", *FAST, "--out", out], capsys,
         "(--weighted-resampling)", "sample_weight")
    _bad(["run", str(path), "--target", "class", "--groups", "patient", "--stratify",
          *FAST, "--out", out], capsys, "(--stratify)", "several classes")
    frame = pd.read_csv(path)
    frame.loc[3, "patient"] = np.nan
    holed = tmp_path / "holed.csv"
    frame.to_csv(holed, index=False)
    _bad(["run", str(holed), "--target", "class", "--groups", "patient", *FAST, "--out",
          out], capsys, "--groups 'patient'", "1 missing value")
    _bad(["evaluate", str(path), "--target", "class", "--groups", "patient", "--selector",
          "anova", "--n-folds", "30", "-b", "3", "-m", "5", "--out", out], capsys,
         "(--groups)", "at least n_folds=30 groups")


_KILLED = """
import sys, time
from modelmine.base_models import _rundir
from modelmine.cli import main

write_chunk = _rundir.RunDirectory.write_chunk

def write_and_stop(self, cid, arrays):
    write_chunk(self, cid, arrays)
    with open(sys.argv[3], "w") as fh:
        fh.write("1")
    time.sleep(600)

_rundir.RunDirectory.write_chunk = write_and_stop
sys.exit(main(["run", sys.argv[1], "--target", "class", "--groups", "patient", "--drop",
               "weight", "--selector", "random-forest", "-b", "30", "-m", "5", "--seed", "4",
               "--out", sys.argv[2], "-q"]))
"""


@pytest.mark.slow
def test_grouped_run_killed_then_resumed(tmp_path, table, capsys, wait_for_file):
    path, X, y, patients, _, names = table
    out, stopped = tmp_path / "run", tmp_path / "stopped"
    proc = subprocess.Popen([sys.executable, "-c", _KILLED, str(path), str(out), str(stopped)])
    wait_for_file(stopped, proc)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert main(["run", "--resume", str(out), "-q"]) == 0
    capsys.readouterr()
    truth = mm.bootstrap(X, y, selector="random-forest", n_bootstraps=30, n_features=5,
                         random_state=4, feature_names=names, groups=patients)
    assert mm.BaseModels.load(out) == truth


def test_h5ad_obs_columns(tmp_path, table, capsys, report_page_left_out):
    anndata = pytest.importorskip("anndata")
    _, X, y, patients, weights, names = table
    obs = pd.DataFrame({"label": y.astype(str), "donor": pd.Categorical(patients),
                        "w": weights}, index=[f"c{i}" for i in range(y.size)])
    h5 = tmp_path / "cells.h5ad"
    anndata.AnnData(X=X, obs=obs, var=pd.DataFrame(index=names)).write_h5ad(h5)
    out = tmp_path / "run"
    assert main(["run", str(h5), "--target", "obs:label", "--groups", "obs:donor",
                 "--sample-weight", "obs:w", *FAST, "--out", str(out)]) == 0
    capsys.readouterr()
    truth = mm.bootstrap(X, y.astype(str), selector="anova", n_bootstraps=8, n_features=6,
                         random_state=3, feature_names=names, groups=patients,
                         sample_weight=weights)
    np.testing.assert_array_equal(mm.MiningRun.load(out).base_models.subsets, truth.subsets)
    # the Python door takes the same obs columns
    adata = anndata.read_h5ad(h5)
    run = mm.run(adata, "obs:label", selector="anova", operators=["mostFreq"],
                 n_bootstraps=8, n_features=6, random_state=3, groups="obs:donor",
                 sample_weight="obs:w")
    np.testing.assert_array_equal(run.base_models.subsets, truth.subsets)
    _bad(["run", str(h5), "--target", "obs:label", "--groups", "obs:site", *FAST, "--out",
          str(tmp_path / "y")], capsys, "--groups obs:site is not a column")
