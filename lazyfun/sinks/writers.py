"""The sinks' writers, and the loops that feed them batches: :func:`drain` (a Stream's
terminals) and :func:`adrain` (an AsyncStream's, the writing on one thread of its own).

A writer takes records a batch at a time (``write``), each batch encoded at once
(msgspec's ``encode_lines``, one ``executemany``, one Parquet row group).  A batch
that fails to encode is tried a record at a time, the records before the culprit
are written, and the culprit is a :class:`RecordError` at its line (or row).
``close(failed)`` keeps what was written (flushed, committed), except that a sink
made with ``atomic=True`` leaves nothing behind when it failed.

>>> drain(JsonlWriter("out.jsonl"), [[{"n": 1}, {"n": 2}], [{"n": 3}]])
3
>>> import pathlib
>>> print(pathlib.Path("out.jsonl").read_text(), end="")
{"n":1}
{"n":2}
{"n":3}
"""

from __future__ import annotations

import asyncio
import csv
import io
import os
from collections.abc import AsyncIterator, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, NoReturn

from lazyfun.sinks.columns import Columns, Misfit
from lazyfun.sinks.errors import RecordError
from lazyfun.sinks.paths import PathLike, Target

if TYPE_CHECKING:
    import sqlite3

__all__ = [
    "CsvWriter",
    "JsonlWriter",
    "LinesWriter",
    "ParquetWriter",
    "SqlWriter",
    "Writer",
    "adrain",
    "drain",
]

BATCH = 1000  # records encoded and written at once by a file sink


class Writer:
    """Records written a batch at a time; ``written`` counts them."""

    batch = BATCH
    within: float | None = None
    unit = "line"
    what = "a record"

    def __init__(self, name: str) -> None:
        self.name = name
        self.written = 0

    def encode(self, records: list[Any]) -> Any:
        """The batch in the form ``put`` writes (raises for a record that does not fit)."""
        raise NotImplementedError

    def put(self, encoded: Any, count: int) -> None:
        """Write an encoded batch of ``count`` records."""
        raise NotImplementedError

    def close(self, failed: bool) -> None:
        """Flush and let go; keep what was written unless atomic and ``failed``."""
        raise NotImplementedError

    def place(self, index: int) -> int:
        """The line (or row) of the record ``index`` records into the output."""
        return index + 1

    def write(self, records: list[Any]) -> None:
        """Write ``records``; a record that does not fit is a RecordError at its place,
        after the records before it are written."""
        try:
            encoded = self.encode(records)
        except Exception as error:
            self._salvage(records, error)
        self.put(encoded, len(records))
        self.written += len(records)

    def _salvage(self, records: list[Any], error: Exception) -> NoReturn:
        for k, record in enumerate(records):
            try:
                self.encode([record])
            except Exception as culprit:
                if k:
                    self.put(self.encode(records[:k]), k)
                    self.written += k
                reason = str(culprit) if isinstance(culprit, Misfit) else f"{self.what}: {culprit}"
                where = self.place(self.written)
                raise RecordError(self.name, where, reason, unit=self.unit) from culprit
        raise error


class _FileWriter(Writer):
    def __init__(self, path: PathLike, atomic: bool) -> None:
        super().__init__(os.fspath(path))
        self.target = Target(path, atomic=atomic)
        self.file = self.target.file

    def put(self, encoded: bytes, count: int) -> None:
        self.file.write(encoded)

    def close(self, failed: bool) -> None:
        self.target.close(failed)


class LinesWriter(_FileWriter):
    """Strings, one a line (each followed by a newline), in ``encoding``."""

    what = "not a line"

    def __init__(self, path: PathLike, *, encoding: str = "utf-8", atomic: bool = False) -> None:
        "\n".encode(encoding)  # refuses an unknown encoding before opening
        super().__init__(path, atomic)
        self.encoding = encoding

    def encode(self, records: list[Any]) -> bytes:
        try:
            text = "\n".join(records)
        except TypeError:
            bad = next(record for record in records if not isinstance(record, str))
            raise TypeError(f"{type(bad).__name__} is not str") from None
        return (text + "\n").encode(self.encoding)


