"""The HTML report: self-contained, correct tables and plots, and it renders in Chromium."""

from __future__ import annotations

import base64
import itertools
import os
import re
import struct
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import modelmine as mm
from modelmine.operators import aggregate
from modelmine.report import (
    build_report,
    operator_result,
    plot_lattice_top,
    plot_signature_overlap,
    run_diagnostics,
    write_report,
)

sys.path.insert(0, str(Path(__file__).parent))
from browser import find_chromium, inspect_page
from not_drawn import downloads_not_drawn, figures_not_drawn

SEED = 5


@pytest.fixture(scope="module")
def run():
    X, y, names = mm.datasets.load_colon(return_names=True)
    base = mm.bootstrap(X, y, selector="anova", n_bootstraps=16, n_features=15,
                        feature_names=names, random_state=SEED)
    results = [operator_result("closedApr", aggregate(base, "closedApr", n_features=15)),
               operator_result("allMed", aggregate(base, "allMed", n_signatures=5,
                                                   random_state=SEED))]
    itemsets = mm.mine_itemsets(base, itemset_type="closed", min_support=0.3)
    return base, results, itemsets


@pytest.fixture(scope="module")
def html(run):
    """The page, its PNGs drawn (their sizes are checked); its SVG and PDF downloads, which
    no test here reads, built without drawing."""
    base, results, itemsets = run
    evaluation = pd.DataFrame({"operator": ["closedApr", "mostFreq", "nobagg"],
                               "error": [0.16, 0.18, 0.2], "stability": [0.6, 0.55, 0.3]})
    with downloads_not_drawn():
        return build_report(base, results, itemsets=itemsets, evaluation=evaluation,
                            settings={"k (alternatives)": 5},
                            data_description={"source": "embedded:colon"})


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_report_is_self_contained(run, html):
    lowered = html.lower()
    for forbidden in ("<script src", "<link", "@import", "http://", "https://", "<iframe",
                      "@font-face", "fetch(", "xmlhttprequest"):
        assert forbidden not in lowered
    # the only scripts are the lattice explorer's data and code, inline
    assert re.findall(r"<script[^>]*>", lowered) == ['<script type="application/json" '
                                                      'id="lattice-data">', "<script>"]
    assert lowered.count('id="lattice"') == 1
    with figures_not_drawn():  # its scripts are under test, not its pixels
        no_script = build_report(run[0], run[1], itemsets=run[2],
                                 lattice_explorer=False).lower()
    assert "<script" not in no_script and 'id="lattice"' not in no_script
    sources = re.findall(r'<img src="([^"]+)"', html)
    # membership, overlap, frequency, stability by size, trade-off, lattice, supports,
    # stability (no expression section without the run's expression values)
    assert len(sources) == 8
    for src in sources:
        assert src.startswith("data:image/png;base64,")
        width, height = _png_size(base64.b64decode(src.split(",", 1)[1]))
        assert width > 300 and height > 200


def test_report_tables_hold_the_signatures(run, html):
    base, results, _ = run
    freq = base.subsets.mean(axis=0)
    for res in results:
        for sig in res.signatures:
            for j, name in zip(sig.features, sig.names):
                # Each row: rank, name, index, [score], frequency of that feature.
                assert f"<td>{name}</td>" in html
                assert f"{freq[j]:.2f}" in html
    assert "Alternative 5" in html
    for word in ("anova", "16", "embedded:colon", mm.__version__, "seed"):
        assert word in html
    assert "How to read these numbers" in html


def test_diagnostics_against_brute_force(run):
    base, results, _ = run
    alts = results[1].result
    diag = run_diagnostics(base, {"allMed": alts}).set_index("measure")
    Z = base.subsets
    pairs = list(itertools.combinations(range(Z.shape[0]), 2))
    jac = np.mean([(Z[i] & Z[j]).sum() / (Z[i] | Z[j]).sum() for i, j in pairs])
    assert diag.loc["jaccard", "value"] == pytest.approx(jac)
    k = Z.sum(axis=1)[0]
    d = Z.shape[1]
    kun = np.mean([((Z[i] & Z[j]).sum() - k * k / d) / (k - k * k / d) for i, j in pairs])
    assert diag.loc["kuncheva", "value"] == pytest.approx(kun)
    sigs = [set(s.features) for s in alts]
    div = np.mean([len(a & b) / len(a | b) for a, b in itertools.combinations(sigs, 2)])
    assert diag.loc["diversity (jaccard)", "value"] == pytest.approx(div)
    assert diag.loc["nogueira", "ci_low"] < diag.loc["nogueira", "value"]


