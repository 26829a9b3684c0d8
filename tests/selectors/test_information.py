"""Tests of the MDL / quantile / uniform discretisations and of IG and SU.

Independent truths: a direct per-feature, recursive translation of WEKA's
``Discretize.cutPointsForSubset`` (written here with scalar Python arithmetic), hand-worked
Fayyad & Irani examples, pandas ``cut`` / ``qcut``, and a per-feature loop of
``sklearn.metrics.mutual_info_score`` / ``scipy.stats.entropy`` on the same codes.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import entropy
from sklearn.metrics import mutual_info_score

import modelmine as mm
from modelmine.selectors import discretize, information_gain, symmetrical_uncertainty
from modelmine.selectors._information import _mdl_cuts_block

SEED = 20120812


# ---------------------------------------------------------------- WEKA reference (scalar)
def _lnfunc(x: float) -> float:
    return 0.0 if x <= 0 else x * math.log(x)


def _entropy_bits(counts: list[float]) -> float:
    value, total = 0.0, 0.0
    for c in counts:
        value -= _lnfunc(c)
        total += c
    return 0.0 if total == 0 else (value + _lnfunc(total)) / (total * math.log(2))


def _cond_entropy_bits(rows: list[list[float]]) -> float:
    value, total = 0.0, 0.0
    for row in rows:
        row_sum = 0.0
        for c in row:
            value += _lnfunc(c)
            row_sum += c
        value -= _lnfunc(row_sum)
        total += row_sum
    return 0.0 if total == 0 else -value / (total * math.log(2))


def _weka_mdl_cuts(
    x: np.ndarray, y: np.ndarray, k: int, better_encoding: bool = True
) -> list[float]:
    """WEKA's cutPointsForSubset on one feature, recursively, as written in Discretize.java
    (``better_encoding``: ``m_UseBetterEncoding``, the number of boundaries between distinct
    values as the count of candidate cuts, as WEKA's attribute evaluators set it)."""
    order = np.argsort(x, kind="stable")
    xs, ys = [float(v) for v in x[order]], [int(v) for v in y[order]]

    def cuts(first: int, last_plus_one: int) -> list[float]:
        if last_plus_one - first < 2:
            return []
        right = [0.0] * k
        for i in range(first, last_plus_one):
            right[ys[i]] += 1
        prior = list(right)
        left = [0.0] * k
        prior_ent = _entropy_bits(prior)
        best_ent, best_index, best_cut, best_counts = prior_ent, -1, None, None
        n_cut_points = 0
        for i in range(first, last_plus_one - 1):
            left[ys[i]] += 1
            right[ys[i]] -= 1
            if xs[i] < xs[i + 1]:
                n_cut_points += 1
                ent = _cond_entropy_bits([left, right])
                if ent < best_ent:
                    best_ent, best_index = ent, i
                    best_cut = (xs[i] + xs[i + 1]) / 2.0
                    best_counts = (list(left), list(right))
        n_inst = last_plus_one - first
        if prior_ent - best_ent <= 0 or best_counts is None:
            return []
        bl, br = best_counts
        gain = prior_ent - _cond_entropy_bits([bl, br])
        kt = sum(c > 0 for c in prior)
        kl = sum(c > 0 for c in bl)
        kr = sum(c > 0 for c in br)
        delta = math.log(3.0**kt - 2) / math.log(2) - (
            kt * prior_ent - kr * _entropy_bits(br) - kl * _entropy_bits(bl)
        )
        charged = n_cut_points if better_encoding else n_inst - 1
        if not gain > (math.log(charged) / math.log(2) + delta) / n_inst:
            return []
        return [*cuts(first, best_index + 1), best_cut, *cuts(best_index + 1, last_plus_one)]

    return cuts(0, len(xs))


def _weka_codes(x: np.ndarray, cuts: list[float]) -> np.ndarray:
    """WEKA's convertInstance: the first j with x <= cut_j."""
    out = np.empty(x.size, dtype=np.int64)
    for i, v in enumerate(x):
        j = 0
        while j < len(cuts) and not v <= cuts[j]:
            j += 1
        out[i] = j
    return out


def _check_against_weka(X: np.ndarray, y: np.ndarray, better_encoding: bool = True) -> None:
    k = int(y.max()) + 1
    codes, n_levels = discretize(X, y, method="mdl", better_encoding=better_encoding)
    cut_feat, cut_val = _mdl_cuts_block(X, y, k, better_encoding)
    for j in range(X.shape[1]):
        ref = _weka_mdl_cuts(X[:, j], y, k, better_encoding)
        ours = np.sort(cut_val[cut_feat == j])
        assert ours.tolist() == ref, f"feature {j}"
        assert n_levels[j] == len(ref) + 1
        np.testing.assert_array_equal(codes[:, j], _weka_codes(X[:, j], ref))


def _codes(y: np.ndarray) -> np.ndarray:
    return np.unique(y, return_inverse=True)[1].astype(np.int64)


# ---------------------------------------------------------------- MDL
def test_mdl_textbook_perfect_split():
    # Fayyad & Irani: a boundary point separating two pure classes. N = 10,
    # gain = 1 bit > (log2(9) + log2(7) - 2) / 10 = 0.398, so the cut at 5.5 is kept;
    # both halves are pure (no gain), so the recursion stops there.
    x = np.arange(1.0, 11.0)[:, None]
    y = np.array([0] * 5 + [1] * 5)
    _, cut_val = _mdl_cuts_block(x, y, 2)
    assert cut_val.tolist() == [5.5]
    codes, n_levels = discretize(x, y)
    assert codes[:, 0].tolist() == [0] * 5 + [1] * 5 and n_levels.tolist() == [2]


def test_mdl_textbook_rejected_split():
    # x = 1..4, classes 0 1 0 1: the best cut (after x = 1) has conditional entropy
    # 3/4 * H(1/3) = 0.6887 bits, gain 0.3113; the MDL bound is
    # (log2 3 + log2 7 - (2 * 1 - 0 - 1 * 0.9183)) / 4 = 0.8885 > gain: no cut.
    x = np.array([[1.0], [2.0], [3.0], [4.0]])
    y = np.array([0, 1, 0, 1])
    codes, n_levels = discretize(x, y)
    assert n_levels.tolist() == [1] and codes.max() == 0
    assert information_gain(x, y).tolist() == [0.0]


def test_mdl_three_intervals():
    # Three pure blocks of 20: two cuts, at the two class boundaries (each accepted:
    # the MDL bound is far below the gain for N = 60 and N = 40).
    x = np.arange(60, dtype=float)[:, None]
    y = np.repeat([0, 1, 2], 20)
    _, cut_val = _mdl_cuts_block(x, y, 3)
    assert sorted(cut_val.tolist()) == [19.5, 39.5]


@pytest.mark.parametrize("n_classes", [2, 3, 4])
@pytest.mark.parametrize("n_values", [3, 8, 1000])
def test_mdl_equals_weka_reference_random(n_classes, n_values):
    rng = np.random.default_rng(SEED + n_classes * 10 + n_values)
    n, p = 80, 40
    y = rng.integers(0, n_classes, n)
    y[:n_classes] = np.arange(n_classes)
    signal = rng.normal(size=(n, p)) + y[:, None] * rng.uniform(0, 2, p)
    # Few distinct values create ties and boundaries inside runs of equal values.
    X = np.floor(signal * n_values / 6.0) if n_values < 1000 else signal
    X[:, 0] = 3.0  # constant feature
    _check_against_weka(X, y)
    _check_against_weka(X, y, better_encoding=False)  # the standalone filter's default


def test_mdl_equals_weka_reference_colon():
    X, y = mm.datasets.load_colon()
    _check_against_weka(X, _codes(y))


@pytest.mark.slow
def test_mdl_equals_weka_reference_leukemia():
    X, y = mm.datasets.load_leukemia()
    _check_against_weka(X[:, ::3], _codes(y))


# ---------------------------------------------------------------- unsupervised methods
@pytest.mark.parametrize("n_bins", [2, 5, 10])
def test_uniform_and_quantile_match_pandas(n_bins):
    rng = np.random.default_rng(SEED + n_bins)
    X = np.column_stack(
        [
            rng.normal(size=120),
            rng.integers(0, 4, 120).astype(float),  # heavy ties
            rng.exponential(size=120),
            np.r_[np.zeros(100), rng.normal(size=20)],  # mostly one value
        ]
    )
    y = rng.integers(0, 2, 120)
    for method, pandas_fn in (("uniform", pd.cut), ("quantile", pd.qcut)):
        codes, n_levels = discretize(X, y, method=method, n_bins=n_bins)
        for j in range(X.shape[1]):
            if pandas_fn is pd.cut:
                ref, bins = pd.cut(X[:, j], n_bins, labels=False, retbins=True)
            else:
                ref, bins = pd.qcut(X[:, j], n_bins, labels=False, retbins=True, duplicates="drop")
            np.testing.assert_array_equal(codes[:, j], ref, err_msg=f"{method} {j}")
            # pandas keeps empty equal-width bins; levels = its number of bins.
            assert n_levels[j] == len(bins) - 1


@pytest.mark.parametrize("method", ["mdl", "quantile", "uniform"])
def test_constant_feature_has_one_level_and_zero_scores(method):
    rng = np.random.default_rng(SEED)
    X = rng.normal(size=(50, 3))
    X[:, 1] = 7.0
    y = (X[:, 0] > 0).astype(np.int64)
    codes, n_levels = discretize(X, y, method=method)
    assert n_levels[1] == 1 and not codes[:, 1].any()
    assert information_gain(X, y, discretization=method)[1] == 0.0
    assert symmetrical_uncertainty(X, y, discretization=method)[1] == 0.0


# ---------------------------------------------------------------- IG and SU vs sklearn/scipy
def _reference_ig_su(codes: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    # IG in bits (WEKA's unit): sklearn's mutual information (nats) / ln 2
    h_c = entropy(np.bincount(y))
    ig = np.array([mutual_info_score(y, codes[:, j]) for j in range(codes.shape[1])])
    h_f = np.array([entropy(np.bincount(codes[:, j])) for j in range(codes.shape[1])])
    su = np.where(h_c + h_f > 0, 2 * ig / (h_c + h_f), 0.0)
    return ig / np.log(2), su


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "method"), [("colon", "mdl"), ("colon", "quantile"), ("leukemia", "mdl")]
)
def test_ig_su_equal_sklearn_loop(name, method):
    X, y = getattr(mm.datasets, f"load_{name}")()
    y = _codes(y)
    codes, _ = discretize(X, y, method=method)
    ig_ref, su_ref = _reference_ig_su(codes, y)
    np.testing.assert_allclose(
        information_gain(X, y, discretization=method), ig_ref, rtol=0, atol=1e-12
    )
    np.testing.assert_allclose(
        symmetrical_uncertainty(X, y, discretization=method), su_ref, rtol=0, atol=1e-12
    )


