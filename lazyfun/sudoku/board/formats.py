"""The formats Sudoku puzzles travel in: read by content, written on request.

Readers take a puzzle's text and tell its format by content:

- one line of N*N cells (81 for 9x9; an ``.sdm`` file is one such line a puzzle);
- rows with separators: a pretty grid, Simple Sudoku's ``.ss`` (``|``, ``-``,
  ``*`` rules), SadMan's ``.sdk`` (``#`` metadata lines, then the rows);
- one line of N*N*N characters: a pencil-mark grid (729 for 9x9), N characters
  a cell, a value's symbol at its place when it is a candidate, ``.`` or ``0``
  when not.  A cell with one candidate is placed.  It comes back as a
  :class:`~lazyfun.sudoku.board.grid.MarkedGrid`, or as its grid when the marks
  rule nothing out (every value in every blank: how a grid without marks is
  written);
- an f-puzzles link (``https://www.f-puzzles.com/?load=...``) or a SudokuPad
  link to an f-puzzles puzzle (``https://sudokupad.app/fpuzzles...``), whose
  data is lz-string compressed JSON (read with the ``lzstring`` package).  A
  classic puzzle comes back as a grid (with its centre pencil marks, as a
  marked grid); a puzzle with any other rule is refused with the rule's name.

:func:`split` cuts the lines of a file into puzzles, one line or many each,
so that every ``-f`` reader takes a file of any of these.  Writers:
:func:`write` with one of :data:`TARGETS` (``81``, ``729``, ``sdk``, ``ss``,
``link``).  Reading what was written gives the same puzzle back: the same grid,
and a marked grid's candidates in the formats that carry them, ``729`` and
``link`` (the round-trip laws in the tests).

>>> grid = read("4..." "..1." ".1.." "...4")
>>> print(write(grid, "ss"))
*-----*
|4.|..|
|..|1.|
|--+--|
|.1|..|
|..|.4|
*-----*
>>> read(write(grid, "link")) == grid
True
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from math import isqrt
from typing import Final, Literal, get_args

from lazyfun.compiled import PURE_ENV
from lazyfun.sudoku.board.geometry import BOX_OF_SIDE, BOX_SIZES, cell_name
from lazyfun.sudoku.board.grid import (
    HEX_SYMBOLS,
    MARKS_SIZES,
    SEPARATORS,
    SYMBOLS,
    Grid,
    MarkedGrid,
    PuzzleError,
    grid_of,
    marked_or_grid,
)
from lazyfun.sudoku.board.links import read_link, write_link

# The 9x9 engine's reader of a plain line (lazyfun/sudoku/solving/nine_c): the board's one
# import from the solving room, an extension that imports nothing of lazyfun (no cycle; the
# layers' linter, which reads Python source, does not see it).
try:
    from lazyfun.sudoku.solving._nine import parse_line
except ImportError:  # built without a C compiler: every text is read here
    _parse_line: Callable[[str, Grid], Grid | None] | None = None
else:
    _parse_line = None if os.environ.get(PURE_ENV) else parse_line

__all__ = [
    "BOM",
    "TARGETS",
    "Entry",
    "Puzzle",
    "Target",
    "is_link",
    "parse",
    "read",
    "read_marks",
    "split",
    "without_bom",
    "write",
]

Puzzle = Grid | MarkedGrid
Target = Literal["81", "729", "sdk", "ss", "link"]
TARGETS: tuple[Target, ...] = get_args(Target)

# The byte-order mark a Windows editor starts a UTF-8 file with: skipped by every reader.
BOM = "\ufeff"

_SIDES = set(BOX_OF_SIDE)
CLASSIC_SIDE = 9  # the size named first to a text that fits none
_CELLS = {side * side for side in BOX_OF_SIDE}  # the cells of a whole grid, by size
_NINE: Final = Grid((0,) * 81, 3, SYMBOLS[:9])  # what a plain line's grid is like


@dataclass(frozen=True, slots=True)
class Entry:
    """One puzzle's text in a file: its first ``line`` (from 1), the ``text`` (one line or
    several), and the ``#`` lines before it (``.sdk`` metadata such as ``#A`` author)."""

    line: int
    text: str
    meta: tuple[str, ...] = ()


