"""Hardening, round four (issue 40): weights, outcomes, groups and per-class runs under bad
and adversarial input. Each defect reproduced as the report describes it, then fixed at
its root; the oracles are scikit-learn, statsmodels and invariants (a constant factor on
the weights or on y changes nothing)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from reliability_helpers import FAST, bad, small_frame
from sklearn.feature_selection import f_classif

import modelmine as mm
from modelmine.cli import main
from modelmine.selectors import weighted_f_classif
from modelmine.selectors._base import model_from_output


def _xy(n: int = 40, p: int = 30, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = np.arange(n) % 2
    X = rng.normal(size=(n, p))
    X[:, 7] += 2.0 * y  # the informative feature is not among the first columns
    X[:, 12] += 1.0 * y
    return X, y


# ------------------------------------------------------------ 1. small weights (relative)
@pytest.mark.parametrize("scale", [1e-300, 1e-12, 1e-2, 1.0, 1e6, 1e300])
def test_a_constant_factor_on_the_weights_changes_nothing(scale):
    X, y = _xy()
    w = np.random.default_rng(1).uniform(0.2, 3.0, y.size)
    ref = weighted_f_classif(X, y, w)
    assert ref[7] > 5  # the planted feature stands out
    np.testing.assert_allclose(weighted_f_classif(X, y, w * scale), ref, rtol=1e-9)
    # weights summing to 1 (the report's case) give the same F, not all zeros
    np.testing.assert_allclose(weighted_f_classif(X, y, w / w.sum()), ref, rtol=1e-9)


def test_equal_weights_are_the_unweighted_anova():
    X, y = _xy()
    for c in (1e-2, 1e-5, 1.0, 7.0):
        np.testing.assert_allclose(weighted_f_classif(X, y, np.full(y.size, c)),
                                   f_classif(X, y)[0], rtol=1e-9)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_integer_weights_rank_as_the_repeated_rows(seed):
    """Oracle: f_classif on the rows repeated w_i times. The weighted F is the weighted
    least squares F (residual degrees of freedom n+ - K): equal to the repeated rows' F
    times (sum(w) - K) / (n+ - K), one factor for all features, so the same ranking."""
    X, y = _xy(seed=seed)
    w = np.random.default_rng(seed).integers(0, 4, y.size).astype(float)
    rows = np.repeat(np.arange(y.size), w.astype(int))
    want = f_classif(X[rows], y[rows])[0]
    n_pos, K = int((w > 0).sum()), 2
    got = weighted_f_classif(X, y, w)
    np.testing.assert_allclose(got * (w.sum() - K) / (n_pos - K), want, rtol=1e-9)
    np.testing.assert_allclose(weighted_f_classif(sp.csr_matrix(X), y, w), got, rtol=1e-9)
    np.testing.assert_array_equal(np.argsort(-got, kind="stable"),
                                  np.argsort(-want, kind="stable"))


def test_weighted_anova_is_the_wls_f_test_of_statsmodels():
    sm = pytest.importorskip("statsmodels.api")
    X = np.random.default_rng(4).normal(size=(30, 3))
    y = np.arange(30) % 3
    X[:, 1] += y
    w = np.random.default_rng(4).uniform(0.01, 5.0, 30)
    got = weighted_f_classif(X, y, w)
    design = np.column_stack([np.ones(30), y == 1, y == 2]).astype(float)
    for j in range(3):
        fit = sm.WLS(X[:, j], design, weights=w).fit()
        np.testing.assert_allclose(got[j], fit.fvalue, rtol=1e-8)


@pytest.mark.parametrize("weights", ["sum1", "small", "tiny"])
def test_small_weights_select_as_unit_weights_in_a_run(weights):
    X, y = _xy()
    w = np.random.default_rng(2).uniform(0.5, 2.0, y.size)
    w = {"sum1": w / w.sum(), "small": np.full(y.size, 1e-3), "tiny": w * 1e-200}[weights]
    got = mm.bootstrap(X, y, selector="anova", n_bootstraps=6, n_features=3,
                       sample_weight=w, random_state=0)
    ref = mm.bootstrap(X, y, selector="anova", n_bootstraps=6, n_features=3,
                       sample_weight=w / w.max(), random_state=0)
    np.testing.assert_array_equal(got.subsets, ref.subsets)
    assert got.subsets[:, 7].all()  # the planted feature, not g0..g2
    assert not got.subsets[:, :3].all()


# ------------------------------------------- issue 38: the full-data model takes the weights
@pytest.mark.parametrize("selector", ["anova", "svm-rfe"])
def test_the_full_data_model_takes_the_sample_weights(selector):
    """Oracle: the selector fitted once on all rows with the weights (for anova,
    weighted_f_classif; for svm-rfe, the selector's own select with sample_weight)."""
    X, y = _xy(n=40, p=16, seed=3)
    w = np.where(np.arange(40) < 20, 0.01, np.where(np.arange(40) < 30, 1.0, 10.0))
    base = mm.bootstrap(X, y, selector=selector, n_bootstraps=2, n_features=4,
                        sample_weight=w, random_state=0)
    plain = mm.bootstrap(X, y, selector=selector, n_bootstraps=2, n_features=4,
                         random_state=0)
    sel = mm.selectors.get_selector(selector)
    seed = 0  # the selectors here are deterministic: the seed does not matter
    want = sel.select(X, y, random_state=seed, sample_weight=w / w.mean())
    if want.scores is not None:
        np.testing.assert_allclose(base.full_model.scores, want.scores.astype(np.float32),
                                   rtol=1e-5)
    want_model = model_from_output(want, n_features_in=16, n_features=4,
                                                selector=selector)
    np.testing.assert_array_equal(base.full_model.ranks, want_model.ranks)
    assert not np.array_equal(base.full_model.ranks, plain.full_model.ranks)
