"""A fluent, typed, one-shot pipeline: ``stream(xs).map(f).filter(p).take(5).to_list()``.

:func:`stream` wraps an iterable in a :class:`Stream`, whose methods are the
library's lazy vocabulary read left to right.  Each step returns a new
Stream and computes nothing; a terminal (``to_list``, ``first``, ``count``,
``reduce``, ...) or a ``for`` loop pulls the items through.  The steps are
itertools and the small resumable iterators of :mod:`lazyfun.streams.steps`, so a
Stream costs about what the hand-written generator pipeline costs (``make
bench BENCH=stream``).

``map``, ``filter``, ``flatmap`` and ``do`` take ``concurrency=n``: at most n calls in flight on
threads (or ``via="process"``, ``"dask"``, an Executor), in input order or as they complete,
reading a bounded distance ahead (:mod:`lazyfun.parallel.places`).  An exception raised upstream
reaches the consumer at its item's place, and ``catch`` can drop or replace it and go on.

>>> stream(range(10)).filter(lambda n: n % 2).map(lambda n: n * n).to_list()
[1, 9, 25, 49, 81]

A Stream is one-shot, like the iterator it wraps, and says so: reading it a second time raises
:class:`StreamConsumedError` instead of silently giving nothing.  To read the items more than
once, turn it into a call-by-need :class:`~lazyfun.lazylist.LazyList` with :meth:`Stream.lazylist`.

>>> squares = stream(range(4)).map(lambda n: n * n)
>>> squares.to_list()
[0, 1, 4, 9]
>>> squares.to_list()
Traceback (most recent call last):
...
lazyfun.streams.steps.StreamConsumedError: this Stream was already read: ...
"""

from __future__ import annotations

import functools
import itertools
import sys
from collections.abc import AsyncIterable, Callable, Coroutine, Iterable, Iterator
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Concatenate, Never, ParamSpec, TypeVar, overload

from typing_extensions import TypeIs, deprecated

from lazyfun.streams import calls, flow, steps, threaded
from lazyfun.streams.dataverbs import Verbs
from lazyfun.streams.explain import Meter, Stage, analysing, called, recorded, root
from lazyfun.streams.observing import Observe
from lazyfun.streams.steps import check_callable, check_count, seconds
from lazyfun.streams.terminals import Closable, StreamConsumedError, Terminals
from lazyfun.streams.threaded import Rate

if TYPE_CHECKING:
    import logging
    from typing import TypeGuard

    from tenacity import Retrying

    from lazyfun.parallel.places import Via
    from lazyfun.parallel.window import Kind
    from lazyfun.trace import Probe

T = TypeVar("T")
U = TypeVar("U")
D = TypeVar("D")
K = TypeVar("K")
V = TypeVar("V")
E = TypeVar("E", bound=BaseException)
P = ParamSpec("P")

__all__ = ["Rate", "Stream", "StreamConsumedError", "stream"]


def _holds_of(items: Iterable[Any]) -> tuple[Closable, ...]:
    """What a Stream given as another step's input holds (nothing, for other iterables)."""
    return items._holds if isinstance(items, Terminals) else ()


