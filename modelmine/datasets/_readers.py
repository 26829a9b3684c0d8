"""Data readers of the command line: CSV, TSV, Parquet and MATLAB ``.mat`` files.

Every reader returns a :class:`LoadedData` (X, y, feature names, where it came from), and
every failure a user can cause (a missing file, a malformed table, a target column that
does not exist, non-numeric feature columns) raises :class:`DataError` with a one-line
message that the CLI prints as is.
"""

from __future__ import annotations

import csv
import dataclasses
import lzma
import os
import re
import zipfile
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._deprecation import UNSET, renamed_keyword
from ..exceptions import DataError
from ..outcomes import DEFAULT_OUTCOME, default_registry, outcome_kind
from ..validation import closest_names
from ._matlab import read_mat
from ._record import LoadedData
from ._text import comma_example, decimal_comma_columns, open_text, text_encoding

__all__ = ["EMBEDDED_PREFIX", "DataError", "LoadedData", "read_data"]

#: ``modelmine run embedded:colon`` reads an embedded dataset instead of a file.
EMBEDDED_PREFIX = "embedded:"

_TABLE_SEPARATORS = {".csv": ",", ".tsv": "\t", ".tab": "\t", ".txt": None}
_COMPRESSIONS = (".gz", ".bz2", ".xz", ".zip", ".zst")


def _kind(path: Path) -> str:
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] in _COMPRESSIONS:
        suffixes = suffixes[:-1]
    last = suffixes[-1] if suffixes else ""
    if last in (".csv", ".txt"):
        return "csv"
    if last in (".tsv", ".tab"):
        return "tsv"
    if last in (".parquet", ".pq"):
        return "parquet"
    if last == ".mat":
        return "mat"
    if last == ".h5ad":
        return "h5ad"
    if last == ".h5mu":
        return "h5mu"
    raise DataError(
        f"Cannot tell the format of {str(path)!r} from its extension; use .csv, .tsv, "
        ".parquet, .mat, .h5ad or .h5mu (optionally compressed .gz/.bz2/.xz/.zip for "
        "tables)."
    )


