"""The studies take the run's record (issue 48, item 2): ``spec=`` or ``run=`` plus only
what the study adds, their published defaults as named presets.

Truths: the presets' values are the defaults each study had before (a study called with
its old keywords gives what the same call with the preset's spec gives); a study of a
run equals the study called by hand with the run's selector and settings; a setting of
the run (here ``scale``, the covariates) reaches the refits; the studies that cannot
adjust for covariates refuse them by one check.
"""

from __future__ import annotations

import inspect

import numpy as np
import pandas as pd
import pytest

import modelmine as mm
from modelmine.evaluation import (
    compare_aggregations,
    evaluate_thresholds,
    grouping_effect,
    leave_one_group_out,
    selection_null,
)
from modelmine.singlecell import marker_panels
from modelmine.spec import PRESETS, RunSpec

#: Each study, its preset, and the keywords it had before the presets (their defaults).
STUDIES = {
    "evaluate": (mm.evaluate, "kdd2012", {"n_bootstraps": 150, "n_features": 20,
                                          "n_signatures": 10, "random_state": 0}),
    "evaluate_outcome": (mm.evaluation.evaluate_outcome, "study",
                         {"n_bootstraps": 50, "n_features": 20, "n_signatures": 10}),
    "selection_null": (selection_null, "stability-selection",
                       {"n_bootstraps": 50, "n_features": 20, "resampling": "subsample",
                        "sample_fraction": 0.5}),
    "evaluate_thresholds": (evaluate_thresholds, "pes2019",
                            {"n_bootstraps": 50, "random_state": 0}),
    "compare_aggregations": (compare_aggregations, "salman2022",
                             {"n_bootstraps": 50, "random_state": 0}),
    "grouping_effect": (grouping_effect, "study",
                        {"selector": "anova", "n_bootstraps": 50, "n_features": 20,
                         "random_state": 0}),
    "leave_one_group_out": (leave_one_group_out, "study",
                            {"n_bootstraps": 50, "n_features": 20, "random_state": 0}),
    "marker_panels": (marker_panels, "marker-panels",
                      {"selector": "wilcoxon", "n_bootstraps": 50, "n_features": 10,
                       "max_per_class": 500, "sample_fraction": 0.8, "random_state": 0}),
}


@pytest.mark.parametrize("name", sorted(STUDIES))
def test_every_study_keeps_its_published_defaults_as_a_preset(name):
    func, preset, before = STUDIES[name]
    params = inspect.signature(func).parameters
    for key, value in before.items():
        assert params[key].default == value, (name, key)
    for key, value in PRESETS[preset].values.items():
        # selection_null's selector=None: the base models' (else the preset's)
        if key in params and (name, key) != ("selection_null", "selector"):
            assert params[key].default == value, (name, key)
    assert "spec" in params
    assert ("run" in params) == (name != "marker_panels")


def _data():
    X, y = mm.datasets.load_colon()
    return X[:, :80], y


def test_a_study_of_a_run_is_the_study_of_its_settings_and_selector():
    X, y = _data()
    r = mm.run(X, y, selector="anova", scale="standard", n_bootstraps=4, n_features=5,
               operators=["mostFreq"], progress=False)
    # evaluate: the run's selector (as its spec builds it: scaled), operators, settings
    by_run = mm.evaluate(X, y, run=r, classifiers=["1nn"], n_folds=2, progress=False)
    by_hand = mm.evaluate(X, y, selectors={"anova": r.spec.selectors[0]},
                          operators=["mostFreq"], classifiers=["1nn"], n_folds=2,
                          spec=r.spec, progress=False)
    assert by_run.spec is r.spec
    assert by_run.settings["selectors"]["anova"]["scale"] == "standard"
    cols = ["operator", "classifier", "fold", "error", "features"]
    assert by_run.folds[cols].equals(by_hand.folds[cols])
    # the null of a run: its base models' resamples, its (scaled) selector
    null = selection_null(X, y, run=r, n_permutations=10, progress=False)
    again = selection_null(X, y, base=r.base_models, n_permutations=10, progress=False)
    assert np.array_equal(null.null_frequencies, again.null_frequencies)
    assert null.selector["scale"] == "standard"
    with pytest.raises(TypeError, match="'run' parameter of selection_null must be given "
                                        "alone"):
        selection_null(X, y, run=r, n_bootstraps=4, n_permutations=10)
    with pytest.raises(TypeError, match="'spec' parameter of evaluate must be given alone, "
                                        "without run="):
        mm.evaluate(X, y, run=r, spec=r.spec)


