"""join: given two key functions, both give one key type, and the pairs carry both sides'
types; field names, and one function for both sides, are not checked (issue 69).  The
mismatched pairs both checkers refuse are in ``check_rejected.py``."""

from __future__ import annotations

from collections.abc import Callable, Sized
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, NotRequired, TypedDict, assert_type

import msgspec

from lazyfun import AsyncStream, Stream, astream, field, stream


class Event(TypedDict):
    user: int
    at: datetime
    ref: NotRequired[str]


class User(TypedDict):
    id: str
    number: int
    joined: date


class Person(msgspec.Struct):
    id: int
    name: str


@dataclass
class Order:
    who: int
    ref: str


def number_of(user: User) -> int:
    return user["number"]


def untyped_key(user: User) -> Any:
    return user["id"]


event_list: list[Event] = []
users: list[User] = []
people: list[Person] = []
orders: list[Order] = []
events = stream(event_list)

# the key type of a TypedDict's, a Struct's or a dataclass's field, the same on both sides
assert_type(
    events.join(users, lambda e: e["user"], other_on=lambda u: u["number"]),
    Stream[tuple[Event, User]],
)
assert_type(
    events.join(users, lambda e: e["user"], other_on=number_of, how="left"),
    Stream[tuple[Event, User | None]],
)
assert_type(
    stream(orders).join(people, lambda o: o.who, other_on=lambda p: p.id),
    Stream[tuple[Order, Person]],
)
assert_type(
    astream(orders).join(people, lambda o: o.who, other_on=lambda p: p.id, sorted=True),
    AsyncStream[tuple[Order, Person]],
)
# a key made to match, a missing key (None), a subclass (datetime is a date), a tuple
assert_type(
    events.join(users, lambda e: str(e["user"]), other_on=lambda u: u["id"]),
    Stream[tuple[Event, User]],
)
assert_type(
    events.join(users, lambda e: e.get("ref"), other_on=lambda u: u["id"]),
    Stream[tuple[Event, User]],
)
assert_type(
    events.join(users, lambda e: e["at"], other_on=lambda u: u["joined"]),
    Stream[tuple[Event, User]],
)
assert_type(
    events.join(users, lambda e: (e["user"], "a"), other_on=lambda u: (u["number"], u["id"])),
    Stream[tuple[Event, User]],
)
# an int against a float may match (1 == 1.0); a function typed as giving Any is not checked
assert_type(
    events.join(users, lambda e: e["user"], other_on=lambda u: u["number"] / 2),
    Stream[tuple[Event, User]],
)
assert_type(
    events.join(users, lambda e: e["user"], other_on=untyped_key), Stream[tuple[Event, User]]
)

# field names, and one function for both sides, as before
assert_type(events.join(users, "user", other_on="id"), Stream[tuple[Event, User]])
assert_type(events.join(users, "user", other_on=number_of), Stream[tuple[Event, User]])
assert_type(events.join(users, lambda e: e["user"], other_on="id"), Stream[tuple[Event, User]])
assert_type(stream([1, 2]).join([2, 3], lambda n: n), Stream[tuple[int, int]])
assert_type(events.join(users, "user", how="left"), Stream[tuple[Event, User | None]])

# a field's path over the pairs (issue 69): a key function of anything, read inline by a fold
pairs = events.join(users, "user", other_on="id")
assert_type(field(1, "joined"), Callable[[Any], Any])
assert_type(field(len), Callable[[Sized], int])  # a function is its own key, its type kept
assert_type(pairs.aggregate(field(1, "joined"), n="count"), dict[Any, dict[str, Any]])
