"""The interactive lattice explorer: one self-contained, offline HTML page.

The closed itemsets of the base models ordered by inclusion form a lattice (Pasquier et al.,
ICDT 1999) whose Hasse diagram :class:`~modelmine.ItemsetLattice` builds; closedApr reads
it in decreasing support (Woznica, Nguyen and Kalousis, KDD 2012, Section 3.2). This module
writes it as a page a browser opens from a file or an e-mail attachment: the data as one
JSON block, the style sheet and a small script of our own (``explorer/lattice.js``, no
library, no network request) that draws the diagram layered by itemset size as SVG, with
search, filters, details, signature comparison and CSV / SVG / PNG export.

Level of detail: the script draws at most ``budget`` itemsets (the itemsets in view that
match the search, then those of highest support) and counts the others per level; the page
embeds at most ``max_itemsets`` closed itemsets, those of highest support (a down-closed part
of the lattice, since a superset never has more support than its subsets), and says so.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping
from importlib import resources
from typing import TYPE_CHECKING, Any

import numpy as np

from .._page import html_page
from ..constants import LATTICE_HTML_DRAWN, LATTICE_HTML_MAX_ITEMSETS
from ..validation import check_int, param_error

if TYPE_CHECKING:
    from ._lattice import ItemsetLattice

__all__ = ["explorer_data", "explorer_fragment", "explorer_page"]

#: Labels are written next to the drawn itemsets when at most this many are drawn.
_LABEL_MAX = 160


def _asset(name: str) -> str:
    return resources.files("modelmine.patterns").joinpath("explorer", name).read_text("utf-8")


def _signature_entries(
    signatures: Mapping[str, Any] | None, func: str
) -> list[tuple[str, str, np.ndarray]]:
    """(label, operator, feature indices) for each signature: a single-model operator's
    Signature is the consensus, a SignatureSet's members are alternatives 1..k."""
    if signatures is None:
        return []
    if not isinstance(signatures, Mapping):
        raise param_error(
            "signatures",
            func,
            "a mapping of operator names to Signature or SignatureSet (MiningRun.signatures)",
            signatures,
            exc=TypeError,
        )
    out: list[tuple[str, str, np.ndarray]] = []
    for name, sig in signatures.items():
        if hasattr(sig, "features"):
            out.append((f"{name} (consensus)", str(name), np.asarray(sig.features, dtype=np.int64)))
            continue
        try:
            members = list(sig)
        except TypeError:
            members = []
        if not members or not all(hasattr(m, "features") for m in members):
            raise param_error(
                "signatures",
                func,
                "a mapping of operator names to Signature or SignatureSet",
                f"{type(sig).__name__} for {name!r}",
                exc=TypeError,
                show=False,
            )
        for k, member in enumerate(members, start=1):
            out.append(
                (f"{name} alternative {k}", str(name), np.asarray(member.features, dtype=np.int64))
            )
    return out


def _layout(
    levels: np.ndarray, counts: np.ndarray, parent: np.ndarray, child: np.ndarray
) -> np.ndarray:
    """Order of the nodes: by level, and inside a level by the mean place of their parents
    (the barycentre heuristic of layered drawing, Sugiyama et al. 1981), then by support.

    ``parent`` / ``child`` are edge arrays over the node numbers 0..n-1 (0 the bottom).
    Returns the node numbers in drawing order.
    """
    n = len(levels)
    place = np.zeros(n)
    order_parts = []
    for level in np.unique(levels):
        nodes = np.flatnonzero(levels == level)
        if level == 0:
            ranked = nodes
        elif level == 1:
            # singletons by decreasing support, from the centre outwards (so the itemsets of
            # highest support, which the level of detail draws first, sit in the middle)
            by_support = nodes[np.lexsort((nodes, -counts[nodes]))]
            ranked = np.concatenate([by_support[1::2][::-1], by_support[0::2]])
        else:
            into = np.isin(child, nodes)
            total = np.bincount(child[into], weights=place[parent[into]], minlength=n)
            deg = np.bincount(child[into], minlength=n)
            bary = np.where(deg[nodes] > 0, total[nodes] / np.maximum(deg[nodes], 1), 0.5)
            ranked = nodes[np.lexsort((nodes, -counts[nodes], bary))]
        place[ranked] = (np.arange(len(ranked)) + 0.5) / len(ranked)
        order_parts.append(ranked)
    return np.concatenate(order_parts)


