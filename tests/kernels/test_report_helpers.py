"""The report's building blocks on their own (issue 38 item 6): its tables' number format
(p-values far below 0.001), the genes its dot plot keeps, the order of cluster names, the
sentence on co-selection (against planted and independent co-selection), the explorer's
cut above its cap (against a count of the closed itemsets), stability by
signature size (Nogueira et al. 2018 by hand), the membership plot (the signatures' genes)
and the expression heat map (z-scores of log2 by hand). The pages themselves are tested
with public names in ``tests/report/``.
"""

from __future__ import annotations

import io
import itertools
import json
import re
import warnings

import numpy as np
import pandas as pd
import pytest

import modelmine as mm
from modelmine.diagnostics import itemset_significance
from modelmine.patterns import mine_itemsets
from modelmine.report import (
    build_report,
    operator_result,
    plot_lattice_top,
    plot_selection_frequency,
)
from modelmine.report._expression import PANEL_GENES_SHOWN, top_panel_genes
from modelmine.report._format import p_text
from modelmine.report._format import table as html_table
from modelmine.report._itemset_sections import cooccurrence_verdict
from modelmine.report._plots import (
    expression_scale,
    natural_key,
    plot_expression_by_class,
    plot_expression_heatmap,
    plot_marker_dots,
    plot_membership,
    stability_by_size,
)


def page_data(text: str) -> dict:
    """The lattice explorer's data in a page (as ``tests/patterns/test_lattice_html.py``)."""
    block = re.search(
        r'<script type="application/json" id="lattice-data">(.*?)</script>', text, re.S
    )
    assert block is not None
    return json.loads(block.group(1))


@pytest.fixture(scope="module")
def run(leukemia_raw_run):
    return leukemia_raw_run


def test_the_cooccurrence_verdict_follows_planted_and_independent_co_selection():
    rng = np.random.default_rng(2)
    planted = np.zeros((120, 40), dtype=bool)
    for i in range(120):
        rest = rng.choice(np.arange(3, 40), size=5, replace=False)
        planted[i, rest] = True
        if rng.random() < 0.5:
            planted[i, [0, 1, 2]] = True
        else:
            planted[i, rng.choice(np.arange(3, 40), size=3, replace=False)] = True
    groups = itemset_significance(planted, [(0, 1), (0, 2), (1, 2), (0, 1, 2)],
                                  n_randomizations=200, random_state=0)
    assert "exceeds" in cooccurrence_verdict(groups)
    independent = np.zeros((120, 40), dtype=bool)
    for i in range(120):
        independent[i, rng.choice(40, size=8, replace=False)] = True
    top = sorted(np.argsort(-independent.sum(0), kind="stable")[:6].tolist())
    nulls = itemset_significance(independent, list(itertools.combinations(top, 2)),
                                 n_randomizations=200, random_state=0)
    assert (nulls["q_value"] > 0.05).all()
    assert cooccurrence_verdict(nulls).startswith("None of the")


def test_small_p_values_do_not_print_as_zero():
    frame = pd.DataFrame({"feature": ["a", "b", "c"], "p_value": [1e-12, 0.0423, np.nan],
                          "q_value": [0.0004, 0.5, 1.0], "effect_size": [1e-12, 0.5, 2.0]})
    html = html_table(frame)
    assert html.count("&lt; 0.001") == 2  # the p- and q-value, not the effect size
    assert html.count(">0.000<") == 1  # the effect size of 1e-12 keeps its decimals
    assert "0.042" in html
    assert p_text(0.001) == "0.001" and p_text(0.00099) == "< 0.001" and p_text(None) == ""


def test_the_dot_plot_keeps_the_top_genes_of_each_class():
    rows = []
    for k in range(18):
        for g in range(10):
            rows.append({"class": f"c{k}", "feature": f"g{k}_{g}",
                         "frequency": 1.0 - g / 10})
    kept = top_panel_genes(pd.DataFrame(rows))
    assert len(kept) == 18 * PANEL_GENES_SHOWN
    assert {f"g{k}_{g}" for k in range(18) for g in range(PANEL_GENES_SHOWN)} == kept


def test_clusters_sort_as_numbers():
    labels = ["10", "2", "0", "1", "B cells", "T cells 2", "T cells 10"]
    assert sorted(labels, key=natural_key) == ["0", "1", "2", "10", "B cells", "T cells 2",
                                               "T cells 10"]


def test_stability_by_size_is_nogueira_of_the_cut_rankings(run):
    base = run.base_models
    table = stability_by_size(base, sizes=[1, 5, 12, 50])
    for s, value in zip(table["size"], table["stability"]):
        Z = (base.ranks <= s).astype(float)  # Nogueira et al. (2018), eq. (4), by hand
        _M, d = Z.shape
        var = Z.var(axis=0, ddof=1).mean()
        kbar = Z.sum(axis=1).mean()
        assert value == pytest.approx(1 - var / (kbar / d * (1 - kbar / d)))
    assert (table["ci_low"] <= table["stability"]).all()


