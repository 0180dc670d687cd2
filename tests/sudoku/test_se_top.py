"""Sudoku Explainer's rules at the top of the ladder: the aligned exclusions, the
TUVWXYZ-wing, the dynamic forcing chains (+) and the forcing chains nested in them.
The rules a chain (+) runs inside itself (lazyfun.sudoku.steps.inner) and the chains
nested in it find what they should and rest on what the chain struck, never strike the
solution; the repo's own generated puzzles walk through each level of the forcing
chains; and the rating with each rung is serate's (on public sets' samples).

Not marked ``compiled``: the readable chains (+) take seconds a step, so the walks run
on the C engine only (tests/sudoku/test_forcing_c.py holds the two to one answer)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.sudoku import parse, solve
from lazyfun.sudoku.board.arrangement import random_transform
from lazyfun.sudoku.making.generation import puzzle as generated
from lazyfun.sudoku.steps import aligned, forcing, inner
from lazyfun.sudoku.steps.deduction import RATINGS, SE_FORCING, TECHNIQUES, steps
from lazyfun.sudoku.steps.rating import TOP, rate, rating_of
from lazyfun.sudoku.steps.techniques import State
from tests.datafiles import DATA, read_lines, rows
from tests.sudoku.test_se_ladder import equivalent

pytest.importorskip("lazyfun.sudoku.steps._forcing")

# puzzle, serate's ER, the hardest step (tests/data/PROVENANCE.md)
TABLE = rows("serate_plus.txt", 3)
# puzzle, serate's ER, the rung its walk takes
TAKEN = rows("serate_aligned_wings.txt", 3)
NEW = ("aligned pair exclusion", "aligned triple exclusion", "TUVWXYZ-wing")
# puzzle, serate's ER, the hardest step: forcing chains nested in dynamic ones
NESTED = rows("serate_nested.txt", 3)
PAST = "(+ dynamic forcing chains)"  # SE's level 4, past the ladder
QUICK = NESTED[13:14] or NESTED  # level 2, a second or two (the docs' table has lines 1 and 16)
# seed, index, puzzle(3, seed, index), the lowest dynamic rung its walk's ladder keeps,
# the walk's ER and hardest step: the repo's own puzzles, through every level of chains
CHAINS = rows("generated_chains.txt", 6)
HARD = list(dict.fromkeys(row[2] for row in CHAINS))  # our puzzles that need forcing chains


def read_table(name: str) -> list[tuple[str, ...]]:
    """The rows of the table ``name`` (puzzle, ER, hardest step), or the test skipped."""
    return [tuple(line.split(" ", 2)) for line in read_lines(name)[1:]]


def _struck(s: State, gone: dict[int, list[int]]) -> list[int]:
    """``s``'s candidates with ``gone`` (cell -> values) struck, as a chain strikes them."""
    cands = list(s.cands)
    for cell, values in gone.items():
        for v in values:
            cands[cell] &= ~(1 << (v - 1))
    return cands


def _kept_solution(
    puzzle: str, seed: int, share: float
) -> tuple[State, list[int], tuple[int, ...]]:
    """A state of a transformed ``puzzle``, a chain's grid of it that keeps the solution
    (a ``share`` of the cells struck at random elsewhere), and the solution."""
    rng = random.Random(seed)
    grid = random_transform(parse(puzzle), rng)
    solution = next(solve(grid)).cells
    s = State(grid, None)
    cands = _struck(
        s,
        {
            c: [v for v in range(1, 10) if bits >> (v - 1) & 1 and v != solution[c]]
            for c, bits in enumerate(s.cands)
            if rng.random() < share
        },
    )
    return s, cands, solution


EMPTY = "." * 81


def test_pointing_rests_on_the_places_the_chain_struck_from_the_box() -> None:
    s = State(parse(EMPTY), None)
    cands = _struck(s, {c: [1] for c in (1, 2, 10, 11, 19, 20)})  # box 1 keeps 1 in column 1
    strikes, parents = next(inner.locking(s, cands))
    assert sorted(strikes) == [(c, 1) for c in range(27, 81, 9)]
    assert sorted(parents) == [(c, 1) for c in (1, 2, 10, 11, 19, 20)]


