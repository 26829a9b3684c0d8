"""One marker-table vocabulary and one table accessor, ``to_frame()`` (issue 38, item 5).

The marker tables of classes (``mm.diagnostics.marker_table``, ``run.markers()``), of
outcomes (``outcome_marker_table``) and of single-cell panels (``marker_panels``) share the
columns ``class`` / ``feature`` / ``frequency`` / ``auroc`` / ``p_value`` / ``q_value``;
scanpy's layout stays in ``adata.uns``, where scanpy reads it. The accessors of the previous
release (``to_df``, ``table``, ``to_series``, ``table2``, ``table4``) warn and give what they
gave; a ``markers.csv`` written by the previous release reads back.
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

import modelmine as mm
from modelmine.diagnostics import marker_table, selection_frequency, stability_path
from modelmine.evaluation import evaluate_thresholds
from modelmine.singlecell import marker_panels, tidy_marker_table

#: The columns ``modelmine markers`` wrote to markers.csv in the previous release (commit
#: cf80d14), as that release's code and docs/singlecell.md named them.
OLD_MARKERS_CSV = (
    "group,names,frequency,in_panel,logfoldchanges,auroc,scores,wilcoxon_z,pvals,pvals_adj,"
    "mean_rank\n"
    """0,g1,1.0,True,2.5,0.9,1.0,5.1,3.4e-07,1.1e-05,1.5
