"""Univariate operators and score / rank aggregations.

- avgRank, mostFreq: Woznica, Nguyen and Kalousis (KDD 2012, section 2.1).
- meanScore, geomMean, l2Norm (score-based), stuart and rra (rank-based): the aggregation
  functions compared by Salman (2022); Stuart et al. (2003) and Kolde et al. (2012,
  "Robust rank aggregation for gene list integration and meta-analysis", Bioinformatics).
- nobagg: the selector fitted once on all the data (the baseline of KDD 2012, section 3).

Every operator orders features by its criterion, then by mean rank over the base models,
then by feature index (see :mod:`modelmine.operators._common`).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from scipy.special import betainc

from ..base_models import BaseModels
from ..exceptions import NotApplicableError
from ..validation import check_choice
from ._common import counts, feature_order, mean_ranks, signature
from ._registry import declare_operator
from ._signature import Signature

__all__ = ["rra_scores", "stuart_scores"]


def _top(base: BaseModels, key: np.ndarray, n_features: int, *, descending: bool,
         operator: str, score_name: str, provenance: dict[str, Any] | None = None
         ) -> Signature:
    order = feature_order(key, base, descending=descending)[:n_features]
    return signature(base, order, scores=np.asarray(key, dtype=float)[order],
                     score_name=score_name, operator=operator, provenance=provenance)


@declare_operator("avgRank", kind="single")
def avg_rank(base: BaseModels, *, n_features: int) -> Signature:
    """avgRank: the m features of lowest mean rank over the b rankings (KDD 2012, sec. 2.1).

    Ties in mean rank: higher selection frequency first, then lower feature index.
    Scores: the mean rank (lower is better).
    """
    mr = mean_ranks(base)
    order = np.lexsort((np.arange(mr.size), -counts(base), mr))[:n_features]
    return signature(base, order, scores=mr[order], score_name="mean_rank",
                     operator="avgRank")


@declare_operator("mostFreq", kind="single")
def most_freq(base: BaseModels, *, n_features: int) -> Signature:
    """mostFreq: the m features most often selected by the b models (KDD 2012, sec. 2.1).

    Ties in frequency: lower mean rank first, then lower feature index (so that the
    operator is defined for any m up to p). Scores: the selection frequency in [0, 1].
    """
    freq = base.subsets.mean(axis=0)
    return _top(base, freq, n_features, descending=True, operator="mostFreq",
                score_name="frequency")


def _scores(base: BaseModels, operator: str) -> np.ndarray:
    without = base.extra.get("selectors_without_scores")
    if without:  # a heterogeneous ensemble (Salman 2022, BAM) with ranking-only members
        names = ", ".join(repr(s) for s in without)
        raise NotApplicableError(
            f"The operator {operator!r} aggregates scores, but in this heterogeneous "
            f"ensemble the selector(s) {names} give only rankings: use a rank aggregation "
            "(avgRank, stuart, rra), or aggregate within each selector first "
            "(within='selector') with a rank aggregation for those.")
    if base.scores is None:
        raise NotApplicableError(f"The operator {operator!r} aggregates scores, but the selector "
                         f"{base.selector.get('name')!r} gives only rankings: use a "
                         "rank aggregation (avgRank, stuart, rra) instead.")
    return base.scores


@declare_operator("meanScore", kind="single")
def mean_score(base: BaseModels, *, n_features: int) -> Signature:
    """meanScore: the m features of highest arithmetic mean score (Salman 2022)."""
    key = _scores(base, "meanScore").mean(axis=0)
    return _top(base, key, n_features, descending=True, operator="meanScore",
                score_name="mean_score")


@declare_operator("geomMean", kind="single")
def geom_mean(base: BaseModels, *, n_features: int) -> Signature:
    """geomMean: the m features of highest geometric mean score (Salman 2022).

    Needs non-negative scores; a feature scored 0 by any model has geometric mean 0.
    """
    s = _scores(base, "geomMean")
    if (s < 0).any():
        raise NotApplicableError("The operator 'geomMean' needs non-negative scores; the selector "
                         f"{base.selector.get('name')!r} gives negative ones.")
    with np.errstate(divide="ignore"):
        key = np.exp(np.log(s).mean(axis=0))
    return _top(base, key, n_features, descending=True, operator="geomMean",
                score_name="geometric_mean")


@declare_operator("l2Norm", kind="single")
def l2_norm(base: BaseModels, *, n_features: int) -> Signature:
    """l2Norm: the m features of largest L2 norm of their b scores (Salman 2022)."""
    key = np.sqrt(np.square(_scores(base, "l2Norm")).sum(axis=0))
    return _top(base, key, n_features, descending=True, operator="l2Norm",
                score_name="l2_norm")


def stuart_scores(normalised: np.ndarray) -> np.ndarray:
    """Stuart et al. (2003) Q statistic of each column of normalised ranks.

    ``Q(r_1..r_n) = n! V_n`` with ``V_0 = 1`` and
    ``V_k = sum_{i=1..k} (-1)^(i-1) V_(k-i) r_(n-k+1)^i / i!``, where ``r_(1) <= ... <=
    r_(n)`` are the sorted normalised ranks: the probability that n uniform order
    statistics all fall below the observed ones (Aerts et al. 2006; Kolde et al. 2012).
    Computed as ``W_k = k! V_k = sum_i (-1)^(i-1) C(k, i) r^i W_(k-i)``, which avoids the
    overflow of ``n!`` beyond 170 lists.

    Parameters
    ----------
    normalised : ndarray of shape (n_lists, p)
        Ranks divided by the list length, in (0, 1].

    Returns
    -------
    ndarray of shape (p,)
        Q in [0, 1] (lower = more consistently top ranked). The recursion alternates in
        sign, so it loses precision as the number of lists grows (the smallest Q are off
        by a factor of about 2 at 60 lists, and underflow beyond a few hundred; Kolde's
        RobustRankAggreg has the same limit). A value it cannot compute (not finite, or
        outside [0, 1] by more than rounding) is NaN; :func:`stuart` ranks those last.
    """
    from scipy.special import comb

    r = np.sort(np.asarray(normalised, dtype=np.float64), axis=0)
    n = r.shape[0]
    w = [np.ones(r.shape[1])]
    with np.errstate(over="ignore", invalid="ignore"):
        for k in range(1, n + 1):
            x = r[n - k]
            acc = np.zeros(r.shape[1])
            power = np.ones(r.shape[1])
            for i in range(1, k + 1):
                power = power * x
                acc += (-1.0) ** (i - 1) * comb(k, i) * power * w[k - i]
            w.append(acc)
    q = w[n]
    bad = ~np.isfinite(q) | (q < -1e-9) | (q > 1 + 1e-9)
    return np.where(bad, np.nan, np.clip(q, 0.0, 1.0))


def rra_scores(normalised: np.ndarray) -> np.ndarray:
    """Robust Rank Aggregation p-values (Kolde et al. 2012), one per column.

    ``rho = min_s Beta(s, n - s + 1).cdf(r_(s))`` over the sorted normalised ranks
    ``r_(1) <= ... <= r_(n)`` of a feature in the n lists (a feature absent from a list has
    normalised rank 1), then the Bonferroni bound ``min(1, n * rho)``.

    Parameters
    ----------
    normalised : ndarray of shape (n_lists, p)
        Ranks divided by the number of items N, in (0, 1].

    Returns
    -------
    ndarray of shape (p,)
        The RRA score (lower = more significant).
    """
    r = np.sort(np.asarray(normalised, dtype=np.float64), axis=0)
    n = r.shape[0]
    s = np.arange(1, n + 1, dtype=np.float64)[:, None]
    beta = betainc(s, n - s + 1.0, r)
    return np.minimum(1.0, n * beta.min(axis=0))


def _normalised_ranks(base: BaseModels, lists: str, func: str) -> np.ndarray:
    lists = check_choice(lists, "lists", func, ("full", "subset"))
    norm = base.tied_ranks() / float(base.n_features_in)  # ties share their mean rank
    if lists == "subset":
        norm = np.where(base.subsets, norm, 1.0)
    return norm


# Beyond this many rank lists Stuart's Q is lost for almost every feature (59 of 60 at 400
# lists in tests/operators/test_rra_stuart.py) and its O(b^2 p) recursion dominates a run.
STUART_MAX_LISTS = 200


@declare_operator("stuart", kind="single")
def stuart(base: BaseModels, *, n_features: int, lists: str = "full") -> Signature:
    """stuart: the m features of lowest Stuart Q over the b rankings (Salman 2022).

    Parameters
    ----------
    lists : {"full", "subset"}, default="full"
        Rank lists: each model's full ranking of the p features (rank / p), or only its
        selected subset (unselected features get normalised rank 1, as Kolde's partial
        lists). Scores: Q (lower is better).
    """
    if base.n_models > STUART_MAX_LISTS:
        raise NotApplicableError(
            f"The operator 'stuart' needs at most {STUART_MAX_LISTS} base models: Stuart's "
            "Q is computed by an alternating recursion that cancels catastrophically with "
            f"more rank lists (and costs O(b^2 p)); got {base.n_models}. Use 'rra' (Robust "
            "Rank Aggregation), or fewer bootstraps.")
    q = stuart_scores(_normalised_ranks(base, lists, "stuart"))
    lost = int(np.isnan(q).sum())
    if lost:
        warnings.warn(
            f"stuart: Q could not be computed for {lost} of {q.size} features with "
            f"{base.n_models} rank lists (the recursion loses precision with many lists); "
            "they are ranked last. The 'rra' operator has no such limit.",
            UserWarning, stacklevel=3)
    return _top(base, np.where(np.isnan(q), np.inf, q), n_features, descending=False,
                operator="stuart", score_name="stuart_q",
                provenance={"lists": lists, "n_features_not_computable": lost})


@declare_operator("rra", kind="single")
def rra(base: BaseModels, *, n_features: int, lists: str = "full") -> Signature:
    """rra: the m features of lowest Robust Rank Aggregation score (Kolde et al. 2012).

    Ranks are normalised by p; rho is the smallest Beta order-statistic probability and
    the score is the Bonferroni bound ``min(1, b * rho)`` (Salman 2022).

    Parameters
    ----------
    lists : {"full", "subset"}, default="full"
        Each model's full ranking, or only its selected subset (absent features get
        normalised rank 1, as Kolde's partial lists). Scores: the RRA score.
    """
    score = _rra_top_scores(_normalised_ranks(base, lists, "rra"), n_features)
    return _top(base, score, n_features, descending=False, operator="rra",
                score_name="rra_score", provenance={"lists": lists})


def _rra_top_scores(normalised: np.ndarray, m: int) -> np.ndarray:
    """RRA scores, exact for every feature that can be among the m best, inf for the rest.

    ``betainc(s, n - s + 1, x) = P(Bin(n, x) >= s)`` increases with x and decreases with s,
    and the sorted ranks increase with s: over a block of positions s_a..s_b a feature's
    terms are at least ``betainc(s_b, n - s_b + 1, r_(s_a))`` and its exact term at s_a is
    an upper bound of its minimum. Evaluating the ~64 block starts gives, for every
    feature, a lower and an upper bound of its score; only the features whose lower bound
    does not exceed the m-th smallest upper bound can be among the m best, and only those
    are computed exactly (about b^2 / 64 fewer beta functions with b base models).
    """
    r = np.sort(np.asarray(normalised, dtype=np.float64), axis=0)
    n, p = r.shape
    step = max(1, n // 64)
    starts = np.arange(0, n, step)
    ends = np.minimum(starts + step - 1, n - 1)
    s_a = (starts + 1.0)[:, None]
    s_b = (ends + 1.0)[:, None]
    upper = np.minimum(1.0, n * betainc(s_a, n - s_a + 1.0, r[starts]).min(axis=0))
    lower = np.minimum(1.0, n * betainc(s_b, n - s_b + 1.0, r[starts]).min(axis=0))
    threshold = np.partition(upper, min(m, p) - 1)[min(m, p) - 1]
    candidates = np.flatnonzero(lower <= threshold)
    out = np.full(p, np.inf)
    out[candidates] = rra_scores(normalised[:, candidates])
    return out


def _nobagg_max(base: BaseModels) -> int:
    if base.full_model is None:
        return base.n_features_in
    if base.selector.get("kind") == "subset":
        return int(base.full_model.subset.sum())
    return base.n_features_in


@declare_operator("nobagg", kind="single", max_features=_nobagg_max)
def nobagg(base: BaseModels, *, n_features: int) -> Signature:
    """nobagg: the selector fitted once on all the data, no aggregation (KDD 2012, sec. 3).

    The top m features of ``base.full_model``'s ranking (within its own subset for
    selectors that choose a subset). Scores: the full model's scores, or its ranks.
    """
    full = base.full_model
    if full is None:
        raise NotApplicableError("The operator 'nobagg' needs the selector fitted on all the data: "
                         "build the base models with bootstrap(..., fit_full=True).")
    cand = (np.flatnonzero(full.subset) if base.selector.get("kind") == "subset"
            else np.arange(base.n_features_in))
    feats = cand[np.argsort(full.ranks[cand], kind="stable")][:n_features]
    if full.scores is not None:
        scores, name = full.scores[feats], "score"
    else:
        scores, name = full.ranks[feats].astype(float), "rank"
    return signature(base, feats, scores=scores, score_name=name, operator="nobagg")
