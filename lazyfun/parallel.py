"""The same lazy programs, run across processes and machines on dask.

Counting is split where the search tree branches: the first ``depth`` choices
of a search (the first queens, the first branching cells of a Sudoku) cut it
into independent subtrees, one task per group of them, and the counts are
summed with ``dask.bag``.  Batches of puzzles are split into partitions of
lines; each partition is one task, and the results come back in input order,
each partition as soon as it and the ones before it are done.

Where the work runs (``scheduler``):

* ``None`` (the default): the ``LAZYFUN_DASK_SCHEDULER`` environment variable
  if set, else a ``LocalCluster`` of worker processes sized to the machine
  (or to ``jobs``), started for the call and shut down after it;
* ``"tcp://HOST:PORT"``: an existing dask cluster;
* ``"sync"``: everything in this process, one task after another (debugging).

dask is an optional extra (``pip install 'lazyfun[dask]'``).  Without it the
same functions run on a ``concurrent.futures`` process pool and say so once.

>>> count_queens_parallel(8, scheduler="sync")
92
"""

from __future__ import annotations

import logging
import os
import sys
import time
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from functools import partial
from itertools import islice
from typing import Any, Protocol, TypeVar

from more_itertools import chunked, distribute, ilen

from lazyfun.queens.board import board_size
from lazyfun.queens.count import Subtree, count_queens, count_subtree, subtrees
from lazyfun.sudoku.batch import numbered, refusal, solver
from lazyfun.sudoku.canon import minlex
from lazyfun.sudoku.engine import count_below
from lazyfun.sudoku.engine import subtrees as sudoku_subtrees
from lazyfun.sudoku.grid import Grid, PuzzleError, check_givens, parse

__all__ = [
    "ENVIRONMENT",
    "Answer",
    "ParallelError",
    "canon_file",
    "count_queens_parallel",
    "count_solutions_parallel",
    "solve_file",
]

ENVIRONMENT = "LAZYFUN_DASK_SCHEDULER"
CONNECT_TIMEOUT = "10s"  # how long to wait for an existing cluster's scheduler

T = TypeVar("T")
U = TypeVar("U")

# One puzzle's answer from a batch: (line, text, kind, value, ms).  ``kind`` is
# "solution" (value: the grid's text, or None), "count", "unique" (value: how
# many solutions were seen, at most 2), "minlex", "refused" or "invalid"
# (value: the message).
Answer = tuple[int, str, str, object, float]


class ParallelError(RuntimeError):
    """A scheduler that cannot be used: an unreachable address, or dask missing."""


class _Runner(Protocol):
    workers: int

    def map(self, f: Callable[[T], U], items: list[T]) -> list[U]: ...

    def submit(self, f: Callable[..., U], *args: Any) -> Future[U] | Any: ...


class _Sync:
    """Everything in this process, in order."""

    workers = 1

    def map(self, f: Callable[[T], U], items: list[T]) -> list[U]:
        return [f(x) for x in items]

    def submit(self, f: Callable[..., U], *args: Any) -> Future[U]:
        done: Future[U] = Future()
        done.set_result(f(*args))
        return done


class _Pool:
    """A ``concurrent.futures`` process pool: the fallback without dask."""

    def __init__(self, pool: Executor, workers: int) -> None:
        self.pool, self.workers = pool, workers

    def map(self, f: Callable[[T], U], items: list[T]) -> list[U]:
        return list(self.pool.map(f, items))

    def submit(self, f: Callable[..., U], *args: Any) -> Future[U]:
        return self.pool.submit(f, *args)


