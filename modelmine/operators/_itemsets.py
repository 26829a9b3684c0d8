"""Model component combination: closedApr, maxApr, allClosedApr, allMaxApr.

Woznica, Nguyen and Kalousis (KDD 2012, sections 2.1 and 2.2) treat the b selected subsets
as transactions, mine their frequent closed (or maximal) itemsets, and build a signature by
joining the itemsets of highest support until it holds m features; the multi-model
variants return the k itemsets of highest support as k alternative signatures.

Choices the paper leaves open (documented in docs/operators.md and tested):

- **Itemset order.** Decreasing support; among equal supports, longer itemsets first (more
  of a shared structure at once), then lower mean of their features' mean ranks, then
  lexicographic order of the feature indices.
- **Support threshold.** Default ``min_support=None``: the highest threshold at which the
  frequent itemsets hold at least m features, i.e. the m-th largest feature count (an item
  of a frequent itemset is itself frequent, so the union of the frequent itemsets at
  threshold s is exactly the set of features of frequency >= s). A user threshold above it
  would leave fewer than m features and is lowered to it (recorded in the provenance). For
  closedApr and allClosedApr the result does not depend on the threshold at all once
  enough itemsets are mined (itemsets are taken in order of decreasing support), so no
  "fill by frequency" is ever needed.
- **Itemsets adding nothing.** An itemset whose features are all already in the signature
  is skipped and not counted as used; the provenance reports both the itemsets used
  (``n_itemsets_used``, ``mean_itemset_size``, ``mean_itemset_support``) and all the
  itemsets scanned up to the last one used (``n_itemsets_scanned``, ``mean_scanned_size``,
  ``mean_scanned_support``), the closer reading of the "#itemsets" of KDD 2012, Table 3.
- **The cut.** When the last itemset would overshoot m, only its new features of highest
  selection frequency (then lower mean rank, then index) are kept; the provenance records
  the dropped ones. Features enter the signature in itemset order, and within an itemset
  by frequency, mean rank, index.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any

import numpy as np

from ..base_models import BaseModels
from ..constants import DEFAULT_MIN_SUPPORT, SUPPORT_DECAY
from ..exceptions import NotApplicableError
from ..patterns import Itemsets, mine_itemsets
from ..validation import check_choice, check_fraction_or_count
from ._common import counts, doc_params, feature_order, n_selected_features, signature
from ._registry import declare_operator
from ._signature import Signature

__all__ = ["Itemset", "ordered_itemsets", "top_itemsets"]


@dataclass(frozen=True)
class Itemset:
    """One mined itemset: sorted feature indices, support count and fraction."""

    items: tuple[int, ...]
    count: int
    support: float


def _mine(base: BaseModels, kind: str, count: int) -> Itemsets:
    return mine_itemsets(base.subsets, itemset_type=kind, min_support=int(count))


def ordered_itemsets(base: BaseModels, itemsets: Itemsets) -> Iterator[Itemset]:
    """Itemsets in the operators' order: support desc, length desc, mean rank, lexicographic.

    The order is computed on the compact arrays of the mined itemsets (millions of them
    for univariate selectors at low support) and the itemsets are built one at a time, as
    the operators consume them: closedApr typically needs only the first few dozen.
    The mean-rank key is exact: it is only compared between itemsets of one length, where
    it orders as the sum over the items of ``2 b x mean rank``, an integer.
    """
    n = len(itemsets)
    if n == 0:
        return
    indptr, indices = itemsets.indptr, itemsets.indices
    lengths = np.diff(indptr)
    twice_rank_sums = np.rint(2.0 * base.tied_ranks().sum(axis=0, dtype=np.float64))
    keys = np.add.reduceat(twice_rank_sums[indices], indptr[:-1])
    # Mining order is lexicographic among itemsets of one support and length.
    order = np.lexsort((np.arange(n), keys, -lengths, -itemsets.counts))
    b = base.n_models
    for i in order.tolist():
        c = int(itemsets.counts[i])
        yield Itemset(tuple(indices[indptr[i]:indptr[i + 1]].tolist()), c, c / b)


def _kth_count(base: BaseModels, k: int) -> int:
    c = np.sort(counts(base))[::-1]
    return max(1, int(c[min(k, c.size) - 1]))


def _start_count(base: BaseModels, min_support: Any, needed: int, func: str
                 ) -> tuple[int, int | None]:
    """(threshold count to mine at, the user's count or None)."""
    auto = _kth_count(base, needed)
    if min_support is None:
        return auto, None
    asked = check_fraction_or_count(min_support, "min_support", func, total=base.n_models)
    return min(asked, auto), asked


def lower_support(count: int) -> int:
    """The next, lower support count to try when too few itemsets are frequent: geometric
    steps of :data:`~modelmine.constants.SUPPORT_DECAY`, at least one less, never below 1."""
    return max(1, min(count - 1, int(count * SUPPORT_DECAY)))


def top_itemsets(base: BaseModels, kind: str, k: int, min_support: Any, func: str
                 ) -> tuple[list[Itemset], int, int | None, int]:
    """The first ``k`` itemsets in operator order, lowering the threshold until k exist.

    Returns (itemsets, threshold count used, requested count, number mined there). For
    closed itemsets the first k do not depend on the threshold; for maximal ones the
    threshold is the highest at or below the start where k maximal itemsets exist.
    """
    count, asked = _start_count(base, min_support, k, func)
    while True:
        mined = _mine(base, kind, count)
        if len(mined) >= k or count == 1:
            break
        count = count - 1 if kind == "maximal" else lower_support(count)
    if len(mined) < k:
        raise NotApplicableError(f"The operator {func!r} found only {len(mined)} {kind} "
                                 f"itemsets at any support; n_signatures must be at most "
                                 f"{len(mined)} for these base models.")
    return list(islice(ordered_itemsets(base, mined), k)), count, asked, len(mined)


#: How closedApr / maxApr combine itemsets into m features (see the module docstring and
#: docs/operators.md, "Which closedApr?"): the registry of strategies.
STRATEGIES = ("area", "fragments", "fit", "literal")
DEFAULT_STRATEGY = "literal"


@dataclass
class _Combination:
    """The features a strategy chose, with the itemsets behind them."""

    chosen: list[int]
    scores: list[float]
    used: list[dict[str, Any]]
    scanned: list[Itemset]
    cut: dict[str, Any] | None = None
    filled: list[int] | None = None


def _take(comb: _Combination, s: Itemset, new: np.ndarray, room: int, base: BaseModels,
          freq: np.ndarray) -> None:
    """Add the new features of itemset ``s`` (cut to ``room``, most frequent first)."""
    new = feature_order(freq, base, descending=True, candidates=new)
    taken = new[:room]
    if new.size > room:
        comb.cut = {"itemset": len(comb.used), "kept": taken.tolist(),
                    "dropped": new[room:].tolist()}
    comb.chosen.extend(taken.tolist())
    comb.scores.extend([s.support] * taken.size)
    comb.used.append({"items": list(s.items), "support": s.support, "count": s.count,
                      "added": taken.tolist()})


def _in_support_order(base: BaseModels, mined: Itemsets, m: int, freq: np.ndarray,
                      comb: _Combination, *, whole_only: bool, min_length: int = 1) -> None:
    """Add itemsets to ``comb`` by decreasing support until it holds m features.

    literal (whole_only=False): every itemset adds its new features, the last one cut;
    fit (whole_only=True): only itemsets whose new features all fit are taken;
    ``min_length`` > 1 keeps only itemsets that long (model fragments).
    """
    in_sig = np.zeros(base.n_features_in, dtype=bool)
    in_sig[comb.chosen] = True
    for s in ordered_itemsets(base, mined):
        if len(comb.chosen) >= m:
            break
        if len(s.items) < min_length:
            continue
        comb.scanned.append(s)
        new = np.array([i for i in s.items if not in_sig[i]], dtype=np.int64)
        room = m - len(comb.chosen)
        if new.size == 0 or (whole_only and new.size > room):
            continue
        _take(comb, s, new, room, base, freq)
        in_sig[comb.chosen] = True


def _by_area(base: BaseModels, mined: Itemsets, m: int, freq: np.ndarray) -> _Combination:
    """Greedy tiling (Geerts, Goethals and Mielikainen, DS 2004): at each step the itemset
    that covers the largest area of the base-model matrix with features not yet chosen,
    ``support count x |new features|``; ties: higher support, lower mean rank of the new
    features, canonical (lexicographic) order. Vectorised over the compact itemsets."""
    comb = _Combination([], [], [], [])
    indptr, indices, counts_ = mined.indptr, mined.indices, mined.counts.astype(np.int64)
    if len(mined) == 0:
        return comb
    ranks = base.tied_ranks().mean(axis=0, dtype=np.float64)
    in_sig = np.zeros(base.n_features_in, dtype=bool)
    starts = indptr[:-1]
    position = np.arange(len(mined))
    b = base.n_models
    while len(comb.chosen) < m:
        fresh = ~in_sig[indices]
        n_new = np.add.reduceat(fresh.astype(np.int64), starts)
        if not n_new.any():
            break
        rank_new = np.add.reduceat(np.where(fresh, ranks[indices], 0.0), starts)
        mean_rank = np.divide(rank_new, n_new, out=np.full(n_new.size, np.inf),
                              where=n_new > 0)
        area = counts_ * n_new
        i = int(np.lexsort((position, mean_rank, -counts_, -area))[0])
        items = indices[indptr[i]:indptr[i + 1]]
        s = Itemset(tuple(int(x) for x in items), int(counts_[i]), int(counts_[i]) / b)
        comb.scanned.append(s)
        _take(comb, s, items[~in_sig[items]].astype(np.int64), m - len(comb.chosen), base,
              freq)
        in_sig[comb.chosen] = True
    return comb


def _fill_by_frequency(comb: _Combination, base: BaseModels, m: int,
                       freq: np.ndarray) -> None:
    """Complete a signature with the most frequent features not in it (mostFreq's order)."""
    if len(comb.chosen) >= m:
        return
    rest = np.setdiff1d(np.flatnonzero(base.subsets.any(axis=0)), comb.chosen)
    extra = feature_order(freq, base, descending=True, candidates=rest)[:m - len(comb.chosen)]
    comb.filled = extra.tolist()
    comb.chosen.extend(comb.filled)
    comb.scores.extend(freq[extra].tolist())


def _mining_count(base: BaseModels, strategy: str, m: int, min_support: Any,
                  name: str) -> tuple[int, int | None]:
    """The support count to mine at. area: the run's default minimum support (the lower
    end of KDD 2012, Table 3's supports), unless given; the others: the m-th largest feature
    count. Both are lowered to the m-th largest count when the itemsets would hold fewer
    than m features."""
    if strategy == "area" and min_support is None:
        min_support = DEFAULT_MIN_SUPPORT
    return _start_count(base, min_support, m, name)


def _apr(base: BaseModels, kind: str, n_features: int, min_support: Any, name: str,
         strategy: str = DEFAULT_STRATEGY) -> Signature:
    strategy = check_choice(strategy, "strategy", name, STRATEGIES)
    count, asked = _mining_count(base, strategy, n_features, min_support, name)
    mined = _mine(base, kind, count)
    freq = base.subsets.mean(axis=0)
    if strategy == "area":
        comb = _by_area(base, mined, n_features, freq)
    else:
        comb = _Combination([], [], [], [])
        if strategy == "fit":  # whole itemsets that fit, then the literal rule (the cut)
            _in_support_order(base, mined, n_features, freq, comb, whole_only=True)
        _in_support_order(base, mined, n_features, freq, comb, whole_only=False,
                          min_length=2 if strategy == "fragments" else 1)
    _fill_by_frequency(comb, base, n_features, freq)
    if len(comb.chosen) < n_features:  # cannot happen: the threshold guarantees m features
        raise RuntimeError(f"{name}: the frequent itemsets hold only {len(comb.chosen)} "
                           "features.")
    sizes = [len(u["items"]) for u in comb.used]
    sups = [u["support"] for u in comb.used]
    scanned = comb.scanned or [Itemset((), 0, 0.0)]
    prov = {
        "itemset_kind": kind,
        "strategy": strategy,
        "min_support_requested": None if asked is None else asked / base.n_models,
        "min_support_used": count / base.n_models,
        "min_count_used": count,
        "n_itemsets_mined": len(mined),
        "n_itemsets_used": len(comb.used),
        "mean_itemset_size": float(np.mean(sizes)) if sizes else 0.0,
        "mean_itemset_support": float(np.mean(sups)) if sups else 0.0,
        "n_itemsets_scanned": len(comb.scanned),
        "mean_scanned_size": float(np.mean([len(t.items) for t in scanned])),
        "mean_scanned_support": float(np.mean([t.support for t in scanned])),
        "itemsets": comb.used,
        "cut": comb.cut,
        "filled_by_frequency": comb.filled or [],
    }
    return signature(base, comb.chosen, scores=comb.scores, score_name="itemset_support",
                     operator=name, provenance=prov)


@doc_params
@declare_operator("closedApr", kind="single", max_features=n_selected_features)
def closed_apr(base: BaseModels, *, n_features: int, min_support: Any = None,
               strategy: str = DEFAULT_STRATEGY) -> Signature:
    """closedApr: combine frequent closed itemsets into m features (KDD 2012, sec. 2.2).

    "The union of the most frequent itemsets until the union holds m features", read as
    ``strategy`` says (docs/operators.md, "Which closedApr?", has the evidence):

    - ``"literal"`` (default, the paper's definition): itemsets by decreasing support, the
      last one cut. Provably the same features as mostFreq up to ties (the closure of a
      feature has the feature's frequency, and every item of a closed itemset of support s
      has frequency >= s);
    - ``"area"`` (modelmine's own): greedy tiling, Geerts et al. (2004): at each step the
      closed itemset covering the largest area ``support count x new features`` of the
      base-model matrix, mined at the run's minimum support (0.2, the lower end of KDD 2012
      Table 3's supports): multi-feature model fragments shared by many models enter first;
    - ``"fragments"``: itemsets of length >= 2 by decreasing support, then the most
      frequent single features;
    - ``"fit"``: itemsets by decreasing support, whole, skipping those that would
      overshoot m, then the literal rule.

    The provenance holds the itemsets used, their number, mean size and mean support (KDD
    2012, Table 3), the cut, the features filled by frequency, the thresholds.

    Parameters
    ----------
    %(n_features)s
    %(min_support)s
    strategy : {"literal", "area", "fragments", "fit"}, default="literal"
        How the itemsets are combined (above).
    """
    return _apr(base, "closed", n_features, min_support, "closedApr", strategy)


@doc_params
@declare_operator("maxApr", kind="single", max_features=n_selected_features)
def max_apr(base: BaseModels, *, n_features: int, min_support: Any = None,
            strategy: str = DEFAULT_STRATEGY) -> Signature:
    """maxApr: combine frequent maximal itemsets into m features (KDD 2012, sec. 2.2).

    As closedApr with maximal itemsets. Maximal itemsets depend on the threshold: the
    default ``"literal"`` (and ``"fragments"``, ``"fit"``) mines at the m-th largest
    feature frequency, where maximal itemsets are short; ``"area"`` mines at the run's
    minimum support (0.2), low enough that they are long (KDD 2012 Table 3 reports supports
    of 0.17 to 0.41).

    Parameters
    ----------
    %(n_features)s
    %(min_support)s
    strategy : {"literal", "area", "fragments", "fit"}, default="literal"
        As for closedApr.
    """
    return _apr(base, "maximal", n_features, min_support, "maxApr", strategy)


def _all_apr(base: BaseModels, kind: str, k: int, min_support: Any, name: str
             ) -> list[Signature]:
    tops, count, asked, n_mined = top_itemsets(base, kind, k, min_support, name)
    freq = base.subsets.mean(axis=0)
    out = []
    for rank, s in enumerate(tops):
        feats = feature_order(freq, base, descending=True,
                              candidates=np.array(s.items, dtype=np.int64))
        out.append(signature(base, feats, scores=freq[feats], score_name="frequency",
                             operator=name, provenance={
                                 "itemset_rank": rank, "support": s.support,
                                 "count": s.count, "itemset_kind": kind,
                                 "min_support_used": count / base.n_models,
                                 "min_support_requested": (None if asked is None
                                                           else asked / base.n_models),
                                 "n_itemsets_mined": n_mined}))
    return out


@declare_operator("allClosedApr", kind="multi")
def all_closed_apr(base: BaseModels, *, n_signatures: int, min_support: Any = None
                   ) -> list[Signature]:
    """allClosedApr: the k closed itemsets of highest support (KDD 2012, sec. 2.4).

    Same itemset order as closedApr. The threshold starts at ``min_support`` (default:
    the k-th largest feature frequency) and is lowered until k closed itemsets exist; the
    k of highest support do not depend on it.
    """
    return _all_apr(base, "closed", n_signatures, min_support, "allClosedApr")


@declare_operator("allMaxApr", kind="multi")
def all_max_apr(base: BaseModels, *, n_signatures: int, min_support: Any = None
                ) -> list[Signature]:
    """allMaxApr: the k maximal itemsets of highest support (KDD 2012, sec. 2.4).

    The threshold starts at ``min_support`` (default: the k-th largest feature frequency)
    and is lowered one transaction at a time to the highest count with k maximal itemsets.
    """
    return _all_apr(base, "maximal", n_signatures, min_support, "allMaxApr")
