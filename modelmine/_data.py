"""Validation of a dataset (X, y, feature names) at the door of every public function."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp

from ._utils import positional_names
from .validation import param_error

__all__ = ["CONTAINERS", "Dataset", "check_container", "check_dataset"]

#: What modelmine reads as data, in words (one place: a door that adds a container adds it
#: here and to :func:`check_container`).
CONTAINERS = ("a numpy array (or a list of rows of numbers), a scipy.sparse matrix, a pandas "
              "DataFrame, an AnnData, or multi-omic data (a MuData, or a mapping of modality "
              "names to tables)")
#: What modelmine reads as labels or a target.
TARGETS = ("an array-like of one value per sample (a numpy array, a list, a pandas Series "
           "or Categorical)")


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, bytes, bool, int, float, complex,
                                               np.generic))


def _shallow_rows(values: Any, depth: int) -> bool:
    """Whether a list / tuple holds scalars (depth 1) or rows of scalars (depth 2), so
    that numpy reads it as an array without iterating foreign objects (an object with
    ``__len__`` and ``__getitem__`` is a sequence to numpy, which may recurse into it for
    minutes: a MuData did, issue 50)."""
    for item in values:
        if _is_scalar(item):
            continue
        if depth > 1 and isinstance(item, (list, tuple)):
            if not all(_is_scalar(v) for v in item):
                return False
            continue
        if depth > 1 and isinstance(item, np.ndarray) and item.ndim <= 1:
            continue
        return False
    return True


def _describe_type(value: Any) -> str:
    kind = type(value)
    module = kind.__module__.split(".")[0]
    name = kind.__qualname__ if module == "builtins" else f"{module}.{kind.__qualname__}"
    article = "an" if name[:1].lower() in "aeiou" else "a"
    return f"{article} {name}"


def _offending(values: Any, depth: int) -> Any:
    """The first item of a list / tuple that :func:`_shallow_rows` does not accept."""
    for item in values:
        if _is_scalar(item) or (depth > 1 and isinstance(item, np.ndarray) and item.ndim <= 1):
            continue
        if depth > 1 and isinstance(item, (list, tuple)):
            inner = next((v for v in item if not _is_scalar(v)), None)
            if inner is not None:
                return inner
            continue
        return item
    return None


def check_container(value: Any, name: str, func: str, *, target: bool = False,
                    loaded: bool = False) -> None:
    """Refuse, before any work, data in a container modelmine does not read, naming what it
    reads (issue 50: a MuData was iterated by numpy for minutes, past 3 GiB).

    ``name`` is the parameter (``"X"`` or ``"y"``); ``target``: labels (one value per
    sample; a string names an AnnData's obs column and is checked where it is read).
    Accepted: numpy arrays, scipy.sparse matrices, pandas DataFrames (Series, Index and
    Categorical as labels), AnnData, MuData and mappings of modality names to tables
    (checked block by block where they are read), objects that give numpy an array
    (``__array__``, ``__array_interface__``: other array libraries), and lists / tuples of
    scalars or of rows of scalars. ``loaded``: the door takes a LoadedData too (named in the
    message).
    """
    from .datasets._biodata import is_anndata
    from .datasets._multiomic import is_modality_mapping, is_mudata

    if (isinstance(value, np.ndarray) or sp.issparse(value)
            or isinstance(value, (pd.DataFrame, pd.Series, pd.Index, pd.Categorical))
            or is_anndata(value)):
        return
    if hasattr(value, "__array__") or hasattr(value, "__array_interface__"):
        try:  # another array library's object: it must give numpy an array
            np.asarray(value)
        except Exception as exc:  # any library's own failure, named
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            raise param_error(name, func, TARGETS if target else CONTAINERS,
                              f"{_describe_type(value)} that numpy cannot read as an array "
                              f"({type(exc).__name__}{': ' + first if first else ''})",
                              exc=TypeError, show=False) from None
        return
    if not target and is_modality_mapping(value):
        _check_modality_mapping(value, name, func)
        return  # read block by block (datasets.from_modalities)
    if not target and is_mudata(value):
        return  # read block by block (datasets.from_mudata)
    if target and isinstance(value, str):
        return
    if isinstance(value, (list, tuple)) and _shallow_rows(value, 1 if target else 2):
        if not target:
            _check_equal_rows(value, name, func)
        return
    what = TARGETS if target else CONTAINERS + (
        ", or the LoadedData of modelmine.datasets.read_data" if loaded else "")
    given = _describe_type(value)
    if isinstance(value, (list, tuple)):
        given += f" holding {_describe_type(_offending(value, 1 if target else 2))}"
    hint = None
    if type(value).__name__ == "LoadedData":
        hint = "Pass its X and y, or the LoadedData itself to modelmine.run."
    elif isinstance(value, (str, os.PathLike)) and not target:
        hint = "Read a file with modelmine.datasets.read_data first."
    raise param_error(name, func, what, given, exc=TypeError, show=False, hint=hint)


def _check_equal_rows(value: list[Any] | tuple[Any, ...], name: str, func: str) -> None:
    """Rows of one length (numpy raised its own "inhomogeneous shape" error on a ragged
    list of rows, naming no parameter)."""
    sizes = sorted({len(row) if isinstance(row, (list, tuple, np.ndarray)) else -1
                    for row in value})
    if len(sizes) > 1:
        lengths = " or ".join(str(s) for s in sizes if s >= 0)
        raise param_error(name, func, "rows of one length (one value per feature)",
                          f"a {type(value).__name__} whose rows hold {lengths} values"
                          + (", beside scalars" if sizes[0] < 0 else ""), show=False)


def _check_modality_mapping(value: Any, name: str, func: str) -> None:
    """A mapping of modality names to tables, checked as a container: at least one
    modality, each named by non-empty text without the separator and holding a table
    (its values are checked where the blocks are read)."""
    from .datasets._biodata import is_anndata
    from .datasets._multiomic import MODALITY_SEPARATOR
    from .datasets._record import LoadedData

    what = ("a mapping of modality names to tables (pandas DataFrames indexed by sample "
            "ID, AnnData or LoadedData)")
    if not value:
        raise param_error(name, func, what, "an empty mapping", show=False)
    for key, table in value.items():
        if not isinstance(key, str) or not key or MODALITY_SEPARATOR in key:
            raise param_error(name, func, f"{what}, each name non-empty text without "
                              f"{MODALITY_SEPARATOR!r}", f"the name {key!r}", show=False)
        if not (isinstance(table, pd.DataFrame | LoadedData) or is_anndata(table)):
            raise param_error(name, func, what, f"modality {key!r} as "
                              f"{_describe_type(table)}", exc=TypeError, show=False)


@dataclass(frozen=True)
class Dataset:
    """Clean data: X as float64 ndarray or CSR, y as class codes 0..K-1, names, classes."""

    X: Any
    y: np.ndarray
    classes: np.ndarray
    feature_names: np.ndarray
    #: The outcome the selectors fit when it is not the classes (regression values, or
    #: the survival structured array); ``y`` and ``classes`` are then its strata.
    target: Any = None
    #: Multi-omic data: each modality's name and number of features, in column order
    #: (:attr:`modelmine.datasets.LoadedData.modalities`); empty for one block.
    modalities: tuple[tuple[str, int], ...] = ()

    @property
    def n_samples(self) -> int:
        return int(self.X.shape[0])

    @property
    def n_features_in(self) -> int:
        return int(self.X.shape[1])


def check_dataset(
    X: Any, y: Any, *, func: str, feature_names: Any = None, min_classes: int = 2,
    sparse_dtype: Any = np.float64, modalities: Any = (),
) -> Dataset:
    """Validate and normalise a classification dataset.

    Parameters
    ----------
    X : array-like, pandas DataFrame, scipy.sparse matrix or AnnData, (n_samples, n_features_in)
        Numeric; NaN and inf are refused. DataFrame column names (an AnnData's
        ``var_names``) become feature names. Sparse input stays sparse (CSR), never
        densified.
    y : array-like of shape (n_samples,), or "obs:COLUMN" for an AnnData
        Class labels in any encoding (-1/1, 1/2, strings).
    func : str
        The public function validating, for error messages.
    feature_names : sequence of str, optional
        Overrides the names; default: DataFrame columns, else ``x0``, ``x1``, ...
    min_classes : int, default=2
    sparse_dtype : numpy dtype, default=float64
        The dtype of a sparse X (float32 halves an atlas's memory; single-cell panels keep
        a float32 matrix float32, see :func:`modelmine.singlecell.marker_panels`).
    modalities : sequence of (str, int), optional
        The modality blocks of multi-omic data, in column order (a MuData or a mapping of
        tables brings its own: :func:`modelmine.datasets.from_mudata`).
    """
    names = None
    from .datasets._biodata import from_anndata, is_anndata
    from .datasets._multiomic import (
        check_modalities,
        from_modalities,
        from_mudata,
        is_modality_mapping,
        is_mudata,
    )

    check_container(X, "X", func)
    check_container(y, "y", func, target=True)
    if is_anndata(X):  # observations = samples, var_names = feature names
        loaded = from_anndata(X, y)
        X, y = loaded.X, loaded.y
        feature_names = loaded.feature_names if feature_names is None else feature_names
    elif is_mudata(X) or is_modality_mapping(X):  # the blocks joined by sample ID
        loaded = (from_mudata if is_mudata(X) else from_modalities)(
            X, y, sparse_dtype=sparse_dtype)
        X, y, modalities = loaded.X, loaded.y, loaded.modalities
        feature_names = loaded.feature_names if feature_names is None else feature_names
    if isinstance(X, pd.DataFrame):
        bad = [c for c in X.columns if not pd.api.types.is_numeric_dtype(X[c])]
        if bad:
            shown = ", ".join(map(str, bad[:5])) + (" ..." if len(bad) > 5 else "")
            raise param_error("X", func, "numeric", f"non-numeric column(s) {shown}",
                              exc=TypeError, show=False)
        names = np.array([str(c) for c in X.columns])
        X = X.to_numpy(dtype=np.float64)
    elif sp.issparse(X):
        if not np.issubdtype(X.dtype, np.number) and X.dtype != bool:
            raise param_error("X", func, "a numeric matrix", f"a sparse matrix of dtype "
                              f"{X.dtype}", exc=TypeError, show=False)
        X = sp.csr_matrix(X, dtype=sparse_dtype)
        X.sum_duplicates()
        if not np.all(np.isfinite(X.data)):
            raise param_error("X", func, "free of NaN and infinite values",
                              f"{int((~np.isfinite(X.data)).sum())} non-finite value(s)",
                              show=False)
    else:
        arr = np.asarray(X)
        if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number)
                                       or arr.dtype == bool):
            raise param_error("X", func, "a numeric array", f"an array of dtype {arr.dtype}",
                              exc=TypeError, show=False)
        X = arr.astype(np.float64)
    if not sp.issparse(X):
        if X.ndim != 2:
            raise param_error("X", func, "a 2-D array (n_samples, n_features_in)",
                              f"an array with {X.ndim} dimension(s)", show=False)
        if not np.all(np.isfinite(X)):
            nan = int(np.isnan(X).sum())
            inf = int(np.isinf(X).sum())
            raise param_error("X", func, "free of NaN and infinite values",
                              f"{nan} NaN and {inf} infinite value(s)", show=False)
    n, p = X.shape
    if n < 2 or p < 1:
        raise param_error("X", func, "at least 2 samples and 1 feature",
                          f"shape {X.shape}", show=False)

    y_arr = y.to_numpy() if isinstance(y, pd.Series | pd.DataFrame) else np.asarray(y)
    if y_arr.ndim == 2 and y_arr.shape[1] == 1:
        y_arr = y_arr.ravel()
    if y_arr.ndim != 1:
        raise param_error("y", func, "a 1-D array of class labels",
                          f"an array of shape {y_arr.shape}", show=False)
    if y_arr.shape[0] != n:
        raise param_error("y", func, f"of length {n} (the number of rows of X)",
                          f"length {y_arr.shape[0]}", show=False)
    if y_arr.dtype.kind == "f" and not np.all(np.isfinite(y_arr)):
        raise param_error("y", func, "free of NaN", "NaN labels", show=False)
    if y_arr.dtype == object and any(v is None for v in y_arr):
        raise param_error("y", func, "free of missing labels", "None labels", show=False)
    try:
        classes, codes = np.unique(y_arr, return_inverse=True)
    except TypeError:  # labels that cannot be ordered: strings mixed with numbers
        kinds = sorted({type(v).__name__ for v in y_arr.tolist()})
        raise param_error("y", func, "class labels of one type (all strings or all numbers)",
                          f"a mix of {', '.join(kinds)}", exc=TypeError, show=False) from None
    if classes.size < min_classes:
        raise param_error("y", func, f"labels of at least {min_classes} classes",
                          f"a single class {classes.tolist()!r}", show=False)

    if feature_names is not None:
        names = np.array([str(v) for v in feature_names])
        if names.shape != (p,):
            raise param_error("feature_names", func, f"{p} names (one per column of X)",
                              f"{names.size} names", show=False)
    if names is None:
        names = positional_names(p)
    if len(set(names.tolist())) != p:
        raise param_error("feature_names", func, "unique", "duplicated names", show=False)
    blocks = check_modalities(modalities, p) if modalities else ()
    return Dataset(X=X, y=codes.astype(np.int64), classes=classes, feature_names=names,
                   modalities=blocks)
