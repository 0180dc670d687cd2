"""One bounded window of tasks: the machinery under every concurrent map of lazyfun.

``Window(run, work, items, ...)`` is ``map(work, items)`` with the calls spread over
a :class:`~lazyfun.parallel.runners.Runner` (threads, processes, a dask cluster,
this process), and it is the only place lazyfun does that: :func:`pmap`, the
``concurrency=`` of ``Stream.map``/``filter``/``flatmap``/``do`` and the program
runs all read their results through it.

- Items travel in chunks (tasks).  Unless the chunk size is fixed, it adapts: one
  item a task at first, then as many as make a task last about ``task_seconds``
  (at most ``max_chunk`` items), so slow calls go one a task and cheap ones in
  batches that hide a task's overhead.  When the items turn slow, a task that
  overruns its time (``OVERRUN`` times ``task_seconds``) stops after the call it is
  in and hands back the items it has not started, which go out again one a task,
  ahead of the later tasks: the workers asked for stay busy.
- At most ``running`` tasks are unfinished at a time, at most ``held`` are waiting
  to be read, and at most ``most`` items are read from the input ahead of the
  consumer: an infinite input works and a long one runs in constant memory.
  With ``grow`` (a concurrent step's default, :func:`grown`), an ordered window
  whose head task is unfinished reads on past ``held`` tasks while a worker would
  idle (fewer tasks are unfinished than the runner has workers), as long as it holds
  fewer than ``grow`` items: the calls behind a slow head go on, their results held.
  Once the head is done it reads again only below ``held`` tasks (and ``most``
  items): the read-ahead grows only while the head is slow.
- ``ordered=True``: results in input order, each as soon as it and every earlier
  one are done; ``ordered=False``: each task's results as soon as it is done.
- Errors travel as values: an exception raised on item k is raised by
  ``next()`` at item k's place (ordered) or when its task is read (unordered),
  with a note naming k; the window goes on with item k+1 on the next ``next()``,
  so a ``catch`` further down loses nothing.  A flatmap's inner iterable is read
  in the worker as the sequential chain reads it: on after an error (an iterator
  may go on; a generator that raised has ended), each error kept at its place
  among the inner items.  Once handed on, an error is held by nothing of the window.
- Stopping early (``close()``, garbage collection, an exception in the consumer)
  cancels the tasks not started and shuts down what the window started itself.
  Calls already running finish on their own: a thread cannot be killed.

>>> from lazyfun.parallel.runners import runner
>>> with runner("sync", None) as run:
...     list(Window(run, abs, iter([-3, 1, -2])))
[3, 1, 2]
"""

from __future__ import annotations

import functools
import itertools
import os
import sys
import threading
import weakref
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import AbstractContextManager, ExitStack, nullcontext
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from lazyfun.parallel.daemons import DaemonPool
from lazyfun.parallel.interrupts import HeldInterrupts
from lazyfun.parallel.runners import Pool, Runner
from lazyfun.parallel.tasks import Chunk, Inner, apply

__all__ = [
    "GROWN_ITEMS",
    "GROWN_PER_PLACE",
    "MAX_CHUNK",
    "TASK_SECONDS",
    "Holding",
    "Kind",
    "Window",
    "grown",
    "next_size",
]

T = TypeVar("T")
U = TypeVar("U")

MAX_CHUNK = 8192  # items per task, at most, when the chunk size adapts
TASK_SECONDS = 0.05  # what an adaptive chunk aims at: long enough to hide a task's overhead
OVERRUN = 4  # an adaptive task past this many times its aim hands back its unstarted items
LEAST_OVERRUN = 0.02  # seconds: four of the GIL's switch intervals, so a wait is no overrun

GROWN_ITEMS = 1024  # the read-ahead behind a slow head: at least this many items held,
GROWN_PER_PLACE = 64  # or this many a place, whichever is more

Kind = Literal["map", "filter", "flatmap", "do"]


def grown(places: int) -> int:
    """The most items a concurrent step's default read-ahead holds while the head of its
    order is unfinished (sync and async alike): ``max(1024, 64 * places)``.  Behind a
    head that takes a hundred times the others' time, the ``places - 1`` other places
    go through that many items before they wait for it again.

    >>> grown(4), grown(16), grown(64)
    (1024, 1024, 4096)
    """
    return max(GROWN_ITEMS, GROWN_PER_PLACE * places)


