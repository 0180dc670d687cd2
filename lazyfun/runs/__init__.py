"""The programs' runs, a front end: batch answering of puzzle lines
(:mod:`lazyfun.runs.batch`) and the parallel counts and file runs
(:mod:`lazyfun.runs.jobs`) on the generic machinery of :mod:`lazyfun.parallel`."""

from lazyfun.runs.jobs import (
    canon_file,
    count_queens_parallel,
    count_solutions_parallel,
    solve_file,
)

__all__ = ["canon_file", "count_queens_parallel", "count_solutions_parallel", "solve_file"]