def test_a_hidden_pair_rests_on_the_struck_places_of_its_values() -> None:
    s = State(parse(EMPTY), None)
    others = (2, 9, 10, 11, 18, 19, 20)
    cands = _struck(s, {c: [1, 2] for c in others})  # box 1: 1 and 2 only in r1c1, r1c2
    strikes, parents = next(inner.hidden_pairs(s, cands))
    assert sorted(strikes) == [(c, v) for c in (0, 1) for v in range(3, 10)]
    assert sorted(parents) == [(c, v) for c in others for v in (1, 2)]


def test_a_naked_pair_rests_on_its_cells_struck_values() -> None:
    s = State(parse(EMPTY), None)
    cands = _struck(s, {0: list(range(3, 10)), 1: list(range(3, 10))})
    findings = list(inner.naked_pairs(s, cands))
    box = (2, 9, 10, 11, 18, 19, 20)
    assert sorted(findings[0][0]) == [(c, v) for c in box for v in (1, 2)]  # the box first
    assert sorted(findings[1][0]) == [(c, v) for c in range(2, 9) for v in (1, 2)]  # row 1
    assert sorted(findings[0][1]) == [(c, v) for c in (0, 1) for v in range(3, 10)]


def test_an_x_wing_rests_on_the_places_struck_from_its_base_lines() -> None:
    s = State(parse(EMPTY), None)
    gone = [r * 9 + col for col in (0, 4) for r in range(9) if r not in (0, 4)]
    cands = _struck(s, {c: [5] for c in gone})  # 5 in columns 1 and 5 only on rows 1, 5
    (strikes, parents), *_ = inner.x_wings(s, cands)
    assert sorted(strikes) == [(r * 9 + c, 5) for r in (0, 4) for c in range(9) if c not in (0, 4)]
    assert sorted(parents) == sorted((c, 5) for c in gone)


def test_a_finding_that_holds_without_the_chain_is_left_to_the_plain_rung() -> None:
    """Nothing struck: every finding rests on nothing, and the chain infers nothing."""
    s = State(parse(HARD[0]), None)
    assert all(not parents for rule in inner.RULES for _, parents in rule(s, list(s.cands)))
    assert inner.inferences(s, list(s.cands)) == []


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(HARD), st.integers(0, 2**32), st.floats(0.05, 0.6))
def test_the_inner_rules_never_strike_the_solution_and_rest_on_struck_candidates(
    puzzle: str, seed: int, share: float
) -> None:
    """A chain's grid that keeps the solution (struck at random elsewhere): what every
    rule strikes is not the solution's digit, and what it rests on was struck."""
    s, cands, solution = _kept_solution(puzzle, seed, share)
    for rule in inner.RULES:
        for strikes, parents in rule(s, cands):
            assert all(solution[c] != v and cands[c] >> (v - 1) & 1 for c, v in strikes)
            assert all(
                s.cands[c] >> (v - 1) & 1 and not cands[c] >> (v - 1) & 1 for c, v in parents
            )


@settings(max_examples=8, deadline=None)
@given(st.sampled_from(HARD[-2:]), st.integers(0, 2**32), st.floats(0.05, 0.5))
def test_nested_chains_never_strike_the_solution_and_rest_on_struck_candidates(
    puzzle: str, seed: int, share: float
) -> None:
    """On a chain's grid that keeps the solution, what every chain nested in it (of one
    line, level 2; from many starts, level 3) strikes is a candidate there and not the
    solution's digit, and what it rests on was struck; each is counted by its length."""
    s, cands, solution = _kept_solution(puzzle, seed, share)
    found = [*inner.nested(s, cands), *forcing._nested_multiple(s, cands)]
    for strikes, parents, chain in found:
        assert chain is not None and chain.complexity >= 2
        assert all(solution[c] != v and cands[c] >> (v - 1) & 1 for c, v in strikes)
        assert parents and all(
            s.cands[c] >> (v - 1) & 1 and not cands[c] >> (v - 1) & 1 for c, v in parents
        )


