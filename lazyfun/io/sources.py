"""The sources' iterators: each a resumable, closable class (not a generator), so a
record that fails is a :class:`~lazyfun.sinks.errors.RecordError` at its place and
the next ``next()`` gives the record after it.

A source opens nothing until its first ``next()``; it reads the files a path names
one after another, each opened when reached and closed when done; at its end, on
``close()``, or when a ``take`` right below it has enough, it closes what it
opened (a connection you passed in stays open).

>>> with open("two.txt", "w") as file:
...     _ = file.write("one\\ntwo\\n")
>>> lines = Lines("two.txt", "utf-8")
>>> next(lines)
'one'
>>> lines.close()
>>> next(lines)
Traceback (most recent call last):
...
StopIteration
"""

from __future__ import annotations

import codecs
import csv
import operator
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, suppress
from itertools import repeat
from types import GenericAlias
from typing import IO, TYPE_CHECKING, Any, TypeVar

from lazyfun.compiled import PURE_ENV
from lazyfun.parallel.window import Holding
from lazyfun.sinks.errors import RecordError
from lazyfun.sinks.paths import COMPRESSED, PathLike, expand, is_url, open_read

__all__ = ["Csv", "FileSource", "Jsonl", "Lines"]

T = TypeVar("T")

BOM = codecs.BOM_UTF8

_NO_LINES: Iterator[bytes] = iter(())


