"""Steps, hints and explanations on variants: sound deductions over the variant's units,
peers and rules, and ``rate``/``canon`` refusing a variant with the reason."""

from __future__ import annotations

import functools
from itertools import islice

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.sudoku import Grid, PuzzleError, parse, rate
from lazyfun.sudoku.canon import minlex
from lazyfun.sudoku.steps.deduction import (
    GUESS,
    LADDER,
    SE_FORCING,
    VARIANT_CHAINS,
    VARIANT_TECHNIQUES,
    candidates_of,
    hint,
    ladder_table,
    rule_ladder,
    steps,
    variant_ladder,
    walkthrough,
)
from lazyfun.sudoku.steps.rating import rating_of
from lazyfun.sudoku.variants import (
    ANTI_KNIGHT,
    DIAGONALS,
    NON_CONSECUTIVE,
    Arrow,
    Cage,
    Dot,
    GreaterThan,
    Thermo,
    Variant,
    is_solution,
    solve,
)
from lazyfun.sudoku.variants.exchange import read_variant
from tests.budget import examples
from tests.datafiles import DATA
from tests.sudoku.test_arithmetic import SOLVED4, rules_from

EMPTY4 = parse("." * 16)
EMPTY9 = parse("." * 81)


def _set(kind: str, count: int) -> list[Variant]:
    lines = (DATA / "variants" / f"{kind}.jsonl").read_text().splitlines()
    return [read_variant(line) for line in lines[:count]]


def _follow(variant: Variant) -> tuple[Grid, list[str], set[str]]:
    """Walk every step, checking each against the one solution; the grid it ends on, the
    techniques and the units of the steps."""
    (solution,) = islice(solve(variant), 2)
    values = list(variant.grid.cells)
    seen, units = [], set()
    for step in steps(variant):
        seen.append(step.technique)
        units |= set(step.units)
        for cell, value in step.placements:
            assert solution.cells[cell] == value, step
            values[cell] = value
        for cell, value in step.eliminations:
            assert solution.cells[cell] != value, step
    return Grid(tuple(values), variant.grid.box), seen, units


@functools.cache
def _walked(kind: str, index: int) -> tuple[Variant, Grid, list[str], set[str]]:
    """The ``index``-th puzzle of the repo's set of ``kind``, walked once a run."""
    variant = _set(kind, index + 1)[index]
    return (variant, *_follow(variant))


# the first puzzles of each kind in make test; the slower ones (seconds each) in make slow;
# the four that take a second or more run untraced (the tracer makes them five times longer,
# and the quicker walks reach the same lines)
WALKED = [("windoku", 0), ("windoku", 1), ("windoku", 2), ("jigsaw", 0)]
WALKED += [("anti-king", 0), ("killer", 0), ("killer", 1)]
WALKED += [("thermo", 0), ("thermo", 2)]
WALKED_UNTRACED = [("anti-knight", 0), ("thermo", 1), ("x", 0), ("jigsaw", 1)]
WALKED_SLOW = [("x", 1), ("x", 2), ("jigsaw", 2), ("anti-knight", 1), ("anti-king", 1)]
WALKED_SLOW += [("anti-king", 2), ("non-consecutive", 0)]


@pytest.mark.parametrize(
    ("kind", "index"),
    [
        *WALKED,
        *(pytest.param(*each, marks=pytest.mark.untraced) for each in WALKED_UNTRACED),
        *(pytest.param(*each, marks=pytest.mark.slow) for each in WALKED_SLOW),
    ],
)
def test_steps_solve_the_repo_set_never_striking_the_solution(kind: str, index: int) -> None:
    variant, end, _, _ = _walked(kind, index)
    assert is_solution(variant, end)


