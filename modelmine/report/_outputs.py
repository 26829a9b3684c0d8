"""Signatures in the formats of the tools biologists use next: GMT gene sets and AnnData.

GMT is the gene-set format of GSEA (Subramanian et al., PNAS 2005) and of most enrichment
tools (g:Profiler, Enrichr, fgsea): one tab-separated line per set, its name, a description,
then its genes. :func:`annotate_anndata` writes a run's results into the ``var`` table of an
AnnData (scanpy's format), next to the user's own annotations.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from .._utils import jsonable
from ..operators import Signature, SignatureSet

__all__ = ["annotate_anndata", "markers_gmt", "signature_sets", "signatures_gmt"]


#: A run of characters that would split a GMT field or line: tabs, line breaks (CR, LF,
#: VT, FF, NEL, the Unicode line and paragraph separators) and the other control characters.
_NOT_IN_A_FIELD = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def gmt_field(text: object) -> str:
    """One field of a GMT line: every run of tabs, line breaks and other control
    characters becomes one space (issue 50: a class named ``"a\tb"`` in the description
    made a bogus gene of ``b``; a line break, a bogus set)."""
    return _NOT_IN_A_FIELD.sub(" ", str(text))


def signature_sets(
    signatures: Mapping[str, Signature | SignatureSet],
) -> list[tuple[str, Signature]]:
    """Every signature of a run under one name: the operator for a consensus signature,
    ``OPERATOR_alt<i>`` (1-based) for the i-th alternative of a multi-model operator."""
    named: list[tuple[str, Signature]] = []
    for op, result in signatures.items():
        if isinstance(result, Signature):
            named.append((op, result))
        else:
            named += [(f"{op}_alt{i}", sig) for i, sig in enumerate(result, start=1)]
    return named


def signatures_gmt(
    signatures: Mapping[str, Signature | SignatureSet], *, description: str = "modelmine"
) -> str:
    """The signatures as a GMT file (one gene set per signature, genes in signature order).

    Parameters
    ----------
    signatures : mapping of str to Signature or SignatureSet
        A run's ``signatures``.
    description : str
        The second field of every line (GSEA shows it; a URL or a short text).

    Returns
    -------
    str
    """
    lines = []
    for name, sig in signature_sets(signatures):
        genes = [gmt_field(g) for g in sig.names]
        lines.append("\t".join([gmt_field(name), gmt_field(
            f"{description} ({name}, {len(genes)} genes)"), *genes]))
    return "\n".join(lines) + ("\n" if lines else "")


def markers_gmt(markers: pd.DataFrame, *, description: str = "modelmine markers") -> str:
    """Gene sets ``SIGNATURE_CLASS_up`` and ``SIGNATURE_CLASS_down``: the genes of each
    signature higher (lower) in the class than in the rest, best separator first
    (:meth:`modelmine.MiningRun.markers`). With per-class panels, these are the panels'
    sets, and the pooled signature's are ``SIGNATURE_pooled_CLASS_up`` / ``_down``. Empty
    sets are left out. For a continuous or survival outcome (no ``class`` column): one
    set per signature and direction, ``SIGNATURE_up`` / ``_down`` (regression) or
    ``SIGNATURE_risk`` / ``_protective`` (survival), strongest first.

    Parameters
    ----------
    markers : pandas.DataFrame
        What :meth:`MiningRun.markers` returns (several operators stacked).
    description : str
        The second field of every line.

    Returns
    -------
    str
    """
    lines = []
    if "class" not in markers.columns:  # a continuous or survival outcome: by direction
        for label, part in markers.groupby("signature", sort=False):
            title = str(label)
            for direction in part["direction"].unique():
                genes = part[part.direction == direction].sort_values("rank").feature
                name = re.sub(r"\s+", "_", gmt_field(f"{title}_{direction}"))
                cells = [gmt_field(g) for g in genes]
                lines.append("\t".join([name, gmt_field(
                    f"{description} ({title}, {direction} with the outcome, {len(cells)} "
                    "genes)"), *cells]))
        return "\n".join(lines) + ("\n" if lines else "")
    panel = (markers["panel"] if "panel" in markers.columns
             else pd.Series("pooled", index=markers.index))
    both = (panel == "per_class").any()
    for (sig, kind, cls), part in markers.assign(panel=panel).groupby(
            ["signature", "panel", "class"], sort=False):
        for direction in ("up", "down"):
            genes = part[part.direction == direction].sort_values("rank_in_class").feature
            if genes.empty:
                continue
            prefix = f"{sig}_pooled" if both and kind == "pooled" else str(sig)
            name = re.sub(r"\s+", "_", gmt_field(f"{prefix}_{cls}_{direction}"))
            cells = [gmt_field(g) for g in genes]
            lines.append("\t".join([name, gmt_field(
                f"{description} ({sig}, class {cls} {direction}, {len(cells)} genes)"),
                *cells]))
    return "\n".join(lines) + ("\n" if lines else "")


def annotate_anndata(run: Any, data: Any, *, full: bool = False) -> Any:
    """An AnnData with the run's results in ``var`` (and its settings in ``uns``).

    ``var`` columns: ``modelmine_frequency`` (fraction of the b base models selecting the
    gene, KDD 2012 section 2), ``modelmine_mean_rank``, and one boolean column per
    signature, ``modelmine_<name>`` (names of :func:`signature_sets`); a per-class run adds,
    for each class, ``modelmine_frequency_<class>`` (its base models against the rest) and
    ``modelmine_<class>_<name>`` (its panels; a ``/`` in a class name is ``∕`` there,
    :func:`h5_key`, and ``uns["modelmine"]["classes"]`` pairs each class with the name its
    columns carry). ``uns["modelmine"]``
    holds the settings and the command as a nested dict (what ``h5py`` can store: a value
    that is None is stored as the text ``"None"``, a list of records as a dict keyed
    ``"0"``, ``"1"``, ...).

    By default the AnnData holds the annotations only: ``obs``, ``var`` and ``uns``, no
    matrix (``X`` is None), so that annotating a single-cell file does not copy its
    hundreds of megabytes; ``full=True`` holds the data too (the whole user's file for an
    ``.h5ad`` source, its layers included). For an ``.h5ad`` source the user's own
    ``obs``, ``var`` and ``uns`` are kept, restricted to the samples the run used; other
    sources get the labels in ``obs`` and the feature names as ``var_names``.

    Parameters
    ----------
    run : MiningRun
    data : LoadedData
        What the run read (:func:`modelmine.datasets.read_data`).
    full : bool, default=False
        Copy the data's matrix (and, for an ``.h5ad``, its layers, obsm, ...) as well.

    Returns
    -------
    anndata.AnnData
    """
    from ..datasets._biodata import import_anndata

    anndata = import_anndata()
    base = run.base_models
    if data.format == "h5ad":
        source = anndata.read_h5ad(data.source, backed=None if full else "r")
        try:
            if data.sample_names is not None and len(data.sample_names) != source.n_obs:
                source = source[list(data.sample_names)]
            if full:
                adata = source.copy() if source.is_view else source
            else:
                adata = anndata.AnnData(obs=source.obs.copy(), var=source.var.copy(),
                                        uns=dict(source.uns))
        finally:
            if not full and getattr(source, "file", None) is not None:
                source.file.close()
    else:
        obs_index = (
            pd.Index([str(s) for s in data.sample_names])
            if data.sample_names is not None
            else pd.Index([str(i) for i in range(data.shape[0])])
        )
        y = np.asarray(data.y)
        if y.dtype.names:  # survival: the times under the target's name, and the events
            event = str((data.read_options or {}).get("event") or "event")
            obs = pd.DataFrame({str(data.target): y["time"], event: y["event"]},
                               index=obs_index)
        else:
            obs = pd.DataFrame({str(data.target): pd.Categorical(y.astype(str))},
                               index=obs_index)
        var = pd.DataFrame(index=[str(n) for n in data.feature_names])
        adata = (anndata.AnnData(X=data.X, obs=obs, var=var) if full
                 else anndata.AnnData(obs=obs, var=var))
    names = [str(n) for n in base.feature_names]
    if [str(v) for v in adata.var_names] != names:
        raise ValueError(
            "The AnnData's var_names differ from the run's feature names; "
            "annotate the file the run read."
        )
    adata.var["modelmine_frequency"] = base.subsets.mean(axis=0)
    adata.var["modelmine_mean_rank"] = base.tied_ranks().mean(axis=0, dtype=np.float64)
    for name, sig in signature_sets(run.signatures):
        member = np.zeros(len(names), dtype=bool)
        member[np.asarray(sig.features, dtype=np.int64)] = True
        adata.var[f"modelmine_{name}"] = member
    # a per-class run: each class's panel and frequency against the rest, beside the pooled
    classes: list[str] = []
    if run.class_signatures and run.class_frequencies is not None:
        index = {n: j for j, n in enumerate(names)}
        for cls, ops in run.class_signatures.items():
            key = h5_key(cls)
            classes.append(str(cls))
            adata.var[f"modelmine_frequency_{key}"] = run.class_frequencies[cls].reindex(
                names).to_numpy(dtype=np.float64)
            for name, sig in signature_sets(ops):
                member = np.zeros(len(names), dtype=bool)
                member[[index[str(g)] for g in sig.names]] = True
                adata.var[f"modelmine_{key}_{h5_key(name)}"] = member
    record: dict[str, Any] = {"settings": dict(run.settings), "command": run.command}
    if classes:  # each class's name as it is, beside the name its columns carry
        record["classes"] = {"class": classes, "in_columns": [h5_key(c) for c in classes]}
    adata.uns["modelmine"] = h5_safe(jsonable(record))
    return adata


def h5_key(name: Any) -> str:
    """``name`` as part of a key an ``.h5ad`` file stores (a ``var`` column, an ``uns``
    entry): a ``/`` becomes ``∕`` (U+2215, the division slash, which reads the same), since
    HDF5 reads ``/`` as a path and anndata refuses it in keys from its next release ("CD4+/
    CD8+" clusters wrote with a FutureWarning, and would not write at all)."""
    return str(name).replace("/", "\u2215")


def h5_safe(value: Any) -> Any:
    """A JSON-like value as ``h5py`` (hence ``.h5ad``'s ``uns``) stores it: dicts stay
    dicts, None becomes the text ``"None"``, a list of texts or of numbers an array, any
    other list a dict keyed by position."""
    if isinstance(value, dict):
        return {str(k): h5_safe(v) for k, v in value.items()}
    if value is None:
        return "None"
    if isinstance(value, list | tuple):
        if value and all(isinstance(v, str) for v in value):
            return np.asarray(value, dtype=str)
        if value and all(isinstance(v, int | float) and not isinstance(v, bool)
                         for v in value):
            return np.asarray(value, dtype=np.float64 if any(
                isinstance(v, float) for v in value) else np.int64)
        return {str(i): h5_safe(v) for i, v in enumerate(value)}
    return value
