"""Artificial features appended to the data: permuted decoys and model-X knockoffs.

What the ``stabl`` operator needs (Hedou et al. 2024): features known to be irrelevant,
selected alongside the real ones, whose selection frequencies estimate the false discovery
proportion of a threshold.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp
from threadpoolctl import threadpool_limits

from ..validation import param_error

__all__ = ["add_artificial_features"]

_FUNC = "bootstrap"


def add_artificial_features(X: Any, kind: str, rng: np.random.Generator,
                            members: list[np.ndarray] | None = None) -> Any:
    """``[X, A]``: X with p artificial features appended, one per real feature.

    - ``"permutation"``: column j of A is column j of X with its rows permuted, each column
      independently (Stabl's "random permutation" decoys, Hedou et al. 2024, Methods;
      Boruta's shadow features, Kursa and Rudnicki 2010): same marginal distribution, no
      association with y or with the other features.
    - ``"knockoff"``: Gaussian model-X knockoffs (Candes et al. 2018) with the
      equicorrelated construction of ``knockpy`` (as Stabl does): same covariance among
      themselves and with X as X has, independent of y given X. Dense data only.

    Sparse X stays sparse (permutations move the stored rows).

    With ``members`` (the rows of each group, :meth:`._design.SampleDesign.members`), a
    decoy permutes whole groups instead of rows: the groups' blocks of values, taken in a
    random order of the groups, fill the rows laid out group after group. A block stays
    contiguous, so the decoy keeps the within-group correlation a real feature has (a
    patient's samples resemble each other) while losing any association with y; blocks of
    unequal size straddle a group boundary where sizes differ.
    """
    n, p = X.shape
    if kind == "permutation":
        if members is None:
            perms = rng.permuted(np.tile(np.arange(n), (p, 1)), axis=1)
        else:
            perms = _group_permutations(members, n, p, rng)
        if sp.issparse(X):
            Xc = sp.csc_matrix(X, copy=True)
            inverse = np.argsort(perms, axis=1)
            cols = np.repeat(np.arange(p), np.diff(Xc.indptr))
            Xc.indices = inverse[cols, Xc.indices].astype(Xc.indices.dtype)
            Xc.has_sorted_indices = False
            Xc.sort_indices()
            return sp.hstack([sp.csr_matrix(X), Xc.tocsr()], format="csr")
        A = np.take_along_axis(np.asarray(X), perms.T, axis=0)
        return np.hstack([X, A])
    return np.hstack([X, _knockoffs(X, rng)])


def _group_permutations(members: list[np.ndarray], n: int, p: int,
                        rng: np.random.Generator) -> np.ndarray:
    """``perms[j, i]``: the row whose value decoy j puts in row i, moving whole groups."""
    layout = np.concatenate(members)  # the rows, group after group
    sizes = np.array([m.size for m in members])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    orders = rng.permuted(np.tile(np.arange(sizes.size), (p, 1)), axis=1)
    perms = np.empty((p, n), dtype=np.int64)
    within = np.arange(n)
    for j in range(p):
        block_sizes = sizes[orders[j]]
        offsets = within - np.repeat(np.cumsum(block_sizes) - block_sizes, block_sizes)
        source = layout[np.repeat(starts[orders[j]], block_sizes) + offsets]
        perms[j, layout] = source
    return perms


def _knockoffs(X: Any, rng: np.random.Generator) -> np.ndarray:
    if sp.issparse(X):
        raise param_error("artificial_features", _FUNC, "'permutation' for sparse data "
                          "(Gaussian knockoffs need a dense covariance)", "knockoff")
    try:
        from knockpy.knockoffs import GaussianSampler
    except ImportError:
        raise param_error("artificial_features", _FUNC, "'permutation' unless the knockpy "
                          "package is installed (pip install knockpy)", "knockoff",
                          exc=ImportError) from None
    # knockpy draws from numpy's global generator: seed it from ours, then restore it.
    state = np.random.get_state()  # noqa: NPY002
    np.random.seed(int(rng.integers(0, 2**32 - 1)))  # noqa: NPY002
    try:
        with threadpool_limits(limits=1):
            sampler = GaussianSampler(np.asarray(X, dtype=np.float64),
                                      method="equicorrelated")
            return np.asarray(sampler.sample_knockoffs(), dtype=np.float64)
    finally:
        np.random.set_state(state)  # noqa: NPY002
