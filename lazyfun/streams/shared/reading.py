"""A plain source read ahead on a daemon thread, which both runners take from: the
sync ``buffer`` and ``group(within=)`` read a :class:`Buffer`, the async chain's
``ReadAhead`` takes the same :class:`Shelf` in its event loop; and what a ``tee``
keeps for its branches (:class:`TeeBook`), sync or async.

Each thread holds no reference to its consumer, so dropping the consumer (or closing
it) stops it after the read it is in, and none holds the process open at exit.

>>> list(Buffer(iter(range(3)), 2))
[0, 1, 2]
"""

from __future__ import annotations

import contextlib
import math
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from itertools import islice
from typing import Any, Never, TypeVar

from lazyfun.parallel.window import Holding

__all__ = [
    "END",
    "ENDED",
    "GROUP_AHEAD",
    "READ",
    "TAKEN",
    "WAIT",
    "WAKE",
    "Buffer",
    "Mark",
    "Shelf",
    "TeeBook",
    "passed_on",
    "shelve",
]

T = TypeVar("T")

GROUP_AHEAD = 1024  # items a group(within=) reads ahead of its lists, on its thread


class Mark:
    """What a shelf holds that is not an item: an error in its place (let go of when it
    is raised, :meth:`Shelf.raise_error`), or, with none, :data:`END`."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException | None) -> None:
        self.error = error


END = Mark(None)  # what a shelf holds after the last item


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
        self.freed = False  # the entry last taken made room: a waiting branch may go on
        self.taken: list[tuple[bool, Any]] = []  # that entry, until handed on

    def move(self, k: int, me: object, reader: str) -> str:
        """Branch ``k``'s next move, read by ``me`` (a thread or a task): :data:`TAKEN`
        its next entry (:meth:`hand_on` gives it; ``freed`` says whether taking it made
        room), :data:`ENDED`, :data:`READ` the source, there being room, or :data:`WAIT`
        for the last branch, refused with a BufferError when that wait would never end."""
        self.readers[k] = me
        if self.ready(k):
            self.taken.append(self.take(k))
            self.freed = self.forget()
            return TAKEN
        if self.ended:
            return ENDED
        if len(self.kept) < self.bound:
            return READ
        self.check_wait(k, me, reader)
        return WAIT

    def hand_on(self) -> Any:
        """The entry taken: its item, or its error raised (kept alive by no frame)."""
        return passed_on(self.taken)

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


TAKEN, ENDED, READ, WAIT = "taken", "ended", "read", "wait"  # a tee branch's moves
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