def test_a_preset_s_spec_gives_what_the_study_s_keywords_give():
    """The stability-selection preset is selection_null's default: its spec, given, is the
    same call; a setting of the spec (scale) reaches the refits and is recorded."""
    X, y = _data()
    kw = dict(n_permutations=10, progress=False)
    plain = selection_null(X, y, "anova", n_bootstraps=4, **kw)
    spec = PRESETS["stability-selection"].spec(selector="anova", n_bootstraps=4)
    assert np.array_equal(selection_null(X, y, spec=spec, **kw).null_frequencies,
                          plain.null_frequencies)
    assert plain.spec == spec.replace(operators=())  # the base models' own record
    scaled = selection_null(X, y, spec=spec.replace(scale="minmax"), **kw)
    assert scaled.selector["scale"] == "minmax" and scaled.spec.scale == "minmax"


def test_covariates_named_by_the_settings_reach_the_studies_that_adjust():
    """A spec naming covariates (columns of X) gives what the study given their values
    gives (the adjusted null and folds, checked against statsmodels in
    tests/pipeline/test_covariates.py); a run's reach its null through ``run=`` alone; the
    studies that cannot adjust refuse them by one check, before any fit."""
    rng = np.random.default_rng(3)
    n = 40
    X = pd.DataFrame(rng.normal(size=(n, 12)), columns=[f"g{j}" for j in range(12)])
    age = rng.normal(size=n)
    y = X["g0"].to_numpy() + age + rng.normal(size=n)
    Xa = X.assign(age=age)
    spec = RunSpec(selector="lasso", outcome="regression", covariates=["age"],
                   n_bootstraps=4, n_features=3, operators=["mostFreq"])
    kw = dict(n_permutations=10, progress=False)
    by_spec = selection_null(Xa, y, spec=spec, **kw)
    by_values = selection_null(X, y, spec=spec.replace(covariates=()),
                               covariates=Xa[["age"]], **kw)
    assert np.array_equal(by_spec.null_frequencies, by_values.null_frequencies)
    assert by_spec.selector["covariates"] == ["age"] and by_spec.spec.covariates == ("age",)
    r = mm.run(Xa, y, spec=spec, progress=False)
    assert np.array_equal(
        selection_null(X.to_numpy(), y, run=r, **kw).null_frequencies,
        selection_null(X.to_numpy(), y, base=r.base_models, covariates=r.covariates,
                       **kw).null_frequencies)
    folds = mm.evaluation.evaluate_outcome(Xa, y, "regression", spec=spec, n_folds=2,
                                           progress=False).folds
    assert folds.equals(mm.evaluation.evaluate_outcome(
        X, y, "regression", spec=spec.replace(covariates=()), covariates=Xa[["age"]],
        n_folds=2, progress=False).folds)
    with pytest.raises(ValueError, match=r"'covariates' parameter of evaluate must be "
                                         r"names among the columns of X"):
        mm.evaluate(X, y, spec=spec)  # the settings name a column X does not hold
    labels = np.where(y > np.median(y), "high", "low")
    refused = RunSpec(selector="anova", covariates=["age"], n_bootstraps=4)
    for call in (lambda: evaluate_thresholds(Xa, labels, spec=refused),
                 lambda: compare_aggregations(Xa, labels, spec=refused)):
        with pytest.raises(ValueError, match=r"'spec' parameter of \w+ must be settings "
                                             r"without covariates.*adjusted for age"):
            call()
    with pytest.raises(ValueError, match=r"'spec' parameter of bootstrap must be settings "
                                         r"without covariates"):
        mm.bootstrap(Xa, labels, spec=refused)