def read_data(source: str | os.PathLike[str] | Mapping[str, Any], target: Any = None, *,
              labels: str | os.PathLike[str] | None = None, labels_column: str | None = None,
              index_col: str | None = None, transpose: bool = False,
              layer: str | None = None, backed: bool = False,
              drop: Sequence[str] | None = None, groups: str | None = None,
              sample_weight: str | None = None,
              keep_columns: Sequence[str] | None = None,
              outcome: str = DEFAULT_OUTCOME,
              event: str | None = None,
              covariates: Sequence[str] | None = None,
              modalities: Sequence[str] | None = None, intersect: bool = False,
              weights: Any = UNSET, use_raw: bool = False) -> LoadedData:
    """Read a dataset for ``modelmine run`` / ``modelmine lattice``.

    Parameters
    ----------
    source : str or path
        A ``.csv`` / ``.tsv`` / ``.txt`` (comma / tab / sniffed separator; ``.gz`` etc.
        allowed), a ``.parquet`` file, a MATLAB ``.mat`` file with ``X`` and ``Y`` keys
        (dense or sparse ``X``, as the scikit-feature files of ``../shared/datasets``), an
        AnnData ``.h5ad`` file (observations = samples, ``var_names`` = features), or
        ``embedded:NAME`` for a dataset of :mod:`modelmine.datasets` (its classes by name,
        ``load(NAME, class_names=True)``).
    target : str, optional
        The label column of a table (required for tables unless ``labels``). For ``.mat``
        files, the key of the labels (default ``"Y"``); for ``.h5ad`` files
        ``"obs:COLUMN"``; ignored for embedded data.
    labels : path, optional
        A separate label file (sample IDs in the first column, labels in another), joined
        to the data by sample ID, the GEO layout. Samples without a label are left out and
        label IDs not in the data ignored, each with a note; no match is an error.
    labels_column : str, optional
        The label column of ``labels`` (default: its only column besides the IDs).
    index_col : str, optional
        The sample-ID column of a table (with ``transpose``, the feature-ID column). By
        default a first column that is not numeric and whose values are unique is read as
        the sample IDs, with a note.
    transpose : bool, default=False
        The table is genes by samples: one row per feature (IDs in the first column or
        ``index_col``), one column per sample (headers = sample IDs).
    layer : str, optional
        For ``.h5ad``: the layer to read instead of ``.X``.
    backed : bool, default=False
        For ``.h5ad``: open the file in backed mode, so that only the chosen matrix is read
        into memory (not the other layers, ``obsm`` or ``uns``).
    drop : sequence of str, optional
        Columns of a table to leave out before anything else (metadata such as sex, batch
        or age that are not features); each must exist.
    keep_columns : sequence of str, optional
        Glob patterns (``"ENSG*"``, ``"*_at"``; ``fnmatch``, case-sensitive): a table's
        feature columns are those matching any of them, the rest are left out (the label,
        sample-ID, groups and weights columns are kept whatever their names). A pattern
        that matches no column is an error.
    groups : str, optional
        The column (of a table; ``"obs:COLUMN"`` of an ``.h5ad``) naming each sample's
        group: a patient with several samples, a donor, a batch. Taken out of the features
        into ``LoadedData.groups``; :func:`modelmine.run` then resamples whole groups.
    sample_weight : str, optional
        The column of each sample's weight, taken out of the features into
        ``LoadedData.sample_weight`` (``--sample-weight`` of ``modelmine run``).
    outcome : str, default="classification"
        What ``target`` holds, a registered outcome kind
        (:func:`modelmine.outcomes.outcome_kind`): class labels ("classification"; a
        continuous column is refused, :func:`check_target`), numbers ("regression"), or
        the survival times ("survival", with ``event``).
    event : str, optional
        For survival: the column (``"obs:COLUMN"`` of an ``.h5ad``) of the event indicator,
        0/1 or booleans; ``target`` is then the time column, and ``LoadedData.y`` the
        structured array of event and time (scikit-survival's layout).
    covariates : sequence of str, optional
        Columns of a table holding clinical covariates (age, sex, stage, batch; text
        allowed), taken out of the features into ``LoadedData.covariates``:
        :func:`modelmine.run` adjusts for them (``--covariate COL``).
    modalities : sequence of str, optional
        For ``.h5mu``: the modalities to read, in this order (default: all).
    intersect : bool, default=False
        Multi-omic data (an ``.h5mu``, or a mapping as ``source``) whose modalities hold
        different samples: keep those common to all (a note names what was left out)
        instead of an error naming the counts.
    weights : str, optional
        The old name of ``sample_weight``, deprecated (a FutureWarning; it goes in the next
        release).
    use_raw : bool, default=False
        For ``.h5ad``: read ``.raw`` (its matrix and genes), as scanpy's ``use_raw=True``
        and ``modelmine markers --use-raw``: where scanpy's files keep the log-normalised
        values when ``.X`` is scaled. A scaled matrix read while ``.raw`` or a layer holds
        unscaled values gets a :class:`~modelmine.datasets.ScaledValuesWarning` naming
        them.

    Several omics of the same samples (``docs/biology.md``): ``source`` a MuData ``.h5mu``
    file (``target="obs:COLUMN"``), or a mapping of modality names to table files, each
    read as above and joined by sample ID, the labels from a ``labels`` sample sheet; the
    features are named ``"MODALITY:FEATURE"`` and ``LoadedData.modalities`` records the
    blocks (:func:`modelmine.datasets.from_mudata`).

    Returns
    -------
    LoadedData

    Raises
    ------
    DataError
        With a one-line message naming the problem; a continuous target among them
        (:func:`modelmine.datasets.check_target`).
    """
    weights = renamed_keyword("read_data", "weights", "sample_weight", weights,
                              sample_weight, None)
    if (isinstance(source, Mapping) or str(source).lower().endswith(".h5mu")
            or modalities is not None or intersect):
        from ._multiomic import read_multiomic

        if use_raw:  # never ignored silently
            raise DataError("--use-raw reads the .raw matrix of an .h5ad file; for several "
                            "omics name each modality's matrix in its own file.")

        return read_multiomic(
            source, target, modalities=modalities, intersect=intersect, labels=labels,
            labels_column=labels_column, index_col=index_col, transpose=transpose,
            layer=layer, backed=backed, drop=drop, groups=groups, sample_weight=weights,
            keep_columns=keep_columns, outcome=outcome, event=event, covariates=covariates,
            read_table=read_data)
    from ._biodata import (
        check_target,
        join_labels,
        read_h5ad,
        read_labels,
        read_sample_sheet,
        set_sample_index,
        survival_target,
        transpose_table,
    )

    text = str(source)
    if outcome not in default_registry():
        names = default_registry().names()
        raise DataError(f"--outcome must be {', '.join(names[:-1])} or {names[-1]}; got "
                        f"{outcome!r}.")
    what = outcome_kind(outcome)
    if what.censored != (event is not None):
        raise DataError("--event names the event column of a survival outcome: give it with "
                        "--outcome survival and --time COLUMN." if event is not None else
                        f"--outcome {outcome} needs --time COLUMN and --event COLUMN (the "
                        "event indicator, 0/1).")
    if not what.classes and text.startswith(EMBEDDED_PREFIX):
        raise DataError(f"The embedded datasets have class labels; --outcome {outcome} needs "
                        "a table or an .h5ad with the outcome's column(s).")
    if not what.classes and labels is not None:
        raise DataError(f"--labels joins class labels; for --outcome {outcome} name the "
                        "column(s) of the data instead.")
    if labels_column is not None and labels is None:  # never ignored silently
        raise DataError(f"--labels-column {labels_column!r} names the label column of a "
                        "--labels FILE; give --labels too (or the data's own label column "
                        "with --target).")
    if covariates and (text.startswith(EMBEDDED_PREFIX) or _kind(Path(text)) in ("mat",
                                                                                "h5ad")):
        raise DataError(f"--covariate names a column of a table; {text!r} is not one "
                        "(pass the covariates' values to mm.run(covariates=...)).")
    if text.startswith(EMBEDDED_PREFIX):
        if labels is not None:
            raise DataError("--labels cannot relabel an embedded dataset (it has no sample "
                            "IDs); export it with `modelmine datasets export` first.")
        if groups is not None or weights is not None:
            raise DataError(f"--{'groups' if groups is not None else 'sample-weight'} names a "
                            "column; an embedded dataset has none (export it with `modelmine "
                            "datasets export` and add the column).")
        for option, used in (("--drop", bool(drop)), ("--keep-columns", bool(keep_columns)),
                             ("--index-col", index_col is not None),
                             ("--transpose", bool(transpose)), ("--layer", layer is not None),
                             ("--backed", bool(backed)), ("--use-raw", bool(use_raw))):
            if used:  # never ignored silently
                raise DataError(f"{option} does not apply to the embedded dataset {text!r} "
                                "(export it with `modelmine datasets export` to a table "
                                "first).")
        return _read_embedded(text[len(EMBEDDED_PREFIX):])
    path = Path(text)
    if not path.exists():
        hint = ""
        from ._loaders import available

        if text in available().index:
            hint = f" (for the embedded dataset, write {EMBEDDED_PREFIX}{text})"
        raise DataError(f"No such file: {text!r}{hint}.")
    if path.is_dir():
        raise DataError(f"{text!r} is a directory, not a data file.")
    if not path.is_file():  # a FIFO, socket or device would block or never end
        raise DataError(f"{text!r} is not a regular file (a pipe, socket or device); save "
                        "the data to a file first.")
    if not os.access(path, os.R_OK):
        raise DataError(f"Cannot read {text!r}: permission denied.")
    kind = _kind(path)
    table_only = {"--index-col": index_col is not None, "--transpose": bool(transpose),
                  "--drop": bool(drop), "--keep-columns": bool(keep_columns)}
    if kind == "mat" and event is not None:
        raise DataError(f"--event names a column; the MATLAB file {text!r} has none (save "
                        "the data as a table or an .h5ad with the time and event columns).")
    if kind == "mat" and (groups is not None or weights is not None):
        raise DataError(f"--{'groups' if groups is not None else 'sample-weight'} names a column; "
                        f"the MATLAB file {text!r} has none (save the data as a table or an "
                        ".h5ad with that column).")
    h5ad_only = {"--layer": layer is not None, "--backed": bool(backed),
                 "--use-raw": bool(use_raw)}
    for option, used in {**(table_only if kind in ("mat", "h5ad") else {}),
                         **(h5ad_only if kind != "h5ad" else {})}.items():
        if used:
            raise DataError(f"{option} does not apply to the {kind} file {text!r}.")
    # The --labels file is the sample sheet: the labels, and the columns of the samples'
    # groups, weights and covariates that the data lack (joined by sample ID, issue 50)
    sheet = None if labels is None else read_sample_sheet(Path(labels))
    label_series = (None if labels is None
                    else read_labels(Path(labels), labels_column, sheet=sheet))
    if labels is not None and target is not None and kind != "mat":
        raise DataError("Give the labels either with --target (a column of the data) or "
                        "with --labels FILE, not both.")
    if kind == "mat":
        data = read_mat(path, target)
        if label_series is not None:
            join_labels(None, label_series, where=text, labels_where=str(labels))
    elif kind == "h5ad":
        data = read_h5ad(path, target, layer=layer, backed=backed,
                         unlabelled=label_series is not None, groups=groups, weights=weights,
                         event=event, sheet=sheet, sheet_where=str(labels),
                         use_raw=bool(use_raw))
        if label_series is not None:
            rows, y, joined = join_labels(data.sample_names, label_series, where=text,
                                          labels_where=str(labels))
            X = data.X[rows] if rows.size < data.shape[0] else data.X
            kept = np.asarray(data.sample_names)[rows]
            assert sheet is not None
            from ._biodata import split_obs_target

            from_sheet = {option: _sheet_design(sheet, option, str(split_obs_target(column)),
                                                kept, str(labels))
                          for option, column in (("groups", groups), ("weights", weights))
                          if column is not None and getattr(
                              data, "groups" if option == "groups" else "sample_weight") is None}
            data = dataclasses.replace(
                data, X=X, y=y, target=str(label_series.name), labels=str(labels),
                sample_names=kept, notes=tuple(joined),
                groups=from_sheet["groups"] if "groups" in from_sheet
                else None if data.groups is None else data.groups[rows],
                sample_weight=from_sheet["weights"] if "weights" in from_sheet
                else None if data.sample_weight is None else data.sample_weight[rows])
    else:
        frame, notes = _read_table(path, kind)
        if drop:
            missing = [c for c in drop if c not in frame.columns]
            if missing:
                raise DataError(f"--drop names {_quoted(missing)}, not a column of {text!r} "
                                f"(its first columns: {_quoted(list(map(str, frame.columns[:6])))}"
                                ").")
            frame = frame.drop(columns=list(drop))
            notes.append(f"left out {len(drop)} column(s) of {text!r}: {_quoted(list(drop))}")
        if transpose:
            frame = transpose_table(frame, index_col, text)
        # the columns the data lack, read from the sample sheet after the join
        in_sheet = _sheet_columns(frame, sheet, groups, weights, covariates, text, labels)
        frame, design = _pop_design(
            frame, None if "groups" in in_sheet else groups,
            None if "weights" in in_sheet else weights, target, text, event)
        frame, covariate_frame = _pop_covariates(
            frame, [c for c in covariates or () if c not in in_sheet.get("covariates", ())],
            target, text)
        if not transpose:  # the groups column is never mistaken for the sample IDs
            frame, note = _row_numbers(frame, text)
            notes += [note] if note else []
            frame, note = set_sample_index(frame, index_col,
                                           None if label_series is not None else target, text)
            notes += [note] if note else []
        if covariate_frame is not None:
            covariate_frame.index = frame.index
        if label_series is not None:
            ids = None if isinstance(frame.index, pd.RangeIndex) else frame.index.tolist()
            rows, y, joined = join_labels(ids, label_series, where=text,
                                          labels_where=str(labels),
                                          column_names=None if transpose else
                                          [str(c) for c in frame.columns])
            notes += joined
            frame = frame.iloc[rows].copy()
            design = {k: v[rows] for k, v in design.items()}
            if covariate_frame is not None:
                covariate_frame = covariate_frame.iloc[rows]
            assert sheet is not None and labels is not None
            kept = [str(i) for i in frame.index]
            for option in ("groups", "weights"):
                if option in in_sheet:
                    design[option] = _sheet_design(sheet, option, in_sheet[option], kept,
                                                   str(labels))
            covariate_frame = _sheet_covariates(covariate_frame, sheet, covariates,
                                                in_sheet.get("covariates", ()), kept,
                                                str(labels))
            target = str(label_series.name)
            while target in frame.columns:  # a label column named like a feature
                target += "_label"
            frame[target] = y
        _refuse_unnamed(frame, text)
        if keep_columns:
            frame, note = _keep(frame, keep_columns, target, text)
            notes.append(note)
        data = _split_target(frame, target, text, kind, outcome)
        if what.classes and label_series is None:
            data, note = _strip_labels(data, text)
            notes += [note] if note else []
        sample_names = (None if isinstance(frame.index, pd.RangeIndex)
                        else np.asarray([str(i) for i in frame.index], dtype=str))
        data = dataclasses.replace(
            data, sample_names=sample_names, notes=tuple(notes),
            groups=design.get("groups"), sample_weight=design.get("weights"),
            covariates=None if covariate_frame is None
            else covariate_frame.reset_index(drop=True),
            labels=None if labels is None else str(labels),
            target=str(label_series.name) if label_series is not None else data.target)
        if event is not None:
            data = dataclasses.replace(data, y=survival_target(
                design["event"], data.y, f"--event {event!r}", f"--time {target!r}", text))
    if what.classes:
        check_target(data.y, where=f"{data.target!r} of {text!r}",
                     option="--labels" if labels is not None else "--target")
    elif not what.censored:  # numbers
        values = pd.to_numeric(pd.Series(data.y), errors="coerce").to_numpy(np.float64)
        bad = ~np.isfinite(values)
        if bad.any():
            raise DataError(f"--target {data.target!r} of {text!r} must hold finite numbers "
                            f"for --outcome {outcome}; {int(bad.sum())} value(s) are not "
                            f"(the first at row {int(np.flatnonzero(bad)[0])}: "
                            f"{data.y[int(np.flatnonzero(bad)[0])]!r}).")
        data = dataclasses.replace(data, y=values)
    if sheet is not None and sheet.attrs.get("notes"):
        data = dataclasses.replace(data, notes=(*sheet.attrs["notes"], *data.notes))
    return data


