"""Tests of frequent / closed / maximal itemset mining against independent truths:
SPMF's worked example, a brute-force enumerator, and agreement of the two backends."""

from __future__ import annotations

import functools
import warnings
from itertools import combinations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import example, given, settings
from hypothesis import strategies as st

import modelmine as mm
from modelmine.patterns import Itemsets, mine_itemsets

BACKENDS = ["pyfim", "mlxtend"]

# SPMF, "contextPasquier99.txt" (Pasquier et al., ICDT 1999), minimum count 2.
PASQUIER = [{1, 3, 4}, {2, 3, 5}, {1, 2, 3, 5}, {2, 5}, {1, 2, 3, 5}]


def brute_force(matrix: np.ndarray, min_count: int, max_len: int | None = None):
    """All frequent itemsets by enumeration, then closed / maximal by definition."""
    p = matrix.shape[1]
    freq: dict[tuple[int, ...], int] = {}
    for k in range(1, p + 1):
        for combo in combinations(range(p), k):
            count = int(matrix[:, list(combo)].all(axis=1).sum())
            if count >= min_count:
                freq[combo] = count
    closed = {s: c for s, c in freq.items()
              if not any(set(s) < set(t) and ct == c for t, ct in freq.items())}
    maximal = {s: c for s, c in freq.items() if not any(set(s) < set(t) for t in freq)}
    out = {"frequent": freq, "closed": closed, "maximal": maximal}
    if max_len is not None:
        out = {k: {s: c for s, c in v.items() if len(s) <= max_len} for k, v in out.items()}
    return out


def as_dict(res: Itemsets) -> dict[tuple[int, ...], int]:
    return {res[i]: int(res.counts[i]) for i in range(len(res))}


def names_dict(res: Itemsets) -> dict[tuple[str, ...], int]:
    return {res.names_of(i): int(res.counts[i]) for i in range(len(res))}


@pytest.mark.parametrize("backend", BACKENDS)
def test_spmf_pasquier_oracle(backend):
    closed = mine_itemsets(PASQUIER, itemset_type="closed", min_support=2, backend=backend)
    assert names_dict(closed) == {("3",): 4, ("2", "5"): 4, ("1", "3"): 3, ("2", "3", "5"): 3,
                                  ("1", "2", "3", "5"): 2}
    maximal = mine_itemsets(PASQUIER, itemset_type="maximal", min_support=2, backend=backend)
    assert names_dict(maximal) == {("1", "2", "3", "5"): 2}
    frequent = mine_itemsets(PASQUIER, itemset_type="frequent", min_support=0.4, backend=backend)
    assert len(frequent) == 15
    # the order: support desc, length desc, then lexicographic on indices
    assert closed.to_frame()["itemset"].tolist() == [
        ("2", "5"), ("3",), ("2", "3", "5"), ("1", "3"), ("1", "2", "3", "5")]


def check_order(res: Itemsets) -> None:
    keys = [(-int(c), -len(s), s) for s, c in zip(res.itemsets, res.counts)]
    assert keys == sorted(keys)
    assert all(list(s) == sorted(s) for s in res.itemsets)


matrices = st.integers(1, 9).flatmap(lambda b: st.integers(1, 7).flatmap(
    lambda p: st.lists(st.lists(st.booleans(), min_size=p, max_size=p), min_size=b,
                       max_size=b).map(lambda rows: np.array(rows, dtype=bool))))


@settings(max_examples=60, deadline=None)
@given(matrix=matrices, frac=st.floats(0.05, 1.0), max_len=st.one_of(st.none(),
                                                                    st.integers(1, 4)))
# found by hypothesis: mlxtend's fpmax(max_len=1) called {0} and {4} maximal although
# {0, 3} and {3, 4} are frequent
@example(matrix=np.array([[0, 0, 0, 0, 1], [0, 0, 0, 1, 1], [1, 0, 0, 0, 0], [1, 0, 0, 0, 0],
                          [1, 0, 0, 1, 0], [1, 0, 0, 1, 1]], dtype=bool), frac=0.25, max_len=1)
