"""The steps of a Stream that hold state or time, each a small resumable iterator.

A step here lets an exception from upstream pass through *with its state
intact*: the next ``next()`` goes on where the failed one left off.  That is what
lets :meth:`lazyfun.Stream.catch` drop or replace a failed item and go on.  A
step never yields a wrong result after an upstream error: ``Sliding`` keeps its
window, ``Chunked`` and ``Group`` keep the items gathered so far, ``take`` counts
only the items that came through.

Most are classes, since a generator that raises is finished.  The hot ones
(``take``, ``catch``, ``flat_map``, ``throttle``) are ``itertools.chain``s of
*segments* instead: the items flow through C iterators (``islice``, ``compress``,
the source itself), and a small generator hands ``chain`` the next segment only
when one ends, by its count or by an error.  ``chain`` passes an error from its
segment on and keeps the segment, so the next read comes back to the generator,
which goes on from there: per item, no Python code runs at all, or one frame.

Steps that wait (``throttle``, ``Group(within=...)``) read time from a
monotonic ``clock`` and wait with ``sleep``; both can be replaced (tests use a
fake clock).  The steps that run threads of their own are in
:mod:`lazyfun.streams.sync.threaded`.

>>> list(Chunked(iter(range(5)), 2))
[[0, 1], [2, 3], [4]]
"""

from __future__ import annotations

import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from itertools import chain, compress, islice, repeat
from operator import length_hint
from typing import Any, TypeVar

from lazyfun.parallel.window import Holding
from lazyfun.streams.shared.parts import (
    DROPPED,
    NOTHING,
    Clock,
    Held,
    Recovery,
    Seen,
    Sleep,
    StreamConsumedError,
    Windowing,
    check_count,
    seconds,
)

__all__ = [
    "DROPPED",
    "NOTHING",
    "Chunked",
    "Drop",
    "Failure",
    "Group",
    "GroupBy",
    "Held",
    "Pace",
    "Recovery",
    "Sliding",
    "StreamConsumedError",
    "Unique",
    "catch",
    "check_count",
    "flat_map",
    "seconds",
    "take",
    "throttle",
]

T = TypeVar("T")
U = TypeVar("U")
K = TypeVar("K")


class Drop(Iterator[T]):
    """Everything after the first ``n`` items that come through.

    >>> list(Drop(iter("abcd"), 3))
    ['d']
    """

    __slots__ = ("left", "source")

    def __init__(self, source: Iterator[T], n: int) -> None:
        self.source, self.left = source, n

    def __next__(self) -> T:
        while self.left > 0:
            next(self.source)
            self.left -= 1
        return next(self.source)


class Failure(Iterator[Any]):
    """A segment whose one read raises ``error`` (then it is empty): how a step made of
    C iterators passes an error on at its place.

    >>> list(chain([1], Failure(ValueError("no"))))
    Traceback (most recent call last):
    ...
    ValueError: no
    """

    __slots__ = ("held",)

    def __init__(self, error: Exception) -> None:
        self.held = Held()
        self.held.hold(error)

    def __next__(self) -> Any:
        self.held.raise_held()
        raise StopIteration


def _next_of(items: Iterator[T]) -> Iterable[T] | None:
    """The next item of ``items`` as a segment (a 1-tuple, or a :class:`Failure` for an
    error), or None at the end."""
    try:
        return (next(items),)
    except StopIteration:
        return None
    except Exception as error:
        return Failure(error)


def take(source: Iterator[T], n: int) -> Iterator[T]:
    """The first ``n`` items that come through (an item whose read failed is not counted);
    reads no further, and then closes a concurrent step right above it.

    All but the last go through ``islice(compress(source, counted))``, in C: ``counted``
    (``repeat(True, n)``) is used up by the items that came through only, so after an
    error (which ends the islice) it says how many are still to come.  The last is
    read here, so the step above is closed as soon as it is out.  After an islice
    that ended early the source is read once more, here: the item after an error, or
    a second StopIteration from a source that ended (as the iterator protocol has it).

    >>> list(take(iter("abcd"), 2))
    ['a', 'b']
    """
    counted = repeat(True, min(n, sys.maxsize))  # more than anyone can read, past that
    passed = compress(source, counted)

    def segments() -> Iterator[Iterable[T]]:
        while left := length_hint(counted):
            if left > 1:
                yield islice(passed, left - 1)  # ended by its count, an error or the end
            rest = _next_of(passed)  # the last item, or the one after an error
            if rest is None:
                return
            if not length_hint(counted) and isinstance(source, Holding):
                source.close()  # nothing more will be read: free its workers now
            yield rest

    return chain.from_iterable(segments())


