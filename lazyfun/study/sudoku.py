"""Sudoku, eager against lazy: Bird's specification ``filter valid . expand . choices``.

The eager version builds every candidate grid before filtering; the lazy one
streams them through ``filter`` one at a time; the pruned one expands only
what ``many prune`` leaves.

>>> [(m.blanks, m.version, m.candidates, m.solutions) for m in study_sudoku([2])]
... # doctest: +NORMALIZE_WHITESPACE
[(2, 'eager', 81, 1), (2, 'lazy', 81, 1), (2, 'lazy, pruned', 1, 1)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from lazyfun.core import many
from lazyfun.eager import solve_naive_eager
from lazyfun.study.measure import human_bytes, log_charts, peak_bytes, timed
from lazyfun.sudoku import Grid, parse
from lazyfun.sudoku.bird import choices, count_candidates, prune, solve_naive, solve_pruned
from lazyfun.vocab import ilen

__all__ = [
    "LARGEST_BLANKS",
    "STUDY_SOLUTION",
    "SUDOKU_VERSIONS",
    "SudokuMeasurement",
    "blanked",
    "plot_sudoku",
    "study_sudoku",
    "sudoku_table_rows",
]

# The eager version holds 9^blanks candidate grids: 9^6 (half a million) is
# the most it is run on.
LARGEST_BLANKS = 6

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


def blanked(blanks: int) -> Grid:
    """The study grid with its first ``blanks`` cells on the main diagonal and beyond blanked."""
    cells = list(STUDY_SOLUTION)
    for k in range(blanks):
        cells[(k * 10) % 81] = "0"
    return parse("".join(cells))


def study_sudoku(blanks: Iterable[int] = range(1, 6)) -> Iterator[SudokuMeasurement]:
    """``filter valid . expand . choices``: eagerly, lazily, and lazily after ``many prune``.

    One measurement at a time, lazily.  More than ``LARGEST_BLANKS`` blanks
    are refused (``ValueError``) before anything runs.
    """
    blanks = list(blanks)
    if any(not 1 <= k <= LARGEST_BLANKS for k in blanks):
        raise ValueError(f"blanks must be between 1 and {LARGEST_BLANKS}, got {blanks}")
    for k in blanks:
        grid = blanked(k)
        runs: list[tuple[str, Callable[[], int], int]] = [
            (SUDOKU_VERSIONS[0], partial(_count_list, solve_naive_eager, grid), 9**k),
            (SUDOKU_VERSIONS[1], partial(_count_stream, solve_naive, grid), 9**k),
            (
                SUDOKU_VERSIONS[2],
                partial(_count_stream, solve_pruned, grid),
                count_candidates(many(prune, choices(grid.rows))),
            ),
        ]
        for version, run, candidates in runs:
            found = run()
            yield SudokuMeasurement(k, version, timed(run), peak_bytes(run), candidates, found)


def _count_list(solver: Callable[[Grid], list[Grid]], grid: Grid) -> int:
    return len(solver(grid))


def _count_stream(solver: Callable[[Grid], Iterator[Grid]], grid: Grid) -> int:
    return ilen(solver(grid))


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
    data = list(measurements)
    with log_charts("blank cells", path) as (left, right):
        for version in SUDOKU_VERSIONS:
            mine = [m for m in data if m.version == version]
            xs = [m.blanks for m in mine]
            left.plot(xs, [m.seconds for m in mine], marker="o", label=version)
            right.plot(xs, [max(m.peak_bytes, 1) for m in mine], marker="o", label=version)
