"""The committed calibration of the permutation null with covariates (docs/outcomes.md,
``benchmarks/results/covariate_null.csv``): one seed of each outcome's default scheme and
of its unadjusted reference recomputed, so that a change that moves a published number
fails the build (issue 49, item 5)."""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("outcome, scheme", [("regression", "freedman-lane"),
                                             ("classification", "parametric"),
                                             ("classification", "unadjusted")])
def test_covariate_null_rows_recomputed(outcome, scheme):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_covariate_null import one

    table = pd.read_csv(ROOT / "benchmarks" / "results" / "covariate_null.csv")
    committed = table[(table.outcome == outcome) & (table.scheme == scheme)
                      & (table.seed == 3)].iloc[0]
    row = one(outcome, scheme, 3)
    for column in ("confounded_005", "noise_005", "confounded_010", "noise_010", "min_p"):
        assert row[column] == pytest.approx(committed[column], abs=1e-12), column