def _strip_labels(data: LoadedData, where: str) -> tuple[LoadedData, str | None]:
    """Text labels without the spaces around them, as the ``--labels`` sheet reads them: a
    label typed ``'tumour '`` in one row is the class ``'tumour'`` (it was a class of its
    own, where the same labels in a sample sheet made one class)."""
    y = np.asarray(data.y, dtype=object)
    text = np.array([isinstance(v, str) for v in y])
    if not text.any():
        return data, None
    stripped = y.copy()
    stripped[text] = [v.strip() for v in y[text]]
    changed = [str(v) for v in pd.unique(y[text][stripped[text] != y[text]])]
    if not changed:
        return data, None
    if any(v == "" for v in stripped[text]):
        raise DataError(f"Target column {data.target!r} of {where!r} has label(s) of spaces "
                        "only: fill them in, or leave those samples out.")
    return (dataclasses.replace(data, y=stripped.astype(data.y.dtype if data.y.dtype.kind
                                                         == "U" else object)),
            f"read the labels of {where!r} without the spaces around them, as a sample "
            f"sheet's ({len(changed)} label(s), e.g. {changed[0]!r})")


def _keep(frame: pd.DataFrame, patterns: Sequence[str], target: Any,
          text: str) -> tuple[pd.DataFrame, str]:
    """The feature columns matching any of ``patterns`` (and the label column)."""
    import fnmatch

    features = [c for c in frame.columns if c != target]
    unmatched = [p for p in patterns
                 if not any(fnmatch.fnmatchcase(str(c), p) for c in features)]
    if unmatched:
        raise DataError(f"--keep-columns {unmatched[0]!r} matches no feature column of "
                        f"{text!r} (its first feature columns: "
                        f"{_quoted(list(map(str, features[:6])))}).")
    kept = [c for c in features if any(fnmatch.fnmatchcase(str(c), p) for p in patterns)]
    columns = kept + ([target] if target in frame.columns else [])
    return frame[columns], (f"kept {len(kept)} of the {len(features)} feature columns of "
                            f"{text!r} (--keep-columns {' '.join(patterns)})")


