"""The [0, 1] scaling of ``datasets.load(..., scale="minmax")`` (WEKA's Normalize), on its
own: against scikit-learn's ``MinMaxScaler`` on dense and sparse input, constant columns,
and sparse data it refuses (issue 38 item 6; the public door is tested in
``tests/datasets/test_datasets.py``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

import modelmine as mm
from modelmine.datasets._loaders import _minmax_scale

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "datasets"


def _sklearn_minmax(X):
    """The reference: scikit-learn's MinMaxScaler on the dense values."""
    from sklearn.preprocessing import MinMaxScaler

    dense = X.toarray() if sp.issparse(X) else np.asarray(X, dtype=np.float64)
    return MinMaxScaler().fit_transform(dense)


def test_scale_minmax_on_pcmac_read_by_read_data():
    src = SHARED / "PCMAC.mat"
    if not src.exists():
        pytest.skip(f"shared file {src} not present (outside the project checkout)")

    X = mm.datasets.read_data(src).X  # the reader gives PCMAC's counts as a dense array
    ref = _sklearn_minmax(X)
    Xs, _ = mm.datasets.load("pcmac", data_home=SHARED, scale="minmax")
    np.testing.assert_allclose(Xs, ref, rtol=0, atol=1e-12)
    # the same counts as a sparse matrix take the sparse route and stay sparse
    Xsp = _minmax_scale(sp.csr_matrix(X))
    assert sp.issparse(Xsp) and Xsp.nnz == np.count_nonzero(ref)
    np.testing.assert_allclose(Xsp.toarray(), ref, rtol=0, atol=1e-12)


def test_scale_minmax_constant_columns_become_zero_and_frame_keeps_names():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(9, 4)) * 1e4
    X[:, 2] = 3.5  # constant: 0 in WEKA's Normalize and in MinMaxScaler
    np.testing.assert_allclose(_minmax_scale(X), _sklearn_minmax(X), rtol=0, atol=1e-12)
    assert (_minmax_scale(X)[:, 2] == 0).all()
    Xs, ys = mm.datasets.load("colon", as_frame=True, scale="minmax")
    assert list(Xs.columns[:2]) == ["x0", "x1"] and ys.name == "class"
    np.testing.assert_allclose(Xs.to_numpy(), _sklearn_minmax(mm.datasets.load("colon")[0]),
                               rtol=0, atol=1e-12)


def test_scale_minmax_refuses_sparse_data_whose_minimum_is_not_zero():
    X = sp.csr_matrix(np.array([[0.0, 2.0, 4.0], [-1.0, 0.0, -2.0], [3.0, 0.0, 5.0]]))
    with pytest.raises(mm.exceptions.DataError,
                       match=r"1 column\(s\) have negative values beside implicit zeros "
                             r"\(column 0: minimum -1\)\. Densify"):
        _minmax_scale(X)
    np.testing.assert_allclose(_minmax_scale(X.toarray()), _sklearn_minmax(X), atol=1e-12)
    # negative values in a full column (no implicit zero) scale and stay sparse
    full = sp.csr_matrix(X.toarray()[:, 1:])
    np.testing.assert_allclose(_minmax_scale(full).toarray(), _sklearn_minmax(full),
                               atol=1e-12)
