"""Concurrency for any lazy program: the generic machinery, knowing no puzzle.

- :mod:`lazyfun.parallel.runners`: where the work runs (this process with
  ``"sync"``, a local dask cluster, an existing one, or a process pool
  without dask), and :func:`cluster`, one place shared by a ``with`` block;
- :mod:`lazyfun.parallel.pmap`: your own function mapped lazily, in order,
  through one bounded window of tasks (a :class:`Holding`: an iterator that
  ``close()`` stops);
- :mod:`lazyfun.parallel.tree`: the top of a search tree cut into
  independent subtrees;
- :mod:`lazyfun.parallel.psearch`: your own search, its subtrees on workers.

The programs' own parallel runs (queens and Sudoku counts, puzzle files) are
front-end code in :mod:`lazyfun.runs`.  dask is an optional extra
(``pip install 'lazyfun[dask]'``), imported only when a cluster is started.

>>> list(pmap(abs, [-3, 1, -2], scheduler="sync"))
[3, 1, 2]
"""

from lazyfun.parallel.pmap import pmap
from lazyfun.parallel.psearch import psearch
from lazyfun.parallel.runners import ENVIRONMENT, ParallelError, Runner, cluster, runner
from lazyfun.parallel.window import Holding

__all__ = [
    "ENVIRONMENT",
    "Holding",
    "ParallelError",
    "Runner",
    "cluster",
    "pmap",
    "psearch",
    "runner",
]
