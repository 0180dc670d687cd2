"""Sudoku Explainer's chains: the length bonus as SE adds it, serate's ratings on puzzles
whose hardest step is each kind of chain, the same ratings on equivalent puzzles, and
chain steps that never strike the solution."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.sudoku import parse, solve
from lazyfun.sudoku.board.arrangement import random_transform
from lazyfun.sudoku.steps.chaining import BASES as CHAIN_BASES
from lazyfun.sudoku.steps.chaining import length_bonus
from lazyfun.sudoku.steps.deduction import steps
from lazyfun.sudoku.steps.forcing import BASES as FORCING_BASES
from lazyfun.sudoku.steps.rating import rate

# Puzzles of tests/data/serate_sample180.txt with serate's ER, each rated by its hardest
# step (as serate's own walk says: Forcing Chain, Cell and Region Forcing Chains, the
# dynamic ones at 8.5 and up, with their bonus for length).
KNOWN = [
    (".9....7..27.4..9..8.43........5713.6.......8......9.....7.3.1......64....6......5", 7.2),
    ("15.3......7..4.2....4.72.....8.........9..1.8.1..8.79......38...........6....7423", 8.4),
    (".2..8...7..6..9.......5.48...3....4.5...6.2..67.1....3..14.........17....8.....6.", 8.4),
    ("......5.88..651...9..2..3...4.7..9.5....2....5.1.4.....1.56.8.9..3............61.", 8.9),
    (".92.6.5..8....54.6....98.....5..16...786....36..........9.4.....6..13..2.......3.", 9.0),
    (".6.....4.1......72.5.78........6.9.....5..8..9.3..1.....1......28.3....1.7...4...", 9.0),
]
HARDEST = [
    "forcing chain",
    "region forcing chains",
    "cell forcing chains",
    "dynamic cell forcing chains",
    "dynamic region forcing chains",
    "dynamic contradiction forcing chain",
]


def test_the_length_bonus_is_se_s() -> None:
    """0.1 for each of the lengths 4, 6, 8, 12, 16, 24, 32, 48, ... that a chain's length
    (its nodes less two) exceeds: the table of complexities to bonuses."""
    table = {6: 0.0, 7: 0.1, 8: 0.1, 9: 0.2, 10: 0.2, 11: 0.3, 14: 0.3, 15: 0.4, 18: 0.4}
    table |= {19: 0.5, 26: 0.5, 27: 0.6, 34: 0.6, 35: 0.7, 50: 0.7, 51: 0.8, 66: 0.8}
    table |= {67: 0.9, 98: 0.9, 99: 1.0, 130: 1.0, 131: 1.1}
    assert {c: round(length_bonus(c), 1) for c in table} == table
    assert CHAIN_BASES["forcing X-chain"] + length_bonus(7) < 6.7  # summed as SE sums it


@pytest.mark.parametrize(
    ("puzzle", "er", "hardest"), [(*k, h) for k, h in zip(KNOWN, HARDEST, strict=True)]
)
def test_serate_s_rating_of_each_kind_of_chain(puzzle: str, er: float, hardest: str) -> None:
    rating = rate(parse(puzzle))
    assert (rating.score, rating.hardest, rating.floor) == (er, hardest, False)
    assert hardest in CHAIN_BASES | FORCING_BASES


@settings(max_examples=6, deadline=None)
@given(st.sampled_from(KNOWN[:3]), st.integers(0, 2**32))
def test_an_equivalent_puzzle_rates_the_same(known: tuple[str, float], seed: int) -> None:
    """Relabelled, its rows and columns moved, transposed: the same rating."""
    puzzle, er = known
    moved = random_transform(parse(puzzle), random.Random(seed))
    assert rate(moved).score == er


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(KNOWN), st.integers(0, 2**32))
def test_a_chain_step_never_strikes_the_solution(known: tuple[str, float], seed: int) -> None:
    """On transformed puzzles, each chain step places the solution's value and strikes
    only values the solution does not hold there."""
    grid = random_transform(parse(known[0]), random.Random(seed))
    solution = next(solve(grid)).cells
    chains = 0
    for step in steps(grid):
        if step.technique in CHAIN_BASES | FORCING_BASES:
            chains += 1
        assert all(solution[c] == v for c, v in step.placements)
        assert all(solution[c] != v for c, v in step.eliminations)
    assert chains
