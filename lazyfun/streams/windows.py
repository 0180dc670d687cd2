"""Windows on event time: ``tumbling``, ``sliding`` and ``session``, by each item's own
time rather than the clock's.  The algorithm is written once, here, as
:class:`EventTime`; the sync step (:class:`lazyfun.streams.sync.vsteps.EventTimeWindows`)
and the async one (:class:`lazyfun.streams.aio.avsteps.AsyncEventTimeWindows`) feed it
the items one at a time and hand on the windows it has closed.

The rules, with ``t = on(item)`` an item's time (a datetime, or a number) and the sizes
timedeltas for datetimes, numbers for numbers:

- the **windows** of an item: *tumbling*, the one ``[origin + k*size, + size)`` holding
  ``t``; *sliding*, every ``[origin + k*every, + size)`` holding ``t`` (``size/every`` of
  them; ``every <= size``); the origin is 0, or 1970-01-01 (UTC for an aware datetime).
  A *session* (per key) is a run of items each closer than ``gap`` to the next in
  time: ``[first, last + gap)``; an item within ``gap`` of two sessions joins them;
- the **watermark** ``W`` is the latest time seen less ``lateness``;
- a window **closes** when ``W >= end``: it is handed on at once, before the next item
  is read (so long before the source ends); at the source's end the windows still open
  follow.  Windows come in order of their ends (then starts, then as they opened);
- an item is **late** when a window it belongs to is closed when it comes (a
  session's: the session it would make or join): ``late(item)`` is called, or, with
  no ``late``, it is a :class:`LateItem` at its place; either way it is in no window.
  An item at most ``lateness`` behind the latest time is never late;
- **memory** is the open windows'.  A tumbling or sliding window is open while
  ``W < end``, so a key holds at most ``floor((lateness + size) / every) + 1`` of them
  (tumbling: ``every = size``) and their items, or, given named reductions, one state
  each and no items.  A session holds its items until it closes (two sessions an
  item bridges merge, which running reductions cannot; the reductions fold its items
  when it closes), so a session whose items keep coming closer than ``gap`` holds
  them all; a closed session's end is kept a while (at most ``2 * gap`` of watermark)
  to tell a late item.

An item whose ``on``, ``by`` or reduced value raises, or whose time is not of the sizes'
kind, changes nothing and its error passes on at its place; the step goes on.

>>> core = EventTime("tumbling", lambda n: n, None, 0, None, None, fixed=Fixed(10, 10))
>>> for n in [1, 4, 12, 15, 23]:
...     core.add(n)
>>> [(w.start, w.end, w.items) for w in core.ready]
[(0, 10, (1, 4)), (10, 20, (12, 15))]
>>> core.finish()
>>> core.ready[-1]
Window(key=None, start=20, end=30, items=(23,), values={})
"""

from __future__ import annotations

import heapq
import math
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Generic, NoReturn, Protocol, TypeVar

from lazyfun.streams.verbs import Accumulators, one_key, reductions

__all__ = [
    "Core",
    "EventTime",
    "Fixed",
    "LateItem",
    "TimeField",
    "Window",
    "iso_moment",
    "iso_seconds",
    "reducing",
    "spans",
]

T = TypeVar("T")

_EPOCH = datetime(1970, 1, 1)
_EPOCH_UTC = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Window(Generic[T]):
    """One closed window: its ``key`` (None without ``by``), ``start`` and ``end`` (the
    times ``[start, end)``), its ``items`` in the order they came, or, given named
    reductions, no items and their ``values`` by name."""

    key: Any
    start: Any
    end: Any
    items: tuple[T, ...] = ()
    values: dict[str, Any] = field(default_factory=dict)


