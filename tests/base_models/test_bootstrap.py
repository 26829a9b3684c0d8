"""bootstrap() and BaseModels: representations, reproducibility, resampling, persistence, errors."""

from __future__ import annotations

import dataclasses

import joblib
import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
import scipy.stats
from sklearn.feature_selection import f_classif

import modelmine as mm


@pytest.fixture(scope="module")
def colon_base(colon):
    X, y, names = colon
    return mm.bootstrap(X, y, selector="anova", n_bootstraps=30, n_features=20,
                        feature_names=names, random_state=7)


def test_three_representations_are_consistent(colon, colon_base):
    X, y, _names = colon
    base = colon_base
    assert base.subsets.shape == base.ranks.shape == base.scores.shape == (30, 2000)
    assert base.subsets.dtype == bool and base.ranks.dtype == np.int32
    np.testing.assert_array_equal(base.subset_sizes(), 20)
    # Each row of ranks is a permutation of 1..p, and subsets are the top 20 ranks.
    np.testing.assert_array_equal(np.sort(base.ranks, axis=1), np.tile(np.arange(1, 2001),
                                                                       (30, 1)))
    np.testing.assert_array_equal(base.subsets, base.ranks <= 20)
    # Independent truth: the scores of model i are f_classif on its resample.
    for i in (0, 17):
        idx = base.sample_indices[i]
        expected = np.nan_to_num(f_classif(X[idx], y[idx])[0])
        assert base.scores.dtype == np.float32
        np.testing.assert_array_equal(base.scores[i], expected.astype(np.float32))
        top = set(np.argsort(-expected, kind="stable")[:20])
        assert set(base.selected(i)) == top
        assert list(base.selected(i)) == sorted(top, key=lambda j: base.ranks[i, j])
    assert list(base.feature_names[:2]) == ["x0", "x1"]


def test_frequencies_and_summary(colon_base):
    freq = colon_base.frequencies()
    assert isinstance(freq, pd.Series) and freq.index[0] == "x0"
    np.testing.assert_allclose(freq.to_numpy(), colon_base.subsets.sum(axis=0) / 30)
    assert freq.sum() == pytest.approx(20.0)
    summary = colon_base.summary(top=5)
    assert summary["frequency"].is_monotonic_decreasing
    assert summary["frequency"].iloc[0] == freq.max()


def test_full_model_is_the_selector_on_all_data(colon, colon_base):
    X, y, _ = colon
    expected = np.nan_to_num(f_classif(X, y)[0])
    np.testing.assert_allclose(colon_base.full_model.scores, expected, rtol=1e-12)
    assert set(np.flatnonzero(colon_base.full_model.subset)) == set(
        np.argsort(-expected, kind="stable")[:20])


@pytest.mark.parametrize("selector", ["anova", "random-forest", "l1-logistic"])
def test_bit_identical_across_n_jobs_and_backends(colon, selector):
    X, y, _ = colon
    kw = dict(selector=selector, n_bootstraps=8, n_features=15, random_state=11)
    if selector == "random-forest":  # seeded trees: 25 show it as well as the default 100
        kw["selector_params"] = {"n_estimators": 25}
    serial = mm.bootstrap(X, y, n_jobs=1, **kw)
    assert serial == mm.bootstrap(X, y, n_jobs=2, **kw)
    with joblib.parallel_config(backend="threading"):
        assert serial == mm.bootstrap(X, y, n_jobs=2, **kw)
    other_seed = mm.bootstrap(X, y, n_jobs=1, **{**kw, "random_state": 12})
    assert not np.array_equal(serial.sample_indices, other_seed.sample_indices)


def test_random_state_none_is_recorded_and_reproduces(colon):
    X, y, _ = colon
    first = mm.bootstrap(X, y, selector="anova", n_bootstraps=4, n_features=5)
    again = mm.bootstrap(X, y, selector="anova", n_bootstraps=4, n_features=5,
                         random_state=first.random_state)
    assert first == again


