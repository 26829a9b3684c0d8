"""The committed comparison of our r-concave bound with stabs' (``docs/error_control.md``,
``benchmarks/results/r_concave_stabs.csv``): a cheap row recomputed, so that a change that
moves a published number fails the build (issue 25, items 4 and 6)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from modelmine.operators import pfer_bound

ROOT = Path(__file__).resolve().parents[1]


def test_r_concave_row_recomputed():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_r_concave_stabs import _stabs_bound

    table = pd.read_csv(ROOT / "benchmarks" / "results" / "r_concave_stabs.csv")
    b, p, q = 50, 10, 2
    row = table[(table.n_pairs == b) & (table.p == p) & (table.q == q)].iloc[0]
    grid = np.arange(b + 1, 2 * b + 1) / (2.0 * b)
    ours = np.array([pfer_bound(threshold=float(pi), q=q, p=p, method="ss-r-concave",
                                n_pairs=b) for pi in grid])
    stabs = np.array([_stabs_bound(q, p, float(pi), b) for pi in grid])
    assert (ours >= stabs - 1e-12).all()  # maximising better never lowers the bound
    rel = (ours - stabs) / stabs
    # (the CSV holds 16 significant digits)
    assert rel.max() == pytest.approx(row["max_rel_excess"], rel=1e-12)
    assert rel[stabs >= 0.1].max() == pytest.approx(row["max_rel_excess_bound_ge_0.1"],
                                                    rel=1e-12)
    for pfer in (0.5, 1.0, 2.0, 5.0):
        steps = round((grid[ours <= pfer].min() - grid[stabs <= pfer].min()) * 2 * b)
        assert steps == row[f"steps_pfer_{pfer:g}"]
