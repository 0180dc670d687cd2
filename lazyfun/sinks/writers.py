"""The sinks' writers, and the loops that feed them batches: :func:`drain` (a Stream's
terminals) and :func:`adrain` (an AsyncStream's, the writing on one thread of its own).

A writer takes records a batch at a time (``write``), each batch encoded at once
(msgspec's ``encode_lines``, one ``executemany``, one Parquet row group).  In a batch
that fails to encode, the first record that does not fit is found by bisection, the
records before it are written, and it is a :class:`RecordError` at its line (or row).
``close(failed)`` keeps what was written (flushed, committed), except that a sink
made with ``atomic=True`` leaves nothing behind when it failed.

>>> writer = JsonlWriter("out.jsonl")
>>> writer.write([{"n": 1}, {"n": 2}])
>>> writer.write([{"n": 3}, 1j])
Traceback (most recent call last):
...
lazyfun.sinks.errors.RecordError: out.jsonl, line 4: not JSON: Encoding objects of type complex ...
>>> writer.close(failed=True)
>>> import pathlib
>>> print(pathlib.Path("out.jsonl").read_text(), end="")
{"n":1}
{"n":2}
{"n":3}

The loops, :func:`drain` and :func:`adrain`, write what reached the sink before an
error, an interrupt (Ctrl-C) or a cancellation goes on: the batch being written, and
the records gathered for the next one.
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import functools
import io
import json
import os
import shutil
import signal
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, NoReturn, Protocol, TypeVar

from lazyfun.sinks.columns import Columns, Misfit
from lazyfun.sinks.errors import RecordError
from lazyfun.sinks.paths import PathLike, Target, beside, synced
from lazyfun.sinks.resume import Marks, Progress, Resumable, durable, refuse_unrecorded

if TYPE_CHECKING:
    import sqlite3

__all__ = [
    "AsyncBatches",
    "Batches",
    "CsvWriter",
    "JsonlWriter",
    "LinesWriter",
    "ParquetParts",
    "ParquetWriter",
    "SqlWriter",
    "Writer",
    "adrain",
    "adrain_resumable",
    "drain",
]

T = TypeVar("T")

BATCH = 1000


@dataclass(frozen=True)
class Resume:
    """A file sink resuming a job: the bytes of the output to keep, the records they
    hold, and where the progress goes."""

    progress: Progress
    keep: int | None = None
    written: int = 0  # records encoded and written at once by a file sink


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
        """Write the records before the first that does not fit, and raise its RecordError.
        A prefix that holds a misfit fails to encode, so the first misfit is found by
        bisection: log2(batch) encodings of prefixes, not one a record."""
        fits, fails = 0, len(records)  # records[:fits] encode, records[:fails] do not
        culprit: Exception = error
        while fails - fits > 1:
            middle = (fits + fails) // 2
            try:
                self.encode(records[:middle])
            except Exception as failure:
                fails, culprit = middle, failure
            else:
                fits = middle
        if fits:
            self.put(self.encode(records[:fits]), fits)
            self.written += fits
        reason = str(culprit) if isinstance(culprit, Misfit) else f"{self.what}: {culprit}"
        where = self.place(self.written)
        raise RecordError(self.name, where, reason, unit=self.unit) from culprit


class _FileWriter(Writer):
    whole = False  # a format that is whole or useless: written beside, renamed at the end

    def __init__(self, path: PathLike, atomic: bool, resume: Resume | None = None) -> None:
        super().__init__(os.fspath(path))
        self.resume = resume
        keep = None if resume is None else resume.keep
        self.target = Target(path, atomic=atomic, keep=keep, whole=self.whole)
        self.file = self.target.file

    def put(self, encoded: bytes, count: int) -> None:
        self.file.write(encoded)

    def begin(self) -> None:
        self.before = self.written

    def commit(self, position: int, done: bool, mark: dict[str, Any] | None = None) -> None:
        """The batch made durable (flushed, fsynced), then the progress beside it (with
        ``mark``, where the source stood)."""
        assert self.resume is not None
        self.file.flush()
        os.fsync(self.file.fileno())
        written = self.resume.written + self.written
        self.resume.progress.save(
            size=self.file.tell(), position=position, written=written, done=done, mark=mark
        )

    def abort(self) -> None:
        self.written = self.before  # the next run cuts the file back and writes them again

    def close(self, failed: bool) -> None:
        self.target.close(failed)


class LinesWriter(_FileWriter):
    """Strings, one a line (each followed by a newline), in ``encoding``."""

    what = "not a line"

    def __init__(
        self,
        path: PathLike,
        *,
        encoding: str = "utf-8",
        atomic: bool = False,
        resume: Resume | None = None,
    ) -> None:
        "\n".encode(encoding)  # refuses an unknown encoding before opening
        super().__init__(path, atomic, resume)
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

    def __init__(
        self, path: PathLike, *, atomic: bool = False, resume: Resume | None = None
    ) -> None:
        import msgspec

        super().__init__(path, atomic, resume)
        self.encoder = msgspec.json.Encoder()

    def encode(self, records: list[Any]) -> bytes:
        lines: bytes = self.encoder.encode_lines(records)  # typed where msgspec is not (a build)
        return lines


class CsvWriter(_FileWriter):
    """Records as CSV rows under a header of the first record's field names (UTF-8)."""

    what = "not a CSV row"

    def __init__(
        self, path: PathLike, *, atomic: bool = False, resume: Resume | None = None, **dialect: Any
    ) -> None:
        self.text = io.StringIO()
        self.csv = csv.writer(self.text, **dialect)  # refuses a wrong dialect before opening
        super().__init__(path, atomic, resume)
        self.columns: Columns | None = None
        self.headed = bool(resume and resume.keep)  # a resumed file has its header

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
    """Records as Parquet, each batch one row group.  A column's type is what pyarrow
    infers from the values so far; a later value that needs a wider type widens the
    column (null to any type, an integer to a float, a struct to one with more fields:
    pyarrow's permissive promotion), the row groups already written rewritten one at a
    time with the wider type.  Nothing is ever cast to a narrower type: a value no type
    of the column holds (a string among integers, an integer a float cannot hold
    exactly), or one that needs a wider type where the file cannot be rewritten
    (standard output, a URL, a compressed file), is a RecordError at its row."""

    unit = "row"
    what = "not a Parquet row"
    whole = True

    def __init__(self, path: PathLike, *, row_group: int, atomic: bool = False) -> None:
        import pyarrow as pa
        import pyarrow.parquet

        self.arrow_invalid = pa.ArrowInvalid
        self.batch = row_group
        self.parquet = pyarrow.parquet
        super().__init__(path, atomic)
        self.columns: Columns | None = None
        self.schema: Any = None
        self.writer: Any = None
        self.widened: IO[bytes] | None = None  # the rewritten file, once a column widened
        self.sealed = False

    def encode(self, records: list[Any]) -> Any:
        import pyarrow as pa

        columns = self.columns or Columns(records[0])
        rows = columns.rows(records)
        values = list(zip(*rows, strict=True)) if rows else [() for _ in columns.names]
        arrays = [pa.array(column) for column in values]
        table = pa.Table.from_arrays(arrays, names=list(columns.names))
        self.columns = columns
        if self.schema is None or table.schema == self.schema:
            return table
        schema = self._wider(table.schema)
        return table.cast(schema)  # safe: refuses a value the type cannot hold exactly

    def _wider(self, batch: Any) -> Any:
        """The schema that holds the rows written and ``batch``'s: the written one where it
        holds both, else a wider one (Misfit where there is none, or the file cannot be
        rewritten to it)."""
        import pyarrow as pa

        try:
            schema = pa.unify_schemas([self.schema, batch], promote_options="permissive")
        except (pa.ArrowTypeError, pa.ArrowInvalid):
            schema = None
        if schema is None or (schema != self.schema and not self._rewritable()):
            changed = "; ".join(
                f"column {field.name} is {field.type}, the rows before "
                f"{self.schema.field(field.name).type}"
                for field in batch
                if field.type != self.schema.field(field.name).type
            )
            why = (
                "no type holds both"
                if schema is None
                else f"{self.name} cannot be rewritten to widen it (standard output, a URL "
                "or a compressed file)"
            )
            raise Misfit(f"{changed}: {why}")
        return schema

    def _rewritable(self) -> bool:
        """Whether the rows written can be rewritten with a wider type."""
        return self.target.plain is not None

    def put(self, encoded: Any, count: int) -> None:
        if self.sealed:
            raise RecordError(
                self.name,
                self.place(self.written),
                "the file was closed by a widening that failed: nothing more is written",
                unit=self.unit,
            )
        if self.writer is None:
            self.schema = encoded.schema
            self.writer = self.parquet.ParquetWriter(self.file, encoded.schema)
        elif encoded.schema != self.schema:
            self._widen(encoded.schema)
        self.writer.write_table(encoded, row_group_size=max(count, 1))

    def _widen(self, schema: Any) -> None:
        """Rewrite the row groups written so far with the wider ``schema``, one at a time,
        to a file beside the output that then takes its place; writing goes on there."""
        path = self.target.plain
        assert path is not None  # checked by _wider
        self.writer.close()
        self.writer = None
        (self.widened or self.file).flush()
        self.sealed = True  # until the rewrite is done: no row group after a footer
        fresh = beside(self.name, "widen")  # beside the target: swept if left
        written = self.parquet.ParquetFile(path)
        file = open(fresh, "wb")  # noqa: SIM115  (closed by close())
        writer = None
        try:
            writer = self.parquet.ParquetWriter(file, schema)
            for group in range(written.num_row_groups):
                rows = written.read_row_group(group).cast(schema)
                writer.write_table(rows, row_group_size=max(rows.num_rows, 1))
            os.replace(fresh, path)
        except BaseException as error:
            written.close()
            if writer is not None:
                writer.close()
            file.close()
            os.unlink(fresh)
            if not isinstance(error, self.arrow_invalid):
                raise
            reason = f"widening the columns to {schema} would change a row before: {error}"
            raise RecordError(
                self.name, self.place(self.written), reason, unit=self.unit
            ) from error
        written.close()
        if self.widened is not None:
            self.widened.close()
        self.widened, self.writer, self.schema = file, writer, schema
        self.sealed = False

    def close(self, failed: bool) -> None:
        import pyarrow as pa

        try:
            if self.schema is None:  # nothing written: a file of no columns
                self.writer = self.parquet.ParquetWriter(self.file, pa.schema([]))
            if self.writer is not None:
                self.writer.close()
            if self.widened is not None:
                self.widened.close()
        except BaseException:
            self.target.abandon()  # no footer: never renamed over the target
            raise
        super().close(failed)