class Chunked(Iterator[list[T]]):
    """Lists of ``n`` items (the last may be shorter).  An error from upstream first
    flushes the list gathered so far, then passes on at the next read, so the lists
    seen before an error hold exactly the items read before it.

    >>> list(Chunked(iter("abcde"), 2))
    [['a', 'b'], ['c', 'd'], ['e']]
    """

    __slots__ = ("gathered", "held", "n", "source")

    def __init__(self, source: Iterator[T], n: int) -> None:
        self.source, self.n = source, n
        self.gathered: list[T] = []
        self.held = Held()

    def __next__(self) -> list[T]:
        self.held.raise_held()
        gathered = self.gathered
        try:  # list.extend keeps the items it appended before an error
            gathered.extend(islice(self.source, self.n - len(gathered)))
        except Exception as error:
            self.held.flush(gathered, error)
        if not gathered:
            raise StopIteration
        self.gathered = []
        return gathered

    def leftover(self) -> list[T]:
        """The items gathered for the next list and not yet handed over (a sink writes
        them when an interrupt stops the reading)."""
        gathered, self.gathered = self.gathered, []
        return gathered


class Sliding(Windowing, Iterator[tuple[T, ...]]):
    """Overlapping windows of ``n`` consecutive items that came through; a window never
    spans an error (:meth:`~lazyfun.streams.shared.parts.Windowing.broken`).

    >>> list(Sliding(iter(range(4)), 3))
    [(0, 1, 2), (1, 2, 3)]
    """

    __slots__ = ("source",)

    def __init__(self, source: Iterator[T], n: int) -> None:
        super().__init__(n)
        self.source = source

    def __next__(self) -> tuple[T, ...]:
        self.held.raise_held()
        window = self.window
        try:
            window.append(next(self.source))
            while len(window) < self.n:
                window.append(next(self.source))
        except Exception as error:
            return self.broken(error)
        return tuple(window)


def flat_map(source: Iterator[T], f: Callable[[T], Iterable[U]]) -> Iterator[U]:
    """The items of ``f(x)`` for each item ``x``.  An error from ``f`` or from upstream
    passes on at its place; so does an error from an inner iterable, which is then read
    on (a generator that raised has finished; an iterator object may go on).

    >>> list(flat_map(iter([1, 2]), range))
    [0, 0, 1]
    """

    def inners() -> Iterator[Iterable[U]]:
        while True:
            try:
                for item in source:
                    yield iter(f(item))
                return
            except Exception as error:
                failed = Failure(error)
            yield failed

    return chain.from_iterable(inners())


class Unique(Seen, Iterator[T]):
    """Each item the first time it (or its ``key``) is seen (:class:`~lazyfun.streams.
    shared.parts.Seen`).

    >>> list(Unique(iter([[1], [2], [1]]), None))
    [[1], [2]]
    """

    __slots__ = ("key", "source")

    def __init__(self, source: Iterator[T], key: Callable[[T], object] | None) -> None:
        super().__init__()
        self.source, self.key = source, key

    def __next__(self) -> T:
        key, first = self.key, self.first
        while True:
            item = next(self.source)
            if first(item if key is None else key(item)):
                return item


def catch(source: Iterator[T], recovery: Recovery) -> Iterator[T]:
    """Upstream exceptions handled by a :class:`Recovery`: replaced, ending the stream,
    or dropped; what ``where``, ``do`` and ``replace`` raise propagates, and so does an
    exception of another type, after which the next read goes on.

    Each segment is a generator reading the source with ``yield from`` (one frame an
    item, no call); it ends when it passes an exception on, and the next one goes on.

    >>> def parse(texts):
    ...     return map(int, texts)
    >>> list(catch(parse(iter(["1", "x", "3"])), Recovery((ValueError,))))
    [1, 3]
    """
    # yield from closes what it reads when the step is dropped: a chain has no close()
    read = chain(source) if hasattr(source, "close") else source
    ended = False

    def guarded() -> Iterator[T]:
        nonlocal ended
        while not recovery.stopped:
            try:
                yield from read
                ended = True
                return
            except recovery.errors as error:
                item = recovery.recover(error)
            if item is not DROPPED:
                yield item

    def segments() -> Iterator[Iterable[T]]:
        while not (ended or recovery.stopped):
            yield guarded()

    return chain.from_iterable(segments())


LONGEST_STRETCH = 1 << 16  # items a throttle reads without the clock, at most