class LateItem(ValueError):
    """An item whose window had closed when it came, and no ``late=`` to take it: the
    item, its ``position`` (its index among the items the step read, from 0), its
    ``time`` and the ``watermark`` it came after."""

    def __init__(self, what: str, item: object, position: int, time: Any, watermark: Any) -> None:
        super().__init__(
            f"{what}: the item at index {position} is late: its time {time!r} falls in a "
            f"window the watermark {watermark!r} had closed; give late= a function to take "
            "late items, or a larger lateness="
        )
        self.item, self.position, self.time, self.watermark = item, position, time, watermark


def iso_moment(text: str) -> datetime:
    """An ISO-8601 time as an aware datetime: one without an offset is UTC's.

    >>> iso_moment("2026-11-01T10:30:00.250+01:00").isoformat()
    '2026-11-01T10:30:00.250000+01:00'
    >>> iso_moment("2026-11-01 10:30").tzinfo
    datetime.timezone.utc
    """
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{text!r} is not an ISO-8601 time") from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def iso_seconds(text: str) -> float:
    """An ISO-8601 time as seconds since 1970 (UTC; one without an offset is UTC's), as
    ``datetime.fromisoformat(text).timestamp()`` gives an aware time's.

    >>> iso_seconds("1970-01-02T00:00:00.500Z"), iso_seconds("1970-01-01T01:00:00+01:00")
    (86400.5, 0.0)
    """
    return iso_moment(text).timestamp()


class TimeField:
    """``on=`` given a field's name: the item's value of that name (a dict's key, else an
    attribute), a string read by ``parse`` (:func:`iso_seconds` for windows of numbers,
    :func:`iso_moment` for datetimes'), any other value as it is.  The C flow engine's
    ``TimeField`` reads the common ISO shape itself, with the same result.

    >>> TimeField("ts", iso_seconds)({"ts": "1970-01-01T00:01:00Z"})
    60.0
    """

    __slots__ = ("name", "parse")

    def __init__(self, name: str, parse: Callable[[str], Any]) -> None:
        self.name, self.parse = name, parse

    def __call__(self, item: Any) -> Any:
        try:
            value = item[self.name]
        except TypeError:  # not a mapping: a dataclass, a Struct, a named tuple
            value = getattr(item, self.name)
        return self.parse(value) if isinstance(value, str) else value


def _span(value: object, what: str, least: str) -> None:
    """Refuse at the call a size that is neither a timedelta nor a number, or below
    ``least`` ("positive" or "zero")."""
    if isinstance(value, timedelta):
        amount = value.total_seconds()
    elif isinstance(value, int | float) and not isinstance(value, bool):
        amount = float(value)
    else:
        raise TypeError(
            f"{what} must be a timedelta (for datetimes) or a number, got {type(value).__name__}"
        )
    if not math.isfinite(amount) or amount < 0 or (least == "positive" and amount == 0):
        raise ValueError(f"{what} must be {'positive' if least == 'positive' else 'zero or more'}")


def spans(what: str, lateness: object, **sizes: object) -> tuple[bool, Any]:
    """Whether the ``sizes`` (positive) are timedeltas (datetimes' windows) rather than
    numbers, all of one kind, and ``lateness`` (zero or more) as that kind (a plain 0
    fits both), checked at the call.

    >>> spans("sliding", 0, size=timedelta(hours=1), every=timedelta(minutes=5))
    (True, datetime.timedelta(0))
    """
    for name, size in sizes.items():
        _span(size, f"{what}'s {name}", "positive")
    _span(lateness, f"{what}'s lateness", "zero")
    dated = {isinstance(size, timedelta) for size in sizes.values()}
    if len(dated) > 1:
        raise TypeError(f"{what}: {', '.join(sizes)} must all be timedeltas or all numbers")
    is_dated = dated.pop()
    if lateness == 0 and not isinstance(lateness, timedelta):
        lateness = timedelta(0) if is_dated else 0
    if isinstance(lateness, timedelta) != is_dated:
        kind = "a timedelta" if is_dated else "a number"
        raise TypeError(f"{what}'s lateness must be {kind}, as its sizes are")
    return is_dated, lateness


