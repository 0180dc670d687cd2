"""The formats Sudoku puzzles travel in: read by content, written on request.

Readers take a puzzle's text and tell its format by content:

- one line of N*N cells (81 for 9x9; an ``.sdm`` file is one such line a puzzle);
- rows with separators: a pretty grid, Simple Sudoku's ``.ss`` (``|``, ``-``,
  ``*`` rules), SadMan's ``.sdk`` (``#`` metadata lines, then the rows);
- one line of N*N*N characters: a pencil-mark grid (729 for 9x9), N characters
  a cell, a value's symbol at its place when it is a candidate, ``.`` or ``0``
  when not.  A cell with one candidate is placed.  It comes back as a
  :class:`~lazyfun.sudoku.grid.MarkedGrid`;
- an f-puzzles link (``https://www.f-puzzles.com/?load=...``) or a SudokuPad
  link to an f-puzzles puzzle (``https://sudokupad.app/fpuzzles...``), whose
  data is lz-string compressed JSON (read with the ``lzstring`` package).  A
  classic puzzle comes back as a grid (with its centre pencil marks, as a
  marked grid); a puzzle with any other rule is refused with the rule's name.

:func:`split` cuts the lines of a file into puzzles, one line or many each,
so that every ``-f`` reader takes a file of any of these.  Writers:
:func:`write` with one of :data:`TARGETS` (``81``, ``729``, ``sdk``, ``ss``,
``link``).  Reading what was written gives the same grid and candidates back
(the round-trip laws in the tests).

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

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal, get_args
from urllib.parse import parse_qs, unquote, urlsplit

from lazyfun.sudoku.geometry import BOX_OF_SIDE, cell_name
from lazyfun.sudoku.grid import (
    MARKS_SIZES,
    SEPARATORS,
    Grid,
    MarkedGrid,
    PuzzleError,
    grid_of,
    is_link,
    parse,
)

__all__ = [
    "TARGETS",
    "Entry",
    "Puzzle",
    "Target",
    "fpuzzles_grid",
    "fpuzzles_regions",
    "fpuzzles_rules",
    "link_data",
    "read",
    "read_link",
    "read_marks",
    "split",
    "write",
]

Puzzle = Grid | MarkedGrid
Target = Literal["81", "729", "sdk", "ss", "link"]
TARGETS: tuple[Target, ...] = get_args(Target)

FPUZZLES = "https://www.f-puzzles.com/?load="
_SIDES = set(BOX_OF_SIDE)
_CELLS = {side * side for side in BOX_OF_SIDE}  # the cells of a whole grid, by size

# f-puzzles' keys for rules beyond the classic ones, with the names a refusal uses;
# any other unknown key is refused under its own name.
_RULES = {
    "diagonal+": "a positive diagonal",
    "diagonal-": "a negative diagonal",
    "antiknight": "anti-knight",
    "antiking": "anti-king",
    "disjointgroups": "disjoint groups",
    "nonconsecutive": "non-consecutive",
    "killercage": "killer cages",
    "cage": "cages",
    "thermometer": "thermometers",
    "arrow": "arrows",
    "littlekillersum": "little killer sums",
    "sandwichsum": "sandwich sums",
    "xsum": "X-sums",
    "skyscraper": "skyscrapers",
    "odd": "odd cells",
    "even": "even cells",
    "minimum": "minimum cells",
    "maximum": "maximum cells",
    "extraregion": "extra regions",
    "palindrome": "palindromes",
    "renban": "renban lines",
    "whispers": "German whispers",
    "regionsumline": "region-sum lines",
    "betweenline": "between lines",
    "entropicline": "entropic lines",
    "clone": "clones",
    "quadruple": "quadruples",
    "difference": "difference dots",
    "ratio": "ratio dots",
    "xv": "XV",
    "negative": "a negative constraint",
    "line": "drawn lines",
    "rectangle": "drawn rectangles",
    "circle": "drawn circles",
    "text": "text on the grid",
}
# keys that carry no rule: the grid itself, its names, the site's own settings
_CLASSIC = {"size", "grid", "title", "author", "ruleset", "solution"}
_SETTINGS = {"disabledlogic", "truecandidatesoptions"}


@dataclass(frozen=True, slots=True)
class Entry:
    """One puzzle's text in a file: its first ``line`` (from 1), the ``text`` (one line or
    several), and the ``#`` lines before it (``.sdk`` metadata such as ``#A`` author)."""

    line: int
    text: str
    meta: tuple[str, ...] = ()


# --- reading -------------------------------------------------------------------------


def read(text: str) -> Puzzle:
    """One puzzle in any format lazyfun reads: a ``MarkedGrid`` when it has pencil marks,
    else a ``Grid``.

    >>> read("1..." "..1." ".1.." "...1").givens
    4
    >>> marked = read(("1234" "1234" "..34" "12..") * 4)
    >>> marked.candidates[:3], marked.grid.cells[:2]
    (((1, 2, 3, 4), (1, 2, 3, 4), (3, 4)), (0, 0))
    """
    if is_link(text):
        return read_link(text.strip())
    rows = [row for row in map(str.strip, text.splitlines()) if row and row[0] != "#"]
    if len(rows) == 1 and len(rows[0]) in MARKS_SIZES:
        return read_marks(rows[0])
    return parse(text)


