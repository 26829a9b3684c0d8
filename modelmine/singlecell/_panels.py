"""Stable marker panels for every cluster of a single-cell dataset (issue 29).

:func:`marker_panels` is the scanpy-style entry point: one call on an AnnData, in place.
For every cluster of ``adata.obs[groupby]``, the selector is fitted on the cluster against
the rest on each of ``n_bootstraps`` resamples (the per-class panels of
:func:`modelmine.run`, on the same resamples for every cluster); each resample holds at
most ``max_cells_per_group`` cells of each cluster, drawn without replacement, so that rare
clusters are not drowned and the cost does not grow with the atlas; with ``groups``
(donors, samples) whole groups are drawn first. The panel of a cluster is its
``panel_size`` most frequently selected genes (mostFreq, KDD 2012 section 2.1).

The results are written where scanpy reads them: ``adata.uns[key_added]`` in the layout
of ``sc.tl.rank_genes_groups`` (``names``, ``scores`` = the selection frequency,
``logfoldchanges``, ``pvals`` and ``pvals_adj`` of the Wilcoxon rank-sum test on all the
cells, Benjamini-Hochberg within each cluster, and ``auroc``), so that
``sc.get.rank_genes_groups_df(adata, group=None, key=key_added)`` and
``sc.pl.rank_genes_groups_dotplot(adata, key=key_added)`` work unchanged; and one boolean
column of ``adata.var`` per cluster, ``{key_added}_{cluster}``, the panel's membership.
"""

from __future__ import annotations

import inspect
import re
import warnings
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp

from .._deprecation import UNSET, renamed_accessor, renamed_keyword
from .._doors import door
from .._progress import phase
from ..constants import NEGATIVE_MASS_TOLERANCE
from ..datasets._biodata import negative_mass
from ..diagnostics._markers import expression_columns, fold_changes
from ..diagnostics._significance import bh_qvalues
from ..report import h5_key
from ..selectors._wilcoxon import wilcoxon_by_group
from ..spec import PRESETS
from ..validation import check_choice, check_int, param_error

__all__ = ["MarkerPanels", "marker_panels", "panel_memory", "wilcoxon_by_group"]

_FUNC = "marker_panels"

#: The defaults of the panels' base models (docs/DEVELOPING.md, "Doors and presets").
_PRESET = PRESETS["marker-panels"]

#: Clusters smaller than this are refused (a cluster against the rest needs a few cells).
MIN_CELLS_PER_GROUP = 3

#: At most this many of a cluster's combinations get their AUROC computed (each ranks all
#: the cells): the most supported, ties by their genes' single-gene AUROC (issue 40.15:
#: a panel of 100 genes has C(100, 3) = 161,700 candidate triples).
MAX_SCORED_COMBINATIONS = 200


@dataclass(frozen=True, repr=False)
class MarkerPanels:
    """What :func:`marker_panels` returns (and writes into the AnnData).

    Attributes
    ----------
    panels : dict
        Cluster -> list of the panel's genes, most frequently selected first.
    table : pandas.DataFrame
        One row per cluster and reported gene, in the marker vocabulary of
        :func:`modelmine.diagnostics.marker_table` (issue 38): ``class`` (the cluster),
        ``feature`` (the gene), ``frequency`` (over the b base models), ``in_panel``,
        ``log2_fold_change``, ``auroc``, ``wilcoxon_z``, ``p_value``, ``q_value``
        (Benjamini-Hochberg within the cluster), ``mean_rank`` (within the cluster's
        models). Tables of the previous release (``group``, ``names``, ``scores``,
        ``logfoldchanges``, ``pvals``, ``pvals_adj``) read with :func:`tidy_marker_table`.
    combinations : pandas.DataFrame
        Per cluster (``class``), the genes selected together (``features``): the closed
        itemsets of two or more
        genes of the cluster's base models (KDD 2012, section 2.1), most supported first,
        with ``support``, ``lift``, the ``p_value`` / ``q_value`` of their co-selection
        against chance (:func:`modelmine.diagnostics.itemset_significance`) and the
        ``auroc`` of the combination's score on all the cells.
    base_models : dict
        Cluster -> :class:`~modelmine.BaseModels` of that cluster against the rest.
    settings : dict
    spec : RunSpec or None
        The settings of the panels' base models.
    """

    panels: dict[str, list[str]]
    table: pd.DataFrame
    base_models: dict[str, Any]
    settings: dict[str, Any] = field(default_factory=dict)
    combinations: pd.DataFrame = field(default_factory=pd.DataFrame)
    spec: Any = None

    def __repr__(self) -> str:
        # a summary, not the tables and every cluster's base models
        sizes = {len(genes) for genes in self.panels.values()}
        size = ", ".join(str(n) for n in sorted(sizes))
        return (f"MarkerPanels(n_clusters={len(self.panels)}, genes_per_panel={size}, "
                f"selector={self.settings.get('selector')!r}, "
                f"n_bootstraps={self.settings.get('n_bootstraps')}, "
                f"n_combinations={len(self.combinations)})")

    def to_frame(self, cluster: str | None = None) -> pd.DataFrame:
        """The table (the tidy marker vocabulary of :func:`modelmine.diagnostics.marker_table`:
        ``class``, ``feature``, ``frequency``, ... ), or one cluster's rows."""
        return self.table if cluster is None else self.table[self.table["class"] == cluster]

    def to_df(self, group: str | None = None) -> pd.DataFrame:
        """Deprecated: :meth:`to_frame`."""
        renamed_accessor("MarkerPanels", "to_df()", "to_frame()")
        return self.to_frame(group)

    def write_report(self, path: Any, adata: Any) -> Any:
        """Write the HTML report of the panels (:func:`modelmine.report.write_marker_report`)
        for the cells ``adata`` they were computed on; returns its path."""
        from ..report import write_marker_report

        return write_marker_report(path, self, adata)


