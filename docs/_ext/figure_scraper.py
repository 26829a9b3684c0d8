"""The gallery's scraper for the figures modelmine's plotting functions return.

modelmine's plots (``mm.report.plot_*``) build a :class:`matplotlib.figure.Figure` without
pyplot, as a library should (no global state, no backend to choose), so sphinx-gallery's
matplotlib scraper, which reads pyplot's figures, does not see them. This scraper shows
every such figure that a block of an example bound to a name (``fig =
mm.report.plot_volcano(...)``) and that no earlier block of the example showed. Figures
made with pyplot are left to the matplotlib scraper (``image_scrapers`` in docs/conf.py
lists both).
"""

from __future__ import annotations

from typing import Any

#: Figures already shown, per example (kept alive, so that an id is never reused).
_SHOWN: dict[str, list[Any]] = {}


def _title(fig: Any) -> str:
    suptitle = fig._suptitle.get_text() if getattr(fig, "_suptitle", None) else ""
    titles = [ax.get_title() for ax in fig.axes if ax.get_title()]
    return suptitle or ", ".join(titles)


def scrape(block: Any, block_vars: dict[str, Any], gallery_conf: dict[str, Any],
           **kwargs: Any) -> str:
    """sphinx-gallery's scraper interface: save the new figures, return their reST."""
    from matplotlib.figure import Figure
    from sphinx_gallery.scrapers import figure_rst

    shown = _SHOWN.setdefault(str(block_vars.get("src_file")), [])
    new = [value for value in block_vars["example_globals"].values()
           if isinstance(value, Figure) and value.canvas.manager is None
           and not any(value is old for old in shown)]
    rsts = []
    for fig, path in zip(new, block_vars["image_path_iterator"]):
        fig.savefig(path, dpi=110, bbox_inches="tight")
        shown.append(fig)
        rsts.append(figure_rst([path], gallery_conf["src_dir"], _title(fig)))
    return "".join(rsts)
