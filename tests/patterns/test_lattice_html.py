"""The lattice explorer page from Python: its data equal the lattice (Pasquier et al.'s worked
example and brute force), the embedding cap keeps a down-closed part, the page is
self-contained, Jupyter shows it, bad input is refused."""

from __future__ import annotations

import html
import json
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from modelmine.constants import LATTICE_NOTEBOOK_MAX_ITEMSETS
from modelmine.patterns import ItemsetLattice, mine_itemsets

PASQUIER = [{1, 3, 4}, {2, 3, 5}, {1, 2, 3, 5}, {2, 5}, {1, 2, 3, 5}]


class _Sig:  # the duck type of modelmine.Signature the explorer reads
    def __init__(self, features):
        self.features = np.asarray(features)


def page_data(text: str) -> dict:
    block = re.search(
        r'<script type="application/json" id="lattice-data">(.*?)</script>', text, re.S
    )
    assert block is not None
    return json.loads(block.group(1))


def node_sets(data: dict) -> list[frozenset[str]]:
    ptr, items, names = data["items_ptr"], data["items"], data["names"]
    return [frozenset(names[j] for j in items[ptr[i] : ptr[i + 1]]) for i in range(len(ptr) - 1)]


def covering_pairs(sets):
    """Brute force: (a, c) with a < c and no set of the family strictly between."""
    return {(a, c) for a in sets for c in sets if a < c and not any(a < m < c for m in sets)}


