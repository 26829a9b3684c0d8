"""The set-up installs every dependency the product card names, importable with numpy 2."""

from __future__ import annotations

import importlib

import numpy as np
import pytest


@pytest.mark.parametrize("module", [
    "scipy", "pandas", "sklearn", "mlxtend.frequent_patterns", "fim", "networkx", "joblib",
    "matplotlib", "dask.distributed",
])
def test_dependency_imports(module):
    importlib.import_module(module)


def test_scikit_learn_extra_imports_and_runs_with_numpy_2():
    # Its 0.3.0 wheels are binary-incompatible with numpy 2; the Makefile builds it from source.
    from sklearn_extra.cluster import KMedoids

    assert int(np.__version__.split(".")[0]) >= 2
    D = np.array([[0, 2, 3, 4, 5], [2, 0, 6, 7, 8], [3, 6, 0, 9, 10], [4, 7, 9, 0, 11],
                  [5, 8, 10, 11, 0]], dtype=float)
    km = KMedoids(n_clusters=2, metric="precomputed", method="pam", init="build").fit(D)
    assert sorted(km.medoid_indices_.tolist()) == [0, 4]
