"""ReliefF on resamples from one fold's shared work (issue 15) equals ReliefF on ``X[rows]``.

Independent truths:

- the per-resample route ``relieff_scores(X[rows], y[rows])``, itself checked against
  ``skrebate.ReliefF`` in ``test_relieff.py``: the shared route must find the same
  neighbours (rows drawn twice are two instances at distance 0, ties in distance resolved
  by ``numpy.argsort`` on the whole resample), hence the same ranks, and the same weights
  (bit for bit on discrete features, whose sums are exact integers);
- exact rational arithmetic (``fractions.Fraction``) of skrebate's weight formula: on
  discrete data every weight is the correctly rounded float of the exact value, so
  features with equal weights tie exactly and rank by index;
- the dense computation, for the sparse one in small blocks (``_BLOCK_ELEMENTS``).
"""

from __future__ import annotations

import os
from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp

import modelmine as mm
import modelmine.selectors._relieff as rel
from modelmine.selectors import get_selector, relieff_scores
from modelmine.selectors._base import ranks_from_scores
from modelmine.selectors._relieff import ReliefFFold, resample_relieff_scores

SEED = 20120812
_PCMAC = "/work/shared/datasets/PCMAC.mat"


def _codes(y: np.ndarray) -> np.ndarray:
    return np.unique(y, return_inverse=True)[1].astype(np.int64)


def _text(name: str) -> tuple[sp.csr_matrix, np.ndarray]:
    if name == "basehock":
        X, y = mm.datasets.load_basehock()[:2]
    else:
        if not os.path.exists(_PCMAC):
            pytest.skip("the shared datasets directory (PCMAC.mat) is not present")
        data = mm.datasets.read_data(_PCMAC)
        X, y = data.X, data.y
    return sp.csr_matrix(X, dtype=np.float64), _codes(np.asarray(y))


def _assert_same(X, y, fold: ReliefFFold, rows: np.ndarray, k: int = 10) -> np.ndarray:
    expected = relieff_scores(X[rows], y[rows], n_neighbors=k)
    got = resample_relieff_scores(fold, rows, n_neighbors=k)
    np.testing.assert_array_equal(ranks_from_scores(got), ranks_from_scores(expected))
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)
    discrete = rel._feature_info(X[rows])[0]
    np.testing.assert_array_equal(got[discrete], expected[discrete])
    return got


