"""The one fold engine of the evaluation protocols (issue 38, item 3) and the outcome
protocol on it: runner and cache, against independent computations (the engine's seeds and
folds against numpy and scikit-learn: ``tests/kernels/test_fold_engine.py``)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import modelmine as mm
from modelmine.evaluation import KDD12_SELECTORS
from modelmine.spec import DEFAULT_SELECTORS


def _regression(n=36, p=10, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = 2 * X[:, 0] - X[:, 1] + rng.normal(scale=0.5, size=n)
    return X, y


# ----------------------------------------------------------------------------- defects
def test_evaluate_regression_with_its_default_selectors():
    """Issue 38: the defaults were the classes' ('ig', ...), refused by bootstrap."""
    X, y = _regression()
    ev = mm.evaluate(X, y, outcome="regression", operators=["mostFreq"], n_folds=2,
                     n_bootstraps=3, n_features=3)
    # the outcome's own default (issue 39.1 made it lasso), not the classes' KDD'12 four
    assert set(ev.folds.selector) == {DEFAULT_SELECTORS["regression"]} == {"lasso"}
    assert ev.settings["seed_derivation"] == "outcome"


def test_the_old_name_of_the_kdd12_selectors_warns():
    with pytest.warns(FutureWarning, match="KDD12_SELECTORS"):
        old = mm.evaluation.DEFAULT_SELECTORS
    assert old == KDD12_SELECTORS == ("ig", "relieff", "svm-rfe", "svm")


def test_outcome_protocol_does_not_depend_on_the_workers():
    X, y = _regression()
    kw = dict(outcome="regression", selectors=["pearson", "lasso"],
              operators=["mostFreq", "avgRank"], n_folds=3, n_bootstraps=4, n_features=3,
              random_state=2)
    serial = mm.evaluate(X, y, n_jobs=1, **kw)
    parallel = mm.evaluate(X, y, n_jobs=2, **kw)
    pd.testing.assert_frame_equal(serial.folds, parallel.folds, check_exact=True)
    pd.testing.assert_frame_equal(serial.predictions, parallel.predictions,
                                  check_exact=True)


def test_outcome_protocol_honours_weights_and_the_cache(tmp_path):
    """Issue 40, item 13: sample_weight and cache_dir reached no fold for an outcome.

    With weighted resampling and zero weights on half of the samples, no resample of any
    fold's base models (read back from the cache) holds a zero-weight sample; a rerun
    loads the cache and gives the same result."""
    X, y = _regression(n=40)
    w = np.tile([0.0, 1.0], 20)
    kw = dict(outcome="regression", selectors=["pearson"], operators=["mostFreq"],
              n_folds=2, n_bootstraps=5, n_features=3, random_state=4, sample_weight=w,
              weighted_resampling=True, cache_dir=tmp_path / "cache")
    first = mm.evaluate(X, y, **kw)
    files = sorted((tmp_path / "cache").glob("*.npz"))
    assert len(files) == 2  # one per (selector, fold)
    for path, (train, _) in zip(files, first.fold_indices, strict=True):
        base = mm.BaseModels.load(path)
        for i in range(base.n_models):
            rows = base.resample(i)
            assert (w[train][rows[rows >= 0]] > 0).all()
    again = mm.evaluate(X, y, **kw)
    pd.testing.assert_frame_equal(first.folds, again.folds, check_exact=True)
    unweighted = mm.evaluate(X, y, **{**kw, "sample_weight": None,
                                      "weighted_resampling": False, "cache_dir": None})
    assert not first.folds.equals(unweighted.folds)
    assert first.settings["design"]


def test_outcome_weights_need_a_weighted_selector_before_any_fit():
    X, y = _regression()
    with pytest.raises(ValueError, match="'sample_weight' parameter of evaluate"), \
            warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing fitted, so nothing warned either
        mm.evaluate(X, y, outcome="regression", selectors=["pearson"],
                    operators=["mostFreq"], n_folds=2, n_bootstraps=3,
                    sample_weight=np.ones(y.size))
