"""marker_panels and `modelmine markers` as users hit them (issues 38, 39, 40): cluster
labels of every dtype, donors spanning clusters, scanpy's files as shipped (.raw, slightly
negative values), the annotations file plotted by scanpy, the output directory's lock and
checks, GMT names, the combinations' cost bound, empty categories, binary selectors, the
selector's direction, the clusters' order and the low-stability caution.

``modelmine markers`` runs in-process (``modelmine.cli.main``, the ``cli`` fixture): the
tests are about its outputs and messages; the lock of an output directory is held by
another process (``HOLD_THE_LOCK``), as a second run would meet it.
"""

from __future__ import annotations

import subprocess
import sys
import time
import warnings
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from modelmine.cli import main
from modelmine.singlecell import marker_panels

sc = pytest.importorskip("scanpy")
anndata = pytest.importorskip("anndata")


def planted(labels, n_genes: int = 24, seed: int = 0, donors: int = 6):
    """Poisson counts; cluster k's genes 3k..3k+2 raised by 4 (the planted markers)."""
    rng = np.random.default_rng(seed)
    labels = np.asarray(labels)
    X = rng.poisson(1.0, (labels.size, n_genes)).astype(float)
    for k, c in enumerate(pd.unique(labels)):
        X[labels == c, 3 * k:3 * k + 3] += 4
    obs = pd.DataFrame({"cl": labels,
                        "donor": np.tile([f"d{i}" for i in range(donors)],
                                         labels.size // donors + 1)[:labels.size]},
                       index=[f"c{i}" for i in range(labels.size)])
    return anndata.AnnData(X=sp.csr_matrix(X), obs=obs,
                           var=pd.DataFrame(index=[f"g{j}" for j in range(n_genes)]))


@pytest.fixture
def cli(capsys):
    """``modelmine markers ARGV`` in this process: its exit code (``returncode``) and what
    it printed (``stdout``, ``stderr``), as ``subprocess.run`` returns them."""

    def markers(*argv):
        capsys.readouterr()
        code = main(["markers", *map(str, argv)])
        printed = capsys.readouterr()
        return SimpleNamespace(returncode=code, stdout=printed.out, stderr=printed.err)

    return markers


FAST = ["-b", "4", "--n-features", "3", "--quiet"]


@pytest.mark.parametrize("labels", [
    np.repeat([0, 1, 2, 10], 30),
    np.repeat([0.5, 1.0, 2.5, 10.0], 30),
    np.repeat([True, False], 60),
    pd.Categorical(np.repeat([0, 1, 2, 10], 30)),
])
def test_cli_writes_every_output_for_numeric_and_boolean_clusters(tmp_path, labels, cli):
    # issue 40.4: KeyError '0' in the report after all the work, nothing written
    adata = planted(np.repeat(np.arange(4), 30))
    adata.obs["cl"] = labels
    adata.write_h5ad(tmp_path / "cells.h5ad")
    done = cli(tmp_path / "cells.h5ad", "--groupby", "cl", "--out", tmp_path / "out", *FAST)
    assert done.returncode == 0, done.stderr
    names = [str(v) for v in pd.unique(np.asarray(labels))]
    table = pd.read_csv(tmp_path / "out" / "markers.csv", dtype={"class": str})
    assert set(table['class']) == set(names)
    assert (tmp_path / "out" / "report.html").is_file()


def test_clusters_sort_naturally_and_by_category_order():
    # issue 39.9: 0, 1, 10, 2
    adata = planted(np.repeat(["0", "1", "10", "2"], 30))
    result = marker_panels(adata, "cl", n_bootstraps=3, n_features=2)
    assert list(result.panels) == ["0", "1", "2", "10"]
    assert list(adata.uns["modelmine_markers"]["names"].dtype.names) == ["0", "1", "2", "10"]
    ordered = planted(np.repeat(["b", "a", "c"], 30))
    ordered.obs["cl"] = pd.Categorical(ordered.obs["cl"], categories=["c", "b", "a"])
    assert list(marker_panels(ordered, "cl", n_bootstraps=3, n_features=2).panels) == \
        ["c", "b", "a"]


@pytest.mark.parametrize("groups", ["donor", "obs:donor"])
def test_donors_spanning_clusters_are_resampled_whole(groups):
    # issue 40.3 / 39.6: "obs:obs:donor", and stratify refused for donors spanning clusters
    adata = planted(np.repeat(["x", "y", "z"], 60))
    result = marker_panels(adata, "cl", groups=groups, n_bootstraps=6, n_features=3,
                           max_per_class=25)
    for k, panel in enumerate(result.panels.values()):
        assert set(panel) == {f"g{3 * k + i}" for i in range(3)}
    donors = adata.obs["donor"].to_numpy()
    clusters = adata.obs["cl"].to_numpy()
    base = result.base_models["x"]
    for idx in (base.resample(i) for i in range(base.subsets.shape[0])):
        drawn = set(donors[idx])
        assert len(drawn) == 5  # round(0.8 * 6) whole donors
        for c in ("x", "y", "z"):
            assert (clusters[idx] == c).sum() <= 25  # then each cluster capped


def test_cli_groups_take_obs_prefix(tmp_path, cli):
    planted(np.repeat(["x", "y", "z"], 60)).write_h5ad(tmp_path / "cells.h5ad")
    for groups in ("obs:donor", "donor"):
        done = cli(tmp_path / "cells.h5ad", "--groupby", "obs:cl", "--groups", groups,
                   "--out", tmp_path / groups.replace(":", "_"), *FAST)
        assert done.returncode == 0, done.stderr
    bad = cli(tmp_path / "cells.h5ad", "--groupby", "cl", "--groups", "obs:nope",
              "--out", tmp_path / "bad", *FAST)
    assert bad.returncode == 2 and "--groups" in bad.stderr and "nope" in bad.stderr


def _reads_raw_and_plots_from_the_annotations(adata, groupby, group, path, cli):
    """``adata`` as scanpy ships its files (``.X`` scaled, ``.raw`` log-normalised):
    marker_panels refuses ``.X`` naming ``use_raw``, reads ``.raw`` with ``use_raw=True``
    (the z of scanpy's Wilcoxon on ``.raw`` for ``group``), ``modelmine markers`` refuses
    the file without ``--use-raw`` and runs with it, and its annotations file plots with
    scanpy's dot plot as the help says."""
    import matplotlib

    matplotlib.use("Agg")
    with pytest.raises(ValueError, match=r"'use_raw' parameter.*use_raw=True.*scaled"):
        marker_panels(adata.copy(), groupby, n_bootstraps=3)
    result = marker_panels(adata, groupby, use_raw=True, n_bootstraps=3, n_features=3,
                           n_genes=5)
    assert result.settings["values"] == "log-normalised"
    assert adata.uns["modelmine_markers"]["params"]["use_raw"] is True
    # the panel statistics are those of .raw: the z of scanpy's Wilcoxon on .raw
    ref = adata.copy()
    sc.tl.rank_genes_groups(ref, groupby, method="wilcoxon", use_raw=True,
                            tie_correct=True, n_genes=ref.raw.n_vars)
    scanpy_z = sc.get.rank_genes_groups_df(ref, group=group).set_index("names")["scores"]
    ours = result.table[result.table["class"] == group].set_index("feature")["wilcoxon_z"]
    np.testing.assert_allclose(ours, scanpy_z.loc[ours.index], rtol=1e-4, atol=1e-4)
    adata.write_h5ad(path)
    out = path.parent / "out"
    refused = cli(path, "--groupby", groupby, "--out", out, *FAST)
    assert refused.returncode == 2 and "--use-raw" in refused.stderr
    done = cli(path, "--groupby", groupby, "--use-raw", "--out", out, *FAST)
    assert done.returncode == 0, done.stderr
    notes = sc.read_h5ad(out / "annotations.h5ad")
    sc.pl.rank_genes_groups_dotplot(notes, key="modelmine_markers", n_genes=3, show=False)
    panel = pd.read_csv(out / "markers.csv", dtype={"class": str})
    first = panel[panel.in_panel & (panel["class"] == group)].feature.tolist()
    assert first and notes.var.loc[first, f"modelmine_markers_{group}"].all()


def test_a_scaled_x_beside_raw_reads_raw_and_plots_from_the_annotations(tmp_path, cli):
    # issue 39.7 on a small file shaped as scanpy's: .raw the log-normalised counts,
    # .X those values scaled (centred, half of their mass negative); pbmc68k_reduced as
    # shipped is the slow twin below
    # (scanpy's normalize_total(target_sum=1e4), log1p and scale, written with numpy)
    counts = planted(np.repeat(["x", "y", "z"], 40))
    dense = counts.X.toarray()
    lognorm = np.log1p(dense / dense.sum(axis=1, keepdims=True) * 1e4)
    adata = anndata.AnnData(X=sp.csr_matrix(lognorm), obs=counts.obs, var=counts.var)
    adata.raw = adata
    adata.X = (lognorm - lognorm.mean(axis=0)) / lognorm.std(axis=0)
    assert (adata.X < 0).any()
    _reads_raw_and_plots_from_the_annotations(adata, "cl", "x", tmp_path / "cells.h5ad",
                                              cli)


@pytest.mark.slow
def test_pbmc68k_reduced_as_shipped_reads_raw_and_plots_from_the_annotations(tmp_path, cli):
    # issue 39.7: scaled .X refused with a word of .raw; use_raw / --use-raw read it; the
    # annotations file plots with scanpy's dotplot as the help says (scanpy's real file:
    # the fast tier runs the same checks on a small file of the same shape, above)
    adata = sc.datasets.pbmc68k_reduced()
    _reads_raw_and_plots_from_the_annotations(adata, "louvain", "0", tmp_path / "pbmc.h5ad",
                                              cli)


def test_annotations_of_counts_in_x_plot_as_they_are(tmp_path, cli):
    import matplotlib

    matplotlib.use("Agg")
    planted(np.repeat(["x", "y", "z"], 40)).write_h5ad(tmp_path / "cells.h5ad")
    done = cli(tmp_path / "cells.h5ad", "--groupby", "cl", "--out", tmp_path / "out", *FAST)
    assert done.returncode == 0, done.stderr
    notes = sc.read_h5ad(tmp_path / "out" / "annotations.h5ad")
    sc.pl.rank_genes_groups_dotplot(notes, key="modelmine_markers", n_genes=2, show=False)


def test_noise_around_zero_is_set_to_zero_and_scaled_data_refused():
    # krumsiek11: values down to -0.016, 0.16 % of the absolute mass
    adata = sc.datasets.krumsiek11()
    adata.obs_names_make_unique()
    with pytest.warns(UserWarning, match=r"negative value\(s\), down to -0.0163"):
        result = marker_panels(adata, "cell_type", n_bootstraps=3, n_features=2)
    assert result.settings["negative_values_clipped"] == int((adata.X < 0).sum())
    # the same data scaled: half the mass negative, refused naming a layer to pass
    scaled = adata.copy()
    scaled.layers["values"] = np.clip(adata.X, 0, None)
    sc.pp.scale(scaled)
    with pytest.raises(ValueError, match=r"'layer' parameter.*layer=NAME.*values"):
        marker_panels(scaled, "cell_type", n_bootstraps=3)


#: A process that holds the lock of the output directory sys.argv[1] until its input closes.
HOLD_THE_LOCK = """
import sys
from modelmine._files import directory_lock
with directory_lock(sys.argv[1]):
    print("locked", flush=True)
    sys.stdin.read()
"""


def test_an_existing_output_is_kept_without_force_and_a_running_one_locked(tmp_path, cli):
    # issue 40.10: no lock, existing output replaced; 40.18: dangling symlink after the work
    planted(np.repeat(["x", "y", "z"], 30)).write_h5ad(tmp_path / "cells.h5ad")
    out = tmp_path / "out"
    out.mkdir()
    (out / "mine.txt").write_text("keep")
    done = cli(tmp_path / "cells.h5ad", "--groupby", "cl", "--out", out, *FAST)
    assert done.returncode == 2 and "--force" in done.stderr
    assert (out / "mine.txt").read_text() == "keep"
    fresh = tmp_path / "fresh"
    holder = subprocess.Popen([sys.executable, "-c", HOLD_THE_LOCK, str(fresh)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:  # another process (a markers run writing it) holds the output's lock
        assert holder.stdout.readline().strip() == "locked"
        done = cli(tmp_path / "cells.h5ad", "--groupby", "cl", "--out", fresh, *FAST)
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)
    assert done.returncode == 2 and "Another modelmine" in done.stderr
    assert not fresh.exists()
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "nowhere" / "dir")
    start = time.perf_counter()
    done = cli(tmp_path / "cells.h5ad", "--groupby", "cl", "--out", dangling, "-b", "400",
               "--quiet")
    assert done.returncode == 2 and "symbolic link to nothing" in done.stderr
    assert "Errno" not in done.stderr and time.perf_counter() - start < 60


def test_default_out_and_the_selectors_it_lists(tmp_path, monkeypatch, cli):
    # issue 38: --out required where `run` has a default; --selector lists regression ones
    planted(np.repeat(["x", "y", "z"], 30)).write_h5ad(tmp_path / "cells.h5ad")
    monkeypatch.chdir(tmp_path)
    done = cli(tmp_path / "cells.h5ad", "--groupby", "cl", "--random-state", "3", *FAST)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "modelmine-markers-3" / "markers.csv").is_file()
    helped = cli("--help")
    assert helped.returncode == 0, helped.stderr
    listed = helped.stdout[helped.stdout.index("--selector NAME"):].split("(default")[0]
    listed = " ".join(listed.split())
    for name in ("wilcoxon", "t-test", "anova", "l1-logistic"):
        assert name in listed
    for name in ("lasso", "svr-rfe", "cox-score", "coxnet", "pearson"):
        assert name not in listed


def test_gmt_names_hold_no_tab_or_line_break(tmp_path, cli):
    # issue 40.9
    adata = planted(np.repeat(["x\ty", "new\nline", "plain"], 30))
    adata.var_names = [f"g\t{j}" if j % 2 else f"g\n{j}" for j in range(adata.n_vars)]
    adata.write_h5ad(tmp_path / "cells.h5ad")
    done = cli(tmp_path / "cells.h5ad", "--groupby", "cl", "--out", tmp_path / "out", *FAST)
    assert done.returncode == 0, done.stderr
    lines = (tmp_path / "out" / "panels.gmt").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3
    for line in lines:
        fields = line.split("\t")
        assert len(fields) == 2 + 3  # name, description, the 3 genes of the panel
    assert sorted(line.split("\t")[0] for line in lines) == ["new line", "plain", "x y"]


def test_a_failing_report_keeps_the_tables(tmp_path, monkeypatch):
    # issue 40.4, second part: a failure in the report never loses the panels
    from modelmine.cli import main
    from modelmine.singlecell import MarkerPanels

    planted(np.repeat(["x", "y", "z"], 30)).write_h5ad(tmp_path / "cells.h5ad")

    def broken(self, path, adata):
        raise KeyError("boom")

    monkeypatch.setattr(MarkerPanels, "write_report", broken)
    code = main(["markers", str(tmp_path / "cells.h5ad"), "--groupby", "cl",
                 "--out", str(tmp_path / "out"), *FAST])
    assert code == 1
    for name in ("markers.csv", "combinations.csv", "panels.gmt", "annotations.h5ad"):
        assert (tmp_path / "out" / name).is_file(), name


def test_combinations_have_a_bounded_cost():
    # issue 40.15: panel-size 100 on 2,000 cells x 150 genes ran past 120 s (7 s at 10)
    rng = np.random.default_rng(0)
    labels = np.repeat(["a", "b", "c", "d"], 500)
    X = rng.poisson(1.0, (2000, 150)).astype(float)
    adata = anndata.AnnData(X=sp.csr_matrix(X), obs=pd.DataFrame({"cl": labels}))
    adata.var_names = [f"g{j}" for j in range(150)]
    start = time.perf_counter()
    result = marker_panels(adata, "cl", n_features=100, n_bootstraps=10,
                           max_per_class=200)
    assert time.perf_counter() - start < 40
    assert result.combinations.groupby("class").size().max() <= 5


def test_empty_categories_are_dropped_with_a_note():
    # issue 40.16
    adata = planted(np.repeat(["x", "y", "z"], 30))
    adata.obs["cl"] = pd.Categorical(adata.obs["cl"], categories=["x", "y", "z", "gone"])
    with pytest.warns(UserWarning, match="empty category gone"):
        result = marker_panels(adata, "cl", n_bootstraps=3, n_features=2)
    assert list(result.panels) == ["x", "y", "z"]
    assert result.settings["empty_clusters_dropped"] == ["gone"]


def test_a_binary_selector_fits_each_cluster_against_the_rest():
    # issue 40.16: l1-logistic refused as "binary" although each fit is one against rest
    adata = planted(np.repeat(["x", "y", "z"], 40))
    result = marker_panels(adata, "cl", selector="l1-logistic", n_bootstraps=4,
                           n_features=3, reference="rest")
    assert set(result.panels["y"]) <= {"g3", "g4", "g5"} and result.panels["y"]


def test_messages_name_groupby_and_the_file(tmp_path, cli):
    adata = planted(np.repeat(["x", "y", "z"], 30))
    adata.obs["cl"] = adata.obs["cl"].astype(object)
    adata.obs.loc["c0", "cl"] = np.nan
    adata.write_h5ad(tmp_path / "cells.h5ad")
    done = cli(tmp_path / "cells.h5ad", "--groupby", "cl", "--out", tmp_path / "out", *FAST)
    assert done.returncode == 2
    assert "--groupby" in done.stderr and "--target" not in done.stderr


def test_a_contradicting_direction_in_selector_params_is_refused():
    # issue 40.19: {"direction": "down"} scored down, recorded and ordered up
    adata = planted(np.repeat(["x", "y", "z"], 30))
    with pytest.raises(ValueError, match=r"'selector_params'.*direction='up'"):
        marker_panels(adata, "cl", selector_params={"direction": "down"}, n_bootstraps=3)
    agreed = marker_panels(adata.copy(), "cl", direction="down",
                           selector_params={"direction": "down"}, n_bootstraps=3)
    assert agreed.settings["direction"] == "down"


def test_a_rare_unstable_cluster_gets_a_caution(tmp_path):
    # issue 39.9: rare clusters with low panel stability got no caution
    from modelmine.diagnostics import nogueira_stability
    from modelmine.report import build_marker_report
    from modelmine.report._singlecell import LOW_PANEL_STABILITY

    adata = planted(np.r_[np.repeat(["big1", "big2"], 150), np.repeat(["rare"], 6)],
                    n_genes=40)
    X = adata.X.toarray()
    X[-6:, 6:9] = 0  # the rare cluster's own markers removed: nothing stable marks it
    adata.X = sp.csr_matrix(X)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = marker_panels(adata, "cl", n_bootstraps=10, n_features=4)
    page = build_marker_report(result, adata)
    for cluster, base in result.base_models.items():
        low = nogueira_stability(base).value < LOW_PANEL_STABILITY
        assert (f"cluster {cluster} (" in page) == low
    assert nogueira_stability(result.base_models["rare"]).value < LOW_PANEL_STABILITY
    assert nogueira_stability(result.base_models["big1"]).value >= LOW_PANEL_STABILITY
    assert "Caution:" in page



def test_a_slash_in_a_cluster_name_writes_without_warnings(tmp_path):
    # issue 50: "CD4+/CD8+" drew anndata's warning that "/" will be refused in h5ad keys
    adata = planted(np.repeat(["CD4+/CD8+", "B cells"], 40))
    result = marker_panels(adata, "cl", selector="anova", n_bootstraps=3, n_features=2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        adata.write_h5ad(tmp_path / "cells.h5ad")
    back = anndata.read_h5ad(tmp_path / "cells.h5ad")
    column = back.var["modelmine_markers_CD4+\u2215CD8+"]  # the division slash, U+2215
    assert sorted(back.var_names[column]) == sorted(result.panels["CD4+/CD8+"])
