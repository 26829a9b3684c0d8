"""The data stage: embedded real datasets and the readers of users' files.

Embedded: colon, leukemia, prostate (microarrays), basehock (text); see
``modelmine/datasets/data/PROVENANCE.md`` for where each comes from. Files: CSV, TSV,
Parquet, MATLAB ``.mat`` and AnnData ``.h5ad`` through :func:`read_data` (with sample-ID
columns, genes-by-samples tables and labels in a separate file), and in-memory AnnData
objects through :func:`from_anndata`; both return a :class:`LoadedData` that
:func:`modelmine.run` takes as it is. :func:`write_arff` writes data for WEKA.
"""

from ._arff import write_arff
from ._biodata import ManyClassesWarning, check_target, from_anndata
from ._loaders import (
    SHARED_FILES,
    DatasetInfo,
    available,
    load,
    load_basehock,
    load_colon,
    load_leukemia,
    load_prostate,
    shared_path,
)
from ._readers import EMBEDDED_PREFIX, LoadedData, MetadataColumnsWarning, read_data

__all__ = [
    "EMBEDDED_PREFIX",
    "SHARED_FILES",
    "DatasetInfo",
    "LoadedData",
    "ManyClassesWarning",
    "MetadataColumnsWarning",
    "available",
    "check_target",
    "from_anndata",
    "load",
    "load_basehock",
    "load_colon",
    "load_leukemia",
    "load_prostate",
    "read_data",
    "shared_path",
    "write_arff",
]