def read_marks(line: str) -> MarkedGrid:
    """A one-line pencil-mark grid: N characters a cell, each a value's symbol at its place
    or ``.``/``0``; a cell with one candidate is placed.

    >>> read_marks(("1..." ".234" ".2.4" "1234") * 4).grid.cells[:2]
    (1, 0)
    """
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
        return "0123456789ABCDEF"
    return "123456789ABCDEFGHIJKLMNOP"[:n]


def read_link(url: str) -> Puzzle:
    """A classic puzzle from an f-puzzles or SudokuPad link (the puzzle travels in the link).

    Refused, with the reason: a link to a variant (named by its rule: read it with
    :func:`lazyfun.sudoku.exchange.read_variant`), a SudokuPad short link (it needs
    the network) or one in SudokuPad's own format.

    >>> read_link("https://sudokupad.app/psxczr0jpr")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lazyfun.sudoku.grid.PuzzleError: a SudokuPad short link: its puzzle is on the server, ...
    """
    data = link_data(url)
    rules = fpuzzles_rules(data)
    if fpuzzles_regions(data) is not None:
        rules.insert(0, "irregular regions")
    if rules:
        raise PuzzleError(f"a puzzle with {', '.join(rules)}: a variant (solve it with --variant)")
    return fpuzzles_grid(data)


def link_data(url: str) -> dict[str, Any]:
    """The JSON an f-puzzles payload in ``url`` decompresses to."""
    from lzstring import LZString

    payload = _payload(url)
    try:
        text = LZString.decompressFromBase64(payload.replace(" ", "+"))
        data = json.loads(text) if text else None
    except (ValueError, TypeError, KeyError, IndexError):  # lzstring raises what it meets
        data = None
    if not isinstance(data, dict):
        raise PuzzleError("the link's puzzle data does not read as an f-puzzles puzzle")
    return data


def _payload(url: str) -> str:
    """The compressed puzzle in an f-puzzles or SudokuPad link."""
    parts = urlsplit(url.strip())
    host = parts.netloc.lower()
    query = parse_qs(parts.query, keep_blank_values=True)
    if "f-puzzles.com" in host:
        if "load" not in query:
            raise PuzzleError("an f-puzzles link without ?load=: no puzzle in it")
        return unquote(parts.query.split("load=", 1)[1].split("&", 1)[0])
    if "sudokupad" in host or "crackingthecryptic" in host:
        path = parts.path.lstrip("/").removeprefix("sudoku/")
        ident = query["puzzleid"][0] if "puzzleid" in query else unquote(path)
        if ident.startswith("fpuzzles"):
            return ident.removeprefix("fpuzzles")
        if ident.startswith(("scl", "ctc")):
            raise PuzzleError(
                "a puzzle in SudokuPad's own format: open it and share it as an f-puzzles link"
            )
        raise PuzzleError(
            "a SudokuPad short link: its puzzle is on the server, and lazyfun reads no network;"
            " share it as an f-puzzles link"
        )
    raise PuzzleError(f"a link to {host or 'nowhere'}: lazyfun reads f-puzzles and SudokuPad links")


def fpuzzles_rules(data: dict[str, Any], handled: Iterable[str] = ()) -> list[str]:
    """The names of the rules in an f-puzzles puzzle's JSON beyond the classic ones
    and ``handled`` (the keys a variant reader takes)."""
    skip = _CLASSIC | _SETTINGS | set(handled)
    return [_RULES.get(key, key) for key, v in data.items() if key not in skip and v]