@pytest.mark.parametrize("method", ["mdl", "quantile", "uniform"])
def test_ig_su_multiclass_equal_sklearn_loop(method):
    rng = np.random.default_rng(SEED)
    y = np.repeat([0, 1, 2, 3], 25)
    X = rng.normal(size=(100, 60)) + np.outer(y, rng.uniform(0, 1.5, 60))
    codes, _ = discretize(X, y, method=method, n_bins=6)
    ig_ref, su_ref = _reference_ig_su(codes, y)
    ig = information_gain(X, y, discretization=method, n_bins=6)
    su = symmetrical_uncertainty(X, y, discretization=method, n_bins=6)
    np.testing.assert_allclose(ig, ig_ref, rtol=0, atol=1e-12)
    np.testing.assert_allclose(su, su_ref, rtol=0, atol=1e-12)
    assert np.all((su >= 0) & (su <= 1)) and np.all(ig <= entropy(np.bincount(y), base=2) + 1e-12)


def test_ig_of_perfect_predictor_is_class_entropy():
    y = np.repeat([0, 1, 2], 30)
    X = np.column_stack([y * 10.0 + 0.5, np.zeros(90)])
    ig = information_gain(X, y)
    su = symmetrical_uncertainty(X, y)
    assert ig[0] == pytest.approx(math.log2(3), abs=1e-14) and ig[1] == 0.0
    assert su[0] == pytest.approx(1.0, abs=1e-14) and su[1] == 0.0


