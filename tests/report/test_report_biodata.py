"""The report for a biologist: sections and anchors, gene names, integer ranks, CSV
downloads, expression by class, the alternatives as a membership matrix, stability by
signature size, the evaluation command; GMT output; rendered in headless Chromium."""

from __future__ import annotations

import base64
import io
import os
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import modelmine as mm
from modelmine.exceptions import MissingExtraError
from modelmine.report import (
    signatures_gmt,
)

sys.path.insert(0, str(Path(__file__).parent))
from browser import find_chromium, inspect_page
from not_drawn import figures_not_drawn

ANCHORS = (
    "summary",
    "data",
    "signatures",
    "expression",
    "markers",
    "alternatives",
    "stability",
    "itemsets",
    "diagnostics",
)


@pytest.fixture(scope="module")
def run(leukemia_raw_run):
    return leukemia_raw_run


@pytest.fixture(scope="module")
def html(run, tmp_path_factory):
    """The run's report, its figures built and not drawn: the tests below read its
    sections, tables and downloads (the drawn page: the Chromium test)."""
    path = tmp_path_factory.mktemp("report") / "report.html"
    with figures_not_drawn():
        run.report(path)
    return path.read_text(encoding="utf-8")


def _csv_links(text: str) -> dict[str, pd.DataFrame]:
    links = re.findall(
        r'download="([^"]+)" href="data:text/csv;charset=utf-8;base64,'
        r'([^"]+)"',
        text,
    )
    return {name: pd.read_csv(io.BytesIO(base64.b64decode(data))) for name, data in links}


def test_sections_have_their_anchors_in_order(html):
    positions = [html.index(f'id="{a}"') for a in ANCHORS]
    assert positions == sorted(positions)
    for anchor in ANCHORS:
        assert f'href="#{anchor}"' in html


def test_signature_tables_show_genes_and_integer_ranks(run, html):
    sig = run.signatures["closedApr"]
    freq = run.base_models.subsets.mean(axis=0)
    for rank, (j, name) in enumerate(zip(sig.features, sig.names), start=1):
        assert re.search(
            rf'<td class="num">{rank}</td><td>{re.escape(name)}</td>'
            rf'<td class="num">{freq[j]:.2f}</td>',
            html,
        )
    assert not re.search(r'<td class="num">\d+\.000</td><td>', html)  # no "1.000" ranks
    assert "<th>index</th>" not in html


def test_every_table_downloads_as_csv(run, html):
    tables = _csv_links(html)
    sig = run.signatures["closedApr"]
    assert tables["closedApr.csv"]["gene"].tolist() == sig.names.tolist()
    np.testing.assert_allclose(
        tables["closedApr.csv"]["frequency"], run.base_models.subsets[:, sig.features].mean(axis=0)
    )
    alts = list(run.signatures["allMed"])
    member = tables["allMed-membership.csv"].set_index("gene")
    for i, alt in enumerate(alts, start=1):
        assert set(member.index[member[f"alt {i}"]]) == set(alt.names.tolist())
    assert len(tables["frequencies.csv"]) == run.base_models.n_features_in
    expression = tables["expression.csv"]
    assert expression["sample"].tolist() == [f"GSM{i}" for i in range(72)]
    for name in (
        "data.csv",
        "settings.csv",
        "diagnostics.csv",
        "stability-by-size.csv",
        "itemsets.csv",
        "allMed-alt1.csv",
    ):
        assert name in tables


def test_provenance_is_readable_tables_with_gene_names(run, html):
    prov = run.signatures["closedApr"].provenance
    names = run.base_models.feature_names
    first = prov["itemsets"][0]["items"]
    shown = ", ".join(str(names[j]) for j in first[:12])
    assert "How this signature was made" in html
    assert shown in html
    assert "Provenance: {" not in html and '"base_models":' not in html


def test_evaluation_command_is_named_when_no_evaluation(html):
    assert "Not run for this report" in html
    assert "mm.evaluate(X, y, selectors=[&#x27;anova&#x27;]" in html


def test_gmt_has_one_set_per_signature(run):
    text = signatures_gmt(run.signatures, description="leukemia\trun")
    lines = text.splitlines()
    assert len(lines) == 1 + len(run.signatures["allMed"])
    name, description, *genes = lines[0].split("\t")
    assert name == "closedApr" and "\t" not in description
    assert genes == run.signatures["closedApr"].names.tolist()


def test_a_missing_extra_is_named(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "anndata", None)  # import anndata now fails
    path = tmp_path / "x.h5ad"
    path.write_bytes(b"")
    with pytest.raises(MissingExtraError, match=r'pip install "modelmine\[anndata\]"'):
        mm.datasets.read_data(path, "obs:y")
    from modelmine.cli import main

    assert main(["run", str(path), "-t", "obs:y", "--out", str(tmp_path / "o")]) == 1
    assert "modelmine[anndata]" in capsys.readouterr().err


@pytest.mark.skipif(
    find_chromium() is None and not os.environ.get("MODELMINE_REQUIRE_BROWSER"),
    reason="Chromium is not installed (apt-get install chromium)",
)
@pytest.mark.slow
def test_biologist_report_renders_in_headless_chromium(run, tmp_path):
    evaluation = pd.DataFrame(
        {"operator": ["closedApr", "allMed"], "error": [0.05, 0.08], "stability": [0.7, 0.5]}
    )
    page = run.report(tmp_path / "report.html", evaluation=evaluation)
    html = page.read_text(encoding="utf-8")
    artifacts = Path(os.environ.get("MODELMINE_ARTIFACTS", tmp_path))
    artifacts.mkdir(parents=True, exist_ok=True)
    report = inspect_page(page, artifacts / "report-biologist.png", width=1400, height=3000)
    assert report.console_errors == [] and report.exceptions == []
    assert all(url.startswith(("file:", "data:")) for url in report.requests)
    # heat map, box plots, the markers' dot plot, membership, overlap, frequency, stability
    # by size, error vs stability, lattice, supports, stability of the base models, the
    # volcano of every tested gene; and the summary's thumbnails of the frequency plot, the
    # dot plot and the heat map
    assert len(report.images) == 15 == html.count("<img ")
    assert sum("volcano" in image["alt"].lower() for image in report.images) == 1
    assert html.count('class="thumb"') == 3
    # issue 52: the first screen's figures are readable at 1,400 pixels (drawn at their
    # own size, not shrunk to a third of the page) and each links to its full figure
    thumbs = re.findall(r'<a href="#([^"]+)"[^>]*><img class="thumb" src="[^"]+" '
                        r'alt="([^"]+)"></a>', html)
    assert len(thumbs) == 3
    for target, alt in thumbs:
        assert re.search(rf'<img src="[^"]+" alt="[^"]+" id="{target}">', html), target
        shown = next(i for i in report.images if i["alt"] == alt)
        assert shown["shownW"] >= 0.95 * shown["w"], shown
    # the summary is the first screen: before the data and every other section
    assert html.index('id="summary"') < html.index('id="data"')
    assert any(image["alt"] == "Dot plot of the marker genes by class"
               for image in report.images)
    for image in report.images:
        assert image["complete"] and image["w"] > 0 and image["h"] > 0, image
    for anchor in ANCHORS:
        assert f'id="{anchor}"' in html
