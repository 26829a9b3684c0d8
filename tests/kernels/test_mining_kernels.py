"""Two kernels of :func:`modelmine.patterns.mine_itemsets` on their own (issue 38 item 6):
the canonical order of itemsets (by -count, -length, items) against a plain Python sort,
also on the bucketed path of one long itemset among many short ones, and ``closed_mask``,
which picks the closed itemsets among the frequent ones, against the closed itemsets
mined (themselves checked against tidset intersections in ``tests/patterns/test_mining.py``).
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from modelmine.patterns import mine_itemsets
from modelmine.patterns._mining import canonical_order, closed_mask

matrices = st.integers(1, 9).flatmap(lambda b: st.integers(1, 7).flatmap(
    lambda p: st.lists(st.lists(st.booleans(), min_size=p, max_size=p), min_size=b,
                       max_size=b).map(lambda rows: np.array(rows, dtype=bool))))


def reference_order(sets, counts):
    """The canonical order by a plain Python sort: (-count, -length, sorted items)."""
    rows = sorted((-int(c), -len(s), tuple(sorted(int(i) for i in s)))
                  for s, c in zip(sets, counts))
    return [r[2] for r in rows], [-r[0] for r in rows]


@settings(max_examples=40, deadline=None)
@given(matrix=matrices, count=st.integers(1, 3))
def test_closed_mask_picks_the_closed_itemsets_among_the_frequent(matrix, count):
    count = min(count, matrix.shape[0])
    res = mine_itemsets(matrix, itemset_type="closed", min_support=count)
    freq = mine_itemsets(matrix, itemset_type="frequent", min_support=count)
    mask = closed_mask(freq.lengths, freq.indices, freq.counts, matrix)
    assert {freq[i] for i in np.flatnonzero(mask)} == set(res.itemsets)


@pytest.mark.parametrize("n_items", [5, 255, 256, 300, 70_000])
@pytest.mark.parametrize("uneven", [False, True])
def test_canonical_order_against_python_sort(n_items, uneven):
    rng = np.random.default_rng(n_items)
    n = 3000
    pool = rng.choice(n_items, size=min(n_items, 60), replace=False)
    sets = [tuple(rng.choice(pool, size=min(int(k), len(pool)), replace=False))
            for k in rng.integers(1, 9, n)]
    if uneven:  # one long itemset among many short ones: the bucketed path
        sets += [(int(i),) for i in rng.choice(pool, 40_000)]
        sets.append(tuple(pool[:40].tolist()))
    lengths = np.array([len(s) for s in sets])
    if uneven and pool.size >= 40:  # rows x longest (40) above 4 x items + 2^20: the
        # bucketed path (with 5 items the longest itemset holds 5 and no bucket is needed)
        assert lengths.size * lengths.max() > 4 * lengths.sum() + (1 << 20)
    counts = rng.integers(1, 4, len(sets))
    flat = np.fromiter((i for s in sets for i in s), np.int64)
    indptr, indices, out_counts = canonical_order(lengths, flat, counts)
    want_sets, want_counts = reference_order(sets, counts)
    got = [tuple(indices[a:b].tolist()) for a, b in pairwise(indptr)]
    assert got == want_sets
    assert out_counts.tolist() == want_counts
    assert indices.dtype == np.int32 and indptr.dtype == np.int64
