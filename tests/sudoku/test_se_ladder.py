"""The techniques taken from Sudoku Explainer: serate's ER on puzzles whose hardest step
each is (public sets' samples and ours), the ladder's on the repo's own generated puzzles,
kept under the grid's equivalences, and every step sound."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.sudoku import parse, solve
from lazyfun.sudoku.making.generation import puzzle as generated
from lazyfun.sudoku.steps.deduction import RATINGS, steps
from lazyfun.sudoku.steps.rating import rate
from tests.budget import cheap, examples
from tests.datafiles import read_lines, rows

pytestmark = pytest.mark.compiled  # run again from source by `make unit`

# puzzle, serate's ER, the hardest technique (tests/data/PROVENANCE.md): the cross-check
TABLE = rows("serate_techniques.txt", 3)
# seed, index, puzzle(3, seed, index), the ladder's ER, the hardest technique: the repo's own
OURS = rows("generated_techniques.txt", 5)


@pytest.mark.parametrize(("puzzle", "er", "technique"), TABLE)
def test_serate_rates_the_puzzle_by_the_technique_as_we_do(
    puzzle: str, er: str, technique: str
) -> None:
    rating = rate(parse(puzzle))
    assert (rating.score, rating.hardest) == (float(er), technique)
    assert _rung(technique) <= float(er) <= _rung(technique) + 0.3  # by its cells, links, ...


def _rung(technique: str) -> float:
    """The base rating of the ladder's rung whose step is named ``technique``: a unique
    loop, a BUG and a chain of strong links are named by their kind."""
    if technique in RATINGS:
        return RATINGS[technique]
    if technique.startswith("unique"):
        return RATINGS["unique loops"]
    if technique.startswith("BUG"):
        return RATINGS["BUG"]
    count = next((int(ch) for ch in technique if ch.isdigit()), 2)
    return RATINGS[f"strong links ({count})"]


@pytest.mark.parametrize(("seed", "index", "puzzle", "er", "technique"), OURS)
def test_our_generated_puzzles_rate_by_the_technique_they_were_picked_for(
    seed: str, index: str, puzzle: str, er: str, technique: str
) -> None:
    """Each is the generator's puzzle number ``index`` of its ``seed``, and its walk's
    hardest step is the technique, rated within the rung's bonus."""
    assert str(generated(3, int(seed), int(index))) == puzzle
    rating = rate(parse(puzzle))
    assert (rating.score, rating.hardest, rating.floor) == (float(er), technique, False)
    assert _rung(technique) <= float(er) <= _rung(technique) + 0.3


def test_our_table_covers_the_uniqueness_rules_wings_fish_and_strong_links() -> None:
    ours = {technique for *_, technique in OURS}
    taken = {"direct pointing", "direct hidden triple", "turbot fish", "2-string kite"}
    taken |= {"3 skyscrapers", "3 strong links", "3-string kite", "naked triple", "naked quad"}
    taken |= {"swordfish", "jellyfish", "hidden quad", "aligned triple exclusion", "Y-cycle"}
    taken |= {"WXYZ-wing (3)", "VWXYZ-wing", "UVWXYZ-wing", "BUG"}
    taken |= {f"unique rectangle type {kind}" for kind in (1, 2, 3, 4)}
    taken |= {"unique loop 6 type 1", "unique loop 6 type 2", "unique loop 8 type 1"}
    taken |= {"grouped 3 strong links", "grouped 3-string kite", "grouped 3 skyscrapers"}
    taken |= {"BUG type 2", "BUG type 3", "BUG type 4"}
    assert taken <= ours


def test_the_table_covers_the_techniques_taken_from_sudoku_explainer() -> None:
    taken = {"direct pointing", "direct hidden pair", "direct hidden triple", "skyscraper"}
    taken |= {"2-string kite", "turbot fish", "3 skyscrapers", "3 strong links"}
    taken |= {"WXYZ-wing", "WXYZ-wing (3)", "VWXYZ-wing", "UVWXYZ-wing", "TUVWXYZ-wing", "BUG"}
    taken |= {f"unique rectangle type {kind}" for kind in (1, 2, 3, 4)}
    taken |= {"unique loop 6 type 1", "unique loop 6 type 2", "unique loop 8 type 1"}
    taken |= {"grouped turbot fish", "grouped 3 strong links", "grouped 4 strong links"}
    taken |= {"naked triple", "swordfish", "jellyfish", "hidden quad", "aligned triple exclusion"}
    taken |= {"BUG type 2", "BUG type 3", "BUG type 4", "Y-cycle"}
    rated = read_lines("serate_techniques.txt")[1:]
    assert taken <= {line.split(" ", 2)[2] for line in rated}


@st.composite
def equivalent(draw: st.DrawFn, puzzle: str) -> str:
    """A puzzle equivalent to ``puzzle``: digits relabelled, bands and the rows in each,
    stacks and the columns in each permuted, maybe transposed."""

    def order() -> list[int]:
        bands = draw(st.permutations(range(3)))
        return [3 * b + r for b in bands for r in draw(st.permutations(range(3)))]

    rows, cols = order(), order()
    digits = [0, *draw(st.permutations(range(1, 10)))]
    flip = draw(st.booleans())
    cells = [int(x) if x.isdigit() else 0 for x in puzzle]
    return "".join(
        str(digits[cells[9 * rows[c] + cols[r]] if flip else cells[9 * rows[r] + cols[c]]])
        for r in range(9)
        for c in range(9)
    )


@pytest.mark.long_from_source  # from source it reaches no line the pure pass's other tests miss
@settings(max_examples=examples(30), deadline=None)
@given(st.data())
def test_under_equivalence_the_rating_holds_and_no_step_strikes_the_solution(
    data: st.DataObject,
) -> None:
    # from source the readable wings of six cells and aligned triples take seconds a walk
    slow = {row for row in OURS if row[4] == "aligned triple exclusion"}
    _, _, puzzle, er, technique = data.draw(st.sampled_from(cheap(OURS, slow)))
    grid = parse(data.draw(equivalent(puzzle)))
    solution = next(solve(grid)).cells
    values = list(grid.cells)
    for step in steps(grid):
        for cell, value in step.placements:
            assert solution[cell] == value, step
            values[cell] = value
        for cell, value in step.eliminations:
            assert solution[cell] != value, step
    assert tuple(values) == solution
    assert rate(grid).score == float(er), technique


def test_a_direct_step_places_its_single_and_strikes_nothing() -> None:
    """SE's direct hints place the hidden single they lead to; the pointing or the pair
    behind it is the reason, not a step of its own (the next steps see the candidates
    as SE does)."""
    for _, _, puzzle, _, technique in OURS:
        if technique.startswith("direct"):
            direct = [s for s in steps(parse(puzzle)) if s.technique == technique]
            assert direct and all(len(s.placements) == 1 and not s.eliminations for s in direct)
            assert all(s.placements[0][0] in s.cells for s in direct)
