"""Do the itemsets of the base models beat chance? Curveball randomisation of the models.

Model mining (Woznica, Nguyen and Kalousis, KDD 2012, section 2.1) reads the features that
base models select *together*. Features selected often are also selected together often by
chance alone: two features each in 80 % of the models share about 64 % of them with no
structure at all. :func:`itemset_significance` asks whether an itemset's support exceeds
what the models' sizes and the features' selection frequencies explain. The null keeps both
fixed: the b x p selection matrix is randomised with its row sums (model sizes) and column
sums (feature frequencies) preserved (Gionis, Mannila, Mielikainen and Tsaparas, "Assessing
data mining results via swap randomization", ACM TKDD 1(3), 2007), by the curveball
algorithm (Strona, Nappo, Boccacci, Fattorini and San-Miguel-Ayanz, Nature Communications
5, 2014), a Markov chain on the same space that mixes faster than single swaps; the test
runs its global form (Carstens, Berger and Strona, MethodsX 2018), b / 2 trades at once on
the features selected at least once.

Which itemsets are tested matters as much as the null (issue 39): itemsets mined from the
same models whose support is the statistic are chosen for being frequent together, so
their p-values are too small. By default the itemsets are chosen on one half of the models
and tested on the other (:func:`itemset_significance`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..base_models import BaseModels
from ..spec import resolve_seed
from ..validation import check_int, param_error
from ._coerce import as_selection_matrix
from ._significance import bh_qvalues

__all__ = ["curveball", "global_curveball", "itemset_significance"]

_FUNC = "itemset_significance"


def curveball(rows: list[np.ndarray], n_trades: int, rng: np.random.Generator) -> None:
    """``n_trades`` curveball trades on the rows (each an array of column indices), in place.

    A trade picks two rows at random; the columns one has and the other has not are pooled,
    shuffled, and dealt back in the same numbers (Strona et al. 2014): every row keeps its
    size and every column its count, and the chain's stationary distribution is uniform
    over the binary matrices with those margins.
    """
    b = len(rows)
    if b < 2:
        return
    pairs = rng.integers(0, b, size=(n_trades, 2))
    for a, c in pairs:
        if a == c:
            continue
        ra, rc = rows[a], rows[c]
        only_a = np.setdiff1d(ra, rc, assume_unique=True)
        if only_a.size == 0:
            continue
        only_c = np.setdiff1d(rc, ra, assume_unique=True)
        if only_c.size == 0:
            continue
        shared = np.intersect1d(ra, rc, assume_unique=True)
        pool = np.concatenate([only_a, only_c])
        rng.shuffle(pool)
        rows[a] = np.concatenate([shared, pool[: only_a.size]])
        rows[c] = np.concatenate([shared, pool[only_a.size:]])


def global_curveball(M: np.ndarray, n_sweeps: int, rng: np.random.Generator,
                     strata: np.ndarray | None = None) -> None:
    """``n_sweeps`` global curveball sweeps on the boolean matrix ``M``, in place.

    A sweep pairs the rows at random (a random perfect matching; with b odd one row rests)
    and makes the curveball trade of every pair at once (Carstens, Berger and Strona,
    "A unifying framework for fast randomization of ecological networks with fixed (node)
    degrees", MethodsX 5, 2018: the "global curveball"): each pair pools the columns one
    row has and the other has not and deals them back at random in the same numbers. Each
    trade keeps both margins and the uniform distribution over the matrices with them, so
    the sweep does too. Vectorised over the pairs, a sweep of b / 2 trades costs a few
    array operations on the b x p matrix.

    With ``strata`` (one label per row), rows are only paired within their stratum (one
    row of a stratum of odd size rests): the column sums of every stratum are kept too,
    and the chain is uniform over the matrices with those margins.
    """
    b = M.shape[0]
    if b < 2 or M.shape[1] == 0:
        return
    half = b // 2
    if strata is not None:
        # the rows sorted by stratum; a sweep shuffles each stratum's block and pairs the
        # first half of every block with its second
        block = np.sort(np.asarray(strata))
        starts = np.flatnonzero(np.r_[True, block[1:] != block[:-1]])
        sizes = np.diff(np.r_[starts, b])
        first = np.concatenate([s + np.arange(n // 2) for s, n in zip(starts, sizes)])
        second = np.concatenate([s + n // 2 + np.arange(n // 2)
                                 for s, n in zip(starts, sizes)])
        label = np.asarray(strata)
    for _ in range(n_sweeps):
        if strata is None:
            order = rng.permutation(b)
            a, c = order[:half], order[half: 2 * half]
        else:
            order = np.lexsort((np.asarray(rng.random(b)), label))
            a, c = order[first], order[second]
        A, C = M[a], M[c]
        differ = A != C
        n_a = (A & differ).sum(axis=1)
        keys = rng.random(differ.shape)
        keys[~differ] = 2.0  # the columns in the pool first, in random order
        # the first n_a columns of that order go to a (one sort, its inverse by a scatter)
        order = np.argsort(keys, axis=1, kind="stable")
        to_a = np.empty_like(differ)
        np.put_along_axis(to_a, order, np.arange(differ.shape[1])[None, :] < n_a[:, None],
                          axis=1)
        shared = A & C
        M[a] = shared | to_a
        M[c] = shared | (differ & ~to_a)


def _matrix_supports(M: np.ndarray, items: list[np.ndarray]) -> np.ndarray:
    """Support (number of rows holding every item) of each itemset of the boolean matrix."""
    packed = np.packbits(M.T, axis=1)
    return np.array([int(np.unpackbits(np.bitwise_and.reduce(packed[its], axis=0)).sum())
                     for its in items], dtype=np.int64)


def itemset_significance(
    base: Any,
    itemsets: Any = None,
    *,
    min_support: float = 0.1,
    n_tested: int = 20,
    n_randomizations: int = 1000,
    n_trades: int | None = None,
    random_state: Any = 0,
) -> pd.DataFrame:
    """Test whether each itemset's support beats chance, given the models' sizes and the
    features' selection frequencies.

    The null distribution of the supports comes from ``n_randomizations`` selection
    matrices with the same row sums (model sizes) and column sums (feature frequencies) as
    the base models, drawn along one curveball chain (Gionis et al., TKDD 2007; Strona et
    al., Nature Communications 2014) with ``n_trades`` trades between draws, after a
    burn-in of ten times that. The p-value of an itemset is ``(1 + #{null support >=
    observed}) / (1 + n_randomizations)`` (one-sided, co-selection above chance), and the
    q-values are Benjamini-Hochberg's over the itemsets tested.

    The family tested (``table.attrs["family"]``):

    - ``itemsets`` given: those itemsets, on all the base models. Calibrated only if they
      were chosen without looking at these models' co-selection (a hypothesis, another
      run); itemsets mined from the same models are selected for their high support, the
      statistic tested, and their q-values are too small (issue 39: 12-23 % of runs with
      no co-selection at all reported a false discovery at q < 0.05).
    - default, ``"split"``: the base models are split at random in two halves. On the
      first (selection) half the closed itemsets of two or more features at
      ``min_support`` are mined and the ``n_tested`` least likely there under independence
      (binomial tail of their count given their items' frequencies) are kept; their
      supports are then tested on the second (test) half, with the null drawn from that
      half alone. The halves are independent resamples, so the choice cannot favour
      chance co-selection in the test half: the q-values control the false discovery rate
      (measured in ``benchmarks/bench_itemset_significance.py``, docs/diagnostics.md).
      Choosing by excess over independence rather than by support lets co-selected groups
      below the usual mining support be tested.

    Parameters
    ----------
    base : BaseModels or a boolean selection matrix (b, p)
    itemsets : Itemsets or a sequence of sequences of feature indices, optional
        A pre-specified family, tested on all the base models. Default: the selected
        family of a held-out split (above).
    min_support : float or int, default=0.1
        Default family only: the minimum support of the itemsets mined on the selection
        half (a fraction of its models, or a number of them).
    n_tested : int, default=20
        Default family only: how many of the mined itemsets are tested, those furthest
        above independence on the selection half (fewer tests: larger p-values suffice).
    n_randomizations : int, default=1000
        Draws from the null.
    n_trades : int, optional
        Curveball trades between draws (default: 2 b, b the models the test runs on, so
        each model trades about four times between draws).
    random_state : None, int, SeedSequence, RandomState or Generator, default=0
        Seeds the split and the chain.

    Returns
    -------
    DataFrame
        One row per itemset, most significant first: ``itemset`` (feature names),
        ``items`` (indices), ``support`` (a fraction of the models tested on: the test
        half by default), ``expected_support`` (the mean under the null), ``lift``
        (support over the product of the items' selection frequencies in those models,
        the independence expectation), ``p_value``, ``q_value``. ``table.attrs`` holds
        ``family`` (``"split"`` or ``"given"``), ``n_selection`` and ``n_test`` (models
        used to choose and to test the itemsets).

    See Also
    --------
    self_sufficient_itemsets : which groups are co-selected for real: an itemset counts only
        if it beats every split of it into two parts, so a co-selected group is reported
        itself, not a superset that adds a feature chance put in the same models (the
        split family here chooses such long itemsets; issue 49, docs/diagnostics.md).

    Examples
    --------
    >>> import modelmine as mm
    >>> X, y = mm.datasets.load_colon()
    >>> base = mm.bootstrap(X, y, selector="anova", n_bootstraps=30, n_features=10)
    >>> table = mm.diagnostics.itemset_significance(base, n_randomizations=50)
    >>> list(table.columns)[:4]
    ['itemset', 'items', 'support', 'expected_support']
    """
    names = None
    if isinstance(base, BaseModels):
        names = base.feature_names
    matrix = np.asarray(as_selection_matrix(base), dtype=bool)
    b, p = matrix.shape
    if b < 2:
        raise param_error("base", _FUNC, "at least 2 base models", f"{b}", show=False)
    R = check_int(n_randomizations, "n_randomizations", _FUNC, min_value=1)
    n_keep = check_int(n_tested, "n_tested", _FUNC, min_value=1)
    assert R is not None and n_keep is not None
    if n_trades is not None:
        check_int(n_trades, "n_trades", _FUNC, min_value=1)
    if itemsets is not None:  # validated at the door (issue 40): indices or feature names
        itemsets = _checked_itemsets(itemsets, p, names)
    _check_null_size(R, 2 * b if n_trades is None else int(n_trades), b,
                     n_keep if itemsets is None else len(itemsets))
    rng = np.random.default_rng(resolve_seed(random_state, _FUNC))
    if itemsets is None:
        if b < 4:
            raise param_error("base", _FUNC, "at least 4 base models for the default "
                              "(held-out) family, or pre-specified itemsets", f"{b}",
                              show=False)
        family = "split"
        order = rng.permutation(b)
        selection, test = np.sort(order[: b // 2]), np.sort(order[b // 2:])
        items = _selected_family(matrix[selection], min_support, n_keep)
        matrix = matrix[test]
    else:
        family = "given"
        selection = np.zeros(0, np.intp)
        source = itemsets.itemsets if hasattr(itemsets, "itemsets") else itemsets
        items = []
        for s in source:
            arr = np.asarray(list(s), dtype=np.intp)
            if arr.ndim != 1 or arr.size == 0 or arr.min() < 0 or arr.max() >= p:
                raise param_error("itemsets", _FUNC, f"sets of feature indices in [0, {p})",
                                  list(s))
            items.append(np.unique(arr))
    b_test = matrix.shape[0]
    trades = check_int(2 * b_test if n_trades is None else n_trades, "n_trades", _FUNC,
                       min_value=1)
    assert trades is not None
    columns = ["itemset", "items", "support", "expected_support", "lift", "p_value",
               "q_value"]
    attrs = {"family": family, "n_selection": int(selection.size), "n_test": int(b_test)}
    if not items:
        empty = pd.DataFrame(columns=columns)
        empty.attrs.update(attrs)
        return empty
    # only the columns selected at least once can move; the chain runs on them alone
    used = np.flatnonzero(matrix.any(axis=0))
    local = np.full(p, -1, np.intp)
    local[used] = np.arange(used.size)
    chain = np.ascontiguousarray(matrix[:, used])
    local_items = [local[its] for its in items]
    absent = np.array([bool((li < 0).any()) for li in local_items])
    local_items = [np.where(li < 0, 0, li) for li in local_items]
    freq = matrix.mean(axis=0)
    sweeps = max(1, -(-trades // max(1, b_test // 2)))
    observed = np.where(absent, 0, _matrix_supports(chain, local_items))
    global_curveball(chain, 10 * sweeps, rng)  # burn-in
    null = np.empty((R, len(items)), np.int64)
    for r in range(R):
        global_curveball(chain, sweeps, rng)
        null[r] = np.where(absent, 0, _matrix_supports(chain, local_items))
    p_values = (1.0 + (null >= observed).sum(axis=0)) / (1.0 + R)
    independent = np.array([np.prod(freq[its]) for its in items])
    table = pd.DataFrame({
        "itemset": [tuple(str(names[i]) if names is not None else str(i) for i in its)
                    for its in items],
        "items": [tuple(int(i) for i in its) for its in items],
        "support": observed / b_test,
        "expected_support": null.mean(axis=0) / b_test,
        # an item never selected in the test half: support 0, no independence expectation
        "lift": np.divide(observed / b_test, independent, out=np.full(len(items), np.nan),
                          where=independent > 0),
        "p_value": p_values,
        "q_value": bh_qvalues(p_values),
    }, columns=columns)
    table = table.sort_values(["p_value", "support"], ascending=[True, False],
                              kind="stable").reset_index(drop=True)
    table.attrs.update(attrs)
    return table


def _selected_family(matrix: np.ndarray, min_support: Any, n_keep: int) -> list[np.ndarray]:
    """The default family, chosen on the selection half only: its closed itemsets of two or
    more features at ``min_support``, the ``n_keep`` least likely under independence there
    (the binomial tail of the itemset's count when each model holds it with probability
    the product of its items' frequencies: a screening score, not a test), ties to the
    higher support, then to the items."""
    from scipy.stats import binom

    from ..patterns import mine_itemsets

    mined = mine_itemsets(matrix, itemset_type="closed", min_support=min_support)
    items = [np.asarray(sorted(s), np.intp) for s in mined.itemsets if len(s) >= 2]
    if not items:
        return []
    b = matrix.shape[0]
    freq = matrix.mean(axis=0)
    count = np.array([int(matrix[:, its].all(axis=1).sum()) for its in items])
    independent = np.array([float(np.prod(freq[its])) for its in items])
    screen = binom.logsf(count - 1, b, independent)
    keys = [tuple(its.tolist()) for its in items]
    order = sorted(range(len(items)), key=lambda k: (screen[k], -count[k], keys[k]))
    return [items[k] for k in order[:n_keep]]


#: The most draws from the null and curveball trades between draws ``itemset_significance``
#: takes: far beyond what a p-value needs (1e6 draws resolve p = 1e-6) and what the chain
#: needs to mix (Strona et al. 2014: about 5 b trades), and within a run's time.
MAX_RANDOMIZATIONS = 10**7
MAX_TRADES_PER_MODEL = 10**4


def _check_null_size(R: int, trades: int, b: int, n_itemsets: int) -> None:
    """Bound the null's draws, trades and memory, naming the parameter and the figure."""
    from ..base_models._checks import available_memory

    if R > MAX_RANDOMIZATIONS:
        raise param_error("n_randomizations", _FUNC, f"at most {MAX_RANDOMIZATIONS:,} "
                          f"(the null holds n_randomizations x itemsets supports of 8 bytes: "
                          f"{R * n_itemsets * 8 / 2**30:,.1f} GiB for {n_itemsets} "
                          "itemset(s) here)", R)
    if trades > MAX_TRADES_PER_MODEL * b:
        raise param_error("n_trades", _FUNC, f"at most {MAX_TRADES_PER_MODEL:,} x b = "
                          f"{MAX_TRADES_PER_MODEL * b:,} trades between draws (the default "
                          "2 b already mixes the chain)", trades)
    need = R * n_itemsets * 8
    available = available_memory()
    if available is not None and need > available:
        raise param_error("n_randomizations", _FUNC, f"at most about "
                          f"{max(1, available // (8 * n_itemsets)):,} here: the null of "
                          f"{n_itemsets} itemset(s) needs {need / 2**30:.1f} GiB and "
                          f"{available / 2**30:.1f} GiB are available", R)


def _checked_itemsets(itemsets: Any, p: int, names: Any) -> list[list[int]]:
    """Itemsets as lists of feature indices: each a non-empty sequence of integer indices
    in [0, p) or of feature names (looked up in the base models' names). Refused: a bare
    string ("12" is not {1, 2}), floats (0.7 is not feature 0), booleans, unknown names."""
    import numbers

    source = itemsets.itemsets if hasattr(itemsets, "itemsets") else itemsets
    if isinstance(source, str | bytes) or not hasattr(source, "__iter__"):
        raise param_error("itemsets", _FUNC, "a sequence of itemsets (each a sequence of "
                          "feature indices or names)", source, exc=TypeError)
    lookup = None if names is None else {str(n): i for i, n in enumerate(names)}
    out = []
    for k, s in enumerate(source):
        if isinstance(s, str | bytes) or not hasattr(s, "__iter__"):
            raise param_error("itemsets", _FUNC, "itemsets that are sequences of feature "
                              "indices or names (write ['g1'] for a single feature)",
                              f"{s!r} at position {k}", exc=TypeError, show=False)
        members = list(s)
        if not members:
            raise param_error("itemsets", _FUNC, "non-empty itemsets",
                              f"an empty itemset at position {k}", show=False)
        idx = []
        for item in members:
            if isinstance(item, bool | np.bool_):
                raise param_error("itemsets", _FUNC, "feature indices or names, not "
                                  "booleans", f"{item!r} in itemset {k}", exc=TypeError,
                                  show=False)
            if isinstance(item, numbers.Integral):
                if not 0 <= int(item) < p:
                    raise param_error("itemsets", _FUNC, f"feature indices in [0, {p})",
                                      f"{int(item)} in itemset {k}", show=False)
                idx.append(int(item))
            elif isinstance(item, str):
                if lookup is None or item not in lookup:
                    known = ("the base models have no feature names" if lookup is None
                             else "not a feature of the base models")
                    raise param_error("itemsets", _FUNC, "feature indices or names of the "
                                      "base models' features", f"{item!r} in itemset {k} "
                                      f"({known})", show=False)
                idx.append(lookup[item])
            else:
                raise param_error("itemsets", _FUNC, "integer feature indices or feature "
                                  "names", f"{item!r} ({type(item).__name__}) in itemset "
                                  f"{k}", exc=TypeError, show=False)
        out.append(idx)
    return out