def explorer_data(
    lattice: ItemsetLattice,
    *,
    signatures: Mapping[str, Any] | None = None,
    max_itemsets: int = LATTICE_HTML_MAX_ITEMSETS,
    budget: int = LATTICE_HTML_DRAWN,
    func: str = "ItemsetLattice.to_html",
    significance: Any = None,
) -> dict[str, Any]:
    """The JSON the explorer page reads: nodes, cover edges, base models, signatures.

    Parameters
    ----------
    lattice : ItemsetLattice
    signatures : mapping of str to Signature or SignatureSet, optional
        Shown in the details panel, the "inside a signature" filter and the comparison.
    max_itemsets : int
        The most closed itemsets embedded; above it those of highest support are kept (all
        itemsets of support count >= a cut, so the part kept is closed under subsets).
    budget : int
        The most itemsets the page draws at once (level of detail).
    significance : DataFrame, optional
        :func:`modelmine.diagnostics.itemset_significance` or
        :func:`modelmine.diagnostics.self_sufficient_itemsets` of (some of) the itemsets:
        their ``lift`` and ``q_value`` are shown in the details panel and exported with the
        selection (None for an itemset not tested); with the latter, the itemsets that
        pass are marked (a green ring: self-sufficient; dashed: passes, explained by a
        passing superset), and a self-sufficient itemset that is not closed in these
        models is named on the node of its closure.

    Returns
    -------
    dict
        ``names`` (features used, by name), ``count``, ``items_ptr`` / ``items`` (the itemsets
        in drawing order, node 0 the empty itemset), ``edges`` (flat parent, child pairs of
        the Hasse diagram), ``tx_ptr`` / ``tx_items`` / ``tx_size`` (the base models),
        ``signatures``, ``index`` (each node's index in ``lattice.closed``, -1 for the bottom)
        and the counts of what was kept.

    Notes
    -----
    Woznica, Nguyen and Kalousis (KDD 2012), Section 3.2: the closed itemsets of the base
    models; Pasquier et al. (ICDT 1999): their lattice.
    """
    max_itemsets = int(check_int(max_itemsets, "max_itemsets", func, min_value=1))
    budget = int(check_int(budget, "budget", func, min_value=10))
    entries = _signature_entries(signatures, func)
    closed = lattice.closed
    counts_all = np.asarray(closed.counts, dtype=np.int64)
    n_total = len(closed)
    b = closed.n_transactions
    p = len(closed.feature_names)
    for label, _, feats in entries:
        if len(feats) and (feats.min() < 0 or feats.max() >= p):
            raise param_error(
                "signatures",
                func,
                f"feature indices in [0, {p - 1}] (the features of the lattice's base models)",
                f"{label} with features outside it",
                show=False,
            )
    if n_total > max_itemsets:
        cut = int(np.sort(counts_all)[::-1][max_itemsets]) + 1
    else:
        cut = int(closed.min_count)
    keep = np.flatnonzero(counts_all >= cut)
    # node numbers: 0 the bottom, 1 + rank in `keep` for the kept itemsets
    node_of = np.full(n_total + 1, -1, np.int64)  # index n_total stands for the bottom (-1)
    node_of[keep] = np.arange(1, len(keep) + 1)
    node_of[n_total] = 0
    edge_list = np.array(list(lattice.graph.edges()), dtype=np.int64).reshape(-1, 2)
    edge_list = np.where(edge_list < 0, n_total, edge_list)
    mapped = node_of[edge_list]
    children_cut = bool(np.any((mapped[:, 0] >= 0) & (mapped[:, 1] < 0)))
    mapped = mapped[(mapped >= 0).all(axis=1)]
    lengths = np.concatenate([[0], np.asarray(closed.lengths)[keep]])
    counts = np.concatenate([[b], counts_all[keep]])
    order = _layout(lengths, counts, mapped[:, 0], mapped[:, 1])
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    edges = rank[mapped]
    edges = edges[np.lexsort((edges[:, 1], edges[:, 0]))]
    index = np.concatenate([[-1], keep])[order]
    # the itemsets in drawing order, as local feature ids
    indptr, indices = closed.indptr, closed.indices
    pieces = [indices[indptr[i] : indptr[i + 1]] for i in index[1:]]
    flat = np.concatenate(pieces) if pieces else np.zeros(0, np.int64)
    tx = closed._transactions.matrix.tocsr()
    used = np.unique(np.concatenate([flat, *[f for _, _, f in entries]]).astype(np.int64))
    local = np.full(p, -1, np.int64)
    local[used] = np.arange(len(used))
    tx_used = tx[:, used].tocsr()
    tx_used.sort_indices()
    items_ptr = np.concatenate([[0], np.cumsum(lengths[order])])
    return {
        "format": "modelmine.lattice-explorer",
        "version": 1,
        "names": [str(n) for n in closed.feature_names[used]],
        "features": used.tolist(),
        "count": counts[order].tolist(),
        "items_ptr": items_ptr.tolist(),
        "items": local[flat].tolist(),
        "index": index.tolist(),
        "edges": edges.ravel().tolist(),
        "n_transactions": int(b),
        "tx_ptr": tx_used.indptr.tolist(),
        "tx_items": tx_used.indices.tolist(),
        "tx_size": np.diff(tx.indptr).tolist(),
        "signatures": [
            {"label": label, "operator": op, "features": local[f].tolist()}
            for label, op, f in entries
        ],
        "itemset_type": closed.itemset_type,
        "min_count": int(closed.min_count),
        "kept_min_count": int(cut),
        "n_total": int(n_total),
        "n_kept": len(keep),
        "max_itemsets": max_itemsets,
        "children_cut": children_cut,
        "budget": budget,
        "label_max": _LABEL_MAX,
        **_significance_columns(significance, closed, index, func),
    }