def panel_memory(n_groups: int, n_bootstraps: int, n_genes: int, n_cells: int,
                 cap: int | None, fraction: float) -> int:
    """Bytes :func:`marker_panels` holds at its peak, estimated before the first fit: the
    K x b per-cluster models (a bool, an int32 rank and a float32 score per gene, twice
    for the stacking copies) and the b resamples' row indices."""
    drawn = n_cells if cap is None else min(n_cells, n_groups * cap)
    return int(2 * n_groups * n_bootstraps * 9 * n_genes
               + 4 * n_bootstraps * max(1, round(fraction * drawn)))



def _obs_column(obs: pd.DataFrame, given: Any, param: str, examples: str, each: str) -> Any:
    """The column of ``adata.obs`` that ``given`` names (``obs:COL`` or ``COL``), refused
    by ``param`` when it is not there or leaves a cell without ``each`` (a cluster, a
    group)."""
    from ..datasets._biodata import split_obs_target

    column = split_obs_target(given) if isinstance(given, str) else given
    if column not in obs.columns:
        raise param_error(param, _FUNC, f"a column of adata.obs ({examples}"
                          f"{', '.join(map(str, list(obs.columns)[:8]))})", given)
    if obs[column].isna().any():
        raise param_error(param, _FUNC, f"a column with {each} for every cell",
                          f"{column!r} with {int(obs[column].isna().sum())} cell(s) without "
                          "one", show=False)
    return column

@door("marker_panels", stage="models", preset=PRESETS["marker-panels"],
      # every cluster's panel is a class against the rest (classes, per class already);
      # no sample weights or covariates in an atlas's panels
      without=("outcome", "per_class", "weighted_resampling", "covariates"))