def reducing(named: dict[str, Any]) -> Accumulators | None:
    """A window's reductions, as ``aggregate`` takes them (checked at the call), each
    window folding its own; None for none (a window keeps its items)."""
    return Accumulators(one_key, reductions(named)) if named else None


class Fixed:
    """Tumbling (``every == size``) and sliding windows: the windows holding a time ``t``
    are ``[origin + k*every, + size)`` for each integer ``k`` with ``start <= t < end``.

    >>> Fixed(10, 5).starts(12, 0)
    [5, 10]
    """

    __slots__ = ("every", "size")

    def __init__(self, size: Any, every: Any) -> None:
        self.size, self.every = size, every

    def starts(self, t: Any, origin: Any) -> list[Any]:
        """The starts of the windows holding ``t``, earliest first."""
        since, every = t - origin, self.every
        last = int(since // every)
        first = min(int((since - self.size) // every) + 1, last)
        return [origin + k * every for k in range(first, last + 1)]


class _Open:
    """An open window: its key, start, end, last time (a session's), its items (a
    session's as ``(position, item)``) or its reductions' state, and the order it
    opened in."""

    __slots__ = ("acc", "closed", "end", "items", "key", "last", "seq", "start")

    def __init__(self, key: Any, start: Any, end: Any, seq: int, acc: Accumulators | None) -> None:
        self.key, self.start, self.end, self.last, self.seq = key, start, end, start, seq
        self.items: list[Any] = []
        self.acc = acc
        self.closed = False


class Core(Protocol):
    """What the steps read of a window core: :class:`EventTime`, or the C flow engine's
    ``Windowed`` (tumbling and sliding windows of numbers, folded)."""

    @property
    def what(self) -> str: ...
    @property
    def ready(self) -> deque[Window[Any]]: ...
    @property
    def held(self) -> int: ...
    def add(self, item: Any, /) -> None: ...
    def pull(self, source: Iterator[Any], /) -> bool: ...
    def finish(self) -> None: ...
    def close(self) -> None: ...


class EventTime(Generic[T]):
    """The windows of one step (``what`` names it in errors): fed an item at a time by
    :meth:`add`, closed ones in :attr:`ready` in order of end, the rest after
    :meth:`finish`.  Windows are ``fixed`` (tumbling, sliding) or sessions of ``gap``;
    ``acc`` the reductions (:func:`reducing`) or None for the items.  :attr:`held`
    counts the items the open windows hold (an item in two windows twice)."""

    def __init__(
        self,
        what: str,
        on: Callable[[T], Any],
        by: Callable[[T], Any] | None,
        lateness: Any,
        late: Callable[[T], object] | None,
        acc: Accumulators | None,
        *,
        fixed: Fixed | None = None,
        gap: Any = None,
    ) -> None:
        self.what, self.on, self.by, self.late, self.acc = what, on, by, late, acc
        self.lateness = lateness
        self.fixed, self.gap = fixed, gap
        self.tumbling = fixed is not None and fixed.every == fixed.size
        # a tumbling step's last window of each key: most items fall in it
        self.recent: dict[Any, _Open] = {}
        self.dated = isinstance(lateness, timedelta)
        self.aware: bool | None = None  # whether the datetimes carry a zone, as the first
        self.latest: Any = None
        self.watermark: Any = None
        self.position = 0
        self.seq = 0
        self.held = 0
        self.ready: deque[Window[T]] = deque()
        self.heap: list[tuple[Any, int, _Open]] = []  # (end, seq, window), stale ones skipped
        self.opened: dict[tuple[Any, Any], _Open] = {}  # tumbling, sliding: by (key, start)
        self.sessions: dict[Any, list[_Open]] = {}  # by key, in order of start
        self.sealed: dict[Any, Any] = {}  # a key's latest closed session's end
        self.sealing: deque[tuple[Any, Any]] = deque()  # (end, key) as sessions closed

    @property
    def open(self) -> int:
        """How many windows are open."""
        return len(self.opened) + sum(map(len, self.sessions.values()))

    def _origin(self, t: Any, position: int) -> Any:
        """The origin windows are aligned on for ``t``, once ``t`` is checked to be of the
        sizes' kind (a datetime for timedeltas, all aware or all naive as the first; a
        number, not NaN, for numbers)."""
        if self.dated:
            if not isinstance(t, datetime):
                self._refuse(t, position, "the sizes are timedeltas, so it must be a datetime")
            aware = t.utcoffset() is not None
            if self.aware is None:
                self.aware = aware
            if aware != self.aware:
                first = "aware" if self.aware else "naive"
                self._refuse(t, position, f"the first item's datetime was {first}; keep to one")
            return _EPOCH_UTC if aware else _EPOCH
        if isinstance(t, bool) or not isinstance(t, int | float):
            why = "the sizes are numbers, so it must be a number (give timedeltas for datetimes)"
            self._refuse(t, position, why)
        if t != t:
            self._refuse(t, position, "a time cannot be NaN", ValueError)
        return 0

    def _refuse(
        self, t: object, position: int, why: str, error: type[Exception] = TypeError
    ) -> NoReturn:
        raise error(f"{self.what}: on= gave {t!r} for the item at index {position}: {why}")

    def add(self, item: T) -> None:
        """Place ``item`` in its windows (or send it to ``late``), then move the watermark
        on and close the windows it passes.  An error (of ``on``, ``by``, a value, a
        time of the wrong kind, a :class:`LateItem`) leaves everything as it was."""
        position = self.position
        self.position = position + 1
        t = self.on(item)
        kind = type(t)
        if (kind is int or kind is float) and not self.dated and t == t:  # the common case
            origin: Any = 0
        else:
            origin = self._origin(t, position)
        key = None if self.by is None else self.by(item)
        window = self.recent.get(key)
        if window is not None and window.start <= t < window.end:
            # a tumbling window's item, in its key's last window (most are): taken inline
            acc = window.acc
            if acc is not None:
                acc.add(item)  # its values read before any is changed: may raise
            else:
                window.items.append(item)
                self.held += 1
        elif self.fixed is not None:
            self._fixed(item, t, key, origin, position)
        else:
            self._session(item, t, key, position)
        latest = self.latest
        if latest is None or t > latest:
            self.latest = t  # its own windows end after t: they stay open
            mark = self.watermark = t - self.lateness
            heap = self.heap
            if heap and heap[0][0] <= mark:
                self._close(mark)

    def pull(self, source: Iterator[T]) -> bool:
        """Add the items of ``source`` until a window is ready (False) or it ends (True);
        an error of the source or of an item passes on, and the next pull goes on."""
        ready, add = self.ready, self.add
        for item in source:
            add(item)
            if ready:
                return False
        return True

    def _late(self, item: T, t: Any, position: int) -> None:
        """A late ``item`` goes to ``late``, or is a :class:`LateItem` at its place."""
        if self.late is None:
            raise LateItem(self.what, item, position, t, self.watermark)
        self.late(item)

    def _fixed(self, item: T, t: Any, key: Any, origin: Any, position: int) -> None:
        """A tumbling or sliding window's item: late if its first window has closed."""
        assert self.fixed is not None
        size, starts = self.fixed.size, self.fixed.starts(t, origin)
        if self.watermark is not None and starts[0] + size <= self.watermark:
            self._late(item, t, position)
            return
        for start in starts:
            window = self.opened.get((key, start))
            if window is not None:
                self._take(window, item)
                continue
            acc = None if self.acc is None else self.acc.fresh()
            window = _Open(key, start, start + size, self.seq, acc)
            self._take(window, item)  # may raise: then the window was never opened
            self.seq += 1
            self.opened[key, start] = window
            heapq.heappush(self.heap, (window.end, window.seq, window))
            if self.tumbling:
                self.recent[key] = window

    def _take(self, window: _Open, item: T) -> None:
        """``item`` into a tumbling or sliding ``window``: held, or folded."""
        if window.acc is not None:
            window.acc.add(item)  # its values read before any is changed: may raise
        else:
            window.items.append(item)
            self.held += 1

    def _session(self, item: T, t: Any, key: Any, position: int) -> None:
        """A session's item: late if it falls before its key's last closed session's
        end, or would start a session already closed; else it joins the open sessions
        it is within ``gap`` of (merging them), or starts one."""
        gap, mark = self.gap, self.watermark
        sealed = self.sealed.get(key)
        opened = self.sessions.get(key, [])
        near = [s for s in opened if s.start - gap < t < s.last + gap]
        if (sealed is not None and t < sealed) or (
            not near and mark is not None and t + gap <= mark
        ):
            self._late(item, t, position)
            return
        if self.acc is not None:
            self.acc.fresh().add(item)  # its values read now, so an error is at its place
        if not near:
            window = _Open(key, t, t + gap, self.seq, None)
            self.seq += 1
            opened.append(window)
            opened.sort(key=_start)
            self.sessions[key] = opened
        else:
            window = near[0]
            for other in near[1:]:  # an item within gap of both joins them
                other.closed = True
                opened.remove(other)
                window.items = list(heapq.merge(window.items, other.items))
                window.last = max(window.last, other.last)
        window.items.append((position, item))
        self.held += 1
        window.start, window.last = min(window.start, t), max(window.last, t)
        if window.end != window.last + gap or not near:
            window.end = window.last + gap
            heapq.heappush(self.heap, (window.end, window.seq, window))

    def _close(self, mark: Any) -> None:
        """The watermark is now ``mark``: close each window that ends by it."""
        heap = self.heap
        while heap and heap[0][0] <= mark:
            self._emit(heapq.heappop(heap))
        if self.gap is not None:  # a closed end no later item can reach is let go
            sealing, forget = self.sealing, mark - 2 * self.gap
            while sealing and sealing[0][0] <= forget:
                end, key = sealing.popleft()
                if self.sealed.get(key) == end and key not in self.sessions:
                    del self.sealed[key]

    def _emit(self, entry: tuple[Any, int, _Open]) -> None:
        """Close the window of a heap ``entry`` (unless the entry is stale: its session
        grew or merged into another) and hand it on."""
        end, _, window = entry
        if window.closed or window.end != end:
            return
        window.closed = True
        items: tuple[Any, ...]
        if self.fixed is not None:
            del self.opened[window.key, window.start]
            if self.recent.get(window.key) is window:
                del self.recent[window.key]
            items = tuple(window.items)
        else:
            opened = self.sessions[window.key]
            opened.remove(window)
            if not opened:
                del self.sessions[window.key]
            self.sealed[window.key] = end
            self.sealing.append((end, window.key))
            items = tuple(item for _, item in window.items)
        self.held -= len(window.items)
        values: dict[str, Any] = {}
        acc = window.acc
        if self.acc is not None and acc is None:  # a session folds its items now
            acc = self.acc.fresh()
            for item in items:
                acc.add(item)
        if acc is not None:
            values, items = acc.output()[None], ()
        self.ready.append(Window(window.key, window.start, end, items, values))

    def finish(self) -> None:
        """The source has ended: every open window closes, in order of end."""
        heap = self.heap
        while heap:
            self._emit(heapq.heappop(heap))
        self.sealed.clear()
        self.sealing.clear()

    def close(self) -> None:
        """Let go of the open windows (a step closed early)."""
        self.heap, self.opened, self.sessions, self.recent, self.held = [], {}, {}, {}, 0
        self.sealed.clear()
        self.sealing.clear()


def _start(window: _Open) -> Any:
    """A session's start: the order of a key's open sessions."""
    return window.start
