"""Minlex canonical forms: the C search beside kaityo256's C++ minlex and the Python search.

kaityo256's minlex (github.com/kaityo256/minlex) is a reference to measure against, never
a dependency, and not built here: build its public source by hand outside the repository
(``g++ -O3 -march=native``) and set ``$KAITYO_MINLEX`` to the program, which takes a file
of puzzles and prints each one's form.  Without it its rows are skipped, in one line, and
the target is read against the rate the issue quotes for it.

All rates are in CPU time (ours the best of three, the C++ program's one run, read from
the children's rusage), so the other work of a shared machine counts as little as it can.
Ours are timed two ways: a loop from Python over ``minlex(parse(line))`` (the public
function) and one batch call over the lines (``_minlex.minlex_lines``).  The Python
search (``canonical_rows``, what runs without the C engine) is timed on a sample, and the
first grid of each set is checked against the exhaustive specification.
"""

from __future__ import annotations

import os
import resource
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.common import data_file, lines, verdict
from benchmarks.peers import minlex_exhaustive
from lazyfun.sudoku import parse
from lazyfun.sudoku.canon import canonical, canonical_rows, minlex

KAITYO_ENV = "KAITYO_MINLEX"
QUOTED_CPP = 483.0  # puzzles/s on the first 2,000 of royle17, as issue 59 quotes it
TIMES_CPP, FULL_TARGET = 10.0, 2000.0
# (label, file, how many, the Python search's sample)
SETS = [
    ("royle17", "royle17_49151.txt", 2000, 300),
    ("forum hardest", "tdoku_puzzles5_forum_hardest_1905_11plus.txt", 2000, 300),
    ("full grids", "solutions/royle17_49151.solutions.txt", 2000, 100),
]


def kaityo() -> str | None:
    """kaityo256's minlex program from ``$KAITYO_MINLEX``; None, after one line, without it."""
    given = os.environ.get(KAITYO_ENV, "").strip()
    if not given or not os.access(given, os.X_OK):
        print(f"  kaityo256's C++ minlex: skipped (set {KAITYO_ENV} to a build of it; see above)")
        return None
    return given


def run_kaityo(program: str, grids: list[str]) -> tuple[list[str], float]:
    """The C++ program's forms of the grids, and its CPU time."""
    with tempfile.TemporaryDirectory() as folder:
        given = Path(folder) / "in.txt"
        given.write_text("".join(g + "\n" for g in grids))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run([program, str(given)], capture_output=True, text=True, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    took = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return out.stdout.split(), took


def cpu_best_of(repeats: int, f: Callable[[], object]) -> float:
    """The smallest CPU time of ``repeats`` calls of ``f``."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        f()
        best = min(best, time.process_time() - start)
    return best


def ours(line: str) -> str:
    """The public function: minlex of a parsed line, as 81 digits."""
    return str(minlex(parse(line)))


def python_search(line: str) -> str:
    """The Python row-by-row search (what runs where the C engine is not built)."""
    return "".join(str(v) for row in canonical_rows(parse(line)) for v in row)


def _row(name: str, count: int, seconds: float, baseline: float | None) -> float:
    rate = count / seconds
    ratio = f"{rate / baseline:8.1f}x" if baseline else "       -"
    print(f"  {name:<36} {count:>6} grids {rate:>11,.0f}/s  vs C++ {ratio}")
    return rate


def bench_set(label: str, name: str, limit: int, sample: int, program: str | None) -> list[str]:
    """One set: our loop and batch, the Python search, the C++; the forms compared."""
    path = data_file(name)
    if path is None:
        return []
    grids = lines(path, limit)
    print(f"{label}: the first {len(grids)} of {name}")
    forms = [ours(g) for g in grids]
    cpp_rate, verdicts = None, []
    if program is not None and label == "full grids":
        theirs, _ = run_kaityo(program, grids[:20])
        if theirs != forms[:20]:
            print("  kaityo256 minlex (C++): no form for full grids (it prints its start value)")
    elif program is not None:
        theirs, took = run_kaityo(program, grids)
        cpp_rate = _row("kaityo256 minlex (C++, $KAITYO_MINLEX)", len(grids), took, None)
        verdicts.append(
            verdict(f"the same forms as the C++ on {label}", theirs == forms, f"{len(grids)} grids")
        )
    loop = cpu_best_of(3, lambda: [ours(g) for g in grids])
    rate = _row("lazyfun minlex(parse(line)), loop", len(grids), loop, cpp_rate)
    if canonical.FAST:
        from lazyfun.sudoku.canon import _minlex

        batch = cpu_best_of(3, lambda: _minlex.minlex_lines(grids))
        _row("lazyfun _minlex.minlex_lines, batch", len(grids), batch, cpp_rate)
    some = grids[:sample]
    python = cpu_best_of(1, lambda: [python_search(g) for g in some])
    _row("Python search (canonical_rows)", len(some), python, cpp_rate)
    same_python = [python_search(g) for g in some] == forms[:sample]
    spec = minlex_exhaustive(grids[0]) == forms[0]
    verdicts.append(
        verdict(
            f"the Python search's forms and the spec's on {label}",
            same_python and spec,
            f"{len(some)} grids, and the exhaustive spec on the first",
        )
    )
    if label == "royle17":
        base = cpp_rate or QUOTED_CPP
        how = "run here" if cpp_rate else f"quoted, not run: set {KAITYO_ENV}"
        verdicts.append(
            verdict(
                f"minlex at least {TIMES_CPP:.0f}x kaityo256's C++ on royle17 (first 2,000)",
                rate >= TIMES_CPP * base,
                f"{rate:,.0f}/s against {base:,.0f}/s ({how}): {rate / base:.1f}x",
            )
        )
    if label == "full grids":
        verdicts.append(
            verdict(
                f"minlex at least {FULL_TARGET:,.0f} full grids/s",
                rate >= FULL_TARGET,
                f"{rate:,.0f}/s, {rate * python / len(some):.0f}x the Python search",
            )
        )
    return verdicts


def main() -> list[str]:
    if not canonical.FAST:
        print("  the minlex C engine is not built (or LAZYFUN_PURE is set): Python runs")
    print(f"  load average {os.getloadavg()[0]:.2f}; rates in CPU time")
    program = kaityo()
    verdicts: list[str] = []
    for label, name, limit, sample in SETS:
        verdicts += bench_set(label, name, limit, sample, program)
    path = data_file("tdoku_puzzles2_17_clue.txt")
    if path is not None:
        every = lines(path)
        distinct = len({ours(g) for g in every})
        verdicts.append(
            verdict(
                "the 17-clue puzzles have distinct forms",
                distinct == len(every),
                f"{distinct} forms for {len(every)} puzzles",
            )
        )
    return verdicts
