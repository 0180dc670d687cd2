"""The 9x9 engine in C: the same answers as the depth-first engine, twenty times as fast.

:func:`lazyfun.sudoku.solving.engine.solve`, ``count_solutions`` and ``is_unique``
hand a 9x9 grid or marked grid (with no variant's rules) to this engine when it was
built and ``LAZYFUN_PURE`` is not set (:data:`FAST`); elsewhere the depth-first
engine answers, with the same solutions and counts (its first solution of a puzzle
with several may differ: each searches in its own order).

The engine (``lazyfun/sudoku/solving/nine_c/``) is Bird's ``search . prune .
choices`` again, with the board laid out for the machine:

* the board is a fixed value of 160 bytes: for each band of three rows and each
  value, a 27-bit word of the cells where the value may still go, and each band's
  open cells.  A guess copies it; nothing is ever undone.  A placement clears its
  cell from the band's values by vector ANDs, with no branch a value;
* ``prune`` works on one value at a time, as ANDs on its three words.  In a band the
  value fills one triad (a row's three cells in a box) per row and per box, a
  permutation of a 3x3 matrix: a table of the 512 matrices keeps only the triads some
  permutation uses, which is locked candidates (pointing and claiming) at every node;
  the same table does it down each stack.  A row or column left with one place
  places the value (hidden singles; a box's follows from its row once the triads are
  kept), and a cell left with one value takes it (naked singles);
* ``expand1`` guesses a cell with two values (one in the band with most of them),
  lowest value first; the board it came from loses that value, so when the guess
  fails the board below learns it and propagates it;
* the search keeps a stack of boards inside a :class:`Solutions`, so each solution
  comes on demand; :func:`solve_lines` answers a batch of puzzle lines in one call.

Its reader of a plain 81-character line (``_nine.parse_line``) is the one
``lazyfun.sudoku.parse`` uses for such a line, so ``next(solve(parse(line)))``, or
``solve(line)``, reads the line in C too.

docs/sudoku.md, "The 9x9 engine in C", has the measurements beside tdoku.

>>> from lazyfun.sudoku import parse
>>> puzzle = parse(
...     "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
... )
>>> print(next(solve(puzzle)))
417369825632158947958724316825437169791586432346912758289643571573291684164875293
>>> count_solutions(parse("1" + "." * 80), limit=3)
3
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from typing import Final, NoReturn

from lazyfun.compiled import PURE_ENV
from lazyfun.sudoku.board.grid import Grid, check_givens

try:
    from lazyfun.sudoku.solving import _nine
except ImportError:  # built without a C compiler: the depth-first engine answers
    AVAILABLE = False
else:
    AVAILABLE = True
FAST: Final = AVAILABLE and not os.environ.get(PURE_ENV)  # the engine hands 9x9 to C

__all__ = [
    "AVAILABLE",
    "FAST",
    "Conflict",
    "clash",
    "clashing",
    "count_grid",
    "count_solutions",
    "solutions",
    "solve",
    "solve_lines",
]

RuledOut = Sequence[tuple[int, int]]


def _built() -> None:
    if not AVAILABLE:
        raise RuntimeError(
            "the 9x9 C engine was not built (no C compiler at install time);"
            " lazyfun.sudoku.solving.engine.solve searches depth-first instead"
        )


def _nine_only(grid: Grid) -> None:
    """Refuse what the engine cannot take: no C engine, or not a 9x9 grid."""
    _built()
    if grid.box != 3:
        raise ValueError(f"the C engine solves 9x9 grids, not {grid.size}x{grid.size}")


def clash(grid: Grid) -> NoReturn:
    """Name the givens that clash, as the depth-first engine does (``PuzzleError``)."""
    check_givens(grid)
    raise AssertionError("the C engine saw givens clash that check_givens did not")


def clashing(grid: Grid) -> Iterator[Grid]:
    """The solutions of a grid whose givens clash: the ``PuzzleError`` naming them, when
    the first is asked for (as every engine's ``solve`` raises it)."""
    yield from ()
    clash(grid)


def solve(grid: Grid, ruled_out: RuledOut = ()) -> Iterator[Grid]:
    """Every solution of the 9x9 ``grid`` that puts no value where ``ruled_out`` (cell,
    value pairs) excludes it, lazily: the search waits in C between solutions.  Clashing
    givens are a ``PuzzleError`` when the first solution is asked for.  The stream has a
    generator's methods, as the depth-first engine's has: ``close()`` ends the search and
    frees it, ``send`` and ``throw`` act as a generator's.

    >>> from lazyfun.sudoku import parse
    >>> found = solve(parse("." * 81))
    >>> print(next(found))
    123456789456789123789123456231674895597218364864935217372561948648392571915847632
    """
    _nine_only(grid)
    try:
        return _nine.Solutions(  # pyright: ignore[reportPossiblyUnboundVariable] (_built raised)
            grid, ruled_out or None
        )
    except _nine.Conflict:  # pyright: ignore[reportPossiblyUnboundVariable] (_built raised)
        return clashing(grid)


def count_solutions(grid: Grid, limit: int | None = None, ruled_out: RuledOut = ()) -> int:
    """How many solutions the 9x9 ``grid`` has (keeping to ``ruled_out``), stopping at
    ``limit``.

    >>> from lazyfun.sudoku import parse
    >>> count_solutions(parse("." * 81), limit=1000)
    1000
    """
    _nine_only(grid)
    if limit is not None and limit < 0:
        raise ValueError(f"limit must be None or 0 and up, got {limit}")
    try:
        return _nine.count(  # pyright: ignore[reportPossiblyUnboundVariable] (_built raised)
            grid.cells, -1 if limit is None else limit, ruled_out or None
        )
    except _nine.Conflict:  # pyright: ignore[reportPossiblyUnboundVariable] (_built raised)
        clash(grid)


def solve_lines(lines: Sequence[str], limit: int = 1) -> list[tuple[int, str | None]]:
    """A batch in one call: for each 9x9 puzzle line (81 characters, 1-9 given and
    ``.`` or ``0`` blank, or the 729-character pencil-mark form), its count of
    solutions up to ``limit`` (-1 when two givens clash) and its first solution's
    digits (None when it has none).  A line of another shape is a ``ValueError``
    naming its line and column.

    >>> solve_lines(["1" * 2 + "." * 79, "." * 81], limit=2)[0]
    (-1, None)
    """
    _built()
    return _nine.solve_lines(lines, limit)  # pyright: ignore[reportPossiblyUnboundVariable]


# What the engine calls for a plain 9x9 Grid, once a puzzle in a user's loop: the C
# functions themselves where they were built, with no Python frame around them (about
# 800 instructions of a royle17 puzzle's 41k, by callgrind).  They raise Conflict when
# two givens clash; the caller names them with clash or clashing.  Unbuilt, solve's
# and count_solutions' refusal.
solutions: Callable[[Grid], Iterator[Grid]] = solve
count_grid: Callable[[Grid, int | None], int] = count_solutions
Conflict: type[ValueError] = ValueError
if AVAILABLE:
    solutions = _nine.solutions  # pyright: ignore[reportPossiblyUnboundVariable]
    count_grid = _nine.count_grid  # pyright: ignore[reportPossiblyUnboundVariable]
    Conflict = _nine.Conflict  # pyright: ignore[reportPossiblyUnboundVariable]
