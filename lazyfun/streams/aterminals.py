"""Reading an AsyncStream: once, to the end or to the first item, and the sinks.

:class:`AsyncTerminals` is the half of :class:`~lazyfun.streams.astream.AsyncStream`
that reads, as :class:`~lazyfun.streams.terminals.Terminals` is the Stream's: the
one-shot rule, closing (``aclose``, ``async with``), the awaitable terminals and the
sinks.  The steps are in :mod:`lazyfun.streams.astream`, whose ``astream`` the
examples use.
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable, Iterable
from datetime import timedelta
from types import TracebackType
from typing import TYPE_CHECKING, Any, Generic, ParamSpec, Self, TypeVar, overload

from lazyfun.sinks.paths import PathLike, refuse_writing_what_is_read
from lazyfun.sinks.writers import (
    BATCH,
    CsvWriter,
    JsonlWriter,
    LinesWriter,
    ParquetWriter,
    SqlWriter,
    Writer,
    adrain,
)
from lazyfun.streams.asteps import (
    Group,
    aclose,
    call,
    checked,
    is_async,
    source,
)
from lazyfun.streams.explain import Explaining, Meter, Stage, ametered, analysing, recorded, root
from lazyfun.streams.steps import StreamConsumedError, check_count, seconds
from lazyfun.streams.terminals import _Comparable

if TYPE_CHECKING:
    import sqlite3


__all__ = ["AsyncTerminals"]

T = TypeVar("T")
U = TypeVar("U")
D = TypeVar("D")
K = TypeVar("K")
V = TypeVar("V")
C = TypeVar("C", bound=_Comparable)
P = ParamSpec("P")

_NOTHING: Any = object()


@recorded
class AsyncTerminals(Explaining, Generic[T]):
    """A one-shot async source of items and the ways to read it (the base of ``AsyncStream``)."""

    __slots__ = ("_closed", "_items", "_sources", "_used")

    def __init__(
        self,
        items: AsyncIterable[T] | Iterable[T],
        sources: tuple[object, ...] = (),
        stage: Stage | None = None,
    ) -> None:
        # the step as written and its counts (the source's, when this is the first)
        self._stage = root(items, Meter() if analysing(None) else None) if stage is None else stage
        self._calls: Meter | None = None
        self._call: tuple[str, tuple[Any, ...], dict[str, Any]] | None = None
        self._items: AsyncIterator[Any] = source(items)
        self._used = self._closed = False
        # what the Stream this one came from held (its sources among them): the sinks
        # refuse to write over a file one of them reads
        self._sources = sources

    def _take_items(self) -> AsyncIterator[Any]:
        if self._closed:
            raise StreamConsumedError("this AsyncStream was closed: build it again")
        if self._used:
            raise StreamConsumedError(
                "this AsyncStream was already read: it is one-shot. Build it again "
                "to read the items again"
            )
        self._used = True
        return ametered(self._items, self._stage)

    def __aiter__(self) -> AsyncIterator[T]:
        """The items, once."""
        return self._take_items()

    async def aclose(self) -> None:
        """End the pipeline now: the tasks its concurrent steps started are cancelled
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
        self._closed = True
        await aclose(self._items)

    async def __aenter__(self) -> Self:
        """``async with astream(...) as s:`` closes ``s`` when the block is left, any way."""
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()

    # --- terminals: awaitables ---------------------------------------------------

    async def to_list(self) -> list[T]:
        """Every item, in a list.

        >>> import asyncio
        >>> asyncio.run(astream(range(3)).map(str).to_list())
        ['0', '1', '2']
        """
        items = self._take_items()
        try:
            return [item async for item in items]
        finally:
            await aclose(items)

    @overload
    async def first(self) -> T: ...

    @overload
    async def first(self, default: D) -> T | D: ...

    async def first(self, default: Any = _NOTHING) -> Any:
        """The first item (reads only it; cancels what the stream started beyond it);
        ``default`` when there is none, else ValueError.

        >>> import asyncio
        >>> asyncio.run(astream(range(7, 10**9)).first()), asyncio.run(astream([]).first(None))
        (7, None)
        """
        items = self._take_items()
        try:
            async for item in items:
                return item
        finally:
            await aclose(items)
        if default is _NOTHING:
            raise ValueError("first() of an empty AsyncStream (give a default)")
        return default

    @overload
    async def last(self) -> T: ...

    @overload
    async def last(self, default: D) -> T | D: ...

    async def last(self, default: Any = _NOTHING) -> Any:
        """The last item (reads the whole stream, keeping one item); else ``default``.

        >>> import asyncio
        >>> asyncio.run(astream(range(5)).last()), asyncio.run(astream([]).last(None))
        (4, None)
        """
        found = _NOTHING
        items = self._take_items()
        try:
            async for item in items:
                found = item
        finally:
            await aclose(items)
        if found is not _NOTHING:
            return found
        if default is _NOTHING:
            raise ValueError("last() of an empty AsyncStream (give a default)")
        return default

    async def count(self) -> int:
        """How many items there are (reads them all, keeps none).

        >>> import asyncio
        >>> asyncio.run(astream(range(10)).filter(lambda n: n % 2).count())
        5
        """
        items = self._take_items()
        n = 0
        try:
            async for _ in items:
                n += 1
        finally:
            await aclose(items)
        return n

    @overload
    async def reduce(self, f: Callable[[U, T], Awaitable[U]], initial: U) -> U: ...

    @overload
    async def reduce(self, f: Callable[[U, T], U], initial: U) -> U: ...

    async def reduce(self, f: Callable[[U, T], Any], initial: U) -> U:
        """``foldl f initial``; ``f`` plain or a coroutine function (awaited).

        >>> import asyncio
        >>> async def shift(total, n):
        ...     return total * 10 + n
        >>> asyncio.run(astream([1, 2, 3]).reduce(shift, 0))
        123
        """
        checked(f, "reduce")
        awaited = is_async(f)
        items = self._take_items()
        value = initial
        try:
            async for item in items:
                value = await call(f, awaited, value, item)
        finally:
            await aclose(items)
        return value

    async def for_each(self, f: Callable[[T], object]) -> None:
        """``f`` (plain or a coroutine function) on every item.

        >>> import asyncio
        >>> asyncio.run(astream("ab").for_each(print))
        a
        b
        """
        checked(f, "for_each")
        awaited = is_async(f)
        items = self._take_items()
        try:
            async for item in items:
                await call(f, awaited, item)
        finally:
            await aclose(items)

    @overload
    async def sum(self: AsyncTerminals[int], start: int = 0) -> int: ...

    @overload
    async def sum(self: AsyncTerminals[float], start: float = 0) -> float: ...

    async def sum(self: AsyncTerminals[Any], start: Any = 0) -> Any:
        """The sum of the items, from ``start``.

        >>> import asyncio
        >>> asyncio.run(astream(range(5)).sum())
        10
        """
        return await self.reduce(lambda total, n: total + n, start)

    async def _extreme(self, later: bool, key: Any, default: Any, name: str) -> Any:
        """The first least item (``later``: the first greatest), by ``key`` awaited."""
        awaited = key is not None and is_async(key)
        best = mark = _NOTHING
        items = self._take_items()
        try:
            async for item in items:
                this = item if key is None else await call(key, awaited, item)
                if best is _NOTHING or (mark < this if later else this < mark):
                    best, mark = item, this
        finally:
            await aclose(items)
        if best is not _NOTHING:
            return best
        if default is _NOTHING:
            raise ValueError(f"{name}() of an empty AsyncStream (give a default)")
        return default

    @overload
    async def min(self: AsyncTerminals[C], *, key: None = None) -> C: ...

    @overload
    async def min(self, *, key: Callable[[T], _Comparable | Awaitable[_Comparable]]) -> T: ...

    @overload
    async def min(self: AsyncTerminals[C], *, key: None = None, default: D) -> C | D: ...

    @overload
    async def min(
        self, *, key: Callable[[T], _Comparable | Awaitable[_Comparable]], default: D
    ) -> T | D: ...

    async def min(self, *, key: Callable[[T], Any] | None = None, default: Any = _NOTHING) -> Any:
        """The least item (by ``key``, plain or a coroutine function); ``default`` for an
        empty stream, else ValueError.

        >>> import asyncio
        >>> asyncio.run(astream(["bb", "a"]).min(key=len)), asyncio.run(astream([]).min(default=0))
        ('a', 0)
        """
        if key is not None:
            checked(key, "min's key")
        return await self._extreme(False, key, default, "min")

    @overload
    async def max(self: AsyncTerminals[C], *, key: None = None) -> C: ...

    @overload
    async def max(self, *, key: Callable[[T], _Comparable | Awaitable[_Comparable]]) -> T: ...

    @overload
    async def max(self: AsyncTerminals[C], *, key: None = None, default: D) -> C | D: ...

    @overload
    async def max(
        self, *, key: Callable[[T], _Comparable | Awaitable[_Comparable]], default: D
    ) -> T | D: ...

    async def max(self, *, key: Callable[[T], Any] | None = None, default: Any = _NOTHING) -> Any:
        """The greatest item (by ``key``, plain or a coroutine function); ``default`` for
        an empty stream, else ValueError.

        >>> import asyncio
        >>> asyncio.run(astream([3, 1, 2]).max()), asyncio.run(astream(["bb", "a"]).max(key=len))
        (3, 'bb')
        """
        if key is not None:
            checked(key, "max's key")
        return await self._extreme(True, key, default, "max")

    async def any(self, pred: Callable[[T], object] | None = None) -> bool:
        """Whether some item satisfies ``pred`` (plain or a coroutine function; without
        one, whether some item is true); reads only up to the first that does.

        >>> import asyncio
        >>> asyncio.run(astream(range(10**9)).any(lambda n: n > 5))
        True
        """
        return await self._decides(pred, "any", True)

    async def all(self, pred: Callable[[T], object] | None = None) -> bool:
        """Whether every item satisfies ``pred`` (plain or a coroutine function; without
        one, whether every item is true); reads only up to the first that does not.

        >>> import asyncio
        >>> asyncio.run(astream([1, 2, 0]).all())
        False
        """
        return await self._decides(pred, "all", False)

    async def _decides(self, pred: Callable[[T], object] | None, what: str, on: bool) -> bool:
        """The first item whose truth (under ``pred``) is ``on`` decides; none: not ``on``."""
        if pred is not None:
            checked(pred, what)
        awaited = pred is not None and is_async(pred)
        items = self._take_items()
        try:
            async for item in items:
                truth = item if pred is None else await call(pred, awaited, item)
                if bool(truth) is on:
                    return on
        finally:
            await aclose(items)
        return not on

    async def to_set(self) -> set[T]:
        """Every item, in a set.

        >>> import asyncio
        >>> sorted(asyncio.run(astream("abracadabra").to_set()))
        ['a', 'b', 'c', 'd', 'r']
        """
        return set(await self.to_list())

    async def to_dict(self: AsyncTerminals[tuple[K, V]]) -> dict[K, V]:
        """The ``(key, value)`` pairs, in a dict (a later key wins).

        >>> import asyncio
        >>> asyncio.run(astream("ab").enumerate().to_dict())
        {0: 'a', 1: 'b'}
        """
        return dict(await self.to_list())

    # --- sinks: the writing on a thread of its own, never in the event loop ---------------

    def _drained(
        self, open_writer: Callable[[], Writer], size: int, within: float | None
    ) -> Awaitable[int]:
        return adrain(open_writer, Group(self._take_items(), size, within, None))

    async def to_lines(
        self: AsyncTerminals[str],
        path: PathLike,
        *,
        encoding: str = "utf-8",
        atomic: bool = False,
        resume: bool = False,
    ) -> int:
        """As :meth:`Stream.to_lines <lazyfun.streams.terminals.Terminals.to_lines>`.

        >>> import asyncio
        >>> asyncio.run(astream(["a", "b"]).to_lines("ab.txt"))
        2
        """
        refuse_writing_what_is_read(path, self._sources, atomic)
        _no_resume(resume, "to_lines")
        writer = functools.partial(LinesWriter, path, encoding=encoding, atomic=atomic)
        return await self._drained(writer, BATCH, None)

    async def to_jsonl(self, path: PathLike, *, atomic: bool = False, resume: bool = False) -> int:
        """As :meth:`Stream.to_jsonl <lazyfun.streams.terminals.Terminals.to_jsonl>`.

        >>> import asyncio
        >>> asyncio.run(astream([{"n": 1}]).to_jsonl("n.jsonl"))
        1
        """
        refuse_writing_what_is_read(path, self._sources, atomic)
        _no_resume(resume, "to_jsonl")
        return await self._drained(functools.partial(JsonlWriter, path, atomic=atomic), BATCH, None)

    async def to_csv(
        self, path: PathLike, *, atomic: bool = False, resume: bool = False, **dialect: Any
    ) -> int:
        """As :meth:`Stream.to_csv <lazyfun.streams.terminals.Terminals.to_csv>`.

        >>> import asyncio
        >>> asyncio.run(astream([{"n": 1}]).to_csv("n.csv"))
        1
        """
        refuse_writing_what_is_read(path, self._sources, atomic)
        _no_resume(resume, "to_csv")
        writer = functools.partial(CsvWriter, path, atomic=atomic, **dialect)
        return await self._drained(writer, BATCH, None)

    async def to_parquet(
        self, path: PathLike, *, row_group: int = 10_000, atomic: bool = False
    ) -> int:
        """As :meth:`Stream.to_parquet <lazyfun.streams.terminals.Terminals.to_parquet>`.

        >>> import asyncio
        >>> asyncio.run(astream([{"n": 1}]).to_parquet("n.parquet"))
        1
        """
        refuse_writing_what_is_read(path, self._sources, atomic)
        check_count(row_group, "to_parquet's row_group", 1)
        writer = functools.partial(ParquetWriter, path, row_group=row_group, atomic=atomic)
        return await self._drained(writer, row_group, None)

    async def to_sql(
        self,
        db: PathLike | sqlite3.Connection,
        table: str,
        batch: int = 1000,
        within: float | timedelta | None = None,
        *,
        atomic: bool = False,
        resume: bool = False,
    ) -> int:
        """As :meth:`Stream.to_sql <lazyfun.streams.terminals.Terminals.to_sql>`; a batch
        whose time is up is written even while the next item is awaited.  A connection
        given here is used on the sink's thread: make it with ``check_same_thread=False``.

        >>> import asyncio
        >>> asyncio.run(astream({"n": n} for n in range(3)).to_sql("n.db", "n"))
        3
        """
        _no_resume(resume, "to_sql")
        check_count(batch, "to_sql's batch", 1)
        limit = None if within is None else seconds(within, "to_sql's within")
        writer = functools.partial(SqlWriter, db, table, batch=batch, within=limit, atomic=atomic)
        return await self._drained(writer, batch, limit)


def _no_resume(resume: bool, what: str) -> None:
    """An AsyncStream's sinks write as they go; a killed job resumes through a Stream's."""
    if resume:
        raise ValueError(
            f"{what}(resume=True) resumes a Stream's job; an AsyncStream's cannot resume yet: "
            "read the source with a Stream (the sink's concurrency= steps run on threads)"
        )
