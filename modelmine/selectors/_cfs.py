"""CFS: correlation-based feature selection (Hall 1999), the seventh selector of KDD 2012.

Hall's merit of a subset S of k features (Hall 1999, chapter 4, equation 4.1)::

    merit(S) = k r_cf / sqrt(k + k (k - 1) r_ff)
             = sum_{f in S} SU(f, C) / sqrt(k + 2 sum_{f < g in S} SU(f, g))

with symmetrical uncertainty SU between a feature and the class (r_cf, averaged) and
between features (r_ff), on features discretised by MDL (Fayyad and Irani 1993), as WEKA's
``CfsSubsetEval`` does. The subset is found by WEKA's ``BestFirst`` forward search: an
open list ordered by merit, the best subset expanded by adding each feature not in it,
subsets seen before skipped, the search stopped after 5 consecutive expansions that do not
improve the best merit (``searchTermination``). CFS chooses its own subset size (KDD 2012,
section 3.3): ``n_features`` of :func:`modelmine.bootstrap` is a cap.

Speed: SU with the class is computed once; the SU of a newly added feature against every
feature comes from one vectorised pass over the discretised codes (cached per feature),
and the merits of all the children of a subset are evaluated at once from running sums.
"""

from __future__ import annotations

import heapq
import itertools
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ._base import Selector, SelectorKind, SelectorOutput
from ._information import discretize

__all__ = ["CFSSelector", "cfs_search", "su_matrix_row"]


