"""Async streams: the Stream's steps for ``async for``, coroutines in the chain.

``astream(source)`` wraps an async iterable (or a plain one, read in the event
loop: put ``.buffer(n)`` after a source whose reads block) in an
:class:`AsyncStream`, whose steps have the names and meanings of
:class:`~lazyfun.stream.Stream`'s.  A function given to ``map``, ``filter``,
``flatmap`` or ``do`` may be a coroutine function or a plain one; with
``concurrency=n`` at most n coroutines run at once as tasks (plain functions
in threads), results in input order or, with ``ordered=False``, as they
complete.  Terminals are awaitables; the stream is one-shot, as a Stream is.

Stopping early (``break`` then ``aclose()``, a terminal such as ``first``, or
the end of the event loop) cancels every task the stream started.

>>> import asyncio
>>> async def double(n):
...     await asyncio.sleep(0)
...     return 2 * n
>>> asyncio.run(astream(range(5)).map(double, concurrency=2).filter(lambda n: n > 2).to_list())
[4, 6, 8]
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import time
from collections import deque
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable, Iterable
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from lazyfun.stream import (
    StreamConsumedError,
    _Comparable,
    check_callable,
    check_count,
    seconds,
)

if TYPE_CHECKING:
    from typing import TypeGuard

    from typing_extensions import TypeIs

__all__ = ["AsyncStream", "astream"]

T = TypeVar("T")
U = TypeVar("U")
D = TypeVar("D")
K = TypeVar("K")

_NOTHING: Any = object()


def _is_async(f: object) -> bool:
    """Whether calling ``f`` gives an awaitable: a coroutine function, a partial of one,
    or an object whose ``__call__`` is one (tenacity's ``AsyncRetrying``)."""
    while isinstance(f, functools.partial):
        f = f.func
    return inspect.iscoroutinefunction(f) or inspect.iscoroutinefunction(
        getattr(f, "__call__", None)  # noqa: B004
    )


def _checked(f: object, what: str) -> None:
    if not callable(f):
        raise TypeError(f"{what} needs a function, got {type(f).__name__}")


async def _call(f: Callable[[Any], Any], is_async: bool, item: Any) -> Any:
    return await f(item) if is_async else f(item)


async def _aclose(source: object) -> None:
    close = getattr(source, "aclose", None)
    if close is not None:
        await close()


class _Step(AsyncIterator[Any]):
    """An async step over ``source``: closing it closes the source."""

    source: AsyncIterator[Any]

    async def aclose(self) -> None:
        await _aclose(self.source)


class _FromSync(_Step):
    """A plain iterable read in the event loop."""

    def __init__(self, items: Iterable[Any]) -> None:
        self.items = iter(items)

    async def __anext__(self) -> Any:
        try:
            return next(self.items)
        except StopIteration:
            raise StopAsyncIteration from None

    async def aclose(self) -> None:
        close = getattr(self.items, "close", None)
        if close is not None:
            close()


class _Map(_Step):
    def __init__(self, source: AsyncIterator[Any], f: Callable[[Any], Any], kind: str) -> None:
        self.source, self.f, self.kind, self.is_async = source, f, kind, _is_async(f)

    async def __anext__(self) -> Any:
        while True:
            item = await anext(self.source)
            value = await self.f(item) if self.is_async else self.f(item)
            if self.kind == "map":
                return value
            if self.kind == "do":
                return item
            if value:
                return item


class _FlatMap(_Step):
    def __init__(self, source: AsyncIterator[Any], f: Callable[[Any], Any]) -> None:
        self.source, self.f, self.is_async = source, f, _is_async(f)
        self.inner: Any = iter(())

    async def __anext__(self) -> Any:
        while True:
            inner = self.inner
            try:
                if isinstance(inner, AsyncIterator):
                    return await anext(inner)
                return next(inner)
            except (StopIteration, StopAsyncIteration):
                pass
            except BaseException:
                self.inner = iter(())
                raise
            self.inner = iter(())
            item = await anext(self.source)
            made = await self.f(item) if self.is_async else self.f(item)
            self.inner = aiter(made) if isinstance(made, AsyncIterable) else iter(made)


class _Concurrent(_Step):
    """At most ``n`` calls in flight as tasks: coroutines, or plain calls in threads."""

    def __init__(
        self,
        source: AsyncIterator[Any],
        f: Callable[[Any], Any],
        kind: str,
        n: int,
        ordered: bool,
        what: str,
    ) -> None:
        self.source, self.f, self.kind, self.n, self.ordered = source, f, kind, n, ordered
        self.is_async, self.what = _is_async(f), what
        self.pending: deque[tuple[int, Any, asyncio.Future[Any]]] = deque()
        self.read = 0
        self.exhausted = False
        self.ready: deque[Any] = deque()

    def _start(self, item: Any) -> asyncio.Future[Any]:
        if self.is_async:
            started: asyncio.Future[Any] = asyncio.ensure_future(self.f(item))
            return started
        return asyncio.ensure_future(asyncio.to_thread(self.f, item))

    async def _fill(self) -> None:
        while not self.exhausted and len(self.pending) < self.n:
            try:
                item = await anext(self.source)
            except StopAsyncIteration:
                self.exhausted = True
                return
            except Exception as error:  # an upstream error keeps its place
                failed: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
                failed.set_exception(error)
                self.pending.append((-1, None, failed))
                continue
            self.pending.append((self.read, item, self._start(item)))
            self.read += 1

    async def _next_done(self) -> tuple[int, Any, asyncio.Future[Any]]:
        if self.ordered:
            head = self.pending[0]
            if not head[2].done():
                await asyncio.wait([head[2]])
            return self.pending.popleft()
        while True:
            for i, entry in enumerate(self.pending):
                if entry[2].done():
                    del self.pending[i]
                    return entry
            await asyncio.wait([entry[2] for entry in self.pending], return_when="FIRST_COMPLETED")

    async def __anext__(self) -> Any:
        while True:
            if self.ready:
                return self.ready.popleft()
            await self._fill()
            if not self.pending:
                raise StopAsyncIteration
            index, item, done = await self._next_done()
            error = done.exception()
            if error is not None:
                if index >= 0:
                    error.add_note(
                        f"{self.what}: raised by the function on item {index} "
                        "of the input (counted from 0)"
                    )
                raise error
            value = done.result()
            if self.kind == "map":
                return value
            if self.kind == "do" or (self.kind == "filter" and value):
                return item
            if self.kind == "flatmap":
                self.ready.extend(value)

    async def aclose(self) -> None:
        pending, self.pending = self.pending, deque()
        for _, _, future in pending:
            future.cancel()
        if pending:
            await asyncio.gather(*(future for _, _, future in pending), return_exceptions=True)
        self.exhausted = True
        await _aclose(self.source)


class _Take(_Step):
    def __init__(self, source: AsyncIterator[Any], n: int) -> None:
        self.source, self.left = source, n

    async def __anext__(self) -> Any:
        if self.left <= 0:
            raise StopAsyncIteration
        item = await anext(self.source)
        self.left -= 1
        return item


class _Drop(_Step):
    def __init__(self, source: AsyncIterator[Any], n: int) -> None:
        self.source, self.left = source, n

    async def __anext__(self) -> Any:
        while self.left > 0:
            await anext(self.source)
            self.left -= 1
        return await anext(self.source)


class _While(_Step):
    """``takewhile`` (``taking``) or ``dropwhile``."""

    def __init__(self, source: AsyncIterator[Any], keep: Callable[[Any], Any], taking: bool):
        self.source, self.keep, self.taking, self.done = source, keep, taking, False

    async def __anext__(self) -> Any:
        if self.taking:
            if self.done:
                raise StopAsyncIteration
            item = await anext(self.source)
            if self.keep(item):
                return item
            self.done = True
            raise StopAsyncIteration
        while not self.done:
            item = await anext(self.source)
            if not self.keep(item):
                self.done = True
                return item
        return await anext(self.source)


class _Enumerate(_Step):
    def __init__(self, source: AsyncIterator[Any], start: int) -> None:
        self.source, self.index = source, start

    async def __anext__(self) -> Any:
        item = await anext(self.source)
        self.index += 1
        return self.index - 1, item


class _Unique(_Step):
    def __init__(self, source: AsyncIterator[Any], key: Callable[[Any], Any] | None) -> None:
        self.source, self.key = source, key
        self.seen: set[Any] = set()
        self.unhashable: list[Any] = []

    async def __anext__(self) -> Any:
        while True:
            item = await anext(self.source)
            mark = item if self.key is None else self.key(item)
            try:
                if mark in self.seen:
                    continue
                self.seen.add(mark)
            except TypeError:
                if mark in self.unhashable:
                    continue
                self.unhashable.append(mark)
            return item


class _Sliding(_Step):
    def __init__(self, source: AsyncIterator[Any], n: int) -> None:
        self.source, self.n = source, n
        self.window: deque[Any] = deque(maxlen=n)

    async def __anext__(self) -> Any:
        self.window.append(await anext(self.source))
        while len(self.window) < self.n:
            self.window.append(await anext(self.source))
        return tuple(self.window)


class _Catch(_Step):
    def __init__(
        self,
        source: AsyncIterator[Any],
        errors: tuple[type[BaseException], ...],
        where: Callable[[Any], object] | None,
        replace: Callable[[Any], Any] | None,
        do: Callable[[Any], object] | None,
        stop: bool,
    ) -> None:
        self.source, self.errors, self.where = source, errors, where
        self.replace, self.do, self.stop, self.stopped = replace, do, stop, False

    async def __anext__(self) -> Any:
        while not self.stopped:
            try:
                return await anext(self.source)
            except StopAsyncIteration:
                raise
            except self.errors as error:
                if self.where is not None and not self.where(error):
                    raise
                if self.do is not None:
                    self.do(error)
                if self.replace is not None:
                    return self.replace(error)
                if self.stop:
                    self.stopped = True
        raise StopAsyncIteration


class _Throttle(_Step):
    def __init__(self, source: AsyncIterator[Any], count: int, per: float) -> None:
        self.source, self.count, self.per = source, count, per
        self.sent: deque[float] = deque(maxlen=count)

    async def __anext__(self) -> Any:
        if len(self.sent) == self.count:
            wait = self.sent[0] + self.per - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
        item = await anext(self.source)
        self.sent.append(time.monotonic())
        return item


class _Group(_Step):
    """Lists closed on size or on time, the time also while waiting for the next item
    (the read in progress is kept as a task and goes on after the list is sent)."""

    def __init__(
        self,
        source: AsyncIterator[Any],
        size: int | None,
        within: float | None,
        by: Callable[[Any], Any] | None,
    ) -> None:
        self.source, self.size, self.within, self.by = source, size, within, by
        self.open: dict[Any, tuple[float, list[Any]]] = {}
        self.ready: deque[Any] = deque()
        self.reading: asyncio.Future[Any] | None = None
        self.exhausted = False

    def _out(self, key: Any, gathered: list[Any]) -> None:
        self.ready.append((key, gathered) if self.by is not None else gathered)

    def _expire(self) -> float | None:
        """Send the lists whose time is up; the seconds until the next one's is."""
        if self.within is None:
            return None
        now, soonest = time.monotonic(), None
        for key, (opened, gathered) in list(self.open.items()):
            left = opened + self.within - now
            if left <= 0:
                del self.open[key]
                self._out(key, gathered)
            elif soonest is None or left < soonest:
                soonest = left
        return soonest

    async def __anext__(self) -> Any:
        while not self.ready:
            if self.exhausted:
                if not self.open:
                    raise StopAsyncIteration
                key = next(iter(self.open))
                self._out(key, self.open.pop(key)[1])
                break
            wait = self._expire()
            if self.ready:
                break
            if self.reading is None:
                self.reading = asyncio.ensure_future(anext(self.source))
            done, _ = await asyncio.wait([self.reading], timeout=wait)
            if not done:
                continue
            reading, self.reading = self.reading, None
            try:
                item = reading.result()
            except StopAsyncIteration:
                self.exhausted = True
                continue
            key = self.by(item) if self.by is not None else None
            gathered = self.open.setdefault(key, (time.monotonic(), []))[1]
            gathered.append(item)
            if self.size is not None and len(gathered) >= self.size:
                del self.open[key]
                self._out(key, gathered)
        return self.ready.popleft()

    async def aclose(self) -> None:
        if self.reading is not None:
            self.reading.cancel()
            await asyncio.gather(self.reading, return_exceptions=True)
        await _aclose(self.source)


class _Buffer(_Step):
    """Up to ``n`` items read ahead by a task; an upstream error arrives in its place.
    A plain iterable right upstream is read on a thread, so a blocking source does
    not block the event loop."""

    def __init__(self, source: AsyncIterator[Any], n: int) -> None:
        self.source, self.queue = source, asyncio.Queue[tuple[bool, Any]](n)
        self.task: asyncio.Task[None] | None = None
        self.done = False

    async def _read(self) -> None:
        source = self.source
        while True:
            try:
                if isinstance(source, _FromSync):
                    item = await asyncio.to_thread(next, source.items, _NOTHING)
                    if item is _NOTHING:
                        raise StopAsyncIteration
                else:
                    item = await anext(source)
                entry: tuple[bool, Any] = (True, item)
            except StopAsyncIteration:
                await self.queue.put((True, _NOTHING))
                return
            except Exception as error:
                entry = (False, error)
            await self.queue.put(entry)

    async def __anext__(self) -> Any:
        if self.done:
            raise StopAsyncIteration
        if self.task is None:
            self.task = asyncio.ensure_future(self._read())
        ok, value = await self.queue.get()
        if not ok:
            raise value
        if value is _NOTHING:
            self.done = True
            raise StopAsyncIteration
        return value

    async def aclose(self) -> None:
        self.done = True
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
        await _aclose(self.source)


class _Chain(_Step):
    def __init__(self, parts: list[AsyncIterator[Any]]) -> None:
        self.parts = deque(parts)
        self.source = self.parts[0]

    async def __anext__(self) -> Any:
        while self.parts:
            try:
                return await anext(self.parts[0])
            except StopAsyncIteration:
                self.parts.popleft()
        raise StopAsyncIteration

    async def aclose(self) -> None:
        for part in self.parts:
            await _aclose(part)


def _source(items: AsyncIterable[Any] | Iterable[Any]) -> AsyncIterator[Any]:
    if isinstance(items, AsyncIterable):
        return aiter(items)
    return _FromSync(items)


def _chunked(source: AsyncIterator[Any], n: int) -> _Group:
    return _Group(source, n, None, None)


class AsyncStream(Generic[T]):
    """A one-shot async pipeline, composed by method chaining; read it with
    ``async for`` or await a terminal.  Build one with :func:`astream`."""

    __slots__ = ("_items", "_used")

    def __init__(self, items: AsyncIterable[T] | Iterable[T]) -> None:
        self._items: AsyncIterator[Any] = _source(items)
        self._used = False

    def _take_items(self) -> AsyncIterator[Any]:
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

    def __repr__(self) -> str:
        return f"<AsyncStream {'read' if self._used else 'unread'}>"

    def _step(self, kind: str, f: Any, concurrency: int | None, ordered: bool) -> AsyncStream[Any]:
        if concurrency is not None:
            check_count(concurrency, f"{kind}'s concurrency", 1)
            return AsyncStream(_Concurrent(self._take_items(), f, kind, concurrency, ordered, kind))
        if kind == "flatmap":
            return AsyncStream(_FlatMap(self._take_items(), f))
        return AsyncStream(_Map(self._take_items(), f, kind))

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
        _checked(f, "map")
        return self._step("map", _with_retry(f, retry), concurrency, ordered)

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
        _checked(keep, "filter")
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
        an iterable) for each item ``x``; with ``concurrency`` each is read to a list.

        >>> import asyncio
        >>> asyncio.run(astream([1, 2]).flatmap(range).to_list())
        [0, 0, 1]
        """
        _checked(f, "flatmap")
        work = _with_retry(f, retry)
        if concurrency is not None:
            work = _listing(work)
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
        _checked(f, "do")
        stepped: AsyncStream[T] = self._step("do", _with_retry(f, retry), concurrency, ordered)
        return stepped

    def take(self, n: int) -> AsyncStream[T]:
        """The first ``n`` items (reads no further)."""
        check_count(n, "take's n", 0)
        return AsyncStream(_Take(self._take_items(), n))

    def drop(self, n: int) -> AsyncStream[T]:
        """Everything after the first ``n`` items."""
        check_count(n, "drop's n", 0)
        return AsyncStream(_Drop(self._take_items(), n))

    def takewhile(self, keep: Callable[[T], object]) -> AsyncStream[T]:
        """The longest prefix of items satisfying ``keep``."""
        check_callable(keep, "takewhile")
        return AsyncStream(_While(self._take_items(), keep, taking=True))

    def dropwhile(self, drop: Callable[[T], object]) -> AsyncStream[T]:
        """What follows the longest prefix satisfying ``drop``."""
        check_callable(drop, "dropwhile")
        return AsyncStream(_While(self._take_items(), drop, taking=False))

    def chunked(self, n: int) -> AsyncStream[list[T]]:
        """Lists of ``n`` items (the last may be shorter)."""
        check_count(n, "chunked's n", 1)
        return AsyncStream(_chunked(self._take_items(), n))

    def window(self, n: int) -> AsyncStream[tuple[T, ...]]:
        """Overlapping windows of ``n`` consecutive items."""
        check_count(n, "window's n", 1)
        return AsyncStream(_Sliding(self._take_items(), n))

    def enumerate(self, start: int = 0) -> AsyncStream[tuple[int, T]]:
        """``(index, item)`` pairs, counting from ``start``."""
        return AsyncStream(_Enumerate(self._take_items(), start))

    def unique(self, key: Callable[[T], object] | None = None) -> AsyncStream[T]:
        """Each item the first time it (or its ``key``) is seen (unhashable items too)."""
        if key is not None:
            check_callable(key, "unique's key")
        return AsyncStream(_Unique(self._take_items(), key))

    def chain(self, *others: AsyncIterable[T] | Iterable[T]) -> AsyncStream[T]:
        """These items, then those of each of ``others`` in turn (also ``+``)."""
        return AsyncStream(_Chain([self._take_items(), *map(_source, others)]))

    def __add__(self, other: AsyncIterable[T] | Iterable[T]) -> AsyncStream[T]:
        return self.chain(other)

    def catch(
        self,
        *errors: type[BaseException],
        where: Callable[[Any], object] | None = None,
        replace: Callable[[Any], U] | None = None,
        do: Callable[[Any], object] | None = None,
        stop: bool = False,
    ) -> AsyncStream[T | U]:
        """As :meth:`lazyfun.stream.Stream.catch`: drop, replace or stop on upstream errors.

        >>> import asyncio
        >>> asyncio.run(astream(["1", "x", "3"]).map(int).catch(ValueError).to_list())
        [1, 3]
        """
        for error in errors:
            if not (isinstance(error, type) and issubclass(error, BaseException)):
                raise TypeError(f"catch takes exception types, got {error!r}")
        for name, f in (("where", where), ("replace", replace), ("do", do)):
            if f is not None:
                check_callable(f, f"catch's {name}")
        caught = _Catch(self._take_items(), errors or (Exception,), where, replace, do, stop)
        return AsyncStream(caught)

    def throttle(self, count: int, *, per: float | timedelta) -> AsyncStream[T]:
        """At most ``count`` items in any window of ``per`` seconds (awaiting, not blocking)."""
        check_count(count, "throttle's count", 1)
        return AsyncStream(_Throttle(self._take_items(), count, seconds(per, "throttle's per")))

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
        by: Callable[[T], K],
    ) -> AsyncStream[tuple[K, list[T]]]: ...

    def group(
        self,
        size: int | None = None,
        *,
        within: float | timedelta | None = None,
        by: Callable[[T], Any] | None = None,
    ) -> AsyncStream[Any]:
        """As :meth:`lazyfun.stream.Stream.group`; a list whose time is up is sent even
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
            check_callable(by, "group's by")
        return AsyncStream(_Group(self._take_items(), size, limit, by))

    def buffer(self, n: int) -> AsyncStream[T]:
        """Read up to ``n`` items ahead in a task, to overlap producer and consumer."""
        check_count(n, "buffer's n", 1)
        return AsyncStream(_Buffer(self._take_items(), n))

    def observe(self, name: str) -> AsyncStream[T]:
        """The items unchanged; counts and time logged as :meth:`Stream.observe` does."""
        return AsyncStream(_Observed(self._take_items(), name))

    def pipe(self, f: Callable[..., U], *args: Any, **kwargs: Any) -> U:
        """``f(self, *args, **kwargs)``."""
        check_callable(f, "pipe")
        return f(self, *args, **kwargs)

    # --- terminals: awaitables ---------------------------------------------------

    async def to_list(self) -> list[T]:
        """Every item, in a list."""
        items = self._take_items()
        try:
            return [item async for item in items]
        finally:
            await _aclose(items)

    @overload
    async def first(self) -> T: ...

    @overload
    async def first(self, default: D) -> T | D: ...

    async def first(self, default: Any = _NOTHING) -> Any:
        """The first item (reads only it; cancels what the stream started beyond it)."""
        items = self._take_items()
        try:
            async for item in items:
                return item
        finally:
            await _aclose(items)
        if default is _NOTHING:
            raise ValueError("first() of an empty AsyncStream (give a default)")
        return default

    async def count(self) -> int:
        """How many items there are."""
        return await self.reduce(lambda n, _: n + 1, 0)

    async def reduce(self, f: Callable[[U, T], U], initial: U) -> U:
        """``foldl f initial``."""
        items = self._take_items()
        value = initial
        try:
            async for item in items:
                value = f(value, item)
        finally:
            await _aclose(items)
        return value

    async def for_each(self, f: Callable[[T], object]) -> None:
        """``f`` (plain or a coroutine function) on every item."""
        is_async = _is_async(f)
        items = self._take_items()
        try:
            async for item in items:
                await _call(f, is_async, item)
        finally:
            await _aclose(items)

    async def sum(self: AsyncStream[int]) -> int:
        """The sum of the items."""
        return await self.reduce(lambda total, n: total + n, 0)

    async def min(self, *, key: Callable[[T], _Comparable] | None = None) -> T:
        """The least item (by ``key``); ValueError for an empty stream."""
        return min(await self.to_list(), key=key)  # type: ignore[arg-type, type-var]

    async def max(self, *, key: Callable[[T], _Comparable] | None = None) -> T:
        """The greatest item (by ``key``); ValueError for an empty stream."""
        return max(await self.to_list(), key=key)  # type: ignore[arg-type, type-var]

    async def to_set(self) -> set[T]:
        """Every item, in a set."""
        return set(await self.to_list())


