"""The pipeline stage: one call from data to a saved, reportable model-mining run.

:func:`run` chains the stages of the flow (bootstrap -> patterns -> operators ->
diagnostics) and returns an immutable :class:`MiningRun`; :meth:`MiningRun.save` and
:meth:`MiningRun.load` write and read the run directory of ``modelmine run``; :func:`resume`
continues a run killed while checkpointing into its ``run_dir``. The command line and the
examples are thin doors over these (Woznica, Nguyen and Kalousis, KDD 2012, sections 2-3).
"""

from ._run import (
    DEFAULT_OPERATORS,  # noqa: F401 (internal)
    MiningRun,
    resume,
    run,
    run_itemsets,  # noqa: F401 (internal)
)

#: The public names. Those imported above with ``noqa: F401 (internal)`` are not public:
#: other modules of the project import them from here (issue 38).
__all__ = [
    "MiningRun",
    "resume",
    "run",
]
