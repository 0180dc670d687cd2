"""Laziness measured: the eager and lazy versions of a program side by side.

- :mod:`lazyfun.study.queens`: the queens article's eager versions against
  the lazy stream;
- :mod:`lazyfun.study.sudoku`: Bird's specification eager, lazy, and pruned;
- :mod:`lazyfun.study.measure`: time, traced peak memory, and the charts.

Each study yields its measurements one at a time, so a front end can show
them as they come.
"""

from lazyfun.study.queens import (
    VERSIONS,
    QueensMeasurement,
    plot_queens,
    study_queens,
    table_rows,
)
from lazyfun.study.sudoku import (
    SUDOKU_VERSIONS,
    SudokuMeasurement,
    plot_sudoku,
    study_sudoku,
    sudoku_table_rows,
)

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
