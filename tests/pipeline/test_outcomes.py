"""Continuous and survival outcomes through the whole flow (issue 27).

Oracles: planted features in data made for the test (which genes drive y is known), scipy's
Spearman correlation, scikit-survival's Cox model and its breast cancer set, and
invariants (strata sizes, reproducibility across workers, save / load round trips).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import modelmine as mm
from modelmine.cli import main
from modelmine.outcomes import SURVIVAL_DTYPE, check_outcome

sksurv = pytest.importorskip("sksurv")


def _planted(n=90, p=60, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = 3 * X[:, 0] + 2 * X[:, 1] - 2 * X[:, 2] + rng.normal(size=n)
    return X, y


def _survival(n=120, p=40, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    risk = 1.2 * X[:, 0] - 1.0 * X[:, 1]
    t = rng.exponential(1.0, n) / np.exp(risk)
    c = rng.exponential(2.0, n)
    y = np.empty(n, dtype=SURVIVAL_DTYPE)
    y["event"], y["time"] = t <= c, np.minimum(t, c)
    return X, y


def test_regression_strata_are_quantile_bins():
    y = np.arange(100.0)
    out = check_outcome(y, "regression", func="run")
    assert out.strata_labels.tolist() == ["Q1", "Q2", "Q3", "Q4", "Q5"]
    assert np.bincount(out.strata).tolist() == [20, 20, 20, 20, 20]
    assert (np.diff(out.strata[np.argsort(y)]) >= 0).all()  # bins follow the values


def test_survival_strata_are_the_event_indicator():
    _, y = _survival()
    out = check_outcome(y, "survival", func="run")
    assert (out.strata == y["event"]).all()
    assert out.values.dtype == SURVIVAL_DTYPE


@pytest.mark.parametrize(("y", "outcome", "message"), [
    (np.array([1.0, np.nan, 3.0, 4.0]), "regression", "finite numbers"),
    (np.array([1.0, np.inf, 3.0, 4.0]), "regression", "finite numbers"),
    (np.ones(6), "regression", "a target that varies"),
    (np.array(["a", "b"]), "regression", "numbers for outcome='regression'"),
    (np.arange(5.0), "survival", "structured array of the event"),
])
def test_bad_targets_are_refused_naming_y(y, outcome, message):
    with pytest.raises((ValueError, TypeError), match=message) as info:
        check_outcome(y, outcome, func="run")
    assert "'y' parameter of run" in str(info.value)


@pytest.mark.parametrize(("event", "time", "message"), [
    ([True, False, True], [1.0, -2.0, 3.0], "non-negative, finite times"),
    ([True, False, True], [1.0, np.nan, 3.0], "non-negative, finite times"),
    ([False, False, False], [1.0, 2.0, 3.0], "at least two events"),
    ([2, 0, 1], [1.0, 2.0, 3.0], "booleans or 0/1"),
])
def test_bad_survival_targets_are_refused(event, time, message):
    y = np.zeros(3, dtype=[("status", np.asarray(event).dtype), ("days", "f8")])
    y["status"], y["days"] = event, time
    with pytest.raises(ValueError, match=message):
        check_outcome(y, "survival", func="run")


def test_regression_run_finds_the_planted_genes():
    X, y = _planted()
    for selector in ("pearson", "lasso"):
        run = mm.run(X, y, outcome="regression", selector=selector, n_bootstraps=30,
                     n_features=5, operators=["mostFreq"], progress=False)
        assert {0, 1, 2} <= set(run.signatures["mostFreq"].features.tolist()), selector
        assert run.settings["outcome"] == "regression"
        assert run.base_models.selector["outcome"] == "regression"


def test_default_selector_follows_the_outcome():
    spec = mm.RunSpec(outcome="regression", n_bootstraps=4, n_features=3)
    assert spec.selector == "lasso"
    assert mm.RunSpec(outcome="survival").selector == "coxnet"
    assert mm.RunSpec().selector == "svm-rfe"


def test_regression_markers_follow_spearman():
    from scipy.stats import spearmanr

    X, y = _planted()
    run = mm.run(X, y, outcome="regression", selector="pearson", n_bootstraps=20,
                 n_features=5, operators=["mostFreq"], progress=False)
    markers = run.markers()
    for _, row in markers.iterrows():
        j = int(str(row["feature"])[1:])
        rho = spearmanr(X[:, j], y)[0]
        assert row["effect_size"] == pytest.approx(rho, abs=1e-12)
        assert row["direction"] == ("up" if rho >= 0 else "down")
    assert markers.set_index("feature").loc["x2", "direction"] == "down"


def test_survival_markers_hazard_ratios_equal_scikit_survival():
    from sksurv.linear_model import CoxPHSurvivalAnalysis

    X, y = _survival()
    run = mm.run(X, y, outcome="survival", selector="cox-score", n_bootstraps=20,
                 n_features=4, operators=["mostFreq"], progress=False)
    assert {0, 1} <= set(run.signatures["mostFreq"].features.tolist())
    markers = run.markers().set_index("feature")
    for name, row in markers.iterrows():
        x = X[:, int(str(name)[1:])]
        z = (x - x.mean()) / x.std()
        coef = CoxPHSurvivalAnalysis(ties="breslow").fit(z[:, None], y).coef_[0]
        assert row["hazard_ratio"] == pytest.approx(np.exp(coef), rel=1e-6)
        assert row["hr_low"] < row["hazard_ratio"] < row["hr_high"]
    assert markers.loc["x0", "direction"] == "risk"
    assert markers.loc["x1", "direction"] == "protective"


def test_outcome_runs_save_and_load(tmp_path):
    X, y = _survival(n=80, p=20)
    run = mm.run(X, y, outcome="survival", selector="cox-score", n_bootstraps=10,
                 n_features=4, progress=False)
    run.save(tmp_path / "run", report=False)  # the files are under test, not the page
    loaded = mm.MiningRun.load(tmp_path / "run")
    assert loaded.outcome == "survival"
    assert list(loaded.expression.columns[:2]) == ["time", "event"]
    pd.testing.assert_frame_equal(loaded.markers(), run.markers(), check_dtype=False)
    gmt = (tmp_path / "run" / "markers.gmt").read_text()
    assert "closedApr_risk" in gmt or "closedApr_protective" in gmt
    spec = mm.RunSpec.from_settings(loaded.settings)
    assert spec.outcome == "survival"


def test_outcome_runs_do_not_depend_on_workers():
    X, y = _planted(n=50, p=30)
    one = mm.bootstrap(X, y, selector="lasso", outcome="regression", n_bootstraps=6,
                       n_features=4, n_jobs=1, progress=False, stratify=True)
    two = mm.bootstrap(X, y, selector="lasso", outcome="regression", n_bootstraps=6,
                       n_features=4, n_jobs=2, progress=False, stratify=True)
    assert (one.subsets == two.subsets).all()
    assert (one.sample_indices == two.sample_indices).all()


def test_stratified_regression_keeps_each_quantile_bin():
    X, y = _planted(n=100, p=10)
    strata = check_outcome(y, "regression", func="run").strata
    base = mm.bootstrap(X, y, selector="pearson", outcome="regression", n_bootstraps=5,
                        n_features=3, stratify=True, progress=False)
    for i in range(base.n_models):
        rows = base.resample(i)
        assert np.bincount(strata[rows], minlength=5).tolist() == np.bincount(strata).tolist()


def test_classification_only_settings_are_refused():
    X, y = _planted(n=40, p=10)
    with pytest.raises(ValueError, match=r"per_class.*outcome='classification'"):
        mm.RunSpec(outcome="regression", per_class=True)
    with pytest.raises(ValueError, match=r"selector for outcome='regression'.*Got 'anova'"):
        mm.run(X, y, outcome="regression", selector="anova", n_bootstraps=4)
    with pytest.raises(ValueError, match="'outcome' parameter of RunSpec"):
        mm.RunSpec(outcome="ordinal")


def _breast_cancer_csv(path):
    from sksurv.datasets import load_breast_cancer

    X, y = load_breast_cancer()
    table = X.select_dtypes("number").copy()
    table.insert(0, "patient", [f"p{i:03d}" for i in range(len(table))])
    table.insert(1, "days", y["t.tdm"])
    table.insert(2, "relapse", y["e.tdm"].astype(int))
    table.to_csv(path, index=False)
    return X.select_dtypes("number"), y


@pytest.mark.slow
def test_breast_cancer_end_to_end_through_the_cli(tmp_path):
    # scikit-survival's breast cancer set (198 patients, 76 genes + clinical values):
    # the CLI reads the times and events from columns, runs the Cox path, and its markers'
    # hazard ratios equal scikit-survival's univariate Cox models.
    from sksurv.linear_model import CoxPHSurvivalAnalysis

    data = tmp_path / "bc.csv"
    X, y = _breast_cancer_csv(data)
    out = tmp_path / "run"
    assert main(["run", str(data), "--outcome", "survival", "--time", "days", "--event",
                 "relapse", "-b", "20", "-m", "8", "--out", str(out), "--quiet"]) == 0
    settings = mm.MiningRun.load(out).settings
    assert settings["outcome"] == "survival" and settings["selector"] == "coxnet"
    markers = pd.read_csv(out / "markers.csv")
    assert not markers.empty and {"hazard_ratio", "hr_low", "hr_high"} <= set(markers)
    for _, row in markers.head(3).iterrows():
        x = X[row["feature"]].to_numpy(dtype=float)
        z = (x - x.mean()) / x.std()
        coef = CoxPHSurvivalAnalysis(ties="breslow").fit(z[:, None], y).coef_[0]
        assert row["hazard_ratio"] == pytest.approx(np.exp(coef), rel=1e-6)
    html = (out / "report.html").read_text()
    assert "log-rank p" in html and "hazard ratio" in html


@pytest.fixture(scope="module")
def bad_outcome_csv(tmp_path_factory):
    """The breast cancer table with an event column that is neither 0/1 nor boolean (ER:
    0 or 2), written once for the refusals below (which read it, never write it)."""
    data = tmp_path_factory.mktemp("outcome-refusals") / "bc.csv"
    _breast_cancer_csv(data)
    table = pd.read_csv(data)
    table.insert(3, "ER", np.where(np.arange(len(table)) % 2, 2, 0))
    table.to_csv(data, index=False)
    return data


@pytest.mark.parametrize(("options", "message"), [
    (["--outcome", "survival", "--time", "days"], "needs --time COLUMN and --event"),
    (["--time", "days", "--event", "relapse"], "add --outcome survival"),
    (["--outcome", "survival", "--time", "days", "--event", "ER"], "0/1 or booleans"),
    (["--target", "days", "--outcome", "survival", "--time", "days", "--event", "relapse"],
     "instead of --target"),
    (["--outcome", "survival", "--time", "days", "--event", "relapse", "-s", "svm-rfe"],
     "selector for outcome='survival'"),
    (["--target", "days"], "--outcome regression"),
])
def test_cli_refuses_bad_outcome_options(bad_outcome_csv, tmp_path, capsys, options,
                                         message):
    code = main(["run", str(bad_outcome_csv), *options, "-b", "4",
                 "--out", str(tmp_path / "out"), "--quiet"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert message in err
    assert not (tmp_path / "out").exists()


def test_cli_regression_with_a_non_numeric_target_is_refused(tmp_path, capsys):
    X, y = _planted(n=30, p=5)
    table = pd.DataFrame(X, columns=[f"g{i}" for i in range(5)])
    table.insert(0, "response", np.where(np.arange(30) % 3, y.round(3).astype(str), "pending"))
    table.to_csv(tmp_path / "d.csv", index=False)
    code = main(["run", str(tmp_path / "d.csv"), "--outcome", "regression", "--target",
                 "response", "-b", "4", "--out", str(tmp_path / "out"), "--quiet"])
    assert code == 2
    assert "must hold finite numbers for --outcome regression" in capsys.readouterr().err


def test_cli_evaluate_regression_writes_the_paired_differences(tmp_path):
    X, y = _planted(n=60, p=12)
    table = pd.DataFrame(X, columns=[f"g{i}" for i in range(12)])
    table.insert(0, "response", y)
    table.to_csv(tmp_path / "d.csv", index=False)
    out = tmp_path / "ev"
    assert main(["evaluate", str(tmp_path / "d.csv"), "--outcome", "regression", "--target",
                 "response", "-s", "pearson", "-o", "mostFreq", "-b", "6", "-m", "3",
                 "--n-folds", "3", "--out", str(out), "--quiet"]) == 0
    folds = pd.read_csv(out / "folds.csv")
    assert set(folds.operator) == {"mostFreq", "nobagg"} and folds.r2.mean() > 0.5
    paired = pd.read_csv(out / "paired_differences.csv")
    assert paired.loc[0, "n_samples"] == 60


def test_permutation_null_of_a_regression_run_permutes_the_values():
    # The null refits the selector on permuted values: the planted genes beat every
    # permutation, the noise genes do not (their p-values spread over (0, 1]).
    X, y = _planted(n=60, p=30)
    base = mm.bootstrap(X, y, selector="pearson", outcome="regression", n_bootstraps=10,
                        n_features=3, progress=False)
    null = mm.evaluation.selection_null(X, y, base=base, n_permutations=20, pooled=False)
    p = np.asarray(null.p_values)
    assert (p[:3] == 1 / 21).all()
    assert np.median(p[3:]) > 0.5


def test_heterogeneous_ensemble_of_regression_selectors():
    X, y = _planted(n=60, p=20)
    base = mm.bootstrap(X, y, selector=["pearson", "lasso"], outcome="regression",
                        n_bootstraps=4, n_features=5, progress=False)
    assert base.n_models == 8 and base.selector["outcome"] == "regression"
    assert {0, 1, 2} <= set(np.flatnonzero(base.subsets.mean(axis=0) >= 0.5).tolist())


def test_survival_from_anndata_obs_columns(tmp_path):
    anndata = pytest.importorskip("anndata")
    X, y = _survival(n=60, p=15)
    obs = pd.DataFrame({"days": y["time"], "relapse": y["event"]},
                       index=[f"c{i}" for i in range(60)])
    adata = anndata.AnnData(X=X, obs=obs)
    adata.var_names = [f"g{j}" for j in range(15)]
    adata.write_h5ad(tmp_path / "cells.h5ad")
    data = mm.datasets.read_data(tmp_path / "cells.h5ad", "obs:days", outcome="survival",
                                 event="obs:relapse")
    assert data.y.dtype == SURVIVAL_DTYPE
    assert (data.y["time"] == y["time"]).all() and (data.y["event"] == y["event"]).all()
    run = mm.run(data, outcome="survival", selector="cox-score", n_bootstraps=6,
                 n_features=3, progress=False)
    assert run.outcome == "survival" and "g0" in set(run.frequencies().index[:3])


def test_review_fixes_estimators_and_edge_cases():
    from sklearn.linear_model import Lasso
    from sksurv.linear_model import CoxnetSurvivalAnalysis

    X, y = _survival(n=150, p=10)
    est = CoxnetSurvivalAnalysis(l1_ratio=0.9, alphas=np.geomspace(0.5, 0.01, 10))
    run = mm.run(X, y, outcome="survival", selector=est, n_bootstraps=6, n_features=2,
                 operators=["mostFreq"], progress=False)
    assert set(run.signatures["mostFreq"].features.tolist()) == {0, 1}
    # a regressor on class labels works as before outcomes existed
    Xc, yc = mm.datasets.load_colon()
    assert mm.bootstrap(Xc, yc, selector=Lasso(alpha=0.05), n_bootstraps=2, n_features=3,
                        progress=False).n_models == 2
    # svr-rfe with a single feature
    rng = np.random.default_rng(0)
    one = mm.bootstrap(rng.normal(size=(30, 1)), rng.normal(size=30), outcome="regression",
                       n_bootstraps=4, n_features=1, progress=False)
    assert one.subsets.all()


def test_review_fixes_refusals_and_groups():
    X, y = _planted(n=60, p=10)
    groups = np.repeat(np.arange(20), 3)
    base = mm.bootstrap(X, y, selector="pearson", outcome="regression", groups=groups,
                        stratify=True, n_bootstraps=4, n_features=3, progress=False)
    assert base.resampling["groups"] == 20
    with pytest.raises(ValueError, match="values are not nearly all equal"):
        mm.bootstrap(X, np.r_[np.zeros(59), 1.0], selector="pearson", outcome="regression",
                     n_bootstraps=4, n_features=2)
    Xs, ys = _survival(n=40, p=5)
    ys["event"] = False
    ys["event"][0] = True
    with pytest.raises(ValueError, match="at least two events"):
        mm.run(Xs, ys, outcome="survival", selector="cox-score", n_bootstraps=4)
    with pytest.raises(ValueError, match="single-model operators"):
        mm.evaluate(X, y, outcome="regression", selectors="pearson", operators=["allMed"],
                    n_folds=2, n_bootstraps=4)
    ev = mm.evaluate(X, y, outcome="regression", selectors="pearson", operators="mostFreq",
                     n_folds=2, n_bootstraps=4, n_features=3)
    assert set(ev.folds.operator) == {"mostFreq", "nobagg"}
    null = mm.evaluation.selection_null(X, y, selector="pearson", outcome="regression",
                                         n_bootstraps=4, n_features=3, n_permutations=10,
                                         pooled=False)
    # the three planted genes beat every unplanted one (with 4 models and 10 permutations a
    # planted gene ties a null draw often enough that 1/11 is not guaranteed)
    assert null.p_values[:3].max() <= 2 / 11 < null.p_values[3:].min()
    named = pd.DataFrame(X, columns=["outcome", *[f"g{i}" for i in range(9)]])
    with pytest.raises(ValueError, match="'feature_names' parameter of run"):
        mm.run(named, y, outcome="regression", selector="pearson", n_bootstraps=4)