def test_pasquier_worked_example():
    # Pasquier et al. (ICDT 1999), the five transactions at minimum support 2: closed
    # itemsets {2,5}, {3}, {2,3,5}, {1,3}, {1,2,3,5} and their Hasse diagram.
    lat = ItemsetLattice(mine_itemsets(PASQUIER, itemset_type="closed", min_support=2))
    data = page_data(lat.to_html_text())
    sets = node_sets(data)
    assert sets[0] == frozenset()
    assert set(sets) == {
        frozenset(),
        frozenset("25"),
        frozenset("3"),
        frozenset("235"),
        frozenset("13"),
        frozenset("1235"),
    }
    support = {s: c for s, c in zip(sets, data["count"])}
    assert support == {
        frozenset(): 5,
        frozenset("25"): 4,
        frozenset("3"): 4,
        frozenset("235"): 3,
        frozenset("13"): 3,
        frozenset("1235"): 2,
    }
    e = data["edges"]
    edges = {(sets[e[2 * k]], sets[e[2 * k + 1]]) for k in range(len(e) // 2)}
    assert edges == covering_pairs(set(sets))
    # the base models, as the page holds them: restricted to the features it shows (item 4
    # is in no frequent itemset), with their full sizes
    tx = [
        frozenset(data["names"][j] for j in data["tx_items"][a:b])
        for a, b in zip(data["tx_ptr"][:-1], data["tx_ptr"][1:])
    ]
    assert tx == [frozenset(str(i) for i in t if i != 4) for t in PASQUIER]
    assert data["tx_size"] == [len(t) for t in PASQUIER]


matrices = st.integers(2, 12).flatmap(
    lambda b: st.integers(1, 8).flatmap(
        lambda p: st.lists(
            st.lists(st.booleans(), min_size=p, max_size=p), min_size=b, max_size=b
        ).map(lambda rows: np.array(rows, dtype=bool))
    )
)


@settings(max_examples=40, deadline=None)
@given(matrix=matrices, count=st.integers(1, 4), cap=st.integers(1, 30))
def test_page_data_is_the_lattice_or_its_top(matrix, count, cap):
    count = min(count, matrix.shape[0])
    lat = ItemsetLattice(mine_itemsets(matrix, itemset_type="closed", min_support=count))
    data = page_data(lat.to_html_text(max_itemsets=cap))
    sets = node_sets(data)
    counts = data["count"]
    b = matrix.shape[0]
    # counts are the numbers of transactions containing each itemset (brute force)
    names = [str(n) for n in lat.closed.feature_names]
    rows = [frozenset(names[j] for j in np.flatnonzero(r)) for r in matrix]
    assert counts == [sum(s <= r for r in rows) for s in sets]
    # what is kept: every closed itemset of count >= a cut, at most `cap` of them, and the
    # cut is the lowest possible (one count lower would exceed the cap)
    all_counts = np.asarray(lat.closed.counts)
    cut = data["kept_min_count"]
    assert data["n_kept"] == int((all_counts >= cut).sum()) == len(sets) - 1 <= cap
    assert cut == lat.closed.min_count or (all_counts >= cut - 1).sum() > cap
    everything = [frozenset(lat.graph.nodes[n]["names"]) for n in lat.graph]
    kept = {
        s
        for s, n in zip(everything, lat.graph)
        if n == lat.bottom or lat.graph.nodes[n]["count"] >= cut
    }
    assert set(sets) == kept and len(sets) == len(kept)
    # edges: the covering pairs among the kept itemsets; kept is down-closed, so these are
    # the lattice's own edges between kept nodes
    e = data["edges"]
    edges = {(sets[e[2 * k]], sets[e[2 * k + 1]]) for k in range(len(e) // 2)}
    assert edges == covering_pairs(kept)
    # drawing order: by size
    assert [len(s) for s in sets] == sorted(len(s) for s in sets)
    assert data["n_transactions"] == b and data["index"][0] == -1
    for s, i in zip(sets[1:], data["index"][1:]):
        assert s == frozenset(lat.graph.nodes[i]["names"])


def test_page_is_self_contained_and_escapes_names(tmp_path):
    evil = "</script><script>alert(1)</script>"
    base = [{evil, "b & c"}, {evil, 'd"e'}, {evil, "b & c", 'd"e'}, {"b & c"}]
    lat = ItemsetLattice(mine_itemsets(base, min_support=1), signatures={"op": _Sig([0, 1])})
    path = lat.to_html(tmp_path / "lattice.html")
    text = path.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and text.count('id="lattice"') == 1
    lowered = text.lower()
    for forbidden in (
        "http://",
        "https://",
        "<link",
        "@import",
        " src=",
        "fetch(",
        "xmlhttprequest",
        "@font-face",
    ):
        assert forbidden not in lowered
    assert lowered.count("<script") == 2 and evil not in text
    data = page_data(text)
    assert evil in data["names"] and "b & c" in data["names"]
    assert data["signatures"] == [
        {
            "label": "op (consensus)",
            "operator": "op",
            "features": sorted(data["features"].index(j) for j in (0, 1)),
        }
    ]
    assert [data["names"][f] for f in data["signatures"][0]["features"]] == [
        str(lat.closed.feature_names[j]) for j in (0, 1)
    ]


def test_signature_sets_become_alternatives():
    lat = ItemsetLattice(mine_itemsets(PASQUIER, min_support=2))
    data = page_data(lat.to_html_text(
        signatures={"allMed": [_Sig([0, 2]), _Sig([1, 2, 4])], "closedApr": _Sig([1, 2, 4])}
    ))
    assert [s["label"] for s in data["signatures"]] == [
        "allMed alternative 1",
        "allMed alternative 2",
        "closedApr (consensus)",
    ]
    names = data["names"]
    assert [[names[f] for f in s["features"]] for s in data["signatures"]] == [
        ["1", "3"],
        ["2", "3", "5"],
        ["2", "3", "5"],
    ]


def test_cap_is_said_in_the_page():
    rng = np.random.default_rng(0)
    lat = ItemsetLattice(mine_itemsets(rng.random((40, 12)) < 0.5, min_support=0.1))
    n = len(lat.closed)
    text = lat.to_html_text(max_itemsets=n // 3)
    data = page_data(text)
    assert data["n_kept"] <= n // 3 < n == data["n_total"]
    assert f"This page holds the {data['n_kept']:,} of highest support" in text
    assert "This page holds" not in lat.to_html_text()


def test_no_frequent_itemset_says_so():
    lat = ItemsetLattice(mine_itemsets([{1}, {2}, {3}], itemset_type="closed", min_support=2))
    text = lat.to_html_text()
    data = page_data(text)
    assert data["count"] == [3] and data["edges"] == [] and data["n_total"] == 0
    assert "no itemset is that frequent" in text


def test_jupyter_shows_the_explorer_in_an_iframe():
    lat = ItemsetLattice(mine_itemsets(PASQUIER, min_support=2))
    shown = lat._repr_html_()
    src = re.fullmatch(r'<iframe srcdoc="([^"]*)".*</iframe>', shown, re.S)
    assert src is not None and "height:760px" in shown
    page = html.unescape(src.group(1))
    assert page_data(page)["max_itemsets"] == LATTICE_NOTEBOOK_MAX_ITEMSETS
    assert page_data(page)["count"] == page_data(lat.to_html_text())["count"]


def test_bad_input():
    lat = ItemsetLattice(mine_itemsets(PASQUIER, min_support=2))
    with pytest.raises(TypeError, match="signatures"):
        lat.to_html_text(signatures=[1, 2])
    with pytest.raises(TypeError, match=r"signatures.*'x'"):
        lat.to_html_text(signatures={"x": 3})
    with pytest.raises(ValueError, match=r"signatures.*features outside"):
        lat.to_html_text(signatures={"x": _Sig([0, 99])})
    with pytest.raises(ValueError, match="max_itemsets"):
        lat.to_html_text(max_itemsets=0)
    with pytest.raises(ValueError, match="budget"):
        lat.to_html_text(budget=3)
    with pytest.raises(TypeError, match="signatures"):
        ItemsetLattice(lat.closed, signatures="closedApr")


def test_lift_and_q_values_reach_the_page():
    # issue 25: each tested itemset carries the lift and q-value of itemset_significance
    # (None for the itemsets not tested: single features, the empty itemset)
    import modelmine as mm
    from modelmine.diagnostics import itemset_significance

    X, y = mm.datasets.load_colon()
    base = mm.bootstrap(X, y, selector="anova", n_bootstraps=20, n_features=8, random_state=1)
    closed = mine_itemsets(base, itemset_type="closed", min_support=0.3)
    table = itemset_significance(base, [i for i in closed.itemsets if len(i) >= 2],
                                 n_randomizations=50, random_state=0)
    expected = {tuple(sorted(t)): (lift, q) for t, lift, q in
                zip(table["items"], table["lift"], table["q_value"])}
    lattice = ItemsetLattice(closed)
    data = page_data(lattice.to_html_text(significance=table))
    for node, i in enumerate(data["index"]):
        items = () if i < 0 else tuple(sorted(closed.itemsets[i]))
        if items in expected:
            assert (data["lift"][node], data["q"][node]) == expected[items]
        else:
            assert data["lift"][node] is None and len(items) <= 1
    with pytest.raises(ValueError, match=r"The 'significance' parameter of "
                                         r"ItemsetLattice.to_html must be a table"):
        lattice.to_html_text(significance=[1, 2, 3])


def test_the_itemsets_that_pass_the_co_selection_test_are_marked():
    # issue 49: self_sufficient_itemsets' verdict on each tested node; a self-sufficient
    # itemset that is not closed here is named on the node of its closure
    from modelmine.diagnostics import self_sufficient_itemsets

    rng = np.random.default_rng(1)
    M = rng.random((100, 12)) < rng.uniform(0.1, 0.4, 12)
    M[rng.choice(100, 20, replace=False)[:, None], [2, 5, 8]] = True
    closed = mine_itemsets(M, itemset_type="closed", min_support=0.1)
    table = self_sufficient_itemsets(M, random_state=0)
    verdicts = {tuple(t): ("self-sufficient" if s else "passes" if ok else "fails")
                for t, ok, s in zip(table["items"], table["passes"], table["self_sufficient"])}
    assert verdicts[(2, 5, 8)] == "self-sufficient" and verdicts[(2, 5)] == "passes"
    data = page_data(ItemsetLattice(closed).to_html_text(significance=table))
    seen = 0
    for node, i in enumerate(data["index"]):
        items = () if i < 0 else tuple(sorted(closed.itemsets[i]))
        assert data["verdict"][node] == verdicts.get(items)
        seen += items in verdicts
    assert seen >= 1 and all(v is None for v in data["inside"])
    # (2, 5) made non-closed: every model holding both holds 8 as well
    M2 = M.copy()
    M2[M2[:, 2] & M2[:, 5], 8] = True
    closed2 = mine_itemsets(M2, itemset_type="closed", min_support=0.1)
    assert (2, 5) not in {tuple(sorted(s)) for s in closed2.itemsets}
    given = self_sufficient_itemsets(M2, [(2, 5)])
    assert bool(given["self_sufficient"].iloc[0])
    data = page_data(ItemsetLattice(closed2).to_html_text(significance=given))
    holder = [n for n, v in enumerate(data["inside"]) if v]
    assert len(holder) == 1
    i = data["index"][holder[0]]
    assert tuple(sorted(closed2.itemsets[i])) == (2, 5, 8)
    names = [str(closed2.feature_names[k]) for k in (2, 5)]
    assert data["inside"][holder[0]] == [", ".join(names)]
    assert data["verdict"][holder[0]] is None
