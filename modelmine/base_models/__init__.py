"""Base feature models: b fits of one selector on resamples of the data (KDD 2012, s. 2-3)."""

from ._base_models import BaseModels, data_fingerprint
from ._bootstrap import bootstrap, resample_indices, seed_sequence

__all__ = ["BaseModels", "bootstrap", "data_fingerprint", "resample_indices", "seed_sequence"]
