"""The committed KDD'12 comparison at the papers' full setting (``docs/kdd12/``, issue 37):
a cheap slice recomputed exactly, so that a change that moves a published number fails the
build. The slice is colon with information gain, at the full setting (10 folds, b = 150,
m = 20, k = 10): every fold's signatures, errors and agreements for every operator, and the
pooled findings recomputed from the committed per-dataset files."""

from __future__ import annotations

import re
import runpy
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "kdd12"
SCRIPT = ROOT / "examples" / "reproduce_kdd12.py"
DATASETS = ("colon", "leukemia", "prostate", "basehock", "pcmac", "madelon")


def _run(monkeypatch, *args: str) -> None:
    monkeypatch.setattr(sys, "argv", [str(SCRIPT), *args])
    runpy.run_path(str(SCRIPT), run_name="__main__")


def test_the_run_log_names_commit_command_machine_and_wall_times():
    log = (DOCS / "run.log").read_text()
    assert re.search(r"^commit: [0-9a-f]{40}$", log, flags=re.M), "a clean commit"
    assert "--folds 10 --bootstraps 150 --large-folds 10 --large-bootstraps 150" in log
    assert "--relieff weka" in log and "2 cores" in log
    for ds in DATASETS:
        assert re.search(rf", {ds} \(\d+ x \d+\), .*: \d+ s wall, \d+/70 \(selector, fold\)",
                         log), ds
        tasks = pd.read_csv(DOCS / f"{ds}_tasks.csv")
        assert len(tasks) == 70 and set(tasks.fold) == set(range(10))
    assert "# run finished" in log


@pytest.mark.slow
def test_colon_information_gain_recomputed_at_the_full_setting(tmp_path, monkeypatch):
    out = tmp_path / "out"
    _run(monkeypatch, "--domains", "microarray", "--datasets", "colon", "--selectors", "ig",
         "--relieff", "weka", "--folds", "10", "--bootstraps", "150", "--no-saeys",
         "--n-jobs", "1", "--out", str(out))
    ours = pd.read_csv(out / "colon_folds.csv")
    committed = pd.read_csv(DOCS / "colon_folds.csv.gz")
    committed = committed[committed.selector == "ig"].reset_index(drop=True)
    assert len(ours) == len(committed) > 0
    pd.testing.assert_frame_equal(ours, committed, check_exact=False, rtol=1e-12,
                                  atol=1e-12)
    paired = pd.read_csv(out / "paired_differences.csv", keep_default_na=False,
                         na_values=[""])
    full = pd.read_csv(DOCS / "paired_differences.csv", keep_default_na=False,
                       na_values=[""])
    full = full[(full.dataset == "colon") & (full.selector == "ig")].reset_index(drop=True)
    pd.testing.assert_frame_equal(paired, full, check_exact=False, rtol=1e-12, atol=1e-12)


def test_the_findings_are_recomputed_from_the_committed_files(tmp_path, monkeypatch):
    """findings_power.csv follows from paired_differences.csv and the stability tables
    (``--findings``), and every claim has a verdict with its power."""
    stage = tmp_path / "run"
    stage.mkdir()
    (stage / "paired_differences.csv").write_bytes(
        (DOCS / "paired_differences.csv").read_bytes())
    for ds in DATASETS:
        (stage / f"{ds}_stability.csv").write_bytes(
            (DOCS / f"{ds}_stability.csv").read_bytes())
    _run(monkeypatch, "--findings", str(stage), "--out", str(tmp_path / "again"))
    committed = pd.read_csv(DOCS / "findings_power.csv").fillna({"strategy": ""})
    again = pd.read_csv(tmp_path / "again" / "findings_power.csv").fillna({"strategy": ""})
    pd.testing.assert_frame_equal(again, committed)
    every = committed[committed.scope == "all"]
    assert (every.n_datasets == len(DATASETS)).all()
    assert np.isfinite(every.detectable).all()
