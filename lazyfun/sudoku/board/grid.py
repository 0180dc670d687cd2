"""Sudoku grids: the immutable ``Grid``, a grid with pencil marks, and ``PuzzleError``.

A grid of box size b has side N = b*b (b = 2..5: 4x4, 9x9, 16x16, 25x25).
Cells hold 0 for a blank and 1..N for a value.  Text form: one puzzle per
line, N*N characters, ``0`` or ``.`` for a blank, digits ``1-9`` then letters
(16x16: ``1-9A-G``; 25x25: ``1-9A-P``).  A 16x16 line with ``.`` blanks, a
``0`` and no ``G`` is read in the ``0-9A-F`` alphabet, and the grid prints
its solutions back in the alphabet it was read in.  ``parse`` also reads the
rows of a pretty grid, an ``.sdk`` or an ``.ss`` file, and a puzzle link;
the other formats, pencil marks among them, are in :mod:`lazyfun.sudoku.board.formats`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from math import isqrt
from typing import Any, TypeVar

from lazyfun.sudoku.board.geometry import BOX_SIZES, cell_name, peer_sets, units

T = TypeVar("T")

__all__ = [
    "HEX_SYMBOLS",
    "MARKS_SIZES",
    "SEPARATORS",
    "SYMBOLS",
    "Grid",
    "MarkedGrid",
    "PuzzleError",
    "UnsolvedError",
    "check_givens",
    "drawn",
    "draws",
    "grid_of",
    "marked_or_grid",
]

# the characters that write the values 1..N: digits, then letters (16x16: 1-9A-G); a
# 16x16 grid may instead write 0-F with . for a blank (HEX_SYMBOLS)
SYMBOLS = "123456789ABCDEFGHIJKLMNOP"
HEX_SYMBOLS = "0123456789ABCDEF"
SEPARATORS = set(" \t|+-=_*")
# the lengths of one-line pencil-mark grids (N characters a cell: 729 for 9x9), by side
MARKS_SIZES = {(b * b) ** 3: b * b for b in BOX_SIZES}


class PuzzleError(ValueError):
    """A puzzle that cannot be read or cannot be a Sudoku, with the position at fault.

    ``line`` and ``column`` are 1-based when known; ``str(error)`` is one line.
    """

    def __init__(self, message: str, *, line: int | None = None, column: int | None = None):
        self.message = message
        self.line = line
        self.column = column
        super().__init__(str(self))

    def __str__(self) -> str:
        where = []
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.column is not None:
            where.append(f"column {self.column}")
        return f"{', '.join(where)}: {self.message}" if where else self.message

    def at_line(self, line: int) -> PuzzleError:
        """The same error, placed on a line of a file."""
        return type(self)(self.message, line=line, column=self.column)


class UnsolvedError(PuzzleError):
    """A well-formed puzzle that lacks what the question needs: it has no solution, or
    (for a rating) more than one.  A front end counts it as unsolved, not invalid, and
    ``solutions`` says which where it is known: 0, or 2 for more than one (None: not
    counted).

    >>> UnsolvedError("more than one solution", solutions=2).at_line(4).solutions
    2
    """

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        column: int | None = None,
        solutions: int | None = None,
    ):
        self.solutions = solutions
        super().__init__(message, line=line, column=column)

    def at_line(self, line: int) -> UnsolvedError:
        """The same error, placed on a line of a file."""
        return UnsolvedError(self.message, line=line, column=self.column, solutions=self.solutions)


@dataclass(frozen=True, slots=True)
class Grid:
    """An immutable Sudoku grid: ``cells`` in reading order, 0 for a blank.

    >>> from lazyfun.sudoku import parse
    >>> g = parse("1.3." "..1." ".1.." "...1")
    >>> g.box, g.size, g.cells[:4]
    (2, 4, (1, 0, 3, 0))
    >>> str(g)
    '1030001001000001'
    >>> print(g.pretty())
    1 . | 3 .
    . . | 1 .
    ----+----
    . 1 | . .
    . . | . 1
    """

    cells: tuple[int, ...]
    box: int
    symbols: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if self.box not in BOX_SIZES:
            raise PuzzleError(f"unsupported box size {self.box}; supported: 2, 3, 4, 5")
        n = self.box * self.box
        if len(self.cells) != n * n:
            raise PuzzleError(f"expected {n * n} cells ({n}x{n}), got {len(self.cells)}")
        if not self.symbols:
            object.__setattr__(self, "symbols", SYMBOLS[:n])
        for i, v in enumerate(self.cells):
            if not 0 <= v <= n:
                raise PuzzleError(f"value {v} out of range 0..{n}", column=i + 1)

    def __reduce__(self) -> tuple[Callable[[bytes, int, str], Grid], tuple[bytes, int, str]]:
        """Pickle the values as bytes: grids travel back from workers by the thousand,
        and this way they load in two thirds of the time."""
        return _unpickle_grid, (bytes(self.cells), self.box, self.symbols)

    @property
    def size(self) -> int:
        """N, the side of the grid and the number of values."""
        return self.box * self.box

    @property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        """The grid as a matrix: a tuple of rows."""
        n = self.size
        return tuple(self.cells[i : i + n] for i in range(0, n * n, n))

    @classmethod
    def from_rows(cls, rows: tuple[tuple[int, ...], ...] | list[list[int]]) -> Grid:
        """Build a grid from a matrix of values (0 for a blank)."""
        n = len(rows)
        return cls(tuple(v for row in rows for v in row), isqrt(n))

    @property
    def givens(self) -> int:
        """The number of filled cells."""
        return sum(1 for v in self.cells if v)

    def is_complete(self) -> bool:
        """Whether no cell is blank."""
        return 0 not in self.cells

    def symbol(self, value: int) -> str:
        """The character that writes ``value`` (``.`` for a blank)."""
        return self.symbols[value - 1] if value else "."

    def __str__(self) -> str:
        blank = "." if "0" in self.symbols else "0"
        return "".join(self.symbols[v - 1] if v else blank for v in self.cells)

    def _repr_svg_(self) -> str | None:
        """The grid as a picture, for Jupyter (drawn by :mod:`lazyfun.sudoku.svg`)."""
        return drawn(self)

    def pretty(self) -> str:
        """Rows on lines, boxes separated by ``|`` and ``-`` rules."""
        b, n = self.box, self.size
        width = max(len(s) for s in self.symbols)
        lines = [
            " | ".join(
                " ".join(self.symbol(v).rjust(width) for v in row[c : c + b])
                for c in range(0, n, b)
            )
            for row in self.rows
        ]
        rule = "".join("+" if ch == "|" else "-" for ch in lines[0])
        for r in range(n - b, 0, -b):
            lines.insert(r, rule)
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class MarkedGrid:
    """A grid with pencil marks: the placed values, and the candidates of every cell.

    ``candidates[c]`` is ``(v,)`` for a cell placed with v, else the values still
    thought possible there, in order (at least one).  This is what a pencil-mark
    grid holds; :func:`lazyfun.sudoku.read` returns one for such input, and
    ``steps``, ``hint``, ``rate`` and ``solve`` take one where they take a grid
    (the steps start from these candidates; the solutions honour them).

    >>> from lazyfun.sudoku import parse
    >>> marked = MarkedGrid.of(parse("1..." "..1." ".1.." "...1"), {1: [2, 4]})
    >>> marked.candidates[:3]
    ((1,), (2, 4), (2, 3, 4))
    >>> marked.ruled_out()[:2]
    ((1, 1), (1, 3))
    """

    grid: Grid
    candidates: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        grid, n = self.grid, self.grid.size
        if len(self.candidates) != n * n:
            raise PuzzleError(
                f"expected candidates for {n * n} cells ({n}x{n}), got {len(self.candidates)}"
            )
        for cell, (value, marks) in enumerate(zip(grid.cells, self.candidates, strict=True)):
            if value and marks != (value,):
                raise PuzzleError(
                    f"{cell_name(cell, n)} holds {grid.symbol(value)}: its candidates must be"
                    f" ({value},), got {marks}"
                )
            if not marks:
                raise PuzzleError(f"{cell_name(cell, n)} has no candidate left")
            if list(marks) != sorted(set(marks)) or not 1 <= marks[0] <= marks[-1] <= n:
                raise PuzzleError(
                    f"{cell_name(cell, n)}: candidates must be distinct values 1..{n} in order,"
                    f" got {marks}"
                )

    @classmethod
    def of(cls, grid: Grid, marks: Mapping[int, Iterable[int]] | None = None) -> MarkedGrid:
        """The grid with the usual pencil marks (the values no placed peer rules out),
        narrowed to ``marks`` (cell -> values) where given."""
        peers = peer_sets(grid.box)
        every = range(1, grid.size + 1)
        narrowed = marks or {}
        candidates: list[tuple[int, ...]] = []
        for cell, value in enumerate(grid.cells):
            if value:
                candidates.append((value,))
                continue
            seen = {grid.cells[p] for p in peers[cell]}
            keep = set(narrowed.get(cell, every))
            candidates.append(tuple(v for v in every if v not in seen and v in keep))
        return cls(grid, tuple(candidates))

    def marks(self) -> dict[int, tuple[int, ...]]:
        """The candidates of the empty cells, as ``steps`` and ``hint`` take them."""
        return {c: m for c, m in enumerate(self.candidates) if not self.grid.cells[c]}

    def ruled_out(self) -> tuple[tuple[int, int], ...]:
        """The (cell, value) pairs the marks rule out in the empty cells."""
        every = range(1, self.grid.size + 1)
        return tuple(
            (c, v)
            for c, m in enumerate(self.candidates)
            if not self.grid.cells[c]
            for v in every
            if v not in m
        )

    def __str__(self) -> str:
        """The one-line pencil-mark form: N characters a cell, a value's symbol at its
        place when it is a candidate, ``.`` when not (729 characters for 9x9)."""
        grid = self.grid
        return "".join(
            grid.symbols[v - 1] if v in marks else "."
            for marks in self.candidates
            for v in range(1, grid.size + 1)
        )

    def _repr_svg_(self) -> str | None:
        """The grid and its candidates as a picture, for Jupyter."""
        return drawn(self)


_PICTURES: dict[type, Callable[[Any], str]] = {}


def draws(kind: type[T], draw: Callable[[T], str]) -> None:
    """Let ``draw`` make the picture a notebook shows of each ``kind`` (a grid, a step's
    position).  The pictures register theirs (:mod:`lazyfun.sudoku.svg`, imported with
    the first name read from :mod:`lazyfun.sudoku`), so the board knows no picture."""
    _PICTURES[kind] = draw


def drawn(thing: object) -> str | None:
    """The picture of ``thing`` for a notebook, or None (no picture: Jupyter shows the
    text) when nothing registered one for its kind."""
    draw = _PICTURES.get(type(thing))
    return None if draw is None else draw(thing)


def marked_or_grid(marked: MarkedGrid) -> Grid | MarkedGrid:
    """The marked grid, or its grid when its marks rule nothing out (every value a
    candidate in every blank): how a reader gives back a grid written without marks.

    >>> from lazyfun.sudoku import parse
    >>> empty = parse("0" * 16)
    >>> marked_or_grid(MarkedGrid.of(empty)) == empty
    True
    >>> isinstance(marked_or_grid(MarkedGrid.of(empty, {0: [1, 2]})), MarkedGrid)
    True
    """
    return marked if marked.ruled_out() else marked.grid


def grid_of(puzzle: Grid | MarkedGrid) -> Grid:
    """The placed values of a puzzle: a grid itself, or a marked grid's grid."""
    return puzzle.grid if isinstance(puzzle, MarkedGrid) else puzzle


@cache
def _unpickle_grid(cells: bytes, box: int, symbols: str) -> Grid:
    """A pickled grid back: its values were checked when it was made."""
    grid = object.__new__(Grid)
    object.__setattr__(grid, "cells", tuple(cells))
    object.__setattr__(grid, "box", box)
    object.__setattr__(grid, "symbols", symbols)
    return grid


def check_givens(grid: Grid) -> None:
    """Raise ``PuzzleError`` naming the first two givens that share a unit and a value.

    >>> from lazyfun.sudoku import parse
    >>> check_givens(parse("1..1" "...." "...." "...."))
    Traceback (most recent call last):
    ...
    lazyfun.sudoku.board.grid.PuzzleError: givens conflict: r1c1 and r1c4 are both 1
    """
    n = grid.size
    for unit in units(grid.box):
        seen: dict[int, int] = {}
        for cell in unit:
            v = grid.cells[cell]
            if not v:
                continue
            if v in seen:
                a, b = sorted((seen[v], cell))
                raise PuzzleError(
                    f"givens conflict: {cell_name(a, n)} and {cell_name(b, n)} "
                    f"are both {grid.symbol(v)}"
                )
            seen[v] = cell
