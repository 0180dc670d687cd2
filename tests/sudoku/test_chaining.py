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

# Puzzles of serate_sample180.txt with serate's ER, each rated by its hardest
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


@pytest.mark.untraced
@pytest.mark.parametrize(
    ("puzzle", "er", "hardest"), [(*k, h) for k, h in zip(KNOWN, HARDEST, strict=True)]
)
def test_serate_s_rating_of_each_kind_of_chain(puzzle: str, er: float, hardest: str) -> None:
    rating = rate(parse(puzzle))
    assert (rating.score, rating.hardest, rating.floor) == (er, hardest, False)
    assert hardest in CHAIN_BASES | FORCING_BASES


# Equivalent forms of the first three (random_transform, seeds 0-3, of the 8.4 cell
# forcing chains puzzle, then of the 7.2 and the 8.4 region ones), each rated by serate
# (java diuf.sudoku.test.serate --format="%r"): SE's ER is not the same on every form of
# a puzzle (8.8 on two of the first four), as its ties go by where a chain is found first.
EQUIVALENT = [
    ("..958.3...8..7...2.....3.4.1....8....7.....64.6.2..5.....6...8...4..9...59.......", 8.8),
    ("3..8...9...4.1.7..72............35...7...1.821...6.....9......6..67....84......3.", 8.8),
    ("....4..9.1....83...82..6.......17......2...7..9....8..5..7..1.9.2.....5...3..9..6", 8.4),
    ("...9...5...4.8.2.......18...3..9...4...4.7.....25...1.3....472..8.3.....5.......6", 8.4),
    ("1...............6.957...8.3..452...1..3.64......1....5...8..7...3...5..948.......", 7.2),
    ("...7..35.....3...6......9.85.1..6.....3.47.....2...6.4..4.1.53..8.........72.....", 7.2),
    ("..42..1.3..1...4.....5...28....29.....7..5.1.6.....9......4....9.5671....8.......", 7.2),
    ("..7.4.........2....3..9..56.5....8........2.1..4....6549..5........7.9.88..63....", 7.2),
    (".6.9...15..1...6.9.....6....4.5....225...4.....379....5...8.3243.......6.........", 8.4),
    ("1.....32...8.....6...7...1....34...98.....6.3.5.....4.31.68.9..5..9......8.4.....", 8.4),
    ("..3..21.....5..6.7....31.2............8.5....532.1...9.41..87.........8.8.74.....", 8.4),
    ("..9..2.....16......285.3..1....2.8....4....3....3...75...2..5.8.....6.9..95...1..", 8.4),
]


@pytest.mark.untraced
@pytest.mark.parametrize(("puzzle", "er"), EQUIVALENT)
def test_equivalent_puzzles_rate_as_serate_rates_them(puzzle: str, er: float) -> None:
    """Relabelled, its rows and columns moved, transposed: serate's rating, which is the
    puzzle's own on ten of these twelve."""
    assert rate(parse(puzzle)).score == er


@pytest.mark.untraced  # six walks through the chains; the ratings above reach their lines
@settings(max_examples=6, deadline=None)
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