class JsonlWriter(_FileWriter):
    """Values as JSON, one a line (msgspec's encoder: dicts, lists, dataclasses, Structs, ...)."""

    what = "not JSON"

    def __init__(self, path: PathLike, *, atomic: bool = False) -> None:
        import msgspec

        super().__init__(path, atomic)
        self.encoder = msgspec.json.Encoder()

    def encode(self, records: list[Any]) -> bytes:
        lines: bytes = self.encoder.encode_lines(records)  # typed where msgspec is not (a build)
        return lines


class CsvWriter(_FileWriter):
    """Records as CSV rows under a header of the first record's field names (UTF-8)."""

    what = "not a CSV row"

    def __init__(self, path: PathLike, *, atomic: bool = False, **dialect: Any) -> None:
        self.text = io.StringIO()
        self.csv = csv.writer(self.text, **dialect)  # refuses a wrong dialect before opening
        super().__init__(path, atomic)
        self.columns: Columns | None = None
        self.headed = False

    def place(self, index: int) -> int:
        return index + 2  # under the header

    def _rendered(self, rows: list[tuple[Any, ...]]) -> bytes:
        text = self.text
        text.seek(0)
        text.truncate()
        self.csv.writerows(rows)
        return text.getvalue().encode()

    def encode(self, records: list[Any]) -> bytes:
        columns = self.columns or Columns(records[0])
        rows = columns.rows(records)
        self.columns = columns
        return self._rendered(rows)

    def put(self, encoded: bytes, count: int) -> None:
        if not self.headed:
            assert self.columns is not None
            self.file.write(self._rendered([self.columns.names]))
            self.headed = True
        self.file.write(encoded)


class ParquetWriter(_FileWriter):
    """Records as Parquet, each batch one row group; the column types are those pyarrow
    infers from the first batch."""

    unit = "row"
    what = "not a Parquet row"

    def __init__(self, path: PathLike, *, row_group: int, atomic: bool = False) -> None:
        import pyarrow.parquet

        self.batch = row_group
        self.parquet = pyarrow.parquet
        super().__init__(path, atomic)
        self.columns: Columns | None = None
        self.schema: Any = None
        self.writer: Any = None

    def encode(self, records: list[Any]) -> Any:
        import pyarrow as pa

        columns = self.columns or Columns(records[0])
        rows = columns.rows(records)
        values = list(zip(*rows, strict=True)) if rows else [() for _ in columns.names]
        if self.schema is None:
            arrays = [pa.array(column) for column in values]
            table = pa.Table.from_arrays(arrays, names=list(columns.names))
            self.schema = table.schema
        else:
            arrays = [
                pa.array(column, type=field.type)
                for column, field in zip(values, self.schema, strict=True)
            ]
            table = pa.Table.from_arrays(arrays, schema=self.schema)
        self.columns = columns
        return table

    def put(self, encoded: Any, count: int) -> None:
        if self.writer is None:
            self.writer = self.parquet.ParquetWriter(self.file, encoded.schema)
        self.writer.write_table(encoded, row_group_size=max(count, 1))

    def close(self, failed: bool) -> None:
        import pyarrow as pa

        try:
            if self.writer is None:
                self.writer = self.parquet.ParquetWriter(self.file, pa.schema([]))
            self.writer.close()
        finally:
            super().close(failed)


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _database_name(db: sqlite3.Connection) -> str:
    for _, schema, filename in db.execute("PRAGMA database_list"):
        if schema == "main":
            return str(filename) or ":memory:"
    return ":memory:"


