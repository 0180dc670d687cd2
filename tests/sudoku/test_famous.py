"""The puzzles of tests.puzzles are what they say: each has one solution, the one written
beside it, which keeps its givens; the puzzle without a solution has none."""

from __future__ import annotations

import pytest

from lazyfun.sudoku import count_solutions, is_solution, parse, solve
from tests.puzzles import NO_SOLUTION, PUZZLES, SOLUTIONS


@pytest.mark.parametrize(("puzzle", "solution"), list(zip(PUZZLES, SOLUTIONS, strict=True)))
def test_each_puzzle_has_one_solution_the_one_written_beside_it(puzzle: str, solution: str) -> None:
    assert count_solutions(parse(puzzle), limit=2) == 1
    assert is_solution(parse(puzzle), parse(solution))
    assert str(next(solve(parse(puzzle)))) == solution


def test_the_puzzle_without_a_solution_has_none_and_no_given_clash() -> None:
    grid = parse(NO_SOLUTION)  # parse refuses givens that clash
    assert count_solutions(grid, limit=1) == 0
