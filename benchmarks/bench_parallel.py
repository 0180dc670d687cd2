"""lazyfun.parallel on this machine's 2 cores against the single-process versions, same run."""

from __future__ import annotations

import os
import time

from benchmarks.common import data_file, lines, verdict
from lazyfun.parallel import canon_file, count_queens_parallel
from lazyfun.queens import count_queens
from lazyfun.sudoku import parse
from lazyfun.sudoku.canon import minlex

TARGET = 1.7


def _timed(f: object) -> tuple[object, float]:
    start = time.perf_counter()
    result = f()  # type: ignore[operator]
    return result, time.perf_counter() - start


def main() -> list[str]:
    verdicts: list[str] = []
    workers = os.cpu_count() or 1
    print(f"{workers} cores; every parallel time includes starting and stopping the cluster")

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
        forms, one = _timed(lambda: [str(minlex(parse(p))) for p in puzzles])
        answers, many = _timed(lambda: [str(a.grid) for a in canon_file(puzzles, jobs=workers)])
        print(
            f"  minlex of {len(puzzles):,} 17-clue puzzles: "
            f"one process {one:.2f} s, dask {many:.2f} s"
        )
        verdicts.append(
            verdict(
                f"canon_file on 10,000 17-clue puzzles at least {TARGET}x on {workers} workers",
                answers == forms and one / many >= TARGET,
                f"{one / many:.2f}x ({one:.2f} s -> {many:.2f} s), same forms: {answers == forms}",
            )
        )
    return verdicts
