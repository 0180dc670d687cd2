"""The verbs of data pipelines beside the in-memory ways, in one run:

- ``sort`` of 10^7 records (a small dict each) with ``memory=100 MB``: the peak memory
  of the child process that sorts (VmHWM over its resident set before the sort) within
  the budget + 64 MB; its time beside ``sorted()`` and PyFunctional's ``seq.sorted``,
  which hold everything (their peaks printed too);
- ``sort`` of 10^6 records that fit its budget (``memory=512 MB``: they cost about 290 MB
  held, with their keys and pointers, past the 256 MiB default): within 1.5x of
  ``sorted()`` read to the end;
- ``join`` of 10^6 records with a table of 10^5 rows, beside toolz's ``join`` and
  PyFunctional's ``join``; ``top(10)`` of 10^6 beside ``heapq.nsmallest``.

``--quick`` (or ``LAZYFUN_BENCH_QUICK=1``) sorts 10^6 records with the budget instead.

    make bench BENCH=verbs
    python -m benchmarks.bench_verbs --quick
"""

from __future__ import annotations

import heapq
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchmarks.common import ROOT, best_of, verdict

QUICK = os.environ.get("LAZYFUN_BENCH_QUICK") == "1" or "--quick" in sys.argv
SPILLED = 10**6 if QUICK else 10**7
FITS = 10**6
BUDGET = 100 * 2**20
FITS_BUDGET = 512 * 2**20
SLACK = 64 * 2**20


def _records(n: int, seed: int = 1) -> Iterator[dict[str, Any]]:
    r = random.Random(seed)
    for i in range(n):
        yield {"id": i, "v": r.random()}


def _v(record: dict[str, Any]) -> float:
    return float(record["v"])


def _status(field: str) -> int:
    lines = Path("/proc/self/status").read_text().splitlines()
    return next(int(line.split()[1]) * 1024 for line in lines if line.startswith(field))


def _child(way: str, n: int) -> None:
    """Sort ``n`` records one ``way``, and print the seconds and the peak over the start."""
    from lazyfun import stream

    before = _status("VmRSS:")
    start = time.perf_counter()
    if way == "lazyfun":
        count = stream(_records(n)).sort(_v, memory=BUDGET).count()
    elif way == "sorted":
        count = sum(1 for _ in sorted(_records(n), key=_v))
    else:
        from functional import seq

        count = seq(_records(n)).sorted(_v).len()
    assert count == n
    print(time.perf_counter() - start, _status("VmHWM:") - before)


def _sorted_in_child(way: str, n: int) -> tuple[float, int]:
    command = [sys.executable, "-m", "benchmarks.bench_verbs", "--child", way, str(n)]
    out = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT).stdout
    seconds, peak = out.split()
    return float(seconds), int(peak)


def _has_pyfunctional() -> bool:
    try:
        import functional  # noqa: F401
    except ImportError:
        return False
    return True


def _spilled(verdicts: list[str]) -> None:
    print(f"sort of {SPILLED:,} records, memory={BUDGET // 2**20} MB (each in a child process)")
    ways = ["lazyfun", "sorted"] + (["pyfunctional"] if _has_pyfunctional() else [])
    figures = {way: _sorted_in_child(way, SPILLED) for way in ways}
    for way, (seconds, peak) in figures.items():
        print(f"  {way:<13} {seconds:7.2f} s   peak {peak / 2**20:7.0f} MB")
    seconds, peak = figures["lazyfun"]
    verdicts.append(
        verdict(
            f"sort of {SPILLED:,} records within memory=100 MB + 64 MB",
            peak <= BUDGET + SLACK,
            f"peak {peak / 2**20:.0f} MB, {seconds:.1f} s "
            f"(sorted() {figures['sorted'][1] / 2**20:.0f} MB, {figures['sorted'][0]:.1f} s)",
        )
    )


def _fits(verdicts: list[str]) -> None:
    from lazyfun import stream

    records = list(_records(FITS))
    ours = best_of(3, lambda: stream(records).sort(_v, memory=FITS_BUDGET).count())
    theirs = best_of(3, lambda: sum(1 for _ in sorted(records, key=_v)))
    print(f"sort of {FITS:,} records that fit: lazyfun {ours:.2f} s, sorted() {theirs:.2f} s")
    if _has_pyfunctional():
        from functional import seq

        peer = best_of(3, lambda: seq(records).sorted(_v).len())
        print(f"  PyFunctional seq.sorted {peer:.2f} s ({peer / ours:.1f}x lazyfun's time)")
    verdicts.append(
        verdict(
            "sort of data that fits within 1.5x of sorted()",
            ours <= 1.5 * theirs,
            f"{ours / theirs:.2f}x",
        )
    )


def _join_and_top() -> None:
    import toolz

    from lazyfun import stream

    left = [{"id": i % 100_000, "n": i} for i in range(FITS)]
    right = [{"id": i, "name": f"row {i}"} for i in range(100_000)]
    ours = best_of(3, lambda: stream(left).join(right, "id").count())
    theirs = best_of(
        3,
        lambda: sum(1 for _ in toolz.join(lambda r: r["id"], right, lambda r: r["id"], left)),
    )
    line = f"join of {FITS:,} records with 100,000 rows: lazyfun {ours:.2f} s, toolz {theirs:.2f} s"
    if _has_pyfunctional():
        from functional import seq

        pairs = [(r["id"], r) for r in left]
        table = [(r["id"], r) for r in right]
        peer = best_of(1, lambda: seq(pairs).join(seq(table)).len())
        line += f", PyFunctional {peer:.2f} s"
    print(line)
    numbers = [random.Random(2).random() for _ in range(FITS)]
    ours = best_of(3, lambda: stream(numbers).top(10).to_list())
    theirs = best_of(3, lambda: heapq.nsmallest(10, numbers))
    print(f"top(10) of {FITS:,}: lazyfun {ours:.3f} s, heapq.nsmallest {theirs:.3f} s")


def main() -> list[str]:
    verdicts: list[str] = []
    _fits(verdicts)
    _join_and_top()
    _spilled(verdicts)
    return verdicts


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        _child(sys.argv[2], int(sys.argv[3]))
    else:
        main()
