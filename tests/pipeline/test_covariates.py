"""Clinical covariates, low-dimensional tables and oriented concordance (issue 39, item 3).

Oracles: statsmodels' PHReg (Cox, Breslow ties: coefficients and standard errors; the
adjusted score test against its score and Hessian: ``tests/kernels/``), scikit-survival's
CoxPHSurvivalAnalysis and concordance_index_censored, statsmodels' OLS and Logit, and a
simulation with a known confounder. The data: scikit-survival's whas500 (shipped with it).
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import modelmine as mm
from modelmine.outcomes import SURVIVAL_DTYPE, cox_fit, logistic_fit

pytest.importorskip("sksurv")
sm = pytest.importorskip("statsmodels.api")
from statsmodels.duration.hazard_regression import PHReg  # noqa: E402


def _whas500():
    from sksurv.datasets import load_whas500

    X, y = load_whas500()
    X = X.apply(lambda c: c.astype(float) if c.dtype.name == "category" else c)
    return X, y


def _firth_by_optimiser(inside, M, *, interval=True):
    """Firth's estimate and its profile penalised-likelihood 95 % interval of the first
    column of M (with an intercept), by scipy's general optimiser: the oracle of the
    adjusted odds ratios (the logistf equivalence is tests/kernels/test_firth.py's).
    ``interval=False``: the estimate alone (the interval's lower end is None), without the
    profile's root search (a minimisation at each step)."""
    from scipy.optimize import brentq, minimize
    from scipy.special import expit

    D = np.column_stack([np.ones(len(inside)), M])

    def negative(b):
        eta = D @ b
        w = expit(eta) * (1 - expit(eta))
        return -float((inside * eta - np.logaddexp(0, eta)).sum()
                      + 0.5 * np.linalg.slogdet((D * w[:, None]).T @ D)[1])

    top = minimize(negative, np.zeros(D.shape[1]), method="BFGS", options={"gtol": 1e-9})

    def profile(t):
        def at(rest):
            return negative(np.r_[rest[0], t, rest[1:]])
        best = minimize(at, np.delete(top.x, 1), method="BFGS", options={"gtol": 1e-9})
        return 2 * (best.fun - top.fun) - 3.841458820694124

    beta = top.x[1]
    if not interval:
        return beta, None
    low = brentq(profile, beta - 4, beta, xtol=1e-9)
    return beta, low


def _surv(event, time):
    y = np.empty(len(event), dtype=SURVIVAL_DTYPE)
    y["event"], y["time"] = event, time
    return y


def test_cox_fit_equals_statsmodels_and_scikit_survival():
    from sksurv.linear_model import CoxPHSurvivalAnalysis

    X, y = _whas500()
    M = X[["age", "hr", "bmi", "gender"]].to_numpy()
    beta, cov = cox_fit(M, y["fstat"], y["lenfol"])
    ref = PHReg(y["lenfol"], M, status=y["fstat"].astype(int), ties="breslow").fit()
    np.testing.assert_allclose(beta, ref.params, rtol=1e-6)
    np.testing.assert_allclose(np.sqrt(np.diag(cov)), ref.bse, rtol=1e-6)
    sk = CoxPHSurvivalAnalysis(ties="breslow").fit(M, y).coef_
    np.testing.assert_allclose(beta, sk, rtol=1e-5)


def test_logistic_fit_equals_statsmodels():
    X, _ = _whas500()
    yy = X["gender"].to_numpy()
    M = X[["age", "bmi", "hr"]].to_numpy()
    beta, cov = logistic_fit(M, yy)
    ref = sm.Logit(yy, sm.add_constant(M)).fit(disp=0)
    np.testing.assert_allclose(beta, ref.params, rtol=1e-6)
    np.testing.assert_allclose(np.sqrt(np.diag(cov)), ref.bse, rtol=1e-6)


def test_survival_run_with_covariates_reports_adjusted_hazard_ratios(tmp_path):
    from sksurv.linear_model import CoxPHSurvivalAnalysis

    X, y = _whas500()
    run = mm.run(X, y, outcome="survival", covariates=["age", "gender"], n_bootstraps=12,
                 progress=False, run_dir=tmp_path / "run")
    assert list(run.base_models.feature_names) == [c for c in X.columns
                                                   if c not in ("age", "gender")]
    assert run.settings["covariates"] == ["age", "gender"]
    record = json.loads((tmp_path / "run" / "run.json").read_text())
    assert record["settings"]["covariates"] == ["age", "gender"]
    assert "age, gender" in record["data"]["covariates"]
    markers = run.markers().set_index("feature")
    assert set(markers.effect_measure) == {"log_hazard_ratio_per_sd_adjusted"}
    Z = X[["age", "gender"]].to_numpy()
    for name, row in markers.iterrows():
        x = X[name].to_numpy()
        z = (x - x.mean()) / x.std()
        M = np.column_stack([z, Z])
        coef = CoxPHSurvivalAnalysis(ties="breslow").fit(M, y).coef_[0]
        ref = PHReg(y["lenfol"], M, status=y["fstat"].astype(int), ties="breslow").fit()
        assert row["hazard_ratio"] == pytest.approx(np.exp(coef), rel=1e-5)
        low = np.exp(ref.params[0] - 1.959963984540054 * ref.bse[0])
        assert row["hr_low"] == pytest.approx(low, rel=1e-6)
        assert row["p_value"] == pytest.approx(ref.pvalues[0], rel=1e-5, abs=1e-300)
    loaded = mm.MiningRun.load(tmp_path / "run")
    pd.testing.assert_frame_equal(loaded.markers(), run.markers())
    html = (tmp_path / "run" / "report.html").read_text()
    assert "age, gender: adjusted for" in html


@pytest.mark.parametrize("selector", ["cox-score", "coxnet"])
def test_a_confounder_is_adjusted_away(selector):
    # age drives both the hazard and gene 0; gene 1 has its own effect. Unadjusted, gene 0
    # looks prognostic; adjusted for age it is not.
    rng = np.random.default_rng(3)
    n, p = 300, 12
    age = rng.normal(size=n)
    X = rng.normal(size=(n, p))
    X[:, 0] = age + 0.3 * rng.normal(size=n)
    t = rng.exponential(1.0, n) / np.exp(1.0 * age + 0.8 * X[:, 1])
    c = rng.exponential(2.0, n)
    y = _surv(t <= c, np.minimum(t, c))
    kw = dict(outcome="survival", selector=selector, n_bootstraps=10, n_features=2,
              operators=["mostFreq"], progress=False)
    plain = mm.run(X, y, **kw).frequencies()
    adjusted = mm.run(X, y, covariates=pd.DataFrame({"age": age}), **kw).frequencies()
    assert plain.loc["x0", "frequency"] >= 0.9
    assert adjusted.loc["x1", "frequency"] >= 0.9
    assert adjusted.loc["x0", "frequency"] <= 0.3


def test_regression_markers_are_the_ols_coefficient_with_the_covariates():
    rng = np.random.default_rng(1)
    n = 120
    frame = pd.DataFrame(rng.normal(size=(n, 30)), columns=[f"g{j}" for j in range(30)])
    frame["age"] = rng.normal(60, 10, n)
    frame["stage"] = rng.choice(["I", "II", "III"], n)
    y = 2 * frame.g0 - frame.g1 + 0.1 * frame.age + (frame.stage == "III") + rng.normal(
        size=n)
    run = mm.run(frame, y.to_numpy(), outcome="regression", selector="lasso",
                 covariates=["age", "stage"], n_bootstraps=10, n_features=5,
                 progress=False)
    assert run.covariates.columns.tolist() == ["age", "stage=II", "stage=III"]
    design = pd.get_dummies(frame[["age", "stage"]], drop_first=True, dtype=float)
    markers = run.markers().set_index("feature")
    assert {"g0", "g1"} <= set(markers.index)
    for name, row in markers.iterrows():
        gene = frame[name].to_numpy()
        standardised = (gene - gene.mean()) / gene.std()  # the slope is per SD (ddof 0)
        fit = sm.OLS(y.to_numpy(), sm.add_constant(
            np.column_stack([standardised, design.to_numpy()]))).fit()
        assert row["slope"] == pytest.approx(fit.params[1], rel=1e-8)
        assert row["p_value"] == pytest.approx(fit.pvalues[1], rel=1e-6, abs=1e-300)
    # without covariates: the slope of y on the standardised gene too
    unadjusted = mm.diagnostics.outcome_marker_table(frame[["g0", "g1"]], y.to_numpy(),
                                                     "regression").set_index("feature")
    for name in ("g0", "g1"):
        gene = frame[name].to_numpy()
        fit = sm.OLS(y.to_numpy(), sm.add_constant((gene - gene.mean()) / gene.std())).fit()
        assert unadjusted.loc[name, "slope"] == pytest.approx(fit.params[1], rel=1e-10)


def test_classification_markers_carry_odds_ratios_adjusted_for_the_covariates():
    X, y = mm.datasets.load_colon()
    rng = np.random.default_rng(0)
    covariates = pd.DataFrame({"age": rng.normal(60, 8, len(y)),
                               "sex": rng.choice(["f", "m"], len(y))})
    run = mm.run(X[:, :200], y, selector="anova", covariates=covariates, n_bootstraps=8,
                 n_features=5, operators=["mostFreq"], progress=False)
    markers = run.markers()
    first = markers.iloc[0]
    gene = run.expression[first["feature"]].to_numpy()
    inside = (run.expression["class"].to_numpy() == first["class"]).astype(float)
    M = np.column_stack([(gene - gene.mean()) / gene.std(), covariates.age,
                         covariates.sex == "m"]).astype(float)
    beta, low = _firth_by_optimiser(inside, M)
    assert first["adjusted_odds_ratio"] == pytest.approx(np.exp(beta), rel=1e-5)
    assert first["adjusted_or_low"] == pytest.approx(np.exp(low), rel=1e-5)
    # Firth's estimate is the maximum likelihood one shrunk towards 0
    ml = sm.Logit(inside, sm.add_constant(M)).fit(disp=0)
    assert abs(beta) < abs(ml.params[1])
    assert "anova (the analysis of covariance" in run.data["covariates"]


@pytest.mark.parametrize("covariates, message", [
    (pd.DataFrame({"age": [np.nan] + [50.0] * 499}), "1 missing value.*'age'"),
    (["nope"], "names among the columns of X.*Got 'nope'"),
    (pd.DataFrame({"site": ["a"] * 500}), "covariates that vary.*'site'"),
    (pd.DataFrame({"age": np.arange(10.0)}), "one row per sample"),
])
def test_bad_covariates_are_refused_at_the_door(covariates, message):
    X, y = _whas500()
    with pytest.raises((ValueError, TypeError), match=message):
        mm.run(X, y, outcome="survival", covariates=covariates, n_bootstraps=4,
               progress=False)


def test_a_survival_selector_that_cannot_adjust_is_refused_before_any_fit():
    X, y = _whas500()
    with pytest.raises(ValueError, match=r"covariates.*cox-score, coxnet.*boosted-cox"):
        mm.run(X, y, outcome="survival", selector="boosted-cox", covariates=["age"],
               n_bootstraps=4, progress=False)


def test_low_dimensional_default_m_and_no_artefact_caution():
    X, y = _whas500()
    run = mm.run(X, y, outcome="survival", selector="cox-score", n_bootstraps=10,
                 progress=False)
    assert run.settings["n_features"] == round(14 / 3)  # the default adapts to p = 14
    assert "round(p / 3)" in run.data["m"]
    # an m the user sets is kept (capped at p), and the stability of models holding every
    # variable is called uninformative, not poor
    with pytest.warns(UserWarning, match="n_features=20 is above"):
        full = mm.run(X, y, outcome="survival", selector="cox-score", n_bootstraps=10,
                      n_features=20, progress=False)
    assert full.settings["n_features"] == 14
    found = full.warnings()
    assert any("Stability is not informative" in w for w in found)
    assert not any("poor band" in w for w in found)


def test_clinical_values_are_not_called_intensities():
    X, y = _whas500()
    run = mm.run(X, y, outcome="survival", selector="cox-score", n_bootstraps=4,
                 progress=False)
    assert "raw intensities" not in run.data["values"]
    assert run.data["values"].startswith("14 variables on their own scales")


def test_concordance_is_oriented_by_the_direction():
    from sksurv.metrics import concordance_index_censored

    X, y = _whas500()
    run = mm.run(X, y, outcome="survival", selector="cox-score", n_bootstraps=4,
                 n_features=14, operators=["mostFreq"], progress=False)
    markers = run.markers().set_index("feature")
    assert (markers.concordance >= 0.5 - 1e-12).all()
    for name, row in markers.iterrows():
        x = X[name].to_numpy()
        sign = 1.0 if row["direction"] == "risk" else -1.0
        c = concordance_index_censored(y["fstat"], y["lenfol"], sign * x)[0]
        assert row["concordance"] == pytest.approx(c, rel=1e-12)
    assert markers.loc["bmi", "direction"] == "protective"


def test_cli_covariate_columns_with_text_are_adjusted_for(tmp_path, report_page_left_out):
    from modelmine.cli import main

    X, y = _whas500()
    table = X.copy()
    table["sex"] = table.pop("gender").map({0.0: "male", 1.0: "female"})
    table["time"], table["dead"] = y["lenfol"], y["fstat"].astype(int)
    table.to_csv(tmp_path / "whas.csv", index=False)
    out = tmp_path / "run"
    assert main(["run", str(tmp_path / "whas.csv"), "--outcome", "survival", "--time",
                 "time", "--event", "dead", "--covariate", "age", "--covariate", "sex",
                 "-s", "cox-score", "-b", "4", "--out", str(out), "--quiet"]) == 0
    run = mm.MiningRun.load(out)
    assert "age" not in run.base_models.feature_names
    assert "sex" not in run.base_models.feature_names
    assert run.covariates.columns.tolist() == ["age", "sex=male"]
    assert run.settings["n_features"] == round(12 / 3)  # -m not given: adapted to p = 12
    record = json.loads((out / "run.json").read_text())
    assert record["data"]["read_options"]["covariates"] == ["age", "sex"]
    with pytest.raises(mm.exceptions.DataError, match=r"--covariate .nope. is not a column"):
        from modelmine.datasets import read_data

        read_data(tmp_path / "whas.csv", "time", outcome="survival", event="dead",
                  covariates=["nope"])


def test_per_class_markers_carry_odds_ratios_adjusted_for_the_covariates():
    # each class's panel: the class against the rest on the gene (per SD) and the
    # covariates, as statsmodels' Logit fits it
    rng = np.random.default_rng(1)
    n, p, K = 90, 30, 3
    y = np.repeat(np.arange(K), n // K)
    X = rng.normal(size=(n, p))
    for k in range(K):
        X[y == k, 3 * k:3 * k + 3] += 1.2
    covariates = pd.DataFrame({"age": rng.normal(60, 8, n) + 2 * y,
                               "site": rng.choice(["a", "b", "c"], n)})
    labels = np.array([f"c{k}" for k in y])
    run = mm.run(X, labels, selector="anova", per_class=True, covariates=covariates,
                 n_bootstraps=6, n_features=4, operators=["mostFreq"], progress=False)
    markers = run.markers()
    assert set(markers.panel) == {"per_class"}
    assert markers["adjusted_odds_ratio"].notna().all()
    design = pd.get_dummies(covariates, drop_first=True, dtype=float).to_numpy()
    for _, row in markers.iloc[:2].iterrows():
        gene = run.expression[row["feature"]].to_numpy()
        inside = (labels == row["class"]).astype(float)
        M = np.column_stack([(gene - gene.mean()) / gene.std(), design])
        beta, low = _firth_by_optimiser(inside, M)
        assert row["adjusted_odds_ratio"] == pytest.approx(np.exp(beta), rel=1e-5)
        assert row["adjusted_or_low"] == pytest.approx(np.exp(low), rel=1e-5)
    # the dot plot's colours are those adjusted effects too, for every gene in every class
    effect, _ = run.marker_grid()
    for gene in effect.index[:1]:
        values = run.expression[gene].to_numpy()
        M = np.column_stack([(values - values.mean()) / values.std(), design])
        for cls in effect.columns:
            beta, _ = _firth_by_optimiser((labels == cls).astype(float), M, interval=False)
            assert effect.loc[gene, cls] == pytest.approx(beta, rel=1e-5)


@pytest.mark.parametrize("outcome", ["regression", "classification"])
def test_a_resume_with_other_covariate_values_is_refused_naming_the_covariate(
        outcome, tmp_path, monkeypatch, page_left_out):
    import modelmine.pipeline._run as run_module

    rng = np.random.default_rng(2)
    n = 60
    X = rng.normal(size=(n, 12))
    y = X[:, 0] + rng.normal(size=n) if outcome == "regression" else np.repeat([0, 1], n // 2)
    covariates = pd.DataFrame({"age": rng.normal(60, 8, n),
                               "sex": rng.choice(["f", "m"], n)})
    kw = dict(outcome=outcome, selector="lasso" if outcome == "regression" else "anova",
              n_bootstraps=6, n_features=3, operators=["mostFreq"], progress=False,
              n_jobs=1)
    whole = mm.run(X, y, covariates=covariates, **kw)

    def boom(*args, **kwargs):
        raise RuntimeError("killed after the bootstraps")

    monkeypatch.setattr(run_module, "apply_operators", boom)
    with pytest.raises(RuntimeError, match="killed"):
        mm.run(X, y, covariates=covariates, run_dir=tmp_path / "w", **kw)
    monkeypatch.undo()
    older = covariates.assign(age=covariates.age + 1.0)  # the same names, other values
    with pytest.raises(mm.exceptions.DataError, match=r"covariate_values\.age is"):
        mm.resume(tmp_path / "w", X, y, covariates=older)
    relabelled = covariates.assign(sex=covariates.sex.map({"f": "m", "m": "f"}))
    with pytest.raises(mm.exceptions.DataError, match=r"covariate_values\.sex is"):
        mm.resume(tmp_path / "w", X, y, covariates=relabelled)
    with page_left_out():
        resumed = mm.resume(tmp_path / "w", X, y, covariates=covariates)  # the same: resumes
    assert resumed == whole


def test_the_null_of_an_adjusted_selection_needs_the_covariates_and_keeps_their_effect(
        monkeypatch):
    from modelmine.evaluation import selection_null
    from modelmine.evaluation._null import make_covariate_null

    rng = np.random.default_rng(4)
    n = 50
    X = rng.normal(size=(n, 10))
    age = rng.normal(size=n)
    y = X[:, 0] + age + rng.normal(size=n)
    covariates = pd.DataFrame({"age": age})
    run = mm.run(X, y, outcome="regression", selector="lasso", covariates=covariates,
                 n_bootstraps=4, n_features=3, operators=["mostFreq"], progress=False,
                 n_jobs=1)
    import modelmine.evaluation._null as null_module

    with monkeypatch.context() as m:
        m.setattr(null_module, "bootstrap", None)  # any fit would fail otherwise
        with pytest.raises(ValueError, match=r"'covariates' parameter of selection_null.*"
                                             r"adjusted for \(age"):
            selection_null(X, y, base=run.base_models, n_permutations=20)
        with pytest.raises(ValueError, match=r"'covariates' parameter of selection_null.*"
                                             r"\(age\)"):
            selection_null(X, y, base=run.base_models, n_permutations=20,
                           covariates=pd.DataFrame({"height": age}))
    # Freedman-Lane: the draws keep y's fitted part on the covariates and permute the rest
    draw = make_covariate_null(age[:, None], y, "regression")
    fit = sm.OLS(y, sm.add_constant(age)).fit()
    np.testing.assert_allclose(draw.fitted, fit.fittedvalues, rtol=1e-10)
    one = draw.draw(y, np.random.default_rng(0))
    np.testing.assert_allclose(np.sort(one - fit.fittedvalues), np.sort(fit.resid),
                               rtol=1e-9, atol=1e-12)
    # classes: each drawn from the logistic model of the classes on the covariates
    labels = (age + rng.normal(size=n) > 0).astype(np.int64)
    parametric = make_covariate_null(age[:, None], labels, "classification")
    ref = sm.Logit(labels, sm.add_constant((age - age.mean()) / age.std())).fit(disp=0)
    np.testing.assert_allclose(parametric.probabilities[:, 1], ref.predict(), atol=1e-6)
    null = selection_null(X, y, base=run.base_models, n_permutations=10,
                          covariates=run.covariates)
    assert null.selector["covariates"] == ["age"]
    X2, y2 = _whas500()
    with pytest.raises(ValueError, match=r"'covariates'.*classification or regression"):
        selection_null(X2.drop(columns=["age"]), y2, "cox-score", outcome="survival",
                       covariates=X2[["age"]], n_permutations=10)


def test_cli_null_and_evaluate_with_covariates_run_adjusted(tmp_path, capsys,
                                                             report_page_left_out):
    from modelmine.cli import main

    rng = np.random.default_rng(5)
    n = 48
    age = rng.normal(size=n)
    table = pd.DataFrame(rng.normal(size=(n, 16)), columns=[f"g{j}" for j in range(16)])
    table["g7"] = age + 0.2 * rng.normal(size=n)  # mirrors age only
    table["age"] = age
    table["cls"] = np.where(1.5 * age + 1.5 * table.g0 + rng.normal(size=n) > 0, "a", "b")
    table.to_csv(tmp_path / "t.csv", index=False)
    out = tmp_path / "run"
    assert main(["run", str(tmp_path / "t.csv"), "--target", "cls", "--covariate", "age",
                 "-s", "anova", "-b", "6", "-m", "2", "--operator", "mostFreq",
                 "--null", "10", "--evaluate", "--n-folds", "3", "--out", str(out),
                 "--quiet"]) == 0
    null = pd.read_csv(out / "null.csv", index_col="feature")
    assert set(null.index) == {f"g{j}" for j in range(16)}  # age is not a gene
    evaluation = pd.read_csv(out / "evaluation.csv")
    assert {"mostFreq", "nobagg"} <= set(evaluation.operator)
    frequency = mm.MiningRun.load(out).frequencies()["frequency"]
    assert frequency["g7"] < 0.2 and frequency["g0"] == 1.0  # g7 adjusted away
    # modelmine evaluate --covariate: the folds' selections adjusted too (the contrast
    # with unadjusted folds: test_evaluate_fits_each_fold_adjusted_for_its_covariates)
    assert main(["evaluate", str(tmp_path / "t.csv"), "--target", "cls", "-s", "anova",
                 "-b", "4", "-m", "2", "--operator", "mostFreq", "--n-folds", "3",
                 "--quiet", "--covariate", "age", "--out", str(tmp_path / "ev")]) == 0
    adjusted = pd.read_csv(tmp_path / "ev" / "folds.csv")
    assert adjusted.features.str.contains("g0").all()
    assert not adjusted.features.str.contains("g7").any()


def test_the_error_control_check_of_an_adjusted_run_is_adjusted_and_names_x():
    """check_error_control refits the run's settings, covariates included: from the
    columns of X, or, for data without them, the run's own values (the same check); a run
    without its values is refused naming X and the columns, not the run's door."""
    import dataclasses

    from modelmine.evaluation import check_error_control

    X, y = _whas500()
    run = mm.run(X, y, outcome="survival", selector="cox-score", covariates=["age"],
                 n_bootstraps=6, operators=["mostFreq"], progress=False)
    checked = check_error_control(run, X, y, pfer=1.0)
    assert checked.run.spec.covariates == ("age",)
    assert "age" not in set(checked.run.base_models.feature_names)
    by_run = check_error_control(run, X.drop(columns=["age"]), y, pfer=1.0)
    assert by_run.table.equals(checked.table)
    without = dataclasses.replace(run, covariates=None)  # a run that lost their values
    for bad in (X.drop(columns=["age"]), X.to_numpy(dtype=float)):
        with pytest.raises(ValueError, match=r"'X' parameter of check_error_control.*'age'"):
            check_error_control(without, bad, y, pfer=1.0)


def test_evaluate_fits_each_fold_adjusted_for_its_covariates():
    rng = np.random.default_rng(6)
    n = 60
    age = rng.normal(size=n)
    X = rng.normal(size=(n, 12))
    X[:, 11] = age + 0.2 * rng.normal(size=n)  # mirrors age only
    y = age + X[:, 0] + 0.5 * rng.normal(size=n)
    kw = dict(outcome="regression", selectors=["pearson"], operators=["mostFreq"],
              n_folds=3, n_bootstraps=4, n_features=2)
    plain = mm.evaluate(X, y, **kw).signatures
    adjusted = mm.evaluate(X, y, covariates=pd.DataFrame({"age": age}), **kw).signatures
    assert all("x11" in sig.names for sig in plain.values())
    # adjusted, x11 is noise: at most the chance of one of 11 noise genes for the
    # second place (it takes it once in the 6 signatures of this seed)
    assert sum("x11" in sig.names for sig in adjusted.values()) <= 1
    assert all("x0" in sig.names for sig in adjusted.values())
    # a selector that cannot take them is refused before the first fold, naming it
    X2, y2 = _whas500()
    with pytest.raises(ValueError, match=r"covariates.*cox-score, coxnet.*boosted-cox"):
        mm.evaluate(X2.drop(columns=["age"]), y2, outcome="survival",
                    selectors=["boosted-cox"], covariates=X2[["age"]], n_folds=3,
                    n_bootstraps=4)