class FileSource(Holding[T]):
    """Records from the files ``path`` names (a glob expanded at the first read), one
    file after another; ``name`` and ``line`` say where the reading is."""

    def __init__(self, path: PathLike) -> None:
        self.path = path
        self.names: Iterator[str] | None = None
        self.opened: ExitStack | None = None
        self.lines: Iterator[bytes] = _NO_LINES
        self.name = os.fspath(path)
        self.line = 0
        self.done = False
        self.position = 0  # records given, a RecordError counted as one
        self.index = -1  # the place of the file being read among the path's files
        self.file: IO[bytes] | None = None  # the file being read, as opened

    made_by = "read"  # the function of lazyfun.io that makes it

    @property
    def plan(self) -> str:
        """How a Stream's ``explain`` names this source: ``read_jsonl('s.jsonl')``."""
        return f"{self.made_by}({self.name!r})"

    def _counted(self, read: Callable[[], T]) -> T:
        """``read()``, the record it gives (or the RecordError it raises) counted."""
        try:
            record = read()
        except RecordError:
            self.position += 1
            raise
        self.position += 1
        return record

    def skip(self, n: int) -> None:
        """Read past the first ``n`` records (a RecordError counts as one): where a job
        resumed goes on from."""
        while self.position < n:
            try:
                next(self)
            except StopIteration:
                return
            except RecordError:
                continue

    def mark(self) -> dict[str, Any] | None:
        """Where the reading stands, after the ``position`` records given so far, for a
        resumed job to go on from without reading them again (:meth:`resume`): the file
        (its absolute path and its place among the path's files), the line and the byte
        offset after the last record.  None where the file being read cannot be sought
        (standard input, a URL, a compressed file) or none is open.

        >>> with open("marked.txt", "w") as file:
        ...     _ = file.write("one\\ntwo\\n")
        >>> lines = Lines("marked.txt", "utf-8")
        >>> next(lines), lines.mark()["offset"], lines.mark()["line"]
        ('one', 4, 1)
        >>> lines.close()
        """
        file = self.file
        name = self.name
        if file is None or name == "-" or is_url(name) or name.endswith(COMPRESSED):
            return None
        return {
            "position": self.position,
            "file": os.path.abspath(name),
            "index": self.index,
            "line": self.line,
            "offset": file.tell(),
        }

    def resume(self, mark: dict[str, Any] | None, n: int) -> None:
        """Go on after the first ``n`` records (a RecordError counts as one): from
        ``mark``, a :meth:`mark` taken at ``n`` records or before, by seeking to its byte
        offset (nothing before it read again), then reading through to ``n``; where the
        mark does not hold (none, one past ``n``, or its file is no longer at its place
        among the path's files, or shorter than the offset), by reading through from the
        start (:meth:`skip`)."""
        if mark is not None and mark["position"] <= n and self.names is None:
            self._seek(mark)
        self.skip(n)

    def _seek(self, mark: dict[str, Any]) -> None:
        try:
            names = expand(self.path)
        except FileNotFoundError:
            return
        index, offset = mark["index"], mark["offset"]
        if not 0 <= index < len(names):
            return
        name = names[index]
        if os.path.abspath(name) != mark["file"] or os.path.getsize(name) < offset:
            return
        file, opened = open_read(name)
        try:
            file.seek(offset)
            self._sought(file, mark)
        except BaseException:
            opened.close()
            raise
        self.names, self.index, self.opened, self.file = (
            iter(names[index + 1 :]),
            index,
            opened,
            file,
        )
        self.name, self.line, self.position = name, mark["line"], mark["position"]

    def _sought(self, file: IO[bytes], mark: dict[str, Any]) -> None:
        """Read on from ``file``, sought to ``mark``'s offset."""
        self.lines = self._lines_of(file)

    def _advance(self) -> IO[bytes] | None:
        """Close the file being read and open the next; None when there is none."""
        self._close_file()
        if self.done:
            return None
        if self.names is None:
            self.names = iter(expand(self.path))
        name = next(self.names, None)
        if name is None:
            self.done = True
            return None
        file, self.opened = open_read(name)
        self.name, self.line, self.file = name, 0, file
        self.index += 1
        return file

    def _next_line(self) -> bytes | None:
        """The next raw line (with its newline) of the files, counted; None at the end."""
        while True:
            line = next(self.lines, None)
            if line is not None:
                self.line += 1
                return line
            file = self._advance()
            if file is None:
                return None
            self.lines = self._lines_of(file)

    def _lines_of(self, file: IO[bytes]) -> Iterator[bytes]:
        return iter(file)

    def files(self) -> list[str]:
        """The local files this source reads (a glob's matches as they are now); what a
        sink checks so as not to write over one of them."""
        try:
            names = expand(self.path)
        except FileNotFoundError:
            return []
        return [name for name in names if name != "-" and not is_url(name)]

    def _close_file(self) -> None:
        self.lines, self.file = _NO_LINES, None
        opened, self.opened = self.opened, None
        if opened is not None:
            opened.close()

    def close(self) -> None:
        """Stop: close the file being read; ``next()`` gives nothing more."""
        self.done = True
        self._close_file()

    def __del__(self) -> None:
        self.close()


def _ascii_compatible(encoding: str) -> str:
    name = codecs.lookup(encoding).name
    if "\n".encode(name) != b"\n" or "utf-16" in name or "utf-32" in name:
        raise ValueError(
            f"lines are read in an encoding whose newline is the byte \\n (utf-8, latin-1, "
            f"cp1252, ...); got {encoding!r}"
        )
    return name


def _stripped(line: bytes) -> bytes:
    if line[-1:] == b"\n":
        line = line[:-1]
        if line[-1:] == b"\r":
            line = line[:-1]
    return line


_LONG = b""  # what a bounded read gives for a line over the bound (no real line is empty)


def _bounded(file: IO[bytes], longest: int) -> Iterator[bytes]:
    """The lines of ``file``, none held longer than ``longest`` bytes: a longer one is
    skipped a chunk at a time and comes out as ``_LONG``."""
    while True:
        line = file.readline(longest + 1)
        if not line:
            return
        if len(line) > longest and not line.endswith(b"\n"):
            while True:
                rest = file.readline(longest + 1)
                if not rest or rest.endswith(b"\n"):
                    break
            yield _LONG
        else:
            yield line


