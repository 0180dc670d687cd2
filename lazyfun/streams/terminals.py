"""Reading a Stream: once, and to the end (or to the first item).

:class:`Terminals` is the half of :class:`~lazyfun.streams.stream.Stream` that reads:
the one-shot rule (a second read is a :class:`StreamConsumedError`, never a
silent empty stream) and the terminals, ``to_list``, ``first``, ``count``,
``reduce``, ``sum``, ``min``, ``max``, ``to_set``, ``to_dict``,
``for_each``, ``lazylist``, and the sinks ``to_lines``, ``to_jsonl``, ``to_csv``,
``to_parquet``, ``to_sql`` (their writers are in :mod:`lazyfun.sinks`, one layer
down; :mod:`lazyfun.io` documents them).  The other half, the lazy steps, is in
:mod:`lazyfun.streams.stream`; the examples here use its ``stream``.
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from types import TracebackType
from typing import TYPE_CHECKING, Any, Generic, Protocol, Self, TypeVar, cast, overload

import more_itertools

from lazyfun.lazylist import LazyList
from lazyfun.sinks.paths import PathLike, refuse_writing_what_is_read
from lazyfun.sinks.resume import Progress, drain_resumable, finished, plan, refuse_resume_to
from lazyfun.sinks.writers import (
    CsvWriter,
    JsonlWriter,
    LinesWriter,
    ParquetWriter,
    Resume,
    SqlWriter,
    Writer,
    _FileWriter,
    drain,
)
from lazyfun.streams.explain import Explaining, Meter, Stage, analysing, metered, recorded, root
from lazyfun.streams.steps import (
    Chunked,
    Group,
    StreamConsumedError,
    check_callable,
    check_count,
    seconds,
)

if TYPE_CHECKING:
    import sqlite3
    from datetime import timedelta

__all__ = ["StreamConsumedError", "Terminals"]

T = TypeVar("T")
U = TypeVar("U")
D = TypeVar("D")
K = TypeVar("K")
V = TypeVar("V")


class Closable(Protocol):
    """What a step that holds threads, processes, tasks or a progress bar offers."""

    def close(self) -> None: ...


class _Comparable(Protocol):
    def __lt__(self, other: Any, /) -> bool: ...


C = TypeVar("C", bound=_Comparable)

_NOTHING: Any = object()
_AHEAD = 256  # the most items ``async for`` over a Stream has read ahead on its thread


@recorded
class Terminals(Explaining, Generic[T]):
    """A one-shot source of items and the ways to read it (the base of ``Stream``)."""

    __slots__ = ("_blocker", "_closed", "_dropped", "_holds", "_items", "_used")

    def __init__(
        self,
        items: Iterable[T],
        holds: tuple[Closable, ...] = (),
        blocker: str | None = None,
        dropped: str | None = None,
        stage: Stage | None = None,
    ) -> None:
        # the step as written and its counts (the source's, when this is the first)
        self._stage = root(items, Meter() if analysing(None) else None) if stage is None else stage
        self._calls: Meter | None = None
        self._call: tuple[str, tuple[Any, ...], dict[str, Any]] | None = None
        self._items: Iterator[T] = iter(items)
        self._used = self._closed = False
        self._holds = holds
        self._blocker = blocker  # the first step after which a killed job cannot resume
        # the first step that may drop items (filter, catch): a concurrent map after it
        # cannot say which source records its outputs came from
        self._dropped = dropped

    def _take_items(self) -> Iterator[T]:
        """The underlying iterator, once; a second call is a StreamConsumedError."""
        if self._closed:
            raise StreamConsumedError("this Stream was closed: build the Stream again")
        if self._used:
            raise StreamConsumedError(
                "this Stream was already read: a Stream is one-shot. Call .lazylist() "
                "on it before its first read to keep a list that can be read many "
                "times, or build the Stream again"
            )
        self._used = True
        return metered(self._items, self._stage)

    def close(self) -> None:
        """End the pipeline now: every concurrent step's queued calls are cancelled and the
        pool or cluster it started is shut down (a call running in your code is left to
        finish on its own, on a daemon thread or worker, and never holds the process
        open); a buffer's thread stops; a progress bar ends.  Your source, and an
        Executor or cluster you passed in, stay open.  Closing twice is nothing.

        >>> squares = stream(range(10**9)).map(lambda n: n * n, concurrency=4)
        >>> it = iter(squares)
        >>> next(it), next(it)
        (0, 1)
        >>> squares.close()
        >>> next(it, "ended")
        'ended'
        """
        self._closed = not self._used  # once read, a second read says so
        holds, self._holds = self._holds, ()
        for hold in reversed(holds):  # from the consumer's end back to the source
            hold.close()

    def __enter__(self) -> Self:
        """``with stream(...) as s:`` closes ``s`` when the block is left, any way.

        >>> with stream(range(10**9)).map(str, concurrency=2) as digits:
        ...     next(iter(digits))
        '0'
        """
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __iter__(self) -> Iterator[T]:
        """The items, once (a ``for`` loop over a Stream uses it up)."""
        return self._take_items()

    def __aiter__(self) -> AsyncIterator[T]:
        """``async for`` over the Stream, once: its items read on a daemon thread of its
        own, so its blocking steps never block the event loop, and handed over in
        batches: one item ahead at first, as many as it has handed over each time the
        loop has to wait, 256 at most (closing the async iterator closes the Stream).

        >>> import asyncio
        >>> async def read():
        ...     return [n async for n in stream(range(3)).map(str)]
        >>> asyncio.run(read())
        ['0', '1', '2']
        """
        from lazyfun.streams.aconcurrent import ReadAhead

        return ReadAhead(self._take_items(), 1, most=_AHEAD, close=self.close)

    @overload
    def first(self) -> T: ...

    @overload
    def first(self, default: D) -> T | D: ...

    def first(self, default: object = _NOTHING) -> object:
        """The first item (reads only it); ``default`` when there is none, else ValueError.

        >>> stream(range(7, 10**9)).first()
        7
        >>> stream([]).first(None) is None
        True
        """
        with self:
            for item in self._take_items():
                return item
        if default is _NOTHING:
            raise ValueError("first() of an empty Stream (give a default)")
        return default

    @overload
    def last(self) -> T: ...

    @overload
    def last(self, default: D) -> T | D: ...

    def last(self, default: object = _NOTHING) -> object:
        """The last item (reads the whole Stream, keeping one item); else ``default``.

        >>> stream(range(5)).last()
        4
        """
        with self:
            item = more_itertools.last(self._take_items(), _NOTHING)
        if item is not _NOTHING:
            return item
        if default is _NOTHING:
            raise ValueError("last() of an empty Stream (give a default)")
        return default

    def to_list(self) -> list[T]:
        """Every item, in a list (eager: the one place a Stream is materialised).

        >>> stream(range(3)).map(str).to_list()
        ['0', '1', '2']
        """
        with self:
            return list(self._take_items())

    def count(self) -> int:
        """How many items there are (reads them all, keeps none).

        >>> stream(range(10)).filter(lambda n: n % 2).count()
        5
        """
        with self:
            counted: int = more_itertools.ilen(self._take_items())  # typed in a bare build too
            return counted

    def reduce(self, f: Callable[[U, T], U], initial: U) -> U:
        """``foldl f initial``: the items combined from the left.

        >>> stream([1, 2, 3]).reduce(lambda total, n: total * 10 + n, 0)
        123
        """
        with self:
            return functools.reduce(f, self._take_items(), initial)

    def for_each(self, f: Callable[[T], object]) -> None:
        """``f`` on every item, for its effect (reads the whole Stream).

        >>> stream("ab").for_each(print)
        a
        b
        """
        check_callable(f, "for_each")
        with self:
            for item in self._take_items():
                f(item)

    @overload
    def sum(self: Terminals[int], start: int = 0) -> int: ...

    @overload
    def sum(self: Terminals[float], start: float = 0) -> float: ...

    def sum(self: Terminals[Any], start: Any = 0) -> Any:
        """The sum of the items, from ``start``.

        >>> stream(range(5)).sum()
        10
        """
        with self:
            return sum(self._take_items(), start)

    @overload
    def min(self: Terminals[C], *, key: None = None) -> C: ...

    @overload
    def min(self, *, key: Callable[[T], _Comparable]) -> T: ...

    @overload
    def min(self: Terminals[C], *, key: None = None, default: D) -> C | D: ...

    @overload
    def min(self, *, key: Callable[[T], _Comparable], default: D) -> T | D: ...

    def min(self, *, key: Callable[[T], Any] | None = None, default: Any = _NOTHING) -> Any:
        """The least item (by ``key``); ``default`` for an empty Stream, else ValueError.

        >>> stream([3, 1, 2]).min(), stream(["bb", "a"]).min(key=len), stream([]).min(default=0)
        (1, 'a', 0)
        """
        with self:
            return _extreme(min, self._take_items(), key, default, "min")

    @overload
    def max(self: Terminals[C], *, key: None = None) -> C: ...

    @overload
    def max(self, *, key: Callable[[T], _Comparable]) -> T: ...

    @overload
    def max(self: Terminals[C], *, key: None = None, default: D) -> C | D: ...

    @overload
    def max(self, *, key: Callable[[T], _Comparable], default: D) -> T | D: ...

    def max(self, *, key: Callable[[T], Any] | None = None, default: Any = _NOTHING) -> Any:
        """The greatest item (by ``key``); ``default`` for an empty Stream, else ValueError.

        >>> stream([3, 1, 2]).max(), stream(["bb", "a"]).max(key=len)
        (3, 'bb')
        """
        with self:
            return _extreme(max, self._take_items(), key, default, "max")

    def any(self, pred: Callable[[T], object] | None = None) -> bool:
        """Whether some item satisfies ``pred`` (is true, without one); reads only up to
        the first that does, then lets go of the rest of the pipeline.

        >>> stream(range(10**9)).map(lambda n: n * n).any(lambda n: n > 50)
        True
        >>> stream([0, "", None]).any()
        False
        """
        if pred is not None:
            check_callable(pred, "any")
        with self:
            items = self._take_items()
            return any(items if pred is None else map(pred, items))

    def all(self, pred: Callable[[T], object] | None = None) -> bool:
        """Whether every item satisfies ``pred`` (is true, without one); reads only up to
        the first that does not, then lets go of the rest of the pipeline.

        >>> stream(range(10**9)).all(lambda n: n < 5)
        False
        >>> stream([1, "a"]).all()
        True
        """
        if pred is not None:
            check_callable(pred, "all")
        with self:
            items = self._take_items()
            return all(items if pred is None else map(pred, items))

    def to_set(self) -> set[T]:
        """Every item, in a set (eager).

        >>> sorted(stream("abracadabra").to_set())
        ['a', 'b', 'c', 'd', 'r']
        """
        with self:
            return set(self._take_items())

    def to_dict(self: Terminals[tuple[K, V]]) -> dict[K, V]:
        """The ``(key, value)`` pairs, in a dict (eager; a later key wins).

        >>> stream("ab").enumerate().to_dict()
        {0: 'a', 1: 'b'}
        """
        with self:
            return dict(self._take_items())

    def lazylist(self) -> LazyList[T]:
        """A call-by-need LazyList of the items: read once, on demand, and kept for rereading.

        >>> xs = stream(range(3)).map(lambda n: n * 10).lazylist()
        >>> list(xs), list(xs)
        ([0, 10, 20], [0, 10, 20])
        """
        return LazyList.of(self._take_items())

    # --- sinks: each writes every item and returns how many it wrote --------------------

    def to_lines(
        self: Terminals[str],
        path: PathLike,
        *,
        encoding: str = "utf-8",
        atomic: bool = False,
        resume: bool = False,
    ) -> int:
        """Each item (a str) on a line of its own in ``path``: a file, ``-`` (standard
        output) or a URL, compressed by its suffix; see :mod:`lazyfun.io`.  With
        ``resume=True`` a killed job run again goes on where it stopped
        (:mod:`lazyfun.sinks.resume`).

        >>> stream(["a", "b"]).to_lines("letters.txt.gz")
        2
        """
        refuse_writing_what_is_read(path, self._holds, atomic)
        if resume:
            return self._resumed(
                path, atomic, "to_lines", functools.partial(LinesWriter, path, encoding=encoding)
            )
        items = self._take_items()
        with self:
            return _drained(LinesWriter(path, encoding=encoding, atomic=atomic), items)

    def to_jsonl(self, path: PathLike, *, atomic: bool = False, resume: bool = False) -> int:
        """Each item as JSON on a line of its own in ``path`` (msgspec encodes dicts,
        lists, dataclasses, Structs, ...); ``resume`` as for ``to_lines``.

        >>> stream([{"n": 1}, {"n": 2}]).to_jsonl("numbers.jsonl")
        2
        """
        refuse_writing_what_is_read(path, self._holds, atomic)
        if resume:
            return self._resumed(path, atomic, "to_jsonl", functools.partial(JsonlWriter, path))
        items = self._take_items()
        with self:
            return _drained(JsonlWriter(path, atomic=atomic), items)

    def to_csv(
        self, path: PathLike, *, atomic: bool = False, resume: bool = False, **dialect: Any
    ) -> int:
        """Each item (a dict, a dataclass or a Struct) a row of ``path``, under a header of
        the first one's field names (not counted); ``dialect`` as for ``csv.writer``;
        ``resume`` as for ``to_lines``.

        >>> stream([{"n": 1, "word": "one"}]).to_csv("numbers.csv")
        1
        """
        refuse_writing_what_is_read(path, self._holds, atomic)
        if resume:
            writer = functools.partial(CsvWriter, path, **dialect)
            return self._resumed(path, atomic, "to_csv", writer)
        items = self._take_items()
        with self:
            return _drained(CsvWriter(path, atomic=atomic, **dialect), items)

    def _resumed(self, path: PathLike, atomic: bool, what: str, make: Callable[..., Writer]) -> int:
        """A file sink's job, resumed where a progress file beside ``path`` says it
        stopped (or begun, writing one)."""
        name = refuse_resume_to(path, atomic, what)
        source, position = plan(self._holds, self._blocker, what)
        progress = Progress(name)
        state = progress.load()
        if state is not None and state["done"]:
            self.close()
            return finished(name)
        items = self._take_items()
        with self:
            if state is None:
                writer = make(resume=Resume(progress))
            else:
                writer = make(resume=Resume(progress, state["size"], state["written"]))
                source.skip(state["position"])
            return drain_resumable(cast("_FileWriter", writer), items, position)

    def to_parquet(self, path: PathLike, *, row_group: int = 10_000, atomic: bool = False) -> int:
        """Each item (a dict, a dataclass or a Struct) a row of the Parquet file ``path``,
        ``row_group`` rows at a time (needs pyarrow).

        >>> stream({"n": n} for n in range(5)).to_parquet("numbers.parquet", row_group=2)
        5
        """
        check_count(row_group, "to_parquet's row_group", 1)
        refuse_writing_what_is_read(path, self._holds, atomic)
        items = self._take_items()
        with self:
            return _drained(ParquetWriter(path, row_group=row_group, atomic=atomic), items)

    def to_sql(
        self,
        db: PathLike | sqlite3.Connection,
        table: str,
        batch: int = 1000,
        within: float | timedelta | None = None,
        *,
        atomic: bool = False,
        resume: bool = False,
    ) -> int:
        """Each item (a dict, a dataclass or a Struct) a row of ``table`` in the SQLite
        database ``db`` (a path or a connection), created from the first item's fields
        when it does not exist; each batch of ``batch`` rows (or what came ``within``
        seconds) in one transaction, or with ``atomic`` all in one.  With ``resume``,
        each batch's transaction holds the source's position too (in the table
        ``lazyfun_progress``), and a killed job run again goes on where it stopped.

        >>> stream({"n": n} for n in range(5)).to_sql("numbers.db", "numbers", batch=2)
        5
        """
        check_count(batch, "to_sql's batch", 1)
        limit = None if within is None else seconds(within, "to_sql's within")
        if resume:
            if atomic or limit is not None:
                raise ValueError(
                    "to_sql(resume=True) writes batches of a size: no atomic=, within="
                )
            return self._resumed_sql(db, table, batch)
        items = self._take_items()
        with self:
            return _drained(SqlWriter(db, table, batch=batch, within=limit, atomic=atomic), items)

    def _resumed_sql(self, db: PathLike | sqlite3.Connection, table: str, batch: int) -> int:
        """``to_sql``'s job, resumed where its progress row says it stopped."""
        source, position = plan(self._holds, self._blocker, "to_sql")
        items = self._take_items()
        with self:
            writer = SqlWriter(db, table, batch=batch)
            state = writer.progress()
            if state is not None and state[1]:
                writer.close(failed=False)
                return finished(f"{writer.name}, table {writer.table}")
            if state is not None:
                source.skip(state[0])
            return drain_resumable(writer, items, position)


def _drained(writer: Writer, items: Iterator[Any]) -> int:
    """``items`` written in the writer's batches (by size, or by size or time)."""
    if writer.within is None:
        return drain(writer, Chunked(items, writer.batch))
    return drain(writer, Group(items, writer.batch, writer.within))


def _extreme(
    pick: Callable[..., Any], items: Iterator[Any], key: Any, default: Any, name: str
) -> Any:
    found = pick(items, key=key, default=_NOTHING)
    if found is not _NOTHING:
        return found
    if default is _NOTHING:
        raise ValueError(f"{name}() of an empty Stream (give a default)")
    return default
