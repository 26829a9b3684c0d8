"""ReliefF weights must equal ``skrebate.ReliefF(n_neighbors=10).feature_importances_``.

Independent truth: scikit-rebate itself (its per-instance, per-feature loops), on synthetic
cases that exercise each rule (continuous, discrete with tied distances, mixed data with a
constant column, multiclass, a class smaller than k) and on the real microarray data.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from skrebate import ReliefF

import modelmine as mm
from modelmine.selectors import relieff_scores

SEED = 20120812


def _skrebate(X: np.ndarray, y: np.ndarray, k: int = 10) -> np.ndarray:
    return ReliefF(n_neighbors=k).fit(X, y).feature_importances_


def _codes(y: np.ndarray) -> np.ndarray:
    return np.unique(y, return_inverse=True)[1].astype(np.int64)


def _case(name: str) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(SEED)
    if name == "continuous-binary":
        y = rng.integers(0, 2, 60)
        return rng.normal(size=(60, 40)) + y[:, None] * rng.uniform(0, 1, 40), y
    if name == "discrete-ties":
        # Few values per feature: many exactly tied Hamming distances.
        return rng.integers(0, 3, (50, 25)).astype(float), rng.integers(0, 2, 50)
    if name == "mixed-constant-3class":
        X = rng.normal(size=(45, 30))
        X[:, 3] = 1.0                                    # constant -> discrete
        X[:, 5] = rng.integers(0, 3, 45)                 # discrete
        return X, np.repeat([0, 1, 2], 15)
    if name == "small-class":
        # A class with fewer than k members: its instances count themselves as a hit.
        return rng.normal(size=(34, 20)), np.r_[np.zeros(22), np.ones(8), 2 * np.ones(4)]
    if name == "duplicate-rows":
        X = rng.normal(size=(20, 15))
        return np.vstack([X, X[:10]]), rng.integers(0, 2, 30)
    raise KeyError(name)


@pytest.mark.parametrize(
    "name",
    ["continuous-binary", "discrete-ties", "mixed-constant-3class", "small-class",
     "duplicate-rows"],
)
def test_equals_skrebate_synthetic(name):
    X, y = _case(name)
    np.testing.assert_allclose(relieff_scores(X, _codes(y)), _skrebate(X, y), rtol=0, atol=1e-9)


@pytest.mark.parametrize("k", [1, 3, 25])
def test_equals_skrebate_other_k(k):
    X, y = _case("mixed-constant-3class")
    np.testing.assert_allclose(relieff_scores(X, _codes(y), n_neighbors=k), _skrebate(X, y, k),
                               rtol=0, atol=1e-9)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["colon", "leukemia"])
def test_equals_skrebate_real(name):
    X, y = getattr(mm.datasets, f"load_{name}")()
    np.testing.assert_allclose(relieff_scores(X, _codes(y)), _skrebate(X, y), rtol=0, atol=1e-9)


@pytest.mark.slow
def test_equals_skrebate_prostate_three_classes():
    # Prostate (mixed: some features have <= 10 values) with a synthetic third class
    # made of every third sample; a slice of the features keeps skrebate's loop short.
    X, y = mm.datasets.load_prostate()
    X = X[:, :600]
    y = _codes(y)
    y[::3] = 2
    np.testing.assert_allclose(relieff_scores(X, y), _skrebate(X, y), rtol=0, atol=1e-9)


def test_constant_features_get_zero_weight():
    X, y = _case("continuous-binary")
    X[:, [0, 7]] = 4.2
    scores = relieff_scores(X, _codes(y))
    assert scores[0] == 0.0 and scores[7] == 0.0
    assert np.all(np.abs(scores) <= 1.0)


def test_weights_are_invariant_to_affine_feature_rescaling():
    # Every diff is scaled by the feature's range, and distances use scaled features.
    X, y = _case("continuous-binary")
    scale = np.random.default_rng(SEED).uniform(0.5, 100.0, X.shape[1])
    np.testing.assert_allclose(relieff_scores(X * scale + 3.0, _codes(y)),
                               relieff_scores(X, _codes(y)), rtol=0, atol=1e-12)


def test_sparse_equals_skrebate_small():
    X, y = _case("mixed-constant-3class")
    X[np.abs(X) < 0.7] = 0.0
    np.testing.assert_allclose(relieff_scores(sp.csr_matrix(X), _codes(y)), _skrebate(X, y),
                               rtol=0, atol=1e-9)
