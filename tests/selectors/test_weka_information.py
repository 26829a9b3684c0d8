"""The MDL-based selectors and OneR against real WEKA 3.6, the oracle of issue 24.

WEKA's attribute evaluators (``InfoGainAttributeEval``, ``SymmetricalUncertAttributeEval``,
``ChiSquaredAttributeEval``, ``GainRatioAttributeEval``, ``OneRAttributeEval``) are built on
the same data, and every feature's score is read at full precision, as
``weka_oracle.attribute_scores`` reads it (the module's questions all asked of one JVM,
``tests/weka_batch.py``, at the first test that needs them): ours must equal
WEKA's to 1e-12 (relative) on the shared microarrays (a bounded number of columns; every column in
``benchmarks/bench_weka_information.py``), on multiclass, three-level, tied and count data,
and on bootstrap resamples (repeated rows) through the shared-resample route. OneR equals
WEKA to the last bit, cross-validation included. The tests skip when WEKA is absent, except
under ``MODELMINE_REQUIRE_WEKA=1`` (CI), where they fail.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from weka_batch import Arffs, Scores, Select, run, scores_of, subset_of
from weka_oracle import requires_weka

import modelmine as mm
from modelmine.selectors import (
    gain_ratio,
    get_selector,
    information_gain,
    oner_scores,
    symmetrical_uncertainty,
)

pytestmark = requires_weka

SEED = 24


def _chi2(X, y, better_encoding=True):
    """The statistic of the "chi2" selector (MDL codes, then the contingency tables)."""
    selector = get_selector("chi2", {"better_encoding": better_encoding})
    return selector.select(X, y, random_state=0).scores


# evaluator -> (our scores, WEKA's options)
EVALUATORS = {
    "InfoGainAttributeEval": information_gain,
    "SymmetricalUncertAttributeEval": symmetrical_uncertainty,
    "ChiSquaredAttributeEval": _chi2,
    "GainRatioAttributeEval": gain_ratio,
}


def _labels(y) -> np.ndarray:
    return np.unique(np.asarray(y), return_inverse=True)[1].astype(np.int64)


def _case(name: str) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(SEED)
    if name in ("colon", "leukemia", "prostate"):
        X, y = mm.datasets.load(name)
        X = np.asarray(X, dtype=np.float64)
        cols = rng.choice(X.shape[1], 300, replace=False)
        return X[:, cols], _labels(y)
    if name == "four-class":
        X, y = mm.datasets.load("leukemia")
        y = _labels(y)
        y[(y == 0) & (rng.random(y.size) < 0.4)] = 2
        y[(y == 1) & (rng.random(y.size) < 0.4)] = 3
        return np.asarray(X, dtype=np.float64)[:, :300], y
    if name == "counts":  # word counts: few distinct values, most of them 0
        X, y = mm.datasets.load("basehock")
        rows = np.sort(rng.choice(X.shape[0], 400, replace=False))
        X = sp.csr_matrix(X)[rows][:, :800].toarray().astype(np.float64)
        keep = np.flatnonzero((X > 0).sum(axis=0) >= 3)[:250]
        return X[:, keep], _labels(y)[rows]
    # "ties": -1/0/1 calls with constant and duplicated columns, three classes
    y = np.repeat([0, 1, 2], [25, 20, 15])
    X = np.clip(np.round(rng.normal(size=(60, 120)) + 0.8 * y[:, None] * rng.random(120)),
                -1, 1)
    X[:, 0] = 1.0
    X[:, 1] = X[:, 2]
    return X, y


CASES = ["colon", "leukemia", "prostate", "four-class", "counts", "ties"]
ONER_OPTIONS = (
    ((), {}),
    (("-D",), {"folds": None}),
    (("-S", "7", "-F", "5", "-B", "3"), {"folds": 5, "random_state": 7, "min_bucket_size": 3}),
)
BEST_FIRST = "weka.attributeSelection.BestFirst -D 1 -N 5"
BOOTSTRAPPED = (("ig", "InfoGainAttributeEval"), ("su", "SymmetricalUncertAttributeEval"),
                ("chi2", "ChiSquaredAttributeEval"))


def _bootstrap_rows(y: np.ndarray) -> np.ndarray:
    return np.random.default_rng(SEED).choice(y.size, y.size)


def _hand_example() -> tuple[np.ndarray, np.ndarray]:
    """A class copy, a second copy and an independent feature."""
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    X = np.stack([y, y, [0, 1, 0, 1, 0, 1, 0, 1]], axis=1).astype(np.float64)
    return X, y


def _user_labels(labels: str) -> tuple[np.ndarray, np.ndarray]:
    X, y = _case("colon")
    lab = np.where(y == 0, "normal", "tumour") if labels == "strings" else np.where(y, 1, -1)
    return X[:, :120], lab


@pytest.fixture(scope="module")
def weka(tmp_path_factory) -> dict:
    """WEKA's answer to every question of this module, keyed by question, from one JVM
    (``weka_batch.run``: one ``java`` process instead of one per question, each question
    on its own ARFF file and a new evaluator, as separate runs)."""
    arff = Arffs(tmp_path_factory.mktemp("weka-information"))
    jobs: dict[tuple, Scores | Select] = {}
    for case in CASES:
        X, y = _case(case)
        for evaluator in EVALUATORS:
            jobs["mdl", case, evaluator] = Scores(arff(X, y), evaluator)
        if case != "prostate":
            for options, _ in ONER_OPTIONS:
                jobs["oner", case, options] = Scores(arff(X[:, :150], y), "OneRAttributeEval",
                                                     options)
    X, y = _case("ties")
    rows = _bootstrap_rows(y)
    for _, evaluator in BOOTSTRAPPED:
        jobs["bootstrap", evaluator] = Scores(arff(X[rows], y[rows]), evaluator)
    for options in ((), ("-L",)):
        for name, X, y in _cfs_cases():
            jobs["cfs", name, options] = Select(arff(X, y), "CfsSubsetEval", BEST_FIRST,
                                                options)
        jobs["hand", options] = Select(arff(*_hand_example()), "CfsSubsetEval", BEST_FIRST,
                                       options)
    for labels in ("strings", "minus-one-one"):
        X, lab = _user_labels(labels)
        for evaluator in ("InfoGainAttributeEval", "OneRAttributeEval"):
            jobs["labels", labels, evaluator] = Scores(arff(X, lab), evaluator)
        jobs["labels", labels, "cfs"] = Select(arff(X, lab), "CfsSubsetEval", BEST_FIRST)
    return dict(zip(jobs, run(list(jobs.values()))))


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("evaluator", sorted(EVALUATORS))
def test_mdl_scores_equal_weka(weka: dict, case: str, evaluator: str) -> None:
    X, y = _case(case)
    scores = scores_of(weka["mdl", case, evaluator], X.shape[1])
    np.testing.assert_allclose(EVALUATORS[evaluator](X, y), scores, rtol=1e-12, atol=1e-12)


def test_better_encoding_is_what_makes_the_difference(weka: dict) -> None:
    """Without WEKA's "better encoding" (N - 1 candidate cuts in the MDL cost) the scores
    part from WEKA's on tied data (colon's three levels): that is the option we follow."""
    X, y = _case("colon")
    weka = scores_of(weka["mdl", "colon", "InfoGainAttributeEval"], X.shape[1])
    plain = information_gain(X, y, better_encoding=False)
    assert np.sum(np.abs(plain - weka) > 1e-9) > 10
    np.testing.assert_allclose(information_gain(X, y), weka, rtol=1e-12, atol=1e-12)


def test_bootstrap_resamples_equal_weka(weka: dict) -> None:
    """The shared-resample route (``select_rows``) on bootstrap rows, repeated rows
    included, equals WEKA run on the resample written out row by row."""
    X, y = _case("ties")
    rows = _bootstrap_rows(y)
    for name, evaluator in BOOTSTRAPPED:
        sel = get_selector(name)
        ours = sel.select_rows(sel.prepare(X, y), X, y, rows, random_state=0).scores
        scores = scores_of(weka["bootstrap", evaluator], X.shape[1])
        np.testing.assert_allclose(ours, scores, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("case", ["colon", "leukemia", "four-class", "counts", "ties"])
def test_oner_equals_weka_bit_for_bit(weka: dict, case: str) -> None:
    """OneR: WEKA's default (10-fold cross-validation, seed 1, bucket 6), its training-set
    accuracy (``-D``) and other seeds, folds and bucket sizes, exactly."""
    X, y = _case(case)
    X = X[:, :150]
    for options, kwargs in ONER_OPTIONS:
        scores = scores_of(weka["oner", case, options], X.shape[1])
        np.testing.assert_array_equal(oner_scores(X, y, **kwargs), scores)


# ------------------------------------------------------------------------------------ CFS


def _cfs_cases():
    rng = np.random.default_rng(SEED)
    for name in ("colon", "leukemia", "prostate", "four-class", "counts", "ties"):
        X, y = _case(name)
        yield name, X, y
        rows = rng.choice(y.size, y.size)  # a bootstrap: repeated rows
        if np.unique(y[rows]).size == np.unique(y).size:
            yield f"{name}-bootstrap", X[rows], y[rows]
    # Issue 24's synthetic set: 5 informative features, 5 near-copies, 200 noise
    n = 100
    y = rng.integers(0, 2, n)
    informative = rng.normal(size=(n, 5)) + 1.2 * y[:, None]
    X = np.hstack([informative, informative + rng.normal(scale=0.3, size=(n, 5)),
                   rng.normal(size=(n, 200))])
    yield "synthetic", X, y


@pytest.mark.parametrize("locally_predictive", [True, False])
def test_cfs_subsets_equal_weka(weka: dict, locally_predictive: bool) -> None:
    """``CfsSubsetEval`` (+ ``-L``: without locally predictive features) with ``BestFirst``:
    the very subset WEKA selects, on every case and a bootstrap of each."""
    options = () if locally_predictive else ("-L",)
    sel = get_selector("cfs", {"locally_predictive": locally_predictive})
    for name, X, y in _cfs_cases():
        ours = np.flatnonzero(sel.select(X, y, random_state=0).support).tolist()
        assert ours == subset_of(weka["cfs", name, options]), name


def test_cfs_hand_example_equals_weka(weka: dict) -> None:
    """A class copy, a second copy and an independent feature: WEKA keeps the copy as
    locally predictive (its SU with the class is not below its SU with the first)."""
    X, y = _hand_example()
    assert subset_of(weka["hand", ()]) == [0, 1]
    assert subset_of(weka["hand", ("-L",)]) == [0]
    for lp, expected in ((True, [0, 1]), (False, [0])):
        sel = get_selector("cfs", {"locally_predictive": lp})
        assert np.flatnonzero(sel.select(X, y, random_state=0).support).tolist() == expected


@pytest.mark.parametrize("labels", ["strings", "minus-one-one"])
def test_labels_as_strings_or_signs_equal_weka(weka: dict, labels: str) -> None:
    """Class labels as users have them go through the selectors' door (sorted distinct
    values become the codes, WEKA's nominal order in the ARFF written here)."""
    X, lab = _user_labels(labels)
    for name, evaluator in (("ig", "InfoGainAttributeEval"), ("oner", "OneRAttributeEval")):
        scores = scores_of(weka["labels", labels, evaluator], X.shape[1])
        ours = get_selector(name).select(X, lab, random_state=1).scores
        np.testing.assert_allclose(ours, scores, rtol=1e-12, atol=1e-12)
    weka_set = subset_of(weka["labels", labels, "cfs"])
    assert np.flatnonzero(get_selector("cfs").select(X, lab, random_state=0).support
                          ).tolist() == weka_set


def test_a_single_class_scores_zero_as_information_says():
    """A resample with one class: the class entropy is 0, so IG, SU, chi2 and gain ratio
    are 0 for every feature (WEKA's evaluators give the same); CFS and the SVMs, which
    need two classes, refuse it naming the selector."""
    X, _ = _case("ties")
    y = np.zeros(X.shape[0], dtype=np.int64)
    for name in ("ig", "su", "chi2", "gainratio"):
        assert not get_selector(name).select(X, y, random_state=0).scores.any()
    for name in ("cfs", "svm-rfe", "svm", "svm-rfe50"):
        with pytest.raises(ValueError, match=rf"of the {name} selector must be two or more"):
            get_selector(name).select(X, y, random_state=0)
