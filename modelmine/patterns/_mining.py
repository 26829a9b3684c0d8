"""Frequent, closed and maximal itemsets of the base models.

The b feature subsets chosen on bootstrap samples are the transactions of a market-basket
database; their frequent, closed and maximal itemsets are the "patterns over the models" that
the closedApr / maxApr family of operators joins into a signature (Woznica, Nguyen & Kalousis,
"Model Mining for Robust Feature Selection", KDD 2012, Section 3.2).

Definitions (Pasquier et al., ICDT 1999), for a minimum count c:

* frequent: an itemset contained in at least c transactions;
* closed: a frequent itemset none of whose proper supersets has the same support;
* maximal: a frequent itemset none of whose proper supersets is frequent.

Three backends compute them and return exactly the same result: our own LCM (Uno et al.,
DS 2004: closed itemsets by prefix-preserving closure extension, over bitset tidsets, in C,
``_lcm.c``), which writes the itemsets straight into arrays and can stop at the
``max_itemsets`` guard; pyfim (Borgelt's C library, native closed and maximal targets); and
mlxtend (fpgrowth / fpmax, with closed itemsets obtained from all frequent ones by a
vectorised closure check). Results are stored compactly
as CSR-style arrays (``indptr``, ``indices``) with counts; Python tuples and DataFrames are
built lazily, on request.
"""

from __future__ import annotations

import gc
import importlib.util
import math
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import chain, pairwise
from typing import Any

import numpy as np
import pandas as pd

from ..constants import MAX_ITEMSETS
from ..validation import check_choice, check_fraction_or_count, check_int, param_error
from ._itemsets import Itemsets, TooManyItemsetsError, Transactions, as_transactions

__all__ = ["BACKENDS", "ITEMSET_TYPES", "Itemsets", "TooManyItemsetsError", "mine_itemsets"]

ITEMSET_TYPES = ("frequent", "closed", "maximal")
BACKENDS = ("auto", "lcm", "pyfim", "mlxtend")
_INSTALL = {
    "lcm": "lcm (modelmine's compiled miner, modelmine/patterns/_lcm.c) is not built: "
           "reinstall modelmine where a C compiler is present (`pip install -e .`)",
    "pyfim": "pyfim is not installed: run `pip install pyfim`",
    "mlxtend": "mlxtend is not installed: run `pip install mlxtend`",
}
_PYFIM_TARGET = {"frequent": "s", "closed": "c", "maximal": "m"}
#: Default for ``max_itemsets`` (:data:`modelmine.constants.MAX_ITEMSETS`).
DEFAULT_MAX_ITEMSETS = MAX_ITEMSETS


def _installed(name: str) -> bool:
    module = {"lcm": "modelmine.patterns._lcm", "pyfim": "fim", "mlxtend": "mlxtend"}[name]
    return importlib.util.find_spec(module) is not None


# --------------------------------------------------------------------------------------------
# Mining
# --------------------------------------------------------------------------------------------


