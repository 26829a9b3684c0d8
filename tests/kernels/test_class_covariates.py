"""Classification selectors with covariates (issue 49, item 5): each built-in selector
takes them (``CLASS_ADJUSTMENT``), checked against statsmodels (the analysis of
covariance's F and t, the logistic regression with unpenalised covariates) and by
simulation with a known truth (a gene that only mirrors age); a selector that cannot take
them is named in a warning; an outcome the covariates explain exactly is refused."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import modelmine as mm
from modelmine.outcomes import SURVIVAL_DTYPE, check_covariates
from modelmine.outcomes._covariates import residualise
from modelmine.selectors import get_selector, selectors_for
from modelmine.selectors._covariates import (
    CLASS_ADJUSTMENT,
    CovariateAdjustedSelector,
    ancova_scores,
)

sm = pytest.importorskip("statsmodels.api")


def test_every_built_in_classification_selector_says_how_it_takes_covariates():
    assert set(selectors_for("classification")) == set(CLASS_ADJUSTMENT)
    for how, reason in CLASS_ADJUSTMENT.values():
        assert how in ("unpenalised", "ancova", "residuals") and reason


def _data(seed=0, n=90, p=8, k=2):
    rng = np.random.default_rng(seed)
    Z = np.column_stack([rng.normal(60, 8, n), rng.integers(0, 2, n)]).astype(float)
    X = rng.normal(size=(n, p))
    X[:, 0] += 0.05 * Z[:, 0]
    y = rng.integers(0, k, n)
    X[:, 1] += 0.8 * y
    return X, y, Z


@pytest.mark.parametrize("k", [2, 3])
def test_ancova_scores_are_statsmodels_partial_f_and_t(k):
    X, y, Z = _data(k=k)
    f = ancova_scores(X, y, Z)
    t = ancova_scores(X, y, Z, t_test=True, direction="up")
    dummies = (y[:, None] == np.arange(1, k)).astype(float)
    for j in range(X.shape[1]):
        full = sm.OLS(X[:, j], sm.add_constant(np.column_stack([Z, dummies]))).fit()
        reduced = sm.OLS(X[:, j], sm.add_constant(Z)).fit()
        assert f[j] == pytest.approx(full.compare_f_test(reduced)[0], rel=1e-8)
        ts = []
        for c in (range(k) if k > 2 else [1]):
            one = sm.OLS(X[:, j], sm.add_constant(np.column_stack([Z, y == c]))).fit()
            ts.append(one.tvalues[-1])
        assert t[j] == pytest.approx(max(ts), rel=1e-8)


def test_penalised_logistic_leaves_the_covariates_unpenalised():
    # statsmodels' L1 logistic regression with zero penalty on the intercept and the
    # covariates: liblinear's objective |w|_1 + C sum(loss) is -loglik + |w|_1 / C
    X, y, Z = _data(seed=1, n=120)
    covs = check_covariates(pd.DataFrame(Z, columns=["age", "sex"]), len(y), func="test")
    sel = CovariateAdjustedSelector(get_selector("l1-logistic", {"C": 0.5, "max_iter":
                                                                 100000}), covs)
    got = sel.select(X, y, random_state=0)
    Zs = (Z - Z.mean(axis=0)) / Z.std(axis=0)
    alpha = np.r_[0.0, np.full(X.shape[1], 1 / 0.5), 0.0, 0.0]
    ref = sm.Logit(y, sm.add_constant(np.column_stack([X, Zs]))).fit_regularized(
        method="l1", alpha=alpha, disp=0, acc=1e-12)
    np.testing.assert_allclose(got.scores, np.abs(ref.params[1:1 + X.shape[1]]), atol=2e-3)
    np.testing.assert_array_equal(got.support, np.abs(ref.params[1:1 + X.shape[1]]) > 1e-6)


@pytest.mark.parametrize("name", ["relieff", "svm-rfe", "ig"])
def test_the_other_selectors_score_each_resample_s_residuals(name):
    X, y, Z = _data(seed=2)
    covs = check_covariates(pd.DataFrame(Z, columns=["age", "sex"]), len(y), func="test")
    selector = get_selector(name)
    rows = np.random.default_rng(0).integers(0, len(y), len(y))
    got = CovariateAdjustedSelector(selector, covs).select_rows(None, X, y, rows,
                                                                 random_state=3)
    ref = selector.select(residualise(X[rows], Z[rows]), y[rows], random_state=3)
    for field in ("scores", "ranking", "support"):
        a, b = getattr(got, field), getattr(ref, field)
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("selector", ["svm-rfe", "anova", "l1-logistic", "ig"])
def test_a_gene_that_only_mirrors_age_leaves_the_top_10(selector):
    # the truth: age and gene x1 drive the class; gene x59 is age plus noise and nothing
    # else (placed last, so that no tie broken by column order favours it)
    rng = np.random.default_rng(1)
    n, p = 100, 60
    age = rng.normal(size=n)
    X = rng.normal(size=(n, p))
    X[:, p - 1] = age + 0.2 * rng.normal(size=n)
    y = (rng.random(n) < 1 / (1 + np.exp(-(2.0 * age + 1.2 * X[:, 1])))).astype(int)
    kw = dict(selector=selector, n_bootstraps=10, n_features=10, operators=["mostFreq"],
              progress=False)
    plain = mm.run(X, y, **kw).frequencies()["frequency"]
    adjusted = mm.run(X, y, covariates=pd.DataFrame({"age": age}), **kw)
    freq = adjusted.frequencies()["frequency"]
    assert plain[f"x{p - 1}"] == 1.0  # 10 of 10 top 10s without the covariate
    assert freq[f"x{p - 1}"] <= 0.1
    assert freq["x1"] >= 0.8  # the gene with its own effect stays
    assert f"{selector} (" in adjusted.data["covariates"]


def test_a_selector_that_cannot_take_them_is_named_in_a_warning():
    X, y, Z = _data(seed=3)

    def variance(Xr, yr):
        return np.asarray(Xr).var(axis=0)

    with pytest.warns(UserWarning, match=r"covariates age did not enter the fits of the "
                                         r"selector 'variance'"):
        run = mm.run(X, y, selector=variance, covariates=pd.DataFrame({"age": Z[:, 0]}),
                     n_bootstraps=4, n_features=3, operators=["mostFreq"], progress=False)
    assert "not variance" in run.data["covariates"]


def test_an_outcome_the_covariates_explain_exactly_is_refused_before_any_fit():
    rng = np.random.default_rng(4)
    n = 40
    X = rng.normal(size=(n, 6))
    age, sex = rng.normal(60, 8, n), rng.integers(0, 2, n)
    covs = pd.DataFrame({"age": age, "sex": sex})
    kw = dict(covariates=covs, n_bootstraps=4, progress=False)
    with pytest.raises(ValueError, match=r"'covariates'.*explain y exactly.*R2 = 1"):
        mm.run(X, 3 + 0.2 * age - sex, outcome="regression", **kw)
    with pytest.raises(ValueError, match=r"'covariates'.*classify every sample correctly"):
        mm.run(X, np.where(age + 5 * sex > 62, "a", "b"), selector="anova", **kw)
    survival = np.empty(n, dtype=SURVIVAL_DTYPE)
    survival["event"], survival["time"] = True, 100 - age  # the older, the sooner
    with pytest.raises(ValueError, match=r"'covariates'.*rank every event above"):
        mm.run(X, survival, outcome="survival", selector="cox-score", **kw)
    # a y that the covariates explain in part is taken
    noisy = (age + 5 * sex + rng.normal(0, 6, n) > 62).astype(int)
    mm.run(X, noisy, selector="anova", operators=["mostFreq"], n_features=3,
           covariates=covs, n_bootstraps=4, progress=False)