def test_brute_force_all_kinds_both_backends(matrix, frac, max_len):
    b = matrix.shape[0]
    min_count = max(1, int(np.ceil(round(frac * b, 9))))
    truth = brute_force(matrix, min_count, max_len)
    for kind in ("frequent", "closed", "maximal"):
        for backend in BACKENDS:
            res = mine_itemsets(matrix, itemset_type=kind, min_support=min_count, max_len=max_len,
                                backend=backend)
            assert as_dict(res) == truth[kind], (kind, backend)
            check_order(res)
            np.testing.assert_allclose(res.support, res.counts / b)
            for i in range(len(res)):
                rows = res.models_containing(i)
                assert len(rows) == res.counts[i]
                assert matrix[np.ix_(rows, list(res[i]))].all()


@settings(max_examples=40, deadline=None)
@given(matrix=matrices, count=st.integers(1, 3))
def test_closed_sets_closed_under_tidset_intersection(matrix, count):
    count = min(count, matrix.shape[0])
    res = mine_itemsets(matrix, itemset_type="closed", min_support=count)
    closed = {frozenset(s) for s in res.itemsets}
    tids = [set(res.models_containing(i).tolist()) for i in range(len(res))]
    for i, j in combinations(range(len(res)), 2):
        both = tids[i] & tids[j]
        if len(both) >= count:
            # the itemset common to exactly these transactions is closed and frequent
            inter = frozenset(np.flatnonzero(matrix[sorted(both)].all(axis=0)).tolist())
            assert inter in closed
    for i in range(len(res)):
        # a closed itemset is exactly the intersection of the transactions containing it
        common = np.flatnonzero(matrix[sorted(tids[i])].all(axis=0)).tolist()
        assert tuple(common) == res[i]


def test_inputs_equivalent():
    dense = np.zeros((5, 6), bool)
    for r, t in enumerate(PASQUIER):
        dense[r, list(t)] = True
    a = mine_itemsets(dense, min_support=2)
    c = mine_itemsets(sp.csr_matrix(dense), min_support=2)
    d = mine_itemsets(dense.astype(int), min_support=2)

    class Base:
        subsets = dense
        feature_names = np.array([f"g{j}" for j in range(6)])

    e = mine_itemsets(Base(), min_support=2)
    assert a.itemsets == c.itemsets == d.itemsets == e.itemsets == (
        (2, 5), (3,), (2, 3, 5), (1, 3), (1, 2, 3, 5))
    assert e.to_frame()["itemset"][0] == ("g2", "g5")
    frame = e.to_frame()
    assert list(frame.columns) == ["itemset", "items", "support", "count", "length"]
    np.testing.assert_array_equal(e.items_of(2), [2, 3, 5])
    assert e.indptr.tolist() == [0, 2, 3, 6, 8, 12]
    assert e.support.flags.writeable is False
    # string items are mapped in sorted order and become names
    s = mine_itemsets([["b", "a"], ["a", "c"], ["a", "b"]], min_support=2)
    assert [s.names_of(i) for i in range(len(s))] == [("a",), ("a", "b")]


@functools.cache
def leukemia_like(name, score, b, m, seed=0):
    """Base models: top-m features by a univariate score on bootstrap resamples."""
    from sklearn.feature_selection import chi2, f_classif
    from sklearn.preprocessing import MinMaxScaler

    X, y = getattr(mm.datasets, f"load_{name}")()[:2]
    X = np.asarray(X, float)
    rng = np.random.default_rng(seed)
    out = np.zeros((b, X.shape[1]), bool)
    warnings.filterwarnings("ignore", message="Features .* are constant")
    Xs = MinMaxScaler().fit_transform(X)
    for i in range(b):
        idx = rng.integers(0, len(y), len(y))
        s = chi2(Xs[idx], y[idx])[0] if score == "chi2" else f_classif(X[idx], y[idx])[0]
        out[i, np.argsort(-np.nan_to_num(s, nan=-np.inf), kind="stable")[:m]] = True
    return out


@pytest.mark.parametrize("name,score", [("leukemia", "chi2"), ("colon", "anova"),
                                        ("leukemia", "anova")])
@pytest.mark.parametrize("kind,min_support", [("closed", 0.3), ("maximal", 0.2),
                                              ("frequent", 0.5)])
