"""Sources and sinks: records read from files, URLs and databases as a lazy
:class:`~lazyfun.streams.stream.Stream`, and written back by its terminals.

Sources, each a Stream that opens nothing until it is read:

- :func:`read_lines`, :func:`read_jsonl`, :func:`read_csv`, :func:`read_parquet`:
  a path, ``-`` (standard input), a glob (the files read one after another, in
  plain string order, each opened when reached) or any URL fsspec understands;
  compressed by the suffix (``.gz``, ``.bz2``, ``.xz``, ``.zst``);
- :func:`read_sql`: the rows of a query, fetched a few at a time as they are read.

Sinks, terminals of ``Stream`` and ``AsyncStream`` (and functions here), each
returning how many records it wrote (a CSV header is not counted):
``to_lines``, ``to_jsonl``, ``to_csv``, ``to_parquet``, ``to_sql``.

A record that cannot be read or written is a :class:`RecordError` at its place
(the file, the line where it starts, why): the stream goes on after it, so
``.catch(RecordError, do=log)`` logs it and keeps the rest.  When the stream
raises, a sink first writes (and commits) everything that came before the error;
with ``atomic=True`` it writes nothing at all.

>>> stream([{"id": 1, "name": "ada"}, {"id": 2, "name": "alan"}]).to_jsonl("people.jsonl")
2
>>> read_jsonl("people.jsonl").map(lambda person: person["name"]).to_list()
['ada', 'alan']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, overload

from lazyfun.io.sources import Connection, Csv, Jsonl, Lines, Parquet, Sql
from lazyfun.parallel.window import Holding
from lazyfun.sinks.errors import RecordError
from lazyfun.sinks.paths import PathLike
from lazyfun.streams.steps import check_count
from lazyfun.streams.stream import Stream

if TYPE_CHECKING:
    import sqlite3
    from datetime import timedelta

__all__ = [
    "Connection",
    "PathLike",
    "RecordError",
    "read_csv",
    "read_jsonl",
    "read_lines",
    "read_parquet",
    "read_sql",
    "to_csv",
    "to_jsonl",
    "to_lines",
    "to_parquet",
    "to_sql",
]

T = TypeVar("T")


def _held(source: Holding[T]) -> Stream[T]:
    """A Stream of ``source`` that closes it when the Stream is closed (or left by a ``with``)."""
    return Stream(source, (source,))


def _stream(items: Iterable[T]) -> Stream[T]:
    """``items`` as a Stream: itself if it is one (its sources known to the sink)."""
    return items if isinstance(items, Stream) else Stream(items)


def read_lines(
    path: PathLike, encoding: str = "utf-8", *, longest: int | None = None
) -> Stream[str]:
    """The lines of ``path`` without their newline, a UTF-8 byte-order mark skipped; a
    line not in ``encoding`` (one whose newline is the byte ``\\n``: utf-8, latin-1,
    ...) is a :class:`RecordError`.  With ``longest``, no line longer than that many
    bytes is held: one is a :class:`RecordError` too (memory stays bounded whatever
    the input), and the next line follows.

    >>> stream(["first", "second"]).to_lines("two.txt.gz")
    2
    >>> read_lines("two.txt.gz").to_list()
    ['first', 'second']
    >>> read_lines("*.txt.gz").count()
    2
    >>> stream(["short", "x" * 100, "end"]).to_lines("long.txt")
    3
    >>> read_lines("long.txt", longest=10).catch(RecordError, replace=lambda e: e.reason).to_list()
    ['short', 'longer than 10 characters', 'end']
    """
    if longest is not None:
        check_count(longest, "read_lines's longest", 1)
    return _held(Lines(path, encoding, longest))


@overload
def read_jsonl(path: PathLike, type: None = None) -> Stream[Any]: ...


@overload
def read_jsonl(path: PathLike, type: type[T]) -> Stream[T]: ...


def read_jsonl(path: PathLike, type: Any = None) -> Stream[Any]:
    """One JSON value a line of ``path`` (blank lines skipped); with ``type`` (a dataclass,
    a TypedDict, a msgspec Struct, ...) each decoded into it and validated by msgspec.
    A line that does not decode, or does not fit, is a :class:`RecordError`.

    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Point:
    ...     x: int
    ...     y: int
    >>> stream([{"x": 1, "y": 2}, {"x": 3}]).to_jsonl("points.jsonl")
    2
    >>> read_jsonl("points.jsonl", Point).catch(RecordError, do=print).to_list()
    points.jsonl, line 2: does not fit Point: Object missing required field `y`
    [Point(x=1, y=2)]
    """
    return _held(Jsonl(path, type))


@overload
def read_csv(
    path: PathLike, type: None = None, *, encoding: str = "utf-8", **dialect: Any
) -> Stream[dict[str, str]]: ...


@overload
def read_csv(
    path: PathLike, type: type[T], *, encoding: str = "utf-8", **dialect: Any
) -> Stream[T]: ...


def read_csv(
    path: PathLike, type: Any = None, *, encoding: str = "utf-8", **dialect: Any
) -> Stream[Any]:
    """The rows of ``path`` under its header row (required), as dicts of strings, or as
    ``type`` instances with the fields converted from text (as msgspec's ``convert``
    with ``strict=False``); ``dialect`` as for ``csv.reader``.  A row with another
    number of fields than the header, or one that does not convert, is a
    :class:`RecordError` at the line it starts on.

    >>> stream([{"name": "ada", "born": 1815}]).to_csv("people.csv")
    1
    >>> read_csv("people.csv").to_list()
    [{'name': 'ada', 'born': '1815'}]
    >>> from typing import TypedDict
    >>> class Person(TypedDict):
    ...     name: str
    ...     born: int
    >>> read_csv("people.csv", Person).to_list()
    [{'name': 'ada', 'born': 1815}]
    """
    return _held(Csv(path, type, encoding, dialect))


def read_sql(db: PathLike | Connection, query: str, params: Any = ()) -> Stream[dict[str, Any]]:
    """The rows of ``query`` as dicts keyed by column name, from a SQLite database file
    (opened read-only at the first read, closed at the end) or any DB-API connection
    (``params`` passed to its ``execute`` untouched; never closed here), fetched with
    ``fetchmany`` as the stream is read: ``.take(5)`` fetches a few rows, not the table.

    >>> stream({"n": n} for n in range(100)).to_sql("numbers.db", "numbers")
    100
    >>> read_sql("numbers.db", "SELECT n FROM numbers WHERE n > ?", (95,)).to_list()
    [{'n': 96}, {'n': 97}, {'n': 98}, {'n': 99}]
    """
    return _held(Sql(db, query, params))


def read_parquet(path: PathLike, columns: Sequence[str] | None = None) -> Stream[dict[str, Any]]:
    """The rows of Parquet files as dicts (only ``columns``, if given), one row group in
    memory at a time (needs pyarrow); a file that cannot be read is a
    :class:`RecordError` and the next file follows.

    >>> stream({"n": n, "square": n * n} for n in range(4)).to_parquet("squares.parquet")
    4
    >>> read_parquet("squares.parquet", columns=["square"]).to_list()
    [{'square': 0}, {'square': 1}, {'square': 4}, {'square': 9}]
    """
    return _held(Parquet(path, columns))


def to_lines(
    items: Iterable[str],
    path: PathLike,
    *,
    encoding: str = "utf-8",
    atomic: bool = False,
    resume: bool = False,
) -> int:
    """:meth:`Stream.to_lines <lazyfun.streams.stream.Stream.to_lines>` of ``items``.

    >>> to_lines(["a", "b"], "ab.txt")
    2
    """
    return _stream(items).to_lines(path, encoding=encoding, atomic=atomic, resume=resume)


def to_jsonl(
    items: Iterable[Any], path: PathLike, *, atomic: bool = False, resume: bool = False
) -> int:
    """:meth:`Stream.to_jsonl <lazyfun.streams.stream.Stream.to_jsonl>` of ``items``.

    >>> to_jsonl([[1, 2], {"a": None}], "values.jsonl")
    2
    """
    return _stream(items).to_jsonl(path, atomic=atomic, resume=resume)


def to_csv(
    items: Iterable[Any],
    path: PathLike,
    *,
    atomic: bool = False,
    resume: bool = False,
    **dialect: Any,
) -> int:
    """:meth:`Stream.to_csv <lazyfun.streams.stream.Stream.to_csv>` of ``items``.

    >>> to_csv([{"a": 1}, {"a": 2}], "a.csv")
    2
    """
    return _stream(items).to_csv(path, atomic=atomic, resume=resume, **dialect)


def to_parquet(
    items: Iterable[Any], path: PathLike, *, row_group: int = 10_000, atomic: bool = False
) -> int:
    """:meth:`Stream.to_parquet <lazyfun.streams.stream.Stream.to_parquet>` of ``items``.

    >>> to_parquet([{"a": 1}], "a.parquet")
    1
    """
    return _stream(items).to_parquet(path, row_group=row_group, atomic=atomic)


def to_sql(
    items: Iterable[Any],
    db: PathLike | sqlite3.Connection,
    table: str,
    batch: int = 1000,
    within: float | timedelta | None = None,
    *,
    atomic: bool = False,
    resume: bool = False,
) -> int:
    """:meth:`Stream.to_sql <lazyfun.streams.stream.Stream.to_sql>` of ``items``.

    >>> to_sql([{"a": 1}], "a.db", "a")
    1
    """
    return _stream(items).to_sql(db, table, batch, within, atomic=atomic, resume=resume)
