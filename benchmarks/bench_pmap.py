"""pmap and psearch on this machine's cores, against one process and the standard pools.

Every parallel time includes starting and stopping its workers.  The
machine's clock drifts between runs, so each time is the best of two runs,
the contenders alternated.
"""

from __future__ import annotations

import multiprocessing
import os
import time
import tracemalloc
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import partial

from benchmarks.common import verdict
from lazyfun.core import many
from lazyfun.parallel import cluster, pmap, psearch
from lazyfun.queens import constrained as queens
from lazyfun.queens import count_queens
from lazyfun.search import search

TARGET = 1.7
REPEATS = 3
ITEMS = [12] * 60  # count_queens(12) is about 0.2 s
LONG = 10**6


def _context() -> multiprocessing.context.BaseContext:
    return multiprocessing.get_context("forkserver")


def _executor_map(workers: int) -> list[int]:
    with ProcessPoolExecutor(workers, mp_context=_context()) as pool:
        return list(pool.map(count_queens, ITEMS))


def _pool_imap(workers: int) -> list[int]:
    with _context().Pool(workers) as pool:
        return list(pool.imap(count_queens, ITEMS))


def _best(runs: dict[str, Callable[[], object]]) -> tuple[dict[str, float], dict[str, object]]:
    best = dict.fromkeys(runs, float("inf"))
    results: dict[str, object] = {}
    for _ in range(REPEATS):
        for name, run in runs.items():
            start = time.perf_counter()
            results[name] = run()
            best[name] = min(best[name], time.perf_counter() - start)
    return best, results


def _speed(workers: int) -> str:
    runs: dict[str, Callable[[], object]] = {
        "map, one process": lambda: list(map(count_queens, ITEMS)),
        "pmap": lambda: list(pmap(count_queens, ITEMS, jobs=workers)),
        "ProcessPoolExecutor.map": partial(_executor_map, workers),
        "multiprocessing Pool.imap": partial(_pool_imap, workers),
    }
    best, results = _best(runs)
    one = best["map, one process"]
    print(f"  count_queens(12) on {len(ITEMS)} items, {workers} workers, best of {REPEATS}:")
    for name, took in best.items():
        print(f"    {name:<28} {took:6.2f} s  {one / took:5.2f}x one process")
    same = all(r == results["map, one process"] for r in results.values())
    return verdict(
        f"pmap of count_queens(12) over 60 items at least {TARGET}x map on {workers} workers",
        same and one / best["pmap"] >= TARGET,
        f"{one / best['pmap']:.2f}x ({one:.2f} s -> {best['pmap']:.2f} s), same results: {same}",
    )


def _traced_peak(run: Callable[[], object]) -> tuple[object, float]:
    """What ``run`` returns, and the peak of memory it allocated in this process (MiB)."""
    tracemalloc.start()
    try:
        result = run()
        return result, tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def _memory(workers: int) -> str:
    print("  sum of abs over range(n), traced peak in this process (the client and, for")
    print("  the local cluster, its scheduler):")
    peaks: dict[int, float] = {}
    with cluster(jobs=workers):
        for n in (LONG // 10, LONG):
            total, peaks[n] = _traced_peak(lambda n=n: sum(pmap(abs, range(n))))  # type: ignore[misc]
            assert total == sum(range(n))
            print(f"    pmap, n = {n:>9,}            {peaks[n]:7.1f} MiB")
    with ProcessPoolExecutor(workers, mp_context=_context()) as pool:
        pool.submit(abs, 0).result()
        run = lambda: sum(pool.map(abs, range(LONG), chunksize=8192))  # noqa: E731
        _, held = _traced_peak(run)
    print(f"    Executor.map, n = {LONG:>9,}    {held:7.1f} MiB (input read and futures held)")
    flat = peaks[LONG] < 2 * peaks[LONG // 10] + 1
    return verdict(
        "pmap client memory flat from 10^5 to 10^6 items",
        flat,
        f"{peaks[LONG // 10]:.1f} MiB -> {peaks[LONG]:.1f} MiB (Executor.map {held:.1f} MiB)",
    )


def _search(workers: int) -> None:
    n = 13
    functions = {
        "expand1": queens.expand1,
        "complete": queens.complete,
        "blocked": queens.blocked,
        "prune": partial(many, queens.forced),
    }
    print(f"  every placement of {n} queens (most-constrained search), {workers} workers:")
    for name, solutions in (
        ("search, one process", lambda: search(queens.start(n, n), **functions)),  # type: ignore[arg-type]
        ("psearch", lambda: psearch(queens.start(n, n), jobs=workers, **functions)),  # type: ignore[arg-type]
    ):
        start = time.perf_counter()
        found = solutions()
        next(found)
        first = time.perf_counter() - start
        rest = sum(1 for _ in found) + 1
        print(
            f"    {name:<22} first after {first:6.3f} s, all {rest:,} after "
            f"{time.perf_counter() - start:6.2f} s"
        )


def main() -> list[str]:
    workers = os.cpu_count() or 1
    print(f"{workers} cores")
    verdicts = [_speed(workers), _memory(workers)]
    _search(workers)
    return verdicts
