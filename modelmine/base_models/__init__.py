"""Base feature models: b fits of one selector on resamples of the data (KDD 2012, s. 2-3)."""

from ._artificial import add_artificial_features
from ._base_models import BaseModels, data_fingerprint
from ._bootstrap import bootstrap, fit_base_models, fit_class_models, resume
from ._checks import CheckedRun, check_run_data, estimate_memory
from ._resampling import complementary_pair, resample_indices, seed_sequence
from ._rundir import RunDirectory, RunDirectoryError

__all__ = [
    "BaseModels",
    "CheckedRun",
    "RunDirectory",
    "RunDirectoryError",
    "add_artificial_features",
    "bootstrap",
    "check_run_data",
    "complementary_pair",
    "data_fingerprint",
    "estimate_memory",
    "fit_base_models",
    "fit_class_models",
    "resample_indices",
    "resume",
    "seed_sequence",
]
