"""ARFF export: the same data in WEKA, the workbench the KDD'12, Pes (2019) and PKDD'08
studies ran their selectors in.

:func:`write_arff` writes a data matrix and its classes in WEKA's Attribute-Relation File
Format (Witten, Frank and Hall, *Data Mining*, 3rd ed., 2011, section 2.4), dense or sparse,
with every value written as its shortest exact decimal (``repr``), so WEKA reads the very
numbers modelmine saw: a comparison with WEKA then compares the methods, not the rounding.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from ..validation import param_error

__all__ = ["write_arff"]

_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-]*$")


def _quote(name: str) -> str:
    """An ARFF name or nominal value: bare when plain, else single-quoted with escapes."""
    if _PLAIN.fullmatch(name):
        return name
    escaped = name.replace("\\", "\\\\").replace("'", "\\'")
    escaped = escaped.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")
    return f"'{escaped}'"


def _number(v: float) -> str:
    return "?" if v != v else repr(float(v))


def write_arff(
    path: str | os.PathLike[str],
    X: Any,
    y: Any,
    *,
    feature_names: Sequence[str] | None = None,
    relation: str = "modelmine",
) -> Path:
    """Write ``X`` and its classes ``y`` as an ARFF file that WEKA reads.

    Every feature becomes a ``numeric`` attribute and the classes a last, nominal
    attribute (WEKA's default class attribute), in the order of :func:`numpy.unique` of
    ``y``. Values are written exactly (shortest round-trip decimals), missing values
    (NaN) as ``?``. A sparse matrix is written in WEKA's sparse format (``{index value,
    ...}``, zeros omitted), never densified.

    Parameters
    ----------
    path : str or path-like
        The file to write (overwritten).
    X : array-like of shape (n_samples, n_features) or scipy.sparse matrix
        Numeric data.
    y : array-like of shape (n_samples,)
        Class labels (any hashable values; written as their ``str``).
    feature_names : sequence of str, optional
        Attribute names; default ``f0``, ``f1``, ... (so WEKA's output names a feature by
        its column index).
    relation : str, default="modelmine"
        The ARFF ``@relation`` name.

    Returns
    -------
    pathlib.Path
        The path written.

    Examples
    --------
    >>> import numpy as np, tempfile, pathlib
    >>> from modelmine.datasets import write_arff
    >>> out = write_arff(pathlib.Path(tempfile.mkdtemp()) / "d.arff",
    ...                  np.array([[0.5, 1.0], [2.0, 0.0]]), ["a", "b"])
    >>> print(out.read_text())
    @relation modelmine
    @attribute f0 numeric
    @attribute f1 numeric
    @attribute class {a,b}
    @data
    0.5,1.0,a
    2.0,0.0,b
    <BLANKLINE>
    """
    if not sp.issparse(X):
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2:
            raise param_error("X", "write_arff", "a 2-d array", f"shape {X.shape}", show=False)
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise param_error("y", "write_arff", f"a 1-d array of {X.shape[0]} labels (one per "
                          "row of X)", f"shape {y.shape}", show=False)
    p = X.shape[1]
    if feature_names is None:
        names = [f"f{j}" for j in range(p)]
    else:
        names = [str(n) for n in feature_names]
        if len(names) != p or len(set(names)) != p:
            raise param_error("feature_names", "write_arff", f"{p} distinct names (one per "
                              "column of X)", f"{len(names)} names, {len(set(names))} distinct",
                              show=False)
    classes, codes = np.unique(y.astype(str), return_inverse=True)
    labels = [_quote(str(c)) for c in classes]
    class_name = "class"
    while class_name in names:
        class_name = "_" + class_name
    lines = [f"@relation {_quote(relation)}"]
    lines += [f"@attribute {_quote(n)} numeric" for n in names]
    lines.append(f"@attribute {class_name} {{{','.join(labels)}}}")
    lines.append("@data")
    if sp.issparse(X):
        csr = sp.csr_matrix(X, dtype=np.float64)
        csr.sum_duplicates()
        for i in range(csr.shape[0]):
            lo, hi = csr.indptr[i], csr.indptr[i + 1]
            cells = [f"{j} {_number(v)}" for j, v in zip(csr.indices[lo:hi], csr.data[lo:hi])
                     if v != 0]
            cells.append(f"{p} {labels[codes[i]]}")
            lines.append("{" + ",".join(cells) + "}")
    else:
        for row, c in zip(X, codes):
            lines.append(",".join(_number(v) for v in row) + f",{labels[c]}")
    out = Path(path)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out
