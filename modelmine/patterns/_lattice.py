"""The lattice of closed itemsets of the base models, as a Hasse diagram.

The closed itemsets ordered by inclusion form a lattice (the concept lattice of the
transaction database; Pasquier et al., ICDT 1999). modelmine builds its Hasse diagram: a
networkx DiGraph with an edge from each closed itemset to each of its minimal closed proper
supersets, above a bottom node for the empty itemset (support 1). It is the structure the
closedApr operator walks in decreasing support (Woznica, Nguyen & Kalousis, KDD 2012,
Section 3.2), here made inspectable and exportable.

Construction (no pairwise subset checks, no transitive reduction): the upper covers of a
closed itemset X are the minimal sets among the closures of X + {j}, j an item outside X.
With T_X the transactions containing X, the co-occurrence matrix of T_X gives every such
closure at once, and closure(X + {j}) is a cover iff every other candidate item inside it has
the same support as j. Cost: one (|cand| x |T_X|) @ (|T_X| x f) product per node.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .._files import write_text_atomic
from ..constants import (
    LATTICE_HTML_DRAWN,
    LATTICE_HTML_MAX_ITEMSETS,
    LATTICE_MAX_ITEMSETS,
    LATTICE_NOTEBOOK_MAX_ITEMSETS,
)
from ..validation import check_choice, check_int, param_error
from ._explorer import explorer_page
from ._itemsets import Itemsets, as_transactions
from ._mining import mine_itemsets

if TYPE_CHECKING:  # imported where used: `import modelmine` and mm.run do without networkx
    import networkx as nx

__all__ = ["DRAW_FORMATS", "EXPORT_FORMATS", "ItemsetLattice"]

EXPORT_FORMATS = ("graphml", "gexf", "json", "dot")
DRAW_FORMATS = ("png", "svg")


class ItemsetLattice:
    """Hasse diagram of the closed itemsets of the base models.

    Parameters
    ----------
    closed : Itemsets
        Closed itemsets from :func:`~modelmine.patterns._mining.mine_itemsets` with
        ``itemset_type='closed'`` and no ``max_len`` (the lattice needs all of them).

    Attributes
    ----------
    graph : networkx.DiGraph
        Nodes are the indices of the itemsets in ``closed`` plus ``bottom`` (-1, the empty
        itemset). Edges go from an itemset to its covers (minimal closed proper supersets).
        Node attributes: ``items`` (tuple of feature indices), ``names`` (tuple of feature
        names), ``support``, ``count``, ``size``.
    bottom : int
        The node of the empty itemset, -1.

    Notes
    -----
    Woznica, Nguyen & Kalousis, KDD 2012, Section 3.2 (closed itemsets of the base models);
    lattice of closed itemsets after Pasquier et al., ICDT 1999.
    """

    bottom = -1

    def __init__(self, closed: Itemsets, signatures: Mapping[str, Any] | None = None) -> None:
        if signatures is not None and not isinstance(signatures, Mapping):
            raise param_error("signatures", "ItemsetLattice", "a mapping of operator names to "
                              "Signature or SignatureSet, or None", signatures, exc=TypeError)
        if not isinstance(closed, Itemsets):
            raise param_error("closed", "ItemsetLattice", "closed Itemsets",
                              closed, exc=TypeError)
        if closed.itemset_type != "closed":
            raise param_error("closed", "ItemsetLattice",
                              "closed itemsets (mine_itemsets(..., itemset_type='closed'))",
                              f"itemsets of type {closed.itemset_type!r}", show=False)
        if closed.max_len is not None:
            raise param_error("closed", "ItemsetLattice",
                              "all closed itemsets (mined with max_len=None)",
                              f"closed itemsets cut at max_len={closed.max_len}", show=False)
        self.closed = closed
        self.signatures = signatures
        self.graph = _hasse(closed)

    @classmethod
    def from_base(cls, base: Any, min_support: float = 0.2, backend: str = "auto",
                  max_itemsets: int | None = LATTICE_MAX_ITEMSETS,
                  signatures: Mapping[str, Any] | None = None) -> ItemsetLattice:
        """Mine the closed itemsets of ``base`` and build their lattice (``signatures``: see
        :attr:`signatures`)."""
        return cls(mine_itemsets(as_transactions(base, "ItemsetLattice.from_base"),
                                 itemset_type="closed", min_support=min_support, backend=backend,
                                 max_itemsets=max_itemsets), signatures=signatures)

    def __len__(self) -> int:
        return self.graph.number_of_nodes()

    def __repr__(self) -> str:
        return (f"ItemsetLattice(n_nodes={self.graph.number_of_nodes()}, "
                f"n_edges={self.graph.number_of_edges()}, min_count={self.closed.min_count})")

    # -- queries ------------------------------------------------------------------------
    def _node(self, node: Any, func: str) -> int:
        if node == self.bottom and not isinstance(node, bool):
            return self.bottom
        return int(check_int(node, "node", func, min_value=-1, max_value=len(self.closed) - 1))

    def parents(self, node: int) -> list[int]:
        """Immediate closed subsets of ``node`` (towards the bottom)."""
        return sorted(self.graph.predecessors(self._node(node, "ItemsetLattice.parents")))

    def children(self, node: int) -> list[int]:
        """Covers of ``node``: its minimal closed proper supersets."""
        return sorted(self.graph.successors(self._node(node, "ItemsetLattice.children")))

    def above(self, node: int) -> nx.DiGraph:
        """Sublattice of ``node`` and all its closed supersets (a view)."""
        node = self._node(node, "ItemsetLattice.above")
        import networkx as nx

        return self.graph.subgraph({node} | nx.descendants(self.graph, node))

    def below(self, node: int) -> nx.DiGraph:
        """Sublattice of ``node`` and all its closed subsets, down to the bottom (a view)."""
        node = self._node(node, "ItemsetLattice.below")
        import networkx as nx

        return self.graph.subgraph({node} | nx.ancestors(self.graph, node))

    def containing(self, feature: int | str) -> list[int]:
        """Nodes whose itemset contains ``feature`` (an index or a feature name)."""
        names = self.closed.feature_names
        if isinstance(feature, str):
            hits = np.flatnonzero(names == feature)
            if len(hits) == 0:
                raise param_error("feature", "ItemsetLattice.containing",
                                  "a feature index or one of the feature names", feature)
            j = int(hits[0])
        else:
            j = int(check_int(feature, "feature", "ItemsetLattice.containing", min_value=0,
                              max_value=len(names) - 1))
        rows = np.repeat(np.arange(len(self.closed)), self.closed.lengths)
        return sorted(set(rows[self.closed.indices == j].tolist()))

    def models_containing(self, node: int) -> np.ndarray:
        """Indices of the base models (transactions) that contain the itemset of ``node``."""
        node = self._node(node, "ItemsetLattice.models_containing")
        if node == self.bottom:
            return np.arange(self.closed.n_transactions)
        return self.closed.models_containing(node)

    def path_from_bottom(self, node: int) -> list[int]:
        """A shortest chain of covers from the bottom (empty itemset) to ``node``."""
        node = self._node(node, "ItemsetLattice.path_from_bottom")
        import networkx as nx

        return list(nx.shortest_path(self.graph, self.bottom, node))

    # -- exports ------------------------------------------------------------------------
    def _flat_graph(self) -> nx.DiGraph:
        """A copy with tuple attributes turned into strings (GraphML / GEXF have no lists)."""
        import networkx as nx

        out = nx.DiGraph()
        for node, data in self.graph.nodes(data=True):
            out.add_node(node, items=" ".join(map(str, data["items"])),
                         names=";".join(data["names"]), label=_label(data["names"]),
                         support=float(data["support"]), count=int(data["count"]),
                         size=int(data["size"]))
        out.add_edges_from(self.graph.edges())
        return out

    def write(self, path: str | Path, format: str | None = None) -> Path:
        """Write the lattice as GraphML, GEXF, node-link JSON or DOT (by suffix or ``format``).

        GraphML and GEXF open in Gephi and Cytoscape, DOT in Graphviz. Item tuples are written
        as space-separated indices (``items``) and ';'-separated names (``names``).
        """
        path = Path(path)
        fmt = format if format is not None else path.suffix.lstrip(".").lower()
        fmt = check_choice(fmt, "format", "ItemsetLattice.write", EXPORT_FORMATS)
        flat = self._flat_graph()
        import networkx as nx

        if fmt == "graphml":
            nx.write_graphml(flat, path)
        elif fmt == "gexf":
            nx.write_gexf(flat, path)
        elif fmt == "json":
            path.write_text(json.dumps(nx.node_link_data(flat, edges="edges"), indent=1))
        else:
            path.write_text(_dot(flat))
        return path

    def to_html(self, path: str | Path, *, signatures: Mapping[str, Any] | None = None,
                title: str = "modelmine lattice explorer",
                max_itemsets: int = LATTICE_HTML_MAX_ITEMSETS,
                budget: int = LATTICE_HTML_DRAWN, significance: Any = None) -> Path:
        """Write the interactive lattice explorer: one self-contained, offline HTML page.

        The Hasse diagram layered by itemset size (node size and colour by support) with
        pan and zoom, search by feature name, filters (minimum support, size range, only
        the itemsets inside a signature), a details panel (features, support and count,
        parents and children, the base models containing the itemset and the signatures
        containing it), two signatures compared on the lattice, and the selection as CSV or
        the view as SVG / PNG. Every script and style is inline (no library, no network
        request); each drawn itemset carries ``data-itemset`` (its feature names joined by
        commas) under the root ``id="lattice"``. See ``docs/lattice.md``.

        Parameters
        ----------
        path : path-like
            The ``.html`` file to write (atomically).
        signatures : mapping of str to Signature or SignatureSet, optional
            Default: :attr:`signatures` (the run's, from :meth:`modelmine.MiningRun.lattice`).
        title : str
        max_itemsets : int, default=LATTICE_HTML_MAX_ITEMSETS (100,000)
            The most closed itemsets the page embeds; above it, those of highest support
            (all itemsets above a support cut, a down-closed part of the lattice) and the
            page says what it kept.
        budget : int, default=LATTICE_HTML_DRAWN (1,500)
            Level of detail: the most itemsets drawn at once; the rest of the view is counted
            per level as hidden until the user zooms in or filters.
        significance : DataFrame, optional
            :func:`modelmine.diagnostics.itemset_significance` of the itemsets: each tested
            itemset's lift and q-value in the details panel and the CSV export (issue 25).

        Returns
        -------
        pathlib.Path

        Notes
        -----
        Woznica, Nguyen and Kalousis (KDD 2012), Section 3.2: the closed itemsets of the
        base models that closedApr reads in decreasing support; their lattice after Pasquier
        et al. (ICDT 1999).
        """
        path = Path(path)
        text = self.to_html_text(signatures=signatures, title=title,
                                 max_itemsets=max_itemsets, budget=budget,
                                 significance=significance)
        return write_text_atomic(path, text)

    def to_html_text(self, *, signatures: Mapping[str, Any] | None = None,
                     title: str = "modelmine lattice explorer",
                     max_itemsets: int = LATTICE_HTML_MAX_ITEMSETS,
                     budget: int = LATTICE_HTML_DRAWN, significance: Any = None) -> str:
        """The page :meth:`to_html` writes, as text (same parameters but ``path``)."""
        sigs = self.signatures if signatures is None else signatures
        return explorer_page(self, signatures=sigs, title=title, max_itemsets=max_itemsets,
                             budget=budget, func="ItemsetLattice.to_html",
                             significance=significance)

    def _repr_html_(self) -> str:
        """The explorer inline in Jupyter: the page in an ``<iframe srcdoc>`` (its script and
        ids kept apart from the notebook's), 100% wide and 760 px high, at most
        LATTICE_NOTEBOOK_MAX_ITEMSETS itemsets (those of highest support)."""
        page = self.to_html_text(title="Closed itemset lattice",
                                 max_itemsets=LATTICE_NOTEBOOK_MAX_ITEMSETS)
        return (f'<iframe srcdoc="{html.escape(page, quote=True)}" title="lattice explorer" '
                'style="width:100%;height:760px;border:1px solid #ddd" loading="lazy">'
                "</iframe>")

    def draw(self, path: str | Path, max_nodes: int = 120, format: str | None = None,
             figsize: tuple[float, float] | None = None) -> Path:
        """Draw the lattice layered by itemset size, coloured by support, to PNG or SVG.

        At most ``max_nodes`` itemsets are drawn: the bottom and the closed itemsets of highest
        support (a down-closed part of the lattice, since a superset never has more support),
        and the figure says how many of how many are shown. Each node is labelled with the
        features it adds to its parents (reduced labelling), so labels stay short.
        """
        import matplotlib

        matplotlib.use("Agg", force=False)
        import matplotlib.pyplot as plt
        from matplotlib.colors import Normalize

        path = Path(path)
        fmt = format if format is not None else path.suffix.lstrip(".").lower()
        fmt = check_choice(fmt, "format", "ItemsetLattice.draw", DRAW_FORMATS)
        max_nodes = int(check_int(max_nodes, "max_nodes", "ItemsetLattice.draw", min_value=1))
        n_total = len(self.closed)
        keep = [self.bottom, *range(min(n_total, max_nodes))]
        sub = self.graph.subgraph(keep)
        layers: dict[int, list[int]] = {}
        for node in keep:
            layers.setdefault(sub.nodes[node]["size"], []).append(node)
        # Order nodes in a layer by the mean x of their parents (barycentre heuristic).
        pos: dict[int, tuple[float, float]] = {}
        for size in sorted(layers):
            nodes = layers[size]
            def bary(n: int) -> float:
                xs = [pos[p][0] for p in sub.predecessors(n) if p in pos]
                return float(np.mean(xs)) if xs else 0.0
            nodes.sort(key=lambda n: (bary(n), n))
            width = len(nodes)
            for k, node in enumerate(nodes):
                pos[node] = ((k + 0.5) / width - 0.5, float(size))
        widest = max(len(v) for v in layers.values())
        if figsize is None:
            figsize = (min(30.0, max(8.0, 0.38 * widest + 3)), max(5.0, 1.5 * len(layers) + 2))
        with matplotlib.rc_context({"text.parse_math": False}):  # names are data, not TeX
            self._draw(plt, Normalize, sub, keep, pos, layers, figsize, max_nodes, n_total,
                       path, fmt)
        return path

    def _draw(self, plt: Any, Normalize: Any, sub: Any, keep: list[int],
              pos: dict[int, tuple[float, float]], layers: dict[int, list[int]],
              figsize: tuple[float, float], max_nodes: int, n_total: int, path: Path,
              fmt: str) -> None:
        fig, ax = plt.subplots(figsize=figsize)
        support = np.array([sub.nodes[n]["support"] for n in keep])
        norm = Normalize(vmin=float(support.min()) if len(keep) > 1 else 0.0, vmax=1.0)
        cmap = plt.get_cmap("viridis")
        for u, v in sub.edges():
            ax.plot([pos[u][0], pos[v][0]], [pos[u][1], pos[v][1]], color="0.75", lw=0.6,
                    zorder=1)
        xy = np.array([pos[n] for n in keep])
        ax.scatter(xy[:, 0], xy[:, 1], s=60 + 240 * support, c=support, cmap=cmap, norm=norm,
                   edgecolors="k", linewidths=0.4, zorder=2)
        for node in keep:
            data = sub.nodes[node]
            inherited = set().union(*[set(sub.nodes[p]["items"]) for p in sub.predecessors(node)])
            new = [n for i, n in zip(data["items"], data["names"]) if i not in inherited]
            # Reduced labelling: the features a node adds to its parents; a node that only
            # joins its parents is labelled by its whole itemset (abbreviated).
            text = ("∅" if node == self.bottom else
                    "+" + _label(tuple(new), limit=2) if new and len(new) < data["size"] else
                    _label(data["names"], limit=3))
            ax.annotate(text, pos[node], xytext=(3, 5), textcoords="offset points",
                        ha="left", va="bottom", rotation=35, fontsize=6.5, zorder=3)
        shown = len(keep) - 1
        ax.set_title(
            f"Closed itemset lattice: {shown} of {n_total} closed itemsets shown "
            f"(the {shown} of highest support; cap max_nodes={max_nodes}), "
            f"min support {self.closed.min_count}/{self.closed.n_transactions}.\n"
            "Layer = itemset size; colour and size = support; label = features added "
            "to the parents (+), or the whole itemset.", fontsize=10, pad=10)
        ax.set_ylabel("itemset size")
        ax.set_xticks([])
        ax.set_yticks(sorted(layers))
        # Headroom above the top layer for its rotated labels, so they never reach the title.
        ax.set_ylim(min(layers) - 0.4, max(layers) + 0.9)
        ax.set_xlim(-0.55, 0.62)
        for side in ("top", "right", "bottom"):
            ax.spines[side].set_visible(False)
        fig.colorbar(plt.cm.ScalarMappable(norm=norm, cmap=cmap), ax=ax, label="support",
                     fraction=0.02, pad=0.01)
        fig.tight_layout()
        fig.savefig(path, format=fmt, dpi=110)
        plt.close(fig)


def _label(names: Iterable[str], limit: int = 4) -> str:
    names = list(names)
    if len(names) <= limit:
        return ", ".join(names)
    return ", ".join(names[:limit]) + f" +{len(names) - limit}"


_DOT_ID = re.compile(r"^-?[0-9]+$")


def _dot_quote(value: Any) -> str:
    text = str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{text}"'


def _dot(graph: nx.DiGraph) -> str:
    """DOT text for Graphviz, written directly (no pygraphviz / pydot needed)."""
    lines = ["digraph lattice {", "  rankdir=BT;", "  node [shape=box, style=rounded];"]
    for node, data in graph.nodes(data=True):
        attrs = ", ".join(f"{key}={_dot_quote(val)}" for key, val in data.items())
        lines.append(f"  {_dot_quote(node)} [{attrs}];")
    for u, v in graph.edges():
        lines.append(f"  {_dot_quote(u)} -> {_dot_quote(v)};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _hasse(closed: Itemsets) -> nx.DiGraph:
    """Hasse diagram of ``closed`` plus the empty itemset, by the cover construction."""
    tx = closed._transactions
    min_count = closed.min_count
    b = closed.n_transactions
    items = np.flatnonzero(tx.item_counts >= min_count)  # only frequent items can extend
    dense = tx.matrix[:, items].toarray()
    local = np.full(tx.n_items, -1, np.int64)
    local[items] = np.arange(len(items))
    lookup: dict[bytes, int] = {}
    mask_rows = np.zeros((len(closed), len(items)), bool)
    for i in range(len(closed)):
        mask_rows[i, local[closed.items_of(i)]] = True
    packed = np.packbits(mask_rows, axis=1)
    for i in range(len(closed)):
        lookup[packed[i].tobytes()] = i
    if len(lookup) != len(closed):
        raise param_error("closed", "ItemsetLattice", "distinct closed itemsets",
                          "duplicated itemsets", show=False)

    import networkx as nx

    graph = nx.DiGraph()
    names = closed.feature_names
    graph.add_node(-1, items=(), names=(), support=1.0, count=b, size=0)
    for i in range(len(closed)):
        its = closed.items_of(i)
        graph.add_node(i, items=tuple(its.tolist()), names=tuple(str(n) for n in names[its]),
                       support=float(closed.support[i]), count=int(closed.counts[i]),
                       size=len(its))
    sources = [(-1, np.zeros(len(items), bool), np.arange(b))]
    edges: list[tuple[int, int]] = []
    for node, inside, rows in sources + [
        (i, mask_rows[i], closed.models_containing(i)) for i in range(len(closed))
    ]:
        sub = dense[rows]
        support_j = sub.sum(axis=0)
        cand = np.flatnonzero((support_j >= min_count) & ~inside)
        if len(cand) == 0:
            continue
        sub_f = sub.astype(np.float32)
        co = sub_f[:, cand].T @ sub_f  # co[k, j] = support of X + {cand[k], j}
        s = support_j[cand]
        closure = co >= s[:, None] - 0.5  # items in closure(X + {cand[k]})
        # cover iff every candidate item in the closure has the same support as cand[k]
        in_cand = closure[:, cand]
        max_s = np.where(in_cand, s[None, :], -1).max(axis=1)
        for k in np.flatnonzero(max_s == s):
            key = np.packbits(closure[k]).tobytes()
            target = lookup.get(key)
            if target is None:
                raise param_error(
                    "closed", "ItemsetLattice", "all the closed itemsets of the transactions",
                    "an incomplete set (a closure of a frequent itemset is missing)", show=False)
            edges.append((node, target))
    graph.add_edges_from(edges)
    return graph
