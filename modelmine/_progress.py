"""The progress bar of long runs (bootstraps, the evaluation protocol)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

__all__ = ["progress_bar"]


def progress_bar(total: int, desc: str, unit: str, show: bool | None,
                 log: str | os.PathLike[str] | None = None) -> Any:
    """A tqdm bar on stderr; ``show=None`` shows it only when stderr is a terminal.

    With ``log``, every update is also appended to that file as one line (the time, how
    many of ``total`` are done, the time spent and an estimate of the time left), so that
    a run whose output is not a terminal (a batch job, a pipe) can be followed with
    ``tail -f``.
    """
    from tqdm.auto import tqdm

    visible = sys.stderr.isatty() if show is None else bool(show)
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