def _random_case(seed: int) -> tuple[np.ndarray, np.ndarray, int]:
    rng = np.random.default_rng(seed)
    n, p = int(rng.integers(4, 40)), int(rng.integers(1, 25))
    kind = seed % 4
    if kind == 0:  # discrete, many tied distances
        X = rng.integers(0, 3, (n, p)).astype(np.float64)
    elif kind == 1:  # continuous
        X = rng.normal(size=(n, p))
    elif kind == 2:  # mixed
        X = rng.normal(size=(n, p))
        X[:, ::2] = rng.integers(0, 2, (n, (p + 1) // 2))
    else:  # sparse counts
        X = rng.poisson(0.7, (n, p)) * (rng.random((n, p)) < 0.4).astype(np.float64)
    X[:, 0] = 1.5  # a constant column
    X[1] = X[0]  # two distinct rows with the same values
    n_classes = int(rng.integers(2, 4))
    y = rng.integers(0, n_classes, n)
    y[:n_classes] = np.arange(n_classes)
    return X, y, int(rng.integers(1, 12))


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("seed", range(24))
def test_random_resamples_with_duplicates_equal_per_resample(seed, sparse):
    X, y, k = _random_case(seed)
    Xs = sp.csr_matrix(X) if sparse else X
    fold = ReliefFFold(Xs, y)
    rng = np.random.default_rng(seed)
    n = X.shape[0]
    print(f"seed={seed}")
    for rows in (
        rng.choice(n, n),  # a bootstrap
        rng.choice(4, 2 * n),  # few distinct rows, each drawn many times
        rng.permutation(n)[: max(3, n // 2)],
    ):  # a subsample, unsorted
        if y[rows].min() == y[rows].max():
            continue
        _assert_same(Xs, y, fold, rows, k)


@pytest.mark.parametrize("name", ["basehock", "pcmac"])
def test_text_fold_bootstraps_equal_per_resample(name):
    # One training fold (90 % of a slice of the rows), two bootstraps of it: sparse counts,
    # mixed feature types (a few words have more than 10 distinct counts).
    X, y = _text(name)
    rng = np.random.default_rng(SEED)
    keep = np.sort(rng.choice(X.shape[0], 500, replace=False))
    X, y = X[keep], y[keep]
    fold = ReliefFFold(X, y)
    for _ in range(2):
        _assert_same(X, y, fold, rng.choice(X.shape[0], X.shape[0]))


@pytest.mark.parametrize("name", ["colon", "leukemia"])
def test_microarray_bootstraps_equal_per_resample(name, monkeypatch):
    # colon is all discrete (many tied Hamming distances: the k-th neighbour is often tied
    # with another row, which must be replayed in numpy.argsort's order), leukemia all
    # continuous.
    X, y = getattr(mm.datasets, f"load_{name}")()[:2]
    X, y = np.asarray(X, dtype=np.float64), _codes(np.asarray(y))
    replayed = []
    original = rel._exact_instance_neighbours

    def counting(*args, **kwargs):
        replayed.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(rel, "_exact_instance_neighbours", counting)
    fold = ReliefFFold(X, y)
    rng = np.random.default_rng(SEED)
    for _ in range(3):
        _assert_same(X, y, fold, rng.choice(X.shape[0], X.shape[0]))
    if name == "colon":
        assert replayed, "no tie at the k-th neighbour was replayed on colon"


def test_multiclass_mixed_with_constant_columns():
    X, y = mm.datasets.load_prostate()[:2]
    X, y = np.asarray(X, dtype=np.float64)[:, :800].copy(), _codes(np.asarray(y))
    y[::3] = 2
    X[:, 7] = 3.5  # constant
    X[:50, 11] = 0.0  # constant in resamples drawn from the first 50 rows
    fold = ReliefFFold(X, y)
    rng = np.random.default_rng(SEED)
    for rows in (rng.choice(X.shape[0], X.shape[0]), rng.choice(50, 50)):
        got = _assert_same(X, y, fold, rows)
        assert got[7] == 0.0


def test_class_with_fewer_than_k_copies():
    # A class drawn fewer than k times: every copy is a neighbour, the instance included.
    X, y, _ = _random_case(1)
    y = np.zeros(X.shape[0], dtype=np.int64)
    y[:3] = 1
    rows = np.r_[np.arange(3), np.arange(3), np.arange(3, X.shape[0])]
    _assert_same(X, y, ReliefFFold(X, y), rows)


def _exact_weights(X: np.ndarray, y: np.ndarray, k: int) -> list[Fraction]:
    """skrebate's weight formula in exact arithmetic, on skrebate's neighbours."""
    n, p = X.shape
    n_classes = int(y.max()) + 1
    discrete, mn, rng, _ = rel._feature_info(X)
    assert discrete.all()
    D = rel._distance_matrix(X, discrete, mn, rng)
    inst, neigh = rel._neighbour_pairs(D, y, k, n_classes)
    counts = [min(int(c), k) for c in np.bincount(y, minlength=n_classes)]
    total = [Fraction(0)] * p
    for i, j in zip(inst, neigh, strict=True):
        ci, cj = int(y[i]), int(y[j])
        misses = sum(counts) - counts[ci]
        w = (
            Fraction(-1, counts[ci])
            if ci == cj
            else Fraction(counts[cj] * (n_classes - 1), misses * misses)
        )
        for f in np.flatnonzero(X[i] != X[j]):
            total[f] += w
    return [t / n for t in total]


@pytest.mark.parametrize("n_classes", [2, 3])
def test_discrete_weights_are_correctly_rounded_exact_values(n_classes):
    rng = np.random.default_rng(SEED + n_classes)
    X = rng.integers(0, 2, (40, 60)).astype(np.float64)
    y = rng.integers(0, n_classes, 40)
    y[:n_classes] = np.arange(n_classes)
    exact = _exact_weights(X, y, 5)
    got = relieff_scores(X, y, n_neighbors=5)
    assert [float(e) for e in exact] == got.tolist()
    # hence equal weights are equal floats and rank by feature index
    fold = ReliefFFold(X, y)
    np.testing.assert_array_equal(resample_relieff_scores(fold, np.arange(40), n_neighbors=5), got)
    assert len(set(exact)) == len(set(got.tolist())) < 60


@pytest.mark.slow  # starting the second worker process takes seconds
def test_bootstrap_uses_shared_route_equals_plain_loop_and_any_n_jobs():
    X, y = _text("basehock")
    keep = np.sort(np.random.default_rng(SEED).choice(X.shape[0], 300, replace=False))
    X, y = X[keep][:, :800], y[keep]
    base, base2 = (
        mm.bootstrap(
            X,
            y,
            "relieff",
            selector_params={"variant": "skrebate"},  # scikit-rebate's shared route
            n_bootstraps=4,
            n_features=20,
            random_state=5,
            fit_full=False,
            n_jobs=n_jobs,
        )
        for n_jobs in (1, 2)
    )
    np.testing.assert_array_equal(base.scores, base2.scores)
    np.testing.assert_array_equal(base.ranks, base2.ranks)
    sel = get_selector("relieff", {"variant": "skrebate"})
    assert isinstance(sel.prepare(X, y), ReliefFFold)
    for i, rows in enumerate(base.sample_indices):
        plain = sel.select(X[rows], y[rows], random_state=0).scores
        np.testing.assert_array_equal(base.ranks[i], ranks_from_scores(plain))
        np.testing.assert_allclose(base.scores[i], plain.astype(np.float32), rtol=1e-6)


def test_weka_variants_take_their_own_shared_route():
    # WEKA's ReliefF (and its -W form) shares the data, not the mismatch counts: see
    # tests/kernels/test_relieff_weka_shared.py
    from modelmine.selectors._relieff_weka import WekaReliefFFold

    X, y = mm.datasets.load_colon()[:2]
    for params in ({"weight_by_distance": True}, {"variant": "weka"}, {}):  # {}: default
        sel = get_selector("relieff", params)
        assert isinstance(sel.prepare(np.asarray(X), _codes(np.asarray(y))), WekaReliefFFold)


@pytest.mark.parametrize(
    ("rows", "k", "match"),
    [
        (
            np.array([0, 1, 40]),
            10,
            r"The 'rows' parameter of resample_relieff_scores must be "
            r"a non-empty 1-d array of row indices in \[0, 40\)",
        ),
        (np.array([0.0, 1.0]), 10, r"rows.* Got an array of shape \(2,\) and dtype float64"),
        (np.array([], dtype=int), 10, r"The 'rows' parameter"),
        (np.arange(5), 0, r"The 'n_neighbors' parameter of resample_relieff_scores"),
    ],
)
def test_bad_input_is_refused_with_the_parameter_named(rows, k, match):
    X, y, _ = _random_case(3)
    X, y = np.resize(X, (40, X.shape[1])), np.resize(y, 40)
    with pytest.raises(ValueError, match=match):
        resample_relieff_scores(ReliefFFold(X, y), rows, n_neighbors=k)


def test_sparse_equals_dense_basehock(monkeypatch):
    # Small blocks so that column and row blocking are both exercised.
    monkeypatch.setattr(rel, "_BLOCK_ELEMENTS", 20_000)
    X, y = mm.datasets.load_basehock()
    X, y = X[::8], _codes(y[::8])
    sparse = relieff_scores(X, y)
    dense = relieff_scores(X.toarray(), y)
    np.testing.assert_array_equal(sparse, dense)
    assert np.count_nonzero(sparse) > 100
