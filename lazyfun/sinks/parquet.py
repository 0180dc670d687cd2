"""The Parquet sink's writers: :class:`ParquetWriter`, each batch a row group of one file
whose columns widen as the values need, and :class:`ParquetParts`, a resumable job's
batches each a file of its own until the job ends and they are copied into one.
"""

from __future__ import annotations

import operator
import os
import shutil
from collections.abc import Callable
from itertools import repeat
from typing import IO, Any

from lazyfun.compiled import PURE_ENV
from lazyfun.sinks.columns import Columns, Misfit
from lazyfun.sinks.errors import RecordError
from lazyfun.sinks.files import Resume, Writer, _FileWriter
from lazyfun.sinks.paths import PathLike, Target, beside, synced

try:  # the C engine of a batch's columns as Arrow buffers, beside _values and pyarrow.array
    from lazyfun.sinks import _arrow
except ImportError:  # built without a C compiler
    BUFFERS = None
else:
    BUFFERS = None if os.environ.get(PURE_ENV) else _arrow.columns

__all__ = ["ParquetParts", "ParquetWriter", "count_parts", "parts_of"]

SLICE = 1024  # records a batch's columns are read from at a time: few enough to stay in
# the cache while each column takes its value from each (a batch of 10,000 does not)


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
        arrays = _arrays(columns, records)
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
            dictionary: Any = _repeating(encoded)  # the stubs want a bool; a list names columns
            self.writer = self.parquet.ParquetWriter(
                self.file, encoded.schema, use_dictionary=dictionary
            )
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

    >>> from lazyfun.sinks.resume import Progress
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


def _arrays(columns: Columns, records: list[Any]) -> list[Any]:
    """pyarrow's arrays of ``records``' columns, each as ``pyarrow.array`` infers it from
    the column's values: where the C engine can (records alike, a column of ints, floats,
    bools, strings or bytes and None), the array made straight from the buffers it
    fills; else from a list of the values (:func:`_values`).  (pyarrow's conversion of a
    list imports pandas, 0.45 s, which a job whose columns are all built never pays.)"""
    import pyarrow as pa

    built = None if BUFFERS is None else BUFFERS(records, columns.kind, columns.names)
    if built is None:
        return [pa.array(column) for column in _values(columns, records)]
    get = operator.itemgetter if issubclass(columns.kind, dict) else operator.attrgetter
    return [
        pa.array(list(map(get(name), records))) if entry is None else _buffered(entry, len(records))
        for name, entry in zip(columns.names, built, strict=True)
    ]


def _buffered(entry: tuple[str, int, bytes | None, bytes | None, bytes], rows: int) -> Any:
    """The array of a column the C engine built: ``(code, nulls, validity, offsets,
    data)``, its Arrow type by its code."""
    import pyarrow as pa

    code, nulls, validity, offsets, data = entry
    kind = {"i": pa.int64, "f": pa.float64, "b": pa.bool_, "s": pa.string, "y": pa.binary}[code]
    buffers = [None if validity is None else pa.py_buffer(validity)]
    if offsets is not None:
        buffers.append(pa.py_buffer(offsets))
    buffers.append(pa.py_buffer(data))
    return pa.Array.from_buffers(kind(), rows, buffers, null_count=nulls)


def _values(columns: Columns, records: list[Any]) -> list[list[Any]]:
    """The values of ``records``, a list a column, read a column at a time (in C, no row
    made); Misfit at the first record whose fields are not the columns, as
    :meth:`Columns.rows` finds it, where the records are not all alike."""
    names = columns.names
    if issubclass(columns.kind, dict):
        try:
            values = _gathered(list(map(operator.itemgetter, names)), records)
        except (KeyError, TypeError):
            pass
        else:  # every name found and no other key: the same fields
            if all(map(operator.eq, map(len, records), repeat(len(names)))):
                return values
    elif all(map(operator.is_, map(type, records), repeat(columns.kind))):
        return _gathered(list(map(operator.attrgetter, names)), records)
    rows = columns.rows(records)
    return [list(column) for column in zip(*rows, strict=True)] if rows else [[] for _ in names]


def _repeating(table: Any) -> bool | list[str]:
    """The columns of ``table``, a first batch, that a dictionary would shorten: those
    holding at most half as many distinct values as rows.  pyarrow's default tries one on
    every column and gives it up once it is large, which a column of values mostly
    unique (times, ids, amounts) pays for at every row group: half of a write's time.
    All of them (the default) where a column is nested or of nulls, whose values are
    not counted; a column of a type pyarrow does not count keeps its dictionary.

    >>> import pyarrow as pa
    >>> _repeating(pa.table({"kind": ["a", "b", "a", "a"], "n": [1, 2, 3, 4]}))
    ['kind']
    """
    import pyarrow as pa
    import pyarrow.compute

    pc: Any = pyarrow.compute  # whose functions are made at import: no stub names them
    if any(pa.types.is_nested(t) or pa.types.is_null(t) for t in table.schema.types):
        return True
    rows = table.num_rows
    return [
        name
        for name, column in zip(table.column_names, table.columns, strict=True)
        if _distinct(pc, column, rows) <= rows // 2
    ]


def _distinct(pc: Any, column: Any, rows: int) -> int:
    """How many distinct values ``column`` holds; none (a dictionary, as by default)
    for a type pyarrow does not count (a column already of a dictionary type)."""
    import pyarrow as pa

    try:
        found: int = pc.count_distinct(column, mode="all").as_py()
    except pa.ArrowNotImplementedError:
        return 0
    return found


def _gathered(getters: list[Callable[[Any], Any]], records: list[Any]) -> list[list[Any]]:
    """A column of ``records`` for each getter, as :func:`_gathered_reference` gives
    them, read :data:`SLICE` records at a time (each column in C): a record read for
    its first column is still in the cache for the others (a batch read whole, column
    after column, is read from memory once a column: 345 ms against 215 ms for 400,000
    records in sorted order, scattered in memory)."""
    columns: list[list[Any]] = [[] for _ in getters]
    for start in range(0, len(records), SLICE):
        part = records[start : start + SLICE]
        for column, getter in zip(columns, getters, strict=True):
            column.extend(map(getter, part))
    return columns


def _gathered_reference(getters: list[Callable[[Any], Any]], records: list[Any]) -> list[list[Any]]:
    """:func:`_gathered`, plainly: each column read from the whole batch in turn."""
    return [list(map(getter, records)) for getter in getters]


def parts_of(path: str) -> str:
    """The folder of a resumable Parquet job's committed parts: ``PATH.parts``."""
    return path + ".parts"


def count_parts(path: str) -> int:
    """How many parts of ``path``'s job are in its folder (none: no folder)."""
    folder = parts_of(path)
    if not os.path.isdir(folder):
        return 0
    return sum(1 for entry in os.listdir(folder) if entry.split(".", 1)[0].isdigit())
