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

from collections.abc import AsyncIterable, Awaitable, Callable, Iterable
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar, overload

from lazyfun.streams.aconcurrent import (
    Buffer,
    Concurrent,
    FromLoop,
    Interleave,
    Merge,
    OnThread,
    ReadAhead,
    Tee,
    TeeBranch,
)
from lazyfun.streams.asteps import (
    Catch,
    Chain,
    Chunked,
    Drop,
    Enumerate,
    FlatMap,
    FromSync,
    Group,
    Map,
    Observed,
    Probed,
    Recovering,
    Scan,
    Sliding,
    Take,
    Throttle,
    Unique,
    While,
    Zip,
    checked,
    metered,
    source,
    with_retry,
)
from lazyfun.streams.aterminals import AsyncTerminals
from lazyfun.streams.dataverbs import AsyncVerbs
from lazyfun.streams.explain import Meter, analysing, called, recorded, root
from lazyfun.streams.steps import check_count, seconds
from lazyfun.streams.terminals import Terminals, _Comparable
from lazyfun.streams.threaded import GROUP_AHEAD, Rate

if TYPE_CHECKING:
    import logging
    from typing import TypeGuard

    from typing_extensions import TypeIs

    from lazyfun.trace import Probe

__all__ = ["AsyncStream", "astream"]

T = TypeVar("T")
U = TypeVar("U")
D = TypeVar("D")
K = TypeVar("K")
V = TypeVar("V")
E = TypeVar("E", bound=BaseException)
C = TypeVar("C", bound=_Comparable)
P = ParamSpec("P")

_NOTHING: Any = object()


