"""The one fold engine of the evaluation protocols (issue 38, item 3) and the outcome
protocol on it: seeds, folds, runner and cache, against independent computations."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import StratifiedKFold, StratifiedShuffleSplit

import modelmine as mm
from modelmine.evaluation import KDD12_SELECTORS, SEED_DERIVATIONS
from modelmine.evaluation._folds import make_folds, seed_plan
from modelmine.spec import DEFAULT_SELECTORS


def _regression(n=36, p=10, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = 2 * X[:, 0] - X[:, 1] + rng.normal(scale=0.5, size=n)
    return X, y


# ----------------------------------------------------------------------------- seeds
@pytest.mark.parametrize("seed", [0, 7, 2**40 + 3])
def test_seed_plans_follow_the_documented_derivations(seed):
    """Each derivation of SEED_DERIVATIONS, recomputed from numpy by its description."""
    k, units = 4, 3
    ss = np.random.SeedSequence(seed)
    children = ss.spawn(k + 1)
    plan = seed_plan(seed, n_folds=k, n_units=units)
    assert plan.derivation == "kdd12" and plan.entropy == seed
    assert plan.split == (int(children[0].generate_state(1)[0]),)
    assert plan.units == tuple((int(c.generate_state(1)[0]),) * units for c in children[1:])

    plan = seed_plan(seed, n_folds=k, n_units=units, derivation="outcome")
    assert plan.split == (seed % 2**32,)
    assert plan.units == tuple((seed + f,) * units for f in range(k))

    word = 2**31 - 1
    plan = seed_plan(seed, n_folds=k, n_units=units, derivation="pes2019")
    for t, child in enumerate(np.random.SeedSequence(seed).spawn(k)):
        assert plan.split[t] == child.generate_state(1)[0] % word
        assert plan.units[t] == tuple(int(g.generate_state(1)[0] % word)
                                      for g in child.spawn(units))

    plan = seed_plan(seed, n_folds=k, derivation="salman2022")
    words = [int(c.generate_state(1)[0] % word)
             for c in np.random.SeedSequence(seed).spawn(k + 2)]
    assert plan.split == (words[-1],)
    assert [u[0] for u in plan.units] == words[:k]
    assert plan.extra == {"accuracy": words[k], "inner": words[k] % 10007}
    assert set(SEED_DERIVATIONS) == {"kdd12", "outcome", "pes2019", "salman2022"}


def test_seed_plan_refuses_an_unknown_derivation():
    with pytest.raises(ValueError, match="'derivation' parameter of seed_plan"):
        seed_plan(0, n_folds=2, derivation="mine")


# ----------------------------------------------------------------------------- folds
def test_kfold_folds_are_scikit_learns_and_partition_the_samples():
    y = np.repeat([0, 1, 2], [10, 14, 8])
    plan = seed_plan(3, n_folds=4)
    folds = make_folds(y, n_folds=4, seeds=plan)
    ref = StratifiedKFold(4, shuffle=True, random_state=plan.split[0]).split(y, y)
    for fold, (train, test) in zip(folds, ref, strict=True):
        assert np.array_equal(fold.train, train) and np.array_equal(fold.test, test)
    tests = np.concatenate([f.test for f in folds])
    assert np.array_equal(np.sort(tests), np.arange(y.size))  # each sample tested once


def test_grouped_folds_never_split_a_group():
    rng = np.random.default_rng(1)
    groups = np.repeat(np.arange(15), 3)
    y = np.repeat(rng.integers(0, 2, 15), 3)
    folds = make_folds(y, n_folds=3, seeds=seed_plan(0, n_folds=3), groups=groups)
    for fold in folds:
        assert not set(groups[fold.train]) & set(groups[fold.test])
        assert fold.train.size + fold.test.size == y.size


def test_grouped_folds_missing_a_class_are_refused_naming_groups():
    y = np.repeat([0, 1], [20, 4])
    groups = np.r_[np.arange(20) // 2, [20, 20, 20, 20]]  # the minority is one group
    with pytest.raises(ValueError, match="'groups' parameter of evaluate"):
        make_folds(y, n_folds=3, seeds=seed_plan(0, n_folds=3), groups=groups,
                   every_stratum=True)


def test_holdout_repeats_are_stratified_shuffle_splits():
    y = np.repeat([0, 1], [12, 18])
    plan = seed_plan(5, n_folds=3, derivation="pes2019")
    folds = make_folds(y, n_folds=3, seeds=plan, scheme="holdout", train_fraction=0.8)
    for t, fold in enumerate(folds):
        split = StratifiedShuffleSplit(n_splits=1, train_size=0.8,
                                       random_state=plan.split[t])
        train, test = next(split.split(y, y))
        assert np.array_equal(fold.train, np.sort(train))
        assert np.array_equal(fold.test, np.sort(test))


# ----------------------------------------------------------------------------- defects
def test_evaluate_regression_with_its_default_selectors():
    """Issue 38: the defaults were the classes' ('ig', ...), refused by bootstrap."""
    X, y = _regression()
    ev = mm.evaluate(X, y, outcome="regression", operators=["mostFreq"], n_folds=2,
                     n_bootstraps=3, n_features=3)
    # the outcome's own default (issue 39.1 made it lasso), not the classes' KDD'12 four
    assert set(ev.folds.selector) == {DEFAULT_SELECTORS["regression"]} == {"lasso"}
    assert ev.settings["seed_derivation"] == "outcome"


