"""The KDD'12 evaluation protocol (Woznica, Nguyen and Kalousis 2012, section 3).

Invariants on small settings on the colon data: no leakage of test samples into selection,
results that recompute from scratch with scikit-learn, determinism whatever the executor,
cache reuse, the shapes of the tables and the points sums, and bad inputs.
"""

from __future__ import annotations

import itertools
import warnings
from typing import ClassVar

import numpy as np
import pandas as pd
import pytest
from sklearn.feature_selection import f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MinMaxScaler
from sklearn.svm import SVC

import modelmine as mm
from modelmine.evaluation import EvaluationResult, IBkClassifier, evaluate
from modelmine.selectors import Selector, SelectorOutput

SMALL = dict(n_folds=3, n_bootstraps=10, n_features=10, n_signatures=4, random_state=7,
             progress=False)
OPS = ["avgRank", "mostFreq", "closedApr", "allMed"]


class RecordingSelector(Selector):
    """ANOVA F scores that record which rows of the original data each fit was given.

    Rows are recognised by their bytes (the 62 colon rows are distinct), so the record is
    independent of how the protocol slices and copies the data.
    """

    name = "recording"
    kind = "scores"
    calls: ClassVar[list[np.ndarray]] = []
    lookup: ClassVar[dict[bytes, int]] = {}

    @classmethod
    def reset(cls, X: np.ndarray) -> None:
        cls.calls = []
        cls.lookup = {np.ascontiguousarray(row, dtype=np.float64).tobytes(): i
                      for i, row in enumerate(X)}

    def select(self, X, y, *, random_state):
        rows = np.array([type(self).lookup[np.ascontiguousarray(r).tobytes()]
                         for r in np.asarray(X)])
        type(self).calls.append(rows)
        with warnings.catch_warnings():  # colon has a constant gene: F is NaN there
            warnings.simplefilter("ignore")
            scores, _ = f_classif(X, y)
        return SelectorOutput(scores=np.nan_to_num(scores))


@pytest.fixture(scope="module")
def small(colon):
    X, y, names = colon
    return evaluate(X, y, selectors=["anova", "relieff"], operators=OPS,
                    classifiers=["svm", "1nn"], feature_names=names, n_jobs=1, **SMALL)


# ---------------------------------------------------------------- leakage and folds
def test_folds_are_stratified_partitions(small, colon):
    _, y, _ = colon
    tests = np.concatenate([te for _, te in small.fold_indices])
    assert np.array_equal(np.sort(tests), np.arange(y.size))  # each sample tested once
    for train, test in small.fold_indices:
        assert np.intersect1d(train, test).size == 0
        assert train.size + test.size == y.size
        # stratified: each class's share in the test part within one sample of its share
        for c in np.unique(y):
            expected = (y == c).mean() * test.size
            assert abs((y[test] == c).sum() - expected) <= 1
    # the same folds as scikit-learn's StratifiedKFold would give are not required, but
    # every selector, operator and classifier uses the same test part in a fold:
    per = small.predictions.groupby(["selector", "operator", "classifier", "signature",
                                     "fold"])["sample"].apply(lambda s: tuple(sorted(s)))
    for (_, _, _, _, f), samples in per.items():
        assert samples == tuple(sorted(small.fold_indices[f][1]))


def test_selection_only_sees_training_rows(colon):
    X, y, _ = colon
    RecordingSelector.reset(X)
    res = evaluate(X, y, selectors={"rec": RecordingSelector()}, operators=["avgRank"],
                   classifiers=["svm"], n_jobs=1, **SMALL)
    calls = RecordingSelector.calls
    # b bootstrap fits and one full (nobagg) fit per fold
    assert len(calls) == SMALL["n_folds"] * (SMALL["n_bootstraps"] + 1)
    per_fold = SMALL["n_bootstraps"] + 1
    for f, (train, test) in enumerate(res.fold_indices):
        fold_calls = calls[f * per_fold:(f + 1) * per_fold]
        for rows in fold_calls:
            assert np.isin(rows, train).all()
            assert not np.isin(rows, test).any()
        # the full (nobagg) fit is exactly the training part; bootstraps draw from it
        assert any(np.array_equal(np.sort(rows), np.sort(train)) for rows in fold_calls)


