"""The Stream's steps that read or call on threads of their own: ``buffer``, ``merge``,
``tee``, an async iterable read synchronously, and the call wrappers of ``map``'s
``rate=`` and ``timeout=``.

Each thread is a daemon thread that holds no reference to its step, so dropping the
step (or closing it) stops it after the read it is in, and none holds the process open
at exit.  The other steps are in :mod:`lazyfun.streams.steps`.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import queue
import threading
import time
from collections import deque
from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterator
from datetime import timedelta
from typing import Any, Generic, TypeVar

from lazyfun.parallel.window import Holding
from lazyfun.streams.steps import Clock, Sleep, check_count, seconds

__all__ = [
    "END",
    "GROUP_AHEAD",
    "Buffer",
    "FromAsync",
    "Merge",
    "Rate",
    "Tee",
    "TeeBook",
    "TeeBranch",
    "at_rate",
    "passed_on",
    "within",
]

T = TypeVar("T")
U = TypeVar("U")

GROUP_AHEAD = 1024  # items a group(within=) reads ahead of its lists, on its thread


class Rate:
    """At most ``count`` calls in any ``per`` seconds, shared by every thread (and task)
    that calls through it: each call reserves the first free slot and waits for it.
    ``map(f, rate=..., retry=...)`` meters each attempt, so a retry is a call too.

    >>> now = [0.0]
    >>> rate = Rate(2, 1.0, clock=lambda: now[0])
    >>> [rate.reserve() for _ in range(5)]
    [0.0, 0.0, 1.0, 1.0, 2.0]
    """

    __slots__ = ("clock", "count", "lock", "per", "sleep", "starts")

    def __init__(
        self,
        count: int,
        per: float | timedelta,
        *,
        clock: Clock = time.monotonic,
        sleep: Sleep = time.sleep,
    ) -> None:
        check_count(count, "Rate's count", 1)
        self.count, self.per = count, seconds(per, "Rate's per")
        self.clock, self.sleep = clock, sleep
        self.starts: deque[float] = deque(maxlen=count)
        self.lock = threading.Lock()

    def reserve(self) -> float:
        """Take the next slot: how long to wait, from now, before the call starts."""
        with self.lock:
            now = self.clock()
            starts = self.starts
            start = max(now, starts[0] + self.per) if len(starts) == self.count else now
            starts.append(start)
            return start - now

    def wait(self) -> None:
        """Block until a call may start (the slot taken)."""
        delay = self.reserve()
        if delay > 0:
            self.sleep(delay)

    def __repr__(self) -> str:
        return f"Rate({self.count}, per={self.per})"


def within(limit: float, f: Callable[[T], U], item: T) -> U:
    """``f(item)``, or TimeoutError once it has run ``limit`` seconds: the call is left to
    finish on a daemon thread of its own (a thread cannot be stopped), its result dropped.
    Module level: a partial of it travels to worker processes.

    >>> within(1.0, abs, -3)
    3
    """
    outcome: list[tuple[bool, Any]] = []
    finished = threading.Event()

    def call() -> None:
        try:
            outcome.append((True, f(item)))
        except BaseException as error:
            outcome.append((False, error))
        finally:
            finished.set()

    threading.Thread(target=call, name="lazyfun-timeout", daemon=True).start()
    if not finished.wait(limit):
        raise TimeoutError(f"the call ran over its timeout of {limit:g} s (left to finish)")
    result: U = passed_on(outcome)
    return result


def at_rate(rate: Rate, f: Callable[[T], U], item: T) -> U:
    """``f(item)`` once ``rate`` lets a call start (module level: a partial of it is the
    worker's function)."""
    rate.wait()
    return f(item)


END = _END = object()  # what a shelf holds after the last item


def _read_ahead(
    source: Iterator[Any], ahead: queue.Queue[tuple[bool, Any]], stopping: threading.Event
) -> None:
    """A Buffer's thread: items (or their exceptions) into ``ahead`` until the end or
    until ``stopping`` is set.  It holds no reference to the Buffer, so dropping the
    Buffer stops it."""
    while not stopping.is_set():
        try:
            entry: tuple[bool, Any] = (True, next(source))
        except StopIteration:
            entry = (True, _END)
        except BaseException as error:
            entry = (False, error)
        while not stopping.is_set():
            try:
                ahead.put(entry, timeout=0.1)
                break
            except queue.Full:
                continue
        if entry[1] is _END:
            return


class Merge(Holding[T]):
    """The items of several iterators as they come, each read on a daemon thread of its
    own into one queue of ``n`` places; an error from one arrives among them at its
    place, and that iterator is read on.  ``close()`` (or dropping the step) stops every
    reader after the read it is in.

    >>> sorted(Merge([iter([1, 3]), iter([2])], 4))
    [1, 2, 3]
    """

    def __init__(self, sources: list[Iterator[T]], n: int) -> None:
        self.sources = sources
        self.queue = queue.Queue[tuple[bool, Any]](n)
        self.stopping = threading.Event()
        self.left = len(sources)
        self.started = False

    def __next__(self) -> T:
        if not self.started:
            self.started = True
            for k, source in enumerate(self.sources):
                threading.Thread(
                    target=_read_ahead,
                    args=(source, self.queue, self.stopping),
                    name=f"lazyfun-merge-{k}",
                    daemon=True,
                ).start()
            self.sources = []
        while self.left:
            value = passed_on([self.queue.get()])
            if value is _END:
                self.left -= 1
                continue
            item: T = value
            return item
        raise StopIteration

    def close(self) -> None:
        """Stop every reader after the read it is in."""
        self.left = 0
        self.stopping.set()

    def __del__(self) -> None:
        self.close()


class TeeBook:
    """What a tee keeps, shared by the sync and the async one: the items (and errors)
    not yet read by every branch, where each branch is, and who reads it."""

    def __init__(self, n: int, bound: int) -> None:
        self.bound = bound
        self.kept: deque[tuple[bool, Any]] = deque()
        self.first = 0  # the position of kept[0]
        self.at = [0] * n
        self.readers: list[object] = [None] * n
        self.ended = False

    def ready(self, k: int) -> bool:
        return self.at[k] < self.first + len(self.kept)

    def take(self, k: int) -> tuple[bool, Any]:
        """Branch ``k``'s next entry: (True, item) or (False, error)."""
        entry = self.kept[self.at[k] - self.first]
        self.at[k] += 1
        return entry

    def forget(self) -> bool:
        """Drop what every branch has read; whether room was made."""
        least, freed = min(self.at), False
        while self.first < least:
            self.kept.popleft()
            self.first += 1
            freed = True
        return freed

    def check_wait(self, k: int, me: object, reader: str) -> None:
        """Refuse a wait for the last branch that could never end: it is read by ``me``
        (this thread or task) or not yet at all."""
        least = min(self.at)
        last = [j for j, at in enumerate(self.at) if at == least]
        if any(self.readers[j] in (None, me) for j in last):
            raise BufferError(
                f"tee: branch {k} is {self.bound:,} items ahead of branch {last[0]}, which "
                f"is read by this {reader} or not yet at all: read the branches side by side, "
                f"each in a {reader} of its own, or give a larger bound"
            )


def passed_on(taken: list[tuple[bool, Any]]) -> Any:
    """The item of the one entry in ``taken`` (emptied), or its error raised: neither this
    frame nor the caller's keeps the error alive after it is passed on."""
    ok, value = taken.pop()
    if not ok:
        try:
            raise value
        finally:
            value = None
    return value


class Tee(Generic[T]):
    """``n`` branches over one source, at most ``bound`` items apart: the items (and the
    source's errors, at their places) kept until every branch has read them.  A branch
    ``bound`` items ahead waits for the last one, read on another thread; when that
    branch is read on this thread, or not yet at all, waiting would never end, so it is
    a BufferError saying so (a hang is never an answer)."""

    def __init__(self, source: Iterator[T], n: int, bound: int) -> None:
        self.source = source
        self.book = TeeBook(n, bound)
        self.turn = threading.Condition()

    def next_for(self, k: int) -> T:
        """Branch ``k``'s next item (or its error)."""
        book = self.book
        with self.turn:
            book.readers[k] = threading.get_ident()
            while True:
                if book.ready(k):
                    taken = [book.take(k)]
                    if book.forget():
                        self.turn.notify_all()
                    item: T = passed_on(taken)
                    return item
                if book.ended:
                    raise StopIteration
                if len(book.kept) < book.bound:
                    self._read()
                    continue
                book.check_wait(k, threading.get_ident(), "thread")
                self.turn.wait()

    def _read(self) -> None:
        try:
            self.book.kept.append((True, next(self.source)))
        except StopIteration:
            self.book.ended = True
        except Exception as error:  # at its place, for every branch
            self.book.kept.append((False, error))


class TeeBranch(Iterator[T]):
    """One branch of a :class:`Tee`."""

    def __init__(self, tee: Tee[T], k: int) -> None:
        self.tee, self.k = tee, k

    def __next__(self) -> T:
        item: T = self.tee.next_for(self.k)
        return item


class FromAsync(Holding[T]):
    """An async iterable read synchronously, on an event loop of its own (made at the
    first read, closed with the step).  Not inside a running loop: there, ``astream``.

    >>> async def countdown():
    ...     for n in (3, 2, 1):
    ...         yield n
    >>> list(FromAsync(countdown()))
    [3, 2, 1]
    """

    def __init__(self, items: AsyncIterable[T]) -> None:
        self.items: AsyncIterator[T] = aiter(items)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.done = False

    def __next__(self) -> T:
        if self.done:
            raise StopIteration
        if self.loop is None:
            try:
                asyncio.get_running_loop()
            except RuntimeError:
                self.loop = asyncio.new_event_loop()
            else:
                raise RuntimeError(
                    "an async iterable is read synchronously outside an event loop only: "
                    "inside one, use lazyfun.astream(...)"
                )
        try:
            item: T = self.loop.run_until_complete(anext(self.items))
        except StopAsyncIteration:
            self.close()
            raise StopIteration from None
        return item

    def close(self) -> None:
        """End the loop (the async generators it started are closed with it)."""
        self.done = True
        loop, self.loop = self.loop, None
        if loop is not None:
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()


class _Shelf:
    """What a Buffer's thread and the Buffer share (the thread holds no reference to the
    Buffer): up to ``n`` entries read, each (True, item) or (False, error).  The reader
    waits for room before it reads, so the items read and not yet taken, the one being
    read included, are never more than ``n``.  An entry passes without a lock while both
    sides keep going; a side takes the lock only to wait (the reader for room, once it
    has ``n``, until half are taken; the Buffer for an entry) or to wake the other side
    waiting."""

    __slots__ = (
        "entries",
        "full",
        "lent",
        "limit",
        "n",
        "started",
        "stopping",
        "turn",
        "waiting",
        "wake",
    )

    def __init__(self, n: int, limit: float = math.inf) -> None:
        self.n = n
        self.entries: deque[tuple[bool, Any]] = deque()
        self.turn = threading.Condition()
        self.stopping = self.waiting = self.full = False
        # the reader starts a read only while ``started`` (its own count) is below
        # ``limit`` (the Buffer's): each written by one side only, so neither is lost
        self.started, self.limit = 0, limit
        # entries taken off in a batch and not yet used (``lend``): still held, so they
        # count against ``n`` (written by the consumer alone)
        self.lent = 0
        # what a consumer in the event loop waiting for an entry left to be called (once)
        self.wake: Callable[[], object] | None = None

    def allow(self, limit: float) -> None:
        """Let the reader start reads while it has started fewer than ``limit``: a lower
        limit stops it after the read it is in, a higher one wakes it."""
        if limit <= self.limit:
            self.limit = limit
            return
        with self.turn:
            self.limit = limit
            self.turn.notify_all()

    def room(self) -> bool:
        """Wait until there is room for one more entry, and leave to read it; False once
        stopped."""
        if len(self.entries) + self.lent >= self.n:
            with self.turn:
                self.full = True
                while len(self.entries) + self.lent > self.n // 2 and not self.stopping:
                    self.turn.wait()
                self.full = False
        if self.started >= self.limit:
            with self.turn:
                while self.started >= self.limit and not self.stopping:
                    self.turn.wait()
        self.started += 1
        return not self.stopping

    def put(self, entry: tuple[bool, Any]) -> None:
        """Shelve ``entry`` (there is room: the reader asked before reading it), and wake
        a consumer waiting for one."""
        self.entries.append(entry)
        if self.waiting:
            with self.turn:
                self.turn.notify_all()
        wake = self.wake
        if wake is not None:
            self.wake = None
            with contextlib.suppress(RuntimeError):  # its loop closed meanwhile
                wake()

    def ready(self, timeout: float | None) -> bool:
        """Whether an entry is here within ``timeout`` seconds (None: wait for one, or
        for the shelf to be stopped)."""
        if self.entries:
            return True
        with self.turn:
            self.waiting = True
            try:
                self.turn.wait_for(lambda: self.entries or self.stopping, timeout)
            finally:
                self.waiting = False
        return bool(self.entries)

    def take(self) -> tuple[bool, Any]:
        """The next entry, once there is one (the end, once stopped)."""
        if not self.entries and not self.ready(None):
            return (True, _END)
        entry = self.entries.popleft()
        if self.full and len(self.entries) <= self.n // 2:
            with self.turn:
                self.turn.notify_all()
        return entry

    def lend(self) -> deque[tuple[bool, Any]]:
        """Every entry here, taken off at once (there is one at least): a consumer in
        another world (the event loop) uses them one by one, takes each off ``lent``,
        and calls ``made_room`` while the reader waits (``full``)."""
        entries, batch = self.entries, deque[tuple[bool, Any]]()
        for _ in range(len(entries)):
            batch.append(entries.popleft())
        self.lent += len(batch)
        return batch

    def made_room(self) -> None:
        """Wake the reader waiting for room once half is free (the consumer of lent
        entries, having used one, counted it off ``lent``)."""
        if self.full and len(self.entries) + self.lent <= self.n // 2:
            self.full = False  # woken once (the reader sets it again if it waits again)
            with self.turn:
                self.turn.notify_all()

    def stop(self) -> None:
        with self.turn:
            self.stopping = True
            self.turn.notify_all()
        wake = self.wake
        if wake is not None:
            self.wake = None
            with contextlib.suppress(RuntimeError):  # its loop closed meanwhile
                wake()


def _shelve(source: Iterator[Any], shelf: _Shelf) -> None:
    """A Buffer's thread: the items of ``source`` (or their exceptions) onto ``shelf``,
    each read once there is room for it, until the end or until it is stopped."""
    while shelf.room():
        try:
            entry: tuple[bool, Any] = (True, next(source))
        except StopIteration:
            entry = (True, _END)
        except BaseException as error:
            entry = (False, error)
        shelf.put(entry)
        if entry[1] is _END:
            return


class Buffer(Holding[T]):
    """Up to ``n`` items read ahead by a background thread, to overlap a slow producer
    with a slow consumer; an upstream exception arrives in its place.  It holds at most
    ``n`` items: the items read and not yet taken, the one being read included.

    The thread starts on the first ``next()`` (or ``ready()``).  ``close()`` (or
    dropping the iterator) stops it after the read it is in: a thread cannot be
    interrupted, so a read that blocks for ever keeps it (it is a daemon thread).

    >>> list(Buffer(iter(range(3)), 2))
    [0, 1, 2]
    """

    def __init__(self, source: Iterator[T], n: int, *, asked: bool = False) -> None:
        self.source, self.shelf = source, _Shelf(n, 0 if asked else math.inf)
        self.thread: threading.Thread | None = None
        self.done = False
        self.taken = 0

    def ask(self, more: int | None) -> None:
        """Let the thread read ``more`` items past those taken (None: as many as ``n``
        allows; 0: none, after the read it is in).  A Buffer made with ``asked`` reads
        only what it is asked for: what ``group(within=)`` uses, so that it reads no
        further ahead than the list it is filling."""
        self.shelf.allow(math.inf if more is None else self.taken + more)

    def _begin(self) -> None:
        if self.thread is None:
            self.thread = threading.Thread(
                target=_shelve, args=(self.source, self.shelf), name="lazyfun-buffer", daemon=True
            )
            self.thread.start()

    def holding(self) -> int:
        """How many items it holds now: read (or being read) and not yet taken."""
        return max(0, self.shelf.started - self.taken)

    def ready(self, by: float | None) -> bool:
        """Whether the next item (or error, or the end) is here by ``by``, a reading of
        ``time.monotonic()``, waiting until then at most (None: until it is, or the
        Buffer is closed): what lets ``group(within=)`` close a list on time while the
        source stalls.

        >>> Buffer(iter([]), 1).ready(time.monotonic() + 1.0)
        True
        """
        if self.done or self.shelf.entries:
            return True
        self._begin()
        return self.shelf.ready(None if by is None else max(0.0, by - time.monotonic()))

    def __next__(self) -> T:
        if self.done:
            raise StopIteration
        if self.thread is None:
            self._begin()
        taken = [self.shelf.take()]
        self.taken += 1
        if taken[0][0] and taken[0][1] is not _END:
            item: T = taken.pop()[1]
            return item
        passed_on(taken)  # an error is raised, and this frame keeps no reference to it
        self.done = True
        raise StopIteration

    def close(self) -> None:
        """Stop the reading thread after the read it is in."""
        self.done = True
        self.shelf.stop()

    def __del__(self) -> None:
        self.close()