class ParquetParts(ParquetWriter):
    """``to_parquet(resume=True)``: each batch one row group in a Parquet file of its own,
    ``PATH.parts/00000000.parquet`` and on (written beside, fsynced, renamed), named by
    the progress beside the output once the batch is committed: what is committed is
    what a reader of the folder sees.  When the job ends the parts are copied, row
    group by row group (cast to the widest type each column took), into a file beside
    ``PATH`` renamed over it; the progress says the job ended and the folder goes.  Made
    for a resumed job, the parts past the ``parts`` its progress names (a run killed
    between a part and its progress) are removed.

    >>> progress = Progress("parts.parquet", "a job")
    >>> writer = ParquetParts("parts.parquet", row_group=2, resume=Resume(progress), parts=0)
    >>> writer.begin(); writer.write([{"n": 1}, {"n": 2}]); writer.commit(2, False)
    >>> sorted(os.listdir("parts.parquet.parts"))
    ['00000000.parquet']
    >>> writer.begin(); writer.write([{"n": 3}]); writer.commit(3, True)
    >>> import pyarrow.parquet as pq
    >>> pq.read_table("parts.parquet").column("n").to_pylist()
    [1, 2, 3]
    >>> os.path.exists("parts.parquet.parts")
    False
    """

    def __init__(self, path: PathLike, *, row_group: int, resume: Resume, parts: int) -> None:
        import pyarrow as pa
        import pyarrow.parquet

        Writer.__init__(self, os.fspath(path))
        self.arrow_invalid = pa.ArrowInvalid
        self.batch = row_group
        self.parquet = pyarrow.parquet
        self.resume = resume
        self.folder = parts_of(self.name)
        self.columns: Columns | None = None
        self.sealed = False
        self.count = self.first = parts
        os.makedirs(self.folder, exist_ok=True)
        self._remove_from(parts)
        schemas = [self.parquet.read_schema(self._part(index)) for index in range(parts)]
        self.schema = pa.unify_schemas(schemas, promote_options="permissive") if schemas else None

    def _part(self, index: int) -> str:
        return os.path.join(self.folder, f"{index:08d}.parquet")

    def _remove_from(self, first: int) -> None:
        """Remove the parts from ``first`` on (and a killed writer's temporary files)."""
        for entry in os.listdir(self.folder):
            stem = entry.split(".", 1)[0]
            if entry.startswith(".") or (stem.isdigit() and int(stem) >= first):
                os.unlink(os.path.join(self.folder, entry))

    def _rewritable(self) -> bool:
        return True  # the parts are cast to the wider type when they are copied

    def _wider(self, batch: Any) -> Any:
        if batch.names != self.schema.names:
            raise Misfit(
                f"fields ({', '.join(batch.names)}) differ from the rows before "
                f"({', '.join(self.schema.names)})"
            )
        return super()._wider(batch)

    def put(self, encoded: Any, count: int) -> None:
        part = self._part(self.count)
        fresh = beside(part)
        with open(fresh, "wb") as file:
            self.parquet.write_table(encoded, file, row_group_size=max(count, 1))
            file.flush()
            os.fsync(file.fileno())
        os.replace(fresh, part)
        self.schema = encoded.schema
        self.count += 1

    def begin(self) -> None:
        self.before, self.first = self.written, self.count

    def commit(self, position: int, done: bool, mark: dict[str, Any] | None = None) -> None:
        """The batch's parts named by the progress; at the end, the output made whole."""
        assert self.resume is not None
        synced(self.folder)
        written = self.resume.written + self.written
        progress = self.resume.progress
        state = {"parts": self.count, "position": position, "written": written, "mark": mark}
        progress.save(done=False, **state)
        if done:
            self._whole()
            progress.save(done=True, **state)
            shutil.rmtree(self.folder, ignore_errors=True)

    def _whole(self) -> None:
        """The parts, row group by row group, into the output (beside it, then renamed)."""
        import pyarrow as pa

        schema = self.schema if self.schema is not None else pa.schema([])
        target = Target(self.name, whole=True)
        try:
            writer = self.parquet.ParquetWriter(target.file, schema)
            for index in range(self.count):
                rows = self.parquet.read_table(self._part(index))
                try:
                    rows = rows.cast(schema)
                except self.arrow_invalid as error:
                    reason = f"widening the columns to {schema} would change a row before"
                    raise RecordError(self.name, None, f"{reason}: {error}") from error
                writer.write_table(rows, row_group_size=max(rows.num_rows, 1))
            writer.close()
        except BaseException:
            target.abandon()
            raise
        target.close(failed=False)

    def abort(self) -> None:
        """Undo the batch: its parts go (the next run writes it again)."""
        self._remove_from(self.first)
        self.count, self.written = self.first, self.before

    def close(self, failed: bool) -> None:
        """Nothing to close: every part is whole, the committed ones named."""


