"""What every stream is, in either mode: one-shot items, what its steps hold, closing,
and the two ways to read it (``for``, ``async for``).

A stream keeps the runner of its mode (:mod:`lazyfun.streams.run`): the façade's
steps check their arguments, then hand the building of the chain to it.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from types import TracebackType
from typing import TYPE_CHECKING, Any, Generic, Protocol, Self, TypeVar

from lazyfun.streams.explain import Explaining, Stage, analysing, called, root
from lazyfun.streams.modes import Async, M, Sync
from lazyfun.streams.sync.steps import NOTHING, StreamConsumedError
from lazyfun.trace import Counts

if TYPE_CHECKING:
    from lazyfun.lazylist import LazyList
    from lazyfun.streams.run import Runner
    from lazyfun.streams.stream import Stream

__all__ = ["NOTHING", "Base", "Closable", "StreamConsumedError", "async_only"]

T = TypeVar("T")
S = TypeVar("S", bound="Base[Any, Sync]")

_AHEAD = 256  # the most items ``async for`` over a sync stream has read ahead on its thread


class Closable(Protocol):
    """What a step that holds threads, processes, tasks or a progress bar offers."""

    def close(self) -> None: ...


def async_only(items: object) -> bool:
    """Whether ``items`` can only be read with ``async for``: an async stream, or an
    async iterable that is not also a plain one."""
    if isinstance(items, Base):
        return bool(items._run.is_async)
    return isinstance(items, AsyncIterable) and not isinstance(items, Iterable)


class Base(Explaining, Generic[T, M]):
    """A one-shot source of items, the runner of its mode, and what its steps hold."""

    __slots__ = ("_blocker", "_closed", "_dropped", "_holds", "_items", "_run", "_used")

    def __init__(
        self,
        items: Iterable[T] | AsyncIterable[T],
        holds: tuple[Closable, ...] = (),
        blocker: str | None = None,
        dropped: str | None = None,
        stage: Stage | None = None,
        run: Runner | None = None,
    ) -> None:
        from lazyfun.streams.run import SYNC

        self._run = SYNC if run is None else run
        # the step as written and its counts (the source's, when this is the first)
        self._stage = root(items, Counts() if analysing(None) else None) if stage is None else stage
        self._calls: Counts | None = None
        self._call: tuple[str, tuple[Any, ...], dict[str, Any]] | None = None
        self._items: Any = self._run.source(items)
        self._used = self._closed = False
        # what the steps hold (threads, pools, a progress bar; a sync stream an async
        # stream was made of); the sinks refuse to write over a file one of them reads
        self._holds = holds
        self._blocker = blocker  # the first step after which a killed job cannot resume
        # the first step that may drop items (filter, catch): a concurrent map after it
        # cannot say which source records its outputs came from
        self._dropped = dropped

    def _take_items(self) -> Any:
        """The underlying iterator, once; a second call is a StreamConsumedError."""
        noun = self._run.noun
        if self._closed:
            raise StreamConsumedError(f"this {noun} was closed: build the {noun} again")
        if self._used:
            raise StreamConsumedError(
                f"this {noun} was already read: a {noun} is one-shot. {self._run.reread}"
            )
        self._used = True
        return self._run.metered(self._items, self._stage)

    def _sync_only(self, what: str, instead: str = "") -> None:
        """Refuse a sync stream's method on an async stream, with what to do instead."""
        if self._run.is_async:
            also = f": use {instead}" if instead else ""
            raise TypeError(f"{what}() is a sync stream's; this is an async stream{also}")

    # --- reading: for, async for --------------------------------------------------

    def __iter__(self: Base[T, Sync]) -> Iterator[T]:
        """The items, once (a ``for`` loop over a stream uses it up).  An async stream is
        refused at once: it is read with ``async for``, or its terminals awaited."""
        if self._run.is_async:
            raise TypeError(
                "an async stream is read with 'async for' (or its terminals awaited), not 'for'"
            )
        items: Iterator[T] = self._take_items()
        return items

    def __aiter__(self) -> AsyncIterator[T]:
        """The items, once, for ``async for``.  A sync stream's items are read on a
        daemon thread of its own, so its blocking steps never block the event loop, and
        handed over in batches: one item ahead at first, as many as it has handed over
        each time the loop has to wait, 256 at most (closing the async iterator closes
        the stream).  A stream of no steps over a container (a range, list, tuple,
        str, dict, set) is read in the loop: nothing there waits.

        >>> import asyncio
        >>> async def read():
        ...     return [n async for n in stream(range(3)).map(str)]
        >>> asyncio.run(read())
        ['0', '1', '2']
        """
        if self._run.is_async:
            items: AsyncIterator[T] = self._take_items()
            return items
        from lazyfun.streams.aio.aconcurrent import ReadAhead
        from lazyfun.streams.aio.asteps import FromSync, in_memory

        plain: Iterator[T] = self._take_items()
        if in_memory(plain):
            return FromSync(plain)
        return ReadAhead(plain, 1, most=_AHEAD, close=self._close)

    # --- closing ------------------------------------------------------------------------

    def close(self: Base[T, Sync]) -> None:
        """End the pipeline now: every concurrent step's queued calls are cancelled and the
        pool or cluster it started is shut down (a call running in your code is left to
        finish on its own, on a daemon thread or worker, and never holds the process
        open); a buffer's thread stops; a progress bar ends.  Your source, and an
        Executor or cluster you passed in, stay open.  Closing twice is nothing.  (An
        async stream: ``await aclose()``.)

        >>> squares = stream(range(10**9)).map(lambda n: n * n, concurrency=4)
        >>> it = iter(squares)
        >>> next(it), next(it)
        (0, 1)
        >>> squares.close()
        >>> next(it, "ended")
        'ended'
        """
        self._sync_only("close", "await s.aclose()")
        self._close()

    def _close(self) -> None:
        self._closed = not self._used  # once read, a second read says so
        holds, self._holds = self._holds, ()
        for hold in reversed(holds):  # from the consumer's end back to the source
            hold.close()

    def __enter__(self: S) -> S:
        """``with stream(...) as s:`` closes ``s`` when the block is left, any way.

        >>> with stream(range(10**9)).map(str, concurrency=2) as digits:
        ...     next(iter(digits))
        '0'
        """
        return self

    def __exit__(
        self: Base[T, Sync],
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    async def aclose(self: Base[T, Async]) -> None:
        """End an async pipeline now: the tasks its concurrent steps started are cancelled
        and awaited, a buffer's reading task stops, and calls of plain functions running
        on threads are abandoned to them (daemon threads: they never hold the process
        open).  Your source stays open.  Closing twice is nothing.

        >>> import asyncio
        >>> async def first_two():
        ...     squares = astream(range(10**9)).map(lambda n: n * n, concurrency=4)
        ...     async for n in squares:
        ...         break
        ...     await squares.aclose()
        ...     return n, len(asyncio.all_tasks())
        >>> asyncio.run(first_two())
        (0, 1)
        """
        if not self._run.is_async:
            raise TypeError("a sync stream is closed with 's.close()'")
        from lazyfun.streams.aio.asteps import aclose

        self._closed = True
        await aclose(self._items)

    async def __aenter__(self) -> Self:
        """``async with astream(...) as s:`` closes ``s`` when the block is left, any way."""
        return self

    async def __aexit__(
        self: Base[T, Async],
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()

    # --- between the modes ----------------------------------------------------------------

    def to_async(self: Base[T, Sync]) -> Stream[T, Async]:
        """This stream as an async one (read in the event loop; put ``.buffer(n)`` after
        it when its reads block).

        >>> import asyncio
        >>> asyncio.run(stream(range(3)).to_async().map(str).to_list())
        ['0', '1', '2']
        """
        from lazyfun.streams.run import ASYNC

        self._sync_only("to_async")
        items = self._take_items()
        stage = called(self, self._stage)
        made: Stream[T, Async] = type(self)(items, self._holds, None, None, stage, ASYNC())  # type: ignore[assignment]
        return made

    def lazylist(self: Base[T, Sync]) -> LazyList[T]:
        """A call-by-need LazyList of the items: read once, on demand, and kept for rereading.

        >>> xs = stream(range(3)).map(lambda n: n * 10).lazylist()
        >>> list(xs), list(xs)
        ([0, 10, 20], [0, 10, 20])
        """
        from lazyfun.lazylist import LazyList

        self._sync_only("lazylist")
        return LazyList.of(self._take_items())
