"""Data as biologists keep it: AnnData, sample-ID columns, genes-by-samples tables, labels in
another file, continuous targets. Real data (leukemia, colon) converted in each test; the
independent truth is the embedded copy, row-matched by the sample IDs the test wrote."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

import modelmine as mm
from modelmine.datasets import ManyClassesWarning, from_anndata, read_data
from modelmine.exceptions import DataError

anndata = pytest.importorskip("anndata")


@pytest.fixture(scope="module")
def leukemia():
    """Leukemia as raw intensities (tens of thousands, as a scanner gives them)."""
    X, y, names = mm.datasets.load_leukemia(return_names=True)
    X = X[:, :300]
    raw = np.round(2.0 ** (X - X.min() + 6.0))  # 64 .. about 10^5, strictly positive
    ids = np.array([f"GSM{7100 + i}" for i in range(X.shape[0])])
    labels = np.where(y == np.unique(y)[0], "ALL", "AML")
    return raw, labels, np.asarray(names[:300], dtype=str), ids


def _adata(raw, labels, names, ids, *, sparse=False):
    obs = pd.DataFrame({"subtype": pd.Categorical(labels), "batch": "b1"}, index=ids)
    adata = anndata.AnnData(
        X=sp.csr_matrix(raw) if sparse else raw, obs=obs, var=pd.DataFrame(index=names)
    )
    adata.layers["log2"] = np.log2(raw + 1.0)
    return adata


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("backed", [False, True])
def test_h5ad_reads_x_layer_names_and_obs(tmp_path, leukemia, sparse, backed):
    raw, labels, names, ids = leukemia
    path = tmp_path / "leuk.h5ad"
    _adata(raw, labels, names, ids, sparse=sparse).write_h5ad(path)
    data = read_data(path, "obs:subtype", backed=backed)
    assert sp.issparse(data.X) == sparse
    dense = data.X.toarray() if sparse else data.X
    np.testing.assert_array_equal(dense, raw)
    assert data.y.tolist() == labels.tolist()
    assert data.feature_names.tolist() == names.tolist()
    assert data.sample_names.tolist() == ids.tolist()
    assert (data.format, data.target) == ("h5ad", "obs:subtype")
    layer = read_data(path, "obs:subtype", layer="log2", backed=backed)
    np.testing.assert_allclose(layer.X, np.log2(raw + 1.0))
    assert layer.layer == "log2"


def test_h5ad_bad_column_layer_and_missing_target(tmp_path, leukemia):
    path = tmp_path / "leuk.h5ad"
    _adata(*leukemia).write_h5ad(path)
    with pytest.raises(DataError, match=r"obs:diagnosis is not a column.*'subtype'"):
        read_data(path, "obs:diagnosis")
    with pytest.raises(DataError, match=r"--layer 'counts' is not a layer.*'log2'"):
        read_data(path, "obs:subtype", layer="counts")
    with pytest.raises(DataError, match=r"--target obs:COLUMN"):
        read_data(path)
    with pytest.raises(DataError, match=r"--transpose does not apply"):
        read_data(path, "obs:subtype", transpose=True)


def test_anndata_object_goes_through_run_and_bootstrap(leukemia):
    raw, labels, names, ids = leukemia
    adata = _adata(raw, labels, names, ids)
    base = mm.bootstrap(
        adata, "obs:subtype", selector="anova", n_bootstraps=4, n_features=5, random_state=0
    )
    truth = mm.bootstrap(
        raw,
        labels,
        selector="anova",
        n_bootstraps=4,
        n_features=5,
        feature_names=names,
        random_state=0,
    )
    assert base == truth
    run = mm.run(
        adata,
        "obs:subtype",
        selector="anova",
        operators=["mostFreq"],
        n_bootstraps=4,
        n_features=5,
        random_state=0,
    )
    assert run.base_models == truth
    assert run.expression.index.tolist() == ids.tolist()
    layer = from_anndata(adata, "obs:subtype", layer="log2")
    np.testing.assert_allclose(layer.X, np.log2(raw + 1.0))


def test_index_column_is_detected_with_a_note(tmp_path, leukemia):
    raw, labels, names, ids = leukemia
    frame = pd.DataFrame(raw, columns=names)
    frame.insert(0, "sample_id", ids)
    frame["subtype"] = labels
    path = tmp_path / "expr.csv"
    frame.to_csv(path, index=False)
    data = read_data(path, "subtype")
    np.testing.assert_array_equal(data.X, raw)
    assert data.sample_names.tolist() == ids.tolist()
    assert len(data.notes) == 1 and "'sample_id'" in data.notes[0]
    named = read_data(path, "subtype", index_col="sample_id")
    assert named.notes == () and named.sample_names.tolist() == ids.tolist()
    with pytest.raises(DataError, match=r"--index-col 'sample' is not a column"):
        read_data(path, "subtype", index_col="sample")


def test_duplicate_sample_ids_are_refused(tmp_path, leukemia):
    raw, labels, names, ids = leukemia
    frame = pd.DataFrame(raw[:, :5], columns=names[:5])
    frame.insert(0, "sample_id", np.concatenate([ids[:-1], ids[:1]]))
    frame["subtype"] = labels
    frame.to_csv(tmp_path / "dup.csv", index=False)
    with pytest.raises(DataError, match=r"Duplicate sample IDs in column 'sample_id'.*GSM7100"):
        read_data(tmp_path / "dup.csv", "subtype", index_col="sample_id")


def test_labels_file_in_another_order_with_missing_and_extra_ids(tmp_path, leukemia):
    raw, labels, names, ids = leukemia
    expr = pd.DataFrame(raw, columns=names, index=pd.Index(ids, name="ID_REF"))
    expr.to_csv(tmp_path / "expr.tsv", sep="\t")
    rng = np.random.default_rng(3)
    order = rng.permutation(len(ids))
    dropped = set(order[:4].tolist())  # four samples have no label
    kept = [i for i in order if i not in dropped]
    table = pd.DataFrame(
        {
            "geo_accession": ids[kept],
            "age": rng.integers(20, 70, len(kept)),
            "diagnosis": labels[kept],
        }
    )
    extra = pd.DataFrame(
        {"geo_accession": ["GSM9999", "GSM9998"], "age": [1, 2], "diagnosis": ["ALL", "AML"]}
    )
    pd.concat([table, extra]).to_csv(tmp_path / "labels.csv", index=False)
    data = read_data(
        tmp_path / "expr.tsv", labels=tmp_path / "labels.csv", labels_column="diagnosis"
    )
    keep_rows = sorted(set(range(len(ids))) - dropped)  # data order is kept
    assert data.sample_names.tolist() == ids[keep_rows].tolist()
    np.testing.assert_array_equal(data.X, raw[keep_rows])
    assert data.y.tolist() == labels[keep_rows].tolist()
    assert data.target == "diagnosis"
    assert any("4 of the 72 samples" in n for n in data.notes)
    assert any("GSM9999" in n for n in data.notes)
    with pytest.raises(DataError, match=r"name the label column with --labels-column"):
        read_data(tmp_path / "expr.tsv", labels=tmp_path / "labels.csv")


def test_labels_that_match_nothing_say_how_many_and_show_ids(tmp_path, leukemia):
    raw, labels, names, ids = leukemia
    pd.DataFrame(raw[:, :5], columns=names[:5], index=pd.Index(ids, name="id")).to_csv(
        tmp_path / "expr.csv"
    )
    pd.DataFrame({"id": [f"S{i}" for i in range(len(ids))], "y": labels}).to_csv(
        tmp_path / "labels.csv", index=False
    )
    with pytest.raises(DataError, match=r"matches 0 of the 72 samples.*'GSM7100'.*'S0'"):
        read_data(tmp_path / "expr.csv", labels=tmp_path / "labels.csv")
    pd.DataFrame({"id": [ids[0], ids[0]], "y": ["ALL", "AML"]}).to_csv(
        tmp_path / "dup.csv", index=False
    )
    with pytest.raises(DataError, match=r"Duplicate sample IDs.*--labels"):
        read_data(tmp_path / "expr.csv", labels=tmp_path / "dup.csv")


def test_genes_by_samples_table_is_transposed(tmp_path, leukemia):
    raw, labels, names, ids = leukemia
    genes_by_samples = pd.DataFrame(raw.T, columns=ids)
    genes_by_samples.insert(0, "probe", names)
    genes_by_samples.to_csv(tmp_path / "series.csv", index=False)
    pd.DataFrame({"sample": ids[::-1], "class": labels[::-1]}).to_csv(
        tmp_path / "labels.csv", index=False
    )
    data = read_data(tmp_path / "series.csv", labels=tmp_path / "labels.csv", transpose=True)
    np.testing.assert_array_equal(data.X, raw)
    assert data.feature_names.tolist() == names.tolist()
    assert data.y.tolist() == labels.tolist()
    # A row of class labels inside the genes-by-samples table works as --target.
    with_row = pd.concat(
        [genes_by_samples, pd.DataFrame([["class", *labels]], columns=genes_by_samples.columns)]
    )
    with_row.to_csv(tmp_path / "with_row.csv", index=False)
    inside = read_data(tmp_path / "with_row.csv", "class", transpose=True)
    np.testing.assert_array_equal(inside.X, raw)
    assert inside.y.tolist() == labels.tolist()
    # Forgetting --transpose: the label IDs are the column headers, and the error says so
    # (issue 26: it said "matches 0 of the samples" and nothing more)
    with pytest.raises(DataError, match=rf"{len(ids)} of the label IDs are column headers "
                                        r"of .*series.csv.*Did you mean --transpose\?"):
        read_data(tmp_path / "series.csv", labels=tmp_path / "labels.csv")


def _run_on(y):
    """A small run on noise with the target ``y``: the door that checks a target."""
    X = np.random.default_rng(0).normal(size=(len(y), 6))
    return mm.run(X, y, selector="anova", n_bootstraps=2, n_features=2, operators=["mostFreq"],
                  progress=False)


@pytest.mark.parametrize(
    "values",
    [
        np.linspace(0.5, 99.5, 40),  # non-integer: a measurement
        np.arange(40) * 3 + 18,  # one value per sample: an age or an ID
    ],
)
def test_continuous_target_is_refused(values):
    with pytest.raises(DataError,
                       match=r"looks continuous.*classification.*--outcome regression.*bin"):
        _run_on(values)


def test_many_classes_for_few_samples_warn_and_class_codes_pass():
    codes = np.repeat([1, 2, 3], 10)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _run_on(codes)  # integer class codes are classes
        _run_on(np.where(codes == 1, 0.0, 1.0))
    many = np.repeat([f"c{i}" for i in range(12)], 3)  # 12 classes of 3 samples
    with pytest.warns(ManyClassesWarning, match=r"12 classes for 36 samples"):
        _run_on(many)


def test_tiny_classes_are_named_whatever_the_average():
    # issue 26: classes of 2, 2 and 4 among 96 samples (average 24) passed silently
    import warnings

    labels = np.array(["A"] * 44 + ["B"] * 44 + ["C"] * 2 + ["D"] * 2 + ["E"] * 4)
    with pytest.warns(ManyClassesWarning, match=r"3 classes of fewer than 5 samples: "
                                                r"C \(2\), D \(2\), E \(4\)"):
        _run_on(labels)
    with warnings.catch_warnings():  # every class of 5 or more: nothing to say
        warnings.simplefilter("error")
        _run_on(np.array(["A"] * 40 + ["B"] * 5))


def test_quiet_keeps_warnings_about_the_data(tmp_path, capsys):
    # --quiet silences progress and notes, never a warning on stderr (issue 26)
    from modelmine.cli import main

    X, y = mm.datasets.load_colon()
    labels = np.where(np.asarray(y) == np.unique(y)[0], "normal", "tumour").astype(object)
    labels[:3] = "rare"
    frame = pd.DataFrame(np.asarray(X)[:, :40], columns=[f"g{j}" for j in range(40)])
    frame["class"] = labels
    path = tmp_path / "tiny.csv"
    frame.to_csv(path, index=False)
    assert main(["--quiet", "run", str(path), "--target", "class", "--selector", "anova",
                 "-b", "10", "-m", "5", "-o", "mostFreq", "--out", str(tmp_path / "r")]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "1 class of fewer than 5 samples: rare (3)" in captured.err


def test_transposed_table_refuses_duplicate_feature_ids(tmp_path):
    frame = pd.DataFrame({"gene": ["TP53", "MYC", "TP53"], "s1": [1.0, 2.0, 3.0],
                          "s2": [4.0, 5.0, 6.0]})
    frame.to_csv(tmp_path / "expr.tsv", sep="\t", index=False)
    pd.DataFrame({"id": ["s1", "s2"], "y": ["a", "b"]}).to_csv(tmp_path / "labels.csv",
                                                               index=False)
    with pytest.raises(DataError, match=r"Duplicate feature IDs in column 'gene' of "
                                        r"'[^']*expr.tsv'.*--transpose.*TP53"):
        read_data(tmp_path / "expr.tsv", labels=tmp_path / "labels.csv", transpose=True)


def test_drop_leaves_metadata_columns_out(tmp_path, capsys):
    # issue 26: a table with sex / batch columns had to be rewritten by hand
    from modelmine.cli import main

    X, y = mm.datasets.load_colon()
    frame = pd.DataFrame(np.asarray(X)[:, :30], columns=[f"g{j}" for j in range(30)])
    frame.insert(0, "sex", np.where(np.arange(len(y)) % 2, "F", "M"))
    frame["batch"] = np.arange(len(y)) % 3
    frame["class"] = np.asarray(y)
    path = tmp_path / "with_meta.csv"
    frame.to_csv(path, index=False)
    data = read_data(path, "class", drop=["sex", "batch"])
    np.testing.assert_array_equal(data.X, np.asarray(X)[:, :30])
    assert data.feature_names.tolist() == [f"g{j}" for j in range(30)]
    assert any("left out 2 column(s)" in note for note in data.notes)
    with pytest.raises(DataError, match=r"--drop names 'age', not a column of"):
        read_data(path, "class", drop=["sex", "age"])
    out = tmp_path / "run"
    assert main(["--quiet", "run", str(path), "--target", "class", "--drop", "sex", "--drop",
                 "batch", "--selector", "anova", "-b", "8", "-m", "5", "-o", "mostFreq",
                 "--out", str(out)]) == 0
    record = (out / "run.json").read_text()
    assert '"drop": [' in record and '"sex"' in record
    assert main(["run", str(path), "--target", "class", "--drop", "age", "--out",
                 str(tmp_path / "bad")]) == 2
    assert "--drop names 'age'" in capsys.readouterr().err
