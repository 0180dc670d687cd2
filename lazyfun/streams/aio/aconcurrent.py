"""The async steps that start work of their own: a concurrent ``map``/``filter``/``do``
(tasks, or plain calls on a pool of daemon threads as wide as asked), a concurrent
``flatmap`` that streams its inner iterables, ``buffer``, a plain iterable read ahead on
a thread, and a sync iterator stepped on a thread (``pmap``, ``async for`` over a Stream).

Each ends all it started when it is closed, or when the task reading it is cancelled
(:class:`Ending`).  The sequential steps are in :mod:`lazyfun.streams.aio.asteps`, the
steps of several streams at once (``merge``, ``tee``) in
:mod:`lazyfun.streams.aio.abranches`.
"""

from __future__ import annotations

import asyncio
import inspect
import math
import time
from collections import deque
from collections.abc import AsyncIterable, AsyncIterator, Callable, Collection, Iterator
from typing import Any

from lazyfun.streams.aio.asteps import Threads, close_made
from lazyfun.streams.shared import reading
from lazyfun.streams.shared.calling import is_async
from lazyfun.streams.shared.parts import NOTHING, Step, StreamConsumedError, aclose
from lazyfun.streams.shared.reading import END, Mark, passed_on

__all__ = [
    "Buffer",
    "Concurrent",
    "Ending",
    "FromLoop",
    "Merge",
    "OnThread",
    "ReadAhead",
]

_ITEM, _ERROR, _END = range(3)  # what a concurrent flatmap's inner readers hand on


class Ending(Step):
    """A step that starts work of its own (tasks, calls on threads): when the task that
    reads it is cancelled (``task.cancel()``, a timeout of ``asyncio.wait_for``), it ends
    all that work and closes the steps above, and a later read says so rather than
    giving nothing."""

    cancelled = False

    async def __anext__(self) -> Any:
        if self.cancelled:
            raise StreamConsumedError(
                "this AsyncStream was closed when a read of it was cancelled: build it again"
            )
        try:
            return await self._next()
        except asyncio.CancelledError:
            self.cancelled = True
            await self.aclose()
            raise

    async def _next(self) -> Any:
        raise NotImplementedError


QUEUED = 2  # a concurrent async step has at most this many items started a call in flight


def _noted(error: Exception, note: str) -> Exception:
    """``error``, with ``note`` added: where it was raised."""
    error.add_note(note)
    return error


def _failed(error: Exception) -> asyncio.Future[Any]:
    """A future that failed with ``error``, made outside the frame that caught it: the
    error's traceback keeps that frame, whose locals must not lead back to the error."""
    failed: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    failed.set_exception(error)
    return failed


