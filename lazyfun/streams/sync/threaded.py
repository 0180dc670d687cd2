"""The Stream's steps that read or call on threads of their own: ``merge``, ``tee``, an
async iterable read synchronously.  ``buffer``'s reading thread (:class:`Buffer`), which
the async chain reads ahead with too, and the call wrappers of ``map``'s ``rate=`` and
``timeout=`` are in the shared base (:mod:`lazyfun.streams.shared.reading`,
:mod:`lazyfun.streams.shared.calling`); ``Buffer`` and ``Rate`` are named here as well.

Each thread is a daemon thread that holds no reference to its step, so dropping the
step (or closing it) stops it after the read it is in, and none holds the process open
at exit.  The other steps are in :mod:`lazyfun.streams.sync.steps`.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import AsyncIterable, AsyncIterator, Iterator
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from lazyfun.parallel.window import Holding
from lazyfun.streams.shared.calling import Rate
from lazyfun.streams.shared.reading import (
    END,
    ENDED,
    GROUP_AHEAD,
    READ,
    WAIT,
    WAKE,
    Buffer,
    TeeBook,
    passed_on,
)

if TYPE_CHECKING:
    import asyncio

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
    "passed_on",
]

T = TypeVar("T")


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
            entry = (True, END)
        except BaseException as error:
            entry = (False, error)
        while not stopping.is_set():
            try:
                ahead.put(entry, timeout=0.1)
                break
            except queue.Full:
                continue
        if entry[1] is END:
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
            if value is END:
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
        book, me = self.book, threading.current_thread()
        with self.turn:
            while (move := book.move(k, me, "thread")) in (READ, WAIT):
                if move is READ:
                    self._read()
                else:
                    self.turn.wait(WAKE)  # a reader that ends while this one waits is seen
            if move is ENDED:
                raise StopIteration
            if book.freed:
                self.turn.notify_all()
            item: T = book.hand_on()
            return item

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
            import asyncio  # here: a sync stream that reads no async iterable never loads it

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
