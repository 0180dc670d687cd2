"""Human-style steps: sound on 10,000 public puzzles, and how fast they come.

Soundness: on puzzles with one solution no step places a wrong value or
removes the solution's value.  The 10,000 puzzles are audited with
``lazyfun.parallel.pmap`` on this machine's cores.
"""

from __future__ import annotations

import os
import time
from collections import Counter

from benchmarks.common import data_file, lines, verdict
from lazyfun.parallel import pmap
from lazyfun.sudoku import parse, solve
from lazyfun.sudoku.steps.deduction import steps

AUDITED = 10_000


def audit(puzzle: str) -> tuple[int, Counter[str]]:
    """Wrong placements and eliminations in the steps of one puzzle, and the techniques used."""
    grid = parse(puzzle)
    solution = next(solve(grid)).cells
    wrong = 0
    used: Counter[str] = Counter()
    for step in steps(grid):
        used[step.technique] += 1
        wrong += sum(solution[c] != v for c, v in step.placements)
        wrong += sum(solution[c] == v for c, v in step.eliminations)
    return wrong, used


def main() -> list[str]:
    path = data_file("norvig_sudoku10k.txt")
    if path is None:
        return []
    puzzles = lines(path, AUDITED)
    workers = os.cpu_count() or 1
    start = time.perf_counter()
    wrong = 0
    used: Counter[str] = Counter()
    for bad, techniques in pmap(audit, puzzles, jobs=workers):
        wrong += bad
        used.update(techniques)
    took = time.perf_counter() - start
    total = sum(used.values())
    print(
        f"  {len(puzzles):,} puzzles of norvig_sudoku10k, {total:,} steps, "
        f"{took:.1f} s on {workers} workers "
        f"({took / len(puzzles) * workers * 1000:.1f} ms a puzzle a worker)"
    )
    for technique, times in used.most_common():
        print(f"    {technique:<22} {times:>9,}")
    return [
        verdict(
            f"steps sound on {AUDITED:,} public puzzles",
            wrong == 0 and len(puzzles) == AUDITED,
            f"{wrong} wrong placements or eliminations in {total:,} steps",
        )
    ]
