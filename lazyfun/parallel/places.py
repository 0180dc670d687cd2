"""Where a concurrent step of a Stream runs: ``via=`` turned into a bounded Window.

``Stream.map(f, concurrency=n, via=...)`` (and ``filter``, ``flatmap``, ``do``)
comes here:

- ``via=None`` or ``"thread"``: a pool of ``n`` daemon threads started for the step
  (also inside ``with cluster():``: nothing is pickled, right for I/O-bound calls);
  a call blocked in your code never holds the process open at exit;
- ``"process"``: a pool of ``n`` worker processes; the function must pickle
  (checked at the call with :mod:`pickle` itself, so a lambda is refused there);
- ``"dask"``, a scheduler address, or the runner of a ``with cluster() as c:``
  block: :func:`lazyfun.parallel.pmap`'s place, ``n`` its workers (``jobs``);
- any :class:`concurrent.futures.Executor`: yours, used as it is and never shut
  down by lazyfun.

For threads and processes ``n`` is the number of calls in flight; for dask it
is the number of workers.  The window reads at most ``held x items per task``
items ahead of the consumer: ``held`` is ``n + 1`` tasks (``n`` in flight or
done, one more ready to start) unless the step's ``ahead`` gives more, in order
or not; a task is one item while the calls are slow, or what ``chunksize``
fixes.  Without ``ahead``, an ordered window whose head is unfinished reads on
past ``n + 1`` tasks while a place is free, up to :func:`~lazyfun.parallel.window.grown`
items held (``max(1024, 64 * n)``), and back to ``n + 1`` tasks once the head is
done; ``ahead`` is a fixed limit.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Literal, TypeAlias

from lazyfun.parallel.daemons import DaemonPool
from lazyfun.parallel.runners import (
    ParallelError,
    Pool,
    Runner,
    check_pickles,
    check_sendable,
    process_pool,
    runner,
)
from lazyfun.parallel.window import MAX_CHUNK, TASK_SECONDS, Kind, Window, grown

__all__ = [
    "THREAD_CHUNK",
    "THREAD_TASK_SECONDS",
    "Via",
    "check_concurrency",
    "check_place",
    "concurrent",
]

Via: TypeAlias = Literal["thread", "process", "dask"] | str | Executor | Runner | None

THREAD_TASK_SECONDS = 0.002  # a thread's task costs microseconds: aim for short tasks
THREAD_CHUNK = 1024  # items per thread task, at most


def check_concurrency(concurrency: int | None, what: str) -> None:
    """Refuse at once a number of calls in flight that cannot be."""
    if concurrency is None:
        return
    if isinstance(concurrency, bool) or not isinstance(concurrency, int):
        raise TypeError(f"{what}: concurrency must be an int, got {type(concurrency).__name__}")
    if concurrency < 1:
        raise ValueError(f"{what}: concurrency must be at least 1, got {concurrency}")


@contextmanager
def _owned(pool: Executor, workers: int) -> Iterator[Runner]:
    """A pool the step started: shut down when the step ends, queued calls cancelled,
    without waiting for the calls already running."""
    try:
        yield Pool(pool, workers)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def _threads(n: int) -> AbstractContextManager[Runner]:
    return _owned(DaemonPool(n), n)


def _processes(n: int) -> AbstractContextManager[Runner]:
    return _owned(process_pool(n), n)


def _place(
    work: Callable[[Any], Any], n: int, concurrency: int | None, via: Via, what: str
) -> tuple[Runner | None, AbstractContextManager[Runner] | None, int | None, bool]:
    """Where ``via`` runs ``work``, checked now: a runner (or what starts one), the tasks
    to keep unfinished (None: two a worker), and whether the work crosses a process."""
    check_place(work, via, what)
    if via is None or via == "thread":
        return None, _threads(n), 2 * n, False
    if via == "process":
        return None, _processes(n), None, True
    if isinstance(via, Executor):
        remote = isinstance(via, ProcessPoolExecutor)
        return Pool(via, n), None, n, remote
    if isinstance(via, str):
        return None, runner(None if via == "dask" else via, concurrency), None, True
    return via, None, None, True


def check_place(work: Callable[[Any], Any], via: Via, what: str) -> None:
    """Refuse at once a place ``via`` does not name, or ``work`` that cannot travel to
    the place's workers (a lambda to a process pool: it must pickle)."""
    function = f"{what}'s function"
    if via is None or via == "thread":
        return
    if via == "process":
        check_pickles(pickle.dumps, work, function, "a process pool pickles it", "leave via out")
    elif isinstance(via, Executor):
        if isinstance(via, ProcessPoolExecutor):
            check_pickles(pickle.dumps, work, function, "the pool pickles it")
    elif isinstance(via, str) and (via in ("dask", "sync") or "://" in via):
        check_sendable(work, function, None if via == "dask" else via)
    elif not isinstance(via, str) and all(
        hasattr(via, name) for name in ("submit", "cancel", "wait_any", "workers")
    ):
        via.check_sendable(work, function)
    else:
        raise ParallelError(
            f"{what}: via must be 'thread', 'process', 'dask', a dask scheduler address, "
            f"a cluster() or a concurrent.futures.Executor, got {via!r}"
        )


def concurrent(
    work: Callable[[Any], Any],
    items: Iterator[Any],
    *,
    kind: Kind,
    concurrency: int | None,
    ordered: bool,
    via: Via,
    what: str,
    chunksize: int | None = None,
    ahead: int | None = None,
) -> Window[Any]:
    """The window that runs ``work`` on ``items`` at the place ``via`` names (checked now,
    started on the first ``next()``).  Threads get short tasks; work that crosses a
    process, pmap's.  At most ``ahead`` tasks are read and not handed on, in order or
    not: ``n + 1`` unless given (``n`` running or done, and one more read), and then,
    in order, up to ``grown(n)`` items while the head is unfinished."""
    n = concurrency or os.cpu_count() or 1
    run, start, running, remote = _place(work, n, concurrency, via, what)
    return Window(
        run,
        work,
        items,
        kind=kind,
        ordered=ordered,
        running=running,
        held=ahead or n + 1,
        task_seconds=TASK_SECONDS if remote else THREAD_TASK_SECONDS,
        max_chunk=MAX_CHUNK if remote else THREAD_CHUNK,
        remote=remote,
        start=start,
        label=what,
        chunksize=chunksize,
        grow=None if ahead else grown(n),
    )
