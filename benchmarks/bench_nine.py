"""Sudoku 9x9: the engine in C beside tdoku, the fastest solver we know, and the
depth-first engine it replaced at 9x9.

tdoku is a reference to measure against, never a dependency, and not built here: build
its public source by hand outside the repository and set ``$TDOKU`` to a small program
around it that takes ``FILE N`` (the first N puzzles of a file, one a line; -1: all)
and prints ``first <puzzles/s>/s unique <puzzles/s>/s`` (its best of three at
``limit=1`` and ``limit=2``, in CPU time), and with a third argument ``1`` solves each
once (what callgrind counts).  Without it the tdoku rows are skipped, in one line.
valgrind stops at AVX-512 instructions: ``$TDOKU_CALLGRIND`` may name a build of the
same program for AVX2 (it defaults to ``$TDOKU``).

Ours are timed in CPU time (the best of five; the program around tdoku takes the
best of three), so that the other work of a shared machine counts as little as it can.

Ours are timed in three ways, because the Python call counts: the loop a user writes
over a file's lines, with the text read inside it (``next(solve(parse(line)))``,
``is_unique(parse(line))``; the line handed over itself, ``solve(line)``, beside it);
the same loop over grids parsed beforehand (``next(solve(grid))``, ``is_unique(grid)``);
and one batch call over the lines (``nine.solve_lines``, which the command line calls
on each plain 81-character line).  The targets are for the loops, the text one first.
With valgrind installed, callgrind counts the instructions a puzzle of each on the
first 100 of forum_hardest_1106 (ours through the batch call, less the interpreter's
start, measured on one puzzle).
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from benchmarks.common import data_file, lines, verdict
from lazyfun.sudoku import Grid, is_unique, parse, solve
from lazyfun.sudoku.solving import engine, nine

T = TypeVar("T")

TDOKU_ENV = "TDOKU"
TDOKU_CALLGRIND_ENV = "TDOKU_CALLGRIND"
SETS = [
    ("tdoku_puzzles6_forum_hardest_1106.txt", None),
    ("tdoku_puzzles3_magictour_top1465.txt", None),
    ("royle17_49151.txt", 10_000),
]
FIRST_WITHIN, UNIQUE_WITHIN, INSTRUCTIONS_WITHIN = 2.0, 2.5, 3.0
CALLGRIND_PUZZLES = 100


def tdoku() -> str | None:
    """The tdoku program from ``$TDOKU``; None, after one line, when it is not given."""
    given = os.environ.get(TDOKU_ENV, "").strip()
    if not given or not os.access(given, os.X_OK):
        print(f"  tdoku: skipped (set {TDOKU_ENV} to a program around a build of it; see above)")
        return None
    return given


def tdoku_rates(program: str, path: Path, limit: int | None) -> tuple[float, float]:
    """tdoku's first-solution and uniqueness puzzles/s on a file's first ``limit``."""
    call = [program, str(path), str(limit or -1)]
    out = subprocess.run(call, capture_output=True, text=True, check=True, timeout=600).stdout
    found = re.search(r"first ([\d.]+)/s unique ([\d.]+)/s", out)
    if found is None:
        raise RuntimeError(f"{TDOKU_ENV} printed no rates: {out!r}")
    return float(found[1]), float(found[2])


def cpu_best_of(repeats: int, work: Callable[[], object]) -> float:
    """The least CPU time of ``repeats`` calls of ``work``."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best


def _rate(count: int, work: Callable[[], object]) -> float:
    return count / cpu_best_of(5, work)


def _first(grid: Grid | str) -> Grid:
    return next(solve(grid))


def _first_parsed(line: str) -> Grid:
    return next(solve(parse(line)))


def _unique_parsed(line: str) -> bool:
    return is_unique(parse(line))


def _each(puzzles: list[T], work: Callable[[T], object]) -> None:
    """``work`` on each puzzle, its answers dropped (as the program around tdoku drops its)."""
    for puzzle in puzzles:
        work(puzzle)


def _depth_first_first(grid: Grid) -> engine.Node:
    return next(engine.solutions(engine.start(grid)))


def _depth_first_unique(grid: Grid) -> int:
    return engine.count_below(engine.start(grid), 2)


def _row(name: str, first: float, unique: float, theirs: tuple[float, float] | None) -> None:
    ratios = f"  {theirs[0] / first:6.2f}x  {theirs[1] / unique:6.2f}x" if theirs else ""
    print(f"  {name:<34} {first:>11,.0f} {unique:>11,.0f}{ratios}")