def _significance_columns(significance: Any, closed: Any, index: np.ndarray,
                          func: str) -> dict[str, Any]:
    """``lift`` and ``q`` of each node in drawing order (None where not tested); with a
    table of :func:`modelmine.diagnostics.self_sufficient_itemsets`, also ``verdict``
    (``"self-sufficient"``, ``"passes"``, ``"fails"`` or None) and ``inside`` (the
    self-sufficient itemsets that are not closed, on the node of their closure)."""
    if significance is None:
        return {}
    try:
        items = significance["items"]
        lift, q = significance["lift"], significance["q_value"]
    except (KeyError, TypeError, IndexError):
        raise param_error("significance", func, "a table of itemset_significance or "
                          "self_sufficient_itemsets (columns items, lift, q_value)",
                          type(significance).__name__, show=False) from None
    by_items = {tuple(sorted(int(i) for i in t)): (float(a), float(b))
                for t, a, b in zip(items, lift, q)}
    indptr, indices = closed.indptr, closed.indices
    keys = [() if i < 0 else tuple(sorted(indices[indptr[i]:indptr[i + 1]].tolist()))
            for i in index]
    out_lift: list[float | None] = []
    out_q: list[float | None] = []
    for key in keys:
        hit = by_items.get(key)
        out_lift.append(None if hit is None else hit[0])
        out_q.append(None if hit is None else hit[1])
    out: dict[str, Any] = {"lift": out_lift, "q": out_q}
    if "self_sufficient" not in getattr(significance, "columns", ()):
        return out
    verdict = {tuple(sorted(int(i) for i in t)): ("self-sufficient" if s else
                                                  "passes" if ok else "fails")
               for t, ok, s in zip(items, significance["passes"],
                                   significance["self_sufficient"])}
    out["verdict"] = [verdict.get(key) for key in keys]
    # a self-sufficient itemset that is not closed here: shown on its closure's node
    node_of = {key: n for n, key in enumerate(keys)}
    tx = closed._transactions.matrix.tocsc()
    names = closed.feature_names
    inside: list[list[str] | None] = [None] * len(keys)
    for key, word in verdict.items():
        if word != "self-sufficient" or key in node_of:
            continue
        rows = np.ones(tx.shape[0], bool)
        for i in key:
            rows &= np.asarray(tx[:, i].toarray()).ravel() != 0
        if not rows.any():
            continue
        closure = tuple(np.flatnonzero(np.asarray(tx[rows].sum(axis=0)).ravel()
                                       == rows.sum()).tolist())
        n = node_of.get(closure)
        if n is not None:
            inside[n] = [*(inside[n] or []), ", ".join(str(names[i]) for i in key)]
    out["inside"] = inside
    return out


def _json_for_script(data: Mapping[str, Any]) -> str:
    # Inside <script type="application/json"> only "</script" and "<!--" matter: escape "<".
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace("<", "\\u003c")


