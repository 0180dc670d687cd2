"""Start-up: how long ``import lazyfun`` and the command line take before any work.

Targets (issue 58): ``import lazyfun`` within 100 ms of a bare ``python -c pass``,
``lazyfun --version`` and ``lazyfun sudoku solve PUZZLE`` within 300 ms of it; each
the best of 5 fresh interpreters, after one run that writes the bytecode (as an
installed package has it: the caches go to a temporary folder, the environment's
``PYTHONDONTWRITEBYTECODE`` set aside).  What ``import lazyfun`` loads is checked by
``tests/test_startup.py``; the times are measured here only.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

from benchmarks.common import verdict

PUZZLE = "006200080008970000004810500000060002070000030600050000002047100003028400050001200"
RUNS = 5
CLI = "import sys; from lazyfun.cli import main; sys.argv = ['lazyfun', *sys.argv[1:]]; main()"
COMMANDS: list[tuple[str, list[str], float | None]] = [
    ("python -c pass", ["-c", "pass"], None),
    ("import lazyfun", ["-c", "import lazyfun"], 0.100),
    ("lazyfun --version", ["-c", CLI, "--version"], 0.300),
    ("lazyfun sudoku solve PUZZLE", ["-c", CLI, "sudoku", "solve", PUZZLE], 0.300),
]


def best(arguments: list[str], env: dict[str, str]) -> float:
    """The best wall time of ``RUNS`` fresh interpreters running ``arguments``."""
    subprocess.run([sys.executable, *arguments], env=env, capture_output=True, check=True)
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run([sys.executable, *arguments], env=env, capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> list[str]:
    verdicts: list[str] = []
    with tempfile.TemporaryDirectory() as caches:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = caches
        figures = [(label, best(arguments, env), target) for label, arguments, target in COMMANDS]
    bare = figures[0][1]
    print(f"  best of {RUNS}, bytecode cached; over a bare interpreter ({bare * 1000:.0f} ms)")
    for label, seconds, _ in figures:
        print(f"  {label:<30} {seconds * 1000:7.0f} ms  {(seconds - bare) * 1000:+7.0f} ms")
    for label, seconds, target in figures:
        if target is not None:
            over = seconds - bare
            detail = f"{over * 1000:.0f} ms over ({seconds * 1000:.0f} ms, bare {bare * 1000:.0f})"
            label = f"{label} within {target * 1000:.0f} ms of python -c pass"
            verdicts.append(verdict(label, over <= target, detail))
    return verdicts


if __name__ == "__main__":
    main()