def _one_set(name: str, limit: int | None, program: str | None, verdicts: list[str]) -> None:
    path = data_file(name)
    if path is None:
        return
    texts = [line[:81] for line in lines(path, limit)]
    grids = [parse(text) for text in texts]
    n = len(grids)
    theirs = tdoku_rates(program, path, limit) if program else None
    print(f"{name}: {n} puzzles      first/s    unique/s  (tdoku is faster by: first, unique)")
    if theirs:
        _row("tdoku (C++, $TDOKU)", *theirs, theirs)
    batch = (
        _rate(n, lambda: nine.solve_lines(texts, 1)),
        _rate(n, lambda: nine.solve_lines(texts, 2)),
    )
    parsed = (
        _rate(n, lambda: _each(texts, _first_parsed)),
        _rate(n, lambda: _each(texts, _unique_parsed)),
    )
    given = (_rate(n, lambda: _each(texts, _first)), _rate(n, lambda: _each(texts, is_unique)))
    loop = (_rate(n, lambda: _each(grids, _first)), _rate(n, lambda: _each(grids, is_unique)))
    _row("lazyfun C, one batch call", *batch, theirs)
    _row("lazyfun C, loop: f(parse(line))", *parsed, theirs)
    _row("lazyfun C, loop: f(line)", *given, theirs)
    _row("lazyfun C, loop over parsed grids", *loop, theirs)
    sample = grids[: min(n, 1000)]
    depth_first = (
        len(sample) / cpu_best_of(1, lambda: [_depth_first_first(g) for g in sample]),
        len(sample) / cpu_best_of(1, lambda: [_depth_first_unique(g) for g in sample]),
    )
    _row(f"depth-first engine (first {len(sample)})", *depth_first, theirs)
    if theirs:
        ways = (("text loop", parsed), ("grid loop", loop), ("batch", batch))
        for way, (first, unique) in ways:
            verdicts.append(
                verdict(
                    f"{name} ({way}): first within {FIRST_WITHIN}x of tdoku,"
                    f" unique within {UNIQUE_WITHIN}x",
                    theirs[0] / first <= FIRST_WITHIN and theirs[1] / unique <= UNIQUE_WITHIN,
                    f"{theirs[0] / first:.2f}x, {theirs[1] / unique:.2f}x",
                )
            )


def _callgrind(command: list[str]) -> int | None:
    """The instructions callgrind counts for ``command``; None when it cannot run it."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
        capture_output=True,
        text=True,
        check=False,
        timeout=1800,
    )
    found = re.search(r"refs:\s*([\d,]+)", done.stderr)
    return int(found[1].replace(",", "")) if done.returncode == 0 and found else None


def _per_puzzle(command: Callable[[int], list[str]]) -> float | None:
    """Instructions a puzzle: a run over CALLGRIND_PUZZLES + 1 less a run over one."""
    one, many = _callgrind(command(1)), _callgrind(command(CALLGRIND_PUZZLES + 1))
    return None if one is None or many is None else (many - one) / CALLGRIND_PUZZLES


def _instructions(program: str | None, verdicts: list[str]) -> None:
    path = data_file(SETS[0][0])
    if path is None:
        return
    if shutil.which("valgrind") is None:
        print("  instructions: skipped (valgrind is not installed)")
        return
    texts = [line[:81] for line in itertools.islice(lines(path), CALLGRIND_PUZZLES + 1)]
    script = (
        "import sys; from lazyfun.sudoku.solving import _nine; _nine.solve_lines(sys.argv[1:], 1)"
    )
    ours = _per_puzzle(lambda k: [sys.executable, "-c", script, *texts[:k]])
    if program:
        program = os.environ.get(TDOKU_CALLGRIND_ENV, "").strip() or program
    theirs = _per_puzzle(lambda k: [program, str(path), str(k), "1"]) if program else None
    print(f"instructions a puzzle, first solution, first {CALLGRIND_PUZZLES} of {path.name}:")
    print(f"  lazyfun C (batch): {ours:,.0f}" if ours else "  lazyfun C: callgrind failed")
    if program and theirs is None:
        print(f"  tdoku: callgrind could not run it (set {TDOKU_CALLGRIND_ENV}: see above)")
    if ours and theirs:
        print(f"  tdoku: {theirs:,.0f}")
        verdicts.append(
            verdict(
                f"instructions a puzzle within {INSTRUCTIONS_WITHIN}x of tdoku",
                ours / theirs <= INSTRUCTIONS_WITHIN,
                f"{ours / theirs:.2f}x",
            )
        )


def against_tdoku(verdicts: list[str]) -> None:
    """The 9x9 sets: ours (batch and loop) and the depth-first engine beside tdoku."""
    if not nine.FAST:
        print("  the 9x9 C engine: skipped (not built, or LAZYFUN_PURE is set)")
        return
    program = tdoku()
    for name, limit in SETS:
        _one_set(name, limit, program, verdicts)
    _instructions(program, verdicts)


def main() -> list[str]:
    verdicts: list[str] = []
    against_tdoku(verdicts)
    return verdicts
