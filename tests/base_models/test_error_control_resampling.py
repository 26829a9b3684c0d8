"""bootstrap(): complementary pairs (Shah and Samworth 2013) and artificial features
(Stabl's permuted decoys / knockoffs), bit-identical across n_jobs (issue 12)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.feature_selection import f_classif

import modelmine as mm
from modelmine.exceptions import DataError

#: Complementary pairs of ANOVA models, the setting every test here varies.
PAIRS = {"selector": "anova", "resampling": "complementary-pairs"}


def _pairs_bootstrap(X, y, **kwargs):
    """bootstrap() with :data:`PAIRS`, checked bit-identical for one and two workers."""
    serial = mm.bootstrap(X, y, n_jobs=1, **PAIRS, **kwargs)
    assert serial == mm.bootstrap(X, y, n_jobs=2, **PAIRS, **kwargs)
    return serial


@pytest.mark.parametrize("stratify", [False, True])
def test_complementary_pairs_are_disjoint_halves(colon, stratify):
    X, y, _ = colon
    serial = _pairs_bootstrap(
        X, y, n_bootstraps=6, n_features=10, stratify=stratify, random_state=5, fit_full=False
    )
    n = y.size
    assert serial.resampling["n_pairs"] == 3 and serial.resampling["fraction"] == 0.5
    codes = np.unique(y, return_inverse=True)[1]
    for i in range(0, 6, 2):
        a, b = serial.sample_indices[i], serial.sample_indices[i + 1]
        assert not set(a) & set(b)  # disjoint
        assert (
            a.size == b.size == n // 2 - (stratify and sum(c % 2 for c in np.bincount(codes)) // 2)
        )
        assert np.unique(a).size == a.size  # without replacement
        if stratify:
            counts = np.bincount(codes)
            np.testing.assert_array_equal(np.bincount(codes[a], minlength=2), counts // 2)
    # different pairs differ
    assert not np.array_equal(serial.sample_indices[0], serial.sample_indices[2])
    # each model is the selector on its half
    half = serial.sample_indices[1]
    expected = np.nan_to_num(f_classif(X[half], y[half])[0])
    top = set(np.argsort(-expected, kind="stable")[:10])
    assert set(np.flatnonzero(serial.subsets[1])) == top


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"n_bootstraps": 5}, "'n_bootstraps' parameter of bootstrap must be an even number"),
        ({"sample_fraction": 0.6}, "'sample_fraction' parameter of bootstrap must be None or 0.5"),
        (
            {"artificial_features": "shadow"},
            "'artificial_features' parameter of bootstrap must be None or one of 'permutation', "
            "'knockoff'",
        ),
    ],
)
def test_complementary_pairs_bad_input(colon, kwargs, match):
    X, y, _ = colon
    args = {"n_bootstraps": 4, "n_features": 5, **kwargs}
    with pytest.raises(ValueError, match=match):
        mm.bootstrap(X, y, **PAIRS, **args)


def test_artificial_features_in_base_models(colon, tmp_path):
    X, y, names = colon
    base = _pairs_bootstrap(
        X,
        y,
        n_bootstraps=6,
        n_features=20,
        feature_names=names,
        artificial_features="permutation",
        random_state=3,
    )
    assert list(base.feature_names) == list(names)
    assert base.artificial_subsets.shape == (6, 2000)
    assert dict(base.artificial) == {"method": "permutation", "n_features": 2000}
    # each model's top 20 of the 4000 columns, split between real and artificial
    np.testing.assert_array_equal(
        base.subsets.sum(axis=1) + base.artificial_subsets.sum(axis=1), 20
    )
    # ranks of the real features: a permutation of 1..p keeping the selector's order
    for i in range(6):
        np.testing.assert_array_equal(np.sort(base.ranks[i]), np.arange(1, 2001))
        order = np.argsort(base.ranks[i])
        assert np.all(np.diff(base.scores[i][order]) <= 0)
    # the real part is the selector's scores on the real columns of the half
    half = base.sample_indices[0]
    np.testing.assert_allclose(
        base.scores[0], np.nan_to_num(f_classif(X[half], y[half])[0]), rtol=1e-5
    )
    # lossless save / load
    assert mm.BaseModels.load(base.save(tmp_path / "b.npz")) == base


def test_selector_failing_on_augmented_data_is_named(colon):
    X, y, _ = colon

    def only_real(Xs, ys):
        if Xs.shape[1] != 2000:
            raise ValueError("expects exactly 2000 columns")
        return np.asarray(Xs).var(axis=0)

    with pytest.raises(DataError, match="failed on the data augmented with artificial"):
        mm.bootstrap(
            X,
            y,
            selector=only_real,
            n_bootstraps=2,
            n_features=5,
            artificial_features="permutation",
            fit_full=False,
        )
