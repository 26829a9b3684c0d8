"""Productive itemsets searched on all the base models, calibrated by swap randomisation.

The holdout evaluation of :func:`self_sufficient_itemsets` (Webb, "Discovering significant
patterns", Machine Learning 68, 2007, section 6) spends half of the base models choosing
which itemsets to test. With b = 100 models and p = 120 features that half cannot single
out a triple co-selected in 12 of the models from the 280,840 chance triples when its
features are frequent on their own (issue 49, docs/diagnostics.md). Here every itemset of
the family is searched and tested on all the models, and the multiplicity of the search is
paid exactly instead:

- **The family** is every itemset of 2 to ``max_len`` features held by at least
  ``min_count`` models (the frequent itemsets), each with its productivity p-value (the
  largest one-sided Fisher p-value over its splits into two parts: Webb 2007, section 5;
  "Self-sufficient itemsets", ACM TKDD 4(1), 2010, section 3).
- **The null.** Under a Rasch-type model of independent selections (model i takes feature
  j with probability ``logistic(theta_i + beta_j)``) the models' sizes and the features'
  frequencies are sufficient, and given them every selection matrix with those margins is
  equally likely. Swap randomisation samples exactly that (Gionis, Mannila, Mielikainen and
  Tsaparas, "Assessing data mining results via swap randomization", ACM TKDD 1(3), 2007),
  here by the global curveball chain (Strona et al., Nature Communications 5, 2014;
  Carstens, Berger and Strona, MethodsX 5, 2018), which is symmetric, hence reversible
  with the uniform distribution. Besag and Clifford's parallel construction ("Generalized
  Monte Carlo significance tests", Biometrika 76(4), 1989, section 3) makes the observed
  matrix and the R randomised ones exchangeable under the null whatever the chain's mixing:
  the chain runs from the observed matrix to a hidden one, and every randomised matrix
  runs from the hidden one.
- **The error rate.** Each randomised matrix is mined the same way, and the smallest
  productivity p-value of each itemset size (a layer) is kept. An itemset of size k
  passes when fewer randomised matrices than the level allows have a layer-k minimum at
  or below its p-value: a Westfall-Young single-step min-p adjustment within each layer
  (Westfall and Young, "Resampling-based multiple testing", Wiley 1993, section 2.6),
  the level shared equally among the ``max_len - 1`` layers (Webb 2007, section 5,
  layered critical values). The family-wise error rate is at most the level under the
  Rasch null, exactly, for every family size; it bounds the false discovery rate too.
- **Testability** (Tarone, "A modified Bonferroni method for discrete data", Biometrics
  46, 1990; Terada et al., PNAS 110(32), 2013). An itemset held by t models cannot have a
  productivity p-value below ``max_i C(n_i, t) / C(b, t)`` over its features i (the
  split {i} | the rest cannot do better than all t models landing among the n_i that hold
  i), and that bound only grows as features are added. The search skips the itemsets
  whose bound exceeds the smallest p-value that matters (``cap``), which changes no
  minimum below it: a randomised matrix's minimum above the cap is only known to be
  above it, and an observed itemset is listed when its p-value is at most the cap.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator
from typing import Any

import numpy as np
from scipy.special import gammaln
from threadpoolctl import threadpool_limits

from ._itemset_null import global_curveball

__all__: list[str] = []

#: The p-values resolved: randomised minima and observed itemsets at or below this are
#: exact, the rest only known to be above it (raised to 1 for a layer whose critical
#: value lies above it: small families).
CAP = 1e-2
#: Global curveball sweeps (b / 2 trades each) from the observed matrix to the hidden one
#: and from the hidden one to each randomised matrix (about 5 b trades: Strona et al.
#: 2014 find the chain mixed after a few b).
SWEEPS = 10
#: Prefixes per count product (bounds the memory of one block to CHUNK x p floats).
CHUNK = 8192


@functools.lru_cache(maxsize=8)
def log_factorials(n: int) -> np.ndarray:
    """``ln k!`` for k = 0..n (cached: read only)."""
    out = gammaln(np.arange(int(n) + 1, dtype=np.float64) + 1.0)
    out.setflags(write=False)
    return out


class FisherTails:
    """One-sided hypergeometric tails ``P(H >= t)``, ``H ~ Hypergeom(b, n_x, n_y)``: the
    p-value of Fisher's exact test that the models holding X and those holding Y overlap
    in ``t`` or more of the b models. One row of tails per pair ``(n_x, n_y)`` (symmetric),
    computed once from log factorials and summed from the far tail up (no cancellation),
    then looked up."""

    def __init__(self, b: int) -> None:
        self.b = int(b)
        self.logfact = log_factorials(self.b + 1)
        self.row_of = np.full((self.b + 1) * (self.b + 1), -1, np.int64)
        self.rows = np.zeros((64, self.b + 2))
        self.n_rows = 0
        self._fewest: dict[float, np.ndarray] = {}

    def sf(self, t: np.ndarray, nx: np.ndarray, ny: np.ndarray) -> np.ndarray:
        """``P(H >= t)`` for arrays of counts (``t`` at most ``min(n_x, n_y)``)."""
        key = np.minimum(nx, ny).astype(np.int64) * (self.b + 1) + np.maximum(nx, ny)
        rows = self.row_of[key]
        missing = rows < 0
        if missing.any():
            self._add(np.unique(key[missing]))
            rows = self.row_of[key]
        return self.rows[rows, t]

    def _add(self, keys: np.ndarray) -> None:
        b, lf = self.b, self.logfact
        K = (keys // (b + 1))[:, None]
        n = (keys % (b + 1))[:, None]
        x = np.arange(b + 1)[None, :]
        ok = (x <= K) & (x <= n) & (n - x <= b - K)
        xs = np.where(ok, x, 0)
        # ln C(K, x) + ln C(b - K, n - x) - ln C(b, n)
        log_pmf = (lf[K] - lf[xs] - lf[np.where(ok, K - xs, 0)]
                   + lf[b - K] - lf[np.where(ok, n - xs, 0)]
                   - lf[np.where(ok, b - K - n + xs, 0)]
                   - lf[b] + lf[n] + lf[b - n])
        pmf = np.where(ok, np.exp(np.where(ok, log_pmf, 0.0)), 0.0)
        tails = np.zeros((keys.size, b + 2))
        tails[:, :b + 1] = np.cumsum(pmf[:, ::-1], axis=1)[:, ::-1]
        np.minimum(tails, 1.0, out=tails)
        need = self.n_rows + keys.size
        if need > self.rows.shape[0]:
            grown = np.zeros((max(need, 2 * self.rows.shape[0]), b + 2))
            grown[:self.n_rows] = self.rows[:self.n_rows]
            self.rows = grown
        self.rows[self.n_rows:need] = tails
        self.row_of[keys] = np.arange(self.n_rows, need)
        self.n_rows = need

    def fewest(self, n: np.ndarray, cap: float) -> np.ndarray:
        """The fewest models that must hold an itemset whose most frequent feature is held
        by ``n`` models for its productivity p-value to be at most ``cap``: the smallest t
        with ``C(n, t) / C(b, t) <= cap`` (Tarone's bound: the split {i} | rest cannot give
        less when all t models holding the itemset fall among the n holding i; it
        decreases with t and grows with n), ``b + 1`` where no t does."""
        key = float(cap)
        table = self._fewest.get(key)
        if table is None:
            b, lf = self.b, self.logfact
            nn = np.arange(b + 1)[:, None]
            tt = np.arange(b + 1)[None, :]
            ok = tt <= nn
            log_bound = np.where(ok, lf[nn] - lf[np.where(ok, nn - tt, 0)] - lf[b]
                                 + lf[b - tt], np.inf)
            reach = log_bound <= (np.log(cap) if cap > 0 else -np.inf) + 1e-9
            table = np.where(reach.any(axis=1), reach.argmax(axis=1), b + 1)
            self._fewest[key] = table
        return table[n]


@functools.cache
def splits(k: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """The 2^(k-1) - 1 splits of positions 0..k-1 into two non-empty parts (the part with
    position 0 first; cached: read only)."""
    out = []
    for r in range(k - 1):
        for rest in itertools.combinations(range(1, k), r):
            left = np.array((0, *rest), np.intp)
            right = np.setdiff1d(np.arange(k), left)
            left.setflags(write=False)
            right.setflags(write=False)
            out.append((left, right))
    return out


def _packed(M: np.ndarray) -> np.ndarray:
    """Each column of the boolean matrix as 64-bit words of its rows' bits."""
    b, p = M.shape
    words = max(1, -(-b // 64))
    out = np.zeros((p, words * 8), np.uint8)
    out[:, : -(-b // 8)] = np.packbits(M.T, axis=1)
    return out.view(np.uint64)


def scan(M: np.ndarray, min_count: int, max_len: int, tails: FisherTails,
         caps: dict[int, float]
         ) -> tuple[dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]], int]:
    """The itemsets of 2..``max_len`` features held by ``min_count`` models of ``M`` whose
    productivity p-value is at most ``caps[k]`` (k their size), per size: ``(items``
    (n x k feature indices), ``counts``, ``p-values)``; and how many frequent itemsets
    were searched.

    Level by level, each frequent itemset of k - 1 features is extended by every feature
    after its last one (counts by one matrix product per block of itemsets), and
    Tarone's bound skips what cannot reach the caps of this or a later level."""
    b = M.shape[0]
    out: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
    c1_all = M.sum(axis=0)
    cols = np.flatnonzero(c1_all >= min_count)
    for k in range(2, max_len + 1):
        out[k] = (np.zeros((0, k), np.intp), np.zeros(0, np.int64), np.zeros(0))
    if cols.size < 2:
        return out, 0
    E = M[:, cols]
    n1 = c1_all[cols].astype(np.int64)
    Ef = E.astype(np.float32)
    ET = np.ascontiguousarray(E.T)
    bits = _packed(E)
    later = {k: max(caps[j] for j in range(k, max_len + 1)) for k in range(2, max_len + 1)}
    n_found = 0
    # level 2: every pair
    C2 = np.rint(Ef.T @ Ef).astype(np.int64)
    i, j = np.triu_indices(cols.size, 1)
    t = C2[i, j]
    keep = t >= np.maximum(min_count, tails.fewest(np.maximum(n1[i], n1[j]), later[2]))
    level = np.column_stack([i[keep], j[keep]])
    counts = t[keep]
    top = np.maximum(n1[level[:, 0]], n1[level[:, 1]])
    for k in range(2, max_len + 1):
        if later[k] <= 0.0:  # nothing of this size or longer can reach its cap
            break
        if k > 2:
            level, counts, top = _extend(level, counts, top, ET, Ef, n1,
                                         np.maximum(min_count, tails.fewest(
                                             np.arange(b + 1), later[k])))
        n_found += level.shape[0]
        if level.shape[0] == 0:
            break
        cap = caps[k]
        test = np.flatnonzero(counts >= tails.fewest(top, cap))
        items, t_test = level[test], counts[test]
        worst = np.zeros(test.size)
        for left, right in splits(k)[::-1]:  # the splits {first k - 1} | {last} first
            if items.shape[0] == 0:
                break
            nx = _part_counts(items[:, left], n1, bits)
            ny = _part_counts(items[:, right], n1, bits)
            worst = np.maximum(worst, tails.sf(t_test, nx, ny))
            ok = worst <= cap
            items, t_test, worst = items[ok], t_test[ok], worst[ok]
        out[k] = (cols[items], t_test, worst)
    return out, n_found


def worst_splits(M: np.ndarray, items: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For each itemset of ``k`` features (the rows of ``items``) in the boolean matrix
    ``M``: its count, its productivity p-value (the largest one-sided Fisher p-value over
    its splits), the index in ``splits(k)`` of the first split that gives it, and the
    largest count a split predicts under independence (``n_X n_Y / b``): what
    ``productivity_pvalue`` gives one itemset at a time, for all of them at once."""
    b = M.shape[0]
    n = items.shape[0]
    tails = FisherTails(b)
    bits = _packed(M)
    n1 = M.sum(axis=0).astype(np.int64)
    t = _part_counts(items, n1, bits)
    worst = np.full(n, -1.0)
    which = np.zeros(n, np.intp)
    expected = np.zeros(n)
    for s, (left, right) in enumerate(splits(items.shape[1])):
        nx = _part_counts(items[:, left], n1, bits)
        ny = _part_counts(items[:, right], n1, bits)
        p = tails.sf(t, nx, ny)
        better = p > worst
        worst[better], which[better] = p[better], s
        expected = np.maximum(expected, nx * ny / b if b else 0.0)
    return t, worst, which, expected


def _part_counts(part: np.ndarray, n1: np.ndarray, bits: np.ndarray) -> np.ndarray:
    """Models holding every feature of each row of ``part`` (local indices)."""
    if part.shape[1] == 1:
        return n1[part[:, 0]]
    words = np.bitwise_and.reduce(bits[part], axis=1)
    return np.bitwise_count(words).sum(axis=1, dtype=np.int64)


def _extend(level: np.ndarray, counts: np.ndarray, top: np.ndarray, ET: np.ndarray,
            Ef: np.ndarray, n1: np.ndarray, fewest: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The extensions of the itemsets of ``level`` by a feature after their last one that
    are held by at least ``fewest[n]`` models, n the count of their most frequent feature:
    ``(items, counts, largest feature count)``."""
    q = Ef.shape[1]
    found_items, found_counts, found_top = [], [], []
    # fewest[] grows with n: the threshold of an extension is the larger of its parts'
    need_col = fewest[n1].astype(np.float32)
    need_row = fewest[top].astype(np.float32)
    later = np.arange(q)[None, :]
    # by last feature, so that a block only counts the features after its first row's
    order = np.argsort(level[:, -1], kind="stable")
    level, top, need_row = level[order], top[order], need_row[order]
    for start in range(0, level.shape[0], CHUNK):
        block = level[start:start + CHUNK]
        first = int(block[0, -1]) + 1
        if first >= q:
            break
        held = ET[block].all(axis=1).astype(np.float32)  # rows x b
        ext = held @ Ef[:, first:]
        need = np.maximum(need_row[start:start + CHUNK, None], need_col[None, first:])
        need[later[:, first:] <= block[:, -1:]] = np.inf
        rows, extra = np.nonzero(ext >= need)
        found_items.append(np.column_stack([block[rows], extra + first]))
        found_counts.append(np.rint(ext[rows, extra]).astype(np.int64))
        found_top.append(np.maximum(top[start + rows], n1[extra + first]))
    if not found_items:
        k = level.shape[1] + 1
        return np.zeros((0, k), np.intp), np.zeros(0, np.int64), np.zeros(0, np.int64)
    return (np.concatenate(found_items), np.concatenate(found_counts),
            np.concatenate(found_top))


def randomised(matrix: np.ndarray, n_randomizations: int, seed: np.random.SeedSequence,
               strata: np.ndarray | None = None) -> Iterator[np.ndarray]:
    """``n_randomizations`` matrices with the margins of ``matrix`` (and the column sums
    of each stratum of rows, with ``strata``), exchangeable with it when it was drawn
    uniformly among the matrices with those margins: SWEEPS global curveball sweeps from
    it to a hidden matrix, then SWEEPS from the hidden one to each (Besag and Clifford,
    Biometrika 76(4), 1989, section 3: the chain is reversible, so the observed matrix is
    one more draw from the hidden one). The columns selected in no model stay out."""
    used = np.flatnonzero(matrix.any(axis=0))
    chain = np.ascontiguousarray(matrix[:, used])
    rng = np.random.default_rng(seed)
    global_curveball(chain, SWEEPS, rng, strata)  # to the hidden matrix
    for _ in range(n_randomizations):
        draw = chain.copy()
        global_curveball(draw, SWEEPS, rng, strata)
        yield draw


def null_minima(matrix: np.ndarray, min_count: int, max_len: int, tails: FisherTails,
                caps: dict[int, float], n_randomizations: int, allowed: int,
                seed: np.random.SeedSequence, strata: np.ndarray | None = None,
                observed: dict[int, np.ndarray] | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
    """Each layer's smallest productivity p-value in ``n_randomizations`` matrices with
    the margins of ``matrix`` (rows: randomisations; columns: sizes 2..max_len), drawn by
    Besag and Clifford's parallel construction on the global curveball chain, and the
    p-value down to which each matrix was searched (same shape).

    A minimum above the depth searched is recorded as ``inf`` (only known to be larger).
    Only the ``allowed + 1`` smallest minima of a layer decide, so a matrix is searched
    below the ``allowed + 1``-th smallest minimum of the matrices before it (below
    ``caps`` until there are that many). With the ``observed`` p-values of each layer (those
    at or below its cap), no deeper than the largest of them that can still pass
    (``allowed`` minima or fewer at or below it so far), and the draws stop when none
    can. A layer whose cap is below 1 also keeps its cap among them until ``allowed + 1``
    minima lie at or below it: until then the critical value may lie above the cap, and
    an itemset above the cap, not observed here, may pass."""
    L = max_len - 1
    minima = np.full((n_randomizations, L), np.inf)
    depth = np.zeros((n_randomizations, L))
    alive = None if observed is None else {
        k: np.sort(np.append(v, caps[k]) if caps[k] < 1.0 else v)
        for k, v in observed.items()}
    beaten = None if alive is None else {k: np.zeros(v.size, np.int64)
                                         for k, v in alive.items()}
    for r, draw in enumerate(randomised(matrix, n_randomizations, seed, strata)):
        running = dict(caps)
        if r > allowed:
            kth = np.partition(minima[:r], allowed, axis=0)[allowed]
            running = {k: float(min(caps[k], kth[k - 2])) for k in caps}
        if alive is not None:
            running = {k: min(v, float(alive[k][-1]) if alive[k].size else 0.0)
                       for k, v in running.items()}
            if not any(running.values()):
                break
        depth[r] = [running[k] for k in range(2, max_len + 1)]
        layers, _ = scan(draw, min_count, max_len, tails, running)
        for k, (_, _, pv) in layers.items():
            if pv.size:
                minima[r, k - 2] = pv.min()
        if alive is not None and beaten is not None:
            for k in alive:
                beaten[k] += alive[k] >= minima[r, k - 2]
                keep = beaten[k] <= allowed
                alive[k], beaten[k] = alive[k][keep], beaten[k][keep]
    return minima, depth


def allowed_at_or_below(n_randomizations: int, level: float, n_layers: int) -> int:
    """How many randomised minima may lie at or below an itemset's p-value for it to pass:
    the largest a with ``n_layers (1 + a) / (1 + R) <= level`` (-1: none can pass)."""
    return int(np.floor(level * (1 + n_randomizations) / n_layers - 1 + 1e-9))


def adjusted(p_values: np.ndarray, minima: np.ndarray, depth: np.ndarray, n_layers: int,
             allowed: int) -> np.ndarray:
    """Westfall-Young adjusted p-values of one layer's itemsets, Bonferroni over the
    layers: ``min(1, L (1 + a) / (1 + R))``, a the randomised minima at or below the
    p-value. Exact where every matrix whose minimum is unknown was searched at least that
    deep; elsewhere a lower bound that knows a > ``allowed`` (the search only stops short
    of a p-value that can no longer pass)."""
    R = minima.size
    below = np.searchsorted(np.sort(minima), p_values, side="right")
    unknown = depth[~np.isfinite(minima)]
    shallowest = unknown.min() if unknown.size else np.inf
    known = p_values <= shallowest
    below = np.where(known, below, np.maximum(below, allowed + 1))
    return np.minimum(1.0, n_layers * (1.0 + below) / (1.0 + R))


def search(matrix: np.ndarray, min_count: int, max_len: int, n_randomizations: int,
           level: float, n_listed: int, seed: np.random.SeedSequence,
           strata: np.ndarray | None = None) -> dict[str, Any]:
    """The whole procedure: the observed itemsets whose p-value is at most ``CAP``, the
    randomised layer minima searched as deep as they can still decide whether one of them
    passes (the cap raised to 1 for a layer with too few minima below it: a small family),
    and the observed itemsets with their adjusted p-values (exact when they pass, lower
    bounds otherwise), more of them listed until ``n_listed`` are.

    Returns a dict: ``found`` (items, count, p-value, adjusted p-value of each itemset
    listed), ``critical`` (each size's critical p-value, NaN where the search stopped
    before knowing it), ``minima`` and ``depth`` (each randomised matrix's layer minima
    and the p-value down to which it was searched)."""
    with threadpool_limits(limits=1):  # small products: threads only contend
        return _search(matrix, min_count, max_len, n_randomizations, level, n_listed, seed,
                       strata)


def _search(matrix: np.ndarray, min_count: int, max_len: int, n_randomizations: int,
            level: float, n_listed: int, seed: np.random.SeedSequence,
            strata: np.ndarray | None) -> dict[str, Any]:
    b = matrix.shape[0]
    tails = FisherTails(b)
    n_layers = max_len - 1
    allowed = allowed_at_or_below(n_randomizations, level, n_layers)
    caps = {k: CAP for k in range(2, max_len + 1)}
    while True:
        tested, _ = scan(matrix, min_count, max_len, tails, caps)
        minima, depth = null_minima(matrix, min_count, max_len, tails, caps,
                                    n_randomizations, allowed, seed, strata,
                                    {k: v[2] for k, v in tested.items()})
        kth = np.sort(minima, axis=0)[allowed]
        finished = bool(depth[-1].any())  # no early stop: every matrix searched
        # fewer than allowed + 1 minima known to lie below the cap (the draws did not stop
        # then: the cap stays among the p-values that can pass): the critical value may
        # lie above it (a small family), and then so may what passes: test every p-value
        unresolved = [k for k in caps if caps[k] < 1.0
                      and np.isfinite(minima[:, k - 2]).sum() <= allowed]
        if not unresolved:
            break
        caps.update({k: 1.0 for k in unresolved})
    # the critical value where the search went deep enough to know it
    critical = {}
    for k in caps:
        v, unknown = kth[k - 2], ~np.isfinite(minima[:, k - 2])
        exact = finished and bool((depth[unknown, k - 2] >= v).all())
        critical[k] = float(v) if exact else float("nan")
    # the itemsets listed: all that were tested, or more until n_listed are shown
    listed = tested
    shown = CAP
    while sum(v[2].size for v in listed.values()) < n_listed and shown < 1.0:
        shown = min(1.0, shown * 10)
        listed, _ = scan(matrix, min_count, max_len, tails,
                         {k: max(shown, caps[k]) for k in caps})
    found = []
    for k, (items, counts, pv) in listed.items():
        q = adjusted(pv, minima[:, k - 2], depth[:, k - 2], n_layers, allowed)
        found += [(its, int(c), float(p), float(a)) for its, c, p, a in
                  zip(items, counts, pv, q)]
    return {"found": found, "critical": critical, "minima": minima, "depth": depth}
