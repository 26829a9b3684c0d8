"""Docs that run: the Python blocks of README.md and docs/*.md are executed (issue 23).

Each page runs in a fresh namespace, in a temporary working directory, its ```python blocks
in order, so a renamed function or attribute breaks the build and not the reader. Every
block a page runs is on the page: the data and objects its examples share (``X``, ``y``,
``base``, ``run``, ...) are made in a visible block, and nothing silences the warnings a
reader would see (issue 52: no hidden set-up). A page states, in HTML comments readers of
the rendered page do not see, only how the test treats it:

- ``<!-- docs-test-page: slow -->``: the page takes more than a few seconds
  (``@pytest.mark.slow``; it still runs in CI).
- ``<!-- docs-test: skip REASON -->`` just before a block: the block is not run (it needs a
  cluster, a user's file, or hours), but it must still compile. A reason is required.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

_FENCE = re.compile(r"^```python\s*\n(.*?)^```\s*$", re.S | re.M)
_SKIP = re.compile(r"<!--\s*docs-test:\s*skip\s+(\S[^>]*?)\s*-->\s*$")
_HIDDEN = re.compile(r"<!--\s*docs-test-page:\s*prelude")
_SILENCED = re.compile(r"warnings\.(?:simplefilter|filterwarnings)\(\s*[\"']ignore")
_SLOW = re.compile(r"<!--\s*docs-test-page:\s*slow\s*-->")


def blocks(text: str) -> list[tuple[int, str, str | None]]:
    """``(line, code, skip reason or None)`` of each ```python block of a page."""
    out = []
    for match in _FENCE.finditer(text):
        before = text[: match.start()].rstrip("\n").splitlines()
        while before and not before[-1].strip():
            before.pop()
        skip = _SKIP.search(before[-1]) if before else None
        line = text.count("\n", 0, match.start()) + 1
        out.append((line, match.group(1), skip.group(1) if skip else None))
    return out


def _pages() -> list:
    params = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        if not blocks(text):
            continue
        marks = [pytest.mark.slow] if _SLOW.search(text) else []
        params.append(pytest.param(page, id=str(page.relative_to(ROOT)), marks=marks))
    return params


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_block_shows_its_setup_and_no_warning_is_silenced(page):
    """What a block needs is made in a visible block of its page, never in a hidden
    comment; no block turns the warnings a reader would see off."""
    text = page.read_text(encoding="utf-8")
    assert not _HIDDEN.search(text), f"{page.name}: a hidden set-up; show it in a block"
    silenced = [line for line, code, _ in blocks(text) if _SILENCED.search(code)]
    assert not silenced, f"{page.name}: the blocks at lines {silenced} silence warnings"


def test_the_block_reader_sees_skips_and_lines():
    text = ("intro\n\n```python\na = 1\n```\n\n<!-- docs-test: skip needs a cluster -->\n"
            "```python\nb = 2\n```\n")
    assert blocks(text) == [(3, "a = 1\n", None), (8, "b = 2\n", "needs a cluster")]


@pytest.mark.parametrize("page", _pages())
def test_the_python_blocks_of_the_page_run(page, tmp_path, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    text = page.read_text(encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    # A page may register operators or change module settings: give it its own registry
    # and put the evaluation defaults back afterwards.
    from modelmine import _registry as _registries
    from modelmine import evaluation
    from modelmine.operators import _registry

    page_registry = _registry.OperatorRegistry()
    monkeypatch.setattr(_registry, "_DEFAULT", page_registry)
    monkeypatch.setitem(_registries._DEFAULTS, "operator", page_registry)  # RunSpec's
    for name in ("PES_SELECTORS", "PES_THRESHOLDS", "SALMAN_AGGREGATIONS"):
        monkeypatch.setattr(evaluation, name, getattr(evaluation, name))
    namespace: dict = {"__name__": "__docs__"}
    ran = 0
    for line, code, skip in blocks(text):
        compiled = compile(code, f"{page.name}:{line}", "exec")
        if skip:
            continue
        try:
            exec(compiled, namespace)
        except Exception as exc:
            raise AssertionError(f"{page.relative_to(ROOT)}, the block at line {line} "
                                 f"failed: {type(exc).__name__}: {exc}") from exc
        ran += 1
    assert ran, f"{page.name}: every block is skipped; run one or drop the page's blocks"
