"""Counting in parallel: a search tree cut into subtrees, one task per group of them.

The first ``depth`` choices of a search (the first queens, the first
branching cells of a Sudoku) cut it into independent subtrees; groups of
subtrees become tasks, and their counts are summed.
"""

from __future__ import annotations

from functools import partial
from typing import TypeVar

from more_itertools import distribute

from lazyfun.parallel.runners import runner
from lazyfun.queens.board import board_size
from lazyfun.queens.count import Subtree, count_queens, count_subtree, subtrees
from lazyfun.sudoku.engine import Node, count_below
from lazyfun.sudoku.engine import subtrees as sudoku_subtrees
from lazyfun.sudoku.grid import Grid, check_givens

__all__ = ["count_queens_parallel", "count_solutions_parallel"]

T = TypeVar("T")


def _groups(parts: list[T], workers: int) -> list[list[T]]:
    """Subtrees dealt round-robin into groups, 16 per worker: their sizes vary a lot,
    and small groups keep a worker from idling while the other finishes."""
    count = min(len(parts), 16 * workers)
    return [list(group) for group in distribute(count, parts)] if parts else []


def _count_queens_group(n: int, group: list[Subtree]) -> int:
    return sum(count_subtree(n, part) for part in group)


def count_queens_parallel(
    n: int,
    cols: int | None = None,
    *,
    depth: int | None = None,
    scheduler: str | None = None,
    jobs: int | None = None,
) -> int:
    """``count_queens(n, cols)``, with the symmetric walk split into subtrees at column ``depth``.

    ``depth`` defaults to 3 (a few hundred subtrees for n = 15).  Rectangular
    and small boards are counted in this process.

    >>> count_queens_parallel(8, scheduler="sync")
    92
    """
    rows, width = board_size(n, cols)
    if rows != width or rows < 8:
        return count_queens(rows, width)
    parts = subtrees(rows, 3 if depth is None else depth)
    with runner(scheduler, jobs) as run:
        groups = _groups(parts, run.workers)
        return sum(run.map(partial(_count_queens_group, rows), groups))


def _count_sudoku_group(group: list[Node]) -> int:
    return sum(count_below(node) for node in group)


def count_solutions_parallel(
    grid: Grid,
    *,
    depth: int = 4,
    scheduler: str | None = None,
    jobs: int | None = None,
) -> int:
    """``count_solutions(grid)``, the engine's search cut ``depth`` branchings down.

    >>> from lazyfun.sudoku import parse
    >>> count_solutions_parallel(parse("0" * 16), scheduler="sync")
    288
    """
    check_givens(grid)
    parts = sudoku_subtrees(grid, depth)
    with runner(scheduler, jobs) as run:
        groups = _groups(parts, run.workers)
        return sum(run.map(_count_sudoku_group, groups))
