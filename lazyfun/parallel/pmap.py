"""A lazy, ordered, bounded parallel map: ``map f xs`` with ``f`` run on workers.

``pmap(f, xs)`` is ``map(f, xs)`` with the calls of ``f`` spread over the
workers of a :func:`~lazyfun.parallel.runners.runner`:

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
  worker's traceback;
- stopping early (``break``, ``take``, closing the generator) cancels the
  tasks in flight, and shuts down a cluster that pmap started itself.

>>> list(pmap(abs, [-3, 1, -2], scheduler="sync"))
[3, 1, 2]
"""

from __future__ import annotations

import pickle
import time
import traceback
from collections import deque
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass
from itertools import islice
from typing import Any, Generic, TypeVar

from lazyfun.parallel.runners import ParallelError, check_sendable, runner

__all__ = ["MAX_CHUNK", "TASK_SECONDS", "pmap"]

T = TypeVar("T")
U = TypeVar("U")

MAX_CHUNK = 8192  # items per task, at most, when the chunk size adapts
TASK_SECONDS = 0.05  # what an adaptive chunk aims at: long enough to hide a task's overhead
CHUNKS_PER_WORKER = 2  # tasks in flight per worker


@dataclass(frozen=True, slots=True)
class _Chunk(Generic[U]):
    """What a worker sends back for one chunk: the values it made, in order, and the
    exception ``f`` raised on the next item, if it raised one."""

    values: list[U]
    seconds: float
    error: BaseException | None = None
    where: str = ""


def _portable(error: Exception) -> BaseException:
    """``error`` itself if it survives pickling, else a ParallelError that names it."""
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return ParallelError(f"{type(error).__name__}: {error} (not picklable, so restated)")
    return error


def _apply(f: Callable[[T], U], chunk: list[T]) -> _Chunk[U]:
    """``f`` on each item of a chunk, in a worker, stopping at the first exception."""
    start = time.perf_counter()
    values: list[U] = []
    for item in chunk:
        try:
            values.append(f(item))
        except Exception as error:
            where = "".join(traceback.format_exception(error))
            return _Chunk(values, time.perf_counter() - start, _portable(error), where)
    return _Chunk(values, time.perf_counter() - start)


def _next_size(size: int, items: int, seconds: float) -> int:
    """The chunk size that makes a task last about TASK_SECONDS, from the last chunk's
    time per item; it grows at most fourfold a step, so one fast item cannot send
    a thousand slow ones to a single worker.

    >>> _next_size(1, 1, 0.001), _next_size(4, 4, 0.001), _next_size(64, 64, 1.0)
    (4, 16, 3)
    """
    if seconds <= 0:
        return min(MAX_CHUNK, size * 4)
    wanted = int(TASK_SECONDS * items / seconds)
    return max(1, min(MAX_CHUNK, size * 4, wanted))


def _result(future: Any, first: int, size: int) -> _Chunk[Any]:
    """A chunk's result; a task that failed for another reason than ``f`` (a worker
    lost too often, a cancelled task) says which items it held."""
    try:
        done: _Chunk[Any] = future.result()
    except Exception as error:
        error.add_note(f"pmap: the task holding items {first}..{first + size - 1} failed")
        raise
    return done


def _map(
    f: Callable[[T], U],
    xs: Iterable[T],
    scheduler: str | None,
    jobs: int | None,
    buffer: int | None,
    chunksize: int | None,
) -> Generator[U, None, None]:
    items = iter(xs)
    with runner(scheduler, jobs) as run:
        in_flight = CHUNKS_PER_WORKER * run.workers
        most = buffer if buffer is not None else in_flight * (chunksize or MAX_CHUNK)
        size = chunksize or 1
        pending: deque[tuple[Any, int, int]] = deque()  # future, first item, items
        read = ahead = 0  # items read; read and not yet yielded
        exhausted = False
        try:
            while True:
                while not exhausted and len(pending) < in_flight and ahead < most:
                    chunk = list(islice(items, min(size, most - ahead)))
                    if not chunk:
                        exhausted = True
                        break
                    pending.append((run.submit(_apply, f, chunk), read, len(chunk)))
                    read += len(chunk)
                    ahead += len(chunk)
                if not pending:
                    return
                future, first, count = pending.popleft()
                done = _result(future, first, count)
                if chunksize is None:
                    size = _next_size(size, count, done.seconds)
                for value in done.values:
                    ahead -= 1
                    yield value
                if done.error is not None:
                    error = done.error
                    error.add_note(
                        f"pmap: raised by the function on item {first + len(done.values)} "
                        "of the input (counted from 0); in the worker:\n" + done.where.rstrip()
                    )
                    raise error
        finally:
            run.cancel(future for future, _, _ in pending)


def pmap(
    f: Callable[[T], U],
    xs: Iterable[T],
    *,
    jobs: int | None = None,
    scheduler: str | None = None,
    buffer: int | None = None,
    chunksize: int | None = None,
) -> Generator[U, None, None]:
    """``map(f, xs)`` on parallel workers: lazy, in input order, reading at most
    ``buffer`` items ahead of the consumer.

    ``jobs`` and ``scheduler`` choose the workers as every lazyfun.parallel
    function does (a local cluster started for the call, an address or
    ``$LAZYFUN_DASK_SCHEDULER``, ``"sync"``, the block of a ``with cluster():``,
    or a process pool without dask).  ``buffer`` defaults to two chunks per
    worker; ``chunksize`` fixes the items per task (default: adaptive).

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
    if jobs is not None and jobs < 1:
        raise ParallelError(f"jobs must be at least 1, got {jobs}")
    if not callable(f):
        raise TypeError(f"pmap needs a function to apply, got {type(f).__name__}")
    check_sendable(f, "pmap's function", scheduler)
    return _map(f, xs, scheduler, jobs, buffer, chunksize)
