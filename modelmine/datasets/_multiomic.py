"""Several omics of the same samples as one dataset: a MuData, or tables joined by sample ID.

A multi-omic study measures the same samples several ways (transcriptomics, proteomics,
metabolomics, a clinical block). scverse keeps them in one ``MuData`` (``.h5mu``), one
``AnnData`` per modality; a lab often has one table per assay, rows = sample IDs. modelmine
joins them into one matrix, the blocks side by side in the order given, with

- **feature names carrying their modality**: ``"MODALITY:FEATURE"`` (``"rna:TP53"``,
  ``"prot:CD4"``), MuData's own ``mod:name`` convention, so that a gene measured twice
  (its transcript and its protein) stays two features and every table of the run says
  which block a feature came from (:data:`MODALITY_SEPARATOR`);
- **the samples matched by ID** (``obs_names``, a table's index): every modality must
  hold the same samples (in any order); when they do not, the error names how many each
  holds and how many they share, and ``intersect=True`` keeps the samples common to all
  (with a note naming what was left out);
- **nothing densified**: a sparse block stays sparse (the joined matrix is then CSR, the
  dense blocks stored as CSR too); the join is one copy, made once for the run, never per
  resample;
- **the blocks recorded** (:attr:`LoadedData.modalities`: each modality's name and number
  of features, in column order), so that a run can give the ``modality`` of every feature
  in its markers and effects, and the ``stabl`` operator a threshold per modality (Hedou et
  al., Nature Biotechnology 2024, Methods: Stabl is fitted on each omic with its own
  reliability threshold; ``docs/biology.md``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp

from ..exceptions import DataError
from ..outcomes import DEFAULT_OUTCOME, outcome_kind
from ._record import LoadedData

__all__ = [
    "MODALITY_SEPARATOR",
    "MUDATA_EXTRA",
    "from_modalities",
    "from_mudata",
    "is_mudata",
    "modality_of",
    "read_h5mu",
]

#: What separates a modality from a feature's own name (``rna:TP53``), as MuData's
#: ``mod:name``. A modality's name may not contain it.
MODALITY_SEPARATOR = ":"

#: The optional extra that installs mudata (``pip install "modelmine[mudata]"``).
MUDATA_EXTRA = "mudata"


def is_mudata(obj: Any) -> bool:
    """Whether ``obj`` is a ``mudata.MuData`` (checked without importing mudata)."""
    return any(c.__name__ == "MuData" and c.__module__.split(".")[0] == "mudata"
               for c in type(obj).__mro__)


def is_modality_mapping(obj: Any) -> bool:
    """Whether ``obj`` is a mapping of modality names to tables (DataFrames, AnnData or
    LoadedData): the door of several tables joined by sample ID."""
    return isinstance(obj, Mapping) and not isinstance(obj, pd.DataFrame | pd.Series)


def modality_of(names: Any, modalities: Any) -> np.ndarray:
    """The modality of each feature name (``"rna:TP53"`` -> ``"rna"``): the text before
    the first :data:`MODALITY_SEPARATOR` when it is one of ``modalities``, else ``""``."""
    known = {str(m) for m in modalities}
    out = []
    for name in names:
        head, sep, _ = str(name).partition(MODALITY_SEPARATOR)
        out.append(head if sep and head in known else "")
    return np.asarray(out, dtype=object)


def check_modalities(modalities: Any, n_features: int, *, where: str = "the data"
                     ) -> tuple[tuple[str, int], ...]:
    """The modality blocks ``((name, n_features), ...)``, checked: distinct names without
    the separator, positive sizes adding up to the columns."""
    pairs = tuple((str(k), int(v)) for k, v in (
        modalities.items() if isinstance(modalities, Mapping) else modalities))
    names = [k for k, _ in pairs]
    if len(pairs) < 1 or len(set(names)) != len(names) or any(
            not k or MODALITY_SEPARATOR in k for k in names):
        raise DataError(f"The modalities of {where} must have distinct, non-empty names "
                        f"without {MODALITY_SEPARATOR!r}; got {names!r}.")
    if any(v < 1 for _, v in pairs) or sum(v for _, v in pairs) != n_features:
        raise DataError(f"The modalities of {where} cover {sum(v for _, v in pairs)} "
                        f"features; the data have {n_features}.")
    return pairs


def _modality_name(name: Any) -> str:
    text = str(name)
    if not isinstance(name, str) or not text or MODALITY_SEPARATOR in text:
        raise DataError(f"A modality's name must be non-empty text without "
                        f"{MODALITY_SEPARATOR!r} (it prefixes the feature names, "
                        f"'rna{MODALITY_SEPARATOR}TP53'); got {name!r}.")
    return text


def _block(name: str, value: Any, layer: str | None, sparse_dtype: Any) -> tuple[
        Any, np.ndarray, np.ndarray, Any]:
    """One modality: its matrix (float64 ndarray or CSR), feature names, sample IDs and
    obs table (None for a DataFrame)."""
    from ._biodata import from_anndata, is_anndata

    if is_anndata(value):
        loaded = from_anndata(value, layer=layer, unlabelled=True, source=f"modality {name!r}",
                              sparse_dtype=sparse_dtype)
        return loaded.X, loaded.feature_names, loaded.sample_names, value.obs
    if isinstance(value, LoadedData):
        if value.sample_names is None:
            raise DataError(f"Modality {name!r} ({value.source!r}) has no sample IDs to join "
                            "the other modalities by; give the table an ID column.")
        return value.X, np.asarray(value.feature_names), np.asarray(value.sample_names), None
    if isinstance(value, pd.DataFrame):
        bad = [str(c) for c in value.columns if not pd.api.types.is_numeric_dtype(value[c])]
        if bad:
            raise DataError(f"Modality {name!r} has non-numeric column(s) "
                            f"{', '.join(map(repr, bad[:5]))}: a modality's table holds "
                            "features only, rows = samples (index = sample IDs).")
        if isinstance(value.index, pd.RangeIndex):
            raise DataError(f"Modality {name!r} has no sample IDs (a default 0..n-1 index): "
                            "set its index to the sample IDs (df.set_index('sample')).")
        return (value.to_numpy(dtype=np.float64), np.asarray([str(c) for c in value.columns]),
                np.asarray([str(i) for i in value.index]), None)
    raise DataError(f"Modality {name!r} is a {type(value).__name__}; expected a pandas "
                    "DataFrame (rows = samples, index = sample IDs), an AnnData or a "
                    "LoadedData.")


def _common_samples(ids: dict[str, np.ndarray], intersect: bool, where: str
                    ) -> tuple[np.ndarray, list[str]]:
    """The sample IDs of the joined data, in the first modality's order, and the notes."""
    for name, samples in ids.items():
        if len(set(samples.tolist())) != samples.size:
            raise DataError(f"The sample IDs of modality {name!r} of {where} are not unique; "
                            "every sample must appear once per modality.")
    first = next(iter(ids.values()))
    shared = set(first.tolist())
    for samples in ids.values():
        shared &= set(samples.tolist())
    common = np.asarray([s for s in first if s in shared], dtype=str)
    counts = ", ".join(f"{name} {samples.size}" for name, samples in ids.items())
    if common.size < 2:
        raise DataError(f"The modalities of {where} share {common.size} sample ID(s) "
                        f"({counts}): the samples are matched by ID (obs_names, a table's "
                        "index); check that they name the same samples the same way.")
    notes = []
    if any(samples.size != common.size for samples in ids.values()):
        if not intersect:
            from ._biodata import option_text

            option = option_text("intersect")
            option = option if option.startswith("--") else "intersect=True"
            raise DataError(f"The modalities of {where} hold different samples ({counts}; "
                            f"{common.size} in all of them): give {option} to keep the "
                            f"{common.size} common to every modality, or subset them first "
                            "(mudata's mu.pp.intersect_obs).")
        left = ", ".join(f"{samples.size - common.size} of {name}"
                         for name, samples in ids.items() if samples.size > common.size)
        notes.append(f"kept the {common.size} samples common to every modality ({counts}); "
                     f"left out {left}")
    return common, notes


