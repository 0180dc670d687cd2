"""Laziness measured: the eager and lazy versions of a program side by side.

``study_queens`` runs the list-comprehension article's two eager versions and
the lazy stream on boards of growing size and reports, for each, the time,
the peak memory, the partial placements it built or tested, and the
placements found.  The comprehension recomputes the smaller boards for every
row, so beyond ``run_limit`` it is not run: its work is predicted exactly by
:func:`lazyfun.eager.predicted_work` and its time extrapolated from the
largest board it did run (marked as an estimate).

>>> rows = list(study_queens(range(4, 6)))
>>> [(m.n, m.version, m.placements, m.solutions) for m in rows]  # doctest: +NORMALIZE_WHITESPACE
[(4, 'eager comprehension', 624, 2), (4, 'eager flatmap', 60, 2), (4, 'lazy', 16, 2),
 (5, 'eager comprehension', 8160, 10), (5, 'eager flatmap', 220, 10), (5, 'lazy', 53, 10)]
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from lazyfun.eager import (
    Work,
    predicted_work,
    queens_comprehension,
    queens_flatmap,
    solve_naive_eager,
)
from lazyfun.queens import count_queens, queens
from lazyfun.queens.lex import Partial, expand1
from lazyfun.search import search
from lazyfun.sudoku import Grid, parse
from lazyfun.sudoku.bird import choices, solve_naive, solve_pruned
from lazyfun.trace import Probe, human_bytes
from lazyfun.vocab import ilen

__all__ = [
    "SUDOKU_VERSIONS",
    "VERSIONS",
    "QueensMeasurement",
    "SudokuMeasurement",
    "plot_queens",
    "plot_sudoku",
    "study_queens",
    "study_sudoku",
    "sudoku_table_rows",
    "table_rows",
]

VERSIONS = ("eager comprehension", "eager flatmap", "lazy")


@dataclass(frozen=True)
class QueensMeasurement:
    """One version on one n x n board.

    ``placements``: partial placements the version built or tested (the
    eager versions test every row for every smaller placement; the lazy search
    builds only safe ones).  ``measured`` is False for an estimate: then
    ``seconds`` is extrapolated and ``peak_bytes`` is None.
    """

    n: int
    version: str
    seconds: float
    peak_bytes: int | None
    placements: int
    solutions: int
    measured: bool = True


def _comprehension(n: int, work: Work | None = None) -> int:
    return len(queens_comprehension(n, n, work))


def _flatmap(n: int, work: Work | None = None) -> int:
    return len(queens_flatmap(n, n, work))


def _lazy(n: int) -> int:
    return ilen(queens(n))


def _timed(run: Callable[[], int]) -> float:
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def _peak(run: Callable[[], int]) -> int:
    probe = Probe(memory=True)
    with probe:
        run()
    return probe.peak_bytes or 0


def _lazy_partials(n: int) -> int:
    """Partial placements the lazy search builds on an n x n board (every node, root excepted)."""
    probe = Probe()
    children = probe.counted("partials")(expand1(n))
    ilen(search(Partial(()), expand1=children, complete=lambda p: len(p.rows) == n))
    return probe.counts.get("partials", 0)


def _estimate(n: int, largest_run: tuple[float, Work] | None) -> QueensMeasurement:
    """The comprehension on a board too big to run: exact work, time scaled from a run."""
    predicted = predicted_work("comprehension", n)
    seconds = float("nan")
    if largest_run is not None:
        base_seconds, base = largest_run
        per_unit = base_seconds / (base.calls + base.candidates)
        seconds = per_unit * (predicted.calls + predicted.candidates)
    return QueensMeasurement(
        n, VERSIONS[0], seconds, None, predicted.candidates, count_queens(n), measured=False
    )


def study_queens(
    sizes: Iterable[int] = range(4, 10), *, run_limit: int = 7
) -> Iterator[QueensMeasurement]:
    """Measure the three versions on each n x n board, lazily, one measurement at a time.

    Each version runs twice: once for time, once under ``tracemalloc`` for
    peak memory (tracing slows a run down, so the two are kept apart).  The
    lazy version is ``queens(n)`` consumed by counting, so it holds one
    placement at a time; the eager ones return their lists.
    """
    largest_run: tuple[float, Work] | None = None
    for n in sizes:
        if n <= run_limit:
            work = Work()
            seconds = _timed(partial(_comprehension, n, work))
            peak = _peak(partial(_comprehension, n))
            largest_run = (seconds, work)
            yield QueensMeasurement(n, VERSIONS[0], seconds, peak, work.candidates, count_queens(n))
        else:
            yield _estimate(n, largest_run)

        work = Work()
        seconds = _timed(partial(_flatmap, n, work))
        peak = _peak(partial(_flatmap, n))
        yield QueensMeasurement(n, VERSIONS[1], seconds, peak, work.candidates, count_queens(n))

        seconds = _timed(partial(_lazy, n))
        peak = _peak(partial(_lazy, n))
        yield QueensMeasurement(n, VERSIONS[2], seconds, peak, _lazy_partials(n), count_queens(n))


def table_rows(measurements: Iterable[QueensMeasurement]) -> Iterator[tuple[str, ...]]:
    """Each measurement as printable cells: n, version, time, peak, partials, found.

    The version drops its ``eager`` prefix to keep the table narrow.
    """
    for m in measurements:
        if m.measured:
            seconds = f"{m.seconds:.4f} s"
        elif m.seconds == m.seconds:
            seconds = f"~{m.seconds:,.3g} s (est.)"
        else:
            seconds = "not run"
        peak = human_bytes(m.peak_bytes) if m.peak_bytes is not None else "-"
        version = m.version.removeprefix("eager ")
        yield (str(m.n), version, seconds, peak, f"{m.placements:,}", f"{m.solutions:,}")


def _log_charts(xlabel: str) -> tuple[Any, Any, Any, Any]:
    """matplotlib (headless) and a figure of two log-scale panels: time and peak memory."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as missing:
        raise RuntimeError("plotting needs matplotlib: pip install 'lazyfun[plot]'") from missing
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    left.set(yscale="log", xlabel=xlabel, ylabel="seconds", title="time")
    right.set(yscale="log", xlabel=xlabel, ylabel="bytes", title="peak memory")
    return plt, figure, left, right


