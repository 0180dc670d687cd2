"""N queens: counting, full enumeration and first placements, against peers in one run."""

from __future__ import annotations

import time
from collections.abc import Callable

from benchmarks.common import best_of, verdict
from benchmarks.peers import (
    constraint_queens_count,
    constraint_queens_first,
    cpsat_queens_first,
    mirror_count,
    plain_queens,
)
from lazyfun import first, ilen
from lazyfun.queens import count_queens, is_placement, queens

CPSAT_SECONDS = 60.0
A000170 = {8: 92, 9: 352, 10: 724, 11: 2680, 12: 14200, 13: 73712, 14: 365596}


def _once(f: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    value = f()
    return time.perf_counter() - start, value


def counting() -> list[str]:
    print("count_queens(n) against a plain bit-mask counter with mirror symmetry (one core)")
    ours14 = 0.0
    for n in range(8, 15):
        repeats = 3 if n < 13 else 1
        ours = best_of(repeats, lambda n=n: count_queens(n))
        theirs = best_of(repeats, lambda n=n: mirror_count(n))
        assert count_queens(n) == A000170[n] == mirror_count(n)
        print(
            f"  n={n:<3} ours {ours:8.3f} s   mirror-only {theirs:8.3f} s   {theirs / ours:5.2f}x"
        )
        ours14 = ours
    return [verdict("count_queens(14) under 3 s", ours14 < 3.0, f"{ours14:.2f} s")]


def enumeration() -> list[str]:
    print("queens(n): every placement streamed and counted; speed-up of ours over each peer")
    worst = float("inf")
    for n in range(8, 13):
        ours = best_of(3, lambda n=n: ilen(queens(n)))
        plain = best_of(1, lambda n=n: ilen(plain_queens(n)))
        pc = best_of(1, lambda n=n: constraint_queens_count(n))
        worst = min(worst, plain / ours, pc / ours)
        print(
            f"  n={n:<3} ours {ours:7.3f} s   plain generator {plain:7.3f} s ({plain / ours:5.1f}x)"
            f"   python-constraint2 {pc:7.3f} s ({pc / ours:5.1f}x)"
        )
    return [
        verdict(
            "queens(n) >= 3x faster than both peers, n=8..12", worst >= 3, f"worst {worst:.1f}x"
        )
    ]


def first_placement() -> list[str]:
    print("A first placement: most-constrained stream vs MinConflicts (python-constraint2), CP-SAT")
    results = []
    for n in (20, 50, 100, 200, 1000):
        ours, p = _once(lambda n=n: first(queens(n, strategy="most-constrained")))
        assert isinstance(p, tuple) and is_placement(p, n)
        cpsat, q = _once(lambda n=n: cpsat_queens_first(n, CPSAT_SECONDS))
        cpsat_text = f"{cpsat:7.3f} s" if q is not None else f"none in {CPSAT_SECONDS:.0f} s"
        assert q is None or (isinstance(q, list) and is_placement(q, n))
        if n <= 200:
            mc, _ = _once(lambda n=n: constraint_queens_first(n))
            mc_text = f"{mc:7.3f} s"
        else:
            mc_text = "skipped (499,500 pairwise constraints)"
        print(f"  n={n:<5} ours {ours:7.3f} s   CP-SAT {cpsat_text}   MinConflicts {mc_text}")
        results.append((n, ours))
    lex = best_of(1, lambda: first(queens(20)))
    print(f"  (lexicographic order, n=20: {lex:.3f} s; it does not finish in minutes at n=50)")
    t200 = dict(results)[200]
    t1000 = dict(results)[1000]
    return [
        verdict("first placement n=200 well under 1 s", t200 < 0.25, f"{t200:.3f} s"),
        verdict("first placement n=1000 in seconds", t1000 < 5, f"{t1000:.2f} s"),
    ]


def main() -> list[str]:
    return counting() + enumeration() + first_placement()
