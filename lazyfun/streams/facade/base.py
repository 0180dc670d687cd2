"""What every stream is, in either mode: a plan of one-shot items, what its steps
hold, closing, and the two ways to read it (``for``, ``async for``).

A stream is its plan (:mod:`lazyfun.streams.plan`): each step the façade declares
checks its arguments and appends a node; nothing runs.  At the first read, the runner
of the stream's mode builds the chain from the plan (:func:`~lazyfun.streams.plan.build`)
and the stream keeps it, to be closed with it.
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Iterator
from types import TracebackType
from typing import TYPE_CHECKING, Any, Generic, Self, TypeVar

from lazyfun.streams.explain import Explaining, Stage, analysing, called, root
from lazyfun.streams.modes import Async, M, Sync
from lazyfun.streams.plan import (
    Chain,
    Closable,
    Node,
    Planned,
    Runner,
    Shared,
    async_only,
    build,
    runner,
)
from lazyfun.streams.shared.parts import NOTHING, StreamConsumedError
from lazyfun.trace import Counts

if TYPE_CHECKING:
    from lazyfun.lazylist import LazyList
    from lazyfun.streams.stream import Stream

__all__ = ["NOTHING", "Base", "Closable", "StreamConsumedError", "async_only"]

T = TypeVar("T")
S = TypeVar("S", bound="Base[Any, Sync]")


class Base(Planned, Explaining, Generic[T, M]):
    """A one-shot source of items: its plan, and once read, the chain built from it."""

    __slots__ = ("_building", "_chain", "_claimed", "_closed", "_node")

    def __init__(
        self,
        items: Any,
        holds: tuple[Closable, ...] = (),
        *,
        stage: Stage | None = None,
        mode: str = "sync",
        node: Node | None = None,
    ) -> None:
        if node is None:  # a source: the step as written and its counts
            if stage is None:
                stage = root(items, Counts() if analysing(None) else None)
            node = Node("source", (items,), None, stage, mode, holds)
        self._node = node
        self._stage = node.stage
        self._call: tuple[str, tuple[Any, ...], dict[str, Any]] | None = None
        self._chain: Chain | None = None
        self._claimed = self._closed = False
        self._building = threading.Lock()

    @property
    def _run(self) -> Runner:
        """The runner of the stream's mode."""
        return runner(self._node.mode)

    @property
    def _is_async(self) -> bool:
        return self._node.mode == "async"

    @property
    def _used(self) -> bool:
        """Whether a step or a read has taken this stream's items."""
        return self._claimed or (self._chain is not None and self._chain.taken)

    @property
    def _holds(self) -> tuple[Closable, ...]:
        """What the stream holds: its plan's sources, and once built, its steps' too."""
        return self._node.holds if self._chain is None else self._chain._holds

    @property
    def _items(self) -> Any:
        """The iterator its chain ends with (built now, if it was not)."""
        return self._built()._items

    def _restaged(self, stage: Stage) -> None:
        self._stage = stage
        self._node = self._node.restaged(stage)

    def _refuse_taken(self) -> None:
        """A StreamConsumedError when the stream was closed, read, or stepped from."""
        noun = self._run.noun
        if self._closed:
            raise StreamConsumedError(f"this {noun} was closed: build the {noun} again")
        if self._used:
            raise StreamConsumedError(
                f"this {noun} was already read: a {noun} is one-shot. {self._run.reread}"
            )

    def _step(self, step: str, *args: Any, holds: tuple[Closable, ...] = ()) -> Any:
        """The stream of the step ``step`` declared on this one, with its checked
        arguments: a new node over this stream's plan (which it uses up)."""
        return self._then(step, args, self._node.mode, holds)

    def _then(
        self, step: str, args: tuple[Any, ...], mode: str, holds: tuple[Closable, ...]
    ) -> Any:
        self._refuse_taken()
        self._claimed = True
        stage = called(self, self._stage)
        node = Node(step, args, self._node, stage, mode, (*self._node.holds, *holds))
        return type(self)(None, node=node)

    def _branches(self, n: int, bound: int) -> Any:
        """``tee``'s streams: each a branch over one node they share (built once, by the
        first of them to be read), which reads this stream's plan."""
        self._refuse_taken()
        self._claimed = True
        mode, holds = self._node.mode, self._node.holds
        tee = Node("tee", (n, bound), self._node, self._stage, mode, holds, Shared())
        return tuple(
            type(self)(None, node=Node("branch", (k,), tee, called(self, self._stage), mode, holds))
            for k in range(n)
        )

    def _input(self, other: Any) -> Any:
        """Another input of a step: a stream of this mode as its plan (used up by the
        step), anything else as it is."""
        if isinstance(other, Base) and other._is_async == self._is_async:
            other._refuse_taken()
            other._claimed = True
            return other._node
        return other

    def _built(self) -> Chain:
        """The chain of the plan, built at the first read (once, when threads race to it)."""
        if self._chain is None:
            with self._building:
                if self._chain is None:
                    self._refuse_taken()
                    self._chain = build(self._node)
        return self._chain

    def _take_items(self) -> Any:
        """The chain's items, once; a second read is a StreamConsumedError."""
        chain = self._built()
        if chain.closed and not chain.taken:  # a sink that found its job done closed it
            self._closed = True
            self._refuse_taken()
        return chain._take_items()

    def _sync_only(self, what: str, instead: str = "") -> None:
        """Refuse a sync stream's method on an async stream, with what to do instead."""
        if self._is_async:
            also = f": use {instead}" if instead else ""
            raise TypeError(f"{what}() is a sync stream's; this is an async stream{also}")

    # --- reading: for, async for --------------------------------------------------

    def __iter__(self: Base[T, Sync]) -> Iterator[T]:
        """The items, once (a ``for`` loop over a stream uses it up).  An async stream is
        refused at once: it is read with ``async for``, or its terminals awaited."""
        if self._is_async:
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
        items: AsyncIterator[T] = self._take_items()
        if self._is_async:
            return items
        reading: AsyncIterator[T] = runner("async").read_ahead(items, self._close)
        return reading

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
        if self._chain is not None:  # what its steps hold, from the consumer's end back
            self._chain.close()
        else:  # its sources, which nothing read
            for hold in reversed(self._node.holds):
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
        if not self._is_async:
            raise TypeError("a sync stream is closed with 's.close()'")
        if self._chain is None:  # nothing built: its sources, which nothing read
            self._close()
        else:
            await self._run.aclose(self._chain._items)
        self._closed = True

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
        self._sync_only("to_async")
        made: Stream[T, Async] = self._then("to_async", (), "async", ())
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
