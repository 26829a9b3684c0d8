"""The committed grouping benchmark (``docs/groups.md``, ``benchmarks/results/groups.csv``):
colon's first noise draw recomputed, so that a change that moves a published number fails
the build (issue 28, point 3)."""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_groups_benchmark_row_recomputed():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_groups import measure

    table = pd.read_csv(ROOT / "benchmarks" / "results" / "groups.csv")
    committed = table[(table.dataset == "colon") & (table.seed == 0)].set_index("resampling")
    for row in measure("colon", 0):
        want = committed.loc[row["resampling"]]
        assert row["n_samples"] == want.n_samples
        for column in ("stability", "cv_error", "fold_stability"):
            assert row[column] == pytest.approx(want[column], rel=1e-9, abs=1e-12), column
