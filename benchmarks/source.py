"""Child process of ``common.from_source``: time one kind of work, print the times as JSON.

Usage: ``python -m benchmarks.source KIND FILE LIMIT`` (LIMIT 0: the whole file).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

from benchmarks.common import lines, time_each
from lazyfun.csp.examples import sudoku_model
from lazyfun.sudoku import parse, solve


def first_solution(puzzle: str) -> None:
    """The engine's first solution of a puzzle."""
    next(solve(parse(puzzle)))


def first_model_solution(puzzle: str) -> None:
    """The csp model of a puzzle (all_different), built and solved."""
    model, _ = sudoku_model(puzzle, "all_different")
    assert model.solve().as_dict()


WORK: dict[str, Callable[[str], None]] = {"sudoku": first_solution, "csp": first_model_solution}

if __name__ == "__main__":
    kind, path, limit = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
    puzzles = lines(path, limit or None)
    print(json.dumps(time_each(kind, puzzles, WORK[kind]).times))
