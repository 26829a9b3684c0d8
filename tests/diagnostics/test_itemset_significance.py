"""itemset_significance (issue 25): do co-selected features beat chance?

Checked against independent truths: the curveball chain keeps both margins and samples the
matrices with those margins uniformly (all of them enumerated by brute force on a small
case); planted co-selected groups are found; on base models whose features are drawn
independently, the false discoveries stay within the rate asked.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats

import modelmine as mm
from modelmine.diagnostics import curveball, itemset_significance


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


def _models(rng, b, p, m, planted=None, rate=0.5):
    """b subsets of m features: each feature drawn with a fixed weight (without
    replacement), and a planted group that joins a model with probability ``rate``."""
    weights = rng.uniform(0.2, 1.0, p)
    M = np.zeros((b, p), dtype=bool)
    for i in range(b):
        chosen = []
        if planted is not None and rng.random() < rate:
            chosen = list(planted)
        w = weights.copy()
        w[chosen] = 0
        rest = rng.choice(p, size=m - len(chosen), replace=False, p=w / w.sum())
        M[i, chosen] = True
        M[i, rest] = True
    return M


def test_planted_co_selected_groups_are_found():
    rng = np.random.default_rng(2)
    M = _models(rng, 200, 60, 10, planted=(3, 7, 11))
    pairs = [(3, 7), (3, 11), (7, 11), (3, 7, 11)]
    table = itemset_significance(M, itemsets=[*pairs, (0, 1), (20, 30)],
                                 n_randomizations=200, random_state=0)
    found = table.set_index("items")
    for group in pairs:
        assert found.loc[[group], "q_value"].iloc[0] < 0.05, group
        assert found.loc[[group], "lift"].iloc[0] > 1.5
    assert (table["support"] >= 0).all() and (table["p_value"] > 0).all()


def test_independent_models_give_few_false_discoveries():
    """Features drawn independently of one another: every pair among the 15 most frequent
    is a true null; Benjamini-Hochberg at 0.1 lets at most about 10 % of them through."""
    rng = np.random.default_rng(3)
    M = _models(rng, 150, 40, 8)
    top = np.argsort(-M.sum(0), kind="stable")[:15]
    pairs = list(itertools.combinations(sorted(top.tolist()), 2))
    table = itemset_significance(M, itemsets=pairs, n_randomizations=200, random_state=1)
    assert (table["q_value"] < 0.1).sum() <= 0.1 * len(pairs)


def test_on_real_base_models_with_defaults_and_bad_input():
    X, y = mm.datasets.load_colon()
    base = mm.bootstrap(X[:, :300], y, selector="anova", n_bootstraps=30, n_features=10)
    table = itemset_significance(base, n_randomizations=30, random_state=0)
    closed = mm.mine_itemsets(base, itemset_type="closed", min_support=0.2)
    assert len(table) == sum(len(s) >= 2 for s in closed.itemsets)
    assert table.equals(itemset_significance(base, n_randomizations=30, random_state=0))
    assert set(table["itemset"].iloc[0]) <= set(base.feature_names)
    with pytest.raises(ValueError, match="'n_randomizations' parameter of "
                                         "itemset_significance"):
        itemset_significance(base, n_randomizations=0)
    with pytest.raises(ValueError, match="'itemsets' parameter"):
        itemset_significance(base, itemsets=[(0, 400)])