def test_a_nested_chain_rests_on_the_causes_of_its_links() -> None:
    """The link from r1c1 off to r1c5 on holds because row 1 has two places left for 1:
    it rests on the places the chain struck; a link within a cell on its struck values."""
    s = State(parse(EMPTY), None)
    cands = _struck(s, {c: [1] for c in (1, 2, 3, 5, 6, 7, 8)} | {40: [3, 4, 5, 6, 7, 8, 9]})
    r1c1_off, r1c5_on = 0, (4 * 9) * 2 + 1
    assert inner.link_parents(s, cands, r1c1_off, r1c5_on) == [
        (c, 1) for c in (1, 2, 3, 5, 6, 7, 8)
    ]
    r5c5 = (40 * 9 + 0) * 2
    assert inner.link_parents(s, cands, r5c5, r5c5 + 3) == [(40, v) for v in range(3, 10)]
    assert inner.link_parents(s, list(s.cands), r1c1_off, r1c5_on) == []


@pytest.mark.parametrize(("puzzle", "er", "technique"), QUICK)
def test_serate_rates_the_puzzle_as_we_do_with_chains_nested(
    puzzle: str, er: str, technique: str
) -> None:
    rating = rate(parse(puzzle))
    assert (rating.score, rating.hardest, rating.floor) == (float(er), technique, False)


def _ladder_from(low: float) -> list[str]:
    """The ladder without the dynamic forcing chains rated below ``low`` (8.5: the
    whole ladder): where they are left out, the walk takes the levels above them."""
    return [t for t in TECHNIQUES if not (t in SE_FORCING[2:] and RATINGS[t] < low)]


@pytest.mark.parametrize(("seed", "index", "puzzle", "low", "er", "technique"), CHAINS)
def test_our_generated_puzzles_walk_through_each_level_of_the_forcing_chains(
    seed: str, index: str, puzzle: str, low: str, er: str, technique: str
) -> None:
    """Each is the generator's puzzle number ``index`` of its ``seed``; its walk (the
    C engine's chains) places the solution, strikes none of it, and its hardest step
    is the forcing chain it was picked for: static, dynamic, (+), nested at levels 2
    and 3."""
    assert str(generated(3, int(seed), int(index))) == puzzle
    grid = parse(puzzle)
    solution = next(solve(grid)).cells
    walk = list(steps(grid, techniques=_ladder_from(float(low))))
    for step in walk:
        assert all(solution[c] == v for c, v in step.placements), step
        assert all(solution[c] != v for c, v in step.eliminations), step
    rating = rating_of(walk)
    assert (rating.score, rating.hardest, rating.floor) == (float(er), technique, False)
    assert rating.guesses == 0 and technique in {step.technique for step in walk}


@pytest.mark.slow
@pytest.mark.parametrize(("puzzle", "er", "technique"), NESTED)
def test_every_nested_puzzle_rates_as_serate_does_or_floors_below_it(
    puzzle: str, er: str, technique: str
) -> None:
    rating = rate(parse(puzzle))
    if technique.endswith(PAST):
        assert rating.floor and TOP <= rating.score <= float(er)
    else:
        assert (rating.score, rating.hardest, rating.floor) == (float(er), technique, False)


@pytest.mark.untraced
@pytest.mark.parametrize(("puzzle", "er", "technique"), TABLE)
def test_serate_rates_the_puzzle_as_we_do_with_the_chains_plus(
    puzzle: str, er: str, technique: str
) -> None:
    rating = rate(parse(puzzle))
    assert (rating.score, rating.hardest, rating.floor) == (float(er), technique, False)
    assert any(step.technique.endswith("(+)") for step in steps(parse(puzzle)))


@pytest.mark.untraced  # three walks up to the chains (+): the tests above reach their lines
@settings(max_examples=3, deadline=None)
@given(st.data())
def test_under_equivalence_the_rating_with_the_chains_plus_holds(data: st.DataObject) -> None:
    puzzle, er, technique = data.draw(st.sampled_from(read_table("serate_plus.txt")))
    grid = parse(data.draw(equivalent(puzzle)))
    solution = next(solve(grid)).cells
    for step in steps(grid):
        assert all(solution[c] == v for c, v in step.placements), step
        assert all(solution[c] != v for c, v in step.eliminations), step
    assert rate(grid).score == float(er), technique