def _pop_design(frame: pd.DataFrame, groups: str | None, weights: str | None,
                target: Any, text: str, event: str | None = None
                ) -> tuple[pd.DataFrame, dict[str, np.ndarray]]:
    """The --groups, --sample-weight and --event columns taken out of a table, checked (one
    value per sample; numbers for the weights)."""
    from ._biodata import design_column, design_flag

    design = {}
    for option, column in (("groups", groups), ("weights", weights), ("event", event)):
        if column is None:
            continue
        if column not in frame.columns:
            raise DataError(f"{design_flag(option)} {column!r} is not a column of {text!r} "
                            f"(its first columns: {_quoted(list(map(str, frame.columns[:6])))}).")
        if column == target:
            raise DataError(f"{design_flag(option)} {column!r} is the label column (--target"
                            f"{' / --time' if event is not None else ''}).")
        design[option] = design_column(frame[column], f"{design_flag(option)} {column!r}", text,
                                       numeric=option == "weights")
        frame = frame.drop(columns=[column])
    return frame, design


def _sheet_columns(frame: pd.DataFrame, sheet: pd.DataFrame | None, groups: str | None,
                   weights: str | None, covariates: Sequence[str] | None, text: str,
                   labels: Any) -> dict[str, Any]:
    """Which of the --groups, --sample-weight and --covariate columns come from the sample
    sheet (``--labels``): those the table lacks and the sheet has. One the table has is
    read from the table. A column in neither is refused, naming both places looked in."""
    from ._biodata import design_flag

    columns = [str(c) for c in frame.columns]
    out: dict[str, Any] = {}
    wanted = [("groups", groups), ("weights", weights),
              *(("covariates", c) for c in dict.fromkeys(str(c) for c in covariates or ()))]
    for option, column in wanted:
        if column is None or column in columns:
            continue
        flag = "--covariate" if option == "covariates" else design_flag(option)
        if sheet is not None and column in sheet.columns:
            if option == "covariates":
                out.setdefault("covariates", []).append(column)
            else:
                out[option] = column
            continue
        where = (f"nor of the --labels sheet {str(labels)!r} (its columns: "
                 f"{_quoted(list(sheet.columns[:8]))})" if sheet is not None else
                 "(a column of a sample sheet is read from --labels FILE, joined by sample ID)")
        raise DataError(f"{flag} {column!r} is not a column of {text!r} (its first columns: "
                        f"{_quoted(columns[:6])}) {where}.")
    return out


