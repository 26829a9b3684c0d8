"""The one ``Figure.savefig`` stand-in of the tests that build figures without drawing them
(tests/conftest.py's rule; used by its fixtures, tests/report/not_drawn.py and the
reliability helpers)."""

from __future__ import annotations


def write_nothing(self, fname, *args, **kwargs):
    """``Figure.savefig`` that writes an empty file: the figure is built, not drawn."""
    if hasattr(fname, "write"):
        try:
            fname.write(b"")
        except TypeError:  # a text buffer (SVG)
            fname.write("")
    else:
        with open(fname, "wb"):
            pass
