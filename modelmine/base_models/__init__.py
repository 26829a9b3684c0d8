"""Base feature models: b fits of one selector on resamples of the data (KDD 2012, s. 2-3)."""

from ._artificial import add_artificial_features  # noqa: F401 (internal)
from ._base_models import (
    BaseModels,
    data_fingerprint,  # noqa: F401 (internal)
    equal_scores_statement,  # noqa: F401 (internal)
)
from ._bootstrap import (
    bootstrap,
    fit_base_models,  # noqa: F401 (internal)
    fit_class_models,  # noqa: F401 (internal)
    resume,  # noqa: F401 (internal)
)
from ._checks import (
    CheckedRun,  # noqa: F401 (internal)
    check_run_data,  # noqa: F401 (internal)
)
from ._resampling import (
    complementary_pair,  # noqa: F401 (internal)
    resample_indices,  # noqa: F401 (internal)
    seed_sequence,  # noqa: F401 (internal)
)
from ._rundir import (
    DamagedCheckpointError,
    RunDirectory,  # noqa: F401 (internal)
    RunDirectoryError,
)

#: The public names. Those imported above with ``noqa: F401 (internal)`` are not public:
#: other modules of the project import them from here (issue 38).
__all__ = [
    "BaseModels",
    "DamagedCheckpointError",
    "RunDirectoryError",
    "bootstrap",
]