@recorded
class AsyncStream(AsyncVerbs[T]):
    """A one-shot async pipeline, composed by method chaining; read it with
    ``async for`` or await a terminal.  Build one with :func:`astream`."""

    __slots__ = ()

    def _step(self, kind: str, f: Any, concurrency: int | None, ordered: bool) -> AsyncStream[Any]:
        if concurrency is not None:
            check_count(concurrency, f"{kind}'s concurrency", 1)
            return self._then(Concurrent(self._take_items(), f, kind, concurrency, ordered, kind))
        if kind == "flatmap":
            return self._then(FlatMap(self._take_items(), f))
        return self._then(Map(self._take_items(), f, kind))

    def _then(self, items: AsyncIterable[U]) -> AsyncStream[U]:
        """The next step's AsyncStream, which knows what this one's sources read."""
        return AsyncStream(items, self._sources, called(self, self._stage, (items,)))

    # --- steps ----------------------------------------------------------------

    @overload
    def map(
        self,
        f: Callable[[T], Awaitable[U]],
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        retry: Any = None,
        rate: Rate | None = None,
        timeout: float | timedelta | None = None,
    ) -> AsyncStream[U]: ...

    @overload
    def map(
        self,
        f: Callable[[T], U],
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        retry: Any = None,
        rate: Rate | None = None,
        timeout: float | timedelta | None = None,
    ) -> AsyncStream[U]: ...

    def map(
        self,
        f: Callable[[T], Any],
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        retry: Any = None,
        rate: Rate | None = None,
        timeout: float | timedelta | None = None,
    ) -> AsyncStream[Any]:
        """``f`` on each item, awaited if it is a coroutine function; with
        ``concurrency=n`` at most n calls at once (tasks, or threads for a plain
        ``f``).  ``retry``: a count of attempts or a tenacity ``AsyncRetrying`` (or
        ``Retrying`` for a plain ``f``).  ``rate`` meters every call, each attempt of a
        retry included; ``timeout`` makes a call over time a TimeoutError at its item (a
        coroutine is cancelled; a plain call is left to finish on its thread).  It reads
        at most ``8 * n`` items ahead of you in order (a slow call holds no other one
        back), ``n + 1`` with ``ordered=False``; ``filter`` and ``do`` likewise.

        >>> import asyncio
        >>> asyncio.run(astream("ab").map(str.upper).to_list())
        ['A', 'B']
        """
        checked(f, "map")
        f = self._counted(f)
        return self._step("map", with_retry(metered(f, rate, timeout), retry), concurrency, ordered)

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
        self: AsyncStream[V | None],
        keep: None = None,
        *,
        concurrency: int | None = None,
        ordered: bool = True,
    ) -> AsyncStream[V]: ...

    @overload
    def filter(
        self,
        keep: Callable[[T], object] | None = None,
        *,
        concurrency: int | None = None,
        ordered: bool = True,
    ) -> AsyncStream[T]: ...

    def filter(
        self,
        keep: Callable[[T], object] | None = None,
        *,
        concurrency: int | None = None,
        ordered: bool = True,
    ) -> AsyncStream[Any]:
        """The items for which ``keep`` (plain or a coroutine function) is true; without
        ``keep``, the true items (``None`` left out of the item type).

        >>> import asyncio
        >>> asyncio.run(astream(range(6)).filter(lambda n: n % 3 == 0).to_list())
        [0, 3]
        >>> asyncio.run(astream([0, 1, None, 2]).filter().to_list())
        [1, 2]
        """
        if keep is None:
            keep = bool
        checked(keep, "filter")
        keep = self._counted(keep)
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
        f = self._counted(f)
        work = with_retry(f, retry)
        if concurrency is not None:
            check_count(concurrency, "flatmap's concurrency", 1)
            return self._then(Merge(self._take_items(), work, concurrency, ordered, "flatmap"))
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
        f = self._counted(f)
        stepped: AsyncStream[T] = self._step("do", with_retry(f, retry), concurrency, ordered)
        return stepped

    def take(self, n: int) -> AsyncStream[T]:
        """The first ``n`` items (reads no further).

        >>> import asyncio
        >>> asyncio.run(astream(range(10**9)).take(3).to_list())
        [0, 1, 2]
        """
        check_count(n, "take's n", 0)
        return self._then(Take(self._take_items(), n))

    def drop(self, n: int) -> AsyncStream[T]:
        """Everything after the first ``n`` items.

        >>> import asyncio
        >>> asyncio.run(astream(range(5)).drop(3).to_list())
        [3, 4]
        """
        check_count(n, "drop's n", 0)
        return self._then(Drop(self._take_items(), n))

    def takewhile(self, keep: Callable[[T], object]) -> AsyncStream[T]:
        """The longest prefix of items satisfying ``keep`` (plain or a coroutine function).

        >>> import asyncio
        >>> asyncio.run(astream([1, 4, 9, 16, 1]).takewhile(lambda n: n < 10).to_list())
        [1, 4, 9]
        """
        checked(keep, "takewhile")
        return self._then(While(self._take_items(), keep, taking=True))

    def dropwhile(self, drop: Callable[[T], object]) -> AsyncStream[T]:
        """What follows the longest prefix satisfying ``drop`` (plain or a coroutine function).

        >>> import asyncio
        >>> asyncio.run(astream([1, 4, 9, 16, 1]).dropwhile(lambda n: n < 10).to_list())
        [16, 1]
        """
        checked(drop, "dropwhile")
        return self._then(While(self._take_items(), drop, taking=False))

    def chunked(self, n: int) -> AsyncStream[list[T]]:
        """Lists of ``n`` items (the last may be shorter).

        >>> import asyncio
        >>> asyncio.run(astream(range(5)).chunked(2).to_list())
        [[0, 1], [2, 3], [4]]
        """
        check_count(n, "chunked's n", 1)
        return self._then(Chunked(self._take_items(), n))

    def window(self, n: int) -> AsyncStream[tuple[T, ...]]:
        """Overlapping windows of ``n`` consecutive items.

        >>> import asyncio
        >>> asyncio.run(astream(range(4)).window(2).to_list())
        [(0, 1), (1, 2), (2, 3)]
        """
        check_count(n, "window's n", 1)
        return self._then(Sliding(self._take_items(), n))

    def enumerate(self, start: int = 0) -> AsyncStream[tuple[int, T]]:
        """``(index, item)`` pairs, counting from ``start``.

        >>> import asyncio
        >>> asyncio.run(astream("ab").enumerate(1).to_list())
        [(1, 'a'), (2, 'b')]
        """
        return self._then(Enumerate(self._take_items(), start))

    def unique(
        self,
        key: Callable[[T], object] | None = None,
        *,
        within: float | timedelta | None = None,
        last: int | None = None,
    ) -> AsyncStream[T]:
        """Each item the first time it (or its ``key``, plain or a coroutine function) is seen
        (unhashable items too); with ``within=`` or ``last=`` (a plain key), remembered
        for a window only, as :meth:`Stream.unique <lazyfun.streams.stream.Stream.unique>`.

        >>> import asyncio
        >>> asyncio.run(astream("abracadabra").unique().to_list())
        ['a', 'b', 'r', 'c', 'd']
        """
        if within is not None or last is not None:
            return self._unique_within(key, within, last)
        if key is not None:
            checked(key, "unique's key")
        return self._then(Unique(self._take_items(), key))

    def zip(self, other: AsyncIterable[U] | Iterable[U]) -> AsyncStream[tuple[T, U]]:
        """Pairs with the items of ``other`` (an async or a plain iterable, or a stream),
        as long as the shorter one.

        >>> import asyncio, itertools
        >>> asyncio.run(astream("abc").zip(itertools.count()).to_list())
        [('a', 0), ('b', 1), ('c', 2)]
        """
        return self._then(Zip(self._take_items(), source(other), False, None))

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
        return self._then(Zip(self._take_items(), source(other), True, fillvalue))

    def chain(self, *others: AsyncIterable[T] | Iterable[T]) -> AsyncStream[T]:
        """These items, then those of each of ``others`` in turn (also ``+``).

        >>> import asyncio
        >>> asyncio.run((astream("ab").chain("c") + "d").to_list())
        ['a', 'b', 'c', 'd']
        """
        return self._then(Chain([self._take_items(), *map(source, others)]))

    def merge(self, *others: AsyncIterable[T] | Iterable[T], buffer: int = 64) -> AsyncStream[T]:
        """The items of this stream and of ``others`` as they come, each read by a task of
        its own (at most ``buffer`` items waiting); an error from one arrives at its place
        and that input is read on; closing the merge closes every stream merged into it.

        >>> import asyncio
        >>> sorted(asyncio.run(astream([1, 3]).merge([2]).to_list()))
        [1, 2, 3]
        """
        check_count(buffer, "merge's buffer", 1)
        sources = [self._take_items()]
        sources += [o._take_items() if isinstance(o, AsyncTerminals) else source(o) for o in others]
        return self._then(Interleave(sources, buffer))

    def tee(self, n: int = 2, *, bound: int = 1000) -> tuple[AsyncStream[T], ...]:
        """``n`` streams of these items, kept at most ``bound`` items apart; a branch that
        far ahead waits for the last one, read by another task, and where that cannot
        happen it is a BufferError, never a hang.

        >>> import asyncio
        >>> async def both():
        ...     small, large = astream(range(4)).tee(2)
        ...     return [(a, b) async for a, b in small.zip(large.map(lambda n: n * 10))]
        >>> asyncio.run(both())
        [(0, 0), (1, 10), (2, 20), (3, 30)]
        """
        check_count(n, "tee's n", 1)
        check_count(bound, "tee's bound", 1)
        shared = Tee(self._take_items(), n, bound)
        return tuple(self._then(TeeBranch(shared, k)) for k in range(n))

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
        return self._then(Scan(self._take_items(), f, initial))

    @overload
    def catch(
        self,
        *,
        where: Callable[[Exception], object] | None = None,
        replace: Callable[[Exception], Awaitable[U]],
        do: Callable[[Exception], object] | None = None,
        stop: bool = False,
    ) -> AsyncStream[T | U]: ...

    @overload
    def catch(
        self,
        *,
        where: Callable[[Exception], object] | None = None,
        replace: Callable[[Exception], U] | None = None,
        do: Callable[[Exception], object] | None = None,
        stop: bool = False,
    ) -> AsyncStream[T | U]: ...

    @overload
    def catch(
        self,
        error: type[E],
        /,
        *errors: type[E],
        where: Callable[[E], object] | None = None,
        replace: Callable[[E], Awaitable[U]],
        do: Callable[[E], object] | None = None,
        stop: bool = False,
    ) -> AsyncStream[T | U]: ...

    @overload
    def catch(
        self,
        error: type[E],
        /,
        *errors: type[E],
        where: Callable[[E], object] | None = None,
        replace: Callable[[E], U] | None = None,
        do: Callable[[E], object] | None = None,
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
        return self._then(caught)

    def throttle(self, count: int, *, per: float | timedelta) -> AsyncStream[T]:
        """At most ``count`` items in any window of ``per`` seconds (awaiting, not blocking).

        >>> import asyncio
        >>> asyncio.run(astream(range(3)).throttle(100, per=1.0).to_list())
        [0, 1, 2]
        """
        check_count(count, "throttle's count", 1)
        return self._then(Throttle(self._take_items(), count, seconds(per, "throttle's per")))

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
        while the next item is still awaited (a plain source right above, whose reads would
        block the loop, is then read on a thread, up to 1,024 items ahead).

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
        if size is not None and limit is None and by is None:
            return self._then(Chunked(self._take_items(), size))
        items, ask = self._take_items(), None
        if limit is not None and isinstance(items, FromSync):
            items = ReadAhead(items.items, GROUP_AHEAD, asked=True)
            ask = items.ask
        return self._then(Group(items, size, limit, by, ask=ask))

    def buffer(self, n: int) -> AsyncStream[T]:
        """Read up to ``n`` items ahead in a task, to overlap producer and consumer (a plain
        source right above is read on a thread), holding at most ``n``, the one being
        read included.

        >>> import asyncio
        >>> asyncio.run(astream(range(4)).buffer(2).to_list())
        [0, 1, 2, 3]
        """
        check_count(n, "buffer's n", 1)
        items = self._take_items()
        if isinstance(items, FromSync):  # read on a thread, taken in the loop as they come
            return self._then(ReadAhead(items.items, n))
        return self._then(Buffer(items, n))

    def observe(self, name: str, logger: logging.Logger | None = None) -> AsyncStream[T]:
        """The items unchanged; counts and time logged as :meth:`Stream.observe` does.

        >>> import asyncio
        >>> asyncio.run(astream("ab").observe("letters").to_list())
        ['a', 'b']
        """
        return self._then(Observed(self._take_items(), name, logger))

    def progress(self, description: str | None = None, total: int | None = None) -> AsyncStream[T]:
        """The items unchanged, counted on a rich progress bar when standard error is a
        terminal (silent otherwise; rich is imported only then).

        >>> import asyncio
        >>> asyncio.run(astream("ab").progress("letters").to_list())
        ['a', 'b']
        """
        from lazyfun.streams.progress import aprogress

        return self._then(aprogress(self._take_items(), description, total))

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
            return self._then(self._take_items())
        return self._then(Probed(self._take_items(), probe.counts, name))

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
        return self._then(OnThread(window, window.close, feed))

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


def astream(
    items: AsyncIterable[T] | Iterable[T], *, analyze: bool | None = None
) -> AsyncStream[T]:
    """An :class:`AsyncStream` over an async iterable, or a plain one read in the loop
    (``analyze=True``: keeping counts, as :func:`~lazyfun.streams.stream.stream`).

    >>> import asyncio
    >>> asyncio.run(astream([3, 1, 2]).map(lambda n: n * 2).to_list())
    [6, 2, 4]
    """
    if isinstance(items, AsyncStream):
        return items.analyze() if analyze else items
    stage = root(items, Meter() if analysing(analyze) else None)
    if isinstance(items, Terminals):  # a Stream, read on a thread: its sources stay known
        return AsyncStream(items, items._holds, stage)
    return AsyncStream(items, (), stage)