def fpuzzles_regions(data: dict[str, Any]) -> tuple[int, ...] | None:
    """An f-puzzles grid's region map (jigsaw), or None when it keeps the boxes.
    f-puzzles leaves out (or nulls) the region of a cell that keeps its box's number."""
    rows, size = data.get("grid"), data.get("size")
    if not isinstance(rows, list) or not isinstance(size, int) or size not in _SIDES:
        return None
    squares = [c if isinstance(c, dict) else {} for row in rows for c in row]
    if len(squares) != size * size or all(c.get("region") is None for c in squares):
        return None
    box = BOX_OF_SIDE[size]
    try:
        return tuple(
            (k // size // box) * box + k % size // box
            if c.get("region") is None
            else int(c["region"])
            for k, c in enumerate(squares)
        )
    except (TypeError, ValueError):
        raise PuzzleError("the link's regions: a region is not a number") from None


def fpuzzles_grid(data: dict[str, Any]) -> Puzzle:
    """An f-puzzles puzzle's grid (a marked grid if it has centre marks), its rules aside."""
    size = data.get("size")
    rows = data.get("grid")
    if not isinstance(size, int) or not isinstance(rows, list) or len(rows) != size:
        raise PuzzleError("the link's puzzle has no grid of the size it states")
    if size not in _SIDES:
        raise PuzzleError(f"a {size}x{size} puzzle: lazyfun's boxes are square (4x4, 9x9, 16x16)")
    cells: list[int] = []
    marks: dict[int, list[int]] = {}
    for r, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != size:
            raise PuzzleError(f"the link's puzzle: row {r + 1} does not have {size} cells")
        for c, square in enumerate(row):
            value, centre = _square(square, size, r * size + c)
            cells.append(value)
            if centre and not value:
                marks[r * size + c] = centre
    grid = Grid(tuple(cells), BOX_OF_SIDE[size])
    return MarkedGrid.of(grid, marks) if marks else grid


def _square(square: object, size: int, cell: int) -> tuple[int, list[int]]:
    """A cell of f-puzzles' grid: its value (0: none) and its centre pencil marks (given
    marks first); f-puzzles writes a digit as a number or as a string."""
    if not isinstance(square, dict):
        raise PuzzleError(f"the link's puzzle: {cell_name(cell, size)} is not a cell")
    marks = square.get("givenPencilMarks") or square.get("centerPencilMarks") or []
    if not isinstance(marks, list):
        marks = [marks]
    try:
        value, *centre = (int(v) for v in [square.get("value") or 0, *marks])
    except (TypeError, ValueError):
        value, centre = -1, []
    if not all(0 <= v <= size for v in [value, *centre]) or 0 in centre:
        raise PuzzleError(f"the link's puzzle: {cell_name(cell, size)} holds a value out of range")
    return value, sorted(set(centre))


# --- a file's puzzles --------------------------------------------------------------


def split(lines: Iterable[str]) -> Iterator[Entry]:
    """The puzzles in a file's lines, lazily: a line that holds a whole puzzle is one
    (an 81-character line, a pencil-mark line, a link); rows are gathered into one
    until they hold N*N cells (N the first row's cells), rules between them kept.
    ``#`` lines before a puzzle are its metadata; blank lines end a puzzle.  A puzzle
    that does not read still comes out, for its reader to say what is wrong.

    >>> [(e.line, e.meta) for e in split(["#A me", "1.|..", "..|1.", "--+--", ".1|..", "..|.1"])]
    [(2, ('#A me',))]
    >>> [e.line for e in split(["1..." "..1." ".1.." "...1", "", "12|34", "34|12", "", "x"])]
    [1, 3, 6]
    """
    rows: list[str] = []
    start, cells, wanted = 0, 0, 0
    meta: list[str] = []
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
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


def _whole(line: str, count: int, wanted: int) -> bool:
    """Whether one line holds a whole puzzle: N*N cells, a pencil-mark grid, a link, or
    rows given as one command-line argument.

    Sixteen cells are a 4x4 puzzle unless the line has separators (a row of a pretty
    16x16 grid) or a 16x16 grid's rows are being gathered (``wanted`` 256 cells).
    """
    if len(line) in MARKS_SIZES or is_link(line) or "\n" in line:
        return True  # (a "line" with line breaks in it is a puzzle given as one argument)
    if count == 16:
        return wanted != 256 and not any(ch in SEPARATORS for ch in line)
    return count in _CELLS


# --- writing -------------------------------------------------------------------------


def write(puzzle: Puzzle, to: Target, meta: Iterable[str] = ()) -> str:
    """The puzzle in the format ``to``: ``81`` (one line of N*N cells; a marked grid's
    placed cells), ``729`` (one pencil-mark line; a grid's marks are the values no
    given rules out), ``sdk`` (``meta`` lines, then rows with ``.``), ``ss`` (Simple
    Sudoku's layout) or ``link`` (an f-puzzles link that opens in the browser).

    >>> write(read("1..." "..1." ".1.." "...1"), "729")[:12]
    '1....234.234'
    """
    grid = grid_of(puzzle)
    if to == "81":
        return str(grid)
    if to == "729":
        return str(puzzle if isinstance(puzzle, MarkedGrid) else MarkedGrid.of(grid))
    if to == "sdk":
        return "\n".join([*meta, *("".join(map(grid.symbol, row)) for row in grid.rows)])
    if to == "ss":
        return _simple_sudoku(grid)
    if to == "link":
        return _link(puzzle)
    raise ValueError(f"unknown format {to!r}: choose one of {', '.join(TARGETS)}")


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


def _link(puzzle: Puzzle) -> str:
    """An f-puzzles link: the grid (and centre pencil marks) as lz-string compressed JSON."""
    from lzstring import LZString

    grid = grid_of(puzzle)
    if grid.box > 4:
        raise PuzzleError("f-puzzles draws grids up to 16x16: no link for a 25x25 grid")
    marks = puzzle.marks() if isinstance(puzzle, MarkedGrid) else {}
    n = grid.size
    rows = []
    for r in range(n):
        row: list[dict[str, Any]] = []
        for c in range(n):
            value = grid.cells[r * n + c]
            if value:
                row.append({"value": value, "given": True})
            elif r * n + c in marks:
                row.append({"centerPencilMarks": list(marks[r * n + c])})
            else:
                row.append({})
        rows.append(row)
    data = json.dumps({"size": n, "grid": rows}, separators=(",", ":"))
    payload: str = LZString.compressToBase64(data)
    return FPUZZLES + payload
