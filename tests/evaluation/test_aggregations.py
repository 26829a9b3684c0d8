"""Salman's comparison of aggregation functions, compare_aggregations (Salman 2022).

Independent truths: each fold's mean-score rank vector rebuilt by hand from a bootstrap of
that fold's training records (``scipy.stats.rankdata``); Spearman's stability recomputed
with ``scipy.stats.spearmanr`` pair by pair; the
weighted average accuracy from its definition.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.stats import rankdata, spearmanr

import modelmine as mm


@pytest.fixture(scope="module")
def data():
    X, y = mm.datasets.load_colon()
    return np.asarray(X)[:, :120], np.asarray(y)


@pytest.fixture(scope="module")
def comparison(data):
    X, y = data
    return mm.evaluation.compare_aggregations(
        X,
        y,
        selectors="anova",
        n_folds=3,
        n_bootstraps=5,
        thresholds=(0.25, 0.5, 1.0),
        random_state=4,
    )


def test_tables(comparison):
    assert list(comparison.stability["aggregation"]) == list(mm.evaluation.SALMAN_AGGREGATIONS)
    assert comparison.stability["spearman"].between(-1, 1).all()
    assert set(comparison.accuracy["threshold"]) == {0.25, 0.5, 1.0}
    assert 0 <= comparison.asd <= 1


def test_mean_score_rank_vector_by_hand(data, comparison):
    X, y = data
    for fold, train in enumerate(comparison.train_indices):
        base = mm.bootstrap(
            X[train],
            y[train],
            "anova",
            n_bootstraps=5,
            n_features=30,
            random_state=comparison.settings["fold_seeds"][fold],
            fit_full=False,
        )
        by_hand = rankdata(-base.scores.mean(axis=0), method="average")
        np.testing.assert_array_equal(comparison.rank_vectors["meanScore"][fold], by_hand)
        stuart = mm.aggregate(base, "stuart", n_features=X.shape[1])  # every feature's q
        log_q = np.empty(X.shape[1])
        log_q[stuart.features] = stuart.scores
        np.testing.assert_array_equal(comparison.rank_vectors["stuart"][fold], rankdata(log_q))


def test_spearman_from_definition(comparison):
    for name, vectors in comparison.rank_vectors.items():
        pairs = [spearmanr(a, b).statistic for a, b in itertools.combinations(vectors, 2)]
        row = comparison.stability[comparison.stability.aggregation == name]
        assert row["spearman"].item() == pytest.approx(np.mean(pairs), abs=1e-9)


def test_wacc_from_accuracy_curve(comparison):
    acc = comparison.accuracy
    for name in mm.evaluation.SALMAN_AGGREGATIONS:
        part = acc[(acc.aggregation == name) & (acc.threshold < 1)]
        w = 1 - part["threshold"].to_numpy()
        expected = np.sum(w * part["accuracy"].to_numpy()) / np.sum(w)
        got = comparison.wacc[comparison.wacc.aggregation == name]["wacc"].item()
        assert got == pytest.approx(expected)


def test_reproducible_and_worker_independent(data, comparison):
    X, y = data
    again = mm.evaluation.compare_aggregations(
        X,
        y,
        selector="anova",
        n_folds=3,
        n_bootstraps=5,
        thresholds=(0.25, 0.5, 1.0),
        random_state=4,
        n_jobs=2,
    )
    assert again.stability.equals(comparison.stability)
    assert again.accuracy.equals(comparison.accuracy)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"operators": ["meanScore", "allMed"]}, "'operators' parameter.*single-model"),
        ({"operators": ["meanScore", "meanScore"]}, "'operators' parameter.*distinct"),
        ({"selectors": ["anova", "ig"]}, "'selectors' parameter.*a single selector"),
        ({"n_folds": 100}, "'n_folds' parameter.*smallest class"),
        ({"top_fraction": 0.0}, "'top_fraction' parameter"),
        ({"thresholds": (0.0, 0.5)}, "'thresholds' parameter"),
    ],
)
def test_bad_input(data, kwargs, match):
    X, y = data
    call = {"selectors": "anova", "n_bootstraps": 2, "n_folds": 2, **kwargs}
    with pytest.raises(ValueError, match=match):
        mm.evaluation.compare_aggregations(X, y, **call)


def test_comparison_is_immutable_all_the_way_down(comparison):
    import pickle

    with pytest.raises(AttributeError, match="AggregationComparison is immutable"):
        comparison.asd = 0.0
    with pytest.raises(TypeError, match="read-only"):
        comparison.rank_vectors["meanScore"] = None
    with pytest.raises(ValueError, match="read-only"):
        comparison.rank_vectors["meanScore"][0, 0] = -1.0
    with pytest.raises(ValueError, match="read-only"):
        comparison.train_indices[0][0] = -1
    before = comparison.stability
    comparison.stability["spearman"] = -1.0  # a copy
    assert comparison.stability.equals(before)
    again = pickle.loads(pickle.dumps(comparison))
    assert again.stability.equals(before) and again.wacc.equals(comparison.wacc)
    assert again.asd == comparison.asd or (np.isnan(again.asd) and np.isnan(comparison.asd))


def test_old_parameter_names_still_work(data, comparison):
    """issue 23: selector / aggregations / classifier are aliases of the shared names."""
    X, y = data
    old = mm.evaluation.compare_aggregations(X, y, selector="anova", n_folds=3, n_bootstraps=5,
                                  thresholds=(0.25, 0.5, 1.0), classifier="naive-bayes",
                                  random_state=4)
    assert old.stability.equals(comparison.stability)
    with pytest.raises(TypeError, match="'selectors' parameter of compare_aggregations must "
                                        "be given once"):
        mm.evaluation.compare_aggregations(X, y, selectors="anova", selector="ig")