def mine_itemsets(
    data: Any, itemset_type: str = "closed", min_support: float = 0.2, max_len: int | None = None,
    backend: str = "auto", max_itemsets: int | None = DEFAULT_MAX_ITEMSETS,
) -> Itemsets:
    """Mine frequent, closed or maximal itemsets of the base models.

    The b selected feature subsets are the transactions (Woznica, Nguyen & Kalousis,
    KDD 2012, Section 3.2: closedApr / maxApr mine "frequent closed / maximal itemsets" of
    the base models).

    Parameters
    ----------
    data : BaseModels, bool array (b, p), scipy.sparse matrix or list of item sets
        The transactions. A BaseModels contributes its ``subsets`` and ``feature_names``; a
        list of item sets is mapped to indices in sorted item order and the items become the
        feature names.
    itemset_type : {'frequent', 'closed', 'maximal'}, default='closed'
        Closed: no proper superset has the same support. Maximal: no proper superset is
        frequent.
    min_support : float in (0, 1] or int in [1, b], default=0.2
        Minimum support: a fraction of the b transactions (rounded up to a count) or an
        absolute count.
    max_len : int or None, default=None
        Longest itemset to report. For 'closed' and 'maximal', closedness / maximality is
        always judged against all itemsets, so a bounded run reports the closed (maximal)
        itemsets of at most ``max_len`` items.
    backend : {'auto', 'lcm', 'pyfim', 'mlxtend'}, default='auto'
        'lcm': modelmine's own LCM (Uno, Asai, Uchida & Arimura, "An efficient algorithm
        for enumerating closed patterns in transaction databases", Discovery Science 2004),
        compiled with the package; as fast as pyfim called directly on closed itemsets of
        base models and 1.3-3x faster than the pyfim route, whose guard needs an extra
        counting run (``benchmarks/bench_mining.py``), because it can stop at
        ``max_itemsets``. 'auto' uses
        it for closed and maximal itemsets and pyfim for all frequent itemsets, falling back
        to pyfim, then mlxtend, when one is missing. All return the same itemsets.
    max_itemsets : int or None, default=10_000_000 (:data:`modelmine.constants.MAX_ITEMSETS`)
        Refuse a run that would return more itemsets (see ``docs/mining.md``, "The
        max_itemsets guard"): counted before anything is materialised where a count is cheap,
        otherwise (closed / maximal itemsets with the 'lcm' backend) by an enumeration that
        stops at the limit. None disables the guard.

    Returns
    -------
    Itemsets
        Ordered by support descending, length descending, then feature indices.
    """
    func = "mine_itemsets"
    kind = check_choice(itemset_type, "itemset_type", func, ITEMSET_TYPES)
    backend = check_choice(backend, "backend", func, BACKENDS)
    tx = as_transactions(data, func)
    min_count = check_fraction_or_count(min_support, "min_support", func,
                                        total=tx.n_transactions)
    max_len = check_int(max_len, "max_len", func, min_value=1, allow_none=True)
    asked_len = max_len
    if max_len is not None and max_len >= tx.n_items:
        # No itemset is longer than the number of items: a larger bound is no bound (and a
        # huge one sent mlxtend into a loop over lengths, and overflowed C integers).
        max_len = None
    max_itemsets = check_int(max_itemsets, "max_itemsets", func, min_value=1, allow_none=True)
    if backend == "auto":
        backend = _auto_backend(kind)
    if not _installed(backend):
        raise param_error("backend", func, "an installed backend", backend,
                          exc=ImportError,
                          hint=f"{_INSTALL[backend]}, or use backend='auto'.")
    frequent_items = np.flatnonzero(tx.item_counts >= min_count).astype(np.int32)
    limit = None
    if max_itemsets is not None and _guard(
            tx, kind, min_count, max_len, frequent_items, max_itemsets, backend=backend):
        limit = max_itemsets
    if len(frequent_items) == 0:
        lengths = np.zeros(0, np.int64)
        indices = np.zeros(0, np.int32)
        counts = np.zeros(0, np.int64)
    elif backend == "lcm":
        lengths, indices, counts = _mine_lcm(tx, kind, min_count, max_len, frequent_items,
                                             limit)
    elif backend == "pyfim":
        lengths, indices, counts = _mine_pyfim(tx, kind, min_count, max_len, frequent_items)
    else:
        lengths, indices, counts = _mine_mlxtend(tx, kind, min_count, max_len, frequent_items)
    # Every backend returns codes into frequent_items (rank = feature order).
    indptr, indices, counts = canonical_order(lengths, indices, counts, items=frequent_items)
    return Itemsets(indptr, indices, counts, itemset_type=kind, min_count=min_count,
                    max_len=asked_len, transactions=tx, backend=backend)


