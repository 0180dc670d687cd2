"""The async runner's reading: the terminals, the sinks and the verbs' folds, each a
coroutine that reads its stream once with ``async for`` and closes what it started when
done (or left early, or cancelled).  A function given to a terminal may be plain or a
coroutine function.  The sinks write on a thread of their own, never in the event loop.
The façade has checked the arguments.
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any

from lazyfun.sinks.writers import (
    BATCH,
    CsvWriter,
    JsonlWriter,
    LinesWriter,
    ParquetWriter,
    SqlWriter,
    Writer,
    adrain,
)
from lazyfun.streams.aio import avsteps
from lazyfun.streams.aio.aconcurrent import ReadAhead
from lazyfun.streams.aio.asteps import Group, aclose, call, is_async, may_wait
from lazyfun.streams.facade.base import NOTHING, Base
from lazyfun.streams.run.aio_steps import then
from lazyfun.streams.shared.reading import GROUP_AHEAD

if TYPE_CHECKING:
    import sqlite3

    from lazyfun.sinks.paths import PathLike
    from lazyfun.streams.verbs import Accumulators

Stream = Base[Any, Any]


def _empty(default: Any, name: str) -> Any:
    if default is NOTHING:
        raise ValueError(f"{name}() of an empty AsyncStream (give a default)")
    return default


async def to_list(s: Stream) -> list[Any]:
    items = s._take_items()
    try:
        return [item async for item in items]
    finally:
        await aclose(items)


async def collected(s: Stream, kind: Callable[[list[Any]], Any]) -> Any:
    """The items in a set, or a dict of the pairs."""
    return kind(await to_list(s))


async def first(s: Stream, default: Any) -> Any:
    items = s._take_items()
    try:
        async for item in items:
            return item
    finally:
        await aclose(items)
    return _empty(default, "first")


async def last(s: Stream, default: Any) -> Any:
    found = NOTHING
    items = s._take_items()
    try:
        async for item in items:
            found = item
    finally:
        await aclose(items)
    return _empty(default, "last") if found is NOTHING else found


async def count(s: Stream) -> int:
    items = s._take_items()
    n = 0
    try:
        async for _ in items:
            n += 1
    finally:
        await aclose(items)
    return n


async def reduce(s: Stream, f: Callable[[Any, Any], Any], initial: Any) -> Any:
    awaited = is_async(f)
    items = s._take_items()
    value = initial
    try:
        async for item in items:
            value = await call(f, awaited, value, item)
    finally:
        await aclose(items)
    return value


async def for_each(s: Stream, f: Callable[[Any], object]) -> None:
    awaited = is_async(f)
    items = s._take_items()
    try:
        async for item in items:
            await call(f, awaited, item)
    finally:
        await aclose(items)


def _plus(total: Any, n: Any) -> Any:
    return total + n


def sum(s: Stream, start: Any) -> Awaitable[Any]:
    return reduce(s, _plus, start)


async def extreme(s: Stream, greatest: bool, key: Any, default: Any, name: str) -> Any:
    """The first least item (``greatest``: the first greatest), by ``key`` awaited."""
    awaited = key is not None and is_async(key)
    best = mark = NOTHING
    items = s._take_items()
    try:
        async for item in items:
            this = item if key is None else await call(key, awaited, item)
            if best is NOTHING or (mark < this if greatest else this < mark):
                best, mark = item, this
    finally:
        await aclose(items)
    return _empty(default, name) if best is NOTHING else best


async def decides(s: Stream, pred: Callable[[Any], object] | None, on: bool) -> bool:
    """The first item whose truth (under ``pred``) is ``on`` decides; none: not ``on``."""
    awaited = pred is not None and is_async(pred)
    items = s._take_items()
    try:
        async for item in items:
            truth = item if pred is None else await call(pred, awaited, item)
            if bool(truth) is on:
                return on
    finally:
        await aclose(items)
    return not on


async def _folded(s: Stream, acc: Accumulators) -> Any:
    items = s._take_items()
    try:
        async for item in items:
            acc.add(item)
    finally:
        await aclose(items)
    return acc.output()


def aggregated(
    s: Stream, acc: Accumulators, every: int | None, limit: float | None, what: str
) -> Any:
    """The verbs' folds: every item into ``acc`` (awaited), or a dict a window."""
    if every is None and limit is None:
        return _folded(s, acc)
    items: AsyncIterator[Any] = s._take_items()
    ask = None
    if limit is not None and may_wait(items):  # its reads would block the loop
        items = ahead = ReadAhead(items.items, GROUP_AHEAD, asked=True)
        ask = ahead.ask
    fresh = acc.fresh
    windows = Group(items, every, limit, None, lambda: avsteps.Folded(fresh()), ask)
    return then(s, avsteps.AsyncWindows(windows))


# --- sinks: the writing on a thread of its own, never in the event loop -------------------


def _drained(
    s: Stream, open_writer: Callable[[], Writer], size: int, within: float | None
) -> Awaitable[int]:
    return adrain(open_writer, Group(s._take_items(), size, within, None))


def to_lines(
    s: Stream, path: PathLike, encoding: str, atomic: bool, resume: bool
) -> Awaitable[int]:
    writer = functools.partial(LinesWriter, path, encoding=encoding, atomic=atomic)
    return _drained(s, writer, BATCH, None)


def to_jsonl(s: Stream, path: PathLike, atomic: bool, resume: bool) -> Awaitable[int]:
    return _drained(s, functools.partial(JsonlWriter, path, atomic=atomic), BATCH, None)


def to_csv(
    s: Stream, path: PathLike, atomic: bool, resume: bool, dialect: dict[str, Any]
) -> Awaitable[int]:
    return _drained(s, functools.partial(CsvWriter, path, atomic=atomic, **dialect), BATCH, None)


def to_parquet(s: Stream, path: PathLike, row_group: int, atomic: bool) -> Awaitable[int]:
    writer = functools.partial(ParquetWriter, path, row_group=row_group, atomic=atomic)
    return _drained(s, writer, row_group, None)


def to_sql(
    s: Stream,
    db: PathLike | sqlite3.Connection,
    table: str,
    batch: int,
    limit: float | None,
    atomic: bool,
    resume: bool,
) -> Awaitable[int]:
    writer = functools.partial(SqlWriter, db, table, batch=batch, within=limit, atomic=atomic)
    return _drained(s, writer, batch, limit)
