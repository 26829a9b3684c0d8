"""The ``modelmine`` command line: run, operators, lattice, evaluate, report, datasets.

A thin door over the Python API (:func:`modelmine.run`, :class:`modelmine.MiningRun`,
:func:`modelmine.evaluate`): argument parsing, printing and exit codes. Installed as the
``modelmine`` script (``[project.scripts]``) and runnable as ``python -m modelmine``.
See ``docs/cli.md``.
"""

from ._main import build_parser, main

__all__ = ["build_parser", "main"]