def marker_panels(
    adata: Any,
    groupby: str,
    *,
    layer: str | None = None,
    use_raw: bool = False,
    direction: str = "up",
    reference: str | None = None,
    combination_size: int = 3,
    combination_support: float = 0.3,
    groups: str | None = None,
    n_genes: int = 100,
    key_added: str = "modelmine_markers",
    n_jobs: int | None = None,
    progress: bool | None = None,
    panel_size: Any = UNSET,
    max_cells_per_group: Any = UNSET,
    spec: Any,
) -> MarkerPanels:
    """Stable marker panels for every cluster, written into the AnnData (issue 29).

    The settings of the base models are the ``marker-panels`` preset (``wilcoxon``, b = 50
    subsamples of 80 % of each cluster's cells, at most 500 of a cluster, m = 10 genes per
    panel), or those given (keywords, or ``spec=``).

    Parameters
    ----------
    adata : anndata.AnnData
        Cells x genes; ``adata.X`` or ``adata.layers[layer]``, dense or sparse (kept
        sparse).
    groupby : str
        The cluster column of ``adata.obs`` (``"leiden"``; ``"obs:leiden"`` too).
    **settings
    layer : str, optional
    use_raw : bool, default=False
        Read ``adata.raw`` (its matrix and genes), as scanpy's ``use_raw=True``: scanpy's
        files keep the log-normalised values there when ``.X`` is scaled
        (``pbmc68k_reduced``).
    direction : {"up", "down", "both"}, default="up"
        The markers sought: higher in the cluster than elsewhere (``"up"``, scanpy's order
        and what a FACS or qPCR panel mostly needs), lower, or either. The signed
        selectors ("wilcoxon", "t-test", "logreg") score by it; for any selector, a gene
        whose Wilcoxon z on all the cells points the other way is left out of the panel
        and listed after the others.
    reference : {"each", "rest"}, optional
        Compare the cluster with each other cluster and keep its weakest comparison
        (``"each"``, scran's ``findMarkers(pval.type="all")``: a gene shared with a
        sibling cluster is then no marker), or with the rest of the cells (``"rest"``,
        scanpy's ``rank_genes_groups``). Default: "each" for the selectors that take it
        ("wilcoxon", by the pair's AUROC,
        :func:`~modelmine.selectors.wilcoxon_auroc_pairwise`; "t-test",
        :func:`~modelmine.selectors.welch_t_pairwise`), "rest" for the others; on two
        synthetic atlases, "each" found the planted markers best (``docs/singlecell.md``).
        A ``direction`` or ``reference`` in ``selector_params`` must agree with these
        arguments (which are recorded and order the panels), else it is refused.
    combination_size : int, default=3
        The largest combination of genes reported per cluster (2 or more; NS-Forest's
        question: which genes mark the cluster together).
    combination_support : float, default=0.3
        The minimum support of the combinations' closed itemsets.
    groups : str, optional
        A column of ``adata.obs`` (donor, sample; ``"obs:donor"`` too): whole groups are
        drawn (``sample_fraction`` of them, not stratified by cluster, since a donor holds
        cells of several clusters), then each cluster's cells in them are capped at
        ``max_per_class``.
    n_genes : int, default=100
        Genes per cluster in ``adata.uns[key_added]`` (the panel first, then by
        frequency and mean rank).
    key_added : str, default="modelmine_markers"
    n_jobs : int, optional
    progress : bool, optional
    panel_size, max_cells_per_group
        The old names of ``n_features`` and ``max_per_class``, deprecated (a
        FutureWarning; they go in the next release). The stored settings
        (``adata.uns[key_added]["settings"]``) keep the keys ``panel_size`` and
        ``max_cells_per_group``, so that files stay as they were.

    Returns
    -------
    MarkerPanels
    """
    from ..base_models import check_run_data, fit_class_models
    from ..base_models._checks import available_memory
    from ..datasets._biodata import from_anndata
    from ..evaluation._adjustment import refuse_covariates

    refuse_covariates(spec, _FUNC)  # an atlas's panels are not adjusted
    m = renamed_keyword(_FUNC, "panel_size", "n_features", panel_size, spec.n_features,
                        _PRESET.default("n_features"))
    cap = renamed_keyword(_FUNC, "max_cells_per_group", "max_per_class", max_cells_per_group,
                          spec.max_per_class, _PRESET.default("max_per_class"))
    if (m, cap) != (spec.n_features, spec.max_per_class):  # given by their old names
        spec = spec.replace(_FUNC, n_features=m, max_per_class=cap)
    selector, selector_params = spec.selector, dict(spec.selector_params) or None
    obs = adata.obs
    column = _obs_column(obs, groupby, "groupby", "", "a cluster")
    counts = obs[column].value_counts()
    # empty categories (left by subsetting a categorical column) are no clusters: dropped,
    # as modelmine.run drops them, and named in a note
    empty = [str(c) for c in counts.index[counts.to_numpy() == 0]]
    counts = counts[counts > 0]
    if empty:
        warnings.warn(f"groupby column {column!r}: empty categor{'y' if len(empty) == 1 else 'ies'}"
                      f" {', '.join(empty[:8])} (no cells) dropped.", UserWarning, stacklevel=2)
    small = counts[counts < MIN_CELLS_PER_GROUP]
    if len(small):
        raise param_error("groupby", _FUNC, f"clusters of at least {MIN_CELLS_PER_GROUP} "
                          "cells", f"cluster(s) {', '.join(map(_label, small.index[:5]))} with "
                          f"{', '.join(map(str, small.to_numpy()[:5]))} cell(s)", show=False)
    group_col = (None if groups is None else
                 _obs_column(obs, groups, "groups", "donor, sample: ", "a group"))
    if not isinstance(use_raw, bool | np.bool_):
        raise param_error("use_raw", _FUNC, "True or False", use_raw)
    if use_raw and getattr(adata, "raw", None) is None:
        raise param_error("use_raw", _FUNC, "False for an AnnData without .raw", use_raw)
    if use_raw and layer is not None:
        raise param_error("layer", _FUNC, "None with use_raw=True (.raw holds one matrix)",
                          layer)
    if layer is not None and layer not in adata.layers:
        raise param_error("layer", _FUNC, f"a layer of the AnnData ({', '.join(adata.layers)})",
                          layer)
    direction = check_choice(direction, "direction", _FUNC, ["up", "down", "both"])
    if reference is not None:
        reference = check_choice(reference, "reference", _FUNC, ["each", "rest"])
    for name, value in (("direction", direction), ("reference", reference)):
        given = (selector_params or {}).get(name)
        if given is not None and given != value and (name == "direction" or value is not None):
            raise param_error("selector_params", _FUNC, f"without {name!r}, or with the "
                              f"{name} given to marker_panels ({name}={value!r}); pass "
                              f"{name}= to marker_panels, which records it and orders the "
                              "panels by it", f"{{{name!r}: {given!r}}}", show=False)
    if reference is None and (selector_params or {}).get("reference") is not None:
        reference = check_choice(selector_params["reference"],  # type: ignore[index]
                                 "reference", _FUNC, ["each", "rest"])
    selector, params, reference = _directed_selector(selector, direction, reference,
                                                     selector_params)
    b, sample_fraction = spec.n_bootstraps, spec.sample_fraction
    if m is None:
        raise param_error("n_features", _FUNC, "an integer >= 1 (genes per panel)", None)
    top = check_int(n_genes, "n_genes", _FUNC, min_value=1)
    size = check_int(combination_size, "combination_size", _FUNC, min_value=2)
    # a float32 atlas stays float32 (half the memory; every statistic is computed in
    # float64 on the resample or on a block of columns)
    where = ("adata.raw.X" if use_raw else "adata.X" if layer is None
             else f"adata.layers[{layer!r}]")
    matrix_of = adata
    if use_raw:  # .raw's matrix and genes, with the cells' obs (no copy)
        raw = adata.raw
        matrix_of = SimpleNamespace(X=raw.X, obs=obs, var_names=raw.var_names,
                                    obs_names=adata.obs_names, layers={})
    source = matrix_of.X if layer is None else adata.layers[layer]
    dtype = np.float32 if getattr(source, "dtype", None) == np.float32 else np.float64
    loaded = from_anndata(matrix_of, f"obs:{column}", layer=layer, sparse_dtype=dtype,
                          groups=None if group_col is None else f"obs:{group_col}",
                          warn_scaled=False)  # refused below (_negative_values)
    X = loaded.X
    values = X.data if sp.issparse(X) else np.asarray(X)
    clipped = 0
    if values.size and float(values.min()) < 0:
        X, values, clipped = _negative_values(X, values, adata, use_raw, layer, where)
    kind = value_kind(values)
    _check_values(kind, values, selector, params, where)
    if not sp.issparse(X) and X.size and np.count_nonzero(X) < 0.5 * X.size:
        X = sp.csr_matrix(X)  # counts that arrive dense take the sparse paths, once
    n_groups = int(counts.size)
    need = panel_memory(n_groups, b, X.shape[1], X.shape[0], cap, sample_fraction)
    free = available_memory()
    if free is not None and need > free:
        raise param_error("n_bootstraps", _FUNC, f"fewer bootstraps, clusters or genes: "
                          f"{n_groups} clusters x {b} resamples x {X.shape[1]:,} genes "
                          f"need about {need / 2**30:.1f} GiB, and {free / 2**30:.1f} GiB "
                          "are available", b, show=False)
    spec = spec.replace(_FUNC, selector=selector, selector_params=params, operators=(),
                        # donors hold cells of several clusters: whole donors are drawn,
                        # not stratified by cluster, then each cluster capped
                        # (docs/singlecell.md)
                        stratify=spec.stratify and group_col is None)
    checked = check_run_data(X, loaded.y, spec, feature_names=loaded.feature_names,
                             n_jobs=n_jobs, func=_FUNC, groups=loaded.groups,
                             sparse_dtype=dtype, one_vs_rest=True)
    fitted = fit_class_models(checked, progress=progress)
    # clusters keyed by their text (as obs shows them), in the obs column's category order,
    # else in natural order (0, 1, 2, 10: not 0, 1, 10, 2)
    models = {str(label): base for label, base in fitted.items()}
    models = {c: models[c] for c in _cluster_order(obs[column], list(models))}
    names = np.asarray(loaded.feature_names)
    log_data = kind == "log-normalised"
    from scipy.stats import norm

    cluster_of = {str(c): i for i, c in enumerate(checked.data.classes)}
    labels = np.asarray([str(v) for v in checked.data.classes])[checked.data.y]
    # the z and AUROC of every gene on all the cells, by blocks of columns sliced from X
    phase("markers: the Wilcoxon test of every gene in each of the %d clusters", len(models))
    z_all, auc_all = wilcoxon_by_group(X, checked.data.y)
    ordered = {}
    needed = []
    for cluster, base in models.items():
        freq = base.subsets.mean(axis=0)
        mean_rank = base.tied_ranks().mean(axis=0, dtype=np.float64)
        z = z_all[cluster_of[cluster]]
        # genes pointing the other way (z on all the cells) go after the others
        wrong = (z <= 0) if direction == "up" else (z >= 0) if direction == "down" \
            else np.zeros(z.size, dtype=bool)
        order = np.lexsort((np.arange(freq.size), mean_rank, -freq, wrong))
        ordered[cluster] = (freq, mean_rank, wrong, order[:max(top, m)])
        needed.append(order[:max(top, m)])
        needed.append(np.flatnonzero(freq >= combination_support))  # combinations' genes
    # the columns the tables read, sliced once (no column-major copy of the atlas)
    needed_cols = np.unique(np.concatenate(needed))
    Xn = X[:, needed_cols]
    Xn = Xn.tocsc() if sp.issparse(Xn) else Xn
    panels: dict[str, list[str]] = {}
    rows = []
    for cluster, (freq, mean_rank, wrong, reported) in ordered.items():
        panel = [j for j in reported[:m] if not wrong[j]]
        panels[cluster] = [str(names[j]) for j in panel]
        z, auc = z_all[cluster_of[cluster]], auc_all[cluster_of[cluster]]
        in_group = labels == cluster
        p_all = 2 * norm.sf(np.abs(z))
        adj = bh_qvalues(p_all)
        lfc = fold_changes(expression_columns(
            Xn, np.searchsorted(needed_cols, reported), log_data), in_group)
        for r, j in enumerate(reported):
            rows.append({"class": cluster, "feature": str(names[j]),
                         "frequency": float(freq[j]),
                         "in_panel": r < m and not wrong[j],
                         "log2_fold_change": float(lfc[r]), "auroc": float(auc[j]),
                         "wilcoxon_z": float(z[j]),
                         "p_value": float(p_all[j]), "q_value": float(adj[j]),
                         "mean_rank": float(mean_rank[j])})
    table = pd.DataFrame(rows)
    phase("combinations: the genes each cluster's base models select together")
    combos = [_combinations(base, Xn, labels == cluster, names, size,
                            combination_support, cluster, spec.random_state,
                            columns=needed_cols)
              for cluster, base in models.items()]
    combinations = pd.concat([c for c in combos if not c.empty], ignore_index=True) \
        if any(not c.empty for c in combos) else pd.DataFrame(
            columns=["class", "features", "size", "support", "lift", "p_value", "q_value",
                     "auroc"])
    settings = {"groupby": column, "layer": layer, "use_raw": bool(use_raw),
                "selector": checked.selectors[0].name,
                "selector_params": checked.selectors[0].get_params(),
                "direction": direction, "reference": reference, "values": kind,
                "n_bootstraps": b, "panel_size": m, "max_cells_per_group": cap,
                "sample_fraction": float(sample_fraction), "groups": groups,
                "random_state": int(spec.random_state), "n_genes": max(top, m),
                "combination_size": size, "combination_support": float(combination_support),
                "empty_clusters_dropped": empty, "negative_values_clipped": clipped}
    _write_back(adata, table, panels, settings, key_added, names)
    adata.uns[key_added]["combinations"] = combinations.assign(
        features=combinations["features"].map(" + ".join))
    return MarkerPanels(panels=panels, table=table, base_models=dict(models),
                        settings=settings, combinations=combinations, spec=spec)


