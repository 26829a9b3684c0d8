"""The lattice explorer driven in headless Chromium through the DevTools protocol by
Playwright (its Python sync API, pointed at the system Chromium): search, click, filters,
comparison, level of detail and exports, checked against the Python objects."""

from __future__ import annotations

import contextlib
import importlib.util
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

_REQUIRED = bool(os.environ.get("MODELMINE_REQUIRE_BROWSER"))


def _have_playwright() -> bool:
    try:
        return importlib.util.find_spec("playwright.sync_api") is not None
    except (ImportError, ValueError):
        return False


_HAVE_PLAYWRIGHT = _have_playwright()

pytestmark = [
    pytest.mark.skipif(
        find_chromium() is None and not _REQUIRED,
        reason="Chromium is not installed (apt-get install chromium)",
    ),
    pytest.mark.skipif(
        not _HAVE_PLAYWRIGHT and not _REQUIRED,
        reason="Playwright is not installed (pip install -e '.[test]')",
    ),
    pytest.mark.slow,
]

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT_MS = 60_000


@pytest.fixture(scope="module")
def chromium():
    """The system Chromium (never Playwright's own download), launched by Playwright."""
    from playwright.sync_api import sync_playwright

    exe = find_chromium() or "/usr/bin/chromium"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=exe, args=CHROMIUM_ARGS, headless=True, timeout=TIMEOUT_MS
        )
        try:
            yield browser
        finally:
            browser.close()


class _Watched:
    """A Playwright page and what it logged: console errors, uncaught exceptions, requests."""

    def __init__(self, browser, width: int, height: int) -> None:
        self.context = browser.new_context(
            viewport={"width": width, "height": height}, device_scale_factor=1
        )
        self.page = self.context.new_page()
        self.page.set_default_timeout(TIMEOUT_MS)
        self._errors: list[str] = []
        self._requests: list[str] = []
        self.page.on(
            "console",
            lambda msg: (
                self._errors.append(f"console.{msg.type}: {msg.text}")
                if msg.type in ("error", "assert")
                else None
            ),
        )
        self.page.on("pageerror", lambda exc: self._errors.append(f"uncaught: {exc}"))
        self.page.on("request", lambda req: self._requests.append(req.url))

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.context.close()

    def errors(self) -> list[str]:
        return list(self._errors)

    def requests(self) -> list[str]:
        return list(self._requests)


@contextlib.contextmanager
def _open(browser, path: Path, *, width: int, height: int):
    """A fresh page showing ``path``, the explorer drawn and settled."""
    watched = _Watched(browser, width, height)
    try:
        page = watched.page
        page.goto(Path(path).resolve().as_uri(), wait_until="load")
        page.wait_for_function("document.getElementById('lattice').dataset.ready === '1'")
        yield watched
    finally:
        watched.close()


def _settle(page) -> None:
    """Wait for two animation frames (the explorer renders on the next one)."""
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def _centre(page, selector: str) -> tuple[float, float]:
    loc = page.locator(selector).first
    loc.scroll_into_view_if_needed()
    box = loc.bounding_box()
    assert box is not None, f"{selector!r} is not drawn"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _type(page, selector: str, text: str) -> None:
    """Click a field, select its content and type ``text`` over it (empty: clear it)."""
    page.click(selector)
    page.fill(selector, text)


def _wheel(page, selector: str, delta_y: float) -> None:
    page.mouse.move(*_centre(page, selector))
    page.mouse.wheel(0, delta_y)


def _drag(page, selector: str, dx: float, steps: int = 8) -> None:
    x, y = _centre(page, selector)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + dx, y, steps=steps)
    page.mouse.up()


def _shot(page, path: Path) -> Path:
    page.screenshot(path=str(path))
    return path


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


