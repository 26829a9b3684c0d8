"""Over-representation of gene sets in signatures, against the genes that were tested.

For a signature S and a gene set G, both restricted to the universe U of the features the
run tested (not the genome: a gene that was never measured can be in neither list, and
counting it inflates every enrichment), the overlap k = |S & G| is compared with the
hypergeometric distribution of drawing |S| genes from U of which |G & U| are in the set:
``p = P(X >= k) = hypergeom.sf(k - 1, |U|, |G & U|, |S|)`` (the one-sided Fisher exact
test; Rivals et al., Bioinformatics 2007), and Benjamini-Hochberg (1995) q-values over the
sets tested against that signature. The same p-values as gseapy's ``enrich`` with the
universe as its ``background`` (which tests the sets with at least one gene of the list);
the q-values' family here is every set with at least ``min_size`` genes in the universe,
as clusterProfiler's ``enricher`` counts it (a set that shares no gene with a signature is
still a hypothesis tested, and leaving it out would make the q-values smaller).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import hypergeom

from ..validation import check_int, param_error
from ._significance import bh_qvalues

__all__ = ["ENRICHMENT_COLUMNS", "enrichment"]

#: The columns of :func:`enrichment`'s table, in order.
ENRICHMENT_COLUMNS = ("signature", "gene_set", "overlap", "signature_size", "set_size",
                      "universe", "expected", "fold_enrichment", "p_value", "q_value",
                      "genes")


def _gene_list(value: Any, name: str, func: str, what: str) -> list[str]:
    if isinstance(value, str) or not isinstance(value, Sequence | np.ndarray | pd.Index
                                                | set | frozenset | pd.Series):
        raise param_error(name, func, what, value, exc=TypeError)
    return [str(g) for g in value]


def enrichment(signatures: Mapping[str, Sequence[str]], gene_sets: Mapping[str, Any],
               universe: Sequence[str], *, min_size: int = 1) -> pd.DataFrame:
    """Over-representation of every gene set in every signature (hypergeometric test).

    Parameters
    ----------
    signatures : mapping of str to sequence of str
        Name -> genes (a run's signatures and per-class panels:
        :meth:`modelmine.MiningRun.enrichment`).
    gene_sets : mapping of str to sequence of str
        Set name -> genes (:func:`modelmine.datasets.read_gmt` reads a GMT file: MSigDB's,
        GO's, Reactome's).
    universe : sequence of str
        The genes that were tested (the run's features). Signatures and sets are
        restricted to it.
    min_size : int, default=1
        Sets with fewer genes in the universe are not tested (clusterProfiler's
        ``minGSSize`` is 10).

    Returns
    -------
    pandas.DataFrame
        One row per signature and set tested: ``signature``, ``gene_set``, ``overlap``
        (k), ``signature_size`` (``|S & U|``), ``set_size`` (``|G & U|``), ``universe`` (``|U|``),
        ``expected`` (``|S| |G| / |U|``), ``fold_enrichment`` (k / expected), ``p_value``
        (P(X >= k)), ``q_value`` (Benjamini-Hochberg over the sets tested against that
        signature), ``genes`` (the overlap, in the signature's order, joined by ``;``).
        Sorted by signature (as given), then p-value, then set name.
    """
    func = "enrichment"
    min_size = check_int(min_size, "min_size", func, min_value=1)
    if not isinstance(signatures, Mapping):
        raise param_error("signatures", func, "a mapping of names to gene lists",
                          type(signatures).__name__, exc=TypeError, show=False)
    if not isinstance(gene_sets, Mapping) or not gene_sets:
        raise param_error("gene_sets", func, "a non-empty mapping of set names to gene "
                          "lists (or a GMT file: modelmine.datasets.read_gmt)",
                          type(gene_sets).__name__ if not isinstance(gene_sets, Mapping)
                          else "an empty mapping", exc=TypeError, show=False)
    genes_u = _gene_list(universe, "universe", func, "a sequence of gene names")
    U = set(genes_u)
    N = len(U)
    if N == 0:
        raise param_error("universe", func, "at least one gene", "none", show=False)
    sets = {}
    for name, genes in gene_sets.items():
        members = set(_gene_list(genes, "gene_sets", func,
                                 f"a sequence of gene names for the set {name!r}")) & U
        if len(members) >= min_size:
            sets[str(name)] = members
    rows: list[dict[str, Any]] = []
    for sig_name, genes in signatures.items():
        listed = _gene_list(genes, "signatures", func,
                            f"a sequence of gene names for {sig_name!r}")
        query = list(dict.fromkeys(g for g in listed if g in U))
        n = len(query)
        part = []
        for set_name, members in sets.items():
            hits = [g for g in query if g in members]
            k, K = len(hits), len(members)
            expected = n * K / N
            part.append({"signature": str(sig_name), "gene_set": set_name, "overlap": k,
                         "signature_size": n, "set_size": K, "universe": N,
                         "expected": expected,
                         "fold_enrichment": k / expected if expected > 0 else np.nan,
                         "p_value": float(hypergeom.sf(k - 1, N, K, n)) if n else 1.0,
                         "genes": ";".join(hits)})
        if not part:
            continue
        q = bh_qvalues(np.asarray([r["p_value"] for r in part]))
        for r, qv in zip(part, q, strict=True):
            r["q_value"] = float(qv)
        part.sort(key=lambda r: (r["p_value"], r["gene_set"]))
        rows += part
    frame = pd.DataFrame(rows, columns=list(ENRICHMENT_COLUMNS))
    for col in ("overlap", "signature_size", "set_size", "universe"):
        frame[col] = frame[col].astype(np.int64)
    return frame
