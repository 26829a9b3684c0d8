"""CFS: correlation-based feature selection (Hall 1999), the seventh selector of KDD 2012.

Hall's merit of a subset S of k features (Hall 1999, chapter 4, equation 4.1)::

    merit(S) = k r_cf / sqrt(k + k (k - 1) r_ff)
             = sum_{f in S} SU(f, C) / sqrt(k + 2 sum_{f < g in S} SU(f, g))

with symmetrical uncertainty SU between a feature and the class (r_cf, averaged) and
between features (r_ff), on features discretised by MDL (Fayyad and Irani 1993), as WEKA's
``CfsSubsetEval`` does (with the MDL "better encoding" and SU held as floats). The subset
is found as WEKA 3.6's ``BestFirst -D 1 -N 5`` finds it (:func:`cfs_search`), then WEKA's
locally predictive features are added; the subsets equal WEKA's on every shared dataset
(``tests/selectors/test_weka_information.py``, ``docs/weka.md``). CFS chooses its own
subset size (KDD 2012, section 3.3): ``n_features`` of :func:`modelmine.bootstrap` is a
cap.

Speed: SU with the class is computed once; the SU of a newly added feature against every
feature comes from one vectorised pass over the discretised codes (cached per feature),
and the merits of all the children of a subset are evaluated at once from running sums.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ._base import SelectorKind, SelectorOutput
from ._discretising import _SortedColumnsShared
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


def _weka_corr(su: NDArray[np.float64], with_class: bool) -> NDArray[np.float64]:
    """SU as CfsSubsetEval stores it: a float (``m_corr_matrix`` is ``float[][]``), and,
    between two features, 1 where SU is 0 to WEKA's 1e-6 (``symmUncertCorr``: a feature
    without information, for example constant after discretisation, counts as perfectly
    redundant with every other; with the class it counts as 0)."""
    if not with_class:
        su = np.where(np.abs(su) < 1e-6, 1.0, su)
    else:
        su = np.where(np.abs(su) < 1e-6, 0.0, su)
    return su.astype(np.float32).astype(np.float64)


class _Correlations:
    """SU with the class and, on demand, SU rows between features, as WEKA stores them."""

    def __init__(self, codes: NDArray[np.int32], levels: NDArray[np.int64],
                 y: NDArray[np.int64]) -> None:
        p = codes.shape[1]
        rare = _RareCodes(codes, levels)
        h = _entropy(rare.level_counts.astype(np.float64))  # = _column_entropies(...)
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
        np.divide(2.0 * (h + hc - hjc), den, out=rcf, where=(h > 0) & (hc > 0))
        self.rcf = _weka_corr(np.clip(rcf, 0.0, 1.0), with_class=True)
        self._codes, self._levels, self._h = codes, levels, h
        self._su_row = rare.su_row if rare.fraction < _RareCodes.MAX_FRACTION else su_matrix_row
        self._rows: dict[int, NDArray[np.float64]] = {}

    def row(self, g: int) -> NDArray[np.float64]:
        """SU of feature ``g`` with every feature, as WEKA's correlation matrix holds it."""
        if g not in self._rows:
            self._rows[g] = _weka_corr(self._su_row(self._codes, self._levels, g, self._h),
                                       with_class=False)
        return self._rows[g]


