"""Loaders for the real datasets embedded in modelmine.

The files under ``modelmine/datasets/data`` are lossless, compressed copies of the MATLAB
files of the scikit-feature repository (Arizona State University); see ``PROVENANCE.md``
beside them for the origin, the publications and the sha256 of each source file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp

from .._utils import positional_names
from ..exceptions import DataError, DatasetNotFoundError
from ..validation import check_choice, param_error
from ._matlab import read_mat

__all__ = [
    "DatasetInfo",
    "available",
    "load",
    "load_basehock",
    "load_colon",
    "load_leukemia",
    "load_prostate",
    "shared_path",
]

#: Datasets of the project's ``shared/datasets`` folder that are not embedded (too large for
#: the package), by name: the scikit-feature MATLAB files the reproduction scripts use.
SHARED_FILES = {"pcmac": "PCMAC.mat", "madelon": "madelon.mat"}

#: Environment variable naming the folder of :data:`SHARED_FILES`.
DATA_HOME_ENV = "MODELMINE_DATA_HOME"

#: The values of :func:`load`'s ``scale`` besides None.
SCALES = ("minmax",)


@dataclass(frozen=True)
class DatasetInfo:
    """What one embedded dataset is, and where it comes from."""

    name: str
    description: str
    n_samples: int
    n_features_in: int
    classes: dict[int, int]
    sparse: bool
    reference: str
    #: What each code of the source file means (``load(..., class_names=True)``).
    class_names: dict[int, str] = field(default_factory=dict)


_INFO: dict[str, DatasetInfo] = {
    "colon": DatasetInfo(
        "colon", "colon tumour vs normal tissue, Affymetrix microarray (discretised values -2..2)",
        62, 2000, {-1: 40, 1: 22}, False,
        "Alon et al., PNAS 96 (1999); 'colon' in Woznica et al. KDD 2012 and Saeys et al. "
        "PKDD 2008", {-1: "tumour", 1: "normal"},
    ),
    "leukemia": DatasetInfo(
        "leukemia", "ALL vs AML leukaemia, Affymetrix Hu6800 (standardised expression)",
        72, 7129, {1: 47, 2: 25}, False,
        "Golub et al., Science 286 (1999); 'leukemia' in KDD 2012 (Tables 1, 4) and PKDD 2008",
        {1: "ALL", 2: "AML"},
    ),
    "prostate": DatasetInfo(
        "prostate", "prostate tumour vs normal tissue, microarray",
        102, 5966, {1: 50, 2: 52}, False, "Singh et al., Cancer Cell 1 (2002)",
        {1: "normal", 2: "tumour"},
    ),
    "basehock": DatasetInfo(
        "basehock", "20 Newsgroups, baseball vs hockey posts, word counts (sparse)",
        1993, 4862, {1: 994, 2: 999}, True,
        "20 Newsgroups (Lang, 1995), as redistributed by scikit-feature",
        {1: "baseball", 2: "hockey"},
    ),
}


def available() -> pd.DataFrame:
    """List the embedded datasets with their sizes, classes and references."""
    rows = [
        {
            "name": i.name, "samples": i.n_samples, "features": i.n_features_in,
            "classes": ", ".join(f"{i.class_names[k]} ({k}): {v}"
                                 for k, v in i.classes.items()),
            "sparse": i.sparse, "description": i.description, "reference": i.reference,
        }
        for i in _INFO.values()
    ]
    return pd.DataFrame(rows).set_index("name")


def shared_path(name: str, data_home: str | os.PathLike[str] | None = None) -> Path:
    """Where a dataset of the project's shared folder (:data:`SHARED_FILES`) is.

    Parameters
    ----------
    name : {'pcmac', 'madelon'}
        The dataset.
    data_home : path, optional
        The folder holding the files. By default the environment variable
        ``MODELMINE_DATA_HOME``, else ``shared/datasets`` beside the source checkout (the
        layout of the project's repositories).

    Returns
    -------
    pathlib.Path
        The file, which exists.

    Raises
    ------
    DatasetNotFoundError
        A ``FileNotFoundError`` naming the folders looked in, when the file is in none.
    """
    name = check_choice(name, "name", "modelmine.datasets.shared_path", list(SHARED_FILES))
    if data_home is None:
        env = os.environ.get(DATA_HOME_ENV)
        candidates = [Path(env)] if env else []
        candidates.append(Path(__file__).resolve().parents[3] / "shared" / "datasets")
    else:
        candidates = [Path(data_home)]
    for folder in candidates:
        path = folder / SHARED_FILES[name]
        if path.is_file():
            return path
    where = ", ".join(str(c) for c in candidates)
    raise DatasetNotFoundError(
        f"The dataset {name!r} is not embedded in modelmine: its file "
        f"{SHARED_FILES[name]!r} was looked for in {where} and not found. Pass "
        f"data_home=FOLDER or set {DATA_HOME_ENV}."
    )


def _minmax_scale(X: Any) -> Any:
    """Map each column of ``X`` to [0, 1], as WEKA's SMO normalises its attributes.

    ``(x - min) / (max - min)`` per column, what WEKA's SMO (and IBk) apply to every
    attribute by default; a constant column becomes 0. Pes (2019, Section 4.1) and Woznica
    et al. (KDD 2012, Section 3.3) ran their SVMs in WEKA.

    Parameters
    ----------
    X : ndarray or scipy.sparse matrix of shape (n_samples, n_features_in)
        The data. A sparse matrix stays sparse: each column's implicit zeros must stay 0,
        so its minimum must be 0 (counts: the column is divided by its maximum) unless it
        has no implicit zeros (a word in every document); the entries that become 0 are no
        longer stored.

    Returns
    -------
    ndarray of float64, or scipy.sparse CSR matrix of float64
        The scaled data, a new array (``X`` is not modified).

    Raises
    ------
    DataError
        If ``X`` is sparse and a column has negative values beside implicit zeros (scaling
        would make those zeros non-zero): densify it first (``X.toarray()``) to scale it.
    """
    if sp.issparse(X):
        X = sp.csr_matrix(X, dtype=np.float64, copy=True)
        lo = X.min(axis=0).toarray().ravel()  # the implicit zeros included
        # an implicit zero stays 0 when its column's minimum is 0; a column whose minimum is
        # not 0 is either full (minimum > 0: all its entries are stored) or has negative
        # values beside implicit zeros, which would all become non-zero
        full = np.bincount(X.indices, minlength=X.shape[1]) == X.shape[0]
        bad = np.flatnonzero((lo != 0) & ~full)
        if bad.size:
            raise DataError(
                f"Min-max scaling keeps a sparse matrix sparse only when every column's "
                f"minimum is 0 (counts) or the column has no implicit zeros; {bad.size} "
                f"column(s) have negative values beside implicit zeros (column {bad[0]}: "
                f"minimum {lo[bad[0]]:g}). Densify the data first (X.toarray()) to scale it."
            )
        span = X.max(axis=0).toarray().ravel() - lo
        X.data = (X.data - lo[X.indices]) / np.where(span > 0, span, 1.0)[X.indices]
        X.eliminate_zeros()  # the minima of the full columns
        return X
    X = np.asarray(X, dtype=np.float64)
    lo = X.min(axis=0)
    span = X.max(axis=0) - lo
    return (X - lo) / np.where(span > 0, span, 1.0)


def load(
    name: str, *, return_names: bool = False, as_frame: bool = False, min_df: int = 1,
    scale: str | None = None, data_home: str | os.PathLike[str] | None = None,
    class_names: bool = False,
) -> Any:
    """Load a real dataset by name: the embedded ones, and PCMAC and madelon from a folder.

    Parameters
    ----------
    name : {'colon', 'leukemia', 'prostate', 'basehock', 'pcmac', 'madelon'}
        Which dataset; :func:`available` describes the embedded ones. ``'pcmac'`` (1943 x
        3289 word counts, ibm.pc vs mac.hardware newsgroups) and ``'madelon'`` (2600 x 500,
        Guyon's NIPS 2003 challenge; features 1-20 relevant) are read from the
        scikit-feature ``.mat`` files in ``data_home`` (see :func:`shared_path`).
    return_names : bool, default=False
        Also return the feature names. The source files carry none, so these are the
        columns' positions, ``x0``, ``x1``, ... (0-based, as ``X[:, j]``): the names
        :func:`modelmine.bootstrap`, :func:`modelmine.run` and ``modelmine run
        embedded:NAME`` give the same columns, so that a column has one name at every door.
    as_frame : bool, default=False
        Return ``X`` as a :class:`pandas.DataFrame` whose columns are the feature names and
        ``y`` as a :class:`pandas.Series` named ``"class"``. Not available for the sparse
        text data, which would be densified.
    min_df : int, default=1
        For the text data (basehock, pcmac): keep only the words that occur in at least
        ``min_df`` documents, the usual unsupervised removal of rare terms (the KDD'12
        reproduction uses 20). Must be 1 for the other datasets.
    scale : {None, 'minmax'}, default=None
        None returns the values of the source file. ``'minmax'`` maps each column to
        [0, 1], ``(x - min) / (max - min)``, as WEKA's SMO normalises its attributes (Pes
        2019, Section 4.1, and Woznica et al., KDD 2012, Section 3.3, used WEKA): constant
        columns become 0, and the sparse text data stay sparse (a column of counts with
        zeros is divided by its maximum; sparse data with negative values beside implicit
        zeros raise a :class:`~modelmine.exceptions.DataError`). Applied after ``min_df``.
    data_home : path, optional
        Folder of the shared files (only for ``'pcmac'`` and ``'madelon'``).
    class_names : bool, default=False
        Return ``y`` as the class names of the embedded datasets (colon: ``"tumour"`` /
        ``"normal"``; leukemia: ``"ALL"`` / ``"AML"``; prostate: ``"normal"`` /
        ``"tumour"``; basehock: ``"baseball"`` / ``"hockey"``: :func:`available` lists
        each code's name) instead of the source file's codes, as ``modelmine run
        embedded:NAME`` and ``read_data("embedded:NAME")`` do. The codes order the classes
        numerically, the names alphabetically (colon's first class is then "normal").

    Returns
    -------
    X : ndarray of shape (n_samples, n_features_in), DataFrame, or scipy.sparse CSR matrix
        The data, as float64 (colon keeps its small integer values exactly).
    y : ndarray of shape (n_samples,) or Series
        Class labels in the source encoding (-1/1 or 1/2): modelmine never assumes one;
        with ``class_names``, the classes' names.
    names : ndarray of str, only if ``return_names``
    """
    name = check_choice(name, "name", "modelmine.datasets.load",
                        list(_INFO) + list(SHARED_FILES))
    if isinstance(min_df, bool) or not isinstance(min_df, (int, np.integer)) or min_df < 1:
        raise ValueError(
            f"The 'min_df' parameter of modelmine.datasets.load must be an int >= 1. "
            f"Got {min_df!r} instead."
        )
    if min_df > 1 and name not in ("basehock", "pcmac"):
        raise ValueError(
            f"The 'min_df' parameter of modelmine.datasets.load applies to the text data "
            f"('basehock', 'pcmac') only. Got min_df={min_df} for {name!r}."
        )
    check_choice(scale, "scale", "modelmine.datasets.load", SCALES, allow_none=True)
    if class_names and name not in _INFO:
        raise param_error("class_names", "modelmine.datasets.load",
                          f"False for {name!r}, whose file does not name its classes (the "
                          f"embedded datasets do: {', '.join(map(repr, _INFO))})", class_names)
    if name in SHARED_FILES:
        data = read_mat(shared_path(name, data_home), None)
        X: Any = data.X
        y: Any = np.asarray(data.y)
        names = np.asarray(data.feature_names)  # positions, as the embedded datasets'

        sparse = sp.issparse(X)
    else:
        info = _INFO[name]
        source = resources.files(__package__).joinpath("data", f"{name}.npz")
        with source.open("rb") as fh, np.load(fh, allow_pickle=False) as arch:
            y = arch["y"].astype(np.int64)
            if info.sparse:
                X = sp.csr_matrix(
                    (arch["data"].astype(np.float64), arch["indices"], arch["indptr"]),
                    shape=tuple(arch["shape"]),
                )
            else:
                X = arch["X"].astype(np.float64)
        names = positional_names(info.n_features_in)
        sparse = info.sparse
        if class_names:
            y = np.array([info.class_names[int(c)] for c in y])
    if min_df > 1:
        df = np.asarray((X != 0).sum(axis=0)).ravel()
        keep = np.flatnonzero(df >= min_df)
        X, names = X[:, keep], names[keep]
    if scale == "minmax":
        X = _minmax_scale(X)
    if as_frame:
        if sparse:
            raise ValueError(
                f"The 'as_frame' parameter of modelmine.datasets.load must be False for the "
                f"sparse dataset {name!r}. Got True instead."
            )
        X = pd.DataFrame(X, columns=names)
        y = pd.Series(y, name="class")
    return (X, y, names) if return_names else (X, y)


def load_colon(*, return_names: bool = False, as_frame: bool = False,
               class_names: bool = False) -> Any:
    """Colon tumour vs normal tissue (62 x 2000), Alon et al. 1999.

    The "colon" dataset of Woznica et al. (KDD 2012, Table 1) and Saeys et al.
    (PKDD 2008, Table 1): 40 tumours (code -1) and 22 normal tissues (code 1). See
    :func:`load` for the parameters and returns.
    """
    return load("colon", return_names=return_names, as_frame=as_frame,
                class_names=class_names)


def load_leukemia(*, return_names: bool = False, as_frame: bool = False,
                  class_names: bool = False) -> Any:
    """ALL vs AML leukaemia (72 x 7129), Golub et al. 1999.

    The "leukemia" dataset of Woznica et al. (KDD 2012, Tables 1 and 4) and Saeys et al.
    (PKDD 2008): 47 ALL (code 1) and 25 AML (code 2). See :func:`load` for the
    parameters and returns.
    """
    return load("leukemia", return_names=return_names, as_frame=as_frame,
                class_names=class_names)


def load_prostate(*, return_names: bool = False, as_frame: bool = False,
                  class_names: bool = False) -> Any:
    """Prostate tumour vs normal (102 x 5966), Singh et al. 2002: 50 normal (code 1) and
    52 tumours (code 2). See :func:`load`."""
    return load("prostate", return_names=return_names, as_frame=as_frame,
                class_names=class_names)


def load_basehock(*, return_names: bool = False, class_names: bool = False) -> Any:
    """Baseball vs hockey newsgroup posts (1993 x 4862 sparse word counts): 994 baseball
    (code 1) and 999 hockey (code 2) posts, 20 Newsgroups' counts. See :func:`load`."""
    return load("basehock", return_names=return_names, class_names=class_names)