class Lines(FileSource[str]):
    """The lines of the files, without their newline (``\\n`` or ``\\r\\n``), a UTF-8 BOM
    skipped; a line not in ``encoding``, or (with ``longest``) over ``longest`` bytes, is
    a RecordError, and the next line follows."""

    made_by = "read_lines"

    def __init__(self, path: PathLike, encoding: str, longest: int | None = None) -> None:
        super().__init__(path)
        self.encoding = _ascii_compatible(encoding)
        self.longest = longest

    def _lines_of(self, file: IO[bytes]) -> Iterator[bytes]:
        return iter(file) if self.longest is None else _bounded(file, self.longest)

    def __next__(self) -> str:
        line = next(self.lines, None)
        if line is None:
            line = self._next_line()
            if line is None:
                raise StopIteration
        else:
            self.line += 1
        self.position += 1
        if line is _LONG:
            reason = f"longer than {self.longest:,} characters"
            raise RecordError(self.name, self.line, reason)
        if self.line == 1 and line.startswith(BOM):
            line = line[3:]
        try:
            return _stripped(line).decode(self.encoding)
        except UnicodeDecodeError as error:
            raise RecordError(self.name, self.line, f"not {self.encoding}: {error}") from error


_BLOCK = 1 << 16  # the bytes of whole lines a JSON Lines source reads at once from a file


class _Runs(Iterator[Any]):
    """Records handed on from lists: ``next()`` gives the items of ``run`` in order
    (``given`` of them so far), and when it is spent calls :meth:`_refill`, which sets
    the next run or raises (an error at its place; ``StopIteration`` at the end); setting
    ``run`` starts ``given`` over.  The Python form of the C flow engine's ``Runs``,
    which gives a record with no Python call."""

    given = 0
    _run: list[Any] | None = None

    @property
    def run(self) -> list[Any] | None:
        return self._run

    @run.setter
    def run(self, run: list[Any] | None) -> None:
        self._run, self.given = run, 0

    def _refill(self) -> None:
        raise NotImplementedError

    def __next__(self) -> Any:
        while True:
            run, given = self._run, self.given
            if run is not None and given < len(run):
                self.given = given + 1
                return run[given]
            self._refill()


try:  # the C flow engine's Runs, where it was built
    from lazyfun.streams.sync import _flow
except ImportError:  # built without a C compiler
    _flow = None  # type: ignore[assignment]
if TYPE_CHECKING or _flow is None or os.environ.get(PURE_ENV):  # noqa: SIM108 (a base class)
    Runs = _Runs
else:
    Runs = _flow.Runs


