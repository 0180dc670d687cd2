"""Answering puzzle lines: the one way every front end turns a line into an answer.

The command line, the dask workers and the demo all answer a puzzle line the
same way: parse it, check its givens, refuse what would not finish, then
solve it (or count, check uniqueness, canonicalise) and time it.
:func:`answers` is that one way, and :class:`Answer` is what it gives back:
a typed, immutable (and picklable) record that a front end renders.

A bad line never stops a batch: it is answered ``"invalid"`` in its place,
and the lines after it are still read, one at a time.

>>> request = Request(mode="count")
>>> [(a.line, a.kind, a.count) for a in answer_lines(["# a comment", "1...", "0" * 16], request)]
[(2, 'invalid', None), (3, 'count', 288)]

The solution of a puzzle is checked: one with more than one solution is
answered with none, and says so (mode ``first`` takes the first one found).

>>> [(a.grid, a.problem) for a in answers(1, "0" * 16, Request())]
[(None, 'more than one solution')]
>>> print(next(answers(1, "0" * 16, Request("first"))).grid)
1234341221434321
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Literal, get_args

from lazyfun.core import many
from lazyfun.sudoku import variants
from lazyfun.sudoku.bird import (
    choices,
    count_candidates,
    prune,
    solve_naive,
    solve_pruned,
    solve_search,
)
from lazyfun.sudoku.board.formats import split
from lazyfun.sudoku.board.grid import Grid, MarkedGrid, PuzzleError, check_givens, grid_of
from lazyfun.sudoku.canon import minlex
from lazyfun.sudoku.canon.canonical import minlex_line
from lazyfun.sudoku.solving import nine
from lazyfun.sudoku.solving.engine import solve
from lazyfun.sudoku.variants.exchange import read_puzzle, read_variant
from lazyfun.vocab import ilen

__all__ = [
    "CANDIDATE_LIMIT",
    "METHODS",
    "MODES",
    "MORE_THAN_ONE",
    "Answer",
    "Kind",
    "Method",
    "Mode",
    "Request",
    "answer_line",
    "answer_lines",
    "answers",
    "numbered",
    "refusal",
    "solver",
]

Mode = Literal["solution", "first", "all", "count", "unique", "minlex"]
Method = Literal["engine", "search", "pruned", "naive", "csp"]
Kind = Literal["solution", "count", "unique", "minlex", "invalid", "refused"]
MODES: tuple[Mode, ...] = get_args(Mode)
METHODS: tuple[Method, ...] = get_args(Method)

# Bird's specification stages stream every candidate grid; past this many
# they would not finish in reasonable time, so they refuse unless forced.
CANDIDATE_LIMIT = 10**7

# What a puzzle with several solutions is answered in mode "solution".
MORE_THAN_ONE = "more than one solution"


@dataclass(frozen=True, slots=True)
class Request:
    """What to do with each puzzle.

    ``mode``: the ``solution``, checked to be the only one (the search goes
    on to a second), the ``first`` solution found (unchecked), ``all`` of
    them, their ``count``, whether the puzzle is ``unique``, or its
    ``minlex`` form.  ``limit`` caps ``all`` and ``count``; ``force`` runs
    Bird's naive stages even where they would stream more than
    :data:`CANDIDATE_LIMIT` candidates.
    """

    mode: Mode = "solution"
    method: Method = "engine"
    limit: int | None = None
    force: bool = False
    variant: bool = False

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"unknown mode {self.mode!r}: choose one of {', '.join(MODES)}")
        if self.method not in METHODS:
            raise ValueError(f"unknown method {self.method!r}: choose one of {', '.join(METHODS)}")
        if self.limit is not None and self.limit < 1:
            raise ValueError(f"limit must be at least 1, got {self.limit}")


@dataclass(frozen=True, slots=True)
class Answer:
    """One answer to one puzzle line.

    ``kind`` says which fields are set:

    - ``"solution"``: ``grid`` is a solution, or None when there is none;
      with mode ``solution``, ``count`` is how many were seen (0, 1, or 2:
      then ``grid`` is None and ``problem`` is :data:`MORE_THAN_ONE`); with
      mode ``all``, ``index`` numbers the solutions from 1;
    - ``"count"``: ``count`` solutions (up to the request's limit);
    - ``"unique"``: ``count`` solutions seen, at most 2 (1 means unique);
    - ``"minlex"``: ``grid`` is the canonical form;
    - ``"invalid"``: ``problem`` says what is wrong, at ``column`` if known;
    - ``"refused"``: ``problem`` says why the method would not finish.

    ``ms`` is the time spent on it (for mode ``all``: since the previous
    solution).
    """

    line: int
    text: str
    kind: Kind
    grid: Grid | None = None
    count: int | None = None
    index: int | None = None
    problem: str | None = None
    column: int | None = None
    ms: float = 0.0

    @property
    def solved(self) -> bool:
        """Whether the puzzle got what was asked: a solution, a count, uniqueness, a form."""
        if self.kind in ("invalid", "refused"):
            return False
        if self.kind == "solution":
            return self.grid is not None
        if self.kind == "unique":
            return self.count == 1
        return True


def numbered(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """The puzzles in the lines, each with the 1-based line it starts on: one line each,
    or the rows of a grid, an ``.sdk`` or an ``.ss`` puzzle
    (:func:`lazyfun.sudoku.board.formats.split`).

    Blank lines and ``#`` lines are skipped but still counted.

    >>> list(numbered(["# a comment", "", "1.|..", "..|1.", ".1|..", "..|.1", "4" * 16]))
    [(3, '1.|..\\n..|1.\\n.1|..\\n..|.1'), (7, '4444444444444444')]
    """
    for entry in split(lines):
        yield entry.line, entry.text


def refusal(method: Method, grid: Grid) -> str | None:
    """Why ``method`` would not finish on ``grid`` in reasonable time (None: it will).

    >>> from lazyfun.sudoku import parse
    >>> print(refusal("naive", parse("0" * 81)))
    naive would stream 9^81 = 1.97e+77 candidate grids (limit 1e+07)
    """
    if method not in ("naive", "pruned"):
        return None
    matrix = choices(grid.rows)
    if method == "pruned":
        matrix = many(prune, matrix)
    count = count_candidates(matrix)
    if count <= CANDIDATE_LIMIT:
        return None
    blanks = grid.cells.count(0)
    size = f"{grid.size}^{blanks} = {count:.3g}" if method == "naive" else f"{count:.3g}"
    return f"{method} would stream {size} candidate grids (limit {CANDIDATE_LIMIT:.0e})"


def _solve_csp(grid: Grid) -> Iterator[Grid]:
    """Solutions from the constraint model (``lazyfun.csp``), as grids."""
    from lazyfun.csp.examples import sudoku_model

    if grid.box > 3:
        raise PuzzleError(f"the csp method models 4x4 and 9x9 grids, not {grid.size}x{grid.size}")
    model, decisions = sudoku_model("".join(map(str, grid.cells)), "all_different", box=grid.box)
    for solution in model.solutions():
        yield Grid(tuple(solution[d] for row in decisions for d in row), grid.box, grid.symbols)


_SOLVERS: dict[Method, Callable[[Grid], Iterator[Grid]]] = {
    "engine": solve,
    "search": solve_search,
    "pruned": solve_pruned,
    "naive": solve_naive,
    "csp": _solve_csp,
}


def solver(method: Method) -> Callable[[Grid], Iterator[Grid]]:
    """The solution stream of a method: the ``engine``, Bird's ``search``/``pruned``/``naive``,
    or the ``csp`` model.

    >>> from lazyfun.sudoku import parse
    >>> print(next(solver("search")(parse("1..." "..1." ".1.." "...1"))))
    1234341221434321
    """
    if method not in _SOLVERS:
        raise ValueError(f"unknown method {method!r}: choose one of {', '.join(METHODS)}")
    return _SOLVERS[method]


def answers(number: int, text: str, request: Request) -> Iterator[Answer]:
    """Every answer to one puzzle line, lazily: one, or with mode ``all`` one per solution.

    >>> [str(a.grid) for a in answers(1, ".2.." "3..1" "4..2" "..3.", Request())]
    ['1243342143122134']
    >>> [str(a.grid) for a in answers(1, "1..." "..1." ".1.." "...1", Request("first"))]
    ['1234341221434321']
    >>> next(answers(7, "1..." "..1." ".1.." "..1", Request())).problem
    'expected 16 cells (4x4), got 15'
    """
    start = time.perf_counter()

    def elapsed() -> float:
        return (time.perf_counter() - start) * 1000

    try:
        if request.variant:
            yield from _answered(number, text, request, variants.solve(read_variant(text)), start)
            return
        puzzle = read_puzzle(text)
        if isinstance(puzzle, variants.Variant):
            yield from _variant_answers(number, text, request, puzzle, start)
            return
        grid = grid_of(puzzle)
        if isinstance(puzzle, MarkedGrid) and request.mode == "minlex":
            raise PuzzleError(
                "a pencil-mark grid has no minlex form here: canon relabels a grid's values,"
                " and candidates are not carried through (convert it --to 81 first)"
            )
        if request.mode == "minlex":
            yield Answer(number, text, "minlex", grid=minlex(grid), ms=elapsed())
            return
        check_givens(grid)
        if isinstance(puzzle, MarkedGrid) and request.method != "engine":
            raise PuzzleError(
                f"the {request.method} method reads no pencil marks: use --method engine"
            )
        reason = None if request.force else refusal(request.method, grid)
        if reason is not None:
            yield Answer(number, text, "refused", problem=reason)
            return
        solutions = (
            solve(puzzle) if isinstance(puzzle, MarkedGrid) else solver(request.method)(grid)
        )
        yield from _answered(number, text, request, solutions, start)
    except PuzzleError as error:
        line = number if error.line is None else number + error.line - 1
        yield Answer(line, text, "invalid", problem=error.message, column=error.column)


def _variant_answers(
    number: int, text: str, request: Request, puzzle: variants.Variant, start: float
) -> Iterator[Answer]:
    """A variant met among classic lines: solved by the engine; canon refuses it (minlex
    raises the reason)."""
    if request.mode == "minlex":
        minlex(puzzle)
    if request.method != "engine":
        raise PuzzleError(
            f"the {request.method} method solves classic grids: a variant takes the engine"
        )
    return _answered(number, text, request, variants.solve(puzzle), start)


def _answered(
    number: int, text: str, request: Request, solutions: Iterator[Grid], start: float
) -> Iterator[Answer]:
    """The answers a request asks of a puzzle's solution stream (begun at ``start``)."""

    def elapsed() -> float:
        return (time.perf_counter() - start) * 1000

    if request.mode in ("count", "unique"):
        cap = 2 if request.mode == "unique" else request.limit
        found = ilen(islice(solutions, cap))
        yield Answer(number, text, request.mode, count=found, ms=elapsed())
    elif request.mode == "solution":
        seen = list(islice(solutions, 2))
        if len(seen) > 1:
            yield Answer(number, text, "solution", count=2, problem=MORE_THAN_ONE, ms=elapsed())
        else:
            grid = seen[0] if seen else None
            yield Answer(number, text, "solution", grid=grid, count=len(seen), ms=elapsed())
    elif request.mode == "all":
        index = 0
        for index, solution in enumerate(islice(solutions, request.limit), 1):
            yield Answer(number, text, "solution", grid=solution, index=index, ms=elapsed())
            start = time.perf_counter()
        if not index:
            yield Answer(number, text, "solution", ms=elapsed())
    else:
        yield Answer(number, text, "solution", grid=next(solutions, None), ms=elapsed())


def _limit_in_c(request: Request) -> int | None:
    """The solutions the 9x9 engine in C looks for when it answers a plain line itself
    (the request's mode needs no more), or None when the request goes the long way."""
    if not nine.FAST or request.variant or request.method != "engine":
        return None
    limits: dict[Mode, int | None] = {
        "solution": 2,
        "first": 1,
        "unique": 2,
        "count": request.limit,
    }
    return limits.get(request.mode)


def _answered_in_c(number: int, text: str, request: Request, limit: int) -> Answer | None:
    """The answer to a plain 9x9 line (81 characters: 1-9 given, ``.`` or ``0`` blank) in
    one call into C, with no grid parsed on the way; None for any other line, and for
    givens that clash (:func:`answers` names them)."""
    if len(text) != 81:
        return None
    start = time.perf_counter()
    try:
        ((count, digits),) = nine.solve_lines([text], limit)
    except ValueError:  # another alphabet or a comment: the readers know it
        return None
    if count < 0:
        return None
    ms = (time.perf_counter() - start) * 1000
    if request.mode in ("count", "unique"):
        return Answer(number, text, request.mode, count=count, ms=ms)
    if request.mode == "solution" and count > 1:
        return Answer(number, text, "solution", count=2, problem=MORE_THAN_ONE, ms=ms)
    grid = None if digits is None else Grid(tuple(map(int, digits)), 3)
    seen = count if request.mode == "solution" else None
    return Answer(number, text, "solution", grid=grid, count=seen, ms=ms)


def answer_line(number: int, text: str, request: Request) -> list[Answer]:
    """Every answer to one numbered line, as :func:`answer_lines` gives it (a plain 9x9
    line straight to the engine in C, when the request allows): what a worker of
    :func:`lazyfun.runs.jobs.solve_file` sends back.  Eager: one line's answers, a list.

    >>> [(a.kind, a.count) for a in answer_line(3, "0" * 81, Request("count", limit=5))]
    [('count', 5)]
    """
    return list(_answers_to(number, text, request, _limit_in_c(request)))


def answer_lines(lines: Iterable[str], request: Request) -> Iterator[Answer]:
    """The answers to every puzzle line, in input order, one line read at a time (a plain
    9x9 line straight to the engine in C, when the request allows)."""
    limit = _limit_in_c(request)
    for number, text in numbered(lines):
        yield from _answers_to(number, text, request, limit)


def _minlex_in_c(number: int, text: str) -> Answer | None:
    """The minlex form of a plain 9x9 line in one call into C, or None (the long way)."""
    start = time.perf_counter()
    form = minlex_line(text)
    if form is None:
        return None
    grid = Grid(tuple(map(int, form)), 3)
    return Answer(number, text, "minlex", grid=grid, ms=(time.perf_counter() - start) * 1000)


def _answers_to(number: int, text: str, request: Request, limit: int | None) -> Iterator[Answer]:
    """The answers to one line: from the engines in C when the line is a plain 9x9 one
    and the request allows (a solve's ``limit`` is not None, or a minlex), else
    :func:`answers`'s."""
    if request.mode == "minlex" and not request.variant:
        answer = _minlex_in_c(number, text)
    else:
        answer = None if limit is None else _answered_in_c(number, text, request, limit)
    if answer is None:
        yield from answers(number, text, request)
    else:
        yield answer
