"""CFS (Hall 1999) with WEKA's best-first search: equal to a plain reference implementation."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import modelmine as mm
from modelmine.selectors._cfs import CFSSelector, cfs_search
from modelmine.selectors._information import discretize


def _su_ref(a, b):
    """Symmetrical uncertainty of two discrete vectors, from the definition."""
    def h(*cols):
        _, counts = np.unique(np.stack(cols, axis=1), axis=0, return_counts=True)
        p = counts / counts.sum()
        return -float((p * np.log(p)).sum())

    ha, hb = h(a), h(b)
    if ha + hb == 0:
        return 0.0
    return min(1.0, max(0.0, 2 * (ha + hb - h(a, b)) / (ha + hb)))


def _reference_cfs(codes, y, max_stale=5):
    """Best-first forward search, written plainly: a list kept sorted, merits recomputed
    from Hall's formula k r_cf / sqrt(k + k (k - 1) r_ff) for every subset."""
    p = codes.shape[1]
    rcf = [_su_ref(codes[:, f], y) for f in range(p)]
    pair = {}

    def su(f, g):
        key = (min(f, g), max(f, g))
        if key not in pair:
            pair[key] = _su_ref(codes[:, f], codes[:, g])
        return pair[key]

    def merit(subset):
        k = len(subset)
        r_cf = sum(rcf[f] for f in subset) / k
        pairs = [su(f, g) for f, g in itertools.combinations(subset, 2)]
        r_ff = sum(pairs) / len(pairs) if pairs else 0.0
        return k * r_cf / math.sqrt(k + k * (k - 1) * r_ff)

    open_list = [(0.0, 0, ())]  # (merit, insertion, subset)
    seen = {frozenset()}
    best, best_merit, stale, order = (), 0.0, 0, 1
    while open_list and stale < max_stale:
        open_list.sort(key=lambda e: (-e[0], e[1]))
        _, _, subset = open_list.pop(0)
        improved = False
        for f in range(p):
            if f in subset or frozenset(subset) | {f} in seen:
                continue
            child = (*subset, f)
            seen.add(frozenset(child))
            m = merit(child)
            open_list.append((m, order, child))
            order += 1
            if m > best_merit + 1e-12:
                best, best_merit, improved = child, m, True
        stale = 0 if improved else stale + 1
    return list(best), best_merit


@pytest.mark.slow
@pytest.mark.parametrize(("dataset", "columns"), [("colon", 600), ("leukemia", 700)])
def test_equals_the_reference_search_on_real_data(dataset, columns):
    # Every column of a random selection (the reference is quadratic in Python; the fast
    # code runs on the whole data in the contract and bootstrap tests).
    X, y = getattr(mm.datasets, f"load_{dataset}")()
    cols = np.sort(np.random.default_rng(0).choice(X.shape[1], columns, replace=False))
    yc = np.unique(y, return_inverse=True)[1]
    codes, levels = discretize(np.asarray(X[:, cols], dtype=np.float64), yc)
    fast, fast_merit, _ = cfs_search(codes, levels, yc)
    ref, ref_merit = _reference_cfs(codes, yc)
    assert fast == ref
    assert fast_merit == pytest.approx(ref_merit, rel=1e-9)


def test_merit_by_hand():
    # Three binary features and a binary class of 8 samples: f0 = y, f1 = y (a copy),
    # f2 independent of y. SU(f0, y) = SU(f1, y) = 1, SU(f0, f1) = 1, SU(f2, y) = 0.
    # Merits: {f0} = 1; {f0, f1} = 2 / sqrt(2 + 2) = 1; {f0, f2} = 1 / sqrt(2) < 1.
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    f2 = np.array([0, 1, 0, 1, 0, 1, 0, 1])
    codes = np.stack([y, y, f2], axis=1).astype(np.int32)
    chosen, merit, rcf = cfs_search(codes, np.array([2, 2, 2]), y)
    np.testing.assert_allclose(rcf, [1.0, 1.0, 0.0])
    assert chosen == [0] and merit == pytest.approx(1.0)  # ties keep the subset met first