def next_size(size: int, items: int, seconds: float, task_seconds: float, cap: int) -> int:
    """The chunk size that makes a task last about ``task_seconds``, from the last
    task's time per item; it grows at most fourfold a step, so one fast item cannot
    send a thousand slow ones to a single worker.

    >>> next_size(1, 1, 0.001, 0.05, 8192), next_size(4, 4, 0.001, 0.05, 8192)
    (4, 16)
    >>> next_size(64, 64, 1.0, 0.05, 8192)
    3
    """
    if seconds <= 0:
        return min(cap, size * 4)
    wanted = int(task_seconds * items / seconds)
    return max(1, min(cap, size * 4, wanted))


_QUEUEING = (ThreadPoolExecutor, ProcessPoolExecutor, DaemonPool)  # submit only queues


def _queues(run: Runner) -> bool:
    """Whether ``run``'s submit only queues the call (a pool of :data:`_QUEUEING`)."""
    return isinstance(run, Pool) and type(run.pool) in _QUEUEING


def _arrive(arrived: deque[int], bell: threading.Event, key: int, _future: object) -> None:
    """A future's call back, on the worker's side: the task ``key`` is done."""
    arrived.append(key)
    bell.set()


def _leftovers(task: _Task, called: int, size: int) -> list[_Task]:
    """What ``task`` did not start, having called ``called`` items: tasks of ``size``
    items (not yet sent out), the last one carrying the task's input failure; the task
    keeps the items it called."""
    task.split = True
    rest = [
        _Task(None, task.first + k, task.items[k : k + size])
        for k in range(called, len(task.items), size)
    ]
    if rest:
        rest[-1].failure, task.failure = task.failure, None
        task.items = task.items[:called]
    return rest


def _results(kind: Kind, chunk: list[Any], values: list[Any]) -> Iterator[Any]:
    """What the consumer sees of a task without errors: the values for a map, the kept
    items for a filter, the inner items for a flatmap, the items themselves for a do."""
    if kind == "map":
        return iter(values)
    if kind == "filter":
        return itertools.compress(chunk, values)
    if kind == "flatmap":
        return itertools.chain.from_iterable([inner.items for inner in values])
    return iter(chunk)


def _read_chunk(items: Iterator[Any], n: int) -> tuple[list[Any], Exception | None]:
    """Up to ``n`` items of the input, and what reading it raised right after them.  The
    error's traceback holds this frame and, through it, its callers' (which must hold
    no reference to the error: a cycle would keep it, and every frame it passed, until
    the collector runs, after the consumer dropped it)."""
    chunk: list[Any] = []
    try:
        chunk.extend(itertools.islice(items, n))
    except Exception as error:  # travels to its place, as an error of the function does
        return chunk, error
    return chunk, None


def _noted(error: BaseException, note: str, where: str) -> BaseException:
    """``error`` with a note of where it was raised (and the worker's traceback)."""
    error.add_note(note + (f"; in the worker:\n{where.rstrip()}" if where else ""))
    return error


@dataclass(slots=True)
class _Task:
    future: Any  # None until submitted (items handed back wait for a free worker)
    first: int  # the position of the task's first item in the input
    items: list[Any]  # kept for filter and do, whose results are the items
    failure: Exception | None = None  # what reading the input raised right after the items
    split: bool = False  # an overrun's unstarted items already handed back
    landed: bool = False  # seen done by the window's bookkeeping


class _Nothing:
    """The future of a task with no items (reading the input failed at once): done."""

    def done(self) -> bool:
        return True

    def result(self) -> Chunk:
        return Chunk([], 0.0)


class Holding(Iterator[T]):
    """A step that holds threads, processes or tasks until it is closed (a concurrent
    map's window, a buffer); a ``Take`` right below it closes it once it has enough.
    A source of yours is never closed by a step: you may go on reading it."""

    def close(self) -> None:
        """Let go of what the step holds."""


_OPEN: weakref.WeakSet[Window[Any]] = weakref.WeakSet()
_EXITING = threading.Event()
_CLOSING: weakref.WeakSet[threading.Thread] = weakref.WeakSet()  # closes begun by __del__


def _close_at_exit() -> None:
    """At interpreter exit, before the pools join their workers: close every window
    still open (its queued tasks cancelled, what it started shut down), and let no
    window start a thread from then on."""
    _EXITING.set()
    for window in list(_OPEN):
        window.close()
    for closing in list(_CLOSING):
        closing.join(timeout=1.0)


# Registered after concurrent.futures' own exit hooks (imported above), so it runs
# before them: they join the pools' workers, which would otherwise first run every
# task a forgotten window had queued.
threading._register_atexit(_close_at_exit)  # type: ignore[attr-defined]
# A forked worker process inherits the windows of its parent, not to be closed there.
os.register_at_fork(after_in_child=_OPEN.clear)


