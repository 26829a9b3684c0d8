"""k-medoids over precomputed distances between base models, with the silhouette.

Woznica, Nguyen and Kalousis (KDD 2012, sections 2.1 and 2.2) cluster the base models with
k-medoids under the Jaccard distance: largeMed keeps the k of best average silhouette and
returns the medoid of the largest cluster, allMed returns the k medoids.

Three backends minimise the same loss (the sum of distances of every model to its nearest
medoid) starting from the same deterministic BUILD initialisation (Kaufman and Rousseeuw,
1990):

- ``"pam"``: modelmine's own PAM, BUILD then steepest-descent swaps exactly as
  scikit-learn-extra's ``method="pam"`` (same medoids, same tie-breaking: BUILD keeps the
  last candidate of largest gain, a swap the first (non-medoid, medoid) pair of least
  cost change, applied only when negative), vectorised in numpy with FastPAM1's shared
  loss deltas (Schubert and Rousseeuw, 2021): O(n^2) per swap instead of O(k n^2). BUILD is
  greedy, so BUILD for k is the first k medoids of BUILD for k + 1: :func:`kmedoids_range`
  computes the greedy order once for a whole range of k (largeMed) and reuses the distance
  matrix (issue 15, ``benchmarks/bench_kmedoids_scale.py``). No dependency;
- ``"sklearn-extra"``: ``sklearn_extra.cluster.KMedoids(method="pam", init="build",
  metric="precomputed")`` (BSD-3, the product's choice);
- ``"fasterpam"``: ``kmedoids.fasterpam(..., init="build")`` from python-kmedoids
  (Schubert and Rousseeuw, 2021), faster, GPL-3: optional, imported only when used.

``backend="auto"`` uses ``"pam"``; ``"sklearn-extra"`` runs the library itself (the
reference of the equality tests, ``tests/patterns/test_kmedoids_pam.py``).
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

``weights`` (backend "pam"): row i stands for ``weights[i]`` identical rows, so the loss is
``sum_i w_i d(i, nearest medoid)``, BUILD's gains and the swaps' deltas are the same sums
weighted, cluster sizes are weight sums and the silhouette is that of the expanded rows.
The medoid operators cluster the distinct base models with their multiplicities (issue
50): the optimum is the same as over all b models (a duplicate of a medoid is at distance
0 from it), and the distance matrix is d x d for d distinct models instead of b x b.
Without weights every step is the unweighted code, unchanged.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..constants import KMEDOIDS_RESTART_MAX_ROWS, KMEDOIDS_RESTARTS
from ..exceptions import InvalidParameterError
from ..validation import check_choice, check_int, param_error

__all__ = [
    "KMedoidsResult",
    "available_backends",
    "kmedoids",
    "kmedoids_range",
    "silhouette",
    "swap_descent",
    "weighted_silhouette",
]

_FUNC = "kmedoids"
BACKENDS = ("auto", "pam", "sklearn-extra", "fasterpam")
_MODULES = {"sklearn-extra": "sklearn_extra.cluster", "fasterpam": "kmedoids"}
_INSTALL = (
    "The built-in backend 'pam' (backend='auto') needs neither. Install scikit-learn-extra "
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
    """The k-medoids backends usable here, in order of preference ("pam" is always there)."""
    out = ["pam"]
    for name, module in _MODULES.items():
        try:
            importlib.import_module(module)
        except ImportError:
            continue
        out.append(name)
    return out


def _resolve_backend(backend: str) -> str:
    backend = check_choice(backend, "backend", _FUNC, BACKENDS)
    if backend in ("auto", "pam"):
        return "pam"
    try:
        importlib.import_module(_MODULES[backend])
    except ImportError as exc:
        raise ImportError(
            f"The k-medoids backend {backend!r} is not importable ({exc}). " + _INSTALL
        ) from None
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


def weighted_silhouette(distances: np.ndarray, labels: np.ndarray,
                        weights: np.ndarray) -> float | None:
    """The average silhouette of the rows repeated ``weights`` times, without repeating
    them: scikit-learn's ``silhouette_score`` (precomputed distances) of the expanded rows.

    For row i of cluster C: ``a = sum_{j in C} w_j d(i, j) / (W_C - 1)`` (the other members
    of its cluster, its own copies included, at distance 0), ``b = min_{C' != C} sum_{j in
    C'} w_j d(i, j) / W_C'``, ``s = (b - a) / max(a, b)`` (0 for a cluster of one row and
    weight 1, as scikit-learn); the average is ``sum_i w_i s_i / sum_i w_i``. None when
    there is a single cluster or every expanded row is its own cluster. Computed by blocks
    of rows (memory of one block times the clusters).
    """
    w = np.asarray(weights, dtype=np.float64)
    k = int(labels.max()) + 1 if labels.size else 0
    totals = np.bincount(labels, weights=w, minlength=k)
    if np.count_nonzero(totals) < 2 or np.count_nonzero(totals) >= w.sum():
        return None
    onehot = np.zeros((labels.size, k))
    onehot[np.arange(labels.size), labels] = w
    s = np.empty(labels.size)
    for lo in range(0, labels.size, _BLOCK_ROWS):
        hi = min(labels.size, lo + _BLOCK_ROWS)
        sums = np.asarray(distances[lo:hi], dtype=np.float64) @ onehot  # (block, k)
        own = labels[lo:hi]
        rows = np.arange(hi - lo)
        with np.errstate(divide="ignore", invalid="ignore"):
            a = sums[rows, own] / (totals[own] - 1.0)
            means = sums / totals[None, :]
            means[rows, own] = np.inf
            means[:, totals == 0] = np.inf
            b = means.min(axis=1)
            s[lo:hi] = np.nan_to_num((b - a) / np.maximum(a, b))
    return float(s @ w / w.sum())


def kmedoids(
    distances: Any,
    n_clusters: int,
    *,
    backend: str = "auto",
    max_iter: int = 300,
    random_state: Any = None,
    compute_silhouette: bool = True,
    n_restarts: int | None = None,
    weights: Any = None,
) -> KMedoidsResult:
    """k-medoids (PAM) on a precomputed distance matrix.

    Used over Jaccard distances between base models (KDD 2012, sections 2.1-2.2).

    Parameters
    ----------
    distances : array-like of shape (n, n)
        Symmetric non-negative distances with a zero diagonal.
    n_clusters : int
        k, in [1, n].
    backend : {"auto", "pam", "sklearn-extra", "fasterpam"}, default="auto"
        See the module docstring. "auto" is "pam", which returns scikit-learn-extra's
        medoids; all start from BUILD and reach the same loss on well-separated data; on
        hard instances each reaches a local optimum of PAM.
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
    weights : array-like of shape (n,), optional
        Positive multiplicities of the rows (backend "pam" only): row i counts as
        ``weights[i]`` identical rows (module docstring). ``sizes`` are then weight sums.

    Returns
    -------
    KMedoidsResult

    Raises
    ------
    ImportError
        The backend asked for ("sklearn-extra", "fasterpam") is not importable (the
        message says how to install it).
    """
    dist = _check_distances(distances, _FUNC)
    k = check_int(n_clusters, "n_clusters", _FUNC, min_value=1, max_value=dist.shape[0])
    assert k is not None
    iters, seed, restarts, name = _check_options(dist, backend, max_iter, random_state, n_restarts)
    w = _check_weights(weights, dist.shape[0], name, _FUNC)
    order = _build_order(dist, k, w) if name == "pam" and k > 1 else None
    return _fit(dist, k, name, iters, seed, restarts, compute_silhouette, order, w)


def kmedoids_range(
    distances: Any,
    ks: Any,
    *,
    backend: str = "auto",
    max_iter: int = 300,
    random_state: Any = None,
    compute_silhouette: bool = True,
    n_restarts: int | None = None,
    weights: Any = None,
) -> dict[int, KMedoidsResult]:
    """k-medoids for several k on one distance matrix: ``{k: kmedoids(distances, k, ...)}``.

    largeMed tries k = 2..10 and keeps the k of best average silhouette (Woznica, Nguyen and
    Kalousis, KDD 2012, section 2.1). The results equal those of :func:`kmedoids` called once
    per k, but the distance matrix is checked and converted once and, with the ``"pam"``
    backend, BUILD runs once up to the largest k: BUILD is greedy, so its start for k is the
    first k medoids of its start for k + 1 (Kaufman and Rousseeuw, 1990, section 2.4).

    Parameters
    ----------
    distances : array-like of shape (n, n)
        Symmetric non-negative distances with a zero diagonal.
    ks : iterable of int
        The numbers of clusters, each in [1, n].
    backend, max_iter, random_state, compute_silhouette, n_restarts, weights
        As in :func:`kmedoids`.

    Returns
    -------
    dict of int to KMedoidsResult
        One result per distinct k, in ascending order of k.
    """
    func = "kmedoids_range"
    dist = _check_distances(distances, func)
    n = dist.shape[0]
    try:
        ks = sorted({int(check_int(k, "ks", func, min_value=1, max_value=n)) for k in ks})
    except InvalidParameterError:  # an integer out of range: its own message
        raise
    except TypeError:  # not iterable
        raise param_error("ks", func, "an iterable of integers", ks, exc=TypeError) from None
    if not ks:
        raise param_error("ks", func, "a non-empty iterable of integers", ks)
    iters, seed, restarts, name = _check_options(
        dist, backend, max_iter, random_state, n_restarts, func
    )
    w = _check_weights(weights, n, name, func)
    order = _build_order(dist, ks[-1], w) if name == "pam" and ks[-1] > 1 else None
    return {
        k: _fit(
            dist,
            k,
            name,
            iters,
            seed,
            restarts,
            compute_silhouette,
            None if order is None else order[:k],
            w,
        )
        for k in ks
    }


def _check_distances(distances: Any, func: str) -> np.ndarray:
    dist = np.asarray(distances, dtype=np.float64)
    if dist.ndim != 2 or dist.shape[0] != dist.shape[1]:
        raise param_error("distances", func, "a square matrix", dist)
    return dist


def _check_weights(weights: Any, n: int, backend: str, func: str) -> np.ndarray | None:
    """Positive finite multiplicities of the n rows (None: every row once)."""
    if weights is None:
        return None
    w = np.asarray(weights, dtype=np.float64)
    if w.shape != (n,) or not np.all(np.isfinite(w)) or not np.all(w > 0):
        raise param_error("weights", func, f"{n} positive finite numbers, one per row",
                          weights)
    if backend != "pam":
        raise param_error("backend", func, "'auto' or 'pam' with weights (the other "
                          "backends take none)", backend)
    return w


def _check_options(
    dist: np.ndarray,
    backend: str,
    max_iter: Any,
    random_state: Any,
    n_restarts: Any,
    func: str = _FUNC,
) -> tuple[int, int | None, int, str]:
    iters = check_int(max_iter, "max_iter", func, min_value=1)
    assert iters is not None
    seed = None if random_state is None else int(random_state)
    check_choice(backend, "backend", func, BACKENDS)
    restarts = check_int(n_restarts, "n_restarts", func, min_value=0, allow_none=True)
    if restarts is None:
        restarts = KMEDOIDS_RESTARTS if dist.shape[0] <= KMEDOIDS_RESTART_MAX_ROWS else 0
    return int(iters), seed, int(restarts), _resolve_backend(backend)


def _fit(
    dist: np.ndarray,
    k: int,
    name: str,
    iters: int,
    seed: int | None,
    restarts: int,
    compute_silhouette: bool,
    build: np.ndarray | None,
    w: np.ndarray | None = None,
) -> KMedoidsResult:
    """One k-medoids run; ``build`` is BUILD's start for k (backend "pam" only); ``w``
    the rows' multiplicities (None: one each)."""
    n = dist.shape[0]
    if k == 1:
        # Solved exactly: the row of least total distance (ties: the lower index), which
        # is also PAM's BUILD choice; no backend is needed.
        name = "exact"
        totals = dist.sum(axis=1) if w is None else dist @ w
        medoids = np.array([int(np.argmin(totals))])
    elif name == "pam":
        assert build is not None
        medoids = _pam_swaps(dist, build, iters, w)
    elif name == "sklearn-extra":
        from sklearn_extra.cluster import KMedoids

        model = KMedoids(
            n_clusters=k,
            metric="precomputed",
            method="pam",
            init="build",
            max_iter=iters,
            random_state=seed,
        ).fit(dist)
        medoids = np.asarray(model.medoid_indices_, dtype=np.int64)
    else:
        fp = importlib.import_module("kmedoids")
        res = fp.fasterpam(dist, k, max_iter=iters, init="build", random_state=seed, n_cpu=1)
        medoids = np.asarray(res.medoids, dtype=np.int64)
    medoids = np.sort(medoids)
    if 1 < k < n and restarts:
        medoids = _best_of_restarts(dist, medoids, k, restarts, seed or 0, iters, w)
    else:
        restarts = 0
    to_medoid = dist[:, medoids]
    labels = np.argmin(to_medoid, axis=1)  # ties: the lower medoid index
    labels[medoids] = np.arange(k)  # a medoid belongs to its own cluster
    nearest = to_medoid[np.arange(n), labels]
    if w is None:
        loss = float(nearest.sum())
        sizes = np.bincount(labels, minlength=k)
        sil = silhouette(dist, labels) if compute_silhouette else None
    else:
        loss = float(nearest @ w)
        sizes = np.rint(np.bincount(labels, weights=w, minlength=k)).astype(np.int64)
        sil = weighted_silhouette(dist, labels, w) if compute_silhouette else None
    return KMedoidsResult(
        medoids=medoids,
        labels=labels,
        loss=loss,
        sizes=sizes,
        silhouette=sil,
        backend=name,
        n_restarts=restarts,
    )


#: Rows of the distance matrix per block in BUILD and the swaps: the temporaries stay a few
#: MB whatever n (5,000 base models: 256 x 5,000 float64 = 10 MB).
_BLOCK_ROWS = 256


def _build_order(dist: np.ndarray, k: int, w: np.ndarray | None = None) -> np.ndarray:
    """BUILD's greedy medoids, in the order chosen (Kaufman and Rousseeuw, 1990, 2.4).

    Exactly scikit-learn-extra's ``_build``: the first medoid has the least column sum
    (``np.argmin(np.sum(D, axis=0))``); each next one is the non-medoid ``i`` of largest
    gain ``sum_j max(0, D_j - d(j, i))`` (``D_j``: distance of ``j`` to its nearest medoid so
    far), ties to the last such ``i``. The distances are symmetric, so the gains are column
    sums over blocks of rows; models with identical rows get bit-identical gains.
    """
    n = dist.shape[0]
    order = np.empty(k, np.int64)
    order[0] = int(np.argmin(np.sum(dist, axis=0) if w is None else w @ dist))
    is_medoid = np.zeros(n, bool)
    is_medoid[order[0]] = True
    nearest = dist[order[0]].copy()
    gain = np.empty(n)
    for step in range(1, k):
        gain[:] = 0.0
        for lo in range(0, n, _BLOCK_ROWS):
            block = dist[lo : lo + _BLOCK_ROWS]
            better = np.maximum(nearest[lo : lo + _BLOCK_ROWS, None] - block, 0.0)
            if w is not None:
                better *= w[lo : lo + _BLOCK_ROWS, None]
            gain += better.sum(axis=0)
        gain[is_medoid] = -np.inf
        pick = int(np.flatnonzero(gain == gain.max())[-1])
        order[step] = pick
        is_medoid[pick] = True
        np.minimum(nearest, dist[pick], out=nearest)
    return order


def _pam_swaps(dist: np.ndarray, medoids: np.ndarray, max_iter: int,
               w: np.ndarray | None = None) -> np.ndarray:
    """PAM's SWAP phase as scikit-learn-extra runs it, with FastPAM1's shared deltas.

    Each step applies the swap (medoid i -> non-medoid h) of least cost change, when it is
    negative; ties go to the lowest h, then to the first i in the medoids' current order
    (scikit-learn-extra's loop order). As there, a model belongs to every medoid at its
    nearest distance ``d1`` (``d2``: second nearest). The cost change of a swap is
    ``shared[h] + own[i, h]`` with ``shared[h] = sum_j min(d(j, h) - d1_j, 0)`` and
    ``own[i, h] = sum_{j of i} min(d(j, h), d2_j) - d1_j - min(d(j, h) - d1_j, 0)``
    (Schubert and Rousseeuw, 2021, FastPAM1): O(n^2) per step for all k medoids at once.
    """
    med = np.array(medoids, dtype=np.int64)
    n, k = dist.shape[0], med.size
    shared = np.empty(n)
    own = np.empty((k, n))
    for _ in range(max_iter):
        to_med = dist[med]  # (k, n)
        two = np.sort(to_med, axis=0)[:2]
        d1, d2 = two[0], two[1]
        member = to_med == d1[None, :]
        shared[:] = 0.0
        own[:] = 0.0
        for lo in range(0, n, _BLOCK_ROWS):
            hi = min(n, lo + _BLOCK_ROWS)
            block = dist[lo:hi]
            closer = np.minimum(block - d1[lo:hi, None], 0.0)
            moved = np.minimum(block, d2[lo:hi, None])
            moved -= d1[lo:hi, None]
            moved -= closer
            if w is not None:  # each row counts w times
                closer *= w[lo:hi, None]
                moved *= w[lo:hi, None]
            shared += closer.sum(axis=0)
            for i in range(k):
                rows = member[i, lo:hi]
                if rows.any():
                    own[i] += moved[rows].sum(axis=0)
        delta = own + shared[None, :]
        delta[:, med] = np.inf
        h, i = divmod(int(np.argmin(delta.T)), k)  # row-major: lowest h, then first i
        if not delta[i, h] < 0:
            break
        med[i] = h
    return med


def _loss(dist: np.ndarray, medoids: np.ndarray, w: np.ndarray | None = None) -> float:
    nearest = dist[:, medoids].min(axis=1)
    return float(nearest.sum() if w is None else nearest @ w)


def swap_descent(dist: np.ndarray, medoids: np.ndarray, max_iter: int,
                 w: np.ndarray | None = None) -> np.ndarray:
    """Steepest-descent PAM swaps from ``medoids`` until no swap lowers the loss.

    Each step evaluates every (medoid, non-medoid) swap at once with FastPAM1's deltas
    (Schubert and Rousseeuw, 2021): removing medoid i and adding x changes the loss by
    ``sum_j min(d(j, x), d2_j if nearest_j = i else d1_j) - d1_j``, with ``d1``, ``d2``
    the distances to the nearest and second nearest medoids (each term times ``w_j`` with
    multiplicities). Returns sorted medoids.
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
        total = float(d1.sum() if w is None else d1 @ w)
        best_delta, best_swap = -1e-12 * max(1.0, total), None
        for i in range(k):
            ref = np.where(nearest == i, d2, d1)
            change = np.minimum(dist, ref[:, None]) - d1[:, None]
            delta = change.sum(axis=0) if w is None else w @ change
            delta[med] = np.inf
            x = int(np.argmin(delta))
            if delta[x] < best_delta:
                best_delta, best_swap = float(delta[x]), (i, x)
        if best_swap is None:
            break
        med[best_swap[0]] = best_swap[1]
    return np.sort(med)


def _best_of_restarts(
    dist: np.ndarray, start: np.ndarray, k: int, restarts: int, seed: int, max_iter: int,
    w: np.ndarray | None = None,
) -> np.ndarray:
    """The lowest-loss medoids among the BUILD start and ``restarts`` seeded restarts."""
    rng = np.random.default_rng(seed)
    best, best_loss = start, _loss(dist, start, w)
    for _ in range(restarts):
        init = rng.choice(dist.shape[0], size=k, replace=False)
        med = swap_descent(dist, init, max_iter, w)
        loss = _loss(dist, med, w)
        if loss < best_loss - 1e-12 * max(1.0, best_loss):
            best, best_loss = med, loss
    return best