def _directed_selector(selector: Any, direction: str, reference: str | None,
                       selector_params: dict[str, Any] | None
                       ) -> tuple[Any, dict[str, Any], str]:
    """The selector, its parameters and the reference used: ``direction`` and
    ``reference`` go to the built-in selectors that take them (None: "each" where the
    selector takes it, else "rest"); a Selector object is used as it is."""
    from ..selectors import get_selector

    params = dict(selector_params or {})
    if isinstance(selector, str):
        names = inspect.signature(type(get_selector(selector, func=_FUNC))).parameters
        if "direction" in names:
            params.setdefault("direction", direction)
        if reference is None:
            reference = "each" if "reference" in names else "rest"
        if reference != "rest":
            if "reference" not in names:
                raise param_error("reference", _FUNC, '"rest" for selector '
                                  f'{selector!r} ("each" takes "wilcoxon" or "t-test")',
                                  reference)
            params.setdefault("reference", reference)
        return selector, params, str(params.get("reference", reference))
    own = getattr(selector, "reference", "rest")
    if reference is not None and reference != own:
        raise param_error("reference", _FUNC, f"{own!r}, the reference of the Selector "
                          "object given (set it on the selector itself)", reference)
    return selector, params, own


def _write_back(adata: Any, table: pd.DataFrame, panels: dict[str, list[str]],
                settings: dict[str, Any], key: str, names: np.ndarray) -> None:
    """``adata.uns[key]`` in ``sc.tl.rank_genes_groups``' layout, and the panels in var."""
    groups = list(panels)
    n = int(settings["n_genes"])

    def records(column: str, dtype: str) -> np.ndarray:
        arrays = [table[table["class"] == g][column].to_numpy()[:n].astype(dtype)
                  for g in groups]
        return np.rec.fromarrays(arrays, dtype=[(g, dtype) for g in groups])

    adata.uns[key] = {
        "params": {"groupby": settings["groupby"], "reference": "rest",
                   "method": f"modelmine {settings['selector']}",
                   "use_raw": bool(settings.get("use_raw", False)),
                   "layer": settings["layer"],
                   "corr_method": "benjamini-hochberg",
                   "n_bootstraps": settings["n_bootstraps"],
                   "panel_size": settings["panel_size"],
                   "max_cells_per_group": (-1 if settings["max_cells_per_group"] is None
                                           else settings["max_cells_per_group"]),
                   "direction": settings["direction"],
                   "compared_with": settings["reference"]},
        # scanpy's names for the tidy table's columns; its "scores" is the frequency
        # scanpy's dtypes for its fields (scores and fold changes float32, p-values
        # float64: a float32 p-value underflows to 0 below 1e-45); ours float64, as in
        # the table
        "names": records("feature", "O"),
        "scores": records("frequency", "float32"),
        "logfoldchanges": records("log2_fold_change", "float32"),
        "pvals": records("p_value", "float64"),
        "pvals_adj": records("q_value", "float64"),
        "auroc": records("auroc", "float64"),
        "frequency": records("frequency", "float64"),
    }
    index = pd.Index([str(v) for v in adata.var_names])
    for g, genes in panels.items():  # "CD4+/CD8+" as "CD4+∕CD8+": h5ad keys refuse "/"
        adata.var[f"{key}_{h5_key(g)}"] = index.isin(genes)