class Concurrent(Ending):
    """At most ``n`` calls in flight as tasks: coroutines, or plain calls in threads
    (``map``, ``filter``, ``do``; a concurrent ``flatmap`` is a :class:`Merge`).  Errors
    are items at their place; the reader cancelled, every call it started is cancelled.

    At most ``held`` items are read and not handed on: ``n + 1`` (``n`` in flight or
    done, and one more read, ready to start) unless the step's ``ahead`` gave more.  In
    order, each call that ends frees its place for the next item while the head is
    awaited, its result held in order, until ``held`` are read: a larger ``held`` lets
    the calls behind a slow one go on.  With ``grow`` (the default when no ``ahead`` is
    given: :func:`~lazyfun.parallel.window.grown`), in order, while the head's call is
    unfinished, a place that would idle takes the next item past ``held``, up to
    ``grow`` items read and not handed on; once the head is done, an item is read again
    only below ``held``.

    Coroutines are awaited by at most ``n`` worker tasks, started as the calls need
    them, each taking the next item from an inbox: a call costs a future, not a task
    of its own.  The inbox holds up to ``n`` items more than the workers run
    (``QUEUED``), so a worker that ends a call takes the next at once rather than
    waiting for the reader to read one (10,000 calls at 200 at a time: 81-83% of the
    ideal throughput, ``Semaphore`` and ``gather`` written by hand 60-75%)."""

    def __init__(
        self,
        source: AsyncIterator[Any],
        f: Callable[[Any], Any],
        kind: str,
        n: int,
        ordered: bool,
        what: str,
        held: int,
        grow: int | None = None,
    ) -> None:
        self.source, self.f, self.kind, self.n, self.ordered = source, f, kind, n, ordered
        self.grow = grow if ordered else None  # as completed, a slow call holds none back
        self.is_async, self.what = is_async(f), what
        self.pending: deque[tuple[int, Any, asyncio.Future[Any]]] = deque()  # input order
        self.running: set[asyncio.Future[Any]] = set()  # the calls not ended yet
        self.ended = asyncio.Event()  # set by each call that ends: what the reader waits on
        self.read = 0
        self.held = held  # the most items read and not handed on
        self.exhausted = False
        self.threads = Threads(n)
        self.inbox: asyncio.Queue[tuple[Any, asyncio.Future[Any]]] = asyncio.Queue()
        self.workers: set[asyncio.Task[None]] = set()

    def holding(self) -> int:
        """How many items it holds now: read and not yet handed on (in order), or in
        flight (as they complete)."""
        return len(self.pending) if self.ordered else len(self.running)

    def _start(self, item: Any) -> asyncio.Future[Any]:
        started: asyncio.Future[Any]
        if self.is_async:
            started = asyncio.get_running_loop().create_future()
            self.inbox.put_nowait((item, started))
            if len(self.workers) < min(self.n, len(self.running) + 1):
                worker = asyncio.ensure_future(self._work())
                self.workers.add(worker)
                worker.add_done_callback(self.workers.discard)
        else:
            started = self.threads.run(self.f, item)
        self.running.add(started)
        started.add_done_callback(self._ended)
        return started

    async def _work(self) -> None:
        """A worker: the next item's call awaited, its result (or error) set on the
        item's future, until cancelled."""
        while True:
            item, out = await self.inbox.get()
            if out.done():  # cancelled before it was called
                continue
            try:
                value = await self.f(item)
            except asyncio.CancelledError:
                out.cancel()
                raise
            except Exception as error:
                if not out.done():
                    out.set_exception(error)
                del error  # this frame keeps no error alive once it is handed on
            else:
                if not out.done():
                    out.set_result(value)

    def _ended(self, call: asyncio.Future[Any]) -> None:
        self.running.discard(call)
        self.ended.set()

    async def _fill(self) -> None:
        while not self.exhausted and len(self.running) < QUEUED * self.n and self._room():
            try:
                item = await anext(self.source)
            except StopAsyncIteration:
                self.exhausted = True
                return
            except Exception as error:  # an upstream error keeps its place
                self.pending.append((-1, None, _failed(error)))
                continue
            self.pending.append((self.read, item, self._start(item)))
            self.read += 1

    def _room(self) -> bool:
        """Whether another item may be read: fewer than ``held`` are, or, in order, the
        head's call is unfinished, a place would idle (fewer than ``n`` calls are
        unfinished) and fewer than ``grow`` are read."""
        if len(self.pending) < self.held:
            return True
        return (
            self.grow is not None
            and len(self.running) < self.n
            and len(self.pending) < self.grow
            and not self.pending[0][2].done()
        )

    async def _next_done(self) -> tuple[int, Any, asyncio.Future[Any]]:
        entry = await self._done()
        self.running.discard(entry[2])  # at once: its own callback may not have run yet
        return entry

    async def _done(self) -> tuple[int, Any, asyncio.Future[Any]]:
        # a call's callback runs only while this awaits, so clearing ``ended`` before
        # looking misses none
        if self.ordered:
            head = self.pending[0][2]
            while not head.done():  # each call that ends meanwhile makes room for the next
                self.ended.clear()
                await self._fill()
                if not head.done():
                    await self.ended.wait()
            return self.pending.popleft()
        while True:
            for i, entry in enumerate(self.pending):
                if entry[2].done():
                    del self.pending[i]
                    return entry
            self.ended.clear()
            await self.ended.wait()

    async def _next(self) -> Any:
        while True:
            await self._fill()
            if not self.pending:
                self.threads.close()
                raise StopAsyncIteration
            index, item, done = await self._next_done()
            error = done.exception()
            if error is not None:
                if index >= 0:
                    error.add_note(
                        f"{self.what}: raised by the function on item {index} "
                        "of the input (counted from 0)"
                    )
                try:
                    raise error
                finally:  # the frame keeps no error alive (in a cycle) once it is passed on
                    del error, done
            value = done.result()
            if self.kind == "map":
                return value
            if self.kind == "do" or (self.kind == "filter" and value):
                return item

    async def aclose(self) -> None:
        pending, self.pending = self.pending, deque()
        for _, _, future in pending:
            future.cancel()
        workers, self.workers = set(self.workers), set()
        for worker in workers:
            worker.cancel()
        if pending or workers:
            await asyncio.gather(
                *(future for _, _, future in pending), *workers, return_exceptions=True
            )
        self.inbox = asyncio.Queue()
        self.threads.close()
        self.exhausted = True
        await aclose(self.source)


