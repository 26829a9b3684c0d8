"""RunSpec: one validated run specification, one seed policy, one capping policy
(issue 23). Each check against an independent truth: numpy's own generators, the keyword
route of the same door, or an invariant (a stored spec reads back equal)."""

from __future__ import annotations

import numpy as np
import pytest

import modelmine as mm
from modelmine.spec import RunSpec


def resolve_seed(random_state):
    """The seed a RunSpec records for ``random_state``: the one seed policy."""
    return RunSpec(random_state=random_state).random_state


@pytest.fixture(scope="module")
def colon():
    X, y = mm.datasets.load_colon()
    return X[:, :300], y


def test_resolve_seed_takes_what_scikit_learn_users_pass():
    assert resolve_seed(7) == 7 and resolve_seed(np.int64(7)) == 7
    assert resolve_seed(np.random.SeedSequence(11)) == 11
    # A RandomState or Generator is drawn from, exactly as numpy draws.
    expected = np.random.RandomState(3).randint(0, np.iinfo(np.int64).max, dtype=np.int64)
    assert resolve_seed(np.random.RandomState(3)) == int(expected)
    assert resolve_seed(np.random.default_rng(5)) == int(
        np.random.default_rng(5).integers(0, np.iinfo(np.int64).max))
    # A spawned SeedSequence is not its parent: its own state decides.
    child = np.random.SeedSequence(11).spawn(2)[1]
    state = child.generate_state(2, np.uint64)
    assert resolve_seed(child) == (int(state[0]) << 64) | int(state[1])
    fresh = resolve_seed(None)
    assert isinstance(fresh, int) and fresh >= 0 and fresh != resolve_seed(None)


@pytest.mark.parametrize("bad, exc", [(-1, ValueError), (True, TypeError), ("0", TypeError),
                                      (1.5, TypeError)])
def test_bad_seeds_name_the_function_called(colon, bad, exc):
    X, y = colon
    with pytest.raises(exc, match=r"The 'random_state' parameter of run must be None, a "
                                  r"non-negative integer"):
        mm.run(X, y, selector="anova", random_state=bad)


def test_the_default_seed_is_fixed_and_a_generator_is_reproducible(colon):
    X, y = colon
    kw = dict(selector="anova", n_bootstraps=6, n_features=5, n_signatures=2)
    a, b = mm.run(X, y, **kw), mm.run(X, y, **kw)
    assert a == b and a.settings["random_state"] == "0"
    g1 = mm.run(X, y, **kw, random_state=np.random.default_rng(9))
    g2 = mm.run(X, y, **kw, random_state=np.random.default_rng(9))
    assert g1 == g2
    # The recorded seed reproduces the run (the run's one record of it).
    again = mm.run(X, y, **kw, random_state=int(g1.settings["random_state"]))
    assert again == g1


def test_run_with_a_spec_equals_run_with_keywords(colon):
    X, y = colon
    kw = dict(selector="anova", n_bootstraps=6, n_features=5, n_signatures=2,
              operators=["mostFreq", "allMed"], random_state=4)
    spec = RunSpec(**kw)
    assert mm.run(X, y, spec=spec) == mm.run(X, y, **kw)
    assert mm.bootstrap(X, y, spec=spec.replace(operators=())) == mm.bootstrap(
        X, y, selector="anova", n_bootstraps=6, n_features=5, random_state=4)
    with pytest.raises(TypeError, match=r"'spec' parameter of run must be given alone, "
                                        r"without the settings it holds. Got spec and "
                                        r"n_bootstraps instead"):
        mm.run(X, y, spec=spec, n_bootstraps=8)


def test_spec_round_trips_through_the_stored_settings():
    spec = RunSpec(selector="relieff", selector_params={"n_neighbors": 5}, n_bootstraps=10,
                   n_features=7, n_signatures=3, signature_size=4, resampling="subsample",
                   sample_fraction=0.8, stratify=True, scale="standard",
                   operators=["closedApr", "allMed"],
                   operator_params={"closedApr": {"min_support": 0.3}}, min_support=0.25,
                   random_state=np.random.default_rng(1))
    again = RunSpec.from_settings(spec.to_settings())
    assert again == spec
    assert again.to_settings() == spec.to_settings()