# ---------------------------------------------------------------- sparse input
@pytest.mark.parametrize("method", ["mdl", "quantile", "uniform"])
def test_sparse_equals_dense(method, monkeypatch):
    import modelmine.selectors._information as info

    # Small blocks so that the column blocking is exercised.
    monkeypatch.setattr(info, "_BLOCK_ELEMENTS", 200_000)
    X, y = mm.datasets.load_basehock()
    X = X[:300]
    y = _codes(y[:300])
    dense = X.toarray()
    c_s, l_s = discretize(X, y, method=method)
    c_d, l_d = discretize(dense, y, method=method)
    np.testing.assert_array_equal(c_s, c_d)
    np.testing.assert_array_equal(l_s, l_d)
    np.testing.assert_array_equal(
        information_gain(X, y, discretization=method),
        information_gain(dense, y, discretization=method),
    )


# ---------------------------------------------------------------- bad parameters
@pytest.mark.parametrize(
    ("func", "kwargs", "exc", "match"),
    [
        (
            discretize,
            {"method": "entropy"},
            ValueError,
            r"The 'method' parameter of discretize must be one of 'mdl', 'quantile', 'uniform'\. "
            r"Got 'entropy' instead\.",
        ),
        (
            discretize,
            {"method": "uniform", "n_bins": 1},
            ValueError,
            r"The 'n_bins' parameter of discretize must be an integer >= 2\. Got 1 instead\.",
        ),
        (
            information_gain,
            {"discretization": "MDL"},
            ValueError,
            r"The 'discretization' parameter of information_gain must be one of",
        ),
        (
            symmetrical_uncertainty,
            {"n_bins": 2.5},
            TypeError,
            r"The 'n_bins' parameter of symmetrical_uncertainty must be an integer >= 2\. "
            r"Got 2\.5 instead\.",
        ),
    ],
)
def test_bad_parameters(func, kwargs, exc, match):
    X = np.arange(20.0).reshape(10, 2)
    y = np.array([0, 1] * 5)
    with pytest.raises(exc, match=match):
        func(X, y, **kwargs)