def parts_of(path: str) -> str:
    """The folder of a resumable Parquet job's committed parts: ``PATH.parts``."""
    return path + ".parts"


def count_parts(path: str) -> int:
    """How many parts of ``path``'s job are in its folder (none: no folder)."""
    folder = parts_of(path)
    if not os.path.isdir(folder):
        return 0
    return sum(1 for entry in os.listdir(folder) if entry.split(".", 1)[0].isdigit())


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
        self.before = 0
        if atomic:
            self.db.execute(f"SAVEPOINT {self._SAVEPOINT}")

    _PROGRESS = "lazyfun_progress"

    job = ""  # the resumed job (:func:`~lazyfun.sinks.resume.job_of`) its progress rows name

    def _exists(self, table: str) -> bool:
        found = self.db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
        ).fetchone()
        return found is not None

    def _marked(self) -> bool:
        """Whether the progress table has its ``mark`` column (a table an earlier release
        made has not)."""
        columns = self.db.execute(f"PRAGMA table_info({self._PROGRESS})").fetchall()
        return any(column[1] == "mark" for column in columns)

    def progress(self, job: str) -> dict[str, Any] | None:
        """The ``position``, whether ``job`` ended (``done``) and where the source stood
        (``mark``), as the last committed batch of this table said; None where there is
        nothing to go on from (no record, and no rows in the table); refused (a
        RecordError naming the table) where the table holds rows no record says this
        job wrote: no progress row for it, or one naming another job."""
        self.job = job
        row = None
        if self._exists(self._PROGRESS):
            marked = "mark" if self._marked() else "NULL"
            row = self.db.execute(
                f"SELECT position, done, job, {marked} FROM {self._PROGRESS} WHERE sink = ?",
                (self.table,),
            ).fetchone()
        where = f"{self.name}, table {self.table}"
        if row is None:
            held = (
                self._exists(self.table)
                and self.db.execute(f"SELECT 1 FROM {_quoted(self.table)} LIMIT 1").fetchone()
            )
            if held:
                raise refuse_unrecorded(where, "rows", f"no {self._PROGRESS} row for it")
            return None
        if row[2] != job:
            named_job = "no job" if row[2] is None else repr(row[2])
            raise refuse_unrecorded(
                where, "rows", f"its {self._PROGRESS} row naming {named_job}, not {job!r}"
            )
        mark = None if row[3] is None else json.loads(row[3])
        return {"position": int(row[0]), "done": bool(row[1]), "mark": mark}

    def begin(self) -> None:
        self.before = self.written
        self.db.execute("SAVEPOINT lazyfun_resume")

    def commit(self, position: int, done: bool, mark: dict[str, Any] | None = None) -> None:
        """The batch's progress row (with ``mark``, where the source stood, as JSON), in
        the batch's transaction, which ends here."""
        self.db.execute(
            f"CREATE TABLE IF NOT EXISTS {self._PROGRESS} "
            "(sink TEXT PRIMARY KEY, position INTEGER, done INTEGER, job TEXT, mark TEXT)"
        )
        if not self._marked():
            self.db.execute(f"ALTER TABLE {self._PROGRESS} ADD COLUMN mark TEXT")
        self.db.execute(
            f"INSERT OR REPLACE INTO {self._PROGRESS} (sink, position, done, job, mark) "
            "VALUES (?, ?, ?, ?, ?)",
            (self.table, position, int(done), self.job, None if mark is None else json.dumps(mark)),
        )
        self.db.execute("RELEASE lazyfun_resume")

    def abort(self) -> None:
        """Undo the batch (its rows and progress): the next run writes it again."""
        self.db.execute("ROLLBACK TO lazyfun_resume")
        self.db.execute("RELEASE lazyfun_resume")
        self.written = self.before

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
        except BaseException:  # an interrupt: the rows in keep, the transaction ends
            if not self.atomic:
                db.execute(f"RELEASE {self._SAVEPOINT}")
            self.written += db.total_changes - before
            raise
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


