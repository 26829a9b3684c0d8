"""Where the chunks of bootstraps run: joblib on one machine, or a Dask cluster.

Both yield each chunk's results as soon as it finishes (in any order); the caller puts
them in place by chunk id, so the result never depends on the order of completion.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Iterator
from typing import Any

from joblib import Parallel, delayed, effective_n_jobs

from ..validation import param_error

__all__ = ["Runner", "resolve_executor"]


def resolve_executor(executor: Any, func: str) -> tuple[Any, bool]:
    """A connected Dask client from ``executor`` (a Client or a scheduler address).

    Returns
    -------
    client, owned : the client, and whether it was opened here (and must be closed).
    """
    from ..exceptions import require_extra

    require_extra("distributed", "distributed", "Running on a Dask cluster")
    from distributed import Client

    if isinstance(executor, Client):
        if executor.status != "running":
            raise param_error("executor", func, "a connected dask.distributed.Client",
                              f"a Client with status {executor.status!r}", show=False)
        return executor, False
    if isinstance(executor, str):
        try:
            return Client(executor, timeout=CONNECT_TIMEOUT), True
        except (OSError, TimeoutError) as exc:
            raise param_error(
                "executor", func, "a reachable Dask scheduler address or a Client",
                f"{executor!r}, which could not be reached ({exc})", show=False) from None
    raise param_error("executor", func, "a dask.distributed.Client or a scheduler address "
                      "such as 'tcp://host:8786'", executor, exc=TypeError)


#: How long a scheduler address is tried before it is refused as unreachable.
CONNECT_TIMEOUT = "10s"


class Runner:
    """Run chunks of work with joblib (``n_jobs``) or on a Dask cluster (``executor``)."""

    def __init__(self, executor: Any, n_jobs: int | None, func: str = "bootstrap"):
        self.client = None
        self._owned = False
        if executor is not None:
            self.client, self._owned = resolve_executor(executor, func)
            info = self.client.scheduler_info()
            threads = sum(int(w.get("nthreads", 1)) for w in info["workers"].values())
            self.workers = max(1, threads)
        else:
            if n_jobs is not None and not isinstance(n_jobs, numbers.Integral):
                raise param_error("n_jobs", func, "an integer or None", n_jobs, exc=TypeError)
            self.workers = effective_n_jobs(n_jobs)

    def run(self, fn: Callable[..., Any], X: Any, y: Any, tasks: dict[int, Any],
            kwargs: dict[str, Any]) -> Iterator[tuple[int, Any]]:
        """Yield ``(task_id, fn(X, y, payload, **kwargs))`` for each task as it finishes."""
        if not tasks:
            return
        if self.client is not None:
            yield from self._run_dask(fn, X, y, tasks, kwargs)
            return
        jobs = (delayed(_tagged)(fn, cid, X, y, payload, kwargs)
                for cid, payload in tasks.items())
        # Never more workers than chunks: an idle worker costs a process and a copy of X.
        workers = min(self.workers, len(tasks))
        yield from Parallel(n_jobs=workers, return_as="generator_unordered")(jobs)

    def _run_dask(self, fn: Callable[..., Any], X: Any, y: Any, tasks: dict[int, Any],
                  kwargs: dict[str, Any]) -> Iterator[tuple[int, Any]]:
        from distributed import as_completed

        assert self.client is not None
        # Ship the data to every worker once, not with each task.
        X_f, y_f = self.client.scatter([X, y], broadcast=True, hash=False)
        futures = {self.client.submit(fn, X_f, y_f, payload, pure=False, **kwargs): cid
                   for cid, payload in tasks.items()}
        try:
            for fut in as_completed(futures):
                yield futures[fut], fut.result()
        finally:
            for fut in futures:
                fut.cancel()

    def close(self) -> None:
        if self._owned and self.client is not None:
            self.client.close()


def _tagged(fn: Callable[..., Any], cid: int, X: Any, y: Any, payload: Any,
            kwargs: dict[str, Any]) -> tuple[int, Any]:
    return cid, fn(X, y, payload, **kwargs)
