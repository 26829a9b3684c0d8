"""Data as biologists keep it: AnnData, sample-ID columns, genes-by-samples tables, labels
in a separate file, and the checks a classification target needs.

:func:`modelmine.datasets.read_data` calls these helpers; :func:`from_anndata` is also the
door through which :func:`modelmine.run` and :func:`modelmine.bootstrap` take an in-memory
``AnnData`` object. Every failure a user can cause raises :class:`DataError` with a one-line
message naming the option, what was expected and what was given.
"""

from __future__ import annotations

import contextlib
import contextvars
import lzma
import warnings
import zlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp

from .._deprecation import UNSET, renamed_keyword
from ..constants import (
    MAX_TARGET_DISTINCT_FRACTION,
    MIN_CLASS_SIZE_WARNING,
    MIN_MEAN_SAMPLES_PER_CLASS,
)
from ..exceptions import DataError
from ._record import LoadedData
from ._text import comma_example, decimal_comma_columns, text_encoding

__all__ = [
    "ANNDATA_EXTRA",
    "ManyClassesWarning",
    "ScaledValuesWarning",
    "check_target",
    "from_anndata",
    "is_anndata",
    "join_labels",
    "read_labels",
    "read_sample_sheet",
    "split_obs_target",
]

#: The optional extra that installs anndata (``pip install "modelmine[anndata]"``).
ANNDATA_EXTRA = "anndata"

#: ``--target obs:COLUMN`` names a column of an AnnData's ``obs`` table.
OBS_PREFIX = "obs:"


class ManyClassesWarning(UserWarning):
    """The target has many classes for few samples (see :func:`check_target`)."""


class ScaledValuesWarning(UserWarning):
    """An AnnData's matrix holds scaled (centred) values, where expression was expected
    (:func:`from_anndata`)."""


def negative_mass(values: Any) -> tuple[float, float]:
    """The share of the absolute mass of ``values`` that is negative, and their minimum
    (0 and the minimum for non-negative values; 1 for an all-zero mass)."""
    values = np.asarray(values)
    if not values.size:
        return 0.0, 0.0
    low = float(values.min())
    if low >= 0:
        return 0.0, low
    mass = float(np.abs(values).sum(dtype=np.float64))
    negative = float(-values[values < 0].sum(dtype=np.float64))
    return (negative / mass if mass else 1.0), low


def _warn_scaled(X: Any, adata: Any, where: str, use_raw: bool, layer: str | None) -> None:
    """Say when the matrix read holds scaled (centred) values (more than
    :data:`~modelmine.constants.NEGATIVE_MASS_TOLERANCE` of its absolute mass negative,
    scanpy's ``sc.pp.scale``) while ``.raw`` or a layer holds unscaled values, and name
    them. The selectors rank scaled values as they are, and the markers' AUROC and
    standardised effect do not change with a gene's scale, but the markers' class means
    and the report's expression plots show them as expression, and ``.X`` then often
    holds only the highly variable genes (``modelmine markers`` refuses scaled values;
    issue 50). A matrix with nothing unscaled beside it is the data as they are (log
    ratios, methylation M-values): no warning."""
    from ..constants import NEGATIVE_MASS_TOLERANCE

    def unscaled(matrix: Any) -> bool:  # the first rows tell; backed files stay on disk
        head = matrix[: min(2000, matrix.shape[0])]
        values = head.data if sp.issparse(head) else np.asarray(head)
        return negative_mass(values)[0] <= NEGATIVE_MASS_TOLERANCE

    share, low = negative_mass(X.data if sp.issparse(X) else X)
    if share <= NEGATIVE_MASS_TOLERANCE:
        return
    options, genes = [], ""
    raw = getattr(adata, "raw", None)
    if not use_raw and raw is not None and unscaled(raw.X):
        options.append(f"{_switch('use_raw')} (.raw holds unscaled values, scanpy's "
                       "use_raw=True)")
        if raw.X.shape[1] != X.shape[1]:
            genes = f", and it holds {X.shape[1]:,} of the {raw.X.shape[1]:,} genes of .raw"
    layers = [str(k) for k in getattr(adata, "layers", {})
              if k != layer and unscaled(adata.layers[k])]
    if layers:
        options.append(f"{option_text('layer')} NAME (unscaled layers: "
                       f"{_listing(layers, 6)})")
    if not options:
        return
    warnings.warn(
        f"{where} holds scaled (centred) values: {share:.0%} of their absolute mass is "
        f"negative, down to {low:.3g}{genes}. The selectors rank them as they are, but the "
        "markers' class means and the report's expression plots show them as expression; "
        f"for expression pass {' or '.join(options)}.", ScaledValuesWarning, stacklevel=4)