class Merge(Ending):
    """A concurrent flatmap: at most ``n`` inner iterables read at once, each by a task
    of its own (``f`` awaited, or called on a thread; a plain inner iterator read on a
    thread too, never in the loop; a collection such as a list, already made, as it is).
    Ordered, the head's items come as they arrive and the later inner iterables read
    ahead into their own queues (at most ``ahead`` items each); as completed, every item
    comes as it arrives, interleaved.  At most ``held`` inner iterables are started and
    not read to their end (``n`` unless the step's ``ahead`` gave more); in order, one
    read to its end frees its place for the next while the head is still read, and with
    ``grow`` (the default when no ``ahead`` is given:
    :func:`~lazyfun.parallel.window.grown`) more start past ``held`` while the head has
    nothing to hand on, up to ``grow`` started and not read to their end.
    An error (of ``f``, of an inner iterable, or read from the source) is an item at its
    place and ends only its inner iterable.  Cancelled or closed, it cancels every
    reading task, closing the iterators they made."""

    def __init__(
        self,
        source: AsyncIterator[Any],
        f: Callable[[Any], Any],
        n: int,
        ordered: bool,
        what: str,
        ahead: int = 64,
        held: int | None = None,
        grow: int | None = None,
    ) -> None:
        self.source, self.f, self.n, self.ordered, self.what = source, f, n, ordered, what
        self.grow = grow if ordered else None  # as completed, a slow one holds none back
        self.is_async, self.ahead, self.held = is_async(f), ahead, held or n
        self.threads = Threads(n)
        self.queues: deque[asyncio.Queue[tuple[int, Any]]] = deque()  # ordered: input order
        self.arrived: asyncio.Queue[tuple[int, Any]] = asyncio.Queue(n)  # as completed
        self.tasks: set[asyncio.Task[None]] = set()
        self.read = 0
        self.active = 0  # inner iterables started and not read to their end
        self.reading = 0  # inner iterables still being read by their task
        self.exhausted = False
        self.failed: deque[Exception] = deque()  # as completed: errors read from the source
        self.moved = asyncio.Event()  # ordered: a reader handed an item on, or ended

    async def _read(self, item: Any, index: int, out: asyncio.Queue[tuple[int, Any]]) -> None:
        made: Any = None
        try:
            try:
                if self.is_async:
                    made = await self.f(item)
                elif inspect.isasyncgenfunction(self.f):
                    made = self.f(item)  # an async generator: made at once, in the loop
                else:
                    made = await self.threads.run(self.f, item)
                made = aiter(made) if isinstance(made, AsyncIterable) else made
                in_loop = isinstance(made, AsyncIterator | Collection)
                made = made if isinstance(made, AsyncIterator) else iter(made)
            except Exception as error:
                note = f"raised by the function on item {index} of the input (counted from 0)"
                await self._put(out, (_ERROR, _noted(error, f"{self.what}: {note}")))
            else:
                await self._drain(made, in_loop, index, out)
        finally:
            await close_made(made)
        self.reading -= 1
        await self._put(out, (_END, None))

    async def _drain(
        self, made: Any, in_loop: bool, index: int, out: asyncio.Queue[tuple[int, Any]]
    ) -> None:
        """The inner iterable ``made`` read to its end, as the sequential flatmap reads it:
        on after an error (an iterator may go on; a generator that raised has ended), each
        error at its place.  An async iterator and a collection (already made: nothing to
        wait for) are read in the loop, a plain iterator (whose reads may block) on a
        thread."""
        count = 0
        while True:
            try:
                if isinstance(made, AsyncIterator):
                    value = await anext(made, NOTHING)
                elif in_loop:
                    value = next(made, NOTHING)
                else:
                    value = await self.threads.run(next, made, NOTHING)
            except Exception as error:
                note = (
                    f"raised reading the iterable the function gave for item {index} of the "
                    f"input (counted from 0), after {count} of its items"
                )
                await self._put(out, (_ERROR, _noted(error, f"{self.what}: {note}")))
                continue
            if value is NOTHING:
                return
            await self._put(out, (_ITEM, value))
            count += 1

    async def _put(self, out: asyncio.Queue[tuple[int, Any]], entry: tuple[int, Any]) -> None:
        await out.put(entry)
        self.moved.set()

    def _start(self, item: Any) -> asyncio.Queue[tuple[int, Any]]:
        out = self.arrived if not self.ordered else asyncio.Queue[tuple[int, Any]](self.ahead)
        task = asyncio.ensure_future(self._read(item, self.read, out))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        self.read += 1
        self.active += 1
        self.reading += 1
        return out

    def _held(self) -> bool:
        """Whether no inner iterable may start until one is read to its end: the
        source ended or failed, or ``held`` started and not read to their end (in order,
        ``grow`` while the head has nothing to hand on)."""
        if self.exhausted or self.failed:
            return True
        if self.active < self.held:
            return False
        if self.grow is None or not self.queues or not self.queues[0].empty():
            return True
        return self.active >= self.grow

    def _room(self) -> bool:
        """Whether another inner iterable may start now (in order, fewer than ``n``
        still reading too)."""
        return not self._held() and (not self.ordered or self.reading < self.n)

    async def _head(self) -> asyncio.Queue[tuple[int, Any]]:
        """The first inner iterable's queue once it has an entry, starting the next inner
        iterables meanwhile as the others end."""
        out = self.queues[0]
        while out.empty() and not self._held():
            self.moved.clear()
            await self._fill()
            if out.empty():
                await self.moved.wait()
        return out

    async def _fill(self) -> None:
        while self._room():
            try:
                item = await anext(self.source)
            except StopAsyncIteration:
                self.exhausted = True
                return
            except Exception as error:  # an upstream error keeps its place
                if not self.ordered:
                    self.failed.append(error)
                    return
                failed = asyncio.Queue[tuple[int, Any]]()
                failed.put_nowait((_ERROR, error))
                failed.put_nowait((_END, None))
                self.queues.append(failed)
                self.active += 1
                continue
            out = self._start(item)
            if self.ordered:
                self.queues.append(out)

    async def _next(self) -> Any:
        while True:
            await self._fill()
            if self.failed:
                raise self.failed.popleft()
            if not self.active:
                self.threads.close()
                raise StopAsyncIteration
            out = await self._head() if self.ordered else self.arrived
            kind, value = await out.get()
            if kind == _ITEM:
                return value
            if kind == _ERROR:
                try:
                    raise value
                finally:  # the frame keeps no error alive (in a cycle) once it is passed on
                    value = None
            self.active -= 1
            if self.ordered:
                self.queues.popleft()

    async def aclose(self) -> None:
        tasks, self.tasks = list(self.tasks), set()
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        self.queues.clear()
        self.active = 0
        self.exhausted = True
        self.threads.close()
        await aclose(self.source)


