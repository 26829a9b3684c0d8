"""The one HTML page shell of modelmine's self-contained pages (issue 38): the run report
(``report/_html.py``), the single-cell marker report (``report/_singlecell.py``) and the
lattice explorer (``patterns/_explorer.py``) each fill its body and its style."""

from __future__ import annotations

import html

__all__ = ["html_page"]


def html_page(title: str, body: str, style: str) -> str:
    """A whole offline HTML5 document: UTF-8, a viewport for small screens, ``title``
    (escaped), ``style`` (a CSS sheet, inlined) and ``body`` (HTML, as given)."""
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{html.escape(str(title), quote=True)}</title><style>{style}</style></head>"
            f"<body>{body}</body></html>\n")