#: Which door read the data: "api" (Python) or "cli" (``modelmine``), so that a message
#: names what the user typed (``labels=`` or ``--labels``). The CLI sets it around its
#: reads (:func:`cli_door`).
_DOOR: contextvars.ContextVar[str] = contextvars.ContextVar("modelmine_door", default="api")


@contextlib.contextmanager
def cli_door() -> Iterator[None]:
    """Messages inside name the command-line options (``--drop COL``)."""
    token = _DOOR.set("cli")
    try:
        yield
    finally:
        _DOOR.reset(token)


#: Command-line flags not spelled as their keyword.
_FLAGS = {"covariates": "--covariate", "sample_weight": "--sample-weight"}


def design_flag(option: str) -> str:
    """The command-line option of a design column (``--groups``, ``--sample-weight``,
    ``--event``), from its key in the data record (``groups``, ``weights``, ``event``)."""
    return "--sample-weight" if option == "weights" else f"--{option}"


def option_text(name: str, value: Any = None) -> str:
    """An option as the user's door spells it: ``--drop 'age'`` on the command line,
    ``drop=['age']`` in Python (``name`` without dashes, as read_data's keyword)."""
    if _DOOR.get() == "cli":
        flag = _FLAGS.get(name, "--" + name.replace("_", "-"))
        return flag if value is None else f"{flag} {value}"
    return name if value is None else f"{name}={value!r}"


def _switch(name: str) -> str:
    """A boolean option turned on, as the user's door spells it: ``--use-raw`` on the
    command line, ``use_raw=True`` in Python."""
    return option_text(name) if _DOOR.get() == "cli" else f"{name}=True"


def _listing(items: Sequence[Any], limit: int = 8) -> str:
    items = list(items)
    shown = ", ".join(repr(str(i)) for i in items[:limit])
    return shown + (f", ... ({len(items)} in all)" if len(items) > limit else "")


def _door_option(option: str) -> str:
    """A CLI flag given by a shared reader (``--labels``), as the user's door spells it."""
    if option.startswith("--"):
        return option_text(option[2:].replace("-", "_"))
    return option


# ----------------------------------------------------------------- the target
def check_target(y: Any, *, where: str, option: str = "--target") -> np.ndarray:
    """Refuse a continuous target; warn when there are many classes for few samples.

    modelmine selects features for classification (Woznica, Nguyen and Kalousis, KDD 2012,
    section 3: classifiers evaluate every signature), so its target must be class labels.
    A numeric target is refused as continuous when it holds non-integer values, or when
    more than ``MAX_TARGET_DISTINCT_FRACTION`` of the samples have a value of their own (an
    age, a survival time, a sample ID). A target with fewer than
    ``MIN_MEAN_SAMPLES_PER_CLASS`` samples per class on average gets a
    :class:`ManyClassesWarning`: bootstrap samples then often miss whole classes; so does
    any class of fewer than ``MIN_CLASS_SIZE_WARNING`` samples, whatever the average.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
    where : str
        Where the labels came from, for messages.
    option : str, default="--target"
        The option or parameter that named them, for messages.

    Returns
    -------
    ndarray
        ``y`` as an array.

    Raises
    ------
    DataError
        For a continuous target.
    """
    arr = y.to_numpy() if isinstance(y, pd.Series) else np.asarray(y)
    n = arr.shape[0] if arr.ndim else 0
    if n == 0 or arr.ndim != 1:
        return arr
    numeric = arr.dtype.kind in "iuf"
    if numeric:
        values = arr.astype(np.float64)
        finite = values[np.isfinite(values)]
        distinct = np.unique(finite).size
        fractional = bool(np.any(finite != np.round(finite)))
        if fractional or (distinct > 2 and distinct > MAX_TARGET_DISTINCT_FRACTION * n):
            what = (
                "non-integer values"
                if fractional
                else f"{distinct} distinct values for {n} samples"
            )
            example = ", ".join(f"{v:g}" for v in np.unique(finite)[:4])
            raise DataError(
                f"{option} {where} looks continuous ({what}, e.g. {example}): by default "
                "modelmine selects features for classification and needs class labels. For "
                "a continuous target ask for regression (outcome='regression', or "
                "--outcome regression on the command line); for times to an event, "
                "--outcome survival with --time and --event. Or bin the values into classes "
                "(for example with pandas.qcut into 'low'/'high')."
            )
    classes, counts = np.unique(arr.astype(str) if not numeric else arr, return_counts=True)
    small = np.flatnonzero(counts < MIN_CLASS_SIZE_WARNING)
    if classes.size >= 2 and small.size and n / classes.size >= MIN_MEAN_SAMPLES_PER_CLASS:
        shown = ", ".join(f"{classes[i]!s} ({int(counts[i])})"
                          for i in small[np.argsort(counts[small], kind="stable")][:6])
        more = f" and {small.size - 6} more" if small.size > 6 else ""
        smallest = int(counts[small].min())
        miss = (1.0 - smallest / n) ** n  # a bootstrap of n draws holds none of them
        warnings.warn(
            f"{_door_option(option)} {where} has {small.size} "
            f"class{'es' if small.size > 1 else ''} of fewer than {MIN_CLASS_SIZE_WARNING} "
            f"samples: {shown}{more}. A bootstrap sample of the {n} misses a class of "
            f"{smallest} with probability (1 - {smallest}/{n})^{n} = {miss:.2g}, so about "
            f"{miss:.0%} of the resamples, whatever their number, hold none of it (a "
            "resample needs two classes, and a "
            "per-class run draws again until it holds every class), and what marks such a "
            "class rests on a handful of samples. Merge them or leave them out if you can.",
            ManyClassesWarning,
            stacklevel=3,
        )
    if classes.size >= 2 and n / classes.size < MIN_MEAN_SAMPLES_PER_CLASS:
        warnings.warn(
            f"{_door_option(option)} {where} has {classes.size} classes for {n} samples "
            "(fewer than "
            f"{MIN_MEAN_SAMPLES_PER_CLASS} per class on average; smallest class: "
            f"{int(counts.min())}): bootstrap samples will often miss whole classes, and the "
            "signatures will be unstable. Merge rare classes if you can.",
            ManyClassesWarning,
            stacklevel=3,
        )
    return arr


