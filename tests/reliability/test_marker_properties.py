"""Property-based tests of the single-cell marker panels (issue 40, "done means"): AnnData
drawn by hypothesis, fed to :func:`modelmine.singlecell.marker_panels` and to
``modelmine markers`` (in process).

Drawn: cluster labels of every type (ints, floats, bools, text with tabs, line breaks,
``=``, ``NA``, ``None`` or nothing, integer categories, categories with empty levels),
gene names likewise (repeated too), clusters of 1 to 6 cells, constant and all-zero genes,
negative values below and above the tolerance, int, float32 and log-normalised values,
sparse and dense, donors spanning clusters, ``use_raw``.

The property: the call is refused at the door with the one-line message naming a
parameter (``param_error``'s shape, or a ``DataError``), or it finishes, and then the
panels' genes are genes of the data, one panel per non-empty cluster; through the CLI
every file written reads back: markers.csv with pandas (the names intact, as the
spreadsheet rule of docs/reliability.md writes them), panels.gmt one line per cluster with
tab-separated fields and no tab or line break inside a field, annotations.h5ad with
anndata (and scanpy's dot plot on it), report.html (its figures built; drawn in the
slow-marked twin of the CLI property). Bounded: a few tenths of a second per API example,
about half a second per CLI example (``MODELMINE_FUZZ_EXAMPLES``).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from modelmine.exceptions import DataError
from modelmine.singlecell import marker_panels

anndata = pytest.importorskip("anndata")

#: The smallest cluster marker_panels takes (docs/singlecell.md: fewer cells are refused).
MIN_CELLS_PER_GROUP = 3


def safe_cell(text: str) -> str:
    """A CSV cell as written for spreadsheets (docs/reliability.md): a leading apostrophe
    when it starts with =, +, -, @, a tab or CR."""
    return "'" + text if text.startswith(("=", "+", "-", "@", "\t", "\r")) else text


def _gmt_field(text: str) -> str:
    """A GMT field as written (docs/reliability.md): tabs, line breaks and other control
    characters become spaces, on one line (runs of spaces as one, none at the ends)."""
    return " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())

EXAMPLES = int(os.environ.get("MODELMINE_FUZZ_EXAMPLES", "10"))
API = settings(max_examples=min(25, 2 * EXAMPLES), deadline=None, derandomize=True,
               phases=[Phase.explicit, Phase.reuse, Phase.generate],  # no shrinking: bounded
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
CLI = settings(max_examples=min(8, EXAMPLES), deadline=None, derandomize=True,
               phases=[Phase.explicit, Phase.reuse, Phase.generate],  # no shrinking: bounded
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

#: Names users' files hold: control characters, spreadsheet formulas, missing-value words.
WEIRD = ["a", "b\tc", "d\ne", "=SUM(A1)", "NA", "None", "", " ", "null", "x=y", "+1",
         "-", "0", "1.5", "True", "g\r", "é", "a b"]


def _door(exc: BaseException) -> None:
    """A refusal at the door: param_error's shape (naming a parameter) or a DataError,
    on one line."""
    text = str(exc)
    assert isinstance(exc, ValueError | TypeError | DataError), repr(exc)
    assert "\n" not in text.strip(), text
    if not isinstance(exc, DataError):
        assert re.search(r"The '\w+' parameter of \w+ must be ", text), text


@st.composite
def atlases(draw):
    """An AnnData and the keyword arguments of marker_panels for it."""
    k = draw(st.integers(2, 4))
    sizes = draw(st.lists(st.integers(3, 8), min_size=k, max_size=k))
    if draw(st.integers(0, 4)) == 0:  # a cluster too small: refused at the door
        sizes[draw(st.integers(0, k - 1))] = draw(st.integers(1, 2))
    kind = draw(st.sampled_from(["int", "float", "bool", "text", "int-category",
                                 "empty-level"]))
    if kind == "bool":
        k, sizes = 2, sizes[:2]
    if kind == "int":
        names: list = draw(st.lists(st.integers(-5, 12), min_size=k, max_size=k,
                                    unique=True))
    elif kind == "float":
        names = draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, -2.25, 1e-9, 3.0, 10.0]),
                              min_size=k, max_size=k, unique=True))
    elif kind == "bool":
        names = [False, True]
    elif kind in ("int-category", "empty-level"):
        names = draw(st.lists(st.integers(0, 20), min_size=k, max_size=k, unique=True))
    else:
        names = draw(st.lists(st.sampled_from(WEIRD), min_size=k, max_size=k, unique=True))
    labels = np.concatenate([np.repeat(np.array([nm], dtype=object), s)
                             for nm, s in zip(names, sizes)])
    if kind == "int":
        column = pd.Series(labels.astype(np.int64))
    elif kind == "float":
        column = pd.Series(labels.astype(np.float64))
    elif kind == "bool":
        column = pd.Series(labels.astype(bool))
    elif kind == "int-category":
        column = pd.Series(pd.Categorical(labels.astype(np.int64)))
    elif kind == "empty-level":
        column = pd.Series(pd.Categorical(labels.astype(np.int64),
                                          categories=sorted({*names, 99})))
    else:
        column = pd.Series(labels.astype(str))
    n = column.size
    p = draw(st.integers(4, 9))
    gene_names = draw(st.lists(st.sampled_from(WEIRD + [f"g{j}" for j in range(12)]),
                               min_size=p, max_size=p, unique=draw(st.booleans())))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    X = rng.poisson(1.0, (n, p)).astype(np.float64)
    codes = pd.factorize(column)[0]
    for c in range(int(codes.max()) + 1):  # a planted marker per cluster, where it fits
        X[codes == c, c % p] += 4
    X[:, p - 1] = 0.0  # an all-zero gene
    X[:, p - 2] = 2.0  # a constant gene
    values = draw(st.sampled_from(["int", "int", "float32", "float32", "log", "log",
                                   "small-negative", "large-negative"]))
    if values == "log":
        X = np.log1p(X / np.maximum(X.sum(axis=1, keepdims=True), 1) * 1e4)
    elif values == "small-negative":  # below the tolerance: noise around zero
        X[0, 0] = -1e-4
    elif values == "large-negative":  # scaled data: refused
        X = X - X.mean(axis=0)
    if values == "int":
        X = X.astype(np.int64)
    elif values == "float32":
        X = X.astype(np.float32)
    sparse = draw(st.booleans())
    obs = pd.DataFrame({"cl": column.to_numpy() if not isinstance(column.dtype,
                                                                   pd.CategoricalDtype)
                        else column.array},
                       index=[f"c{i}" for i in range(n)])
    obs["donor"] = [f"d{i % 3}" for i in range(n)]  # donors span the clusters
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        adata = anndata.AnnData(X=sp.csr_matrix(X) if sparse else X, obs=obs,
                                var=pd.DataFrame(index=pd.Index(gene_names, dtype=object)))
    use_raw = draw(st.booleans())
    if use_raw:  # scanpy's layout: the values in .raw, scaled ones in .X
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            adata.raw = adata
            dense = np.asarray(adata.X.toarray() if sp.issparse(adata.X) else adata.X,
                               np.float64)
            adata.X = (dense - dense.mean(axis=0)).astype(np.float32)
    kwargs = {"use_raw": use_raw, "groups": "donor" if draw(st.booleans()) else None}
    return adata, kwargs


def _genes(adata, use_raw: bool) -> set[str]:
    return {str(g) for g in (adata.raw.var_names if use_raw else adata.var_names)}


def _clusters(adata) -> set[str]:
    column = adata.obs["cl"]
    counts = column.value_counts()
    return {str(c) for c in counts.index[counts.to_numpy() > 0]}


@API
@given(drawn=atlases())
def test_marker_panels_refuse_at_the_door_or_give_panels_of_the_data(drawn):
    adata, kwargs = drawn
    clusters, genes = _clusters(adata), _genes(adata, kwargs["use_raw"])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = marker_panels(adata, "cl", n_bootstraps=3, n_features=2,
                                   max_per_class=5, **kwargs)
    except (ValueError, TypeError, DataError) as exc:
        _door(exc)
        event("refused")
        return
    event("finished")
    # the documented refusals: repeated gene names (DataError: make them unique), a
    # cluster of fewer than MIN_CELLS_PER_GROUP cells
    names = adata.raw.var_names if kwargs["use_raw"] else adata.var_names
    assert names.is_unique
    assert adata.obs["cl"].value_counts().loc[lambda c: c > 0].min() >= MIN_CELLS_PER_GROUP
    assert set(result.panels) == clusters
    for panel in result.panels.values():
        assert set(panel) <= genes
    assert set(result.table["feature"]) <= genes
    assert set(result.table["class"]) <= clusters
    for cluster, panel in result.panels.items():
        assert adata.var[f"modelmine_markers_{cluster}"].sum() >= min(1, len(panel)) or \
            not panel


def _read_back(out, result, adata, use_raw: bool) -> None:
    """Every file `modelmine markers` wrote reads back, with the names intact."""
    genes = _genes(adata, use_raw)
    markers = pd.read_csv(out / "markers.csv", keep_default_na=False, dtype=str)
    assert list(markers.columns[:2]) == ["class", "feature"]
    assert list(markers["feature"]) == [safe_cell(str(g)) for g in result.table["feature"]]
    assert list(markers["class"]) == [safe_cell(str(c)) for c in result.table["class"]]
    combos = pd.read_csv(out / "combinations.csv", keep_default_na=False, dtype=str)
    assert len(combos) == len(result.combinations)
    lines = (out / "panels.gmt").read_text(encoding="utf-8").split("\n")
    assert lines[-1] == ""
    lines = lines[:-1]
    assert len(lines) == len(result.panels)
    for line, (cluster, panel) in zip(lines, result.panels.items()):
        fields = line.split("\t")
        assert len(fields) == 2 + len(panel), (line, panel)
        assert fields[0] == _gmt_field(str(cluster))  # the cluster's name, tabs made spaces
        assert fields[2:] == [_gmt_field(str(g)) for g in panel]
        assert all("\r" not in f for f in fields)
    notes = anndata.read_h5ad(out / "annotations.h5ad")
    assert set(notes.var_names) <= genes
    assert list(notes.obs["cl"].cat.categories) == list(result.panels)
    assert (out / "report.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def _write(adata, path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        adata.write_h5ad(path)


@pytest.mark.parametrize("figures", [
    "built", pytest.param("drawn", marks=[pytest.mark.slow, pytest.mark.rendered])])
@CLI
@given(drawn=atlases())
def test_markers_cli_refuses_at_the_door_or_writes_files_that_read_back(drawn, figures,
                                                                        tmp_path_factory):
    """The report's figures are built in the fast tier, and drawn in the slow twin
    (figures="drawn") on the same examples."""
    from modelmine.cli import main
    from modelmine.singlecell import MarkerPanels

    adata, kwargs = drawn
    tmp = tmp_path_factory.mktemp("markers")
    _write(adata, tmp / "cells.h5ad")
    argv = ["markers", str(tmp / "cells.h5ad"), "--groupby", "obs:cl", "-b", "3",
            "-m", "2", "--max-per-class", "5", "--out", str(tmp / "out"),
            "-q"]
    if kwargs["use_raw"]:
        argv.append("--use-raw")
    if kwargs["groups"]:
        argv += ["--groups", "obs:donor"]
    seen: list = []
    real = MarkerPanels.write_report

    def keep(self, path, data):
        seen.append(self)
        return real(self, path, data)

    MarkerPanels.write_report = keep  # type: ignore[method-assign]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            stderr = io.StringIO()
            with contextlib.redirect_stderr(stderr):
                code = main(argv)
    finally:
        MarkerPanels.write_report = real  # type: ignore[method-assign]
    err = stderr.getvalue()
    if code == 2:  # refused at the door: one line, nothing written
        assert "internal error" not in err, err
        assert "var_names" in err or "'groupby'" in err or "'use_raw'" in err \
            or "'layer'" in err, err
        assert not (tmp / "out").exists()
        event("refused")
        return
    event("finished")
    assert code == 0, err
    _read_back(tmp / "out", seen[0], adata, kwargs["use_raw"])


def test_scanpy_plots_the_annotations_of_awkward_names(tmp_path):
    # the annotations file of integer-category clusters and names with tabs, '=', 'NA'
    # and nothing, plotted by scanpy's dotplot as `modelmine markers --help` says
    sc = pytest.importorskip("scanpy")
    import matplotlib

    from modelmine.cli import main

    matplotlib.use("Agg")
    rng = np.random.default_rng(1)
    labels = np.repeat([3, 0, 12], 12)
    X = rng.poisson(1.0, (labels.size, 8)).astype(np.float32)
    for k in range(3):
        X[labels == [3, 0, 12][k], 2 * k] += 5
    names = ["NA", "a\tb", "=1+1", "", "None", "x\ny", "g6", "g7"]
    adata = anndata.AnnData(X=sp.csr_matrix(X),
                            obs=pd.DataFrame({"cl": pd.Categorical(labels)},
                                             index=[f"c{i}" for i in range(labels.size)]),
                            var=pd.DataFrame(index=names))
    _write(adata, tmp_path / "cells.h5ad")
    assert main(["markers", str(tmp_path / "cells.h5ad"), "--groupby", "cl", "-b", "4",
                 "-m", "2", "--out", str(tmp_path / "out"), "-q"]) == 0
    notes = anndata.read_h5ad(tmp_path / "out" / "annotations.h5ad")
    assert set(notes.var_names) <= set(names)
    sc.pl.rank_genes_groups_dotplot(notes, key="modelmine_markers", n_genes=2, show=False)
    lines = (tmp_path / "out" / "panels.gmt").read_text(encoding="utf-8").splitlines()
    assert [line.split("\t")[0] for line in lines] == ["0", "3", "12"]


def test_a_carriage_return_in_a_gene_name_keeps_markers_csv_readable(tmp_path):
    # found by the property above: a gene named "g\r" was written unquoted (the csv
    # writer quotes line breaks of its line terminator, "\n", only), and pandas read the
    # "\r" as the end of a row: markers.csv came back with shifted, extra rows
    from modelmine.cli import main

    rng = np.random.default_rng(0)
    labels = np.repeat(["x", "y"], 10)
    X = rng.poisson(1.0, (20, 4)).astype(float)
    X[labels == "x", 0] += 5
    X[labels == "y", 1] += 5
    names = ["g\r", "h\rk", "g2", "g3"]
    adata = anndata.AnnData(X=sp.csr_matrix(X),
                            obs=pd.DataFrame({"cl": labels},
                                             index=[f"c{i}" for i in range(20)]),
                            var=pd.DataFrame(index=names))
    _write(adata, tmp_path / "cells.h5ad")
    assert main(["markers", str(tmp_path / "cells.h5ad"), "--groupby", "cl", "-b", "3",
                 "-m", "2", "--out", str(tmp_path / "out"), "-q"]) == 0
    table = pd.read_csv(tmp_path / "out" / "markers.csv", keep_default_na=False)
    assert set(table["feature"]) <= set(names)
    assert set(table["class"]) == {"x", "y"}
    assert table["frequency"].dtype == np.float64


def test_a_small_cluster_named_with_a_line_break_is_refused_on_one_line():
    # found by the property above: the refusal of a 2-cell cluster named "d\ne" quoted
    # the name raw, and the one-line message broke in two
    labels = np.array(["d\ne"] * 2 + ["x"] * 6 + ["y"] * 6, dtype=object)
    X = np.random.default_rng(0).poisson(1.0, (labels.size, 4)).astype(float)
    adata = anndata.AnnData(X=X, obs=pd.DataFrame({"cl": labels},
                                                  index=[f"c{i}" for i in range(14)]),
                            var=pd.DataFrame(index=[f"g{j}" for j in range(4)]))
    with pytest.raises(ValueError, match="'groupby' parameter") as info:
        marker_panels(adata, "cl", n_bootstraps=3, n_features=2)
    _door(info.value)
    assert "'d\\ne' with 2 cell(s)" in str(info.value)
