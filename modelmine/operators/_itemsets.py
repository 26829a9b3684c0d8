"""Model component combination: closedApr, maxApr, allClosedApr, allMaxApr.

Woznica, Nguyen and Kalousis (KDD 2012, sections 2.2 and 2.4) treat the b selected subsets
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
from ..constants import SUPPORT_DECAY
from ..exceptions import NotApplicableError
from ..patterns import Itemsets, mine_itemsets
from ..validation import check_fraction_or_count
from ._common import counts, feature_order, n_selected_features, signature
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


def _apr(base: BaseModels, kind: str, n_features: int, min_support: Any, name: str
         ) -> Signature:
    count, asked = _start_count(base, min_support, n_features, name)
    mined = _mine(base, kind, count)
    freq = base.subsets.mean(axis=0)
    chosen: list[int] = []
    in_sig = np.zeros(base.n_features_in, dtype=bool)
    used: list[dict[str, Any]] = []
    scores: list[float] = []
    cut: dict[str, Any] | None = None
    scanned: list[Itemset] = []
    for s in ordered_itemsets(base, mined):
        scanned.append(s)
        new = np.array([i for i in s.items if not in_sig[i]], dtype=np.int64)
        if new.size == 0:
            continue
        new = feature_order(freq, base, descending=True, candidates=new)
        room = n_features - len(chosen)
        taken = new[:room]
        if new.size > room:
            cut = {"itemset": len(used), "kept": taken.tolist(),
                   "dropped": new[room:].tolist()}
        chosen.extend(taken.tolist())
        scores.extend([s.support] * taken.size)
        in_sig[taken] = True
        used.append({"items": list(s.items), "support": s.support, "count": s.count,
                     "added": taken.tolist()})
        if len(chosen) == n_features:
            break
    if len(chosen) < n_features:  # cannot happen: the threshold guarantees m features
        raise RuntimeError(f"{name}: the frequent itemsets hold only {len(chosen)} features.")
    sizes = [len(u["items"]) for u in used]
    sups = [u["support"] for u in used]
    prov = {
        "itemset_kind": kind,
        "min_support_requested": None if asked is None else asked / base.n_models,
        "min_support_used": count / base.n_models,
        "min_count_used": count,
        "n_itemsets_mined": len(mined),
        "n_itemsets_used": len(used),
        "mean_itemset_size": float(np.mean(sizes)),
        "mean_itemset_support": float(np.mean(sups)),
        "n_itemsets_scanned": len(scanned),
        "mean_scanned_size": float(np.mean([len(t.items) for t in scanned])),
        "mean_scanned_support": float(np.mean([t.support for t in scanned])),
        "itemsets": used,
        "cut": cut,
    }
    return signature(base, chosen, scores=scores, score_name="itemset_support",
                     operator=name, provenance=prov)


@declare_operator("closedApr", kind="single", max_features=n_selected_features)
def closed_apr(base: BaseModels, *, n_features: int, min_support: Any = None) -> Signature:
    """closedApr: join the frequent closed itemsets of highest support (KDD 2012, sec. 2.2).

    Itemsets are taken in order of decreasing support (ties: longer, then lower mean rank,
    then lexicographic) and their features added until the signature holds m; the last
    itemset is cut to its most frequent new features. Provenance: the itemsets used, their
    number, mean size and mean support (KDD 2012, Table 3), the cut, the thresholds.

    Parameters
    ----------
    n_features : int
        m, at most the number of features selected by some base model.
    min_support : float in (0, 1], int or None, default=None
        Mining threshold (fraction of b or a count). None: the m-th largest feature
        frequency, the highest threshold whose frequent itemsets hold m features; a larger
        value is lowered to it. The result does not depend on it.
    """
    return _apr(base, "closed", n_features, min_support, "closedApr")


@declare_operator("maxApr", kind="single", max_features=n_selected_features)
def max_apr(base: BaseModels, *, n_features: int, min_support: Any = None) -> Signature:
    """maxApr: join the frequent maximal itemsets of highest support (KDD 2012, sec. 2.2).

    As closedApr with maximal itemsets. Maximal itemsets depend on the threshold: the
    default (None) is the m-th largest feature frequency; a larger value is lowered to it.
    """
    return _apr(base, "maximal", n_features, min_support, "maxApr")


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
