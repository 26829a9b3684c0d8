"""Samples that are not independent: resampling whole groups, sample weights (issue 28).

The oracles are brute force: every drawn index set is checked to be a union of whole groups
drawn as the scheme says, by counting rows per group. The resampling kernels themselves
(weighted draws, design-free draws, permuted labels, decoys) are checked in
``tests/kernels/test_resampling_kernels.py``.
"""

from __future__ import annotations

import errno
import json

import numpy as np
import pytest
from group_oracles import whole_groups

import modelmine as mm
from modelmine.base_models import _rundir
from modelmine.pipeline import resume as resume_bootstrap


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
        whole_groups(base.resample(i), codes)
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
            whole_groups(base.resample(i), np.unique(groups[train], return_inverse=True)[1])
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
