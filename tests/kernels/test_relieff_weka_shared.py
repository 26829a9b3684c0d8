"""WEKA's ReliefF on resamples of one fold (issue 37) equals WEKA's ReliefF on ``X[rows]``.

Independent truths:

- the code before issue 37, frozen below (:func:`_reference`): ``pdist`` over the
  range-scaled columns of ``X[rows]`` itself (every copy of a row a record of its own), WEKA's
  slot scan with an ``argmax`` at every step, :func:`_weka_sort` for every record and class,
  the same weight update; it is what ``tests/selectors/test_weka_relieff.py`` checked
  against the WEKA jar. The shared route (distinct rows, non-zeros only, copies spread,
  tiles) must give the same floats, bit for bit, and so must ``relieff_weka_scores``;
- WEKA 3.6 itself on a resample with repeated rows, multiclass priors and tied
  distances (:func:`test_resample_with_repeats_equals_the_weka_jar`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.spatial.distance import pdist, squareform
from weka_batch import Arffs, Scores, run, scores_of
from weka_oracle import requires_weka

import modelmine as mm
import modelmine.selectors._relieff_weka as rw
from modelmine.selectors import get_selector, relieff_weka_scores
from modelmine.selectors._relieff import _block_width, _column_blocks
from modelmine.selectors._relieff_weka import (
    WekaReliefFFold,
    _weka_sort,
    resample_relieff_weka_scores,
    working_set_bytes,
)

SEED = 20120812


def _reference(X, y, k=10, weighted=True, sigma=2.0):
    """``relieff_weka_scores`` as it was before issue 37 (commit 832506f), on ``X, y``."""
    n, p = X.shape
    n_classes = int(y.max()) + 1
    mn, rng = np.empty(p), np.empty(p)
    for a, b, block in _column_blocks(X, _block_width(n)):
        mn[a:b] = block.min(axis=0)
        rng[a:b] = block.max(axis=0) - mn[a:b]
    safe = np.where(rng > 0, rng, 1.0)
    dist = np.zeros(n * (n - 1) // 2)
    for a, b, block in _column_blocks(X, _block_width(n)):
        dist += pdist(np.where(rng[a:b] > 0, (block - mn[a:b]) / safe[a:b], 0.0), "cityblock")
    D = squareform(dist)
    slot_d = np.full((n, n_classes, k), np.inf)
    slot_i = np.full((n, n_classes, k), -1, dtype=np.intp)
    everyone = np.arange(n)
    for i in range(n):
        rows, c = everyone[everyone != i], int(y[i])
        d, slots = D[rows, i], slot_d[rows, c]
        worst = np.argmax(slots, axis=1)
        take = d < slots[np.arange(rows.size), worst]
        slot_d[rows[take], c, worst[take]] = d[take]
        slot_i[rows[take], c, worst[take]] = i
    rank = np.zeros((n, n_classes, k), dtype=np.intp)
    filled = (slot_i >= 0).sum(axis=2)
    for r in range(n):
        for c in range(n_classes):
            s = int(filled[r, c])
            rank[r, c, _weka_sort(slot_d[r, c, :s].tolist())] = np.arange(s)
    inst, cls, slot = np.nonzero(slot_i >= 0)
    neigh, j = slot_i[inst, cls, slot], rank[inst, cls, slot]
    counts = np.bincount(y, minlength=n_classes)
    stored = np.minimum(counts[None, :] - np.eye(n_classes, dtype=np.int64)[y], k)
    yi, yj = y[inst], y[neigh]
    if weighted:
        by_rank = np.exp(-((np.arange(k) / sigma) ** 2))
        w = by_rank[j] / np.concatenate([[0.0], np.cumsum(by_rank)])[stored[inst, yj]]
    else:
        w = 1.0 / stored[inst, yj].astype(np.float64)
    prior = counts / float(n)
    miss = prior[yj] / (1.0 - prior[yi]) if n_classes > 2 else np.ones(yj.size)
    weights = np.where(yi == yj, -w, w * miss)
    Xd = X.toarray() if sp.issparse(X) else X
    scores = np.zeros(p)
    chunk = max(1, (1 << 16) // p)
    for start in range(0, inst.size, chunk):
        sl = slice(start, start + chunk)
        diff = np.abs((Xd[inst[sl]] - mn) / safe - (Xd[neigh[sl]] - mn) / safe)
        diff[:, rng <= 0] = 0.0
        scores += weights[sl] @ diff
    return scores / float(n)


def _case(seed: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Small data with repeated rows, constant and full columns, tied distances, 2-4
    classes of unequal sizes (so unequal priors)."""
    rng = np.random.default_rng(seed)
    n, p = int(rng.integers(6, 36)), int(rng.integers(2, 30))
    X: np.ndarray
    kind = seed % 4
    if kind == 0:  # three levels: many tied distances
        X = rng.integers(0, 3, (n, p)).astype(np.float64)
    elif kind == 1:  # continuous
        X = rng.normal(size=(n, p))
    elif kind == 2:  # sparse counts, a word in every row
        X = rng.poisson(0.7, (n, p)) * (rng.random((n, p)) < 0.3)
        X[:, -1] = rng.integers(1, 4, n)
    else:  # sparse with negative values: zeros do not scale to 0
        X = rng.integers(-2, 3, (n, p)) * (rng.random((n, p)) < 0.4)
    X = X.astype(np.float64)
    X[:, 0] = 1.5  # constant
    X[1] = X[0]  # two distinct rows with equal values
    n_classes = int(rng.integers(2, 5))
    y = rng.integers(0, n_classes, n)
    y[:n_classes] = np.arange(n_classes)
    return X, y.astype(np.int64), int(rng.integers(1, 12))


