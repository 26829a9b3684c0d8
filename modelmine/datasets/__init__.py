"""Real datasets embedded in modelmine: colon, leukemia, prostate (microarrays), basehock (text).

See ``modelmine/datasets/data/PROVENANCE.md`` for where each comes from.
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

__all__ = [
    "DatasetInfo",
    "available",
    "load",
    "load_basehock",
    "load_colon",
    "load_leukemia",
    "load_prostate",
]
