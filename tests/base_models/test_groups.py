"""Samples that are not independent: resampling whole groups, sample weights (issue 28).

The oracles are brute force: every drawn index set is checked to be a union of whole groups
drawn as the scheme says, by counting rows per group; weighted draws are checked against
their expected frequencies; the design-free draws against numpy's own calls.
"""

from __future__ import annotations

import errno
import json

import numpy as np
import pytest

import modelmine as mm
from modelmine.base_models import _rundir
from modelmine.base_models import resume as resume_bootstrap
from modelmine.base_models._artificial import add_artificial_features
from modelmine.base_models._design import check_design
from modelmine.base_models._resampling import complementary_pair, resample_indices
from modelmine.evaluation._null import permuted_labels


def _design(sizes, classes=None, weights=None, weighted=False):
    """Groups of the given sizes (rows laid out shuffled), labels per group or per row."""
    rng = np.random.default_rng(len(sizes))
    groups = rng.permutation(np.repeat(np.arange(len(sizes)), sizes))
    y = None if classes is None else np.asarray(classes)[groups]
    return groups, y, check_design(groups, weights, groups.size, func="test",
                                   weighted_resampling=weighted)


def _whole_groups(idx, groups):
    """The multiplicity of each drawn group, asserting every row of it came as often."""
    counts = np.bincount(idx, minlength=groups.size)
    drawn = {}
    for g in np.unique(groups):
        rows = counts[groups == g]
        assert (rows == rows[0]).all(), f"group {g} drawn in part: {rows}"
        if rows[0]:
            drawn[int(g)] = int(rows[0])
    return drawn


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
        drawn = _whole_groups(idx, groups)
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
        ga, gb = _whole_groups(a, groups), _whole_groups(b, groups)
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
        drawn = _whole_groups(resample_indices(y, rng, method="bootstrap", fraction=1.0,
                                               stratify=False, design=gdesign), groups)
        for g, k in drawn.items():
            gcounts[g] += k
    gw = np.bincount(groups, weights=w)
    expected = gw / gw.sum() * gcounts.sum()
    assert ((gcounts - expected) ** 2 / expected).sum() < 21.1  # 3 df, p = 0.9999


def test_bootstrap_records_the_groups_pads_the_indices_and_resumes(tmp_path, colon,
                                                                   monkeypatch):
    X, y, _ = colon
    X = X[:, :300]
    rng = np.random.default_rng(3)
    groups = np.array([f"patient-{g}" for g in rng.integers(0, 25, size=y.size)])
    kw = dict(selector="anova", n_bootstraps=9, n_features=8, random_state=2)
    base = mm.bootstrap(X, y, groups=groups, **kw)
    assert base.resampling["groups"] == np.unique(groups).size
    sizes = {base.resample(i).size for i in range(base.n_models)}
    assert len(sizes) > 1  # resamples of whole groups vary in size
    codes = np.unique(groups, return_inverse=True)[1]
    for i in range(base.n_models):
        row = base.sample_indices[i]
        assert (row[row < 0] == -1).all() and (row[: base.resample(i).size] >= 0).all()
        _whole_groups(base.resample(i), codes)
        oob = base.oob_indices(i)
        assert not set(groups[oob]) & set(groups[base.resample(i)])
    # workers and checkpoints change nothing; a killed grouped run resumes bit-identical
    assert mm.bootstrap(X, y, groups=groups, n_jobs=2, **kw) == base
    real = _rundir._atomic_write
    calls = {"n": 0}

    def failing(path, payload):
        calls["n"] += 1
        if calls["n"] > 4:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(path, payload)

    monkeypatch.setattr(_rundir, "_atomic_write", failing)
    with pytest.raises(OSError):
        mm.bootstrap(X, y, groups=groups, run_dir=tmp_path / "r", checkpoint_every=3,
                     n_jobs=1, **kw)
    monkeypatch.setattr(_rundir, "_atomic_write", real)
    assert not json.loads((tmp_path / "r" / "manifest.json").read_text())["complete"]
    with pytest.raises(mm.base_models.RunDirectoryError, match="data"):
        resume_bootstrap(tmp_path / "r", X, y)  # the groups are part of the data
    assert resume_bootstrap(tmp_path / "r", X, y, groups=groups) == base
    assert mm.BaseModels.load(tmp_path / "r") == base


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