def _obs_values(column: str, common: np.ndarray, obs: list[tuple[str, Any]], where: str,
                option: str) -> pd.Series:
    """The values of ``obs:COLUMN`` for the common samples, from the MuData's own obs
    (owner ``""``) or a modality's (``MODALITY:COLUMN``, or a column only it has)."""
    found = None
    for owner, table in obs:
        if table is None:
            continue
        if column in table.columns:
            found = table[column]
            break
        head, sep, rest = column.partition(MODALITY_SEPARATOR)
        if sep and owner == head and rest in table.columns:
            found = table[rest]
            break
    if found is None:
        listed = [c for owner, t in obs if t is not None for c in (
            [str(c) for c in t.columns] if owner == "" else
            [f"{owner}{MODALITY_SEPARATOR}{c}" for c in t.columns])]
        raise DataError(f"{option} obs:{column} is not a column of the obs of {where} "
                        f"(obs columns: {', '.join(map(repr, listed[:8])) or 'none'}"
                        f"{' ...' if len(listed) > 8 else ''}).")
    series = pd.Series(found)
    series.index = [str(i) for i in series.index]
    missing = [s for s in common if s not in series.index]
    if missing:
        raise DataError(f"{option} obs:{column} of {where} has no value for "
                        f"{len(missing)} sample(s), {missing[0]!r} the first.")
    return series.loc[list(common)]