# ----------------------------------------------------------------- sample IDs in tables
def _is_id_column(column: pd.Series) -> bool:
    numeric = pd.api.types.is_numeric_dtype(column) or pd.api.types.is_bool_dtype(column)
    return not numeric and not column.isna().any() and column.astype(str).is_unique


def set_sample_index(
    frame: pd.DataFrame, index_col: str | None, target: str | None, where: str
) -> tuple[pd.DataFrame, str | None]:
    """Move the sample-ID column of a samples-by-features table into the index.

    ``index_col`` names it; without it, a first column that is not numeric, not the target
    and unique is taken as the sample IDs, and the returned note says so.

    Returns
    -------
    (frame, note)
    """
    columns = [str(c) for c in frame.columns]
    frame.columns = pd.Index(columns)
    note = None
    if index_col is not None:
        if index_col not in columns:
            raise DataError(
                f"--index-col {index_col!r} is not a column of {where!r} "
                f"(columns: {_listing(columns)})."
            )
        chosen = index_col
    else:
        first = columns[0]
        column = frame[first]
        text = not (pd.api.types.is_numeric_dtype(column) or pd.api.types.is_bool_dtype(column))
        if first != target and text and not column.isna().any() \
                and not column.astype(str).is_unique:
            # Text, so not a feature; what it is, is sample IDs that repeat (it used to be
            # reported later as a non-numeric feature column).
            _unique_ids(column, f"The first column {first!r} of {where!r} looks like sample "
                        "IDs (text) but repeats", "; each sample needs its own ID (name "
                        "the ID column with --index-col), and if it names each sample's "
                        f"patient or donor, pass {option_text('groups', first)} (resampling "
                        "then keeps its samples together; docs/groups.md).")
        if first == target or not _is_id_column(column):
            return frame, None
        chosen = first
        shown = (f"column {first!r}" if first else "column (its header is empty, as R's "
                 "write.csv writes row names)")
        note = (
            f"read the first {shown} of {where!r} as sample IDs (it is not "
            "numeric and its values are unique); name another one with --index-col"
        )
    ids = _unique_ids(frame[chosen], f"Duplicate sample IDs in column {chosen!r} of "
                      f"{where!r}", "; each sample needs its own ID.")
    frame = frame.drop(columns=[chosen])
    frame.index = pd.Index(ids.to_numpy(), name=chosen)
    return frame, note


def _unique_ids(column: pd.Series, what: str, advice: str) -> pd.Series:
    """The IDs of ``column`` as text; a DataError "<what>: <duplicates><advice>" if any repeat."""
    ids = column.astype(str)
    duplicated = ids[ids.duplicated()].unique().tolist()
    if duplicated:
        raise DataError(f"{what}: {_listing(duplicated, 5)}{advice}")
    return ids