class Pace:
    """A throttle's account of the items it let through in the last ``per`` seconds:
    :meth:`allow` waits until one more may come and says how many may be read without
    looking at the clock; :meth:`passed` is told how many of those came through."""

    __slots__ = ("allowed", "clock", "count", "held", "per", "sent", "sleep", "started", "stretch")

    def __init__(self, count: int, per: float, clock: Clock, sleep: Sleep) -> None:
        self.count, self.per, self.clock, self.sleep = count, per, clock, sleep
        self.sent: deque[tuple[float, int]] = deque()  # (when, how many) in the last ``per``
        self.held, self.stretch, self.allowed, self.started = 0, 1, 1, 0.0

    def allow(self) -> int:
        """How many items may be read now, as one stretch (after waiting, if need be)."""
        sent, per = self.sent, self.per
        while True:
            now = self.clock()
            while sent and sent[0][0] + per <= now:
                self.held -= sent.popleft()[1]
            if self.held < self.count:
                break
            self.sleep(sent[0][0] + per - now)
        self.started, self.allowed = now, min(self.stretch, self.count - self.held)
        return self.allowed

    def passed(self, read: int) -> None:
        """``read`` items of the stretch :meth:`allow` allowed came through: date them,
        and size the next stretch."""
        if read:
            self.sent.append((self.clock(), read))
            self.held += read
        if read < self.allowed:  # an error, or the end: read on one by one
            self.stretch = 1
        elif (self.clock() - self.started) * 1000 < self.per:
            self.stretch = min(2 * self.stretch, LONGEST_STRETCH)
        else:
            self.stretch = max(1, self.stretch // 2)


def throttle(
    source: Iterator[T],
    count: int,
    per: float,
    clock: Clock = time.monotonic,
    sleep: Sleep = time.sleep,
) -> Iterator[T]:
    """At most ``count`` items in any ``per`` seconds: before reading the next item it
    waits, if need be, until the oldest of the last ``count`` items is ``per`` old.
    An exception passing through does not count.

    Far from the limit the items go through in C, in stretches read without looking at
    the clock (``islice(compress(source, counted))``, as :func:`take` does), each no
    longer than the rest of the allowance; a stretch's items are all dated when it
    ends, later than they were read, which can only make the step wait longer.  The
    stretches double (up to ``LONGEST_STRETCH``) while they take under a thousandth of
    ``per`` and halve otherwise; a stretch of one item is read and dated exactly, and after an error
    (or the end) the items are read one by one again.

    >>> list(throttle(iter(range(3)), 10, 1.0))
    [0, 1, 2]
    """
    counted = repeat(True, sys.maxsize)
    passed = compress(source, counted)
    pace = Pace(count, per, clock, sleep)

    def segments() -> Iterator[Iterable[T]]:
        while True:
            before, allowed = length_hint(counted), pace.allow()
            rest = None
            if allowed == 1:
                rest = _next_of(passed)  # read here, so dated exactly
                if rest is None:
                    return
            else:
                yield islice(passed, allowed)
            pace.passed(before - length_hint(counted))
            if rest is not None:
                yield rest

    return chain.from_iterable(segments())


Wait = Callable[[float], bool]  # whether the source's next entry is here by a monotonic time
# let a source read ahead on a thread read this many items more (None: as far as it may)
Ask = Callable[[int | None], None]


class Group(Iterator[list[T]]):
    """Lists of at most ``size`` items, a list also closed once ``within`` seconds have
    passed since it opened: checked as items arrive and at the end, and, given ``wait``
    (a source read ahead on a thread: ``Buffer.ready``; the clock is then
    ``time.monotonic``), while the next item is awaited.

    >>> list(Group(iter(range(5)), 2, None))
    [[0, 1], [2, 3], [4]]
    """

    __slots__ = ("ask", "clock", "gathered", "held", "opened", "size", "source", "wait", "within")

    def __init__(
        self,
        source: Iterator[T],
        size: int | None,
        within: float | None,
        clock: Clock = time.monotonic,
        wait: Wait | None = None,
        ask: Ask | None = None,
    ) -> None:
        self.source, self.size, self.within, self.clock = source, size, within, clock
        self.wait = wait if within is not None else None
        self.ask = ask
        self.gathered: list[T] = []
        self.opened = 0.0
        self.held = Held()

    def __next__(self) -> list[T]:
        self.held.raise_held()
        ask = self.ask
        if ask is not None:  # the source read ahead for the list being filled, no further
            ask(None if self.size is None else self.size - len(self.gathered))
        try:
            return self._gather()
        except Exception as error:
            self.held.flush(self.gathered, error)
            gathered, self.gathered = self.gathered, []
            return gathered
        finally:
            if ask is not None:
                ask(0)

    def _due(self) -> bool:
        """Whether the open list's time is up before the next item arrives (only known
        with ``wait``; without it, the next item is read, however long it takes)."""
        if self.wait is None or not self.gathered:
            return False
        assert self.within is not None
        if self.wait(self.opened + self.within):
            return False
        _stop_reading(self.ask)
        return True

    def _gather(self) -> list[T]:
        if self.within is None:  # by size alone: the items go into the list in C
            self.gathered.extend(islice(self.source, self.size))
        else:
            while not self._due():
                try:
                    item = next(self.source)
                except StopIteration:
                    break
                now, gathered = self.clock(), self.gathered
                if not gathered:
                    self.opened = now
                elif now - self.opened >= self.within:
                    _stop_reading(self.ask)
                    self.gathered, self.opened = [item], now  # the late item opens the next
                    return gathered
                gathered.append(item)
                if self.size is not None and len(gathered) >= self.size:
                    self.gathered = []
                    return gathered
        if not self.gathered:
            raise StopIteration
        gathered, self.gathered = self.gathered, []
        return gathered

    def leftover(self) -> list[T]:
        """The items gathered for the open list and not yet handed over."""
        gathered, self.gathered = self.gathered, []
        return gathered


def _stop_reading(ask: Ask | None) -> None:
    """Let a source read ahead on a thread read nothing more, after the read it is in, the
    moment a list is due (not once it has been handed on: a consumer slow to take the
    GIL back would let the thread read on meanwhile)."""
    if ask is not None:
        ask(0)


class GroupBy(Iterator[tuple[K, list[T]]]):
    """``(key, list)`` pairs: each key's list closed on its own ``size`` or ``within``
    (while the next item is awaited too, given ``wait``, as for :class:`Group`);
    every open list is flushed, oldest first, when the source ends, and before an
    error passes on, from upstream or from ``by``.  By key alone
    this holds every item until the end: its memory is not bounded.

    >>> list(GroupBy(iter("abAB"), str.islower, 2, None))
    [(True, ['a', 'b']), (False, ['A', 'B'])]
    """

    __slots__ = ("ask", "by", "clock", "held", "open", "ready", "size", "source", "wait", "within")

    def __init__(
        self,
        source: Iterator[T],
        by: Callable[[T], K],
        size: int | None,
        within: float | None,
        clock: Clock = time.monotonic,
        wait: Wait | None = None,
        ask: Ask | None = None,
    ) -> None:
        self.source, self.by, self.size, self.within, self.clock = source, by, size, within, clock
        self.wait = wait if within is not None else None
        self.ask = ask
        self.open: dict[K, tuple[float, list[T]]] = {}
        self.ready: deque[tuple[K, list[T]]] = deque()
        self.held = Held()

    def _expire(self, now: float) -> None:
        if self.within is None:
            return
        # the dict keeps the lists in the order they opened: the due ones come first
        while self.open:
            key, (opened, gathered) = next(iter(self.open.items()))
            if now - opened < self.within:
                return
            del self.open[key]
            self.ready.append((key, gathered))

    def _flush_before(self, error: Exception) -> None:
        """Every open list goes out, oldest first (after those already due), then ``error``."""
        self.ready.extend((key, gathered) for key, (_, gathered) in self.open.items())
        self.open.clear()
        self.held.hold(error)

    def __next__(self) -> tuple[K, list[T]]:
        ask = self.ask
        if ask is None:
            return self._next()
        ask(None)  # the source read ahead while the lists are filled, not while they are used
        try:
            return self._next()
        finally:
            ask(0)

    def _next(self) -> tuple[K, list[T]]:
        if not self.ready:
            self.held.raise_held()
        while not self.ready:
            if self.wait is not None and self.open:
                assert self.within is not None
                opened = next(iter(self.open.values()))[0]
                if not self.wait(opened + self.within):
                    _stop_reading(self.ask)
                    self._expire(self.clock())
                    continue
            try:
                item = next(self.source)
            except StopIteration:
                if not self.open:
                    raise
                key, (_, gathered) = next(iter(self.open.items()))
                del self.open[key]
                return key, gathered
            except Exception as error:
                if not self.open:
                    raise
                # an error flushes every open list, oldest first, then passes on
                self._flush_before(error)
                break
            now = self.clock() if self.within is not None else 0.0
            self._expire(now)
            try:
                key = self.by(item)
            except Exception as error:  # the key's error, as one from upstream
                if not (self.open or self.ready):
                    raise
                self._flush_before(error)
                break
            gathered = self.open.setdefault(key, (now, []))[1]
            gathered.append(item)
            if self.size is not None and len(gathered) >= self.size:
                del self.open[key]
                self.ready.append((key, gathered))
        return self.ready.popleft()
