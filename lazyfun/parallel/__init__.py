"""The same lazy programs, run across processes and machines on dask.

- :mod:`lazyfun.parallel.runners`: where the work runs (a local cluster, an
  existing one, ``"sync"``, or a process pool without dask);
- :mod:`lazyfun.parallel.counts`: counts split where the search tree branches;
- :mod:`lazyfun.parallel.batches`: puzzle files split into partitions of lines,
  answers in input order.

dask is an optional extra (``pip install 'lazyfun[dask]'``).

>>> count_queens_parallel(8, scheduler="sync")
92
"""

from lazyfun.parallel.batches import canon_file, solve_file
from lazyfun.parallel.counts import count_queens_parallel, count_solutions_parallel
from lazyfun.parallel.runners import ENVIRONMENT, ParallelError

__all__ = [
    "ENVIRONMENT",
    "ParallelError",
    "canon_file",
    "count_queens_parallel",
    "count_solutions_parallel",
    "solve_file",
]
