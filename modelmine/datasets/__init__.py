"""The data stage: embedded real datasets and the readers of users' files.

Embedded: colon, leukemia, prostate (microarrays), basehock (text); see
``modelmine/datasets/data/PROVENANCE.md`` for where each comes from. Files: CSV, TSV,
Parquet and MATLAB ``.mat`` through :func:`read_data`, which returns a :class:`LoadedData`
that :func:`modelmine.run` takes as it is.
"""

from ._loaders import (
    DatasetInfo,
    available,
    load,
    load_basehock,
    load_colon,
    load_leukemia,
    load_prostate,
)
from ._readers import EMBEDDED_PREFIX, LoadedData, read_data

__all__ = [
    "EMBEDDED_PREFIX",
    "DatasetInfo",
    "LoadedData",
    "available",
    "load",
    "load_basehock",
    "load_colon",
    "load_leukemia",
    "load_prostate",
    "read_data",
]
