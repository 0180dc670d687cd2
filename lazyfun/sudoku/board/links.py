"""Links: f-puzzles and SudokuPad puzzle links, read and written.

An f-puzzles link (``https://www.f-puzzles.com/?load=...``) or a SudokuPad link to an
f-puzzles puzzle (``https://sudokupad.app/fpuzzles...``) carries its puzzle as lz-string
compressed JSON (read with the ``lzstring`` package).  :func:`read_link` gives a classic
puzzle back as a grid (with its centre pencil marks, as a marked grid) and refuses a
puzzle with any other rule by the rule's name; :func:`link_data`,
:func:`fpuzzles_rules`, :func:`fpuzzles_regions` and :func:`fpuzzles_grid` are the
pieces the variants' reader (:mod:`lazyfun.sudoku.variants.exchange`) builds on, and
:func:`fpuzzles_link` the one encoder both writers use.

>>> from lazyfun.sudoku.board.grid import Grid
>>> grid = Grid((1, 0, 0, 0) * 4, 2)
>>> read_link(write_link(grid)) == grid
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from lazyfun.sudoku.board.geometry import BOX_OF_SIDE, cell_name
from lazyfun.sudoku.board.grid import Grid, MarkedGrid, PuzzleError, grid_of, marked_or_grid

__all__ = [
    "FPUZZLES",
    "fpuzzles_grid",
    "fpuzzles_link",
    "fpuzzles_regions",
    "fpuzzles_rules",
    "link_data",
    "read_link",
    "write_link",
]

Puzzle = Grid | MarkedGrid

FPUZZLES = "https://www.f-puzzles.com/?load="

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


def read_link(url: str) -> Puzzle:
    """A classic puzzle from an f-puzzles or SudokuPad link (the puzzle travels in the link).

    Refused, with the reason: a link to a variant (named by its rule: read it with
    :func:`lazyfun.sudoku.variants.exchange.read_variant`), a SudokuPad short link (it needs
    the network) or one in SudokuPad's own format.

    >>> read_link("https://sudokupad.app/psxczr0jpr")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lazyfun.sudoku.board.grid.PuzzleError: a SudokuPad short link: its puzzle is on the server, ...
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
    # lzstring raises what it meets (an UnboundLocalError among them); JSON nested past
    # Python's recursion limit is a RecursionError
    except (ValueError, TypeError, KeyError, IndexError, NameError, RecursionError):
        data = None
    if not isinstance(data, dict):
        raise PuzzleError("the link's puzzle data does not read as an f-puzzles puzzle")
    return data


def _payload(url: str) -> str:
    """The compressed puzzle in an f-puzzles or SudokuPad link."""
    try:
        parts = urlsplit(url.strip())
    except ValueError as error:  # a host urlsplit refuses (a [ without its ])
        raise PuzzleError(f"a link that does not read: {error}") from None
    host = parts.netloc.lower()
    query = parse_qs(parts.query, keep_blank_values=True)
    if "f-puzzles.com" in host:
        if "load" not in query:
            raise PuzzleError("an f-puzzles link without ?load=: no puzzle in it")
        raw = parts.query.split("load=", 1)
        # load= written with a %-escape (lo%61d=) is found by parse_qs alone
        return unquote(raw[1].split("&", 1)[0]) if len(raw) == 2 else query["load"][0]
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
    if not isinstance(rows, list) or not isinstance(size, int) or size not in BOX_OF_SIDE:
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
    if size not in BOX_OF_SIDE:
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
    return marked_or_grid(MarkedGrid.of(grid, marks)) if marks else grid


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


def write_link(puzzle: Puzzle) -> str:
    """An f-puzzles link: the grid (and centre pencil marks) as lz-string compressed JSON."""
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
    return fpuzzles_link({"size": n, "grid": rows})


def fpuzzles_link(data: dict[str, Any]) -> str:
    """The f-puzzles link that carries ``data``, an f-puzzles puzzle's JSON, lz-string
    compressed (the one encoder: classic grids here, variants in
    :func:`lazyfun.sudoku.variants.exchange.write_link`)."""
    from lzstring import LZString

    payload: str = LZString.compressToBase64(json.dumps(data, separators=(",", ":")))
    return FPUZZLES + payload