class Batches(Protocol):
    """Lists of records, and the records gathered for the next list so far (handed over
    by ``leftover`` when an interrupt or an error stops the reading)."""

    def __iter__(self) -> Iterator[list[Any]]: ...

    def __next__(self) -> list[Any]: ...

    def leftover(self) -> list[Any]: ...


class AsyncBatches(Protocol):
    """:class:`Batches` read with ``async for``."""

    def __aiter__(self) -> AsyncIterator[list[Any]]: ...

    async def __anext__(self) -> list[Any]: ...

    def leftover(self) -> list[Any]: ...


def _close_failed(
    writer: Writer, leftover: list[Any], stop: BaseException, before: Future[None] | None = None
) -> None:
    """Close ``writer`` after ``stop``, first writing ``leftover`` (the records that had
    reached the sink) unless the batch written ``before`` failed.  What cannot be written
    is said on ``stop``, which goes on."""
    try:
        failed = before.exception() if before is not None else None
        if failed is not None and failed is not stop:
            stop.add_note(f"the sink's last batch failed too: {failed!r}")
        elif leftover:
            writer.write(leftover)
    except Exception as late:
        stop.add_note(f"{len(leftover)} records held by the sink were not all written: {late!r}")
    finally:
        writer.close(failed=True)


def _held(batches: Batches | AsyncBatches, stop: BaseException, from_source: bool) -> list[Any]:
    """The records ``batches`` gathered and not yet handed over, to be written after
    ``stop``: after an error of the source or an interrupt (Ctrl-C, a cancellation,
    whatever the sink was doing), not after the writer's own error."""
    return batches.leftover() if from_source or not isinstance(stop, Exception) else []