class Buffer(Step):
    """Up to ``n`` items of an async source read ahead by a task; an upstream error
    arrives in its place.  It holds at most ``n`` items: each is read once there is a
    place for it, and the items read and not yet taken, the one being read included,
    hold the places.  (A plain iterable is read ahead by :class:`ReadAhead`.)"""

    def __init__(self, source: AsyncIterator[Any], n: int) -> None:
        self.source, self.queue = source, asyncio.Queue[tuple[bool, Any]]()
        self.places = asyncio.Semaphore(n)
        self.task: asyncio.Task[None] | None = None
        self.done = False

    def holding(self) -> int:
        """How many items it holds now: read and not yet taken."""
        return self.queue.qsize()

    async def _read(self) -> None:
        source = self.source
        while True:
            await self.places.acquire()
            try:
                entry: tuple[bool, Any] = (True, await anext(source))
            except StopAsyncIteration:
                self.queue.put_nowait((True, NOTHING))
                return
            except Exception as error:
                entry = (False, error)
            self.queue.put_nowait(entry)

    async def __anext__(self) -> Any:
        if self.done:
            raise StopAsyncIteration
        if self.task is None:
            self.task = asyncio.ensure_future(self._read())
        taken = [await self.queue.get()]
        self.places.release()
        value = passed_on(taken)  # an error is raised, and this frame keeps no reference to it
        if value is NOTHING:
            self.done = True
            raise StopAsyncIteration
        return value

    async def aclose(self) -> None:
        self.done = True
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
        await aclose(self.source)


