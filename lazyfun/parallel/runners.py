"""Where parallel work runs: a dask cluster, a process pool, or this process.

Every parallel function of lazyfun takes the same two arguments and gets its
runner from :func:`runner`:

* ``scheduler=None`` (the default): the ``LAZYFUN_DASK_SCHEDULER`` environment
  variable if set, else a ``LocalCluster`` of worker processes sized to the
  machine (or to ``jobs``), started for the call and shut down after it;
* ``scheduler="tcp://HOST:PORT"``: an existing dask cluster;
* ``scheduler="sync"``: everything in this process, one task after another.

Inside ``with cluster(jobs=2):`` every call without its own ``scheduler``
shares the cluster started for the block (an explicit ``scheduler`` still wins).

Without dask installed the default falls back to a ``concurrent.futures``
process pool and says so once (a ``RuntimeWarning``).
"""

from __future__ import annotations

import concurrent.futures
import logging
import multiprocessing
import multiprocessing.context
import os
import pickle
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import ExitStack, contextmanager
from contextvars import ContextVar
from multiprocessing.process import BaseProcess
from typing import Any, Protocol, TypeVar

__all__ = [
    "CONNECT_TIMEOUT",
    "ENVIRONMENT",
    "HANDSHAKES",
    "ParallelError",
    "Pool",
    "Runner",
    "check_jobs",
    "check_pickles",
    "check_sendable",
    "cluster",
    "connect",
    "pool_context",
    "runner",
]

ENVIRONMENT = "LAZYFUN_DASK_SCHEDULER"
CONNECT_TIMEOUT = "10s"  # how long to wait for an existing cluster's scheduler
HANDSHAKES = 3  # tries at distributed's handshake, which can lose a race (see connect)
CLUSTER_START_SECONDS = 20.0  # a local cluster starts in 1-5 s; a lost start waits for ever
CLUSTER_STARTS = 2  # tries at starting a local cluster (see _local_cluster)
CLUSTER_CLOSE_SECONDS = 30.0  # a local cluster closes in 1 s; a lost restart waits for ever

T = TypeVar("T")
U = TypeVar("U")


class ParallelError(RuntimeError):
    """A scheduler that cannot be used: an unreachable address, or dask missing."""


class Runner(Protocol):
    """What the parallel functions need of a place to run: a map and futures."""

    workers: int

    def map(self, f: Callable[[T], U], items: list[T]) -> list[U]: ...

    def submit(self, f: Callable[..., U], *args: Any) -> Future[U] | Any: ...

    def as_completed(self, futures: list[Any]) -> Iterator[Any]:
        """The futures in the order they finish."""
        ...

    def cancel(self, futures: Iterable[Any]) -> None:
        """Drop futures whose results are no longer wanted (running ones may finish)."""
        ...

    def wait_any(self, futures: list[Any]) -> None:
        """Return once one of the futures is done."""
        ...

    def check_sendable(self, value: object, what: str) -> None:
        """Raise ParallelError, naming ``what``, if ``value`` cannot travel to the workers."""
        ...


class _Futures:
    """Waiting on and cancelling ``concurrent.futures`` futures."""

    def as_completed(self, futures: list[Any]) -> Iterator[Any]:
        return concurrent.futures.as_completed(futures)

    def cancel(self, futures: Iterable[Any]) -> None:
        for future in futures:
            future.cancel()

    def wait_any(self, futures: list[Any]) -> None:
        concurrent.futures.wait(futures, return_when=concurrent.futures.FIRST_COMPLETED)


class _Sync(_Futures):
    """Everything in this process, in order."""

    workers = 1

    def check_sendable(self, value: object, what: str) -> None:
        return None

    def map(self, f: Callable[[T], U], items: list[T]) -> list[U]:
        return [f(x) for x in items]

    def submit(self, f: Callable[..., U], *args: Any) -> Future[U]:
        done: Future[U] = Future()
        done.set_result(f(*args))
        return done


