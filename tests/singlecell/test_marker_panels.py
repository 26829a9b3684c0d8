"""mm.singlecell.marker_panels (issue 29): scanpy's bundled pbmc68k_reduced end to end,
its markers against scanpy's own, the Wilcoxon statistics against scanpy and scipy, the
per-cluster cap of the resamples, and the refusals."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

import modelmine as mm
from modelmine.singlecell import marker_panels, wilcoxon_by_group

sc = pytest.importorskip("scanpy")


@pytest.fixture(scope="module")
def pbmc():
    """scanpy's 700 PBMCs, log-normalised (its .raw), clusters in obs['louvain']."""
    adata = sc.datasets.pbmc68k_reduced().raw.to_adata()
    adata.X = sp.csr_matrix(adata.X)
    return adata


def test_wilcoxon_equals_scanpy_and_scipy(pbmc):
    from scipy.stats import mannwhitneyu, norm

    ref = pbmc.copy()
    sc.tl.rank_genes_groups(ref, "louvain", method="wilcoxon", tie_correct=True,
                            n_genes=ref.n_vars, use_raw=False)
    groups = list(ref.obs["louvain"].cat.categories)
    codes = ref.obs["louvain"].cat.codes.to_numpy()
    z, auc = wilcoxon_by_group(pbmc.X, codes)
    col = {g: j for j, g in enumerate(ref.var_names)}
    for c, g in enumerate(groups):
        names = ref.uns["rank_genes_groups"]["names"][g]
        scores = ref.uns["rank_genes_groups"]["scores"][g]
        ours = z[c, [col[n] for n in names]]
        np.testing.assert_allclose(ours, scores, rtol=1e-4, atol=1e-4)
    dense = pbmc.X[:, :5].toarray()
    for j in range(5):
        inside = codes == 0
        u = mannwhitneyu(dense[inside, j], dense[~inside, j], use_continuity=False,
                         method="asymptotic")
        assert auc[0, j] == pytest.approx(u.statistic / (inside.sum() * (~inside).sum()))
        assert abs(z[0, j]) == pytest.approx(norm.isf(u.pvalue / 2), rel=1e-6, abs=1e-8)


def test_marker_panels_write_what_scanpy_reads(pbmc, caplog):
    adata = pbmc.copy()
    with caplog.at_level("INFO"):
        result = marker_panels(adata, "louvain", selector="anova", n_bootstraps=10,
                               n_features=5, max_per_class=60, n_genes=20)
    # a line as each phase after the bootstraps starts (issue 52)
    assert [r.getMessage() for r in caplog.records if r.name == "modelmine"] == [
        f"markers: the Wilcoxon test of every gene in each of the {len(result.panels)} "
        "clusters", "combinations: the genes each cluster's base models select together"]
    df = sc.get.rank_genes_groups_df(adata, group=None, key="modelmine_markers")
    assert set(df["group"]) == set(adata.obs["louvain"].cat.categories)
    assert {"names", "scores", "logfoldchanges", "pvals", "pvals_adj"} <= set(df.columns)
    for g, genes in result.panels.items():
        assert adata.var.loc[genes, f"modelmine_markers_{g}"].all()
        assert adata.var[f"modelmine_markers_{g}"].sum() == 5
        first = df[df.group == g].head(5)
        assert list(first.names) == genes
    # the p-values scanpy reads are the table's, bit for bit (issue 52: float32 made 19 of
    # 100 of a cluster 0.0 where the table holds 7e-92)
    uns = adata.uns["modelmine_markers"]
    tiny = 0
    for g in result.panels:
        ours = result.to_frame(g).head(20)
        for field, column in (("pvals", "p_value"), ("pvals_adj", "q_value"),
                              ("auroc", "auroc"), ("frequency", "frequency")):
            np.testing.assert_array_equal(uns[field][g], ours[column].to_numpy())
        tiny += int((ours["p_value"] < np.finfo(np.float32).smallest_subnormal).sum())
    assert tiny > 0  # the case float32 flushed to zero is tested
    # a short repr, not the tables and every cluster's base models (issue 52)
    assert repr(result) == (f"MarkerPanels(n_clusters={len(result.panels)}, "
                            "genes_per_panel=5, selector='anova', n_bootstraps=10, "
                            f"n_combinations={len(result.combinations)})")
    import matplotlib

    matplotlib.use("Agg")
    sc.pl.rank_genes_groups_dotplot(adata, key="modelmine_markers", n_genes=3, show=False)


