"""Eager counterparts of the lazy programs, kept for study only.

Each builds whole lists where its lazy twin streams, so the cost of eagerness
can be measured rather than described.  Run them on tiny inputs: the eager
Sudoku specification materialises every candidate grid (9^blanks of them)
before it tests the first, and the list-comprehension queens recomputes the
smaller boards over and over (n = 8 takes about half a minute).

The queens versions are the classic Python article's, with its lists: a
placement is ``[ran] + rst``, the row of the newest column first, so
``queens_comprehension(4, 4)`` is ``[[1, 3, 0, 2], [2, 0, 3, 1]]``.  Each takes
an optional :class:`Work` that it fills in as it runs, and
:func:`predicted_work` gives the same counts by arithmetic, so the blow-up of
the comprehension can be stated for boards it would take hours to run.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Literal

from lazyfun.queens.board import board_size
from lazyfun.queens.count import count_queens
from lazyfun.sudoku.bird import Matrix, choices, valid
from lazyfun.sudoku.board.grid import Grid

__all__ = [
    "Work",
    "expand_eager",
    "predicted_work",
    "queens_comprehension",
    "queens_flatmap",
    "solve_naive_eager",
]


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


@dataclass
class Work:
    """What an eager queens run did: calls of ``queens`` and candidates tested.

    A candidate is one pair (new row, smaller placement) offered to ``safe``:
    the partial placements the program builds or considers.
    """

    calls: int = 0
    candidates: int = 0


def _safe(ran: int, rst: list[int]) -> bool:
    """The article's ``safe``: the new queen shares no row and no diagonal with ``rst``.

    ``rst[pos]`` is the row of the queen ``pos + 1`` columns back.
    """
    return all(not (ran == rst[pos] or abs(ran - rst[pos]) == pos + 1) for pos in range(len(rst)))


def queens_comprehension(
    rows: int, cols: int | None = None, work: Work | None = None
) -> list[list[int]]:
    """The article's first version: the recursive call inside the inner loop.

    ``[[ran] + rst for ran in range(row) for rst in queens(row, col - 1) if safe(ran, rst)]``
    calls ``queens(row, col - 1)`` once for every ``ran``: ``rows`` times per
    level, about ``rows ** cols`` calls in all.  Eager: returns the whole list.

    >>> work = Work()
    >>> queens_comprehension(4, 4, work)
    [[1, 3, 0, 2], [2, 0, 3, 1]]
    >>> work
    Work(calls=341, candidates=624)
    """
    rows, cols = board_size(rows, cols)
    tally = Work() if work is None else work

    def go(col: int) -> list[list[int]]:
        tally.calls += 1
        if col == 0:
            return [[]]
        result = []
        for ran in range(rows):
            for rst in go(col - 1):
                tally.candidates += 1
                if _safe(ran, rst):
                    result.append([ran, *rst])
        return result

    return go(cols)


def queens_flatmap(rows: int, cols: int | None = None, work: Work | None = None) -> list[list[int]]:
    """The article's fix: ``flatmap(newcol, queens(row, col - 1))``, each level computed once.

    ``newcol rst`` offers every row for the new column and keeps the safe
    ones; ``flatmap`` maps ``newcol`` and appends the lists.  (The article
    appends with ``reduce(list.__add__, ...)``, which copies the growing
    result at every step; ``list.extend`` keeps the append linear, so what
    remains is the cost of eagerness itself.)  Still eager: each level is a
    complete list before the next starts, so memory grows with the number of
    placements.

    >>> work = Work()
    >>> queens_flatmap(4, 4, work)
    [[2, 0, 3, 1], [1, 3, 0, 2]]
    >>> work
    Work(calls=5, candidates=60)
    """
    rows, cols = board_size(rows, cols)
    tally = Work() if work is None else work

    def newcol(rst: list[int]) -> list[list[int]]:
        tally.candidates += rows
        return [[x, *rst] for x in range(rows) if _safe(x, rst)]

    def go(col: int) -> list[list[int]]:
        tally.calls += 1
        if col == 0:
            return [[]]
        result: list[list[int]] = []
        for extended in map(newcol, go(col - 1)):
            result.extend(extended)
        return result

    return go(cols)


def predicted_work(
    version: Literal["comprehension", "flatmap"], rows: int, cols: int | None = None
) -> Work:
    """The :class:`Work` a version will do, by arithmetic instead of by running it.

    With ``Q(k)`` the placements of ``k`` columns (``count_queens(rows, k)``):

    - comprehension: ``calls(k) = 1 + rows * calls(k - 1)`` and
      ``candidates(k) = rows * (candidates(k - 1) + Q(k - 1))``;
    - flatmap: ``calls(k) = 1 + calls(k - 1)`` and
      ``candidates(k) = candidates(k - 1) + rows * Q(k - 1)``;

    both from ``calls(0) = 1``, ``candidates(0) = 0``.

    >>> predicted_work("comprehension", 8)
    Work(calls=19173961, candidates=50889536)
    >>> predicted_work("flatmap", 8)
    Work(calls=9, candidates=15720)
    """
    rows, cols = board_size(rows, cols)
    calls, candidates = 1, 0
    for k in range(1, cols + 1):
        smaller = count_queens(rows, k - 1)
        if version == "comprehension":
            calls, candidates = 1 + rows * calls, rows * (candidates + smaller)
        else:
            calls, candidates = calls + 1, candidates + rows * smaller
    return Work(calls, candidates)
