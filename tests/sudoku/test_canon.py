"""Minlex canonical forms: against the specification, invariance, and known counts."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.sudoku import Grid, PuzzleError, parse, solve
from lazyfun.sudoku.board.arrangement import band_orders, oriented, relabelled
from lazyfun.sudoku.canon import (
    Arrangement,
    automorphisms,
    canonical,
    canonical_rows,
    equivalent,
    identity,
    minlex,
    minlex_arrangement,
    minlex_by_enumeration,
    random_arrangement,
    random_transform,
    transform,
)
from lazyfun.sudoku.canon.rows import extend
from tests.budget import examples
from tests.datafiles import params, read_lines, shared_path
from tests.puzzles import PUZZLES, SOLUTIONS
from tests.sudoku.strategies import consistent_4x4, full_grids

pytestmark = pytest.mark.compiled  # run again from source by `make unit`

WORKED = "207005000000340000150000009005000001040000320000016500000002084700000010010580000"
WORKED_MINLEX = "000000012000034005006007300001300007053080000080000100010005090200100000700400030"

EMPTY_4X4 = parse("0" * 16)
FULL_4X4 = list(solve(EMPTY_4X4))


@cache
def _full_4x4_forms() -> tuple[Grid, ...]:
    """The minlex form of each of the 288 full 4x4 grids, computed once for the tests
    that read them."""
    return tuple(minlex(g) for g in FULL_4X4)


def _count_by_enumeration(grid: Grid) -> int:
    """How many of all 2 * (b!)^(2(b+1)) arrangements give the minimum: the automorphisms."""
    best = minlex_by_enumeration(grid).cells
    orders = band_orders(grid.box)
    count = 0
    for transpose in (False, True):
        src = oriented(grid, transpose)
        for rows in orders:
            arranged = [src[r] for r in rows]
            count += sum(
                relabelled([row[c] for row in arranged for c in cols]) == best for cols in orders
            )
    return count


# --- the worked example and the specification ----------------------------------


def test_the_worked_example() -> None:
    assert str(minlex(parse(WORKED))) == WORKED_MINLEX


@pytest.mark.parametrize("line", params("minlex_exhaustive.txt"))
def test_agrees_with_exhaustive_enumeration_on_9x9(line: str) -> None:
    puzzle, expected = line.split()
    assert str(minlex(parse(puzzle))) == expected


@pytest.mark.long_from_source  # from source it reaches no line the pure pass's other tests miss
def test_every_full_4x4_grid_agrees_with_the_specification() -> None:
    for grid, form in zip(FULL_4X4, _full_4x4_forms(), strict=True):
        assert form == minlex_by_enumeration(grid)


def test_the_288_full_4x4_grids_fall_into_two_classes() -> None:
    forms = _full_4x4_forms()
    assert len(set(forms)) == 2
    assert sorted(Counter(forms).values()) == [96, 192]


def test_orbit_stabiliser_on_full_4x4_grids() -> None:
    """Each class: |orbit| = |arrangements| * |relabellings| / |automorphisms|."""
    for form, orbit in Counter(_full_4x4_forms()).items():
        assert orbit == 128 * 24 // automorphisms(form)


@given(consistent_4x4())
@settings(max_examples=examples(300), deadline=None)
def test_4x4_puzzles_agree_with_the_specification(grid: Grid) -> None:
    assert minlex(grid) == minlex_by_enumeration(grid)


@given(consistent_4x4())
@settings(max_examples=examples(60), deadline=None)
def test_automorphisms_count_every_arrangement_that_fixes_the_grid(grid: Grid) -> None:
    assert automorphisms(grid) == _count_by_enumeration(grid)


def test_automorphisms_of_full_4x4_grids() -> None:
    for grid in FULL_4X4[::12]:
        assert automorphisms(grid) == _count_by_enumeration(grid)


# --- invariance, idempotence, witnesses on 9x9 -----------------------------------

# famous and generated puzzles, and ten solved grids (tests.puzzles)
SAMPLES = [*PUZZLES, *SOLUTIONS[:10]]


@given(st.sampled_from(SAMPLES), st.randoms(use_true_random=False))
@settings(max_examples=examples(120), deadline=None)
def test_minlex_is_invariant_under_arrangements(line: str, rng: random.Random) -> None:
    grid = parse(line)
    assert minlex(random_transform(grid, rng)) == minlex(grid)


@given(full_grids(3), st.randoms(use_true_random=False), st.integers(0, 81))
@settings(max_examples=examples(60), deadline=None)
def test_invariance_on_dense_puzzles(full: Grid, rng: random.Random, keep: int) -> None:
    kept = set(rng.sample(range(81), keep))
    grid = Grid(tuple(v if i in kept else 0 for i, v in enumerate(full.cells)), 3)
    form = minlex(grid)
    assert minlex(random_transform(grid, rng)) == form
    assert minlex(form) == form
    assert transform(grid, minlex_arrangement(grid)) == form


@pytest.mark.parametrize("line", SAMPLES[::3])
def test_minlex_is_idempotent_and_an_arrangement_of_the_grid(line: str) -> None:
    grid = parse(line)
    form = minlex(grid)
    assert minlex(form) == form
    assert transform(grid, minlex_arrangement(grid)) == form
    assert form.givens == grid.givens


def test_minlex_is_no_larger_than_the_grid_relabelled() -> None:
    for line in SAMPLES:
        grid = parse(line)
        assert minlex(grid).cells <= relabelled(grid.cells)


def test_sample_17_clue_puzzles_are_distinct() -> None:
    lines = read_lines("puzzles17_first50.txt")
    assert len({minlex(parse(line)) for line in lines}) == len(lines)


def test_a_puzzle_without_solution_still_has_a_form() -> None:
    for line in read_lines("royle17_plus_wrong_clue_first20.txt")[:5]:
        grid = parse(line)
        assert next(solve(grid), None) is None
        assert minlex(random_transform(grid, random.Random(5))) == minlex(grid)


# --- automorphisms: known counts --------------------------------------------------


def test_the_empty_grid_is_fixed_by_every_arrangement() -> None:
    assert automorphisms(Grid((0,) * 81, 3)) == 2 * 6**8
    assert minlex(Grid((0,) * 81, 3)) == Grid((0,) * 81, 3)


def test_one_clue_is_fixed_by_the_arrangements_that_keep_its_cell() -> None:
    grid = Grid((0,) * 40 + (7,) + (0,) * 40, 3)
    assert str(minlex(grid)) == "0" * 80 + "1"
    assert automorphisms(grid) == 2 * (2 * 2 * 36) ** 2


def test_the_most_symmetric_full_grid_has_648_automorphisms() -> None:
    grid = parse(
        "123456789456789123789123456231564897564897231897231564312645978645978312978312645"
    )
    assert automorphisms(grid) == 648


def test_a_typical_puzzle_has_only_the_identity() -> None:
    assert automorphisms(parse(WORKED)) == 1


# --- equivalence and laziness ----------------------------------------------------


def test_equivalent() -> None:
    a = parse(WORKED)
    rng = random.Random(11)
    assert equivalent(a, random_transform(a, rng))
    assert not equivalent(a, parse(SAMPLES[0]))
    assert not equivalent(a, EMPTY_4X4)


def test_canonical_rows_are_computed_on_demand(monkeypatch: pytest.MonkeyPatch) -> None:
    steps = 0

    def counted(*args: object) -> object:
        nonlocal steps
        steps += 1
        return extend(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(canonical, "extend", counted)
    rows = canonical_rows(parse(WORKED))
    assert steps == 0
    assert next(rows) == (0, 0, 0, 0, 0, 0, 0, 1, 2)
    assert steps == 1
    # two puzzles whose first canonical rows differ are told apart after one step each
    # (by the Python rows: the C search, where it runs, writes whole forms)
    monkeypatch.setattr(canonical, "FAST", False)
    steps = 0
    assert not equivalent(parse(WORKED), parse("1" + "0" * 80))
    assert steps == 2


# --- arrangements and errors -------------------------------------------------------


def test_transform_reads_rows_then_columns_then_digits() -> None:
    grid = parse("1200000000000001")
    assert transform(grid, identity(2)) == grid
    swapped = transform(grid, Arrangement(False, (1, 0, 2, 3), (0, 1, 2, 3), (0, 1, 2, 3, 4)))
    assert str(swapped) == "0000120000000001"
    relabelled = transform(grid, Arrangement(False, (0, 1, 2, 3), (0, 1, 2, 3), (0, 4, 3, 2, 1)))
    assert str(relabelled) == "4300000000000004"


def test_random_arrangements_are_valid_and_invertible() -> None:
    rng = random.Random(3)
    grid = parse(WORKED)
    for _ in range(20):
        arrangement = random_arrangement(3, rng)
        arrangement.check(3)
        assert equivalent(transform(grid, arrangement), grid)


@pytest.mark.parametrize(
    ("arrangement", "message"),
    [
        (Arrangement(False, (0, 1, 2, 3), (0, 2, 1, 3), (0, 1, 2, 3, 4)), "splits a band"),
        (Arrangement(False, (0, 1, 2, 2), (0, 1, 2, 3), (0, 1, 2, 3, 4)), "permutation"),
        (Arrangement(False, (0, 1, 2, 3), (0, 1, 2, 3), (0, 1, 1, 3, 4)), "digits"),
    ],
)
def test_bad_arrangements_are_refused(arrangement: Arrangement, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        transform(EMPTY_4X4, arrangement)


def test_conflicting_givens_are_an_input_error() -> None:
    with pytest.raises(PuzzleError, match="givens conflict: r1c1 and r1c2 are both 5"):
        minlex(parse("55" + "0" * 79))


def test_unsupported_sizes_are_refused() -> None:
    with pytest.raises(PuzzleError, match="4x4 and 9x9"):
        minlex(Grid((0,) * 256, 4))


# --- the whole 17-clue list (slow) --------------------------------------------------


@pytest.mark.slow
def test_the_17_clue_list_canonicalises_to_distinct_forms() -> None:
    lines = shared_path("sudoku/tdoku_puzzles2_17_clue.txt").read_text().split()
    assert len(lines) == 49_158
    assert len({str(minlex(parse(line))) for line in lines}) == 49_158
