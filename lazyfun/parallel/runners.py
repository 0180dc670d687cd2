"""Where parallel work runs: a dask cluster, a process pool, or this process.

Every parallel function of lazyfun takes the same two arguments and gets its
runner from :func:`runner`:

* ``scheduler=None`` (the default): the ``LAZYFUN_DASK_SCHEDULER`` environment
  variable if set, else a ``LocalCluster`` of worker processes sized to the
  machine (or to ``jobs``), started for the call and shut down after it;
* ``scheduler="tcp://HOST:PORT"``: an existing dask cluster;
* ``scheduler="sync"``: everything in this process, one task after another.

Without dask installed the default falls back to a ``concurrent.futures``
process pool and says so once (a ``RuntimeWarning``).
"""

from __future__ import annotations

import logging
import multiprocessing
import multiprocessing.context
import os
import sys
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Protocol, TypeVar

__all__ = ["CONNECT_TIMEOUT", "ENVIRONMENT", "ParallelError", "Runner", "runner"]

ENVIRONMENT = "LAZYFUN_DASK_SCHEDULER"
CONNECT_TIMEOUT = "10s"  # how long to wait for an existing cluster's scheduler

T = TypeVar("T")
U = TypeVar("U")


class ParallelError(RuntimeError):
    """A scheduler that cannot be used: an unreachable address, or dask missing."""


class Runner(Protocol):
    """What the parallel functions need of a place to run: a map and futures."""

    workers: int

    def map(self, f: Callable[[T], U], items: list[T]) -> list[U]: ...

    def submit(self, f: Callable[..., U], *args: Any) -> Future[U] | Any: ...


class _Sync:
    """Everything in this process, in order."""

    workers = 1

    def map(self, f: Callable[[T], U], items: list[T]) -> list[U]:
        return [f(x) for x in items]

    def submit(self, f: Callable[..., U], *args: Any) -> Future[U]:
        done: Future[U] = Future()
        done.set_result(f(*args))
        return done


class _Pool:
    """A ``concurrent.futures`` process pool: the fallback without dask."""

    def __init__(self, pool: Executor, workers: int) -> None:
        self.pool, self.workers = pool, workers

    def map(self, f: Callable[[T], U], items: list[T]) -> list[U]:
        return list(self.pool.map(f, items))

    def submit(self, f: Callable[..., U], *args: Any) -> Future[U]:
        return self.pool.submit(f, *args)


class _Dask:
    """A dask.distributed client: bags for maps, futures for partitions."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.workers = max(1, len(client.scheduler_info().get("workers", {})))

    def map(self, f: Callable[[T], U], items: list[T]) -> list[U]:
        import dask.bag as db

        if not items:
            return []
        bag = db.from_sequence(items, npartitions=len(items))
        result: list[U] = self.client.compute(bag.map(f)).result()
        return result

    def submit(self, f: Callable[..., U], *args: Any) -> Any:
        return self.client.submit(f, *args, pure=False)


_warned = False


def _pool_context() -> multiprocessing.context.BaseContext | None:
    """How the fallback pool starts its workers: as Python's default, except on Linux from
    3.12, where forking a process that runs threads is deprecated: a fork server there."""
    if sys.platform == "linux" and sys.version_info >= (3, 12):
        return multiprocessing.get_context("forkserver")
    return None


def _warn_once(message: str) -> None:
    global _warned
    if not _warned:
        _warned = True
        warnings.warn(message, RuntimeWarning, stacklevel=4)


@contextmanager
def runner(scheduler: str | None, jobs: int | None) -> Iterator[Runner]:
    """The place to run on, started for the call and shut down after it."""
    scheduler = scheduler or os.environ.get(ENVIRONMENT) or None
    if jobs is not None and jobs < 1:
        raise ParallelError(f"jobs must be at least 1, got {jobs}")
    workers = jobs or os.cpu_count() or 1
    if scheduler == "sync":
        yield _Sync()
        return
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        if scheduler:
            raise ParallelError(
                f"the scheduler {scheduler} needs dask: pip install 'lazyfun[dask]'"
            ) from None
        _warn_once("dask is not installed (pip install 'lazyfun[dask]'): using a process pool")
        with ProcessPoolExecutor(workers, mp_context=_pool_context()) as pool:
            yield _Pool(pool, workers)
        return
    if scheduler:
        try:
            client = Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except (OSError, TimeoutError) as error:
            raise ParallelError(
                f"cannot reach the dask scheduler at {scheduler}: {error}"
            ) from None
        with client:
            yield _Dask(client)
        return
    import dask

    with dask.config.set(_local_config()):
        cluster: AbstractContextManager[Any] = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            silence_logs=logging.CRITICAL,
        )
    with (
        cluster as started,
        Client(started, set_as_default=False, direct_to_workers=True) as client,
    ):
        yield _Dask(client)


def _local_config() -> dict[str, object]:
    """dask settings for a cluster of this machine's cores running a few long tasks.

    A worker's event loop takes the GIL from the task on every tick (20 ms by
    default), every profiler sample (10 ms) and system-monitor reading: about
    10% of a CPU-bound count.  None of them is needed here, nor is moving queued
    tasks between workers.  On Linux the workers are forked from this process,
    which already holds the modules they need: 0.1 s to start two instead of
    0.5 s for fresh interpreters (``spawn``, dask's default everywhere).  From
    Python 3.12 on, forking a process that runs threads (dask's event loop)
    is deprecated, so there the workers are spawned.
    """
    settings: dict[str, object] = {
        "distributed.worker.profile.enabled": False,
        "distributed.admin.tick.interval": "1s",
        "distributed.admin.system-monitor.interval": "2s",
        "distributed.worker.memory.monitor-interval": "1s",
        "distributed.scheduler.work-stealing": False,
    }
    if sys.platform == "linux" and sys.version_info < (3, 12):
        settings["distributed.worker.multiprocessing-method"] = "fork"
    return settings
