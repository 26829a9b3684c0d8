"""The lattice explorer driven in headless Chromium (DevTools protocol): search, click,
filters, comparison, level of detail and exports, checked against the Python objects."""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

import modelmine as mm
from modelmine.operators import aggregate
from modelmine.patterns import ItemsetLattice, mine_itemsets

sys.path.insert(0, str(Path(__file__).parent))
from browser import find_chromium
from browser_session import BrowserPage

pytestmark = [
    pytest.mark.skipif(
        find_chromium() is None and not os.environ.get("MODELMINE_REQUIRE_BROWSER"),
        reason="Chromium is not installed (apt-get install chromium)",
    ),
    pytest.mark.slow,
]

SEED = 3

DRAWN = "Array.from(document.querySelectorAll('#lattice [data-itemset]'))"


def _artifacts(tmp_path: Path) -> Path:
    path = Path(os.environ.get("MODELMINE_ARTIFACTS", tmp_path))
    path.mkdir(parents=True, exist_ok=True)
    return path


def _key(names) -> str:
    return ",".join(names)


@pytest.fixture(scope="module")
def colon_lattice():
    X, y, names = mm.datasets.load_colon(return_names=True)
    base = mm.bootstrap(
        X,
        y,
        selector="anova",
        n_bootstraps=30,
        n_features=15,
        feature_names=names,
        random_state=SEED,
    )
    signatures = {
        "closedApr": aggregate(base, "closedApr", n_features=15),
        "allMed": aggregate(base, "allMed", n_signatures=3, random_state=SEED),
    }
    lattice = ItemsetLattice.from_base(base, min_support=0.1, signatures=signatures)
    assert 30 < len(lattice) < 1500  # all of it drawn at once
    return base, signatures, lattice


def _names(lattice, node):
    return lattice.graph.nodes[node]["names"]


