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
from typing import TYPE_CHECKING

from lazyfun.core import many
from lazyfun.eager import solve_naive_eager
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
from lazyfun.sudoku import Grid, parse
from lazyfun.sudoku.bird import choices, count_candidates, prune, solve_naive, solve_pruned
from lazyfun.vocab import ilen

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "LARGEST_BLANKS",
    "STUDY_SOLUTION",
    "SUDOKU_VERSIONS",
    "SudokuMeasurement",
    "blanked",
    "plot_sudoku",
    "study_sudoku",
    "sudoku_figure",
    "sudoku_notes",
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
    """One version of Bird's specification run on a grid with ``blanks`` blank cells.

    ``seconds`` is the best of ``runs`` runs, ``spread`` the slowest less the best.
    """

    blanks: int
    version: str
    seconds: float
    peak_bytes: int
    candidates: int
    solutions: int
    spread: float = 0.0
    runs: int = 1


def blanked(blanks: int) -> Grid:
    """The study grid with its first ``blanks`` cells on the main diagonal and beyond blanked."""
    cells = list(STUDY_SOLUTION)
    for k in range(blanks):
        cells[(k * 10) % 81] = "0"
    return parse("".join(cells))


def study_sudoku(
    blanks: Iterable[int] = range(1, 6),
    *,
    runs: int = RUNS,
    progress: Callable[[str], None] | None = None,
) -> Iterator[SudokuMeasurement]:
    """``filter valid . expand . choices``: eagerly, lazily, and lazily after ``many prune``.

    One measurement at a time, lazily: each the best of ``runs`` timed runs
    (and their spread), and one more traced for peak memory.  ``progress`` is
    told what is about to be measured.  More than ``LARGEST_BLANKS`` blanks
    are refused (``ValueError``) before anything runs.
    """
    blanks = list(blanks)
    if any(not 1 <= k <= LARGEST_BLANKS for k in blanks):
        raise ValueError(f"blanks must be between 1 and {LARGEST_BLANKS}, got {blanks}")
    tell = progress or (lambda what: None)
    for k in blanks:
        grid = blanked(k)
        measured: list[tuple[str, Callable[[], int], int]] = [
            (SUDOKU_VERSIONS[0], partial(_count_list, solve_naive_eager, grid), 9**k),
            (SUDOKU_VERSIONS[1], partial(_count_stream, solve_naive, grid), 9**k),
            (
                SUDOKU_VERSIONS[2],
                partial(_count_stream, solve_pruned, grid),
                count_candidates(many(prune, choices(grid.rows))),
            ),
        ]
        for version, run, candidates in measured:
            tell(f"{version} with {k} blanks")
            t = timed(run, runs)
            found = run()
            yield SudokuMeasurement(
                k, version, t.best, peak_bytes(run), candidates, found, t.spread, t.runs
            )


def _count_list(solver: Callable[[Grid], list[Grid]], grid: Grid) -> int:
    return len(solver(grid))


def _count_stream(solver: Callable[[Grid], Iterator[Grid]], grid: Grid) -> int:
    return ilen(solver(grid))


def sudoku_table_rows(measurements: Iterable[SudokuMeasurement]) -> Iterator[tuple[str, ...]]:
    """Each measurement as printable cells: blanks, version, time, spread, peak, candidates,
    found."""
    for m in measurements:
        yield (
            str(m.blanks),
            m.version,
            seconds_cell(m.seconds),
            spread_cell(Timing(m.seconds, m.spread, m.runs)),
            human_bytes(m.peak_bytes),
            f"{m.candidates:,}",
            f"{m.solutions:,}",
        )


def sudoku_notes(measurements: Iterable[SudokuMeasurement]) -> list[str]:
    """The table's footnotes: what the versions hold, and why pruning costs memory."""
    runs = max((m.runs for m in measurements), default=RUNS)
    return [
        runs_note(runs),
        "lazy holds one candidate grid at a time; eager holds all of them.  The lazy\n"
        "expand recomputes row products instead of storing them, so it is slower.",
        "lazy, pruned: `many prune` first rewrites every cell's choices, a new grid of\n"
        "them each round (by rows, columns and boxes) until it stops changing, so it\n"
        "holds more than the one candidate the plain lazy version does; then it expands\n"
        "only the candidates left (see candidates), which makes it the fastest.",
    ]


def sudoku_figure(measurements: Iterable[SudokuMeasurement]) -> Figure:
    """Time and peak memory against blanks, log scale, one line per version."""
    data = list(measurements)
    figure, left, right = charts("blank cells (cells left empty)")
    for version in SUDOKU_VERSIONS:
        mine = [m for m in data if m.version == version]
        xs = [m.blanks for m in mine]
        labelled(left, xs, [m.seconds for m in mine], version)
        labelled(right, xs, [max(m.peak_bytes, 1) for m in mine], version)
    return figure


def plot_sudoku(measurements: Iterable[SudokuMeasurement], path: Path) -> None:
    """:func:`sudoku_figure` saved to ``path`` (needs matplotlib)."""
    save_chart(sudoku_figure(measurements), path)
