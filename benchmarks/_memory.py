"""The peak memory of a piece of work, worker processes included (Linux).

``ru_maxrss`` counts one process, its whole life: it cannot isolate one call in a process
that did other work first, and it misses the worker processes joblib starts. ``TreePeak``
samples, every ``interval`` seconds on a thread, the proportional set size (PSS,
``/proc/PID/smaps_rollup``) of this process and of all its descendants, and keeps the
largest sum. PSS shares each shared page among the processes mapping it, so memory-mapped
data handed to the workers is counted once, not once per worker. joblib hands large
arrays to its workers through files in ``/dev/shm`` (memory too, mapped or not): their
pages are counted from the file system's use (its growth since the start), not from the
processes' PSS (``Pss_Shmem`` is subtracted), so they count once, whole. The sample can
miss a peak shorter than the interval.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from pathlib import Path


def pss_mib(pid: int) -> float:
    """The proportional set size of one process without its shared-memory pages, MiB
    (0 if it has gone)."""
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return 0.0
    fields = {line.split(":")[0]: int(line.split()[1]) for line in text.splitlines()[1:]
              if line.split()[1].isdigit()}
    return (fields.get("Pss", 0) - fields.get("Pss_Shmem", 0)) / 1024.0


def shm_mib() -> float:
    """What ``/dev/shm`` holds, MiB."""
    try:
        usage = shutil.disk_usage("/dev/shm")
    except OSError:
        return 0.0
    return usage.used / 2**20


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
    ``peak.peak_mib`` (the largest sampled total: this process and its descendants, and
    what ``/dev/shm`` gained)."""

    def __init__(self, interval: float = 0.1):
        self.interval = interval
        self.start_mib = 0.0
        self.peak_mib = 0.0
        self._shm0 = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def total_mib(self) -> float:
        return tree_pss_mib() + max(0.0, shm_mib() - self._shm0)

    def _sample(self) -> None:
        while not self._stop.is_set():
            self.peak_mib = max(self.peak_mib, self.total_mib())
            time.sleep(self.interval)

    def __enter__(self) -> TreePeak:
        self._shm0 = shm_mib()
        self.start_mib = self.peak_mib = self.total_mib()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak_mib = max(self.peak_mib, self.total_mib())
