"""k-medoids of base models on their distinct subsets, bounded in memory (issue 50).

The medoid operators of Woznica, Nguyen and Kalousis (KDD 2012, sections 2.1-2.2: mostRep,
largeMed, allMed, the med*Apr family) cluster base models under the Jaccard distance of their
subsets. Bootstrap models repeat, the more so the smaller the table: a model and its copies
are at distance 0, so k-medoids over the b models is k-medoids over the d distinct subsets
with each subset weighted by its multiplicity (the loss ``sum_i w_i d(i, nearest medoid)``
is the same sum, and a medoid among copies is a medoid of any of them). The distances are
then d x d instead of b x b (:func:`modelmine.patterns.kmedoids` with ``weights``).

Exact up to :data:`~modelmine.constants.KMEDOIDS_EXACT_MAX_MODELS` distinct models (PAM on
their distances, as before); beyond it CLARA (Kaufman and Rousseeuw 1990, chapter 3): PAM,
the same solver, on :data:`~modelmine.constants.CLARA_SAMPLES` samples of
:data:`~modelmine.constants.CLARA_SAMPLE_SIZE` distinct models (each sample the best medoids
so far plus base models drawn without replacement, reduced to their distinct subsets
weighted by their count in the sample), the medoids of least loss over all the models
kept, every model then assigned to its nearest medoid; the silhouette is that of the best
sample (as CLARA reports it). Its memory is bounded by the sample size
whatever b; which of the two runs depends on the data (d), never on the machine, so a run
gives the same signatures everywhere. The medoid of all the models (k = 1: mostRep,
medClosedApr) is exact at any d, by blocks of rows.

A medoid is reported as the first base model holding its subset (ties in the operators go
to the lower base-model index); cluster sizes count base models.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..constants import (
    CLARA_SAMPLE_SIZE,
    CLARA_SAMPLES,
    KMEDOIDS_EXACT_MAX_MODELS,
)
from ._distances import BLOCK_ROWS, jaccard_distances, jaccard_rows
from ._kmedoids import KMedoidsResult, kmedoids_range, weighted_silhouette

__all__ = ["DistinctModels", "ModelClusters", "cluster_models", "distinct_models",
           "kmedoids_nbytes", "medoid_nbytes", "medoid_of_models"]

#: The backends that take weights (modelmine's PAM); the others cluster all b models.
_WEIGHTED = ("auto", "pam")


@dataclass(frozen=True)
class DistinctModels:
    """The distinct subsets of b base models, in the order of their first occurrence.

    Attributes
    ----------
    subsets : ndarray of bool, shape (d, p)
    first : ndarray of int, shape (d,)
        The base model (row) where each distinct subset first occurs.
    inverse : ndarray of int, shape (b,)
        The distinct subset of each base model.
    counts : ndarray of int, shape (d,)
        How many base models hold each (their multiplicity).
    """

    subsets: np.ndarray
    first: np.ndarray
    inverse: np.ndarray
    counts: np.ndarray

    @property
    def n_distinct(self) -> int:
        return int(self.first.size)


def distinct_models(subsets: np.ndarray) -> DistinctModels:
    """The distinct rows of a boolean (b, p) matrix with their multiplicities."""
    subsets = np.asarray(subsets, dtype=bool)
    packed = np.packbits(subsets, axis=1)
    _, first, inverse, counts = np.unique(packed, axis=0, return_index=True,
                                          return_inverse=True, return_counts=True)
    order = np.argsort(first, kind="stable")  # first occurrence first
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return DistinctModels(subsets=subsets[first[order]], first=first[order],
                          inverse=rank[np.asarray(inverse).ravel()], counts=counts[order])


def medoid_of_models(subsets: np.ndarray) -> tuple[int, float]:
    """The medoid of base models (least total Jaccard distance to all of them; ties: the
    lower model index) and its total distance, exact, by blocks of distinct models: no
    b x b (nor d x d) matrix is held."""
    models = distinct_models(subsets)
    w = models.counts.astype(np.float64)
    totals = np.empty(models.n_distinct)
    for rows, block in jaccard_rows(models.subsets):
        totals[rows] = block @ w
    best = int(np.argmin(totals))  # the first distinct subset: the lowest model index
    return int(models.first[best]), float(totals[best])


@dataclass(frozen=True)
class ModelClusters:
    """k-medoids of base models (:func:`cluster_models`) for one k.

    Attributes
    ----------
    result : KMedoidsResult
        In base-model indices: ``medoids`` (the first model of each medoid subset),
        ``labels`` (every model's cluster), ``sizes`` (models per cluster), ``loss`` over
        all the models, the ``silhouette`` (of the best sample under CLARA).
    within : ndarray of float, shape (k,)
        Each cluster's total distance to its medoid.
    record : dict
        How it was computed: ``n_distinct_models``, ``method`` ("pam", "clara" or the
        backend's name over all models), CLARA's ``samples`` and ``sample_size``.
    """

    result: KMedoidsResult
    within: np.ndarray
    record: dict[str, Any]


def cluster_models(subsets: np.ndarray, ks: list[int], *, backend: str = "auto",
                   random_state: Any = None, compute_silhouette: bool = True
                   ) -> dict[int, ModelClusters]:
    """k-medoids of base models (rows of ``subsets``) for each k of ``ks`` (module
    docstring): PAM on the distinct models weighted by their multiplicity, CLARA beyond
    :data:`~modelmine.constants.KMEDOIDS_EXACT_MAX_MODELS` of them; the backends
    "sklearn-extra" and "fasterpam", which take no weights, cluster all b models."""
    subsets = np.asarray(subsets, dtype=bool)
    models = distinct_models(subsets)
    d = models.n_distinct
    if backend not in _WEIGHTED:
        dist = jaccard_distances(subsets)
        fits = kmedoids_range(dist, ks, backend=backend, random_state=random_state,
                              compute_silhouette=compute_silhouette)
        return {k: ModelClusters(res, _within_full(dist, res),
                                 {"n_distinct_models": d, "method": res.backend})
                for k, res in fits.items()}
    if d <= KMEDOIDS_EXACT_MAX_MODELS:
        # one distance matrix and one BUILD order for every k (kmedoids_range, issue 15)
        dist = jaccard_distances(models.subsets)
        fits = kmedoids_range(dist, ks, random_state=random_state,
                              compute_silhouette=compute_silhouette,
                              weights=models.counts)
        out = {}
        for k, res in fits.items():
            within = np.array([float(dist[res.labels == c, res.medoids[c]]
                                     @ models.counts[res.labels == c]) for c in range(k)])
            out[k] = ModelClusters(_in_models(res, models), within,
                                   {"n_distinct_models": d, "method": "pam"})
        return out
    return {k: _clara(models, k, random_state, compute_silhouette) for k in ks}


def _within_full(dist: np.ndarray, res: KMedoidsResult) -> np.ndarray:
    return np.array([float(dist[res.labels == c, res.medoids[c]].sum())
                     for c in range(res.n_clusters)])


def _in_models(res: KMedoidsResult, models: DistinctModels) -> KMedoidsResult:
    """A result over the distinct models, in base-model indices."""
    return KMedoidsResult(medoids=models.first[res.medoids], labels=res.labels[models.inverse],
                          loss=res.loss, sizes=res.sizes, silhouette=res.silhouette,
                          backend=res.backend, n_restarts=res.n_restarts)


def _nearest(models: DistinctModels, medoids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every distinct model's nearest medoid (ties: the lower medoid index; a medoid is
    its own) and the distance to it, by blocks of rows."""
    labels = np.empty(models.n_distinct, dtype=np.int64)
    dist = np.empty(models.n_distinct)
    for rows, block in jaccard_rows(models.subsets, columns=models.subsets[medoids]):
        labels[rows] = np.argmin(block, axis=1)
        dist[rows] = block[np.arange(block.shape[0]), labels[rows]]
    labels[medoids] = np.arange(medoids.size)
    dist[medoids] = 0.0
    return labels, dist


def _clara(models: DistinctModels, k: int, random_state: Any,
           compute_silhouette: bool) -> ModelClusters:
    """CLARA on the base models (module docstring): each sample is ``size`` base models
    drawn without replacement (so a subset is drawn about as often as models hold it),
    reduced to its distinct subsets weighted by their count in the sample, plus the best
    medoids so far; PAM on it; the medoids of least loss over all the models kept."""
    d = models.n_distinct
    w = models.counts.astype(np.float64)
    b = int(models.inverse.size)
    rng = np.random.default_rng(0 if random_state is None else int(random_state))
    size = min(b, max(CLARA_SAMPLE_SIZE, 40 + 2 * k))
    best: tuple[float, np.ndarray, np.ndarray, np.ndarray] | None = None
    for _ in range(CLARA_SAMPLES):
        drawn = models.inverse[rng.choice(b, size=size, replace=False)]
        if best is not None:  # the best medoids so far are in every later sample
            drawn = np.concatenate([drawn, best[1]])
        sample, weight = np.unique(drawn, return_counts=True)
        if sample.size < k:
            continue
        dist = jaccard_distances(models.subsets[sample])
        res = kmedoids_range(dist, [k], random_state=random_state, compute_silhouette=False,
                             weights=weight)[k]
        del dist
        medoids = sample[res.medoids]
        _, nearest = _nearest(models, medoids)
        loss = float(nearest @ w)
        if best is None or loss < best[0] - 1e-12 * max(1.0, best[0]):
            best = (loss, medoids, sample, weight)
    if best is None:  # every sample held fewer than k distinct models: PAM on all of them
        return cluster_models_exact(models, k, random_state, compute_silhouette)
    loss, medoids, sample, weight = best
    labels, nearest = _nearest(models, medoids)
    sizes = np.rint(np.bincount(labels, weights=w, minlength=k)).astype(np.int64)
    within = np.bincount(labels, weights=nearest * w, minlength=k)
    silhouette = None
    if compute_silhouette:
        silhouette = weighted_silhouette(jaccard_distances(models.subsets[sample]),
                                         labels[sample], weight.astype(np.float64))
    res = KMedoidsResult(medoids=medoids, labels=labels, loss=loss, sizes=sizes,
                         silhouette=silhouette, backend="clara")
    return ModelClusters(_in_models(res, models), within, {
        "n_distinct_models": d, "method": "clara", "samples": CLARA_SAMPLES,
        "sample_size": int(size),
        "silhouette_of": f"the best sample of {size} base models"})


def cluster_models_exact(models: DistinctModels, k: int, random_state: Any,
                         compute_silhouette: bool) -> ModelClusters:
    """PAM on all the distinct models, weighted by their multiplicity."""
    dist = jaccard_distances(models.subsets)
    res = kmedoids_range(dist, [k], random_state=random_state,
                         compute_silhouette=compute_silhouette, weights=models.counts)[k]
    within = np.array([float(dist[res.labels == c, res.medoids[c]]
                             @ models.counts[res.labels == c]) for c in range(k)])
    return ModelClusters(_in_models(res, models), within,
                         {"n_distinct_models": models.n_distinct, "method": "pam"})


def kmedoids_nbytes(n_distinct: int, n_features_in: int, n_clusters: int = 10, *,
                    backend: str = "auto", n_models: int | None = None) -> int:
    """Bytes that k-medoids of base models (:func:`cluster_models`) holds at its peak, for
    at most ``n_distinct`` distinct models of ``n_features_in`` features among
    ``n_models`` (default: as many).

    The distance matrix of the models clustered (8 bytes per pair: the distinct ones up to
    :data:`~modelmine.constants.KMEDOIDS_EXACT_MAX_MODELS`; a CLARA sample beyond, twice,
    as the next sample's is built while the last one's is held; all b models for
    "sklearn-extra" and "fasterpam", twice, as their libraries copy it), the temporaries of
    a block of rows while it is built or swept (up to 48 bytes per pair of a block of
    :data:`~modelmine.patterns.BLOCK_ROWS` rows: dense and sparse counts, unions, the
    float64 block; PAM's and the silhouette's blocks are smaller), what each distinct model
    holds (its subset, bool and packed; its k distances, label and weight) and what each
    base model holds while the distinct ones are found (about 48 bytes).
    """
    d, p, k = max(int(n_distinct), 1), int(n_features_in), int(n_clusters)
    b = max(int(n_models if n_models is not None else d), d)
    per_model = 2 * p + 8 * (k + 4)
    if backend not in _WEIGHTED:
        return 2 * 8 * b * b + 48 * BLOCK_ROWS * b + per_model * b
    if d <= KMEDOIDS_EXACT_MAX_MODELS:
        return 8 * d * d + 48 * BLOCK_ROWS * d + per_model * d + 48 * b
    size = min(b, max(CLARA_SAMPLE_SIZE, 40 + 2 * k)) + k
    return (2 * 8 * size * size + 48 * BLOCK_ROWS * (size + k) + per_model * d + 48 * b)


def medoid_nbytes(n_distinct: int, n_features_in: int, n_models: int | None = None) -> int:
    """Bytes that :func:`medoid_of_models` holds at its peak for at most ``n_distinct``
    distinct models of ``n_features_in`` features among ``n_models``: the models (bool
    and packed), their totals, the blocks of :func:`~modelmine.patterns.jaccard_rows`
    (:func:`kmedoids_nbytes` says what each holds), no d x d matrix."""
    d = max(int(n_distinct), 1)
    b = max(int(n_models if n_models is not None else d), d)
    return (2 * int(n_features_in) + 32) * d + 48 * BLOCK_ROWS * d + 48 * b
