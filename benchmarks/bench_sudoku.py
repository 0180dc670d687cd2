"""Sudoku: the engine against OR-Tools CP-SAT and python-constraint2 on the public sets,
then the 9x9 engine in C beside tdoku (:mod:`benchmarks.bench_nine`)."""

from __future__ import annotations

import statistics
import time
import tracemalloc
from pathlib import Path

from benchmarks.bench_nine import against_tdoku
from benchmarks.common import (
    ROOT,
    Timing,
    data_file,
    from_source,
    lines,
    report,
    time_each,
    verdict,
)
from benchmarks.peers import constraint_solve, cpsat_solve
from benchmarks.source import first_solution
from lazyfun.compiled import describe
from lazyfun.sudoku import count_solutions, parse

SETS = [
    ("norvig_top95.txt", None),
    ("norvig_hardest.txt", None),
    ("royle17_49151.txt", 1000),
    ("tdoku_puzzles5_forum_hardest_1905_11plus.txt", 1000),
]
CONSTRAINT_SAMPLE = 20  # python-constraint2 is timed on a prefix: it is ~100x slower


def _peak_bytes(puzzles: list[str]) -> int:
    tracemalloc.start()
    for p in puzzles:
        first_solution(p)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def _solving(verdicts: list[str]) -> None:
    for name, limit in SETS:
        path = data_file(name)
        if path is None:
            continue
        puzzles = lines(path, limit)
        ours = time_each("lazyfun engine", puzzles, first_solution)
        ours.peak_bytes = _peak_bytes(puzzles[:50])
        cpsat = time_each("OR-Tools CP-SAT (1 worker)", puzzles, cpsat_solve)
        sample = puzzles[:CONSTRAINT_SAMPLE]
        constraint = time_each(
            f"python-constraint2 (first {len(sample)})", sample, constraint_solve
        )
        source = from_source("lazyfun engine, from source", "sudoku", path, limit)
        report(
            f"{name}: {len(puzzles)} puzzles, first solution each",
            [ours, cpsat, constraint, source],
        )
        ratio, source_ratio = ours.rate / cpsat.rate, source.rate / cpsat.rate
        verdicts.append(
            verdict(
                f"{name}: >= 3x CP-SAT throughput",
                ratio >= 3,
                f"{ratio:.2f}x (from source {source_ratio:.2f}x)",
            )
        )
        if "forum_hardest" in name:
            median = statistics.median(ours.times) * 1000
            source_median = statistics.median(source.times) * 1000
            verdicts.append(
                verdict(
                    f"{name}: median < 2 ms",
                    median < 2,
                    f"median {median:.2f} ms (from source {source_median:.2f} ms)",
                )
            )


def _counting(verdicts: list[str]) -> None:
    path = data_file("tdoku_puzzles7_serg_benchmark.txt")
    counts_path = data_file("tdoku_puzzles7_serg_benchmark.counts.txt")
    if path is None or counts_path is None:
        return
    puzzles = lines(path, 100)
    expected = [int(c) for c in lines(counts_path, 100)]
    found: list[int] = []
    ours = time_each(
        "lazyfun count_solutions", puzzles, lambda p: found.append(count_solutions(parse(p)))
    )
    theirs = time_each("CP-SAT enumeration", puzzles, lambda p: cpsat_solve(p, count=True))
    report("serg benchmark, first 100: count every solution", [ours, theirs])
    print(f"  counts agree with tdoku: {found == expected} ({sum(found):,} solutions)")
    ok = found == expected and ours.total < theirs.total
    verdicts.append(
        verdict(
            "serg counting faster than CP-SAT",
            ok,
            f"{ours.total:.2f} s vs {theirs.total:.2f} s",
        )
    )


def _large(verdicts: list[str]) -> None:
    path = data_file("hexadoku16_oliroshow.txt")
    if path is not None:
        hexa = time_each("16x16 hexadoku", lines(path), first_solution)
        report("16x16", [hexa])
        worst = max(hexa.times)
        verdicts.append(verdict("every 16x16 under 1 s", worst < 1, f"max {worst:.3f} s"))
    puzzle = (ROOT / "tests" / "data" / "sudoku25_unique.txt").read_text().strip()
    start = time.perf_counter()
    first_solution(puzzle)
    took = time.perf_counter() - start
    givens = sum(ch not in ".0" for ch in puzzle)
    print(f"25x25 ({Path('tests/data/sudoku25_unique.txt')}, {givens} givens): {took:.2f} s")
    verdicts.append(verdict("25x25 unique puzzle under 10 s", took < 10, f"{took:.2f} s"))


def main() -> list[str]:
    print(f"  build: {describe()}")
    verdicts: list[str] = []
    _solving(verdicts)
    _counting(verdicts)
    _large(verdicts)
    against_tdoku(verdicts)
    return verdicts


__all__ = ["Timing", "main"]
