"""Laziness measured: the eager and lazy versions of a program side by side.

- :mod:`lazyfun.study.queens`: the queens article's eager versions against
  the lazy stream;
- :mod:`lazyfun.study.sudoku`: Bird's specification eager, lazy, and pruned;
- :mod:`lazyfun.study.evaluation`: strict lists, call-by-name and
  call-by-need on Bird's specification and on Fibonacci;
- :mod:`lazyfun.study.learning`: a constraint model searched with the
  solver's nogoods and without;
- :mod:`lazyfun.study.measure`: time (the best of a few runs), traced peak
  memory, and the charts;
- :mod:`lazyfun.study.tree`: the search tree, drawn or summed up by depth;
- :mod:`lazyfun.study.report`: all of it as one self-contained page.

Each study yields its measurements one at a time, and tells a ``progress``
callback what it is about to measure, so a front end can show them as they
come.  Each ``*_figure`` returns a matplotlib ``Figure`` (in a notebook, it
draws itself); each ``plot_*`` saves one.
"""

from lazyfun.study.evaluation import (
    STRATEGIES,
    EvaluationMeasurement,
    evaluation_figure,
    evaluation_table_rows,
    plot_evaluation,
    study_evaluation,
)
from lazyfun.study.queens import (
    VERSIONS,
    QueensMeasurement,
    plot_queens,
    queens_figure,
    study_queens,
    table_rows,
)
from lazyfun.study.sudoku import (
    SUDOKU_VERSIONS,
    SudokuMeasurement,
    plot_sudoku,
    study_sudoku,
    sudoku_figure,
    sudoku_table_rows,
)

__all__ = [
    "STRATEGIES",
    "SUDOKU_VERSIONS",
    "VERSIONS",
    "EvaluationMeasurement",
    "QueensMeasurement",
    "SudokuMeasurement",
    "evaluation_figure",
    "evaluation_table_rows",
    "plot_evaluation",
    "plot_queens",
    "plot_sudoku",
    "queens_figure",
    "study_evaluation",
    "study_queens",
    "study_sudoku",
    "sudoku_figure",
    "sudoku_table_rows",
    "table_rows",
]
