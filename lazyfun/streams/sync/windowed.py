"""The windows on event time through the C flow engine where it was built: the same
cores as :mod:`lazyfun.streams.windows`, with the same behaviour.

Tumbling and sliding windows of numbers with named reductions that the engine's
``Folder`` folds (``n="count"``, ``total=("sum", "amount")``) run in its ``Windowed``:
per item, its time and key, its window found (a tumbling key's last one first) or
opened (its windows' starts worked out as ``Fixed.starts`` works them out, on the
same number operators), the item folded (counted, where every reduction is a count),
the watermark moved on and the windows it passes closed, with no Python between them;
the rest (a window's values, a time of the wrong kind, a late item) calls the Python of
:class:`~lazyfun.streams.windows.EventTime`.  An ``on=`` given as a field's name is the
engine's ``TimeField``, which reads the common ISO-8601 shape in C.
Where the engine was not built, or ``LAZYFUN_PURE=1`` is set, the Python runs.

>>> from lazyfun.streams.windows import Fixed, reducing
>>> count = reducing({"n": "count"})
>>> core = event_time("tumbling", abs, None, 0, None, count, fixed=Fixed(10, 10))
>>> core.pull(iter([1, 4, 12])), [(w.start, w.values) for w in core.ready]
(False, [(0, {'n': 2})])
"""

from __future__ import annotations

import heapq
import os
from collections import deque
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from lazyfun.compiled import PURE_ENV
from lazyfun.streams.fields import attribute_name, field_name
from lazyfun.streams.reductions import REDUCTIONS
from lazyfun.streams.verbs import Accumulators
from lazyfun.streams.windows import (
    Core,
    EventTime,
    Fixed,
    LateItem,
    TimeField,
    Window,
    iso_moment,
    iso_seconds,
)

try:
    from lazyfun.streams.sync import _flow  # the C engine, which import-linter cannot read
except ImportError:  # built without a C compiler
    BUILT = False
else:
    BUILT = not os.environ.get(PURE_ENV)

__all__ = ["BUILT", "event_time", "time_field"]


def time_field(name: str, dated: bool) -> Callable[[Any], Any]:
    """``on=`` given a field's name: a string read as an ISO-8601 time, a datetime for
    windows of timedeltas (``dated``), else seconds since 1970 (the engine's ``TimeField``
    where built)."""
    if dated:
        return TimeField(name, iso_moment)
    if BUILT:  # a plain str: the engine reads a str of another class as an attribute only
        made: Callable[[Any], Any] = _flow.TimeField(str.__str__(name), iso_seconds)  # pyright: ignore[reportPossiblyUnboundVariable]
        return made
    return TimeField(name, iso_seconds)


def _values(acc: Accumulators) -> Callable[[dict[Any, Any]], dict[str, Any]]:
    """A closed window's values by name, from its state in ``acc``'s fold."""

    def values(state: dict[Any, Any]) -> dict[str, Any]:
        fresh = acc.fresh()
        fresh.state = state
        named: dict[str, Any] = fresh.output()[None]
        return named

    return values


def event_time(
    what: str,
    on: Callable[[Any], Any],
    by: Callable[[Any], Any] | None,
    lateness: Any,
    late: Callable[[Any], object] | None,
    acc: Accumulators | None,
    *,
    fixed: Fixed | None = None,
    gap: Any = None,
) -> Core:
    """The core of a window step: the engine's ``Windowed`` for tumbling and sliding
    windows of numbers whose reductions its ``Folder`` folds, else :class:`EventTime`."""
    reference: EventTime[Any] = EventTime(what, on, by, lateness, late, acc, fixed=fixed, gap=gap)
    if (
        not BUILT
        or fixed is None
        or acc is None
        or isinstance(lateness, timedelta)
        or not isinstance(acc._add_all, _flow.Folder)  # pyright: ignore[reportPossiblyUnboundVariable]
    ):
        return reference
    windowed: Core = _flow.Windowed(  # pyright: ignore[reportPossiblyUnboundVariable]
        what,
        on,
        None if by is None else field_name(by) or attribute_name(by) or by,  # read inline
        late,
        acc._add_all,
        fixed.size,
        fixed.every,
        lateness,
        reference._origin,
        LateItem,
        _values(acc),
        Window,
        deque(),
        heapq.heappush,
        heapq.heappop,
        _counts(acc),
    )
    return windowed


def _counts(acc: Accumulators) -> tuple[str, ...] | None:
    """The reductions' names when every one is a count (the engine counts a window's
    items itself, with no Folder), else None."""
    named = acc.named or []
    if all(r is REDUCTIONS["count"] for _, r, _ in named):
        return tuple(name for name, _, _ in named)
    return None