class _Dask:
    """A dask.distributed client: bags for maps, futures for partitions."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.workers = max(1, len(client.scheduler_info().get("workers", {})))

    def map(self, f: Callable[[T], U], items: list[T]) -> list[U]:
        import dask.bag as db

        if not items:
            return []
        bag = db.from_sequence(items, npartitions=len(items))
        result: list[U] = self.client.compute(bag.map(f)).result()
        return result

    def submit(self, f: Callable[..., U], *args: Any) -> Any:
        return self.client.submit(f, *args, pure=False)


_warned = False


def _warn_once(message: str) -> None:
    global _warned
    if not _warned:
        _warned = True
        warnings.warn(message, RuntimeWarning, stacklevel=3)


@contextmanager
def _runner(scheduler: str | None, jobs: int | None) -> Iterator[_Runner]:
    """The place to run on, started for the call and shut down after it."""
    scheduler = scheduler or os.environ.get(ENVIRONMENT) or None
    if jobs is not None and jobs < 1:
        raise ParallelError(f"jobs must be at least 1, got {jobs}")
    workers = jobs or os.cpu_count() or 1
    if scheduler == "sync":
        yield _Sync()
        return
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        if scheduler:
            raise ParallelError(
                f"the scheduler {scheduler} needs dask: pip install 'lazyfun[dask]'"
            ) from None
        _warn_once("dask is not installed (pip install 'lazyfun[dask]'): using a process pool")
        with ProcessPoolExecutor(workers) as pool:
            yield _Pool(pool, workers)
        return
    if scheduler:
        try:
            client = Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except (OSError, TimeoutError) as error:
            raise ParallelError(
                f"cannot reach the dask scheduler at {scheduler}: {error}"
            ) from None
        with client:
            yield _Dask(client)
        return
    import dask

    with dask.config.set(_local_config()):
        cluster: AbstractContextManager[Any] = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            silence_logs=logging.CRITICAL,
        )
    with (
        cluster as started,
        Client(started, set_as_default=False, direct_to_workers=True) as client,
    ):
        yield _Dask(client)


def _local_config() -> dict[str, object]:
    """dask settings for a cluster of this machine's cores running a few long tasks.

    A worker's event loop takes the GIL from the task on every tick (20 ms by
    default), every profiler sample (10 ms) and system-monitor reading: about
    10% of a CPU-bound count.  None of them is needed here, nor is moving queued
    tasks between workers.  On Linux the workers are forked from this process,
    which already holds the modules they need: 0.1 s to start two instead of
    0.5 s for fresh interpreters (``spawn``, dask's default everywhere).  From
    Python 3.12 on, forking a process that runs threads (dask's event loop)
    is deprecated, so there the workers are spawned.
    """
    settings: dict[str, object] = {
        "distributed.worker.profile.enabled": False,
        "distributed.admin.tick.interval": "1s",
        "distributed.admin.system-monitor.interval": "2s",
        "distributed.worker.memory.monitor-interval": "1s",
        "distributed.scheduler.work-stealing": False,
    }
    if sys.platform == "linux" and sys.version_info < (3, 12):
        settings["distributed.worker.multiprocessing-method"] = "fork"
    return settings


# --- counting by subtrees ------------------------------------------------------


def _count_queens_group(n: int, group: list[Subtree]) -> int:
    return sum(count_subtree(n, part) for part in group)


def _groups(parts: list[T], workers: int) -> list[list[T]]:
    """Subtrees dealt round-robin into groups, 16 per worker: their sizes vary a lot,
    and small groups keep a worker from idling while the other finishes."""
    count = min(len(parts), 16 * workers)
    return [list(group) for group in distribute(count, parts)] if parts else []


def count_queens_parallel(
    n: int,
    cols: int | None = None,
    *,
    depth: int | None = None,
    scheduler: str | None = None,
    jobs: int | None = None,
) -> int:
    """``count_queens(n, cols)``, with the symmetric walk split into subtrees at column ``depth``.

    ``depth`` defaults to 3 (a few hundred subtrees for n = 15).  Rectangular
    and small boards are counted in this process.
    """
    rows, width = board_size(n, cols)
    if rows != width or rows < 8:
        return count_queens(rows, width)
    parts = subtrees(rows, 3 if depth is None else depth)
    with _runner(scheduler, jobs) as run:
        groups = _groups(parts, run.workers)
        return sum(run.map(partial(_count_queens_group, rows), groups))


def _count_sudoku_group(box: int, limit: int | None, group: list[Any]) -> int:
    return sum(count_below(box, node, limit) for node in group)


def count_solutions_parallel(
    grid: Grid,
    *,
    depth: int = 4,
    scheduler: str | None = None,
    jobs: int | None = None,
) -> int:
    """``count_solutions(grid)``, the engine's search cut ``depth`` branchings down.

    >>> from lazyfun.sudoku import parse
    >>> count_solutions_parallel(parse("0" * 16), scheduler="sync")
    288
    """
    check_givens(grid)
    parts = sudoku_subtrees(grid, depth)
    with _runner(scheduler, jobs) as run:
        groups = _groups(parts, run.workers)
        return sum(run.map(partial(_count_sudoku_group, grid.box, None), groups))


# --- batches of puzzle lines -----------------------------------------------------


def _answer(
    mode: str, method: str, limit: int | None, force: bool, line: tuple[int, str]
) -> Answer:
    """One puzzle line, answered in a worker."""
    number, text = line
    start = time.perf_counter()
    try:
        item = parse(text)
        if mode == "minlex":
            form = str(minlex(item))  # minlex checks the givens itself
        else:
            check_givens(item)
    except PuzzleError as error:
        return number, text, "invalid", str(error.at_line(number)), 0.0
    if mode == "minlex":
        return number, text, "minlex", form, (time.perf_counter() - start) * 1000
    reason = None if force else refusal(method, item)
    if reason is not None:
        return number, text, "refused", f"line {number}: {reason}", 0.0
    solutions = solver(method)(item)
    if mode == "count":
        found = ilen(islice(solutions, limit))
        return number, text, "count", found, (time.perf_counter() - start) * 1000
    if mode == "unique":
        found = ilen(islice(solutions, 2))
        return number, text, "unique", found, (time.perf_counter() - start) * 1000
    first = next(solutions, None)
    value = None if first is None else str(first)
    return number, text, "solution", value, (time.perf_counter() - start) * 1000


def _answer_all(
    mode: str, method: str, limit: int | None, force: bool, part: list[tuple[int, str]]
) -> list[Answer]:
    return [_answer(mode, method, limit, force, line) for line in part]


def _batch(
    lines: Iterable[str],
    work: Callable[[list[tuple[int, str]]], list[Answer]],
    scheduler: str | None,
    jobs: int | None,
    partition: int,
) -> Iterator[Answer]:
    """Partitions of lines as tasks, a few in flight per worker, answers in input order."""
    if partition < 1:
        raise ParallelError(f"partition must be at least 1 line, got {partition}")
    with _runner(scheduler, jobs) as run:
        pending: deque[Any] = deque()
        for part in chunked(numbered(lines), partition):
            pending.append(run.submit(work, part))
            if len(pending) >= 2 * run.workers:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()


def solve_file(
    lines: Iterable[str],
    *,
    mode: str = "solution",
    method: str = "engine",
    limit: int | None = None,
    force: bool = False,
    scheduler: str | None = None,
    jobs: int | None = None,
    partition: int = 200,
) -> Iterator[Answer]:
    """Answer every puzzle line in parallel: the first solution, a count, or uniqueness.

    Lazy: lines are read as partitions are handed out, a bounded number of
    partitions is in flight, and answers come back in input order.  A bad line
    is an ``"invalid"`` answer in its place; the rest still run.

    >>> [kind for _, _, kind, _, _ in solve_file(["1...", "0" * 16], scheduler="sync")]
    ['invalid', 'solution']
    """
    if mode not in ("solution", "count", "unique"):
        raise ValueError(f"unknown mode {mode!r}: solution, count or unique")
    work = partial(_answer_all, mode, method, limit, force)
    return _batch(lines, work, scheduler, jobs, partition)


def canon_file(
    lines: Iterable[str],
    *,
    scheduler: str | None = None,
    jobs: int | None = None,
    partition: int = 500,
) -> Iterator[Answer]:
    """The minlex form of every puzzle line in parallel, in input order."""
    work = partial(_answer_all, "minlex", "engine", None, False)
    return _batch(lines, work, scheduler, jobs, partition)
