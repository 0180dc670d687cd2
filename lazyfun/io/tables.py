"""The sources of tables: the rows of Parquet files (a row group in memory at a time)
and of a SQL query (fetched a few at a time), resumable, closable classes like the file
sources of :mod:`lazyfun.io.sources`, each opening nothing until its first ``next()``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from typing import Any, Protocol

from lazyfun.io.sources import FileSource
from lazyfun.parallel.window import Holding
from lazyfun.sinks.errors import RecordError
from lazyfun.sinks.paths import PathLike

__all__ = ["Connection", "Parquet", "Sql"]


class Parquet(FileSource[dict[str, Any]]):
    """The rows of Parquet files as dicts: one row group in memory at a time, its rows
    made into dicts 1,024 at a time (pyarrow's ``iter_batches`` holds more and more
    memory as it goes; reading by row group stays flat).  A file that cannot be read
    is a RecordError at the row it stopped at, and the rest of that file is skipped."""

    made_by = "read_parquet"

    ROWS = 1024

    def __init__(self, path: PathLike, columns: Sequence[str] | None) -> None:
        super().__init__(path)
        self.columns = None if columns is None else list(columns)
        self.parquet: Any = None
        self.groups: Iterator[int] = iter(())
        self.batches: Iterator[Any] = iter(())
        self.rows: Iterator[dict[str, Any]] = iter(())

    def __next__(self) -> dict[str, Any]:
        return self._counted(self._next_row)

    def _next_row(self) -> dict[str, Any]:
        while True:
            row = next(self.rows, None)
            if row is not None:
                self.line += 1
                return row
            batch = next(self.batches, None)
            if batch is not None:
                self.rows = iter(batch.to_pylist())
                continue
            if self.parquet is None and not self._open_next():
                raise StopIteration
            group = next(self.groups, None)
            if group is None:
                self.parquet = None
                continue
            assert self.parquet is not None  # the groups are those of the file being read
            try:
                table = self.parquet.read_row_group(group, columns=self.columns)
            except Exception as error:
                self.parquet = None
                reason = f"bad Parquet: {error}"
                raise RecordError(self.name, self.line + 1, reason, unit="row") from error
            self.batches = iter(table.to_batches(max_chunksize=self.ROWS))

    def mark(self) -> None:
        """None: a Parquet file is not read line by line (a resumed job reads through)."""
        return None

    def _open_next(self) -> bool:
        import pyarrow.parquet

        file = self._advance()
        if file is None:
            return False
        try:
            self.parquet = pyarrow.parquet.ParquetFile(file)
        except Exception as error:
            raise RecordError(self.name, 1, f"bad Parquet: {error}", unit="row") from error
        self.groups = iter(range(self.parquet.num_row_groups))
        return True

    def _close_file(self) -> None:
        self.parquet = None
        self.groups, self.batches, self.rows = iter(()), iter(()), iter(())
        super()._close_file()


class Connection(Protocol):
    """A DB-API connection: what ``read_sql`` needs of one."""

    def cursor(self) -> Any: ...


class Sql(Holding[dict[str, Any]]):
    """The rows of a query as dicts keyed by column name, fetched with ``fetchmany`` a few
    at a time (16, doubling to 1,024) as they are read.  A database given as a path
    is opened read-only at the first read and closed at the end; a connection is used
    as it is and never closed."""

    FIRST, MOST = 16, 1024

    def __init__(self, db: PathLike | Connection, query: str, params: Any) -> None:
        self.db, self.query, self.params = db, query, params
        self.connection: Any = None
        self.cursor: Any = None
        self.names: list[str] = []
        self.rows: Iterator[Sequence[Any]] = iter(())
        self.size = self.FIRST
        self.done = False
        self.position = 0  # rows given

    @property
    def plan(self) -> str:
        """How a Stream's ``explain`` names this source: ``read_sql('n.db', 'select ...')``."""
        db = self.db if isinstance(self.db, (str, os.PathLike)) else "<connection>"
        return f"read_sql({str(db)!r}, {self.query!r})"

    def skip(self, n: int) -> None:
        """Read past the first ``n`` rows: where a job resumed goes on from."""
        while self.position < n and next(self, None) is not None:
            pass

    def _start(self) -> None:
        import sqlite3

        if isinstance(self.db, str | os.PathLike):
            path = os.path.abspath(os.fspath(self.db))
            if not os.path.exists(path):
                raise FileNotFoundError(2, "no such database", path)
            self.connection = sqlite3.connect(f"{_file_uri(path)}?mode=ro", uri=True)
            connection = self.connection
        else:
            connection = self.db
        self.cursor = connection.cursor()
        self.cursor.execute(self.query, self.params)
        if self.cursor.description is None:
            raise ValueError(f"read_sql's query gives no rows (not a SELECT?): {self.query!r}")
        self.names = [column[0] for column in self.cursor.description]

    def __next__(self) -> dict[str, Any]:
        row = next(self.rows, None)
        if row is not None:
            self.position += 1
            return dict(zip(self.names, row, strict=True))
        if self.done:
            raise StopIteration
        if self.cursor is None:
            try:
                self._start()
            except BaseException:
                self.close()
                raise
        assert self.cursor is not None  # made by _start
        fetched = self.cursor.fetchmany(self.size)
        if not fetched:
            self.close()
            raise StopIteration
        self.size = min(self.size * 2, self.MOST)
        self.rows = iter(fetched)
        return next(self)

    def close(self) -> None:
        """Stop: close the cursor, and the connection if this source opened it."""
        self.done = True
        self.rows = iter(())
        cursor, self.cursor = self.cursor, None
        connection, self.connection = self.connection, None
        try:
            if cursor is not None:
                cursor.close()
        finally:
            if connection is not None:
                connection.close()

    def __del__(self) -> None:
        self.close()


def _file_uri(path: str) -> str:
    from pathlib import Path

    return Path(path).as_uri()
