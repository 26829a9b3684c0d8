"""Exact structure preservation and multiple models: mostRep, largeMed, med*Apr, allMed.

Woznica, Nguyen and Kalousis (KDD 2012, sections 2.1 and 2.2) return whole base models,
chosen as medoids under the Jaccard distance between their subsets:

- mostRep: the medoid of all b models (least total distance to the others);
- largeMed: k-medoids for each k in a range, the k of best average silhouette, the medoid
  of the largest cluster;
- medClosedApr / medMaxApr: the base models containing the top-support closed / maximal
  itemset, and their medoid;
- allMed: k-medoids with k clusters, the k medoids;
- allMedClosedApr / allMedMaxApr (the multi-model form of medClosedApr, KDD 2012 Table 4):
  the base models containing any of the top-k itemsets, k-medoids on them, the k medoids.
  With k = 1 this is medClosedApr / medMaxApr: the single-model operators call it.

The base models are clustered on their distinct subsets, each weighted by how many models
hold it (the same loss and optimum as over all b models, in d x d memory instead of b x b),
exactly up to :data:`~modelmine.constants.KMEDOIDS_EXACT_MAX_MODELS` distinct models and by
CLARA beyond (:mod:`modelmine.patterns._model_clusters`; the provenance says which:
``n_distinct_models``, ``kmedoids``); the medoid of all the models (mostRep, med*Apr) is
exact at any size, by blocks (issue 50).

Choices the paper leaves open: ties in total distance go to the lower base-model index;
the largest cluster ties go to the cluster whose medoid has the smaller within-cluster
total distance, then the lower medoid index; k-medoids is PAM from the deterministic BUILD
start; signatures of multi-model operators are ordered by decreasing cluster size, then
medoid index; when the models containing the top-k itemsets hold fewer than k distinct
subsets, the next itemsets are added until they hold k; ``n_features`` below the chosen
model's size keeps its top-ranked features.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base_models import BaseModels
from ..constants import DEFAULT_K_RANGE, SILHOUETTE_NO_STRUCTURE
from ..exceptions import InvalidParameterError, NotApplicableError
from ..patterns._kmedoids import KMedoidsResult
from ..patterns._model_clusters import (
    ModelClusters,
    cluster_models,
    kmedoids_nbytes,
    medoid_nbytes,
    medoid_of_models,
)
from ..validation import check_int, param_error
from ._common import doc_params, min_subset_size, model_signature
from ._itemsets import _mine, _start_count, lower_support, ordered_itemsets
from ._registry import declare_operator, distinct_models
from ._signature import Signature

__all__ = ["medoid"]


def _kmedoids_memory(n_models: int, n_distinct: int, n_features_in: int,
                     n_signatures: int, params: Any = None) -> int:
    """k-medoids of the models (:func:`~modelmine.patterns._model_clusters.kmedoids_nbytes`)
    at k = n_signatures, with the operator's backend."""
    backend = str((params or {}).get("backend", "auto"))
    return kmedoids_nbytes(n_distinct, n_features_in, n_signatures, backend=backend,
                           n_models=n_models)


def _large_med_memory(n_models: int, n_distinct: int, n_features_in: int,
                      n_signatures: int, params: Any = None) -> int:
    """k-medoids at the largest k of ``k_range``."""
    k_range = (params or {}).get("k_range") or DEFAULT_K_RANGE
    return _kmedoids_memory(n_models, n_distinct, n_features_in,
                            max(int(k) for k in k_range), params)


def _medoid_memory(n_models: int, n_distinct: int, n_features_in: int,
                   n_signatures: int, params: Any = None) -> int:
    """The medoid of all the models, by blocks."""
    return medoid_nbytes(n_distinct, n_features_in, n_models)


def medoid(distances: np.ndarray) -> int:
    """Index of the row of least total distance (ties: the lower index)."""
    return int(np.argmin(np.asarray(distances).sum(axis=1)))


@declare_operator("mostRep", kind="single", max_features=min_subset_size,
                  nbytes=_medoid_memory)
def most_rep(base: BaseModels, *, n_features: int) -> Signature:
    """mostRep: the medoid of the base models under Jaccard distance (KDD 2012, sec. 2.3).

    The base model with the least total Jaccard distance to the others (ties: lower
    index), its top ``n_features`` features in its own rank order.
    """
    i, total = medoid_of_models(base.subsets)
    return model_signature(
        base,
        i,
        n_features,
        operator="mostRep",
        provenance={
            "total_distance": total,
            "mean_distance": total / max(1, base.n_models - 1),
        },
    )


