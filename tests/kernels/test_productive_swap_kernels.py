"""The swap method of self_sufficient_itemsets (issue 49, item 4) against brute force.

Users reach these kernels through :func:`modelmine.diagnostics.self_sufficient_itemsets`
(``method="swap"``, tested in ``tests/diagnostics/test_self_sufficient.py``). Here: the
one-sided hypergeometric tails against scipy; Tarone's fewest count against exact
integer binomials; the level-wise search with its pruning against every itemset
enumerated and scipy's Fisher test over every split; the stratified curveball chain
against every matrix of its margins, enumerated (uniform, chi-square); and the randomised
layer minima, searched only as deep as the decision needs, against the same randomised
matrices searched in full.
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np
import pytest
from scipy import stats

from modelmine.diagnostics import productivity_pvalue, self_sufficient_itemsets
from modelmine.diagnostics._itemset_null import global_curveball
from modelmine.diagnostics._productive_swap import (
    FisherTails,
    allowed_at_or_below,
    null_minima,
    randomised,
    scan,
    search,
)


@pytest.mark.parametrize("b", [1, 7, 60])
def test_tails_equal_scipy_hypergeometric(b):
    rng = np.random.default_rng(b)
    nx, ny = rng.integers(0, b + 1, 400), rng.integers(0, b + 1, 400)
    lo = np.maximum(0, nx + ny - b)
    t = lo + (rng.random(400) * (np.minimum(nx, ny) - lo + 2)).astype(int)  # one past too
    tails = FisherTails(b)
    got = tails.sf(t, nx, ny)
    want = stats.hypergeom.sf(t - 1, b, nx, ny)
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-300)
    np.testing.assert_array_equal(tails.sf(t, ny, nx), got)  # symmetric, one row


def test_fewest_is_the_smallest_count_that_can_reach_the_cap():
    b = 30
    tails = FisherTails(b)
    for cap in (0.5, 1e-3, 1e-7):
        got = tails.fewest(np.arange(b + 1), cap)
        for n in range(b + 1):
            reach = [t for t in range(n + 1)
                     if math.comb(n, t) <= cap * math.comb(b, t)]
            assert got[n] == (reach[0] if reach else b + 1), (cap, n)


def _planted(seed, b=48, p=9):
    rng = np.random.default_rng(seed)
    M = rng.random((b, p)) < rng.uniform(0.15, 0.5, p)
    M[rng.random(b) < 0.3, :3] = True
    M[rng.random(b) < 0.2, 5:7] = True
    return M


@pytest.mark.parametrize("caps", [{2: 1.0, 3: 1.0, 4: 1.0},
                                  {2: 1e-3, 3: 0.05, 4: 0.3},
                                  {2: 0.2, 3: 1e-6, 4: 1e-2}])
def test_search_finds_every_itemset_below_the_caps(caps):
    """Every itemset of 2 to 4 of the 9 features held by 4 models, its p-value the largest
    of scipy's one-sided Fisher tests over its splits (``productivity_pvalue``): the
    pruned level-wise search returns exactly those at or below their size's cap."""
    M = _planted(0)
    got, _ = scan(M, 4, 4, FisherTails(M.shape[0]), caps)
    for k in (2, 3, 4):
        want = {}
        for its in itertools.combinations(range(M.shape[1]), k):
            if M[:, list(its)].all(axis=1).sum() >= 4:
                pv = productivity_pvalue(M, its)["p_value"]
                if pv <= caps[k]:
                    want[its] = pv
        items, counts, pv = got[k]
        found = {tuple(int(i) for i in row): v for row, v in zip(items, pv)}
        assert set(found) == set(want), (k, set(found) ^ set(want))
        for its, v in found.items():
            assert v == pytest.approx(want[its], rel=1e-9, abs=1e-300)
        for row, c in zip(items, counts):
            assert c == M[:, row].all(axis=1).sum()
    assert sum(len(got[k][0]) for k in got) > 0


