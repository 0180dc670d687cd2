"""Puzzle generation: minimal unique puzzles per second on one core, a 16x16,
and the engine on the unique 25x25 set that generation at that size needs.

Peer in the same run: the plain loop the issue quotes, blanking each given in
turn and counting solutions up to two with the compiled engine (generate asks
its 9x9 questions of the C routine, lazyfun/sudoku/solving/learning_c/unique9.c);
beside it QQWing's published rate.  The figure from source runs in a child
process with ``LAZYFUN_PURE=1`` (the Python loop and the engine's source).  On the
25x25 set (tests/data/sudoku25_set.txt) the peer is OR-Tools CP-SAT with one
worker; the engine (which hands 25x25 boards to its clause-learning search,
lazyfun.sudoku.solving.learning) runs in a child process stopped after ``LARGE_CAP``
seconds, and reports the conflicts it learned from.

Puzzles to a rating (``generate(rating=...)``, the climb of
lazyfun.sudoku.making.climbing): the time to the first N puzzles in each range of
``RATED``, beside the issue's targets and beside plain generation filtered by ``rate``
(stopped at the target time), with how many different solution grids the puzzles
come from (a climb yields the neighbours it meets inside the range).  The reference
rater, serate (SukakuExplainer's command line, where ``$SERATE`` names a build of it:
benchmarks.common.serate), then rates the climb's puzzles: how many it puts inside the
range (skipped, saying so in one line, where it is not given).
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from itertools import islice

from benchmarks.common import ROOT, run_serate, serate, verdict
from benchmarks.peers import cpsat_solve
from lazyfun.compiled import PURE_ENV
from lazyfun.sudoku import Grid, PuzzleError, count_solutions, parse, rate, solve
from lazyfun.sudoku.making import climbing
from lazyfun.sudoku.making.generation import generate, random_solution
from lazyfun.sudoku.solving import learning
from lazyfun.trace import Meter

COMPILED_TARGET = 2000  # minimal unique 9x9 puzzles a second
# QQWing's own published figure (not run here): "It can solve 1000 puzzles in 1 second and
# generate 1000 puzzles in 25 seconds", in its man page (doc/qqwing.man of
# github.com/stephenostermiller/qqwing) and its package description (packages.debian.org/qqwing).
QQWING_RATE = 1000 / 25
SOURCE_TARGET = 25
SIXTEEN_TARGET = 1.0  # seconds, median
PUZZLES = 300
REPEATS = 3
LARGE_TARGET = 10.0  # seconds for each 25x25 puzzle of the set, and faster than CP-SAT
LARGE_CAP = 20.0  # seconds before the engine's child process is stopped
LARGE_SET = ROOT / "tests" / "data" / "sudoku25_set.txt"


# (low, high, puzzles, seconds): the targets; None for the high end: the top
# range the ladder certifies now, from 1.5 below its top value to the top
RATED: tuple[tuple[float | None, float | None, int, float], ...] = (
    (2.0, 3.0, 5, 60.0),
    (4.0, 6.0, 3, 180.0),
    (7.0, 8.5, 2, 600.0),
    (None, None, 3, 180.0),
)


def _first(made: Iterator[Grid], count: int, cap: float) -> tuple[list[Grid], float]:
    """The first ``count`` puzzles of a stream and the seconds they took (stopped after
    ``cap`` seconds, with what was found by then)."""
    found: list[Grid] = []
    start = time.perf_counter()
    for grid in made:
        found.append(grid)
        if len(found) >= count or time.perf_counter() - start > cap:
            break
    return found, time.perf_counter() - start


def _filtered(wanted: tuple[float, float], count: int, cap: float) -> tuple[int, float, int]:
    """Plain generation, each puzzle rated and kept when inside the range, up to ``count``
    or ``cap`` seconds: (found, seconds, rated)."""
    lo, hi = wanted
    found = tried = 0
    start = time.perf_counter()
    for grid in generate(3, seed=1):
        tried += 1
        rating = rate(grid)
        found += not rating.floor and lo <= rating.score <= hi
        if found >= count or time.perf_counter() - start > cap:
            break
    return found, time.perf_counter() - start, tried


def _serate(command: list[str] | None, puzzles: list[Grid]) -> list[float] | None:
    """serate's ER of each puzzle (None where it is not given)."""
    if command is None or not puzzles:
        return None
    given = [str(p).replace("0", ".") for p in puzzles]
    return [float(line) for line in run_serate(command, given, "%r")[0] if line.strip()]


