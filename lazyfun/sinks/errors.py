"""The one error of reading and writing records: :class:`RecordError`, with its place."""

from __future__ import annotations

__all__ = ["RecordError"]


class RecordError(ValueError):
    """A record that could not be read or written: ``path`` (the file, URL or database),
    ``line`` (counted from 1: the line where the record starts in a text file, the row
    in a table; None where the fault is the whole output, refused before a record is
    written), ``reason``; the original error is its ``__cause__``.  Raised at the
    record's place in the stream, so the records after it still come.

    >>> error = RecordError("data.jsonl", 3, "bad JSON: truncated")
    >>> str(error), error.line
    ('data.jsonl, line 3: bad JSON: truncated', 3)
    >>> str(RecordError("db.sqlite", 7, "no such column", unit="row"))
    'db.sqlite, row 7: no such column'
    >>> str(RecordError("out.jsonl", None, "not this job's output"))
    "out.jsonl: not this job's output"
    """

    def __init__(self, path: str, line: int | None, reason: str, *, unit: str = "line") -> None:
        where = path if line is None else f"{path}, {unit} {line}"
        super().__init__(f"{where}: {reason}")
        self.path, self.line, self.reason, self.unit = path, line, reason, unit

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuilt, (self.path, self.line, self.reason, self.unit))


def _rebuilt(path: str, line: int | None, reason: str, unit: str) -> RecordError:
    return RecordError(path, line, reason, unit=unit)