def test_explorer_search_click_filter_compare_export(colon_lattice, tmp_path):
    base, signatures, lattice = colon_lattice
    b = base.n_models
    page_path = lattice.to_html(tmp_path / "lattice.html")
    shots = _artifacts(tmp_path)
    graph = lattice.graph
    all_keys = {_key(_names(lattice, n)) for n in graph.nodes}
    with BrowserPage(width=1400, height=900) as page:
        page.open(page_path)
        page.wait_for("document.getElementById('lattice').dataset.ready === '1'")
        page.settle()
        # every itemset of the lattice (and only those) is drawn, marked by its names
        drawn = page.evaluate(f"{DRAWN}.map(e => e.dataset.itemset)")
        assert len(drawn) == len(graph) and set(drawn) == all_keys
        assert page.evaluate("document.querySelectorAll('#lattice').length") == 1
        page.screenshot(shots / "lattice-explorer-start.png")

        # search: the feature in most itemsets (besides singletons)
        counts = {}
        for node in graph.nodes:
            for name in _names(lattice, node):
                counts[name] = counts.get(name, 0) + 1
        feature = max(sorted(counts), key=lambda f: counts[f])
        page.type("#lattice-search", feature)
        page.settle()
        hits = set(lattice.containing(feature))
        related = set().union(*(nx.ancestors(graph, n) for n in hits)) - hits
        marked = page.evaluate(
            f"{DRAWN}.filter(e => e.classList.contains('mmL-m')).map(e => e.dataset.itemset)"
        )
        assert set(marked) == {_key(_names(lattice, n)) for n in hits}
        pink = page.evaluate(
            f"{DRAWN}.filter(e => e.classList.contains('mmL-r')).map(e => e.dataset.itemset)"
        )
        assert set(pink) == {_key(_names(lattice, n)) for n in related}
        assert page.evaluate("document.querySelector('[data-field=n-match]').textContent") == str(
            len(hits)
        )
        page.screenshot(shots / "lattice-explorer-search.png")

        # click the largest, most supported itemset with the feature
        node = max(hits, key=lambda n: (len(_names(lattice, n)), graph.nodes[n]["count"], -n))
        key = _key(_names(lattice, node))
        page.click(f'#lattice circle[data-itemset="{key}"]')
        page.settle()
        field = "document.querySelector('#lattice-details [data-field={}]').textContent"
        assert page.evaluate(field.format("support")) == f"{graph.nodes[node]['support']:.3f}"
        assert page.evaluate(field.format("count")) == str(graph.nodes[node]["count"])
        models = lattice.models_containing(node)
        assert page.evaluate(field.format("n-models")) == str(len(models))
        assert len(models) == graph.nodes[node]["count"]  # the two Python views agree
        assert page.evaluate(field.format("features")) == ", ".join(_names(lattice, node))
        items = set(graph.nodes[node]["items"])
        inside = []
        for op, sig in signatures.items():
            members = [sig] if isinstance(sig, mm.Signature) else list(sig)
            for k, member in enumerate(members, start=1):
                label = (
                    f"{op} (consensus)"
                    if isinstance(sig, mm.Signature)
                    else f"{op} alternative {k}"
                )
                if items <= set(member.features.tolist()):
                    inside.append(label)
        shown = page.evaluate(
            "Array.from(document.querySelector('#lattice-details "
            "[data-field=signatures]').childNodes).filter(n => n.nodeType"
            " === 3).map(n => n.textContent)"
        )
        assert shown == inside
        chips = page.evaluate("document.querySelectorAll('#lattice-details .mmL-chip').length")
        assert chips == min(40, len(lattice.parents(node))) + min(40, len(lattice.children(node)))
        assert page.evaluate("document.querySelector('#lattice .mmL-s').dataset.itemset") == key
        page.screenshot(shots / "lattice-explorer-details.png")

        # exports of the selection (filters + search) and of the view
        rows = page.evaluate("modelmineLattice.csv()").strip().split("\n")
        assert rows[0] == "itemset,length,count,support,signatures"
        assert sorted(r.split(",")[0].strip('"').replace(";", ",") for r in rows[1:]) == sorted(
            _key(_names(lattice, n)) for n in hits
        )
        svg = page.evaluate("modelmineLattice.svg()")
        assert svg.startswith("<svg") and f'data-itemset="{key}"' in svg
        png = page.evaluate("modelmineLattice.png()", await_promise=True)
        assert png.startswith("data:image/png;base64,") and len(png) > 5000

        # support filter: only itemsets of support >= 0.3 stay drawn
        page.type("#lattice-search", "")
        page.type("#lattice-min-support", "0.3")
        page.settle()
        need = math.ceil(0.3 * b - 1e-9)
        expected = {
            _key(_names(lattice, n)) for n in graph.nodes if graph.nodes[n]["count"] >= need
        }
        drawn = page.evaluate(f"{DRAWN}.map(e => e.dataset.itemset)")
        assert set(drawn) == expected and len(drawn) == len(expected)
        page.type("#lattice-min-support", "0.1")

        # two signatures side by side: closedApr vs allMed's first alternative
        page.evaluate(
            "(() => { for (const [id, v] of [['lattice-compare-a', '0'], "
            "['lattice-compare-b', '1']]) { const s = document.getElementById(id);"
            " s.value = v; s.dispatchEvent(new Event('change')); } })()"
        )
        page.settle()
        a = set(signatures["closedApr"].features.tolist())
        bb = set(signatures["allMed"][0].features.tolist())
        fills = dict(
            page.evaluate(f"{DRAWN}.map(e => [e.dataset.itemset, e.getAttribute('fill')])")
        )
        colour = {"both": "#7b3294", "a": "#2c7bb6", "b": "#e66101", "none": "#d9d9d9"}
        for n in graph.nodes:
            its = set(graph.nodes[n]["items"])
            want = (
                "both"
                if its <= a and its <= bb
                else "a"
                if its <= a
                else "b"
                if its <= bb
                else "none"
            )
            assert fills[_key(_names(lattice, n))] == colour[want], n
        # only the itemsets inside closedApr's signature
        page.evaluate(
            "(() => { const s = document.getElementById('lattice-only-signature');"
            " s.value = '0'; s.dispatchEvent(new Event('change')); })()"
        )
        page.settle()
        drawn = page.evaluate(f"{DRAWN}.map(e => e.dataset.itemset)")
        assert set(drawn) == {
            _key(_names(lattice, n)) for n in graph.nodes if set(graph.nodes[n]["items"]) <= a
        }
        page.screenshot(shots / "lattice-explorer-compare.png")
        assert page.errors() == []
        # no network: the page itself, and the data: URL of the PNG export's SVG
        requests = page.requests()
        assert requests[0] == page_path.resolve().as_uri()
        assert all(url.startswith("data:image/svg+xml") for url in requests[1:])


