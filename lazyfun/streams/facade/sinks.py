"""The sinks: each writes every item and returns how many it wrote (awaited in an async
stream, whose writing runs on a thread of its own, never in the event loop).  The
writers are in :mod:`lazyfun.sinks`, one layer down; :mod:`lazyfun.io` documents them.
A job killed part way, a sync or an async stream's, resumes with ``resume=True``
(:mod:`lazyfun.sinks.resume`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar, overload

from lazyfun.sinks.paths import PathLike, refuse_writing_what_is_read
from lazyfun.streams.facade.terminals import Await, Terminals
from lazyfun.streams.modes import Async, M, Sync
from lazyfun.streams.shared.parts import check_count, seconds

if TYPE_CHECKING:
    import sqlite3
    from datetime import timedelta


__all__ = ["Sinks"]

T = TypeVar("T")


class Sinks(Terminals[T, M]):
    """The sinks of the façade."""

    __slots__ = ()

    def _sink(self, path: PathLike | None, atomic: bool) -> None:
        """Refuse at the call to write over a file the stream reads (unless the file is
        written beside the target and renamed at the end)."""
        if path is not None:
            refuse_writing_what_is_read(path, self._holds, atomic)

    @overload
    def to_lines(
        self: Sinks[str, Sync],
        path: PathLike,
        *,
        encoding: str = "utf-8",
        atomic: bool = False,
        resume: bool = False,
    ) -> int: ...

    @overload
    def to_lines(
        self: Sinks[str, Async],
        path: PathLike,
        *,
        encoding: str = "utf-8",
        atomic: bool = False,
        resume: bool = False,
    ) -> Await[int]: ...

    def to_lines(
        self, path: PathLike, *, encoding: str = "utf-8", atomic: bool = False, resume: bool = False
    ) -> Any:
        """Each item (a str) on a line of its own in ``path``: a file, ``-`` (standard
        output) or a URL, compressed by its suffix; see :mod:`lazyfun.io`.  With
        ``resume=True`` a killed job run again goes on where it stopped
        (:mod:`lazyfun.sinks.resume`).

        >>> stream(["a", "b"]).to_lines("letters.txt.gz")
        2
        """
        self._sink(path, atomic)
        return self._run.to_lines(self._built(), path, encoding, atomic, resume)

    @overload
    def to_jsonl(
        self: Sinks[Any, Sync], path: PathLike, *, atomic: bool = False, resume: bool = False
    ) -> int: ...

    @overload
    def to_jsonl(
        self: Sinks[Any, Async], path: PathLike, *, atomic: bool = False, resume: bool = False
    ) -> Await[int]: ...

    def to_jsonl(self, path: PathLike, *, atomic: bool = False, resume: bool = False) -> Any:
        """Each item as JSON on a line of its own in ``path`` (msgspec encodes dicts,
        lists, dataclasses, Structs, ...); ``resume`` as for ``to_lines``.

        >>> stream([{"n": 1}, {"n": 2}]).to_jsonl("numbers.jsonl")
        2
        """
        self._sink(path, atomic)
        return self._run.to_jsonl(self._built(), path, atomic, resume)

    @overload
    def to_csv(
        self: Sinks[Any, Sync],
        path: PathLike,
        *,
        atomic: bool = False,
        resume: bool = False,
        **dialect: Any,
    ) -> int: ...

    @overload
    def to_csv(
        self: Sinks[Any, Async],
        path: PathLike,
        *,
        atomic: bool = False,
        resume: bool = False,
        **dialect: Any,
    ) -> Await[int]: ...

    def to_csv(
        self, path: PathLike, *, atomic: bool = False, resume: bool = False, **dialect: Any
    ) -> Any:
        """Each item (a dict, a dataclass or a Struct) a row of ``path``, under a header of
        the first one's field names (not counted); ``dialect`` as for ``csv.writer``;
        ``resume`` as for ``to_lines``.

        >>> stream([{"n": 1, "word": "one"}]).to_csv("numbers.csv")
        1
        """
        self._sink(path, atomic)
        return self._run.to_csv(self._built(), path, atomic, resume, dialect)

    @overload
    def to_parquet(
        self: Sinks[Any, Sync],
        path: PathLike,
        *,
        row_group: int = 10_000,
        atomic: bool = False,
        resume: bool = False,
    ) -> int: ...

    @overload
    def to_parquet(
        self: Sinks[Any, Async],
        path: PathLike,
        *,
        row_group: int = 10_000,
        atomic: bool = False,
        resume: bool = False,
    ) -> Await[int]: ...

    def to_parquet(
        self,
        path: PathLike,
        *,
        row_group: int = 10_000,
        atomic: bool = False,
        resume: bool = False,
    ) -> Any:
        """Each item (a dict, a dataclass or a Struct) a row of the Parquet file ``path``,
        ``row_group`` rows at a time (needs pyarrow).  A Parquet file is whole or useless,
        so a local one is always written beside ``path`` and renamed over it at the end:
        a kill at any moment leaves the old file or the new one (on an error, the rows
        before it, a whole file; with ``atomic=True``, the old file).  With ``resume``,
        each row group is committed as a part (``PATH.parts``) and a killed job run
        again goes on from the last one (:mod:`lazyfun.sinks.resume`).

        >>> stream({"n": n} for n in range(5)).to_parquet("numbers.parquet", row_group=2)
        5
        """
        check_count(row_group, "to_parquet's row_group", 1)
        self._sink(path, True)  # written beside and renamed: the file read stays whole
        return self._run.to_parquet(self._built(), path, row_group, atomic, resume)

    @overload
    def to_sql(
        self: Sinks[Any, Sync],
        db: PathLike | sqlite3.Connection,
        table: str,
        batch: int = 1000,
        within: float | timedelta | None = None,
        *,
        atomic: bool = False,
        resume: bool = False,
    ) -> int: ...

    @overload
    def to_sql(
        self: Sinks[Any, Async],
        db: PathLike | sqlite3.Connection,
        table: str,
        batch: int = 1000,
        within: float | timedelta | None = None,
        *,
        atomic: bool = False,
        resume: bool = False,
    ) -> Await[int]: ...

    def to_sql(
        self,
        db: PathLike | sqlite3.Connection,
        table: str,
        batch: int = 1000,
        within: float | timedelta | None = None,
        *,
        atomic: bool = False,
        resume: bool = False,
    ) -> Any:
        """Each item (a dict, a dataclass or a Struct) a row of ``table`` in the SQLite
        database ``db`` (a path or a connection), created from the first item's fields
        when it does not exist; each batch of ``batch`` rows (or what came ``within``
        seconds) in one transaction, or with ``atomic`` all in one.  With ``resume``,
        each batch's transaction holds the source's position too (in the table
        ``lazyfun_progress``), and a killed job run again goes on where it stopped.  An
        async stream writes on the sink's thread, and a batch whose time is up is
        written even while the next item is awaited: a connection given to it must be
        made with ``check_same_thread=False``.

        >>> stream({"n": n} for n in range(5)).to_sql("numbers.db", "numbers", batch=2)
        5
        """
        check_count(batch, "to_sql's batch", 1)
        limit = None if within is None else seconds(within, "to_sql's within")
        if resume and (atomic or limit is not None):
            raise ValueError("to_sql(resume=True) writes batches of a size: no atomic=, within=")
        return self._run.to_sql(self._built(), db, table, batch, limit, atomic, resume)