def test_backends_agree_on_real_base_models(name, score, kind, min_support):
    T = leukemia_like(name, score, b=40, m=15)
    a = mine_itemsets(T, itemset_type=kind, min_support=min_support, backend="pyfim")
    b = mine_itemsets(T, itemset_type=kind, min_support=min_support, backend="mlxtend")
    c = mine_itemsets(T, itemset_type=kind, min_support=min_support, backend="lcm")
    assert len(a) > 0
    assert a.itemsets == b.itemsets == c.itemsets
    np.testing.assert_array_equal(a.counts, b.counts)
    np.testing.assert_array_equal(a.counts, c.counts)


@pytest.mark.parametrize("b", [64, 65, 700])
def test_lcm_equals_pyfim_across_word_boundaries(b):
    # tidsets are bitsets of ceil(b / 64) words: exactly one word, one bit over, many words
    rng = np.random.default_rng(b)
    T = rng.random((b, 40)) < rng.uniform(0.15, 0.5, 40)
    T[:, 3] = True  # an item in every transaction (the closure of the empty set)
    for kind, support in (("closed", 0.1), ("maximal", 0.1), ("frequent", 0.2)):
        a = mine_itemsets(T, kind, support, backend="pyfim", max_itemsets=None)
        c = mine_itemsets(T, kind, support, backend="lcm", max_itemsets=None)
        assert len(a) > 10 and a.itemsets == c.itemsets, (kind, len(a), len(c))
        np.testing.assert_array_equal(a.counts, c.counts)
        for max_len in (1, 3):
            a = mine_itemsets(T, kind, support, max_len=max_len, backend="pyfim")
            c = mine_itemsets(T, kind, support, max_len=max_len, backend="lcm")
            assert a.itemsets == c.itemsets, (kind, max_len)


def test_real_data_svm_base_models_agree():
    from sklearn.svm import SVC

    X, y = mm.datasets.load_colon()[:2]
    rng = np.random.default_rng(1)
    T = np.zeros((30, X.shape[1]), bool)
    for i in range(30):
        idx = rng.integers(0, len(y), len(y))
        w = np.abs(SVC(kernel="linear", C=0.5).fit(X[idx], y[idx]).coef_[0])
        T[i, np.argsort(-w, kind="stable")[:20]] = True
    for kind in ("closed", "maximal"):
        a = mine_itemsets(T, itemset_type=kind, min_support=0.1, backend="pyfim")
        b = mine_itemsets(T, itemset_type=kind, min_support=0.1, backend="mlxtend")
        assert a.itemsets == b.itemsets and len(a) > 0


def test_guard_stops_explosion():
    # 30 items all in every transaction: 2^30 - 1 frequent itemsets, one closed
    T = np.ones((10, 30), bool)
    with pytest.raises(ValueError, match=r"The 'max_itemsets' parameter of mine_itemsets "
                                         r"must be at least the number.*Raise 'min_support'"):
        mine_itemsets(T, itemset_type="frequent", min_support=0.5)
    assert len(mine_itemsets(T, itemset_type="closed", min_support=0.5)) == 1
    with pytest.raises(ValueError, match="mlxtend route enumerates them all"):
        mine_itemsets(T, itemset_type="closed", min_support=0.5, backend="mlxtend")
    # a guard that is not exceeded lets the run through
    T2 = np.eye(6, dtype=bool)
    assert len(mine_itemsets(T2, itemset_type="frequent", min_support=1, max_itemsets=6)) == 6
    with pytest.raises(ValueError, match="max_itemsets"):
        mine_itemsets(np.tile(T2, (1, 4)) | np.eye(6, 24, dtype=bool), itemset_type="closed",
                      min_support=1, max_itemsets=2)


@pytest.mark.parametrize("kwargs,match", [
    ({"min_support": 0.0}, r"The 'min_support' parameter of mine_itemsets must be a fraction "
                           r"in \(0, 1\] or a count of transactions in \[1, 5\]. Got 0.0"),
    ({"min_support": 1.5}, r"'min_support'.*Got 1.5 instead"),
    ({"min_support": 6}, r"'min_support'.*\[1, 5\]. Got 6 instead"),
    ({"itemset_type": "closd"},
     r"'itemset_type'.*one of 'frequent', 'closed', 'maximal'.*Did you mean 'closed'"),
    ({"backend": "spmf"}, r"'backend'.*one of 'auto', 'lcm', 'pyfim', 'mlxtend'"),
    ({"max_len": 0}, r"'max_len'.*integer >= 1 or None"),
])
def test_bad_parameters(kwargs, match):
    with pytest.raises(ValueError, match=match):
        mine_itemsets(PASQUIER, **kwargs)