def _auto_backend(kind: str) -> str:
    """'auto': our LCM for closed / maximal itemsets, pyfim for all frequent ones (its
    enumeration of frequent itemsets is as fast, and its exact count is what the guard uses
    for them); each falls back to the other, then to mlxtend."""
    order = ("pyfim", "lcm") if kind == "frequent" else ("lcm", "pyfim")
    return next((name for name in order if _installed(name)), "mlxtend")


def _guard(tx: Transactions, kind: str, min_count: int, max_len: int | None,
           frequent_items: np.ndarray, max_itemsets: int, *, backend: str) -> bool:
    """Refuse a run that would return (or, for mlxtend 'closed', enumerate) too many itemsets.

    Stages, cheapest first, stopping as soon as the answer is known:
    1. a free bound: at most sum_{k <= max_len} C(f, k) itemsets over f frequent items;
    2. the exact number of frequent itemsets, from pyfim's pattern spectrum (no itemset is
       materialised; pyfim counts the subsets of perfect extensions combinatorially, so even
       billions are counted in a fraction of a second). Closed and maximal itemsets are a
       subset of the frequent ones, so this also clears most closed / maximal runs;
    3. only for 'closed' / 'maximal' runs still undecided: with pyfim, their exact number from
       the pattern spectrum of the same target, in C with constant memory (a whole mining run
       without output). With the 'lcm' backend, closed / maximal runs skip stage 2 (it could
       only clear them) and come here at once: the enumeration itself stops at the limit
       (returns True: mine with ``limit=max_itemsets``).

    Returns whether the enumeration must be run with the limit (stage 3 of the 'lcm' route).
    """
    f = len(frequent_items)
    top = f if max_len is None else min(f, max_len)
    bound = sum(math.comb(f, k) for k in range(1, top + 1)) if f <= 4096 else math.inf
    if bound <= max_itemsets:
        return False
    route_needs_frequent = backend == "mlxtend" and kind != "maximal"
    if backend == "lcm" and (kind != "frequent" or not _installed("pyfim")):
        # the limit costs the enumeration nothing until it is reached, and a count could only
        # clear a closed / maximal run, never refuse it: go straight to stage 3
        return True
    if not _installed("pyfim"):
        raise param_error(
            "max_itemsets", "mine_itemsets", f"at least the number of itemsets found "
            f"(up to {bound:.3g} over {f} frequent items; pyfim is needed to count them "
            "exactly: `pip install pyfim`)", max_itemsets,
            hint="Raise 'min_support', set 'max_len', or pass max_itemsets=None to mine anyway.")
    import fim

    tracts = _pyfim_tracts(tx, frequent_items)
    zmax = -1 if max_len is None else max_len
    n_frequent = _spectrum_total(fim.fpgrowth(tracts, target="s", supp=-min_count, zmax=zmax,
                                              report="#"))
    what = "frequent"
    n = n_frequent
    if kind != "frequent" and n_frequent > max_itemsets and not route_needs_frequent:
        n = _spectrum_total(fim.fpgrowth(tracts, target=_PYFIM_TARGET[kind], supp=-min_count,
                                         zmax=zmax, report="#"))
        what = kind
    elif kind != "frequent" and route_needs_frequent:
        what = "frequent (the mlxtend route enumerates them all)"
    if n > max_itemsets:
        raise _too_many(tx, kind, min_count, max_itemsets, f"{n:.0f} {what} itemsets",
                        int(n), route_needs_frequent=route_needs_frequent)
    return False


def _too_many(tx: Transactions, kind: str, min_count: int, max_itemsets: int, found: str,
              n: int, *, route_needs_frequent: bool = False) -> TooManyItemsetsError:
    smaller = {"frequent": "choose itemset_type='closed' or 'maximal', ",
               "closed": "choose itemset_type='maximal', "}.get(kind, "")
    exc = param_error(
        "max_itemsets", "mine_itemsets",
        f"at least the number of itemsets to enumerate ({found} at a minimum count of "
        f"{min_count} of {tx.n_transactions})", max_itemsets,
        hint="Raise 'min_support', set 'max_len', " + smaller
             + ("use backend='lcm' or 'pyfim', " if route_needs_frequent else "")
             + "or raise 'max_itemsets' (None disables the guard).")
    return TooManyItemsetsError(str(exc), n_itemsets=n)