def test_the_old_name_of_the_kdd12_selectors_warns():
    with pytest.warns(FutureWarning, match="KDD12_SELECTORS"):
        old = mm.evaluation.DEFAULT_SELECTORS
    assert old == KDD12_SELECTORS == ("ig", "relieff", "svm-rfe", "svm")


def test_outcome_protocol_does_not_depend_on_the_workers():
    X, y = _regression()
    kw = dict(outcome="regression", selectors=["pearson", "lasso"],
              operators=["mostFreq", "avgRank"], n_folds=3, n_bootstraps=4, n_features=3,
              random_state=2)
    serial = mm.evaluate(X, y, n_jobs=1, **kw)
    parallel = mm.evaluate(X, y, n_jobs=2, **kw)
    pd.testing.assert_frame_equal(serial.folds, parallel.folds, check_exact=True)
    pd.testing.assert_frame_equal(serial.predictions, parallel.predictions,
                                  check_exact=True)


def test_outcome_protocol_honours_weights_and_the_cache(tmp_path):
    """Issue 40, item 13: sample_weight and cache_dir reached no fold for an outcome.

    With weighted resampling and zero weights on half of the samples, no resample of any
    fold's base models (read back from the cache) holds a zero-weight sample; a rerun
    loads the cache and gives the same result."""
    X, y = _regression(n=40)
    w = np.tile([0.0, 1.0], 20)
    kw = dict(outcome="regression", selectors=["pearson"], operators=["mostFreq"],
              n_folds=2, n_bootstraps=5, n_features=3, random_state=4, sample_weight=w,
              weighted_resampling=True, cache_dir=tmp_path / "cache")
    first = mm.evaluate(X, y, **kw)
    files = sorted((tmp_path / "cache").glob("*.npz"))
    assert len(files) == 2  # one per (selector, fold)
    for path, (train, _) in zip(files, _outcome_folds(y, 2, 4), strict=True):
        base = mm.BaseModels.load(path)
        for i in range(base.n_models):
            rows = base.resample(i)
            assert (w[train][rows[rows >= 0]] > 0).all()
    again = mm.evaluate(X, y, **kw)
    pd.testing.assert_frame_equal(first.folds, again.folds, check_exact=True)
    unweighted = mm.evaluate(X, y, **{**kw, "sample_weight": None,
                                      "weighted_resampling": False, "cache_dir": None})
    assert not first.folds.equals(unweighted.folds)
    assert first.settings["design"]


def _outcome_folds(y, k, seed):
    from modelmine.outcomes import check_outcome

    strata = check_outcome(y, "regression", func="test").strata
    return [(f.train, f.test) for f in make_folds(
        strata, n_folds=k, seeds=seed_plan(seed, n_folds=k, derivation="outcome"))]


def test_outcome_weights_need_a_weighted_selector_before_any_fit():
    X, y = _regression()
    with pytest.raises(ValueError, match="'sample_weight' parameter of evaluate"), \
            warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing fitted, so nothing warned either
        mm.evaluate(X, y, outcome="regression", selectors=["pearson"],
                    operators=["mostFreq"], n_folds=2, n_bootstraps=3,
                    sample_weight=np.ones(y.size))