def test_overlap_heatmap_is_the_pairwise_jaccard(run):
    _, results, _ = run
    fig = plot_signature_overlap(results[1])
    shown = np.asarray(fig.axes[0].images[0].get_array())
    sigs = [set(s.features) for s in results[1].signatures]
    truth = np.array([[len(a & b) / len(a | b) for b in sigs] for a in sigs])
    np.testing.assert_allclose(shown, truth)
    assert fig.axes[0].get_title() and fig.axes[1].get_ylabel() == "Jaccard similarity"


def test_lattice_plot_draws_the_cover_relation(run):
    base, _, itemsets = run
    top = 10
    fig = plot_lattice_top(itemsets, base.feature_names, top=top)
    sets = [frozenset(s) for s in itemsets.itemsets]
    order = sorted((i for i in range(len(sets)) if sets[i]),
                   key=lambda i: (-itemsets.support[i], len(sets[i]), sorted(sets[i])))[:top]
    shown = [sets[i] for i in order]
    covers = sum(1 for a in shown for b in shown
                 if a < b and not any(a < c < b for c in shown))
    assert len(fig.axes[0].lines) == covers
    labels = [t.get_text() for t in fig.axes[0].texts if "support" in t.get_text()]
    assert len(labels) == len(shown)
    best = base.feature_names[sorted(shown[0])[0]]
    assert any(label.startswith(str(best)) for label in labels)


def test_write_report_is_atomic_and_readable(run, tmp_path, not_drawn):
    base, results, itemsets = run
    path = write_report(tmp_path / "r.html", base, results, itemsets=itemsets)
    assert path.read_text(encoding="utf-8").rstrip().endswith("</html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html"]


def test_report_without_itemsets_or_operators(run, not_drawn):
    base, _, _ = run
    text = build_report(base, ())
    assert "No operator was run" in text and "were not mined" in text


@pytest.mark.skipif(find_chromium() is None and not os.environ.get("MODELMINE_REQUIRE_BROWSER"),
                    reason="Chromium is not installed (apt-get install chromium)")
@pytest.mark.slow
def test_report_renders_in_headless_chromium(run, tmp_path):
    base, results, itemsets = run
    page = write_report(tmp_path / "report.html", base, results, itemsets=itemsets)
    artifacts = Path(os.environ.get("MODELMINE_ARTIFACTS", tmp_path))
    artifacts.mkdir(parents=True, exist_ok=True)
    shot = artifacts / "report-screenshot.png"
    report = inspect_page(page, shot, width=1280, height=2400)
    assert report.console_errors == []
    assert report.exceptions == []
    assert report.title == "modelmine report"
    # No network: only the file itself and its embedded data: images are requested.
    assert all(url.startswith(("file:", "data:")) for url in report.requests)
    # no evaluation, no expression values: the frequency plot is the one thumbnail of the
    # summary (the dot plot and the heat map need the expression values)
    assert len(report.images) == 8
    for image in report.images:
        assert image["complete"] and image["w"] > 0 and image["h"] > 0, image
        assert image["shownW"] > 0 and image["shownH"] > 0
    width, height = _png_size(shot.read_bytes())
    assert (width, height) == (1280, 2400)


def test_report_says_whether_itemsets_beat_chance(run, html):
    # the section is the diagnostic's own table (same seed and randomisations), and its
    # sentence follows the q-values (the sentence on planted and independent co-selection:
    # tests/kernels/test_report_helpers.py)
    from modelmine.diagnostics import itemset_significance

    base, _, _ = run
    assert 'id="cooccurrence"' in html and "itemset_significance.csv" in html
    # issue 39: the default family (chosen on one half, tested on the other), named
    text = html.replace("&lt;", "<").replace("&#x27;", "'")
    n_randomizations = int(re.search(r"its support in (\d+) randomised", text).group(1))
    table = itemset_significance(base, n_randomizations=n_randomizations, random_state=0)
    assert table.attrs["family"] == "split"
    fdr = float(re.search(r"more often than chance at q <= ([\d.]+)", text).group(1))
    n_sig = int((table["q_value"] <= fdr).sum())
    assert (f"{n_sig:,} of the {len(table):,} itemsets" if n_sig
            else f"None of the {len(table):,} itemsets") in text
    assert "chosen on a random half of the base models" in text
