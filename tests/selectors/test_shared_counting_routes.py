"""The shared routes of OneR, CFS and gain ratio (issue 37): ``prepare`` once (the columns
sorted once, as the MDL selectors), then ``select_rows`` per resample, against ``select``
on ``X[rows], y[rows]`` itself (``oner_scores`` and CFS, equal to WEKA 3.6's
OneRAttributeEval and CfsSubsetEval in ``test_weka_information.py``; ``gain_ratio``;
``discretize`` for the resample's MDL codes): equal bit for bit, on dense and sparse data,
two and more classes, with the resamples ``mm.bootstrap`` draws and with awkward ones."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

import modelmine as mm
from modelmine.selectors import get_selector, oner_scores


def _codes(y):
    return np.unique(y, return_inverse=True)[1].astype(np.int64)


def _resamples(n, seed=0):
    rng = np.random.default_rng(seed)
    return [
        rng.choice(n, n, replace=True),  # a bootstrap, unsorted, repeats
        np.sort(rng.choice(n, int(0.7 * n), replace=False)),  # a subsample
        np.repeat(rng.choice(n, n // 3, replace=False), 3),  # every row three times
    ]


def _check(X, y, *, params=None, seeds=(0,)):
    sel = get_selector("oner", params)
    prepared = sel.prepare(X, y)
    for seed in seeds:
        for rows in _resamples(X.shape[0], seed):
            shared = sel.select_rows(prepared, X, y, rows, random_state=seed + 3).scores
            alone = sel.select(X[rows], y[rows], random_state=seed + 3).scores
            np.testing.assert_array_equal(shared, alone)


@pytest.mark.parametrize("name", ["colon", "leukemia"])
def test_dense_microarrays_equal_select_on_the_resample(name):
    X, y = mm.datasets.load(name)[:2]
    _check(np.asarray(X, dtype=np.float64)[:, :800], _codes(np.asarray(y)), seeds=(0, 1))


@pytest.mark.parametrize("params", [{"folds": None}, {"folds": 3}, {"min_bucket_size": 1},
                                    {"min_bucket_size": 12, "folds": 5}])
def test_parameters(params):
    X, y = mm.datasets.load("colon")[:2]
    _check(np.asarray(X, dtype=np.float64)[:, :300], _codes(np.asarray(y)), params=params)


def test_sparse_text_equals_select_on_the_resample():
    X, y = mm.datasets.load("basehock")[:2]
    rows = np.random.default_rng(3).choice(X.shape[0], 400, replace=False)
    Xs = sp.csr_matrix(X[rows], dtype=np.float64)[:, :1000]  # 400 documents, 1,000 words
    _check(Xs, _codes(np.asarray(y)[rows]))


def test_sparse_with_negative_values_explicit_zeros_and_full_columns():
    # a column's 0 sits between its negative and positive values; explicit zeros are
    # values like the implicit ones; a column with no zero at all
    rng = np.random.default_rng(5)
    dense = np.where(rng.random((90, 40)) < 0.3, rng.normal(size=(90, 40)).round(1), 0.0)
    dense[:, 0] = rng.normal(size=90) + 3.0  # never 0
    y = rng.integers(0, 3, 90)
    X = sp.csr_matrix(dense)
    X.data[::7] = 0.0  # explicit zeros
    _check(X, y, seeds=(0, 1))
    np.testing.assert_array_equal(  # and the dense copy scores the same
        get_selector("oner").select(X, y, random_state=1).scores,
        oner_scores(X.toarray(), y, random_state=1))


def test_many_classes_few_samples_constant_and_duplicated_columns():
    # six classes of 5 to 9 samples: a cross-validation training part may lack the
    # largest class code; constant and duplicated columns; raw intensities
    rng = np.random.default_rng(7)
    y = np.repeat(np.arange(6), [9, 8, 7, 6, 5, 5])
    X = rng.gamma(2.0, 8000.0, size=(y.size, 50)) + y[:, None] * 3000.0 * rng.random(50)
    X[:, 3] = 17.0
    X[:, 10] = X[:, 11]
    X = np.round(X, -2)  # ties
    _check(X, y, seeds=(0, 1, 2))


def test_bootstrap_takes_the_shared_route_and_matches_select():
    # mm.bootstrap (prepare once per chunk, select_rows per resample) against a plain loop
    # of select on X[idx] with the same resamples and selector seeds
    from modelmine.base_models import resample_indices, seed_sequence
    from modelmine.selectors import model_from_output

    X, y = mm.datasets.load("colon")[:2]
    X, y = np.asarray(X, dtype=np.float64)[:, :200], _codes(np.asarray(y))
    sel = get_selector("oner")
    assert sel.prepare(X, y) is not None
    base = mm.bootstrap(X, y, "oner", n_bootstraps=3, n_features=10, random_state=7,
                        fit_full=False)
    for i, child in enumerate(seed_sequence(7).spawn(4)[:3]):
        draw = np.random.default_rng(child)
        idx = resample_indices(y, draw, method="bootstrap", fraction=1.0, stratify=False)
        seed = int(draw.integers(0, 2**31 - 1))
        model = model_from_output(sel.select(X[idx], y[idx], random_state=seed),
                                  n_features_in=X.shape[1], n_features=10, selector="oner")
        np.testing.assert_array_equal(base.sample_indices[i], idx)
        np.testing.assert_array_equal(base.ranks[i], model.ranks)


def test_folds_above_the_resample_size_are_refused_by_name():
    X, y = mm.datasets.load("colon")[:2]
    sel = get_selector("oner")
    X = np.asarray(X, dtype=np.float64)[:, :20]
    prepared = sel.prepare(X, _codes(np.asarray(y)))
    with pytest.raises(ValueError, match=r"'folds'.*at most the number of samples"):
        sel.select_rows(prepared, X, _codes(np.asarray(y)), np.arange(5), random_state=0)


@pytest.mark.parametrize("name", ["oner", "ig", "chi2", "su", "gainratio"])
def test_mostly_zero_dense_data_are_sorted_by_their_non_zeros(name):
    # PCMAC is read as a dense array: its columns are sorted as sparse ones (the same
    # values and counts), and the scores stay those of select on the dense resample
    X, y = mm.datasets.load("basehock")[:2]
    rows = np.random.default_rng(4).choice(X.shape[0], 300, replace=False)
    dense = sp.csr_matrix(X[rows], dtype=np.float64)[:, :1000].toarray()  # 1,000 words
    yc = _codes(np.asarray(y)[rows])
    sel = get_selector(name)
    prepared = sel.prepare(dense, yc)
    assert prepared.sparse
    for seed, idx in enumerate(_resamples(dense.shape[0])):
        shared = sel.select_rows(prepared, dense, yc, idx, random_state=seed)
        alone = sel.select(dense[idx], yc[idx], random_state=seed)
        np.testing.assert_array_equal(shared.scores, alone.scores)


def _data(case, seed):
    """The awkward shapes the routes must handle: a microarray slice, a text slice (sparse),
    sparse values with negatives and explicit structure, and six small classes of raw
    intensities with ties and constant and duplicated columns."""
    rng = np.random.default_rng(seed)
    if case == "colon":
        X, y = mm.datasets.load("colon")[:2]
        return np.asarray(X, dtype=np.float64)[:, :400], _codes(np.asarray(y))
    if case == "basehock":
        X, y = mm.datasets.load("basehock")[:2]
        rows = rng.choice(X.shape[0], 300, replace=False)
        return sp.csr_matrix(X[rows], dtype=np.float64), _codes(np.asarray(y)[rows])
    if case == "sparse-negative":
        dense = np.where(rng.random((80, 60)) < 0.3, rng.normal(size=(80, 60)).round(1), 0.0)
        y = rng.integers(0, 2, 80)
        dense[:, :5] += y[:, None] * 1.5 * (dense[:, :5] != 0)
        return sp.csr_matrix(dense), y
    y = np.repeat(np.arange(5), [9, 8, 7, 6, 5])
    X = rng.gamma(2.0, 5000.0, size=(y.size, 40)) + y[:, None] * 4000.0 * rng.random(40)
    X[:, 2] = 3.0
    X[:, 8] = X[:, 9]
    return np.round(X, -2), y


@pytest.mark.parametrize("data", ["colon", "basehock", "many-classes"])
def test_gainratio_shared_route_equals_select_on_the_resample(data):
    # gain ratio from the resample's MDL table (resample_scores), as the KDD'12 MDL
    # selectors, against gain_ratio on X[rows]
    X, y = _data(data, 13)
    sel = get_selector("gainratio")
    prepared = sel.prepare(X, y)
    assert prepared is not None
    for seed, idx in enumerate(_resamples(X.shape[0], seed=5)):
        np.testing.assert_array_equal(
            sel.select_rows(prepared, X, y, idx, random_state=seed).scores,
            sel.select(X[idx], y[idx], random_state=seed).scores)
    assert get_selector("gainratio", {"discretization": "uniform"}).prepare(X, y) is None


# ------------------------------------------------------------------ CFS's shared route
@pytest.mark.parametrize("case", ["colon", "basehock", "sparse-negative", "many-classes"])
def test_cfs_shared_route_equals_select_on_the_resample(case):
    # the resample's MDL codes from the sorted columns (resample_codes) equal
    # discretize(X[rows], y[rows]); so do CFS's subset and ranking
    from modelmine.selectors._information import discretize, resample_codes

    X, y = _data(case, 11)
    sel = get_selector("cfs")
    prepared = sel.prepare(X, y)
    for seed, idx in enumerate(_resamples(X.shape[0], seed=2)):
        codes, levels = resample_codes(prepared, y, idx)
        want_codes, want_levels = discretize(X[idx], y[idx], method="mdl")
        np.testing.assert_array_equal(levels, want_levels)
        np.testing.assert_array_equal(codes, want_codes)
        assert codes.dtype == want_codes.dtype
        if not (levels > 1).any():
            continue
        shared = sel.select_rows(prepared, X, y, idx, random_state=seed)
        alone = sel.select(X[idx], y[idx], random_state=seed)
        np.testing.assert_array_equal(shared.ranking, alone.ranking)
        np.testing.assert_array_equal(shared.support, alone.support)


def _without_compiled_kernels(monkeypatch):
    """The numpy routes of an install where ``_mdl.c`` did not build."""
    from modelmine.selectors import _information, _oner_rows, _rankers

    for module in (_information, _oner_rows, _rankers):
        monkeypatch.setattr(module, "_mdl_kernel", lambda: None)


@pytest.mark.parametrize("case", ["leukemia", "text", "six-classes"])
def test_oner_compiled_and_numpy_routes_are_the_same_floats(case, monkeypatch):
    """OneR's compiled rules (``_mdl.c``: the first pass, each value index's class, the
    hits) against the numpy passes, on both routes; the numpy passes are the code the
    WEKA oracle (``test_weka_information.py``) checked before they were compiled."""
    from modelmine.selectors import _information

    if _information._mdl_kernel() is None:
        pytest.skip("modelmine/selectors/_mdl.c did not build here (the numpy passes run)")
    rng = np.random.default_rng(11)
    if case == "leukemia":  # raw intensities, every value distinct
        X, y = mm.datasets.load("leukemia")[:2]
        X, y = np.asarray(X, dtype=np.float64)[:, :500], _codes(np.asarray(y))
    elif case == "text":
        X, y = mm.datasets.load("pcmac")[:2]
        rows = rng.choice(X.shape[0], 300, replace=False)
        X, y = sp.csr_matrix(X[rows], dtype=np.float64)[:, :600], _codes(np.asarray(y)[rows])
    else:
        y = np.repeat(np.arange(6), [9, 8, 7, 6, 5, 5])
        X = np.round(rng.gamma(2.0, 8000.0, size=(y.size, 60))
                     + y[:, None] * 3000.0 * rng.random(60), -2)
        X[:, 3] = 17.0
    sel = get_selector("oner")

    def scores():
        prepared = sel.prepare(X, y)
        out = [sel.select(X, y, random_state=1).scores]
        for seed, rows in enumerate(_resamples(X.shape[0], 4)):
            out.append(sel.select_rows(prepared, X, y, rows, random_state=seed).scores)
            out.append(sel.select(X[rows], y[rows], random_state=seed).scores)
        return out

    compiled = scores()
    _without_compiled_kernels(monkeypatch)
    for a, b in zip(compiled, scores(), strict=True):
        np.testing.assert_array_equal(a, b)