def test_membership_plot_marks_each_gene_of_each_alternative(run):
    result = operator_result("allMed", run.signatures["allMed"])
    freq = run.base_models.subsets.mean(axis=0)
    fig = plot_membership(result, freq, run.base_models.feature_names)
    ax = fig.axes[0]
    rows = [t.get_text() for t in ax.get_yticklabels()]
    points = ax.collections[0].get_offsets()
    marked = {(rows[round(y)], round(x)) for x, y in points}
    truth = {(str(name), i) for i, sig in enumerate(result.signatures) for name in sig.names}
    assert marked == truth


def test_heatmap_groups_samples_by_class_and_shows_z_scores_of_log2(run):
    expr = run.expression
    genes = list(expr.columns[1:6])
    fig = plot_expression_heatmap(expr, genes)
    bar = np.asarray(fig.axes[0].images[0].get_array()).ravel()
    assert np.all(np.diff(bar) >= 0)  # classes in blocks
    assert (
        np.bincount(bar.astype(int)).tolist()
        == expr["class"].value_counts(sort=False).sort_index().tolist()
    )
    z, what = expression_scale(expr[genes].to_numpy())
    assert what == "z-score of log2(x + 1)"
    logged = np.log2(expr[genes].to_numpy() + 1)
    np.testing.assert_allclose(z, (logged - logged.mean(0)) / logged.std(0))
    shown = np.asarray(fig.axes[1].images[0].get_array())
    np.testing.assert_allclose(np.sort(shown.ravel()), np.sort(np.clip(z, -3, 3).ravel()))


def test_report_explorer_keeps_the_top_itemsets_above_its_cap(monkeypatch):
    # the cap, LATTICE_REPORT_MAX_ITEMSETS (10,000), shrunk to 50 for small data
    import modelmine.report._itemset_sections as report_itemsets

    rng = np.random.default_rng(1)
    X, y = rng.normal(size=(40, 14)), np.repeat([0, 1], 20)
    base = mm.bootstrap(X, y, selector="anova", n_bootstraps=30, n_features=7, random_state=1)
    closed = mine_itemsets(base, itemset_type="closed", min_support=0.1)
    assert len(closed) > 50
    monkeypatch.setattr(report_itemsets, "LATTICE_REPORT_MAX_ITEMSETS", 50)
    text = build_report(base, (), itemsets=closed)
    data = page_data(text)
    cut = data["kept_min_count"]
    # exactly the closed itemsets of count >= cut, the lowest cut keeping at most 50
    assert data["n_kept"] == int((closed.counts >= cut).sum()) <= 50
    assert int((closed.counts >= cut - 1).sum()) > 50
    assert f"It holds the {data['n_kept']:,} closed itemsets of support" in text


@pytest.mark.rendered
def test_names_with_control_characters_draw_without_warnings():
    # issue 50: a tab in a gene or class name drew "Glyph 9 missing from font" warnings
    rng = np.random.default_rng(9)
    names = [f"g\t{j}" for j in range(12)]
    y = np.repeat(["a\tb", "CD4+/CD8+"], 15)
    X = rng.normal(size=(30, 12))
    X[:15, :3] += 2
    base = mm.bootstrap(X, y, selector="anova", n_bootstraps=6, n_features=4,
                        feature_names=names)
    expression = pd.DataFrame(X, columns=names)
    expression.insert(0, "class", y)
    effect = pd.DataFrame(rng.normal(size=(4, 2)), index=names[:4], columns=["a\tb", "c"])
    figures = [plot_selection_frequency(base, highlight=[0, 1]),
               plot_lattice_top(mm.mine_itemsets(base, itemset_type="closed",
                                                 min_support=0.3), names),
               plot_expression_heatmap(expression, names[:5]),
               plot_expression_by_class(expression, names[:2]),
               plot_marker_dots(effect, effect.abs() / 3, size_label="s", effect_label="e")]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for fig in figures:
            fig.savefig(io.BytesIO(), format="png")
    drawn = [t.get_text() for fig in figures for ax in fig.axes
             for t in ax.get_xticklabels() + ax.get_yticklabels()]
    assert "g 0" in drawn and not any(re.search(r"[\x00-\x09\x0b-\x1f]", t) for t in drawn)


def test_the_cooccurrence_verdict_never_says_nan():
    # issue 52: "median lift nan" at small b (itemsets absent from the half they are tested
    # on: support and expected support 0)
    table = pd.DataFrame({"itemset": [("a", "b"), ("c", "d"), ("a", "c")],
                          "lift": [np.nan, 1.5, 0.5], "q_value": [1.0, 0.2, 0.9]})
    said = cooccurrence_verdict(table)
    assert "nan" not in said.lower()
    assert f"median lift {np.nanmedian(table['lift']):.2f} over the 2 whose items" in said
    none = cooccurrence_verdict(table.assign(lift=np.nan))
    assert "nan" not in none.lower() and "no lift" in none
    assert f"median lift {np.median([1.5, 0.5]):.2f})" in cooccurrence_verdict(
        table.iloc[1:])