def _k_range(k_range: Any, func: str) -> list[int]:
    if k_range is None:
        return list(DEFAULT_K_RANGE)
    try:
        ks = [check_int(k, "k_range", func, min_value=2) for k in k_range]
    except InvalidParameterError:  # an integer out of range: its own message
        raise
    except TypeError:  # not iterable
        raise param_error(
            "k_range", func, "an iterable of integers >= 2", k_range, exc=TypeError
        ) from None
    if not ks:
        raise param_error("k_range", func, "a non-empty iterable of integers >= 2", k_range)
    return sorted({int(k) for k in ks if k is not None})


@doc_params
@declare_operator("largeMed", kind="single", max_features=min_subset_size, order_invariant=False,
                  nbytes=_large_med_memory)
def large_med(
    base: BaseModels,
    *,
    n_features: int,
    k_range: Any = None,
    random_state: Any = None,
    backend: str = "auto",
) -> Signature:
    """largeMed: the medoid of the largest cluster of the best k-medoids (KDD 2012, 2.3).

    k-medoids (PAM from BUILD, then seeded restarts: :func:`modelmine.patterns.kmedoids`)
    on the Jaccard distances for each k of ``k_range``; the k of best average silhouette
    (ties: the smaller k); the medoid of its largest cluster. When the best average
    silhouette is below :data:`~modelmine.constants.SILHOUETTE_NO_STRUCTURE` (0.25, "no
    substantial structure", Kaufman and Rousseeuw 1990), the base models form no clusters
    and k would be chosen by noise: the medoid of all the models (mostRep) is returned, and
    the provenance says so (``no_cluster_structure``, ``best_silhouette``).

    Parameters
    ----------
    %(n_features)s
    k_range : iterable of int >= 2, default=range(2, 11)
        Candidate numbers of clusters; values above the number of distinct base models
        minus one are skipped. When none is left, the single medoid (mostRep) is returned.
    %(random_state)s
    %(backend)s
    """
    ks = _k_range(k_range, "largeMed")
    limit = min(distinct_models(base), base.n_models - 1)
    tried: dict[str, float | None] = {}
    best: tuple[float, int, ModelClusters] | None = None
    # One distance matrix and one BUILD order for every k (kmedoids_range: issue 15).
    fits = [k for k in ks if k <= limit]
    results = (cluster_models(base.subsets, fits, backend=backend, random_state=random_state)
               if fits else {})
    for k, clusters in results.items():
        res = clusters.result
        tried[str(k)] = res.silhouette
        score = -np.inf if res.silhouette is None else res.silhouette
        if best is None or score > best[0]:
            best = (score, k, clusters)
    how = {} if best is None else _how(best[2])

    def single_medoid(**extra: Any) -> Signature:
        return model_signature(
            base, medoid_of_models(base.subsets)[0], n_features, operator="largeMed",
            provenance={"k": 1, "silhouettes": tried, "cluster_size": base.n_models,
                        **how, **extra},
        )

    if best is None:
        return single_medoid(
            note="no k in k_range fits these base models; the single medoid is used")
    score, k, clusters = best
    res = clusters.result
    if score < SILHOUETTE_NO_STRUCTURE:
        return single_medoid(
            no_cluster_structure=True,
            best_silhouette=float(score),
            best_k=k,
            silhouette_threshold=SILHOUETTE_NO_STRUCTURE,
            note=(
                f"no cluster structure: the best average silhouette, {score:.3f} at "
                f"k = {k}, is below {SILHOUETTE_NO_STRUCTURE} (Kaufman and Rousseeuw "
                "1990); the medoid of all the models (mostRep) is returned"
            ),
        )
    within = clusters.within
    c = min(range(k), key=lambda c: (-res.sizes[c], within[c], res.medoids[c]))
    return model_signature(
        base,
        int(res.medoids[c]),
        n_features,
        operator="largeMed",
        provenance={
            "k": k,
            "silhouette": res.silhouette,
            "silhouettes": tried,
            "cluster_sizes": res.sizes.tolist(),
            "cluster_size": int(res.sizes[c]),
            "medoids": res.medoids.tolist(),
            "loss": res.loss,
            "backend": res.backend,
            "no_cluster_structure": False,
            **how,
        },
    )