# ------------------------------------------- one sort per data set, shared by its resamples
# The oracle is the per-resample route itself: information_gain / symmetrical_uncertainty /
# the chi2 selector called on X[rows], y[rows] (checked against WEKA above); the shared
# route must give the same scores bit for bit.

_PCMAC = "/work/shared/datasets/PCMAC.mat"


def _text(name: str):
    import os

    import scipy.sparse as sp

    if name == "basehock":
        X, y = mm.datasets.load_basehock()[:2]
    else:
        if not os.path.exists(_PCMAC):
            pytest.skip("the shared datasets directory (PCMAC.mat) is not present")
        data = mm.datasets.read_data(_PCMAC)
        X, y = data.X, data.y
    return sp.csr_matrix(X, dtype=np.float64), _codes(np.asarray(y))


def _assert_shared_equals_per_resample(X, y, rows_list):
    from modelmine.selectors._builtin import Chi2Selector
    from modelmine.selectors._information import SortedColumns, resample_scores

    fold = SortedColumns(X)
    for rows in rows_list:
        Xr, yr = X[rows], y[rows]
        np.testing.assert_array_equal(
            resample_scores(fold, y, rows, "ig"), information_gain(Xr, yr)
        )
        np.testing.assert_array_equal(
            resample_scores(fold, y, rows, "su"), symmetrical_uncertainty(Xr, yr)
        )
        np.testing.assert_array_equal(
            resample_scores(fold, y, rows, "chi2"),
            Chi2Selector().select(Xr, yr, random_state=0).scores,
        )


