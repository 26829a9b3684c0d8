"""The fold engine of every evaluation protocol (issue 38, items 3 and 6): each seed
derivation of :data:`modelmine.evaluation.SEED_DERIVATIONS` recomputed from numpy's
``SeedSequence`` by its description, and the folds equal to scikit-learn's splitters
(``StratifiedKFold``, ``StratifiedShuffleSplit``; groups never split). The protocols that
run on it are tested with public names in ``tests/evaluation/``.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.model_selection import StratifiedKFold, StratifiedShuffleSplit

from modelmine.evaluation import SEED_DERIVATIONS
from modelmine.evaluation._folds import make_folds, seed_plan


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
