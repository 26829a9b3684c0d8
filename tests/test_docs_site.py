"""The documentation site, as a reader opens it: headless Chromium on the built pages
(issue 52, item 1).

``make docs`` builds the site into ``docs/_build/html``; this test never builds it (minutes,
and the gallery executes the examples). It opens the front page, the search page with a
query, one page of the API reference and one page of the gallery, and checks that each
loads with no console error, no uncaught exception, no request leaving the machine and no
broken image, and shows what it is for: the search finds the API page of ``bootstrap``,
the API page gives the signature, parameters and returns of ``mm.run``, the gallery page
(the quick start) its code, output and figures.

Skipped, with the reason, when the site is not built or Chromium is missing, except under
``MODELMINE_REQUIRE_DOCS=1`` (CI: ``.ci/run`` runs ``make docs`` first), where it must run.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "docs" / "_build" / "html"
sys.path.insert(0, str(ROOT / "tests" / "report"))

from browser import find_chromium  # noqa: E402
from browser_session import BrowserPage  # noqa: E402

REQUIRED = bool(os.environ.get("MODELMINE_REQUIRE_DOCS"))

#: The pages opened, and a text each must show.
PAGES = {
    "index.html": "Robust feature selection by",
    "reference/generated/modelmine.pipeline.run.html": "Mine the models of a feature selector",
    "gallery/quickstart.html": "Most frequently selected genes across the base models",
}


def _need_site() -> None:
    if not (SITE / "index.html").is_file():
        if REQUIRED:
            pytest.fail(f"MODELMINE_REQUIRE_DOCS is set but {SITE} holds no site: run make docs")
        pytest.skip("the documentation site is not built (make docs writes docs/_build/html)")
    if find_chromium() is None:
        if REQUIRED or os.environ.get("MODELMINE_REQUIRE_BROWSER"):
            pytest.fail("Chromium is required here but not installed (make browser)")
        pytest.skip("Chromium is not installed (make browser, or apt-get install chromium)")


def _problems(page: BrowserPage) -> list[str]:
    """Console errors, exceptions, requests off the machine and broken images of the page
    opened since the events were last cleared."""
    found = [f"console: {e}" for e in page.errors()]
    found += [f"request: {url}" for url in page.requests()
              if not url.startswith(("file:", "data:", "about:"))]
    broken = page.evaluate("Array.from(document.images).filter(i => !i.complete || "
                           "i.naturalWidth === 0).map(i => i.src)")
    return found + [f"image: {src}" for src in broken]


def test_the_site_renders_offline_and_its_search_finds_the_api(tmp_path):
    _need_site()
    artifacts = Path(os.environ.get("MODELMINE_ARTIFACTS", tmp_path))
    artifacts.mkdir(parents=True, exist_ok=True)
    with BrowserPage(width=1280, height=900) as page:
        for rel, text in PAGES.items():
            page.pipe.events = []
            page.open(SITE / rel)
            assert text in page.evaluate("document.body.innerText"), rel
            assert _problems(page) == [], rel
            page.screenshot(artifacts / f"site-{rel.replace('/', '-')}.png")
            if rel.startswith("gallery/"):
                images = page.evaluate("document.querySelectorAll('img.sphx-glr-single-img')"
                                       ".length")
                assert images >= 3, images  # the frequencies, the stability, the overlaps
            if rel.startswith("reference/"):
                api = page.evaluate("document.querySelector('dl.py.function').innerText")
                for needed in ("modelmine.pipeline.run(", "n_bootstraps=150", "Parameters",
                               "Returns", "MiningRun"):
                    assert needed in api, needed

        page.pipe.events = []
        page.send("Page.navigate", {"url": (SITE / "search.html").as_uri() + "?q=bootstrap"})
        page.wait_for("document.querySelectorAll('#search-results li').length > 0", timeout=30)
        hits = page.evaluate("Array.from(document.querySelectorAll('#search-results li a'))"
                             ".map(a => a.getAttribute('href'))")
        assert any("modelmine.base_models.bootstrap.html" in h for h in hits), hits[:10]
        assert _problems(page) == []


def test_the_link_check_finds_every_kind_of_broken_internal_link(tmp_path):
    """docs/_ext/site_checks.py, which fails the build on a broken link, on a made-up site
    whose broken links are known."""
    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    from site_checks import broken_links

    (tmp_path / "api").mkdir()
    (tmp_path / "_static").mkdir()
    (tmp_path / "_static" / "theme.css").write_text("")
    (tmp_path / "_static" / "macros.html").write_text('<a href="{{ pathto(x) }}">')
    (tmp_path / "api" / "run.html").write_text(
        '<h1 id="run">run</h1>\n<a href="../index.html#top">up</a>\n'
        '<a href="../index.html#gone">a heading that is not there</a>\n'
        '<img src="../_images/missing.png">\n<a href="#run">self</a>\n')
    (tmp_path / "index.html").write_text(
        '<div id="top"></div>\n<link href="_static/theme.css">\n'
        '<a href="api/run.html#run">run</a>\n<a href="api/">a folder, no index</a>\n'
        '<a href="https://example.org/x.html">external</a>\n<a href="api/walk.html">x</a>\n'
        '<a href="mailto:a@b.c">mail</a>\n<script src="searchindex.js"></script>\n')
    assert broken_links(tmp_path) == [
        "api/run.html:3: ../index.html#gone (no element with id 'gone')",
        "api/run.html:4: ../_images/missing.png (no such file in the site)",
        "index.html:4: api/ (no such file in the site)",
        "index.html:6: api/walk.html (no such file in the site)",
        "index.html:8: searchindex.js (no such file in the site)",
    ]