class SqlWriter(Writer):
    """Records into a SQLite table (created from the first record's fields when it does
    not exist), each batch in one transaction (a savepoint), or all in one with ``atomic``."""

    unit = "row"
    what = "not a row"
    _SAVEPOINT = "lazyfun_to_sql"

    def __init__(
        self,
        db: PathLike | sqlite3.Connection,
        table: str,
        *,
        batch: int = BATCH,
        within: float | None = None,
        atomic: bool = False,
    ) -> None:
        import sqlite3

        self.owned = not isinstance(db, sqlite3.Connection)
        if isinstance(db, sqlite3.Connection):
            self.db = db
            super().__init__(_database_name(db))
        else:
            self.db = sqlite3.connect(os.fspath(db), isolation_level=None)
            super().__init__(os.fspath(db))
        self.table, self.batch, self.within, self.atomic = table, batch, within, atomic
        self.columns: Columns | None = None
        self.insert = ""
        if atomic:
            self.db.execute(f"SAVEPOINT {self._SAVEPOINT}")

    def encode(self, records: list[Any]) -> list[tuple[Any, ...]]:
        columns = self.columns or Columns(records[0])
        rows = columns.rows(records)
        self.columns = columns
        return rows

    def put(self, encoded: list[tuple[Any, ...]], count: int) -> None:
        import sqlite3

        db, columns = self.db, self.columns
        assert columns is not None
        if not self.insert:
            names = ", ".join(map(_quoted, columns.names))
            db.execute(f"CREATE TABLE IF NOT EXISTS {_quoted(self.table)} ({names})")
            places = ", ".join("?" * len(columns.names))
            self.insert = f"INSERT INTO {_quoted(self.table)} ({names}) VALUES ({places})"
        if not self.atomic:
            db.execute(f"SAVEPOINT {self._SAVEPOINT}")
        before = db.total_changes
        try:
            db.executemany(self.insert, encoded)
        except sqlite3.Error as error:
            done = db.total_changes - before  # the rows before the one that failed
            if not self.atomic:
                db.execute(f"RELEASE {self._SAVEPOINT}")
            self.written += done
            where = self.written + 1
            raise RecordError(
                self.name, where, f"table {self.table}: {error}", unit=self.unit
            ) from error
        if not self.atomic:
            db.execute(f"RELEASE {self._SAVEPOINT}")

    def close(self, failed: bool) -> None:
        try:
            if self.atomic:
                if failed:
                    self.db.execute(f"ROLLBACK TO {self._SAVEPOINT}")
                self.db.execute(f"RELEASE {self._SAVEPOINT}")
        finally:
            if self.owned:
                self.db.close()


def drain(writer: Writer, batches: Iterable[list[Any]]) -> int:
    """Write every batch, then close the writer; how many records were written.  When the
    batches (or the writer) raise, what came before is written and kept (unless the
    writer is atomic), the writer is closed, and the error propagates."""
    try:
        for records in batches:
            writer.write(records)
    except BaseException:
        writer.close(failed=True)
        raise
    writer.close(failed=False)
    return writer.written


async def adrain(open_writer: Callable[[], Writer], batches: AsyncIterator[list[Any]]) -> int:
    """:func:`drain` for an AsyncStream: the writer is made, fed and closed on one thread
    of its own, never in the event loop; the next batch is gathered while the last
    one is written.  ``batches`` is closed at the end."""
    loop = asyncio.get_running_loop()
    with ThreadPoolExecutor(1, thread_name_prefix="lazyfun-sink") as thread:
        try:
            writer = await loop.run_in_executor(thread, open_writer)
            writing: asyncio.Future[None] | None = None
            try:
                async for records in batches:
                    if writing is not None:
                        await writing
                    writing = loop.run_in_executor(thread, writer.write, records)
                if writing is not None:
                    await writing
            except BaseException:
                if writing is not None:
                    await asyncio.gather(writing, return_exceptions=True)
                await loop.run_in_executor(thread, writer.close, True)
                raise
            await loop.run_in_executor(thread, writer.close, False)
            return writer.written
        finally:
            close = getattr(batches, "aclose", None)
            if close is not None:
                await close()
