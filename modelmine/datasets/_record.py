"""LoadedData: a dataset read from disk, with where it came from and how it was read.

What :func:`modelmine.datasets.read_data` returns and every later stage accepts as it is
(:func:`modelmine.run`, :func:`modelmine.bootstrap`): X, y and the feature names, with the
record a run keeps of its data (source, format, target, sample IDs, layer, label file, read
options).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["LoadedData"]


@dataclass(frozen=True)
class LoadedData:
    """A dataset read from disk: X (ndarray or CSR), y, feature names and provenance.

    Attributes
    ----------
    X : ndarray of float64 or scipy.sparse CSR matrix, shape (n_samples, n_features_in)
    y : ndarray of shape (n_samples,)
        Class labels as in the file.
    feature_names : ndarray of str, shape (n_features,)
    source : str
        The path (or ``embedded:NAME``) read.
    target : str
        The target column (or the ``.mat`` key) the labels came from.
    format : str
        ``"csv"``, ``"tsv"``, ``"parquet"``, ``"mat"``, ``"h5ad"``, ``"anndata"`` or
        ``"embedded"``.
    sample_names : ndarray of str or None
        The sample IDs (an ID column, the headers of a transposed table, ``obs_names``),
        when the data has them.
    notes : tuple of str
        What the reader decided on its own (an ID column detected, samples without a label
        left out), for the CLI to show.
    layer : str or None
        The AnnData layer X came from (None: ``.X``).
    labels : str or None
        The separate label file the labels were joined from, by sample ID.
    read_options : mapping
        The keyword arguments of :func:`read_data` beyond ``source`` and ``target`` that
        read it (recorded by a run, so that ``--resume`` reads the data the same way).
    groups : ndarray or None
        The group of each sample (``read_data(groups=COLUMN)``): resampled whole by
        :func:`modelmine.run`.
    sample_weight : ndarray of float64 or None
        The weight of each sample (``read_data(sample_weight=COLUMN)``).
    covariates : DataFrame or None
        The clinical covariates of each sample (``read_data(covariates=[COLUMN, ...])``),
        as read (text kept): :func:`modelmine.run` adjusts for them.
    modalities : tuple of (str, int)
        Multi-omic data (a MuData, or tables joined by sample ID): each modality's name and
        number of features, in column order; its features are named
        ``"MODALITY:FEATURE"`` (:func:`modelmine.datasets.from_mudata`). Empty otherwise.
    """

    X: Any
    y: np.ndarray
    feature_names: np.ndarray
    source: str
    target: str
    format: str
    sample_names: np.ndarray | None = None
    notes: tuple[str, ...] = ()
    layer: str | None = None
    labels: str | None = None
    read_options: Mapping[str, Any] = field(default_factory=dict)
    groups: np.ndarray | None = None
    sample_weight: np.ndarray | None = None
    covariates: Any = None
    modalities: tuple[tuple[str, int], ...] = ()

    @property
    def shape(self) -> tuple[int, int]:
        return (int(self.X.shape[0]), int(self.X.shape[1]))
