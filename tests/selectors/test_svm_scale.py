"""The SVM selectors scale each resample to [0, 1] by default, as WEKA's SMO (issue 24).

Independent truths: scikit-learn's ``MinMaxScaler`` / ``MaxAbsScaler`` applied by hand
before our SVM-RFE; invariance of the ranking under a change of each feature's units (which
holds under min-max scaling and fails without it); and WEKA 3.6's ``SVMAttributeEval``
itself (skipped without WEKA, except in CI; its three answers from one JVM,
``tests/weka_batch.py``).
"""

from __future__ import annotations

import re

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.preprocessing import MaxAbsScaler, MinMaxScaler
from weka_batch import Arffs, Classify, Select, merits_of, run
from weka_oracle import RANKER, requires_weka

import modelmine as mm
from modelmine.selectors import get_selector, svm_rfe_ranking, svm_weights


def _raw_colon(p: int = 300) -> tuple[np.ndarray, np.ndarray]:
    """colon's log values made raw intensities (2^(x + 7): up to tens of thousands), one
    constant column."""
    X, y = mm.datasets.load("colon")
    X = np.exp2(np.asarray(X, dtype=np.float64)[:, :p] + 7.0)
    X[:, 5] = 1234.0
    return X, np.unique(y, return_inverse=True)[1]


@pytest.mark.parametrize("name", ["svm-rfe", "svm-rfe50", "svm"])
def test_default_equals_the_selector_on_minmax_scaled_data(name):
    X, y = _raw_colon()
    ours = get_selector(name).select(X, y, random_state=0)
    by_hand = get_selector(name, {"scale": "none"}).select(
        MinMaxScaler().fit_transform(X), y, random_state=0)
    if name == "svm":
        np.testing.assert_allclose(ours.scores, by_hand.scores, rtol=1e-12, atol=0)
        np.testing.assert_allclose(
            ours.scores, svm_weights(MinMaxScaler().fit_transform(X), y), rtol=1e-12)
    else:
        np.testing.assert_array_equal(ours.ranking, by_hand.ranking)


def test_scaling_is_fitted_on_the_resample_rows():
    # select_rows (what mm.bootstrap calls) scales X[rows] on the rows of the resample
    X, y = _raw_colon()
    rows = np.random.default_rng(0).choice(y.size, y.size)
    sel = get_selector("svm-rfe")
    out = sel.select_rows(sel.prepare(X, y), X, y, rows, random_state=0)
    expected = svm_rfe_ranking(MinMaxScaler().fit_transform(X[rows]), y[rows], C=0.5,
                               step=0.1, step_rule="remaining")
    np.testing.assert_array_equal(out.ranking, expected)


def test_ranking_does_not_depend_on_the_units():
    X, y = _raw_colon()
    units = np.random.default_rng(1).uniform(1e-3, 1e4, X.shape[1])
    shifted = X * units + 50.0
    default = get_selector("svm-rfe")
    a = default.select(X, y, random_state=0).ranking
    b = default.select(shifted, y, random_state=0).ranking
    top = lambda r: set(np.argsort(r)[:20])  # noqa: E731
    assert top(a) == top(b)
    assert np.mean(a == b) > 0.95
    none = get_selector("svm-rfe", {"scale": "none"})
    assert top(none.select(X, y, random_state=0).ranking) != top(
        none.select(shifted, y, random_state=0).ranking)


def test_sparse_is_divided_by_the_largest_absolute_value():
    X, y = mm.datasets.load("basehock")
    keep = np.sort(np.random.default_rng(0).choice(X.shape[0], 200, replace=False))
    X = sp.csr_matrix(X, dtype=np.float64)[keep][:, :600]
    y = np.unique(np.asarray(y)[keep], return_inverse=True)[1]
    ours = get_selector("svm-rfe", {"step": 0.2}).select(X, y, random_state=0).ranking
    expected = svm_rfe_ranking(MaxAbsScaler().fit_transform(X), y, C=0.5, step=0.2,
                               step_rule="remaining")
    np.testing.assert_array_equal(ours, expected)


def test_recorded_in_the_run_settings_and_replaced_by_a_run_level_scale():
    X, y = _raw_colon(60)
    base = mm.bootstrap(X, y, "svm-rfe", n_bootstraps=2, n_features=5, random_state=0)
    assert base.selector["params"]["scale"] == "minmax"
    spec = mm.RunSpec(selector="svm-rfe", scale="standard")
    (sel,) = spec.selectors
    assert sel.describe()["scale"] == "standard" and sel.selector.scale == "none"
    spec = mm.RunSpec(selector="svm-rfe", scale="standard",
                      selector_params={"scale": "minmax"})
    assert spec.selectors[0].selector.scale == "minmax"  # set explicitly: kept


