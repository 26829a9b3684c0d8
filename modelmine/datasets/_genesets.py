"""Gene sets as users bring them: GMT files (MSigDB, GO, Reactome exports) or mappings.

The GMT format (Broad Institute, used by GSEA and MSigDB): one set per line, tab-separated,
the set's name, a description (a URL or ``na``), then its genes. Nothing is downloaded:
the user names the file (MSigDB's ``h.all.v2024.1.Hs.symbols.gmt``, a GO export).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..exceptions import DataError
from ..validation import param_error

__all__ = ["gene_sets_of", "read_gmt"]


def read_gmt(path: str | os.PathLike[str]) -> dict[str, list[str]]:
    """Read a GMT file: set name -> genes (in the file's order, each once).

    Parameters
    ----------
    path : path-like
        A tab-separated file, one set per line: name, description, genes. Blank lines and
        lines starting with ``#`` are skipped.

    Returns
    -------
    dict of str to list of str

    Raises
    ------
    DataError
        A line with no gene, a set named twice, or a file with no set; the message names
        the file and the line.
    """
    file = Path(path)
    if not file.is_file():
        raise DataError(f"No gene sets file (GMT) at {str(file)!r}.")
    sets: dict[str, list[str]] = {}
    with open(file, encoding="utf-8", errors="replace") as fh:
        for number, line in enumerate(fh, start=1):
            text = line.rstrip("\r\n")
            if not text.strip() or text.startswith("#"):
                continue
            fields = text.split("\t")
            name = fields[0].strip()
            genes = list(dict.fromkeys(g.strip() for g in fields[2:] if g.strip()))
            if not name or not genes:
                raise DataError(f"{str(file)!r} line {number} is not a GMT gene set (name, "
                                "description, then genes, separated by tabs).")
            if name in sets:
                raise DataError(f"{str(file)!r} line {number} names the set {name!r} a "
                                "second time.")
            sets[name] = genes
    if not sets:
        raise DataError(f"{str(file)!r} holds no gene set.")
    return sets


def gene_sets_of(value: Any, func: str, name: str = "gene_sets") -> dict[str, list[str]]:
    """Gene sets given as a GMT path or a mapping of set names to genes, checked."""
    if isinstance(value, str | os.PathLike):
        return read_gmt(value)
    if isinstance(value, Mapping) and value:
        out = {}
        for key, genes in value.items():
            if isinstance(genes, str) or not isinstance(genes, Sequence | set | frozenset):
                raise param_error(name, func, "a mapping of set names to sequences of genes",
                                  f"{type(genes).__name__} for the set {key!r}",
                                  exc=TypeError, show=False)
            out[str(key)] = list(dict.fromkeys(str(g) for g in genes))
        return out
    raise param_error(name, func, "a GMT file or a non-empty mapping of set names to "
                      "genes", type(value).__name__ if not isinstance(value, Mapping)
                      else "an empty mapping", exc=TypeError, show=False)