def cfs_search(codes: NDArray[np.int32], levels: NDArray[np.int64], y: NDArray[np.int64],
               *, max_stale: int = 5, max_features: int | None = None,
               locally_predictive: bool = True,
               ) -> tuple[list[int], float, NDArray[np.float64]]:
    """Hall's CFS merit searched as WEKA 3.6's ``BestFirst`` does (forward, ``-N 5``).

    WEKA 3.6.14's search (read from its bytecode): an open list of at most ``max_stale``
    subsets ordered by merit (ties: the one inserted first), starting from the empty set;
    the head is removed and every feature not in it is added in turn (index order); each
    child goes into the list, and becomes the best subset when its merit exceeds the best
    merit by more than 1e-5; after an expansion without such a child the stale count grows,
    and the search ends at ``max_stale``. Merits are computed from SU held as floats, as
    ``CfsSubsetEval`` does (:func:`_weka_corr`). ``locally_predictive``: then WEKA's
    ``postProcess`` (its default): in decreasing order of SU with the class, a feature joins
    the subset unless a member's SU with it exceeds its SU with the class.

    Returns the chosen features (the search's in the order it added them, then the locally
    predictive ones), the best merit of the search, and SU of every feature with the class.
    ``max_features`` caps the subset: the search does not expand subsets of that size, and
    locally predictive features stop there.
    """
    p = codes.shape[1]
    corr = _Correlations(codes, levels, y)
    rcf = corr.rcf
    cap = p if max_features is None else max_features
    # open list: (merit, subset as a tuple in the order added, sum of class SU, sum of
    # pair SU), best first, ties in insertion order
    open_list: list[tuple[float, tuple[int, ...], float, float]] = [(0.0, (), 0.0, 0.0)]
    best: tuple[int, ...] = ()
    best_merit = 0.0  # CfsSubsetEval's merit of the empty set
    stale = 0
    index = np.arange(p)
    while stale < max_stale and open_list:
        _, head, s_cf, s_ff = open_list.pop(0)
        added = False
        if len(head) < cap:
            k = len(head) + 1
            add_ff = np.zeros(p)
            for g in head:
                add_ff += corr.row(g)
            merits = (s_cf + rcf) / np.sqrt(k + 2.0 * (s_ff + add_ff))
            free = np.ones(p, dtype=bool)
            free[list(head)] = False
            # the best subset moves along the children, in index order, by steps > 1e-5
            for i in np.flatnonzero(free & (merits - best_merit > 1e-5)):
                if merits[i] - best_merit > 1e-5:
                    best, best_merit, added = (*head, int(i)), float(merits[i]), True
            # the list keeps its first max_stale entries of (itself, then the children in
            # index order) ordered by merit, ties in that order: LinkedList2.addToList
            cand = index[free]
            top = cand[np.lexsort((cand, -merits[cand]))[:max_stale]]
            merged = open_list + [(float(merits[i]), (*head, int(i)), s_cf + float(rcf[i]),
                                   s_ff + float(add_ff[i])) for i in top]
            order = sorted(range(len(merged)), key=lambda t: (-merged[t][0], t))
            open_list = [merged[t] for t in order[:max_stale]]
        if added:
            stale = 0
        else:
            stale += 1
    chosen = list(best)
    if locally_predictive and len(chosen) < cap:
        chosen = _locally_predictive(chosen, corr, cap)
    return chosen, best_merit, rcf


def _locally_predictive(chosen: list[int], corr: _Correlations, cap: int) -> list[int]:
    """WEKA's ``CfsSubsetEval.addLocallyPredictive``: every feature, in decreasing order of
    SU with the class (ties: lower index), joins when no member's SU with it reaches its SU
    with the class."""
    rcf = corr.rcf
    members = list(chosen)
    in_group = np.zeros(rcf.size, dtype=bool)
    in_group[members] = True
    for j in np.lexsort((np.arange(rcf.size), -rcf)):
        if in_group[j]:
            continue
        if len(members) >= cap:
            break
        if all(corr.row(g)[j] <= rcf[j] for g in members):
            members.append(int(j))
            in_group[j] = True
    return members


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


class CFSSelector(_SortedColumnsShared):
    """CFS (Hall 1999) as WEKA 3.6's ``CfsSubsetEval`` with ``BestFirst`` (KDD 2012,
    section 3.3, "CFS"); it chooses its own subset.

    The subset is the best subset found by :func:`cfs_search` (``BestFirst -D 1 -N
    max_stale``), then, with ``locally_predictive=True`` (WEKA's default; ``-L`` turns it
    off), the locally predictive features WEKA adds after the search. ``n_features`` of
    :func:`modelmine.bootstrap` caps it. The ranking puts the chosen features first, in the
    order they were added, then the others by decreasing SU with the class (ties: lower
    index): a total order, as the other selectors give.
    """

    name = "cfs"
    kind: SelectorKind = "subset"

    def __init__(self, max_stale: int = 5, locally_predictive: bool = True) -> None:
        from ..validation import check_flag, check_int

        self.max_stale = check_int(max_stale, "max_stale", "CFSSelector", min_value=1)
        self.locally_predictive = check_flag(locally_predictive, "locally_predictive",
                                             "CFSSelector")

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        codes, levels = discretize(X, y, method="mdl")
        return self._from_codes(codes, levels, y)

    def select_rows(self, prepared: Any, X: Any, y: np.ndarray, rows: np.ndarray, *,
                    random_state: int) -> SelectorOutput:
        """:meth:`select` on ``X[rows], y[rows]``, bit for bit: the resample's MDL codes
        from the sorted columns (:func:`._information.resample_codes`), then the search."""
        from ._information import resample_codes

        codes, levels = resample_codes(prepared, y, rows)
        return self._from_codes(codes, levels, y[rows])

    def _from_codes(self, codes: np.ndarray, levels: np.ndarray,
                    y: np.ndarray) -> SelectorOutput:
        from ..validation import param_error

        if np.unique(y).size < 2:
            raise param_error("y", "the cfs selector", "two or more classes",
                              "a single class", show=False)
        if not (levels > 1).any():
            raise param_error("X", "the cfs selector", "at least one feature that MDL "
                              "discretisation does not collapse to one level",
                              "all features constant after discretisation", show=False)
        chosen, _, rcf = cfs_search(codes, levels, y, max_stale=self.max_stale,
                                    locally_predictive=self.locally_predictive)
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
        return {"max_stale": self.max_stale, "locally_predictive": self.locally_predictive}
