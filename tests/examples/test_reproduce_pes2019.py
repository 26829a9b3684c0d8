"""examples/reproduce_pes2019.py: the table of the ensemble against B (Pes 2019, Sect. 4.2)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "reproduce_pes2019.py"


@pytest.fixture(scope="module")
def script():
    spec = importlib.util.spec_from_file_location("reproduce_pes2019", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bootstraps_table_is_the_mean_ensemble_row_per_b(script):
    rng = np.random.default_rng(0)
    frames = {}
    for B in (20, 50, 100):
        rows = [(sel, mode, th, rng.random(), rng.random())
                for sel in ("oner", "svm-rfe50") for mode in ("simple", "ensemble")
                for th in (0.01, 0.1, 0.2)]
        frames["colon", B] = pd.DataFrame(
            rows, columns=["selector", "mode", "threshold", "stability", "auc"])
    table = script.bootstraps_table(frames).set_index(["dataset", "selector"])
    for B, df in ((B, frames["colon", B]) for B in (20, 50, 100)):
        ens = df[(df["mode"] == "ensemble") & (df.selector == "oner")]
        assert table.loc[("colon", "oner"), f"stability_B{B}"] == pytest.approx(
            ens.stability.mean())
        assert table.loc[("colon", "oner"), f"auc_B{B}"] == pytest.approx(ens.auc.mean())
    gain = table.loc[("colon", "svm-rfe50")]
    assert gain["stability_gain_50_100"] == pytest.approx(
        gain["stability_B100"] - gain["stability_B50"])
    assert "stability_gain_20_100" not in table.columns  # successive B only


def test_gap_table_is_max_minus_min_per_dataset(script):
    summary = pd.DataFrame({
        "selector": ["oner", "svm", "chi2", "oner", "svm", "chi2"],
        "dataset": ["a"] * 3 + ["b"] * 3,
        "stability_simple": [0.2, 0.5, 0.9, 0.6, 0.4, 0.7],
        "stability_ensemble": [0.6, 0.5, 0.8, 0.5, 0.65, 0.7],
    })
    gap = script.gap_table(summary).set_index("dataset")
    assert gap.loc["a", "gap_simple"] == pytest.approx(0.7)
    assert gap.loc["a", "gap_ensemble"] == pytest.approx(0.3)
    assert gap.loc["a", "least_stable_simple"] == "oner"
    assert gap.loc["a", "least_stable_ensemble"] == "svm"
    assert gap.loc["b", "least_stable_simple"] == "svm"
    assert gap.loc["b", "least_stable_ensemble"] == "oner"
