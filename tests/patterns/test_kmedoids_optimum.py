"""k-medoids reaches its optimum on real base models; largeMed says when there are no clusters."""

from __future__ import annotations

import numpy as np
import pytest

import modelmine as mm
from modelmine.constants import SILHOUETTE_NO_STRUCTURE
from modelmine.patterns import jaccard_distances, kmedoids
from modelmine.testing import base_models_from_subsets

fp = pytest.importorskip("kmedoids", reason="python-kmedoids (GPL-3) is the outside "
                                            "reference of this test; `make test` installs it")


def _best_of_fasterpam(dist, k, restarts=100):
    return min(float(fp.fasterpam(dist, k, init="random", random_state=s, n_cpu=1).loss)
               for s in range(restarts))


@pytest.mark.slow
@pytest.mark.parametrize(("dataset", "selector"), [("colon", "svm-rfe"), ("colon", "ig"),
                                                   ("colon", "relieff"), ("leukemia", "ig")])
def test_reaches_the_best_of_100_fasterpam_restarts(dataset, selector):
    X, y = getattr(mm.datasets, f"load_{dataset}")()
    base = mm.bootstrap(X, y, selector=selector, n_bootstraps=150, n_features=20,
                        random_state=0, fit_full=False)
    dist = jaccard_distances(base)
    for k in range(2, 11):
        best = _best_of_fasterpam(dist, k)
        res = kmedoids(dist, k, random_state=0, compute_silhouette=False)
        assert res.loss <= best * (1 + 1e-4), (k, res.loss, best)
        again = kmedoids(dist, k, random_state=0, compute_silhouette=False)
        assert np.array_equal(res.medoids, again.medoids)  # deterministic for a seed


def test_restarts_never_worse_than_build():
    rng = np.random.default_rng(0)
    S = rng.random((60, 80)) < 0.15
    dist = jaccard_distances(S)
    for k in (2, 4, 7):
        build = kmedoids(dist, k, n_restarts=0, compute_silhouette=False)
        ours = kmedoids(dist, k, random_state=5, compute_silhouette=False)
        assert ours.loss <= build.loss + 1e-12 and ours.n_restarts > 0


def test_large_med_falls_back_to_most_rep_without_cluster_structure():
    X, y = mm.datasets.load_colon()
    base = mm.bootstrap(X, y, selector="relieff", n_bootstraps=40, n_features=20,
                        random_state=0)
    sig = mm.aggregate(base, "largeMed", n_features=20, random_state=0)
    prov = sig.provenance
    assert prov["no_cluster_structure"] is True
    assert prov["best_silhouette"] < SILHOUETTE_NO_STRUCTURE
    assert max(v for v in prov["silhouettes"].values() if v is not None) == pytest.approx(
        prov["best_silhouette"])
    assert sig.features.tolist() == mm.aggregate(base, "mostRep", n_features=20
                                                 ).features.tolist()


def test_large_med_finds_clusters_when_there_are_some():
    # Two groups of models with disjoint subsets (and small variations): k = 2, silhouette
    # near 1, the medoid of the larger group.
    rng = np.random.default_rng(1)
    S = np.zeros((30, 40), dtype=bool)
    S[:18, :8] = True
    S[18:, 20:28] = True
    S[np.arange(30), 8 + rng.integers(0, 12, 30)] = True
    base = base_models_from_subsets(S)
    sig = mm.aggregate(base, "largeMed", n_features=9, random_state=0)
    prov = sig.provenance
    assert prov["no_cluster_structure"] is False and prov["k"] == 2
    assert prov["silhouette"] > SILHOUETTE_NO_STRUCTURE
    assert prov["cluster_size"] == 18 and set(range(8)) <= set(sig.features.tolist())