def _labels(target: Any, common: np.ndarray, first_ids: np.ndarray, obs: list[tuple[str, Any]],
            where: str) -> tuple[np.ndarray, str]:
    """The labels of the common samples: ``"obs:COLUMN"`` of an obs table (the MuData's
    own, or ``obs:MODALITY:COLUMN`` of one modality), a Series indexed by sample ID, or
    one label per sample of the first modality, in its order."""
    from ._biodata import split_obs_target

    if target is None:
        listed = [str(c) for owner, t in obs if owner == "" and t is not None
                  for c in t.columns]
        raise DataError(f"Name the labels of {where}: --target obs:COLUMN (obs columns: "
                        f"{', '.join(map(repr, listed[:8])) or 'none'}), a Series by sample "
                        "ID, or one label per sample.")
    if isinstance(target, str):
        column = split_obs_target(target) or target
        values: Any = _obs_values(column, common, obs, where, "--target")
        if values.isna().any():
            raise DataError(f"--target obs:{column} of {where} has "
                            f"{int(values.isna().sum())} missing label(s); drop those "
                            "samples or fill them.")
        if isinstance(values.dtype, pd.CategoricalDtype) and not pd.api.types.is_numeric_dtype(
                values.cat.categories):
            values = values.astype(str)
        return np.asarray(values.to_numpy()), f"obs:{column}"
    if isinstance(target, pd.Series) and not isinstance(target.index, pd.RangeIndex):
        series = target.copy()
        series.index = [str(i) for i in series.index]
        missing = [s for s in common if s not in series.index]
        if missing:
            raise DataError(f"The labels (a Series by sample ID) have no value for "
                            f"{len(missing)} sample(s) of {where}, {missing[0]!r} the first.")
        return np.asarray(series.loc[list(common)].to_numpy()), str(target.name or "labels")
    values = np.asarray(target)
    if values.ndim != 1 or values.shape[0] != first_ids.size:
        raise DataError(f"The labels given for {where} have shape {values.shape}; expected "
                        f"({first_ids.size},), one per sample of the first modality in its "
                        "order (or a pandas Series indexed by sample ID).")
    position = {s: i for i, s in enumerate(first_ids.tolist())}
    return values[[position[s] for s in common]], "labels"


