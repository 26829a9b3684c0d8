"""The blocked overlap products behind the pairwise subset measures, against brute-force
double loops (issue 38 item 6).

Jaccard, Dice and Pearson over all pairs of subsets come from ``Z @ Z.T`` computed in row
blocks, dense for heavy columns and sparse for rare ones (``diagnostics._subsets``). Small
blocks (``_BLOCK_ROWS``) force the blocked route on small data; each pair and the mean must
equal the double loop over pairs of sets, and the overlap counts ``S @ S.T``. The public
measures are tested in ``tests/diagnostics/test_diagnostics_stability.py`` and
``tests/patterns/test_distances.py``.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from subset_oracles import brute_mean, brute_pair, random_subsets

from modelmine.diagnostics import _subsets, pairwise_similarity, stability
from modelmine.patterns import intersection_counts, overlap_blocks


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(
    ("M", "d", "sizes"),
    [(12, 8, [0, 1, 3, 5, 8]), (30, 500, [2, 3, 4]), (40, 10, [4, 5, 6]), (9, 6, [6, 0]),
     (40, 800, [0, 2, 3])],
)
@pytest.mark.parametrize("block", [3, 512])
def test_pairwise_measures_match_double_loop(monkeypatch, seed, M, d, sizes, block):
    # Small row blocks exercise the blocked overlap products; d = 500 with tiny subsets
    # takes the sparse product, the others the dense one.
    monkeypatch.setattr(_subsets, "_BLOCK_ROWS", block)
    rng = np.random.default_rng(seed)
    print("seed", seed)
    Z = random_subsets(rng, M, d, sizes)
    for measure in ("jaccard", "dice", "pearson"):
        res = pairwise_similarity(Z, measure=measure)
        assert res.value == pytest.approx(brute_mean(Z, measure), abs=1e-12)
        for i, j in itertools.combinations(range(M), 2):
            assert res.pairwise[i, j] == pytest.approx(
                brute_pair(Z[i], Z[j], measure, d), abs=1e-12)
        assert np.allclose(res.pairwise, res.pairwise.T)
        assert float(stability(Z, measure)) == pytest.approx(res.value, abs=1e-12)


@pytest.mark.parametrize("block", [7, 512])
def test_heavy_and_light_columns_match_brute_force(monkeypatch, block):
    # A few features selected almost always (dense product) and a long tail of rare ones
    # (sparse product): the overlaps are the sum of both parts.
    monkeypatch.setattr(_subsets, "_BLOCK_ROWS", block)
    rng = np.random.default_rng(5)
    M, d = 60, 400
    Z = rng.random((M, d)) < np.r_[np.full(4, 0.95), np.full(d - 4, 0.01)]
    Z[3] = False
    heavy = 0
    for _, dense, _sparse in overlap_blocks(Z, block_rows=block):
        heavy += dense is not None
    assert heavy > 0
    for measure in ("jaccard", "dice"):
        assert float(stability(Z, measure)) == pytest.approx(brute_mean(Z, measure), abs=1e-12)
        full = pairwise_similarity(Z, measure=measure).pairwise
        assert full[3, 5] == pytest.approx(brute_pair(Z[3], Z[5], measure, d))


@pytest.mark.parametrize("profile", ["skewed", "all_heavy", "all_light"])
@pytest.mark.parametrize("block_rows", [1, 7, 512])
def test_split_of_columns_is_exact(rng, profile, block_rows):
    # Heavy columns (dense BLAS), light ones (sparse) or all of one kind, in row blocks of
    # any size: the one overlap kernel gives the exact counts.
    p = {"skewed": np.linspace(0.9, 0.001, 300), "all_heavy": np.full(300, 0.8),
         "all_light": np.full(300, 0.004)}[profile]
    S = rng.random((80, 300)) < p
    want = S.astype(np.int64) @ S.T.astype(np.int64)
    np.testing.assert_array_equal(intersection_counts(S), want)
    got = np.zeros_like(want, dtype=np.float64)
    for rows, dense, sparse in overlap_blocks(S, block_rows=block_rows):
        if dense is not None:
            got[rows] += dense
        if sparse is not None:
            got[rows] += sparse.toarray()
    np.testing.assert_array_equal(got, want)