def _entropy(counts: NDArray[np.float64], axis: int = -1) -> NDArray[np.float64]:
    total = counts.sum(axis=axis, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(counts > 0, counts / np.where(total > 0, total, 1), 0.0)
        return -(np.where(p > 0, p * np.log(p), 0.0)).sum(axis=axis)


def _column_entropies(codes: NDArray[np.int32], levels: NDArray[np.int64]) -> NDArray[np.float64]:
    p = codes.shape[1]
    width = int(levels.max(initial=1))
    flat = (np.arange(p)[None, :] * width + codes).ravel()
    counts = np.bincount(flat, minlength=p * width).reshape(p, width).astype(np.float64)
    return _entropy(counts)


def su_matrix_row(codes: NDArray[np.int32], levels: NDArray[np.int64], g: int,
                  h: NDArray[np.float64]) -> NDArray[np.float64]:
    """SU(g, f) = 2 (H(g) + H(f) - H(g, f)) / (H(g) + H(f)) for every feature f, at once.

    0 where both entropies are 0 (two constant features carry no information).
    """
    p = codes.shape[1]
    width = int(levels.max(initial=1))
    lg = int(levels[g])
    joint = codes[:, g][:, None].astype(np.int64) * width + codes  # (n, p), < lg * width
    flat = (np.arange(p)[None, :] * (lg * width) + joint).ravel()
    counts = np.bincount(flat, minlength=p * lg * width).reshape(p, lg * width)
    hgf = _entropy(counts.astype(np.float64))
    den = h[g] + h
    out = np.zeros(p)
    np.divide(2.0 * (h[g] + h - hgf), den, out=out, where=den > 0)
    return np.clip(out, 0.0, 1.0)


class _RareCodes:
    """The entries of ``codes`` that differ from their feature's most frequent code.

    On text data after MDL discretisation almost every entry is its word's "absent" level:
    the joint class counts of feature g with every feature f then come from the few other
    entries, and each feature's dominant column of the table is the count of g's levels
    minus the rest (issue 15: CFS was half of the KDD'12 protocol on BASEHOCK). The counts
    are integers, so the table, and every SU computed from it, equals
    :func:`su_matrix_row`'s exactly.
    """

    #: Below this fraction of non-dominant entries the route is used (it costs about one
    #: pass over those entries instead of one over all n x p entries).
    MAX_FRACTION = 0.25

    def __init__(self, codes: NDArray[np.int32], levels: NDArray[np.int64]) -> None:
        n, p = codes.shape
        width = int(levels.max(initial=1))
        counts = np.bincount((np.arange(p)[None, :] * width + codes).ravel(),
                             minlength=p * width).reshape(p, width)
        self.level_counts = counts  # (p, width): what _column_entropies counts
        self.mode = counts.argmax(axis=1)
        rows, feats = np.nonzero(codes != self.mode[None, :])
        self.rows, self.feats = rows, feats
        self.vals = codes[rows, feats].astype(np.int64)
        self.fraction = rows.size / max(1, n * p)

    def su_row(self, codes: NDArray[np.int32], levels: NDArray[np.int64], g: int,
               h: NDArray[np.float64]) -> NDArray[np.float64]:
        """:func:`su_matrix_row` from the rare entries (equal to it exactly)."""
        p = codes.shape[1]
        width = int(levels.max(initial=1))
        lg = int(levels[g])
        cg = codes[:, g].astype(np.int64)
        flat = self.feats * (lg * width) + cg[self.rows] * width + self.vals
        counts = np.bincount(flat, minlength=p * lg * width).reshape(p, lg, width)
        per_level = np.bincount(cg, minlength=lg)[:lg]
        counts[np.arange(p)[:, None], np.arange(lg)[None, :], self.mode[:, None]] = (
            per_level[None, :] - counts.sum(axis=2))
        hgf = _entropy(counts.reshape(p, lg * width).astype(np.float64))
        den = h[g] + h
        out = np.zeros(p)
        np.divide(2.0 * (h[g] + h - hgf), den, out=out, where=den > 0)
        return np.clip(out, 0.0, 1.0)


def cfs_search(codes: NDArray[np.int32], levels: NDArray[np.int64], y: NDArray[np.int64],
               *, max_stale: int = 5, max_features: int | None = None
               ) -> tuple[list[int], float, NDArray[np.float64]]:
    """Best-first forward search of Hall's CFS merit (WEKA's BestFirst, section docstring).

    Returns the chosen features in the order the search added them, the best merit, and
    SU of every feature with the class. Ties in merit: the subset met first (a stable heap
    by insertion order); children are generated in feature-index order.
    """
    p = codes.shape[1]
    rare = _RareCodes(codes, levels)
    h = _entropy(rare.level_counts.astype(np.float64))  # = _column_entropies(codes, levels)
    yc = y.astype(np.int64)
    k_cls = int(yc.max()) + 1
    hc = float(_entropy(np.bincount(yc, minlength=k_cls).astype(np.float64)))
    width = int(levels.max(initial=1))
    joint = yc[:, None] * width + codes
    flat = (np.arange(p)[None, :] * (k_cls * width) + joint).ravel()
    hjc = _entropy(np.bincount(flat, minlength=p * k_cls * width)
                   .reshape(p, k_cls * width).astype(np.float64))
    den = h + hc
    rcf = np.zeros(p)
    np.divide(2.0 * (h + hc - hjc), den, out=rcf, where=den > 0)
    rcf = np.clip(rcf, 0.0, 1.0)
    rows: dict[int, NDArray[np.float64]] = {}
    su_row = rare.su_row if rare.fraction < _RareCodes.MAX_FRACTION else su_matrix_row

    def row(g: int) -> NDArray[np.float64]:
        if g not in rows:
            rows[g] = su_row(codes, levels, g, h)
        return rows[g]

    # The open list holds one entry per expanded subset (a "block" of all its children,
    # sorted by merit, then feature index) instead of one entry per child: the same order
    # as pushing every child (ties: the child generated first), at O(p log p) per
    # expansion instead of p heap pushes. A child met again in a later block has the same
    # merit and comes after the first: it is skipped when popped.
    blocks: list[tuple[tuple[int, ...], NDArray[np.int64], NDArray[np.float64],
                       float, NDArray[np.float64]]] = []
    heap: list[tuple[float, int, int]] = []  # (-merit, block id, position in the block)
    expanded: set[frozenset[int]] = set()
    best: tuple[int, ...] = ()
    best_merit = 0.0
    stale = 0
    cap = p if max_features is None else max_features

    def expand(subset: tuple[int, ...], s_cf: float) -> None:
        k = len(subset) + 1
        add_ff = np.zeros(p)
        for g in subset:
            add_ff += row(g)
        s_ff = float(pair_sums[subset])
        merits = (s_cf + rcf) / np.sqrt(k + 2.0 * (s_ff + add_ff))
        merits[list(subset)] = -np.inf
        order = np.lexsort((np.arange(p), -merits))[:p - len(subset)]
        blocks.append((subset, order, merits[order], s_cf, s_ff + add_ff))
        if len(order):
            heapq.heappush(heap, (-float(merits[order[0]]), len(blocks) - 1, 0))

    pair_sums: dict[tuple[int, ...], float] = {(): 0.0}
    expanded.add(frozenset())
    expand((), 0.0)
    _, order0, merits0, _, _ = blocks[0]
    if len(order0) and merits0[0] > best_merit:  # the root's best child
        best, best_merit = (int(order0[0]),), float(merits0[0])
    else:
        stale = 1
    while heap and stale < max_stale:
        _, bid, pos = heapq.heappop(heap)
        parent, order, merits, s_cf, ff = blocks[bid]
        if pos + 1 < len(order):
            heapq.heappush(heap, (-float(merits[pos + 1]), bid, pos + 1))
        f = int(order[pos])
        child = (*parent, f)
        key = frozenset(child)
        if key in expanded:
            continue
        expanded.add(key)
        if len(child) >= cap:
            stale += 1
            continue
        pair_sums[child] = float(ff[f])
        c_cf = s_cf + float(rcf[f])
        before = best_merit
        expand(child, c_cf)
        _, c_order, c_merits, _, _ = blocks[-1]
        if len(c_order) and c_merits[0] > before:
            best, best_merit = (*child, int(c_order[0])), float(c_merits[0])
            stale = 0
        else:
            stale += 1
    return list(best), best_merit, rcf


def reference_merit(subset: list[int], rcf: NDArray[np.float64],
                    su: Any) -> float:
    """Hall's merit from its definition (k r_cf / sqrt(k + k (k - 1) r_ff)), for tests."""
    k = len(subset)
    if k == 0:
        return 0.0
    r_cf = float(np.mean(rcf[subset]))
    pairs = [su(a, b) for a, b in itertools.combinations(subset, 2)]
    r_ff = float(np.mean(pairs)) if pairs else 0.0
    return k * r_cf / float(np.sqrt(k + k * (k - 1) * r_ff))


class CFSSelector(Selector):
    """CFS (Hall 1999) with WEKA's best-first forward search; it chooses its own subset.

    The subset is the best subset found; ``n_features`` of :func:`modelmine.bootstrap`
    caps it (the search never grows a subset beyond the cap). The ranking puts the chosen
    features first, in the order the search added them, then the others by decreasing SU
    with the class (ties: lower index): a total order, as the other selectors give.
    """

    name = "cfs"
    kind: SelectorKind = "subset"

    def __init__(self, max_stale: int = 5) -> None:
        from ..validation import check_int

        self.max_stale = check_int(max_stale, "max_stale", "CFSSelector", min_value=1)

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        from ..validation import param_error

        codes, levels = discretize(X, y, method="mdl")
        if np.unique(y).size < 2:
            raise param_error("y", "the cfs selector", "two or more classes",
                              "a single class", show=False)
        if not (levels > 1).any():
            raise param_error("X", "the cfs selector", "at least one feature that MDL "
                              "discretisation does not collapse to one level",
                              "all features constant after discretisation", show=False)
        chosen, _, rcf = cfs_search(codes, levels, y, max_stale=self.max_stale)
        p = codes.shape[1]
        rest = np.setdiff1d(np.arange(p), chosen)
        rest = rest[np.lexsort((rest, -rcf[rest]))]
        order = np.concatenate([np.asarray(chosen, dtype=np.int64), rest])
        ranking = np.empty(p, dtype=np.int64)
        ranking[order] = np.arange(1, p + 1)
        support = np.zeros(p, dtype=bool)
        support[chosen] = True
        return SelectorOutput(ranking=ranking, support=support)

    def get_params(self) -> dict[str, Any]:
        return {"max_stale": self.max_stale}