def _combinations(base: Any, X: Any, in_group: np.ndarray, names: np.ndarray, size: int,
                  min_support: float, group: str, seed: int, top: int = 5,
                  columns: np.ndarray | None = None) -> pd.DataFrame:
    """The cluster's genes selected together: the frequent itemsets of 2..size genes of its
    base models (KDD 2012, section 2.1), most supported first and, among equally supported
    ones, the most discriminating (the AUROC of the combination's score, the sum of its
    genes' z-scores each signed by the gene's direction in the cluster); the ``top`` of
    them tested against chance (:func:`modelmine.diagnostics.itemset_significance`).

    Frequent rather than closed itemsets: a panel selected whole in most models is one
    closed itemset of all its genes, and the small combinations inside it are what a FACS
    or qPCR panel needs."""
    from ..diagnostics import itemset_significance
    from ..patterns import mine_itemsets

    mined = mine_itemsets(base, "frequent", min_support=min_support, max_len=size)
    lengths = np.asarray(mined.lengths)
    # the support of a frequent itemset is the fraction of the models holding all its genes
    multi = np.flatnonzero(lengths >= 2)
    if not multi.size:
        return pd.DataFrame()
    support = base.subsets.mean(axis=0)
    together_all = np.asarray(mined.support)[multi]
    indptr, indices = mined.indptr, mined.indices
    # the cost bound: only the combinations that can be reported (support at least the
    # top-th highest) are scored, and at most MAX_SCORED_COMBINATIONS of them, the most
    # supported first, ties by their genes' mean single-gene AUROC distance from 0.5
    # (each gene ranked once); below the bound the result is the exhaustive one
    threshold = np.sort(together_all)[::-1][min(top, multi.size) - 1]
    candidates = np.flatnonzero(together_all >= threshold)
    found = {int(i): sorted(int(j) for j in indices[indptr[multi[i]]:indptr[multi[i] + 1]])
             for i in candidates}
    genes = sorted({j for i in candidates for j in found[int(i)]})
    where = {j: i for i, j in enumerate(genes)}
    # the candidates' genes, sliced once (``columns``: the genes X holds, sorted)
    block = X[:, genes if columns is None else np.searchsorted(columns, genes)]
    block = np.asarray(block.toarray() if sp.issparse(block) else block, np.float64)
    if candidates.size > MAX_SCORED_COMBINATIONS:
        single = np.abs(wilcoxon_by_group(block, in_group.astype(np.intp))[1][1] - 0.5)
        strength = np.array([single[[where[j] for j in found[int(i)]]].mean()
                             for i in candidates])
        keep = np.lexsort((np.arange(candidates.size), -strength,
                           -together_all[candidates]))[:MAX_SCORED_COMBINATIONS]
        candidates = np.sort(candidates[keep])
    sd = block.std(axis=0)
    z_all = np.where(sd > 0, (block - block.mean(axis=0)) / np.where(sd > 0, sd, 1), 0.0)
    sign_all = np.sign(z_all[in_group].mean(axis=0) - z_all[~in_group].mean(axis=0))
    sign_all = np.where(sign_all == 0, 1.0, sign_all)
    rows = []
    # the scores sorted by chunks of combinations (one vectorised sort each, not one per
    # combination); the rank sums are exact, so each AUROC is wilcoxon_by_group's
    for start in range(0, candidates.size, _SCORE_CHUNK):
        chunk = candidates[start:start + _SCORE_CHUNK]
        scores = np.empty((chunk.size, block.shape[0]))
        for c, i in enumerate(chunk):
            cols = [where[j] for j in found[int(i)]]
            scores[c] = z_all[:, cols] @ sign_all[cols]
        aurocs = _score_aurocs(scores, in_group)
        for c, i in enumerate(chunk):
            rows.append((float(together_all[i]), float(aurocs[c]), found[int(i)]))
    rows.sort(key=lambda r: (-r[0], -r[1], r[2]))
    chosen = rows[:top]
    tested = itemset_significance(base, [r[2] for r in chosen], n_randomizations=200,
                                  random_state=seed)
    by_items = {tuple(sorted(int(j) for j in row["items"])): row
                for _, row in tested.iterrows()}
    out = []
    for together, auroc, items in chosen:
        row = by_items[tuple(items)]
        out.append({"class": group, "features": [str(names[i]) for i in items],
                    "size": len(items), "support": together,
                    "lift": float(together / np.prod(support[items])),
                    "p_value": float(row["p_value"]), "q_value": float(row["q_value"]),
                    "auroc": auroc})
    return pd.DataFrame(out)