class Pool(_Futures):
    """A ``concurrent.futures`` executor: threads, or processes (the fallback without dask)."""

    def __init__(self, pool: Executor, workers: int) -> None:
        self.pool, self.workers = pool, workers

    def map(self, f: Callable[[T], U], items: list[T]) -> list[U]:
        return list(self.pool.map(f, items))

    def submit(self, f: Callable[..., U], *args: Any) -> Future[U]:
        return self.pool.submit(f, *args)

    def check_sendable(self, value: object, what: str) -> None:
        if isinstance(self.pool, ProcessPoolExecutor):
            check_pickles(pickle.dumps, value, what, "the process pool pickles it")


class _Dask:
    """A dask.distributed client: bags for maps, futures for partitions."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.workers = max(1, len(client.scheduler_info().get("workers", {})))
        self.submitted = 0

    def map(self, f: Callable[[T], U], items: list[T]) -> list[U]:
        import dask.bag as db

        if not items:
            return []
        bag = db.from_sequence(items, npartitions=len(items))
        result: list[U] = self.client.compute(bag.map(f)).result()
        return result

    def submit(self, f: Callable[..., U], *args: Any) -> Any:
        """A task, ahead of every task submitted after it: dask breaks ties between
        tasks submitted at nearly the same time arbitrarily, and an ordered window
        needs its head first."""
        self.submitted += 1
        return self.client.submit(f, *args, pure=False, priority=-self.submitted)

    def as_completed(self, futures: list[Any]) -> Iterator[Any]:
        from distributed import as_completed

        return iter(as_completed(futures, loop=self.client.loop))

    def cancel(self, futures: Iterable[Any]) -> None:
        waiting = list(futures)
        if waiting:
            self.client.cancel(waiting)

    def wait_any(self, futures: list[Any]) -> None:
        next(self.as_completed(futures))

    def check_sendable(self, value: object, what: str) -> None:
        import cloudpickle

        check_pickles(cloudpickle.dumps, value, what, "dask pickles it with cloudpickle")


def check_pickles(
    dumps: Callable[[object], bytes],
    value: object,
    what: str,
    how: str,
    instead: str = "use scheduler='sync'",
) -> None:
    """Raise ParallelError, naming ``what``, if ``dumps`` cannot pickle ``value``."""
    try:
        dumps(value)
    except Exception as error:  # pickling raises many types: PicklingError, TypeError, ...
        raise ParallelError(
            f"{what} must travel to worker processes ({how}), and it cannot be pickled: "
            f"{error}. Define it at module level, or {instead}"
        ) from None


def check_jobs(jobs: int | None) -> None:
    """Refuse at once a number of workers that cannot be: ``jobs`` is None or at least 1."""
    if jobs is not None and jobs < 1:
        raise ParallelError(f"jobs must be at least 1, got {jobs}")


_SHARED: ContextVar[Runner | None] = ContextVar("lazyfun_parallel_cluster", default=None)


def shared() -> Runner | None:
    """The runner of the innermost ``with cluster():`` block around this call, if any."""
    return _SHARED.get()


def check_sendable(value: object, what: str, scheduler: str | None) -> None:
    """Refuse at once a ``value`` that the place named by ``scheduler`` cannot send to its
    workers, without starting anything (a lambda cannot go to a process pool)."""
    place = scheduler or None
    around = shared()
    if place is None and around is not None:
        around.check_sendable(value, what)
        return
    place = place or os.environ.get(ENVIRONMENT) or None
    if place == "sync":
        return
    try:
        import cloudpickle
    except ImportError:
        check_pickles(pickle.dumps, value, what, "the process pool pickles it")
    else:
        check_pickles(cloudpickle.dumps, value, what, "dask pickles it with cloudpickle")


_warned = False


def pool_context() -> multiprocessing.context.BaseContext | None:
    """How the fallback pool starts its workers: as Python's default, except on Linux from
    3.12, where forking a process that runs threads is deprecated: a fork server there."""
    if sys.platform == "linux" and sys.version_info >= (3, 12):
        return multiprocessing.get_context("forkserver")
    return None


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes that lazyfun starts (and shuts down), each worker
    ending itself once the process that started it is gone (:func:`watch_parent`)."""
    return ProcessPoolExecutor(workers, mp_context=pool_context(), initializer=watch_parent)


