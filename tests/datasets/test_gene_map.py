"""Probe IDs to gene symbols (``feature_map=``, ``--gene-map``): the collapse of the probes
of one gene against limma's documented ``avereps`` (the mean of the replicate rows, one row
per ID in the order of first appearance) and WGCNA's ``collapseRows`` "MaxMean" (the row of
highest mean stands for its group), both by brute force, and against limma itself when R
and Debian's r-bioc-limma are installed (``make limma``)."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

import modelmine as mm
from modelmine.datasets import collapse_features, read_feature_map


@pytest.fixture(scope="module")
def arrays():
    """Raw intensities in the tens of thousands, GEO-like probe IDs, up to five probes per
    gene, a missing symbol, GEO's '---' and an ambiguous 'A /// B'."""
    rng = np.random.default_rng(7)
    probes = [f"{1007 + i}_s_at" for i in range(40)]
    genes = [f"G{rng.integers(0, 12)}" for _ in range(40)]
    genes[3], genes[9], genes[17] = "---", "", "TP53 /// TP53TG1"
    X = rng.lognormal(9.5, 1.2, size=(15, 40))  # about 13,000 on average
    return X, probes, dict(zip(probes, genes, strict=True))


def _avereps_by_hand(X, probes, mapping, keep):
    """limma's avereps: one column per ID (the gene, or the probe's own ID when unmapped
    and kept), in the order of first appearance, the mean of its columns."""
    ids = []
    for p in probes:
        g = mapping[p]
        ids.append(p if g in ("", "---") or "///" in g else g)
    order = list(dict.fromkeys(i for i, p in zip(ids, probes, strict=True)
                               if keep or i != p))
    return order, np.column_stack([X[:, [k for k, i in enumerate(ids) if i == o]]
                                   .mean(axis=1) for o in order])


def _maxmean_by_hand(X, probes, mapping):
    ids = [p if mapping[p] in ("", "---") or "///" in mapping[p] else mapping[p]
           for p in probes]
    order = list(dict.fromkeys(ids))
    cols = []
    for o in order:
        members = [k for k, i in enumerate(ids) if i == o]
        means = X[:, members].mean(axis=0)
        cols.append(X[:, members[int(np.argmax(means))]])
    return order, np.column_stack(cols)


@pytest.mark.parametrize("keep", [True, False])
def test_mean_is_limmas_avereps(arrays, keep):
    X, probes, mapping = arrays
    out, names, record = collapse_features(X, probes, mapping, rule="mean",
                                           unmapped="keep" if keep else "drop")
    order, expected = _avereps_by_hand(X, probes, mapping, keep)
    assert names == order
    np.testing.assert_allclose(out, expected, rtol=1e-13)
    assert record["unmapped"] == 3 and record["ambiguous"] == 1
    assert record["mapped"] + record["unmapped"] == 40
    sparse, sparse_names, _ = collapse_features(sp.csr_matrix(X), probes, mapping,
                                                rule="mean", unmapped="keep" if keep
                                                else "drop")
    assert sparse_names == names and sp.issparse(sparse)
    np.testing.assert_allclose(sparse.toarray(), out, rtol=1e-13)


def test_max_mean_is_wgcnas_collapse_rows(arrays):
    X, probes, mapping = arrays
    out, names, record = collapse_features(X, probes, mapping)
    order, expected = _maxmean_by_hand(X, probes, mapping)
    assert names == order
    np.testing.assert_array_equal(out, expected)  # chosen columns, values untouched
    assert record["rule"] == "max-mean" and record["features"] == len(order)
    # tied means: the first probe in the data's order (R's which.max)
    tied = np.array([[1.0, 3.0], [3.0, 1.0]])
    np.testing.assert_array_equal(collapse_features(tied, ["a", "b"],
                                                    {"a": "G", "b": "G"})[0], [[1.0], [3.0]])


@pytest.mark.skipif(shutil.which("Rscript") is None,
                    reason="R is not installed (make limma installs r-base-core and "
                           "r-bioc-limma)")
def test_mean_equals_limma_itself(arrays, tmp_path):
    X, probes, mapping = arrays
    ok = subprocess.run(["Rscript", "-e", "suppressMessages(library(limma))"],
                        capture_output=True, check=False)
    if ok.returncode != 0:
        pytest.skip("R has no limma (make limma installs Debian's r-bioc-limma)")
    out, names, _ = collapse_features(X, probes, mapping, rule="mean")
    ids = [p if mapping[p] in ("", "---") or "///" in mapping[p] else mapping[p]
           for p in probes]
    pd.DataFrame(X.T).assign(ID=ids).to_csv(tmp_path / "x.csv", index=False)
    script = (f"suppressMessages(library(limma)); d <- read.csv('{tmp_path / 'x.csv'}', "
              "check.names=FALSE); id <- d$ID; x <- as.matrix(d[, colnames(d) != 'ID']); "
              f"y <- avereps(x, ID=id); write.csv(y, '{tmp_path / 'y.csv'}')")
    subprocess.run(["Rscript", "-e", script], check=True, capture_output=True)
    theirs = pd.read_csv(tmp_path / "y.csv", index_col=0)
    assert list(theirs.index) == names
    np.testing.assert_allclose(out, theirs.to_numpy().T, rtol=1e-12)


def test_a_geo_platform_table_maps_a_run_and_is_recorded(arrays, tmp_path):
    X, probes, mapping = arrays
    table = tmp_path / "GPL.txt"
    lines = ["#ID = probe", "#Gene Symbol = symbol", "ID\tSPOT_ID\tGene Symbol"]
    lines += [f"{p}\t--\t{g}" for p, g in mapping.items()]
    table.write_text("\n".join(lines) + "\n")
    assert read_feature_map(table, ("ID", "Gene Symbol")) == mapping
    y = np.repeat([0, 1], [7, 8])
    run = mm.run(pd.DataFrame(X, columns=probes), y, selector="anova", n_bootstraps=4,
                 n_features=3, operators=["mostFreq"], feature_map=table,
                 feature_map_columns=["ID", "Gene Symbol"], unmapped="drop",
                 progress=False)
    expected, _ = _avereps_by_hand(X, probes, mapping, keep=False)
    assert [str(f) for f in run.base_models.feature_names] == expected
    assert set(run.effects().feature) == set(expected)
    assert run.settings["feature_map"] == mapping and run.settings["unmapped"] == "drop"
    assert "40 probes mapped to gene symbols" in run.data["feature_map"]
    assert "3 probes without a single symbol, 1 of them mapping to several genes, " \
           "dropped" in run.data["feature_map"]
    run.save(tmp_path / "run", report=False)
    assert mm.MiningRun.load(tmp_path / "run").spec.feature_map == mapping
    with pytest.raises(ValueError, match="'feature_map_columns' parameter of run must be "
                                         "columns of the gene map"):
        mm.run(X, y, selector="anova", feature_map=table,
               feature_map_columns=("ID", "Symbol"))
    with pytest.raises(ValueError, match="'collapse' parameter of RunSpec must be one of "
                                         "'max-mean', 'mean'"):
        mm.RunSpec(selector="anova", collapse="median")