#: Combination scores sorted at once by :func:`_combinations` (rows of n_cells floats).
_SCORE_CHUNK = 64


def _score_aurocs(scores: np.ndarray, in_group: np.ndarray) -> np.ndarray:
    """The AUROC of each row of ``scores`` (dense, C x n_cells) for the cells of
    ``in_group`` against the others, by the rank-sum formula of
    :func:`~modelmine.selectors._singlecell.rank_sum_auroc`: the group's rank sum is
    ``U + n1 (n1 + 1) / 2``, with ``U`` the group's values counted against the sorted
    values of the other cells (``searchsorted`` left and right: the smaller, plus half
    the tied). The counts are whole numbers and the sums exact in float64, so the result
    is, bit for bit, that of the mid-ranks summed over the group, and of
    :func:`wilcoxon_by_group` on each row (whose zeros share one mid-rank too)."""
    from ..selectors._singlecell import rank_sum_auroc

    n1 = int(np.count_nonzero(in_group))
    rest = np.sort(scores[:, ~in_group], axis=1)
    group = np.sort(scores[:, in_group], axis=1)  # sorted queries search faster
    twice_u = np.array([np.searchsorted(r, g, "left").sum(dtype=np.int64)
                        + np.searchsorted(r, g, "right").sum(dtype=np.int64)
                        for r, g in zip(rest, group)], dtype=np.float64)
    rank_sum = (twice_u / 2.0 + n1 * (n1 + 1) / 2.0)[None, :]
    return rank_sum_auroc(rank_sum, np.array([[float(n1)]]), float(scores.shape[1]))[0]


