"""mm.evaluate for continuous and survival outcomes (issue 27, item 3).

Oracles: scikit-learn's r2_score and mean_squared_error, scikit-survival's
concordance_index_censored, a direct recomputation of a fold's signature from its training
rows alone (no test sample reaches the selection), and the stratification invariant.
"""

from __future__ import annotations

import numpy as np
import pytest
from outcome_data import assert_harrell_c_equals_scikit_survival, regression_data, survival_data
from sklearn.metrics import mean_squared_error, r2_score

import modelmine as mm
from modelmine.operators import aggregate
from modelmine.outcomes import check_outcome

pytest.importorskip("sksurv")


def _regression(n=80, p=30, seed=0):
    return regression_data(n, p, seed)


def _survival(n=100, p=25, seed=0):
    return survival_data(n, p, seed)


def test_regression_measures_equal_scikit_learn_on_the_predictions():
    X, y = _regression()
    ev = mm.evaluate(X, y, outcome="regression", selectors=["pearson"],
                     operators=["mostFreq"], n_folds=4, n_bootstraps=10, n_features=4)
    assert isinstance(ev, mm.evaluation.EvaluationResult) and ev.outcome == "regression"
    for _, row in ev.folds.iterrows():
        part = ev.predictions[(ev.predictions.operator == row.operator)
                              & (ev.predictions.fold == row.fold)]
        assert row.rmse == pytest.approx(
            np.sqrt(mean_squared_error(part.y_true, part.prediction)), rel=1e-12)
        assert row.r2 == pytest.approx(r2_score(part.y_true, part.prediction), rel=1e-12)
    # every sample is tested exactly once per operator
    counts = ev.predictions.groupby("operator")["sample"].apply(lambda s: sorted(s))
    assert all(c == list(range(y.size)) for c in counts)
    diff = ev.paired_differences().set_index("operator").loc["mostFreq"]
    by = {op: g.set_index("sample").squared_error.sort_index()
          for op, g in ev.predictions.groupby("operator")}
    assert diff.error_difference == pytest.approx(
        float((by["mostFreq"] - by["nobagg"]).mean()), rel=1e-12)
    assert diff.ci_low < diff.error_difference < diff.ci_high


def test_folds_select_on_the_training_part_only():
    X, y = _regression()
    ev = mm.evaluate(X, y, outcome="regression", selectors=["lasso"],
                     operators=["mostFreq"], n_folds=4, n_bootstraps=8, n_features=3,
                     random_state=5)
    strata = check_outcome(y, "regression", func="test").strata
    tested = ev.predictions[ev.predictions.operator == "mostFreq"]
    for f in range(4):
        test = np.sort(tested[tested.fold == f]["sample"].to_numpy())
        train = np.setdiff1d(np.arange(y.size), test)
        # stratified: each quantile bin split as evenly as possible
        share = np.bincount(strata[test], minlength=strata.max() + 1)
        assert share.max() - share.min() <= 2
        base = mm.bootstrap(X[train], y[train], selector="lasso", outcome="regression",
                            n_bootstraps=8, n_features=3, random_state=5 + f,
                            progress=False)
        expected = aggregate(base, "mostFreq", n_features=3)
        assert list(ev.signatures[("lasso", "mostFreq", f)].features) == list(
            expected.features)


def test_survival_concordance_equals_scikit_survival():
    X, y = _survival()
    ev = mm.evaluate(X, y, outcome="survival", selectors=["cox-score"],
                     operators=["mostFreq"], n_folds=4, n_bootstraps=10, n_features=3)
    assert_harrell_c_equals_scikit_survival(ev, y)
    assert ((ev.folds.integrated_brier >= 0) & (ev.folds.integrated_brier <= 1)).all()
    assert ev.summary().set_index("operator").loc["mostFreq", "harrell_c"] > 0.6
    stab = ev.stability().set_index("operator")
    assert {"mostFreq", "nobagg"} <= set(stab.index)


def test_outcome_evaluation_refuses_what_it_cannot_do():
    X, y = _survival(n=40)
    with pytest.raises(ValueError, match="'classifiers' parameter of evaluate"):
        mm.evaluate(X, y, outcome="survival", classifiers=["svm"], n_folds=2,
                    n_bootstraps=4)
    with pytest.raises(ValueError, match="'n_folds' parameter of evaluate"):
        mm.evaluate(X, y, outcome="survival", n_folds=50, n_bootstraps=4)
    Xr, yr = _regression(n=40)
    # named in evaluate's own words, before the first fit (issue 38)
    with pytest.raises(ValueError, match="'selectors' parameter of evaluate must be "
                       "selectors for outcome='regression'"):
        mm.evaluate(Xr, yr, outcome="regression", selectors=["svm-rfe"], n_folds=2,
                    n_bootstraps=4)
