"""Diversity, agreement, signature performance and RPT against independent computations."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.stats
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import balanced_accuracy_score, roc_auc_score
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import LinearSVC

import modelmine as mm
from modelmine.diagnostics import agreement, diversity, rpt, signature_performance


def test_diversity_is_average_pairwise_jaccard():
    rng = np.random.default_rng(0)
    sigs = [rng.choice(40, size=int(rng.integers(3, 9)), replace=False) for _ in range(6)]
    res = diversity(sigs, 40)
    brute = np.mean([len(set(a) & set(b)) / len(set(a) | set(b))
                     for a, b in itertools.combinations(sigs, 2)])
    assert res.value == pytest.approx(brute)
    assert res.pairwise.shape == (6, 6) and np.allclose(np.diag(res.pairwise), 1.0)
    assert res.n_signatures == 6 and res.measure == "jaccard"
    assert diversity([sigs[0], sigs[0]], 40).value == 1.0
    assert diversity([[0, 1], [2, 3]], 4).value == 0.0
    dice = diversity(sigs, 40, measure="dice")
    assert dice.value == pytest.approx(np.mean([2 * len(set(a) & set(b)) / (len(a) + len(b))
                                                for a, b in itertools.combinations(sigs, 2)]))


def test_diversity_bad_measure():
    with pytest.raises(ValueError, match=r"'measure' parameter of pairwise_similarity must be "
                       r"one of 'jaccard', 'dice', 'kuncheva', 'pearson'\. Got 'nogueira'"):
        diversity([[0, 1], [2, 3]], 4, measure="nogueira")


def test_agreement_matches_double_loop():
    rng = np.random.default_rng(1)
    labels = np.array(["ALL", "AML", "MLL"])
    P = labels[rng.integers(0, 3, size=(5, 37))]
    res = agreement(P)
    pairs = list(itertools.combinations(range(5), 2))
    brute = np.mean([np.mean(P[i] == P[j]) for i, j in pairs])
    assert res.value == pytest.approx(brute)
    assert res.pairwise[1, 3] == pytest.approx(np.mean(P[1] == P[3]))
    assert res.n_models == 5 and res.n_samples == 37
    assert agreement([P[0], P[0]]).value == 1.0
    assert agreement([[1, 1, -1], [-1, -1, 1]]).value == 0.0


def test_agreement_bad_input():
    with pytest.raises(ValueError, match=r"The 'predictions' parameter of agreement must be "
                       r"predictions of equal length .*Got lengths \[3, 2\] instead\."):
        agreement([np.array([1, 2, 1]), np.array([1, 2])])
    with pytest.raises(ValueError, match=r"at least 2 classifiers\. Got 1 classifier"):
        agreement([[1, 2, 3]])


@pytest.fixture(scope="module")
def colon_split():
    X, y = mm.datasets.load_colon()
    rng = np.random.default_rng(0)
    idx = rng.permutation(len(y))
    return X[idx[:40]], y[idx[:40]], X[idx[40:]], y[idx[40:]]


def test_signature_performance_binary_matches_sklearn(colon_split):
    Xtr, ytr, Xte, yte = colon_split
    features = np.array([248, 764, 1671, 492, 1771, 14])
    est = LinearSVC(C=0.5)
    res = signature_performance(est, Xtr, ytr, Xte, yte, features)
    ref = LinearSVC(C=0.5).fit(Xtr[:, features], ytr)
    pred = ref.predict(Xte[:, features])
    assert res.error == pytest.approx(np.mean(pred != yte))
    assert res.balanced_accuracy == pytest.approx(balanced_accuracy_score(yte, pred))
    assert res.auc == pytest.approx(roc_auc_score(yte, ref.decision_function(Xte[:, features])))
    assert res.auc_source == "decision_function"
    assert np.array_equal(res.correct, pred == yte)
    assert not hasattr(est, "coef_")  # the passed estimator is not fitted
    mask = np.zeros(Xtr.shape[1], bool)
    mask[features] = True
    by_mask = signature_performance(est, Xtr, ytr, Xte, yte, mask)
    # Column order differs (mask is sorted) but a linear SVM is order-invariant here up to
    # solver tolerance: predictions agree.
    assert by_mask.error == pytest.approx(res.error)
    # Sparse input gives the same numbers.
    sres = signature_performance(KNeighborsClassifier(1), sp.csr_matrix(Xtr), ytr,
                                 sp.csr_matrix(Xte), yte, features)
    dres = signature_performance(KNeighborsClassifier(1), Xtr, ytr, Xte, yte, features)
    assert sres.error == dres.error and sres.auc == pytest.approx(dres.auc)


def test_signature_performance_multiclass_ovr_matches_sklearn():
    rng = np.random.default_rng(2)
    n, d = 150, 12
    y = rng.integers(0, 3, size=n)
    X = rng.normal(size=(n, d)) + y[:, None] * np.r_[1.0, 0.5, np.zeros(d - 2)]
    f = [0, 1, 5]
    res = signature_performance(LogisticRegression(), X[:100], y[:100], X[100:], y[100:], f)
    ref = LogisticRegression().fit(X[:100, f], y[:100])
    # LogisticRegression has decision_function: one-vs-rest on it equals one-vs-rest on
    # predict_proba only up to ranking, so compare with sklearn on each source.
    dec = ref.decision_function(X[100:, f])
    assert res.auc == pytest.approx(np.mean([roc_auc_score(y[100:] == c, dec[:, c])
                                             for c in range(3)]))
    knn = signature_performance(KNeighborsClassifier(5), X[:100], y[:100], X[100:], y[100:], f)
    ref = KNeighborsClassifier(5).fit(X[:100, f], y[:100])
    assert knn.auc_source == "predict_proba"
    assert knn.auc == pytest.approx(roc_auc_score(y[100:], ref.predict_proba(X[100:, f]),
                                                  multi_class="ovr"))


class _NoScores(ClassifierMixin, BaseEstimator):
    def fit(self, X, y):
        self.classes_ = np.unique(y)
        self.majority_ = scipy.stats.mode(y, keepdims=False).mode
        return self

    def predict(self, X):
        return np.full(np.shape(X)[0], self.majority_)


def test_signature_performance_without_scores_or_single_class():
    X = np.arange(20.0).reshape(10, 2)
    y = np.array([0] * 6 + [1] * 4)
    res = signature_performance(_NoScores(), X, y, X, y, [0])
    assert np.isnan(res.auc) and res.auc_source is None
    assert res.error == pytest.approx(0.4)
    single = signature_performance(KNeighborsClassifier(1), X, y, X[:3], y[:3], [0, 1])
    assert np.isnan(single.auc)


def test_signature_performance_bad_features():
    X = np.zeros((4, 3))
    y = np.array([0, 1, 0, 1])
    with pytest.raises(ValueError, match=r"The 'features' parameter of signature_performance "
                       r"must be feature indices in \[0, 2\]"):
        signature_performance(KNeighborsClassifier(1), X, y, X, y, [0, 3])
    with pytest.raises(ValueError, match=r"'X_test' parameter of signature_performance must "
                       r"be a matrix with 3 columns"):
        signature_performance(KNeighborsClassifier(1), X, y, X[:, :2], y, [0])


@pytest.mark.parametrize(("r", "p"), [(0.3, 0.9), (0.8, 0.6), (1.0, 1.0), (0.05, 0.99)])
def test_rpt(r, p):
    # Saeys et al. (2008): beta = 1 is the harmonic mean of robustness and performance.
    assert rpt(r, p).value == pytest.approx(scipy.stats.hmean([r, p]))
    assert rpt(r, p, beta=0).value == pytest.approx(r)
    assert rpt(r, p, beta=1e4).value == pytest.approx(p, rel=1e-6)
    b = 2.0
    assert float(rpt(r, p, b)) == pytest.approx((b**2 + 1) * r * p / (b**2 * r + p))


def test_rpt_bounds():
    assert rpt(0.0, 0.0).value == 0.0
    with pytest.raises(ValueError, match=r"The 'robustness' parameter of rpt must be a real "
                       r"number in \[0, 1\]\. Got -0\.2 instead\."):
        rpt(-0.2, 0.9)
