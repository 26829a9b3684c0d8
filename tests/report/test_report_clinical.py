"""The report's wording for clinical, regression and per-class runs (issue 39, item 9).

Oracles: the values put in (the quantile strata of y), the per-class panels the run holds,
and invariants of the page's order (the tables' number format, the dot plot's genes and
the order of cluster names: ``tests/kernels/test_report_helpers.py``). The pages' figures
are built, not drawn (``not_drawn``): their words are under test.
"""

from __future__ import annotations

import numpy as np

import modelmine as mm


def test_a_regression_report_names_quantile_strata_not_classes(tmp_path, not_drawn):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 30))
    y = 2 * X[:, 0] + rng.normal(size=60)
    run = mm.run(X, y, outcome="regression", selector="pearson", n_bootstraps=6,
                 n_features=5, operators=["mostFreq"], progress=False)
    html = run.report(tmp_path / "r.html").read_text()
    data = html[html.index('id="data"'):html.index('id="signatures"')]
    assert "quantile bins of y (Q1, Q2, Q3, Q4, Q5)" in data
    assert "<th>classes</th>" not in data


def test_a_per_class_run_shows_its_panels_first(tmp_path, not_drawn):
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


def test_a_slash_in_a_class_name_writes_to_h5ad_without_warnings(tmp_path):
    # issue 50: "CD4+/CD8+" drew anndata's warning that "/" will be refused in h5ad keys
    import warnings

    import pytest

    anndata = pytest.importorskip("anndata")
    from modelmine.report import annotate_anndata

    rng = np.random.default_rng(3)
    y = np.repeat(["CD4+/CD8+", "B cells", "NK"], 20)
    X = rng.normal(size=(60, 12))
    X[:20, :2] += 3
    run = mm.run(X, y, selector="anova", per_class=True, n_bootstraps=4, n_features=3,
                 operators=["mostFreq"], progress=False)
    data = mm.datasets.LoadedData(X=X, y=y, feature_names=run.base_models.feature_names,
                                  source="memory", target="cells", format="python")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        annotate_anndata(run, data).write_h5ad(tmp_path / "a.h5ad")
    back = anndata.read_h5ad(tmp_path / "a.h5ad")
    pairs = back.uns["modelmine"]["classes"]
    key = dict(zip(pairs["class"], pairs["in_columns"]))["CD4+/CD8+"]
    assert key == "CD4+\u2215CD8+"
    np.testing.assert_allclose(back.var[f"modelmine_frequency_{key}"],
                               run.class_frequencies["CD4+/CD8+"].to_numpy())