# --- reading -------------------------------------------------------------------------


def read(text: str) -> Puzzle:
    """One classic puzzle in any format lazyfun reads: a ``MarkedGrid`` when it has pencil
    marks that rule something out, else a ``Grid``.

    >>> read("1..." "..1." ".1.." "...1").givens
    4
    >>> marked = read(("1234" "1234" "..34" "12..") * 4)
    >>> marked.candidates[:3], marked.grid.cells[:2]
    (((1, 2, 3, 4), (1, 2, 3, 4), (3, 4)), (0, 0))
    """
    text = without_bom(text)
    if is_link(text):
        return read_link(text.strip())
    rows = [row for row in map(str.strip, text.splitlines()) if row and row[0] != "#"]
    if len(rows) == 1 and len(rows[0]) in MARKS_SIZES:
        return marked_or_grid(read_marks(rows[0]))
    return parse(text)


def read_marks(line: str) -> MarkedGrid:
    """A one-line pencil-mark grid: N characters a cell, each a value's symbol at its place
    or ``.``/``0``; a cell with one candidate is placed.

    >>> read_marks(("1..." ".234" ".2.4" "1234") * 4).grid.cells[:2]
    (1, 0)
    """
    line = without_bom(line)
    n = MARKS_SIZES.get(len(line))
    if n is None:
        sizes = ", ".join(map(str, MARKS_SIZES))
        raise PuzzleError(f"a pencil-mark grid has one of {sizes} characters, got {len(line)}")
    symbols = _marks_alphabet(line, n)
    blanks = "." if "0" in symbols else ".0"
    cells: list[int] = []
    candidates: list[tuple[int, ...]] = []
    for cell in range(n * n):
        chunk = line[cell * n : (cell + 1) * n]
        marks: list[int] = []
        for k, ch in enumerate(chunk):
            if ch.upper() == symbols[k]:
                marks.append(k + 1)
            elif ch not in blanks:
                column = cell * n + k + 1
                raise PuzzleError(
                    f"{cell_name(cell, n)}: expected {symbols[k]!r} or '.' at its place,"
                    f" got {ch!r}",
                    column=column,
                )
        if not marks:
            raise PuzzleError(f"{cell_name(cell, n)} has no candidate", column=cell * n + 1)
        cells.append(marks[0] if len(marks) == 1 else 0)
        candidates.append(tuple(marks))
    return MarkedGrid(Grid(tuple(cells), BOX_OF_SIDE[n], symbols), tuple(candidates))


def _marks_alphabet(line: str, n: int) -> str:
    """The symbols of a pencil-mark grid of side N: ``1-9A-``, or for 16x16 ``0-F`` when
    a cell's first place holds a 0 and none holds a 1 (and no G is written)."""
    firsts = set(line[::n])
    if n == 16 and "G" not in line.upper() and "0" in firsts and "1" not in firsts:
        return HEX_SYMBOLS
    return SYMBOLS[:n]


def _alphabet(text: str, n: int) -> tuple[str, str]:
    """The symbols of the values 1..N and the blank characters, for a grid of side N."""
    if n == 16 and "G" not in text.upper() and "." in text and "0" in text:
        return HEX_SYMBOLS, "."
    return SYMBOLS[:n], "0."


