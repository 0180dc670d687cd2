"""Ratings against the known facts of the public sets.

- Naked and hidden singles to a fixpoint finish exactly 40 of Norvig's easy 50
  (his propagation finishes the same 40): exactly those rate easy.
- None of the 48,766 puzzles of the forum-hardest 11+ set is finished by
  singles (checked on all of them), and each rates at the top level or needs a
  guess (checked on a sample, rated with ``pmap`` on this machine's cores).
"""

from __future__ import annotations

import os
import time
from collections import Counter

from benchmarks.common import data_file, lines, verdict
from lazyfun.parallel import pmap
from lazyfun.sudoku import parse
from lazyfun.sudoku.steps.deduction import SINGLES, steps
from lazyfun.sudoku.steps.rating import rate

SAMPLE = 1_000


def singles_finish(puzzle: str) -> bool:
    """Whether singles alone finish a puzzle (the walk stops at the first guess)."""
    return all(s.technique != "bifurcation" for s in steps(parse(puzzle), techniques=SINGLES))


def level(puzzle: str) -> tuple[str, bool]:
    rating = rate(parse(puzzle))
    return rating.level, rating.floor


def main() -> list[str]:
    verdicts = []
    workers = os.cpu_count() or 1
    easy = data_file("norvig_easy50.txt")
    if easy is not None:
        puzzles = lines(easy)
        finished = [singles_finish(p) for p in puzzles]
        rated_easy = [level(p)[0] == "easy" for p in puzzles]
        print(f"  norvig_easy50: singles finish {sum(finished)}, {sum(rated_easy)} rate easy")
        verdicts.append(
            verdict(
                "exactly the 40 norvig_easy50 puzzles singles finish rate easy",
                sum(finished) == 40 and finished == rated_easy,
                f"{sum(finished)} finished by singles, the same {sum(rated_easy)} rate easy",
            )
        )
    hardest = data_file("tdoku_puzzles5_forum_hardest_1905_11plus.txt")
    if hardest is not None:
        puzzles = lines(hardest)
        start = time.perf_counter()
        finished = sum(pmap(singles_finish, puzzles, jobs=workers))
        took = time.perf_counter() - start
        sample = puzzles[:: max(1, len(puzzles) // SAMPLE)][:SAMPLE]
        start = time.perf_counter()
        levels = Counter(pmap(level, sample, jobs=workers, chunksize=4))
        rated = time.perf_counter() - start
        print(
            f"  forum hardest 11+: {len(puzzles):,} puzzles, {finished} finished by singles "
            f"({took:.1f} s); {len(sample):,} rated in {rated:.1f} s: {dict(levels)}"
        )
        top = sum(n for (name, floor), n in levels.items() if name == "extreme" or floor)
        verdicts.append(
            verdict(
                "no forum-hardest 11+ puzzle is finished by singles",
                finished == 0 and len(puzzles) == 48_766,
                f"{finished} of {len(puzzles):,}",
            )
        )
        verdicts.append(
            verdict(
                f"all {len(sample):,} sampled forum-hardest puzzles rate extreme or need a guess",
                top == len(sample),
                f"{top} of {len(sample):,}",
            )
        )
    return verdicts
