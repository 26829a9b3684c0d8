"""The covariate-adjusted score test behind ``covariates=`` (issue 39 item 3; issue 38 item
6), on its own: ``cox_adjusted_scores`` equals the efficient score statistic from
statsmodels' PHReg (Breslow ties: score and Hessian at the covariates' estimate), and the
adjusting selector wrapper computes it on each resample's own rows. The data:
scikit-survival's whas500. Runs with covariates are tested with public names in
``tests/pipeline/test_covariates.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

import modelmine as mm
from modelmine.outcomes import check_covariates
from modelmine.outcomes._covariates import cox_adjusted_scores
from modelmine.selectors._covariates import CovariateAdjustedSelector

pytest.importorskip("sksurv")
pytest.importorskip("statsmodels.api")
from statsmodels.duration.hazard_regression import PHReg


def _whas500():
    from sksurv.datasets import load_whas500

    X, y = load_whas500()
    X = X.apply(lambda c: c.astype(float) if c.dtype.name == "category" else c)
    return X, y


def test_adjusted_score_test_equals_the_score_and_information_of_statsmodels():
    X, y = _whas500()
    event, time = y["fstat"], y["lenfol"]
    Z = X[["age", "gender"]].to_numpy()
    genes = X[["hr", "bmi", "sysbp", "chf"]].to_numpy()
    stat, U = cox_adjusted_scores(genes, event, time, Z)
    gamma = PHReg(time, Z, status=event.astype(int), ties="breslow").fit().params
    for j in range(genes.shape[1]):
        full = PHReg(time, np.column_stack([genes[:, j], Z]), status=event.astype(int),
                     ties="breslow")
        at = np.r_[0.0, gamma]
        score = full.score(at)
        # the efficient score statistic: U^2 times the (x, x) entry of the inverse
        # information, the covariates at their estimate without x
        expected = score[0] ** 2 * np.linalg.inv(-full.hessian(at))[0, 0]
        assert stat[j] == pytest.approx(expected, rel=1e-7)
        assert U[j] == pytest.approx(score[0], rel=1e-7)


def test_covariates_travel_with_the_rows_of_each_resample():
    X, y = _whas500()
    Z = X[["age", "gender"]].to_numpy()
    genes = X[["hr", "bmi", "sysbp", "diasbp"]].to_numpy()
    covs = check_covariates(X[["age", "gender"]], len(X), func="test")
    sel = CovariateAdjustedSelector(mm.selectors.get_selector("cox-score"), covs)
    rows = np.random.default_rng(0).integers(0, len(X), len(X))
    out = sel.select_rows(None, genes, y, rows, random_state=0)
    expected, _ = cox_adjusted_scores(genes[rows], y["fstat"][rows], y["lenfol"][rows],
                                      Z[rows])
    np.testing.assert_allclose(out.scores, expected, rtol=1e-10)
    full = sel.select(genes, y, random_state=0)
    assert not np.allclose(full.scores, out.scores)
