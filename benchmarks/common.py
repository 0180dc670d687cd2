"""Shared helpers: where the public data sets are, timing, and the report table."""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from lazyfun.compiled import PURE_ENV

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("LAZYFUN_DATA", ROOT.parent / "shared" / "data"))
SUDOKU = DATA / "sudoku"
# serate (SukakuExplainer's command-line rater) is a reference to rate against, never a
# dependency, and not built here: set this to a build of it (its classes folder or its
# jar, run as `java -cp ... diuf.sudoku.test.serate`, or a program that runs it).
SERATE_ENV = "SERATE"
SERATE_CLASS = "diuf.sudoku.test.serate"


def data_file(name: str) -> Path | None:
    """A file of ../shared/data/sudoku, or None (with a message) when it is absent."""
    path = SUDOKU / name
    if not path.exists():
        print(f"  skipped: {path} is not here (set LAZYFUN_DATA to the data folder)")
        return None
    return path


def serate() -> list[str] | None:
    """The command that runs serate, from ``$SERATE``; None, after one line saying why,
    where it is not given (or not there, or java is missing)."""
    given = os.environ.get(SERATE_ENV, "").strip()
    if not given:
        print(f"  serate: skipped (set {SERATE_ENV} to a build of it: its classes folder or jar)")
        return None
    path = Path(given).expanduser()
    if not path.exists():
        print(f"  serate: skipped ({SERATE_ENV}={given} is not there)")
        return None
    if path.is_file() and path.suffix != ".jar" and os.access(path, os.X_OK):
        return [str(path)]  # a program that runs serate itself
    java = shutil.which("java")
    if java is None:
        print(f"  serate: skipped (no java to run {SERATE_ENV}={given})")
        return None
    return [java, "-cp", str(path), SERATE_CLASS]


def run_serate(command: list[str], puzzles: list[str], form: str) -> tuple[list[str], float]:
    """serate's output lines (``--format=form``) for the puzzles, and its wall time."""
    with tempfile.TemporaryDirectory() as folder:
        given, out = Path(folder) / "in.txt", Path(folder) / "out.txt"
        given.write_text("".join(p + "\n" for p in puzzles))
        call = [*command, f"--format={form}", f"--input={given}", f"--output={out}"]
        start = time.perf_counter()
        subprocess.run(call, check=True, capture_output=True, timeout=30 * len(puzzles) + 3600)
        took = time.perf_counter() - start
        return out.read_text().splitlines(), took


def lines(path: Path, limit: int | None = None) -> list[str]:
    """The first ``limit`` non-blank lines of a file (eager: benchmarks time solving, not I/O)."""
    out: list[str] = []
    with path.open() as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                out.append(line)
                if limit is not None and len(out) >= limit:
                    break
    return out


@dataclass
class Timing:
    """Per-item wall times of one run, and the peak memory it allocated."""

    name: str
    times: list[float]
    peak_bytes: int = 0

    @property
    def total(self) -> float:
        return sum(self.times)

    @property
    def rate(self) -> float:
        return len(self.times) / self.total if self.total else float("inf")

    def row(self, baseline: Timing | None = None) -> str:
        ms = [t * 1000 for t in self.times]
        ratio = f"{self.rate / baseline.rate:7.2f}x" if baseline else "      -"
        return (
            f"  {self.name:<28} {len(ms):>6} items {self.rate:>10.1f}/s  "
            f"median {statistics.median(ms):8.2f} ms  max {max(ms):9.2f} ms  "
            f"peak {self.peak_bytes / 1024:8.1f} KiB  throughput vs first {ratio}"
        )


def time_each(
    name: str, items: Iterable[str], work: Callable[[str], object], memory: bool = False
) -> Timing:
    """Time ``work`` on each item; with ``memory``, trace the peak allocation too."""
    if memory:
        tracemalloc.start()
    times = []
    try:
        for item in items:
            start = time.perf_counter()
            work(item)
            times.append(time.perf_counter() - start)
        peak = tracemalloc.get_traced_memory()[1] if memory else 0
    finally:
        if memory:
            tracemalloc.stop()
    return Timing(name, times, peak)


def report(title: str, timings: list[Timing]) -> None:
    """Print one table; throughput ratios are against the first row, in the same run.

    A peak of 0 KiB means the peak was not traced for that row.
    """
    print(title)
    for t in timings:
        print(t.row(timings[0]))


def best_of(repeats: int, f: Callable[[], object]) -> float:
    """The smallest wall time of ``repeats`` calls of ``f``."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - start)
    return best


def verdict(label: str, ok: bool, detail: str) -> str:
    """One line saying whether a target was met, and the figures behind it."""
    line = f"  [{'met' if ok else 'MISSED'}] {label}: {detail}"
    print(line)
    return line


def chunks(xs: list[str], n: int) -> Iterator[list[str]]:
    """Consecutive slices of ``n`` items."""
    for i in range(0, len(xs), n):
        yield xs[i : i + n]


def from_source(name: str, kind: str, path: Path, limit: int | None) -> Timing:
    """The same timed work, run from the Python source in a child process.

    ``kind`` names a ``work`` of ``benchmarks.source``; the child sets
    ``LAZYFUN_PURE=1``, so the figures show what compiling buys.
    """
    command = [sys.executable, "-m", "benchmarks.source", kind, str(path), str(limit or 0)]
    env = dict(os.environ, **{PURE_ENV: "1"})
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
    return Timing(name, json.loads(out))
