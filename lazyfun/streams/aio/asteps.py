"""The steps of an AsyncStream, each a small resumable async iterator.

:func:`lazyfun.streams.stream.astream`'s chains are made of these, as
:class:`~lazyfun.streams.stream.Stream` is made of :mod:`lazyfun.streams.sync.steps`'s: each
``__anext__`` lets an upstream exception through with its state intact, so a
``Catch`` further down can drop it and go on; closing a step (``aclose``)
closes its source and cancels the tasks it started.

>>> import asyncio
>>> async def first_two():
...     return [x async for x in Take(FromSync(range(5)), 2)]
>>> asyncio.run(first_two())
[0, 1]
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import inspect
import time
from collections import deque
from collections.abc import (
    AsyncIterable,
    AsyncIterator,
    Callable,
    Iterable,
    Iterator,
)
from itertools import islice
from typing import Any, TypeGuard

from lazyfun.parallel.daemons import DaemonPool
from lazyfun.streams.shared.calling import Rate, at_rate, is_async, within
from lazyfun.streams.shared.parts import (
    DROPPED,
    NOTHING,
    Held,
    Recovery,
    Seen,
    Step,
    Windowing,
    aclose,
    seconds,
)

__all__ = [
    "IN_MEMORY",
    "Catch",
    "Chain",
    "Chunked",
    "Drop",
    "Enumerate",
    "FlatMap",
    "FromSync",
    "Group",
    "Map",
    "Recovering",
    "Scan",
    "Sliding",
    "Step",
    "Take",
    "Threads",
    "Throttle",
    "Unique",
    "While",
    "Zip",
    "aclose",
    "call",
    "close_made",
    "in_memory",
    "is_async",
    "may_wait",
    "metered",
    "source",
]


class Threads:
    """Where an async step runs plain calls: daemon threads of its own, at most ``n`` at
    once (not the loop's default executor, six wide on two cores and joined when the loop
    ends), started at the first call and let go by ``close``."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.pool: DaemonPool | None = None

    def run(self, f: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """``f(*args)`` on a thread, in this task's context (as ``asyncio.to_thread``)."""
        if self.pool is None:
            self.pool = DaemonPool(self.n, "lazyfun-async")
        call = functools.partial(contextvars.copy_context().run, f, *args)
        return asyncio.get_running_loop().run_in_executor(self.pool, call)

    def close(self) -> None:
        """Cancel the queued calls; running ones finish on their threads, unawaited."""
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None


async def call(f: Callable[..., Any], is_async: bool, *args: Any) -> Any:
    """``f(*args)``, awaited when ``f`` is a coroutine function or gave a coroutine (a
    lambda around one): a callback is never left an unawaited coroutine."""
    value = f(*args)
    if is_async or inspect.iscoroutine(value):
        return await value
    return value


_CONTAINERS: tuple[Iterator[Any], ...] = (
    iter(range(0)),
    iter(range(2**64)),
    reversed(range(0)),
    iter([]),
    reversed([]),
    iter(()),
    iter(""),
    iter("\u00e9"),
    iter(b""),
    iter(bytearray()),
    iter({}),
    iter({}.values()),
    iter({}.items()),
    iter(set()),
    iter(deque()),
)
IN_MEMORY: frozenset[type] = frozenset(map(type, _CONTAINERS))
"""The iterators of Python's own containers: reading one runs none of your code and never
waits, so there is nothing for a thread to overlap."""


def in_memory(items: Iterable[Any]) -> bool:
    """Whether ``items`` is an iterator over one of Python's containers (a range, list,
    tuple, str, bytes, dict, set or deque), which the event loop can read itself.

    >>> in_memory(iter([1, 2])), in_memory(n for n in [1, 2])
    (True, False)
    """
    return type(items) in IN_MEMORY


def may_wait(items: AsyncIterator[Any]) -> TypeGuard[FromSync]:
    """Whether ``items`` reads a plain iterable that may wait or run your code (a
    generator, a file, a sync stream), so that a step reading ahead of it reads it on a
    thread; a container's items are read in the loop."""
    return isinstance(items, FromSync) and not in_memory(items.items)


class FromSync(Step):
    """A plain iterable read in the event loop."""

    def __init__(self, items: Iterable[Any]) -> None:
        self.items = iter(items)

    async def __anext__(self) -> Any:
        try:
            return next(self.items)
        except StopIteration:
            raise StopAsyncIteration from None

    async def aclose(self) -> None:
        """Nothing to let go of: the plain iterable is yours, and stays open."""


class Map(Step):
    def __init__(self, source: AsyncIterator[Any], f: Callable[[Any], Any], kind: str) -> None:
        self.source, self.f, self.kind, self.is_async = source, f, kind, is_async(f)

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


async def close_made(inner: object) -> None:
    """Close an inner iterator that a flatmap's function made: lazyfun's steps, async
    generators and generators (what the function returned is the step's to read and to
    let go of; other iterators are left as they are)."""
    if isinstance(inner, Step) or inspect.isasyncgen(inner):
        await inner.aclose()
    elif inspect.isgenerator(inner):
        with contextlib.suppress(ValueError):  # still running on a thread: left to it
            inner.close()


class FlatMap(Step):
    """The items of each ``f(x)`` in turn; an error of an inner iterator passes on at its
    place and the next read goes on reading it, as the sync chain does (an iterator may
    go on; a generator that raised has ended).  Closing it, or a cancelled read, closes
    the inner iterator it is reading (stopped early, an inner async generator is not left
    open until collected)."""

    def __init__(self, source: AsyncIterator[Any], f: Callable[[Any], Any]) -> None:
        self.source, self.f, self.is_async = source, f, is_async(f)
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
            except Exception:
                raise  # an item at its place: the inner iterator is read on
            except BaseException:
                self.inner = iter(())
                await close_made(inner)
                raise
            self.inner = iter(())
            item = await anext(self.source)
            made = await call(self.f, self.is_async, item)
            self.inner = aiter(made) if isinstance(made, AsyncIterable) else iter(made)

    async def aclose(self) -> None:
        inner, self.inner = self.inner, iter(())
        try:
            await close_made(inner)
        finally:
            await aclose(self.source)


class Take(Step):
    def __init__(self, source: AsyncIterator[Any], n: int) -> None:
        self.source, self.left = source, n

    async def __anext__(self) -> Any:
        if self.left <= 0:
            raise StopAsyncIteration
        item = await anext(self.source)
        self.left -= 1
        return item


class Drop(Step):
    def __init__(self, source: AsyncIterator[Any], n: int) -> None:
        self.source, self.left = source, n

    async def __anext__(self) -> Any:
        while self.left > 0:
            await anext(self.source)
            self.left -= 1
        return await anext(self.source)


class While(Step):
    """``takewhile`` (``taking``) or ``dropwhile``."""

    def __init__(self, source: AsyncIterator[Any], keep: Callable[[Any], Any], taking: bool):
        self.source, self.keep, self.taking, self.done = source, keep, taking, False
        self.is_async = is_async(keep)

    async def __anext__(self) -> Any:
        if self.taking:
            if self.done:
                raise StopAsyncIteration
            item = await anext(self.source)
            if await call(self.keep, self.is_async, item):
                return item
            self.done = True
            raise StopAsyncIteration
        while not self.done:
            item = await anext(self.source)
            if not await call(self.keep, self.is_async, item):
                self.done = True
                return item
        return await anext(self.source)


class Enumerate(Step):
    def __init__(self, source: AsyncIterator[Any], start: int) -> None:
        self.source, self.index = source, start

    async def __anext__(self) -> Any:
        item = await anext(self.source)
        self.index += 1
        return self.index - 1, item


class Unique(Seen, Step):
    """Each item the first time it (or its ``key``, plain or a coroutine function) is
    seen (:class:`~lazyfun.streams.shared.parts.Seen`)."""

    def __init__(self, source: AsyncIterator[Any], key: Callable[[Any], Any] | None) -> None:
        super().__init__()
        self.source, self.key, self.is_async = source, key, is_async(key)

    async def __anext__(self) -> Any:
        while True:
            item = await anext(self.source)
            mark = item if self.key is None else await call(self.key, self.is_async, item)
            if self.first(mark):
                return item


class Sliding(Windowing, Step):
    """Windows of ``n`` items; a window never spans an error (see ``steps.Sliding``)."""

    def __init__(self, source: AsyncIterator[Any], n: int) -> None:
        super().__init__(n)
        self.source = source

    async def __anext__(self) -> Any:
        self.held.raise_held()
        window = self.window
        try:
            window.append(await anext(self.source))
            while len(window) < self.n:
                window.append(await anext(self.source))
        except Exception as error:
            return self.broken(error)
        return tuple(window)


class Recovering(Recovery):
    """An async ``catch``'s :class:`~lazyfun.streams.sync.steps.Recovery`: ``where``, ``do``
    and ``replace`` may be plain or coroutine functions (awaited)."""

    __slots__ = ()

    async def arecover(self, error: BaseException) -> Any:
        """As ``recover``, awaiting what the functions give: once ``where`` has picked the
        error, ``stop`` ends the stream after it, whatever ``do`` and ``replace`` do."""
        if self.where is not None and not await call(self.where, is_async(self.where), error):
            raise error
        self.stopped = self.stop
        if self.do is not None:
            await call(self.do, is_async(self.do), error)
        if self.replace is not None:
            return await call(self.replace, is_async(self.replace), error)
        return DROPPED


class Catch(Step):
    """Upstream exceptions handled by a :class:`Recovering`."""

    def __init__(self, source: AsyncIterator[Any], recovery: Recovering) -> None:
        self.source, self.recovery = source, recovery

    async def __anext__(self) -> Any:
        recovery = self.recovery
        while not recovery.stopped:
            try:
                return await anext(self.source)
            except StopAsyncIteration:
                raise
            except recovery.errors as error:
                item = await recovery.arecover(error)
                if item is not DROPPED:
                    return item
        raise StopAsyncIteration


class Throttle(Step):
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


class Group(Step):
    """Lists closed on size or on time, the time also while waiting for the next item
    (the read in progress is kept as a task and goes on after the list is sent).  A
    list is what ``gather()`` makes: a list, or what folds the items as they come
    (``aggregate``'s windows), with ``append`` and ``len``.  With ``ask`` (``ReadAhead.ask``)
    the source is read only while a list is filled, no further than it has room for."""

    def __init__(
        self,
        source: AsyncIterator[Any],
        size: int | None,
        within: float | None,
        by: Callable[[Any], Any] | None,
        gather: Callable[[], Any] = list,
        ask: Callable[[int | None], None] | None = None,
    ) -> None:
        self.source, self.size, self.within, self.by = source, size, within, by
        self.gather, self.ask = gather, ask
        self.by_async = is_async(by)
        self.open: dict[Any, tuple[float, list[Any]]] = {}
        self.ready: deque[Any] = deque()
        self.reading: asyncio.Future[Any] | None = None
        self.exhausted = False
        self.held = Held()

    def _out(self, key: Any, gathered: list[Any]) -> None:
        self.ready.append((key, gathered) if self.by is not None else gathered)

    def leftover(self) -> list[Any]:
        """The items of the lists made and not yet handed over, then of the open ones,
        oldest first (a sink writes them when a cancellation stops the reading)."""
        lists = [entry[1] if self.by is not None else entry for entry in self.ready]
        lists += [gathered for _, gathered in self.open.values()]
        self.ready.clear()
        self.open.clear()
        items = [item for gathered in lists for item in gathered]
        reading, self.reading = self.reading, None
        if reading is not None and reading.done() and not reading.cancelled():
            if reading.exception() is None:  # an item read and not yet placed in a list
                items.append(reading.result())
        elif reading is not None:
            reading.cancel()
        return items

    def _flush_before(self, error: Exception) -> None:
        """An error flushes every open list, oldest first, then passes on (raised now
        when nothing was open)."""
        opened, self.open = self.open, {}
        try:
            self.held.flush(opened, error)
        finally:
            del error  # the frame keeps no error alive (in a cycle) once it is passed on
        for key, (_, gathered) in opened.items():
            self._out(key, gathered)

    def _expire(self) -> float | None:
        """Send the lists whose time is up; the seconds until the next one's is."""
        if self.within is None:
            return None
        now = time.monotonic()
        while self.open:  # in the order they opened: the due ones come first
            key, (opened, gathered) = next(iter(self.open.items()))
            left = opened + self.within - now
            if left > 0:
                return left
            del self.open[key]
            self._out(key, gathered)
        return None

    async def __anext__(self) -> Any:
        if self.ask is None:
            return await self._next()
        self.ask(self._wanted())
        try:
            return await self._next()
        finally:
            self.ask(0)

    def _wanted(self) -> int | None:
        """How many items the list being filled takes yet (None: as many as come)."""
        if self.size is None or self.by is not None:
            return None
        filling = self.open.get(None)
        return self.size - (len(filling[1]) if filling else 0)

    async def _next(self) -> Any:
        if not self.ready:
            self.held.raise_held()
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
            except Exception as error:
                del reading, done  # the future holds the error, whose traceback holds this frame
                self._flush_before(error)
                break
            try:
                key = None if self.by is None else await call(self.by, self.by_async, item)
            except Exception as error:  # the key's error, as one from upstream
                self._flush_before(error)
                break
            self._place(key, item)
        return self.ready.popleft()

    def _place(self, key: Any, item: Any) -> None:
        """``item`` into ``key``'s list (opened now if need be), sent once it is full."""
        opened = self.open.get(key)
        gathered = self.gather() if opened is None else opened[1]
        gathered.append(item)  # a fold's error leaves the window as it was
        if opened is None:
            self.open[key] = (time.monotonic(), gathered)
        if self.size is not None and len(gathered) >= self.size:
            del self.open[key]
            self._out(key, gathered)

    async def aclose(self) -> None:
        if self.reading is not None:
            self.reading.cancel()
            await asyncio.gather(self.reading, return_exceptions=True)
        await aclose(self.source)


class Chain(Step):
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
            await aclose(part)


class Scan(Step):
    """``initial``, then each running result of ``f`` (plain or a coroutine function); an
    upstream error passes through and the running value stays as it was."""

    def __init__(self, source: AsyncIterator[Any], f: Callable[[Any, Any], Any], initial: Any):
        self.source, self.f, self.is_async = source, f, is_async(f)
        self.value, self.started = initial, False

    async def __anext__(self) -> Any:
        if not self.started:
            self.started = True
            return self.value
        item = await anext(self.source)
        self.value = await call(self.f, self.is_async, self.value, item)
        return self.value


class Zip(Step):
    """Pairs of this source's items and ``other``'s, to the shorter end (or, ``longest``,
    to the longer one, ``fill`` for the missing side).  An item read before the other side
    raised is kept for the next pair; closing closes ``other`` if it is lazyfun's."""

    def __init__(
        self, source: AsyncIterator[Any], other: AsyncIterator[Any], longest: bool, fill: Any
    ):
        self.source, self.other, self.longest, self.fill = source, other, longest, fill
        self.left: Any = NOTHING
        self.ended = [False, False]

    async def _side(self, side: int, items: AsyncIterator[Any]) -> Any:
        if self.ended[side]:
            return NOTHING
        try:
            return await anext(items)
        except StopAsyncIteration:
            if not self.longest:
                raise
            self.ended[side] = True
            return NOTHING

    async def __anext__(self) -> Any:
        if self.left is NOTHING:
            self.left = await self._side(0, self.source)
        right = await self._side(1, self.other)
        left, self.left = self.left, NOTHING
        if left is NOTHING and right is NOTHING:
            raise StopAsyncIteration
        return (self.fill if left is NOTHING else left, self.fill if right is NOTHING else right)

    async def aclose(self) -> None:
        try:
            await aclose(self.other)
        finally:
            await aclose(self.source)


def source(items: AsyncIterable[Any] | Iterable[Any]) -> AsyncIterator[Any]:
    if isinstance(items, AsyncIterable):
        return aiter(items)
    return FromSync(items)


class Chunked(Step):
    """Lists of ``n`` items (the last may be shorter), with no task an item: from a plain
    iterable in C (``list.extend`` of an ``islice``, as its reads never wait), else one
    ``await`` an item.  An error first flushes the list gathered so far, then passes on
    at the next read (``Group`` by size alone, without its timer).

    >>> import asyncio
    >>> async def lists():
    ...     return [g async for g in Chunked(FromSync(range(5)), 2)]
    >>> asyncio.run(lists())
    [[0, 1], [2, 3], [4]]
    """

    def __init__(self, source: AsyncIterator[Any], n: int) -> None:
        self.source, self.n = source, n
        self.gathered: list[Any] = []  # kept on the step: a cancelled read loses none
        self.held = Held()

    async def __anext__(self) -> list[Any]:
        self.held.raise_held()
        gathered, source = self.gathered, self.source
        try:
            if isinstance(source, FromSync):
                gathered.extend(islice(source.items, self.n - len(gathered)))
            while len(gathered) < self.n:
                gathered.append(await anext(source))
        except StopAsyncIteration:
            pass
        except Exception as error:
            self.held.flush(gathered, error)
        if not gathered:
            raise StopAsyncIteration
        self.gathered = []
        return gathered


def metered(f: Callable[[Any], Any], rate: Rate | None, timeout: Any) -> Callable[[Any], Any]:
    """``f`` waiting for ``rate`` before each call and ended at ``timeout`` seconds (inside
    a retry: each attempt is metered and timed on its own); refused at the call unless
    ``rate`` is a :class:`~lazyfun.streams.shared.calling.Rate` and ``timeout`` a positive time."""
    if rate is not None and not isinstance(rate, Rate):
        raise TypeError(f"map's rate must be a lazyfun Rate, got {type(rate).__name__}")
    limit = None if timeout is None else seconds(timeout, "map's timeout")
    if rate is None and limit is None:
        return f
    if not is_async(f):  # a plain call: it waits and is timed on the thread it runs on
        if limit is not None:
            f = functools.partial(within, limit, f)
        return f if rate is None else functools.partial(at_rate, rate, f)

    async def timed(item: Any) -> Any:
        if limit is None:
            return await f(item)
        async with asyncio.timeout(limit):  # the call starts here (wait_for: as a task, later)
            return await f(item)

    async def metered_call(item: Any) -> Any:
        if rate is None:
            return await timed(item)
        return await rate.call(functools.partial(timed, item))

    return metered_call
