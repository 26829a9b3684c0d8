"""The committed marker-recovery benchmark of single-cell panels (``docs/singlecell.md``,
``benchmarks/results/singlecell_recovery.csv``): the first atlas recomputed for scanpy's
t-test and for marker_panels' default (the Wilcoxon selector against each cluster), so
that a change that moves a published number fails the build (issue 29). COSG, a
benchmark reference only, is not installed by the test command and is not recomputed."""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
import pytest

pytest.importorskip("scanpy")
ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore")
def test_recovery_of_the_first_atlas_recomputed():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_singlecell_recovery import one_atlas, parse_args

    table = pd.read_csv(ROOT / "benchmarks" / "results" / "singlecell_recovery.csv",
                        dtype={"cluster": str})
    methods = ["scanpy t-test", "marker_panels wilcoxon up each"]
    committed = table[(table.seed == 0) & table.method.isin(methods)].set_index(
        ["method", "cluster"])
    args = parse_args(["--seeds", "1", "--jobs", "1", "--references", "scanpy t-test",
                       "--variants", "marker_panels wilcoxon up each"])
    rows = pd.DataFrame(one_atlas(0, args)).set_index(["method", "cluster"])
    assert len(rows) == len(committed) == 24
    for key, row in rows.iterrows():
        want = committed.loc[key]
        assert (row.hits, row.cells) == (want.hits, want.cells), key
