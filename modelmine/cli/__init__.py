"""The ``modelmine`` command line: run, operators, lattice, evaluate, report, datasets.

Installed as the ``modelmine`` script (``[project.scripts]``) and runnable as
``python -m modelmine``. See ``docs/cli.md``.
"""

from ._main import build_parser, main
from ._readers import DataError, LoadedData, read_data

__all__ = ["DataError", "LoadedData", "build_parser", "main", "read_data"]