def test_prefix_of_bootstraps_does_not_depend_on_b(colon):
    # Model i depends only on (random_state, i): the first 5 of 10 equal a run of 5.
    X, y, _ = colon
    ten = mm.bootstrap(X, y, selector="anova", n_bootstraps=10, n_features=5, random_state=3)
    five = mm.bootstrap(X, y, selector="anova", n_bootstraps=5, n_features=5, random_state=3)
    np.testing.assert_array_equal(ten.sample_indices[:5], five.sample_indices)
    np.testing.assert_array_equal(ten.ranks[:5], five.ranks)


def test_oob_indices_complement_the_resample(colon_base):
    for i in range(3):
        oob = colon_base.oob_indices(i)
        assert set(oob).isdisjoint(colon_base.sample_indices[i])
        assert set(oob) | set(colon_base.sample_indices[i]) == set(range(62))


def test_pandas_sparse_and_string_labels(colon):
    X, y, _names = colon
    frame = pd.DataFrame(X[:, :300], columns=[f"gene_{j}" for j in range(300)])
    labels = np.where(y > 0, "tumour", "normal")
    base = mm.bootstrap(frame, pd.Series(labels), selector="anova", n_bootstraps=3,
                        n_features=5, random_state=0)
    assert base.feature_names[0] == "gene_0" and base.classes == ["normal", "tumour"]
    dense = mm.bootstrap(X[:, :300], y, selector="anova", n_bootstraps=3, n_features=5,
                         random_state=0)
    np.testing.assert_array_equal(base.ranks, dense.ranks)

    Xs, ys = mm.datasets.load_basehock()
    Xs = Xs[:, :500]
    sparse_base = mm.bootstrap(Xs, ys, selector="anova", n_bootstraps=3, n_features=10,
                               random_state=1)
    dense_base = mm.bootstrap(Xs.toarray(), ys, selector="anova", n_bootstraps=3,
                              n_features=10, random_state=1)
    np.testing.assert_array_equal(sparse_base.subsets, dense_base.subsets)


def test_multiclass(colon):
    X, y, _ = colon
    y3 = np.where(y > 0, 2, np.arange(62) % 2)
    base = mm.bootstrap(X, y3, selector="random-forest", n_bootstraps=3, n_features=10,
                        random_state=0, selector_params={"n_estimators": 20})
    assert base.classes == [0, 1, 2] and base.subsets.sum() == 30


def test_l1_subsets_vary_in_size_and_respect_the_cap(colon):
    X, y, _ = colon
    base = mm.bootstrap(X, y, selector="l1-logistic", n_bootstraps=10, n_features=10,
                        random_state=0)
    sizes = base.subset_sizes()
    assert sizes.max() <= 10 and sizes.min() >= 1
    assert np.all(base.subsets == (base.subsets & (base.scores > 0)))
    uncapped = mm.bootstrap(X, y, selector="l1-logistic", n_bootstraps=4, n_features=None,
                            random_state=0)
    np.testing.assert_array_equal(uncapped.subsets, uncapped.scores > 0)


def test_constant_features_rank_last(colon):
    X, y, _ = colon
    Xc = X[:, :50].copy()
    Xc[:, [3, 10]] = 1.5
    base = mm.bootstrap(Xc, y, selector="anova", n_bootstraps=4, n_features=10, random_state=0)
    assert np.all(base.scores[:, [3, 10]] == 0)
    assert not base.subsets[:, [3, 10]].any()


def test_save_load_round_trip_is_lossless(tmp_path, colon_base):
    path = colon_base.save(tmp_path / "base")
    assert path.suffix == ".npz" and not list(tmp_path.glob(".*tmp*"))
    loaded = mm.BaseModels.load(path)
    assert loaded == colon_base
    assert loaded.selector == colon_base.selector and loaded.random_state == 7
    np.testing.assert_array_equal(loaded.scores, colon_base.scores)
    no_scores = mm.bootstrap(*mm.datasets.load_colon(), selector=_ranking_only,
                             n_bootstraps=3, n_features=4, random_state=0)
    assert no_scores.scores is None
    assert mm.BaseModels.load(no_scores.save(tmp_path / "r.npz")) == no_scores