def test_bad_scale_names_the_parameter():
    with pytest.raises(ValueError, match=r"The 'scale' parameter of SVMRFESelector must be"):
        get_selector("svm-rfe", {"scale": "zscore"})


def _three_class_leukemia() -> tuple[np.ndarray, np.ndarray]:
    X, y = mm.datasets.load("leukemia")
    X = np.asarray(X, dtype=np.float64)[:, :300]
    y = np.unique(y, return_inverse=True)[1]
    y[(y == 0) & (np.random.RandomState(1).rand(y.size) < 0.4)] = 2
    return X, y


SVM_ATTRIBUTE_EVAL = ("-C", "0.5", "-X", "50")


@pytest.fixture(scope="module")
def weka(tmp_path_factory) -> dict[str, str]:
    """What WEKA prints for the module's three questions, from one JVM: SVMAttributeEval
    under Ranker on raw colon and on three-class leukemia, SMO's model on raw colon."""
    arff = Arffs(tmp_path_factory.mktemp("svm-scale"))
    colon, leukemia = arff(*_raw_colon()), arff(*_three_class_leukemia())
    jobs = {
        "colon": Select(colon, "SVMAttributeEval", RANKER, SVM_ATTRIBUTE_EVAL),
        "smo": Classify(colon, "weka.classifiers.functions.SMO",
                        ("-C", "0.5", "-L", "1e-6", "-P", "1e-12", "-no-cv")),
        "leukemia": Select(leukemia, "SVMAttributeEval", RANKER, SVM_ATTRIBUTE_EVAL),
    }
    return dict(zip(jobs, run(list(jobs.values()))))


@requires_weka
def test_svm_rfe_default_equals_weka_svm_attribute_eval(weka):
    """WEKA's SVMAttributeEval (SMO, C = 0.5, attributes normalised, 50 removed per step)
    on raw intensities: our default scaling with the same step and a tight solver
    tolerance gives WEKA's ranking (up to near ties of the last SVMs)."""
    X, y = _raw_colon()
    weka = merits_of(weka["colon"], X.shape[1])
    ours = get_selector("svm-rfe", {"step": 50, "tol": 1e-9}).select(
        X, y, random_state=0).ranking
    weka_rank = np.empty(X.shape[1], dtype=int)
    weka_rank[np.argsort(-weka, kind="stable")] = np.arange(1, X.shape[1] + 1)
    assert set(np.flatnonzero(ours <= 20)) == set(np.flatnonzero(weka_rank <= 20))
    assert np.mean(ours == weka_rank) > 0.95
    unscaled = get_selector("svm-rfe", {"step": 50, "tol": 1e-9, "scale": "none"}).select(
        X, y, random_state=0).ranking
    assert np.mean(unscaled == weka_rank) < np.mean(ours == weka_rank)


@requires_weka
def test_svm_scores_equal_weka_smo_weights(weka):
    """"svm" (SVMONE) against WEKA's SMO (C = 0.5, attributes normalised, its default) on
    raw intensities: |w| equal to the four decimals SMO prints (solver tolerances tight on
    both sides)."""
    X, y = _raw_colon()
    out = weka["smo"]
    weka = np.zeros(X.shape[1])
    # lines like " +      -0.0244 * (normalized) f1"
    for m in re.finditer(r"^\s*\+?\s*(-?[\d.]+(?:E-?\d+)?)\s+\*\s+\(normalized\)\s+f(\d+)",
                         out, re.MULTILINE):
        weka[int(m.group(2))] = abs(float(m.group(1)))
    assert np.count_nonzero(weka) >= X.shape[1] - 1  # every weight printed (one constant)
    ours = get_selector("svm", {"tol": 1e-9}).select(X, y, random_state=0).scores
    np.testing.assert_allclose(ours, weka, rtol=0, atol=0.5e-4 + 1e-6)


@requires_weka
def test_multiclass_weka_rule_equals_svm_attribute_eval(weka):
    """More than two classes: ``multiclass="weka"`` (one binary elimination per class,
    features dealt in turn) gives SVMAttributeEval's ranking; the default sum over
    one-vs-one SVMs (scikit-learn's rule) does not."""
    X, y = _three_class_leukemia()
    weka = merits_of(weka["leukemia"], X.shape[1])
    weka_rank = np.empty(X.shape[1], dtype=int)
    weka_rank[np.argsort(-weka, kind="stable")] = np.arange(1, X.shape[1] + 1)
    params = {"step": 50, "tol": 1e-9}
    ours = get_selector("svm-rfe", {**params, "multiclass": "weka"}).select(
        X, y, random_state=0).ranking
    assert np.mean(ours == weka_rank) > 0.98
    assert set(np.flatnonzero(ours <= 20)) == set(np.flatnonzero(weka_rank <= 20))
    summed = get_selector("svm-rfe", params).select(X, y, random_state=0).ranking
    assert np.mean(summed == weka_rank) < 0.5