def _sheet_design(sheet: pd.DataFrame, option: str, column: str, ids: Sequence[str],
                  labels: str) -> np.ndarray:
    """A groups or weights column of the sample sheet for the samples ``ids``."""
    from ._biodata import design_column, design_flag, sheet_values

    flag = design_flag(option)
    values = sheet_values(sheet, column, ids, flag, labels)
    return design_column(values, f"{flag} {column!r}", labels, numeric=option == "weights")


def _sheet_covariates(frame: pd.DataFrame | None, sheet: pd.DataFrame,
                      covariates: Sequence[str] | None, from_sheet: Sequence[str],
                      ids: Sequence[str], labels: str) -> pd.DataFrame | None:
    """The covariates of the labelled samples, the table's and the sheet's, in the order
    the --covariate options named them."""
    if not from_sheet:
        return frame
    from ._biodata import sheet_values

    index = frame.index if frame is not None else pd.Index(ids)
    parts = {c: pd.Series(sheet_values(sheet, c, ids, "--covariate", labels).to_numpy(),
                          index=index, name=c) for c in from_sheet}
    order = list(dict.fromkeys(str(c) for c in covariates or ()))
    return pd.DataFrame({c: parts[c] if c in parts else frame[c]  # type: ignore[index]
                         for c in order}, index=index)


def _pop_covariates(frame: pd.DataFrame, covariates: Sequence[str] | None, target: Any,
                    text: str) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """The --covariate columns taken out of a table, as read (checked by mm.run)."""
    if not covariates:
        return frame, None
    wanted = list(dict.fromkeys(str(c) for c in covariates))
    missing = [c for c in wanted if c not in frame.columns]
    if missing:
        raise DataError(f"--covariate {missing[0]!r} is not a column of {text!r} (its first "
                        f"columns: {_quoted(list(map(str, frame.columns[:6])))}).")
    if target in wanted:
        raise DataError(f"--covariate {target!r} is the label column (--target).")
    return frame.drop(columns=wanted), frame[wanted].copy()


def _quoted(names: Sequence[str]) -> str:
    return ", ".join(repr(str(n)) for n in names)


def _read_embedded(name: str) -> LoadedData:
    from ._loaders import available, load

    names = list(available().index)
    if name not in names:
        close = closest_names(name, names)
        hint = f" Did you mean {EMBEDDED_PREFIX}{close[0]}?" if close else ""
        raise DataError(f"No embedded dataset {name!r}; available: {', '.join(names)}.{hint}")
    X, y, feature_names = load(name, return_names=True, class_names=True)
    return LoadedData(X=X, y=np.asarray(y), feature_names=np.asarray(feature_names, dtype=str),
                      source=EMBEDDED_PREFIX + name, target="class", format="embedded")


#: A number whose exponent has 10 or more digits. pandas 2.x's CSV float parser overflows
#: an int on such exponents and crashes the process (pandas-dev/pandas#62617 and #63089,
#: fixed by #62741 after 2.3): such text is refused before pandas sees it. No real value
#: needs an exponent beyond 3 digits (float64 ends at 1.8e308).
_OVERFLOWING_EXPONENT = re.compile(rb"[eE][-+]?[0-9]{10}")
_MANTISSA = re.compile(rb"(?:^|[^\w.])[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)$")


