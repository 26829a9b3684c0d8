"""Data readers of the CLI: every format round-trips the real data; bad input is one line."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scipy.io
import scipy.sparse as sp

import modelmine as mm
from modelmine.datasets import read_data
from modelmine.exceptions import DataError


@pytest.fixture(scope="module")
def colon_frame() -> pd.DataFrame:
    X, y, names = mm.datasets.load_colon(return_names=True)
    frame = pd.DataFrame(X[:, :40].astype(np.int64), columns=names[:40])
    frame["diagnosis"] = np.where(y == 1, "normal", "tumour")
    return frame


@pytest.mark.parametrize("fmt", ["csv", "tsv", "csv.gz", "parquet"])
def test_tables_round_trip_real_data(tmp_path, colon_frame, fmt):
    path = tmp_path / f"colon.{fmt}"
    if fmt == "parquet":
        colon_frame.to_parquet(path, index=False)
    else:
        colon_frame.to_csv(path, index=False, sep="\t" if fmt == "tsv" else ",")
    data = read_data(path, "diagnosis")
    # The independent truth: the embedded data itself.
    np.testing.assert_array_equal(data.X, colon_frame.drop(columns="diagnosis").to_numpy())
    assert data.feature_names.tolist() == list(colon_frame.columns[:-1])
    assert data.y.tolist() == colon_frame["diagnosis"].tolist()
    assert data.shape == (62, 40)


@pytest.mark.parametrize("sparse", [False, True])
def test_mat_files_dense_and_sparse(tmp_path, sparse):
    X, y = mm.datasets.load_colon()
    stored = sp.csc_matrix(X) if sparse else X.astype(np.int16)
    path = tmp_path / "colon.mat"
    scipy.io.savemat(path, {"X": stored, "Y": y.reshape(-1, 1)})
    data = read_data(path)
    assert sp.issparse(data.X) == sparse
    dense = data.X.toarray() if sparse else data.X
    np.testing.assert_array_equal(dense, X)
    np.testing.assert_array_equal(data.y, y)
    assert data.target == "Y"


def test_shared_scikit_feature_file_is_read_as_the_embedded_copy():
    path = "/work/shared/datasets/colon.mat"
    import os

    if not os.path.exists(path):
        pytest.skip("the shared datasets directory is not present")
    data = read_data(path)
    X, y = mm.datasets.load_colon()
    np.testing.assert_array_equal(data.X, X)
    np.testing.assert_array_equal(data.y, y)


def test_embedded_prefix():
    data = read_data("embedded:leukemia")
    assert data.shape == (72, 7129)
    assert set(np.unique(data.y)) == {"ALL", "AML"}  # the classes by name (Golub et al.)


@pytest.mark.parametrize(
    ("content", "target", "pattern"),
    [
        ("", "y", "is empty"),
        ("a,b,y\n", "y", "no data rows"),
        ('a,b,y\n1,2,"x\n', "y", "Malformed CSV"),
        ("a,b,y\n1,2,3\n1,2,3,4,5\n", "y", "Malformed CSV.*Expected 3 fields"),
        ("gene_1,gene_2,diagnosis\n1,2,a\n3,4,b\n", "diagnsis", "Close names: 'diagnosis'"),
        ("gene_1,gene_2,label\n1,x,a\n3,4,b\n", "label", "Non-numeric feature column.*gene_2"),
        ("a;b;y\n1;2;a\n", "y", "single column"),
        ("a,b,y\n1,,a\n3,4,b\n", "y", "Missing or infinite values.*'b'"),
        ("a,b,y\n1,2,\n3,4,b\n", "y", "missing label"),
    ],
)
def test_bad_tables_give_one_line_errors(tmp_path, content, target, pattern):
    path = tmp_path / "bad.csv"
    path.write_text(content)
    with pytest.raises(DataError, match=pattern) as info:
        read_data(path, target)
    assert "\n" not in str(info.value)


def test_missing_file_and_hint_for_embedded_name(tmp_path):
    with pytest.raises(DataError, match="No such file"):
        read_data(tmp_path / "nope.csv", "y")
    with pytest.raises(DataError, match="embedded:colon"):
        read_data("colon")


def test_binary_garbage_and_unknown_extension(tmp_path):
    junk = tmp_path / "junk.csv"
    junk.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(DataError) as info:
        read_data(junk, "y")
    assert "\n" not in str(info.value)
    other = tmp_path / "data.xlsx"
    other.write_text("x")
    with pytest.raises(DataError, match="Cannot tell the format"):
        read_data(other, "y")
    bad_mat = tmp_path / "bad.mat"
    bad_mat.write_bytes(b"not a matlab file at all" * 10)
    with pytest.raises(DataError, match="Cannot read MATLAB"):
        read_data(bad_mat)


def test_table_without_target_lists_columns(tmp_path, colon_frame):
    path = tmp_path / "c.csv"
    colon_frame.to_csv(path, index=False)
    with pytest.raises(DataError, match="--target"):
        read_data(path)