@recorded
class Stream(Verbs[T]):
    """A one-shot pipeline over an iterator, composed by method chaining.

    Build one with :func:`stream`.  Every step (``map``, ``filter``, ...) uses this Stream up
    and returns a new one; every terminal reads it to the end (or, for ``first``, its first).
    """

    __slots__ = ()

    def _then(self, items: Iterable[U], *holding: Closable, step: str | None = None) -> Stream[U]:
        """The next step's Stream: closing it closes what this one holds, and ``holding``.
        A killed job with this step (named by the method that calls, unless ``step``
        says) cannot resume exactly: its sink refuses ``resume=True``."""
        blocker = self._blocker or step or sys._getframe(1).f_code.co_name
        stage = called(self, self._stage, holding)
        return Stream(items, (*self._holds, *holding), blocker, None, stage)

    def _kept(self, items: Iterable[U], *holding: Closable, drops: str | None = None) -> Stream[U]:
        """The next step's Stream, for a step a killed job resumes through: one output an
        input at most, in order, and no state carried from item to item (``drops``: the
        step may drop items)."""
        stage = called(self, self._stage, holding)
        return Stream(items, (*self._holds, *holding), self._blocker, self._dropped or drops, stage)

    def _concurrent(
        self,
        kind: Kind,
        work: Callable[[Any], Any],
        concurrency: int | None,
        ordered: bool,
        via: Via,
        what: str,
        chunksize: int | None,
    ) -> Stream[Any]:
        window = calls.window(
            kind, work, self._take_items, concurrency, ordered, via, what, chunksize
        )
        if kind in ("map", "do") and ordered and self._dropped is None:
            return self._kept(window, window)
        if kind in ("map", "do") and ordered:
            step = f"{what}(concurrency=) after a {self._dropped}"
            return self._then(window, window, step=step)
        return self._then(window, window, step=f"{what}(concurrency=, ordered={ordered})")

    # --- steps: each returns a new Stream, lazily -----------------------------

    @overload
    @deprecated("a Stream is synchronous: a coroutine function is refused; use astream(...)")
    def map(
        self,
        f: Callable[[T], Coroutine[Any, Any, Any]],
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        via: Via = None,
        chunksize: int | None = None,
        retry: int | Retrying | None = None,
        rate: Rate | None = None,
        timeout: float | timedelta | None = None,
    ) -> Stream[Never]: ...

    @overload
    def map(
        self,
        f: Callable[[T], U],
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        via: Via = None,
        chunksize: int | None = None,
        retry: int | Retrying | None = None,
        rate: Rate | None = None,
        timeout: float | timedelta | None = None,
    ) -> Stream[U]: ...

    def map(
        self,
        f: Callable[[T], Any],
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        via: Via = None,
        chunksize: int | None = None,
        retry: int | Retrying | None = None,
        rate: Rate | None = None,
        timeout: float | timedelta | None = None,
    ) -> Stream[Any]:
        """``map f``: ``f`` applied to each item as it is pulled.

        With ``concurrency=n`` (or a ``via``), at most n calls of ``f`` run at once
        on threads (``via``: see :mod:`lazyfun.parallel.places`), results in input
        order or, with ``ordered=False``, as they complete.  ``retry`` is a count of
        attempts or a tenacity ``Retrying``, applied to each call, in the worker.
        ``rate`` (a :class:`~lazyfun.streams.threaded.Rate`) meters the calls, every
        attempt of a retry included, on this process's threads.  ``timeout`` (seconds)
        ends a call that runs longer with a TimeoutError at its item (catchable; a retry
        tries again): the call is left to finish on a daemon thread, its result dropped
        (in a worker process or on dask, on a thread of the worker's).  The items go out
        in tasks whose size adapts (cheap items in batches, slow ones one a task);
        ``chunksize=k`` fixes it at k items a task (as ``filter``, ``flatmap`` and
        ``do`` take it too).  It reads at most ``concurrency + 1`` tasks ahead of you with
        ``ordered=False``, ``8 * concurrency`` in order (a slow call holds no other back).

        >>> stream("ab").map(str.upper).to_list()
        ['A', 'B']
        >>> stream(range(5)).map(lambda n: n * n, concurrency=3).to_list()
        [0, 1, 4, 9, 16]
        >>> stream(range(5)).map(abs, concurrency=2, chunksize=2).to_list()
        [0, 1, 2, 3, 4]
        >>> stream(range(3)).map(str, rate=Rate(100, per=1), retry=3).to_list()
        ['0', '1', '2']
        >>> import time
        >>> naps = stream([0.0, 5.0]).map(time.sleep, timeout=0.5)
        >>> naps.catch(TimeoutError, replace=lambda error: "over time").to_list()
        [None, 'over time']
        """
        check_callable(f, "map")
        f = self._counted(f, via)
        work: Callable[[T], Any] = calls.with_retry(
            calls.rated(calls.timed(f, timeout), rate, via), retry
        )
        if calls.sequential(concurrency, via, chunksize, "map"):
            return self._kept(map(work, self._take_items()))
        return self._concurrent("map", work, concurrency, ordered, via, "map", chunksize)

    @overload
    def filter(
        self,
        keep: Callable[[T], TypeIs[U]],
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        via: Via = None,
        chunksize: int | None = None,
    ) -> Stream[U]: ...

    @overload
    def filter(
        self,
        keep: Callable[[T], TypeGuard[U]],
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        via: Via = None,
        chunksize: int | None = None,
    ) -> Stream[U]: ...

    @overload
    def filter(
        self: Stream[V | None],
        keep: None = None,
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        via: Via = None,
        chunksize: int | None = None,
    ) -> Stream[V]: ...

    @overload
    def filter(
        self,
        keep: Callable[[T], object] | None = None,
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        via: Via = None,
        chunksize: int | None = None,
    ) -> Stream[T]: ...

    def filter(
        self,
        keep: Callable[[T], object] | None = None,
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        via: Via = None,
        chunksize: int | None = None,
    ) -> Stream[Any]:
        """``filter keep``: the items for which ``keep`` is true (a ``TypeGuard`` or
        ``TypeIs`` predicate narrows the item type); without ``keep``, the true items
        (``None`` left out of the item type).

        >>> stream(range(6)).filter(lambda n: n % 3 == 0).to_list()
        [0, 3]
        >>> stream([0, 1, "", "a", None]).filter().to_list()
        [1, 'a']
        """
        if keep is None:
            keep = bool
        check_callable(keep, "filter")
        keep = self._counted(keep, via)
        if calls.sequential(concurrency, via, chunksize, "filter"):
            return self._kept(filter(keep, self._take_items()), drops="filter")
        work = functools.partial(calls.truth, keep)
        return self._concurrent("filter", work, concurrency, ordered, via, "filter", chunksize)

    def flatmap(
        self,
        f: Callable[[T], Iterable[U]],
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        via: Via = None,
        chunksize: int | None = None,
        retry: int | Retrying | None = None,
    ) -> Stream[U]:
        """``concatMap f``: the items of ``f(x)`` for each item ``x``, chained.  With
        ``concurrency``, each ``f(x)`` is read to a list in the worker.

        >>> stream([1, 2, 3]).flatmap(range).to_list()
        [0, 0, 1, 0, 1, 2]
        """
        check_callable(f, "flatmap")
        f = self._counted(f, via)
        if calls.sequential(concurrency, via, chunksize, "flatmap"):
            work: Callable[[T], Iterable[U]] = calls.with_retry(f, retry)
            return self._then(steps.flat_map(self._take_items(), work))
        listed = functools.partial(calls.listed, f)
        inner = calls.with_retry(listed, retry)
        return self._concurrent("flatmap", inner, concurrency, ordered, via, "flatmap", chunksize)

    def do(
        self,
        f: Callable[[T], object],
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        via: Via = None,
        chunksize: int | None = None,
        retry: int | Retrying | None = None,
    ) -> Stream[T]:
        """The items unchanged, ``f`` called on each for its effect (a tap).

        >>> seen = []
        >>> stream("ab").do(seen.append).map(str.upper).to_list(), seen
        (['A', 'B'], ['a', 'b'])
        """
        check_callable(f, "do")
        f = self._counted(f, via)
        work: Callable[[T], object] = calls.with_retry(f, retry)
        if calls.sequential(concurrency, via, chunksize, "do"):
            return self._kept(map(functools.partial(calls.tapped, work), self._take_items()))
        return self._concurrent(
            "do", functools.partial(calls.done, work), concurrency, ordered, via, "do", chunksize
        )

    def take(self, n: int) -> Stream[T]:
        """The first ``n`` items (reads no further).

        >>> stream(itertools.count()).take(3).to_list()
        [0, 1, 2]
        """
        check_count(n, "take's n", 0)
        return self._then(flow.take(self._take_items(), n))

    def drop(self, n: int) -> Stream[T]:
        """Everything after the first ``n`` items.

        >>> stream(range(5)).drop(3).to_list()
        [3, 4]
        """
        check_count(n, "drop's n", 0)
        return self._then(steps.Drop(self._take_items(), n))

    def takewhile(self, keep: Callable[[T], object]) -> Stream[T]:
        """The longest prefix of items satisfying ``keep``.

        >>> stream([1, 4, 9, 16, 1]).takewhile(lambda n: n < 10).to_list()
        [1, 4, 9]
        """
        check_callable(keep, "takewhile")
        return self._then(itertools.takewhile(keep, self._take_items()))

    def dropwhile(self, drop: Callable[[T], object]) -> Stream[T]:
        """What follows the longest prefix satisfying ``drop``.

        >>> stream([1, 4, 9, 16, 1]).dropwhile(lambda n: n < 10).to_list()
        [16, 1]
        """
        check_callable(drop, "dropwhile")
        return self._then(itertools.dropwhile(drop, self._take_items()))

    def chunked(self, n: int) -> Stream[list[T]]:
        """Lists of ``n`` items (the last may be shorter), each read as it is needed.

        >>> stream(range(5)).chunked(2).to_list()
        [[0, 1], [2, 3], [4]]
        """
        check_count(n, "chunked's n", 1)
        return self._then(steps.Chunked(self._take_items(), n))

    def window(self, n: int) -> Stream[tuple[T, ...]]:
        """Overlapping windows of ``n`` consecutive items.

        >>> stream(range(4)).window(2).to_list()
        [(0, 1), (1, 2), (2, 3)]
        """
        check_count(n, "window's n", 1)
        return self._then(steps.Sliding(self._take_items(), n))

    def enumerate(self, start: int = 0) -> Stream[tuple[int, T]]:
        """``(index, item)`` pairs, counting from ``start``.

        >>> stream("ab").enumerate(1).to_list()
        [(1, 'a'), (2, 'b')]
        """
        return self._then(enumerate(self._take_items(), start))

    def zip(self, other: Iterable[U]) -> Stream[tuple[T, U]]:
        """Pairs with the items of ``other``, as long as the shorter one.

        >>> stream("abc").zip(itertools.count()).to_list()
        [('a', 0), ('b', 1), ('c', 2)]
        """
        return self._then(zip(self._take_items(), other, strict=False), *_holds_of(other))

    @overload
    def zip_longest(self, other: Iterable[U]) -> Stream[tuple[T | None, U | None]]: ...

    @overload
    def zip_longest(self, other: Iterable[U], fillvalue: D) -> Stream[tuple[T | D, U | D]]: ...

    def zip_longest(self, other: Iterable[U], fillvalue: Any = None) -> Stream[tuple[Any, Any]]:
        """Pairs with the items of ``other``, as long as the longer one (``fillvalue``
        stands in for the missing side).

        >>> stream("abc").zip_longest([1], fillvalue=0).to_list()
        [('a', 1), ('b', 0), ('c', 0)]
        """
        pairs = itertools.zip_longest(self._take_items(), other, fillvalue=fillvalue)
        return self._then(pairs, *_holds_of(other))

    def chain(self, *others: Iterable[T]) -> Stream[T]:
        """These items, then those of each of ``others`` in turn (also ``stream + other``).

        >>> (stream("ab").chain("c", "d") + "e").to_list()
        ['a', 'b', 'c', 'd', 'e']
        """
        holds = [hold for other in others for hold in _holds_of(other)]
        return self._then(itertools.chain(self._take_items(), *others), *holds)

    def tee(self, n: int = 2, *, bound: int = 1000) -> tuple[Stream[T], ...]:
        """``n`` Streams of these items, each read on its own, kept at most ``bound`` items
        apart: memory never grows past the bound.  A branch that far ahead waits for the
        last one to be read on another thread; where that cannot happen (the last branch
        is read on the same thread, or not yet) it is a BufferError, never a hang.

        >>> evens, squares = stream(range(5)).tee(2)
        >>> list(zip(evens.filter(lambda n: n % 2 == 0), squares.map(lambda n: n * n)))
        [(0, 0), (2, 1), (4, 4)]
        """
        check_count(n, "tee's n", 1)
        check_count(bound, "tee's bound", 1)
        shared = threaded.Tee(self._take_items(), n, bound)
        return tuple(self._then(threaded.TeeBranch(shared, k)) for k in range(n))

    def merge(self, *others: Iterable[T], buffer: int = 64) -> Stream[T]:
        """The items of this Stream and of ``others`` as they come, each read on a thread
        of its own (at most ``buffer`` items waiting): an error from one arrives at its
        place among them and that input is read on; closing the merged Stream closes
        every Stream merged into it.

        >>> sorted(stream([1, 3]).merge([2], stream([4])).to_list())
        [1, 2, 3, 4]
        """
        check_count(buffer, "merge's buffer", 1)
        holds = [hold for other in others for hold in _holds_of(other)]
        sources = [self._take_items()]
        sources += [o._take_items() if isinstance(o, Terminals) else iter(o) for o in others]
        merged = threaded.Merge(sources, buffer)
        return self._then(merged, *holds, merged)

    def __add__(self, other: Iterable[T]) -> Stream[T]:
        return self.chain(other)

    def scan(self, f: Callable[[U, T], U], initial: U) -> Stream[U]:
        """``scanl f initial``: ``initial`` and every running result of ``f``.

        >>> stream([1, 2, 3]).scan(lambda total, n: total + n, 0).to_list()
        [0, 1, 3, 6]
        """
        check_callable(f, "scan")
        return self._then(itertools.accumulate(self._take_items(), f, initial=initial))

    def unique(
        self,
        key: Callable[[T], object] | None = None,
        *,
        within: float | timedelta | None = None,
        last: int | None = None,
    ) -> Stream[T]:
        """Each item the first time it (or its ``key``) is seen; remembers what it has
        seen (in a set, or a list for unhashable items such as lists and dicts).  With
        ``within=seconds`` an item is a repeat only if its key was let through less
        than that long ago, with ``last=n`` if it is among the last n keys let through:
        the memory is then the window's keys (hashable), not every key seen.

        >>> stream("abracadabra").unique().to_list()
        ['a', 'b', 'r', 'c', 'd']
        >>> stream([[1], [2], [1]]).unique().to_list()
        [[1], [2]]
        >>> stream("abracadabra").unique(last=2).to_list()
        ['a', 'b', 'r', 'a', 'c', 'd', 'a', 'b', 'r', 'a']
        """
        if within is not None or last is not None:
            return self._unique_within(key, within, last)
        if key is not None:
            check_callable(key, "unique's key")
        return self._then(steps.Unique(self._take_items(), key))

    @overload
    def catch(
        self,
        *,
        where: Callable[[Exception], object] | None = None,
        replace: Callable[[Exception], U] | None = None,
        do: Callable[[Exception], object] | None = None,
        stop: bool = False,
    ) -> Stream[T | U]: ...

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
    ) -> Stream[T | U]: ...

    def catch(
        self,
        *errors: type[BaseException],
        where: Callable[[Any], object] | None = None,
        replace: Callable[[Any], U] | None = None,
        do: Callable[[Any], object] | None = None,
        stop: bool = False,
    ) -> Stream[T | U]:
        """Recover from exceptions raised upstream: of the ``errors`` types (default
        ``Exception``) and for which ``where(error)`` holds, each is passed to
        ``do(error)``, then replaced by ``replace(error)``, or ends the stream
        quietly with ``stop=True``, or else is dropped and the stream goes on with
        the next item.  What ``where``, ``do`` or ``replace`` raise propagates.

        >>> stream(["1", "x", "3"]).map(int).catch(ValueError).to_list()
        [1, 3]
        >>> stream(["1", "x", "3"]).map(int).catch(replace=lambda error: -1).to_list()
        [1, -1, 3]
        """
        recovery = steps.Recovery(errors, where=where, replace=replace, do=do, stop=stop)
        caught: Iterator[T | U] = flow.catch(self._take_items(), recovery)
        return self._kept(caught, drops="catch")

    def throttle(self, count: int, *, per: float | timedelta) -> Stream[T]:
        """At most ``count`` items in any window of ``per`` seconds (a number or a
        ``timedelta``), waiting on a monotonic clock, never busily; exceptions
        passing through do not count.

        >>> stream(range(3)).throttle(100, per=1.0).to_list()
        [0, 1, 2]
        """
        check_count(count, "throttle's count", 1)
        return self._kept(flow.throttle(self._take_items(), count, seconds(per, "throttle's per")))

    @overload
    def group(
        self, size: int | None = None, *, within: float | timedelta | None = None, by: None = None
    ) -> Stream[list[T]]: ...

    @overload
    def group(
        self,
        size: int | None = None,
        *,
        within: float | timedelta | None = None,
        by: Callable[[T], K],
    ) -> Stream[tuple[K, list[T]]]: ...

    def group(
        self,
        size: int | None = None,
        *,
        within: float | timedelta | None = None,
        by: Callable[[T], Any] | None = None,
    ) -> Stream[Any]:
        """Lists of at most ``size`` items, a list also closed once ``within`` seconds
        have passed since it opened, even while the source stalls: with ``within``,
        the source is read on a daemon thread (it stops when the Stream is closed or
        dropped), and only while a list is being filled: no further ahead than the
        list has room for (up to 1,024 items where it has no size), and not at all
        while the consumer holds a list (but for the one read in progress).  With
        ``by=key``: ``(key, list)`` pairs, each key's list closed on its own size or
        time, all open lists flushed at the end (by key alone, memory is not
        bounded: every item is held until the end).

        >>> stream(range(7)).group(3).to_list()
        [[0, 1, 2], [3, 4, 5], [6]]
        >>> stream("aAbB").group(by=str.isupper).to_list()
        [(False, ['a', 'b']), (True, ['A', 'B'])]
        """
        if size is None and within is None and by is None:
            raise ValueError("group needs a size, a time (within=) or a key (by=)")
        if size is not None:
            check_count(size, "group's size", 1)
        limit = None if within is None else seconds(within, "group's within")
        if by is not None:
            check_callable(by, "group's by")
        items: Iterator[Any] = self._take_items()
        wait, ask, holding = None, None, list[threaded.Buffer[Any]]()
        if limit is not None:  # read on a thread, so a list is closed on time while it stalls
            ahead = threaded.Buffer(items, threaded.GROUP_AHEAD, asked=True)
            items, wait, ask, holding = ahead, ahead.ready, ahead.ask, [ahead]
        if by is None:
            return self._then(steps.Group(items, size, limit, wait=wait, ask=ask), *holding)
        return self._then(steps.GroupBy(items, by, size, limit, wait=wait, ask=ask), *holding)

    def buffer(self, n: int) -> Stream[T]:
        """Read up to ``n`` items ahead on a background thread, so a slow producer and
        a slow consumer overlap: it holds at most ``n``, the one being read included
        (the thread stops after its current read when the Stream is closed or dropped;
        a read that blocks for ever keeps it).

        >>> stream(range(4)).buffer(2).to_list()
        [0, 1, 2, 3]
        """
        check_count(n, "buffer's n", 1)
        buffered = threaded.Buffer(self._take_items(), n)
        return self._then(buffered, buffered)

    def observe(self, name: str, logger: logging.Logger | None = None) -> Stream[T]:
        """The items unchanged; counts of items and errors and the elapsed time logged
        under ``name`` after 1, 2, 4, 8, ... items and at the end (logger
        ``lazyfun.observe`` at INFO unless you give one).

        >>> stream("ab").observe("letters").to_list()
        ['a', 'b']
        """
        return self._kept(Observe(self._take_items(), name, logger))

    def progress(self, description: str | None = None, total: int | None = None) -> Stream[T]:
        """The items unchanged, counted on a rich progress bar when standard error is a
        terminal (silent otherwise; rich is imported only then).

        >>> stream("ab").progress("letters").to_list()
        ['a', 'b']
        """
        from lazyfun.streams.progress import Bar, progress

        counted = progress(self._take_items(), description, total)
        return self._kept(counted, *([counted] if isinstance(counted, Bar) else []))

    def pipe(
        self, f: Callable[Concatenate[Stream[T], P], U], *args: P.args, **kwargs: P.kwargs
    ) -> U:
        """``f(self, *args, **kwargs)``: a function of a whole Stream, in the chain.

        >>> def evens(s):
        ...     return s.filter(lambda n: n % 2 == 0)
        >>> stream(range(5)).pipe(evens).to_list()
        [0, 2, 4]
        """
        check_callable(f, "pipe")
        return f(self, *args, **kwargs)

    def probe(self, name: str, probe: Probe) -> Stream[T]:
        """Count the items that pass this point under ``name`` in a trace ``Probe``.

        >>> from lazyfun.trace import Probe
        >>> p = Probe()
        >>> stream(range(100)).probe("read", p).filter(lambda n: n > 4).first()
        5
        >>> p.counts
        {'read': 6}
        """
        return self._then(probe.stage(name, self._take_items()))


