"""Windows on event time: each step gives windows of the stream's items, in either mode;
a window's items are of that type, its values a dict by name; a LateItem says where."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, assert_type

from lazyfun import AsyncStream, Stream, astream, stream
from lazyfun.streams import LateItem, Window


@dataclass(frozen=True)
class Event:
    at: datetime
    kind: str
    eur: float


def at(event: Event) -> datetime:
    return event.at


def kind(event: Event) -> str:
    return event.kind


def minutes(event: Event) -> float:
    return event.at.minute


events = stream([Event(datetime(2026, 3, 1), "view", 1.5)])
hour, five = timedelta(hours=1), timedelta(minutes=5)
late: list[Event] = []

assert_type(events.tumbling(hour, on=at), Stream[Window[Event]])
assert_type(
    events.tumbling(hour, on=at, by=kind, lateness=five, late=late.append), Stream[Window[Event]]
)
assert_type(events.sliding(hour, five, on=at, by=kind), Stream[Window[Event]])
assert_type(events.session(five, on=at, lateness=five), Stream[Window[Event]])
assert_type(events.tumbling(60, on=minutes, n="count", total=("sum", "eur")), Stream[Window[Event]])
assert_type(astream(events).tumbling(hour, on=at), AsyncStream[Window[Event]])
assert_type(astream(events).session(30, on=minutes, by=kind), AsyncStream[Window[Event]])
assert_type(events.tumbling(60, on="at", n="count"), Stream[Window[Event]])  # a field's name

window = events.tumbling(hour, on=at).first()
assert_type(window, Window[Event])
assert_type(window.items, tuple[Event, ...])
assert_type(window.values, dict[str, Any])

error = LateItem("tumbling", window.items[0], 3, window.start, window.end)
assert_type(error.position, int)
assert isinstance(error, ValueError)

# a time that is neither a datetime nor a number is refused by both checkers
events.tumbling(hour, on=kind)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