def test_marker_panels_agree_with_scanpys_markers(pbmc):
    # scanpy's Wilcoxon top 10 per cluster on all cells against the panels of the most
    # frequently selected genes over capped subsamples: most clusters share most genes.
    adata = pbmc.copy()
    ref = pbmc.copy()
    sc.tl.rank_genes_groups(ref, "louvain", method="wilcoxon", use_raw=False, n_genes=10)
    result = marker_panels(adata, "louvain", selector="anova", n_bootstraps=20,
                           n_features=10, max_per_class=100)
    shared = [len(set(result.panels[g]) & set(ref.uns["rank_genes_groups"]["names"][g]))
              for g in result.panels]
    assert np.median(shared) >= 5, shared
    # scanpy's own dtypes for its fields (float64 p-values)
    for field in ("names", "scores", "logfoldchanges", "pvals", "pvals_adj"):
        assert (adata.uns["modelmine_markers"][field].dtype
                == ref.uns["rank_genes_groups"][field].dtype), field


def test_each_resample_holds_at_most_the_cap_per_cluster(pbmc):
    adata = pbmc.copy()
    result = marker_panels(adata, "louvain", selector="anova", n_bootstraps=5,
                           n_features=3, max_per_class=40, sample_fraction=0.8)
    codes = adata.obs["louvain"].cat.codes.to_numpy()
    sizes = np.bincount(codes)
    base = next(iter(result.base_models.values()))
    for i in range(base.n_models):
        rows = base.resample(i)
        assert np.unique(rows).size == rows.size  # without replacement
        drawn = np.bincount(codes[rows], minlength=sizes.size)
        expected = np.minimum(np.maximum(1, np.round(0.8 * sizes)), 40)
        assert (drawn == expected).all()


def test_planted_markers_are_found_in_sparse_counts():
    rng = np.random.default_rng(0)
    n, p, K = 900, 200, 3
    codes = np.repeat(np.arange(K), n // K)
    X = rng.negative_binomial(2, 0.8, size=(n, p)).astype(float)
    X[rng.random((n, p)) < 0.7] = 0
    for k in range(K):  # 5 planted markers per cluster
        rows = codes == k
        X[np.ix_(rows, range(5 * k, 5 * k + 5))] += rng.poisson(6, (rows.sum(), 5))
    import anndata

    adata = anndata.AnnData(X=sp.csr_matrix(X), obs=pd.DataFrame(
        {"cluster": pd.Categorical([f"c{k}" for k in codes])},
        index=[f"cell{i}" for i in range(n)]))
    adata.var_names = [f"g{j}" for j in range(p)]
    result = marker_panels(adata, "cluster", selector="anova", n_bootstraps=10,
                           n_features=5, max_per_class=200)
    for k in range(K):
        assert set(result.panels[f"c{k}"]) == {f"g{j}" for j in range(5 * k, 5 * k + 5)}


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"groupby": "no_such"}, "'groupby' parameter of marker_panels must be a column"),
    ({"groupby": "louvain", "layer": "counts"}, "'layer' parameter of marker_panels"),
    ({"groupby": "louvain", "n_features": 0}, "'n_features' parameter"),
])
def test_marker_panels_refusals(pbmc, kwargs, message):
    with pytest.raises(ValueError, match=message):
        marker_panels(pbmc.copy(), **kwargs)


def test_scaled_data_and_tiny_clusters_are_refused():
    scaled = sc.datasets.pbmc68k_reduced()  # its X is scaled: negative values
    with pytest.raises(ValueError, match=r"non-negative.*use_raw=True.*scaled \(centred\)"):
        marker_panels(scaled, "louvain", selector="anova", n_bootstraps=4)
    tiny = scaled.raw.to_adata()
    labels = tiny.obs["louvain"].astype(str).to_numpy().copy()
    labels[:2] = "lonely"
    tiny.obs["louvain"] = pd.Categorical(labels)
    with pytest.raises(ValueError, match="clusters of at least 3 cells"):
        marker_panels(tiny, "louvain", selector="anova", n_bootstraps=4)
    _ = mm  # the package under test


