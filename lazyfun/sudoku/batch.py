"""Puzzle files as lazy streams: numbered lines in, grids or errors out.

A bad line never stops a batch: it comes out as a ``PuzzleError`` carrying its
line number, in its place, and the lines after it are still read.  Nothing is
read ahead of what the consumer asks for, so a file of any length streams in
constant memory.

>>> items = read_puzzles(["# two puzzles", "1...", "", "1..." "..1." ".1.." "...1"])
>>> [(number, type(item).__name__) for number, _, item in items]
[(2, 'PuzzleError'), (4, 'Grid')]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator

from lazyfun.core import many
from lazyfun.sudoku.bird import choices, prune, solve_naive, solve_pruned, solve_search
from lazyfun.sudoku.canon import minlex
from lazyfun.sudoku.engine import solve
from lazyfun.sudoku.grid import Grid, PuzzleError, check_givens, parse

__all__ = [
    "CANDIDATE_LIMIT",
    "METHODS",
    "canon_lines",
    "numbered",
    "read_puzzles",
    "refusal",
    "solver",
]

METHODS = ("engine", "search", "pruned", "naive", "csp")

# Bird's specification stages stream every candidate grid; past this many
# they would not finish in reasonable time, so they refuse unless forced.
CANDIDATE_LIMIT = 10**7

Item = tuple[int, str, Grid | PuzzleError]


def numbered(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """The lines that hold puzzles, with their 1-based line numbers.

    Blank lines and ``#`` comments are skipped but still counted.

    >>> list(numbered(["# a comment", "", "  1234  "]))
    [(3, '1234')]
    """
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if text and not text.startswith("#"):
            yield number, text


def read_puzzles(lines: Iterable[str]) -> Iterator[Item]:
    """Each puzzle line parsed and checked: ``(line number, text, Grid or PuzzleError)``."""
    for number, text in numbered(lines):
        try:
            grid = parse(text)
            check_givens(grid)
        except PuzzleError as error:
            yield number, text, error.at_line(number)
        else:
            yield number, text, grid


def canon_lines(lines: Iterable[str]) -> Iterator[Item]:
    """The minlex form of each puzzle line, in input order (errors in their place)."""
    for number, text, item in read_puzzles(lines):
        if isinstance(item, Grid):
            try:
                item = minlex(item)
            except PuzzleError as error:
                item = error.at_line(number)
        yield number, text, item


def _candidates(grid: Grid, pruned: bool) -> int:
    """How many candidate grids ``expand`` would stream for this grid."""
    matrix = choices(grid.rows)
    if pruned:
        matrix = many(prune, matrix)
    return math.prod(len(cs) for row in matrix for cs in row)


def refusal(method: str, grid: Grid) -> str | None:
    """Why ``method`` should not be run on ``grid`` (``None`` when it will finish).

    >>> print(refusal("naive", parse("0" * 81)))
    naive would stream 9^81 = 1.97e+77 candidate grids (limit 1e+07); use --force to try
    """
    if method not in ("naive", "pruned"):
        return None
    count = _candidates(grid, pruned=method == "pruned")
    if count <= CANDIDATE_LIMIT:
        return None
    blanks = grid.cells.count(0)
    size = f"{grid.size}^{blanks} = {count:.3g}" if method == "naive" else f"{count:.3g}"
    return (
        f"{method} would stream {size} candidate grids (limit {CANDIDATE_LIMIT:.0e}); "
        "use --force to try"
    )


def _solve_csp(grid: Grid) -> Iterator[Grid]:
    """Solutions from the constraint model (``lazyfun.csp``), as grids."""
    from lazyfun.csp.examples import sudoku_model

    if grid.box > 3:
        raise PuzzleError(f"the csp method models 4x4 and 9x9 grids, not {grid.size}x{grid.size}")
    model, decisions = sudoku_model("".join(map(str, grid.cells)), "all_different", box=grid.box)
    for solution in model.solutions():
        yield Grid(tuple(solution[d] for row in decisions for d in row), grid.box)


def solver(method: str) -> Callable[[Grid], Iterator[Grid]]:
    """The solution stream of a method: ``engine``, Bird's ``search``/``pruned``/``naive``, ``csp``.

    >>> print(next(solver("search")(parse("1..." "..1." ".1.." "...1"))))
    1234341221434321
    """
    solvers: dict[str, Callable[[Grid], Iterator[Grid]]] = {
        "engine": solve,
        "search": solve_search,
        "pruned": solve_pruned,
        "naive": solve_naive,
        "csp": _solve_csp,
    }
    if method not in solvers:
        raise ValueError(f"unknown method {method!r}: choose one of {', '.join(METHODS)}")
    return solvers[method]