def _how(clusters: ModelClusters) -> dict[str, Any]:
    """The provenance of how the models were clustered: on how many distinct models, by
    which method (CLARA named with its samples)."""
    record = clusters.record
    out: dict[str, Any] = {"n_distinct_models": record["n_distinct_models"]}
    if record["method"] == "clara":
        out["kmedoids"] = (f"CLARA: PAM on {record['samples']} samples of "
                           f"{record['sample_size']} of the {record['n_distinct_models']} "
                           "distinct base models (weighted by their multiplicity), the "
                           "medoids of least loss over all of them; silhouette of "
                           f"{record['silhouette_of']}")
    return out


def _signatures_from_medoids(
    base: BaseModels,
    models: np.ndarray,
    res: KMedoidsResult,
    n_features: int | None,
    operator: str,
    extra: dict[str, Any],
) -> list[Signature]:
    order = sorted(range(res.n_clusters), key=lambda c: (-res.sizes[c], res.medoids[c]))
    out = []
    for c in order:
        out.append(
            model_signature(
                base,
                int(models[res.medoids[c]]),
                n_features,
                operator=operator,
                provenance={
                    "cluster": int(c),
                    "cluster_size": int(res.sizes[c]),
                    "loss": res.loss,
                    "silhouette": res.silhouette,
                    "backend": res.backend,
                    **extra,
                },
            )
        )
    return out


def _check_distinct_medoids(
    base: BaseModels, models: np.ndarray, res: KMedoidsResult, name: str
) -> None:
    picked = base.subsets[models[res.medoids]]
    if np.unique(np.packbits(picked, axis=1), axis=0).shape[0] != res.n_clusters:
        raise RuntimeError(
            f"{name}: k-medoids returned two identical base models as "
            "medoids; ask for fewer signatures."
        )


@doc_params
@declare_operator("allMed", kind="multi", order_invariant=False, nbytes=_kmedoids_memory)
def all_med(
    base: BaseModels,
    *,
    n_signatures: int,
    n_features: int | None = None,
    random_state: Any = None,
    backend: str = "auto",
) -> list[Signature]:
    """allMed: the k medoids of k-medoids on the base models (KDD 2012, sec. 2.4).

    PAM (BUILD start) on the Jaccard distances between all b base models; signatures in
    order of decreasing cluster size. With k = 1 it returns mostRep's model.

    Parameters
    ----------
    %(n_signatures)s
    %(n_features_optional)s
    %(random_state)s
    %(backend)s
    """
    clusters = cluster_models(base.subsets, [n_signatures], backend=backend,
                              random_state=random_state)[n_signatures]
    res = clusters.result
    models = np.arange(base.n_models)
    _check_distinct_medoids(base, models, res, "allMed")
    return _signatures_from_medoids(
        base, models, res, n_features, "allMed",
        {"cluster_sizes": res.sizes.tolist(), **_how(clusters)}
    )


def _group_for_itemsets(
    base: BaseModels, kind: str, k: int, min_support: Any, name: str
) -> tuple[np.ndarray, list[dict[str, Any]], int]:
    """Models containing any of the top-k itemsets (widened until k distinct subsets).

    The paper's IS_top (KDD 2012, section 2.1): every itemset with the top support, so the
    group never depends on how ties in support are ordered; for k alternatives, every
    itemset tied with the k-th. The group then widens, itemset by itemset in closedApr's
    order, until its models hold k distinct subsets.
    """
    count, _ = _start_count(base, min_support, 1, name)
    while True:
        covered = np.zeros(base.n_models, dtype=bool)
        used: list[dict[str, Any]] = []
        for s in ordered_itemsets(base, _mine(base, kind, count)):
            if (
                len(used) >= k
                and s.count < used[-1]["count"]
                and distinct_models_of(base, covered) >= k
            ):
                return np.flatnonzero(covered), used, count
            covered |= base.subsets[:, list(s.items)].all(axis=1)
            used.append({"items": list(s.items), "support": s.support, "count": s.count})
        if len(used) >= k and distinct_models_of(base, covered) >= k:
            return np.flatnonzero(covered), used, count
        if count == 1:
            raise NotApplicableError(
                f"{name}: the base models containing the mined "
                f"itemsets hold fewer than {k} distinct subsets."
            )
        count = lower_support(count)


def distinct_models_of(base: BaseModels, rows: np.ndarray) -> int:
    """Number of distinct subsets among the base models selected by a boolean mask."""
    return int(np.unique(np.packbits(base.subsets[rows], axis=1), axis=0).shape[0])