class Jsonl(Runs, FileSource[Any]):
    """One JSON value a line, decoded (and, with a type, validated) by msgspec; blank
    lines are skipped; a line that does not decode (bad JSON, a string that is not
    UTF-8, a value that does not fit the type) is a RecordError.

    A file is read a block of whole lines at a time (``_BLOCK`` bytes; standard input a
    line at a time, so a record is decoded as it arrives), and a block's lines decoded
    one by one in a loop that runs in C (``map`` of msgspec's decoder) up to the first
    that fails, which is then decoded on its own and reported at its place: each
    record comes from its own line, as if every line were read alone.  The records
    decoded are handed on from their list by :class:`Runs` (in C where it was built),
    so ``line`` and ``position`` are what was counted before the list plus how many of
    it were given: they and :meth:`mark` count the records given, not those decoded
    ahead.
    """

    _line = 0  # ``line`` before the run being handed on
    _position = 0  # ``position`` before it

    @property
    def line(self) -> int:
        return self._line + self.given

    @line.setter
    def line(self, line: int) -> None:
        self._line = line - self.given

    @property
    def position(self) -> int:
        return self._position + self.given

    @position.setter
    def position(self, position: int) -> None:
        self._position = position - self.given

    made_by = "read_jsonl"

    def __init__(self, path: PathLike, type: Any = None) -> None:
        import msgspec

        super().__init__(path)
        self.type = type
        self.decode = (
            msgspec.json.Decoder() if type is None else msgspec.json.Decoder(type)
        ).decode
        self.invalid = msgspec.ValidationError
        self.malformed = msgspec.DecodeError
        self.block: list[bytes] = []  # the lines of the file read last
        self.at = 0  # the first line of the block not decoded yet
        self.block_line = 0  # ``line`` before the block's first
        self.block_offset: int | None = None  # the byte offset of the block's first line

    def _refill(self) -> None:
        """The run after the records given: the next lines decoded in C up to the first
        that fails, which, decoded alone, raises its record error (a blank line skipped)."""
        while True:
            if self.at == len(self.block) and not self._next_block():
                raise StopIteration
            lines, at = self.block, self.at
            records: list[Any] = []
            # on an error ``records`` holds what decoded before the line that failed
            with suppress(self.malformed, UnicodeDecodeError):
                records.extend(map(self.decode, lines[at:] if at else lines))
            self.at = at + len(records)
            if records:
                self._start(records)
                return
            self.at += 1
            self.line += 1
            self._fail(lines[at])

    def _start(self, run: list[Any] | None) -> None:
        """Hand on ``run`` from its start (None: nothing), what was given counted."""
        self._line, self._position = self.line, self.position
        self.run = run

    def _next_block(self) -> bool:
        """Read the next block of lines of the files (False at their end)."""
        while True:
            file = self.file or self._advance()
            if file is None:
                return False
            offset = None if self.name == "-" else file.tell()
            lines = file.readlines(1 if self.name == "-" else _BLOCK)
            if lines:
                break
            self._advance()
        if self.line == 0 and lines[0].startswith(BOM):
            lines[0] = lines[0][len(BOM) :]
            offset = None if offset is None else offset + len(BOM)
        self.block, self.at, self.block_line, self.block_offset = lines, 0, self.line, offset
        return True

    def _fail(self, line: bytes) -> None:
        """The RecordError of ``line``, one that does not decode (nothing for a blank one)."""
        try:
            self.decode(line)
        except self.invalid as error:
            self.position += 1
            name = getattr(self.type, "__name__", repr(self.type))
            raise RecordError(self.name, self.line, f"does not fit {name}: {error}") from error
        except self.malformed as error:
            if line.strip():
                self.position += 1
                reason = not_utf8(line) or f"bad JSON: {error}"
                raise RecordError(self.name, self.line, reason) from error
        except UnicodeDecodeError as error:  # a string holding a byte that is not UTF-8
            self.position += 1
            reason = not_utf8(line) or f"not utf-8: {error.reason}"
            raise RecordError(self.name, self.line, reason) from error

    def mark(self) -> dict[str, Any] | None:
        """As :meth:`FileSource.mark`, the offset after the last record given (the file
        has been read ahead to the block's end)."""
        mark = super().mark()
        if mark is not None and self.block_offset is not None:
            given = self.block[: self.line - self.block_line]
            mark["offset"] = self.block_offset + sum(map(len, given))
        return mark

    def _sought(self, file: IO[bytes], mark: dict[str, Any]) -> None:
        self._forget_block()

    def _close_file(self) -> None:
        self._forget_block()
        super()._close_file()

    def _forget_block(self) -> None:
        self._start(None)
        self.block, self.at, self.block_offset = [], 0, None


def not_utf8(line: bytes) -> str | None:
    """Why ``line`` is not UTF-8, in lazyfun's words (the first bad byte and its column,
    counted in bytes from 1), or None when it is; the parser's own wording, which changes
    from release to release, is never the reason a user reads.

    >>> not_utf8(b'{"a": "caf\\xe9"}')
    'not utf-8: byte 0xe9 at column 11'
    >>> not_utf8(b'{"a": 1}') is None
    True
    """
    try:
        line.decode("utf-8")
    except UnicodeDecodeError as error:
        return f"not utf-8: byte 0x{line[error.start]:02x} at column {error.start + 1}"
    return None