# ------------------------------------------------- recomputed from scratch (oracle)
def test_nobagg_signature_and_error_recompute_with_sklearn(small, colon):
    X, y, _ = colon
    m = SMALL["n_features"]
    for f, (train, test) in enumerate(small.fold_indices):
        scores, _ = f_classif(X[train], y[train])
        top = np.argsort(-scores, kind="stable")[:m]
        sig = small.signatures[("anova", "nobagg", f)]
        assert set(sig.features.tolist()) == set(top.tolist())
        for name, model in (("svm", make_pipeline(MinMaxScaler(), SVC(kernel="linear",
                                                                      C=0.5))),
                            ("1nn", IBkClassifier())):  # WEKA's: test_ibk_weka.py
            pred = model.fit(X[train][:, sig.features], y[train]).predict(
                X[test][:, sig.features])
            row = small.folds[(small.folds.selector == "anova")
                              & (small.folds.operator == "nobagg")
                              & (small.folds.classifier == name) & (small.folds.fold == f)]
            assert row.error.item() == pytest.approx(np.mean(pred != y[test]))


def test_stability_is_brute_force_jaccard_over_folds(small):
    st = small.stability()
    for _, row in st.iterrows():
        sets = [set(small.signatures[(row.selector, row.operator, f)].features.tolist())
                for f in range(SMALL["n_folds"])]
        brute = np.mean([len(a & b) / len(a | b) for a, b in itertools.combinations(sets, 2)])
        assert row.jaccard == pytest.approx(brute)
        assert row.nogueira_low <= row.nogueira <= row.nogueira_high
        # equal sizes: Nogueira's estimator equals Kuncheva's index (Nogueira et al. 2018)
        assert row.nogueira == pytest.approx(row.kuncheva)


def test_multi_model_agreement_and_diversity_brute_force(small):
    k_rows = small.folds[small.folds.operator == "allMed"]
    assert not k_rows.empty and k_rows.agreement.notna().all()
    for _, row in k_rows.iterrows():
        sigs = small.signatures[(row.selector, "allMed", row.fold)]
        sets = [set(s.features.tolist()) for s in sigs]
        sim = np.mean([len(a & b) / len(a | b) for a, b in itertools.combinations(sets, 2)])
        assert row.diversity == pytest.approx(sim)
        pr = small.predictions[(small.predictions.selector == row.selector)
                               & (small.predictions.operator == "allMed")
                               & (small.predictions.classifier == row.classifier)
                               & (small.predictions.fold == row.fold)]
        P = np.vstack([g.sort_values("sample").y_pred.to_numpy()
                       for _, g in pr.groupby("signature")])
        agree = np.mean([np.mean(P[i] == P[j])
                         for i, j in itertools.combinations(range(len(P)), 2)])
        assert row.agreement == pytest.approx(agree)
        errs = [np.mean(~g.correct.to_numpy()) for _, g in pr.groupby("signature")]
        assert row.error == pytest.approx(np.mean(errs))
    single = small.folds[small.folds.kind == "single"]
    assert single.agreement.isna().all() and single.diversity.isna().all()


# ----------------------------------------------------------------- tables and points
def test_shapes_of_frames_and_tables(small):
    n_ops, n_single = 5, 4  # nobagg is added
    assert isinstance(small, EvaluationResult)
    assert len(small.folds) == 2 * n_ops * 2 * SMALL["n_folds"]
    assert list(small.folds.operator.unique()) == ["nobagg", *OPS]
    n_sig = small.folds.groupby(["selector", "operator", "classifier"]).n_signatures.sum()
    assert len(small.predictions) == (n_sig * 62 / SMALL["n_folds"]).round().sum()
    assert small.stability().shape[0] == 2 * n_single
    t2 = small.to_frame("table2")
    assert list(t2.index) == ["nobagg", *OPS[:3]]
    assert list(t2.columns) == ["error_points", "stability_points", "error", "stability",
                                "n_selectors"]
    t4 = small.to_frame("table4")
    assert list(t4.index) == [("allMed", "anova"), ("allMed", "relieff")]
    assert {"svm_agreement_mean", "1nn_error_std", "similarity_mean"} <= set(t4.columns)
    rob = small.robustness_table()
    assert rob.shape == (4, 5)
    assert ((rob[["jc5", "jc1", "accuracy", "rpt"]] >= 0) & (rob[["jc5", "jc1", "accuracy",
                                                                  "rpt"]] <= 1)).all().all()