def drain(writer: Writer, batches: Batches) -> int:
    """Write every batch, then close the writer; how many records were written.  When the
    batches (or the writer) raise, what came before is written and kept (unless the
    writer is atomic), the writer is closed, and the error propagates; an interrupt
    (``KeyboardInterrupt``, ``SystemExit``) first writes the records gathered for the
    next batch too: what reached the sink is written."""
    from_source = True
    records: list[Any] = []
    before = 0
    try:
        for records in batches:
            from_source, before = False, writer.written
            with _interrupts_after():
                writer.write(records)
            from_source = True
    except BaseException as stop:
        leftover = _held(batches, stop, from_source)
        if not from_source and not isinstance(stop, Exception):  # interrupted in the write:
            leftover = records[writer.written - before :] + leftover  # its rest too
        _close_failed(writer, leftover, stop)
        raise
    writer.close(failed=False)
    return writer.written


@contextlib.contextmanager
def _interrupts_after() -> Iterator[None]:
    """Ctrl-C (SIGINT) that comes while a batch is written is handled once it is written
    and counted, so the batch is neither cut nor written twice (in the main thread, where
    Python handles signals; elsewhere there is nothing to hold)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    if not callable(previous):  # ignored, or the default of a process that set it so
        yield
        return
    came: list[tuple[int, Any]] = []
    signal.signal(signal.SIGINT, lambda number, frame: came.append((number, frame)))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        for number, frame in came[:1]:
            previous(number, frame)


async def adrain(open_writer: Callable[[], Writer], batches: AsyncBatches) -> int:
    """:func:`drain` for an AsyncStream: the writer is made, fed and closed on one thread
    of its own, never in the event loop; the next batch is gathered while the last
    one is written.  A cancellation (a timeout, a task cancelled) writes what reached
    the sink, the batch being written and the records gathered for the next, before it
    goes on; a second cancellation does not cut that short.  ``batches`` is closed at
    the end."""
    with ThreadPoolExecutor(1, thread_name_prefix="lazyfun-sink") as thread:
        try:
            writer = await _opened(thread, open_writer)
            pending: Future[None] | None = None
            from_source = True
            taken: list[Any] = []  # a batch taken from the source while the last is written
            try:
                async for records in batches:
                    taken = records
                    if pending is not None:
                        from_source = False
                        await _waited(pending)
                        from_source = True
                    pending, taken = thread.submit(writer.write, records), []
                if pending is not None:
                    from_source = False
                    await _waited(pending)
            except BaseException as stop:
                leftover = _held(batches, stop, from_source)
                if not isinstance(stop, Exception):  # cancelled while the last was written
                    leftover = taken + leftover
                # on the writer's thread, after the batch in hand: the executor's exit
                # waits for it even if this wait is cancelled again
                await _waited(thread.submit(_close_failed, writer, leftover, stop, pending))
                raise
            await _on(thread, functools.partial(writer.close, False))
            return writer.written
        finally:
            await _aclosed(batches)


async def adrain_resumable(
    open_writer: Callable[[], Resumable],
    items: AsyncIterator[Any],
    position: Callable[[], int],
    marks: Marks,
) -> int:
    """:func:`~lazyfun.sinks.resume.drain_resumable` for an AsyncStream: the writer made,
    fed, made durable and closed on one thread of its own, never in the event loop.  An
    error, an interrupt or a cancellation first makes what reached the sink durable with
    its position (the batch being made durable finishes first; a second cancellation
    does not cut that short).  ``items`` is closed at the end."""
    with ThreadPoolExecutor(1, thread_name_prefix="lazyfun-sink") as thread:
        try:
            writer = await _opened(thread, open_writer)
            try:
                gathered: list[Any] = []
                mark = position()
                while True:
                    try:
                        item = await anext(items)
                    except StopAsyncIteration:
                        mark = position()  # what was caught or filtered after the last
                        break
                    except BaseException:
                        await _on(thread, functools.partial(durable, writer, gathered, mark, marks))
                        raise
                    gathered.append(item)
                    mark = position()
                    if len(gathered) >= writer.batch:
                        batch, gathered = gathered, []
                        await _on(thread, functools.partial(durable, writer, batch, mark, marks))
                await _on(thread, functools.partial(durable, writer, gathered, mark, marks, True))
            except BaseException:
                await _on(thread, functools.partial(writer.close, True))
                raise
            await _on(thread, functools.partial(writer.close, False))
            return writer.written
        finally:
            await _aclosed(items)


async def _aclosed(items: object) -> None:
    """Close an async iterator that has ``aclose``."""
    close = getattr(items, "aclose", None)
    if close is not None:
        await close()


async def _opened(thread: ThreadPoolExecutor, open_writer: Callable[[], T]) -> T:
    """The writer ``open_writer`` opens on the sink's ``thread``; cancelled while it
    opens, what it opens is closed (as failed) once it is open."""
    opening = thread.submit(open_writer)
    try:
        return await _waited(opening)
    except BaseException:
        opening.add_done_callback(_close_opened)
        raise


def _close_opened(opening: Future[Any]) -> None:
    """Close, as failed, the writer an abandoned open made."""
    if not opening.cancelled() and opening.exception() is None:
        opening.result().close(failed=True)


def _on(thread: ThreadPoolExecutor, call: Callable[[], T]) -> Awaitable[T]:
    return _waited(thread.submit(call))


async def _waited(future: Future[T]) -> T:
    """The result of ``future``, running on the sink's thread; a cancellation of the wait
    leaves the work to finish (a batch is written whole or fails on its own)."""
    return await asyncio.shield(asyncio.wrap_future(future))