def _save(plt: Any, figure: Any, left: Any, right: Any, path: Path) -> None:
    left.legend()
    right.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def plot_queens(measurements: Iterable[QueensMeasurement], path: Path) -> None:
    """Draw time and peak memory against n, log scale, one line per version (needs matplotlib).

    Estimated times are drawn dashed; estimated memory is left out.
    """
    plt, figure, left, right = _log_charts("n (n x n board)")
    data = list(measurements)
    for version in VERSIONS:
        mine = [m for m in data if m.version == version]
        run = [m for m in mine if m.measured]
        left.plot([m.n for m in run], [m.seconds for m in run], marker="o", label=version)
        guessed = [m for m in mine if not m.measured and m.seconds == m.seconds]
        if guessed and run:
            joined = [run[-1], *guessed]
            left.plot([m.n for m in joined], [m.seconds for m in joined], "k:", linewidth=1)
        right.plot([m.n for m in run], [m.peak_bytes or 1 for m in run], marker="o", label=version)
    _save(plt, figure, left, right, path)


# --- Sudoku: Bird's specification, eager and lazy ---------------------------------

SUDOKU_VERSIONS = ("eager", "lazy", "lazy, pruned")

# The Solver Foundation demo's solution: the blanks are cut from it.
STUDY_SOLUTION = "716235984528974316394816527845163792271489635639752841982647153163528479457391268"


@dataclass(frozen=True)
class SudokuMeasurement:
    """One version of Bird's specification run on a grid with ``blanks`` blank cells."""

    blanks: int
    version: str
    seconds: float
    peak_bytes: int
    candidates: int
    solutions: int


def _blanked(blanks: int) -> Grid:
    """The study grid with its first ``blanks`` cells on the main diagonal and beyond blanked."""
    cells = list(STUDY_SOLUTION)
    for k in range(blanks):
        cells[(k * 10) % 81] = "0"
    return parse("".join(cells))


def study_sudoku(blanks: Iterable[int] = range(1, 6)) -> Iterator[SudokuMeasurement]:
    """``filter valid . expand . choices``: eagerly, lazily, and lazily after ``many prune``.

    The eager version builds all 9^blanks candidate grids before filtering;
    the lazy one streams them through ``filter`` one at a time; the pruned one
    expands only what pruning leaves.  One measurement at a time, lazily.

    >>> [(m.blanks, m.version, m.candidates, m.solutions) for m in study_sudoku([2])]
    ... # doctest: +NORMALIZE_WHITESPACE
    [(2, 'eager', 81, 1), (2, 'lazy', 81, 1), (2, 'lazy, pruned', 1, 1)]
    """
    for k in blanks:
        grid = _blanked(k)
        runs: list[tuple[str, Callable[[], int], int]] = [
            (SUDOKU_VERSIONS[0], partial(_count_list, solve_naive_eager, grid), 9**k),
            (SUDOKU_VERSIONS[1], partial(_count_stream, solve_naive, grid), 9**k),
            (SUDOKU_VERSIONS[2], partial(_count_stream, solve_pruned, grid), _pruned(grid)),
        ]
        for version, run, candidates in runs:
            found = run()
            yield SudokuMeasurement(k, version, _timed(run), _peak(run), candidates, found)


def _count_list(solver: Callable[[Grid], list[Grid]], grid: Grid) -> int:
    return len(solver(grid))


def _count_stream(solver: Callable[[Grid], Iterator[Grid]], grid: Grid) -> int:
    return ilen(solver(grid))


def _pruned(grid: Grid) -> int:
    """How many candidates ``expand`` streams after ``many prune``."""
    from lazyfun.core import many
    from lazyfun.sudoku.bird import prune

    product = 1
    for row in many(prune, choices(grid.rows)):
        for cs in row:
            product *= len(cs)
    return product


def sudoku_table_rows(measurements: Iterable[SudokuMeasurement]) -> Iterator[tuple[str, ...]]:
    """Each measurement as printable cells: blanks, version, time, peak, candidates, found."""
    for m in measurements:
        yield (
            str(m.blanks),
            m.version,
            f"{m.seconds:.4f} s",
            human_bytes(m.peak_bytes),
            f"{m.candidates:,}",
            f"{m.solutions:,}",
        )


def plot_sudoku(measurements: Iterable[SudokuMeasurement], path: Path) -> None:
    """Draw time and peak memory against blanks, log scale, one line per version."""
    plt, figure, left, right = _log_charts("blank cells")
    data = list(measurements)
    for version in SUDOKU_VERSIONS:
        mine = [m for m in data if m.version == version]
        xs = [m.blanks for m in mine]
        left.plot(xs, [m.seconds for m in mine], marker="o", label=version)
        right.plot(xs, [max(m.peak_bytes, 1) for m in mine], marker="o", label=version)
    _save(plt, figure, left, right, path)