def _text_resample(name: str, n_words: int | None):
    X, y = _text(name)
    rng = np.random.default_rng(SEED)
    n = X.shape[0]
    if name == "basehock":  # a bootstrap: rows repeat
        rows = np.sort(rng.choice(n, n))
    else:  # a subsample, unsorted
        rows = rng.choice(n, int(0.9 * n), replace=False)
    return X[:, :n_words], y, rows


@pytest.mark.parametrize("name", ["basehock", "pcmac"])
def test_shared_sort_equals_per_resample_on_text(name):
    """Every document, the first 1,000 words (each column's scores are computed on their
    own); every word in the slow twin below."""
    X, y, rows = _text_resample(name, 1000)
    _assert_shared_equals_per_resample(X, y, [rows])


@pytest.mark.slow
@pytest.mark.parametrize("name", ["basehock", "pcmac"])
def test_shared_sort_equals_per_resample_on_all_the_words(name):
    X, y, rows = _text_resample(name, None)
    _assert_shared_equals_per_resample(X, y, [rows])


@pytest.mark.parametrize("name", ["colon", "leukemia"])
def test_shared_sort_equals_per_resample_on_microarrays(name):
    X, y = getattr(mm.datasets, f"load_{name}")()[:2]
    X, y = np.asarray(X, dtype=np.float64)[:, :2000], _codes(np.asarray(y))
    rng = np.random.default_rng(SEED)
    rows_list = [np.sort(rng.choice(X.shape[0], X.shape[0])) for _ in range(2)]
    rows_list.append(rng.permutation(X.shape[0])[:20])  # unsorted, few rows
    _assert_shared_equals_per_resample(X, y, rows_list)


def test_shared_sort_equals_per_resample_multiclass_and_constant_columns():
    X, y = mm.datasets.load_prostate()[:2]
    X, y = np.asarray(X, dtype=np.float64)[:, :500].copy(), _codes(np.asarray(y))
    y = y.copy()
    y[(y == 0) & (X[:, 0] > np.median(X[:, 0]))] = 2  # three classes on real values
    X[:, 7] = 3.5  # a constant column
    X[:50, 11] = 0.0  # a column constant in resamples drawn from the first 50 rows
    rng = np.random.default_rng(SEED)
    rows_list = [np.sort(rng.choice(X.shape[0], X.shape[0])), rng.choice(50, 50)]
    _assert_shared_equals_per_resample(X, y, rows_list)


def test_text_mdl_cuts_equal_weka_reference():
    # word counts: few distinct values, many ties (the distinct-value search's case)
    X, y = _text("basehock")
    rows = np.random.default_rng(SEED).choice(X.shape[0], 300, replace=False)
    dense = X[rows][:, :300].toarray()
    _check_against_weka(dense, y[rows])


@pytest.mark.parametrize("selector", ["ig", "su", "chi2"])
def test_bootstrap_with_shared_sort_equals_plain_loop_and_any_n_jobs(selector):
    X, y = _text("basehock")
    keep = np.sort(np.random.default_rng(SEED).choice(X.shape[0], 400, replace=False))
    X, y = X[keep][:, :600], y[keep]
    base = mm.bootstrap(
        X, y, selector, n_bootstraps=6, n_features=20, random_state=3, fit_full=False, n_jobs=1
    )
    base2 = mm.bootstrap(
        X, y, selector, n_bootstraps=6, n_features=20, random_state=3, fit_full=False, n_jobs=2
    )
    np.testing.assert_array_equal(base.scores, base2.scores)
    np.testing.assert_array_equal(base.ranks, base2.ranks)
    sel = mm.selectors.get_selector(selector)
    for i, rows in enumerate(base.sample_indices):
        plain = sel.select(X[rows], y[rows], random_state=0).scores
        np.testing.assert_array_equal(base.scores[i], plain.astype(np.float32))


