"""k-medoids over precomputed distances: the golden example, backends, silhouette, errors."""

from __future__ import annotations

import importlib
import itertools

import numpy as np
import pytest
from sklearn.metrics import silhouette_score

from modelmine.patterns import available_backends, jaccard_distances, kmedoids

GOLDEN = np.array(
    [[0, 2, 3, 4, 5], [2, 0, 6, 7, 8], [3, 6, 0, 9, 10], [4, 7, 9, 0, 11], [5, 8, 10, 11, 0]],
    dtype=float,
)
BACKENDS = available_backends()


def brute_force(dist, k):
    """Optimal k-medoids by enumeration: (loss, medoids)."""
    best = None
    for med in itertools.combinations(range(dist.shape[0]), k):
        loss = dist[:, med].min(axis=1).sum()
        if best is None or loss < best[0] - 1e-12:
            best = (loss, med)
    return best


@pytest.mark.parametrize("backend", ["auto", *BACKENDS])
def test_golden(backend):
    res = kmedoids(GOLDEN, 2, backend=backend)
    assert res.loss == 9.0
    assert set(res.medoids.tolist()) == {0, 4}
    np.testing.assert_array_equal(res.labels, [0, 0, 0, 0, 1])
    np.testing.assert_array_equal(res.sizes, [4, 1])
    assert res.silhouette == pytest.approx(0.3137878787878788, abs=1e-15)
    assert brute_force(GOLDEN, 2) == (9.0, (0, 4))


def test_both_backends_present_here():
    # The product card: scikit-learn-extra is required, python-kmedoids optional (installed
    # in this environment, so both are compared).
    assert "sklearn-extra" in BACKENDS


@pytest.mark.parametrize("k", [2, 3, 5])
def test_backends_same_loss_on_real_models(colon, k):
    import modelmine as mm

    X, y, _ = colon
    base = mm.bootstrap(X, y, selector="anova", n_bootstraps=40, n_features=20, random_state=1)
    dist = jaccard_distances(base)
    losses = {b: kmedoids(dist, k, backend=b).loss for b in BACKENDS}
    assert len(set(np.round(list(losses.values()), 9))) == 1, losses


@pytest.mark.parametrize("seed", range(5))
def test_against_brute_force_small(seed):
    rng = np.random.default_rng(seed)
    pts = rng.random((9, 2))
    dist = np.sqrt(((pts[:, None] - pts[None]) ** 2).sum(-1))
    for k in (1, 2, 3):
        opt, _ = brute_force(dist, k)
        for backend in BACKENDS:
            res = kmedoids(dist, k, backend=backend)
            assert res.loss >= opt - 1e-12
            assert res.loss == pytest.approx(dist[:, res.medoids].min(axis=1).sum())
            assert res.sizes.sum() == 9
            # PAM's guarantee: no swap of a medoid with a non-medoid lowers the loss.
            for pos, other in itertools.product(range(k), range(9)):
                swapped = res.medoids.copy()
                swapped[pos] = other
                assert dist[:, swapped].min(axis=1).sum() >= res.loss - 1e-12


def test_k1_is_the_medoid_and_deterministic():
    rng = np.random.default_rng(3)
    pts = rng.random((20, 3))
    dist = np.sqrt(((pts[:, None] - pts[None]) ** 2).sum(-1))
    res = kmedoids(dist, 1)
    assert res.medoids.tolist() == [int(np.argmin(dist.sum(1)))]
    assert res.silhouette is None
    for b in BACKENDS:
        a1 = kmedoids(dist, 4, backend=b, random_state=7)
        a2 = kmedoids(dist, 4, backend=b, random_state=7)
        np.testing.assert_array_equal(a1.medoids, a2.medoids)
        np.testing.assert_array_equal(a1.labels, a2.labels)


def test_silhouette_is_sklearns():
    rng = np.random.default_rng(0)
    pts = rng.random((30, 2))
    dist = np.sqrt(((pts[:, None] - pts[None]) ** 2).sum(-1))
    res = kmedoids(dist, 3)
    assert res.silhouette == pytest.approx(silhouette_score(dist, res.labels, metric="precomputed"))


def test_bad_parameters():
    with pytest.raises(
        ValueError,
        match=r"The 'n_clusters' parameter of kmedoids must be an "
        r"integer in \[1, 5\]\. Got 6 instead\.",
    ):
        kmedoids(GOLDEN, 6)
    with pytest.raises(ValueError, match=r"The 'backend' parameter of kmedoids must be one of"):
        kmedoids(GOLDEN, 2, backend="pamm")
    with pytest.raises(
        ValueError,
        match=r"The 'distances' parameter of kmedoids must be a "
        "square matrix",
    ):
        kmedoids(np.zeros((3, 4)), 2)


def test_pam_without_libraries_and_clear_error_for_a_missing_one(monkeypatch):
    real = importlib.import_module

    def fake(name, *args):
        if name in ("sklearn_extra.cluster", "kmedoids"):
            raise ImportError(f"No module named {name!r}")
        return real(name, *args)

    monkeypatch.setattr(importlib, "import_module", fake)  # as if neither were installed
    # The built-in PAM needs neither library: "auto" still works, with the golden result.
    assert available_backends() == ["pam"]
    res = kmedoids(GOLDEN, 2)
    assert res.backend == "pam" and res.medoids.tolist() == [0, 4] and res.loss == 9.0
    with pytest.raises(
        ImportError,
        match=r"pip install --no-build-isolation --no-binary "
        r"scikit-learn-extra scikit-learn-extra.*pip install kmedoids",
    ):
        kmedoids(GOLDEN, 2, backend="sklearn-extra")
    with pytest.raises(ImportError, match="'fasterpam' is not importable"):
        kmedoids(GOLDEN, 2, backend="fasterpam")