def test_explorer_search_click_filter_compare_export(chromium, colon_lattice, tmp_path):
    base, signatures, lattice = colon_lattice
    b = base.n_models
    page_path = lattice.to_html(tmp_path / "lattice.html")
    shots = _artifacts(tmp_path)
    graph = lattice.graph
    all_keys = {_key(_names(lattice, n)) for n in graph.nodes}
    with _open(chromium, page_path, width=1400, height=900) as watched:
        page = watched.page
        _settle(page)
        # every itemset of the lattice (and only those) is drawn, marked by its names
        drawn = page.evaluate(f"{DRAWN}.map(e => e.dataset.itemset)")
        assert len(drawn) == len(graph) and set(drawn) == all_keys
        assert page.evaluate("document.querySelectorAll('#lattice').length") == 1
        _shot(page, shots / "lattice-explorer-start.png")

        # search: the feature in most itemsets (besides singletons)
        counts = {}
        for node in graph.nodes:
            for name in _names(lattice, node):
                counts[name] = counts.get(name, 0) + 1
        feature = max(sorted(counts), key=lambda f: counts[f])
        _type(page, "#lattice-search", feature)
        _settle(page)
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
        _shot(page, shots / "lattice-explorer-search.png")

        # click the largest, most supported itemset with the feature
        node = max(hits, key=lambda n: (len(_names(lattice, n)), graph.nodes[n]["count"], -n))
        key = _key(_names(lattice, node))
        page.mouse.click(*_centre(page, f'#lattice circle[data-itemset="{key}"]'))
        _settle(page)
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
        _shot(page, shots / "lattice-explorer-details.png")

        # exports of the selection (filters + search) and of the view
        rows = page.evaluate("modelmineLattice.csv()").strip().split("\n")
        assert rows[0] == "itemset,length,count,support,signatures"
        assert sorted(r.split(",")[0].strip('"').replace(";", ",") for r in rows[1:]) == sorted(
            _key(_names(lattice, n)) for n in hits
        )
        svg = page.evaluate("modelmineLattice.svg()")
        assert svg.startswith("<svg") and f'data-itemset="{key}"' in svg
        png = page.evaluate("modelmineLattice.png()")  # awaits the promise
        assert png.startswith("data:image/png;base64,") and len(png) > 5000

        # support filter: only itemsets of support >= 0.3 stay drawn
        _type(page, "#lattice-search", "")
        _type(page, "#lattice-min-support", "0.3")
        _settle(page)
        need = math.ceil(0.3 * b - 1e-9)
        expected = {
            _key(_names(lattice, n)) for n in graph.nodes if graph.nodes[n]["count"] >= need
        }
        drawn = page.evaluate(f"{DRAWN}.map(e => e.dataset.itemset)")
        assert set(drawn) == expected and len(drawn) == len(expected)
        _type(page, "#lattice-min-support", "0.1")

        # two signatures side by side: closedApr vs allMed's first alternative
        page.evaluate(
            "(() => { for (const [id, v] of [['lattice-compare-a', '0'], "
            "['lattice-compare-b', '1']]) { const s = document.getElementById(id);"
            " s.value = v; s.dispatchEvent(new Event('change')); } })()"
        )
        _settle(page)
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
        _settle(page)
        drawn = page.evaluate(f"{DRAWN}.map(e => e.dataset.itemset)")
        assert set(drawn) == {
            _key(_names(lattice, n)) for n in graph.nodes if set(graph.nodes[n]["items"]) <= a
        }
        _shot(page, shots / "lattice-explorer-compare.png")
        assert watched.errors() == []
        # no network: the page itself, and the data: URL of the PNG export's SVG
        requests = watched.requests()
        assert requests[0] == page_path.resolve().as_uri()
        assert all(url.startswith("data:image/svg+xml") for url in requests[1:])


def test_explorer_level_of_detail(chromium, tmp_path):
    rng = np.random.default_rng(SEED)
    X = rng.random((120, 40)) < np.linspace(0.85, 0.1, 40)
    lattice = ItemsetLattice(mine_itemsets(X, itemset_type="closed", min_support=0.2))
    n = len(lattice.closed)
    assert n > 3000
    page_path = lattice.to_html(tmp_path / "lod.html", budget=400, max_itemsets=n - 100)
    shots = _artifacts(tmp_path)
    counts = np.asarray(lattice.closed.counts)
    kept = counts >= np.sort(counts)[::-1][n - 100] + 1
    with _open(chromium, page_path, width=1280, height=820) as watched:
        page = watched.page
        _settle(page)
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
        _shot(page, shots / "lattice-explorer-lod.png")
        # zooming in shows fewer itemsets in view, and hides fewer
        for _ in range(6):
            _wheel(page, "#lattice-svg", -400)
        _settle(page)
        zoomed = page.evaluate("modelmineLattice.view")
        assert zoomed["inView"] < view["inView"]
        assert page.evaluate("modelmineLattice.state.zoom") > 2
        # dragging pans the view: other itemsets come into view
        before = set(page.evaluate(f"{DRAWN}.map(e => e.dataset.itemset)"))
        ox = page.evaluate("modelmineLattice.state.ox")
        _drag(page, "#lattice-svg", 300)
        _settle(page)
        assert page.evaluate("modelmineLattice.state.ox") != ox
        assert set(page.evaluate(f"{DRAWN}.map(e => e.dataset.itemset)")) != before
        assert watched.errors() == []