@pytest.mark.parametrize("error_test", ["mcnemar", "ttest"])
@pytest.mark.parametrize("stability_test", ["ttest", "nogueira"])
def test_points_sum_to_n_choose_2_per_selector(small, error_test, stability_test):
    pts = small.points(error_test=error_test, stability_test=stability_test)
    for _, g in pts.groupby("selector"):
        n = len(g)
        assert g.error_points.sum() == pytest.approx(n * (n - 1) / 2)
        assert g.stability_points.sum() == pytest.approx(n * (n - 1) / 2)
        assert g.error_points.between(0, n - 1).all()
    avg = small.to_frame("table2", error_test=error_test, stability_test=stability_test)
    assert avg.error_points.sum() == pytest.approx(len(avg) * (len(avg) - 1) / 2)


def test_points_follow_mcnemar_on_pooled_predictions(small):
    # Independent check of one pair: two operators, the exact McNemar p-value by scipy.
    from scipy.stats import binomtest

    pts = small.points(operators=["nobagg", "avgRank"])
    for sel, g in pts.groupby("selector"):
        pr = small.predictions[(small.predictions.selector == sel)
                               & (small.predictions.classifier == "svm")]
        a = pr[pr.operator == "nobagg"].sort_values("sample").correct.to_numpy()
        b = pr[pr.operator == "avgRank"].sort_values("sample").correct.to_numpy()
        n_a, n_b = int((a & ~b).sum()), int((~a & b).sum())
        p = binomtest(n_a, n_a + n_b, 0.5).pvalue if n_a + n_b else 1.0
        expected = 0.5 if p >= 0.05 else float(n_a > n_b)
        assert g.set_index("operator").error_points["nobagg"] == expected


def test_operator_that_cannot_run_is_reported(colon):
    X, y, _ = colon
    # geomMean needs non-negative scores; ReliefF gives negative ones.
    res = evaluate(X, y, selectors=["relieff"], operators=["geomMean"], classifiers=["svm"],
                   n_jobs=1, **SMALL)
    assert set(res.skipped.operator) == {"geomMean"}
    assert len(res.skipped) == SMALL["n_folds"]
    assert set(res.folds.operator) == {"nobagg"}


# ----------------------------------------------------- determinism, executors, cache
@pytest.mark.slow
def test_deterministic_and_equal_across_n_jobs(colon, small):
    X, y, names = colon
    again = evaluate(X, y, selectors=["anova", "relieff"], operators=OPS,
                     classifiers=["svm", "1nn"], feature_names=names, n_jobs=2, **SMALL)
    _assert_same(small, again)


@pytest.mark.slow
def test_dask_local_cluster_gives_identical_results(colon, small):
    distributed = pytest.importorskip("distributed")
    X, y, names = colon
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        on_dask = evaluate(X, y, selectors=["anova", "relieff"], operators=OPS,
                           classifiers=["svm", "1nn"], feature_names=names,
                           executor=client, **SMALL)
    _assert_same(small, on_dask)


def _assert_same(a: EvaluationResult, b: EvaluationResult) -> None:
    pd.testing.assert_frame_equal(a.folds, b.folds)
    pd.testing.assert_frame_equal(a.predictions, b.predictions)
    pd.testing.assert_frame_equal(a.robustness_folds, b.robustness_folds)
    pd.testing.assert_frame_equal(a.tasks.drop(columns="seconds"),
                                  b.tasks.drop(columns="seconds"))
    assert a.signatures.keys() == b.signatures.keys()
    for key in a.signatures:
        assert a.signatures[key].to_dict() == b.signatures[key].to_dict()


def test_other_seed_changes_folds(colon, small):
    X, y, _ = colon
    other = evaluate(X, y, selectors=["anova"], operators=["avgRank"], classifiers=["svm"],
                     n_jobs=1, **{**SMALL, "random_state": 8})
    assert any(not np.array_equal(t1, t2) for (_, t1), (_, t2)
               in zip(small.fold_indices, other.fold_indices, strict=True))