def transpose_table(frame: pd.DataFrame, index_col: str | None, where: str) -> pd.DataFrame:
    """A genes-by-samples table (features in rows, one column of feature IDs, one column
    per sample) turned into samples by features, with the sample IDs as the index.

    The feature IDs are ``index_col`` or, by default, the first column. A row whose ID is
    the ``--target`` (a row of class labels, as some GEO series matrices have) becomes the
    target column.
    """
    columns = [str(c) for c in frame.columns]
    frame.columns = pd.Index(columns)
    id_col = index_col if index_col is not None else columns[0]
    if id_col not in columns:
        raise DataError(
            f"--index-col {id_col!r} is not a column of {where!r} (columns: {_listing(columns)})."
        )
    ids = _unique_ids(frame[id_col], f"Duplicate feature IDs in column {id_col!r} of "
                      f"{where!r} (read with --transpose, rows are features)", ".")
    body = frame.drop(columns=[id_col])
    if body.shape[1] < 2:
        raise DataError(
            f"{where!r} read with --transpose has {body.shape[1]} sample "
            "column(s); a genes-by-samples table needs one column per sample."
        )
    body.index = pd.Index(ids.to_numpy())
    out = body.T
    out.index = pd.Index([str(c) for c in body.columns], name="sample")
    out.columns = pd.Index(ids.to_numpy())
    if any(dtype.kind == "O" for dtype in body.dtypes):
        # A row of labels made every sample column text: numbers come back per feature.
        converted = {}
        for col in out.columns:
            try:
                converted[col] = pd.to_numeric(out[col])
            except (ValueError, TypeError):
                converted[col] = out[col]
        out = pd.DataFrame(converted, index=out.index)
    return out.infer_objects()


# ----------------------------------------------------------------- labels in another file
def read_sample_sheet(path: str | Path) -> pd.DataFrame:
    """Read a sample sheet (the ``--labels`` file): sample IDs in the first column, one
    column per attribute (the label, the patient, the age...), every value as text.

    Parameters
    ----------
    path : path-like
        A ``.csv``, ``.tsv``/``.tab`` or ``.txt`` (separator sniffed) file with a header.

    Returns
    -------
    pandas.DataFrame
        The sheet's columns besides the IDs, indexed by sample ID (text, stripped; unique),
        values as text (stripped; missing cells NaN).
    """
    file = Path(path)
    where = str(file)
    if not file.exists():
        raise DataError(f"--labels: no such file {where!r}.")
    if not file.is_file():
        raise DataError(f"--labels: {where!r} is not a regular file (a directory, pipe, "
                        "socket or device); give a label table.")
    suffixes = [s.lower() for s in file.suffixes if s.lower() not in (".gz", ".bz2", ".xz")]
    last = suffixes[-1] if suffixes else ""
    encoding = text_encoding(file)  # UTF-8, or UTF-16 by its byte order mark, as the data
    try:
        if last in (".tsv", ".tab"):
            table = pd.read_csv(file, sep="\t", dtype=str, keep_default_na=True,
                                encoding=encoding)
        elif last == ".csv":
            table = pd.read_csv(file, sep=",", dtype=str, keep_default_na=True,
                                encoding=encoding)
        else:
            table = pd.read_csv(file, sep=None, engine="python", dtype=str,
                                encoding=encoding)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError, ValueError,
            OSError, EOFError, zlib.error, lzma.LZMAError) as exc:
        # OSError / EOFError / zlib.error: a damaged or truncated .gz, .bz2 or .xz (bad
        # input, not the environment: the file was read)
        if isinstance(exc, PermissionError):
            raise DataError(f"Cannot read --labels {where!r}: permission denied.") from None
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise DataError(f"--labels {where!r} is not a readable table ({first}).") from None
    columns = [str(c) for c in table.columns]
    table.columns = pd.Index(columns)
    if len(columns) < 2:
        raise DataError(
            f"--labels {where!r} has {len(columns)} column(s); expected sample IDs "
            "in the first column and labels in another (is the separator right?)."
        )
    ids = table[columns[0]].astype(str).str.strip()
    duplicated = ids[ids.duplicated()].unique().tolist()
    if duplicated:
        raise DataError(
            f"Duplicate sample IDs in the first column of --labels {where!r}: "
            f"{_listing(duplicated, 5)}; each sample needs one label."
        )
    sheet = table.drop(columns=[columns[0]])
    sheet = sheet.apply(lambda c: c.where(c.isna(), c.astype(str).str.strip()))
    sheet.index = pd.Index(ids.to_numpy(), name="sample")
    # decimal commas (an age of 45,5) beside another separator are numbers, as in the data;
    # a comma that could separate thousands (1,234) stays text, refused where a number is
    # needed (sheet_values)
    found, ambiguous = (([], []) if last == ".csv" else decimal_comma_columns(sheet))
    commas = [c for c in found if c not in ambiguous]
    for c in commas:
        sheet[c] = sheet[c].str.replace(",", ".", regex=False)
    sheet.attrs["notes"] = ([f"read the decimal commas of --labels {where!r} as decimal "
                             f"points ({len(commas)} column(s), e.g. {commas[0]!r})"]
                            if commas else [])
    return sheet


