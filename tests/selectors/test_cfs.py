"""CFS (Hall 1999) with WEKA's best-first search: a hand-worked example, the routes of the SU
computation against each other, and the selector's contract. WEKA itself is the oracle of the
chosen subsets (``tests/selectors/test_weka_information.py``)."""

from __future__ import annotations

import numpy as np
import pytest

import modelmine as mm
from modelmine.selectors import discretize
from modelmine.selectors._cfs import CFSSelector, cfs_search


def test_merit_by_hand():
    # Three binary features and a binary class of 8 samples: f0 = y, f1 = y (a copy),
    # f2 independent of y. SU(f0, y) = SU(f1, y) = 1, SU(f0, f1) = 1, SU(f2, y) = 0.
    # Merits: {f0} = 1; {f0, f1} = 2 / sqrt(2 + 2) = 1; {f0, f2} = 1 / sqrt(2) < 1.
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    f2 = np.array([0, 1, 0, 1, 0, 1, 0, 1])
    codes = np.stack([y, y, f2], axis=1).astype(np.int32)
    chosen, merit, rcf = cfs_search(codes, np.array([2, 2, 2]), y, locally_predictive=False)
    np.testing.assert_allclose(rcf, [1.0, 1.0, 0.0])
    assert chosen == [0] and merit == pytest.approx(1.0)  # no child better by > 1e-5
    # WEKA's locally predictive step: f1's SU with the class (1) is not below its SU with
    # f0 (1), so the copy joins; f2's SU with the class is 0: never
    chosen, _, _ = cfs_search(codes, np.array([2, 2, 2]), y)
    assert chosen == [0, 1]


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