def test_max_per_class_is_a_recorded_setting_of_the_run():
    spec = mm.RunSpec(selector="anova", max_per_class=7, resampling="subsample")
    assert mm.RunSpec.from_settings(spec.to_settings()).max_per_class == 7
    with pytest.raises(ValueError, match="'max_per_class' parameter of RunSpec"):
        mm.RunSpec(selector="anova", max_per_class=7, resampling="complementary-pairs",
                   n_bootstraps=4)
    X, y = mm.datasets.load_colon()
    base = mm.bootstrap(X, y, spec=mm.RunSpec(selector="anova", n_bootstraps=4,
                                              n_features=5, max_per_class=10,
                                              operators=()))
    labels = np.asarray(y)
    for i in range(4):
        assert np.bincount(np.unique(labels[base.resample(i)], return_inverse=True)[1]
                           ).max() <= 10
    assert base.resampling["max_per_class"] == 10


def test_wilcoxon_selector_one_vs_rest_equals_each_class_alone(pbmc):
    from modelmine.selectors import get_selector

    sel = get_selector("wilcoxon")
    codes = pbmc.obs["louvain"].cat.codes.to_numpy().astype(np.int64)
    rows = np.sort(np.random.default_rng(0).choice(codes.size, 500, replace=True))
    classes = tuple(range(int(codes.max()) + 1))
    together = sel.select_rows_one_vs_rest([None] * len(classes), pbmc.X, codes, rows,
                                           classes, random_state=0)
    for c, out in zip(classes, together):
        alone = sel.select_rows(None, pbmc.X, (codes == c).astype(np.int64), rows,
                                random_state=0)
        np.testing.assert_array_equal(out.scores, alone.scores)


def test_marker_panels_default_wilcoxon_selector(pbmc):
    adata = pbmc.copy()
    result = marker_panels(adata, "louvain", n_bootstraps=8, n_features=5,
                           max_per_class=80)
    assert result.settings["selector"] == "wilcoxon"
    assert adata.uns["modelmine_markers"]["params"]["method"] == "modelmine wilcoxon"


