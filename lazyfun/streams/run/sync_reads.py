"""The sync runner's reading: the terminals, the sinks and the verbs' folds, each
reading its stream once in this thread (closing it, and all it holds, when done).  The
façade has checked the arguments.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, cast

import more_itertools

from lazyfun.sinks.resume import (
    Marks,
    Progress,
    drain_resumable,
    finished,
    job_of,
    plan,
    refuse_resume_to,
    resume_source,
)
from lazyfun.sinks.writers import (
    CsvWriter,
    JsonlWriter,
    LinesWriter,
    ParquetParts,
    ParquetWriter,
    Resume,
    SqlWriter,
    Writer,
    _FileWriter,
    count_parts,
    drain,
    parts_of,
)
from lazyfun.streams.plan import Chain
from lazyfun.streams.run.sync_steps import then
from lazyfun.streams.shared.parts import NOTHING
from lazyfun.streams.sync import vsteps
from lazyfun.streams.sync.steps import Chunked, Group

if TYPE_CHECKING:
    import sqlite3

    from lazyfun.sinks.paths import PathLike
    from lazyfun.streams.verbs import Accumulators

Stream = Chain
_sum = sum


def _empty(default: Any, name: str) -> Any:
    if default is NOTHING:
        raise ValueError(f"{name}() of an empty Stream (give a default)")
    return default


def first(s: Stream, default: Any) -> Any:
    with s:
        for item in s._take_items():
            return item
    return _empty(default, "first")


def last(s: Stream, default: Any) -> Any:
    with s:
        item = more_itertools.last(s._take_items(), NOTHING)
    return _empty(default, "last") if item is NOTHING else item


def to_list(s: Stream) -> list[Any]:
    with s:
        return list(s._take_items())


def collected(s: Stream, kind: Callable[[Iterator[Any]], Any]) -> Any:
    """The items in a set, or a dict of the pairs."""
    with s:
        return kind(s._take_items())


def count(s: Stream) -> int:
    with s:
        counted: int = more_itertools.ilen(s._take_items())  # typed in a bare build too
        return counted


def reduce(s: Stream, f: Callable[[Any, Any], Any], initial: Any) -> Any:
    with s:
        return functools.reduce(f, s._take_items(), initial)


def for_each(s: Stream, f: Callable[[Any], object]) -> None:
    with s:
        for item in s._take_items():
            f(item)


def sum(s: Stream, start: Any) -> Any:
    with s:
        return _sum(s._take_items(), start)


def extreme(s: Stream, greatest: bool, key: Any, default: Any, name: str) -> Any:
    """The least (``greatest``: the greatest) item by ``key``."""
    with s:
        found = (max if greatest else min)(s._take_items(), key=key, default=NOTHING)
    return _empty(default, name) if found is NOTHING else found


def decides(s: Stream, pred: Callable[[Any], object] | None, on: bool) -> bool:
    """``any`` (``on``) or ``all``: the first item whose truth is ``on`` decides."""
    with s:
        items = s._take_items()
        truths = items if pred is None else map(pred, items)
        return any(truths) if on else all(truths)


def aggregated(
    s: Stream, acc: Accumulators, every: int | None, limit: float | None, what: str
) -> Any:
    """The verbs' folds: every item into ``acc`` (a terminal), or a dict a window."""
    if every is None and limit is None:
        with s:
            acc.add_all(s._take_items())
        return acc.output()
    from lazyfun.streams.sync import threaded

    items: Any = s._take_items()
    if limit is None:
        return then(s, vsteps.Windows(items, acc, every, None), step=what)
    ahead = threaded.Buffer(items, threaded.GROUP_AHEAD, asked=True)
    windows = vsteps.Windows(ahead, acc, every, limit, wait=ahead.ready, ask=ahead.ask)
    return then(s, windows, ahead, step=what)


# --- sinks -------------------------------------------------------------------------------


def _drained(writer: Writer, items: Iterator[Any]) -> int:
    """``items`` written in the writer's batches (by size, or by size or time)."""
    if writer.within is None:
        return drain(writer, Chunked(items, writer.batch))
    return drain(writer, Group(items, writer.batch, writer.within))


def _written(s: Stream, make: Callable[[], Writer]) -> int:
    items = s._take_items()
    with s:
        return _drained(make(), items)


