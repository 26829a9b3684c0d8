"""The ``max_itemsets`` guard of mine_itemsets on real base models (issue 15).

Oracle: pyfim called directly (``fim.eclat``, Borgelt's C library) for the number of
itemsets n, and the unguarded run (``max_itemsets=None``) for the itemsets themselves. The
guard must never change a result it lets through, must let through exactly ``n`` itemsets
(``max_itemsets=n``), and must refuse ``n - 1``, with ``n`` in
``TooManyItemsetsError.n_itemsets`` (the mlxtend route for closed itemsets enumerates every
frequent itemset, so there the count and the limit are those of the frequent itemsets; the
lcm route stops its enumeration on finding itemset number ``max_itemsets + 1 = n``).
Here too: which backend ``"auto"`` takes, and what a missing one says, with a backend made
missing (``_mining._installed``).
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

import modelmine as mm
from modelmine.patterns import TooManyItemsetsError, mine_itemsets

fim = pytest.importorskip("fim", reason="pyfim is the oracle of these tests")

_TARGET = {"frequent": "s", "closed": "c", "maximal": "m"}

# SPMF, "contextPasquier99.txt" (Pasquier et al., ICDT 1999), minimum count 2.
PASQUIER = [{1, 3, 4}, {2, 3, 5}, {1, 2, 3, 5}, {2, 5}, {1, 2, 3, 5}]


def _pyfim_count(S: np.ndarray, kind: str, count: int) -> int:
    # pyfim 6.28 never reports itemsets made only of items present in every transaction;
    # an extra empty transaction removes the case and changes no count (the absolute
    # threshold stays), as in modelmine._mining._pyfim_tracts.
    tracts = [np.flatnonzero(row).tolist() for row in S] + [[]]
    return len(fim.eclat(tracts, target=_TARGET[kind], supp=-count, report="a"))


def _same(a, b) -> None:
    np.testing.assert_array_equal(a.indptr, b.indptr)
    np.testing.assert_array_equal(a.indices, b.indices)
    np.testing.assert_array_equal(a.counts, b.counts)


def _check_guard(S: np.ndarray, count: int, backend: str = "pyfim") -> None:
    for kind in ("frequent", "closed", "maximal"):
        free = mine_itemsets(S, kind, count, backend=backend, max_itemsets=None)
        n = len(free)
        assert n == _pyfim_count(S, kind, count) and n > 1, (kind, n)
        _same(mine_itemsets(S, kind, count, backend=backend), free)  # the default guard
        limit = n
        if backend == "mlxtend" and kind == "closed":
            limit = _pyfim_count(S, "frequent", count)  # mlxtend enumerates them all
        _same(mine_itemsets(S, kind, count, backend=backend, max_itemsets=limit), free)
        with pytest.raises(TooManyItemsetsError, match="'max_itemsets' parameter") as info:
            mine_itemsets(S, kind, count, backend=backend, max_itemsets=limit - 1)
        assert info.value.n_itemsets == limit, (kind, info.value.n_itemsets, limit)


@pytest.mark.parametrize(
    ("dataset", "support", "backend"),
    [("colon", 0.08, "pyfim"), ("leukemia", 0.1, "pyfim"), ("colon", 0.15, "mlxtend"),
     ("colon", 0.08, "lcm"), ("leukemia", 0.1, "lcm")],
)
def test_guard_on_microarray_base_models(dataset, support, backend):
    S = _anova_subsets(dataset)
    _check_guard(S, int(np.ceil(support * len(S))), backend)


@functools.lru_cache(maxsize=2)
def _anova_subsets(dataset: str) -> np.ndarray:
    X, y = getattr(mm.datasets, f"load_{dataset}")()[:2]
    base = mm.bootstrap(
        X,
        y,
        selector="anova",
        n_bootstraps=120,
        n_features=20,
        random_state=0,
        fit_full=False,
        progress=False,
    )
    return base.subsets


@pytest.mark.parametrize("backend", ["pyfim", "lcm"])
def test_guard_on_text_base_models(text_subsets, backend):
    S = text_subsets(300, 120, 20)
    _check_guard(S, 10, backend)


def test_guard_counts_closed_exactly_when_frequent_would_refuse():
    # 12 items in every transaction and 20 other items spread out: 2^12 * ... frequent
    # itemsets, few closed ones; a guard between the two numbers must let the closed run
    # through (stage 3 counts closed itemsets exactly) and refuse the frequent run.
    rng = np.random.default_rng(0)
    S = np.zeros((80, 32), bool)
    S[:, :12] = True
    S[:, 12:] = rng.random((80, 20)) < 0.3
    n_closed = _pyfim_count(S, "closed", 4)
    n_frequent = _pyfim_count(S, "frequent", 4)
    assert n_closed < 10_000 < n_frequent
    res = mine_itemsets(S, "closed", 4, max_itemsets=10_000)
    assert len(res) == n_closed
    with pytest.raises(TooManyItemsetsError) as info:
        mine_itemsets(S, "frequent", 4, max_itemsets=10_000)
    assert info.value.n_itemsets == n_frequent


def _lcm_only(monkeypatch):
    from modelmine.patterns import _mining

    monkeypatch.setattr(_mining, "_installed", lambda name: name == "lcm")


@pytest.mark.parametrize("pyfim_present", [True, False])
def test_lcm_guard_stops_at_the_limit(monkeypatch, pyfim_present):
    # The 12-items-everywhere database of the test above: billions of frequent itemsets, few
    # closed ones. The lcm route lets the closed run through in one enumeration and refuses
    # one itemset fewer, with or without pyfim's frequent count (stage 2).
    rng = np.random.default_rng(1)
    S = np.zeros((90, 40), bool)
    S[:, :14] = True
    S[:, 14:] = rng.random((90, 26)) < 0.35
    free = mine_itemsets(S, "closed", 3, backend="pyfim", max_itemsets=None)
    n = len(free)
    assert n == _pyfim_count(S, "closed", 3) and n > 100
    if not pyfim_present:
        _lcm_only(monkeypatch)
    _same(mine_itemsets(S, "closed", 3, backend="lcm", max_itemsets=n), free)
    with pytest.raises(TooManyItemsetsError, match="enumeration stopped") as info:
        mine_itemsets(S, "closed", 3, backend="lcm", max_itemsets=n - 1)
    assert info.value.n_itemsets == n
    if not pyfim_present:  # frequent itemsets: the enumeration stops too (2^14 * ... of them)
        with pytest.raises(TooManyItemsetsError) as info:
            mine_itemsets(S, "frequent", 3, backend="lcm", max_itemsets=10_000)
        assert info.value.n_itemsets == 10_001


def test_lcm_over_its_memory_budget_counts_then_mines_again(monkeypatch):
    # Past LCM_STORE_BYTES the guarded enumeration stops storing and only counts; a run that
    # ends under the limit is then mined again, storing: same itemsets as pyfim.
    from modelmine.patterns import _mining

    rng = np.random.default_rng(2)
    S = np.zeros((70, 30), bool)
    S[:, :12] = True
    S[:, 12:] = rng.random((70, 18)) < 0.4
    free = mine_itemsets(S, "closed", 3, backend="pyfim", max_itemsets=None)
    from modelmine.patterns import _lcm

    monkeypatch.setattr(_mining, "LCM_STORE_BYTES", 1000)
    calls = []
    real = _lcm.mine

    def spy(*args):
        out = real(*args)
        calls.append((args[-2:], out[3:]))  # (limit, budget), (found, stopped, stored)
        return out

    monkeypatch.setattr(_lcm, "mine", spy)
    res = mine_itemsets(S, "closed", 3, backend="lcm", max_itemsets=len(free))
    n = len(free)
    assert calls == [((n, 1000), (n, False, False)), ((-1, -1), (n, False, True))]
    _same(res, free)
    with pytest.raises(TooManyItemsetsError):
        mine_itemsets(S, "closed", 3, backend="lcm", max_itemsets=len(free) - 1)


def test_backend_not_installed(monkeypatch):
    from modelmine.patterns import _mining

    monkeypatch.setattr(_mining, "_installed", lambda name: name == "mlxtend")
    with pytest.raises(ImportError, match=r"pyfim is not installed: run `pip install pyfim`"):
        mine_itemsets(PASQUIER, backend="pyfim")
    with pytest.raises(ImportError, match=r"lcm \(modelmine's compiled miner.*is not built: "
                                          r"reinstall modelmine where a C compiler"):
        mine_itemsets(PASQUIER, backend="lcm")
    # auto falls back to the installed backend
    assert mine_itemsets(PASQUIER, min_support=2).backend == "mlxtend"
    # auto: lcm for closed / maximal itemsets, pyfim for frequent ones, each falling back
    # to the other
    for missing, kind, expected in [(None, "closed", "lcm"), (None, "maximal", "lcm"),
                                    (None, "frequent", "pyfim"), ("lcm", "closed", "pyfim"),
                                    ("pyfim", "frequent", "lcm")]:
        monkeypatch.setattr(_mining, "_installed", lambda name, m=missing: name != m)
        assert mine_itemsets(PASQUIER, kind, min_support=2).backend == expected