def parse(text: str) -> Grid:
    """Read a grid: its one-line form, rows with separators (a pretty grid, ``.ss``),
    ``.sdk`` (``#`` lines are metadata, skipped), or an f-puzzles/SudokuPad link.

    >>> parse("..3." "3..." "...4" ".2..").cells[:4]
    (0, 0, 3, 0)
    >>> parse('''
    ... 1 2 | 3 4
    ... 3 4 | 1 2
    ... ----+----
    ... 2 1 | 4 3
    ... 4 3 | 2 1
    ... ''').is_complete()
    True

    The size is read from the text: its count of cells, or written in rows, the
    cells of its first row.  A text of no size names the size it was meant to be
    (one row short or long), or else 9x9 first and then the others:

    >>> parse("." * 80)
    Traceback (most recent call last):
    ...
    lazyfun.sudoku.board.grid.PuzzleError: expected 81 cells (9x9), got 80
    >>> try:
    ...     parse("hello world")
    ... except PuzzleError as error:
    ...     print(error)
    expected 81 cells (9x9), or 16 (4x4), 256 (16x16) or 625 (25x25), got 11

    A plain line of 81 characters (``1-9`` givens, ``.`` or ``0`` blanks), the
    commonest form, is read by the 9x9 engine's reader in C where it was built
    (and ``LAZYFUN_PURE`` is not set), in well under a microsecond: the same grid.
    Every other text, and every line with something wrong in it, is read here.
    """
    if _parse_line is not None:
        grid = _parse_line(text, _NINE)
        if grid is not None:
            return grid
    return _read_text(text)


def _read_text(text: str) -> Grid:
    """:func:`parse` in Python: every form it reads, and the errors with their places."""
    text = without_bom(text)
    if is_link(text):
        found = read_link(text.strip())
        if isinstance(found, MarkedGrid):
            raise PuzzleError("this link has pencil marks: lazyfun.sudoku.read keeps them")
        return found
    lines = [
        (number, line)
        for number, line in enumerate(text.splitlines(), 1)
        if line.strip() and not line.lstrip().startswith("#")
    ]
    row: int | None = None  # the cells of the first row, for a grid written in rows
    if len(lines) <= 1:
        body = lines[0][1].strip() if lines else ""
        places: list[tuple[int | None, int]] = [(None, i) for i in range(len(body))]
    else:
        body, places = _join_rows(lines)
        row = sum(1 for line, _ in places if line == places[0][0]) if places else None
    count = len(body)
    n = _side(count, row)
    symbols, blanks = _alphabet(body, n)
    values = {ch: i + 1 for i, ch in enumerate(symbols)}
    values.update({ch.lower(): i + 1 for i, ch in enumerate(symbols) if ch.isalpha()})
    cells = []
    for ch, (line, offset) in zip(body, places, strict=True):
        if ch in blanks:
            cells.append(0)
        elif ch in values:
            cells.append(values[ch])
        else:
            raise PuzzleError(
                f"unexpected character {ch!r} for a {n}x{n} grid", line=line, column=offset + 1
            )
    return Grid(tuple(cells), isqrt(n), symbols)


def without_bom(text: str) -> str:
    """The text without the byte-order mark it may start with (:data:`BOM`).

    >>> without_bom("\\ufeff1...")
    '1...'
    """
    return text[1:] if text.startswith(BOM) else text


def is_link(text: str) -> bool:
    """Whether ``text`` is a web link (an f-puzzles or SudokuPad puzzle, say)."""
    return text.lstrip().lower().startswith(("http://", "https://"))


def _join_rows(lines: list[tuple[int, str]]) -> tuple[str, list[tuple[int | None, int]]]:
    """Cells of a multi-line grid, separators dropped, with their lines and column offsets."""
    body: list[str] = []
    places: list[tuple[int | None, int]] = []
    for number, line in lines:
        if set(line) <= SEPARATORS:
            continue
        for i, ch in enumerate(line):
            if ch not in SEPARATORS:
                body.append(ch)
                places.append((number, i))
    return "".join(body), places


def _side(count: int, row: int | None = None) -> int:
    """N for a text of ``count`` cells, or a PuzzleError naming the size it was meant to
    be (``row``: the cells of its first row, when it is written in rows)."""
    sizes = [(b * b) ** 2 for b in BOX_SIZES]
    if count in sizes:
        return isqrt(count)
    if count in MARKS_SIZES:
        side = MARKS_SIZES[count]
        raise PuzzleError(
            f"a pencil-mark grid ({count} characters, {side}x{side}):"
            " lazyfun.sudoku.read reads it with its candidates"
        )
    side = isqrt(count)
    if side * side == count and count > 0:
        raise PuzzleError(
            f"unsupported size {side}x{side} ({count} cells); supported: 4x4, 9x9, 16x16, 25x25"
        )
    raise PuzzleError(f"expected {_meant(count, row)}, got {count}")