def value_kind(values: np.ndarray) -> str:
    """What the values of a matrix look like: ``"counts"`` (whole numbers),
    ``"log-normalised"`` (fractions below 30: log1p of normalised counts) or
    ``"normalised"`` (fractions, some of 30 or more: scaled to a library size, not
    logged)."""
    # by chunks of a million values: no rounded copy of an atlas's entries
    flat, step = np.ravel(values), 1 << 20
    if all(np.array_equal(part, np.round(part))
           for part in (flat[i:i + step] for i in range(0, flat.size, step))):
        return "counts"
    return "log-normalised" if float(values.max()) < 30 else "normalised"


def _check_values(kind: str, values: np.ndarray, selector: Any, params: dict[str, Any],
                  where: str) -> None:
    """Refuse values a selector was not made for: t-test and logreg compare means (as
    scanpy's ``rank_genes_groups``, which expects logarithmised data), so raw counts or
    unlogged normalised values would rank the genes by their expression level."""
    from ..selectors import get_selector

    sel = get_selector(selector, params or None, func=_FUNC) if isinstance(selector, str) \
        else selector
    expects = getattr(sel, "expects", None)
    if expects is None or not values.size or kind == expects:
        return
    top = float(values.max())
    raise param_error("layer", _FUNC, f"{expects} values for selector {sel.name!r} (scanpy's "
                      "sc.pp.normalize_total then sc.pp.log1p; selector='wilcoxon' takes "
                      "counts as well)", f"{where} holding {kind} values (up to {top:,.6g})",
                      show=False)