def _refuse_overflowing_exponents(path: Path, encoding: str = "utf-8") -> None:
    """Refuse a text table holding a number that would crash pandas' parser (see
    :data:`_OVERFLOWING_EXPONENT`); read in blocks, so the cost is one pass over the file."""
    if path.suffix.lower() == ".zst":
        return  # no decompressor in the standard library: left to pandas
    tail = b""
    try:
        with open_text(path) as raw:
            fh: Any = raw
            if encoding == "utf-16":  # the scan reads bytes: the text as UTF-8
                import io

                fh = io.BytesIO(io.TextIOWrapper(raw, encoding="utf-16",
                                                 errors="replace").read().encode())
            while True:
                block = fh.read(1 << 20)
                if not block:
                    return
                text = tail + block
                for found in _OVERFLOWING_EXPONENT.finditer(text):
                    # a number only when a mantissa precedes (not an id like ENSE0000...)
                    before = _MANTISSA.search(text, max(0, found.start() - 64), found.start())
                    if before:
                        shown = (before.group(0).lstrip(b",;\t \r\n\"'")
                                 + found.group(0))[:30].decode("ascii", "replace")
                        raise DataError(f"{str(path)!r} holds the number {shown!r}..., "
                                        "whose exponent no floating-point value can have.")
                tail = block[-80:]
    except DataError:
        raise
    except (OSError, EOFError, zlib.error, lzma.LZMAError, zipfile.BadZipFile):
        return  # damaged: pandas says how, in _read_table


def _read_table(path: Path, kind: str) -> tuple[pd.DataFrame, list[str]]:
    """A table as pandas reads it, checked, with the reader's notes: UTF-8 or UTF-16 (by
    its byte order mark); with a separator other than the comma, numbers written with
    decimal commas (``1,5``) are read as numbers (a note says so), and a comma that could
    as well separate thousands (``1,234``) is refused (issue 50)."""
    where = str(path)
    notes: list[str] = []
    encoding = "utf-8" if kind == "parquet" else text_encoding(path)
    if kind != "parquet":
        _refuse_overflowing_exponents(path, encoding)
    try:
        if kind == "parquet":
            from ..exceptions import require_extra

            require_extra("pyarrow", "parquet", "Reading Parquet")
            frame = pd.read_parquet(path)
        else:
            sep = "\t" if kind == "tsv" else _TABLE_SEPARATORS.get(
                path.suffix.lower(), ",")
            options: dict[str, Any] = ({"sep": None, "engine": "python"}
                                       if path.suffix.lower() == ".txt" else {"sep": sep})
            frame = pd.read_csv(path, encoding=encoding, **options)
            found, ambiguous = (decimal_comma_columns(frame) if sep != "," or
                                path.suffix.lower() == ".txt" else ([], []))
            if ambiguous:
                raise DataError(
                    f"{where!r} writes numbers with commas that could be decimal commas or "
                    f"thousands separators (column {ambiguous[0]!r}, e.g. "
                    f"{comma_example(frame[ambiguous[0]])!r}); save it with decimal points and "
                    "no thousands separators.")
            if found:
                frame = pd.read_csv(path, encoding=encoding, decimal=",", **options)
                notes.append(f"read the decimal commas of {where!r} as decimal points "
                             f"({len(found)} column(s), e.g. {found[0]!r})")
    except pd.errors.EmptyDataError:
        raise DataError(f"{where!r} is empty: no header and no rows.") from None
    except pd.errors.ParserError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else "parse error"
        raise DataError(f"Malformed {kind.upper()} file {where!r}: {first}") from None
    except UnicodeDecodeError as exc:  # Latin-1 / Windows-1252 (Excel's "CSV"), or binary
        byte = exc.object[exc.start:exc.start + 1].hex() if exc.object else ""
        raise DataError(f"{where!r} is not UTF-8 text{f' (byte 0x{byte})' if byte else ''}: "
                        "save it as UTF-8 (Excel: 'CSV UTF-8'), or as UTF-16 with a byte "
                        "order mark (Excel: 'Unicode text').") from None
    except DataError:
        raise
    except (OSError, ValueError, ImportError, EOFError, zlib.error, lzma.LZMAError,
            zipfile.BadZipFile, NotImplementedError, TypeError) as exc:
        # EOFError / zlib.error: a truncated or damaged .gz, .bz2, .xz or .zip
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise DataError(f"Cannot read {kind.upper()} file {where!r}: {first}") from None
    frame = _empty_headers(frame, _refuse_duplicate_columns(path, kind, frame, encoding),
                           where)
    if frame.shape[0] == 0:
        raise DataError(f"{where!r} has a header but no data rows.")
    if frame.shape[1] < 2:
        raise DataError(
            f"{where!r} has a single column; a dataset needs feature columns and a target "
            f"column (is the separator right? {kind.upper()} expects "
            f"{'tabs' if kind == 'tsv' else 'commas'})."
        )
    return frame, notes


def _refuse_duplicate_columns(path: Path, kind: str, frame: pd.DataFrame,
                              encoding: str = "utf-8") -> list[str] | None:
    """Refuse a table whose header repeats a name: pandas renames the second ``g0`` to
    ``g0.1`` silently, and the features would no longer be the file's. Returns the header
    as written (None when it cannot be read again)."""
    if kind == "parquet":
        header = [str(c) for c in frame.columns]
    elif path.suffix.lower() == ".txt":  # sniffed separator: ask pandas for the raw header
        try:
            first = pd.read_csv(path, sep=None, header=None, nrows=1, dtype=str,
                                engine="python", encoding=encoding)
        except Exception:  # the header was read once already; keep the table's own error
            return None
        header = ["" if pd.isna(v) else str(v) for v in first.iloc[0].tolist()]
    else:
        try:
            with open_text(path) as fh:
                if encoding == "utf-16":
                    import io

                    line = io.TextIOWrapper(fh, encoding="utf-16").readline(1 << 26)
                else:
                    line = fh.readline(1 << 26).decode("utf-8-sig")
        except (OSError, EOFError, zlib.error, lzma.LZMAError, zipfile.BadZipFile,
                UnicodeDecodeError, DataError):
            return None
        header = next(csv.reader([line.rstrip("\r\n")],
                                 delimiter="\t" if kind == "tsv" else ","), [])
    seen: dict[str, int] = {}
    for name in header:
        seen[name] = seen.get(name, 0) + 1
    repeated = [name for name, count in seen.items() if count > 1 and name]
    if repeated:
        raise DataError(f"{str(path)!r} repeats the column name(s) {_listing(repeated)}; "
                        "column names must be unique (rename them).")
    return header


