"""The internal link check of the written site, offline (issue 52, item 1).

Sphinx's ``linkcheck`` builder fetches every external link, which needs the internet. What
can break inside the site is checked here instead, after the HTML is written: every
relative ``href`` and ``src`` of every page must name a file of the site, and its
``#fragment`` an ``id`` of that page. (The build checks the references first: MyST's links
to headings and pages, Sphinx's roles, nitpicky; this catches what a template, a raw HTML
block or a theme writes.) Each broken link is a warning, so ``-W`` fails the build.
"""

from __future__ import annotations

import html
import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

#: Links the site does not own: other schemes, and the theme's own templates for pages that
#: Sphinx writes only with some settings.
EXTERNAL = ("http:", "https:", "mailto:", "data:", "javascript:", "ftp:", "tel:")


_ID = re.compile(r'\s(?:id|name)="([^"]*)"')
_LINK = re.compile(r'<(?:a|link|area)\b[^>]*?\shref="([^"]*)"'
                   r'|<(?:img|script|iframe)\b[^>]*?\ssrc="([^"]*)"')


class _Page:
    """The ids of a page and its links, each with its offset (a regular expression over the
    HTML Sphinx writes: fast enough to check every page of every build)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.ids = {html.unescape(m) for m in _ID.findall(text)}
        self.links = [(html.unescape(m.group(1) or m.group(2)), m.start())
                      for m in _LINK.finditer(text)]

    def line(self, offset: int) -> int:
        return self.text.count("\n", 0, offset) + 1


def _read(path: str, cache: dict[str, _Page]) -> _Page:
    if path not in cache:
        with open(path, encoding="utf-8", errors="replace") as handle:
            cache[path] = _Page(handle.read())
    return cache[path]


def broken_links(outdir: Path) -> list[str]:
    """``page:line: link (why)`` of every relative link of the site that leads nowhere."""
    cache: dict[str, _Page] = {}
    exists: dict[str, bool] = {}
    out = []
    root = str(outdir)
    for page_path in sorted(outdir.rglob("*.html")):
        rel = page_path.relative_to(outdir)
        if rel.parts[0] in ("_static", "_sources", "_images"):
            continue  # the theme's template fragments and copied files, not pages
        name = str(page_path)
        folder = os.path.dirname(name)
        page = _read(name, cache)
        for link, offset in page.links:
            if link.startswith(EXTERNAL) or link.startswith("//"):
                continue
            parts = urlsplit(link)
            if parts.scheme:
                continue
            path = unquote(parts.path)
            target = os.path.normpath(os.path.join(folder, path)) if path else name
            if path.endswith("/") or (path and os.path.isdir(target)):
                target = os.path.join(target, "index.html")
            if target not in exists:
                exists[target] = os.path.isfile(target) and target.startswith(root)
            if not exists[target]:
                out.append(f"{rel}:{page.line(offset)}: {link} (no such file in the site)")
                continue
            fragment = unquote(parts.fragment)
            if fragment and target.endswith(".html") and fragment not in _read(target,
                                                                                cache).ids:
                out.append(f"{rel}:{page.line(offset)}: {link} (no element with id "
                           f"{fragment!r})")
    return out


def check(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    bad = broken_links(Path(app.outdir))
    for line in bad:
        logger.warning("broken internal link: %s", line, type="modelmine", subtype="link")
    logger.info("internal links checked: %d broken", len(bad))


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("build-finished", check, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
