"""Base feature models: b fits of one selector on resamples of the data (KDD 2012, s. 2-3)."""

from ._base_models import BaseModels, data_fingerprint
from ._bootstrap import (
    add_artificial_features,
    bootstrap,
    complementary_pair,
    resample_indices,
    resume,
    seed_sequence,
)
from ._rundir import RunDirectory, RunDirectoryError

__all__ = [
    "BaseModels",
    "RunDirectory",
    "RunDirectoryError",
    "add_artificial_features",
    "bootstrap",
    "complementary_pair",
    "data_fingerprint",
    "resample_indices",
    "resume",
    "seed_sequence",
]
