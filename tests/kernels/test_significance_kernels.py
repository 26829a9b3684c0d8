"""The kernels behind the significance of selections and itemsets (issue 38 item 6).

Users reach them through :func:`modelmine.diagnostics.itemset_significance` and
:func:`modelmine.evaluation.selection_null` (tested with public names in
``tests/diagnostics/test_itemset_significance.py`` and
``tests/evaluation/test_selection_null.py``). Here: the curveball chains, single-trade and
global, keep both margins and visit every matrix with those margins uniformly (all of them
enumerated by brute force on a 4 x 4 case, chi-square); the Benjamini-Hochberg q-values
equal a worked example.
"""

from __future__ import annotations

import itertools

import numpy as np
from scipy import stats

from modelmine.diagnostics import curveball
from modelmine.diagnostics._itemset_null import global_curveball
from modelmine.diagnostics._significance import bh_qvalues


def test_curveball_keeps_both_margins():
    rng = np.random.default_rng(0)
    M = rng.random((40, 25)) < 0.3
    rows = [np.flatnonzero(r) for r in M]
    curveball(rows, 2000, rng)
    after = np.zeros_like(M)
    for i, cols in enumerate(rows):
        after[i, cols] = True
        assert np.unique(cols).size == cols.size
    assert np.array_equal(after.sum(1), M.sum(1)) and np.array_equal(after.sum(0), M.sum(0))
    assert not np.array_equal(after, M)


def test_curveball_samples_the_matrices_with_those_margins_uniformly():
    """Every 4 x 4 binary matrix with row sums (2, 2, 1, 1) and column sums (2, 1, 2, 1),
    enumerated by brute force; the chain's visits are uniform over them (chi-square)."""
    row_sums, col_sums = (2, 2, 1, 1), (2, 1, 2, 1)
    space = []
    for cells in itertools.product([0, 1], repeat=16):
        M = np.array(cells).reshape(4, 4)
        if tuple(M.sum(1)) == row_sums and tuple(M.sum(0)) == col_sums:
            space.append(M.tobytes())
    index = {key: i for i, key in enumerate(space)}
    start = np.frombuffer(space[0], dtype=int).reshape(4, 4).astype(bool)
    rows = [np.flatnonzero(r) for r in start]
    rng = np.random.default_rng(1)
    counts = np.zeros(len(space))
    for _ in range(6000):
        curveball(rows, 8, rng)
        M = np.zeros((4, 4), dtype=int)
        for i, cols in enumerate(rows):
            M[i, cols] = 1
        counts[index[M.tobytes()]] += 1
    assert counts.min() > 0
    assert stats.chisquare(counts).pvalue > 1e-3, (len(space), counts)


def test_global_curveball_samples_the_matrices_with_those_margins_uniformly():
    """The chain the test runs on (b / 2 trades at once), as the single-trade chain above."""
    row_sums, col_sums = (2, 2, 1, 1), (2, 1, 2, 1)
    space = []
    for cells in itertools.product([False, True], repeat=16):
        M = np.array(cells).reshape(4, 4)
        if tuple(M.sum(1)) == row_sums and tuple(M.sum(0)) == col_sums:
            space.append(M.tobytes())
    index = {key: i for i, key in enumerate(space)}
    M = np.frombuffer(space[0], dtype=bool).reshape(4, 4).copy()
    rng = np.random.default_rng(1)
    counts = np.zeros(len(space))
    for _ in range(6000):
        global_curveball(M, 2, rng)
        assert tuple(M.sum(1)) == row_sums and tuple(M.sum(0)) == col_sums
        counts[index[M.tobytes()]] += 1
    assert counts.min() > 0
    assert stats.chisquare(counts).pvalue > 1e-3, (len(space), counts)


def test_bh_against_hand_example():
    # p = (0.01, 0.04, 0.03, 0.20), m = 4: sorted 0.01, 0.03, 0.04, 0.20 -> 4p/rank =
    # 0.04, 0.06, 0.0533, 0.20 -> cumulative minimum from the top: 0.04, 0.0533, 0.0533, 0.2
    np.testing.assert_allclose(
        bh_qvalues([0.01, 0.04, 0.03, 0.20]), [0.04, 0.16 / 3, 0.16 / 3, 0.20]
    )