_CONTROLS = """\
<div class="mmL-bar">
<label>Search feature <input type="search" id="lattice-search" list="lattice-features"
 placeholder="feature name" autocomplete="off"></label>
<label>Min support <input type="number" id="lattice-min-support" max="1"></label>
<label>Size <input type="number" id="lattice-len-min" min="0" step="1"> to
 <input type="number" id="lattice-len-max" min="0" step="1"></label>
<label class="mmL-sigonly">Only itemsets inside <select id="lattice-only-signature">
<option value="-1">(any signature or none)</option></select></label>
</div>
<div class="mmL-bar">
<span class="mmL-sigonly">Compare <select id="lattice-compare-a">
<option value="-1">(none)</option></select> with <select id="lattice-compare-b">
<option value="-1">(none)</option></select></span>
<button type="button" id="lattice-zoom-in" title="zoom in">+</button>
<button type="button" id="lattice-zoom-out" title="zoom out">&minus;</button>
<button type="button" id="lattice-reset">Reset</button>
<button type="button" id="lattice-csv" title="the itemsets that pass the filters (and match
 the search)">Selection as CSV</button>
<button type="button" id="lattice-svg-export">View as SVG</button>
<button type="button" id="lattice-png">View as PNG</button>
</div>
<div class="mmL-legend"><span id="lattice-legend-support">Node size and colour: support
(<span class="mmL-sw" style="background:#440154"></span>low
<span class="mmL-sw" style="background:#fde725"></span>high). Search: <span class="mmL-sw"
 style="border:2px solid #d62728"></span>contains the feature <span class="mmL-sw"
 style="border:2px solid #ff9896"></span>a subset of one.</span>
<span id="lattice-legend-compare" hidden><span class="mmL-sw" style="background:#2c7bb6">
</span>inside the first signature only <span class="mmL-sw" style="background:#e66101">
</span>inside the second only <span class="mmL-sw" style="background:#7b3294"></span>inside
both (a shared fragment) <span class="mmL-sw" style="background:#d9d9d9"></span>inside
neither</span>
<span id="lattice-legend-verdict" hidden>Co-selection test: <span class="mmL-sw"
 style="border:3px solid #1b7837"></span>self-sufficient (beats every split of it, q &le;
 the test's level) <span class="mmL-sw" style="border:2px dashed #1b7837"></span>passes,
 explained by a passing superset.</span></div>
"""


def explorer_fragment(
    lattice: ItemsetLattice,
    *,
    signatures: Mapping[str, Any] | None = None,
    max_itemsets: int = LATTICE_HTML_MAX_ITEMSETS,
    budget: int = LATTICE_HTML_DRAWN,
    func: str = "ItemsetLattice.to_html",
    significance: Any = None,
) -> str:
    """The explorer as an HTML fragment (``<div id="lattice">`` with its style, data and
    script), for embedding in a page such as the run report. One per page.

    Parameters are those of :func:`explorer_data`.
    """
    data = explorer_data(
        lattice, signatures=signatures, max_itemsets=max_itemsets, budget=budget, func=func,
        significance=significance,
    )
    b = data["n_transactions"]
    what = (
        f"{data['n_total']:,} closed itemsets of the {b} base models (support &ge; "
        f"{data['min_count']}/{b} = {data['min_count'] / b:.3f})"
    )
    if data["n_kept"] < data["n_total"]:
        what += (
            f". <b>This page holds the {data['n_kept']:,} of highest support</b> (support "
            f"&ge; {data['kept_min_count']}/{b} = {data['kept_min_count'] / b:.3f}): "
            f"more than the {data['max_itemsets']:,} the explorer embeds "
            "(<code>max_itemsets</code>); mine with a higher support to see a part of the "
            "lattice whole"
        )
    if data["n_total"] == 0:
        what += (
            ": <b>no itemset is that frequent</b>, only the empty itemset is drawn; mine "
            "with a lower support"
        )
    options = "".join(f'<option value="{html.escape(n, quote=True)}">' for n in data["names"])
    return (
        f'<div id="lattice" data-n-itemsets="{data["n_kept"]}">'
        f"<style>{_asset('lattice.css')}</style>"
        f'<p class="mmL-note">Hasse diagram of the {what}. Each itemset sits at the height of '
        "its size, above its closed subsets; lines join it to its parents (immediate closed "
        "subsets). Scroll to zoom, drag to pan, click an itemset for its details.</p>"
        f"{_CONTROLS}"
        f'<datalist id="lattice-features">{options}</datalist>'
        '<div class="mmL-main"><div class="mmL-plot"><canvas id="lattice-edges"></canvas>'
        '<svg id="lattice-svg" role="img" aria-label="Hasse diagram of the closed itemsets">'
        '</svg><div id="lattice-tip" hidden></div></div>'
        '<div id="lattice-details"></div></div><div id="lattice-status"></div>'
        f'<script type="application/json" id="lattice-data">{_json_for_script(data)}</script>'
        f"<script>{_asset('lattice.js')}</script></div>"
    )


def explorer_page(
    lattice: ItemsetLattice,
    *,
    signatures: Mapping[str, Any] | None = None,
    title: str = "modelmine lattice explorer",
    max_itemsets: int = LATTICE_HTML_MAX_ITEMSETS,
    budget: int = LATTICE_HTML_DRAWN,
    func: str = "ItemsetLattice.to_html",
    significance: Any = None,
) -> str:
    """The explorer as a whole HTML document (see :func:`explorer_fragment`)."""
    body = explorer_fragment(
        lattice, signatures=signatures, max_itemsets=max_itemsets, budget=budget, func=func,
        significance=significance,
    )
    return html_page(title, f"<h1>{html.escape(title)}</h1>\n{body}\n",
                     "body{margin:12px;background:#fafafa}h1{font:600 18px sans-serif;"
                     "margin:0 0 8px}")
