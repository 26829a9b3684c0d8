"""Every HTML page modelmine writes has one shell (issue 38 item 5): the run report, the
lattice explorer and the single-cell marker report differ only in their body and style.
The pages' figures are built, not drawn: their HTML is under test."""

from __future__ import annotations

import re

import pytest
import scipy.sparse as sp

import modelmine as mm

#: What ``modelmine._page.html_page`` puts around a page's style and body.
_SHELL = re.compile(
    r'\A<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
    r'<meta name="viewport" content="width=device-width, initial-scale=1">'
    r"<title>(?P<title>[^<]*)</title><style>[^<]*</style></head>"
    r"<body>.*</body></html>\n\Z", re.S)


def test_the_run_report_and_the_lattice_explorer_share_the_shell(tmp_path, not_drawn):
    X, y = mm.datasets.load_colon()
    run = mm.run(X[:, :60], y, selector="anova", n_bootstraps=6, n_features=5,
                 n_signatures=2, random_state=0)
    report = run.report(tmp_path / "r.html").read_text(encoding="utf-8")
    lattice = mm.ItemsetLattice(mm.mine_itemsets(run.base_models, "closed",
                                                 min_support=0.3))
    page = lattice.to_html_text(title="a <lattice> & co")
    assert _SHELL.match(report)
    match = _SHELL.match(page)
    assert match and match["title"] == "a &lt;lattice&gt; &amp; co"


def test_the_marker_report_shares_the_shell(tmp_path, not_drawn):
    sc = pytest.importorskip("scanpy")
    adata = sc.datasets.pbmc68k_reduced().raw.to_adata()
    adata.X = sp.csr_matrix(adata.X)
    keep = adata.obs["louvain"].isin(["0", "1", "2"]).to_numpy()
    adata = adata[keep].copy()
    result = mm.singlecell.marker_panels(adata, "louvain", selector="anova",
                                         n_bootstraps=3, n_features=3,
                                         max_per_class=40, n_genes=10)
    page = result.write_report(tmp_path / "m.html", adata).read_text(encoding="utf-8")
    assert _SHELL.match(page)
    assert "<main>" in page and "</main></body>" in page
