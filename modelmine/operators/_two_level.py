"""Two-level aggregation of a heterogeneous ensemble: within each selector, then between.

Salman (2022, Section 3.2) aggregates the bootstrap models of one selector (WAM, Section
3.2.1) and combines several selectors (BAM, Section 3.2.2) after a min-max normalisation
that makes their scores comparable. Here the two steps are two operator calls:

1. *within*: the operator runs on the models of each selector alone, for the full ranking
   of the p features;
2. *between*: each selector's aggregate becomes one model of a small ensemble (its ranking,
   its aggregated scores oriented "higher = better" and min-max normalised to [0, 1], and
   its top ``n_features``), and the ``between`` operator aggregates those t models.

With meanScore at both levels this is the mean over selectors of each selector's
normalised mean score. Salman normalises each feature's column of bootstrap scores before
averaging over selectors and bootstraps (Section 3.2.2); normalising the aggregated scores
instead keeps the two levels independent, so that any operator (rank-based ones included)
can serve at either level. ``docs/studies.md`` compares the two.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..base_models import BaseModels
from ..exceptions import NotApplicableError
from ..outcomes import DEFAULT_OUTCOME
from ..selectors import RecordedSelector
from ..validation import check_int, param_error
from ._signature import Signature

if TYPE_CHECKING:
    from ._registry import Operator, OperatorRegistry

__all__ = ["LOWER_IS_BETTER"]

#: Score names of the built-in operators whose scores are better when lower.
LOWER_IS_BETTER = frozenset({"mean_rank", "stuart_log10_q", "rra_score", "rank"})


def _oriented_scores(sig: Signature, p: int) -> np.ndarray:
    """The full-length aggregated scores of a within-step signature, higher = better, in
    [0, 1]: min-max normalised; without scores (or non-finite ones), the linear rank score."""
    n = len(sig)
    rank_score = 1.0 - np.arange(n) / float(max(p, 1))
    if sig.scores is None:
        key = rank_score
    else:
        key = np.asarray(sig.scores, dtype=np.float64)
        if sig.score_name in LOWER_IS_BETTER:
            key = -key
        finite = np.isfinite(key)
        key = rank_score if not finite.any() else np.where(finite, key, key[finite].min())
    lo, hi = key.min(), key.max()
    out = np.zeros(p)
    out[sig.features] = (key - lo) / (hi - lo) if hi > lo else 1.0
    return out


def aggregate_two_level(
    registry: OperatorRegistry,
    base: BaseModels,
    op: Operator,
    *,
    within: str,
    between: str | Operator | None,
    n_features: int | None,
    random_state: Any,
    params: dict[str, Any],
) -> Signature:
    """Within each selector with ``op``, then between the selectors with ``between``.

    See :func:`modelmine.aggregate` (``within="selector"``).
    """
    func = "aggregate"
    if within != "selector":
        raise param_error("within", func, "None or 'selector'", within)
    if not isinstance(base, BaseModels):
        raise param_error(
            "base",
            func,
            "a modelmine.BaseModels (from modelmine.bootstrap)",
            type(base).__name__,
            exc=TypeError,
            show=False,
        )
    if op.kind != "single":
        raise param_error(
            "operator",
            func,
            "a single-model operator for a two-level aggregation (within='selector')",
            op.name,
        )
    between_op = registry.get(op.name if between is None else between)
    if between_op.kind != "single":
        raise param_error("between", func, "a single-model operator", between_op.name)
    p = base.n_features_in
    m = base.n_features if n_features is None else n_features
    m = check_int(m if m is not None else 10, "n_features", func, min_value=1, max_value=p)
    names = base.selector_names
    n_sel = len(names)
    ranks = np.zeros((n_sel, p), dtype=np.int32)
    scores = np.zeros((n_sel, p), dtype=np.float64)
    within_records = {}
    for q, name in enumerate(names):
        sub = base.models_of(name)
        try:
            sig = registry.aggregate(
                sub,
                op,
                n_features=min(p, int(op.max_features(sub))),
                random_state=random_state,
                **params,
            )
        except NotApplicableError as exc:
            raise NotApplicableError(
                f"The within-selector step cannot run {op.name!r} on the models of selector "
                f"{name!r} of this heterogeneous ensemble: {exc}"
            ) from None
        assert isinstance(sig, Signature)
        if len(sig) < p:  # operators that rank fewer than p: the rest tie last
            rest = np.setdiff1d(np.arange(p), sig.features)
            order = np.concatenate([sig.features, rest])
        else:
            order = sig.features
        ranks[q, order] = np.arange(1, p + 1)
        scores[q] = _oriented_scores(sig, p)
        within_records[name] = {"n_models": sub.n_models, "top": [int(v) for v in order[:m]]}
    # one "model" per selector: its aggregate, as a selector known by its record
    aggregated = RecordedSelector({
        "name": f"{op.name} within " + "+".join(names), "kind": "scores",
        "params": {"within": op.name},
        **({} if base.outcome == DEFAULT_OUTCOME else {"outcome": base.outcome})})
    between_base = BaseModels(
        subsets=ranks <= m,
        ranks=ranks,
        scores=scores.astype(np.float32),
        sample_indices=np.zeros((n_sel, 1), dtype=np.int32),
        feature_names=base.feature_names,
        spec=base.spec.replace("aggregate", selector=aggregated, selector_params=None,
                               n_features=m, artificial_features=None, fit_full=False),
        classes=list(base.classes),
        n_samples=base.n_samples,
        data_sha256=base.data_sha256,
        design=dict(base.design),
    )
    try:
        final = registry.aggregate(
            between_base, between_op, n_features=m, random_state=random_state
        )
    except NotApplicableError as exc:
        raise NotApplicableError(
            f"The between-selector step cannot run {between_op.name!r} on the {n_sel} "
            f"selectors' aggregates: {exc}"
        ) from None
    assert isinstance(final, Signature)
    prov = dict(final.provenance)
    prov.update(
        {
            "operator": f"{op.name}/{between_op.name}",
            "within": {
                "by": "selector",
                "operator": op.name,
                "params": dict(params),
                "selectors": within_records,
            },
            "between": {
                "operator": between_op.name,
                "normalisation": "min-max of the aggregated scores, oriented higher = better",
            },
            "base_models": {
                "selector": base.selector_name,
                "n_models": base.n_models,
                "n_features_in": p,
                "n_features": base.n_features,
                "random_state": str(base.random_state),
            },
        }
    )
    return Signature(
        features=final.features,
        names=final.names,
        scores=final.scores,
        score_name=final.score_name,
        operator=f"{op.name}/{between_op.name}",
        provenance=prov,
        n_features_in=p,
    )