def test_explorer_rings_the_itemsets_that_pass(chromium, tmp_path):
    # issue 49: self_sufficient_itemsets' verdicts drawn as rings, said in the details
    # panel and exported; the legend says what the rings mean
    from modelmine.diagnostics import self_sufficient_itemsets

    rng = np.random.default_rng(1)
    M = rng.random((100, 12)) < rng.uniform(0.1, 0.4, 12)
    M[rng.choice(100, 20, replace=False)[:, None], [2, 5, 8]] = True
    table = self_sufficient_itemsets(M, random_state=0)
    lattice = ItemsetLattice(mine_itemsets(M, itemset_type="closed", min_support=0.1))
    page_path = lattice.to_html(tmp_path / "rings.html", significance=table)
    names = lattice.closed.feature_names
    key = ",".join(str(names[i]) for i in (2, 5, 8))
    pair = ",".join(str(names[i]) for i in (2, 5))
    with _open(chromium, page_path, width=1280, height=820) as watched:
        page = watched.page
        _settle(page)
        ringed = page.evaluate("Array.from(document.querySelectorAll('#lattice .mmL-ss'))"
                               ".map(e => e.dataset.itemset)")
        dashed = page.evaluate("Array.from(document.querySelectorAll('#lattice .mmL-ps'))"
                               ".map(e => e.dataset.itemset)")
        assert ringed == [key] and pair in dashed
        assert not page.evaluate("document.getElementById('lattice-legend-verdict').hidden")
        page.mouse.click(*_centre(page, f'#lattice circle[data-itemset="{key}"]'))
        _settle(page)
        verdict = page.evaluate("document.querySelector('#lattice-details "
                                "[data-field=verdict]').textContent")
        assert verdict.startswith("self-sufficient")
        csv_text = page.evaluate("modelmineLattice.csv()")
        assert csv_text.splitlines()[0].endswith(",co_selection")
        assert any(line.endswith(",self-sufficient") for line in csv_text.splitlines())
        assert watched.errors() == []


def test_explorer_inside_the_run_report(chromium, colon_lattice, tmp_path):
    from modelmine.report import operator_result, write_report

    base, signatures, lattice = colon_lattice
    results = [operator_result(name, sig) for name, sig in signatures.items()]
    path = write_report(tmp_path / "report.html", base, results, itemsets=lattice.closed)
    with _open(chromium, path, width=1280, height=1000) as watched:
        page = watched.page
        page.evaluate("document.getElementById('lattice').scrollIntoView()")
        _settle(page)
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
        # an itemset of two or more features: the report's test of co-selection gives
        # its lift and q-value in the details panel (issue 25), and its verdict, ringed
        # (issue 49: self_sufficient_itemsets' default, seed 0, named in the note)
        from modelmine.diagnostics import self_sufficient_itemsets

        assert "self_sufficient_itemsets" in path.read_text()
        tested = self_sufficient_itemsets(base, random_state=0)
        table = tested.set_index("items")
        node = max((n for n in lattice.graph if n >= 0 and len(_names(lattice, n)) >= 2
                    and tuple(sorted(lattice.graph.nodes[n]["items"])) in table.index),
                   key=lambda n: (lattice.graph.nodes[n]["count"], -n))
        items = tuple(sorted(lattice.graph.nodes[node]["items"]))
        key = _key(_names(lattice, node))
        page.mouse.click(*_centre(page, f'#lattice circle[data-itemset="{key}"]'))
        _settle(page)
        field = "document.querySelector('#lattice-details [data-field={}]').textContent"
        assert page.evaluate(field.format("lift")) == f"{table.loc[[items], 'lift'].iloc[0]:.3f}"
        q = float(page.evaluate(field.format("q")))
        assert q == pytest.approx(table.loc[[items], "q_value"].iloc[0], rel=1e-2)
        row = table.loc[[items]].iloc[0]
        word = ("self-sufficient" if row["self_sufficient"] else "passes" if row["passes"]
                else "tested, does not pass")
        assert page.evaluate(field.format("verdict")).startswith(word)
        ringed = page.evaluate("Array.from(document.querySelectorAll('#lattice .mmL-ss'))"
                               ".map(e => e.dataset.itemset)")
        closed = {tuple(sorted(lattice.graph.nodes[n]["items"])): n
                  for n in lattice.graph if n >= 0}
        # a self-sufficient itemset's node, or its closure's when it is not closed (every
        # model holding it holds more: the features all those models hold)
        held = np.asarray(base.subsets, dtype=bool)
        want = set()
        for t in tested.loc[tested["self_sufficient"], "items"]:
            rows = held[:, list(t)].all(axis=1)
            closure = tuple(np.flatnonzero(held[rows].all(axis=0)).tolist())
            if closure in closed:
                want.add(_key(_names(lattice, closed[closure])))
        assert len(want) >= 1 and set(ringed) == want
        _shot(page, _artifacts(tmp_path) / "lattice-explorer-report.png")
        assert watched.errors() == []
        requests = watched.requests()
        assert requests[0] == path.resolve().as_uri()
        assert all(url.startswith(("file:", "data:")) for url in requests)
        # the listeners behind those two checks do see errors and exceptions
        # (wait for the uncaught exception's event itself, not for a fixed time)
        with page.expect_event("pageerror"):
            page.evaluate("console.error('probe'); "
                          "setTimeout(() => { throw new Error('boom'); })")
        errors = watched.errors()
        assert any("probe" in e for e in errors) and any("boom" in e for e in errors)
