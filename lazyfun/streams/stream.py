"""A fluent, typed, one-shot pipeline: ``stream(xs).map(f).filter(p).take(5).to_list()``.

:func:`stream` wraps an iterable in a :class:`Stream`, whose methods are the
library's lazy vocabulary read left to right.  Each step returns a new
Stream and computes nothing; a terminal (``to_list``, ``first``, ``count``,
``reduce``, ...) or a ``for`` loop pulls the items through.  The steps are
itertools and the small resumable iterators of :mod:`lazyfun.streams.sync.steps`, so a
Stream costs about what the hand-written generator pipeline costs (``make
bench BENCH=stream``).

:func:`astream` makes the same Stream in its other mode, read with ``async for``:
the same steps with the same parameters, each function given to them plain or a
coroutine function, concurrent calls as tasks, terminals awaited.  Its type is
``Stream[T, Async]`` (:data:`AsyncStream`); ``Stream[T]`` is ``Stream[T, Sync]``
(:mod:`lazyfun.streams.modes`).  Each step is declared once, on the façade
(:mod:`lazyfun.streams.facade`), and built by the runner of the stream's mode
(:mod:`lazyfun.streams.run`).

``map``, ``filter``, ``flatmap`` and ``do`` take ``concurrency=n``: at most n calls in flight on
threads (or ``via="process"``, ``"dask"``, an Executor), in input order or as they complete,
reading at most ``concurrency + 1`` tasks ahead, and in order up to ``max(1024, 64 * concurrency)``
items while the head's call runs (``ahead=`` fixes it; :mod:`lazyfun.parallel.places`).
An exception raised upstream reaches the consumer at its item's place, and ``catch`` can drop or
replace it and go on.

>>> stream(range(10)).filter(lambda n: n % 2).map(lambda n: n * n).to_list()
[1, 9, 25, 49, 81]
>>> import asyncio
>>> async def double(n):
...     await asyncio.sleep(0)
...     return 2 * n
>>> asyncio.run(astream(range(5)).map(double, concurrency=2).filter(lambda n: n > 2).to_list())
[4, 6, 8]

A Stream is one-shot, like the iterator it wraps, and says so: reading it a second time raises
:class:`StreamConsumedError` instead of silently giving nothing.  To read the items more than
once, turn it into a call-by-need :class:`~lazyfun.lazylist.LazyList` with :meth:`Stream.lazylist`.

>>> squares = stream(range(4)).map(lambda n: n * n)
>>> squares.to_list()
[0, 1, 4, 9]
>>> squares.to_list()
Traceback (most recent call last):
...
lazyfun.streams.shared.parts.StreamConsumedError: this Stream was already read: ...

Stopping an async stream early (``break`` then ``aclose()``, a terminal such as
``first``, leaving ``async with``, cancelling the task that reads it, or the end of the
event loop) cancels every task it started.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, Callable, Iterable
from typing import TYPE_CHECKING, Any, NoReturn, TypeAlias, TypeVar, overload

from lazyfun.streams.explain import Stage, analysing, recorded, root
from lazyfun.streams.facade.base import Base, async_only
from lazyfun.streams.facade.shapes import Shapes
from lazyfun.streams.facade.sinks import Sinks
from lazyfun.streams.facade.steps import Steps
from lazyfun.streams.facade.terminals import Terminals
from lazyfun.streams.facade.verbs import Verbs
from lazyfun.streams.modes import Async, M, Sync
from lazyfun.streams.run import SYNC as SYNC  # the runners, registered with the plan
from lazyfun.streams.shared.calling import Rate
from lazyfun.streams.shared.parts import StreamConsumedError
from lazyfun.trace import Counts

__all__ = ["AsyncStream", "Rate", "Stream", "StreamConsumedError", "astream", "stream"]

T = TypeVar("T")

for _kind in (Base, Steps, Shapes, Verbs, Terminals, Sinks):
    recorded(_kind)


class Stream(Sinks[T, M]):
    """A one-shot pipeline over an iterator (or an async iterator), composed by method
    chaining.  Build one with :func:`stream` (read with ``for``; ``Stream[T]``) or
    :func:`astream` (read with ``async for``, terminals awaited; ``Stream[T, Async]``).
    Every step (``map``, ``filter``, ...) uses this stream up and returns a new one;
    every terminal reads it to the end (or, for ``first``, its first).

    An error travels as an item, to its place, and is let go of once it is raised: no
    step keeps it (with its traceback's frames and what they hold) alive through a
    reference cycle, so dropping it with ``catch`` frees it at once."""

    __slots__ = ()


class _Moded(type):
    """``AsyncStream`` at run time: ``isinstance`` asks a stream's mode, and
    ``AsyncStream[T]`` is ``Stream[T, Async]``."""

    def __instancecheck__(cls, instance: object) -> bool:
        return isinstance(instance, Stream) and instance._is_async

    def __getitem__(cls, item: object) -> Any:
        return Stream[item, Async]  # type: ignore[valid-type]


if TYPE_CHECKING:
    AsyncStream: TypeAlias = Stream[T, Async]
else:

    class AsyncStream(metaclass=_Moded):
        """The type of an async stream, :func:`astream`'s: ``Stream[T, Async]``
        (``isinstance(s, AsyncStream)``: whether ``s`` is one)."""

        def __new__(cls, *args: object, **keywords: object) -> NoReturn:
            raise TypeError("an async stream is made with astream(...) or .to_async()")


_NO_END: Any = object()


@overload
def stream(
    items: Iterable[T] | AsyncIterable[T], *, analyze: bool | None = None
) -> Stream[T, Sync]: ...


@overload
def stream(
    items: Callable[[], T], *, until: object, analyze: bool | None = None
) -> Stream[T, Sync]: ...


def stream(items: Any, *, until: object = _NO_END, analyze: bool | None = None) -> Stream[Any]:
    """A fluent :class:`Stream` over ``items`` (nothing is read until a terminal asks).

    >>> stream([3, 1, 2]).map(lambda n: n * 2).to_list()
    [6, 2, 4]

    An async iterable is read synchronously, on an event loop of the Stream's own
    (outside a running loop; inside one, :func:`astream`).  With ``until``, ``items``
    is a function called for each item until it returns ``until`` (as
    ``iter(f, until)``), e.g. the chunks of a file:

    >>> import io
    >>> chunks = io.BytesIO(b"abcdefg")
    >>> stream(lambda: chunks.read(3), until=b"").to_list()
    [b'abc', b'def', b'g']

    With ``analyze=True`` the stream and every step after it keep counts that
    :meth:`~lazyfun.streams.explain.Explaining.explain` shows (``LAZYFUN_ANALYZE=1``
    turns it on for every stream).
    """
    if isinstance(items, Stream) and not items._is_async:
        return items.analyze() if analyze else items  # its sources stay known to its sinks
    meter = Counts() if analysing(analyze) else None
    if until is not _NO_END:
        if not callable(items):
            raise TypeError(f"stream(..., until=) needs a function, got {type(items).__name__}")
        return Stream(iter(items, until), stage=Stage("stream", (items,), None, meter))
    if async_only(items):
        from lazyfun.streams.sync import threaded

        read = threaded.FromAsync(items)
        return Stream(read, (read,), stage=root(items, meter))
    return Stream(items, stage=root(items, meter))


def astream(
    items: AsyncIterable[T] | Iterable[T], *, analyze: bool | None = None
) -> Stream[T, Async]:
    """An async :class:`Stream` over an async iterable, or a plain one read in the loop
    (put ``.buffer(n)`` after a source whose reads block); ``analyze=True``: keeping
    counts, as :func:`stream`.

    >>> import asyncio
    >>> asyncio.run(astream([3, 1, 2]).map(lambda n: n * 2).to_list())
    [6, 2, 4]
    """
    if isinstance(items, Stream) and items._is_async:
        return items.analyze() if analyze else items
    stage = root(items, Counts() if analysing(analyze) else None, "astream")
    # a sync Stream is read on a thread: what it holds (its sources) stays known
    holds = items._holds if isinstance(items, Stream) else ()
    return Stream(items, holds, stage=stage, mode="async")
