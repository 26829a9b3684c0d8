"""One result type per question (issue 38, item 3): ``mm.evaluate`` returns an
EvaluationResult for every outcome. Oracles: RMSE recomputed from the stored per-sample
squared errors, Harrell's C from scikit-survival's concordance_index_censored on the stored
risk scores, the paired differences from a brute-force loop over the predictions."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from outcome_data import assert_harrell_c_equals_scikit_survival, regression_data, survival_data

import modelmine as mm

pytest.importorskip("sksurv")


def _regression(n=60, p=15, seed=0):
    return regression_data(n, p, seed)


def _survival(n=80, p=12, seed=0):
    return survival_data(n, p, seed)


@pytest.fixture(scope="module")
def regression():
    X, y = _regression()
    return y, mm.evaluate(X, y, outcome="regression", selectors=["pearson"],
                          operators=["mostFreq", "avgRank"], classifiers=["ridge", "rf"],
                          n_folds=3, n_bootstraps=5, n_features=3)


@pytest.fixture(scope="module")
def survival():
    X, y = _survival()
    return y, mm.evaluate(X, y, outcome="survival", selectors=["cox-score"],
                          operators=["mostFreq"], n_folds=3, n_bootstraps=5, n_features=3)


def test_every_outcome_gives_an_evaluation_result(regression, survival):
    for _, ev in (regression, survival):
        assert type(ev) is mm.evaluation.EvaluationResult
    assert regression[1].outcome == "regression" and survival[1].outcome == "survival"
    X, y = _regression(n=30, p=8)
    labels = (y > np.median(y)).astype(int)
    ev = mm.evaluate(X, labels, selectors=["anova"], operators=["mostFreq"],
                     classifiers=["1nn"], n_folds=3, n_bootstraps=4, n_features=3)
    assert type(ev) is mm.evaluation.EvaluationResult and ev.outcome == "classification"
    # the classes' summary is the mean per-fold error, its standard error over the folds
    row = ev.summary().set_index("operator").loc["mostFreq"]
    errs = ev.folds[ev.folds.operator == "mostFreq"].error
    assert row.error == pytest.approx(errs.mean()) and row.error_se == pytest.approx(
        errs.std(ddof=1) / np.sqrt(errs.size))
    assert "model" not in ev.folds.columns and "model" not in ev.summary().columns


def test_regression_rmse_equals_the_stored_squared_errors(regression):
    y, ev = regression
    folds, preds = ev.folds, ev.predictions
    assert set(folds.classifier) == {"ridge", "rf"} == set(ev.classifiers)
    assert (folds.model == folds.classifier).all()  # the deprecated copy
    for row in folds.itertuples():
        part = preds[(preds.operator == row.operator) & (preds.fold == row.fold)
                     & (preds.classifier == row.classifier)]
        assert np.allclose(part.squared_error, (y[part["sample"]] - part.prediction) ** 2)
        assert row.rmse == pytest.approx(np.sqrt(part.squared_error.mean()), rel=1e-12)
    summary = ev.summary().set_index(["operator", "classifier"])
    for (op, clf), g in folds.groupby(["operator", "classifier"]):
        assert summary.loc[(op, clf), "rmse"] == pytest.approx(g.rmse.mean())
        assert summary.loc[(op, clf), "r2_se"] == pytest.approx(
            g.r2.std(ddof=1) / np.sqrt(len(g)))


def test_survival_harrell_c_equals_scikit_survival(survival):
    y, ev = survival
    assert_harrell_c_equals_scikit_survival(ev, y)
    assert {"harrell_c", "uno_c", "integrated_brier", "harrell_c_se"} <= set(
        ev.summary().columns)


def test_paired_differences_one_signature_for_every_outcome(regression):
    y, ev = regression
    table = ev.paired_differences(classifier="rf")
    assert set(zip(table.operator, table.baseline)) == {("mostFreq", "nobagg"),
                                                        ("avgRank", "nobagg")}
    preds = ev.predictions
    preds = preds[preds.classifier == "rf"]
    for row in table.itertuples():
        def sq(op, i):
            hit = preds[(preds.operator == op) & (preds["sample"] == i)]
            assert len(hit) == 1
            return float((hit.prediction.iloc[0] - y[i]) ** 2)
        d = np.array([sq(row.operator, i) - sq(row.baseline, i) for i in range(y.size)])
        assert row.error_difference == pytest.approx(d.mean(), abs=1e-12)
        assert row.classifier == "rf" and row.n_samples == y.size
        same = [set(ev.signatures[("pearson", row.operator, f)].features)
                == set(ev.signatures[("pearson", "nobagg", f)].features) for f in range(3)]
        assert row.identical_fraction == pytest.approx(np.mean(same))
    # the old keywords of the outcome result: the same table, with a FutureWarning
    with pytest.warns(FutureWarning, match="model= is deprecated"):
        old = ev.paired_differences(model="rf")
    pd.testing.assert_frame_equal(old, table)
    with pytest.warns(FutureWarning, match="baseline= is deprecated"):
        against = ev.paired_differences(baseline="mostFreq", classifier="rf")
    assert set(zip(against.operator, against.baseline)) == {("avgRank", "mostFreq"),
                                                            ("nobagg", "mostFreq")}
    with pytest.warns(FutureWarning, match="baseline as first argument"):
        positional = ev.paired_differences("nobagg", classifier="rf")
    pd.testing.assert_frame_equal(positional, table)
    with pytest.raises(ValueError, match="'classifier'"), pytest.warns(FutureWarning):
        ev.paired_differences(model="coxph")


def test_class_layouts_refuse_an_outcome(regression, survival):
    _, ev = regression
    for layout in ("table2", "table4"):
        with pytest.raises(ValueError, match="'layout' parameter") as info:
            ev.to_frame(layout)
        assert f"layout={layout!r}" in str(info.value)
        assert "outcome='regression'" in str(info.value)
    for method in (ev.points, ev.robustness_table):
        with pytest.raises(ValueError, match="'outcome'"):
            method()
    with pytest.raises(ValueError, match="survival errors are not per sample"):
        survival[1].paired_differences()
    assert list(ev.to_frame().columns[:4]) == ["selector", "operator", "classifier", "fold"]


def test_outcome_evaluation_is_a_deprecated_alias():
    with pytest.warns(FutureWarning, match="OutcomeEvaluation left the public API"):
        alias = mm.evaluation.OutcomeEvaluation
    assert alias is mm.evaluation.EvaluationResult
