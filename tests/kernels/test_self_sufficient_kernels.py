"""The stratified exact test of self_sufficient_itemsets (issue 49, item 4) against the
conditional distribution enumerated by brute force, and its strata of model size.

Users reach them through :func:`modelmine.diagnostics.productivity_pvalue` and
:func:`modelmine.diagnostics.self_sufficient_itemsets`
(``tests/diagnostics/test_self_sufficient.py``).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from modelmine.diagnostics import productivity_pvalue
from modelmine.diagnostics._self_sufficient import _strata, _tail


def test_stratified_tail_is_the_exact_conditional_distribution():
    """Two strata of five models: the null keeps, in each stratum, how many models hold
    each part, and places the models holding Y among those of the stratum uniformly. All
    C(5, n_Y) placements per stratum enumerated: P(both >= observed)."""
    rng = np.random.default_rng(4)
    for _ in range(5):
        M = rng.random((10, 3)) < 0.5
        M[:5, 0] |= True  # five big models, five small: sizes split the strata
        M[:5, 1] |= rng.random(5) < 0.5
        strata = _strata(M, 2)
        x, y = M[:, 0], M[:, [1, 2]].all(axis=1)
        observed = int((x & y).sum())
        per_stratum = []
        for s in (0, 1):
            rows = np.flatnonzero(strata == s)
            ny = int(y[rows].sum())
            per_stratum.append([int(x[list(c)].sum())
                                for c in itertools.combinations(rows, ny)])
        both = [a + b for a in per_stratum[0] for b in per_stratum[1]]
        brute = np.mean(np.array(both) >= observed)
        assert _tail(observed, strata, x, y) == pytest.approx(brute, rel=1e-9, abs=1e-15)
        # the itemset (0, 1, 2) has three splits, {0} | {1, 2} one of them
        got = productivity_pvalue(M, (0, 1, 2), n_strata=2)
        assert got["p_value"] >= brute - 1e-12


def test_strata_keep_equal_sizes_together_and_one_size_is_one_stratum():
    M = np.zeros((12, 20), bool)
    sizes = [3, 3, 3, 3, 3, 5, 5, 8, 8, 8, 9, 12]
    for i, s in enumerate(sizes):
        M[i, :s] = True
    strata = _strata(M, 4)
    for s in set(sizes):
        assert len(set(strata[np.array(sizes) == s])) == 1
    assert list(strata) == sorted(strata)  # bins follow size
    assert set(_strata(np.tile(M[:1], (9, 1)), 4)) == {0}
