"""MATLAB ``.mat`` files (v7 and earlier) as the scikit-feature repository ships them.

An ``X`` matrix (dense or sparse) and a label vector ``Y``; the format of the shared
datasets (colon, leukemia, prostate, BASEHOCK, PCMAC, madelon).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from .._utils import positional_names
from ..exceptions import DataError
from ._record import LoadedData

__all__ = ["read_mat"]


def read_mat(path: Path, target: str | None) -> LoadedData:
    """Read ``X`` and the labels (``Y``, or the key ``target``) of a ``.mat`` file.

    Feature names are positions, ``x0 .. x{p-1}`` (the files have none), as for an
    array without names. A v7.3 (HDF5) file, a missing
    key, complex or non-numeric values, or labels of the wrong shape are a one-line
    :class:`~modelmine.exceptions.DataError`.
    """
    from scipy.io import loadmat

    where = str(path)
    try:
        content = loadmat(path)
    except NotImplementedError:
        raise DataError(f"{where!r} is a MATLAB v7.3 (HDF5) file; save it with "
                        "-v7 or earlier, or convert it to Parquet.") from None
    except Exception as exc:  # scipy raises many types on a corrupt file
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise DataError(f"Cannot read MATLAB file {where!r}: {first}") from None
    keys = [k for k in content if not k.startswith("__")]
    x_key = next((k for k in keys if k in ("X", "x")), None)
    y_key = target if target is not None else next((k for k in keys if k in ("Y", "y")), None)
    if x_key is None:
        raise DataError(f"MATLAB file {where!r} has no 'X' matrix (keys: {_listing(keys)}).")
    if y_key is None or y_key not in content:
        shown = "labels" if y_key is None else f"key {y_key!r}"
        raise DataError(f"MATLAB file {where!r} has no {shown} for the classes "
                        f"(keys: {_listing(keys)}).")
    X = content[x_key]
    if np.iscomplexobj(X.data if sp.issparse(X) else np.asarray(X)):
        raise DataError(f"'X' of {where!r} holds complex numbers; modelmine needs real "
                        "features (save the real part, the modulus or both as columns).")
    if sp.issparse(X):
        X = sp.csr_matrix(X, dtype=np.float64)
    else:
        X = np.asarray(X)
        if X.ndim != 2 or not (np.issubdtype(X.dtype, np.number) or X.dtype == bool):
            raise DataError(f"'X' of {where!r} is not a numeric matrix "
                            f"(shape {X.shape}, dtype {X.dtype}).")
        X = X.astype(np.float64)
    y = content[y_key]
    y = np.asarray(y.toarray() if sp.issparse(y) else y)
    if y.ndim == 2 and 1 in y.shape:
        y = y.ravel()
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise DataError(f"Labels {y_key!r} of {where!r} have shape {y.shape}; expected "
                        f"({X.shape[0]},), one per row of X.")
    if y.dtype.kind == "U":  # a MATLAB char matrix pads its shorter rows with spaces
        y = np.char.rstrip(y)
    return LoadedData(X=X, y=y, feature_names=positional_names(X.shape[1]), source=where,
                      target=str(y_key), format="mat")


def _listing(items: list[Any], limit: int = 8) -> str:
    shown = ", ".join(repr(str(i)) for i in items[:limit])
    return shown + (f", ... ({len(items)} in all)" if len(items) > limit else "")