def test_through_bootstrap_a_capped_subset_of_its_own_size():
    X, y = mm.datasets.load_colon()
    base = mm.bootstrap(X, y, selector="cfs", n_bootstraps=4, n_features=10, random_state=0)
    sizes = base.subset_sizes()
    assert base.selector["kind"] == "subset" and (sizes >= 1).all() and (sizes <= 10).all()
    for i in range(base.n_models):  # the subset holds the best-ranked features
        assert set(np.flatnonzero(base.subsets[i])) == set(base.selected(i).tolist())
        assert sorted(base.ranks[i][base.subsets[i]]) == list(range(1, sizes[i] + 1))


def test_bad_data_names_the_selector():
    X = np.ones((10, 4))
    y = np.array([0, 1] * 5)
    with pytest.raises(ValueError, match=r"the cfs selector must be at least one feature"):
        CFSSelector().select(X, y, random_state=0)
    with pytest.raises(ValueError, match=r"the cfs selector must be two or more classes"):
        CFSSelector().select(np.random.default_rng(0).random((10, 4)), np.zeros(10, int),
                             random_state=0)


def _fold_codes(X, y, seed=0):
    y = np.unique(np.asarray(y), return_inverse=True)[1]
    rows = np.random.default_rng(seed).choice(X.shape[0], int(0.9 * X.shape[0]), replace=True)
    return discretize(X[rows], y[rows], method="mdl"), X[rows], y[rows]


@pytest.mark.parametrize("name", ["basehock", "colon"])
def test_rare_code_route_equals_the_dense_joint_counts(name):
    # issue 15: on text the joint counts come from the entries off each feature's mode
    from modelmine.selectors._cfs import _column_entropies, _RareCodes, su_matrix_row

    X, y = mm.datasets.load(name)
    if name == "basehock":  # a random 600 of the 1,993 posts (the file is sorted by class)
        keep = np.sort(np.random.default_rng(0).choice(X.shape[0], 600, replace=False))
        X, y = X[keep], np.asarray(y)[keep]
    (codes, levels), _, _ = _fold_codes(X, y)
    h = _column_entropies(codes, levels)
    rare = _RareCodes(codes, levels)
    assert rare.fraction < _RareCodes.MAX_FRACTION and (levels > 1).sum() >= 8
    for g in [*np.flatnonzero(levels > 1)[:8].tolist(), int(np.argmin(levels))]:
        np.testing.assert_array_equal(rare.su_row(codes, levels, g, h),
                                      su_matrix_row(codes, levels, g, h))


def test_rare_code_route_with_many_levels_and_any_mode():
    # synthetic codes: up to 4 levels, modes that are not level 0, a constant column
    from modelmine.selectors._cfs import _column_entropies, _RareCodes, su_matrix_row

    rng = np.random.default_rng(3)
    n, p = 90, 12
    levels = rng.integers(1, 5, size=p)
    probs = [rng.dirichlet(np.ones(k) * 0.4) for k in levels]
    codes = np.column_stack([rng.choice(k, size=n, p=pr) for k, pr in zip(levels, probs)]
                            ).astype(np.int32)
    h = _column_entropies(codes, levels)
    rare = _RareCodes(codes, levels)
    for g in range(p):
        np.testing.assert_array_equal(rare.su_row(codes, levels, g, h),
                                      su_matrix_row(codes, levels, g, h))


def test_cfs_on_text_same_subset_with_either_route(monkeypatch):
    from modelmine.selectors import _cfs

    X, y = mm.datasets.load_basehock()
    keep = np.sort(np.random.default_rng(1).choice(X.shape[0], 500, replace=False))
    _, Xf, yf = _fold_codes(X[keep], np.asarray(y)[keep], seed=1)
    fast = CFSSelector().select(Xf, yf, random_state=0)
    monkeypatch.setattr(_cfs._RareCodes, "MAX_FRACTION", 0.0)  # force the dense route
    dense = CFSSelector().select(Xf, yf, random_state=0)
    np.testing.assert_array_equal(fast.ranking, dense.ranking)
    np.testing.assert_array_equal(fast.support, dense.support)
