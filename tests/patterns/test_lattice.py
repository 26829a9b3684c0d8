"""Tests of the closed-itemset lattice: edges == covering pairs (brute force), queries,
exports (read back with networkx / parsed), drawing, scale and bad input."""

from __future__ import annotations

import json
import time

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from modelmine.patterns import ItemsetLattice, mine_itemsets

PASQUIER = [{1, 3, 4}, {2, 3, 5}, {1, 2, 3, 5}, {2, 5}, {1, 2, 3, 5}]


def covering_pairs(sets):
    """Brute force: (i, j) with sets[i] < sets[j] and nothing closed strictly between."""
    out = set()
    for i, a in enumerate(sets):
        for j, c in enumerate(sets):
            if a < c and not any(a < m < c for m in sets):
                out.add((i, j))
    return out


def check_hasse(lat: ItemsetLattice) -> None:
    closed = lat.closed
    nodes = [lat.bottom, *range(len(closed))]
    sets = [frozenset()] + [frozenset(closed[i]) for i in range(len(closed))]
    expected = {(nodes[i], nodes[j]) for i, j in covering_pairs(sets)}
    assert set(lat.graph.edges()) == expected


def test_pasquier_lattice():
    lat = ItemsetLattice(mine_itemsets(PASQUIER, itemset_type="closed", min_support=2))
    names = {n: lat.graph.nodes[n]["names"] for n in lat.graph}
    edges = {(names[u], names[v]) for u, v in lat.graph.edges()}
    assert edges == {((), ("2", "5")), ((), ("3",)), (("2", "5"), ("2", "3", "5")),
                     (("3",), ("2", "3", "5")), (("3",), ("1", "3")),
                     (("2", "3", "5"), ("1", "2", "3", "5")), (("1", "3"), ("1", "2", "3", "5"))}
    assert lat.graph.nodes[lat.bottom]["support"] == 1.0
    assert lat.graph.nodes[4] == {"items": (0, 1, 2, 4), "names": ("1", "2", "3", "5"),
                                  "support": 0.4, "count": 2, "size": 4}
    assert lat.children(1) == [2, 3] and lat.parents(4) == [2, 3]
    assert lat.path_from_bottom(4)[0] == lat.bottom and lat.path_from_bottom(4)[-1] == 4
    assert len(lat.path_from_bottom(4)) == 4
    assert set(lat.above(1).nodes) == {1, 2, 3, 4}
    assert set(lat.below(2).nodes) == {lat.bottom, 0, 1, 2}
    assert lat.containing("1") == [3, 4] and lat.containing(4) == lat.containing("5") == [0, 2, 4]
    np.testing.assert_array_equal(lat.models_containing(4), [2, 4])
    assert len(lat.models_containing(lat.bottom)) == 5
    assert nx.is_directed_acyclic_graph(lat.graph)


matrices = st.integers(1, 10).flatmap(lambda b: st.integers(1, 7).flatmap(
    lambda p: st.lists(st.lists(st.booleans(), min_size=p, max_size=p), min_size=b,
                       max_size=b).map(lambda rows: np.array(rows, dtype=bool))))


@settings(max_examples=60, deadline=None)
@given(matrix=matrices, count=st.integers(1, 4))
def test_edges_are_exactly_the_covering_pairs(matrix, count):
    count = min(count, matrix.shape[0])
    check_hasse(ItemsetLattice(mine_itemsets(matrix, itemset_type="closed", min_support=count)))


def test_item_in_every_transaction():
    # closure of the empty set is {0}: the bottom's only cover
    lat = ItemsetLattice(mine_itemsets([[0, 1], [0, 2], [0, 1, 2]], min_support=1))
    assert lat.children(lat.bottom) == [0] and lat.graph.nodes[0]["items"] == (0,)
    check_hasse(lat)


@pytest.mark.parametrize("fmt", ["graphml", "gexf", "json", "dot"])
def test_exports(tmp_path, fmt):
    base = [{"g a", 'g"b'}, {"g a", "g<c>"}, {"g a", 'g"b', "g<c>"}]
    lat = ItemsetLattice(mine_itemsets(base, min_support=1))
    path = lat.write(tmp_path / f"lattice.{fmt}")
    if fmt == "graphml":
        back = nx.read_graphml(path)
    elif fmt == "gexf":
        back = nx.read_gexf(path)
    elif fmt == "json":
        back = nx.node_link_graph(json.loads(path.read_text()), edges="edges")
    else:
        text = path.read_text()
        assert text.startswith("digraph lattice {") and text.rstrip().endswith("}")
        assert '\\"' in text  # quotes inside names escaped
        assert text.count(" -> ") == lat.graph.number_of_edges()
        return
    assert back.number_of_nodes() == lat.graph.number_of_nodes()
    assert back.number_of_edges() == lat.graph.number_of_edges()
    supports = sorted(float(d["support"]) for _, d in back.nodes(data=True))
    assert supports == sorted(d["support"] for _, d in lat.graph.nodes(data=True))