def test_cache_reuses_base_models(colon, tmp_path):
    X, y, _ = colon
    RecordingSelector.reset(X)
    kw = dict(selectors={"rec": RecordingSelector()}, classifiers=["svm"], n_jobs=1,
              cache_dir=tmp_path, **SMALL)
    first = evaluate(X, y, operators=["avgRank"], **kw)
    n_fits = len(RecordingSelector.calls)
    assert n_fits == SMALL["n_folds"] * (SMALL["n_bootstraps"] + 1)
    assert not first.tasks.cached.any()
    assert len(list(tmp_path.glob("*.npz"))) == SMALL["n_folds"]
    second = evaluate(X, y, operators=["avgRank", "closedApr"], **kw)
    assert len(RecordingSelector.calls) == n_fits  # the selector was not called again
    assert second.tasks.cached.all()
    shared = second.folds[second.folds.operator.isin(["nobagg", "avgRank"])]
    pd.testing.assert_frame_equal(shared.reset_index(drop=True), first.folds)
    # other settings (here b) are another key: recomputed, not mixed up
    evaluate(X, y, operators=["avgRank"], **{**kw, "n_bootstraps": 12})
    assert len(RecordingSelector.calls) == n_fits + SMALL["n_folds"] * 13
    assert len(list(tmp_path.glob("*.npz"))) == 2 * SMALL["n_folds"]


def test_any_sklearn_classifier_is_cloned(colon):
    X, y, _ = colon
    lr = LogisticRegression(max_iter=200)
    res = evaluate(X, y, selectors=["anova"], operators=["avgRank"], classifiers=[lr, "1nn"],
                   n_jobs=1, **SMALL)
    assert res.classifiers == ["LogisticRegression", "1nn"]
    assert not hasattr(lr, "coef_")  # the user's estimator was not fitted


def test_folds_are_stratified_kfold_with_the_recorded_seed(small, colon):
    _, y, _ = colon
    skf = StratifiedKFold(SMALL["n_folds"], shuffle=True,
                          random_state=small.settings["fold_seed"])
    for (tr1, te1), (tr2, te2) in zip(small.fold_indices, skf.split(np.zeros(y.size), y),
                                      strict=True):
        assert np.array_equal(tr1, tr2) and np.array_equal(te1, te2)


def test_points_leave_out_operators_that_did_not_run_everywhere(colon):
    X, y, _ = colon
    res = evaluate(X, y, selectors=["anova", "relieff"], operators=["avgRank", "geomMean"],
                   classifiers=["svm"], n_jobs=1, **SMALL)
    with pytest.warns(UserWarning, match="left out of the points.*geomMean"):
        pts = res.points()
    assert set(pts.operator) == {"nobagg", "avgRank"}
    # every fold of ReliefF (negative weights); anova may fail in some folds too
    assert (res.skipped.selector == "relieff").sum() == SMALL["n_folds"]


# --------------------------------------------------------------------- bad inputs
def test_n_folds_larger_than_smallest_class(colon):
    X, y, _ = colon  # 22 normal, 40 tumour
    with pytest.raises(ValueError, match=r"The 'n_folds' parameter of evaluate must be an "
                       r"integer in \[2, 22\] .*Got 23 instead\."):
        evaluate(X, y, selectors=["anova"], n_folds=23)


@pytest.mark.parametrize("kwargs, pattern", [
    ({"classifiers": ["svn"]},
     r"The 'classifiers' parameter of evaluate must be one of the available classifiers "
     r"\('svm', '1nn', 'tree'.*\)\. Got 'svn' instead\. Did you mean 'svm'\?"),
    ({"operators": ["closedAPR"]},
     r"The 'operators' parameter of evaluate must be one of the available operators "
     r"\('avgRank', .*'allMed'.*\)\. Got 'closedAPR' instead\. Did you mean 'closedApr'\?"),
    ({"selectors": ["relief"]},
     r"The 'selector' parameter of evaluate must be one of .*'relieff'.*Got 'relief' "),
    ({"n_bootstraps": 1}, r"The 'n_bootstraps' parameter of evaluate must be an integer >= 2"),
    ({"n_folds": 1}, r"The 'n_folds' parameter of evaluate must be an integer >= 2"),
    ({"operator_params": {"mostRep": {}}},
     r"The 'operator_params' parameter of evaluate must be keyed by evaluated operators"),
])
def test_bad_parameters(colon, kwargs, pattern):
    X, y, _ = colon
    with pytest.raises(ValueError, match=pattern):
        evaluate(X, y, **{"selectors": ["anova"], "operators": ["avgRank"], **kwargs})