@pytest.mark.untraced
@pytest.mark.parametrize(("puzzle", "er", "technique"), TAKEN)
def test_the_aligned_exclusions_and_the_tuvwxyz_wing_give_serates_rating(
    puzzle: str, er: str, technique: str
) -> None:
    """Each walk takes the rung, and the rating is serate's; without the three rungs
    it would not be."""
    walk = list(steps(parse(puzzle)))
    assert technique in {step.technique for step in walk}
    assert rating_of(walk).score == float(er)
    without = [t for t in TECHNIQUES if t not in NEW]
    assert rating_of(steps(parse(puzzle), techniques=without)).score != float(er)


def test_an_aligned_triple_never_counts_one_value_twice() -> None:
    """Two cells that do not see each other may hold the same value: the combination
    holds that value once (a sum of bits would count it twice and strike the solution)."""
    s = State(parse(EMPTY), None)
    for cell, values in ((6, (1, 2)), (13, (5, 7)), (0, (2, 5)), (4, (5, 7)), (5, (2, 6))):
        s.cands[cell] = sum(1 << (v - 1) for v in values)
    # r1c7=2, r2c5=5, r1c1=5 empties neither r1c5 {5,7} nor r1c6 {2,6}: 2 stays
    assert aligned._exclusion(s, (6, 13, 0), [4, 5]) is None


def _docs_examples() -> list[tuple[str, str, str]]:
    """The rows of the ladder's example table in docs/sudoku.md: puzzle, ER, hardest step."""
    page = (DATA.parent.parent / "docs" / "sudoku.md").read_text()
    section = page.split("### The ladder, an example each", 1)[1].split("\n## ", 1)[0]
    rows = [
        line.split(" | ") for line in section.splitlines() if line.startswith("| ") and "`" in line
    ]
    return [(row[2].strip("`"), row[3], row[4].rstrip(" |")) for row in rows]


@pytest.mark.untraced  # 53 walks, up to the nested chains
def test_every_example_of_the_ladder_in_the_docs_rates_as_it_says() -> None:
    examples = _docs_examples()
    assert len(examples) >= 50
    for puzzle, er, hardest in examples:
        rating = rate(parse(puzzle))
        assert (rating.score, rating.hardest) == (float(er), hardest), puzzle


@pytest.mark.untraced
@pytest.mark.parametrize(("puzzle", "er"), rows("serate_bug.txt", 2))
def test_a_walk_through_a_bug_of_two_cells_rates_as_serate(puzzle: str, er: str) -> None:
    """BUG type 2: two cells break the BUG with one extra value, which leaves every cell
    that sees both."""
    walk = list(steps(parse(puzzle)))
    taken = [step for step in walk if step.technique == "BUG type 2"]
    assert taken and all(step.rating == 5.7 and len(step.cells) >= 2 for step in taken)
    assert rating_of(walk).score == float(er)


def test_the_inner_pairs_read_columns_before_rows() -> None:
    """SE reads its subsets' units boxes, then columns, then rows: a naked pair down
    column 5 comes before one along row 5."""
    s = State(parse(EMPTY), None)
    others = [v for v in range(1, 10) if v not in (1, 2)]
    cands = _struck(s, {40: others, 44: others})  # {1,2} in r5c5, r5c9
    rest = [v for v in range(1, 10) if v not in (3, 4)]
    for cell in (4, 76):  # {3,4} in r1c5, r9c5
        for v in rest:
            cands[cell] &= ~(1 << (v - 1))
    first, second = list(inner.naked_pairs(s, cands))[:2]
    assert {v for _, v in first[0]} == {3, 4} and {c % 9 for c, _ in first[0]} == {4}
    assert {v for _, v in second[0]} == {1, 2} and {c // 9 for c, _ in second[0]} == {4}