def test_the_rules_own_techniques_and_units_show_up_in_the_steps() -> None:
    killer = [t for i in range(2) for t in _walked("killer", i)[2]]
    thermo = [t for i in range(2) for t in _walked("thermo", i)[2]]
    assert "cage combination" in killer and "thermometer" in thermo
    units = {u for kind in ("jigsaw", "x") for u in _walked(kind, 0)[3]}
    assert any(u.startswith("region ") for u in units)
    assert any(u.startswith("diagonal ") for u in units)
    assert not any(u.startswith("box ") for u in units if u.startswith("region"))


@pytest.mark.untraced
@settings(max_examples=examples(200), deadline=None)
@given(st.data())
def test_no_deduction_strikes_a_value_of_any_4x4_solution(data: st.DataObject) -> None:
    """The law behind every rung: before the first guess, each step keeps every solution."""
    solution = data.draw(st.sampled_from(SOLVED4))
    rules = data.draw(rules_from(solution, 4))
    extra = data.draw(st.sampled_from([(), (DIAGONALS,), (NON_CONSECUTIVE,)]))
    shown = data.draw(st.lists(st.booleans(), min_size=16, max_size=16))
    givens = tuple(v if keep else 0 for v, keep in zip(solution, shown, strict=True))
    try:
        variant = Variant(Grid(givens, 2), rules + extra)
    except PuzzleError:
        return
    every = [g.cells for g in solve(variant)]
    if not every:
        return
    for step in islice(steps(variant), 30):
        if step.technique == GUESS:
            break
        for cell, value in step.eliminations:
            assert all(g[cell] != value for g in every), step
        for cell, value in step.placements:
            assert all(g[cell] == value for g in every), step


def test_a_cage_strikes_the_values_no_set_making_its_sum_allows() -> None:
    # 3 in two cells of 1..4: only 1 + 2.
    step = hint(Variant(EMPTY4, (Cage(cells=(0, 1), total=3),)))
    assert step is not None and step.technique == "cage combination"
    assert step.eliminations == ((0, 3), (0, 4), (1, 3), (1, 4))
    assert step.units == ("cage at r1c1 (sum 3)",) and step.cells == (0, 1)
    # 15 in two cells of 1..9 (6+9, 7+8): a 9 already placed in the row leaves 7+8 only.
    grid = parse("........9" + "." * 72)
    step = hint(Variant(grid, (Cage(cells=(0, 1), total=15),)))
    assert step is not None
    assert {v for c, v in step.eliminations if c == 0} == {1, 2, 3, 4, 5, 6}


def test_a_cage_needs_a_whole_set_not_just_its_values() -> None:
    # A cage of 3 cells making 6 is 1+2+3; with r1c1 held to {1, 2} and r1c2 to {1, 2},
    # r1c3 must be 3: a value of the set is not enough, the cells must share it out.
    marks = {0: (1, 2), 1: (1, 2)}
    step = hint(
        Variant(EMPTY9, (Cage(cells=(0, 1, 2), total=6),)),
        marks,
        techniques=["cage combination"],
    )
    assert step is not None
    assert {v for c, v in step.eliminations if c == 2} == {1, 2, 4, 5, 6, 7, 8, 9}


def test_thermometer_sign_dot_and_arrow_strike_what_their_partner_cannot_keep() -> None:
    thermo = hint(Variant(EMPTY4, (Thermo(cells=(0, 1, 2, 3)),)))
    assert thermo is not None and thermo.technique == "thermometer"
    assert thermo.eliminations == ((0, 4), (1, 1), (1, 4), (2, 1), (2, 4), (3, 1))
    sign = hint(Variant(EMPTY4, (GreaterThan(cells=(1, 0)),)))
    assert sign is not None and sign.technique == "greater-than"
    assert sign.eliminations == ((0, 1), (1, 4)) and sign.units == ("r1c2 < r1c1",)
    dot = hint(Variant(EMPTY4, (Dot(cells=(0, 1), color="black"),)))
    assert dot is not None and dot.technique == "kropki"
    assert dot.eliminations == ((0, 3), (1, 3))  # 1-2 and 2-4: never 3
    arrow = hint(Variant(EMPTY9, (Arrow(circle=0, shaft=(10, 20)),)))
    assert arrow is not None and arrow.technique == "arrow"
    assert arrow.eliminations == ((0, 1), (0, 2), (10, 9), (20, 9))