def _ratings(verdicts: list[str]) -> None:
    """Time to N puzzles in each range of RATED: the climb beside the targets and plain
    generation filtered by rate; serate's view of the climb's puzzles."""
    top = climbing.ceiling()
    command = serate()
    print(f"  puzzles to a rating, one core, seed 1 (the ladder certifies up to {top:g}):")
    for low, high, count, target in RATED:
        wanted = (low, high) if low is not None and high is not None else (top - 1.5, top)
        name = f"{wanted[0]:.1f}-{wanted[1]:.1f}"
        try:
            climbing.check_range(3, wanted)
        except PuzzleError as refusal:
            print(f"    {name}: refused at once: {refusal}")
            continue
        meter = Meter("rated")
        made, took = _first(climbing.made_to_rating(3, wanted, seed=1, meter=meter), count, target)
        grids = len({next(solve(g)).cells for g in made})
        apart = climbing.made_to_rating(3, wanted, seed=1, per_climb=1)
        one_each, one_took = _first(apart, count, target)
        plain, plain_took, tried = _filtered(wanted, count, target)
        print(
            f"    {name}  climb: {len(made)} in {took:6.1f} s = {len(made) / took * 60:7.1f}/min"
            f" ({meter.done:,} rated, {grids} solution grids)"
        )
        print(
            f"    {name}  climb, one per climb: {len(one_each)} in {one_took:6.1f} s ="
            f" {len(one_each) / one_took * 60:7.1f}/min"
        )
        print(
            f"    {name}  plain generate + filter: {plain} in {plain_took:6.1f} s ="
            f" {plain / plain_took * 60:7.1f}/min ({tried:,} rated);"
            f" target {count} in {target:.0f} s"
        )
        ers = _serate(command, made)
        inside = None if ers is None else sum(wanted[0] <= er <= wanted[1] for er in ers)
        if ers is not None:
            shown = " ".join(f"{er:.1f}" for er in ers)
            print(f"    {name}  serate puts {inside} of {len(ers)} inside (its ERs: {shown})")
        verdicts.append(
            verdict(
                f"{count} puzzles rated {name} in at most {target:.0f} s, inside by serate",
                len(made) >= count and took <= target and inside in (None, len(made)),
                f"{len(made)} in {took:.1f} s"
                + ("" if inside is None else f", serate: {inside} of {len(made)} inside"),
            )
        )


def _rate(count: int, seed: int) -> tuple[float, float]:
    """Puzzles a second (best of REPEATS) and their mean number of givens."""
    best, givens = float("inf"), 0.0
    for _ in range(REPEATS):
        start = time.perf_counter()
        made = list(islice(generate(3, seed=seed), count))
        best = min(best, time.perf_counter() - start)
        givens = statistics.mean(g.givens for g in made)
    return count / best, givens


def _recount(solution: Grid, rng: random.Random) -> Grid:
    """The plain loop: blank each given in turn, keep the blank if counting up to two
    solutions still finds one."""
    cells = list(solution.cells)
    order = list(range(len(cells)))
    rng.shuffle(order)
    for cell in order:
        cells[cell] = 0
        if count_solutions(Grid(tuple(cells), solution.box), limit=2) != 1:
            cells[cell] = solution.cells[cell]
    return Grid(tuple(cells), solution.box)


def _recount_rate(count: int) -> float:
    rng = random.Random(1)
    start = time.perf_counter()
    for _ in range(count):
        _recount(random_solution(3, rng), rng)
    return count / (time.perf_counter() - start)


def _from_source(count: int) -> float:
    command = [sys.executable, "-m", "benchmarks.bench_generate", "--child", str(count)]
    env = dict(os.environ, **{PURE_ENV: "1"})
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
    rate: float = json.loads(out)
    return rate


def _engine_first(puzzle: str) -> tuple[float, int] | None:
    """Seconds the engine takes to its first solution, in a child process, and the
    conflicts it learned from (None: stopped)."""
    command = [sys.executable, "-m", "benchmarks.bench_generate", "--first", puzzle]
    try:
        out = subprocess.run(
            command, capture_output=True, text=True, check=True, timeout=LARGE_CAP
        ).stdout
    except subprocess.TimeoutExpired:
        return None
    took, conflicts = json.loads(out)
    return float(took), int(conflicts)