def _meant(count: int, row: int | None) -> str:
    """The cells a text of ``count`` cells that fits no size was meant to have: the size
    of its rows when it is written in rows of a size's side, else the size it is within
    a row of (80 cells: 9x9), else every size, the classic 9x9 first.

    >>> _meant(12, None), _meant(8, 4), _meant(2, None)
    ('16 cells (4x4)', '16 cells (4x4)', '81 cells (9x9), or 16 (4x4), 256 (16x16) or 625 (25x25)')
    """
    sides = sorted(BOX_OF_SIDE)
    near = [n for n in sides if abs(n * n - count) <= n]
    meant = row if row in BOX_OF_SIDE else near[0] if near else None
    if meant is not None:
        return f"{meant * meant} cells ({meant}x{meant})"
    others = [f"{n * n} ({n}x{n})" for n in sides if n != CLASSIC_SIDE]
    return f"{CLASSIC_SIDE**2} cells ({CLASSIC_SIDE}x{CLASSIC_SIDE}), or " + (
        f"{', '.join(others[:-1])} or {others[-1]}"
    )


# --- a file's puzzles --------------------------------------------------------------


def split(lines: Iterable[str]) -> Iterator[Entry]:
    """The puzzles in a file's lines, lazily: a line that holds a whole puzzle is one
    (an 81-character line, a pencil-mark line, a link); rows are gathered into one
    until they hold N*N cells (N the first row's cells), rules between them kept.
    A JSON document (a variant's ``sudoku-puzzle``) is one: on one line, or
    pretty-printed from a line ``{`` to its closing brace.  ``#`` lines before a
    puzzle are its metadata; blank lines end a puzzle.  A puzzle that does not read
    still comes out, for its reader to say what is wrong.  A byte-order mark at the
    start of a line (a file's first, or where files were joined) is skipped.

    >>> [(e.line, e.meta) for e in split(["#A me", "1.|..", "..|1.", "--+--", ".1|..", "..|.1"])]
    [(2, ('#A me',))]
    >>> [e.line for e in split(["1..." "..1." ".1.." "...1", "", "12|34", "34|12", "", "x"])]
    [1, 3, 6]
    >>> [(e.line, e.text) for e in split(["{", '  "a": "}"', "}", '{"b": [1', "12|34"])]
    [(1, '{\\n"a": "}"\\n}'), (4, '{"b": [1'), (5, '12|34')]
    """
    rows: list[str] = []
    start, cells, wanted = 0, 0, 0
    meta: list[str] = []
    for number, line in _documents(lines):
        count = len(line) - sum(map(line.count, SEPARATORS))
        if rows and (not line or line.startswith("#") or _whole(line, count, wanted)):
            yield Entry(start, "\n".join(rows), tuple(meta))
            rows, meta = [], []
        if not line:
            continue
        if line.startswith("#"):
            meta.append(line)
        elif _whole(line, count, 0) or (not rows and count and count not in _SIDES):
            yield Entry(number, line, tuple(meta))
            meta = []
        elif count or rows:
            if not rows:
                start, cells, wanted = number, 0, count * count
            rows.append(line)
            cells += count
            if cells >= wanted:
                yield Entry(start, "\n".join(rows), tuple(meta))
                rows, meta = [], []
    if rows:
        yield Entry(start, "\n".join(rows), tuple(meta))