def test_explorer_level_of_detail(tmp_path):
    rng = np.random.default_rng(SEED)
    X = rng.random((120, 40)) < np.linspace(0.85, 0.1, 40)
    lattice = ItemsetLattice(mine_itemsets(X, itemset_type="closed", min_support=0.2))
    n = len(lattice.closed)
    assert n > 3000
    page_path = lattice.to_html(tmp_path / "lod.html", budget=400, max_itemsets=n - 100)
    shots = _artifacts(tmp_path)
    counts = np.asarray(lattice.closed.counts)
    kept = counts >= np.sort(counts)[::-1][n - 100] + 1
    with BrowserPage(width=1280, height=820) as page:
        page.open(page_path)
        page.wait_for("document.getElementById('lattice').dataset.ready === '1'")
        page.settle()
        view = page.evaluate("modelmineLattice.view")
        assert view["drawn"] == 400 and view["inView"] == int(kept.sum()) + 1
        # the drawn itemsets are those of highest support; the rest are counted per level
        drawn = page.evaluate(f"{DRAWN}.map(e => +e.dataset.i)")
        cnt = page.evaluate(
            "Array.from(JSON.parse(document.getElementById('lattice-data').textContent).count)"
        )
        shown = sorted((cnt[i] for i in drawn), reverse=True)
        hidden = sorted((c for i, c in enumerate(cnt) if i not in set(drawn)), reverse=True)
        assert shown[-1] >= hidden[0]
        per_level = page.evaluate(
            "Array.from(document.querySelectorAll('[data-hidden-level]'))"
            ".map(e => +e.textContent.replace(/[^0-9]/g, ''))"
        )
        assert sum(per_level) == view["inView"] - 400
        status = page.evaluate("document.getElementById('lattice-status').textContent")
        assert "Level of detail" in status and "hidden" in status
        note = page.evaluate("document.querySelector('#lattice .mmL-note').textContent")
        assert f"holds the {int(kept.sum()):,} of highest support" in note
        page.screenshot(shots / "lattice-explorer-lod.png")
        # zooming in shows fewer itemsets in view, and hides fewer
        for _ in range(6):
            page.wheel("#lattice-svg", -400)
        page.settle()
        zoomed = page.evaluate("modelmineLattice.view")
        assert zoomed["inView"] < view["inView"]
        assert page.evaluate("modelmineLattice.state.zoom") > 2
        # dragging pans the view: other itemsets come into view
        before = set(page.evaluate(f"{DRAWN}.map(e => e.dataset.itemset)"))
        ox = page.evaluate("modelmineLattice.state.ox")
        page.drag("#lattice-svg", 300)
        page.settle()
        assert page.evaluate("modelmineLattice.state.ox") != ox
        assert set(page.evaluate(f"{DRAWN}.map(e => e.dataset.itemset)")) != before
        assert page.errors() == []


def test_explorer_inside_the_run_report(colon_lattice, tmp_path):
    from modelmine.report import operator_result, write_report

    base, signatures, lattice = colon_lattice
    results = [operator_result(name, sig) for name, sig in signatures.items()]
    path = write_report(tmp_path / "report.html", base, results, itemsets=lattice.closed)
    with BrowserPage(width=1280, height=1000) as page:
        page.open(path)
        page.wait_for("document.getElementById('lattice').dataset.ready === '1'")
        page.evaluate("document.getElementById('lattice').scrollIntoView()")
        page.settle()
        drawn = page.evaluate(f"{DRAWN}.map(e => e.dataset.itemset)")
        assert set(drawn) == {_key(_names(lattice, n)) for n in lattice.graph}
        labels = page.evaluate(
            "Array.from(document.querySelectorAll("
            "'#lattice-compare-a option')).map(o => o.textContent)"
        )
        assert labels == [
            "(none)",
            "closedApr (consensus)",
            "allMed alternative 1",
            "allMed alternative 2",
            "allMed alternative 3",
        ]
        page.screenshot(_artifacts(tmp_path) / "lattice-explorer-report.png")
        assert page.errors() == []
        assert all(url.startswith(("file:", "data:")) for url in page.requests())