def _med_apr(
    base: BaseModels,
    kind: str,
    k: int,
    n_features: int | None,
    min_support: Any,
    random_state: Any,
    backend: str,
    name: str,
) -> list[Signature]:
    models, used, count = _group_for_itemsets(base, kind, k, min_support, name)
    if k == 1:  # the medoid, exact at any size (by blocks)
        index, total = medoid_of_models(base.subsets[models])
        labels = np.zeros(models.size, dtype=np.int64)
        res = KMedoidsResult(medoids=np.array([index]), labels=labels, loss=total,
                             sizes=np.array([models.size]), silhouette=None, backend="exact")
        how: dict[str, Any] = {}
    else:
        clusters = cluster_models(base.subsets[models], [k], backend=backend,
                                  random_state=random_state)[k]
        res, how = clusters.result, _how(clusters)
    _check_distinct_medoids(base, models, res, name)
    return _signatures_from_medoids(
        base,
        models,
        res,
        n_features,
        name,
        {
            "n_models_in_group": int(models.size),
            "itemsets": used,
            "itemset_kind": kind,
            "min_support_used": count / base.n_models,
            "cluster_sizes": res.sizes.tolist(),
            **how,
        },
    )


@doc_params
@declare_operator("allMedClosedApr", kind="multi", order_invariant=False,
                  nbytes=_kmedoids_memory)
def all_med_closed_apr(
    base: BaseModels,
    *,
    n_signatures: int,
    n_features: int | None = None,
    min_support: Any = None,
    random_state: Any = None,
    backend: str = "auto",
) -> list[Signature]:
    """medClosedApr, multi-model form (KDD 2012, sec. 2.4 and Table 4).

    The base models containing any of the k closed itemsets of highest support (itemset
    order as closedApr), k-medoids (PAM) on them, the k medoids. When those models hold
    fewer than k distinct subsets, the next itemsets are added until they hold k.

    Parameters
    ----------
    %(n_signatures)s
    %(n_features_optional)s
    %(min_support)s
    %(random_state)s
    %(backend)s
    """
    return _med_apr(
        base,
        "closed",
        n_signatures,
        n_features,
        min_support,
        random_state,
        backend,
        "allMedClosedApr",
    )


@declare_operator("allMedMaxApr", kind="multi", order_invariant=False,
                  nbytes=_kmedoids_memory)
def all_med_max_apr(
    base: BaseModels,
    *,
    n_signatures: int,
    n_features: int | None = None,
    min_support: Any = None,
    random_state: Any = None,
    backend: str = "auto",
) -> list[Signature]:
    """medMaxApr, multi-model form: as allMedClosedApr with maximal itemsets."""
    return _med_apr(
        base,
        "maximal",
        n_signatures,
        n_features,
        min_support,
        random_state,
        backend,
        "allMedMaxApr",
    )


def _single_from_multi(sigs: list[Signature], name: str) -> Signature:
    sig = sigs[0]
    return Signature(
        features=sig.features,
        names=sig.names,
        scores=sig.scores,
        score_name=sig.score_name,
        operator=name,
        provenance=sig.provenance,
        n_features_in=sig.n_features_in,
    )


@declare_operator("medClosedApr", kind="single", max_features=min_subset_size,
                  nbytes=_medoid_memory)
def med_closed_apr(base: BaseModels, *, n_features: int, min_support: Any = None) -> Signature:
    """medClosedApr: the medoid of the models holding the top closed itemset (KDD 2012, 2.3).

    IS_top, every closed itemset with the highest support; the base models containing at
    least one of them; their medoid under Jaccard distance: allMedClosedApr with k = 1.
    """
    return _single_from_multi(
        _med_apr(base, "closed", 1, n_features, min_support, None, "auto", "medClosedApr"),
        "medClosedApr",
    )


@declare_operator("medMaxApr", kind="single", max_features=min_subset_size,
                  nbytes=_medoid_memory)
def med_max_apr(base: BaseModels, *, n_features: int, min_support: Any = None) -> Signature:
    """medMaxApr: the medoid of the models holding the top maximal itemset (KDD 2012, 2.3).

    Maximal itemsets at ``min_support`` (default: the m-th largest feature frequency, as
    maxApr); IS_top, every maximal itemset of the highest support; the models containing
    at least one of them; their medoid.
    """
    kind = "maximal"
    if min_support is None:
        # The same default threshold as maxApr: the m-th largest feature count.
        from ._itemsets import _kth_count

        min_support = _kth_count(base, n_features)
    return _single_from_multi(
        _med_apr(base, kind, 1, n_features, min_support, None, "auto", "medMaxApr"), "medMaxApr"
    )
