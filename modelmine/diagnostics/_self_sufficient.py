"""Which groups of features are co-selected for real? Self-sufficient itemsets.

A group of features that the base models select together (Woznica, Nguyen and Kalousis,
KDD 2012, section 2.1) shows up in the itemsets of the models, but so does every superset
that adds a feature which happened to be selected in the same models, and every subset
of it. :func:`itemset_significance` tests an itemset's support against the models' and
the features' margins: a planted triple plus a noise feature beats that null too, and the
split family chose such long itemsets (issue 49). Webb's productive itemsets answer the
question that matters here: an itemset counts only if it is co-selected more often than
*every split of it into two parts* explains (Webb, "Discovering significant patterns",
Machine Learning 68, 2007, section 5; "Self-sufficient itemsets", ACM TKDD 4(1), 2010,
section 3: "productive"): {A, B, C, D} with D independent of {A, B, C} fails the split
{A, B, C} | {D}. Among productive itemsets, those whose excess a productive superset
explains (the pair {A, B} of a co-selected triple: in the models without C, A and B are
independent) are not *independently productive* (Webb 2010, section 4), and the itemsets
left are self-sufficient.

:func:`self_sufficient_itemsets` tests that in one of two ways. By default
(``method="swap"``, ``_productive_swap.py``) every itemset is searched and tested on all
the base models, and the multiplicity of the search is paid by searching randomised
selection matrices with the same margins (swap randomisation, a Westfall-Young min-p
adjustment): a selector that picks more features in one model than in another makes every
pair of features co-selected more often than their frequencies predict, which is not what
co-selection means, and the randomised matrices keep every model's size. With
``method="holdout"``, Webb's holdout evaluation (2007, section 6): the base models are
split at random in two halves; the candidate itemsets are found and ranked on the first
(exploratory) half, and only the ``n_tested`` best are tested on the second (holdout)
half, with Benjamini-Hochberg over those; each split of an itemset is judged there by an
exact conditional test stratified by the models' sizes (Fisher's exact test across all
the models over-rejects then: ``benchmarks/bench_itemset_significance.py``).
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import hypergeom

from ..base_models import BaseModels
from ..spec import resolve_seed
from ..validation import check_choice, check_int, check_real, param_error
from ._coerce import as_selection_matrix
from ._productive_swap import log_factorials, splits, worst_splits
from ._significance import bh_qvalues

__all__ = ["productivity_pvalue", "self_sufficient_itemsets"]

_FUNC = "self_sufficient_itemsets"

#: Exploration only (no test depends on it): a pair joins the search when its one-sided
#: Fisher p-value on the exploratory half is at most this (a co-selected group's pairs are
#: co-selected too), and each level keeps the ``_BEAM`` most productive itemsets to extend.
_EDGE_P = 0.25
_BEAM = 2000
_EXPLAIN_P = 0.05
_EXPLAINED_AMONG = 200
#: ``n_strata="auto"``: this many bins of model size when the sizes vary more than
#: ``OVERDISPERSION`` times the variance that independent selections give, else one.
AUTO_STRATA = 4
OVERDISPERSION = 2.0
#: The longest itemset tested: 2^(k-1) - 1 splits each (2,047 at 12).
MAX_LEN = 12
#: How the default family is searched and its multiplicity paid.
METHODS = ("swap", "holdout")


def _strata(matrix: np.ndarray, n_strata: int) -> np.ndarray:
    """Each model's stratum: ``n_strata`` bins of about equal count by model size (ties
    kept together in one bin, so that equal-sized models are never split)."""
    sizes = matrix.sum(axis=1)
    b = sizes.size
    if n_strata <= 1 or b == 0:
        return np.zeros(b, np.intp)
    distinct, inverse = np.unique(sizes, return_inverse=True)
    cum = np.cumsum(np.bincount(inverse, minlength=distinct.size))
    # a size's bin: where the middle of its block of models falls among n_strata equal parts
    middle = cum - np.bincount(inverse, minlength=distinct.size) / 2.0
    bins = np.minimum((middle * n_strata / b).astype(np.intp), n_strata - 1)
    return np.unique(bins, return_inverse=True)[1][inverse].astype(np.intp)


def _splits(k: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """The 2^(k-1) - 1 splits of positions 0..k-1 into two non-empty parts (the part with
    position 0 first; cached, read only)."""
    return splits(k)


def _tail(t: int, strata: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
    """P(sum over strata of the models holding both parts >= t), each stratum's count
    hypergeometric given its models and the counts of the two parts in it (the exact
    conditional test of no association stratified by model size; one stratum: Fisher's
    one-sided exact test)."""
    pmf = np.ones(1)
    for s in range(int(strata.max()) + 1 if strata.size else 0):
        rows = strata == s
        n, nx, ny = int(rows.sum()), int(x[rows].sum()), int(y[rows].sum())
        if n == 0:
            continue
        lo, hi = max(0, nx + ny - n), min(nx, ny)
        part = np.zeros(hi + 1)
        part[lo:] = _hypergeom_pmf(np.arange(lo, hi + 1), n, nx, ny)
        pmf = np.convolve(pmf, part)
    return float(min(1.0, pmf[t:].sum())) if t < pmf.size else 0.0


def _hypergeom_pmf(x: np.ndarray, n: int, nx: int, ny: int) -> np.ndarray:
    """P(H = x), H ~ Hypergeom(n, nx, ny), for x in its support, from log factorials
    (scipy's ``hypergeom.pmf``, without its per-call overhead)."""
    lf = log_factorials(1 << max(8, int(n).bit_length()))  # a few sizes, cached
    return np.exp(lf[nx] - lf[x] - lf[nx - x] + lf[n - nx] - lf[ny - x]
                  - lf[n - nx - ny + x] - lf[n] + lf[ny] + lf[n - ny])


def productivity_pvalue(matrix: Any, items: Any, *, n_strata: int = 1) -> dict[str, Any]:
    """Is an itemset co-selected more often than every split of it into two parts explains?

    For each split of the itemset ``I`` into non-empty ``X`` and ``Y`` (2^(k-1) - 1 of
    them), the one-sided exact test of no association between "the model holds X" and "the
    model holds Y" on the 2 x 2 table of the models (Fisher's exact test; with
    ``n_strata`` > 1, stratified by model size: the sum over the strata of the
    hypergeometric counts, conditional on every stratum's margins, as in the exact
    Mantel-Haenszel test). The itemset is productive when every split is rejected, so its
    p-value is the largest over the splits (an intersection-union test: Webb, "Discovering
    significant patterns", Machine Learning 68, 2007, section 5; "Self-sufficient
    itemsets", ACM TKDD 4(1), 2010, section 3).

    Parameters
    ----------
    matrix : BaseModels or boolean array (b, p)
    items : sequence of int
        Two or more feature indices.
    n_strata : int, default=1
        Bins of about equal count by model size (1: Fisher's exact test on all models).

    Returns
    -------
    dict
        ``p_value`` (the largest over the splits), ``split`` (its two parts, as index
        tuples), ``count`` (models holding the itemset) and ``expected`` (the largest
        count a split predicts under independence, ``n_X n_Y / b``).
    """
    func = "productivity_pvalue"
    M = np.asarray(as_selection_matrix(matrix), dtype=bool)
    its = np.unique(np.asarray(list(items), dtype=np.intp))
    if its.size < 2 or its.min() < 0 or its.max() >= M.shape[1]:
        raise param_error("items", func, f"two or more feature indices in [0, "
                          f"{M.shape[1]})", list(items))
    n_strata = int(check_int(n_strata, "n_strata", func, min_value=1))
    return _productivity(M, its, _strata(M, n_strata))


def _productivity(M: np.ndarray, its: np.ndarray, strata: np.ndarray) -> dict[str, Any]:
    b = M.shape[0]
    cols = M[:, its]
    t = int(cols.all(axis=1).sum())
    worst: dict[str, Any] = {"p_value": -1.0}
    expected = 0.0
    for left, right in _splits(its.size):
        x = np.asarray(cols[:, left].all(axis=1))
        y = np.asarray(cols[:, right].all(axis=1))
        p = _tail(t, strata, x, y)
        expected = max(expected, float(x.sum()) * float(y.sum()) / b if b else 0.0)
        if p > worst["p_value"]:
            worst = {"p_value": p, "split": (tuple(its[left].tolist()),
                                             tuple(its[right].tolist()))}
    return {**worst, "count": t, "expected": expected}


# --------------------------------------------------------------------------------------
# Exploration: candidate itemsets on the exploratory half
# --------------------------------------------------------------------------------------


def _level_pvalues(E: np.ndarray, cands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Fisher productivity p-value (largest over the splits, no strata: a ranking score
    on the exploratory half) and count of each candidate (rows of ``cands``)."""
    n = E.shape[0]
    k = cands.shape[1]
    held = E[:, cands]  # n x B x k
    count = held.all(axis=2).sum(axis=0)
    worst = np.zeros(cands.shape[0])
    for left, right in _splits(k):
        nx = held[:, :, left].all(axis=2).sum(axis=0)
        ny = held[:, :, right].all(axis=2).sum(axis=0)
        worst = np.maximum(worst, hypergeom.sf(count - 1, n, nx, ny))
    return worst, count


def _explore(E: np.ndarray, min_count: int, max_len: int
             ) -> tuple[list[np.ndarray], np.ndarray, np.ndarray]:
    """Candidate itemsets of 2..max_len features on the exploratory half, with their
    productivity p-value and count there: every pair held by ``min_count`` models; then,
    level by level, the extensions of the ``_BEAM`` most productive itemsets by a feature
    co-selected with each of their features (a pair p-value at most ``_EDGE_P``)."""
    n, p = E.shape
    Ei = E.astype(np.int64)
    c1 = Ei.sum(axis=0)
    C2 = Ei.T @ Ei
    first, second = np.triu_indices(p, 1)
    keep = C2[first, second] >= min_count
    first, second = first[keep], second[keep]
    pair_p = hypergeom.sf(C2[first, second] - 1, n, c1[first], c1[second])
    edge = np.zeros((p, p), bool)
    strong = pair_p <= _EDGE_P
    edge[first[strong], second[strong]] = True
    edge |= edge.T
    found = [np.column_stack([first, second])]
    p_vals = [pair_p]
    counts = [C2[first, second]]
    level, level_p = found[0][strong], pair_p[strong]
    for _ in range(3, max_len + 1):
        if level.shape[0] == 0:
            break
        order = np.lexsort((np.arange(level_p.size), level_p))[:_BEAM]
        level = level[order]
        # extensions by a feature after the last, adjacent to every feature of the itemset
        common = edge[level].all(axis=1)
        common &= np.arange(p)[None, :] > level[:, -1:]
        rows, extra = np.nonzero(common)
        if rows.size == 0:
            break
        cands = np.column_stack([level[rows], extra])
        pv, cnt = _level_pvalues(E, cands)
        ok = cnt >= min_count
        cands, pv, cnt = cands[ok], pv[ok], cnt[ok]
        found.append(cands)
        p_vals.append(pv)
        counts.append(cnt)
        level, level_p = cands, pv
    items = [row for block in found for row in block]
    return items, np.concatenate(p_vals), np.concatenate(counts)


def _ranked(E: np.ndarray, items: list[np.ndarray], p_vals: np.ndarray,
            counts: np.ndarray, n_keep: int) -> list[int]:
    """The ``n_keep`` candidates most productive on the exploratory half (smallest
    p-value, then higher count, then shorter, then the items), those that a superset
    explains there put last: among the ``_EXPLAINED_AMONG`` first, an itemset whose
    productivity p-value exceeds ``_EXPLAIN_P`` on the exploratory models that do not hold
    the rest of a superset at least as productive (Webb 2010, section 4, on the exploratory
    half: the pairs of a co-selected triple go after the triple, not before it)."""
    keys = [tuple(its.tolist()) for its in items]
    order = sorted(range(len(items)),
                   key=lambda k: (p_vals[k], -counts[k], len(keys[k]), keys[k]))
    head = order[:_EXPLAINED_AMONG]
    sets = {k: frozenset(keys[k]) for k in head}
    no_strata = np.zeros(E.shape[0], np.intp)
    explained = set()
    for k in head:
        supersets = [j for j in head if sets[k] < sets[j] and p_vals[j] <= p_vals[k]]
        if not supersets:
            continue
        rows = np.ones(E.shape[0], bool)
        for j in supersets:
            rows &= ~E[:, sorted(sets[j] - sets[k])].all(axis=1)
        if _productivity(E[rows], items[k], no_strata[rows])["p_value"] > _EXPLAIN_P:
            explained.add(k)
    order = [k for k in order if k not in explained] + [k for k in head if k in explained]
    return order[:n_keep]


def _rank_weights(n: int) -> np.ndarray:
    """Weights of the itemsets tested, in their exploratory order: proportional to 1 / rank
    and of mean 1 (weighted Benjamini-Hochberg: Genovese, Roeder and Wasserman, Biometrika
    93(3), 2006; the weights come from the exploratory half only, independent of the
    holdout p-values)."""
    w = 1.0 / np.arange(1, n + 1)
    return w * (n / w.sum())


# --------------------------------------------------------------------------------------
# The test
# --------------------------------------------------------------------------------------


def self_sufficient_itemsets(
    base: Any,
    itemsets: Any = None,
    *,
    method: str = "swap",
    min_support: float = 0.05,
    max_len: int = 4,
    n_tested: int = 20,
    n_randomizations: int = 200,
    n_strata: int | str = "auto",
    fdr: float = 0.05,
    random_state: Any = 0,
) -> pd.DataFrame:
    """Test which feature groups are co-selected beyond every split of them (Webb).

    An itemset counts when the base models select it together more often than every split
    of it into two parts explains (a productive itemset: Webb, "Discovering significant
    patterns", Machine Learning 68, 2007, section 5; "Self-sufficient itemsets", ACM TKDD
    4(1), 2010, section 3), and a self-sufficient one when no passing superset explains it
    either. Two ways to find them without testing what was chosen for looking good:

    - ``method="swap"`` (default): every itemset of 2 to ``max_len`` features held by
      ``min_support`` of the base models is searched and tested on all of them
      (``family="all"``), its p-value the largest one-sided Fisher p-value over its splits.
      The multiplicity of the search is paid exactly: ``n_randomizations`` selection
      matrices with the models' sizes and the features' frequencies of the base models
      (swap randomisation, Gionis et al., ACM TKDD 1(3), 2007, by the curveball chain in
      Besag and Clifford's exchangeable construction, Biometrika 76(4), 1989) are searched
      the same way, and an itemset of k features passes when its p-value is below the
      smallest p-value of the k-feature itemsets in all but a few of them (Westfall-Young
      min-p, the level shared equally among the ``max_len - 1`` itemset sizes as Webb's
      layered critical values). ``q_value`` is that adjusted p-value: the family-wise
      error rate (hence the false discovery rate) is at most ``fdr`` whenever the base
      models select the features independently given the models' sizes (a Rasch model,
      whose margins are sufficient), for any number of features.
    - ``method="holdout"``: the base models are split at random in two halves (Webb
      2007, section 6). On the first (exploratory) half, the itemsets of 2 to
      ``max_len`` features held by ``min_support`` of its models are searched (every
      pair; then the extensions of the most productive itemsets by features co-selected
      with all of their features) and ranked by their productivity p-value there; the
      ``n_tested`` best are tested on the second (holdout) half with
      :func:`productivity_pvalue` (exact tests stratified into ``n_strata`` bins of model
      size), with weighted Benjamini-Hochberg q-values over those ``n_tested``
      (``family="split"``). Half of the models are spent choosing what to test.

    An itemset that passes (``q_value <= fdr``) is *self-sufficient* when no passing
    superset explains it: for every passing proper superset J, the itemset is still
    productive (at ``fdr``, stratified into ``n_strata`` bins) on the models tested that
    do not hold all of J's other features (Webb 2010, section 4: "independently
    productive"). The pairs of a co-selected triple pass too, as real co-selection, but
    are not self-sufficient: the triple explains them.

    Parameters
    ----------
    base : BaseModels or a boolean selection matrix (b, p)
    itemsets : Itemsets or a sequence of sequences of feature indices or names, optional
        A pre-specified family (``family="given"``), tested on all the base models with
        :func:`productivity_pvalue` and Benjamini-Hochberg, whatever ``method`` says: only
        when they were chosen without looking at these models. Default: the family of
        ``method``.
    method : {"swap", "holdout"}, default="swap"
        How the default family is searched and its multiplicity paid (above).
    min_support : float or int, default=0.05
        Default family: the support an itemset needs (a fraction of the models searched:
        all of them for ``"swap"``, the exploratory half for ``"holdout"``; or a number
        of them; at least 2 models).
    max_len : int, default=4
        Default family: the longest itemset searched.
    n_tested : int, default=20
        ``"holdout"``: how many of the ranked itemsets are tested on the holdout half.
        ``"swap"`` tests every itemset of the family and lists those that pass, then the
        most significant others until ``n_tested`` rows are listed.
    n_randomizations : int, default=200
        ``"swap"``: randomised matrices searched (at least ``(max_len - 1) / fdr - 1``,
        so that an itemset can pass).
    n_strata : int or "auto", default="auto"
        Bins of model size (1: none). ``"holdout"`` and given families: the exact tests
        of every split are stratified by them; ``"swap"``: the randomised matrices keep
        each bin's feature counts too (the chain trades only between models of one bin:
        a selector whose features follow model size unequally is not taken for
        co-selection), and the p-values are Fisher's over all the models (the randomised
        matrices keep every model's size). Every method's self-sufficiency check is
        stratified by them. Models of one size are never split between bins, so base
        models that all have the same size (a top-m selector) form one stratum whatever
        this says.
        ``"auto"``: ``AUTO_STRATA`` (4) bins when the model sizes of the models searched
        vary more than ``OVERDISPERSION`` (2) times the variance independent selections
        at the features' frequencies give, else 1.
    fdr : float, default=0.05
        The q-value at which an itemset passes (``passes``, ``self_sufficient``): a
        false discovery rate (``"holdout"``, given families) or a family-wise error rate,
        which bounds it (``"swap"``).
    random_state : None, int, SeedSequence, RandomState or Generator, default=0
        Seeds the randomised matrices (``"swap"``) or the split (``"holdout"``).

    Returns
    -------
    DataFrame
        One row per itemset listed, most significant first: ``itemset`` (feature names),
        ``items`` (indices), ``support`` (a fraction of the models tested on: all of them,
        or the holdout half), ``expected_support`` (the largest support a split of it
        predicts under independence), ``lift`` (support over ``expected_support``),
        ``p_value`` (the largest over the splits), ``q_value``, ``split`` (the split with
        that p-value, as two tuples of names), ``selection_p`` (the productivity p-value
        on the exploratory half; NaN for the other families), ``weight`` (its weight in
        the weighted Benjamini-Hochberg; NaN for ``"swap"``), ``passes`` and
        ``self_sufficient``. ``table.attrs`` holds ``method``, ``family`` (``"all"``,
        ``"split"`` or ``"given"``), ``test`` (``"productive"``), ``n_selection``,
        ``n_test``, ``fdr`` and ``n_strata``; ``n_candidates`` (itemsets found on the
        exploratory half, or given); for ``"swap"``, ``n_randomizations`` and
        ``critical_p`` (each itemset size's critical p-value: below it, an itemset
        passes; NaN where the randomised matrices were searched only as deep as the
        decisions needed, which stops short of it when nothing of that size can pass).
        For ``"swap"`` the ``q_value`` of an itemset that passes is its exact adjusted
        p-value; above ``fdr`` it may be a lower bound (the search stops once an
        itemset cannot pass).

    See Also
    --------
    itemset_significance : each itemset's support against randomised models (margins
        kept); a superset of a co-selected group beats that null too.

    Examples
    --------
    >>> import numpy as np
    >>> from modelmine.diagnostics import self_sufficient_itemsets
    >>> rng = np.random.default_rng(0)
    >>> M = rng.random((100, 40)) < 0.2
    >>> M[rng.choice(100, 20, replace=False)[:, None], [3, 7, 11]] = True
    >>> table = self_sufficient_itemsets(M, random_state=0)
    >>> table.loc[table["self_sufficient"], "items"].tolist()
    [(3, 7, 11)]
    """
    names = base.feature_names if isinstance(base, BaseModels) else None
    matrix = np.asarray(as_selection_matrix(base), dtype=bool)
    b, p = matrix.shape
    how = check_choice(method, "method", _FUNC, METHODS)
    n_keep = int(check_int(n_tested, "n_tested", _FUNC, min_value=1))
    longest = int(check_int(max_len, "max_len", _FUNC, min_value=2, max_value=MAX_LEN))
    auto = isinstance(n_strata, str) and n_strata == "auto"
    if isinstance(n_strata, str) and not auto:
        raise param_error("n_strata", _FUNC, 'a positive integer or "auto"', n_strata)
    strata_bins = AUTO_STRATA if auto else int(check_int(n_strata, "n_strata", _FUNC,
                                                           min_value=1))
    alpha = float(check_real(fdr, "fdr", _FUNC, low=0.0, high=1.0, closed="right"))
    seed = resolve_seed(random_state, _FUNC)
    selection_p: np.ndarray
    if itemsets is None and how == "swap":
        n_random = int(check_int(n_randomizations, "n_randomizations", _FUNC, min_value=1))
        fewest = int(np.ceil((longest - 1) / alpha - 1 - 1e-9))
        if n_random < fewest:
            raise param_error("n_randomizations", _FUNC, f"at least {fewest} for fdr="
                              f"{alpha:g} over {longest - 1} itemset size(s) (an itemset "
                              "passes when (max_len - 1) (1 + a) / (1 + n_randomizations) "
                              "<= fdr, a the randomised matrices that do as well)", n_random)
        if b < 2:
            raise param_error("base", _FUNC, "at least 2 base models", f"{b}", show=False)
        if auto and not _sizes_overdispersed(matrix):
            strata_bins = 1
        return _swap_table(matrix, names, _min_count(min_support, b), longest, n_random, alpha,
                           n_keep, strata_bins, np.random.SeedSequence(seed))
    rng = np.random.default_rng(seed)
    if itemsets is None:
        if b < 4:
            raise param_error("base", _FUNC, "at least 4 base models for the held-out "
                              "family, or pre-specified itemsets", f"{b}", show=False)
        family = "split"
        order = rng.permutation(b)
        selection, test = np.sort(order[: b // 2]), np.sort(order[b // 2:])
        E = matrix[selection]
        min_count = _min_count(min_support, E.shape[0])
        found, found_p, found_n = _explore(E, min_count, longest)
        chosen = _ranked(E, found, found_p, found_n, n_keep)
        items = [found[k] for k in chosen]
        selection_p = np.array([found_p[k] for k in chosen], dtype=np.float64)
        n_candidates = len(found)
        T = matrix[test]
        if auto and not _sizes_overdispersed(E):
            strata_bins = 1
    else:
        from ._itemset_null import _checked_itemsets

        family = "given"
        selection = np.zeros(0, np.intp)
        items = []
        for k, s in enumerate(_checked_itemsets(itemsets, p, names)):
            its = np.unique(np.asarray(s, np.intp))
            if not 2 <= its.size <= MAX_LEN:
                raise param_error("itemsets", _FUNC, f"itemsets of 2 to {MAX_LEN} distinct "
                                  "features (a split needs two parts)",
                                  f"{its.size} feature(s) at position {k}", show=False)
            items.append(its)
        selection_p = np.full(len(items), np.nan)
        n_candidates = len(items)
        T = matrix
        if auto and not _sizes_overdispersed(T):
            strata_bins = 1
    weights = _rank_weights(len(items)) if family == "split" else np.ones(len(items))
    return _holdout_table(T, items, selection_p, weights, names, alpha, strata_bins, {
        "method": "holdout" if family == "split" else how, "family": family,
        "test": "productive", "n_selection": int(selection.size),
        "n_test": int(T.shape[0]), "n_candidates": int(n_candidates), "fdr": alpha,
        "n_strata": int(strata_bins)})


def _swap_table(matrix: np.ndarray, names: Any, min_count: int, max_len: int, R: int,
                alpha: float, n_keep: int, n_strata: int,
                seed: np.random.SeedSequence) -> pd.DataFrame:
    """The swap method's table: the itemsets that pass, then the most significant others
    until ``n_keep`` are listed, with their Westfall-Young adjusted p-values."""
    from ._productive_swap import search

    strata = _strata(matrix, n_strata)
    out = search(matrix, min_count, max_len, R, alpha, n_keep, seed,
                 strata if n_strata > 1 else None)
    found = sorted(out["found"], key=lambda f: (f[2], -f[1], len(f[0]), tuple(f[0])))
    passing = [f for f in found if f[3] <= alpha]
    listed = passing + [f for f in found if f[3] > alpha][:max(0, n_keep - len(passing))]
    attrs = {"method": "swap", "family": "all", "test": "productive", "n_selection": 0,
             "n_test": int(matrix.shape[0]), "fdr": alpha, "n_strata": int(n_strata),
             "n_randomizations": int(R),
             "critical_p": {int(k): float(v) for k, v in out["critical"].items()}}
    items = [np.asarray(f[0], np.intp) for f in listed]
    tested = {"p_value": np.array([f[2] for f in listed]),
              "q_value": np.array([f[3] for f in listed])}
    return _holdout_table(matrix, items, np.full(len(items), np.nan),
                          np.full(len(items), np.nan), names, alpha, n_strata, attrs,
                          tested=tested)


def _sizes_overdispersed(M: np.ndarray) -> bool:
    """Do the models' sizes vary more than independent selections would make them? Their
    variance against the Poisson-binomial variance sum_j f_j (1 - f_j) of a model that
    takes each feature independently at its frequency f_j: above ``OVERDISPERSION``, the
    models differ in how many features they take and the tests are stratified."""
    if M.shape[0] < 2:
        return False
    f = M.mean(axis=0)
    binomial = float((f * (1.0 - f)).sum())
    return bool(M.sum(axis=1).var(ddof=1) > OVERDISPERSION * binomial)


def _min_count(min_support: Any, n: int) -> int:
    import numbers

    if isinstance(min_support, numbers.Integral) and not isinstance(min_support, bool):
        count = int(check_int(min_support, "min_support", _FUNC, min_value=2))
    else:
        frac = float(check_real(min_support, "min_support", _FUNC, low=0.0, high=1.0))
        count = int(np.ceil(frac * n - 1e-9))
    return max(2, count)


def _holdout_table(T: np.ndarray, items: list[np.ndarray], selection_p: np.ndarray,
                   weights: np.ndarray, names: Any, alpha: float, n_strata: int,
                   attrs: dict[str, Any], tested: dict[str, np.ndarray] | None = None
                   ) -> pd.DataFrame:
    """The table of the itemsets tested on the models ``T``: their p-values (stratified
    into ``n_strata`` bins) and weighted Benjamini-Hochberg q-values, or those of
    ``tested`` (the swap method's Fisher p-values and adjusted p-values: the worst split
    and its expectation are then Fisher's too)."""
    columns = ["itemset", "items", "support", "expected_support", "lift", "p_value",
               "q_value", "split", "selection_p", "weight", "passes", "self_sufficient"]
    if not items:
        empty = pd.DataFrame(columns=columns)
        empty.attrs.update(attrs)
        return empty
    b = T.shape[0]
    strata = _strata(T, n_strata)
    if tested is None:
        worst = [_productivity(T, its, strata) for its in items]
        p_values = np.array([t["p_value"] for t in worst])
        q_values = bh_qvalues(np.minimum(1.0, p_values / weights))
    else:
        worst = _fisher_worst(T, items)
        p_values, q_values = tested["p_value"], tested["q_value"]
    passes = q_values <= alpha
    sufficient = _self_sufficient(T, items, passes, strata, alpha)

    def label(its: Any) -> tuple[str, ...]:
        return tuple(str(names[i]) if names is not None else str(i) for i in its)

    count = np.array([t["count"] for t in worst], dtype=np.float64)
    expected = np.array([t["expected"] for t in worst], dtype=np.float64)
    table = pd.DataFrame({
        "itemset": [label(its) for its in items],
        "items": [tuple(int(i) for i in its) for its in items],
        "support": count / b,
        "expected_support": expected / b,
        "lift": np.divide(count, expected, out=np.full(len(items), np.nan),
                          where=expected > 0),
        "p_value": p_values,
        "q_value": q_values,
        "split": [(label(t["split"][0]), label(t["split"][1])) for t in worst],
        "selection_p": selection_p,
        "weight": weights,
        "passes": passes,
        "self_sufficient": sufficient,
    }, columns=columns)
    table = table.sort_values(["p_value", "support"], ascending=[True, False],
                              kind="stable").reset_index(drop=True)
    table.attrs.update(attrs)
    return table


def _fisher_worst(T: np.ndarray, items: list[np.ndarray]) -> list[dict[str, Any]]:
    """``_productivity`` without strata (Fisher's exact test over all the models ``T``)
    for every itemset, computed by size at once."""
    out: list[dict[str, Any]] = [{} for _ in items]
    for k in sorted({its.size for its in items}):
        rows = [i for i, its in enumerate(items) if its.size == k]
        block = np.array([items[i] for i in rows], dtype=np.intp).reshape(len(rows), k)
        count, worst, which, expected = worst_splits(T, block)
        parts = splits(k)
        for r, i in enumerate(rows):
            left, right = parts[which[r]]
            out[i] = {"p_value": float(worst[r]), "count": int(count[r]),
                      "expected": float(expected[r]),
                      "split": (tuple(block[r, left].tolist()),
                                tuple(block[r, right].tolist()))}
    return out


def _self_sufficient(T: np.ndarray, items: list[np.ndarray], passes: np.ndarray,
                     strata: np.ndarray, alpha: float) -> np.ndarray:
    """Passing itemsets that every passing proper superset leaves productive: tested on
    the models that do not hold all of the superset's other features, for all those
    supersets at once (Webb 2010, section 4)."""
    out = passes.copy()
    sets = [frozenset(its.tolist()) for its in items]
    passing: list[int] = np.flatnonzero(passes).tolist()
    index: dict[frozenset[int], list[int]] = {}
    for k in passing:
        index.setdefault(sets[k], []).append(k)
    above: dict[int, list[frozenset[int]]] = {}  # each passing itemset's passing supersets
    for j in passing:
        members = sorted(sets[j])
        for r in range(2, len(members)):
            for sub in itertools.combinations(members, r):
                for k in index.get(frozenset(sub), ()):
                    above.setdefault(k, []).append(sets[j])
    for k in passing:
        supersets = above.get(k)
        if not supersets:
            continue
        rows = np.ones(T.shape[0], bool)
        for J in supersets:
            rows &= ~T[:, sorted(J - sets[k])].all(axis=1)
        out[k] = _productivity(T[rows], items[k], strata[rows])["p_value"] <= alpha
    return out