@pytest.mark.parametrize("data", [[], np.zeros((0, 4), bool), sp.csr_matrix((0, 3))])
def test_empty_transactions(data):
    with pytest.raises(ValueError, match=r"'data'.*non-empty set of transactions"):
        mine_itemsets(data)


def test_non_boolean_and_bad_types():
    with pytest.raises(ValueError, match="boolean"):
        mine_itemsets(np.array([[0, 2], [1, 1]]))
    with pytest.raises(TypeError, match="'data'"):
        mine_itemsets(3.5)


def reference_order(sets, counts):
    """The canonical order by a plain Python sort: (-count, -length, sorted items)."""
    rows = sorted((-int(c), -len(s), tuple(sorted(int(i) for i in s)))
                  for s, c in zip(sets, counts))
    return [r[2] for r in rows], [-r[0] for r in rows]


@pytest.mark.parametrize("kind,min_support", [("closed", 0.1), ("frequent", 0.4),
                                              ("maximal", 0.05)])
def test_order_matches_reference_sort_on_real_data(kind, min_support):
    import fim

    T = leukemia_like("leukemia", "anova", b=60, m=20)
    res = mine_itemsets(T, itemset_type=kind, min_support=min_support)
    c = res.min_count
    raw = fim.eclat([np.flatnonzero(r).tolist() for r in T] + [[]],
                    target={"closed": "c", "frequent": "s", "maximal": "m"}[kind], supp=-c)
    sets, counts = reference_order([s for s, _ in raw], [n for _, n in raw])
    assert len(res) == len(raw) > 100
    assert list(res.itemsets) == sets
    assert res.counts.tolist() == counts


def test_real_bootstrap_base_models():
    # Bug of issue 3: a real BaseModels (feature_names an ndarray) as input.
    X, y, names = mm.datasets.load_colon(return_names=True)
    base = mm.bootstrap(X, y, selector="chi2", n_bootstraps=8, n_features=6, random_state=0,
                        feature_names=names)
    assert isinstance(base.feature_names, np.ndarray)
    res = mine_itemsets(base, itemset_type="closed", min_support=2)
    # oracle: closed itemsets are the non-empty intersections of >= 2 transactions
    S = base.subsets
    truth = {}
    for k in range(2, len(S) + 1):
        for rows in combinations(range(len(S)), k):
            inter = tuple(np.flatnonzero(S[list(rows)].all(axis=0)).tolist())
            if inter:
                truth[inter] = int(S[:, list(inter)].all(axis=1).sum())
    assert as_dict(res) == truth
    assert res.names_of(0) == tuple(str(names[j]) for j in res[0])
    assert res.to_frame()["itemset"][0] == res.names_of(0)
    lat = mm.ItemsetLattice.from_base(base, min_support=2)
    assert len(lat) == len(res) + 1
    assert lat.graph.nodes[0]["names"] == res.names_of(0)


@pytest.mark.parametrize("kind, offered, not_offered", [
    ("frequent", "choose itemset_type='closed' or 'maximal'", None),
    ("closed", "choose itemset_type='maximal'", "itemset_type='closed'"),
    ("maximal", "raise 'max_itemsets'", "choose kind"),
])
def test_guard_raises_its_own_error_and_offers_only_smaller_kinds(kind, offered, not_offered):
    from modelmine.patterns import TooManyItemsetsError

    rng = np.random.default_rng(0)
    S = rng.random((60, 14)) < 0.6
    with pytest.raises(TooManyItemsetsError, match=r"'max_itemsets' parameter") as info:
        mine_itemsets(S, itemset_type=kind, min_support=2, max_itemsets=3, backend="pyfim")
    assert isinstance(info.value, ValueError) and info.value.n_itemsets > 3
    assert offered in str(info.value)
    if not_offered:
        assert not_offered not in str(info.value)