def _empty_headers(frame: pd.DataFrame, header: list[str] | None,
                   where: str) -> pd.DataFrame:
    """The column whose header is empty named "" (pandas names it ``Unnamed: 3``, a name
    that is not the file's and went into every output, issue 50); several such columns are
    refused (no option could tell them apart)."""
    if header is None or len(header) != frame.shape[1]:
        return frame
    empty = [i for i, name in enumerate(header) if not str(name).strip()]
    if not empty:
        return frame
    if len(empty) > 1:
        shown = ", ".join(str(i + 1) for i in empty[:6])
        raise DataError(f"{len(empty)} columns of {where!r} have an empty header (columns "
                        f"{shown}): a feature needs a name in every output; name them in "
                        "the header.")
    names = [str(c) for c in frame.columns]
    for i in empty:
        names[i] = ""
    frame.columns = pd.Index(names)
    return frame


def _row_numbers(frame: pd.DataFrame, where: str) -> tuple[pd.DataFrame, str | None]:
    """A first column without a header that numbers the rows 1..n or 0..n-1 (R's
    ``write.csv`` row names) is left out, with a note: it is neither a feature nor an ID."""
    if not frame.shape[1] or str(frame.columns[0]) != "":
        return frame, None
    values = frame.iloc[:, 0]
    if not pd.api.types.is_integer_dtype(values):
        return frame, None
    numbers = values.to_numpy()
    if not (np.array_equal(numbers, np.arange(numbers.size))
            or np.array_equal(numbers, np.arange(1, numbers.size + 1))):
        return frame, None
    return frame.iloc[:, 1:], (f"left out the first column of {where!r}: it has no header "
                               "and numbers the rows (R's write.csv row names)")


def _refuse_unnamed(frame: pd.DataFrame, where: str) -> None:
    """Refuse columns left with an empty header (a first column of row names, as R's
    ``write.csv`` writes them, is read as the sample IDs before this): a feature needs a
    name in every output."""
    columns = [str(c) for c in frame.columns]
    if "" not in columns:
        return
    i = columns.index("")
    after = f" (after {columns[i - 1]!r})" if i > 0 else ""
    raise DataError(f"Column {i + 1} of {where!r}{after} has an empty header: a feature "
                    "needs a name in every output; name it in the header, or leave it out "
                    "with --drop ''.")


def _split_target(frame: pd.DataFrame, target: str | None, where: str, kind: str,
                  outcome: str = DEFAULT_OUTCOME) -> LoadedData:
    columns = [str(c) for c in frame.columns]
    frame.columns = pd.Index(columns)
    values = outcome_kind(outcome)
    option, what = (("--time", "time") if values.censored else ("--target", "label")
                    if values.classes else ("--target", "value"))
    if target is None and values.censored:
        raise DataError(f"--outcome {outcome} needs --time COLUMN (the times of {where!r}) "
                        f"and --event COLUMN (columns: {_listing(columns)}).")
    if target is None:
        raise DataError(f"{where!r} is a table: name its label column with --target, or "
                        f"give a label file with --labels (columns: {_listing(columns)}).")
    if target not in columns:
        close = closest_names(target, columns, n=3)
        hint = (" Close names: " + ", ".join(repr(c) for c in close) + "."
                if close else f" Columns: {_listing(columns)}.")
        raise DataError(f"Target column {target!r} ({option}) is not in {where!r}.{hint}")
    y = frame[target]
    if y.isna().any():
        raise DataError(f"Target column {target!r} ({option}) of {where!r} has "
                        f"{int(y.isna().sum())} missing {what}(s).")
    features = frame.drop(columns=[target])
    bad = [c for c in features.columns
           if not (pd.api.types.is_numeric_dtype(features[c])
                   or pd.api.types.is_bool_dtype(features[c]))]
    if bad:
        from ._biodata import option_text

        commas, _ = decimal_comma_columns(features[bad])
        if commas and len(commas) == len(bad):  # numbers, with the separator's comma
            raise DataError(f"{where!r} writes numbers with decimal commas (column "
                            f"{commas[0]!r}, e.g. {comma_example(features[commas[0]])!r}) in a "
                            "file whose separator is the comma: save it with decimal points, "
                            "or with tabs or semicolons between the fields (then decimal "
                            "commas are read as numbers).")
        repeated = [c for c in bad if features[c].nunique(dropna=True) < len(features)]
        hint = ""
        if repeated:
            c = repeated[0]
            hint = _repeated_column_hint(features[c], str(c))
        raise DataError(f"Non-numeric feature column(s) in {where!r}: {_listing(bad)}; "
                        "only the target may hold text: drop them, or name them as "
                        f"{option_text('groups')} or {option_text('covariates')}.{hint}")
    _warn_metadata(features, where)
    X = features.to_numpy(dtype=np.float64)
    if not np.all(np.isfinite(X)):
        cols = [str(features.columns[int(j)])
                for j in np.flatnonzero(~np.isfinite(X).all(axis=0))]
        raise DataError(f"Missing or infinite values in feature column(s) of {where!r}: "
                        f"{_listing(cols)}.")
    return LoadedData(X=X, y=y.to_numpy(), feature_names=np.array(features.columns, dtype=str),
                      source=where, target=target, format=kind)


