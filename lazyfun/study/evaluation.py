"""Three evaluation strategies, measured: strict lists, call-by-name, call-by-need.

Bird's specification ``solve = filter valid . expand . choices`` with
``expand = cp . map cp`` runs three ways:

- **strict** (``lazyfun.eager``): every list built in full, then filtered;
- **call-by-name** (``lazyfun.sudoku.bird.expand``): generators; a row's
  product is recomputed each time the outer product walks it again
  (``reiterable``), so nothing is stored and much is recomputed;
- **call-by-need** (``lazyfun.sudoku.bird.expand_by_need``): ``LazyList``
  and Bird's sharing ``cp``; each tail product is computed once, on demand,
  and reused for every prefix, as GHC runs the book's code.

``row_tuples`` counts the row tuples each strategy computes, from the sizes
of the choices alone; the study prints it beside time and traced peak
memory.  Fibonacci shows the same contrast in
its smallest form: a naive recursive generator against ``LazyList.fix``.

>>> [(m.strategy, m.work) for m in study_evaluation([2], []) if m.program == "sudoku"]
[('strict', 25), ('call-by-name', 666), ('call-by-need', 25)]
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from itertools import islice
from math import prod
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from lazyfun.eager import solve_naive_eager
from lazyfun.lazylist import LazyList
from lazyfun.study.measure import (
    RUNS,
    Timing,
    charts,
    human_bytes,
    labelled,
    peak_bytes,
    runs_note,
    save_chart,
    seconds_cell,
    spread_cell,
    timed,
)
from lazyfun.study.sudoku import LARGEST_BLANKS, blanked
from lazyfun.sudoku import Grid
from lazyfun.sudoku.bird import Choices, Matrix, choices, solve_by_need, solve_naive
from lazyfun.vocab import ilen

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "FIB_LARGEST_NAIVE",
    "STRATEGIES",
    "EvaluationMeasurement",
    "evaluation_figure",
    "evaluation_notes",
    "evaluation_table_rows",
    "fib_by_name",
    "fib_by_need",
    "plot_evaluation",
    "row_tuples",
    "study_evaluation",
]

Strategy = Literal["strict", "call-by-name", "call-by-need"]
STRATEGIES: tuple[Strategy, ...] = ("strict", "call-by-name", "call-by-need")
# The naive recursive generator makes about 2 * fib(k) calls for element k.
FIB_LARGEST_NAIVE = 22


@dataclass(frozen=True)
class EvaluationMeasurement:
    """One strategy on one size: ``size`` blanks (sudoku) or index k (fibonacci).

    ``work`` is what the strategy computed: row tuples for Sudoku (see
    :func:`row_tuples`), generators started or cells computed for Fibonacci.
    ``seconds`` is the best of ``runs`` runs, ``spread`` the slowest less the best.
    """

    program: Literal["sudoku", "fibonacci"]
    size: int
    strategy: Strategy
    seconds: float
    peak_bytes: int
    work: int
    spread: float = 0.0
    runs: int = 1


# --- work, counted from the shape of the input ----------------------------------------


def row_tuples(m: Matrix[Choices], strategy: Strategy) -> int:
    """How many row tuples (elements of the rows' products) ``expand m`` computes.

    Strict and call-by-need compute each row's product once:
    ``sum_i R_i``, where ``R_i`` is the size of row ``i``'s product.
    Call-by-name walks row ``i``'s product once per prefix of the rows
    before it, recomputing it each time: ``sum_i R_0 ... R_(i-1) * R_i``,
    plus one tuple per row computed up front, when ``cp`` checks that no
    row is empty.

    >>> m = choices(((1, 0), (0, 0)))  # row products of 2 and 4 tuples
    >>> [row_tuples(m, s) for s in STRATEGIES]
    [6, 12, 6]
    """
    rows = [prod(len(cs) for cs in row) for row in m]
    if strategy == "call-by-name":
        return sum(prod(rows[:i]) * size for i, size in enumerate(rows)) + len(rows)
    return sum(rows)


# --- fibonacci ---------------------------------------------------------------------------


def fib_by_name(k: int) -> tuple[int, int]:
    """Element ``k`` of ``fibs = 0 : 1 : zipWith (+) fibs (tail fibs)`` with generators,
    and how many generators were started: each reference to ``fibs`` starts a new one.

    >>> fib_by_name(10)
    (55, 177)
    """
    started = 0

    def fibs() -> Iterator[int]:
        nonlocal started
        started += 1
        yield 0
        yield 1
        yield from map(operator.add, fibs(), islice(fibs(), 1, None))

    value = next(islice(fibs(), k, None))
    return value, started


def fib_by_need(k: int) -> tuple[int, int]:
    """The same element from one ``LazyList.fix``, and how many cells it computed.

    >>> fib_by_need(10)
    (55, 11)
    """
    fibs: LazyList[int] = LazyList.fix(
        lambda fibs: LazyList.cons(
            0, lambda: LazyList.cons(1, lambda: fibs.zip_with(operator.add, fibs.tail))
        )
    )
    return fibs[k], fibs.forced()


# --- the study ----------------------------------------------------------------------------


def study_evaluation(
    blanks: Iterable[int] = range(1, 6),
    fib_indices: Iterable[int] = (10, 16, 22),
    *,
    runs: int = RUNS,
    progress: Callable[[str], None] | None = None,
) -> Iterator[EvaluationMeasurement]:
    """Each strategy on Bird's specification with ``blanks`` blank cells, then Fibonacci.

    One measurement at a time: the best of ``runs`` timed runs (and their
    spread), and one more traced for peak memory; ``progress`` is told what
    is about to be measured.  Sizes past ``LARGEST_BLANKS`` blanks, or a
    naive Fibonacci index past ``FIB_LARGEST_NAIVE``, are refused
    (``ValueError``) before anything runs.
    """
    blanks, fib_indices = list(blanks), list(fib_indices)
    if any(not 1 <= k <= LARGEST_BLANKS for k in blanks):
        raise ValueError(f"blanks must be between 1 and {LARGEST_BLANKS}, got {blanks}")
    if any(not 0 <= k <= FIB_LARGEST_NAIVE for k in fib_indices):
        raise ValueError(f"fibonacci indices must be between 0 and {FIB_LARGEST_NAIVE}")
    tell = progress or (lambda what: None)
    for k in blanks:
        grid = blanked(k)
        m = choices(grid.rows)
        strategies: list[tuple[Strategy, Callable[[], object]]] = [
            ("strict", partial(_count_list, solve_naive_eager, grid)),
            ("call-by-name", partial(_count_stream, solve_naive, grid)),
            ("call-by-need", partial(_count_stream, solve_by_need, grid)),
        ]
        for strategy, run in strategies:
            tell(f"{strategy} sudoku with {k} blanks")
            t = timed(run, runs)
            yield EvaluationMeasurement(
                "sudoku",
                k,
                strategy,
                t.best,
                peak_bytes(run),
                row_tuples(m, strategy),
                t.spread,
                t.runs,
            )
    for k in fib_indices:
        fibs: tuple[tuple[Strategy, Callable[[int], tuple[int, int]]], ...] = (
            ("call-by-name", fib_by_name),
            ("call-by-need", fib_by_need),
        )
        for strategy, fib in fibs:
            tell(f"{strategy} fibonacci {k}")
            fib_k = partial(fib, k)
            t = timed(fib_k, runs)
            yield EvaluationMeasurement(
                "fibonacci", k, strategy, t.best, peak_bytes(fib_k), fib_k()[1], t.spread, t.runs
            )


def _count_list(solver: Callable[[Grid], list[Grid]], grid: Grid) -> int:
    return len(solver(grid))


def _count_stream(solver: Callable[[Grid], Iterator[Grid]], grid: Grid) -> int:
    return ilen(solver(grid))


def evaluation_table_rows(
    measurements: Iterable[EvaluationMeasurement],
) -> Iterator[tuple[str, ...]]:
    """Each measurement as printable cells: program, size, strategy, time, spread, peak,
    work."""
    for m in measurements:
        yield (
            m.program,
            str(m.size),
            m.strategy,
            seconds_cell(m.seconds),
            spread_cell(Timing(m.seconds, m.spread, m.runs)),
            human_bytes(m.peak_bytes),
            f"{m.work:,}",
        )


def evaluation_notes(measurements: Iterable[EvaluationMeasurement]) -> list[str]:
    """The table's footnotes: the figures' meaning and the work's unit for each program."""
    runs = max((m.runs for m in measurements), default=RUNS)
    return [
        runs_note(runs),
        "work: row tuples computed (sudoku; size = blanks), generators started or cells\n"
        "computed (fibonacci; size = index).  Call-by-name recomputes what call-by-need\n"
        "computes once and shares; strict builds every candidate before filtering.",
    ]


def evaluation_figure(measurements: Iterable[EvaluationMeasurement]) -> Figure:
    """Time and peak memory of the Sudoku runs against blanks, one line per strategy."""
    data = [m for m in measurements if m.program == "sudoku"]
    figure, left, right = charts("blank cells (cells left empty)")
    for strategy in STRATEGIES:
        mine = [m for m in data if m.strategy == strategy]
        xs = [m.size for m in mine]
        labelled(left, xs, [m.seconds for m in mine], strategy)
        labelled(right, xs, [max(m.peak_bytes, 1) for m in mine], strategy)
    return figure


def plot_evaluation(measurements: Iterable[EvaluationMeasurement], path: Path) -> None:
    """:func:`evaluation_figure` saved to ``path`` (needs matplotlib)."""
    save_chart(evaluation_figure(measurements), path)
