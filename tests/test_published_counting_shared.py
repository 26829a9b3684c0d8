"""The committed counting-route benchmark (``docs/performance.md``, "oner, cfs, ig, chi2,
su, gainratio"; ``benchmarks/results/counting_shared.csv``): colon's rows recomputed on the
committed number of resamples, so that a change that breaks the bit-for-bit equality of
the two routes, or the fold the figures were measured on, fails the build (issue 37).
Times are a benchmark's, not a test's: only the equalities and shapes are checked."""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]


def test_counting_shared_colon_rows_recomputed():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_counting_shared import measure

    table = pd.read_csv(ROOT / "benchmarks" / "results" / "counting_shared.csv")
    # the finding the documentation states: every route equal, on every dataset
    assert table.equal.all()
    assert set(table.dataset) == {"colon", "leukemia", "prostate", "basehock", "pcmac",
                                  "madelon"}
    committed = table[table.dataset == "colon"].set_index("selector")
    for row in measure("colon", int(committed.b.iloc[0]), list(committed.index)):
        want = committed.loc[row["selector"]]
        for column in ("n_train", "n_features", "b", "equal"):
            assert row[column] == want[column], (row["selector"], column)
