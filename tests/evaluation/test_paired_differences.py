"""EvaluationResult.paired_differences (issue 25, item 3): the per-sample paired error
differences against a baseline, checked against the folds' errors (an independent sum) and
a brute-force loop over the predictions; the fraction of identical signatures against the
signatures themselves."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import norm

import modelmine as mm


@pytest.fixture(scope="module")
def result(colon):
    X, y, _ = colon
    return mm.evaluate(X[:, :300], y, selectors=["anova", "ig"],
                       operators=["mostFreq", "closedApr", "avgRank"],
                       operator_params={"closedApr": {}}, classifiers=["svm", "1nn"],
                       n_folds=3, n_bootstraps=8, n_features=10, random_state=1)


def test_paired_differences_equal_the_brute_force(result):
    table = result.paired_differences(classifier="1nn")
    assert set(zip(table.operator, table.baseline)) == {
        ("mostFreq", "nobagg"), ("closedApr", "nobagg"), ("avgRank", "nobagg"),
        ("closedApr", "mostFreq")}
    preds = result.predictions
    folds = result.folds
    sizes = np.array([te.size for _, te in result.fold_indices])
    z = norm.ppf(0.975)
    # each 1-NN prediction once, by (selector, operator, sample): one row each
    one = preds[preds.classifier == "1nn"]
    wrong = {}
    for sel, op, i, pred, true in zip(one.selector, one.operator, one["sample"], one.y_pred,
                                      one.y_true, strict=True):
        assert (sel, op, i) not in wrong
        wrong[sel, op, i] = float(pred != true)
    for row in table.itertuples():
        d = np.array([wrong[row.selector, row.operator, i] - wrong[row.selector, row.baseline, i]
                      for i in range(result.settings["n_samples"])])
        assert row.error_difference == pytest.approx(d.mean(), abs=1e-12)
        half = z * d.std(ddof=1) / np.sqrt(d.size)
        assert (row.ci_low, row.ci_high) == pytest.approx((d.mean() - half, d.mean() + half))
        # the mean difference is the difference of the pooled fold errors
        def pooled(op, sel=row.selector):
            f = folds[(folds.selector == sel) & (folds.operator == op)
                      & (folds.classifier == "1nn")].sort_values("fold")
            return float((f.error.to_numpy() * sizes).sum() / sizes.sum())
        assert row.error_difference == pytest.approx(pooled(row.operator)
                                                     - pooled(row.baseline), abs=1e-12)
        same = [set(result.signatures[(row.selector, row.operator, f)].names)
                == set(result.signatures[(row.selector, row.baseline, f)].names)
                for f in range(3)]
        assert row.identical_fraction == pytest.approx(np.mean(same))


def test_paired_differences_refuse_unknown_operators(result):
    with pytest.raises(ValueError, match="pairs"):
        result.paired_differences([("closedApr", "noSuch")])
    with pytest.raises(ValueError, match="classifier"):
        result.paired_differences(classifier="tree")