_NO_END: Any = object()


@overload
def stream(items: Iterable[T] | AsyncIterable[T], *, analyze: bool | None = None) -> Stream[T]: ...


@overload
def stream(items: Callable[[], T], *, until: object, analyze: bool | None = None) -> Stream[T]: ...


def stream(items: Any, *, until: object = _NO_END, analyze: bool | None = None) -> Stream[Any]:
    """A fluent :class:`Stream` over ``items`` (nothing is read until a terminal asks).

    >>> stream([3, 1, 2]).map(lambda n: n * 2).to_list()
    [6, 2, 4]

    An async iterable is read synchronously, on an event loop of the Stream's own
    (outside a running loop; inside one, :func:`~lazyfun.streams.astream.astream`).  With
    ``until``, ``items`` is a function called for each item until it returns ``until``
    (as ``iter(f, until)``), e.g. the chunks of a file:

    >>> import io
    >>> chunks = io.BytesIO(b"abcdefg")
    >>> stream(lambda: chunks.read(3), until=b"").to_list()
    [b'abc', b'def', b'g']

    With ``analyze=True`` the stream and every step after it keep counts that
    :meth:`~lazyfun.streams.explain.Explaining.explain` shows (``LAZYFUN_ANALYZE=1``
    turns it on for every stream).
    """
    if isinstance(items, Stream):  # itself: what it reads and holds stays known to its sinks
        return items.analyze() if analyze else items
    meter = Meter() if analysing(analyze) else None
    if until is not _NO_END:
        if not callable(items):
            raise TypeError(f"stream(..., until=) needs a function, got {type(items).__name__}")
        return Stream(iter(items, until), stage=Stage("stream", (items,), None, meter))
    if isinstance(items, AsyncIterable) and not isinstance(items, Iterable):
        read = threaded.FromAsync(items)
        return Stream(read, (read,), stage=root(items, meter))
    return Stream(items, stage=root(items, meter))
