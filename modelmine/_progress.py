"""What a long run shows while it works: progress bars (bootstraps, the null, the evaluation
protocol) and a line as each later phase starts (mining, operators, diagnostics, the
report), both as scanpy's users expect them (:mod:`modelmine.config`)."""

from __future__ import annotations

import logging
import os
import sys
import time
from pathlib import Path
from typing import Any

from .config import LOGGER_NAME, Verbosity, _in_notebook, settings

__all__ = ["phase", "progress_bar"]


def phase(message: str, *args: Any, detail: bool = False) -> None:
    """Say that a phase starts: a line of the ``modelmine`` logger at INFO (``detail``:
    at DEBUG, for the steps within a phase, such as each operator), shown at that
    ``mm.settings.verbosity``. ``args`` fill ``message`` as logging's ``%`` arguments."""
    logging.getLogger(LOGGER_NAME).log(logging.DEBUG if detail else logging.INFO,
                                       message, *args)


def progress_bar(total: int, desc: str, unit: str, show: bool | None,
                 log: str | os.PathLike[str] | None = None) -> Any:
    """A tqdm bar in tqdm's auto mode: a widget in a Jupyter notebook, text on stderr
    elsewhere. ``show=None`` shows it at ``mm.settings.verbosity`` info or more, in a
    notebook or when stderr is a terminal (not in a batch job's log).

    With ``log``, every update is also appended to that file as one line (the time, how
    many of ``total`` are done, the time spent and an estimate of the time left), so that
    a run whose output is not a terminal (a batch job, a pipe) can be followed with
    ``tail -f``.
    """
    from tqdm.auto import tqdm

    visible = (settings.verbosity >= Verbosity.info and (_in_notebook() or sys.stderr.isatty())
               if show is None else bool(show))
    bar = tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, leave=False,
               disable=not visible)
    return bar if log is None else _Logged(bar, Path(log), total, desc, unit)


class _Logged:
    """A tqdm bar that also appends its progress to a file."""

    def __init__(self, bar: Any, path: Path, total: int, desc: str, unit: str) -> None:
        self.bar, self.path, self.total, self.desc, self.unit = bar, path, total, desc, unit
        self.done, self.start = 0, time.monotonic()
        self._line(f"{desc}: started, {total} {unit}s to do")

    def _line(self, text: str) -> None:
        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write(f"{time.strftime('%H:%M:%S')} {text}\n")

    def update(self, n: int = 1) -> None:
        self.bar.update(n)
        self.done += n
        spent = time.monotonic() - self.start
        left = spent / self.done * (self.total - self.done) if self.done else float("nan")
        self._line(f"{self.desc}: {self.done}/{self.total} {self.unit}s, {spent:.0f} s "
                   f"spent, about {left:.0f} s left")

    def close(self) -> None:
        self.bar.close()
        self._line(f"{self.desc}: done, {self.done}/{self.total} {self.unit}s in "
                   f"{time.monotonic() - self.start:.0f} s")