@pytest.mark.parametrize("kwargs, match", [
    (dict(n_bootstraps=1), r"'n_bootstraps' parameter of RunSpec must be an integer >= 2"),
    (dict(resampling="complementary-pairs", n_bootstraps=5), r"an even number"),
    (dict(operators=["closedAprr"]), r"'operators' .* Did you mean 'closedApr'\?"),
    (dict(operators="closedApr"), r"'operators' .* a sequence of operator names"),
    (dict(operator_params={"maxApr": {}}), r"'operator_params' .* Not among the operators"),
    (dict(selector=["anova", "anova"]), r"'selector' .* distinct selectors"),
    (dict(n_features=None), r"'n_features' .* ranking selector 'svm-rfe'"),
    (dict(scale="zscore"), r"'scale' parameter of RunSpec must be one of"),
])
def test_bad_settings_fail_when_the_spec_is_made(kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        RunSpec(**kwargs)


def test_m_and_signature_size_above_p_are_capped_by_one_policy(colon):
    X, y = colon
    Xs = X[:, :12]
    with pytest.warns(UserWarning) as seen:
        r = mm.run(Xs, y, selector="anova", n_bootstraps=4, n_features=30,
                   signature_size=40, operators=["mostFreq"])
    texts = [str(w.message) for w in seen]
    assert "n_features=30 is above the 12 features of X: run uses n_features=12." in texts
    assert "signature_size=40 is above the 12 features of X: run uses signature_size=12." \
        in texts
    assert r.base_models.n_features == 12 and len(r.signatures["mostFreq"]) == 12
    with pytest.warns(UserWarning, match="evaluate uses n_features=12"):
        res = mm.evaluate(Xs, y, selectors=["anova"], operators=["mostFreq"],
                          classifiers=["1nn"], n_folds=2, n_bootstraps=3, n_features=30)
    assert res.settings["n_features"] == 12


def test_a_fold_of_evaluate_is_reproduced_by_run_with_its_seed(colon):
    """issue 23: evaluate reports each fold's seed, and mm.run on the fold's training part
    with that seed gives the same base models and signatures (operators that draw too)."""
    X, y = colon
    res = mm.evaluate(X, y, selectors=["anova"], operators=["mostFreq", "allMed"],
                      classifiers=["1nn"], n_folds=3, n_bootstraps=6, n_features=5,
                      n_signatures=2, random_state=3)
    from sklearn.model_selection import StratifiedKFold

    task = res.tasks.iloc[1]
    skf = StratifiedKFold(n_splits=3, shuffle=True, random_state=res.settings["fold_seed"])
    train = list(skf.split(np.zeros(y.size), y))[int(task["fold"])][0]
    run = mm.run(X[train], y[train], selector="anova", n_bootstraps=6, n_features=5,
                 n_signatures=2, operators=["mostFreq", "allMed"],
                 random_state=int(task["seed"]))
    for name in ("mostFreq", "allMed"):
        fold_sig = res.signatures[("anova", name, int(task["fold"]))]
        assert fold_sig.to_frame().equals(run.signatures[name].to_frame())


def test_heterogeneous_ensemble_takes_the_homogeneous_path(colon):
    """The list of selectors gets the artificial features too, and each selector's part is
    the homogeneous run with the same seed (the same resamples and the same decoys)."""
    X, y = colon
    kw = dict(n_bootstraps=4, n_features=5, random_state=2,
              artificial_features="permutation")
    pooled = mm.bootstrap(X, y, selector=["anova", "chi2"], **kw)
    assert pooled.has_artificial
    for i, name in enumerate(("anova", "chi2")):
        alone = mm.bootstrap(X, y, selector=name, **kw)
        rows = slice(4 * i, 4 * (i + 1))
        assert np.array_equal(pooled.subsets[rows], alone.subsets)
        assert np.array_equal(pooled.artificial_subsets[rows], alone.artificial_subsets)
        assert np.array_equal(pooled.sample_indices[rows], alone.sample_indices)


@pytest.mark.parametrize("resampling, fraction", [
    ("bootstrap", None), ("subsample", None), ("subsample", 0.5),
    ("complementary-pairs", None)])
@pytest.mark.parametrize("bound", ["auto", "mb", "ss-unimodal", "ss-r-concave"])
def test_the_spec_refuses_an_error_bound_exactly_where_the_base_models_would(
        colon, resampling, fraction, bound):
    """The settings are checked before the first fit (issue 39 item 5): RunSpec refuses
    stabilitySelection's bound exactly when the operator refuses the base models those
    settings build (the oracle: the operator's own check, bound_for, on real models)."""
    from modelmine.exceptions import NotApplicableError

    X, y = colon
    base = mm.bootstrap(X[:, :40], y, selector="anova", n_bootstraps=4, n_features=5,
                        resampling=resampling, sample_fraction=fraction, progress=False)
    try:  # the operator on the base models, through the public door
        mm.aggregate(base, "stabilitySelection", bound=bound)
        applies = True
    except NotApplicableError:
        applies = False
    settings = dict(selector="anova", n_bootstraps=4, n_features=5, resampling=resampling,
                    sample_fraction=fraction, operators=["stabilitySelection"],
                    operator_params={"stabilitySelection": {"bound": bound}})
    if applies:
        assert RunSpec(**settings).operators == ("stabilitySelection",)
    else:
        with pytest.raises(ValueError, match=r"resampling.*stabilitySelection"):
            RunSpec(**settings)
    stabl = dict(selector="anova", n_bootstraps=4, n_features=5, operators=["stabl"])
    with pytest.raises(ValueError, match=r"artificial_features.*stabl"):
        RunSpec(**stabl)
    assert RunSpec(**stabl, artificial_features="permutation").operators == ("stabl",)