def _resamples(rng: np.random.Generator, n: int) -> list[np.ndarray]:
    return [rng.choice(n, n),  # a bootstrap
            rng.choice(4, 2 * n),  # few distinct rows, each drawn many times
            rng.permutation(n)[: max(3, n // 2)]]  # a subsample, unsorted


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("seed", range(16))
def test_resamples_equal_the_code_before_bit_for_bit(seed, sparse):
    X, y, k = _case(seed)
    Xs = sp.csr_matrix(X) if sparse else X
    fold = WekaReliefFFold.of(Xs)
    rng = np.random.default_rng(SEED + seed)
    print(f"seed={seed}")
    for rows in _resamples(rng, X.shape[0]):
        if np.unique(y[rows]).size < 2:
            continue
        for weighted in (False, True):
            expected = _reference(X[rows], y[rows], k, weighted)
            got = resample_relieff_weka_scores(fold, y, rows, n_neighbors=k,
                                               weight_by_distance=weighted)
            np.testing.assert_array_equal(got, expected)
            np.testing.assert_array_equal(
                relieff_weka_scores(Xs[rows], y[rows], n_neighbors=k,
                                    weight_by_distance=weighted), expected)


@pytest.mark.parametrize("sparse", [False, True])
def test_tiles_give_the_same_floats(sparse):
    X, y, k = _case(2)
    Xs = sp.csr_matrix(X) if sparse else X
    fold = WekaReliefFFold.of(Xs)
    rows = np.random.default_rng(SEED).choice(X.shape[0], 3 * X.shape[0])
    m, K = np.unique(rows).size, int(y[rows].max()) + 1
    whole = resample_relieff_weka_scores(fold, y, rows, n_neighbors=k)
    tiled = []
    original = rw._tiles

    def counting(*args):
        tiled.append(original(*args))
        return tiled[-1]

    all_at_once = working_set_bytes(rows.size, m, K, k, X.shape[1], sparse=sparse)
    budgets = [all_at_once - 1] + [
        working_set_bytes(rows.size, m, K, k, X.shape[1], sparse=sparse, n_tile=t,
                          n_receivers=int(np.bincount(rows).max()) * t) for t in (1, 2)]
    for budget in budgets:
        rw._tiles = counting
        try:
            got = resample_relieff_weka_scores(fold, y, rows, n_neighbors=k,
                                               memory_budget=min(budget, all_at_once - 1))
        finally:
            rw._tiles = original
        assert len(tiled[-1]) > 1
        np.testing.assert_array_equal(got, whole)
    assert len(tiled[1]) > len(tiled[0])  # the budget of one row: more tiles


def test_a_budget_below_one_row_is_refused_with_the_figures():
    X, y, _ = _case(0)
    rows = np.arange(X.shape[0])
    one = working_set_bytes(rows.size, rows.size, int(y.max()) + 1, 10, X.shape[1],
                            sparse=False, n_tile=1, n_receivers=1)
    with pytest.raises(MemoryError, match=(
            rf"resample of {rows.size} rows \({rows.size} distinct\) needs "
            rf"{one / 2**20:.2f} MiB for the distances of one row, above the budget of "
            r"0\.00 MiB \(all rows at once: .* MiB\)")):
        resample_relieff_weka_scores(WekaReliefFFold.of(X), y, rows, memory_budget=1)


def test_working_set_figures():
    # a BASEHOCK training fold drawn whole (1,793 rows, 1,119 distinct): the two distinct
    # distance matrices (20 MB) and WEKA's slots
    assert working_set_bytes(1793, 1119, 2, 10) == 2 * 1119**2 * 8 + 32 * 1793 * 2 * 10
    # dense data adds one scaled column block of at most 2^22 values
    assert working_set_bytes(2600, 1643, 2, 10, 500, sparse=False) == \
        8 * (2 * 1643**2 + 1643 * 500) + 32 * 2600 * 2 * 10


def test_text_fold_bootstrap_equals_the_code_before():
    # BASEHOCK word counts: 300 rows of one fold, all its words, one bootstrap
    X, y = mm.datasets.load_basehock()[:2]
    y = np.unique(y, return_inverse=True)[1].astype(np.int64)
    rng = np.random.default_rng(SEED)
    keep = np.sort(rng.choice(X.shape[0], 300, replace=False))
    X, y = sp.csr_matrix(X[keep], dtype=np.float64), y[keep]
    rows = rng.choice(300, 300)
    got = resample_relieff_weka_scores(WekaReliefFFold.of(X), y, rows, weight_by_distance=False)
    np.testing.assert_array_equal(got, _reference(X[rows], y[rows], weighted=False))


def test_bootstrap_takes_the_shared_route_and_equals_select():
    X, y = mm.datasets.load_colon()[:2]
    X, y = np.asarray(X, dtype=np.float64)[:, :120], np.asarray(y)
    called = []
    original = rw.resample_relieff_weka_scores

    def spy(*args, **kwargs):
        called.append(1)
        return original(*args, **kwargs)

    rw.resample_relieff_weka_scores = spy
    try:
        base = mm.bootstrap(X, y, "relieff", n_bootstraps=3, n_features=10, random_state=4,
                            selector_params={"weight_by_distance": True}, fit_full=False)
    finally:
        rw.resample_relieff_weka_scores = original
    assert len(called) == 3 and base.scores is not None
    sel = get_selector("relieff", {"weight_by_distance": True})
    for i, idx in enumerate(base.sample_indices):
        plain = np.asarray(sel.select(X[idx], y[idx], random_state=0).scores)
        np.testing.assert_array_equal(base.scores[i], plain.astype(np.float32))


@pytest.mark.parametrize(("kwargs", "exc", "match"), [
    ({"rows": np.array([0, 70])}, ValueError,
     r"The 'rows' parameter of resample_relieff_weka_scores must be a non-empty 1-d array "
     r"of row indices in \[0, 62\)"),
    ({"rows": np.array([0.0, 1.0])}, ValueError, r"'rows' parameter.*dtype float64"),
    ({"y": np.zeros(5, dtype=np.int64)}, ValueError,
     r"The 'y' parameter of resample_relieff_weka_scores must be class codes "
     r"\(non-negative integers\) of the fold's 62 rows"),
    ({"fold": "colon"}, TypeError, r"The 'fold' parameter .* must be a WekaReliefFFold"),
    ({"memory_budget": 0}, ValueError, r"The 'memory_budget' parameter"),
    ({"n_neighbors": 0}, ValueError, r"The 'n_neighbors' parameter"),
])
def test_bad_input_is_refused_with_the_parameter_named(kwargs, exc, match):
    kwargs = dict(kwargs)
    X, y = mm.datasets.load_colon()[:2]
    fold: Any = kwargs.pop("fold", WekaReliefFFold.of(np.asarray(X, dtype=np.float64)))
    codes: Any = kwargs.pop("y", np.unique(y, return_inverse=True)[1])
    rows: Any = kwargs.pop("rows", np.arange(10))
    with pytest.raises(exc, match=match):
        resample_relieff_weka_scores(fold, codes, rows, **kwargs)


def _three_classes_three_levels():
    """Three classes of unequal sizes (priors weight the misses), three levels (tied
    distances), and a bootstrap of its rows (repeated rows: hits of each other at 0)."""
    rs = np.random.RandomState(7)
    y = np.repeat([0, 1, 2], [22, 12, 6])
    X = np.sign(np.round(rs.randn(40, 30) + 0.7 * (y[:, None] == 1) * (np.arange(30) < 4)))
    return X, y, rs.choice(40, 40)


@pytest.fixture(scope="module")
def weka_on_the_resample(tmp_path_factory) -> dict[bool, np.ndarray]:
    """WEKA's ReliefFAttributeEval on the bootstrap rows written out, with and without
    ``-W``, from one JVM (``tests/weka_batch.py``)."""
    X, y, rows = _three_classes_three_levels()
    arff = Arffs(tmp_path_factory.mktemp("relieff-weka-shared"))(X[rows], y[rows])
    outs = run([Scores(arff, "ReliefFAttributeEval", ("-W",) if weighted else ())
                for weighted in (False, True)])
    return {weighted: scores_of(out, X.shape[1]) for weighted, out in zip((False, True), outs)}


@requires_weka
@pytest.mark.parametrize("weighted", [False, True])
def test_resample_with_repeats_equals_the_weka_jar(weka_on_the_resample, weighted):
    # sparse storage of the data, a bootstrap resample of it
    X, y, rows = _three_classes_three_levels()
    got = resample_relieff_weka_scores(WekaReliefFFold.of(sp.csr_matrix(X)), y, rows,
                                       weight_by_distance=weighted)
    weka = weka_on_the_resample[weighted]
    assert np.all(np.abs(got - weka) <= 1e-9 * np.maximum(1e-3, np.abs(weka)))