def _ranking_only(X, y):
    from modelmine.selectors import SelectorOutput

    return SelectorOutput(ranking=np.argsort(np.argsort(-X.var(axis=0))) + 1)


def test_load_refuses_non_basemodels_and_corrupt_files(tmp_path, colon_base):
    other = tmp_path / "other.npz"
    np.savez(other, a=np.arange(3))
    with pytest.raises(ValueError, match="not a modelmine BaseModels file"):
        mm.BaseModels.load(other)
    good = colon_base.save(tmp_path / "good.npz")
    data = bytearray(good.read_bytes())
    data[len(data) // 2: len(data) // 2 + 64] = b"\0" * 64
    bad = tmp_path / "bad.npz"
    bad.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="corrupt"):
        mm.BaseModels.load(bad)
    text = tmp_path / "text.npz"
    text.write_text("hello")
    with pytest.raises(ValueError, match="not a modelmine BaseModels file"):
        mm.BaseModels.load(text)
    with pytest.raises(FileNotFoundError):
        mm.BaseModels.load(tmp_path / "missing.npz")


def test_base_models_are_immutable(colon_base):
    with pytest.raises(ValueError, match="read-only"):
        colon_base.subsets[0, 0] = True
    with pytest.raises(ValueError, match="read-only"):
        colon_base.full_model.ranks[0] = 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        colon_base.n_features = 3


# ----------------------------------------------------------------------------- bad input
X0 = np.random.default_rng(0).normal(size=(20, 30))
Y0 = np.array([0, 1] * 10)


@pytest.mark.parametrize("kwargs, exc, match", [
    (dict(X=np.where(np.eye(20, 30) > 0, np.nan, X0)), ValueError,
     r"'X' parameter of bootstrap must be free of NaN and infinite values. Got 20 NaN"),
    (dict(X=np.where(np.eye(20, 30) > 0, np.inf, X0)), ValueError, r"0 NaN and 20 infinite"),
    (dict(X=X0.astype(str)), TypeError, r"'X' parameter of bootstrap must be a numeric array"),
    (dict(X=pd.DataFrame({"a": ["x"] * 20, "b": np.arange(20.0)})), TypeError,
     r"'X' .* must be numeric. Got non-numeric column\(s\) a instead"),
    (dict(y=Y0[:15]), ValueError, r"'y' parameter of bootstrap must be of length 20 .*"
                                  r"Got length 15 instead"),
    (dict(y=np.ones(20)), ValueError, r"'y' .* must be labels of at least 2 classes. "
                                      r"Got a single class \[1.0\] instead"),
    (dict(y=np.r_[np.zeros(19), 1], stratify=True), ValueError,
     r"'stratify' .* fewer than 2 members .* Got True with class\(es\) \[1.0\] of size 1"),
    (dict(n_features=0), ValueError, r"'n_features' .* must be an integer >= 1 or None. "
                                        r"Got 0"),
    (dict(n_features=2.5), TypeError, r"'n_features' .* must be an integer"),
    (dict(n_features=None), ValueError, r"'n_features' .* for the ranking selector 'anova'"),
    (dict(n_bootstraps=1), ValueError, r"'n_bootstraps' .* must be an integer >= 2. Got 1"),
    (dict(selector="relief"), ValueError, r"'selector' .* Got 'relief' instead. "
                                          r"Did you mean 'relieff'\?"),
    (dict(resampling="jackknife"), ValueError, r"'resampling' .* one of 'bootstrap', "
                                               r"'subsample'"),
    (dict(resampling="subsample", sample_fraction=1.0), ValueError, r"'sample_fraction'"),
    (dict(sample_fraction=0.0), ValueError, r"'sample_fraction' .* \(0, 1\]"),
    (dict(random_state=-1), ValueError, r"'random_state' .* non-negative integer, a numpy"
                                        r".random.SeedSequence, .* Got -1"),
    (dict(random_state="seed"), TypeError, r"'random_state'"),
    (dict(n_jobs=0), ValueError, r"'n_jobs'"),
    (dict(feature_names=["a"] * 30), ValueError, r"'feature_names' .* unique"),
    (dict(feature_names=["a", "b"]), ValueError, r"'feature_names' .* 30 names"),
])
def test_bad_input_names_parameter_expected_and_given(kwargs, exc, match):
    args = dict(X=X0, y=Y0, selector="anova", n_bootstraps=3, n_features=5)
    args.update(kwargs)
    with pytest.raises(exc, match=match):
        mm.bootstrap(args.pop("X"), args.pop("y"), **args)


