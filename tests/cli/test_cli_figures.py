"""--figures DIR and the report's figure downloads (issue 26, item 3): every figure of the
report as SVG, PDF and a 300-dpi PNG, checked as files (an SVG parses as XML, a PDF starts
with its header, the PNG's pixels are 300/110 of the page's), and --figures refused where it
would mix with other files. What is read is drawn: the page of the run's --figures step (its
PNGs) and the files it writes. The run's own page before that step (which replaces it), the
page's SVG and PDF downloads (counted) and `modelmine report --figures` (the same writer,
checked for the files it names) build their figures without drawing them."""

from __future__ import annotations

import base64
import re
import struct
import xml.etree.ElementTree as ET

import pytest
from figures_built import write_nothing as _write_nothing
from matplotlib.figure import Figure

from modelmine.cli import main


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


@pytest.fixture
def drawn_where_read(monkeypatch):
    """Drawn: what the test reads, the page of the run's --figures step (its PNGs) and the
    files --figures writes. Built, not drawn (``Figure.savefig`` writes an empty file): the
    run's own page before that step (which replaces it before any check reads it) and the
    page's SVG and PDF downloads (counted, not read; the same figures are drawn as SVG and
    PDF into the --figures files, which are parsed)."""
    from modelmine.report import _html

    real_render, real_savefig = _html.render, Figure.savefig

    def render(page, figures_dir=None):
        if figures_dir is not None:
            return real_render(page, figures_dir)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(Figure, "savefig", _write_nothing)
            return real_render(page, figures_dir)

    def savefig(self, fname, *args, **kwargs):
        if hasattr(fname, "write") and kwargs.get("format") in ("svg", "pdf"):
            return _write_nothing(self, fname)  # a download of the page
        return real_savefig(self, fname, *args, **kwargs)

    monkeypatch.setattr(_html, "render", render)
    monkeypatch.setattr(Figure, "savefig", savefig)


def test_figures_for_a_paper(tmp_path, capsys, drawn_where_read):
    figures, out = tmp_path / "figs", tmp_path / "run"
    assert main(["run", "embedded:colon", "-s", "anova", "-b", "6", "-m", "5", "-o",
                 "mostFreq", "--figures", str(figures), "-q", "--out", str(out)]) == 0
    capsys.readouterr()
    html = (out / "report.html").read_text()
    alts = re.findall(r'<img src="data:image/png;base64,([^"]+)" alt="([^"]+)"[^>]*>', html)
    figures_in_page = {alt: data for data, alt in alts}
    names = sorted(p.stem for p in figures.glob("*.png"))
    assert len(names) == len(set(names)) >= 8
    for stem in names:
        ET.parse(figures / f"{stem}.svg")  # well-formed SVG
        assert (figures / f"{stem}.pdf").read_bytes()[:5] == b"%PDF-"
    # the page's PNG of the frequency plot (110 dpi) and the file's (300 dpi)
    stem = "Per-feature_selection_frequency_across_the_base_models"
    page = _png_size(base64.b64decode(
        figures_in_page["Per-feature selection frequency across the base models"]))
    paper = _png_size((figures / f"{stem}.png").read_bytes())
    assert abs(paper[0] / page[0] - 300 / 110) < 0.05
    # every figure of the page offers its SVG and PDF as downloads
    assert html.count('download="') >= 2 * len(figures_in_page)
    assert html.count("data:image/svg+xml;base64,") >= len(figures_in_page) - 3  # thumbs
    # `modelmine report --figures` writes them too (the same writer as the run's step, whose
    # drawn files are checked above: here its figures are built, not drawn, and the files
    # it names are checked); a non-empty DIR needs --force
    assert main(["report", str(out), "--figures", str(figures), "-q"]) == 2
    assert "--figures" in capsys.readouterr().err
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Figure, "savefig", _write_nothing)
        assert main(["report", str(out), "--figures", str(figures), "--force", "-q"]) == 0
    assert sorted(p.stem for p in figures.glob("*.png")) == names
    assert sorted(p.name for p in figures.iterdir()) == sorted(
        f"{stem}.{form}" for stem in names for form in ("png", "svg", "pdf"))
    (figures / "notes.txt").write_text("mine")
    assert main(["report", str(out), "--figures", str(figures), "--force", "-q"]) == 2
    assert "not figures" in capsys.readouterr().err
    assert (figures / "notes.txt").read_text() == "mine"  # nothing of the user's is lost