def test_the_design_is_checked_at_the_door(colon):
    X, y, _ = colon
    X = X[:, :50]
    kw = dict(selector="anova", n_bootstraps=4, n_features=5)
    n = y.size
    bad = [
        (dict(groups=np.arange(n - 1)), "groups.*62 values"),
        (dict(groups=np.r_[np.nan, np.arange(n - 1)]), "groups.*missing"),
        (dict(groups=np.zeros(n)), "groups.*at least 2 distinct groups"),
        (dict(groups=np.arange(n) % 5, stratify=True), "stratify.*several classes"),
        (dict(groups=np.arange(n) % 3, resampling="complementary-pairs"),
         "groups.*at least 4 groups"),
        (dict(groups=np.arange(n) % 4, resampling="subsample", sample_fraction=0.9),
         "sample_fraction.*subsampling 4 groups"),
        (dict(sample_weight=-np.ones(n)), "sample_weight.*non-negative"),
        (dict(sample_weight=np.zeros(n)), "sample_weight.*positive weight"),
        (dict(sample_weight=np.r_[np.inf, np.ones(n - 1)]), "sample_weight.*finite"),
        (dict(weighted_resampling=True), "weighted_resampling.*sample_weight"),
    ]
    for extra, pattern in bad:
        with pytest.raises(ValueError, match=pattern):
            mm.bootstrap(X, y, **{**kw, **extra})
    with pytest.raises(ValueError, match=r"sample_weight.*selector 'ig'"):
        mm.bootstrap(X, y, selector="ig", n_bootstraps=4, n_features=5,
                     sample_weight=np.ones(n))
    # with weighted resampling any selector works: the weights draw the resamples
    base = mm.bootstrap(X, y, selector="ig", n_bootstraps=4, n_features=5,
                        sample_weight=np.r_[np.zeros(10), np.ones(n - 10)],
                        weighted_resampling=True)
    assert base.resampling["sample_weight"] == "resampling"
    assert all(base.resample(i).min() >= 10 for i in range(4))


def test_evaluate_keeps_groups_whole_across_folds_and_bootstraps(tmp_path, colon):
    X, y, _ = colon
    X = X[:, :200]
    rng = np.random.default_rng(7)
    groups = rng.integers(0, 20, size=y.size)
    # the label is a property of the patient here: each group takes one class
    y = np.asarray(y).copy()
    for g in np.unique(groups):
        y[groups == g] = y[groups == g][0]
    res = mm.evaluate(X, y, selectors=["anova"], operators=["mostFreq"],
                      classifiers=["svm"], n_folds=4, n_bootstraps=5, n_features=6,
                      groups=groups, cache_dir=tmp_path)
    assert res.settings["design"]["groups"]["n_groups"] == np.unique(groups).size
    files = sorted(tmp_path.glob("*.npz"))
    assert len(files) == 4
    for f, (train, test) in enumerate(res.fold_indices):
        assert not set(groups[train]) & set(groups[test])
        base = mm.BaseModels.load(files[f])
        assert base.n_samples == train.size
        for i in range(base.n_models):
            rows = train[base.resample(i)]  # the fold's rows in the data's numbering
            assert not set(groups[rows]) & set(groups[test])
            _whole_groups(base.resample(i), np.unique(groups[train], return_inverse=True)[1])
    with pytest.raises(ValueError, match=r"groups.*at least n_folds=5 groups"):
        mm.evaluate(X, y, selectors=["anova"], n_folds=5, n_bootstraps=3,
                    groups=np.arange(y.size) % 4)
    one_class = np.where(y == y[0], 0, 1 + np.arange(y.size) % 2)  # one group per class 0
    with pytest.raises(ValueError, match=r"groups.*hold every class"):
        mm.evaluate(X, y, selectors=["anova"], operators=["mostFreq"], n_folds=2,
                    n_bootstraps=3, groups=one_class)


def test_the_other_doors_take_the_design(colon):
    X, y, _ = colon
    X = X[:, :120]
    rng = np.random.default_rng(11)
    groups = rng.integers(0, 20, size=y.size)
    y = np.asarray(y).copy()
    for g in np.unique(groups):  # the diagnosis is the patient's
        y[groups == g] = y[groups == g][0]
    weights = rng.uniform(0.5, 2.0, y.size)
    kw = dict(selector="anova", n_bootstraps=6, n_features=5, random_state=4)
    base = mm.bootstrap(X, y, groups=groups, sample_weight=weights, **kw)
    # the scikit-learn door: fit(X, y, groups=, sample_weight=) fits the same base models
    est = mm.ModelMiningSelector(operator="mostFreq", **kw).fit(
        X, y, groups=groups, sample_weight=weights)
    np.testing.assert_array_equal(est.base_models_.subsets, base.subsets)
    # the permutation null reruns the selector on the same grouped resamples ...
    null = mm.evaluation.selection_null(X, y, base=base, n_permutations=10,
                                         groups=groups, sample_weight=weights)
    assert null.to_frame().shape[0] == X.shape[1]
    # ... and refuses base models of other groups (the design is in the fingerprint)
    with pytest.raises(ValueError, match="same groups and sample_weight"):
        mm.evaluation.selection_null(X, y, base=base, n_permutations=10)
    # evaluate gives the weights to each fold's selectors, refused for a selector without
    res = mm.evaluate(X, y, selectors=["anova"], operators=["mostFreq"],
                      classifiers=["svm"], n_folds=3, n_bootstraps=4, n_features=5,
                      groups=groups, sample_weight=weights)
    assert res.settings["design"]["sample_weight"]["use"] == "selector"
    with pytest.raises(ValueError, match=r"sample_weight.*selector 'ig'"):
        mm.evaluate(X, y, selectors=["ig"], operators=["mostFreq"], n_folds=3,
                    n_bootstraps=4, n_features=5, sample_weight=weights)