def to_lines(s: Stream, path: PathLike, encoding: str, atomic: bool, resume: bool) -> int:
    if resume:
        writer = functools.partial(LinesWriter, path, encoding=encoding)
        return _resumed(s, path, atomic, "to_lines", writer)
    return _written(s, functools.partial(LinesWriter, path, encoding=encoding, atomic=atomic))


def to_jsonl(s: Stream, path: PathLike, atomic: bool, resume: bool) -> int:
    if resume:
        return _resumed(s, path, atomic, "to_jsonl", functools.partial(JsonlWriter, path))
    return _written(s, functools.partial(JsonlWriter, path, atomic=atomic))


def to_csv(s: Stream, path: PathLike, atomic: bool, resume: bool, dialect: dict[str, Any]) -> int:
    if resume:
        return _resumed(s, path, atomic, "to_csv", functools.partial(CsvWriter, path, **dialect))
    return _written(s, functools.partial(CsvWriter, path, atomic=atomic, **dialect))


def to_parquet(s: Stream, path: PathLike, row_group: int, atomic: bool, resume: bool) -> int:
    if resume:
        return _resumed_parquet(s, path, row_group, atomic)
    return _written(s, functools.partial(ParquetWriter, path, row_group=row_group, atomic=atomic))


def to_sql(
    s: Stream,
    db: PathLike | sqlite3.Connection,
    table: str,
    batch: int,
    limit: float | None,
    atomic: bool,
    resume: bool,
) -> int:
    if resume:
        return _resumed_sql(s, db, table, batch)
    writer = functools.partial(SqlWriter, db, table, batch=batch, within=limit, atomic=atomic)
    return _written(s, writer)


def _resumed(
    s: Stream, path: PathLike, atomic: bool, what: str, make: Callable[..., Writer]
) -> int:
    """A file sink's job, resumed where a progress file beside ``path`` says it
    stopped (or begun, writing one)."""
    name = refuse_resume_to(path, atomic, what)
    source, position = plan(s._holds, s._blocker, what)
    progress = Progress(name, job_of(source, what))
    state = progress.load()  # refused here where the output is not this job's
    if state is not None and state["done"]:
        s.close()
        return finished(name)
    items = s._take_items()
    with s:
        if state is None:
            progress.begin()  # before the output is opened: a kill leaves it this job's
            writer = make(resume=Resume(progress))
        else:
            writer = make(resume=Resume(progress, state["size"], state["written"]))
            resume_source(source, state)
        return drain_resumable(cast("_FileWriter", writer), items, position, Marks(source))


def _resumed_parquet(s: Stream, path: PathLike, row_group: int, atomic: bool) -> int:
    """``to_parquet``'s job, resumed from the parts its progress names
    (:class:`~lazyfun.sinks.writers.ParquetParts`), or begun."""
    name = refuse_resume_to(path, atomic, "to_parquet")
    source, position = plan(s._holds, s._blocker, "to_parquet")
    progress = Progress(name, job_of(source, "to_parquet"))
    state = progress.load_parts(parts_of(name), functools.partial(count_parts, name))
    if state is not None and state["done"]:
        s.close()
        return finished(name)
    items = s._take_items()
    with s:
        if state is None:
            writer = ParquetParts(name, row_group=row_group, resume=Resume(progress), parts=0)
        else:
            resumed = Resume(progress, None, state["written"])
            writer = ParquetParts(name, row_group=row_group, resume=resumed, parts=state["parts"])
            resume_source(source, state)
        return drain_resumable(writer, items, position, Marks(source))


def _resumed_sql(s: Stream, db: PathLike | sqlite3.Connection, table: str, batch: int) -> int:
    """``to_sql``'s job, resumed where its progress row says it stopped."""
    source, position = plan(s._holds, s._blocker, "to_sql")
    writer = SqlWriter(db, table, batch=batch)
    try:
        state = writer.progress(job_of(source, "to_sql"))  # refused where not this job's
        items = s._take_items()
    except BaseException:
        writer.close(failed=True)
        raise
    with s:
        if state is not None and state["done"]:
            writer.close(failed=False)
            return finished(f"{writer.name}, table {writer.table}")
        if state is not None:
            resume_source(source, state)
        return drain_resumable(writer, items, position, Marks(source))
