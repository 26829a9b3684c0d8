"""Selectors with sample weights and class weights, each against the library route (issue 28).

Oracles: scikit-learn's ``SVC(kernel="linear").fit(..., sample_weight=w)`` and
``SVC(class_weight="balanced")`` for the SVM selectors, sklearn's ``RFE`` routing the weights
to ``SVC`` for SVM-RFE, ``f_classif`` on the rows repeated w times for the weighted ANOVA
(up to the one factor of its residual degrees of freedom), and the estimators' own
``fit(sample_weight=...)`` for the lasso and the forest.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.ensemble import RandomForestClassifier
from sklearn.feature_selection import RFE, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.neighbors import KNeighborsClassifier
from sklearn.preprocessing import MinMaxScaler
from sklearn.svm import SVC

import modelmine as mm
from modelmine import datasets
from modelmine.selectors import get_selector, svm_rfe, svm_weights, weighted_f_classif


@cache
def _load(name: str) -> tuple[np.ndarray, np.ndarray]:
    X, y = getattr(datasets, f"load_{name}")()[:2]
    return np.asarray(X, dtype=np.float64), np.unique(y, return_inverse=True)[1].astype(np.int64)


@cache
def _small(name: str) -> tuple[np.ndarray, np.ndarray]:
    """20 genes scaled to [0, 1]: not separable, so the box C_i = C w_i binds and the
    weights change the SVM (on all 2,000 genes the margin is hard and they do not)."""
    X, y = _load(name)
    return MinMaxScaler().fit_transform(X)[:, :20], y


def _weights(n: int, seed: int = 0, integer: bool = False) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(0, 4, n).astype(float) if integer else rng.uniform(0.2, 3.0, n)


@pytest.mark.parametrize("name", ["colon", "leukemia"])
def test_weighted_svm_equals_svc_with_sample_weight(name):
    X, y = _small(name)
    w = _weights(y.size, 1)
    coef = SVC(kernel="linear", C=0.5).fit(X, y, sample_weight=w).coef_.ravel()
    ours = svm_weights(X, y, sample_weight=w)
    plain = svm_weights(X, y)
    assert np.abs(ours - plain).max() > 0.1 * plain.max()  # the weights matter here
    # equal within libsvm's stopping tolerance (1e-3)
    np.testing.assert_allclose(ours, np.abs(coef), rtol=0, atol=1e-3 * np.abs(coef).max())
    # through the registered selector (values as given)
    sel = get_selector("svm", {"scale": "none"})
    out = sel.select(X, y, random_state=0, sample_weight=w).scores
    np.testing.assert_allclose(out, ours, rtol=1e-12)


def test_integer_weights_fit_the_svm_of_the_repeated_rows():
    X, y = _small("colon")
    w = _weights(y.size, 2, integer=True)
    rows = np.repeat(np.arange(y.size), w.astype(int))
    a = svm_weights(X, y, sample_weight=w)
    b = svm_weights(X[rows], y[rows])
    np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-9 * b.max())
    assert np.abs(a - svm_weights(X, y)).max() > 0.01 * b.max()


def test_weighted_svm_rfe_equals_sklearn_rfe_with_sample_weight():
    X, y = _load("leukemia")
    X = MinMaxScaler().fit_transform(X)[:, :300]
    w = _weights(y.size, 3)
    rfe = RFE(SVC(kernel="linear", C=0.5), n_features_to_select=1, step=0.1)
    rfe.fit(X, y, sample_weight=w)
    ours = svm_rfe(X, y, step=0.1, sample_weight=w)
    # the same eliminations step by step (sklearn's tied ranking) ...
    np.testing.assert_array_equal(ours.ranking_tied, rfe.ranking_)
    # ... which the weights change (unweighted, 31 % of the tied ranks differ)
    assert np.mean(svm_rfe(X, y, step=0.1).ranking_tied != rfe.ranking_) > 0.1


def test_balanced_class_weight_equals_svc_balanced():
    X, y = _small("leukemia")  # 47 / 25: unbalanced
    sel = get_selector("svm", {"scale": "none", "class_weight": "balanced"})
    coef = SVC(kernel="linear", C=0.5, class_weight="balanced").fit(X, y).coef_.ravel()
    got = sel.select(X, y, random_state=0).scores
    np.testing.assert_allclose(got, np.abs(coef), rtol=0, atol=1e-3 * np.abs(coef).max())
    assert np.abs(got - svm_weights(X, y)).max() > 0.1 * got.max()
    assert sel.describe()["params"]["class_weight"] == "balanced"
    # class and sample weights multiply, as in scikit-learn
    w = _weights(y.size, 4)
    coef = SVC(kernel="linear", C=0.5, class_weight="balanced").fit(
        X, y, sample_weight=w).coef_.ravel()
    np.testing.assert_allclose(sel.select(X, y, random_state=0, sample_weight=w).scores,
                               np.abs(coef), rtol=0, atol=1e-3 * np.abs(coef).max())
    rfe = get_selector("svm-rfe", {"class_weight": "balanced"})
    assert rfe.get_params()["class_weight"] == "balanced"
    with pytest.raises(ValueError, match="class_weight"):
        get_selector("svm", {"class_weight": "auto"})


@pytest.mark.parametrize("name", ["colon", "leukemia"])
def test_weighted_anova_is_f_classif_of_the_repeated_rows(name):
    X, y = _load(name)
    w = _weights(y.size, 5, integer=True)
    rows = np.repeat(np.arange(y.size), w.astype(int))
    # relative weights (issue 40): the weighted least squares F, whose residual degrees of
    # freedom are n+ - K, is the repeated rows' F up to one factor for all features
    want = f_classif(X[rows], y[rows])[0] * (int((w > 0).sum()) - 2) / (w.sum() - 2)
    got = weighted_f_classif(X, y, w)
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(weighted_f_classif(sp.csr_matrix(X), y, w), want, rtol=1e-9,
                               atol=1e-12)
    # unit weights: the ANOVA selector itself
    sel = get_selector("anova")
    np.testing.assert_allclose(sel.select(X, y, random_state=0,
                                          sample_weight=np.ones(y.size)).scores,
                               sel.select(X, y, random_state=0).scores, rtol=1e-9)


def test_lasso_and_forest_pass_the_weights_to_scikit_learn():
    X, y = _load("colon")
    X = X[:, :200]
    w = _weights(y.size, 6)
    lasso = get_selector("l1-logistic").select(X, y, random_state=3, sample_weight=w)
    ref = LogisticRegression(C=0.1, l1_ratio=1.0, solver="liblinear", max_iter=1000,
                             random_state=3).fit(X, y, sample_weight=w)
    np.testing.assert_array_equal(lasso.scores, np.abs(ref.coef_).sum(axis=0))
    forest = get_selector("random-forest", {"n_estimators": 20}).select(
        X, y, random_state=3, sample_weight=w)
    ref_f = RandomForestClassifier(n_estimators=20, max_features="sqrt", random_state=3,
                                   n_jobs=1).fit(X, y, sample_weight=w)
    np.testing.assert_array_equal(forest.scores, ref_f.feature_importances_)


def test_which_selectors_take_weights():
    assert set(mm.selectors.weighted_selectors()) >= {
        "anova", "svm-rfe", "svm", "svm-rfe50", "l1-logistic", "random-forest"}
    for name in ("ig", "su", "chi2", "relieff", "cfs", "oner", "gainratio", "mrmr"):
        assert name not in mm.selectors.weighted_selectors()
    assert get_selector(LogisticRegression()).supports_weights
    assert not get_selector(KNeighborsClassifier()).supports_weights


def test_weights_reach_the_selector_in_every_resample():
    X, y = _load("colon")
    X = X[:, :100]
    w = _weights(y.size, 8)
    base = mm.bootstrap(X, y, selector="anova", n_bootstraps=4, n_features=10,
                        sample_weight=w, random_state=1)
    for i in range(4):
        rows = base.resample(i)
        want = weighted_f_classif(X[rows], y[rows], w[rows])
        np.testing.assert_allclose(base.scores[i], want.astype(np.float32), rtol=1e-6)
    # the same resamples as the unweighted run: weights never change the draws
    plain = mm.bootstrap(X, y, selector="anova", n_bootstraps=4, n_features=10,
                         random_state=1)
    np.testing.assert_array_equal(plain.sample_indices, base.sample_indices)
