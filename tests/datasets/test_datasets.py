"""The embedded datasets: shapes, classes, lossless against the source files."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.io
import scipy.sparse as sp

import modelmine as mm

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "datasets"
SOURCES = {"colon": "colon.mat", "leukemia": "ALLAML.mat", "prostate": "Prostate-GE.mat",
           "basehock": "BASEHOCK.mat"}


@pytest.mark.parametrize("name", list(SOURCES))
def test_shapes_and_classes_match_provenance(name):
    info = mm.datasets.available().loc[name]
    X, y, names = mm.datasets.load(name, return_names=True)
    assert X.shape == (info["samples"], info["features"])
    assert names.shape == (X.shape[1],) and len(set(names)) == X.shape[1]
    labels, counts = np.unique(y, return_counts=True)
    assert info["classes"] == ", ".join(f"{k}: {v}" for k, v in zip(labels, counts))
    assert sp.issparse(X) == bool(info["sparse"])


@pytest.mark.parametrize("name", list(SOURCES))
def test_lossless_copy_of_source_file(name):
    src = SHARED / SOURCES[name]
    if not src.exists():
        pytest.skip(f"source file {src} not present (outside the project checkout)")
    mat = scipy.io.loadmat(src)
    X, y = mm.datasets.load(name)
    dense = X.toarray() if sp.issparse(X) else X
    np.testing.assert_array_equal(dense, mat["X"].astype(np.float64))
    np.testing.assert_array_equal(y, mat["Y"].ravel())
    with np.load(Path(mm.datasets.__file__).parent / "data" / f"{name}.npz") as arch:
        assert str(arch["source_sha256"]) == hashlib.sha256(src.read_bytes()).hexdigest()


def test_as_frame_returns_named_dataframe():
    X, y = mm.datasets.load_colon(as_frame=True)
    assert isinstance(X, pd.DataFrame) and isinstance(y, pd.Series)
    assert list(X.columns[:2]) == ["g0001", "g0002"] and X.shape == (62, 2000)


def test_unknown_dataset_lists_the_known_ones():
    with pytest.raises(ValueError, match=r"'name' parameter .* must be one of 'colon'.*Got "
                                         r"'colonn' instead. Did you mean 'colon'\?"):
        mm.datasets.load("colonn")


def test_sparse_dataset_refuses_frame():
    with pytest.raises(ValueError, match="as_frame"):
        mm.datasets.load("basehock", as_frame=True)


@pytest.mark.parametrize("name", list(mm.datasets.SHARED_FILES))
def test_shared_files_by_name_equal_the_mat_files(name, monkeypatch):
    src = SHARED / mm.datasets.SHARED_FILES[name]
    if not src.exists():
        pytest.skip(f"shared file {src} not present (outside the project checkout)")
    mat = scipy.io.loadmat(src)
    monkeypatch.delenv("MODELMINE_DATA_HOME", raising=False)
    X, y = mm.datasets.load(name)  # found beside the checkout
    dense = X.toarray() if sp.issparse(X) else np.asarray(X)
    np.testing.assert_array_equal(dense, np.asarray(mat["X"].todense() if sp.issparse(mat["X"])
                                                    else mat["X"], dtype=np.float64))
    np.testing.assert_array_equal(np.asarray(y), mat["Y"].ravel())
    # the same file through the environment variable and through data_home
    monkeypatch.setenv("MODELMINE_DATA_HOME", str(SHARED))
    assert mm.datasets.shared_path(name) == src
    assert mm.datasets.shared_path(name, data_home=SHARED) == src


def test_shared_file_missing_names_the_file_and_the_remedy(tmp_path):
    with pytest.raises(FileNotFoundError,
                       match=r"'PCMAC.mat' was looked for in .* not found\. Pass "
                             r"data_home=FOLDER or set MODELMINE_DATA_HOME"):
        mm.datasets.load("pcmac", data_home=tmp_path)


def test_min_df_keeps_the_words_of_enough_documents():
    X, _, names = mm.datasets.load("basehock", return_names=True)
    Xf, _, kept = mm.datasets.load("basehock", return_names=True, min_df=20)
    df = np.asarray((X > 0).sum(axis=0)).ravel()  # brute force: documents per word
    np.testing.assert_array_equal(kept, names[df >= 20])
    assert (Xf != X[:, df >= 20]).nnz == 0
    assert 0 < Xf.shape[1] < X.shape[1]


@pytest.mark.parametrize("bad, match", [
    (dict(min_df=0), r"'min_df' .* must be an int >= 1\. Got 0"),
    (dict(min_df=2.5), r"'min_df' .* must be an int >= 1\. Got 2.5"),
    (dict(name="colon", min_df=5), r"'min_df' .* applies to the text data .* Got min_df=5 "
                                   r"for 'colon'"),
])
def test_min_df_refused(bad, match):
    kwargs = dict(name="basehock") | bad
    with pytest.raises(ValueError, match=match):
        mm.datasets.load(**kwargs)
