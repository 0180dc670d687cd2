"""Variant walks that reason instead of guessing: the 45 rule (innies, outies), cage
pointing, and the forcing chains over a variant's units, peers and rules; each sound,
each worked once, and stored puzzles that needed a guess now walked without one."""

from __future__ import annotations

from functools import cache
from itertools import islice

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.sudoku import Grid, parse
from lazyfun.sudoku.making import generate
from lazyfun.sudoku.steps.deduction import (
    GUESS,
    VARIANT_CHAINS,
    VARIANT_TECHNIQUES,
    hint,
    steps,
    variant_ladder,
)
from lazyfun.sudoku.steps.techniques import Finder, State
from lazyfun.sudoku.steps.variant_techniques import (
    cage_pointing,
    cell_forcing_chain,
    innie,
    nishio,
    outie,
    rule_45,
    support,
    unit_forcing_chain,
)
from lazyfun.sudoku.variants import Cage, Variant, solve
from lazyfun.sudoku.variants.exchange import read_variant
from tests.budget import examples
from tests.datafiles import DATA

EMPTY4 = parse("." * 16)
EMPTY9 = parse("." * 81)
FINDERS: dict[str, Finder] = {
    "innie": innie,
    "outie": outie,
    "45 rule": rule_45,
    "cage pointing": cage_pointing,
    "nishio": nishio,
    "cell forcing chain": cell_forcing_chain,
    "unit forcing chain": unit_forcing_chain,
}


def _stored(kind: str, index: int) -> Variant:
    lines = (DATA / "variants" / f"{kind}.jsonl").read_text().splitlines()
    return read_variant(lines[index])


@cache
def _made(kind: str, box: int) -> tuple[Variant, Grid]:
    """A puzzle ``generate --variant`` makes (fixed seed, not minimised: quick), and its
    solution; killer at 9x9 is the repo's set (made the same way, and slow to make)."""
    if kind == "killer" and box == 3:
        variant = _stored("killer", 3)
    else:
        variant = next(generate(box, seed=11, variant=kind, minimal=box == 2))
    (solution,) = islice(solve(variant), 2)
    return variant, solution


def _check(
    found_placements: tuple[tuple[int, int], ...], gone: tuple[tuple[int, int], ...], solution: Grid
) -> None:
    for cell, value in found_placements:
        assert solution.cells[cell] == value
    for cell, value in gone:
        assert solution.cells[cell] != value


@settings(max_examples=examples(25), deadline=None)
@given(
    made=st.sampled_from(
        [("killer", 2), ("killer", 3), ("x", 3), ("jigsaw", 3), ("thermo", 3), ("anti-knight", 3)]
    ),
    shown=st.lists(st.booleans(), min_size=81, max_size=81),
    name=st.sampled_from(sorted(FINDERS)),
)
def test_no_new_step_strikes_the_solutions_value(
    made: tuple[str, int], shown: list[bool], name: str
) -> None:
    """On puzzles ``generate --variant`` makes, with more of the solution shown, a step
    of each new finder never removes the solution's value."""
    variant, solution = _made(*made)
    cells = tuple(
        s if given_ or keep else 0
        for s, given_, keep in zip(solution.cells, variant.grid.cells, shown, strict=False)
    )
    more = Variant(Grid(cells, variant.grid.box), variant.rules)
    found = FINDERS[name](State(more, None))
    if found is not None:
        _check(found.placements, found.eliminations, solution)


def test_the_sum_support_keeps_only_the_values_some_way_of_making_the_sum_uses() -> None:
    assert support(2, 4, (0b1111, 0b1111), (0b10, 0b01)) == [0b101, 0b101]  # 1+3, 3+1
    assert support(2, 4, (0b1111, 0b1111), (0, 0)) == [0b111, 0b111]  # 2+2 too, apart
    assert support(1, 2, (0b1111, 0b1111), (0b10, 0b01)) == [0b1100, 0b0011]  # a - b = 2