class Window(Holding[U]):
    """``work`` mapped over ``items`` through a bounded window of tasks on ``run``.

    ``start``, if given, is entered on the first ``next()`` and exited when the
    window closes (a pool or cluster the window owns); ``run`` may then be None
    and is what ``start`` yields.  ``label`` names the caller in the notes added
    to exceptions.  ``grow``: in order, the most items read and not yet taken while
    the head task is unfinished (None: ``held`` tasks and ``most`` items, always).
    """

    def __init__(
        self,
        run: Runner | None,
        work: Callable[[Any], Any],
        items: Iterator[Any],
        *,
        kind: Kind = "map",
        ordered: bool = True,
        running: int | None = None,
        held: int | None = None,
        most: int | None = None,
        chunksize: int | None = None,
        task_seconds: float = TASK_SECONDS,
        max_chunk: int = MAX_CHUNK,
        remote: bool = False,
        start: AbstractContextManager[Runner] | None = None,
        label: str = "map",
        grow: int | None = None,
    ) -> None:
        self._run, self._work, self._items = run, work, items
        self._grow = grow if ordered else None  # as completed, a slow task holds none back
        self._kind: Kind = kind
        self._ordered, self._chunksize, self._remote = ordered, chunksize, remote
        self._task_seconds, self._max_chunk, self._label = task_seconds, max_chunk, label
        self._limits = (running, held, most)
        self._start = start
        self._stack: ExitStack | None = None
        self._size = chunksize or 1
        self._pending: deque[_Task] = deque()
        # the tasks sent out and not yet seen done, and how many handed-back ones wait to
        # go: the bookkeeping looks at these, not at every task held for reading
        self._flying: dict[int, _Task] = {}  # by the order they were sent in
        self._sent = 0
        # the keys of the tasks whose futures said they are done (from a worker's thread,
        # where the future can call back; the others are asked), so a look at what is done
        # costs what is new, not a question to every future out
        self._arrived: deque[int] = deque()
        self._asked: dict[int, _Task] = {}
        self._bell = threading.Event()  # rung by a future's call back
        self._unsent = 0
        self._read = self._waiting = 0  # items read; items read whose tasks are pending
        # what was read from the input (items and errors) and what was handed on (values
        # and errors): for a map, their difference is what the window holds
        self._pulled = self._given = 0
        self._exhausted = self._closed = False
        self._current: Iterator[U] = iter(())
        self._parts: deque[Iterator[U] | BaseException] = deque()

    def _open(self) -> Runner:
        """The runner, started on first use, and the limits that follow from its size."""
        if self._stack is None:
            _OPEN.add(self)
            self._stack = ExitStack()
            if self._start is not None:
                self._run = self._stack.enter_context(self._start)
            assert self._run is not None
            running, held, most = self._limits
            self._running = running or 2 * self._run.workers
            self._held = held or (4 * self._running if self._ordered else self._running)
            self._most = most or self._held * (self._chunksize or self._max_chunk)
        assert self._run is not None
        return self._run

    def __iter__(self) -> Window[U]:
        return self

    def __next__(self) -> U:
        while True:
            try:
                value = next(self._current)
            except StopIteration:
                pass
            else:
                self._given += 1
                return value
            if self._parts:
                part: Iterator[U] | BaseException | None = self._parts.popleft()
                if isinstance(part, BaseException):
                    self._given += 1
                    try:
                        raise part
                    finally:
                        part = None  # the frame keeps no error alive after passing it on
                assert part is not None
                self._current = part
                continue
            if self._closed:
                raise StopIteration
            try:
                self._advance()
            except BaseException:
                self.close()
                raise

    def holding(self) -> int | None:
        """How many inputs (items or errors) a map or do has read and not yet handed on
        (what ``explain`` shows as held); None for the others."""
        return self._pulled - self._given if self._kind in ("map", "do") else None

    def held_back(self) -> int | None:
        """How many inputs (items or errors) were read and are not yet handed on, for an
        ordered map or do (one output an input, in order): what a sink resuming a job
        subtracts from its source's position.  None for the others, whose outputs do
        not say which inputs they came from."""
        if self._kind not in ("map", "do") or not self._ordered:
            return None
        return self._pulled - self._given

    def _unfinished(self) -> list[Any]:
        return [t.future for t in self._flying.values()]

    def _landed(self) -> list[_Task]:
        """The tasks sent out that are done since the last look."""
        flying, arrived = self._flying, self._arrived
        landed = [flying.pop(arrived.popleft()) for _ in range(len(arrived))]
        for key, task in list(self._asked.items()):
            if task.future.done():
                del self._asked[key]
                landed.append(flying.pop(key))
        for task in landed:
            task.landed = True
        return landed

    def _send(self, run: Runner, task: _Task, held: HeldInterrupts) -> None:
        # a pool of this library's or the standard one's only queues the call, taking its
        # locks: Ctrl-C held off; another runner may make the call here (the sync runner,
        # an Executor of the user's): Ctrl-C let through
        with nullcontext() if _queues(run) else held.open():
            task.future = future = self._submit(run, task.items)
        key, self._sent = self._sent, self._sent + 1
        self._flying[key] = task
        if hasattr(future, "add_done_callback"):  # the callback holds no task: no cycle
            future.add_done_callback(functools.partial(_arrive, self._arrived, self._bell, key))
        else:
            self._asked[key] = task

    def _fill(self, run: Runner, held: HeldInterrupts) -> None:
        """Hand out tasks while the limits allow: first the items handed back, then new
        (the input read with Ctrl-C let through: it is the user's code)."""
        self._split_overruns(self._landed())
        free = self._running - len(self._flying)
        if self._unsent:
            for task in self._pending:
                if free <= 0:
                    return
                if task.future is None:
                    self._send(run, task, held)
                    self._unsent -= 1
                    free -= 1
        while not self._exhausted and free > 0:
            room = self._room(run)
            if room <= 0:
                return
            # no local of this frame holds an input error: the reading frame's caller is
            # this one, kept by the error's traceback
            n = min(self._size, room)
            with held.open():  # the input is the user's code
                task = _Task(_Nothing(), self._read, *_read_chunk(self._items, n))
            if not task.items and task.failure is None:
                self._exhausted = True
                return
            read = len(task.items)
            self._pulled += read + (task.failure is not None)
            if read:
                self._send(run, task, held)
                free -= 1
            else:
                task.landed = True
            self._pending.append(task)
            self._read += read
            self._waiting += read

    def _room(self, run: Runner) -> int:
        """How many items may be read now: up to ``most`` held while fewer than ``held``
        tasks are; past that, while the head of the order is unfinished and a worker
        would idle, up to ``grow`` held (the places behind a slow head go on); else none."""
        if len(self._pending) < self._held and self._waiting < self._most:
            return self._most - self._waiting
        if self._grow is None or len(self._flying) >= run.workers or not self._pending:
            return 0
        head = self._pending[0].future
        if head is not None and head.done():
            return 0
        return self._grow - self._waiting

    def _submit(self, run: Runner, chunk: list[Any]) -> Any:
        budget = (
            None
            if self._chunksize or len(chunk) == 1
            else max(LEAST_OVERRUN, OVERRUN * self._task_seconds)
        )
        inner = self._kind == "flatmap"
        return run.submit(apply, self._work, chunk, self._remote, budget, inner)

    def _split_overruns(self, landed: list[_Task]) -> None:
        """Each task just done that overran: its unstarted items become tasks sized by
        the time its calls took (one an item when they were slow), right after it in the
        window (so the order holds), sent out as workers free up."""
        for task in landed:
            if task.split:
                continue  # already read, and seen then
            try:
                done: Chunk = task.future.result()
            except Exception:
                continue  # the task failed: _take says so
            rest = self._seen(task, done)
            if rest:
                at = next(i for i, held in enumerate(self._pending) if held is task) + 1
                for offset, again in enumerate(rest):
                    self._pending.insert(at + offset, again)
                self._unsent += len(rest)

    def _seen(self, task: _Task, done: Chunk) -> list[_Task]:
        """A task seen done, once, whether at the head or behind a slow head: the chunk
        size learns from its time (so cheap items behind a slow one go out in batches
        too, and read ahead as far as the limits allow), and its unstarted items come
        back as tasks, to go right after it."""
        called = len(done.values)
        rest = _leftovers(task, called, self._resize(task, done))
        if self._chunksize is None:
            self._size = next_size(
                self._size, called, done.seconds, self._task_seconds, self._max_chunk
            )
        return rest

    def _resize(self, task: _Task, done: Chunk) -> int:
        """The size of the tasks an overrun's unstarted items go out in: what its calls'
        time per item makes last ``task_seconds`` (the whole rest when it did not overrun)."""
        called = len(done.values)
        if called == len(task.items):
            return max(1, len(task.items))
        rest = len(task.items) - called
        return next_size(rest, called, done.seconds, self._task_seconds, self._max_chunk)

    def _advance(self) -> None:
        """Wait for the next task to read (the head, or any done one unordered) and
        queue its results and errors; close the window when nothing is left."""
        run = self._open()
        # Ctrl-C is raised only where no future's lock or the pool's is held (see
        # lazyfun.parallel.interrupts): in the wait, in the user's code (the input read,
        # a call made here), or once the task is taken
        with HeldInterrupts() as held:
            while True:
                self._fill(run, held)
                if not self._pending:
                    break
                task = self._ready()
                if task is None:
                    with held.open():
                        self._wait(run)
                    continue
                self._take(task)
                return
        self.close()  # all read: the runner shut down (a cluster's may wait), Ctrl-C let in

    def _wait(self, run: Runner) -> None:
        """Until a task out is done: the bell, when every future out calls back (the
        bell is cleared before looking, so no call back is missed), else the runner."""
        if self._asked:
            run.wait_any(self._unfinished())
            return
        self._bell.clear()
        if self._flying and not self._arrived:
            self._bell.wait()

    def _ready(self) -> _Task | None:
        if self._ordered:
            head = self._pending[0]
            if head.future is None or not head.future.done():
                return None
            return self._pending.popleft()
        for i, task in enumerate(self._pending):
            if task.landed:  # as of the last look, just before this one
                del self._pending[i]
                return task
        return None

    def _take(self, task: _Task) -> None:
        try:
            done: Chunk = task.future.result()
        except Exception as error:
            last = task.first + len(task.items) - 1
            error.add_note(f"{self._label}: the task holding items {task.first}..{last} failed")
            raise
        if not task.split:  # taken before the window saw it done
            handed_back = self._seen(task, done)
            self._pending.extendleft(reversed(handed_back))
            self._unsent += len(handed_back)
        self._waiting -= len(done.values)
        errors, done.errors = done.errors, {}  # the chunk keeps no error once it is queued
        failed_inside = self._kind == "flatmap" and any(
            inner is not None and inner.errors for inner in done.values
        )
        if not errors and task.failure is None and not failed_inside:
            self._current = _results(self._kind, task.items, done.values)
            return
        start = 0
        for position in sorted(errors):
            self._queue(task, done.values, start, position)
            failure, where = errors[position]
            note = (
                f"{self._label}: raised by the function on item {task.first + position} "
                "of the input (counted from 0)"
            )
            self._parts.append(_noted(failure, note, where))
            start = position + 1
        self._queue(task, done.values, start, len(done.values))
        if task.failure is not None:
            at = task.first + len(task.items)
            task.failure.add_note(f"{self._label}: raised reading item {at} of the input")
            self._parts.append(task.failure)
            task.failure = None

    def _queue(self, task: _Task, values: list[Any], start: int, stop: int) -> None:
        """The results of the task's items ``start`` to ``stop`` (whose calls returned),
        queued; a flatmap's inner errors each at its place among the inner items."""
        if self._kind == "flatmap":
            for k in range(start, stop):
                if values[k].errors:
                    if start < k:
                        self._parts.append(_results("flatmap", [], values[start:k]))
                    self._queue_inner(task.first + k, values[k])
                    start = k + 1
        if start < stop:
            self._parts.append(_results(self._kind, task.items[start:stop], values[start:stop]))

    def _queue_inner(self, at: int, inner: Inner) -> None:
        """An inner iterable (of the input's item ``at``) that raised: its items, each
        error after the items read before it."""
        errors, inner.errors = inner.errors, []
        start = 0
        for count, failure, where in errors:
            self._parts.append(iter(inner.items[start:count]))
            note = (
                f"{self._label}: raised reading the iterable the function gave for item {at} "
                f"of the input (counted from 0), after {count} of its items"
            )
            self._parts.append(_noted(failure, note, where))
            start = count
        self._parts.append(iter(inner.items[start:]))

    def close(self) -> None:
        """Cancel the tasks not started, drop what is queued, and shut down what the
        window started (calls already running finish on their own)."""
        if self._closed:
            return
        self._closed = True
        self._exhausted = True
        self._current, self._parts = iter(()), deque()
        pending, self._pending = self._pending, deque()
        try:
            if self._run is not None and pending:
                self._run.cancel(
                    t.future
                    for t in pending
                    if t.future is not None and not isinstance(t.future, _Nothing)
                )
        finally:
            if self._stack is not None:
                self._stack.close()

    def __del__(self) -> None:
        """Dropped unclosed: close on a thread of its own, since the garbage collector
        may run this in any thread, dask's event loop included, where shutting down
        a client would stall every other client of this process."""
        if self._closed or self._stack is None or _EXITING.is_set() or sys.is_finalizing():
            return  # at exit, the exit hook closes it: no thread may start then
        if threading.current_thread() is threading.main_thread():
            self.close()
            return
        closing = threading.Thread(target=self.close, name="lazyfun-window-close", daemon=True)
        _CLOSING.add(closing)
        closing.start()