@pytest.mark.parametrize("method, kwargs, pattern", [
    ("points", {"stability_measure": "jacard"},
     r"The 'stability_measure' parameter of EvaluationResult.points must be one of "
     r"'jaccard', 'dice', 'kuncheva', 'pearson'\. Got 'jacard' instead\. Did you mean "
     r"'jaccard'\?"),
    ("points", {"error_test": "anova"},
     r"The 'error_test' parameter of EvaluationResult.points must be one of 'mcnemar'"),
    ("table2", {"classifier": "tree"},
     r"The 'classifier' parameter of EvaluationResult.points must be one of 'svm', '1nn'\."),
    ("robustness_table", {"classifier": "knn"},
     r"The 'classifier' parameter of EvaluationResult.robustness_table must be one of"),
    ("table4", {"operators": ["avgRank"]},
     r"The 'operators' parameter of EvaluationResult.table4 must be one of 'allMed'\."),
])
def test_bad_table_parameters(small, method, kwargs, pattern):
    with pytest.raises(ValueError, match=pattern):
        getattr(small, method)(**kwargs)


def test_sparse_text_data_stays_sparse():
    import modelmine as mm

    X, y = mm.datasets.load_basehock()
    rows = np.r_[np.flatnonzero(y == y.min())[:30], np.flatnonzero(y == y.max())[:30]]
    Xs, ys = X[rows], y[rows]
    cols = np.flatnonzero(np.asarray((Xs != 0).sum(axis=0)).ravel() >= 3)[:300]
    Xs = Xs[:, cols]
    res = evaluate(Xs, ys, selectors=["chi2"], operators=["avgRank", "allMed"],
                   classifiers=["svm", "1nn"], n_jobs=1,
                   **{**SMALL, "n_features": 5, "n_bootstraps": 6})
    assert res.folds.error.between(0, 1).all()
    assert len(res.predictions.query("operator == 'avgRank' and classifier == 'svm'")) == 60


def test_evaluate_skips_only_operators_that_do_not_apply():
    # An operator that says it does not apply (NotApplicableError) is recorded as skipped;
    # any other error is a bug and propagates (never hidden as "skipped").
    from modelmine.exceptions import NotApplicableError
    from modelmine.operators import OperatorRegistry

    reg = OperatorRegistry(group=None, builtins=False)

    @reg.register("neverApplies")
    def never(base, *, n_features):
        raise NotApplicableError("neverApplies needs something these models lack")

    @reg.register("buggy")
    def buggy(base, *, n_features):
        raise ValueError("a real bug")

    X, y = mm.datasets.load_colon()
    kw = dict(selectors=["anova"], classifiers=["1nn"], n_folds=2, n_bootstraps=3,
              n_features=5, random_state=0)
    res = mm.evaluate(X, y, operators=[reg.get("neverApplies"), "mostFreq"], **kw)
    skipped = res.skipped
    assert skipped["operator"].tolist() == ["neverApplies", "neverApplies"]
    assert skipped["reason"].str.contains("needs something").all()
    assert set(res.folds["operator"]) == {"nobagg", "mostFreq"}
    with pytest.raises(ValueError, match="a real bug"):
        mm.evaluate(X, y, operators=[reg.get("buggy")], **kw)


class TopThreeSubset(Selector):
    """A selector that chooses its own subset size (as CFS does): the 3 best ANOVA features."""

    name = "top3"
    kind = "subset"

    def select(self, X, y, *, random_state):
        scores, _ = f_classif(X, y)
        scores = np.nan_to_num(scores)
        support = np.zeros(X.shape[1], dtype=bool)
        support[np.argsort(-scores, kind="stable")[:3]] = True
        return SelectorOutput(scores=scores, support=support)


def test_own_size_selector_signatures_are_capped_not_refused(colon):
    # KDD 2012's CFS chooses its own subset: with m = 10 a fold's base models may hold
    # fewer than 10 distinct features; single signatures are capped at what they hold.
    X, y, _ = colon
    res = evaluate(X, y, selectors={"top3": TopThreeSubset()},
                   operators=["mostFreq", "closedApr"], classifiers=["svm"], **SMALL)
    m = SMALL["n_features"]
    for f, (train, _) in enumerate(res.fold_indices):
        scores, _ = f_classif(X[train], y[train])
        top = np.argsort(-np.nan_to_num(scores), kind="stable")[:3]
        assert set(res.signatures[("top3", "nobagg", f)].features.tolist()) == set(top.tolist())
        for op in ("mostFreq", "closedApr"):
            sig = res.signatures[("top3", op, f)]
            assert 3 <= len(sig) <= m
    sizes = res.folds[res.folds.operator == "mostFreq"].n_features
    assert (sizes <= m).all()