def _pyfim_tracts(tx: Transactions, frequent_items: np.ndarray) -> list[list[int]]:
    """Transactions for pyfim, items recoded to ``0 .. f-1`` (their rank among the frequent items).

    Recoding keeps the item order (code order = feature-index order), so lexicographic order on
    codes is lexicographic order on feature indices; codes below 256 are Python's cached small
    ints and let :func:`_from_pairs` read pyfim's output with one ``bytes`` call per itemset.
    """
    # pyfim 6.28 never reports itemsets made only of items present in every transaction
    # (perfect extensions of the empty set: `fim.eclat([[0], [0]], supp=-1)` returns []).
    # One extra empty transaction removes the case without changing any non-empty itemset's
    # support or closure (it contains no itemset); the count threshold is absolute.
    m = tx.matrix[:, frequent_items]
    m.sort_indices()
    idx, ptr = m.indices.tolist(), m.indptr.tolist()
    return [*(idx[a:z] for a, z in pairwise(ptr)), []]


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector (restored afterwards).

    pyfim builds one tuple per itemset; with the collector on, every 700 allocations trigger a
    young-generation pass over them, which costs pyfim about a third of its own time on
    millions of itemsets. The tuples hold only ints, so no cycle can form while paused.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _spectrum_total(spectrum: Any) -> float:
    if isinstance(spectrum, dict):
        return float(sum(spectrum.values()))
    return float(sum(row[-1] for row in spectrum)) if spectrum else 0.0