def _join(blocks: dict[str, tuple[Any, np.ndarray, np.ndarray, Any]], target: Any, *,
          intersect: bool, where: str, source: str, fmt: str,
          global_obs: Any = None, unlabelled: bool = False, groups: str | None = None,
          sample_weight: str | None = None) -> LoadedData:
    ids = {name: b[2] for name, b in blocks.items()}
    common, notes = _common_samples(ids, intersect, where)
    first_ids = next(iter(ids.values()))
    matrices: list[Any] = []
    names: list[str] = []
    sizes: list[tuple[str, int]] = []
    for name, (X, feats, samples, _) in blocks.items():
        if len(set(feats.tolist())) != feats.size:
            raise DataError(f"The feature names of modality {name!r} of {where} are not "
                            "unique (var_names_make_unique() for an AnnData).")
        if samples.size != common.size or not np.array_equal(samples, common):
            position = pd.Index(samples).get_indexer(common)
            X = X[position]  # the one copy of this block (rows matched to the others)
        matrices.append(X)
        names.extend(f"{name}{MODALITY_SEPARATOR}{f}" for f in feats)
        sizes.append((name, int(feats.size)))
    if any(sp.issparse(M) for M in matrices):
        joined = sp.hstack([sp.csr_matrix(M) for M in matrices], format="csr")
    else:
        joined = np.hstack([np.asarray(M, dtype=np.float64) for M in matrices])
    obs = ([("", global_obs)] if global_obs is not None else []) + [
        (name, b[3]) for name, b in blocks.items()]
    if unlabelled:
        y, target_name = np.zeros(common.size), "labels"
    else:
        y, target_name = _labels(target, common, first_ids, obs, where)
    design: dict[str, Any] = {}
    for key, option, value in (("groups", "--groups", groups),
                               ("sample_weight", "--sample-weight", sample_weight)):
        if value is not None:
            from ._biodata import design_column, split_obs_target

            column = split_obs_target(value) or value
            design[key] = design_column(_obs_values(column, common, obs, where, option),
                                        f"{option} obs:{column}", where,
                                        numeric=key == "sample_weight")
    return LoadedData(X=joined, y=y, feature_names=np.asarray(names, dtype=str),
                      source=source, target=target_name, format=fmt, sample_names=common,
                      notes=tuple(notes), modalities=tuple(sizes), **design)


def from_mudata(mdata: Any, target: Any = None, *, modalities: Sequence[str] | None = None,
                layer: str | None = None, intersect: bool = False,
                sparse_dtype: Any = np.float64, source: str = "MuData",
                fmt: str = "mudata", unlabelled: bool = False, groups: str | None = None,
                sample_weight: str | None = None) -> LoadedData:
    """A ``MuData`` as one :class:`~modelmine.datasets.LoadedData`, its modalities side by side.

    Features are named ``"MODALITY:FEATURE"``; samples are matched by ``obs_names``.

    Parameters
    ----------
    mdata : mudata.MuData
        In memory or read in backed mode (``mudata.read_h5mu(path, backed=True)``): each
        modality's matrix is read once; a sparse one stays sparse.
    target : str or array-like
        ``"obs:COLUMN"`` for a column of ``mdata.obs``, ``"obs:MODALITY:COLUMN"`` for one
        of a modality's obs, a pandas Series indexed by sample ID, or one label per sample
        of the first modality, in its order.
    modalities : sequence of str, optional
        The modalities to use, in this order (default: all of ``mdata.mod``, in its order).
    layer : str, optional
        A layer every modality has, read instead of ``.X``.
    intersect : bool, default=False
        When the modalities hold different samples: keep those common to all (a note
        names what was left out) instead of an error naming the counts.
    sparse_dtype : numpy dtype, default=float64
    source, fmt : str
        Recorded as the LoadedData's ``source`` and ``format``.
    unlabelled : bool, default=False
        Read no target (the labels come from a separate file, joined by sample ID).
    groups, sample_weight : str, optional
        ``"obs:COLUMN"`` (``"obs:MODALITY:COLUMN"``): each sample's group (patient, donor)
        or weight (``LoadedData.groups``, ``LoadedData.sample_weight``).

    Returns
    -------
    LoadedData
        With ``modalities``: each modality's name and number of features, in column order.
    """
    where = repr(source)
    names = list(mdata.mod.keys()) if modalities is None else [str(m) for m in modalities]
    unknown = [m for m in names if m not in mdata.mod]
    if unknown or not names:
        raise DataError(f"--modality {unknown[0] if unknown else ''!r} is not a modality of "
                        f"{where} (modalities: {', '.join(map(repr, mdata.mod.keys()))}).")
    blocks = {_modality_name(m): _block(m, mdata.mod[m], layer, sparse_dtype) for m in names}
    return _join(blocks, target, intersect=intersect, where=where, source=source, fmt=fmt,
                 global_obs=mdata.obs,
                 unlabelled=unlabelled, groups=groups, sample_weight=sample_weight)


