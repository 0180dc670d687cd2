"""The same lazy programs, run across processes and machines on dask.

- :mod:`lazyfun.parallel.runners`: where the work runs (a local cluster, an
  existing one, ``"sync"``, or a process pool without dask);
- :mod:`lazyfun.parallel.counts`: counts split where the search tree branches;
- :mod:`lazyfun.parallel.batches`: puzzle files split into partitions of lines,
  answers in input order;
- :mod:`lazyfun.parallel.pmap`: your own function mapped lazily, in order,
  reading a bounded number of items ahead;
- :mod:`lazyfun.parallel.psearch`: your own search, its subtrees on workers;
- :func:`cluster`: one cluster shared by every call in a ``with`` block.

dask is an optional extra (``pip install 'lazyfun[dask]'``).

>>> count_queens_parallel(8, scheduler="sync")
92
"""

from lazyfun.parallel.batches import canon_file, solve_file
from lazyfun.parallel.counts import count_queens_parallel, count_solutions_parallel
from lazyfun.parallel.pmap import pmap
from lazyfun.parallel.psearch import psearch
from lazyfun.parallel.runners import ENVIRONMENT, ParallelError, cluster

__all__ = [
    "ENVIRONMENT",
    "ParallelError",
    "canon_file",
    "cluster",
    "count_queens_parallel",
    "count_solutions_parallel",
    "pmap",
    "psearch",
    "solve_file",
]
