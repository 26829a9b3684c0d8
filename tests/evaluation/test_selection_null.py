"""selection_null: permutation null of selection frequencies and itemset supports."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import false_discovery_control

import modelmine as mm
from modelmine.evaluation import selection_null


def _data(seed=0, n=120, p=40, k=3):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, p))
    y = (X[:, :k].sum(axis=1) + 0.5 * rng.standard_normal(n) > 0).astype(int)
    return X, y


@pytest.fixture(scope="module")
def signal():
    X, y = _data()
    base = mm.bootstrap(
        X,
        y,
        selector="anova",
        n_bootstraps=10,
        n_features=3,
        resampling="subsample",
        sample_fraction=0.5,
        random_state=1,
        progress=False,
    )
    null = selection_null(
        X, y, base=base, n_permutations=20, itemsets=[[0, 1], [5], ["x2"]], n_jobs=1, progress=False
    )
    return X, y, base, null


def test_p_values_follow_their_definition(signal):
    _X, _y, base, null = signal
    b = base.n_models
    np.testing.assert_allclose(null.frequency, base.subsets.mean(axis=0))
    flat = null.null_frequencies.ravel()
    for j in (0, 3, 10, 39):  # pooled: (1 + #{null >= observed}) / (1 + N)
        expected = (1 + np.sum(flat >= null.frequency[j] - 1e-12)) / (1 + flat.size)
        assert null.p_values[j] == pytest.approx(expected)
    np.testing.assert_allclose(null.q_values, false_discovery_control(null.p_values))
    assert np.all(np.isclose(null.null_frequencies * b, np.round(null.null_frequencies * b)))


def test_true_features_significant_noise_not(signal):
    _X, _y, _base, null = signal
    found = set(null.significant(0.05).tolist())
    assert {0, 1, 2} <= found
    assert len(found - {0, 1, 2}) <= 2


def test_itemsets_against_features(signal):
    _X, _y, base, null = signal
    assert null.itemsets == ((0, 1), (5,), (2,))
    # a one-feature itemset is the feature: same support and same null
    np.testing.assert_allclose(null.itemset_support[1], null.frequency[5])
    np.testing.assert_allclose(null.null_itemset_support[:, 2], null.null_frequencies[:, 2])
    both = base.subsets[:, 0] & base.subsets[:, 1]
    assert null.itemset_support[0] == pytest.approx(both.mean())
    table = null.itemset_table()
    assert list(table["itemset"]) == ["x0, x1", "x5", "x2"]


def test_bit_identical_across_n_jobs(signal):
    X, y, base, null = signal
    again = selection_null(
        X, y, base=base, n_permutations=20, itemsets=[[0, 1], [5], ["x2"]], n_jobs=2, progress=False
    )
    np.testing.assert_array_equal(again.null_frequencies, null.null_frequencies)
    np.testing.assert_array_equal(again.null_itemset_support, null.null_itemset_support)


def test_permuted_labels_give_nothing(colon):
    # On colon with the labels permuted, every feature is null: few q-values pass.
    X, y, _ = colon
    yp = np.random.default_rng(0).permutation(y)
    null = selection_null(
        X,
        yp,
        "anova",
        n_permutations=10,
        n_bootstraps=10,
        n_features=20,
        random_state=0,
        progress=False,
    )
    assert null.significant(0.05).size <= 2


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (
            {"n_permutations": 9},
            "'n_permutations' parameter of selection_null must be an integer >= 10",
        ),
        ({"itemsets": [["nope"]]}, "'itemsets' parameter of selection_null"),
        ({"pooled": "yes"}, "'pooled' parameter"),
    ],
)
def test_bad_input(signal, kwargs, match):
    X, y, base, _ = signal
    with pytest.raises((ValueError, TypeError), match=match):
        selection_null(X, y, base=base, **{"n_permutations": 10, **kwargs})


def test_other_data_refused(signal):
    X, y, base, _ = signal
    with pytest.raises(ValueError, match="'X' parameter of selection_null must be the data"):
        selection_null(X + 1, y, base=base, n_permutations=10)


def test_result_is_immutable(signal):
    import dataclasses

    null = signal[3]
    with pytest.raises(dataclasses.FrozenInstanceError):
        null.n_permutations = 3
    with pytest.raises(ValueError, match="read-only"):
        null.p_values[0] = 0.0
    with pytest.raises(ValueError, match="read-only"):
        null.null_frequencies[0, 0] = 0.0


def test_null_of_a_scaled_run_uses_its_scale():
    # Issue 38 item 2: the null reruns the selector as the run's spec builds it. A run with
    # scale="standard" got a null fitted on unscaled data (its selector was rebuilt from
    # the selector record alone). On features in very different units the L1 logistic
    # regression picks differently once each resample is standardized.

    X, y = _data(seed=3, n=80, p=12)
    X = X * np.logspace(-2, 2, X.shape[1])
    base = mm.bootstrap(X, y, selector="l1-logistic", n_bootstraps=6, n_features=3,
                        resampling="subsample", sample_fraction=0.5, scale="standard",
                        random_state=1, progress=False)
    assert base.spec.scale == "standard"
    kwargs = dict(base=base, n_permutations=10, random_state=5, n_jobs=1, progress=False)
    null = selection_null(X, y, **kwargs)
    by_hand = selection_null(
        X, y, selector=mm.RunSpec(selector="l1-logistic", scale="standard").selectors[0],
        **kwargs)
    unscaled = selection_null(X, y, selector="l1-logistic", **kwargs)
    np.testing.assert_array_equal(null.null_frequencies, by_hand.null_frequencies)
    assert not np.array_equal(null.null_frequencies, unscaled.null_frequencies)
    assert null.selector["scale"] == "standard"
