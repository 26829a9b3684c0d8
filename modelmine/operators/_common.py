"""Shared pieces of the built-in operators: orders with documented tie-breaking, builders.

Tie-breaking (the paper leaves it open; KDD 2012, section 2): whenever two features tie on
an operator's criterion they are ordered by their mean rank over the b base models (better
first), then by feature index. The mean rank is a property of the data, not of the feature
labels, so exact ties on both are the only place the feature index matters.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._docstring import fill_doc
from ..base_models import BaseModels
from ..exceptions import NotApplicableError
from ._signature import Signature

__all__ = ["DOC_FRAGMENTS", "doc_params", "feature_order", "model_signature", "signature"]

# Reusable docstring fragments (numpydoc) for parameters that recur across operators,
# substituted by @doc_params (the imbalanced-learn ``Substitution`` idiom).
DOC_FRAGMENTS = {
    "n_features": """n_features : int
        m, the signature size (resolved and range-checked by :func:`aggregate`).""",
    "n_features_optional": """n_features : int, optional
        Keep each chosen model's top ``n_features`` features (default: the whole model).""",
    "n_signatures": """n_signatures : int
        k, the number of alternative signatures (capped by :func:`aggregate` at what the
        operator can return, the cap recorded in the provenance).""",
    "min_support": """min_support : float in (0, 1], int or None, default=None
        Minimum support of the mined itemsets (fraction of the b models, or a count);
        None: the highest support at which the itemsets hold enough features.""",
    "random_state": """random_state : None or int, default=None
        Seed passed to k-medoids (results are deterministic for a given seed).""",
    "backend": """backend : {"auto", "pam", "sklearn-extra", "fasterpam"}, default="auto"
        k-medoids backend (:func:`modelmine.patterns.kmedoids`; "auto" is "pam").""",
}


#: Fill ``%(name)s`` placeholders of an operator's docstring from :data:`DOC_FRAGMENTS`.
doc_params = fill_doc(DOC_FRAGMENTS)


def mean_ranks(base: BaseModels) -> np.ndarray:
    """Mean rank of each feature over the b rankings (1 = best), shape (p,).

    Averages :meth:`BaseModels.tied_ranks`: tied scores share their average rank, so
    features a selector cannot tell apart are not ordered by their index."""
    return base.tied_ranks().mean(axis=0, dtype=np.float64)


def counts(base: BaseModels) -> np.ndarray:
    """How many of the b subsets contain each feature, shape (p,)."""
    return base.subsets.sum(axis=0).astype(np.int64)


def feature_order(
    key: np.ndarray, base: BaseModels, *, descending: bool, candidates: np.ndarray | None = None
) -> np.ndarray:
    """Features ordered by ``key`` (descending or ascending), then mean rank, then index.

    Only ``candidates`` (indices) are ordered when given.
    """
    idx = np.arange(base.n_features_in) if candidates is None else np.asarray(candidates)
    primary = np.asarray(key, dtype=np.float64)[idx]
    order = np.lexsort((idx, mean_ranks(base)[idx], -primary if descending else primary))
    return idx[order]


def signature(
    base: BaseModels,
    features: Any,
    *,
    scores: Any = None,
    score_name: str | None = None,
    operator: str = "",
    provenance: dict[str, Any] | None = None,
) -> Signature:
    """A Signature over ``base`` (names looked up)."""
    feats = np.asarray(features, dtype=np.int64)
    return Signature(
        features=feats,
        names=base.feature_names[feats],
        scores=None if scores is None else np.asarray(scores, dtype=float),
        score_name=score_name,
        operator=operator,
        provenance=provenance or {},
        n_features_in=base.n_features_in,
    )


def model_signature(
    base: BaseModels,
    model: int,
    n_features: int | None,
    *,
    operator: str,
    provenance: dict[str, Any],
) -> Signature:
    """The subset of base model ``model`` in its rank order, cut to its top ``n_features``.

    Scores are the model's own scores, or its ranks when the selector only ranks.
    """
    feats = base.selected(int(model))
    if n_features is not None:
        if n_features > feats.size:
            raise NotApplicableError(
                f"The operator {operator!r} chose base model {model}, which "
                f"selects {feats.size} features; n_features={n_features} is "
                "more than it holds."
            )
        feats = feats[:n_features]
    if base.scores is not None and not np.isnan(base.scores[model]).any():
        scores, name = base.scores[model, feats], "score"
    else:
        scores, name = base.ranks[model, feats].astype(float), "rank"
    return signature(
        base,
        feats,
        scores=scores,
        score_name=name,
        operator=operator,
        provenance={
            "base_model": int(model),
            "model_size": int(base.subsets[model].sum()),
            **provenance,
        },
    )


def min_subset_size(base: BaseModels) -> int:
    """The smallest subset among the base models (the n_features bound of model operators)."""
    return int(base.subset_sizes().min())


def n_selected_features(base: BaseModels) -> int:
    """Number of features selected by at least one base model."""
    return int(base.subsets.any(axis=0).sum())