def _documents(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """The lines, numbered from 1 and stripped (of a byte-order mark too), with a JSON
    document spread over several lines joined into one: from a line that holds only
    its opening brace, as JSON is pretty-printed, to the line that closes it (or a
    blank line, if it is never closed).  A line that opens a document and goes on
    is a document on one line (JSON Lines), whole or broken."""
    document: list[str] = []
    start = depth = 0
    for number, raw in enumerate(lines, 1):
        line = without_bom(raw).strip()
        if document and line:
            document.append(line)
            depth = _depth(line, depth)
            if depth <= 0:
                yield start, "\n".join(document)
                document = []
            continue
        if document:  # a blank line: the document was never closed
            yield start, "\n".join(document)
            document = []
        if line == "{":
            start, document, depth = number, [line], 1
            continue
        yield number, line
    if document:
        yield start, "\n".join(document)


def _depth(line: str, depth: int) -> int:
    """How deep in brackets a JSON document is after ``line`` (from ``depth``); the
    brackets inside its strings do not count."""
    quoted = escaped = False
    for ch in line:
        if escaped:
            escaped = False
        elif quoted:
            escaped, quoted = ch == "\\", ch != '"'
        elif ch == '"':
            quoted = True
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
    return depth


def _whole(line: str, count: int, wanted: int) -> bool:
    """Whether one line holds a whole puzzle: N*N cells, a pencil-mark grid, a link, a
    JSON document, or rows given as one command-line argument.

    Sixteen cells are a 4x4 puzzle unless the line has separators (a row of a pretty
    16x16 grid) or a 16x16 grid's rows are being gathered (``wanted`` 256 cells).
    """
    if len(line) in MARKS_SIZES or is_link(line) or "\n" in line or line.startswith("{"):
        return True  # (line breaks: a JSON document, or a puzzle given as one argument)
    if count == 16:
        return wanted != 256 and not any(ch in SEPARATORS for ch in line)
    return count in _CELLS


# --- writing -------------------------------------------------------------------------


def write(puzzle: Puzzle, to: Target, meta: Iterable[str] = ()) -> str:
    """The puzzle in the format ``to``: ``81`` (one line of N*N cells; a marked grid's
    placed cells), ``729`` (one pencil-mark line: a marked grid's candidates; a grid
    without marks has every value in each blank, so that one candidate always means
    a given), ``sdk`` (``meta`` lines, then rows with ``.``), ``ss`` (Simple Sudoku's
    layout) or ``link`` (an f-puzzles link that opens in the browser, with a marked
    grid's candidates as centre marks).

    In the ``729`` form a cell with one candidate is placed: a blank cell whose marks
    leave it one value is written as that value, and reads back as a given (with the
    same solutions); a link keeps it blank.

    >>> puzzle = parse("1..." "..1." ".1.." "...1")
    >>> write(puzzle, "729")[:12]
    '1...12341234'
    >>> read(write(puzzle, "729")) == puzzle
    True
    >>> write(MarkedGrid.of(puzzle), "729")[:12]  # the marks no given rules out
    '1....234.234'
    """
    grid = grid_of(puzzle)
    if to == "81":
        return str(grid)
    if to == "729":
        return str(puzzle if isinstance(puzzle, MarkedGrid) else _unmarked(grid))
    if to == "sdk":
        return "\n".join([*meta, *("".join(map(grid.symbol, row)) for row in grid.rows)])
    if to == "ss":
        return _simple_sudoku(grid)
    if to == "link":
        return write_link(puzzle)
    raise ValueError(f"unknown format {to!r}: choose one of {', '.join(TARGETS)}")


def _unmarked(grid: Grid) -> MarkedGrid:
    """A grid without pencil marks as a marked grid: every value a candidate in each blank."""
    every = tuple(range(1, grid.size + 1))
    return MarkedGrid(grid, tuple((v,) if v else every for v in grid.cells))


def _simple_sudoku(grid: Grid) -> str:
    """Simple Sudoku's ``.ss`` layout: ``|`` between boxes, ``-`` and ``+`` between bands."""
    b = grid.box
    rows = [
        "|"
        + "|".join("".join(map(grid.symbol, row[c : c + b])) for c in range(0, grid.size, b))
        + "|"
        for row in grid.rows
    ]
    rule = "|" + "+".join("-" * b for _ in range(b)) + "|"
    border = "*" + "-" * (len(rule) - 2) + "*"
    for r in range(grid.size - b, 0, -b):
        rows.insert(r, rule)
    return "\n".join([border, *rows, border])
