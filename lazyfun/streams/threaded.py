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
from itertools import islice
from typing import Any, Generic, Never, TypeVar

from lazyfun.parallel.window import Holding
from lazyfun.streams.steps import Clock, Sleep, check_count, seconds

__all__ = [
    "END",
    "GROUP_AHEAD",
    "Buffer",
    "FromAsync",
    "Mark",
    "Merge",
    "Rate",
    "Shelf",
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


class Mark:
    """What a shelf holds that is not an item: an error in its place (let go of when it
    is raised, :meth:`Shelf.raise_error`), or, with none, :data:`END`."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException | None) -> None:
        self.error = error


END = _END = Mark(None)  # what a shelf holds after the last item


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
        (this thread or task), not yet at all, or by a thread or task that has ended."""
        least = min(self.at)
        last = [j for j, at in enumerate(self.at) if at == least]
        if any(self.readers[j] in (None, me) or _ended(self.readers[j]) for j in last):
            raise BufferError(
                f"tee: branch {k} is {self.bound:,} items ahead of branch {last[0]}, which "
                f"is read by this {reader}, by none yet, or by one that has ended: read the "
                f"branches side by side, each in a {reader} of its own, or give a larger bound"
            )


def _ended(reader: object) -> bool:
    """Whether a branch's reader will read no more: a thread no longer alive, a task done."""
    alive = getattr(reader, "is_alive", None)
    if alive is not None:
        return not alive()
    done = getattr(reader, "done", None)
    return done is not None and bool(done())


WAKE = 0.05  # how often a waiting branch looks again at the reader it waits for (seconds)


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
    branch is read on this thread, not yet at all, or by a thread that has ended (an
    error, or it stopped reading), waiting would never end, so it is a BufferError saying
    so (a hang is never an answer)."""

    def __init__(self, source: Iterator[T], n: int, bound: int) -> None:
        self.source = source
        self.book = TeeBook(n, bound)
        self.turn = threading.Condition()

    def next_for(self, k: int) -> T:
        """Branch ``k``'s next item (or its error)."""
        book = self.book
        me = threading.current_thread()
        with self.turn:
            book.readers[k] = me
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
                book.check_wait(k, me, "thread")
                self.turn.wait(WAKE)  # a reader that ends while this one waits is seen

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


class Shelf:
    """What a reading thread and its consumer share (the thread holds no reference to the
    consumer): up to ``n`` values read, items as they are, an error as a :class:`Mark`,
    :data:`END` after the last.  The reader waits for room before it reads, so the values
    read and not yet taken, the one being read included, are never more than ``n``.

    Values pass one by one through a deque, without a lock, each as soon as it is read;
    a side takes the lock only to wait (the reader for room, once it has ``n``, until
    half are taken; the consumer for a value) or to wake the other side waiting.  The
    consumer, in this thread or in an event loop, takes every value it finds without
    waiting, so while both sides keep up they cross in batches, not one wake a value."""

    __slots__ = ("entries", "full", "limit", "n", "started", "stopping", "turn", "wake")

    def __init__(self, n: int, limit: float = math.inf) -> None:
        self.n = n
        self.entries: deque[Any] = deque()
        self.turn = threading.Condition()
        self.stopping = self.full = False
        # the reader starts a read only while ``started`` (its own count) is below
        # ``limit`` (the consumer's): each written by one side only, so neither is lost
        self.started, self.limit = 0, limit
        # what the consumer waiting for a value left to be called (once) by the reader
        self.wake: Callable[[], object] | None = None

    def allow(self, limit: float) -> None:
        """Let the reader start reads while it has started fewer than ``limit``: a lower
        limit stops it after the read it is in, a higher one wakes it (once stopped, none)."""
        if self.stopping:
            return
        if limit <= self.limit:
            self.limit = limit
            return
        with self.turn:
            self.limit = limit
            self.turn.notify_all()

    def wait_room(self) -> bool:
        """Wait (the reader) until there is room to read one more, and the consumer lets
        it; False once stopped."""
        entries = self.entries
        if len(entries) < self.n and self.started < self.limit:
            return not self.stopping
        with self.turn:
            if len(entries) >= self.n:
                self.full = True
                while len(entries) > self.n // 2 and not self.stopping:
                    self.turn.wait()
                self.full = False
            while self.started >= self.limit and not self.stopping:
                self.turn.wait()
        return not self.stopping

    def ring(self) -> None:
        """Wake the consumer waiting for a value (the reader, having shelved one)."""
        wake, self.wake = self.wake, None
        if wake is not None:
            with contextlib.suppress(RuntimeError):  # its loop closed meanwhile
                wake()

    def _notify(self) -> None:
        with self.turn:
            self.turn.notify_all()

    def ready(self, timeout: float | None) -> bool:
        """Whether a value is here within ``timeout`` seconds (None: wait for one, or for
        the shelf to be stopped), waiting in this thread."""
        if self.entries:
            return True
        with self.turn:
            self.wake = self._notify
            try:
                self.turn.wait_for(lambda: self.entries or self.stopping, timeout)
            finally:
                self.wake = None
        return bool(self.entries)

    def made_room(self) -> None:
        """Wake the reader waiting for room once half is free (the consumer, having taken
        a value while ``full``)."""
        if len(self.entries) <= self.n // 2:
            self.full = False  # woken once (the reader sets it again if it waits again)
            self._notify()

    def stop(self) -> None:
        """Stop the reader after the read it is in, and wake a consumer waiting."""
        with self.turn:
            self.stopping = True
            self.limit = -1
            self.turn.notify_all()
        self.ring()

    @staticmethod
    def raise_error(mark: Mark) -> Never:
        """Raise the error ``mark`` carries: neither it nor this frame keeps the error
        alive once it is passed on (no reference cycle through the traceback)."""
        error, mark.error = mark.error, None
        assert error is not None
        try:
            raise error
        finally:
            error = None


def shelve(source: Iterator[Any], shelf: Shelf) -> None:
    """A reading thread: the items of ``source`` (or their exceptions) onto ``shelf``,
    each as soon as it is read, as many at a stretch as there is room for (and as the
    consumer lets it read), until the end or until it is stopped."""
    entries = shelf.entries
    append = entries.append
    started = 0
    while shelf.wait_room():
        room = max(0, int(min(shelf.n - len(entries), shelf.limit - started)))  # limit: lowered
        stretch = started
        try:
            for item in islice(source, room):
                started += 1
                shelf.started = started
                append(item)
                if shelf.wake is not None:
                    shelf.ring()
                if started >= shelf.limit:  # lowered meanwhile, or stopped
                    break
            else:
                if started - stretch < room:  # the source has ended
                    append(END)
                    shelf.ring()
                    return
        except BaseException as error:
            started += 1
            shelf.started = started
            append(Mark(error))
            if shelf.wake is not None:
                shelf.ring()


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
        self.source, self.shelf = source, Shelf(n, 0 if asked else math.inf)
        self.thread: threading.Thread | None = None
        self.done = False
        self.taken = 0

    def ask(self, more: int | None) -> None:
        """Let the thread read ``more`` items past those taken (None: as many as ``n``
        allows; 0: none, after the read it is in).  A Buffer made with ``asked`` reads
        only what it is asked for: what ``group(within=)`` uses, so that it reads no
        further ahead than the list it is filling."""
        self.shelf.allow(math.inf if more is None else self.taken + more)

    def begin(self) -> None:
        """Start the reading thread, unless it is started."""
        if self.thread is None:
            self.thread = threading.Thread(
                target=shelve, args=(self.source, self.shelf), name="lazyfun-buffer", daemon=True
            )
            self.thread.start()

    def holding(self) -> int:
        """How many items it holds now: read and not yet taken."""
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
        self.begin()
        return self.shelf.ready(None if by is None else max(0.0, by - time.monotonic()))

    def __next__(self) -> T:
        shelf = self.shelf
        try:
            if self.done:
                raise StopIteration
            value = shelf.entries.popleft()
        except IndexError:
            self.begin()
            if not shelf.ready(None):
                raise StopIteration from None  # closed meanwhile
            value = shelf.entries.popleft()
        self.taken += 1
        if shelf.full:
            shelf.made_room()
        if type(value) is Mark:
            if value is END:
                self.done = True
                raise StopIteration
            shelf.raise_error(value)
        item: T = value
        return item

    def close(self) -> None:
        """Stop the reading thread after the read it is in, and let go of what it read."""
        self.done = True
        self.shelf.stop()
        self.shelf.entries.clear()

    def __del__(self) -> None:
        self.close()
