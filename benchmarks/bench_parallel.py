"""lazyfun.parallel on this machine's 2 cores against the single-process versions, same run.

The machine's clock varies by up to 2x between runs, so each side of the
canon_file ratio is the best of two runs, alternated.  Beside it, a bare
``multiprocessing`` pool doing the same work shows what two cores give on
this workload with no scheduler at all: the ceiling for any parallel map.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from functools import partial

from benchmarks.common import data_file, lines, verdict
from lazyfun.queens import count_queens
from lazyfun.runs import canon_file, count_queens_parallel
from lazyfun.sudoku import parse
from lazyfun.sudoku.canon import minlex

TARGET = 1.7
REPEATS = 2


def _timed(f: object) -> tuple[object, float]:
    start = time.perf_counter()
    result = f()  # type: ignore[operator]
    return result, time.perf_counter() - start


def _forms(puzzles: list[str]) -> list[str]:
    return [str(minlex(parse(p))) for p in puzzles]


def _pool_forms(puzzles: list[str], workers: int) -> list[str]:
    parts = [puzzles[i : i + 500] for i in range(0, len(puzzles), 500)]
    with multiprocessing.get_context("forkserver").Pool(workers) as pool:
        return [form for part in pool.imap(_forms, parts) for form in part]


def _canon(puzzles: list[str], workers: int) -> list[str]:
    return [str(a.grid) for a in canon_file(puzzles, jobs=workers)]


def main() -> list[str]:
    verdicts: list[str] = []
    workers = os.cpu_count() or 1
    print(f"{workers} cores; every parallel time includes starting and stopping the workers")

    sequential, one = _timed(lambda: count_queens(15))
    parallel, many = _timed(lambda: count_queens_parallel(15, jobs=workers))
    print(f"  count_queens(15) = {sequential:,}: one process {one:.2f} s, dask {many:.2f} s")
    verdicts.append(
        verdict(
            f"count_queens_parallel(15) at least {TARGET}x on {workers} workers",
            parallel == sequential and one / many >= TARGET,
            f"{one / many:.2f}x ({one:.2f} s -> {many:.2f} s), "
            f"same count: {parallel == sequential}",
        )
    )

    path = data_file("tdoku_puzzles2_17_clue.txt")
    if path is not None:
        puzzles = lines(path, 10_000)
        runs = {
            "one process": partial(_forms, puzzles),
            "canon_file": partial(_canon, puzzles, workers),
            "bare pool": partial(_pool_forms, puzzles, workers),
        }
        best = dict.fromkeys(runs, float("inf"))
        results: dict[str, object] = {}
        for _ in range(REPEATS):
            for name, run in runs.items():
                results[name], took = _timed(run)
                best[name] = min(best[name], took)
        one, many, bare = best["one process"], best["canon_file"], best["bare pool"]
        same = results["canon_file"] == results["one process"] == results["bare pool"]
        print(
            f"  minlex of {len(puzzles):,} 17-clue puzzles, best of {REPEATS}: one process "
            f"{one:.2f} s, canon_file on dask {many:.2f} s ({one / many:.2f}x), "
            f"bare multiprocessing pool {bare:.2f} s ({one / bare:.2f}x, the machine's ceiling)"
        )
        verdicts.append(
            verdict(
                f"canon_file on 10,000 17-clue puzzles at least {TARGET}x on {workers} workers",
                same and one / many >= TARGET,
                f"{one / many:.2f}x ({one:.2f} s -> {many:.2f} s), same forms: {same}",
            )
        )
    return verdicts