def test_sparse_nan_refused():
    Xs = sp.csr_matrix(X0)
    Xs.data[0] = np.nan
    with pytest.raises(ValueError, match=r"'X' .* 1 non-finite value"):
        mm.bootstrap(Xs, Y0, selector="anova", n_bootstraps=3, n_features=5)


@pytest.mark.parametrize("func, match", [
    (lambda X, y: np.ones(5), r"Selector 'bad_shape' returned scores of shape \(5,\)"),
    (lambda X, y: np.full(X.shape[1], np.nan), r"Selector 'bad_nan' returned 30 non-finite"),
])
def test_selector_returning_wrong_output_is_named(func, match):
    func.__name__ = "bad_shape" if "shape" in match else "bad_nan"
    with pytest.raises(ValueError, match=match):
        mm.bootstrap(X0, Y0, selector=func, n_bootstraps=3, n_features=5, n_jobs=1)


def test_tied_ranks_do_not_favour_low_feature_indices(colon):
    # A random forest gives most genes an importance of exactly 0. Their total-order ranks
    # follow the feature index; their tied ranks must not: every gene that no model can
    # tell apart from the others gets the same mean rank.
    X, y, _ = colon
    base = mm.bootstrap(X, y, selector="random-forest", n_bootstraps=5, n_features=10,
                        random_state=0, selector_params={"n_estimators": 10})
    tied = base.tied_ranks()
    np.testing.assert_array_equal(tied, scipy.stats.rankdata(-base.scores, method="average",
                                                             axis=1))
    never = np.flatnonzero((base.scores == 0).all(axis=0))
    assert never.size > 1000
    assert np.unique(tied[:, never].mean(axis=0)).size == 1
    assert np.unique(base.ranks[:, never].mean(axis=0)).size > 1  # the index bias avoided
    assert base.tied_ranks() is tied and not tied.flags.writeable  # cached, read-only


def test_anova_scores_are_never_negative(leukemia):
    # f_classif returns -4.6e-17 for a near-constant gene in one of these resamples; F is
    # non-negative by definition, and geomMean relies on it. The gene is 5705, the resample
    # 381 of 400 (a resample depends on the seed and its index only): 40 genes around it.
    X, y, _ = leukemia
    X = X[:, 5700:5740]
    base = mm.bootstrap(X, y, selector="anova", n_bootstraps=400, n_features=20,
                        random_state=0, fit_full=False)
    rows = base.resample(381)
    assert f_classif(X[rows], y[rows])[0][5] < 0  # the case is met
    assert base.scores.min() >= 0
    mm.aggregate(base, "geomMean", n_features=20)


def test_n_features_above_p_is_capped_with_a_warning():
    """The one policy for m above p (modelmine.spec.capped): cap at p, warn, everywhere.
    The capped run equals a run asked for m = p."""
    with pytest.warns(UserWarning, match=r"n_features=31 is above the 30 features of X: "
                                         r"bootstrap uses n_features=30"):
        capped = mm.bootstrap(X0, Y0, selector="anova", n_bootstraps=3, n_features=31)
    exact = mm.bootstrap(X0, Y0, selector="anova", n_bootstraps=3, n_features=30)
    assert capped.n_features == 30 and capped == exact
