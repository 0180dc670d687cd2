"""The programs' parallel runs: counts split where a search tree branches, puzzle files
answered in partitions; all on the generic machinery of :mod:`lazyfun.parallel`.

- :func:`count_queens_parallel`: the queens count's symmetric walk, cut at a
  column into subtrees (``lazyfun.queens.count.subtrees``);
- :func:`count_solutions_parallel`: the Sudoku engine's search cut
  ``depth`` branchings down by the one tree cut, :func:`lazyfun.parallel.tree.cut`;
- :func:`solve_file` and :func:`canon_file`: each puzzle line answered by
  :func:`lazyfun.runs.batch.answer_line`, exactly as in one process (a plain 9x9
  line in one call into the engine in C), the lines read
  lazily through :func:`lazyfun.parallel.pmap`'s bounded window, answers in
  input order.

``jobs`` and ``scheduler`` choose the workers as every lazyfun.parallel
function does.  This is a front end: it knows the programs, and the core knows
nothing of it.

>>> count_queens_parallel(8, scheduler="sync")
92
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import partial
from typing import TypeVar

from more_itertools import distribute

from lazyfun.parallel import ParallelError, pmap, runner
from lazyfun.parallel.tree import Cut, Tree, cut
from lazyfun.queens.board import board_size
from lazyfun.queens.count import Subtree, count_queens, count_subtree, subtrees
from lazyfun.runs.batch import Answer, Method, Mode, Request, answer_line, numbered
from lazyfun.sudoku.board.grid import Grid, check_givens
from lazyfun.sudoku.solving import engine

__all__ = ["canon_file", "count_queens_parallel", "count_solutions_parallel", "solve_file"]

T = TypeVar("T")

GROUPS_PER_WORKER = 16


def _groups(parts: list[T], workers: int) -> list[list[T]]:
    """Subtrees dealt round-robin into groups, 16 per worker: their sizes vary a lot,
    and small groups keep a worker from idling while the other finishes."""
    count = min(len(parts), GROUPS_PER_WORKER * workers)
    return [list(group) for group in distribute(count, parts)] if parts else []


# --- counts ------------------------------------------------------------------------------


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
    """
    rows, width = board_size(n, cols)
    if rows != width or rows < 8:
        return count_queens(rows, width)
    parts = subtrees(rows, 3 if depth is None else depth)
    with runner(scheduler, jobs) as run:
        groups = _groups(parts, run.workers)
        return sum(run.map(partial(_count_queens_group, rows), groups))


def engine_tree(cells: int) -> Tree[engine.Node]:
    """The Sudoku engine's four functions over boards of ``cells`` cells, as one tree."""
    this = engine.Search(cells)
    return Tree(
        partial(engine.expand1, this),
        engine.complete,
        engine.blocked,
        partial(engine.prune, this),
    )


def _count_sudoku_group(group: list[Cut[engine.Node]]) -> int:
    return sum(1 if part.solution else engine.count_below(part.state) for part in group)


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
    if depth < 0:
        raise ParallelError(f"depth must be at least 0, got {depth}")
    parts = cut(engine.start(grid), engine_tree(grid.size**2), depth=depth)
    with runner(scheduler, jobs) as run:
        groups = _groups(parts, run.workers)
        return sum(run.map(_count_sudoku_group, groups))


# --- puzzle files ------------------------------------------------------------------------


def _answer_line(request: Request, line: tuple[int, str]) -> list[Answer]:
    """Every answer to one numbered line, in a worker (a plain 9x9 line in one call into
    the engine in C)."""
    return answer_line(*line, request)


def _batch(
    lines: Iterable[str],
    request: Request,
    scheduler: str | None,
    jobs: int | None,
    partition: int,
) -> Iterator[Answer]:
    if partition < 1:
        raise ParallelError(f"partition must be at least 1 line, got {partition}")
    work = partial(_answer_line, request)
    done = pmap(work, numbered(lines), jobs=jobs, scheduler=scheduler, chunksize=partition)
    return (answer for found in done for answer in found)


def solve_file(
    lines: Iterable[str],
    *,
    mode: Mode = "solution",
    method: Method = "engine",
    limit: int | None = None,
    force: bool = False,
    scheduler: str | None = None,
    jobs: int | None = None,
    partition: int = 200,
) -> Iterator[Answer]:
    """Answer every puzzle line in parallel: the solution (checked to be the only one),
    the ``first`` found, a count, or uniqueness.

    Lazy: lines are read as partitions are handed out, and answers come back
    in input order.  A bad line is an ``"invalid"`` answer in its place; the
    rest still run.  Mode ``all`` streams from one process only (use
    :func:`lazyfun.runs.batch.answer_lines`).

    >>> [a.kind for a in solve_file(["1...", "0" * 16], scheduler="sync")]
    ['invalid', 'solution']
    """
    if mode in ("all", "minlex"):
        raise ValueError(f"solve_file answers solution, count or unique, not {mode!r}")
    request = Request(mode, method, limit, force)
    return _batch(lines, request, scheduler, jobs, partition)


def canon_file(
    lines: Iterable[str],
    *,
    scheduler: str | None = None,
    jobs: int | None = None,
    partition: int = 500,
) -> Iterator[Answer]:
    """The minlex form of every puzzle line in parallel, in input order."""
    return _batch(lines, Request("minlex"), scheduler, jobs, partition)