def watch_parent() -> None:
    """In a worker of :func:`process_pool`: end the worker (``os._exit``) within half a
    second of its parent's end.  A process that ends without shutting its pool (killed,
    ``os._exit``) leaves its workers waiting on a queue whose other end they hold
    themselves, for ever, with whatever they inherited open (a pipe a shell reads to
    its end waits with them); a worker whose parent has gone is adopted by another
    process, which this daemon thread sees."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="lazyfun-parent-watch", daemon=True).start()


def _warn_once(message: str) -> None:
    global _warned
    if not _warned:
        _warned = True
        warnings.warn(message, RuntimeWarning, stacklevel=4)


@contextmanager
def cluster(scheduler: str | None = None, jobs: int | None = None) -> Iterator[Runner]:
    """One place to run for every parallel call inside the block.

    Starts (or connects to) the place :func:`runner` would choose, once; every
    lazyfun.parallel call in the block that names no ``scheduler`` of its own
    runs there, and the cluster is shut down when the block ends::

        with cluster(jobs=2):
            squares = list(pmap(square, range(100)))
            found = list(psearch(start, expand1=expand1, complete=complete))
    """
    with runner(scheduler, jobs, share=False) as run:
        token = _SHARED.set(run)
        try:
            yield run
        finally:
            _SHARED.reset(token)


def connect(scheduler: str) -> Any:
    """A dask client of the scheduler at ``scheduler`` (a ``distributed.Client``).

    distributed's handshake can lose a race: the scheduler sends its first
    message through a batched stream, so another message for the new client can
    ride in the same frame, and the client asserts that it got exactly one.  That
    failure is tried again, up to :data:`HANDSHAKES` times; a scheduler that
    cannot be reached (``OSError``, ``TimeoutError``) is not, and fails at once.
    """
    from distributed import Client
    from tenacity import Retrying, retry_if_exception_type, stop_after_attempt

    tries = Retrying(
        retry=retry_if_exception_type(AssertionError),
        stop=stop_after_attempt(HANDSHAKES),
        reraise=True,
    )
    return tries(Client, scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)


@contextmanager
def runner(scheduler: str | None, jobs: int | None, *, share: bool = True) -> Iterator[Runner]:
    """The place to run on, started for the call and shut down after it.

    With ``share`` (the default), a call without a ``scheduler`` inside a
    ``with cluster():`` block runs on that block's cluster, which stays up.
    """
    check_jobs(jobs)
    around = shared() if share else None
    if not scheduler and around is not None:
        yield around
        return
    scheduler = scheduler or os.environ.get(ENVIRONMENT) or None
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
        with process_pool(workers) as pool:
            yield Pool(pool, workers)
        return
    import dask.config

    if scheduler:
        try:
            with dask.config.set(_CLIENT_CONFIG):
                client = connect(scheduler)
        except (OSError, TimeoutError) as error:
            raise ParallelError(
                f"cannot reach the dask scheduler at {scheduler}: {error}"
            ) from None
        with client:
            yield _Dask(client)
        return
    with ExitStack() as stack:
        with dask.config.set(_local_config()):
            before = _worker_processes()
            started = _local_cluster(LocalCluster, workers)
            stack.callback(_close_cluster, started, before)
            client = stack.enter_context(
                Client(started, set_as_default=False, direct_to_workers=True)
            )
        yield _Dask(client)


def _start_cluster(
    make: Callable[..., T], workers: int, made: list[T], failed: list[BaseException]
) -> None:
    try:
        made.append(
            make(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",
                silence_logs=logging.CRITICAL,
            )
        )
    except BaseException as error:
        failed.append(error)


def _local_cluster(make: Callable[..., T], workers: int) -> T:
    """A LocalCluster of ``workers`` processes, started within ``CLUSTER_START_SECONDS``.

    distributed waits without a limit for a worker to say it is up, and a start can
    lose that message (seen once in many runs on a loaded machine: both workers idle,
    the cluster waiting for ever).  The start runs on a thread of its own, and one not
    done in time is left behind, the worker processes started since it began killed
    (so that none outlives the call), and tried again once; a second one not done in
    time is a ParallelError, never a hang."""
    for _ in range(CLUSTER_STARTS):
        before = _worker_processes()
        made: list[T] = []
        failed: list[BaseException] = []
        starting = threading.Thread(
            target=_start_cluster,
            args=(make, workers, made, failed),
            name="dask-cluster-start",  # distributed's start, not a pipeline's worker
            daemon=True,
        )
        starting.start()
        starting.join(CLUSTER_START_SECONDS)
        if made:
            return made[0]
        if failed:
            raise failed[0]
        for process in _worker_processes() - before:
            process.kill()
    raise ParallelError(
        f"a local dask cluster of {workers} workers did not start in "
        f"{CLUSTER_START_SECONDS:.0f} s, {CLUSTER_STARTS} times: give scheduler='sync' or "
        "an address"
    )


# the name distributed gives each worker process that a nanny starts
WORKER_PROCESS = "Dask Worker process (from Nanny)"


def _worker_processes() -> set[BaseProcess]:
    """The dask worker processes this process has started and that still run."""
    return {p for p in multiprocessing.active_children() if p.name == WORKER_PROCESS}


def _close_cluster(started: Any, before: set[BaseProcess]) -> None:
    """Close a local cluster within ``CLUSTER_CLOSE_SECONDS``; if it does not close in
    time, kill the worker processes started since ``before`` (the cluster's, the ones
    its nannies started again among them) and say so (a RuntimeWarning).

    A worker that dies (killed, out of memory) is started again by its nanny, which
    waits without a limit for the new worker's hello.  A new worker that never says it
    (stopped, or its message lost) left the nanny's close waiting, and with it the
    ``with`` block around it, for ever; a nanny whose close is cut short forgets that
    process, and multiprocessing's exit would wait for it for ever too.  The block's
    work is done by then: only the processes are left to end.  (At the interpreter's
    exit, distributed tries that close once more, for 10 s.)"""
    try:
        started.close(timeout=CLUSTER_CLOSE_SECONDS)
    except TimeoutError:
        for process in _worker_processes() - before:
            process.kill()
            process.join(CLUSTER_CLOSE_SECONDS)
        warnings.warn(
            f"the local dask cluster did not close in {CLUSTER_CLOSE_SECONDS:.0f} s: "
            "its worker processes still running were killed",
            RuntimeWarning,
            stacklevel=2,
        )


# dask keeps the last 1,000 messages of each connection for debugging, tasks'
# arguments included: with pmap, up to 1,000 chunks of the input held in this
# process.  Five are kept here.
_CLIENT_CONFIG: dict[str, object] = {"distributed.admin.low-level-log-length": 5}


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

    The scheduler of a local cluster lives in this process: its message logs
    are cut as the client's are (``_CLIENT_CONFIG``).
    """
    settings: dict[str, object] = {
        "distributed.worker.profile.enabled": False,
        "distributed.admin.tick.interval": "1s",
        "distributed.admin.system-monitor.interval": "2s",
        "distributed.worker.memory.monitor-interval": "1s",
        "distributed.scheduler.work-stealing": False,
        **_CLIENT_CONFIG,
    }
    if sys.platform == "linux" and sys.version_info < (3, 12):
        settings["distributed.worker.multiprocessing-method"] = "fork"
    return settings