0,g7,0.25,False,0.1,0.55,0.25,0.8,0.42,0.61,9.0
""")


@pytest.fixture(scope="module")
def cells():
    anndata = pytest.importorskip("anndata")
    rng = np.random.default_rng(0)
    labels = np.repeat(["a", "b", "c"], 40)
    X = rng.poisson(1.0, size=(120, 30)).astype(np.float32)
    for k, cluster in enumerate("abc"):  # genes 3k, 3k+1 mark cluster k
        X[labels == cluster, 3 * k:3 * k + 2] += 6
    adata = anndata.AnnData(X=X)
    adata.var_names = [f"g{j}" for j in range(30)]
    adata.obs["cluster"] = pd.Categorical(labels)
    return adata


@pytest.fixture(scope="module")
def panels(cells):
    adata = cells.copy()
    result = marker_panels(adata, "cluster", selector="anova", n_bootstraps=6, n_features=2,
                           max_per_class=None, n_genes=10, random_state=0)
    return adata, result


def test_panels_classes_and_outcomes_share_one_vocabulary(panels, cells):
    _, result = panels
    table = result.to_frame()
    shared = {"class", "feature", "frequency", "auroc", "q_value"}
    assert shared <= set(table.columns)
    assert "scores" not in table.columns  # it was a copy of frequency
    assert not {"group", "names", "pvals", "pvals_adj", "logfoldchanges"} & set(table.columns)
    X = np.asarray(cells.X)
    classes = marker_table(X, cells.obs["cluster"].to_numpy(), features=[0, 1],
                           feature_names=list(cells.var_names), q_values=np.zeros(30),
                           frequency=np.ones(30), n_models=6)
    assert shared <= set(classes.columns)
    outcome = mm.diagnostics.outcome_marker_table(
        pd.DataFrame(X[:, :3], columns=["g0", "g1", "g2"]), X[:, 0] + 1.0, "regression",
        frequency=np.ones(3), q_values=np.zeros(3))
    assert {"feature", "frequency", "q_value", "p_value"} <= set(outcome.columns)
    assert list(result.to_frame("b")["class"].unique()) == ["b"]


def test_scanpy_reads_the_same_numbers_from_adata_uns(panels):
    sc = pytest.importorskip("scanpy")
    adata, result = panels
    df = sc.get.rank_genes_groups_df(adata, group=None, key="modelmine_markers")
    for cluster in ("a", "b", "c"):
        ours = result.to_frame(cluster).head(10)
        theirs = df[df["group"] == cluster]
        assert list(theirs["names"]) == list(ours["feature"])
        np.testing.assert_allclose(theirs["scores"], ours["frequency"], rtol=1e-6)
        np.testing.assert_allclose(theirs["pvals_adj"], ours["q_value"], rtol=1e-5)
        np.testing.assert_allclose(theirs["logfoldchanges"], ours["log2_fold_change"],
                                   rtol=1e-5)


def test_a_markers_csv_of_the_previous_release_reads_back(panels, tmp_path):
    _, result = panels
    path = tmp_path / "markers.csv"
    path.write_text(OLD_MARKERS_CSV)
    old = tidy_marker_table(path)
    assert list(old.columns) == list(result.table.columns)
    assert old["class"].tolist() == ["0", "0"] and old["feature"].tolist() == ["g1", "g7"]
    assert old["q_value"].tolist() == [1.1e-05, 0.61]
    new = tidy_marker_table(pd.read_csv(io.StringIO(result.table.to_csv(index=False))))
    assert list(new.columns) == list(result.table.columns)  # today's file: unchanged
    combos = tidy_marker_table(pd.DataFrame({"group": ["a"], "genes": ["g0 + g1"]}))
    assert list(combos.columns) == ["class", "features"]


def test_the_old_accessors_warn_and_give_what_they_gave(panels):
    _, result = panels
    with pytest.warns(FutureWarning, match=r"MarkerPanels\.to_df\(\) is deprecated"):
        old = result.to_df("a")
    pd.testing.assert_frame_equal(old, result.to_frame("a"))

    Z = np.array([[1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0]], dtype=bool)
    freq = selection_frequency(Z, feature_names=["w", "x", "y", "z"])
    with pytest.warns(FutureWarning, match=r"FrequencyResult\.to_series\(\)"):
        series = freq.to_series()
    # what to_series gave: frequencies, most frequent first, ties in feature order
    pd.testing.assert_series_equal(series, pd.Series([1.0, 2 / 3, 1 / 3, 0.0],
                                                     index=["w", "x", "y", "z"],
                                                     name="frequency"))
    assert freq.to_frame()["count"].tolist() == [3, 2, 1, 0]


def test_result_tables_are_to_frame_and_the_old_names_warn(colon_small):
    X, y = colon_small
    base = mm.bootstrap(X, y, selector="anova", n_bootstraps=4, n_features=5,
                        random_state=0)
    path = stability_path(base, n_features_grid=[2, 4])
    with pytest.warns(FutureWarning, match=r"StabilityPathResult\.table\(\)"):
        pd.testing.assert_frame_equal(path.table(), path.to_frame())
    thresholds = evaluate_thresholds(X, y, selectors=["anova"], thresholds=[0.5],
                                     n_folds=2, n_bootstraps=3, classifiers="svm",
                                     random_state=0)
    with pytest.warns(FutureWarning, match=r"ThresholdResult\.table is deprecated"):
        pd.testing.assert_frame_equal(thresholds.table, thresholds.to_frame())
    result = mm.evaluate(X, y, selectors=["anova"], operators=["mostFreq", "allMed"],
                         classifiers=["svm"], n_folds=3, n_bootstraps=4, n_features=5,
                         n_signatures=2, random_state=0, progress=False)
    with pytest.warns(FutureWarning, match=r"EvaluationResult\.table2\(\)"):
        pd.testing.assert_frame_equal(result.table2(), result.to_frame("table2"))
    with pytest.warns(FutureWarning, match=r"EvaluationResult\.table4\(\)"):
        pd.testing.assert_frame_equal(result.table4(), result.to_frame("table4"))
    pd.testing.assert_frame_equal(result.to_frame(), result.folds)
    null = mm.diagnostics.selection_null(X, y, "anova", n_permutations=20, n_bootstraps=4,
                                         n_features=5, random_state=0)
    with pytest.warns(FutureWarning, match=r"SelectionNullResult\.table\(\)"):
        pd.testing.assert_frame_equal(null.table(), null.to_frame())


@pytest.fixture(scope="module")
def colon_small():
    X, y = mm.datasets.load_colon()
    return np.asarray(X)[:, :40], np.asarray(y)
