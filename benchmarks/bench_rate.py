"""Ratings against the known facts of the public sets, and against serate.

- Naked and hidden singles to a fixpoint finish exactly 40 of Norvig's easy 50
  (his propagation finishes the same 40): those rate easy, and so do four more
  that Sudoku Explainer's direct techniques finish (serate agrees on all 50).
- serate's ER (SukakuExplainer's command-line rater) on the 100 puzzles of
  serate_draw100.txt (drawn across top1465, royle17 and sudoku10k, about 11 of each
  ER band from 1 to 9.3) and the 180 of serate_sample180.txt (a plain random draw:
  mostly easy or very hard), stored with the puzzles, and the 200 of
  serate_check200.txt (a draw made after the ladder matched the first two, none of
  theirs: a check that the match is no fit to them): how many ratings are exact,
  within 0.1 and within 0.3, and every rating by serate's ER band.  Ours is timed in
  one process and on every core (a Stream's map on worker processes); when
  ``$SERATE`` names a build of serate (benchmarks.common.serate) it is timed on the
  same puzzles (it runs threads on every core itself), and skipped with one line
  otherwise.
- The forum's hardest through SE's chains nested in dynamic ones
  (serate_nested.txt): serate's ER on every one within the ladder, a floor below it
  on the one past it; ours timed on the first few against serate's.  These samples of
  public sets lie in ../shared/data/sudoku/tests-data (tests/data/PROVENANCE.md); each
  part is skipped with one line where its file is absent.
- None of the 48,766 puzzles of the forum-hardest 11+ set is finished by
  singles (checked on all of them), and each rates at the top level or needs a
  guess (checked on a sample, rated with ``pmap`` on this machine's cores).
"""

from __future__ import annotations

import os
import time
from collections import Counter
from pathlib import Path

from benchmarks.common import data_file, lines, run_serate, serate, verdict
from lazyfun import Stream
from lazyfun.parallel import pmap
from lazyfun.sudoku import parse
from lazyfun.sudoku.steps.deduction import SINGLES, steps
from lazyfun.sudoku.steps.rating import Rating, rate

SAMPLE = 200  # forum-hardest puzzles rated: some three seconds each through the nested chains
SERATE_SAMPLE = Path("tests-data", "serate_sample180.txt")  # under benchmarks.common.SUDOKU
SERATE_DRAW = Path("tests-data", "serate_draw100.txt")
SERATE_CHECK = Path("tests-data", "serate_check200.txt")
SERATE_NESTED = Path("tests-data", "serate_nested.txt")
NESTED_TIMED = 4  # of SERATE_NESTED timed against serate: some two minutes each for it


def rating(puzzle: str) -> Rating:
    return rate(parse(puzzle))


def score(puzzle: str) -> float:
    return rating(puzzle).score


def agreement(
    rows: list[tuple[str, float]], scores: list[float]
) -> tuple[int, int, int, Counter[tuple[float, float]]]:
    """Exact, within 0.1 and within 0.3 of serate's ER, and every rating as
    (serate's ER, ours) counts."""
    exact = near = close = 0
    confusion: Counter[tuple[float, float]] = Counter()
    for (_, er), ours in zip(rows, scores, strict=True):
        off = abs(ours - er)
        exact += off < 1e-9
        near += off <= 0.1 + 1e-9
        close += off <= 0.3 + 1e-9
        confusion[(er, ours)] += 1
    return exact, near, close, confusion


def serate_seconds(command: list[str] | None, puzzles: list[str]) -> float | None:
    """serate's wall time on the puzzles, or None where it is not given."""
    if command is None:
        return None
    return run_serate(command, puzzles, "%r")[1]


def print_confusion(confusion: Counter[tuple[float, float]]) -> None:
    """The ratings by serate's ER band: how many we rate exactly, and the others."""
    bands: dict[int, list[tuple[float, float, int]]] = {}
    for (er, ours), count in sorted(confusion.items()):
        bands.setdefault(int(er), []).append((er, ours, count))
    print("  ER band: exact/all; the others as serate's ER -> ours (count)")
    for band, rows in sorted(bands.items()):
        exact = sum(c for er, ours, c in rows if abs(er - ours) < 1e-9)
        total = sum(c for _, _, c in rows)
        others = ", ".join(
            f"{er}->{ours}" + (f" x{c}" if c > 1 else "")
            for er, ours, c in rows
            if abs(er - ours) >= 1e-9
        )
        print(f"    {band}-{band + 1}: {exact}/{total}  {others}")


