"""Sources and sinks: records read from files, URLs and databases as a lazy
:class:`~lazyfun.streams.stream.Stream`, and written back by its terminals.

Sources, each a Stream that opens nothing until it is read:

- :func:`read_lines`, :func:`read_jsonl`, :func:`read_csv`, :func:`read_parquet`:
  a path, ``-`` (standard input), a glob (the files read one after another, in
  plain string order, each opened when reached) or any URL fsspec understands;
  compressed by the suffix (``.gz``, ``.bz2``, ``.xz``, ``.zst``);
- :func:`read_sql`: the rows of a query, fetched a few at a time as they are read.

Sinks, terminals of every Stream (awaited in an async one) and functions here of any
iterable, with the same signatures, each returning how many records it wrote (a CSV
header is not counted): ``to_lines``, ``to_jsonl``, ``to_csv``, ``to_parquet``,
``to_sql``.

A record that cannot be read or written is a :class:`RecordError` at its place
(the file, the line where it starts, why): the stream goes on after it, so
``.catch(RecordError, do=log)`` logs it and keeps the rest.  When the stream
raises, a sink first writes (and commits) everything that came before the error;
with ``atomic=True`` it writes nothing at all.

>>> stream([{"id": 1, "name": "ada"}, {"id": 2, "name": "alan"}]).to_jsonl("people.jsonl")
2
>>> read_jsonl("people.jsonl").map(lambda person: person["name"]).to_list()
['ada', 'alan']
>>> to_lines(["a", "b"], "ab.txt"), to_csv([{"a": 1}], "a.csv"), to_sql([{"a": 1}], "a.db", "a")
(2, 1, 1)
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Concatenate, ParamSpec, TypeVar, overload

from lazyfun.io.sources import Csv, Jsonl, Lines
from lazyfun.io.tables import Connection, Parquet, Sql
from lazyfun.parallel.window import Holding
from lazyfun.sinks.errors import RecordError
from lazyfun.sinks.paths import PathLike
from lazyfun.streams.modes import Sync
from lazyfun.streams.stream import Stream
from lazyfun.streams.sync.steps import check_count

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
R = TypeVar("R")
P = ParamSpec("P")


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


def _sink(
    method: Callable[Concatenate[Stream[T, Sync], P], R],
) -> Callable[Concatenate[Iterable[T], P], R]:
    """The Stream's sink ``method`` as a function of ``items`` (a Stream, whose sources
    the sink then knows, or any iterable), with the Stream's signature: written once."""
    name = method.__name__

    def sink(items: Iterable[T], /, *args: P.args, **kwargs: P.kwargs) -> R:
        return method(_stream(items), *args, **kwargs)

    sink.__name__ = sink.__qualname__ = name
    sink.__module__ = __name__
    sink.__doc__ = f""":meth:`Stream.{name} <lazyfun.streams.stream.Stream.{name}>` of ``items``.

    {(method.__doc__ or "").strip()}"""
    shown = inspect.signature(method)
    items = inspect.Parameter("items", inspect.Parameter.POSITIONAL_ONLY, annotation="Iterable")
    sink.__signature__ = shown.replace(  # type: ignore[attr-defined]
        parameters=[items, *list(shown.parameters.values())[1:]]
    )
    return sink


to_lines = _sink(Stream.to_lines)
""":meth:`Stream.to_lines <lazyfun.streams.stream.Stream.to_lines>` of any iterable."""
to_jsonl = _sink(Stream.to_jsonl)
""":meth:`Stream.to_jsonl <lazyfun.streams.stream.Stream.to_jsonl>` of any iterable."""
to_csv = _sink(Stream.to_csv)  # type: ignore[arg-type]  # mypy: an overload with **dialect
""":meth:`Stream.to_csv <lazyfun.streams.stream.Stream.to_csv>` of any iterable."""
to_parquet = _sink(Stream.to_parquet)
""":meth:`Stream.to_parquet <lazyfun.streams.stream.Stream.to_parquet>` of any iterable."""
to_sql = _sink(Stream.to_sql)
""":meth:`Stream.to_sql <lazyfun.streams.stream.Stream.to_sql>` of any iterable."""