def _space(rows, strata, cols_by_stratum):
    """Every 0/1 matrix with these row sums and these column sums within each stratum: the
    product of each stratum's matrices, each enumerated by brute force."""
    parts = []
    for s, cols in enumerate(cols_by_stratum):
        where = np.flatnonzero(strata == s)
        mine = []
        for cells in itertools.product([False, True], repeat=where.size * len(cols)):
            block = np.array(cells).reshape(where.size, len(cols))
            if (tuple(block.sum(1)) == tuple(rows[i] for i in where)
                    and tuple(block.sum(0)) == cols):
                mine.append(block)
        parts.append((where, mine))
    out = []
    for blocks in itertools.product(*(mine for _, mine in parts)):
        M = np.zeros((len(rows), len(cols_by_stratum[0])), bool)
        for (where, _), block in zip(parts, blocks):
            M[where] = block
        out.append(M.tobytes())
    return out


def test_stratified_curveball_samples_the_matrices_of_its_margins_uniformly():
    """Two strata of three rows: the chain keeps every row sum and each stratum's column
    sums, and visits every such matrix (enumerated) equally often."""
    strata = np.array([0, 1, 0, 1, 0, 1])
    rows = (1, 2, 2, 1, 1, 1)
    space = _space(rows, strata, [(2, 1, 1), (1, 2, 1)])
    index = {key: i for i, key in enumerate(space)}
    M = np.frombuffer(space[0], dtype=bool).reshape(6, 3).copy()
    rng = np.random.default_rng(2)
    counts = np.zeros(len(space))
    for _ in range(2500):
        global_curveball(M, 2, rng, strata)
        counts[index[M.tobytes()]] += 1  # a matrix outside the space: KeyError
    assert len(space) > 10 and counts.min() > 0
    assert stats.chisquare(counts).pvalue > 1e-3, (len(space), counts)


def test_randomised_matrices_keep_the_margins():
    M = _planted(3, b=41, p=12)
    strata = np.repeat([0, 1, 2], [14, 14, 13])
    draws = list(randomised(M, 5, np.random.SeedSequence(1), strata))
    used = M.any(axis=0)
    for D in draws:
        np.testing.assert_array_equal(D.sum(axis=1), M.sum(axis=1))
        for s in range(3):
            np.testing.assert_array_equal(D[strata == s].sum(axis=0),
                                          M[strata == s][:, used].sum(axis=0))
    assert not np.array_equal(draws[0], draws[1])
    again = list(randomised(M, 5, np.random.SeedSequence(1), strata))
    assert all(np.array_equal(a, c) for a, c in zip(draws, again))


def test_layer_minima_searched_as_deep_as_needed_decide_as_the_full_search():
    """The randomised minima of the procedure, each matrix searched only below the
    running critical value, against the same matrices searched in full: the critical
    values (the need-th smallest minimum of each size), every minimum at or below them,
    and so every decision and every adjusted p-value below the level, are the same."""
    M = _planted(5, b=60, p=14)
    R, level, L = 59, 0.05, 3
    allowed = allowed_at_or_below(R, level, L)
    need = allowed + 1
    tails = FisherTails(60)
    seed = np.random.SeedSequence(7)
    got, _ = null_minima(M, 4, 4, tails, {2: 1.0, 3: 1.0, 4: 1.0}, R, allowed, seed)
    full = np.full((R, L), np.inf)
    for r, draw in enumerate(randomised(M, R, seed)):
        layers, _ = scan(draw, 4, 4, tails, {2: 1.0, 3: 1.0, 4: 1.0})
        for k, (_, _, pv) in layers.items():
            if pv.size:
                full[r, k - 2] = pv.min()
    for j in range(L):
        critical = np.sort(full[:, j])[need - 1]
        assert np.sort(got[:, j])[need - 1] == critical
        low = full[:, j] <= critical
        np.testing.assert_array_equal(got[low, j], full[low, j])
        assert (got[~low, j] > critical).all()
    out = search(M, 4, 4, R, level, 10, seed)
    for its, _count, p, q in out["found"]:
        k = len(its)
        exact = min(1.0, L * (1 + int((full[:, k - 2] <= p).sum())) / (1 + R))
        assert (q <= level) == (exact <= level)
        if exact <= level:
            assert q == exact
        else:
            assert q <= exact  # above the level: a lower bound


