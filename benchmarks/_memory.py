"""The peak memory of a piece of work, worker processes included (Linux).

``ru_maxrss`` counts one process, its whole life: it cannot isolate one call in a process
that did other work first, and it misses the worker processes joblib starts. ``TreePeak``
samples, every ``interval`` seconds on a thread, the proportional set size (PSS,
``/proc/PID/smaps_rollup``) of this process and of all its descendants, and keeps the
largest sum. PSS shares each shared page among the processes mapping it, so memory-mapped
data handed to the workers is counted once, not once per worker. The sample can miss a
peak shorter than the interval.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path


def pss_mib(pid: int) -> float:
    """The proportional set size of one process, MiB (0 if it has gone)."""
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return 0.0
    for line in text.splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) / 1024.0
    return 0.0


def descendants(pid: int) -> list[int]:
    """The process ids below ``pid`` (children, their children, ...)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def tree_pss_mib(pid: int | None = None) -> float:
    """PSS of a process and of all its descendants, MiB."""
    pid = os.getpid() if pid is None else pid
    return sum(pss_mib(p) for p in [pid, *descendants(pid)])


class TreePeak:
    """``with TreePeak() as peak: work()``; then ``peak.start_mib`` (before) and
    ``peak.peak_mib`` (the largest sampled sum, this process and its descendants)."""

    def __init__(self, interval: float = 0.1):
        self.interval = interval
        self.start_mib = 0.0
        self.peak_mib = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.is_set():
            self.peak_mib = max(self.peak_mib, tree_pss_mib())
            time.sleep(self.interval)

    def __enter__(self) -> TreePeak:
        self.start_mib = self.peak_mib = tree_pss_mib()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak_mib = max(self.peak_mib, tree_pss_mib())
