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
