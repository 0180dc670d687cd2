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
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any, Generic, TypeVar

from lazyfun.parallel.runners import ParallelError, Runner, check_jobs, check_sendable, runner

__all__ = ["MAX_CHUNK", "TASK_SECONDS", "pmap"]

T = TypeVar("T")
U = TypeVar("U")

MAX_CHUNK = 8192  # items per task, at most, when the chunk size adapts
TASK_SECONDS = 0.05  # what an adaptive chunk aims at: long enough to hide a task's overhead
CHUNKS_PER_WORKER = 2  # unfinished tasks per worker (and four times as many held, done or not)


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


class _Window:
    """The chunks handed out and not yet yielded, in input order.

    New chunks go out while fewer than ``running`` are unfinished, fewer than
    ``held`` are waiting, and at most ``most`` items are read ahead.  A chunk
    that finishes before the head of the window frees its worker at once: the
    next chunk goes out then, not when the head is done.
    """

    def __init__(self, run: Runner, most: int, chunksize: int | None) -> None:
        self.run, self.most, self.chunksize = run, most, chunksize
        self.running = CHUNKS_PER_WORKER * run.workers
        self.held = 4 * self.running
        self.size = chunksize or 1
        self.pending: deque[tuple[Any, int, int]] = deque()  # future, first item, items
        self.read = self.ahead = 0  # items read; read and not yet yielded
        self.exhausted = False

    def unfinished(self) -> list[Any]:
        return [future for future, _, _ in self.pending if not future.done()]

    def fill(self, items: Iterator[Any], f: Callable[[Any], Any]) -> None:
        """Hand out chunks while the limits allow."""
        while not self.exhausted and len(self.pending) < self.held and self.ahead < self.most:
            if len(self.unfinished()) >= self.running:
                return
            chunk = list(islice(items, min(self.size, self.most - self.ahead)))
            if not chunk:
                self.exhausted = True
                return
            self.pending.append((self.run.submit(_apply, f, chunk), self.read, len(chunk)))
            self.read += len(chunk)
            self.ahead += len(chunk)

    def head(self) -> _Chunk[Any] | None:
        """The first chunk's result once it is done (None: wait, then look again)."""
        future, first, count = self.pending[0]
        if not future.done():
            self.run.wait_any(self.unfinished())
            return None
        self.pending.popleft()
        done = _result(future, first, count)
        if self.chunksize is None:
            self.size = _next_size(self.size, count, done.seconds)
        if done.error is not None:
            done.error.add_note(
                f"pmap: raised by the function on item {first + len(done.values)} "
                "of the input (counted from 0); in the worker:\n" + done.where.rstrip()
            )
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
        held = 4 * CHUNKS_PER_WORKER * run.workers
        most = buffer if buffer is not None else held * (chunksize or MAX_CHUNK)
        window = _Window(run, most, chunksize)
        try:
            while True:
                window.fill(items, f)
                if not window.pending:
                    return
                done = window.head()
                if done is None:
                    continue
                for value in done.values:
                    window.ahead -= 1
                    yield value
                if done.error is not None:
                    raise done.error
        finally:
            run.cancel(future for future, _, _ in window.pending)


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
    or a process pool without dask).  ``buffer`` defaults to eight chunks per
    worker (two running); ``chunksize`` fixes the items per task (default: adaptive).

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
    return _map(f, xs, scheduler, jobs, buffer, chunksize)
