"""Sudoku grids: the immutable ``Grid``, its text forms, and ``PuzzleError``.

A grid of box size b has side N = b*b (b = 2..5: 4x4, 9x9, 16x16, 25x25).
Cells hold 0 for a blank and 1..N for a value.  Text form: one puzzle per
line, N*N characters, ``0`` or ``.`` for a blank, digits ``1-9`` then letters
(16x16: ``1-9A-G``; 25x25: ``1-9A-P``).  A 16x16 line with ``.`` blanks, a
``0`` and no ``G`` is read in the ``0-9A-F`` alphabet, and the grid prints
its solutions back in the alphabet it was read in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from math import isqrt

from lazyfun.sudoku.geometry import BOX_SIZES, cell_name, units

__all__ = ["Grid", "PuzzleError", "UnsolvedError", "check_givens", "parse"]

_LETTERS = "123456789ABCDEFGHIJKLMNOP"
_HEX = "0123456789ABCDEF"
_SEPARATORS = set(" \t|+-=_*")


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
    (for a rating) more than one.  A front end counts it as unsolved, not invalid."""


@dataclass(frozen=True, slots=True)
class Grid:
    """An immutable Sudoku grid: ``cells`` in reading order, 0 for a blank.

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
            raise PuzzleError(f"expected {n * n} cells, got {len(self.cells)}")
        if not self.symbols:
            object.__setattr__(self, "symbols", _LETTERS[:n])
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

    def _repr_svg_(self) -> str:
        """The grid as a picture, for Jupyter (drawn by :mod:`lazyfun.sudoku.svg`)."""
        from lazyfun.sudoku.svg import grid_svg

        return grid_svg(self)

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

    >>> check_givens(parse("1..1" "...." "...." "...."))
    Traceback (most recent call last):
    ...
    lazyfun.sudoku.grid.PuzzleError: givens conflict: r1c1 and r1c4 are both 1
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


def _alphabet(text: str, n: int) -> tuple[str, str]:
    """The symbols of the values 1..N and the blank characters, for a grid of side N."""
    if n == 16 and "G" not in text.upper() and "." in text and "0" in text:
        return _HEX, "."
    return _LETTERS[:n], "0."


def parse(text: str) -> Grid:
    """Read a grid from its one-line form or a multi-line form with separators.

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
    >>> parse("12345")
    Traceback (most recent call last):
    ...
    lazyfun.sudoku.grid.PuzzleError: expected 16 cells, got 5
    """
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if len(lines) <= 1:
        body = lines[0].strip() if lines else ""
        offsets = list(range(len(body)))
    else:
        body, offsets = _join_rows(lines)
    count = len(body)
    n = _side(count)
    symbols, blanks = _alphabet(body, n)
    values = {ch: i + 1 for i, ch in enumerate(symbols)}
    values.update({ch.lower(): i + 1 for i, ch in enumerate(symbols) if ch.isalpha()})
    cells = []
    for ch, offset in zip(body, offsets, strict=True):
        if ch in blanks:
            cells.append(0)
        elif ch in values:
            cells.append(values[ch])
        else:
            raise PuzzleError(f"unexpected character {ch!r} for a {n}x{n} grid", column=offset + 1)
    return Grid(tuple(cells), isqrt(n), symbols)


def _join_rows(lines: list[str]) -> tuple[str, list[int]]:
    """Cells of a multi-line grid, separators dropped, with their column offsets."""
    body: list[str] = []
    offsets: list[int] = []
    for line in lines:
        if set(line) <= _SEPARATORS:
            continue
        for i, ch in enumerate(line):
            if ch not in _SEPARATORS:
                body.append(ch)
                offsets.append(i)
    return "".join(body), offsets


def _side(count: int) -> int:
    """N for a text of ``count`` cells, or a PuzzleError naming the nearest size."""
    sizes = [(b * b) ** 2 for b in BOX_SIZES]
    if count in sizes:
        return isqrt(count)
    side = isqrt(count)
    if side * side == count and count > 0:
        raise PuzzleError(
            f"unsupported size {side}x{side} ({count} cells); supported: 4x4, 9x9, 16x16, 25x25"
        )
    nearest = min(sizes, key=lambda s: abs(s - count))
    raise PuzzleError(f"expected {nearest} cells, got {count}")