def _mine_pyfim(tx: Transactions, kind: str, min_count: int, max_len: int | None,
                frequent_items: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    import fim

    tracts = _pyfim_tracts(tx, frequent_items)
    zmax = -1 if max_len is None else max_len
    # fpgrowth is as fast as eclat on b = 150 base models and up to 1.5x faster on b = 1000
    # (few, long, heavily overlapping transactions): see benchmarks/bench_mining.py.
    with _gc_paused():
        found = fim.fpgrowth(tracts, target=_PYFIM_TARGET[kind], supp=-min_count, zmax=zmax,
                          report="a")
        out = _from_pairs(found, len(frequent_items))
        # Free pyfim's tuples while the collector is still paused (no pass over them).
        del found
    if max_len is not None and kind != "frequent":
        # fpgrowth judges closedness / maximality among the itemsets of at most zmax items
        # only ({7, 11, 12} came back "closed" though its closure is {0, 7, 11, 12, 13}).
        # Every truly closed (maximal) short itemset is among what it returns, so judging
        # each against all the transactions keeps exactly the right ones.
        lengths, local, counts = out
        dense = tx.matrix[:, frequent_items].toarray()
        keep = closed_mask(lengths, local, counts, dense, max_len,
                           threshold=None if kind == "closed" else min_count)
        starts = np.repeat(keep, lengths)
        out = (lengths[keep], local[starts], counts[keep])
    return out


#: While the guard's limit is active, the 'lcm' enumeration stores its itemsets up to this
#: many bytes of flat arrays (int32 items, two int64 per itemset), then goes on counting only
#: (and the run is repeated, storing, if it ends under the limit): a refused run never holds
#: more than this, whatever ``max_itemsets`` is.
LCM_STORE_BYTES = 1 << 29


def _lcm_tidsets(tx: Transactions, frequent_items: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Tidsets of the frequent items as rows of 64-bit words (f, W), and the tidset of all
    transactions (W,), in the layout ``_lcm.mine`` reads."""
    b = tx.n_transactions
    n_words = (b + 63) // 64
    csc = tx.csc[:, frequent_items]
    bits = np.zeros((len(frequent_items), n_words * 64), bool)
    bits[np.repeat(np.arange(len(frequent_items)), np.diff(csc.indptr)), csc.indices] = True
    tids = np.packbits(bits, axis=1, bitorder="little").view(np.uint64)
    everyone = np.zeros(n_words * 64, bool)
    everyone[:b] = True
    root = np.packbits(everyone, bitorder="little").view(np.uint64)
    return np.ascontiguousarray(tids), root


def _mine_lcm(tx: Transactions, kind: str, min_count: int, max_len: int | None,
              frequent_items: np.ndarray, limit: int | None = None) -> tuple[
        np.ndarray, np.ndarray, np.ndarray]:
    """Closed / maximal (LCM) or frequent itemsets with modelmine's C enumerator, stopping
    with :class:`TooManyItemsetsError` once more than ``limit`` itemsets are found."""
    from . import _lcm

    tids, root = _lcm_tidsets(tx, frequent_items)
    mode = {"closed": 0, "maximal": 1, "frequent": 2}[kind]
    zmax = 0 if max_len is None else max_len

    def run(limit: int, budget: int) -> tuple[bytes, bytes, bytes, int, bool, bool]:
        return _lcm.mine(tids, len(frequent_items), tids.shape[1], root, min_count, zmax, mode,
                         limit, budget)

    if limit is None:
        lengths, items, counts, _, _, _ = run(-1, -1)
    else:
        lengths, items, counts, _, stopped, stored = run(limit, LCM_STORE_BYTES)
        if stopped:
            raise _too_many(tx, kind, min_count, limit, f"more than {limit} {kind} itemsets, "
                            "where the enumeration stopped", limit + 1)
        if not stored:  # over the memory budget but under the limit: mine again, storing
            lengths, items, counts, _, _, _ = run(-1, -1)
    return (np.frombuffer(lengths, np.int64), np.frombuffer(items, np.int32),
            np.frombuffer(counts, np.int64))


def _code_dtype(n_items: int) -> type[np.unsignedinteger[Any]]:
    """Smallest unsigned dtype holding codes ``0 .. n_items-1`` plus one padding value."""
    if n_items < 1 << 8:
        return np.uint8
    if n_items < 1 << 16:
        return np.uint16
    return np.uint32


def _from_pairs(found: list[tuple[tuple[int, ...], int]], n_items: int) -> tuple[
        np.ndarray, np.ndarray, np.ndarray]:
    """pyfim's (itemset, count) pairs -> lengths, flat item codes, counts.

    No per-item Python work: with fewer than 256 items each itemset tuple becomes a ``bytes``
    object (in C) and all are joined into one buffer; otherwise ``np.fromiter`` over
    ``itertools.chain``. Codes keep pyfim's within-itemset order (not sorted).
    """
    n = len(found)
    dtype = _code_dtype(n_items)
    if n == 0:
        return np.zeros(0, np.int64), np.zeros(0, dtype), np.zeros(0, np.int64)
    sets, counts_t = zip(*found, strict=True)
    lengths = np.fromiter(map(len, sets), dtype=np.int64, count=n)
    counts = np.fromiter(counts_t, dtype=np.int64, count=n)
    if dtype is np.uint8:
        codes = np.frombuffer(b"".join(map(bytes, sets)), dtype=np.uint8)
    else:
        codes = np.fromiter(chain.from_iterable(sets), dtype=dtype, count=int(lengths.sum()))
    return lengths, codes, counts


def _mine_mlxtend(tx: Transactions, kind: str, min_count: int, max_len: int | None,
                  frequent_items: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    from mlxtend.frequent_patterns import fpgrowth, fpmax

    dense = tx.matrix[:, frequent_items].toarray()
    df = pd.DataFrame(dense, columns=range(len(frequent_items)))
    # min_support as a fraction that mlxtend turns back into exactly min_count transactions:
    # it keeps itemsets with count >= min_support * b, so use the midpoint below min_count.
    frac = (min_count - 0.5) / tx.n_transactions
    if kind == "maximal":
        # fpmax's max_len judges maximality among the itemsets of at most max_len items
        # ({0} is "maximal" at max_len=1 even when {0, 3} is frequent): mine them all, then
        # keep the short ones, so maximality is judged against every itemset, as documented.
        res = fpmax(df, min_support=frac, use_colnames=False)
        if max_len is not None:
            res = res[res["itemsets"].map(len) <= max_len]
    else:
        res = fpgrowth(df, min_support=frac, use_colnames=False, max_len=max_len)
    counts = np.rint(res["support"].to_numpy() * tx.n_transactions).astype(np.int64)
    sets = res["itemsets"].tolist()
    lengths = np.fromiter(map(len, sets), dtype=np.int64, count=len(sets))
    local = np.fromiter(chain.from_iterable(sets), dtype=np.int32, count=int(lengths.sum()))
    if kind == "closed":
        keep = closed_mask(lengths, local, counts, dense, max_len)
        starts = np.repeat(keep, lengths)
        lengths, local, counts = lengths[keep], local[starts], counts[keep]
    return lengths, local, counts


def closed_mask(lengths: np.ndarray, indices: np.ndarray, counts: np.ndarray,
                dense: np.ndarray, max_len: int | None = None,
                chunk: int = 20_000, threshold: int | None = None) -> np.ndarray:
    """Which of the given itemsets are closed in the transactions ``dense`` (b, p).

    X is closed iff no item outside X occurs in every transaction containing X. Vectorised:
    the tidset of each itemset is the AND of its items' packed tid bitsets (``reduceat``);
    one matrix product of the tidsets with the transactions gives, for each item j, the
    support of X + {j}; X is closed iff exactly |X| items reach the support of X.
    Exact for any input (it does not need the supersets to be in the list), so it also
    handles a ``max_len`` bound, where closedness must be judged against longer itemsets.
    With ``threshold`` (the minimum count), the same test says which frequent itemsets are
    maximal: no item outside X keeps X + {j} at ``threshold`` or above.
    """
    n = len(lengths)
    keep = np.zeros(n, bool)
    if n == 0:
        return keep
    packed = np.packbits(dense.T, axis=1)  # (p, ceil(b/8)) tid bitsets
    tfloat = dense.astype(np.float32)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    for lo in range(0, n, chunk):
        hi = min(n, lo + chunk)
        a, z = starts[lo], starts[hi - 1] + lengths[hi - 1]
        bits = np.bitwise_and.reduceat(packed[indices[a:z]], starts[lo:hi] - a, axis=0)
        tids = np.unpackbits(bits, axis=1, count=dense.shape[0]).astype(np.float32)
        ext = tids @ tfloat  # support of X + {j} for every item j
        level = counts[lo:hi, None] if threshold is None else threshold
        full = (ext >= level - 0.5).sum(axis=1)
        keep[lo:hi] = full == lengths[lo:hi]
    return keep


def canonical_order(lengths: np.ndarray, indices: np.ndarray, counts: np.ndarray,
                    items: np.ndarray | None = None) -> tuple[
        np.ndarray, np.ndarray, np.ndarray]:
    """Sort items inside each itemset, then itemsets by (-count, -length, items).

    Parameters
    ----------
    lengths, indices, counts : ndarray
        Itemset ``i`` holds ``indices[sum(lengths[:i]) : sum(lengths[:i+1])]`` in any order.
    items : ndarray of int, optional
        Ascending feature indices; when given, ``indices`` are codes into it (as returned by
        :func:`_from_pairs`), otherwise they are feature indices.

    Returns
    -------
    indptr : int64, indices : int32 (feature indices, ascending per itemset), counts : int64

    Notes
    -----
    Vectorised, without a Python loop over lengths or a multi-key lexsort: the itemsets are
    laid out as a padded matrix of codes (padding = the largest code value, so that an in-row
    sort moves it to the end), each row is prefixed with its big-endian (-count, -length) key
    and viewed as one fixed-width byte string. Byte strings compare bytewise unsigned and
    codes are stored big-endian, so a single ``argsort`` of the strings gives the canonical
    order (padding only ever meets padding: equal keys imply equal lengths). When padding
    would more than quadruple memory (very uneven lengths), rows are processed in buckets of
    lengths within a factor of two and merged by a stable sort on the key.
    """
    lengths = np.asarray(lengths, np.int64)
    counts = np.asarray(counts, np.int64)
    n = len(lengths)
    if items is None:
        items, indices = np.unique(np.asarray(indices), return_inverse=True)
    items = np.asarray(items, np.int32)
    indptr = np.zeros(n + 1, np.int64)
    if n == 0:
        return indptr, np.zeros(0, np.int32), counts.copy()
    dtype = _code_dtype(len(items))
    codes = np.asarray(indices).astype(dtype, copy=False).ravel()
    total = len(codes)
    long = int(lengths.max())
    # One unsigned key per itemset: support descending, then length descending.
    key = (int(counts.max()) - counts) * (long + 1) + (long - lengths)
    key_dtype = np.dtype(">u4") if int(key.max()) < 1 << 32 else np.dtype(">u8")
    key_bytes = key.astype(key_dtype).view(np.uint8).reshape(n, key_dtype.itemsize)
    itemsize = np.dtype(dtype).itemsize
    if n * long <= 4 * total + (1 << 20):
        buckets = [np.arange(n)]
    else:
        group = np.log2(np.maximum(lengths, 1)).astype(np.int8)
        by_group = np.argsort(group, kind="stable")
        buckets = np.split(by_group, np.flatnonzero(np.diff(group[by_group])) + 1)
    starts = indptr[:-1]
    np.cumsum(lengths, out=indptr[1:])
    pieces_rows, pieces_codes = [], []
    for rows in buckets:
        lens = lengths[rows]
        width = int(lens.max())
        inside = np.arange(width) < lens[:, None]
        # Row = [big-endian key | item codes, ascending, padded with the largest value].
        strings = np.empty((len(rows), key_dtype.itemsize + width * itemsize), np.uint8)
        strings[:, : key_dtype.itemsize] = key_bytes[rows]
        block = strings[:, key_dtype.itemsize :].view(np.dtype(dtype).newbyteorder(">"))
        block[...] = np.iinfo(dtype).max
        if len(buckets) == 1:
            block[inside] = codes
        else:
            gather = np.repeat(starts[rows] - np.cumsum(lens) + lens, lens) + np.arange(
                int(lens.sum()))
            block[inside] = codes[gather]
        block.sort(axis=1)
        order = np.argsort(strings.view(f"S{strings.shape[1]}").ravel())
        sorted_block = block[order]
        del strings, block
        pieces_rows.append(rows[order])
        pieces_codes.append(sorted_block[inside[order]].astype(dtype))
        del sorted_block
    if len(buckets) == 1:
        order, flat = pieces_rows[0], pieces_codes[0]
    else:
        # each piece is sorted by key; a stable merge on the key keeps lexicographic order
        cat_rows = np.concatenate(pieces_rows)
        merge = np.argsort(key[cat_rows], kind="stable")
        order = cat_rows[merge]
        cat_len = lengths[cat_rows]
        cat_ptr = np.zeros(n + 1, np.int64)
        np.cumsum(cat_len, out=cat_ptr[1:])
        new_len = cat_len[merge]
        gather = np.repeat(cat_ptr[:-1][merge] - np.cumsum(new_len) + new_len,
                           new_len) + np.arange(total)
        flat = np.concatenate(pieces_codes)[gather]
    out_ptr = np.zeros(n + 1, np.int64)
    np.cumsum(lengths[order], out=out_ptr[1:])
    return out_ptr, items[flat], counts[order]