def test_non_consecutive_strikes_the_values_a_neighbour_always_touches() -> None:
    step = hint(Variant(EMPTY4, (NON_CONSECUTIVE,)), {0: (1, 2)}, techniques=["non-consecutive"])
    assert step is not None and step.eliminations == ((1, 1), (1, 2))
    # A placed value clears its neighbours' next values, as peers clear their own.
    marks = candidates_of(Variant(parse("2" + "." * 15), (NON_CONSECUTIVE,)))
    assert marks[1] == (4,) and marks[4] == (4,) and 1 in marks[5]


def test_peers_of_a_variant_feed_the_candidates_and_the_wings() -> None:
    marks = candidates_of(Variant(parse("1" + "." * 80), (ANTI_KNIGHT,)))
    assert 1 not in marks[11] and 1 not in marks[19]  # r2c3, r3c2: a knight's move
    assert 1 in marks[12]


def test_the_variant_ladder_puts_the_rules_after_the_singles() -> None:
    ladder = variant_ladder()
    families = [t.family for t in ladder]
    assert families[:4] == ["single"] * 4 and families[4 : 4 + len(rule_ladder())] == ["rule"] * 6
    rest = ladder[4 + len(rule_ladder()) :]
    classic = tuple(
        t for t in LADDER if t.family not in ("single", "uniqueness") and t.name not in SE_FORCING
    )
    assert rest == VARIANT_TECHNIQUES + classic + VARIANT_CHAINS
    # SE's own forcing chains stay out, and so do unique loops and the BUG: a variant's
    # rules may tell the values they would swap apart
    assert len(classic) == len(LADDER) - 4 - len(SE_FORCING) - 2
    assert "| cage combination | - | rule |" in ladder_table(ladder)
    with pytest.raises(ValueError, match="unknown techniques: cage combination"):
        hint(EMPTY4, techniques=["cage combination"])


def test_a_guess_on_a_variant_is_checked_by_the_variants_search() -> None:
    variant = Variant(EMPTY4, (DIAGONALS,))
    first = next(steps(variant))
    assert first.technique == GUESS
    ((cell, value),) = first.placements
    assert any(g.cells[cell] == value for g in solve(variant))


def test_a_walkthrough_carries_the_rules_for_its_pictures() -> None:
    (variant,) = _set("killer", 1)
    position = next(walkthrough(variant))
    assert position.rules == variant.rules and position.grid == variant.grid


def test_rate_canon_and_rating_of_refuse_a_variant_with_the_reason() -> None:
    variant = _set("killer", 1)[0]
    with pytest.raises(PuzzleError, match=r"a variant \(killer\) has no rating: the Sudoku"):
        rate(variant)
    with pytest.raises(PuzzleError, match=r"a variant \(killer\) has no minlex form"):
        minlex(variant)
    with pytest.raises(PuzzleError, match="a cage combination step has no rating"):
        rating_of(steps(variant))


@pytest.mark.untraced
@pytest.mark.parametrize("kind", ["x", "windoku", "jigsaw", "anti-knight", "killer", "thermo"])
def test_other_generators_puzzles_walk_to_their_one_solution_without_a_guess(kind: str) -> None:
    """The puzzles of four generators that are not ours (tests/data/variants_foreign,
    PROVENANCE): each step keeps the one solution, none is a guess, the walk ends solved."""
    lines = (DATA / "variants_foreign" / f"{kind}.jsonl").read_text().splitlines()
    assert len(lines) == (4 if kind == "jigsaw" else 12)
    for line in lines:
        variant = read_variant(line)
        end, seen, _ = _follow(variant)
        assert is_solution(variant, end) and GUESS not in seen
