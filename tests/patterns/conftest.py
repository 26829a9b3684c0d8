"""Base models of the sparse text data sets (BASEHOCK embedded, PCMAC from the shared
directory), for the equality tests of mining and k-medoids on text-shaped transactions."""

from __future__ import annotations

import functools
import os

import numpy as np
import pytest

import modelmine as mm

PCMAC = "/work/shared/datasets/PCMAC.mat"


@functools.cache
def _text_subsets(name: str, n_rows: int, b: int, m: int) -> np.ndarray:
    if name == "basehock":
        X, y = mm.datasets.load_basehock()[:2]
    else:
        data = mm.datasets.read_data(PCMAC)
        X, y = data.X, data.y
    rows = np.random.default_rng(0).choice(X.shape[0], n_rows, replace=False)
    base = mm.bootstrap(
        X[rows],
        np.asarray(y)[rows],
        selector="anova",
        n_bootstraps=b,
        n_features=m,
        random_state=0,
        fit_full=False,
        progress=False,
    )
    return base.subsets


@pytest.fixture(params=["basehock", "pcmac"])
def text_subsets(request):
    """A factory ``(n_rows, b, m) -> subsets (b, p)``: anova base models on ``n_rows`` rows
    of the sparse text data (skipped when PCMAC.mat is not in the shared directory)."""
    if request.param == "pcmac" and not os.path.exists(PCMAC):
        pytest.skip(f"the shared datasets directory ({PCMAC}) is not present")
    return functools.partial(_text_subsets, request.param)
