"""What modelmine says while it works: one verbosity setting, scanpy's habit.

``mm.settings.verbosity`` (scanpy's ``sc.settings.verbosity``) is the level of the
``modelmine`` logger, where modelmine's messages go through :mod:`logging`: ``"error"``
(0), ``"warning"`` (1), ``"info"`` (2, the default: a line as each phase of a run starts
-- mining, operators, diagnostics, the report -- and the progress bars) and ``"debug"``
(3: each operator as it starts, too). The command line's ``-q`` sets ``"warning"``,
``-v`` ``"debug"``.

Library code never configures the root logger. The ``modelmine`` logger carries one
handler of its own, a fallback: like :mod:`logging`'s
"last resort" handler, it writes a record only when no other handler would (the
application configured none, on the root logger or on ``modelmine``), so that a script or
a notebook shows the phase lines, and an application that configures :mod:`logging`
receives them through its own handlers instead (``logging.getLogger("modelmine")``). The
``modelmine`` command installs its own handler.

This module imports nothing of the scientific stack: ``modelmine --help`` reads it.
"""

from __future__ import annotations

import enum
import logging
import sys
from typing import Any

__all__ = ["Settings", "Verbosity", "settings"]

#: The logger of every modelmine message (phase lines at INFO, details at DEBUG).
LOGGER_NAME = "modelmine"


class Verbosity(enum.IntEnum):
    """How much modelmine says, as scanpy's ``Verbosity``: each level adds to the one below.

    ``error`` (0): errors only (they are raised); ``warning`` (1): warnings too;
    ``info`` (2): a line as each phase of a run starts and the progress bars;
    ``debug`` (3): a line as each operator starts, too.
    """

    error = 0
    warning = 1
    info = 2
    debug = 3

    @property
    def level(self) -> int:
        """The :mod:`logging` level of this verbosity (``logging.INFO`` for ``info``)."""
        return _LEVELS[self]


_LEVELS = {Verbosity.error: logging.ERROR, Verbosity.warning: logging.WARNING,
           Verbosity.info: logging.INFO, Verbosity.debug: logging.DEBUG}


class _Lines(logging.Handler):
    """modelmine's records as ``modelmine: <message>`` lines, written above any progress
    bar on the way, on the stream of the moment (``stderr`` True: stderr; else stdout in
    IPython, as scanpy, whose notebooks would colour stderr as an error)."""

    def __init__(self, stderr: bool) -> None:
        super().__init__()
        self.stderr = stderr
        self.setFormatter(logging.Formatter("modelmine: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        try:
            stream = (sys.stdout if not self.stderr and "IPython" in sys.modules
                      and _in_ipython() else sys.stderr)
            line = self.format(record)
            tqdm = sys.modules.get("tqdm")
            if tqdm is not None:  # tqdm clears its bar, writes the line, redraws the bar
                tqdm.tqdm.write(line, file=stream)
            else:
                print(line, file=stream)
        except Exception:  # a closed stream: logging's own rule, never raise
            self.handleError(record)


class _Fallback(_Lines):
    """Writes modelmine's records when nothing else would: no handler on the ``modelmine``
    logger besides this one, nor on the root logger (logging's own last resort, for every
    level the verbosity lets through)."""

    def emit(self, record: logging.LogRecord) -> None:
        logger = logging.getLogger(LOGGER_NAME)
        if any(h is not self for h in logger.handlers) or (
                logger.propagate and logging.getLogger().handlers):
            return
        super().emit(record)


def stderr_handler() -> logging.Handler:
    """The handler the ``modelmine`` command installs on the ``modelmine`` logger: its
    lines on stderr, above the progress bars."""
    return _Lines(stderr=True)


def _in_ipython() -> bool:
    shell = sys.modules["IPython"].get_ipython()
    return shell is not None


def _in_notebook() -> bool:
    """Whether this runs in a Jupyter kernel (where tqdm's auto mode draws a widget), found
    as ``tqdm.autonotebook`` finds it, without importing IPython."""
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return False
    shell = ipython.get_ipython()
    return shell is not None and "IPKernelApp" in getattr(shell, "config", {})


class Settings:
    """modelmine's settings: ``verbosity`` (scanpy's ``settings.verbosity``).

    Read and set as ``mm.settings.verbosity``: a :class:`Verbosity`, its value (0 to 3) or
    its name (``"error"``, ``"warning"``, ``"info"``, ``"debug"``). It is the level of the
    ``logging.getLogger("modelmine")`` logger, so that setting either sets both.

    Examples
    --------
    >>> import modelmine as mm
    >>> mm.settings.verbosity
    <Verbosity.info: 2>
    >>> mm.settings.verbosity = "warning"    # the warnings, no phase lines, no bars
    >>> mm.settings.verbosity = 2
    """

    @property
    def verbosity(self) -> Verbosity:
        """How much modelmine says: the level of the ``modelmine`` logger."""
        level = logging.getLogger(LOGGER_NAME).getEffectiveLevel()
        shown = [v for v in Verbosity if v.level >= level]  # what passes the logger
        return max(shown) if shown else Verbosity.error

    @verbosity.setter
    def verbosity(self, value: Any) -> None:
        logging.getLogger(LOGGER_NAME).setLevel(as_verbosity(value).level)

    def __repr__(self) -> str:
        return f"Settings(verbosity={self.verbosity.name!r})"


def as_verbosity(value: Any) -> Verbosity:
    """A :class:`Verbosity` from one, its value or its name; else the message shape of
    :mod:`modelmine.validation` naming what it accepts."""
    if isinstance(value, Verbosity):
        return value
    if isinstance(value, str) and value.lower() in Verbosity.__members__:
        return Verbosity[value.lower()]
    if not isinstance(value, bool | str | float):
        try:
            return Verbosity(int(value))
        except (TypeError, ValueError):
            pass
    from .validation import param_error  # the error path only: it imports numpy

    raise param_error("verbosity", "settings", "a Verbosity, an integer from 0 to 3 or one of "
                      "'error', 'warning', 'info', 'debug'", value)


def _setup() -> Settings:
    """The settings object, the ``modelmine`` logger at the default verbosity (info) and
    its fallback handler. Nothing else: the root logger and other loggers are left as they
    are."""
    logger = logging.getLogger(LOGGER_NAME)
    if not any(isinstance(h, _Fallback) for h in logger.handlers):
        logger.addHandler(_Fallback(stderr=False))
    if logger.level == logging.NOTSET:
        logger.setLevel(Verbosity.info.level)
    return Settings()


#: The settings of this session (``mm.settings``).
settings = _setup()
