"""Pes's protocol, evaluate_thresholds (Pes 2019, Section 3.3).

Independent truths: Kuncheva's index recomputed pair by pair from its definition on the
returned subsets; the simple ranking refitted by hand on a split's training records; the
AUC of that split refitted with scikit-learn; the ensemble ranking rebuilt with
``mm.bootstrap`` + avgRank; invariance to the number of workers.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MinMaxScaler
from sklearn.svm import SVC

import modelmine as mm

THS = [0.01, 0.05, 0.2]


@pytest.fixture(scope="module")
def data():
    X, y = mm.datasets.load_colon()
    return np.asarray(X)[:, :200], np.asarray(y)


@pytest.fixture(scope="module")
def result(data):
    X, y = data
    return mm.evaluation.evaluate_thresholds(
        X,
        y,
        selectors=["anova", "ig"],
        thresholds=THS,
        n_folds=3,
        train_fraction=0.8,
        n_bootstraps=4,
        random_state=11,
    )


def test_frame_columns_and_rows(result):
    df = result.to_frame()
    assert {"selector", "mode", "threshold", "stability", "auc"} <= set(df.columns)
    assert len(df) == 2 * 2 * len(THS)
    assert set(df["mode"]) == {"simple", "ensemble"}
    assert list(df[df.selector == "anova"]["n_features"][:3]) == [2, 10, 40]
    assert df["auc"].between(0, 1).all()


def test_kuncheva_equals_pairwise_definition(result):
    df = result.to_frame()
    N = 200
    for (sel, mode), orders in result.orders.items():
        for th in THS:
            k = max(1, round(th * N))
            sets = [set(o[:k]) for o in orders]
            pairs = [
                (len(a & b) - k * k / N) / (k - k * k / N)
                for a, b in itertools.combinations(sets, 2)
            ]
            row = df[(df.selector == sel) & (df["mode"] == mode) & (df.threshold == th)]
            assert row["stability"].item() == pytest.approx(np.mean(pairs), abs=1e-12)
            assert row["stability_std"].item() == pytest.approx(np.std(pairs), abs=1e-12)


def test_simple_ranking_and_auc_refitted_by_hand(data, result):
    X, y = data
    train = result.train_indices[0]
    test = np.setdiff1d(np.arange(y.size), train)
    from sklearn.feature_selection import f_classif

    f, _ = f_classif(X[train], y[train])
    expected = np.argsort(-f, kind="stable")[:40]
    # Equal F values may come in any order (random tie-break): compare the scores.
    np.testing.assert_array_equal(f[result.orders["anova", "simple"][0][:40]], f[expected])
    top = result.orders["anova", "simple"][0][:10]
    clf = make_pipeline(MinMaxScaler(), SVC(kernel="linear", C=0.5)).fit(X[train][:, top], y[train])
    auc0 = roc_auc_score(y[test] == clf.classes_[1], clf.decision_function(X[test][:, top]))
    # The table's AUC is the mean over the 3 splits: recompute all three.
    aucs = []
    for t in range(3):
        tr = result.train_indices[t]
        te = np.setdiff1d(np.arange(y.size), tr)
        feats = result.orders["anova", "simple"][t][:10]
        c = make_pipeline(MinMaxScaler(), SVC(kernel="linear", C=0.5)).fit(X[tr][:, feats], y[tr])
        aucs.append(roc_auc_score(y[te] == c.classes_[1], c.decision_function(X[te][:, feats])))
    assert aucs[0] == pytest.approx(auc0)
    df = result.to_frame()
    row = df[(df.selector == "anova") & (df["mode"] == "simple") & (df.threshold == 0.05)]
    assert row["auc"].item() == pytest.approx(np.mean(aucs), abs=1e-12)


def test_ensemble_is_mean_rank_of_bootstraps(data, result):
    orders = result.orders["anova", "ensemble"]
    assert orders.shape == (3, 40)
    # Each ensemble ranking is an avgRank aggregation of 4 bootstraps of its training set:
    # its top features are among the features the bootstraps rank well.
    X, y = data
    tr = result.train_indices[0]
    base = mm.bootstrap(
        X[tr], y[tr], "anova", n_bootstraps=4, n_features=40, random_state=0, fit_full=False
    )
    assert len(set(orders[0][:10]) & set(np.flatnonzero(base.subsets.any(axis=0)))) == 10


def test_workers_do_not_change_the_result(data, result):
    X, y = data
    again = mm.evaluation.evaluate_thresholds(
        X,
        y,
        selectors=["anova", "ig"],
        thresholds=THS,
        n_splits=3,
        train_fraction=0.8,
        n_bootstraps=4,
        random_state=11,
        n_jobs=2,
    )
    assert again.to_frame().equals(result.to_frame())


def test_plot_and_gain(result):
    fig = result.plot()
    assert len(fig.axes) == 4
    gain = result.gain()
    assert set(gain.columns) == {"selector", "threshold", "stability_gain", "auc_gain"}


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"thresholds": [0.1, 0.05]}, "'thresholds' parameter.*strictly increasing"),
        ({"thresholds": [0.0, 0.5]}, r"'thresholds' parameter.*\(0, 1\]"),
        ({"thresholds": [0.5, 1.5]}, r"Out of range: \[1.5\]"),
        ({"train_fraction": 1.0}, "'train_fraction' parameter"),
        ({"train_fraction": 0.0}, "'train_fraction' parameter"),
        ({"selectors": ["anova", "anova"]}, "'selectors' parameter.*distinct"),
        ({"selectors": ["anova", "gainration"]}, "one of 'chi2'.*Did you mean 'gainratio'"),
        ({"selector_params": {"relief": {}}}, "'selector_params' parameter"),
        ({"operators": "allMed"}, "'operators' parameter"),
        ({"operators": ["avgRank", "mostFreq"]}, "'operators' parameter .* a single operator"),
    ],
)
def test_bad_input(data, kwargs, match):
    X, y = data
    call = dict(selectors=["anova"], thresholds=[0.1], n_folds=2, n_bootstraps=2)
    call.update(kwargs)
    with pytest.raises(ValueError, match=match):
        mm.evaluation.evaluate_thresholds(X, y, **call)


def test_random_tie_break_does_not_inflate_kuncheva(data):
    # 5 informative features, 95 constant ones: every selector scores the constant ones
    # equally (0). With index tie-breaks the same constant features fill every split's
    # top 20 and Kuncheva's index is exactly 1; with random tie-breaks they differ.
    _, y = data
    codes = np.unique(y, return_inverse=True)[1]
    rng = np.random.default_rng(0)
    Xt = np.zeros((y.size, 100))
    Xt[:, :5] = codes[:, None] + rng.normal(0, 0.3, (y.size, 5))
    call = dict(selectors=["anova"], thresholds=[0.2], n_splits=4, n_bootstraps=3,
                random_state=5)
    index = mm.evaluation.evaluate_thresholds(Xt, y, tie_break="index", **call)
    rand = mm.evaluation.evaluate_thresholds(Xt, y, tie_break="random", **call)
    np.testing.assert_allclose(index.to_frame()["stability"], 1.0)
    assert (rand.to_frame()["stability"] < 0.7).all()
    # The 5 informative features are in every subset either way.
    for res in (index, rand):
        for orders in res.orders.values():
            assert all(set(range(5)) <= set(o[:20]) for o in orders)


def test_result_is_immutable_all_the_way_down(result):
    import pickle

    with pytest.raises(AttributeError, match="ThresholdResult is immutable: cannot set 'table'"):
        result.table = result.to_frame()
    with pytest.raises(AttributeError, match="immutable"):
        del result.orders
    with pytest.raises(TypeError, match="read-only"):
        result.settings["n_splits"] = 99
    with pytest.raises(TypeError, match="read-only"):
        result.orders["anova", "simple"] = None
    with pytest.raises(ValueError, match="read-only"):
        result.orders["anova", "simple"][0, 0] = -1
    with pytest.raises(ValueError, match="read-only"):
        result.train_indices[0, 0] = -1
    before = result.to_frame()
    result.to_frame()["auc"] = -1.0
    pd.testing.assert_frame_equal(result.to_frame(), before)
    again = pickle.loads(pickle.dumps(result))  # joblib / Dask ship it
    pd.testing.assert_frame_equal(again.to_frame(), before)
    np.testing.assert_array_equal(again.train_indices, result.train_indices)
    assert dict(again.settings) == dict(result.settings)


def test_old_parameter_names_still_work_and_cannot_be_doubled(data, result):
    """issue 23: one vocabulary (n_folds, operators, classifiers); the old names are
    aliases giving the same result, and a setting under both names is refused."""
    X, y = data
    old = mm.evaluation.evaluate_thresholds(
        X, y, selectors=["anova", "ig"], thresholds=THS, n_splits=3, train_fraction=0.8,
        n_bootstraps=4, aggregation="avgRank", classifier="svm", random_state=11)
    assert old.to_frame().equals(result.to_frame())
    with pytest.raises(TypeError, match=r"'n_folds' parameter of evaluate_thresholds must be "
                                        r"given once \('n_splits' is its old name\)"):
        mm.evaluation.evaluate_thresholds(X, y, n_folds=3, n_splits=3)
    with pytest.raises(TypeError, match="unexpected keyword argument 'n_split'"):
        mm.evaluation.evaluate_thresholds(X, y, n_split=3)