def from_modalities(tables: Mapping[str, Any], target: Any = None, *, layer: str | None = None,
                    intersect: bool = False, sparse_dtype: Any = np.float64,
                    source: str = "modalities", fmt: str = "modalities",
                    groups: str | None = None, sample_weight: str | None = None
                    ) -> LoadedData:
    """Several tables of the same samples as one LoadedData, joined by sample ID.

    Features are named ``"MODALITY:FEATURE"``, the blocks side by side in the mapping's
    order (:func:`from_mudata` for a MuData).

    Parameters
    ----------
    tables : mapping of str to DataFrame, AnnData or LoadedData
        Modality name -> its table: a DataFrame of samples x features whose index holds
        the sample IDs, an AnnData (``obs_names``), or what
        :func:`~modelmine.datasets.read_data` read (with sample IDs). The blocks keep the
        mapping's order.
    target : str or array-like
        ``"obs:COLUMN"`` of an AnnData's obs (``"obs:MODALITY:COLUMN"`` to name its
        modality), a pandas Series indexed by sample ID, or one label per sample of the
        first table, in its order.
    layer : str, optional
        For AnnData tables: a layer read instead of ``.X``.
    intersect : bool, default=False
        As in :func:`from_mudata`.
    sparse_dtype : numpy dtype, default=float64
    source, fmt : str
        Recorded as the LoadedData's ``source`` and ``format``.
    groups, sample_weight : str, optional
        ``"obs:COLUMN"`` of an AnnData table's obs, as in :func:`from_mudata`.

    Returns
    -------
    LoadedData
    """
    if not tables:
        raise DataError("No modality given: pass a mapping of modality names to tables.")
    where = "the modalities given" if source == "modalities" else repr(source)
    blocks = {_modality_name(m): _block(str(m), t, layer, sparse_dtype)
              for m, t in tables.items()}
    return _join(blocks, target, intersect=intersect, where=where, source=source, fmt=fmt,
                 groups=groups, sample_weight=sample_weight)


def import_mudata() -> Any:
    """Import mudata, or raise MissingExtraError naming the extra that installs it."""
    from ..exceptions import require_extra

    return require_extra("mudata", MUDATA_EXTRA, "Reading MuData (.h5mu)")


