"""The report's wording for clinical, regression and per-class runs (issue 39, item 9).

Oracles: the values put in (p-values far below 0.001, the quantile strata of y), the
per-class panels the run holds, and invariants of the page's order.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

import modelmine as mm
from modelmine.report._html import PANEL_GENES_SHOWN, _table, _top_panel_genes, p_text


def test_small_p_values_do_not_print_as_zero():
    frame = pd.DataFrame({"feature": ["a", "b", "c"], "p_value": [1e-12, 0.0423, np.nan],
                          "q_value": [0.0004, 0.5, 1.0], "effect_size": [1e-12, 0.5, 2.0]})
    html = _table(frame)
    assert html.count("&lt; 0.001") == 2  # the p- and q-value, not the effect size
    assert html.count(">0.000<") == 1  # the effect size of 1e-12 keeps its decimals
    assert "0.042" in html
    assert p_text(0.001) == "0.001" and p_text(0.00099) == "< 0.001" and p_text(None) == ""


def test_a_regression_report_names_quantile_strata_not_classes(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 30))
    y = 2 * X[:, 0] + rng.normal(size=60)
    run = mm.run(X, y, outcome="regression", selector="pearson", n_bootstraps=6,
                 n_features=5, operators=["mostFreq"], progress=False)
    html = run.report(tmp_path / "r.html").read_text()
    data = html[html.index('id="data"'):html.index('id="signatures"')]
    assert "quantile bins of y (Q1, Q2, Q3, Q4, Q5)" in data
    assert "<th>classes</th>" not in data


def test_a_per_class_run_shows_its_panels_first(tmp_path):
    rng = np.random.default_rng(1)
    n, p, K = 80, 40, 4
    y = np.repeat(np.arange(K), n // K)
    X = rng.normal(size=(n, p))
    for k in range(K):
        X[y == k, 3 * k:3 * k + 3] += 2.5
    run = mm.run(X, np.array([f"c{k}" for k in y]), selector="anova", per_class=True,
                 n_bootstraps=6, n_features=6, operators=["mostFreq"], progress=False)
    html = run.report(tmp_path / "r.html").read_text()
    summary = html[html.index('id="summary"'):html.index('id="data"')]
    assert "The per-class panels: mostFreq" in summary
    assert summary.index("The per-class panels") < summary.index("The pooled panel")
    for k in range(K):  # each class's own genes lead its row
        assert f"<td>c{k}</td>" in summary


def test_the_dot_plot_keeps_the_top_genes_of_each_class():
    rows = []
    for k in range(18):
        for g in range(10):
            rows.append({"class": f"c{k}", "feature": f"g{k}_{g}",
                         "frequency": 1.0 - g / 10})
    kept = _top_panel_genes(pd.DataFrame(rows))
    assert len(kept) == 18 * PANEL_GENES_SHOWN
    assert {f"g{k}_{g}" for k in range(18) for g in range(PANEL_GENES_SHOWN)} == kept


def test_annotated_anndata_carries_the_per_class_panels():
    import pytest

    pytest.importorskip("anndata")
    from modelmine.report import annotate_anndata

    rng = np.random.default_rng(2)
    y = np.repeat(["a", "b", "c"], 20)
    X = rng.normal(size=(60, 25))
    for k in range(3):
        X[y == "abc"[k], 2 * k:2 * k + 2] += 3
    run = mm.run(X, y, selector="anova", per_class=True, n_bootstraps=6, n_features=4,
                 operators=["mostFreq"], progress=False)
    data = mm.datasets.LoadedData(X=X, y=y, feature_names=run.base_models.feature_names,
                                  source="memory", target="class", format="python")
    var = annotate_anndata(run, data).var
    for cls in "abc":
        panel = run.class_signatures[cls]["mostFreq"]
        assert var.index[var[f"modelmine_{cls}_mostFreq"]].tolist() == sorted(
            [str(g) for g in panel.names], key=list(var.index).index)
        np.testing.assert_allclose(var[f"modelmine_frequency_{cls}"],
                                   run.class_frequencies[cls].to_numpy())


def test_clusters_sort_as_numbers():
    from modelmine.report._plots import natural_key

    labels = ["10", "2", "0", "1", "B cells", "T cells 2", "T cells 10"]
    assert sorted(labels, key=natural_key) == ["0", "1", "2", "10", "B cells", "T cells 2",
                                               "T cells 10"]