def _label(value: Any) -> str:
    """A cluster's name in a one-line message: as it is, or quoted (``'d\\ne'``, ``''``)
    when it holds a line break or another control character, or is empty."""
    text = str(value)
    return text if text and text.isprintable() else repr(text)


def _natural_key(text: str) -> tuple[Any, ...]:
    """Sort key of a cluster name: numbers by value (0, 1, 2, 10), other text by its
    digit runs as numbers ("c2" before "c10")."""
    try:
        return (0, float(text), text)
    except ValueError:
        parts = re.split(r"(\d+)", text)
        return (1, tuple((0, int(t), "") if t.isdigit() else (1, 0, t) for t in parts), text)


def _cluster_order(column: pd.Series, clusters: list[str]) -> list[str]:
    """The clusters in the order of a categorical column's categories (scanpy's order),
    else in natural order."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        order = [str(c) for c in column.cat.categories if str(c) in clusters]
        if len(order) == len(clusters):
            return order
    return sorted(clusters, key=_natural_key)


def _negative_values(X: Any, values: np.ndarray, adata: Any, use_raw: bool,
                     layer: str | None, where: str) -> tuple[Any, np.ndarray, int]:
    """Negative values: noise around zero (at most :data:`NEGATIVE_MASS_TOLERANCE` of the
    absolute mass) is set to 0 with a warning; scaled, centred values are refused with
    what to pass instead (``use_raw=True`` when ``.raw`` holds usable values, a layer)."""
    negative = values < 0
    share, low = negative_mass(values)
    if share <= NEGATIVE_MASS_TOLERANCE:
        n = int(negative.sum())
        warnings.warn(f"{where}: {n:,} negative value(s), down to {low:.3g}, carry "
                      f"{share:.2%} of the values' absolute mass: taken as noise around "
                      "zero and set to 0 (more than "
                      f"{NEGATIVE_MASS_TOLERANCE:.0%} is refused as scaled data).",
                      UserWarning, stacklevel=3)
        X = X.copy()
        if sp.issparse(X):
            X.data[X.data < 0] = 0
            X.eliminate_zeros()
            return X, X.data, n
        X[X < 0] = 0
        return X, X, n
    options = []
    raw = getattr(adata, "raw", None)
    if not use_raw and raw is not None:
        rv = raw.X.data if sp.issparse(raw.X) else np.asarray(raw.X)
        if not rv.size or float(rv.min()) >= 0:
            options.append(f"use_raw=True (--use-raw): adata.raw holds {value_kind(rv)} "
                           "values")
    others = [k for k in adata.layers if k != layer]
    if others:
        options.append(f"layer=NAME (--layer) for counts or log-normalised values among "
                       f"the layers ({', '.join(map(str, others[:8]))})")
    if not options:
        options.append("the counts or log1p-normalised values (the matrix before "
                       "sc.pp.scale, in a layer or in .raw)")
    param = "use_raw" if options[0].startswith("use_raw") else "layer"
    raise param_error(param, _FUNC, "set so that the values read are non-negative: counts "
                      "or log1p-normalised counts, which the ranks, fold changes and "
                      f"fractions expressing need; pass {' or '.join(options)}",
                      f"{where} holding scaled (centred) values: {share:.0%} of their mass "
                      f"is negative, down to {low:.3g}", show=False)
