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


def _named(X):
    return pd.DataFrame(X, columns=[f"gene{j}" for j in range(X.shape[1])])


def _all_names(result):
    out = []
    for sig in result.signatures.values():
        for one in getattr(sig, "signatures", [sig]):
            out.append((list(one.names), list(one.features)))
    return out


def test_outcome_signatures_carry_the_datas_names():
    """evaluate(outcome=...) named every signature's features x0, x1, ... whatever the
    data's columns were called; now by the columns, as the classes' protocol does."""
    X, y = _regression(n=40)
    ev = mm.evaluate(_named(X), y, outcome="regression", selectors=["pearson"],
                     operators=["mostFreq"], n_folds=2, n_bootstraps=4, n_features=3,
                     random_state=1)
    pairs = _all_names(ev)
    assert pairs
    for names, features in pairs:
        assert names == [f"gene{j}" for j in features]
    assert all("gene0" in names for names, _ in pairs)  # y = 2 x0 - x1 + noise


@pytest.mark.parametrize("outcome", ["classes", "regression"])
def test_a_cache_written_under_other_names_gives_the_data_its_own_names(tmp_path, outcome):
    """A cache is keyed by the data's values, not its column names: base models cached
    under other names (before issue 52's positional names, or for a copy of the data with
    other columns names) are reused, and the signatures carry the names of the data as
    given now, not those of the file (the full KDD'12 rerun at 2d31436 put g0245 in
    colon's signatures from a cache written before the renaming)."""
    X, y = _regression(n=40)
    if outcome == "classes":
        y = (y > np.median(y)).astype(int)
        kw = dict(selectors=["anova"], classifiers=["svm"])
    else:
        kw = dict(outcome="regression", selectors=["pearson"])
    kw.update(operators=["mostFreq"], n_folds=2, n_bootstraps=4, n_features=3,
              random_state=3, cache_dir=tmp_path / "cache", n_jobs=1)
    first = mm.evaluate(X, y, **kw)  # unnamed columns: x0, x1, ...
    again = mm.evaluate(_named(X), y, **kw)
    if outcome == "classes":
        assert not first.tasks.cached.any() and again.tasks.cached.all()
    assert len(list((tmp_path / "cache").glob("*.npz"))) == 2  # nothing refitted
    numbers = [c for c in first.folds.columns if c != "features"]
    pd.testing.assert_frame_equal(first.folds[numbers], again.folds[numbers],
                                  check_exact=True)
    if "features" in first.folds:  # the table's names are the data's too
        assert (first.folds.features.str.replace("x", "gene") == again.folds.features).all()
    before, after = _all_names(first), _all_names(again)
    assert [f for _, f in before] == [f for _, f in after]
    for names, features in before:
        assert names == [f"x{j}" for j in features]
    for names, features in after:
        assert names == [f"gene{j}" for j in features]