class ReadAhead(Step):
    """A plain iterable read ahead on a daemon thread (the shared base's
    :class:`~lazyfun.streams.shared.reading.Buffer` of ``n``, holding ``n`` items at
    most): every item already read is taken in the loop without a wait, and only when
    none is there does the loop wait, woken by the reader itself, so a blocking read
    never blocks the loop and a cheap source stays cheap (the items cross in batches,
    one wake a batch).  With ``most``, ``n`` starts small and grows to the number of
    items taken each time the loop had to wait, up to ``most``: a reader that stops
    early has had at most as many items read ahead as it took (and one).  An error
    arrives at its place."""

    def __init__(
        self,
        items: Iterator[Any],
        n: int,
        *,
        most: int | None = None,
        close: Callable[[], object] | None = None,
        asked: bool = False,
    ) -> None:
        self.ahead = reading.Buffer(items, n, asked=asked)
        self.shelf = self.ahead.shelf
        self.entries = self.shelf.entries
        self.most = most or n  # ``n`` grows, up to ``most``, each time the loop waits
        self.close = close

    def ask(self, more: int | None) -> None:
        """Let the thread read ``more`` items past those taken (None: as many as ``n``
        allows), as :meth:`~lazyfun.streams.shared.reading.Buffer.ask`: made with ``asked``,
        it reads only what it is asked for (``group(within=)``)."""
        held = len(self.entries)  # first: a read meanwhile can only make ``taken`` larger
        taken = self.shelf.started - held
        self.shelf.allow(math.inf if more is None else taken + more)

    async def __anext__(self) -> Any:
        try:
            value = self.entries.popleft()
        except IndexError:
            value = await self._shelved()
        if self.shelf.full:  # the reader waits for room
            self.shelf.made_room()
        if type(value) is Mark:
            if value is END:
                self.entries.appendleft(END)  # the end stays: a read after it ends at once
                raise StopAsyncIteration
            self.shelf.raise_error(value)  # an item at its place: the reading goes on
        return value

    async def _shelved(self) -> Any:
        """The next value, once the reader has shelved it (started the first time, it
        wakes the loop itself; :data:`END` once closed).  Each wait lets it read as far
        ahead as the items taken so far, up to ``most``.  Before it waits, the loop lets
        the reader run (``time.sleep(0)`` gives up the GIL, for no longer than the reader
        would take it anyway): a reader woken for room has often shelved a batch by then,
        and the loop goes on with no round trip through its selector."""
        loop, shelf = asyncio.get_running_loop(), self.shelf
        self.ahead.begin()
        shelf.n = min(max(shelf.n, shelf.started), self.most)  # started: all taken, here
        time.sleep(0)  # the GIL to the reader if it is ready: often a batch, with no wake
        if shelf.entries:
            return self.entries.popleft()
        while not shelf.entries and not shelf.stopping:
            arrived = loop.create_future()
            shelf.wake = _waker(loop, arrived)
            if shelf.entries or shelf.stopping:  # it came before the wake was left
                break
            try:
                await arrived
            finally:
                shelf.wake = None  # a wait cancelled leaves no wake for a loop that may be gone
        return self.entries.popleft() if shelf.entries else END

    async def aclose(self) -> None:
        """Stop the reading thread (after the read it is in); the iterable stays open but
        for ``close``, if given."""
        self.ahead.close()  # what was read and not handed on is dropped with the rest
        self.entries.appendleft(END)
        if self.close is not None:
            self.close()