def against_serate(sample: Path, least: float, command: list[str] | None) -> list[str]:
    """Our rating against serate's stored ER on ``sample``: agreement (at least ``least``
    of the puzzles exact), our time in one process and on every core, and serate's time
    where ``command`` runs it."""
    found = data_file(str(sample))
    if found is None:
        return []
    rows = [(line.split()[0], float(line.split()[1])) for line in lines(found)]
    puzzles = [p for p, _ in rows]
    start = time.perf_counter()
    scores = [score(p) for p in puzzles]
    one = time.perf_counter() - start
    workers = os.cpu_count() or 1
    start = time.perf_counter()
    in_parallel = list(Stream(puzzles).map(score, concurrency=workers, via="process"))
    every = time.perf_counter() - start
    assert in_parallel == scores
    exact, near, close, confusion = agreement(rows, scores)
    total = len(rows)
    print(f"  {sample.name}: ER exact {exact}/{total}, within 0.1 {near}, within 0.3 {close}")
    print_confusion(confusion)
    print(
        f"  rated in {one:.1f} s in one process ({one / total * 1000:.0f} ms a puzzle), "
        f"{every:.1f} s on {workers} cores"
    )
    verdicts = [
        verdict(
            f"serate's ER exactly on {sample.name} (the issue asks 90 of 100)",
            exact >= least * total,
            f"{exact}/{total} exact, {near} within 0.1, {close} within 0.3",
        )
    ]
    theirs = serate_seconds(command, puzzles)
    if theirs is not None:
        print(
            f"  serate on the same puzzles: {theirs:.1f} s (it runs threads on every core): "
            f"{theirs / one:.1f}x our time in one process, {theirs / every:.1f}x on every core"
        )
        verdicts.append(
            verdict(
                f"10x as fast as serate on {sample.name}, both on every core",
                theirs >= 10 * every,
                f"{theirs / every:.1f}x ({every:.1f} s against {theirs:.1f} s)",
            )
        )
    return verdicts


def nested_against_serate(command: list[str] | None) -> list[str]:
    """The forum's hardest whose walks take SE's chains nested in dynamic ones: serate's
    ER on every one within the ladder (levels 2 and 3), a floor no higher on the one
    past it; and the time, on the first ``NESTED_TIMED``, against serate's."""
    found = data_file(str(SERATE_NESTED))
    if found is None:
        return []
    rows = [line.split(" ", 2) for line in lines(found)]
    puzzles = [row[0] for row in rows]
    workers = os.cpu_count() or 1
    start = time.perf_counter()
    ratings = list(Stream(puzzles).map(rating, concurrency=workers, via="process"))
    every = time.perf_counter() - start
    within = [(r, float(row[1])) for r, row in zip(ratings, rows, strict=True) if not r.floor]
    exact = sum(abs(r.score - er) < 1e-9 for r, er in within)
    floors = [(r.score, float(row[1])) for r, row in zip(ratings, rows, strict=True) if r.floor]
    print(
        f"  {SERATE_NESTED.name}: {exact}/{len(within)} exact within the ladder; floors "
        f"(ours, serate's) {floors}; all {len(rows)} in {every:.1f} s on {workers} cores"
    )
    verdicts = [
        verdict(
            "serate's ER on the forum's hardest within the nested levels, a floor below it past",
            exact == len(within) >= 40 and all(ours <= er for ours, er in floors),
            f"{exact}/{len(within)} exact, floors {floors}",
        )
    ]
    timed = puzzles[:NESTED_TIMED]
    start = time.perf_counter()
    list(Stream(timed).map(score, concurrency=workers, via="process"))
    ours = time.perf_counter() - start
    theirs = serate_seconds(command, timed)
    if theirs is not None:
        print(f"  the first {len(timed)}: {ours:.1f} s against serate's {theirs:.1f} s")
        verdicts.append(
            verdict(
                f"10x as fast as serate on the first {len(timed)} nested, both on every core",
                theirs >= 10 * ours,
                f"{theirs / ours:.1f}x ({ours:.1f} s against {theirs:.1f} s)",
            )
        )
    return verdicts


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
                "the 40 norvig_easy50 puzzles singles finish rate easy, and 4 more (direct)",
                sum(finished) == 40
                and all(e for f, e in zip(finished, rated_easy, strict=True) if f)
                and sum(rated_easy) == 44,
                f"{sum(finished)} finished by singles, {sum(rated_easy)} rate easy",
            )
        )
    command = serate()
    verdicts += against_serate(SERATE_DRAW, 0.9, command)
    verdicts += against_serate(SERATE_SAMPLE, 0.9, command)
    verdicts += against_serate(SERATE_CHECK, 0.9, command)
    verdicts += nested_against_serate(command)
    hardest = data_file("tdoku_puzzles5_forum_hardest_1905_11plus.txt")
    if hardest is not None:
        puzzles = lines(hardest)
        start = time.perf_counter()
        by_singles = sum(pmap(singles_finish, puzzles, jobs=workers))
        took = time.perf_counter() - start
        sample = puzzles[:: max(1, len(puzzles) // SAMPLE)][:SAMPLE]
        start = time.perf_counter()
        levels = Counter(pmap(level, sample, jobs=workers, chunksize=4))
        rated = time.perf_counter() - start
        print(
            f"  forum hardest 11+: {len(puzzles):,} puzzles, {by_singles} finished by singles "
            f"({took:.1f} s); {len(sample):,} rated in {rated:.1f} s: {dict(levels)}"
        )
        top = sum(n for (name, floor), n in levels.items() if name == "extreme" or floor)
        verdicts.append(
            verdict(
                "no forum-hardest 11+ puzzle is finished by singles",
                by_singles == 0 and len(puzzles) == 48_766,
                f"{by_singles} of {len(puzzles):,}",
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