def _large(verdicts: list[str]) -> None:
    """Each puzzle of the 25x25 set: the engine against CP-SAT (1 worker), first solution."""
    puzzles = LARGE_SET.read_text().split()
    print(
        f"  unique 25x25 puzzles ({LARGE_SET.name}), first solution, engine stopped at"
        f" {LARGE_CAP:.0f} s:"
    )
    slow = []
    for k, puzzle in enumerate(puzzles, 1):
        start = time.perf_counter()
        cpsat_solve(puzzle)
        theirs = time.perf_counter() - start
        run = _engine_first(puzzle)
        ours = run[0] if run is not None else None
        shown = f"{run[0]:6.2f} s ({run[1]:,} conflicts)" if run else f"> {LARGE_CAP:.0f} s "
        givens = sum(ch != "0" for ch in puzzle)
        print(
            f"    #{k:<2} {givens} givens  CP-SAT {theirs:6.2f} s  engine {shown}"
            f"  {theirs / ours if ours else 0:5.1f}x"
        )
        if ours is None or ours >= LARGE_TARGET or ours >= theirs:
            slow.append(f"#{k}")
    verdicts.append(
        verdict(
            f"every 25x25 of the set under {LARGE_TARGET:.0f} s and faster than CP-SAT",
            not slow,
            f"{len(puzzles) - len(slow)} of {len(puzzles)}"
            + (f" (not: {', '.join(slow)})" if slow else ""),
        )
    )


def main() -> list[str]:
    verdicts = []
    ours, givens = _rate(PUZZLES, seed=1)
    plain = _recount_rate(PUZZLES // 3)
    source = _from_source(PUZZLES // 6)
    print(f"  minimal unique 9x9 puzzles, one core, best of {REPEATS}:")
    print(f"    lazyfun generate, compiled     {ours:8.1f}/s  mean givens {givens:.1f}")
    print(f"    lazyfun generate, from source  {source:8.1f}/s")
    print(
        f"    QQWing (its published figure)  {QQWING_RATE:8.1f}/s"
        f"  (generate {ours / QQWING_RATE:.0f}x)"
    )
    faster = ours / plain
    print(f"    blank and recount (engine)     {plain:8.1f}/s  (generate {faster:.2f}x faster)")
    verdicts.append(
        verdict(
            f"minimal unique 9x9 puzzles at least {COMPILED_TARGET}/s compiled",
            ours >= COMPILED_TARGET,
            f"{ours:.0f}/s, mean givens {givens:.1f} ({ours / plain:.2f}x blank-and-recount)",
        )
    )
    verdicts.append(
        verdict(
            f"minimal unique 9x9 puzzles at least {SOURCE_TARGET}/s from source",
            source >= SOURCE_TARGET,
            f"{source:.0f}/s",
        )
    )
    times = []
    sizes = []
    for grid_index in range(5):
        start = time.perf_counter()
        grid = next(generate(4, seed=grid_index))
        times.append(time.perf_counter() - start)
        sizes.append(grid.givens)
    median = statistics.median(times)
    print(
        f"  minimal unique 16x16: median {median:.2f} s, max {max(times):.2f} s, "
        f"givens {min(sizes)}-{max(sizes)}"
    )
    verdicts.append(
        verdict(
            f"a minimal unique 16x16 puzzle, median under {SIXTEEN_TARGET:.0f} s",
            median < SIXTEEN_TARGET,
            f"median {median:.2f} s of 5",
        )
    )
    if learning.AVAILABLE:
        start = time.perf_counter()
        grid = next(generate(5, seed=1))
        print(
            f"  a minimal unique 25x25 (seed 1): {time.perf_counter() - start:.1f} s,"
            f" {grid.givens} givens"
        )
    _ratings(verdicts)
    _large(verdicts)
    return verdicts


if __name__ == "__main__" and sys.argv[1:2] == ["--first"]:
    grid = parse(sys.argv[2])
    start = time.perf_counter()
    if learning.AVAILABLE:  # what solve(grid) runs at 25x25, with its counters
        _, stats = learning.stats_of(grid)
        conflicts = stats.conflicts
    else:
        next(solve(grid))
        conflicts = 0
    print(json.dumps([time.perf_counter() - start, conflicts]))

if __name__ == "__main__" and sys.argv[1:2] == ["--child"]:
    count = int(sys.argv[2])
    start = time.perf_counter()
    list(islice(generate(3, seed=2), count))
    print(json.dumps(count / (time.perf_counter() - start)))
