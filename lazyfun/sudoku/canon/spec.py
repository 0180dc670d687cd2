"""The specification of minlex, run as written: the least relabelled arrangement of all.

minlex g = minimum [relabel (arrange a g) | a <- arrangements]
"""

from __future__ import annotations

from lazyfun.sudoku.board.arrangement import band_orders, oriented, relabelled
from lazyfun.sudoku.board.formats import parse  # noqa: F401 (doctests)
from lazyfun.sudoku.board.grid import Grid

__all__ = ["minlex_by_enumeration"]


def minlex_by_enumeration(grid: Grid) -> Grid:
    """The specification, run as written: the least relabelled arrangement of all.

    Eager and exhaustive: 2 * (b!)^(2(b+1)) arrangements, so 128 for a 4x4 grid
    but 3,359,232 for a 9x9 one (minutes).  Tests use it to check ``minlex``.

    >>> print(minlex_by_enumeration(parse("1200" "0000" "0000" "0001")))
    0000000100001200
    """
    box = grid.box
    orders = band_orders(box)
    best: tuple[int, ...] | None = None
    for transpose in (False, True):
        src = oriented(grid, transpose)
        for rows in orders:
            arranged = [src[r] for r in rows]
            for cols in orders:
                candidate = relabelled([row[c] for row in arranged for c in cols])
                if best is None or candidate < best:
                    best = candidate
    assert best is not None
    return Grid(best, box)