class _Observed(_Step):
    def __init__(self, source: AsyncIterator[Any], name: str) -> None:
        from lazyfun.flow import Observe

        self.source = source
        self.log = Observe(iter(()), name)

    async def __anext__(self) -> Any:
        log = self.log
        if log.started is None:
            log.started = log.clock()
        try:
            item = await anext(self.source)
        except StopAsyncIteration:
            log._report(final=True)
            raise
        except Exception:
            log.errors += 1
            log._tick()
            raise
        log.items += 1
        log._tick()
        return item


def _with_retry(f: Callable[[Any], Any], retry: Any) -> Callable[[Any], Any]:
    """``f`` under a tenacity policy: ``AsyncRetrying`` for a coroutine function,
    ``Retrying`` for a plain one (refused the other way round, at the call)."""
    if retry is None:
        return f
    from tenacity import AsyncRetrying, Retrying

    wanted = AsyncRetrying if _is_async(f) else Retrying
    if not isinstance(retry, wanted) or (wanted is Retrying and isinstance(retry, AsyncRetrying)):
        raise TypeError(
            f"retry must be a tenacity {wanted.__name__} for "
            f"{'a coroutine' if _is_async(f) else 'a plain'} function, got {type(retry).__name__}"
        )
    return functools.partial(retry, f)


def _listing(f: Callable[[Any], Any]) -> Callable[[Any], Awaitable[list[Any]]]:
    """A concurrent flatmap's call: ``f(x)`` read to a list (awaited, or in a thread)."""
    is_async = _is_async(f)

    async def listed(item: Any) -> list[Any]:
        made = await f(item) if is_async else await asyncio.to_thread(f, item)
        if isinstance(made, AsyncIterable):
            return [x async for x in made]
        return list(made)

    return listed


def astream(items: AsyncIterable[T] | Iterable[T]) -> AsyncStream[T]:
    """An :class:`AsyncStream` over an async iterable, or a plain one read in the loop.

    >>> import asyncio
    >>> asyncio.run(astream([3, 1, 2]).map(lambda n: n * 2).to_list())
    [6, 2, 4]
    """
    return AsyncStream(items)
