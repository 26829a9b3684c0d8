"""The built-in PAM ("pam") returns scikit-learn-extra's medoids, and kmedoids_range equals
kmedoids called once per k (issue 15: largeMed / allMed at b = 5,000).

The oracle is scikit-learn-extra itself (``KMedoids(method="pam", init="build")``), run on the
same distances: same medoids, labels and loss on real base models (microarrays and sparse
text), on random models with many duplicates (ties everywhere) and on points in the plane.
"""

from __future__ import annotations

import numpy as np
import pytest

import modelmine as mm
from modelmine.patterns import jaccard_distances, kmedoids, kmedoids_range

pytest.importorskip("sklearn_extra", reason="scikit-learn-extra is the oracle here")

KS = range(2, 11)


def _assert_same_as_sklearn_extra(dist, ks=KS):
    for k in ks:
        ours = kmedoids(dist, k, backend="pam", n_restarts=0, compute_silhouette=False)
        ref = kmedoids(dist, k, backend="sklearn-extra", n_restarts=0, compute_silhouette=False)
        assert ours.backend == "pam" and ref.backend == "sklearn-extra"
        np.testing.assert_array_equal(ours.medoids, ref.medoids, err_msg=f"k = {k}")
        np.testing.assert_array_equal(ours.labels, ref.labels)
        assert ours.loss == ref.loss


@pytest.mark.parametrize(
    ("dataset", "selector"), [("colon", "anova"), ("leukemia", "anova"), ("prostate", "anova")]
)
def test_pam_equals_sklearn_extra_on_microarray_models(dataset, selector):
    X, y = getattr(mm.datasets, f"load_{dataset}")()[:2]
    base = mm.bootstrap(
        X[:, :2000],  # colon's 2,000 genes; as many of leukemia's and prostate's
        y,
        selector=selector,
        n_bootstraps=120,
        n_features=20,
        random_state=3,
        fit_full=False,
        progress=False,
    )
    _assert_same_as_sklearn_extra(jaccard_distances(base))


def test_pam_equals_sklearn_extra_on_text_models(text_subsets):
    _assert_same_as_sklearn_extra(jaccard_distances(text_subsets(300, 120, 20)))


@pytest.mark.parametrize("seed", range(4))
def test_pam_equals_sklearn_extra_with_duplicates_and_ties(seed):
    # 200 models drawn from 25 distinct subsets: identical rows, tied gains and swaps.
    rng = np.random.default_rng(seed)
    pool = rng.random((25, 30)) < 0.25
    pool[:, 0] = True  # no empty subset
    S = pool[rng.integers(0, 25, 200)]
    _assert_same_as_sklearn_extra(jaccard_distances(S), ks=(2, 3, 5, 8, 12))


@pytest.mark.parametrize("seed", range(3))
def test_pam_equals_sklearn_extra_on_points(seed):
    rng = np.random.default_rng(seed)
    pts = np.round(rng.random((150, 2)), 1)  # a coarse grid: many equal distances
    dist = np.sqrt(((pts[:, None] - pts[None]) ** 2).sum(-1))
    _assert_same_as_sklearn_extra(dist, ks=(2, 4, 7, 10))


@pytest.mark.parametrize("n_restarts", [0, None])
def test_kmedoids_range_equals_kmedoids_per_k(colon, n_restarts):
    X, y, _ = colon
    base = mm.bootstrap(
        X,
        y,
        selector="anova",
        n_bootstraps=80,
        n_features=20,
        random_state=5,
        fit_full=False,
        progress=False,
    )
    dist = jaccard_distances(base)
    ks = [7, 2, 3, 10, 3]
    many = kmedoids_range(dist, ks, random_state=4, n_restarts=n_restarts)
    assert list(many) == [2, 3, 7, 10]
    for k, res in many.items():
        one = kmedoids(dist, k, random_state=4, n_restarts=n_restarts)
        np.testing.assert_array_equal(res.medoids, one.medoids)
        np.testing.assert_array_equal(res.labels, one.labels)
        assert (res.loss, res.silhouette, res.n_restarts) == (
            one.loss,
            one.silhouette,
            one.n_restarts,
        )


def test_large_med_and_all_med_same_with_pam_and_sklearn_extra(colon):
    X, y, _ = colon
    base = mm.bootstrap(
        X, y, selector="anova", n_bootstraps=60, n_features=20, random_state=2, progress=False
    )
    for op, kw in (("largeMed", {"n_features": 20}), ("allMed", {"n_signatures": 5})):
        a = mm.aggregate(base, op, backend="pam", random_state=0, **kw)
        b = mm.aggregate(base, op, backend="sklearn-extra", random_state=0, **kw)
        sigs_a = getattr(a, "signatures", [a])
        sigs_b = getattr(b, "signatures", [b])
        assert [s.features.tolist() for s in sigs_a] == [s.features.tolist() for s in sigs_b]
        if op == "allMed":
            assert sigs_a[0].provenance["backend"] == "pam"


def test_kmedoids_range_bad_parameters():
    dist = np.array([[0.0, 1, 2], [1, 0, 1], [2, 1, 0]])
    with pytest.raises(
        ValueError,
        match=r"The 'ks' parameter of kmedoids_range must be an "
        r"integer in \[1, 3\]\. Got 4 instead\.",
    ):
        kmedoids_range(dist, [2, 4])
    with pytest.raises(
        ValueError,
        match=r"The 'ks' parameter of kmedoids_range must be a "
        r"non-empty iterable of integers",
    ):
        kmedoids_range(dist, [])
    with pytest.raises(
        TypeError,
        match=r"The 'ks' parameter of kmedoids_range must be an "
        r"iterable of integers",
    ):
        kmedoids_range(dist, 3)
    with pytest.raises(ValueError, match=r"The 'backend' parameter of kmedoids_range"):
        kmedoids_range(dist, [2], backend="pamm")