def test_a_one_cell_innie_is_placed_and_two_innies_make_their_sum() -> None:
    # Row 1 of a 4x4 (sum 10): a cage of three cells making 6 leaves r1c4 = 4.
    one = hint(Variant(EMPTY4, (Cage(cells=(0, 1, 2), total=6),)), techniques=["innie"])
    assert one is not None and str(one) == "innie in row 1: r1c4=4"
    # A cage r1c1-r1c2 making 3 leaves 7 to r1c3 + r1c4: 3 + 4 only.
    two = hint(
        Variant(EMPTY4, (Cage(cells=(0, 1), total=3), Cage(cells=(2, 6), total=5))),
        techniques=["innie"],
    )
    assert two is not None and two.cells == (2, 3) and two.units == ("row 1",)
    assert two.eliminations == ((2, 1), (2, 2), (3, 1), (3, 2))


def test_an_outie_is_what_the_cages_exceed_the_units_sum_by() -> None:
    # Row 1 covered by 3 (r1c1-r1c2) and 9 (r1c3, r1c4, r2c4): r2c4 = 3 + 9 - 10 = 2.
    cages = (Cage(cells=(0, 1), total=3), Cage(cells=(2, 3, 7), total=9))
    step = hint(Variant(EMPTY4, cages), techniques=["outie"])
    assert step is not None and str(step) == "outie in row 1: r2c4=2"


def test_the_45_rule_gives_an_innie_less_an_outie() -> None:
    # Row 1: r1c1 + r1c2 = 3, r1c3 uncaged, r1c4 + r2c4 = 5: r1c3 - r2c4 = 10 - 3 - 5 = 2.
    cages = (Cage(cells=(0, 1), total=3), Cage(cells=(3, 7), total=5))
    step = hint(Variant(EMPTY4, cages), techniques=["45 rule"])
    assert step is not None and step.cells == (2, 7) and step.units == ("row 1",)
    assert step.eliminations == ((2, 1), (2, 2), (7, 3), (7, 4))


def test_a_cage_pointing_value_leaves_the_row_and_the_box() -> None:
    # 17 in two cells is 8 + 9: the 8 is in r1c1-r1c2, so not elsewhere in row 1 or box 1.
    step = hint(Variant(EMPTY9, (Cage(cells=(0, 1), total=17),)), techniques=["cage pointing"])
    assert step is not None and step.units == ("cage at r1c1 (sum 17)", "row 1")
    gone = {c for c, v in step.eliminations if v == 8}
    assert gone == {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 18, 19, 20}
    assert {v for _, v in step.eliminations} == {8}


# (kind, index, the guesses it needed): the first ones in make test, the slower in make slow;
# untraced (the tracer makes each a second and a half longer; test_variant_steps' walks and
# the chains' own tests reach the same lines)
NEEDED_A_GUESS = [("thermo", 0, 2), ("windoku", 0, 1), ("jigsaw", 3, 3)]
NEEDED_A_GUESS_SLOW = [("killer", 1, 6), ("killer", 3, 3), ("x", 1, 4)]


@pytest.mark.untraced
@pytest.mark.parametrize(
    ("kind", "index", "guesses"),
    [
        *NEEDED_A_GUESS,
        *(pytest.param(*each, marks=pytest.mark.slow) for each in NEEDED_A_GUESS_SLOW),
    ],
)
def test_stored_puzzles_that_needed_a_guess_now_walk_without_one(
    kind: str, index: int, guesses: int
) -> None:
    """Each of these needed a guess (``bifurcation``) with the singles, the rules' own
    techniques and the classic ladder short of its chains (as many as given here); now
    none, and every forcing chain on the way names itself and keeps the solution."""
    before = [
        t.name
        for t in variant_ladder()
        if t not in VARIANT_TECHNIQUES + VARIANT_CHAINS and t.name != "chains and cycles"
    ]
    chains = {t.name for t in VARIANT_CHAINS}
    variant = _stored(kind, index)
    assert sum(s.technique == GUESS for s in steps(variant, techniques=before)) == guesses
    walk = list(steps(variant))
    assert all(s.technique != GUESS for s in walk), (kind, index)
    (solution,) = islice(solve(variant), 2)
    for step in walk:
        if step.technique in chains:
            assert step.cells and str(step).startswith(step.technique)
            _check(step.placements, step.eliminations, solution)
