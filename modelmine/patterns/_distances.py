"""Jaccard distances between base models, vectorised.

Woznica, Nguyen and Kalousis (KDD 2012, section 2.3, "exact structure preservation") compare
base models by the Jaccard distance of their feature subsets,
``d(S_i, S_j) = 1 - |S_i & S_j| / |S_i | S_j|``; mostRep, largeMed, medClosedApr, medMaxApr
and allMed run (k-)medoids on these distances.

The intersection counts ``|S_i & S_j|`` are a Gram matrix of the b x p 0/1 matrix. Base
model subsets are small (m = 20 of thousands of features) and their column counts are very
uneven: a few features are selected by almost every model, most by a handful. The Gram
matrix is therefore split by columns: the frequently selected columns go through a dense
float32 BLAS product (cost 2 b^2 per column), the rarely selected ones through a sparse CSR
product (cost about c_j^2 per column of count c_j). Counts are exact: float32 represents
integers up to 2**24 exactly, far above any subset size.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from ..validation import param_error

__all__ = ["jaccard_distances"]

_FUNC = "jaccard_distances"


def _as_subsets(models: Any) -> np.ndarray:
    """The (b, p) boolean subsets of a BaseModels object or of a matrix."""
    subsets = getattr(models, "subsets", models)
    if sp.issparse(subsets):
        subsets = subsets.toarray()
    arr = np.asarray(subsets)
    if arr.ndim != 2:
        raise param_error("models", _FUNC, "a BaseModels or a 2-D boolean matrix (b, p)", arr)
    if arr.dtype != bool:
        if not np.isin(arr, (0, 1)).all():
            raise param_error("models", _FUNC, "a 0/1 or boolean matrix", arr)
        arr = arr.astype(bool)
    return arr


def intersection_counts(subsets: np.ndarray, *, dense_fraction: float = 0.01) -> np.ndarray:
    """``|S_i & S_j|`` for every pair of rows of a boolean (b, p) matrix, as float32 (b, b).

    Columns selected by at least ``dense_fraction * b`` rows go through a dense BLAS
    product, the others through a sparse one (see the module docstring).
    """
    b = subsets.shape[0]
    counts = subsets.sum(axis=0)
    used = counts > 0
    heavy = used & (counts >= max(1.0, dense_fraction * b))
    light = used & ~heavy
    gram = np.zeros((b, b), dtype=np.float32)
    if heavy.any():
        dense = np.ascontiguousarray(subsets[:, heavy], dtype=np.float32)
        gram += dense @ dense.T
    if light.any():
        csr = sp.csr_matrix(subsets[:, light], dtype=np.float32)
        part = (csr @ csr.T).tocoo()  # canonical: no duplicate (row, col) pairs
        gram[part.row, part.col] += part.data
    return gram


def jaccard_distances(models: Any, *, dtype: Any = np.float64) -> np.ndarray:
    """Pairwise Jaccard distances between the subsets of base models.

    ``d(S_i, S_j) = 1 - |S_i & S_j| / |S_i | S_j|`` (KDD 2012, section 2.3), with
    ``d = 0`` when both subsets are empty (as :func:`scipy.spatial.distance.pdist`).

    Parameters
    ----------
    models : BaseModels or array-like of bool, shape (b, p)
        Base models (their ``subsets`` are used) or a boolean / 0-1 matrix, one row per
        model (sparse matrices are accepted).
    dtype : numpy dtype, default=float64
        Floating type of the result (float32 halves the memory at b in the thousands).

    Returns
    -------
    ndarray of shape (b, b)
        Symmetric, zero diagonal, values in [0, 1]. Equal to
        ``squareform(pdist(subsets, "jaccard"))`` up to rounding.
    """
    subsets = _as_subsets(models)
    sizes = subsets.sum(axis=1).astype(np.float32)
    inter = intersection_counts(subsets)
    # union = |S_i| + |S_j| - |S_i & S_j|, computed in place to keep one b x b buffer.
    union = np.add.outer(sizes, sizes)
    union -= inter
    with np.errstate(invalid="ignore", divide="ignore"):
        np.divide(inter, union, out=inter, where=union > 0)
    inter[union == 0] = 1.0  # two empty subsets are identical
    del union
    if np.dtype(dtype) == np.float32:
        dist = np.subtract(1.0, inter, out=inter)
    else:
        dist = np.subtract(1.0, inter, dtype=dtype)
    np.fill_diagonal(dist, 0.0)
    np.clip(dist, 0.0, 1.0, out=dist)
    return dist