def read_labels(path: str | Path, column: str | None,
                sheet: pd.DataFrame | None = None) -> pd.Series:
    """Read a label file: sample IDs in the first column, labels in ``column``.

    Parameters
    ----------
    path : path-like
        A ``.csv``, ``.tsv``/``.tab`` or ``.txt`` (separator sniffed) file with a header.
    column : str, optional
        The label column; default: the only column besides the IDs.
    sheet : DataFrame, optional
        The file as :func:`read_sample_sheet` read it already.

    Returns
    -------
    pandas.Series
        Labels indexed by sample ID (as text), named after the column.
    """
    where = str(Path(path))
    if sheet is None:
        sheet = read_sample_sheet(path)
    columns = [str(c) for c in sheet.columns]
    if column is None:
        if len(columns) != 1:
            raise DataError(
                f"--labels {where!r} has {len(columns)} columns besides the "
                f"sample IDs: name the label column with --labels-column "
                f"(columns: {_listing(columns)})."
            )
        column = columns[0]
    elif column not in columns:
        raise DataError(
            f"--labels-column {column!r} is not a column of {where!r} "
            f"(columns: {_listing(columns)})."
        )
    labels = sheet[column]
    converted = pd.to_numeric(labels, errors="coerce")
    if converted.notna().sum() == labels.notna().sum():  # numeric codes stay numeric
        labels = converted
    return pd.Series(labels.to_numpy(), index=sheet.index.copy(), name=column)


def sheet_values(sheet: pd.DataFrame, column: str, ids: Sequence[str], option: str,
                 labels_where: str) -> pd.Series:
    """The values of a sample sheet's ``column`` for the samples ``ids`` (joined by ID):
    numbers when every value is a number, else text; a sample without a value is refused,
    named (``option`` names the command-line option, ``labels_where`` the sheet)."""
    values = sheet[column].reindex(pd.Index([str(i).strip() for i in ids]))
    missing = values.index[values.isna()].tolist()
    if missing:
        raise DataError(
            f"{option} {column!r} of the --labels sheet {labels_where!r} has no value for "
            f"{len(missing)} of the {len(values)} labelled samples: {_listing(missing, 5)}; "
            "every sample needs one (fill them in the sheet, or leave those samples out).")
    numbers = pd.to_numeric(values, errors="coerce")
    if numbers.notna().all():
        return numbers
    if decimal_comma_columns(values.to_frame())[0]:  # numbers, with a comma
        raise DataError(
            f"{option} {column!r} of the --labels sheet {labels_where!r} writes numbers with "
            f"commas (e.g. {comma_example(values)!r}), which could be decimal commas or thousands "
            "separators: save the sheet with decimal points, or (for decimal commas) with "
            "tabs or semicolons between the fields.")
    return values