def _settle(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _waker(loop: asyncio.AbstractEventLoop, arrived: asyncio.Future[None]) -> Callable[[], object]:
    """What a reading thread calls to settle ``arrived`` in ``loop``."""
    return lambda: loop.call_soon_threadsafe(_settle, arrived)


async def _next_of(items: AsyncIterator[Any]) -> Any:
    return await anext(items)


class FromLoop(Iterator[Any]):
    """An async iterator read from another thread: each item fetched in the event loop
    (which goes on meanwhile), the thread waiting for it."""

    def __init__(self, source: AsyncIterator[Any]) -> None:
        self.source = source
        self.loop: asyncio.AbstractEventLoop | None = None

    def __next__(self) -> Any:
        assert self.loop is not None, "FromLoop is read through an OnThread"
        try:
            return asyncio.run_coroutine_threadsafe(_next_of(self.source), self.loop).result()
        except StopAsyncIteration:
            raise StopIteration from None


class OnThread(Step):
    """A plain iterator stepped on a daemon thread of its own, so its blocking steps never
    block the event loop; ``close`` (if given) runs there too when this is closed, after
    the read in progress.  ``feed``: the async source it reads from the loop, if any.  A
    read cancelled loses nothing: the next read awaits the same call's item."""

    def __init__(
        self,
        items: Iterator[Any],
        close: Callable[[], object] | None = None,
        feed: FromLoop | None = None,
    ) -> None:
        self.items, self.close, self.feed = items, close, feed
        self.thread = Threads(1)
        self.done = False
        self.reading: asyncio.Future[Any] | None = None

    async def __anext__(self) -> Any:
        if self.done:
            raise StopAsyncIteration
        if self.feed is not None and self.feed.loop is None:
            self.feed.loop = asyncio.get_running_loop()
        if self.reading is None:
            self.reading = self.thread.run(next, self.items, NOTHING)
        reading = self.reading
        try:
            item = await asyncio.shield(reading)
        except asyncio.CancelledError:
            if not reading.done():  # this read cancelled: the next one awaits the same call
                raise
            self.reading = None
            raise
        except BaseException:
            self.reading = None  # an error is an item at its place: the next read goes on
            raise
        self.reading = None
        if item is NOTHING:
            self.done = True
            self.thread.close()
            raise StopAsyncIteration
        return item

    async def aclose(self) -> None:
        self.done = True
        try:
            if self.close is not None:
                await self.thread.run(self.close)
        finally:
            self.thread.close()
            if self.feed is not None:
                await aclose(self.feed.source)
