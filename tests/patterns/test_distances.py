"""Jaccard distances between base models: against scipy's pdist and the definition."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.spatial.distance import pdist, squareform

import modelmine as mm
from modelmine.patterns import jaccard_distances


@pytest.mark.parametrize("shape,density", [((1, 5), 0.5), ((40, 30), 0.3), ((120, 500), 0.04),
                                           ((60, 2000), 0.01)])
def test_matches_scipy_pdist(rng, shape, density):
    S = rng.random(shape) < density
    S[0] = False  # an empty subset: pdist defines d(empty, empty) = 0
    if shape[0] > 2:
        S[1] = False
    expected = squareform(pdist(S, "jaccard")) if shape[0] > 1 else np.zeros((1, 1))
    got = jaccard_distances(S)
    np.testing.assert_allclose(got, expected, atol=1e-7)
    assert got.dtype == np.float64
    np.testing.assert_array_equal(np.diag(got), 0.0)
    np.testing.assert_array_equal(got, got.T)


def test_hand_example():
    S = np.array([[1, 1, 1, 0, 0], [1, 0, 1, 1, 0], [1, 0, 1, 0, 0]], dtype=bool)
    # |{0,1,2} & {0,2,3}| / |union| = 2/4; {0,1,2} vs {0,2}: 2/3; {0,2,3} vs {0,2}: 2/3
    expected = 1 - np.array([[1, 2 / 4, 2 / 3], [2 / 4, 1, 2 / 3], [2 / 3, 2 / 3, 1]])
    np.testing.assert_allclose(jaccard_distances(S), expected)


def test_accepts_base_models_sparse_and_float32(colon):
    X, y, _ = colon
    base = mm.bootstrap(X, y, selector="anova", n_bootstraps=12, n_features=10,
                        random_state=0)
    ref = squareform(pdist(base.subsets, "jaccard"))
    np.testing.assert_allclose(jaccard_distances(base), ref, atol=1e-7)
    np.testing.assert_allclose(jaccard_distances(sp.csr_matrix(base.subsets)), ref, atol=1e-7)
    d32 = jaccard_distances(base.subsets, dtype=np.float32)
    assert d32.dtype == np.float32
    np.testing.assert_allclose(d32, ref, atol=1e-6)


def test_bad_input():
    with pytest.raises(ValueError, match=r"The 'models' parameter of jaccard_distances must"):
        jaccard_distances(np.zeros(5))
    with pytest.raises(ValueError, match=r"must be a 0/1 or boolean matrix"):
        jaccard_distances(np.full((3, 3), 2))