def read_h5mu(path: str | os.PathLike[str], target: Any, *, layer: str | None = None,
              backed: bool = False, intersect: bool = False,
              modalities: Sequence[str] | None = None, unlabelled: bool = False,
              groups: str | None = None, sample_weight: str | None = None) -> LoadedData:
    """Read an ``.h5mu`` file into a LoadedData (see :func:`from_mudata`)."""
    mudata = import_mudata()
    where = str(Path(path))
    try:
        # modelmine reads each modality's obs itself: no pulling of their columns into the
        # MuData's obs (mudata's future default, without its FutureWarning meanwhile)
        try:
            options: Any = mudata.set_options(pull_on_update=False)
        except (ValueError, TypeError, AttributeError):
            options = contextlib.nullcontext()
        with options:
            mdata = mudata.read_h5mu(path, backed=backed)
    except Exception as exc:  # h5py and mudata raise many types on a foreign file
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise DataError(f"Cannot read MuData file {where!r}: {first}") from None
    try:
        return from_mudata(mdata, target, modalities=modalities, layer=layer,
                           intersect=intersect, source=where, fmt="h5mu",
                           unlabelled=unlabelled, groups=groups, sample_weight=sample_weight)
    finally:
        for mod in getattr(mdata, "mod", {}).values():
            if backed and getattr(mod, "file", None) is not None:
                mod.file.close()


def as_loaded(X: Any, y: Any, groups: Any, sample_weight: Any) -> tuple[Any, Any, Any, Any]:
    """A door's multi-omic data (a MuData, or a mapping of modality names to tables) as
    one LoadedData holding its labels, groups and weights (``"obs:COLUMN"`` values read
    for the samples kept); anything else as given."""
    if not (is_mudata(X) or is_modality_mapping(X)):
        return X, y, groups, sample_weight
    names: dict[str, Any] = {k: v for k, v in (("groups", groups),
                                               ("sample_weight", sample_weight))
                             if isinstance(v, str)}
    loaded = (from_mudata(X, y, **names) if is_mudata(X) else
              from_modalities(X, y, **names))
    arrays = {k: v for k, v in (("groups", groups), ("sample_weight", sample_weight))
              if v is not None and not isinstance(v, str)}
    for key, value in arrays.items():  # one value per joined sample, in the joined order
        values = np.asarray(value)
        if values.shape != (loaded.shape[0],):
            raise DataError(f"{key} of multi-omic data must hold one value per sample kept "
                            f"({loaded.shape[0]}), in the order of the first modality; got "
                            f"shape {values.shape} ('obs:COLUMN' reads a column by sample ID).")
    import dataclasses

    loaded = dataclasses.replace(loaded, **arrays)
    return loaded, None, None, None