def join_labels(
    sample_ids: Sequence[str] | None, labels: pd.Series, *, where: str, labels_where: str,
    column_names: Sequence[str] | None = None,
) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Match the data's samples to a label file by sample ID.

    Samples without a label (absent from the file, or with an empty label) are left out,
    and label IDs absent from the data ignored, each with a note; no match at all is an
    error that says how many matched and shows a few IDs of each side.

    Returns
    -------
    (rows, y, notes)
        ``rows``: positions in the data of the labelled samples, in data order; ``y`` their
        labels; ``notes``: what was left out.
    """
    known_ids = {str(i).strip() for i in labels.dropna().index}
    in_headers = (0 if column_names is None
                  else sum(str(c).strip() in known_ids for c in column_names))
    transpose_hint = (
        f" {in_headers} of the label IDs are column headers of {where!r}: is it a "
        "genes-by-samples table? Did you mean --transpose?" if in_headers >= 2 else "")
    if sample_ids is None:
        if transpose_hint:
            raise DataError(f"--labels {labels_where!r} matches none of the rows of "
                            f"{where!r}.{transpose_hint}")
        raise DataError(
            f"--labels needs sample IDs in the data, and {where!r} has none: "
            "name its sample-ID column with --index-col (or use --transpose for a "
            "genes-by-samples table whose column headers are the sample IDs)."
        )
    ids = pd.Index([str(s).strip() for s in sample_ids])
    # Joined by ID, a repeated ID would give two samples one label (the second sample's
    # own label lost, silently): refused, whatever the format (CSV IDs, AnnData obs_names).
    _unique_ids(pd.Series(ids), f"{where!r} repeats sample IDs, so --labels cannot tell "
                "which sample a label belongs to", " (make them unique, for example with "
                "AnnData's obs_names_make_unique(), or leave out --labels)")
    known = labels.dropna()
    matched = ids.isin(known.index)
    n_match = int(matched.sum())
    notes: list[str] = []
    if n_match < 2:
        missing = [s for s in ids[~matched]][:4]
        extra = [s for s in labels.index if s not in set(ids)][:4]
        raise DataError(
            f"--labels {labels_where!r} matches {n_match} of the {len(ids)} samples of "
            f"{where!r} by sample ID; data IDs without a label: {_listing(missing, 4)}; label "
            f"IDs not in the data: {_listing(extra, 4)} (are the IDs in the first column of "
            f"both files, spelled alike?).{transpose_hint}"
        )
    if n_match < len(ids):
        left = ids[~matched].tolist()
        notes.append(
            f"{len(left)} of the {len(ids)} samples of {where!r} have no label in "
            f"{labels_where!r} and are left out: {_listing(left, 5)}"
        )
    extra_ids = known.index[~known.index.isin(ids)].tolist()
    if extra_ids:
        notes.append(
            f"{len(extra_ids)} labelled sample(s) of {labels_where!r} are not in "
            f"{where!r} and are ignored: {_listing(extra_ids, 5)}"
        )
    rows = np.flatnonzero(matched)
    y = known.loc[ids[rows]].to_numpy()
    return rows, y, notes


# ----------------------------------------------------------------- AnnData
def is_anndata(obj: Any) -> bool:
    """Whether ``obj`` is an ``anndata.AnnData`` (checked without importing anndata)."""
    return any(
        c.__name__ == "AnnData" and c.__module__.split(".")[0] == "anndata"
        for c in type(obj).__mro__
    )


def import_anndata() -> Any:
    """Import anndata, or raise MissingExtraError naming the extra that installs it."""
    from ..exceptions import require_extra

    return require_extra("anndata", ANNDATA_EXTRA, "Reading or writing AnnData (.h5ad)")


def split_obs_target(target: Any) -> str | None:
    """The obs column of ``"obs:COLUMN"`` (or of a bare column name), else None."""
    if isinstance(target, str):
        return target[len(OBS_PREFIX) :] if target.startswith(OBS_PREFIX) else target
    return None


def _matrix(adata: Any, layer: str | None, where: str, sparse_dtype: Any = np.float64) -> Any:
    if layer is None:
        X = adata.X
        if X is None:
            raise DataError(
                f"{where!r} has no .X matrix; name a layer with --layer "
                f"(layers: {_listing(list(adata.layers.keys()))})."
            )
    else:
        layers = list(adata.layers.keys())
        if layer not in layers:
            raise DataError(
                f"--layer {layer!r} is not a layer of {where!r} (layers: "
                f"{_listing(layers) if layers else 'none'})."
            )
        X = adata.layers[layer]
    # Backed files give an h5py dataset or a backed sparse dataset: read the one matrix.
    if hasattr(X, "to_memory"):
        X = X.to_memory()
    elif not (isinstance(X, np.ndarray) or sp.issparse(X)) and hasattr(X, "shape"):
        X = X[()] if getattr(X, "ndim", 2) == 2 and hasattr(X, "dtype") else np.asarray(X)
    if sp.issparse(X):
        return sp.csr_matrix(X, dtype=sparse_dtype)
    X = np.asarray(X)
    if X.ndim != 2 or not (np.issubdtype(X.dtype, np.number) or X.dtype == bool):
        raise DataError(f"The matrix of {where!r} is not numeric (dtype {X.dtype}).")
    return X.astype(np.float64, copy=False)


def from_anndata(
    adata: Any,
    target: Any = None,
    *,
    layer: str | None = None,
    sparse_dtype: Any = np.float64,
    source: str = "AnnData",
    fmt: str = "anndata",
    unlabelled: bool = False,
    groups: str | None = None,
    sample_weight: str | None = None,
    event: str | None = None,
    weights: Any = UNSET,
    use_raw: bool = False,
    warn_scaled: bool = True,
) -> Any:
    """An ``AnnData`` as a :class:`~modelmine.datasets.LoadedData`.

    X is ``adata.X`` or ``adata.layers[layer]`` (dense or sparse; sparse stays CSR), the
    feature names are ``var_names`` and the sample names ``obs_names``. Observations are
    samples, variables features, as in scanpy.

    Parameters
    ----------
    adata : anndata.AnnData
        In memory or opened in backed mode (``anndata.read_h5ad(path, backed="r")``): only
        the named matrix is read into memory, not the other layers.
    target : str or array-like
        ``"obs:COLUMN"`` (or ``"COLUMN"``) for a column of ``adata.obs``, or the labels
        themselves (one per observation).
    layer : str, optional
        A key of ``adata.layers``; default ``adata.X``.
    sparse_dtype : numpy dtype, default=float64
        The dtype a sparse matrix is read as (float32 for an atlas's float32 counts).
    source, fmt : str
        Recorded as the LoadedData's ``source`` and ``format``.
    unlabelled : bool, default=False
        Read no target (the labels come from a separate file, joined by ``obs_names``).
    groups, sample_weight : str, optional
        ``"obs:COLUMN"`` (or ``"COLUMN"``): the column of ``adata.obs`` holding each
        observation's group (donor, patient, batch) or weight (``LoadedData.groups`` and
        ``LoadedData.sample_weight``).
    event : str, optional
        For survival: the column of ``adata.obs`` holding the event indicator.
    weights : str, optional
        The old name of ``sample_weight``, deprecated (a FutureWarning; it goes in the next
        release).
    use_raw : bool, default=False
        Read ``adata.raw`` (its matrix and genes, with the observations' obs), as scanpy's
        ``use_raw=True``: where scanpy's files keep the log-normalised values when ``.X``
        is scaled (``modelmine run --use-raw``, as ``modelmine markers``).
    warn_scaled : bool, default=True
        Warn (:class:`ScaledValuesWarning`) when the matrix read holds scaled, centred
        values while ``.raw`` or a layer holds unscaled ones, naming them.

    Returns
    -------
    LoadedData
    """
    weights = renamed_keyword("from_anndata", "weights", "sample_weight", weights,
                              sample_weight, None)
    where = source
    if use_raw:
        raw = getattr(adata, "raw", None)
        if raw is None:
            raise DataError(f"{_switch('use_raw')}: {where!r} has no .raw matrix "
                            "(scanpy keeps it there after sc.pp.scale when asked to); read "
                            ".X, or a layer with " + option_text("layer") + ".")
        if layer is not None:
            raise DataError(f"{option_text('layer', layer)} and "
                            f"{_switch('use_raw')} both name the matrix to read; "
                            "give one (.raw holds one matrix).")
        from types import SimpleNamespace

        matrix_of = SimpleNamespace(X=raw.X, layers={}, var_names=raw.var_names,
                                    obs=adata.obs, obs_names=adata.obs_names)
    else:
        matrix_of = adata
    X = _matrix(matrix_of, layer, where + (" (.raw)" if use_raw else ""), sparse_dtype)
    if warn_scaled:
        _warn_scaled(X, adata, f"{where!r}" + (" .raw" if use_raw else
                                               "" if layer is None else f" layer {layer!r}"),
                     use_raw, layer)
    obs = adata.obs
    column = split_obs_target(target)
    if unlabelled:
        column, target = None, np.zeros(X.shape[0])
    if target is None:
        raise DataError(
            f"{where!r} is an AnnData: name the label column of its obs with "
            f"--target obs:COLUMN (obs columns: {_listing(list(obs.columns))})."
        )
    if column is not None:
        if column not in obs.columns:
            raise DataError(
                f"--target obs:{column} is not a column of the obs of {where!r} "
                f"(obs columns: {_listing(list(obs.columns)) or 'none'})."
            )
        labels = obs[column]
        if labels.isna().any():
            raise DataError(
                f"--target obs:{column} of {where!r} has {int(labels.isna().sum())}"
                " missing label(s); drop those observations or fill them."
            )
        y = np.asarray(
            labels.astype(str)
            if isinstance(labels.dtype, pd.CategoricalDtype)
            and not pd.api.types.is_numeric_dtype(labels.cat.categories)
            else labels.to_numpy()
        )
        target_name = f"obs:{column}"
    else:
        y = np.asarray(target)
        target_name = "labels"
        if y.shape != (X.shape[0],):
            raise DataError(
                f"The labels given for {where!r} have shape {y.shape}; expected "
                f"({X.shape[0]},), one per observation."
            )
    names = np.asarray([str(v) for v in matrix_of.var_names], dtype=str)
    if len(set(names.tolist())) != names.size:
        raise DataError(
            f"The var_names of {where!r} are not unique; call "
            "adata.var_names_make_unique() and save it again."
        )
    samples = np.asarray([str(v) for v in adata.obs_names], dtype=str)
    design = {}
    for option, name in (("groups", groups), ("weights", weights), ("event", event)):
        if name is None:
            continue
        col = split_obs_target(name) or name
        if col not in obs.columns:
            raise DataError(
                f"{design_flag(option)} obs:{col} is not a column of the obs of {where!r} "
                f"(obs columns: {_listing(list(obs.columns)) or 'none'})."
            )
        design[option] = design_column(obs[col], f"{design_flag(option)} obs:{col}", where,
                                       numeric=option == "weights")
    if event is not None:
        y = survival_target(design["event"], y, f"--event {event}", f"--time {target}",
                            where)
    return LoadedData(
        X=X,
        y=y,
        feature_names=names,
        source=source,
        target=target_name,
        format=fmt,
        sample_names=samples,
        layer=layer,
        groups=design.get("groups"),
        sample_weight=design.get("weights"),
    )


def design_column(values: Any, option: str, where: str, *, numeric: bool) -> np.ndarray:
    """A groups or weights column of a table or of an AnnData's obs, checked: no missing
    value, and numbers for weights (one-line errors naming the option)."""
    series = pd.Series(values)
    if series.isna().any():
        raise DataError(f"{option} of {where!r} has {int(series.isna().sum())} missing "
                        "value(s); every sample needs one.")
    if not numeric:
        if isinstance(series.dtype, pd.CategoricalDtype):
            series = series.astype(str)
        return series.to_numpy()
    try:
        return series.to_numpy(dtype=np.float64)
    except (TypeError, ValueError):
        # quote the first value that is not a number, and its row (issue 40)
        parsed = pd.to_numeric(series, errors="coerce")
        i = int(np.flatnonzero(parsed.isna().to_numpy())[0])
        raise DataError(f"{option} of {where!r} must hold numbers (sample weights); row "
                        f"{i + 1} ({series.index[i]!r}) holds {series.iloc[i]!r}.") from None


def read_h5ad(
    path: Path,
    target: Any,
    *,
    layer: str | None = None,
    backed: bool = False,
    unlabelled: bool = False,
    groups: str | None = None,
    weights: str | None = None,
    event: str | None = None,
    sheet: pd.DataFrame | None = None,
    sheet_where: str = "",
    use_raw: bool = False,
) -> Any:
    """Read an ``.h5ad`` file into a LoadedData (see :func:`from_anndata`).

    ``sheet``: the ``--labels`` sample sheet (:func:`read_sample_sheet`); a groups or
    weights column the obs lack and the sheet has is left to the caller (who joins the
    sheet by ``obs_names``): the LoadedData's ``groups`` / ``sample_weight`` are then None.
    """
    anndata = import_anndata()
    where = str(path)
    try:
        adata = anndata.read_h5ad(path, backed="r" if backed else None)
    except Exception as exc:  # h5py and anndata raise many types on a foreign file
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise DataError(f"Cannot read AnnData file {where!r}: {first}") from None
    if sheet is not None:
        found = []
        for option, name in (("groups", groups), ("weights", weights)):
            col = split_obs_target(name)
            if col is None or col in adata.obs.columns:
                found.append(name)
            elif col in sheet.columns:
                found.append(None)  # read from the sheet, by obs_names
            else:
                raise DataError(
                    f"{design_flag(option)} obs:{col} is not a column of the obs of {where!r} "
                    f"(obs columns: {_listing(list(adata.obs.columns)) or 'none'}) nor of "
                    f"the --labels sheet {sheet_where!r} (its columns: "
                    f"{_listing(list(sheet.columns))}).")
        groups, weights = found
    try:
        return from_anndata(
            adata, target, layer=layer, source=where, fmt="h5ad", unlabelled=unlabelled,
            groups=groups, sample_weight=weights, event=event, use_raw=use_raw,
        )
    finally:
        if backed and getattr(adata, "file", None) is not None:
            adata.file.close()


def survival_target(event: Any, time: Any, event_option: str, time_option: str,
                    where: str) -> np.ndarray:
    """The survival target of a table or an AnnData: a structured array of the event
    indicator and the time (scikit-survival's layout), checked with one-line errors that
    name the options: events 0/1 or booleans, times non-negative and present, one event
    at least."""
    from ..outcomes import SURVIVAL_DTYPE

    ev = np.asarray(event)
    if ev.dtype.kind == "b":
        flags = ev.astype(bool)
    else:
        try:
            num = ev.astype(np.float64)
        except (TypeError, ValueError):
            num = np.array([np.nan])
        if not np.isin(num, (0.0, 1.0)).all():
            shown = ", ".join(map(str, pd.unique(pd.Series(ev.astype(str)))[:4]))
            raise DataError(f"{event_option} of {where!r} must hold 0/1 or booleans (1 = the "
                            f"event happened, 0 = censored); it holds {shown}.")
        flags = num.astype(bool)
    try:
        times = np.asarray(time, dtype=np.float64)
    except (TypeError, ValueError):
        raise DataError(f"{time_option} of {where!r} must hold numbers (the times).") from None
    bad = ~np.isfinite(times) | (times < 0)
    if bad.any():
        raise DataError(f"{time_option} of {where!r} must hold non-negative times; "
                        f"{int(bad.sum())} are negative or missing (the first at row "
                        f"{int(np.flatnonzero(bad)[0])}).")
    if not flags.any():
        raise DataError(f"{event_option} of {where!r} records no event: all {flags.size} "
                        "samples are censored, so there is nothing to model.")
    out = np.empty(flags.size, dtype=SURVIVAL_DTYPE)
    out["event"], out["time"] = flags, times
    return out
