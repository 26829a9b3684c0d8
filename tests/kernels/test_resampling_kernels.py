"""The resampling kernels of the bootstrap stage, against brute force (issue 38 item 6).

``resample_indices``, ``complementary_pair``, ``check_design``, ``permuted_labels`` and
``add_artificial_features`` are internal: users reach them through
:func:`modelmine.bootstrap` and :func:`modelmine.evaluation.selection_null`, whose tests use
public names. Here each kernel is checked on its own: every drawn index set is a union of
whole groups drawn as the scheme says (counting rows per group), weighted draws match their
expected frequencies, design-free draws equal numpy's own calls, the bootstrap leaves out
(1 - 1/n)^n of the rows, decoys permute each column, knockoffs keep the covariance.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from group_oracles import whole_groups

import modelmine as mm
from modelmine.base_models._artificial import add_artificial_features
from modelmine.base_models._design import SampleDesign, check_design
from modelmine.base_models._resampling import complementary_pair, resample_indices
from modelmine.evaluation._null import permuted_labels
from modelmine.exceptions import DataError


def test_resampling_schemes(rng):
    y = np.array([0] * 40 + [1] * 22)
    boot = resample_indices(y, rng, method="bootstrap", fraction=1.0, stratify=False)
    assert boot.size == 62 and np.unique(boot).size < 62  # with replacement: repeats
    strat = resample_indices(y, rng, method="bootstrap", fraction=1.0, stratify=True)
    assert np.bincount(y[strat]).tolist() == [40, 22]
    sub = resample_indices(y, rng, method="subsample", fraction=0.9, stratify=False)
    assert sub.size == 56 and np.unique(sub).size == 56
    sub_strat = resample_indices(y, rng, method="subsample", fraction=0.5, stratify=True)
    assert np.bincount(y[sub_strat]).tolist() == [20, 11]
    assert np.unique(sub_strat).size == 31


def test_bootstrap_draws_are_uniform_with_replacement():
    # Invariant of the bootstrap: each row is drawn with probability 1/n, so over many
    # resamples the fraction of rows left out tends to (1 - 1/n)^n.
    y = np.array([0, 1] * 50)
    rng = np.random.default_rng(0)
    left_out = [100 - np.unique(resample_indices(y, rng, method="bootstrap", fraction=1.0,
                                                 stratify=False)).size for _ in range(300)]
    assert np.mean(left_out) / 100 == pytest.approx((1 - 1 / 100) ** 100, abs=0.01)


def test_complementary_pair_odd_n_leaves_one_out():
    y = np.array([0, 1] * 5 + [0])
    a, b = complementary_pair(y, np.random.default_rng(0), stratify=False)
    assert a.size == b.size == 5 and not set(a) & set(b)


def test_permutation_features_permute_each_column():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 6))
    aug = add_artificial_features(X, "permutation", np.random.default_rng(1))
    assert aug.shape == (30, 12)
    np.testing.assert_array_equal(aug[:, :6], X)
    for j in range(6):
        np.testing.assert_array_equal(np.sort(aug[:, 6 + j]), np.sort(X[:, j]))
        assert not np.array_equal(aug[:, 6 + j], X[:, j])
    # columns are permuted independently (not one row permutation for all)
    orders = {tuple(np.argsort(aug[:, 6 + j])[np.argsort(np.argsort(X[:, j]))]) for j in range(6)}
    assert len(orders) > 1
    # sparse data: the same permutation, kept sparse
    S = sp.random(30, 6, density=0.3, random_state=2, format="csr")
    dense = add_artificial_features(S.toarray(), "permutation", np.random.default_rng(1))
    sparse = add_artificial_features(S, "permutation", np.random.default_rng(1))
    assert sp.issparse(sparse)
    np.testing.assert_array_equal(sparse.toarray(), dense)


@pytest.mark.slow
def test_knockoff_features():
    pytest.importorskip("knockpy")
    rng = np.random.default_rng(0)
    cov = 0.5 ** np.abs(np.subtract.outer(np.arange(8), np.arange(8)))  # AR(1)
    X = rng.multivariate_normal(np.zeros(8), cov, size=400)
    state = np.random.get_state()  # noqa: NPY002
    aug = add_artificial_features(X, "knockoff", np.random.default_rng(3))
    after = np.random.get_state()  # noqa: NPY002
    assert all(np.array_equal(a, b) for a, b in zip(state[1:3], after[1:3], strict=True))
    again = add_artificial_features(X, "knockoff", np.random.default_rng(3))
    np.testing.assert_array_equal(aug, again)  # reproducible from our generator
    np.testing.assert_array_equal(aug[:, :8], X)
    # Gaussian knockoffs: the same covariance among themselves as X (Candes et al. 2018)
    np.testing.assert_allclose(np.cov(aug[:, 8:].T), np.cov(X.T), atol=0.2)
    y = (X[:, 0] > 0).astype(int)
    base = mm.bootstrap(
        X,
        y,
        "anova",
        n_bootstraps=4,
        n_features=3,
        random_state=0,
        artificial_features="knockoff",
        progress=False,
    )
    assert base.artificial["method"] == "knockoff"


def _design(sizes, classes=None, weights=None, weighted=False):
    """Groups of the given sizes (rows laid out shuffled), labels per group or per row."""
    rng = np.random.default_rng(len(sizes))
    groups = rng.permutation(np.repeat(np.arange(len(sizes)), sizes))
    y = None if classes is None else np.asarray(classes)[groups]
    return groups, y, check_design(groups, weights, groups.size, func="test",
                                   weighted_resampling=weighted)


SIZES = [3, 1, 4, 2, 2, 5, 1, 3, 2, 4, 3, 2]


CLASSES = [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 0]


@pytest.mark.parametrize("stratify", [False, True])
@pytest.mark.parametrize("method,fraction", [("bootstrap", 1.0), ("bootstrap", 0.5),
                                             ("subsample", 0.5), ("subsample", 0.75)])
def test_resamples_are_unions_of_whole_groups(method, fraction, stratify):
    groups, y, design = _design(SIZES, CLASSES)
    G = len(SIZES)
    per_class = np.bincount(CLASSES)
    for seed in range(40):
        idx = resample_indices(y, np.random.default_rng(seed), method=method,
                               fraction=fraction, stratify=stratify, design=design)
        assert (np.diff(idx) >= 0).all()
        drawn = whole_groups(idx, groups)
        # the number of group draws follows the scheme (with multiplicity)
        if stratify:
            for c in (0, 1):
                got = sum(k for g, k in drawn.items() if CLASSES[g] == c)
                assert got == max(1, round(fraction * per_class[c]))
        else:
            assert sum(drawn.values()) == max(1, round(fraction * G))
        if method == "subsample":
            assert set(drawn.values()) == {1}  # without replacement
        assert np.unique(y[idx]).size == 2


@pytest.mark.parametrize("stratify", [False, True])
def test_complementary_pairs_split_groups_in_disjoint_halves(stratify):
    groups, y, design = _design(SIZES, CLASSES)
    for seed in range(30):
        a, b = complementary_pair(y, np.random.default_rng(seed), stratify=stratify,
                                  design=design)
        ga, gb = whole_groups(a, groups), whole_groups(b, groups)
        assert not set(ga) & set(gb)
        assert set(ga.values()) | set(gb.values()) == {1}
        if stratify:
            for c in (0, 1):
                half = np.bincount(CLASSES)[c] // 2
                assert sum(CLASSES[g] == c for g in ga) == half
                assert sum(CLASSES[g] == c for g in gb) == half
        else:
            assert len(ga) == len(gb) == len(SIZES) // 2


def test_without_a_design_the_draws_are_numpys_own():
    y = np.repeat([0, 1], [7, 9])
    for seed in range(10):
        got = resample_indices(y, np.random.default_rng(seed), method="bootstrap",
                               fraction=1.0, stratify=False)
        want = np.sort(np.random.default_rng(seed).choice(16, size=16, replace=True))
        if np.unique(y[want]).size == 2:
            np.testing.assert_array_equal(got, want)


def test_weighted_resampling_draws_in_proportion_to_the_weights():
    n = 8
    y = np.array([0, 1] * 4)
    w = np.array([0.0, 1, 2, 3, 4, 5, 6, 7])
    design = check_design(None, w, n, func="test", weighted_resampling=True)
    rng = np.random.default_rng(0)
    counts = np.zeros(n)
    for _ in range(3000):
        counts += np.bincount(resample_indices(y, rng, method="bootstrap", fraction=1.0,
                                               stratify=False, design=design), minlength=n)
    assert counts[0] == 0  # weight 0: never drawn
    expected = w / w.sum() * counts.sum()
    chi2 = ((counts[1:] - expected[1:]) ** 2 / expected[1:]).sum()
    assert chi2 < 24.3  # chi-square with 6 df, p = 0.9995
    # groups are drawn by their summed weight
    groups = np.array([0, 0, 1, 1, 2, 2, 3, 3])
    gdesign = check_design(groups, w, n, func="test", weighted_resampling=True)
    gcounts = np.zeros(4)
    for _ in range(3000):
        drawn = whole_groups(resample_indices(y, rng, method="bootstrap", fraction=1.0,
                                               stratify=False, design=gdesign), groups)
        for g, k in drawn.items():
            gcounts[g] += k
    gw = np.bincount(groups, weights=w)
    expected = gw / gw.sum() * gcounts.sum()
    assert ((gcounts - expected) ** 2 / expected).sum() < 21.1  # 3 df, p = 0.9999


def test_group_permutations_of_labels_and_decoys():
    groups, y, design = _design([2, 3, 2, 4, 1, 3], [0, 1, 0, 1, 1, 0])
    rng = np.random.default_rng(0)
    for _ in range(20):
        yp = permuted_labels(y, rng, design)
        # the label stays a property of the group, and the groups' classes are permuted
        per_group = [np.unique(yp[groups == g]) for g in range(6)]
        assert all(v.size == 1 for v in per_group)
        assert sorted(int(v[0]) for v in per_group) == sorted([0, 1, 0, 1, 1, 0])
    mixed = y.copy()
    mixed[np.flatnonzero(groups == 3)[0]] = 0  # group 3 now holds two classes
    design_m = check_design(groups, None, y.size, func="test")
    for _ in range(20):
        yp = permuted_labels(mixed, rng, design_m)
        for g in range(6):  # within-group permutation: each group's labels as a multiset
            assert sorted(yp[groups == g]) == sorted(mixed[groups == g])
    # decoys move whole groups' blocks: a permutation of the column, groups kept together
    X = np.arange(groups.size, dtype=float)[:, None] * np.array([[1.0, 10.0]])
    out = add_artificial_features(X, "permutation", rng, design.members())
    decoys = out[:, 2:]
    for j in range(2):
        assert sorted(decoys[:, j]) == sorted(X[:, j])
    equal = check_design(np.repeat(np.arange(5), 3), None, 15, func="test")
    Xe = np.arange(15, dtype=float)[:, None]
    de = add_artificial_features(Xe, "permutation", rng, equal.members())[:, 1]
    for g in range(5):  # equal sizes: each group receives exactly one group's values
        got = de[np.repeat(np.arange(5), 3) == g]
        assert any(sorted(got) == sorted(Xe[3 * h:3 * h + 3, 0]) for h in range(5))


def test_every_redraw_loop_is_bounded():
    y = np.array([0] * 9 + [1])
    rng = np.random.default_rng(0)
    w = np.array([1.0] * 9 + [0.0])
    design = SampleDesign(sample_weight=w, weighted_resampling=True)
    with pytest.raises(DataError, match="1000 resamples"):
        resample_indices(y, rng, method="bootstrap", fraction=1.0, stratify=False,
                         design=design)
    with pytest.raises(DataError, match="1000 splits"):
        complementary_pair(y, rng, stratify=False)