def test_shared_sort_sparse_with_negative_values_and_explicit_zeros():
    # the sparse route counts stored entries and gives the rest to the value 0: check it
    # where 0 is not the smallest value, where zeros are stored explicitly, and where a
    # column has no zero at all
    import scipy.sparse as sp

    X, y = mm.datasets.load_colon()[:2]
    X, y = np.asarray(X, dtype=np.float64)[:, :300].copy(), _codes(np.asarray(y))
    X[np.abs(X) < 0.8] = 0.0
    X[:, 5] = np.linspace(-3.0, -1.0, X.shape[0])  # negative, no zero
    Xs = sp.csc_matrix(X)
    Xs.data[:7] = 0.0  # explicit zeros in the first column(s)
    rng = np.random.default_rng(SEED)
    rows_list = [np.sort(rng.choice(X.shape[0], X.shape[0])), rng.choice(40, 30)]
    _assert_shared_equals_per_resample(sp.csr_matrix(Xs), y, rows_list)


# ------------------------------- the integer-count search: x ln x from a table, bit for bit
def test_integer_count_entropies_equal_float_formulas_bit_for_bit():
    # oracle: WEKA's float formulas (_weka_entropy, _weka_conditional_entropy, _mdl_accepts)
    # on the same counts held in float64; the table route must give the very same bits
    from modelmine.selectors._information import (
        _mdl_accepts,
        _mdl_accepts_counts,
        _weka_conditional_entropy,
        _weka_conditional_entropy_counts,
        _weka_entropy,
        _weka_entropy_counts,
        _xlnx,
    )

    rng = np.random.default_rng(SEED)
    for n_classes in (2, 3, 5):
        left = rng.integers(0, 900, (4000, n_classes))
        right = rng.integers(0, 900, (4000, n_classes))
        left[::7, 0] = 0  # classes absent from a part
        right[::5] = 0  # an empty part
        right[::5, 1] = 1
        prior = left + right
        xlnx = _xlnx(np.arange(int(prior.sum(axis=1).max()) + 1, dtype=np.float64))
        fl, fr, fp = (a.astype(np.float64) for a in (left, right, prior))
        assert np.array_equal(_weka_entropy_counts(prior, xlnx), _weka_entropy(fp))
        assert np.array_equal(
            _weka_conditional_entropy_counts(left, right, xlnx),
            _weka_conditional_entropy(fl, fr),
        )
        accepts = _mdl_accepts_counts(prior, left, right, _weka_entropy(fp), xlnx)
        assert np.array_equal(accepts, _mdl_accepts(fp, fl, fr, fp.sum(axis=1)))


def _wide_column_among_binary(X, rng):
    """Sparse X plus two columns of many distinct values (one of them negative somewhere)."""
    import scipy.sparse as sp

    n = X.shape[0]
    wide = np.round(rng.gamma(2.0, 3.0, n), 1) * (rng.random(n) < 0.7)
    signed = np.round(rng.normal(0.0, 2.0, n), 2) * (rng.random(n) < 0.5)
    return sp.csr_matrix(sp.hstack([X, sp.csr_matrix(np.c_[wide, signed])]))


def test_shared_sort_wide_column_among_binary_synthetic():
    # mostly-binary sparse columns (the word-presence case) beside columns with hundreds of
    # distinct values, three classes: the padded work arrays are as wide as the widest
    # column; oracle = the per-resample route, itself checked against WEKA's recursion
    import scipy.sparse as sp

    rng = np.random.default_rng(SEED)
    n, p = 240, 60
    y = rng.integers(0, 3, n).astype(np.int64)
    X = sp.csr_matrix((rng.random((n, p)) < 0.1 + 0.2 * (y[:, None] == 1)).astype(np.float64))
    X = _wide_column_among_binary(X, rng)
    assert np.diff(sp.csc_matrix(X).indptr)[-2:].min() > 100
    rows_list = [np.sort(rng.choice(n, n)), rng.choice(n, 150, replace=False)]
    _assert_shared_equals_per_resample(X, y, rows_list)
    _check_against_weka(X[rows_list[0]].toarray()[:, -5:], y[rows_list[0]])