def _matrices(rows, cols):
    """Every 0/1 matrix with these row sums and column sums, as its columns' bitmasks
    over the rows (filled row by row, pruned by what the columns still need)."""
    p, b = len(cols), len(rows)
    out = []

    def fill(i, need, columns):
        if i == b:
            out.append(columns)
            return
        for on in itertools.combinations(range(p), rows[i]):
            left = list(need)
            for j in on:
                left[j] -= 1
            if min(left) >= 0 and max(left) <= b - i - 1:
                fill(i + 1, left, tuple(c | (1 << i) if j in on else c
                                        for j, c in enumerate(columns)))

    fill(0, list(cols), (0,) * p)
    return out


@functools.cache
def _fisher(b, t, nx, ny):
    """P(H >= t), H ~ Hypergeom(b, nx, ny), from exact integer binomials."""
    return sum(math.comb(nx, x) * math.comb(b - nx, ny - x)
               for x in range(t, min(nx, ny) + 1)) / math.comb(b, ny)


def _productivity(columns, its, b):
    """(count, largest one-sided Fisher p-value over the splits) of an itemset, the
    matrix given by its columns' bitmasks."""
    def held(part):
        m = (1 << b) - 1
        for j in part:
            m &= columns[j]
        return m.bit_count()

    t, worst = held(its), 0.0
    for r in range(1, len(its)):
        for left in itertools.combinations(its, r):
            if its[0] in left:
                right = [j for j in its if j not in left]
                worst = max(worst, _fisher(b, t, held(left), held(right)))
    return t, worst


def test_adjusted_pvalues_equal_the_exact_ones_over_every_matrix_of_the_margins():
    """A 9 x 5 case: its 2,594 matrices with the same margins enumerated, each one's
    smallest productivity p-value among the pairs and among the triples held by 2 models
    (exact integer binomials): the exact adjusted p-value of an itemset of size k is
    min(1, 2 P(that minimum <= its p-value)), the matrices equally likely. The swap
    method's, from 299 randomised matrices, is within Monte-Carlo error of it. The
    family is small and every p-value lies above the search's first cut (0.01), so the
    critical values do too (what an early stop there once got wrong)."""
    rng = np.random.default_rng(1)
    b, p = 9, 5
    M = rng.random((b, p)) < 0.35
    M[:4, :3] = True
    space = _matrices(tuple(M.sum(axis=1)), tuple(M.sum(axis=0)))
    assert len(space) == 2594
    minima = np.full((len(space), 2), np.inf)
    for s, columns in enumerate(space):
        for k in (2, 3):
            for its in itertools.combinations(range(p), k):
                t, pv = _productivity(columns, its, b)
                if t >= 2:
                    minima[s, k - 2] = min(minima[s, k - 2], pv)
    R = 299
    table = self_sufficient_itemsets(M, min_support=2, max_len=3, n_randomizations=R,
                                     fdr=1.0, n_tested=100, n_strata=1, random_state=0)
    observed = tuple(sum(int(M[i, j]) << i for i in range(b)) for j in range(p))
    assert len(table) == sum(_productivity(observed, its, b)[0] >= 2 for k in (2, 3)
                             for its in itertools.combinations(range(p), k))
    below_one = 0
    for items, p_value, q_value in table[["items", "p_value", "q_value"]].itertuples(
            index=False):
        t, want = _productivity(observed, items, b)
        assert p_value == pytest.approx(want, rel=1e-9)
        share = float(np.mean(minima[:, len(items) - 2] <= want * (1 + 1e-9)))
        exact = min(1.0, 2 * share)
        below_one += exact < 1
        tolerance = 2 * (4 * math.sqrt(share * (1 - share) / R) + 2 / R)
        assert abs(q_value - exact) <= tolerance, (items, q_value, exact)
    assert below_one >= 3  # the triple {0, 2, 4} near 0.11, its two pairs near 0.8
