"""Async streams: the Stream's steps for ``async for``, coroutines in the chain.

``astream(source)`` wraps an async iterable (or a plain one, read in the event
loop: put ``.buffer(n)`` after a source whose reads block) in an
:class:`AsyncStream`, whose steps have the names and meanings of
:class:`~lazyfun.streams.stream.Stream`'s.  A function given to ``map``, ``filter``,
``flatmap`` or ``do`` may be a coroutine function or a plain one; with
``concurrency=n`` at most n coroutines run at once as tasks (plain functions
in threads), results in input order or, with ``ordered=False``, as they
complete.  Every other function a step or a terminal takes (``takewhile``,
``catch``'s, ``reduce``'s, a ``key``...) may be either too.  Terminals are
awaitables; the stream is one-shot, as a Stream is.  Every public step and terminal
of a Stream is here with the same parameters, but ``to_async``, ``lazylist`` and
``close`` (here ``aclose``).

Stopping early (``break`` then ``aclose()``, a terminal such as ``first``, leaving
``async with``, cancelling the task that reads it, or the end of the event loop)
cancels every task the stream started.

>>> import asyncio
>>> async def double(n):
...     await asyncio.sleep(0)
...     return 2 * n
>>> asyncio.run(astream(range(5)).map(double, concurrency=2).filter(lambda n: n > 2).to_list())
[4, 6, 8]
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable, Iterable
from datetime import timedelta
from types import TracebackType
from typing import TYPE_CHECKING, Any, Concatenate, Generic, ParamSpec, Self, TypeVar, overload

from lazyfun.sinks.paths import PathLike
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
    Buffer,
    Catch,
    Chain,
    Concurrent,
    Drop,
    Enumerate,
    FlatMap,
    FromLoop,
    Group,
    Map,
    Merge,
    Observed,
    OnThread,
    Probed,
    Recovering,
    Scan,
    Sliding,
    Take,
    Throttle,
    Unique,
    While,
    Zip,
    aclose,
    call,
    checked,
    chunked,
    is_async,
    source,
    with_retry,
)
from lazyfun.streams.steps import check_count, seconds
from lazyfun.streams.terminals import StreamConsumedError, _Comparable

if TYPE_CHECKING:
    import logging
    import sqlite3
    from typing import TypeGuard

    from typing_extensions import TypeIs

    from lazyfun.trace import Probe

__all__ = ["AsyncStream", "astream"]

T = TypeVar("T")
U = TypeVar("U")
D = TypeVar("D")
K = TypeVar("K")
V = TypeVar("V")
C = TypeVar("C", bound=_Comparable)
P = ParamSpec("P")

_NOTHING: Any = object()


class AsyncStream(Generic[T]):
    """A one-shot async pipeline, composed by method chaining; read it with
    ``async for`` or await a terminal.  Build one with :func:`astream`."""

    __slots__ = ("_closed", "_items", "_used")

    def __init__(self, items: AsyncIterable[T] | Iterable[T]) -> None:
        self._items: AsyncIterator[Any] = source(items)
        self._used = self._closed = False

    def _take_items(self) -> AsyncIterator[Any]:
        if self._closed:
            raise StreamConsumedError("this AsyncStream was closed: build it again")
        if self._used:
            raise StreamConsumedError(
                "this AsyncStream was already read: it is one-shot. Build it again "
                "to read the items again"
            )
        self._used = True
        return self._items

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

    def __repr__(self) -> str:
        return f"<AsyncStream {'read' if self._used else 'unread'}>"

    def _step(self, kind: str, f: Any, concurrency: int | None, ordered: bool) -> AsyncStream[Any]:
        if concurrency is not None:
            check_count(concurrency, f"{kind}'s concurrency", 1)
            return AsyncStream(Concurrent(self._take_items(), f, kind, concurrency, ordered, kind))
        if kind == "flatmap":
            return AsyncStream(FlatMap(self._take_items(), f))
        return AsyncStream(Map(self._take_items(), f, kind))

    # --- steps ----------------------------------------------------------------

    @overload
    def map(
        self,
        f: Callable[[T], Awaitable[U]],
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        retry: Any = None,
    ) -> AsyncStream[U]: ...

    @overload
    def map(
        self,
        f: Callable[[T], U],
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        retry: Any = None,
    ) -> AsyncStream[U]: ...

    def map(
        self,
        f: Callable[[T], Any],
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        retry: Any = None,
    ) -> AsyncStream[Any]:
        """``f`` on each item, awaited if it is a coroutine function; with
        ``concurrency=n`` at most n calls at once (tasks, or threads for a plain
        ``f``).  ``retry``: a tenacity ``AsyncRetrying`` (or ``Retrying`` for a plain ``f``).

        >>> import asyncio
        >>> asyncio.run(astream("ab").map(str.upper).to_list())
        ['A', 'B']
        """
        checked(f, "map")
        return self._step("map", with_retry(f, retry), concurrency, ordered)

    @overload
    def filter(
        self,
        keep: Callable[[T], TypeIs[U]],
        *,
        concurrency: int | None = None,
        ordered: bool = True,
    ) -> AsyncStream[U]: ...

    @overload
    def filter(
        self,
        keep: Callable[[T], TypeGuard[U]],
        *,
        concurrency: int | None = None,
        ordered: bool = True,
    ) -> AsyncStream[U]: ...

    @overload
    def filter(
        self,
        keep: Callable[[T], object],
        *,
        concurrency: int | None = None,
        ordered: bool = True,
    ) -> AsyncStream[T]: ...

    def filter(
        self,
        keep: Callable[[T], object],
        *,
        concurrency: int | None = None,
        ordered: bool = True,
    ) -> AsyncStream[Any]:
        """The items for which ``keep`` (plain or a coroutine function) is true.

        >>> import asyncio
        >>> asyncio.run(astream(range(6)).filter(lambda n: n % 3 == 0).to_list())
        [0, 3]
        """
        checked(keep, "filter")
        return self._step("filter", keep, concurrency, ordered)

    def flatmap(
        self,
        f: Callable[[T], Iterable[U] | AsyncIterable[U] | Awaitable[Iterable[U]]],
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        retry: Any = None,
    ) -> AsyncStream[U]:
        """The items of ``f(x)`` (an iterable or an async iterable, or a coroutine giving
        an iterable) for each item ``x``.  With ``concurrency=n`` at most n inner iterables
        are read at once, each by a task (a plain ``f`` and a plain inner iterator on a
        thread): in order, the first one's items come as they arrive while the others
        read ahead; with ``ordered=False`` every item comes as it arrives, interleaved.
        Closing the stream closes the inner iterators ``f`` made.

        >>> import asyncio
        >>> asyncio.run(astream([1, 2]).flatmap(range).to_list())
        [0, 0, 1]
        >>> asyncio.run(astream([1, 2]).flatmap(range, concurrency=2).to_list())
        [0, 0, 1]
        """
        checked(f, "flatmap")
        work = with_retry(f, retry)
        if concurrency is not None:
            check_count(concurrency, "flatmap's concurrency", 1)
            return AsyncStream(Merge(self._take_items(), work, concurrency, ordered, "flatmap"))
        stepped: AsyncStream[U] = self._step("flatmap", work, concurrency, ordered)
        return stepped

    def do(
        self,
        f: Callable[[T], object],
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        retry: Any = None,
    ) -> AsyncStream[T]:
        """The items unchanged, ``f`` (plain or a coroutine function) called on each.

        >>> import asyncio
        >>> seen = []
        >>> asyncio.run(astream("ab").do(seen.append).to_list()), seen
        (['a', 'b'], ['a', 'b'])
        """
        checked(f, "do")
        stepped: AsyncStream[T] = self._step("do", with_retry(f, retry), concurrency, ordered)
        return stepped

    def take(self, n: int) -> AsyncStream[T]:
        """The first ``n`` items (reads no further).

        >>> import asyncio
        >>> asyncio.run(astream(range(10**9)).take(3).to_list())
        [0, 1, 2]
        """
        check_count(n, "take's n", 0)
        return AsyncStream(Take(self._take_items(), n))

    def drop(self, n: int) -> AsyncStream[T]:
        """Everything after the first ``n`` items.

        >>> import asyncio
        >>> asyncio.run(astream(range(5)).drop(3).to_list())
        [3, 4]
        """
        check_count(n, "drop's n", 0)
        return AsyncStream(Drop(self._take_items(), n))

    def takewhile(self, keep: Callable[[T], object]) -> AsyncStream[T]:
        """The longest prefix of items satisfying ``keep`` (plain or a coroutine function).

        >>> import asyncio
        >>> asyncio.run(astream([1, 4, 9, 16, 1]).takewhile(lambda n: n < 10).to_list())
        [1, 4, 9]
        """
        checked(keep, "takewhile")
        return AsyncStream(While(self._take_items(), keep, taking=True))

    def dropwhile(self, drop: Callable[[T], object]) -> AsyncStream[T]:
        """What follows the longest prefix satisfying ``drop`` (plain or a coroutine function).

        >>> import asyncio
        >>> asyncio.run(astream([1, 4, 9, 16, 1]).dropwhile(lambda n: n < 10).to_list())
        [16, 1]
        """
        checked(drop, "dropwhile")
        return AsyncStream(While(self._take_items(), drop, taking=False))

    def chunked(self, n: int) -> AsyncStream[list[T]]:
        """Lists of ``n`` items (the last may be shorter).

        >>> import asyncio
        >>> asyncio.run(astream(range(5)).chunked(2).to_list())
        [[0, 1], [2, 3], [4]]
        """
        check_count(n, "chunked's n", 1)
        return AsyncStream(chunked(self._take_items(), n))

    def window(self, n: int) -> AsyncStream[tuple[T, ...]]:
        """Overlapping windows of ``n`` consecutive items.

        >>> import asyncio
        >>> asyncio.run(astream(range(4)).window(2).to_list())
        [(0, 1), (1, 2), (2, 3)]
        """
        check_count(n, "window's n", 1)
        return AsyncStream(Sliding(self._take_items(), n))

    def enumerate(self, start: int = 0) -> AsyncStream[tuple[int, T]]:
        """``(index, item)`` pairs, counting from ``start``.

        >>> import asyncio
        >>> asyncio.run(astream("ab").enumerate(1).to_list())
        [(1, 'a'), (2, 'b')]
        """
        return AsyncStream(Enumerate(self._take_items(), start))

    def unique(self, key: Callable[[T], object] | None = None) -> AsyncStream[T]:
        """Each item the first time it (or its ``key``, plain or a coroutine function) is seen
        (unhashable items too).

        >>> import asyncio
        >>> asyncio.run(astream("abracadabra").unique().to_list())
        ['a', 'b', 'r', 'c', 'd']
        """
        if key is not None:
            checked(key, "unique's key")
        return AsyncStream(Unique(self._take_items(), key))

    def zip(self, other: AsyncIterable[U] | Iterable[U]) -> AsyncStream[tuple[T, U]]:
        """Pairs with the items of ``other`` (an async or a plain iterable, or a stream),
        as long as the shorter one.

        >>> import asyncio, itertools
        >>> asyncio.run(astream("abc").zip(itertools.count()).to_list())
        [('a', 0), ('b', 1), ('c', 2)]
        """
        return AsyncStream(Zip(self._take_items(), source(other), False, None))

    @overload
    def zip_longest(
        self, other: AsyncIterable[U] | Iterable[U]
    ) -> AsyncStream[tuple[T | None, U | None]]: ...

    @overload
    def zip_longest(
        self, other: AsyncIterable[U] | Iterable[U], fillvalue: D
    ) -> AsyncStream[tuple[T | D, U | D]]: ...

    def zip_longest(
        self, other: AsyncIterable[U] | Iterable[U], fillvalue: Any = None
    ) -> AsyncStream[tuple[Any, Any]]:
        """Pairs with the items of ``other``, as long as the longer one (``fillvalue``
        stands in for the missing side).

        >>> import asyncio
        >>> asyncio.run(astream("abc").zip_longest([1], fillvalue=0).to_list())
        [('a', 1), ('b', 0), ('c', 0)]
        """
        return AsyncStream(Zip(self._take_items(), source(other), True, fillvalue))

    def chain(self, *others: AsyncIterable[T] | Iterable[T]) -> AsyncStream[T]:
        """These items, then those of each of ``others`` in turn (also ``+``).

        >>> import asyncio
        >>> asyncio.run((astream("ab").chain("c") + "d").to_list())
        ['a', 'b', 'c', 'd']
        """
        return AsyncStream(Chain([self._take_items(), *map(source, others)]))

    def __add__(self, other: AsyncIterable[T] | Iterable[T]) -> AsyncStream[T]:
        return self.chain(other)

    @overload
    @overload
    def scan(self, f: Callable[[U, T], Awaitable[U]], initial: U) -> AsyncStream[U]: ...

    @overload
    def scan(self, f: Callable[[U, T], U], initial: U) -> AsyncStream[U]: ...

    def scan(self, f: Callable[[U, T], Any], initial: U) -> AsyncStream[U]:
        """``scanl f initial``: ``initial`` and every running result of ``f`` (plain or a
        coroutine function), as ``itertools.accumulate(initial=)``.

        >>> import asyncio
        >>> asyncio.run(astream([1, 2, 3]).scan(lambda total, n: total + n, 0).to_list())
        [0, 1, 3, 6]
        """
        checked(f, "scan")
        return AsyncStream(Scan(self._take_items(), f, initial))

    @overload
    def catch(
        self,
        *errors: type[BaseException],
        where: Callable[[Any], object] | None = None,
        replace: Callable[[Any], Awaitable[U]],
        do: Callable[[Any], object] | None = None,
        stop: bool = False,
    ) -> AsyncStream[T | U]: ...

    @overload
    def catch(
        self,
        *errors: type[BaseException],
        where: Callable[[Any], object] | None = None,
        replace: Callable[[Any], U] | None = None,
        do: Callable[[Any], object] | None = None,
        stop: bool = False,
    ) -> AsyncStream[T | U]: ...

    def catch(
        self,
        *errors: type[BaseException],
        where: Callable[[Any], object] | None = None,
        replace: Callable[[Any], Any] | None = None,
        do: Callable[[Any], object] | None = None,
        stop: bool = False,
    ) -> AsyncStream[Any]:
        """As :meth:`lazyfun.streams.stream.Stream.catch`: drop, replace or stop on upstream
        errors; ``where``, ``do`` and ``replace`` plain or coroutine functions.

        >>> import asyncio
        >>> asyncio.run(astream(["1", "x", "3"]).map(int).catch(ValueError).to_list())
        [1, 3]
        """
        recovery = Recovering(errors, where=where, replace=replace, do=do, stop=stop)
        caught = Catch(self._take_items(), recovery)
        return AsyncStream(caught)

    def throttle(self, count: int, *, per: float | timedelta) -> AsyncStream[T]:
        """At most ``count`` items in any window of ``per`` seconds (awaiting, not blocking).

        >>> import asyncio
        >>> asyncio.run(astream(range(3)).throttle(100, per=1.0).to_list())
        [0, 1, 2]
        """
        check_count(count, "throttle's count", 1)
        return AsyncStream(Throttle(self._take_items(), count, seconds(per, "throttle's per")))

    @overload
    def group(
        self, size: int | None = None, *, within: float | timedelta | None = None, by: None = None
    ) -> AsyncStream[list[T]]: ...

    @overload
    def group(
        self,
        size: int | None = None,
        *,
        within: float | timedelta | None = None,
        by: Callable[[T], Awaitable[K]],
    ) -> AsyncStream[tuple[K, list[T]]]: ...

    @overload
    def group(
        self,
        size: int | None = None,
        *,
        within: float | timedelta | None = None,
        by: Callable[[T], K],
    ) -> AsyncStream[tuple[K, list[T]]]: ...

    def group(
        self,
        size: int | None = None,
        *,
        within: float | timedelta | None = None,
        by: Callable[[T], Any] | None = None,
    ) -> AsyncStream[Any]:
        """As :meth:`lazyfun.streams.stream.Stream.group`; a list whose time is up is sent even
        while the next item is still awaited.

        >>> import asyncio
        >>> asyncio.run(astream(range(5)).group(2).to_list())
        [[0, 1], [2, 3], [4]]
        """
        if size is None and within is None and by is None:
            raise ValueError("group needs a size, a time (within=) or a key (by=)")
        if size is not None:
            check_count(size, "group's size", 1)
        limit = None if within is None else seconds(within, "group's within")
        if by is not None:
            checked(by, "group's by")
        return AsyncStream(Group(self._take_items(), size, limit, by))

    def buffer(self, n: int) -> AsyncStream[T]:
        """Read up to ``n`` items ahead in a task, to overlap producer and consumer (a plain
        source right above is read on a thread).

        >>> import asyncio
        >>> asyncio.run(astream(range(4)).buffer(2).to_list())
        [0, 1, 2, 3]
        """
        check_count(n, "buffer's n", 1)
        return AsyncStream(Buffer(self._take_items(), n))

    def observe(self, name: str, logger: logging.Logger | None = None) -> AsyncStream[T]:
        """The items unchanged; counts and time logged as :meth:`Stream.observe` does.

        >>> import asyncio
        >>> asyncio.run(astream("ab").observe("letters").to_list())
        ['a', 'b']
        """
        return AsyncStream(Observed(self._take_items(), name, logger))

    def progress(self, description: str | None = None, total: int | None = None) -> AsyncStream[T]:
        """The items unchanged, counted on a rich progress bar when standard error is a
        terminal (silent otherwise; rich is imported only then).

        >>> import asyncio
        >>> asyncio.run(astream("ab").progress("letters").to_list())
        ['a', 'b']
        """
        from lazyfun.streams.progress import aprogress

        return AsyncStream(aprogress(self._take_items(), description, total))

    def probe(self, name: str, probe: Probe) -> AsyncStream[T]:
        """Count the items that pass this point under ``name`` in a trace ``Probe``.

        >>> import asyncio
        >>> from lazyfun.trace import Probe
        >>> p = Probe()
        >>> asyncio.run(astream(range(100)).probe("read", p).filter(lambda n: n > 4).first())
        5
        >>> p.counts
        {'read': 6}
        """
        if not probe.enabled:
            return AsyncStream(self._take_items())
        return AsyncStream(Probed(self._take_items(), probe.counts, name))

    def pmap(
        self,
        f: Callable[[T], U],
        *,
        jobs: int | None = None,
        scheduler: str | None = None,
        buffer: int | None = None,
        chunksize: int | None = None,
    ) -> AsyncStream[U]:
        """``f`` on each item on parallel workers, in order, a bounded number read ahead
        (:func:`lazyfun.parallel.pmap`'s window, stepped on a thread of its own: the event
        loop never waits for it; it reads this stream in the loop).

        >>> import asyncio
        >>> asyncio.run(astream(range(5)).pmap(abs, scheduler="sync").map(str).to_list())
        ['0', '1', '2', '3', '4']
        """
        from lazyfun.parallel.pmap import pmap

        feed = FromLoop(self._take_items())
        window = pmap(f, feed, jobs=jobs, scheduler=scheduler, buffer=buffer, chunksize=chunksize)
        return AsyncStream(OnThread(window, window.close, feed))

    def pipe(
        self, f: Callable[Concatenate[AsyncStream[T], P], U], *args: P.args, **kwargs: P.kwargs
    ) -> U:
        """``f(self, *args, **kwargs)``: a function of a whole stream, in the chain.

        >>> import asyncio
        >>> asyncio.run(astream(range(5)).pipe(lambda s: s.filter(lambda n: n % 2)).to_list())
        [1, 3]
        """
        checked(f, "pipe")
        return f(self, *args, **kwargs)

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
        return await self.reduce(lambda n, _: n + 1, 0)

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
    async def sum(self: AsyncStream[int], start: int = 0) -> int: ...

    @overload
    async def sum(self: AsyncStream[float], start: float = 0) -> float: ...

    async def sum(self: AsyncStream[Any], start: Any = 0) -> Any:
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
    async def min(self: AsyncStream[C], *, key: None = None) -> C: ...

    @overload
    async def min(self, *, key: Callable[[T], _Comparable | Awaitable[_Comparable]]) -> T: ...

    @overload
    async def min(self: AsyncStream[C], *, key: None = None, default: D) -> C | D: ...

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
    async def max(self: AsyncStream[C], *, key: None = None) -> C: ...

    @overload
    async def max(self, *, key: Callable[[T], _Comparable | Awaitable[_Comparable]]) -> T: ...

    @overload
    async def max(self: AsyncStream[C], *, key: None = None, default: D) -> C | D: ...

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

    async def to_set(self) -> set[T]:
        """Every item, in a set.

        >>> import asyncio
        >>> sorted(asyncio.run(astream("abracadabra").to_set()))
        ['a', 'b', 'c', 'd', 'r']
        """
        return set(await self.to_list())

    async def to_dict(self: AsyncStream[tuple[K, V]]) -> dict[K, V]:
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
        self: AsyncStream[str], path: PathLike, *, encoding: str = "utf-8", atomic: bool = False
    ) -> int:
        """As :meth:`Stream.to_lines <lazyfun.streams.terminals.Terminals.to_lines>`.

        >>> import asyncio
        >>> asyncio.run(astream(["a", "b"]).to_lines("ab.txt"))
        2
        """
        writer = functools.partial(LinesWriter, path, encoding=encoding, atomic=atomic)
        return await self._drained(writer, BATCH, None)

    async def to_jsonl(self, path: PathLike, *, atomic: bool = False) -> int:
        """As :meth:`Stream.to_jsonl <lazyfun.streams.terminals.Terminals.to_jsonl>`.

        >>> import asyncio
        >>> asyncio.run(astream([{"n": 1}]).to_jsonl("n.jsonl"))
        1
        """
        return await self._drained(functools.partial(JsonlWriter, path, atomic=atomic), BATCH, None)

    async def to_csv(self, path: PathLike, *, atomic: bool = False, **dialect: Any) -> int:
        """As :meth:`Stream.to_csv <lazyfun.streams.terminals.Terminals.to_csv>`.

        >>> import asyncio
        >>> asyncio.run(astream([{"n": 1}]).to_csv("n.csv"))
        1
        """
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
    ) -> int:
        """As :meth:`Stream.to_sql <lazyfun.streams.terminals.Terminals.to_sql>`; a batch
        whose time is up is written even while the next item is awaited.  A connection
        given here is used on the sink's thread: make it with ``check_same_thread=False``.

        >>> import asyncio
        >>> asyncio.run(astream({"n": n} for n in range(3)).to_sql("n.db", "n"))
        3
        """
        check_count(batch, "to_sql's batch", 1)
        limit = None if within is None else seconds(within, "to_sql's within")
        writer = functools.partial(SqlWriter, db, table, batch=batch, within=limit, atomic=atomic)
        return await self._drained(writer, batch, limit)


def astream(items: AsyncIterable[T] | Iterable[T]) -> AsyncStream[T]:
    """An :class:`AsyncStream` over an async iterable, or a plain one read in the loop.

    >>> import asyncio
    >>> asyncio.run(astream([3, 1, 2]).map(lambda n: n * 2).to_list())
    [6, 2, 4]
    """
    return AsyncStream(items)
