"""ModelMiningSelector: scikit-learn's common checks, oracles on real data, bad parameters."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import parametrize_with_checks

import modelmine as mm
from modelmine.estimator import ModelMiningSelector, expected_failed_checks
from modelmine.operators import aggregate

SEED = 20240607


@pytest.fixture(scope="module")
def colon():
    X, y = mm.datasets.load_colon(as_frame=True)
    return X, y


# scikit-learn's own conformance suite. Small b and m keep it fast. The tiny datasets of the
# checks make every base model select all p columns (m >= p), an edge case for closedApr.
# The checks it fails by design are declared beside the estimator (expected_failed_checks),
# strict: one that starts to pass fails here.
ESTIMATORS = [
    ModelMiningSelector(selector="anova", operator="mostFreq", n_bootstraps=5, n_features=3,
                        random_state=0),
    ModelMiningSelector(selector="anova", operator="closedApr", n_bootstraps=5, n_features=3,
                        random_state=0),
    ModelMiningSelector(selector="anova", operator="allMed", n_signatures=2, n_bootstraps=5,
                        n_features=3, random_state=0),
]


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=expected_failed_checks,
                         xfail_strict=True)
def test_sklearn_common_checks(estimator, check):
    check(estimator)


def test_the_expected_failures_are_checks_scikit_learn_runs():
    from sklearn.utils.estimator_checks import estimator_checks_generator

    for est in ESTIMATORS:  # generated, not run
        names = {getattr(check, "func", check).__name__
                 for _, check in estimator_checks_generator(est)}
        assert set(expected_failed_checks(est)) <= names


def _fit(X, y, **kw):
    params = dict(selector="anova", n_bootstraps=20, n_features=10, random_state=SEED)
    params.update(kw)
    return ModelMiningSelector(**params).fit(X, y)


@pytest.mark.parametrize("operator", ["closedApr", "mostFreq", "avgRank"])
def test_signature_matches_the_pipeline_run_by_hand(colon, operator):
    X, y = colon
    sel = _fit(X, y, operator=operator)
    # Independent composition: the same bootstrap and operator called directly.
    base = mm.bootstrap(X, y, selector="anova", n_bootstraps=20, n_features=10,
                        random_state=SEED)
    assert base == sel.base_models_
    expected = aggregate(base, operator, n_features=10, random_state=base.random_state % 2**32)
    np.testing.assert_array_equal(sel.signature_.features, expected.features)
    cols = np.sort(expected.features)
    np.testing.assert_array_equal(sel.get_support(indices=True), cols)
    np.testing.assert_array_equal(sel.transform(X), X.to_numpy()[:, cols])
    assert sel.get_feature_names_out().tolist() == X.columns[cols].tolist()
    assert sel.signatures_ is None and sel.operator_kind_ == "single"


def test_most_frequent_invariant(colon):
    X, y = colon
    sel = _fit(X, y, operator="mostFreq")
    freq = sel.base_models_.subsets.mean(axis=0)
    chosen = sel.get_support()
    # Brute-force oracle of mostFreq: no unselected feature is more frequent than a chosen one.
    assert chosen.sum() == 10
    assert freq[chosen].min() >= freq[~chosen].max()


def test_stability_is_the_nogueira_formula(colon):
    X, y = colon
    sel = _fit(X, y)
    Z = sel.base_models_.subsets.astype(float)
    M, d = Z.shape
    p = Z.mean(axis=0)
    kbar = Z.sum(axis=1).mean()
    # JMLR 2018, Definition 4, written out independently.
    s2 = M / (M - 1) * p * (1 - p)
    expected = 1 - s2.mean() / (kbar / d * (1 - kbar / d))
    assert sel.stability_.value == pytest.approx(expected, rel=1e-12)
    lo, hi = sel.stability_.confidence_interval
    assert lo < sel.stability_.value < hi
    assert _fit(X, y, compute_stability=False).stability_ is None


def test_alternatives_of_a_multi_model_operator(colon):
    X, y = colon
    sel = _fit(X, y, operator="allMed", n_signatures=4)
    assert sel.operator_kind_ == "multi" and len(sel.signatures_) == 4
    np.testing.assert_array_equal(sel.signature_.features, sel.signatures_[0].features)
    for i in range(4):
        cols = np.sort(sel.signatures_[i].features)
        np.testing.assert_array_equal(sel.alternative_support(i, indices=True),
                                      sel.signatures_[i].features)
        np.testing.assert_array_equal(sel.transform_alternative(X, i), X.to_numpy()[:, cols])
    third = _fit(X, y, operator="allMed", n_signatures=4, alternative=2)
    np.testing.assert_array_equal(third.get_support(indices=True),
                                  np.sort(sel.signatures_[2].features))
    with pytest.raises(ValueError, match=r"The 'i' parameter of .* must be an integer in "
                                         r"\[0, 3\]. Got 7 instead"):
        sel.alternative_support(7)


def test_pandas_in_feature_names_out_and_pandas_output(colon):
    X, y = colon
    sel = _fit(X, y).set_output(transform="pandas")
    out = sel.transform(X)
    assert isinstance(out, pd.DataFrame)
    assert out.columns.tolist() == sel.get_feature_names_out().tolist()
    assert set(out.columns) <= set(X.columns)
    np.testing.assert_array_equal(out.to_numpy(), X[out.columns].to_numpy())


def test_sparse_input_stays_sparse():
    X, y = mm.datasets.load_basehock()
    rows = np.r_[np.flatnonzero(y == 1)[:150], np.flatnonzero(y == 2)[:150]]
    X, y = X[rows], y[rows]
    sel = ModelMiningSelector(selector="anova", operator="mostFreq", n_bootstraps=6,
                              n_features=15, random_state=0).fit(X, y)
    out = sel.transform(X)
    assert sp.issparse(out) and out.shape == (300, 15)
    np.testing.assert_array_equal(out.toarray(), X[:, sel.get_support(indices=True)].toarray())


@pytest.mark.slow
def test_pipeline_and_grid_search_tune_operator_and_m(colon):
    X, y = colon
    pipe = make_pipeline(
        ModelMiningSelector(selector="anova", n_bootstraps=10, random_state=SEED),
        LogisticRegression(max_iter=2000))
    grid = {"modelminingselector__operator": ["mostFreq", "closedApr"],
            "modelminingselector__n_features": [5, 15]}
    search = GridSearchCV(pipe, grid, cv=StratifiedKFold(3, shuffle=True, random_state=0))
    search.fit(X, y)
    assert len(search.cv_results_["params"]) == 4
    best = search.best_estimator_[0]
    assert best.get_support().sum() == search.best_params_["modelminingselector__n_features"]
    # Refit is on all the data: equal to fitting the best settings directly.
    direct = ModelMiningSelector(selector="anova", n_bootstraps=10, random_state=SEED,
                                 operator=best.operator, n_features=best.n_features).fit(X, y)
    np.testing.assert_array_equal(best.get_support(), direct.get_support())
    assert search.score(X, y) > 0.7


def test_clone_is_unfitted_with_equal_params(colon):
    X, y = colon
    sel = _fit(X, y)
    twin = clone(sel)
    assert twin.get_params() == sel.get_params()
    assert not hasattr(twin, "signature_")
    with pytest.raises(NotFittedError):
        twin.transform(X)


@pytest.mark.parametrize(
    ("params", "exc", "pattern"),
    [
        ({"operator": "closedAprr"}, ValueError,
         r"The 'operator' parameter of ModelMiningSelector must be one of .*Got 'closedAprr' "
         r"instead. Did you mean 'closedApr'\?"),
        ({"n_bootstraps": 1}, ValueError,
         r"The 'n_bootstraps' parameter of ModelMiningSelector must be an integer >= 2. "
         r"Got 1 instead."),
        ({"n_features": 0}, ValueError, r"The 'n_features' parameter"),
        ({"n_features": 2.5}, TypeError, r"The 'n_features' parameter"),
        ({"n_signatures": 3}, ValueError,
         r"The 'n_signatures' parameter of ModelMiningSelector must be None for the "
         r"single-model operator 'closedApr'"),
        ({"alternative": 1}, ValueError, r"The 'alternative' parameter"),
        ({"operator": "allMed", "n_signatures": 3, "alternative": 3}, ValueError,
         r"The 'alternative' parameter of ModelMiningSelector must be an integer in \[0, 2\]"),
        ({"selector_params": [1]}, TypeError, r"The 'selector_params' parameter"),
        ({"selector": "svm-rfee"}, ValueError, r"The 'selector' parameter .*Did you mean"),
    ],
)
def test_bad_parameters_name_the_parameter(colon, params, exc, pattern):
    X, y = colon
    with pytest.raises(exc, match=pattern):
        _fit(X, y, **params)