def test_dot_parses_with_networkx_pydot_if_available(tmp_path):
    pydot = pytest.importorskip("pydot")
    lat = ItemsetLattice(mine_itemsets(PASQUIER, min_support=2))
    graphs = pydot.graph_from_dot_file(str(lat.write(tmp_path / "l.dot")))
    assert len(graphs[0].get_edges()) == lat.graph.number_of_edges()


@pytest.mark.parametrize("fmt", ["png", "svg"])
def test_draw_caps_and_says_so(tmp_path, fmt):
    rng = np.random.default_rng(0)
    T = rng.random((60, 14)) < 0.5
    lat = ItemsetLattice(mine_itemsets(T, min_support=0.1))
    assert len(lat.closed) > 100
    path = lat.draw(tmp_path / f"l.{fmt}", max_nodes=100)
    assert path.stat().st_size > 1000
    if fmt == "svg":
        text = path.read_text()
        assert f"100 of {len(lat.closed)} closed itemsets shown" in text


def test_scales_to_5000_closed_itemsets():
    rng = np.random.default_rng(3)
    # base-model-like: a shared core plus random features, 150 transactions
    T = np.zeros((150, 60), bool)
    T[:, :12] = rng.random((150, 12)) < 0.7
    T[:, 12:] = rng.random((150, 48)) < 0.12
    closed = mine_itemsets(T, itemset_type="closed", min_support=10)  # 6,156 of them
    assert len(closed) >= 5000
    start = time.perf_counter()
    lat = ItemsetLattice(closed)
    elapsed = time.perf_counter() - start
    print(f"{len(closed)} closed itemsets, {lat.graph.number_of_edges()} edges, {elapsed:.2f} s")
    # invariants of a Hasse diagram: acyclic, every node reachable from the bottom, each
    # edge raises support or keeps it strictly narrower, no edge implied by two others
    assert nx.is_directed_acyclic_graph(lat.graph)
    assert len(nx.descendants(lat.graph, lat.bottom)) == len(closed)
    g = lat.graph
    for u, v in list(g.edges())[:3000]:
        assert set(g.nodes[u]["items"]) < set(g.nodes[v]["items"])
        assert not any(set(g.nodes[u]["items"]) < set(g.nodes[w]["items"])
                       for w in g.predecessors(v) if w != u)


def test_bad_input(tmp_path):
    maximal = mine_itemsets(PASQUIER, itemset_type="maximal", min_support=2)
    with pytest.raises(ValueError, match=r"The 'closed' parameter of ItemsetLattice must be "
                                         r"closed itemsets.*Got itemsets of type 'maximal'"):
        ItemsetLattice(maximal)
    with pytest.raises(ValueError, match="max_len"):
        ItemsetLattice(mine_itemsets(PASQUIER, min_support=2, max_len=2))
    with pytest.raises(TypeError, match="'closed'"):
        ItemsetLattice([(1, 2)])
    lat = ItemsetLattice.from_base(np.array([[1, 1, 0], [1, 0, 1]], bool), min_support=1)
    with pytest.raises(ValueError, match=r"'format'.*one of 'graphml', 'gexf', 'json', 'dot'"):
        lat.write(tmp_path / "l.xlsx")
    with pytest.raises(ValueError, match=r"'format'.*one of 'png', 'svg'"):
        lat.draw(tmp_path / "l.pdf")
    with pytest.raises(ValueError, match="'node'"):
        lat.children(99)
    with pytest.raises(ValueError, match="'feature'"):
        lat.containing("nope")


@pytest.mark.slow
def test_example_runs(tmp_path):
    import runpy
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "examples" / "lattice.py"
    argv = sys.argv
    sys.argv = [str(script), "--fast", "--out", str(tmp_path)]
    try:
        runpy.run_path(str(script), run_name="__main__")
    finally:
        sys.argv = argv
    for suffix in ("graphml", "gexf", "json", "dot", "png", "svg"):
        assert (tmp_path / f"leukemia_lattice.{suffix}").stat().st_size > 0
    back = nx.read_graphml(tmp_path / "leukemia_lattice.graphml")
    assert back.number_of_nodes() > 10
