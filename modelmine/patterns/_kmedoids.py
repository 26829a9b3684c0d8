"""k-medoids over precomputed distances between base models, with the silhouette.

Woznica, Nguyen and Kalousis (KDD 2012, section 2.3 and 2.4) cluster the base models with
k-medoids under the Jaccard distance: largeMed keeps the k of best average silhouette and
returns the medoid of the largest cluster, allMed returns the k medoids.

Two backends minimise the same loss (the sum of distances of every model to its nearest
medoid) starting from the same deterministic BUILD initialisation (Kaufman and Rousseeuw,
1990):

- ``"sklearn-extra"``: ``sklearn_extra.cluster.KMedoids(method="pam", init="build",
  metric="precomputed")`` (BSD-3, the product's choice);
- ``"fasterpam"``: ``kmedoids.fasterpam(..., init="build")`` from python-kmedoids
  (Schubert and Rousseeuw, 2021), faster, GPL-3: optional, imported only when used.

``backend="auto"`` uses scikit-learn-extra when importable, else python-kmedoids.
Labels and the loss are recomputed here from the medoids (nearest medoid, ties to the
lower medoid index), so both backends report them identically.

PAM from BUILD stops at a local optimum; on base models it is often not the best one (12
of 63 (dataset, k) runs on colon, leukemia and prostate were up to 0.15 % above the best
loss found by restarts), and largeMed's choice of k then follows the local optimum. So
``n_restarts`` seeded restarts follow (random initial medoids drawn from
``numpy.random.default_rng(random_state)``, each improved by steepest-descent swaps with
FastPAM1's loss deltas, Schubert and Rousseeuw 2021), and the lowest loss is kept; ties
go to the BUILD start, then to the restart drawn first. Deterministic for a given
``random_state`` (None means 0).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..constants import KMEDOIDS_RESTART_MAX_ROWS, KMEDOIDS_RESTARTS
from ..validation import check_choice, check_int, param_error

__all__ = ["KMedoidsResult", "available_backends", "kmedoids", "silhouette", "swap_descent"]

_FUNC = "kmedoids"
BACKENDS = ("auto", "sklearn-extra", "fasterpam")
_MODULES = {"sklearn-extra": "sklearn_extra.cluster", "fasterpam": "kmedoids"}
_INSTALL = (
    "k-medoids needs scikit-learn-extra or python-kmedoids. Install scikit-learn-extra "
    "(BSD-3; with numpy 2 build it from source: pip install --no-build-isolation "
    "--no-binary scikit-learn-extra scikit-learn-extra) or python-kmedoids (GPL-3: "
    "pip install kmedoids)."
)


@dataclass(frozen=True)
class KMedoidsResult:
    """The result of :func:`kmedoids`.

    Attributes
    ----------
    medoids : ndarray of int, shape (k,)
        Row indices of the medoids, ascending.
    labels : ndarray of int, shape (n,)
        Cluster of each row: ``labels[i] == c`` when ``medoids[c]`` is its nearest medoid.
    loss : float
        Sum over rows of the distance to the nearest medoid (the PAM objective).
    sizes : ndarray of int, shape (k,)
        Number of rows in each cluster.
    silhouette : float or None
        Average silhouette (scikit-learn, precomputed distances); None when k = 1 or k = n.
    backend : str
        The backend that ran (``"exact"`` for k = 1, solved without a backend).
    n_restarts : int
        Seeded restarts tried after the BUILD start (module docstring).
    """

    medoids: np.ndarray
    labels: np.ndarray
    loss: float
    sizes: np.ndarray
    silhouette: float | None
    backend: str
    n_restarts: int = 0

    @property
    def n_clusters(self) -> int:
        """k."""
        return int(self.medoids.size)

    def members(self, c: int) -> np.ndarray:
        """Row indices of cluster ``c``, ascending."""
        return np.flatnonzero(self.labels == c)


def available_backends() -> list[str]:
    """The k-medoids backends importable here, in order of preference."""
    out = []
    for name, module in _MODULES.items():
        try:
            importlib.import_module(module)
        except ImportError:
            continue
        out.append(name)
    return out


def _resolve_backend(backend: str) -> str:
    backend = check_choice(backend, "backend", _FUNC, BACKENDS)
    if backend == "auto":
        found = available_backends()
        if not found:
            raise ImportError(_INSTALL)
        return found[0]
    try:
        importlib.import_module(_MODULES[backend])
    except ImportError as exc:
        raise ImportError(f"The k-medoids backend {backend!r} is not importable ({exc}). "
                          + _INSTALL) from None
    return backend


def silhouette(distances: np.ndarray, labels: np.ndarray) -> float | None:
    """Average silhouette of a clustering on precomputed distances (scikit-learn).

    None when there is a single cluster or every row is its own cluster (undefined).
    """
    from sklearn.metrics import silhouette_score

    n_labels = np.unique(labels).size
    if n_labels < 2 or n_labels >= labels.size:
        return None
    return float(silhouette_score(distances, labels, metric="precomputed"))


def kmedoids(
    distances: Any,
    n_clusters: int,
    *,
    backend: str = "auto",
    max_iter: int = 300,
    random_state: Any = None,
    compute_silhouette: bool = True,
    n_restarts: int | None = None,
) -> KMedoidsResult:
    """k-medoids (PAM) on a precomputed distance matrix.

    Used over Jaccard distances between base models (KDD 2012, sections 2.3-2.4).

    Parameters
    ----------
    distances : array-like of shape (n, n)
        Symmetric non-negative distances with a zero diagonal.
    n_clusters : int
        k, in [1, n].
    backend : {"auto", "sklearn-extra", "fasterpam"}, default="auto"
        See the module docstring. Both start from BUILD and reach the same loss on
        well-separated data; on hard instances both reach a local optimum of PAM.
    max_iter : int, default=300
        Maximum number of swap iterations.
    random_state : None or int, default=None
        Seed of the restarts (None means 0: results are always reproducible).
    compute_silhouette : bool, default=True
        Compute the average silhouette (O(n^2)).
    n_restarts : int or None, default=None
        Seeded restarts after BUILD + swaps, the lowest loss kept (module docstring).
        None: :data:`~modelmine.constants.KMEDOIDS_RESTARTS` for up to
        :data:`~modelmine.constants.KMEDOIDS_RESTART_MAX_ROWS` rows, else 0 (each restart
        costs O(k n^2) per swap).

    Returns
    -------
    KMedoidsResult

    Raises
    ------
    ImportError
        Neither backend is importable (the message says how to install one).
    """
    dist = np.asarray(distances, dtype=np.float64)
    if dist.ndim != 2 or dist.shape[0] != dist.shape[1]:
        raise param_error("distances", _FUNC, "a square matrix", dist)
    n = dist.shape[0]
    k = check_int(n_clusters, "n_clusters", _FUNC, min_value=1, max_value=n)
    assert k is not None
    iters = check_int(max_iter, "max_iter", _FUNC, min_value=1)
    seed = None if random_state is None else int(random_state)
    check_choice(backend, "backend", _FUNC, BACKENDS)
    restarts = check_int(n_restarts, "n_restarts", _FUNC, min_value=0, allow_none=True)
    if restarts is None:
        restarts = KMEDOIDS_RESTARTS if n <= KMEDOIDS_RESTART_MAX_ROWS else 0
    if k == 1:
        # Solved exactly: the row of least total distance (ties: the lower index), which
        # is also PAM's BUILD choice; no backend is needed.
        name = "exact"
        medoids = np.array([int(np.argmin(dist.sum(axis=1)))])
    elif (name := _resolve_backend(backend)) == "sklearn-extra":
        from sklearn_extra.cluster import KMedoids

        model = KMedoids(n_clusters=k, metric="precomputed", method="pam", init="build",
                         max_iter=iters, random_state=seed).fit(dist)
        medoids = np.asarray(model.medoid_indices_, dtype=np.int64)
    else:
        fp = importlib.import_module("kmedoids")
        res = fp.fasterpam(dist, k, max_iter=iters, init="build", random_state=seed, n_cpu=1)
        medoids = np.asarray(res.medoids, dtype=np.int64)
    medoids = np.sort(medoids)
    if 1 < k < n and restarts:
        medoids = _best_of_restarts(dist, medoids, k, restarts, seed or 0, iters)
    else:
        restarts = 0
    to_medoid = dist[:, medoids]
    labels = np.argmin(to_medoid, axis=1)  # ties: the lower medoid index
    labels[medoids] = np.arange(k)  # a medoid belongs to its own cluster
    loss = float(to_medoid[np.arange(n), labels].sum())
    sizes = np.bincount(labels, minlength=k)
    sil = silhouette(dist, labels) if compute_silhouette else None
    return KMedoidsResult(medoids=medoids, labels=labels, loss=loss, sizes=sizes,
                          silhouette=sil, backend=name, n_restarts=restarts)


def _loss(dist: np.ndarray, medoids: np.ndarray) -> float:
    return float(dist[:, medoids].min(axis=1).sum())


def swap_descent(dist: np.ndarray, medoids: np.ndarray, max_iter: int) -> np.ndarray:
    """Steepest-descent PAM swaps from ``medoids`` until no swap lowers the loss.

    Each step evaluates every (medoid, non-medoid) swap at once with FastPAM1's deltas
    (Schubert and Rousseeuw, 2021): removing medoid i and adding x changes the loss by
    ``sum_j min(d(j, x), d2_j if nearest_j = i else d1_j) - d1_j``, with ``d1``, ``d2``
    the distances to the nearest and second nearest medoids. Returns sorted medoids.
    """
    med = np.array(medoids, dtype=np.int64)
    n, k = dist.shape[0], med.size
    rows = np.arange(n)
    for _ in range(max_iter):
        to_med = dist[:, med]
        order = np.argsort(to_med, axis=1, kind="stable")
        nearest = order[:, 0]
        d1 = to_med[rows, nearest]
        d2 = to_med[rows, order[:, 1]] if k > 1 else np.full(n, np.inf)
        best_delta, best_swap = -1e-12 * max(1.0, float(d1.sum())), None
        for i in range(k):
            ref = np.where(nearest == i, d2, d1)
            delta = (np.minimum(dist, ref[:, None]) - d1[:, None]).sum(axis=0)
            delta[med] = np.inf
            x = int(np.argmin(delta))
            if delta[x] < best_delta:
                best_delta, best_swap = float(delta[x]), (i, x)
        if best_swap is None:
            break
        med[best_swap[0]] = best_swap[1]
    return np.sort(med)


def _best_of_restarts(dist: np.ndarray, start: np.ndarray, k: int, restarts: int,
                      seed: int, max_iter: int) -> np.ndarray:
    """The lowest-loss medoids among the BUILD start and ``restarts`` seeded restarts."""
    rng = np.random.default_rng(seed)
    best, best_loss = start, _loss(dist, start)
    for _ in range(restarts):
        init = rng.choice(dist.shape[0], size=k, replace=False)
        med = swap_descent(dist, init, max_iter)
        loss = _loss(dist, med)
        if loss < best_loss - 1e-12 * max(1.0, best_loss):
            best, best_loss = med, loss
    return best
