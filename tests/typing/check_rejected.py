"""Calls both checkers must refuse.  Each carries the ignore comment of the error it
must raise, mypy's and pyright's: an ignore that silences nothing is itself an error
(mypy's ``warn_unused_ignores``, pyright's ``reportUnnecessaryTypeIgnoreComment``), so a
call that stops failing fails the suite.  Each was let through before (issue 58)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

import msgspec

from lazyfun import (
    AsyncStream,
    LazyList,
    Stream,
    astream,
    compose,
    compose_left,
    field,
    pipe,
    stream,
)
from lazyfun.parallel import pmap


def double(n: int) -> int:
    return 2 * n


def to_text(n: int) -> str:
    return str(n)


def message(error: ValueError) -> str:
    return str(error.args)


async def fetch(n: int) -> str:
    return str(n)


d, t = double, to_text
words = LazyList.of(["a"])


# compose and compose_left of functions that do not meet were (Any) -> Any
compose(double, to_text)  # type: ignore[misc]  # pyright: ignore[reportArgumentType]
compose_left(to_text, double)  # type: ignore[misc]  # pyright: ignore[reportArgumentType]
compose(to_text, double, to_text, double)  # type: ignore[misc]  # pyright: ignore[reportArgumentType]

# pipe of nine stages and more was Any
pipe(1, d, d, d, d, d, d, d, t, d)  # type: ignore[misc]  # pyright: ignore[reportArgumentType]
pipe(1, d, d, d, d, d, d, d, d, d, d, t, d)  # type: ignore[misc]  # pyright: ignore[reportArgumentType]
# longer than the overloads: refused, not Any
pipe(1, d, d, d, d, d, d, d, d, d, d, d, d, d)  # type: ignore[call-overload]  # pyright: ignore[reportCallIssue]

# the LazyList's constructors were LazyList[Unknown] under pyright
words.map(double)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
LazyList.cons(1, words).map(double)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
LazyList.fix(lambda xs: LazyList.cons("a", lambda: xs)).map(double)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]

# catch's where, do and replace took Callable[[Any], ...]
stream(range(3)).catch(KeyError, replace=message)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
stream(range(3)).catch(KeyError, do=message)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
stream(range(3)).catch(KeyError, where=message)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
stream(range(3)).catch(replace=message)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]

# filter() kept None in the item type (now only a predicate that says nothing keeps it)
kept: Stream[int] = stream([1, None]).filter(lambda n: n is not None)  # type: ignore[assignment]  # pyright: ignore[reportAssignmentType]

# pmap gave the window that runs it, its own methods and all
pmap(double, range(3)).held_back()  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]
pmap(double, ["a"])  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]

# map of a coroutine function gave a Stream of coroutines, never awaited (refused at the call
# since, and by both checkers: a Stream is synchronous, astream awaits)
stream(range(3)).map(str, concurrency=2, ahead="4")  # type: ignore[call-overload]  # pyright: ignore[reportArgumentType, reportCallIssue]
stream(range(3)).map(fetch)  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]

# one Stream class for both modes (issue 55): what belongs to one mode is refused in the other
astream(range(3)).close()  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]
astream(range(3)).to_async()  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]
astream(range(3)).lazylist()  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]
stream(range(3)).aclose()  # type: ignore[misc, unused-coroutine]  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]
sync_list: list[int] = astream(range(3)).to_list()  # type: ignore[assignment]  # pyright: ignore[reportAssignmentType]
async_only: AsyncStream[int] = stream(range(3))  # type: ignore[assignment]  # pyright: ignore[reportAssignmentType]
for _ in astream(range(3)):  # type: ignore[misc]  # pyright: ignore[reportGeneralTypeIssues, reportUnknownVariableType]
    pass

# a join of an int key against a str one (a JSON log's ids against a CSV's) found no pairs,
# and both checkers let it through: the keys were Any (issue 69)


class Event(TypedDict):
    user: int


class User(TypedDict):
    id: str


class Person(msgspec.Struct):
    id: int


@dataclass
class Order:
    ref: str


def user_of(event: Event) -> int:
    return event["user"]


def id_of(user: User) -> str:
    return user["id"]


events: list[Event] = []
users: list[User] = []
stream(events).join(users, lambda e: e["user"], other_on=lambda u: u["id"])  # type: ignore[type-var]  # pyright: ignore[reportCallIssue, reportArgumentType]
stream(events).join(users, user_of, other_on=id_of, how="left")  # type: ignore[call-overload]  # pyright: ignore[reportCallIssue, reportArgumentType]
astream([Order("1")]).join([Person(1)], lambda o: o.ref, other_on=lambda p: p.id)  # type: ignore[type-var]  # pyright: ignore[reportCallIssue, reportArgumentType]

# a field's path is names and places: a float is neither (issue 69)
field(1.5)  # type: ignore[call-overload]  # pyright: ignore[reportArgumentType, reportCallIssue]