def test_shared_sort_wide_column_among_pcmac_words():
    X, y = _text("pcmac")
    rng = np.random.default_rng(SEED)
    keep = np.sort(rng.choice(X.shape[0], 500, replace=False))
    X, y = _wide_column_among_binary(X[keep][:, :800], rng), y[keep]
    rows_list = [np.sort(rng.choice(500, 500)), rng.choice(500, 300, replace=False)]
    _assert_shared_equals_per_resample(X, y, rows_list)


def _check_sparse_fold_equals_dense_sort(Xs):
    # oracle: the dense route's sort of every column (np.argsort of X.toarray())
    import scipy.sparse as sp

    from modelmine.selectors._information import SortedColumns

    dense = SortedColumns(Xs.toarray())
    fold = SortedColumns(Xs)
    np.testing.assert_array_equal(fold.n_groups, dense.n_groups)
    np.testing.assert_array_equal(fold.values, dense.values)
    Xc = sp.csc_matrix(Xs)
    cols = np.repeat(np.arange(Xs.shape[1]), np.diff(Xc.indptr))
    np.testing.assert_array_equal(fold.rows, Xc.indices)
    np.testing.assert_array_equal(fold.entry_group, dense.group[Xc.indices, cols])
    # the index of the value 0 = number of distinct negative values below it
    for j in range(Xs.shape[1]):
        distinct = np.unique(Xs[:, [j]].toarray())
        assert fold.zero_group[j] == np.count_nonzero(distinct < 0)
    assert fold.group is None  # no n x p matrix for sparse input


def test_sparse_fold_sorts_stored_entries_like_dense_columns():
    import scipy.sparse as sp

    X = np.asarray(mm.datasets.load_colon()[0], dtype=np.float64)[:, :120].copy()
    X[np.abs(X) < 0.8] = 0.0
    X[:, 5] = np.linspace(-3.0, -1.0, X.shape[0])  # negative, no zero: fully stored
    X[:, 9] = 0.0  # nothing stored
    X[:, 11] = np.where(np.arange(X.shape[0]) % 2, -1.5, 0.0)  # 0 above a negative value
    Xs = sp.csc_matrix(X)
    Xs.data[:7] = 0.0  # explicit zeros
    _check_sparse_fold_equals_dense_sort(sp.csr_matrix(Xs))


def test_sparse_fold_sorts_stored_entries_like_dense_columns_pcmac():
    X, _ = _text("pcmac")
    _check_sparse_fold_equals_dense_sort(X[:300][:, :400])
@pytest.mark.parametrize("func", ["information_gain", "symmetrical_uncertainty", "gain_ratio"])
def test_scores_of_discretised_features_name_themselves_in_errors(func):
    score = getattr(mm.selectors, func)
    X = np.arange(12.0).reshape(6, 2)
    y = np.array([0, 1] * 3)
    with pytest.raises(ValueError, match=rf"'discretization' parameter of {func} must be one "
                                         r"of 'mdl', 'quantile', 'uniform'\. Got 'mld' "
                                         r"instead\. Did you mean 'mdl'\?"):
        score(X, y, discretization="mld")
    with pytest.raises(ValueError, match=rf"'n_bins' parameter of {func} must be an integer "
                                         r">= 2\. Got 1 instead"):
        score(X, y, discretization="uniform", n_bins=1)


# ------------------- the compiled search (_mdl.c) against WEKA's port and the numpy search
def _kernel_or_skip():
    from modelmine.selectors import _information

    if _information._mdl_kernel() is None:
        pytest.skip("modelmine/selectors/_mdl.c did not build here (the numpy search runs)")
    return _information