class _Text(Iterator[str]):
    """The lines a CSV reader reads: decoded with their newlines, counted by the source;
    a line not in the encoding is a RecordError (the reader starts afresh after it)."""

    def __init__(self, source: Csv[Any]) -> None:
        self.source = source

    def __next__(self) -> str:
        source = self.source
        line = source._next_line_of_file()
        if line is None:
            raise StopIteration
        if source.line == 1 and line.startswith(BOM):
            line = line[3:]
        try:
            return line.decode(source.encoding)
        except UnicodeDecodeError as error:
            reason = f"not {source.encoding}: {error}"
            raise RecordError(source.name, source.line, reason) from error


AHEAD = 512  # the rows a CSV source reads and converts at once from a file
SHARED = 1024  # the most values of a CSV column whose repeats share one string


class _Failed:
    """A row's error, in its place among the records read ahead."""

    __slots__ = ("error",)

    def __init__(self, error: RecordError) -> None:
        self.error = error


class Csv(FileSource[T]):
    """Rows under each file's header row, as dicts (or ``type`` instances, converted as
    msgspec's ``convert`` with ``strict=False`` does); a row with another number of
    fields, or one that does not convert, is a RecordError at the line it starts on.
    A file whose header cannot be read is a RecordError, and the rest of it is skipped.

    A file is read :data:`AHEAD` rows at a time (standard input a row at a time, so a
    record comes as its row arrives), up to the end of the file or the first row the
    reader refuses, and the rows made records at once (with a type, one ``convert`` of
    them all: a sixth of the time of one a row; where one does not convert, each on its
    own, so each error is at its row); the records, and the errors at their places,
    are then handed on one by one.  :meth:`mark` says where the rows read ahead began,
    so a resumed job reads through them again, not past them."""

    made_by = "read_csv"

    def __init__(self, path: PathLike, type: Any, encoding: str, dialect: dict[str, Any]) -> None:
        import msgspec

        super().__init__(path)
        self.ahead: deque[Any] = deque()  # records read ahead, and _Failed errors
        csv.reader([], **dialect)  # a wrong dialect is refused at the call
        self.type, self.encoding, self.dialect = type, _ascii_compatible(encoding), dialect
        self.reader: Iterator[list[str]] | None = None
        self.header: list[str] | None = None
        self.convert, self.invalid = msgspec.convert, msgspec.ValidationError
        self.rows_type = GenericAlias(list, (type,))  # what a batch converts to
        self.start = 0  # the line the row read last starts on
        self.begun: dict[str, Any] | None = None  # the mark before the rows read ahead
        self.sharing: tuple[list[str] | None, dict[int, dict[str, str]]] = (None, {})

    def _next_line_of_file(self) -> bytes | None:
        line = next(self.lines, None)
        if line is not None:
            self.line += 1
        return line

    def _open_next(self) -> bool:
        file = self._advance()
        if file is None:
            return False
        self.lines = iter(file)
        self.reader, self.header = csv.reader(_Text(self), **self.dialect), None
        return True

    def mark(self) -> dict[str, Any] | None:
        """:meth:`FileSource.mark`, with the header of the file being read (None before
        it is read); while rows read ahead are still to be handed on, the mark taken
        before they were read (a position at or before this one)."""
        if self.ahead:
            return self.begun
        mark = super().mark()
        if mark is None or self.header is None or self.reader is None:
            return None
        return {**mark, "header": self.header}

    def _sought(self, file: IO[bytes], mark: dict[str, Any]) -> None:
        self.ahead.clear()
        self.lines = iter(file)
        self.reader, self.header = csv.reader(_Text(self), **self.dialect), mark["header"]

    def _close_file(self) -> None:
        self.ahead.clear()
        super()._close_file()

    def __next__(self) -> T:
        return self._counted(self._next_record)

    def _next_record(self) -> T:
        while not self.ahead:
            if self.reader is None and not self._open_next():
                raise StopIteration
            self._read_ahead()
        taken = self.ahead.popleft()
        if type(taken) is _Failed:
            raise taken.error
        return taken  # type: ignore[no-any-return]

    def _read_ahead(self) -> None:
        """The next rows of the file being read made records (or errors) in ``ahead``,
        up to :data:`AHEAD` of them, the file's end, or the first the reader refuses."""
        self.begun = self.mark()
        rows: list[list[str]] = []
        starts: list[int] = []
        most = 1 if self.name == "-" else AHEAD
        failed = None
        try:
            while len(rows) < most:
                row = self._row()
                if row is None:
                    break
                rows.append(row)
                starts.append(self.start)
        except RecordError as error:
            failed = error
        if rows:
            self.ahead.extend(self._records(rows, starts))
        if failed is not None:
            self.ahead.append(_Failed(failed))

    def _row(self) -> list[str] | None:
        """The next row under the file's header (the line it starts on in ``start``), or
        None at the file's end (the reader let go); a RecordError for a line the reader
        refuses (where it is the header's, the rest of the file is let go too)."""
        while True:
            reader = self.reader
            if reader is None:
                return None
            self.start = self.line + 1
            try:
                row = next(reader)
            except StopIteration:
                self.reader = None
                return None
            except RecordError:
                if self.header is None:
                    self.reader = None  # no header: the rest of this file cannot be read
                raise
            except csv.Error as error:
                if self.header is None:
                    self.reader = None
                raise RecordError(self.name, self.start, f"bad CSV: {error}") from error
            if not row:
                continue
            if self.header is None:
                self.header = row
                continue
            return row

    def _records(self, rows: list[list[str]], starts: list[int]) -> list[Any]:
        """The records of ``rows`` (under the header), at once where every row has the
        header's width and converts, else each on its own (an error a :class:`_Failed`)."""
        header = self.header
        assert header is not None
        if all(map(operator.eq, map(len, rows), repeat(len(header)))):
            records = list(map(dict, map(zip, repeat(header), self._shared(rows, header))))
            if self.type is None:
                return records
            with suppress(self.invalid):
                converted: list[Any] = self.convert(records, self.rows_type, strict=False)
                return converted
        return [self._outcome(row, start) for row, start in zip(rows, starts, strict=True)]

    def _shared(self, rows: list[list[str]], header: list[str]) -> Iterable[Sequence[str]]:
        """``rows`` with a column's repeated values one string, for each column that has
        held at most :data:`SHARED` values so far (one past that is let be from then on):
        a country or a kind is one object, held once and hashed once."""
        if self.sharing[0] is not header:  # a file's first rows
            self.sharing = (header, {j: {} for j in range(len(header))})
        columns: list[Sequence[str]] = list(zip(*rows, strict=True))
        for j, seen in list(self.sharing[1].items()):
            columns[j] = list(map(seen.setdefault, columns[j], columns[j]))
            if len(seen) > SHARED:
                del self.sharing[1][j]
        return zip(*columns, strict=True)

    def _outcome(self, row: list[str], start: int) -> Any:
        """The record of ``row``, or its error as a :class:`_Failed`."""
        try:
            return self._record(row, start)
        except RecordError as error:
            return _Failed(error)

    def _record(self, row: list[str], start: int) -> T:
        header = self.header
        assert header is not None
        if len(row) != len(header):
            reason = f"{len(row)} fields, the header has {len(header)}"
            raise RecordError(self.name, start, reason)
        record: Any = dict(zip(header, row, strict=True))
        if self.type is None:
            return record  # type: ignore[no-any-return]
        try:
            return self.convert(record, self.type, strict=False)  # type: ignore[no-any-return]
        except self.invalid as error:
            name = getattr(self.type, "__name__", repr(self.type))
            raise RecordError(self.name, start, f"does not fit {name}: {error}") from error