def test_combinations_are_co_selected_markers_with_their_auroc():
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(1)
    n, p = 600, 60
    codes = np.repeat([0, 1], n // 2)
    X = rng.poisson(1.0, size=(n, p)).astype(float)
    X[codes == 1, :3] += rng.poisson(4, ((codes == 1).sum(), 3))
    import anndata

    adata = anndata.AnnData(X=sp.csr_matrix(X), obs=pd.DataFrame(
        {"cluster": pd.Categorical(np.where(codes, "b", "a"))},
        index=[f"cell{i}" for i in range(n)]))
    adata.var_names = [f"g{j}" for j in range(p)]
    result = marker_panels(adata, "cluster", selector="anova", n_bootstraps=20,
                           n_features=3, max_per_class=200)
    combos = result.combinations[result.combinations["class"] == "b"]
    assert len(combos) and set(combos.iloc[0]["features"]) <= {"g0", "g1", "g2"}
    best = combos.iloc[0]
    cols = [int(g[1:]) for g in best["features"]]
    z = (X[:, cols] - X[:, cols].mean(0)) / X[:, cols].std(0)
    assert best["auroc"] == pytest.approx(roc_auc_score(codes == 1, z.sum(axis=1)))
    assert {"lift", "p_value", "q_value", "support"} <= set(combos.columns)
    assert "combinations" in adata.uns["modelmine_markers"]


def test_memory_is_estimated_before_the_first_fit(pbmc, monkeypatch):
    import modelmine.base_models._checks as checks
    from modelmine.singlecell import panel_memory

    need = panel_memory(10, 50, 765, 700, 500, 0.8)
    assert need == 2 * 10 * 50 * 9 * 765 + 4 * 50 * 560
    monkeypatch.setattr(checks, "available_memory", lambda: 1000)
    adata = pbmc.copy()
    with pytest.raises(ValueError, match=r"'n_bootstraps' parameter of marker_panels.*GiB"):
        marker_panels(adata, "louvain", selector="anova", n_bootstraps=10)
    assert "modelmine_markers" not in adata.uns  # nothing written


def test_dense_counts_give_the_sparse_result():
    rng = np.random.default_rng(3)
    X = rng.poisson(0.3, size=(300, 40)).astype(float)
    codes = np.repeat([0, 1, 2], 100)
    X[codes == 2, :4] += 3
    import anndata

    obs = pd.DataFrame({"c": pd.Categorical([f"k{k}" for k in codes])},
                       index=[f"cell{i}" for i in range(300)])
    dense = anndata.AnnData(X=X, obs=obs.copy())
    sparse = anndata.AnnData(X=sp.csr_matrix(X), obs=obs.copy())
    a = marker_panels(dense, "c", n_bootstraps=6, n_features=4, max_per_class=50)
    b = marker_panels(sparse, "c", n_bootstraps=6, n_features=4, max_per_class=50)
    assert a.panels == b.panels
    pd.testing.assert_frame_equal(a.table, b.table)


def test_cli_markers_writes_what_scanpy_reads(pbmc, tmp_path, capsys):
    """``modelmine markers`` (run in this process: ``modelmine.cli.main``) on pbmc68k's
    file: its outputs as scanpy reads them, and a bad --groupby refused before any output."""
    import anndata

    from modelmine.cli import main

    data = tmp_path / "cells.h5ad"
    pbmc.write_h5ad(data)
    out = tmp_path / "markers"
    code = main(["markers", str(data), "--groupby", "obs:louvain", "-s", "anova", "-b", "6",
                 "--n-features", "4", "--max-per-class", "60", "--out", str(out), "--quiet",
                 "--direction", "both"])
    assert code == 0, capsys.readouterr().err
    report = (out / "report.html").read_text(encoding="utf-8")
    table = pd.read_csv(out / "markers.csv", dtype={"class": str})
    notes = anndata.read_h5ad(out / "annotations.h5ad")
    df = sc.get.rank_genes_groups_df(notes, group=None, key="modelmine_markers")
    first = table[table.in_panel].groupby("class")["feature"].apply(list)
    for g, genes in first.items():
        assert list(df[df.group == g].names[:4]) == genes
        assert ", ".join(genes) in report
    assert notes.uns["modelmine_markers"]["params"]["direction"] == "both"
    assert len((out / "panels.gmt").read_text().splitlines()) == len(first)
    capsys.readouterr()
    code = main(["markers", str(data), "--groupby", "obs:nope", "--out", str(tmp_path / "x")])
    assert code == 2 and "--groupby" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_wilcoxon_in_blocks_of_columns_equals_at_once(monkeypatch):
    import modelmine.selectors._wilcoxon as module

    rng = np.random.default_rng(0)
    X = sp.random(400, 120, density=0.2, random_state=1,
                  data_rvs=lambda k: rng.poisson(3, k) + 1.0).tocsr()
    codes = rng.integers(0, 4, 400)
    whole = wilcoxon_by_group(X, codes)
    monkeypatch.setattr(module, "_BLOCK_NNZ", 700)
    for given in (X, X.tocsc(), X.astype(np.float32)):  # by rows (sliced), by columns
        blocks = wilcoxon_by_group(given, codes)
        np.testing.assert_array_equal(whole[0], blocks[0])
        np.testing.assert_array_equal(whole[1], blocks[1])


def lineage_cells(seed: int = 0):
    """Two sibling clusters A and A2 sharing a strong lineage gene g0 (up in both) and
    each with a weaker gene of its own (g1 in A, g2 in A2), beside a cluster B and 30
    noise genes: the truth by construction."""
    import anndata

    rng = np.random.default_rng(seed)
    labels = np.repeat(["A", "A2", "B"], [200, 200, 400])
    X = rng.poisson(0.3, (800, 33)).astype(np.float32)
    X[:400, 0] = rng.poisson(6, 400)
    X[:, 1] = np.where(labels == "A", rng.poisson(1.0, 800), 0)
    X[:, 2] = np.where(labels == "A2", rng.poisson(1.0, 800), 0)
    X = np.log1p(X / np.maximum(X.sum(axis=1, keepdims=True), 1) * 1e3)  # log-normalised
    adata = anndata.AnnData(sp.csr_matrix(X), obs=pd.DataFrame(
        {"cluster": pd.Categorical(labels)}, index=[f"c{i}" for i in range(800)]))
    adata.var_names = [f"g{j}" for j in range(33)]
    return adata


def test_against_each_cluster_a_sibling_gene_is_no_marker():
    """reference="rest" puts the lineage gene in each sibling's panel; "each" (scran's
    pval.type="all") puts there the gene that separates the cluster from its sibling."""
    adata = lineage_cells()
    rest = marker_panels(adata.copy(), "cluster", selector="t-test", reference="rest",
                         n_bootstraps=10, n_features=2, max_per_class=None)
    each = marker_panels(adata.copy(), "cluster", selector="t-test",  # "each": default
                         n_bootstraps=10, n_features=2, max_per_class=None)
    assert rest.panels["A"] == ["g0", "g1"] and rest.panels["A2"] == ["g0", "g2"]
    assert each.panels["A"][0] == "g1" and each.panels["A2"][0] == "g2"

    def frequency(result, cluster, gene):
        t = result.table
        return float(t[(t["class"] == cluster) & (t.feature == gene)].frequency.iloc[0])

    for cluster in ("A", "A2"):  # the lineage gene: always first against the rest, at
        assert frequency(rest, cluster, "g0") == 1.0  # most half the time against each
        assert frequency(each, cluster, "g0") <= 0.5
    assert each.settings["reference"] == "each"
    assert each.settings["selector_params"] == {"direction": "up", "reference": "each"}
    with pytest.raises(ValueError, match="reference"):
        marker_panels(adata.copy(), "cluster", selector="anova", reference="each",
                      n_bootstraps=2)
    wilcoxon = marker_panels(adata.copy(), "cluster", selector="wilcoxon",
                             reference="each", n_bootstraps=10, n_features=2,
                             max_per_class=None)
    assert wilcoxon.panels["A"][0] == "g1" and wilcoxon.panels["A2"][0] == "g2"
    with pytest.raises(ValueError, match="direction"):
        marker_panels(adata.copy(), "cluster", direction="upward", n_bootstraps=2)


@pytest.mark.parametrize("selector", ["wilcoxon", "anova"])
def test_direction_keeps_the_panel_on_one_side(pbmc, selector):
    """Every panel gene of direction "up" has a higher mean in its cluster than in the
    rest, and of "down" a lower one (numpy's means of the cells); "both" may hold both.
    anova is unsigned: its panels are filtered by the sign of the Wilcoxon z."""
    X = pbmc.X.toarray()
    labels = pbmc.obs["louvain"].astype(str).to_numpy()
    col = {g: j for j, g in enumerate(pbmc.var_names)}
    for direction in ("up", "down"):
        adata = pbmc.copy()
        result = marker_panels(adata, "louvain", selector=selector, direction=direction,
                               n_bootstraps=8, n_features=5, max_per_class=60)
        assert adata.uns["modelmine_markers"]["params"]["direction"] == direction
        for g, genes in result.panels.items():
            inside = labels == g
            diff = np.array([X[inside, col[n]].mean() - X[~inside, col[n]].mean()
                             for n in genes])
            assert len(genes) > 0
            assert (diff > 0).all() if direction == "up" else (diff < 0).all(), (g, genes)
            rows = result.table[result.table["class"] == g]
            assert rows.in_panel.sum() == len(genes)


def test_report_shows_each_panel_with_scanpys_dot_plot_fractions(pbmc, tmp_path):
    """The report's dot plot: the fraction of each cluster's cells expressing each panel
    gene equals scanpy's DotPlot; every cluster's panel and stability are on the page."""
    from modelmine.diagnostics import nogueira_stability
    from modelmine.report import panel_dot_data

    adata = pbmc.copy()
    result = marker_panels(adata, "louvain", n_bootstraps=6, n_features=3,
                           max_per_class=60)
    effect, share = panel_dot_data(adata, result)
    genes = list(share.index)
    dot = sc.pl.DotPlot(adata, genes, "louvain")
    ref = dot.dot_size_df.T.loc[genes]
    ref.columns = ref.columns.astype(str)
    np.testing.assert_allclose(share[ref.columns].to_numpy(), ref.to_numpy(), atol=1e-12)
    X = np.expm1(adata[:, genes].X.toarray().astype(np.float64))
    inside = (adata.obs["louvain"] == "0").to_numpy()
    np.testing.assert_allclose(effect["0"], np.log2((X[inside].mean(0) + 1e-9)
                                                    / (X[~inside].mean(0) + 1e-9)),
                               rtol=1e-12)
    path = result.write_report(tmp_path / "report.html", adata)
    page = path.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<img" in page
    for g, panel in result.panels.items():
        assert ", ".join(panel) in page
        stab = nogueira_stability(result.base_models[g]).value
        assert f"{stab:.3f}" in page


def test_values_a_selector_was_not_made_for_are_refused(pbmc):
    """t-test and logreg compare means of log-normalised values (as scanpy's): raw
    counts are refused, naming the layer, what the selector expects and what was given;
    wilcoxon (ranks) takes counts."""
    from modelmine.singlecell._panels import value_kind

    adata = pbmc.copy()
    counts = adata.X.copy()
    counts.data = np.round(np.expm1(counts.data))  # whole numbers again
    adata.layers["counts"] = counts
    for selector in ("t-test", "logreg"):
        with pytest.raises(ValueError, match=r"'layer' parameter of marker_panels must be "
                           r"log-normalised values for selector .*adata.layers\['counts'\] "
                           r"holding counts values"):
            marker_panels(adata, "louvain", layer="counts", selector=selector,
                          n_bootstraps=2)
    assert "modelmine_markers" not in adata.uns
    marker_panels(adata, "louvain", layer="counts", n_bootstraps=2, n_features=2,
                  max_per_class=30)
    assert value_kind(counts.data) == "counts"
    assert value_kind(adata.X.data) == "log-normalised"
    assert value_kind(counts.data / 3 * 100) == "normalised"


def test_a_backed_file_reads_its_matrix_or_layer(pbmc, tmp_path):
    """A backed AnnData (``read_h5ad(path, backed="r")``) gives the panels of the same
    AnnData in memory; a layer it does not hold is refused by name."""
    import anndata

    adata = pbmc.copy()
    adata.layers["lognorm"] = adata.X.copy()
    adata.write_h5ad(tmp_path / "cells.h5ad")
    backed = anndata.read_h5ad(tmp_path / "cells.h5ad", backed="r")
    kwargs = dict(n_bootstraps=4, n_features=3, max_per_class=40)
    in_memory = marker_panels(adata.copy(), "louvain", **kwargs).panels
    for layer in (None, "lognorm"):
        assert marker_panels(backed, "louvain", layer=layer, **kwargs).panels == in_memory
    assert backed.isbacked and "modelmine_markers" in backed.uns
    with pytest.raises(ValueError, match="'layer' parameter of marker_panels"):
        marker_panels(backed, "louvain", layer="counts", n_bootstraps=2)


def test_the_default_reference_is_each_where_the_selector_takes_it(pbmc):
    adata = pbmc.copy()
    kwargs = dict(n_bootstraps=2, n_features=2, max_per_class=30)
    assert marker_panels(adata, "louvain", **kwargs).settings["reference"] == "each"
    assert adata.uns["modelmine_markers"]["params"]["compared_with"] == "each"
    anova = marker_panels(adata, "louvain", selector="anova", **kwargs)
    assert anova.settings["reference"] == "rest"
    own = mm.selectors.WilcoxonSelector(direction="up", reference="rest")
    assert marker_panels(adata, "louvain", selector=own, **kwargs).settings[
        "reference"] == "rest"
    with pytest.raises(ValueError, match="'reference' parameter of marker_panels"):
        marker_panels(adata, "louvain", selector=own, reference="each", **kwargs)


def test_default_panels_hold_the_canonical_markers_of_sorted_pbmc_populations(pbmc):
    """pbmc68k_reduced's ``bulk_labels`` are FACS-sorted populations: the default panels
    (Wilcoxon against each other population, up) hold the textbook markers (Seurat's
    PBMC tutorial, Hao et al. 2021): MS4A1 / CD79A / CD79B for B cells, GNLY / NKG7 for
    NK cells, CST3 and HLA class II for dendritic cells, CD8A / CD8B for CD8 T cells."""
    adata = pbmc.copy()
    result = marker_panels(adata, "bulk_labels", n_bootstraps=20, n_features=10,
                           max_per_class=100)
    panels = {g: set(p) for g, p in result.panels.items()}
    assert len(panels["CD19+ B"] & {"MS4A1", "CD79A", "CD79B"}) == 3
    assert {"GNLY", "NKG7"} <= panels["CD56+ NK"]
    assert "CST3" in panels["Dendritic"]
    assert len(panels["Dendritic"] & {"HLA-DRA", "HLA-DRB1", "HLA-DPA1", "HLA-DQA1"}) >= 2
    assert panels["CD8+/CD45RA+ Naive Cytotoxic"] & {"CD8A", "CD8B"}