def read_multiomic(source: Any, target: Any = None, *, modalities: Sequence[str] | None = None,
                   intersect: bool = False, labels: Any = None, labels_column: Any = None,
                   layer: str | None = None, backed: bool = False,
                   outcome: str = DEFAULT_OUTCOME,
                   groups: str | None = None, sample_weight: str | None = None,
                   event: str | None = None, covariates: Any = None,
                   read_table: Any = None, **table_options: Any) -> LoadedData:
    """:func:`~modelmine.datasets.read_data` of multi-omic data: an ``.h5mu`` file, or a
    mapping of modality names to files (tables, ``.h5ad``), each read by ``read_table``
    (``read_data`` itself, which passes itself: no import back) with the table options and
    the ``labels`` sample sheet, then joined by sample ID."""
    from ._biodata import check_target, join_labels, read_labels

    if event is not None or covariates:
        raise DataError(f"{'--event' if event is not None else '--covariate'} does not apply "
                        "to multi-omic data yet (modelmine reads class labels and continuous "
                        "targets of several omics).")
    if not isinstance(source, Mapping):
        text = str(source)
        if not text.lower().endswith(".h5mu"):
            raise DataError(f"{'--modality' if modalities is not None else '--intersect'} "
                            f"applies to multi-omic data (an .h5mu file, or --modality "
                            f"NAME=FILE tables); {text!r} is neither.")
        used = [o for o, v in table_options.items() if v not in (None, False, [], ())]
        if used:
            raise DataError(f"--{used[0].replace('_', '-')} does not apply to the MuData file "
                            f"{text!r}.")
        path = Path(text)
        if not path.is_file():
            raise DataError(f"No such file: {text!r}.")
        label_series = None if labels is None else read_labels(Path(labels), labels_column)
        if labels is not None and target is not None:
            raise DataError("Give the labels either with --target obs:COLUMN or with "
                            "--labels FILE, not both.")
        data = read_h5mu(path, target, layer=layer, backed=backed, intersect=intersect,
                         modalities=modalities, unlabelled=label_series is not None,
                         groups=groups, sample_weight=sample_weight)
        if label_series is not None:
            rows, y, joined = join_labels(list(data.sample_names if data.sample_names
                                               is not None else ()), label_series, where=text,
                                          labels_where=str(labels))
            data = _rows(data, rows, y=y, target=str(label_series.name), labels=str(labels),
                         notes=(*data.notes, *joined))
    else:
        if modalities is not None:
            raise DataError("--modality NAME (without a file) chooses modalities of an .h5mu "
                            "file; give each table as --modality NAME=FILE.")
        if labels is None:
            raise DataError("Several tables (--modality NAME=FILE) take their labels from a "
                            "sample sheet joined by sample ID: --labels FILE (sample IDs in "
                            "its first column); or save them as one MuData (.h5mu) and name "
                            "--target obs:COLUMN.")
        if target is not None:
            raise DataError("--target names a column of one table; the tables of --modality "
                            "take their labels from --labels FILE.")
        if groups is not None or sample_weight is not None:
            raise DataError(f"{'--groups' if groups is not None else '--sample-weight'} does "
                            "not apply to several tables yet; save them as one MuData (.h5mu) "
                            "with the column in its obs.")
        blocks: dict[str, LoadedData] = {}
        for name, file in source.items():
            blocks[_modality_name(name)] = read_table(
                file, labels=labels, labels_column=labels_column, layer=layer, backed=backed,
                **table_options)
        first = next(iter(blocks.values()))
        assert first.sample_names is not None
        by_id = pd.Series(first.y, index=first.sample_names, name=first.target)
        for name, block in blocks.items():  # every table read the same sheet
            assert block.sample_names is not None
            if not np.array_equal(block.y, by_id.reindex(block.sample_names).to_numpy()):
                raise DataError(f"Modality {name!r} reads other labels from {str(labels)!r} "
                                "than the first table.")
        described = "; ".join(f"{name}={block.source}" for name, block in blocks.items())
        data = from_modalities(blocks, by_id, intersect=intersect, source=described,
                               fmt="modalities")
        data = dataclasses.replace(data, labels=str(labels), target=first.target, notes=(
            *[n for b in blocks.values() for n in b.notes], *data.notes))
    kind = outcome_kind(outcome)
    if kind.classes:
        check_target(data.y, where=f"{data.target!r} of {data.source!r}",
                     option="--labels" if labels is not None else "--target")
    elif not kind.censored:  # numbers
        values = pd.to_numeric(pd.Series(data.y), errors="coerce").to_numpy(np.float64)
        if not np.isfinite(values).all():
            raise DataError(f"--target {data.target!r} of {data.source!r} must hold finite "
                            f"numbers for --outcome {kind.name}.")
        data = dataclasses.replace(data, y=values)
    else:
        raise DataError(f"--outcome {kind.name} does not apply to multi-omic data yet.")
    return data


def _rows(data: LoadedData, rows: np.ndarray, **changes: Any) -> LoadedData:
    """The LoadedData restricted to ``rows`` (the samples a label file labels)."""
    if rows.size == data.shape[0]:
        return dataclasses.replace(data, **changes)
    take: dict[str, Any] = {
        k: (None if getattr(data, k) is None else np.asarray(getattr(data, k))[rows])
        for k in ("sample_names", "groups", "sample_weight")}
    return dataclasses.replace(data, X=data.X[rows], **take, **changes)
