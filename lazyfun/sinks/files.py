"""A writer, and the writers of text files: :class:`Writer`, what every sink's writer
is, and those of lines, JSON Lines and CSV (Parquet's are in :mod:`lazyfun.sinks.parquet`,
SQLite's in :mod:`lazyfun.sinks.sql`; the loops of :mod:`lazyfun.sinks.writers` feed
them all).

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
"""

from __future__ import annotations

import csv
import io
import os
from dataclasses import dataclass
from typing import Any, NoReturn

from lazyfun.sinks.columns import Columns, Misfit
from lazyfun.sinks.errors import RecordError
from lazyfun.sinks.paths import PathLike, Target
from lazyfun.sinks.resume import Progress

__all__ = ["BATCH", "CsvWriter", "JsonlWriter", "LinesWriter", "Resume", "Writer"]

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
