"""A lazy, ordered, bounded parallel map: ``map f xs`` with ``f`` run on workers.

``pmap(f, xs)`` is ``map(f, xs)`` with the calls of ``f`` spread over the
workers of a :func:`~lazyfun.parallel.runners.runner`, through the one bounded
window of :mod:`lazyfun.parallel.window`:

- results come in input order, each as soon as it and every earlier one are done;
- ``xs`` is read only as far as ``buffer`` items ahead of the consumer, so an
  infinite input works (``take(5, pmap(f, count()))``) and a long one runs in
  constant memory on the client (``concurrent.futures.Executor.map`` reads
  all of its input first and holds a future per item);
- items travel in chunks.  Unless ``chunksize`` is given, the chunk size
  adapts: it starts at one item and is set from the time chunks take, so
  that a task lasts about :data:`TASK_SECONDS` (at most :data:`MAX_CHUNK` items);
- an exception raised by ``f`` on item k is raised again, with its own type,
  after items 0..k-1 have been yielded; a note says k and shows the
  worker's traceback.  The exception travels as a value: ``next()`` again
  goes on with item k+1 (which is how ``Stream.catch`` resumes after it);
- stopping early (``break``, ``take``, closing the generator) cancels the
  tasks in flight, and shuts down a cluster that pmap started itself.

>>> list(pmap(abs, [-3, 1, -2], scheduler="sync"))
[3, 1, 2]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from lazyfun.parallel.runners import ParallelError, check_jobs, check_sendable, runner
from lazyfun.parallel.window import MAX_CHUNK, TASK_SECONDS, Holding, Window

__all__ = ["MAX_CHUNK", "TASK_SECONDS", "pmap"]

T = TypeVar("T")
U = TypeVar("U")


def pmap(
    f: Callable[[T], U],
    xs: Iterable[T],
    *,
    jobs: int | None = None,
    scheduler: str | None = None,
    buffer: int | None = None,
    chunksize: int | None = None,
) -> Holding[U]:
    """``map(f, xs)`` on parallel workers: lazy, in input order, reading at most
    ``buffer`` items ahead of the consumer.

    ``jobs`` and ``scheduler`` choose the workers as every lazyfun.parallel
    function does (a local cluster started for the call, an address or
    ``$LAZYFUN_DASK_SCHEDULER``, ``"sync"``, the block of a ``with cluster():``,
    or a process pool without dask).  ``buffer`` defaults to eight chunks per
    worker (two running), the window's defaults; ``chunksize`` fixes the items
    per task (default: adaptive).  The results come as an iterator that ``close()``
    stops (:class:`~lazyfun.parallel.window.Holding`): the tasks in flight are
    cancelled, and a cluster the call started is shut down.

    The arguments and ``f`` are checked at the call: ``f`` must be picklable
    for worker processes (dask's cloudpickle takes lambdas and closures; the
    process pool without dask does not).  Nothing runs until the first item
    is asked for.

    >>> from itertools import count
    >>> from lazyfun import take
    >>> list(take(4, pmap(str, count(), scheduler="sync", buffer=3)))
    ['0', '1', '2', '3']
    """
    if buffer is not None and buffer < 1:
        raise ParallelError(f"buffer must be at least 1 item, got {buffer}")
    if chunksize is not None and chunksize < 1:
        raise ParallelError(f"chunksize must be at least 1 item, got {chunksize}")
    check_jobs(jobs)
    if not callable(f):
        raise TypeError(f"pmap needs a function to apply, got {type(f).__name__}")
    check_sendable(f, "pmap's function", scheduler)
    return Window(
        None,
        f,
        iter(xs),
        most=buffer,
        chunksize=chunksize,
        remote=True,
        start=runner(scheduler, jobs),
        label="pmap",
    )
