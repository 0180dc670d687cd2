"""Eager counterparts of the lazy programs, kept for study only.

Each builds whole lists where its lazy twin streams, so the cost of eagerness
can be measured rather than described.  Run them on tiny inputs: the eager
Sudoku specification materialises every candidate grid (9^blanks of them)
before it tests the first.
"""

from __future__ import annotations

from itertools import product

from lazyfun.sudoku.bird import Matrix, choices, valid
from lazyfun.sudoku.grid import Grid

__all__ = ["expand_eager", "solve_naive_eager"]


def expand_eager(m: Matrix[tuple[int, ...]]) -> list[Matrix[int]]:
    """``expand = cp . map cp`` with every list built: the whole candidate list, at once.

    >>> len(expand_eager((((1, 2), (3,)), ((1,), (2, 4)))))
    4
    """
    row_products = [list(product(*row)) for row in m]
    return [tuple(rows) for rows in product(*row_products)]


def solve_naive_eager(grid: Grid) -> list[Grid]:
    """``filter valid . expand . choices``, eagerly: builds all candidates, then filters.

    >>> from lazyfun.sudoku import parse
    >>> [str(g) for g in solve_naive_eager(parse("1234341221434.2."))]
    ['1234341221434321']
    """
    candidates = expand_eager(choices(grid.rows))
    return [Grid.from_rows(g) for g in candidates if valid(g)]
