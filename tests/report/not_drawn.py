"""Figures built, not drawn, inside the report's own tests (which draw by default: see
``RENDERED`` in tests/conftest.py).

A test of the report's words, order or HTML shell reads the page's text, never its pixels:
every plotting function still runs on the test's data, only ``Figure.savefig`` writes
nothing (an empty image), as everywhere outside the rendered modules. Drawing is most of a
report's time (a drawn report of a small run: 10 to 20 CPU-s; built, not drawn: 3 to 5).
``figures_not_drawn()`` is for a module's fixture, the ``not_drawn`` fixture of this
folder's conftest.py for one test.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest
from figures_built import write_nothing as _write_nothing


@contextlib.contextmanager
def figures_not_drawn() -> Iterator[None]:
    """Within the block, figures are built and not drawn (for a module-scoped fixture)."""
    from matplotlib.figure import Figure

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Figure, "savefig", _write_nothing)
        yield



@contextlib.contextmanager
def downloads_not_drawn() -> Iterator[None]:
    """Within the block, a page's PNGs are drawn and its SVG and PDF downloads (a savefig
    into a buffer as SVG or PDF) are built, not drawn: for a test that reads the page's
    images and only counts its downloads."""
    from matplotlib.figure import Figure

    real = Figure.savefig

    def savefig(self, fname, *args, **kwargs):
        if hasattr(fname, "write") and kwargs.get("format") in ("svg", "pdf"):
            return _write_nothing(self, fname)
        return real(self, fname, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Figure, "savefig", savefig)
        yield