def _random_block(rng, n, p, k, n_values):
    y = rng.integers(0, k, n)
    X = rng.integers(0, n_values, size=(n, p)).astype(np.float64)
    X[:, : p // 2] += (rng.random(p // 2) * 3)[None, :] * y[:, None]  # informative half
    X[:, -1] = 2.5  # a constant column
    return X, y


@pytest.mark.parametrize("better_encoding", [True, False])
@pytest.mark.parametrize("k", [2, 3, 5])
def test_compiled_search_equals_weka_port_column_by_column(better_encoding, k):
    """The compiled kernel (``discretize`` and ``_mdl_cuts_block`` run it when it is built)
    gives WEKA's cuts exactly (the scalar port of ``cutPointsForSubset`` above), on ties,
    constant columns, many classes and both encodings."""
    _kernel_or_skip()
    rng = np.random.default_rng(SEED + k)
    for n, n_values in ((12, 3), (60, 8), (150, 1000)):
        X, y = _random_block(rng, n, 25, k, n_values)
        _check_against_weka(X, y, better_encoding)


@pytest.mark.parametrize("better_encoding", [True, False])
def test_compiled_search_equals_numpy_search_on_resamples(better_encoding):
    """On resamples (values absent from the resample have zero counts, rows drawn twice
    count twice) the kernel's levels, numbers of cuts and cuts are the numpy search's, bit
    for bit; and the resample's cuts are WEKA's on ``X[rows]``."""
    inf = _kernel_or_skip()
    rng = np.random.default_rng(SEED)
    X, y = mm.datasets.load_leukemia()[:2]
    X, y = np.asarray(X, dtype=np.float64)[:, :600], _codes(np.asarray(y))
    y = y.copy()
    y[(y == 0) & (rng.random(y.size) < 0.4)] = 2  # three classes
    fold = inf.SortedColumns(X)
    for rows in (rng.choice(y.size, y.size), rng.choice(30, 20)):
        yr = y[rows]
        k = int(yr.max()) + 1
        for a, b, width in fold.blocks(rows.size, k):
            counts = inf._dense_counts(fold, a, b, width, rows, yr, k)
            ref = np.zeros_like(counts)
            np.add.at(ref, (np.arange(b - a)[None, :], fold.group[rows, a:b], yr[:, None]), 1)
            np.testing.assert_array_equal(counts, ref)  # the compiled counting
            ours = inf._search_levels(counts, fold.values[a:b], rows.size, better_encoding)
            numpy_route = inf._search_levels_numpy(counts, fold.values[a:b, :width],
                                                   better_encoding)
            np.testing.assert_array_equal(ours[0], numpy_route[0])
            np.testing.assert_array_equal(ours[1], numpy_route[1])
            for j in range(b - a):
                cuts = np.sort(ours[3][ours[2] == j]).tolist()
                assert cuts == np.sort(numpy_route[3][numpy_route[2] == j]).tolist()
                assert cuts == _weka_mdl_cuts(X[rows, a + j], yr, k, better_encoding)


def test_scores_without_the_compiled_search_are_the_same_floats(monkeypatch):
    """An install where ``_mdl.c`` did not build runs the numpy search: every score of the
    four MDL selectors and every CFS code is the same float, dense, sparse and shared."""
    import scipy.sparse as sp

    from modelmine.selectors import _information as inf

    X, y = mm.datasets.load_colon()[:2]
    X, y = np.asarray(X, dtype=np.float64)[:, :400], _codes(np.asarray(y))
    Xt, yt = _text("basehock")
    keep = np.random.default_rng(SEED).choice(Xt.shape[0], 300, replace=False)
    cases = [(X, y), (sp.csr_matrix(Xt[keep][:, :500]), yt[keep])]
    rows = [np.random.default_rng(SEED).choice(d[1].size, d[1].size) for d in cases]

    def everything():
        out = []
        for (data, labels), r in zip(cases, rows):
            fold = inf.sorted_columns(data)
            out += [inf.resample_scores(fold, labels, r, s) for s in ("ig", "su", "chi2",
                                                                       "gainratio")]
            out += list(inf.resample_codes(fold, labels, r))
            out += list(discretize(data, labels))
        return out

    compiled = everything()
    monkeypatch.setattr(inf, "_mdl_kernel", lambda: None)
    for a, b in zip(compiled, everything()):
        np.testing.assert_array_equal(a, b)
