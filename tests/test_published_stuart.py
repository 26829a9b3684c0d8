"""The committed Stuart benchmark (``benchmarks/results/stuart.csv``, quoted in
``docs/operators.md`` and ``docs/reproduction.md``): a cheap slice recomputed, so that a
change that moves a published number fails the build (issue 25, item 4)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

from modelmine.operators import stuart_scores

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests" / "operators"))


def test_stuart_rows_recomputed():
    from bench_stuart import P, _old_recursion
    from test_rra_stuart import _rank_columns

    table = pd.read_csv(ROOT / "benchmarks" / "results" / "stuart.csv")
    acc = table[(table.part == "accuracy") & (table.b == 50)].set_index("kind")
    ours = stuart_scores(_rank_columns(np.random.default_rng(50), 50), log=True)
    for j, kind in enumerate(("anywhere", "top", "ties")):
        assert round(float(ours[j]), 6) == acc.loc[kind, "log_q"]
    assert (table.loc[table.part == "accuracy", "abs_diff_log_q"] < 1e-9).all()
    lost = table[table.part == "lost and time"].set_index("b")
    rng = np.random.default_rng(0)
    draws = {b: np.vstack([rng.permutation(P) + 1 for _ in range(b)]) / P
             for b in (20, 50, 100)}
    assert int(np.isnan(_old_recursion(draws[100])).sum()) == lost.loc[100, "lost_old"]
    assert (lost["lost_new"] == 0).all()
