"""Run the benchmarks named on the command line (default: all), then list the verdicts."""

from __future__ import annotations

import importlib
import sys
import time

ALL = [
    "startup",
    "cp",
    "lazylist",
    "sudoku",
    "queens",
    "csp",
    "minizinc",
    "canon",
    "generate",
    "steps",
    "rate",
    "parallel",
    "pmap",
    "stream",
    "ahead",
    "io",
    "verbs",
    "render",
    "variants",
]


def main(names: list[str]) -> None:
    verdicts: list[str] = []
    for name in names or ALL:
        module = importlib.import_module(f"benchmarks.bench_{name}")
        start = time.perf_counter()
        print(f"\n=== {name} " + "=" * 60)
        verdicts += module.main()
        print(f"  ({time.perf_counter() - start:.1f} s)")
    print("\n=== targets")
    for line in verdicts:
        print(line)


if __name__ == "__main__":
    main(sys.argv[1:])
