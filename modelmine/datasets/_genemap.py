"""Probe IDs to gene symbols: a two-column map, and the rule that collapses the probes of
one gene into one feature.

Microarrays measure probes (GEO's ``1007_s_at``, ``ILMN_1343291``); biologists read genes.
A platform annotation (GEO's GPL table: columns ``ID`` and ``Gene Symbol``) maps each probe
to its gene, several probes often to one gene. Two rules are in use, both here:

- ``"max-mean"``: the probe with the highest mean over the samples stands for its gene
  (WGCNA's ``collapseRows(method="MaxMean")``, Miller et al., BMC Bioinformatics 2011: the
  most highly expressed probe is the most reliably measured one); ties go to the first
  probe in the data's column order.
- ``"mean"``: the gene's value in a sample is the mean of its probes' values in that sample
  (limma's ``avereps``, Smyth 2005).

Either way a gene appears once, where its first probe was in the data's column order (the
order of limma's ``avereps``). A probe whose symbol is missing (empty, ``NA``, GEO's
``---``) or lists several genes (GEO's ``A /// B``: ambiguous) is unmapped: kept under its
own ID (``unmapped="keep"``) or dropped (``"drop"``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp

from ..exceptions import DataError
from ..validation import param_error

__all__ = ["COLLAPSE_RULES", "UNMAPPED_CHOICES", "collapse_features", "read_feature_map"]

#: How the probes of one gene become one feature (``collapse=``).
COLLAPSE_RULES = ("max-mean", "mean")
#: What becomes of a probe the map gives no single symbol (``unmapped=``).
UNMAPPED_CHOICES = ("keep", "drop")
#: Symbols that stand for none (GEO writes ``---``; R and spreadsheets ``NA``).
_NO_SYMBOL = {"", "---", "na", "nan", "null", "none", "-"}
#: What separates the genes of a probe that matches several (GEO's annotation).
_SEVERAL = "///"


def read_feature_map(source: Any, columns: Sequence[str] | None = None, *,
                     func: str = "read_feature_map") -> dict[str, str]:
    """A probe -> symbol mapping from a file, a DataFrame or a mapping.

    Parameters
    ----------
    source : path-like, DataFrame or mapping
        A CSV / TSV table (``.csv`` is read with commas, anything else with tabs; lines
        starting with ``#``, as in GEO's platform files, are skipped), a DataFrame, or
        probe -> symbol.
    columns : (str, str), optional
        The probe and symbol columns of a table (GEO: ``("ID", "Gene Symbol")``); default:
        its first two columns.
    func : str
        The public function named in messages.

    Returns
    -------
    dict of str to str
        Every probe with its symbol as the table gives it (missing symbols as ``""``).
    """
    if isinstance(source, Mapping):
        return {str(k): "" if v is None else str(v) for k, v in source.items()}
    if isinstance(source, str | os.PathLike):
        path = Path(source)
        if not path.is_file():
            raise param_error("feature_map", func, "a table file of probes and symbols",
                              f"{str(path)!r}, which is not a file", show=False)
        try:
            table = pd.read_csv(path, sep="," if path.suffix.lower() == ".csv" else "\t",
                                comment="#", dtype=str, keep_default_na=False,
                                skip_blank_lines=True)
        except (ValueError, OSError, UnicodeDecodeError, pd.errors.ParserError) as exc:
            raise DataError(f"{str(path)!r} is not a table of probes and symbols ({exc})."
                            ) from None
        where = repr(str(path))
    elif isinstance(source, pd.DataFrame):
        table, where = source.astype(str), "the gene map"
    else:
        raise param_error("feature_map", func, "a file, a DataFrame or a mapping of probes "
                          "to symbols", type(source).__name__, exc=TypeError, show=False)
    if columns is None:
        if table.shape[1] < 2:
            raise DataError(f"{where} needs two columns, probe and symbol; it has "
                            f"{table.shape[1]}.")
        probe, symbol = table.columns[0], table.columns[1]
    else:
        probe, symbol = (str(c) for c in columns)
        missing = [c for c in (probe, symbol) if c not in table.columns]
        if missing:
            raise param_error("feature_map_columns", func, "columns of the gene map ("
                              + ", ".join(repr(str(c)) for c in table.columns[:8])
                              + (", ..." if table.shape[1] > 8 else "") + ")", missing[0])
    probes = table[probe].astype(str).str.strip()
    symbols = table[symbol].astype(str).str.strip()
    out: dict[str, str] = {}
    for p, s in zip(probes, symbols, strict=True):
        if p in out and out[p] != s:
            raise DataError(f"{where} maps the probe {p!r} to two symbols ({out[p]!r}, "
                            f"{s!r}).")
        out[p] = s
    return out


def _symbol(text: str) -> str | None:
    """The gene of one map entry, or None (no symbol, or several)."""
    value = text.strip()
    if value.lower() in _NO_SYMBOL or _SEVERAL in value:
        return None
    return value


def collapse_features(X: Any, feature_names: Sequence[Any], mapping: Mapping[str, str], *,
                      rule: str = "max-mean", unmapped: str = "keep",
                      func: str = "collapse_features") -> tuple[Any, list[str], dict[str, Any]]:
    """Map the columns of X to genes and collapse the probes of each gene into one.

    Parameters
    ----------
    X : ndarray, sparse matrix or DataFrame of shape (n_samples, p)
        The probes' values.
    feature_names : sequence
        The probes (column names).
    mapping : mapping of str to str
        Probe -> symbol (:func:`read_feature_map`).
    rule : {"max-mean", "mean"}, default="max-mean"
        WGCNA's ``collapseRows`` "MaxMean", or limma's ``avereps``.
    unmapped : {"keep", "drop"}, default="keep"
    func : str
        The public function named in messages.

    Returns
    -------
    X : ndarray or sparse matrix of shape (n_samples, genes)
    names : list of str
    record : dict
        ``probes``, ``mapped``, ``unmapped`` (kept or dropped), ``ambiguous`` (several
        genes), ``genes`` (collapsed from the mapped probes), ``collapsed`` (genes of two
        or more probes), ``features`` (the columns of the result), ``rule``,
        ``unmapped_rule``.
    """
    if rule not in COLLAPSE_RULES:
        raise param_error("collapse", func, "one of " + ", ".join(map(repr, COLLAPSE_RULES)),
                          rule)
    if unmapped not in UNMAPPED_CHOICES:
        raise param_error("unmapped", func, "one of " + ", ".join(map(repr,
                                                                     UNMAPPED_CHOICES)),
                          unmapped)
    matrix = (X.to_numpy(dtype=np.float64) if isinstance(X, pd.DataFrame)
              else sp.csc_matrix(X) if sp.issparse(X) else np.asarray(X, dtype=np.float64))
    names = [str(f) for f in feature_names]
    if len(names) != matrix.shape[1]:
        raise param_error("feature_names", func, f"{matrix.shape[1]} names", len(names),
                          show=False)
    groups: dict[str, list[int]] = {}  # output feature -> its columns, in first-seen order
    n_mapped = n_unmapped = n_ambiguous = 0
    for j, probe in enumerate(names):
        entry = mapping.get(probe)
        gene = None if entry is None else _symbol(entry)
        if gene is None:
            n_unmapped += 1
            n_ambiguous += int(entry is not None and _SEVERAL in entry)
            if unmapped == "drop":
                continue
            key = "\x00" + probe  # a kept probe is its own feature
        else:
            n_mapped += 1
            key = gene
        groups.setdefault(key, []).append(j)
    kept_ids = {k[1:] for k in groups if k.startswith("\x00")}
    clash = sorted(kept_ids & {k for k in groups if not k.startswith("\x00")})
    if clash:
        raise DataError(f"The unmapped probe {clash[0]!r} has the name of a gene of the map; "
                        "drop the unmapped probes (unmapped='drop') or rename it.")
    if not groups:
        raise DataError("No probe of the data is in the gene map (and the unmapped ones are "
                        "dropped): check the map's probe column against the data's feature "
                        f"names (first: {names[0]!r}).")
    means = np.asarray(matrix.mean(axis=0)).ravel()
    columns: list[Any] = []
    out_names: list[str] = []
    collapsed = 0
    for key, cols in groups.items():
        out_names.append(key[1:] if key.startswith("\x00") else key)
        if len(cols) == 1:
            columns.append(cols[0])
            continue
        if rule == "max-mean":
            best = cols[int(np.argmax(means[cols]))]  # the first of tied maxima
            columns.append(best)
        else:
            columns.append(list(cols))
        collapsed += 1
    if all(isinstance(c, int) for c in columns):
        result = matrix[:, np.asarray(columns, dtype=np.int64)]
    else:  # limma's avereps: the mean of the gene's probes in each sample
        weights = sp.lil_matrix((matrix.shape[1], len(columns)))
        for g, c in enumerate(columns):
            for j in [c] if isinstance(c, int) else c:
                weights[j, g] = 1.0 / (1 if isinstance(c, int) else len(c))
        averaged = sp.csc_matrix(weights)
        result = (matrix @ averaged) if sp.issparse(matrix) else np.asarray(
            matrix @ averaged.toarray())
    record = {"probes": len(names), "mapped": n_mapped, "unmapped": n_unmapped,
              "ambiguous": n_ambiguous,
              "genes": sum(1 for k in groups if not k.startswith("\x00")),
              "collapsed": collapsed, "features": len(out_names), "rule": rule,
              "unmapped_rule": unmapped}
    return (sp.csr_matrix(result) if sp.issparse(result) else result), out_names, record


def feature_map_statement(record: Mapping[str, Any], source: str) -> str:
    """The gene map of a run in words (run.json's ``data.feature_map``, the report)."""
    how = {"max-mean": "the probe of highest mean kept (WGCNA collapseRows MaxMean)",
           "mean": "their values averaged per sample (limma avereps)"}[record["rule"]]
    unmapped = record["unmapped"]
    fate = ("kept under their own IDs" if record["unmapped_rule"] == "keep" else "dropped")
    ambiguous = (f", {record['ambiguous']:,} of them mapping to several genes"
                 if record["ambiguous"] else "")
    return (f"{record['probes']:,} probes mapped to gene symbols by {source}: "
            f"{record['mapped']:,} mapped to {record['genes']:,} genes, "
            f"{record['collapsed']:,} genes with several probes ({how}); {unmapped:,} "
            f"probes without a single symbol{ambiguous}, {fate}; {record['features']:,} "
            "features selected from")
