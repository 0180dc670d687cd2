"""The steps that shape the items without calling a function of yours on each (but
``group``'s key): how many, in what lists, at what pace, read how far ahead, joined with
what other streams, in what windows of their own time (``tumbling``, ``sliding``,
``session``: :mod:`lazyfun.streams.windows`); and ``pipe``, ``pmap``, ``observe``,
``progress``, ``probe``.
Declared once for both modes; the stream's runner builds each.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, Awaitable, Callable, Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar, overload

from lazyfun.streams.facade.steps import Steps
from lazyfun.streams.modes import Async, M
from lazyfun.streams.reductions import Named
from lazyfun.streams.shared.parts import check_count, seconds
from lazyfun.streams.sync.windowed import event_time, time_field
from lazyfun.streams.windows import Fixed, Window, reducing, spans

if TYPE_CHECKING:
    import logging

    from lazyfun.streams.stream import Stream
    from lazyfun.trace import Probe

__all__ = ["Shapes"]

T = TypeVar("T")
U = TypeVar("U")
D = TypeVar("D")
K = TypeVar("K")
R = TypeVar("R")
P = ParamSpec("P")


class Shapes(Steps[T, M]):
    """The shaping steps of the façade."""

    __slots__ = ()

    def take(self, n: int) -> Stream[T, M]:
        """The first ``n`` items (reads no further).

        >>> import itertools
        >>> stream(itertools.count()).take(3).to_list()
        [0, 1, 2]
        """
        check_count(n, "take's n", 0)
        made: Stream[T, M] = self._step("take", n)
        return made

    def drop(self, n: int) -> Stream[T, M]:
        """Everything after the first ``n`` items.

        >>> stream(range(5)).drop(3).to_list()
        [3, 4]
        """
        check_count(n, "drop's n", 0)
        made: Stream[T, M] = self._step("drop", n)
        return made

    def chunked(self, n: int) -> Stream[list[T], M]:
        """Lists of ``n`` items (the last may be shorter), each read as it is needed.

        >>> stream(range(5)).chunked(2).to_list()
        [[0, 1], [2, 3], [4]]
        """
        check_count(n, "chunked's n", 1)
        made: Stream[list[T], M] = self._step("chunked", n)
        return made

    def window(self, n: int) -> Stream[tuple[T, ...], M]:
        """Overlapping windows of ``n`` consecutive items.

        >>> stream(range(4)).window(2).to_list()
        [(0, 1), (1, 2), (2, 3)]
        """
        check_count(n, "window's n", 1)
        made: Stream[tuple[T, ...], M] = self._step("window", n)
        return made

    def enumerate(self, start: int = 0) -> Stream[tuple[int, T], M]:
        """``(index, item)`` pairs, counting from ``start``.

        >>> stream("ab").enumerate(1).to_list()
        [(1, 'a'), (2, 'b')]
        """
        made: Stream[tuple[int, T], M] = self._step("enumerate", start)
        return made

    def zip(self, other: Iterable[U] | AsyncIterable[U]) -> Stream[tuple[T, U], M]:
        """Pairs with the items of ``other`` (a stream, an iterable, or an async iterable),
        as long as the shorter one.

        >>> import itertools
        >>> stream("abc").zip(itertools.count()).to_list()
        [('a', 0), ('b', 1), ('c', 2)]
        """
        made: Stream[tuple[T, U], M] = self._step("zip", self._input(other), False, None)
        return made

    @overload
    def zip_longest(
        self, other: Iterable[U] | AsyncIterable[U]
    ) -> Stream[tuple[T | None, U | None], M]: ...

    @overload
    def zip_longest(
        self, other: Iterable[U] | AsyncIterable[U], fillvalue: D
    ) -> Stream[tuple[T | D, U | D], M]: ...

    def zip_longest(
        self, other: Iterable[U] | AsyncIterable[U], fillvalue: Any = None
    ) -> Stream[tuple[Any, Any], M]:
        """Pairs with the items of ``other``, as long as the longer one (``fillvalue``
        stands in for the missing side).

        >>> stream("abc").zip_longest([1], fillvalue=0).to_list()
        [('a', 1), ('b', 0), ('c', 0)]
        """
        made: Stream[tuple[Any, Any], M] = self._step("zip", self._input(other), True, fillvalue)
        return made

    def chain(self, *others: Iterable[T] | AsyncIterable[T]) -> Stream[T, M]:
        """These items, then those of each of ``others`` in turn (also ``stream + other``).

        >>> (stream("ab").chain("c", "d") + "e").to_list()
        ['a', 'b', 'c', 'd', 'e']
        """
        made: Stream[T, M] = self._step("chain", tuple(map(self._input, others)))
        return made

    def __add__(self, other: Iterable[T] | AsyncIterable[T]) -> Stream[T, M]:
        return self.chain(other)

    def merge(self, *others: Iterable[T] | AsyncIterable[T], buffer: int = 64) -> Stream[T, M]:
        """The items of this stream and of ``others`` as they come, each read on a thread
        (in an async stream, by a task) of its own, at most ``buffer`` items waiting: an
        error from one arrives at its place among them and that input is read on; closing
        the merged stream closes every stream merged into it.

        >>> sorted(stream([1, 3]).merge([2], stream([4])).to_list())
        [1, 2, 3, 4]
        """
        check_count(buffer, "merge's buffer", 1)
        made: Stream[T, M] = self._step("merge", tuple(map(self._input, others)), buffer)
        return made

    def tee(self, n: int = 2, *, bound: int = 1000) -> tuple[Stream[T, M], ...]:
        """``n`` streams of these items, each read on its own, kept at most ``bound`` items
        apart: memory never grows past the bound.  A branch that far ahead waits for the
        last one to be read on another thread (task); where that cannot happen (the last
        branch is read on the same thread, or not yet) it is a BufferError, never a hang.

        >>> evens, squares = stream(range(5)).tee(2)
        >>> list(zip(evens.filter(lambda n: n % 2 == 0), squares.map(lambda n: n * n)))
        [(0, 0), (2, 1), (4, 4)]
        """
        check_count(n, "tee's n", 1)
        check_count(bound, "tee's bound", 1)
        made: tuple[Stream[T, M], ...] = self._branches(n, bound)
        return made

    def throttle(self, count: int, *, per: float | timedelta) -> Stream[T, M]:
        """At most ``count`` items in any window of ``per`` seconds (a number or a
        ``timedelta``), waiting on a monotonic clock, never busily (in an async stream,
        awaiting); exceptions passing through do not count.  It meters the items as
        they leave it: a concurrent step after it reads ahead and starts each call as
        a place frees, later, so the calls can bunch; to meter the calls a step
        makes, give its ``map`` a ``rate=`` (a :class:`~lazyfun.streams.shared.calling.Rate`).

        >>> stream(range(3)).throttle(100, per=1.0).to_list()
        [0, 1, 2]
        """
        check_count(count, "throttle's count", 1)
        made: Stream[T, M] = self._step("throttle", count, seconds(per, "throttle's per"))
        return made

    @overload
    def group(
        self, size: int | None = None, *, within: float | timedelta | None = None, by: None = None
    ) -> Stream[list[T], M]: ...

    @overload
    def group(
        self: Shapes[T, Async],
        size: int | None = None,
        *,
        within: float | timedelta | None = None,
        by: Callable[[T], Awaitable[K]],
    ) -> Stream[tuple[K, list[T]], Async]: ...

    @overload
    def group(
        self,
        size: int | None = None,
        *,
        within: float | timedelta | None = None,
        by: Callable[[T], K],
    ) -> Stream[tuple[K, list[T]], M]: ...

    def group(
        self,
        size: int | None = None,
        *,
        within: float | timedelta | None = None,
        by: Callable[[T], Any] | None = None,
    ) -> Stream[Any, Any]:
        """Lists of at most ``size`` items, a list also closed once ``within`` seconds
        have passed since it opened, even while the source stalls: with ``within``,
        the source is read on a daemon thread (it stops when the stream is closed or
        dropped), and only while a list is being filled: no further ahead than the
        list has room for (up to 1,024 items where it has no size), and not at all
        while the consumer holds a list (but for the one read in progress).  With
        ``by=key``: ``(key, list)`` pairs, each key's list closed on its own size or
        time, all open lists flushed at the end (by key alone, memory is not
        bounded: every item is held until the end).  In an async stream a list whose
        time is up is sent even while the next item is awaited.

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
            self._checked(by, "group's by")
        made: Stream[Any, Any] = self._step("group", size, limit, by)
        return made

    def tumbling(
        self,
        size: float | timedelta,
        *,
        on: Callable[[T], datetime | float] | str,
        by: Callable[[T], Any] | None = None,
        lateness: float | timedelta = 0,
        late: Callable[[T], object] | None = None,
        **named: Named,
    ) -> Stream[Window[T], M]:
        """Windows of ``size`` by each item's own time ``on(item)`` (a datetime, with
        timedeltas for ``size`` and ``lateness``, or a number, with numbers), side by
        side: ``[k*size, (k+1)*size)`` from 0 (a datetime's from 1970-01-01), per key of
        ``by`` given one.  ``on`` may be a field's name (a dict's key, else an attribute)
        whose values are numbers, datetimes or ISO-8601 strings, a string read as seconds
        since 1970 (UTC) for number sizes and as an aware datetime for timedeltas (a
        string without an offset is UTC's).  A window is a
        :class:`~lazyfun.streams.windows.Window` with
        ``key``, ``start``, ``end`` and its ``items``, or, given named reductions as
        ``aggregate`` takes them (``n="count"``, ``total=("sum", "eur")``), their
        ``values`` and no items.  It closes, and comes, as soon as the watermark (the
        latest time seen less ``lateness``) reaches its end, long before the source
        ends; the rest at the end, in order of end.  An item whose window has closed
        goes to ``late(item)``, or, without ``late``, is a
        :class:`~lazyfun.streams.windows.LateItem` at its place, and the stream goes
        on.  Holds the open windows: at most ``lateness // size + 2`` a key, with their
        items (none with reductions).

        >>> times = [1, 3, 12, 9, 25]
        >>> [(w.start, w.items) for w in stream(times).tumbling(10, on=abs, lateness=5)]
        [(0, (1, 3, 9)), (10, (12,)), (20, (25,))]
        """
        made: Stream[Window[T], M] = self._windows(
            "tumbling", on, by, lateness, late, named, size=size
        )
        return made

    def sliding(
        self,
        size: float | timedelta,
        every: float | timedelta,
        *,
        on: Callable[[T], datetime | float] | str,
        by: Callable[[T], Any] | None = None,
        lateness: float | timedelta = 0,
        late: Callable[[T], object] | None = None,
        **named: Named,
    ) -> Stream[Window[T], M]:
        """Windows of ``size`` starting ``every`` (at most ``size``) apart by each item's
        own time, an item in each window that holds it (``size / every`` of them): as
        :meth:`tumbling` otherwise.  An item is late when its first window has closed.
        Holds at most ``(lateness + size) // every + 1`` open windows a key.

        >>> [(w.start, w.items) for w in stream([1, 4, 6]).sliding(4, 2, on=abs)]
        [(-2, (1,)), (0, (1,)), (2, (4,)), (4, (4, 6)), (6, (6,))]
        """
        made: Stream[Window[T], M] = self._windows(
            "sliding", on, by, lateness, late, named, size=size, every=every
        )
        return made

    def session(
        self,
        gap: float | timedelta,
        *,
        on: Callable[[T], datetime | float] | str,
        by: Callable[[T], Any] | None = None,
        lateness: float | timedelta = 0,
        late: Callable[[T], object] | None = None,
        **named: Named,
    ) -> Stream[Window[T], M]:
        """Sessions by each item's own time: per key, a run of items each closer than
        ``gap`` to the next in time, ``[first, last + gap)``; an item within ``gap`` of
        two sessions joins them.  As :meth:`tumbling` otherwise, but that a session
        holds its items until it closes, also with reductions (folded then): a session
        whose items keep coming closer than ``gap`` holds them all.

        >>> sessions = stream([1, 2, 9, 4]).session(3, on=abs, lateness=5)
        >>> [(w.start, w.end, w.items) for w in sessions]
        [(1, 7, (1, 2, 4)), (9, 12, (9,))]
        """
        made: Stream[Window[T], M] = self._windows(
            "session", on, by, lateness, late, named, gap=gap
        )
        return made

    def _windows(
        self,
        what: str,
        on: Callable[[T], Any] | str,
        by: Callable[[T], Any] | None,
        lateness: object,
        late: Callable[[T], object] | None,
        named: dict[str, Any],
        **sizes: Any,
    ) -> Stream[Window[T], M]:
        """The windows on event time, their arguments checked at the call."""
        dated, zero = spans(what, lateness, **sizes)
        if "every" in sizes and sizes["every"] > sizes["size"]:
            raise ValueError(
                "sliding's every must be at most its size (else some items are in no window)"
            )
        if isinstance(on, str):
            on = time_field(on, dated)
        else:
            self._checked(on, f"{what}'s on", plain=True)
        if by is not None:
            self._checked(by, f"{what}'s by", plain=True)
        if late is not None:
            self._checked(late, f"{what}'s late", plain=True)
        acc = reducing(named)
        if "gap" in sizes:
            core = event_time(what, on, by, zero, late, acc, gap=sizes["gap"])
        else:
            fixed = Fixed(sizes["size"], sizes.get("every", sizes["size"]))
            core = event_time(what, on, by, zero, late, acc, fixed=fixed)
        made: Stream[Window[T], M] = self._step("event_windows", core)
        return made

    def buffer(self, n: int) -> Stream[T, M]:
        """Read up to ``n`` items ahead on a background thread (in an async stream, a task;
        a plain source right above it on a thread, but a container's items, which never
        wait, in the loop), so a slow producer and a slow
        consumer overlap: it holds at most ``n``, the one being read included (the
        thread stops after its current read when the stream is closed or dropped; a
        read that blocks for ever keeps it).

        >>> stream(range(4)).buffer(2).to_list()
        [0, 1, 2, 3]
        """
        check_count(n, "buffer's n", 1)
        made: Stream[T, M] = self._step("buffer", n)
        return made

    def observe(self, name: str, logger: logging.Logger | None = None) -> Stream[T, M]:
        """The items unchanged; counts of items and errors and the elapsed time logged
        under ``name`` after 1, 2, 4, 8, ... items and at the end (logger
        ``lazyfun.observe`` at INFO unless you give one).

        >>> stream("ab").observe("letters").to_list()
        ['a', 'b']
        """
        made: Stream[T, M] = self._step("observe", name, logger)
        return made

    def progress(self, description: str | None = None, total: int | None = None) -> Stream[T, M]:
        """The items unchanged, counted on a rich progress bar when standard error is a
        terminal (silent otherwise; rich is imported only then).

        >>> stream("ab").progress("letters").to_list()
        ['a', 'b']
        """
        made: Stream[T, M] = self._step("progress", description, total)
        return made

    def probe(self, name: str, probe: Probe) -> Stream[T, M]:
        """Count the items that pass this point under ``name`` in a trace ``Probe``.

        >>> from lazyfun.trace import Probe
        >>> p = Probe()
        >>> stream(range(100)).probe("read", p).filter(lambda n: n > 4).first()
        5
        >>> p.counts
        {'read': 6}
        """
        counts = probe.counter(name) if probe.enabled else None  # named from here on
        made: Stream[T, M] = self._step("probe", counts)
        return made

    def pipe(
        self, f: Callable[Concatenate[Stream[T, M], P], U], *args: P.args, **kwargs: P.kwargs
    ) -> U:
        """``f(self, *args, **kwargs)``: a function of a whole stream, in the chain.

        >>> def evens(s):
        ...     return s.filter(lambda n: n % 2 == 0)
        >>> stream(range(5)).pipe(evens).to_list()
        [0, 2, 4]
        """
        self._checked(f, "pipe")
        return f(self, *args, **kwargs)  # type: ignore[arg-type]

    def pmap(
        self,
        f: Callable[[T], R],
        *,
        jobs: int | None = None,
        scheduler: str | None = None,
        buffer: int | None = None,
        chunksize: int | None = None,
    ) -> Stream[R, M]:
        """``f`` on each item on parallel workers, in order, a bounded number read ahead
        (:func:`lazyfun.parallel.pmap`; needs ``f`` picklable for worker processes); a
        killed job cannot resume through it.  In an async stream the window is stepped
        on a thread of its own: the event loop never waits for it.

        >>> stream(range(5)).pmap(abs, scheduler="sync").map(str).to_list()
        ['0', '1', '2', '3', '4']
        """
        self._checked(f, "pmap")
        made: Stream[R, M] = self._step("pmap", f, jobs, scheduler, buffer, chunksize)
        return made