#: Words in a column name that name each sample's unit (a group to resample whole).
GROUP_WORDS = frozenset({"patient", "donor", "subject", "individual", "mouse", "animal",
                         "batch", "site", "center", "centre", "plate", "lane", "family",
                         "litter", "cage", "run", "pool", "id"})


def _repeated_column_hint(column: pd.Series, name: str) -> str:
    """What a text column that repeats its values probably is, and the option for it: a
    unit of several samples (a patient, donor, batch: ``--groups``), or an attribute of a
    few levels shared by many samples (sex, stage, treatment: ``--covariate``, or
    ``--drop``). Many small groups, or a name of a unit, make a unit; a few large levels
    (the largest holding more than a third of the samples) an attribute (issue 50: ``sex``
    was advised ``--groups sex``)."""
    from ._biodata import option_text

    counts = column.astype(str).value_counts()
    n = int(column.size)
    words = [w for w in re.split(r"[^a-z0-9]+", re.sub(r"([a-z])([A-Z])", r"\1_\2",
                                                     name).lower()) if w]
    unit = (any(w in GROUP_WORDS or re.fullmatch(r"(batch|donor|patient)\d+", w)
                for w in words)
            or (counts.size >= 3 and int(counts.iloc[0]) * 3 <= n))
    drop = option_text("drop", [name] if option_text("drop") == "drop" else name)
    shown = f" {name!r} repeats its values ({counts.size} distinct over {n} samples)"
    if unit:
        return (f"{shown}: if it names each sample's patient, donor or batch, pass "
                f"{option_text('groups', name)} (resampling and folds then keep its samples "
                f"together; docs/groups.md), else {drop}.")
    return (f"{shown}, a few levels shared by many samples: if it is an attribute of the "
            f"samples (sex, stage, treatment), pass {option_text('covariates', name)} to "
            f"adjust for it (docs/outcomes.md), else {drop}.")


#: Words in a column name that mark metadata rather than a measured feature.
METADATA_WORDS = frozenset({"age", "sex", "gender", "batch", "patient", "donor", "subject",
                            "id", "sample", "individual", "site", "center", "centre",
                            "plate", "lane", "replicate", "visit", "mouse", "animal"})


def _metadata_reason(name: str, values: np.ndarray, integer_table: bool) -> str | None:
    """Why a numeric column looks like metadata (its name; an ID running 0..n-1 or
    1..n; integers shared by groups of samples in a table of measurements), or None."""
    words = [w for w in re.split(r"[^a-z0-9]+", re.sub(r"([a-z])([A-Z])", r"\1_\2",
                                                      name).lower()) if w]
    if any(w in METADATA_WORDS or re.fullmatch(r"(batch|donor|patient)\d+", w)
           for w in words):
        return "its name"
    finite = values[np.isfinite(values)]
    if finite.size < 4 or np.any(finite != np.round(finite)):
        return None
    n = values.size
    if np.all(np.diff(values) == 1) and values[0] in (0, 1):
        return "a row number"
    if not integer_table:  # counts are integers with repeats: only among measurements
        _, counts = np.unique(finite, return_counts=True)
        if 2 <= counts.size <= n // 2 and counts.min() >= 2:
            return f"integers shared by groups of samples ({counts.size} values)"
    return None


def _warn_metadata(features: pd.DataFrame, where: str) -> None:
    """Name the numeric columns that look like metadata (age, sex, batch, patient, donor,
    an ID) before they silently become features, with the options that handle them."""
    import warnings

    from ._biodata import option_text

    integer = [bool(np.all(np.mod(features[c].to_numpy(np.float64), 1) == 0))
               for c in features.columns]
    integer_table = sum(integer) * 2 > len(integer)
    found = []
    for c in features.columns:
        reason = _metadata_reason(str(c), features[c].to_numpy(np.float64), integer_table)
        if reason is not None:
            found.append((str(c), reason))
    if not found:
        return
    shown = ", ".join(f"{c!r} ({why})" for c, why in found[:6])
    more = f" and {len(found) - 6} more" if len(found) > 6 else ""
    grouping = [c for c, why in found if why.startswith("integers shared") or any(
        w in c.lower() for w in ("patient", "donor", "subject", "individual", "batch",
                                 "mouse", "animal", "site", "plate"))]
    drop = (option_text("drop", [c for c, _ in found[:6]]) if option_text("drop") == "drop"
            else " ".join(option_text("drop", c) for c, _ in found[:6]))
    warnings.warn(
        f"Column(s) of {where!r} that look like metadata are used as features: "
        f"{shown}{more}. Leave them out with {drop}"
        + (f"; {grouping[0]!r} may name each sample's patient, donor or batch: pass "
           f"{option_text('groups', grouping[0])} (resampling keeps its samples together)"
           if grouping else "")
        + f"; a clinical covariate goes in {option_text('covariates')} (adjusted for).",
        MetadataColumnsWarning, stacklevel=4)


class MetadataColumnsWarning(UserWarning):
    """Numeric columns of a table look like metadata (age, sex, batch, patient, an ID)
    and would be features (:func:`read_data`)."""


def _listing(items: list[Any], limit: int = 8) -> str:
    shown = ", ".join(repr(str(i)) for i in items[:limit])
    return shown + (f", ... ({len(items)} in all)" if len(items) > limit else "")
