"""Variants on the engine: brute-force counts on 4x4, plain checks on 9x9, and the laws."""

from __future__ import annotations

from itertools import permutations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.sudoku import Grid, PuzzleError, parse
from lazyfun.sudoku.solving import engine as classic
from lazyfun.sudoku.variants import (
    ANTI_KING,
    ANTI_KNIGHT,
    DIAGONALS,
    NON_CONSECUTIVE,
    WINDOWS,
    Regions,
    Rule,
    Variant,
    count_solutions,
    is_solution,
    is_unique,
    solve,
)
from tests.budget import examples
from tests.puzzles import PUZZLES

pytestmark = pytest.mark.compiled  # the engine; run again from source by `make unit`

SQUARES = Regions(regions=(0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3))
JIGSAW4 = Regions(regions=(0, 0, 0, 1, 0, 2, 1, 1, 2, 2, 1, 3, 2, 3, 3, 3))
JIGSAW9 = Regions(  # the classic boxes, with a cell traded across three box borders
    regions=tuple(
        int(ch)
        for ch in "001111222"
        "000111222"
        "000011222"
        "334444555"
        "333444555"
        "333344555"
        "666778888"
        "666777888"
        "666777788"
    )
)


# A plain reading of each rule, on a 4x4 grid as 16 values, written apart from the library.
def _latin_squares() -> list[tuple[int, ...]]:
    rows = list(permutations(range(1, 5)))
    return [
        sum(rs, ())
        for rs in product(rows, repeat=4)
        if all(len({r[c] for r in rs}) == 4 for c in range(4))
    ]


LATIN = _latin_squares()


def _at(g: tuple[int, ...], r: int, c: int) -> int:
    return g[r * 4 + c]


def _distinct(g: tuple[int, ...], cells: list[tuple[int, int]]) -> bool:
    return len({_at(g, r, c) for r, c in cells}) == len(cells)


def _apart(g: tuple[int, ...], moves: list[tuple[int, int]], test: object) -> bool:
    return all(
        test(_at(g, r, c), _at(g, r + dr, c + dc))  # type: ignore[operator]
        for r in range(4)
        for c in range(4)
        for dr, dc in moves
        if 0 <= r + dr < 4 and 0 <= c + dc < 4
    )


def _boxes(g: tuple[int, ...]) -> bool:
    return all(
        _distinct(g, [(br + r, bc + c) for r in range(2) for c in range(2)])
        for br in (0, 2)
        for bc in (0, 2)
    )


PLAIN = {
    "x": lambda g: (
        _distinct(g, [(i, i) for i in range(4)]) and _distinct(g, [(i, 3 - i) for i in range(4)])
    ),
    "windoku": lambda g: _distinct(g, [(1, 1), (1, 2), (2, 1), (2, 2)]),
    "anti-knight": lambda g: _apart(g, [(1, 2), (2, 1), (2, -1), (1, -2)], lambda a, b: a != b),
    "anti-king": lambda g: _apart(g, [(1, 1), (1, -1)], lambda a, b: a != b),
    "non-consecutive": lambda g: _apart(g, [(0, 1), (1, 0)], lambda a, b: abs(a - b) != 1),
}


def _plain(g: tuple[int, ...], rules: tuple[Rule, ...]) -> bool:
    regions = [r for r in rules if isinstance(r, Regions)]
    if regions:
        cells = [
            [(c // 4, c % 4) for c in range(16) if regions[0].regions[c] == k] for k in range(4)
        ]
        if not all(_distinct(g, unit) for unit in cells):
            return False
    elif not _boxes(g):
        return False
    return all(PLAIN[r.name](g) for r in rules if not isinstance(r, Regions))


RULE_SETS = [
    (DIAGONALS,),
    (WINDOWS,),
    (ANTI_KNIGHT,),
    (ANTI_KING,),
    (NON_CONSECUTIVE,),
    (DIAGONALS, WINDOWS),
    (WINDOWS, ANTI_KNIGHT),
    (SQUARES,),
    (JIGSAW4,),
    (JIGSAW4, DIAGONALS),
]


def _ids(rules: tuple[Rule, ...]) -> str:
    return "+".join(r.name for r in rules)


@pytest.mark.parametrize("rules", RULE_SETS, ids=_ids)
def test_empty_4x4_counts_agree_with_brute_force(rules: tuple[Rule, ...]) -> None:
    expected = [g for g in LATIN if _plain(g, rules)]
    variant = Variant(parse("." * 16), rules)
    assert count_solutions(variant) == len(expected)
    assert sorted(g.cells for g in solve(variant)) == sorted(expected)


def test_the_counts_that_make_4x4_variants_worth_testing() -> None:
    """Known facts, so a rule that does nothing cannot pass: 288 classic grids, fewer with rules."""
    empty = parse("." * 16)
    counts = {_ids(r): count_solutions(Variant(empty, r)) for r in RULE_SETS}
    assert (counts["x"], counts["windoku"], counts["x+windoku"]) == (48, 168, 48)
    assert counts["anti-king"] == 0 and counts["non-consecutive"] == 0  # none exists on 4x4
    assert count_solutions(Variant(empty, (SQUARES,))) == 288  # the boxes as a region map


@pytest.mark.long_from_source  # from source it reaches no line the pure pass's other tests miss
@settings(max_examples=examples(150), deadline=None)
@given(
    st.sampled_from(RULE_SETS),
    st.sampled_from(LATIN),
    st.lists(st.booleans(), min_size=16, max_size=16),
)
def test_4x4_counts_with_givens_agree_with_brute_force(
    rules: tuple[Rule, ...], source: tuple[int, ...], shown: list[bool]
) -> None:
    givens = tuple(v if keep else 0 for v, keep in zip(source, shown, strict=True))
    try:
        variant = Variant(Grid(givens, 2), rules)
    except PuzzleError:
        return  # givens that break a rule are refused at once (tested below)
    expected = sum(
        1
        for g in LATIN
        if _plain(g, rules) and all(v in (0, w) for v, w in zip(givens, g, strict=True))
    )
    assert count_solutions(variant) == expected
    for g in solve(variant):
        assert is_solution(variant, g)


@settings(max_examples=examples(100), deadline=None)
@given(
    st.sampled_from([r for r in RULE_SETS if not any(isinstance(x, Regions) for x in r)]),
    st.sampled_from(LATIN),
    st.lists(st.booleans(), min_size=16, max_size=16),
)
def test_a_rule_never_adds_a_solution(
    rules: tuple[Rule, ...], source: tuple[int, ...], shown: list[bool]
) -> None:
    """Beside the classic rules (all but jigsaw, which replaces the boxes), a variant's
    solutions are some of the classic puzzle's."""
    grid = Grid(tuple(v if keep else 0 for v, keep in zip(source, shown, strict=True)), 2)
    try:
        variant = Variant(grid, rules)
    except PuzzleError:
        return
    assert {g.cells for g in solve(variant)} <= {g.cells for g in classic.solve(grid)}


@pytest.mark.untraced
@pytest.mark.parametrize(
    "rules",
    [
        (DIAGONALS,),
        (WINDOWS,),
        (ANTI_KNIGHT,),
        (ANTI_KING,),
        (NON_CONSECUTIVE,),
        (JIGSAW9,),
        (DIAGONALS, ANTI_KNIGHT),
    ],
    ids=_ids,
)
def test_9x9_variants_solve_to_grids_the_plain_checker_accepts(rules: tuple[Rule, ...]) -> None:
    variant = Variant(parse("." * 81), rules)
    found = list(zip(range(3), solve(variant), strict=False))
    assert len(found) == 3
    for _, g in found:
        assert is_solution(variant, g)


def test_sample_puzzles_with_diagonals_keep_to_the_classic_answers() -> None:
    for line in PUZZLES[:10]:
        puzzle = parse(line)
        variant = Variant(puzzle, ())
        assert is_unique(variant)
        (answer,) = list(solve(variant))
        assert classic.is_solution(puzzle, answer)


def test_givens_that_break_a_rule_are_refused_with_both_cells_named() -> None:
    with pytest.raises(PuzzleError, match="r1c1 and r4c4 share a unit and are both 1"):
        Variant(parse("1..............1"), (DIAGONALS,))
    with pytest.raises(PuzzleError, match="r1c1 and r2c3 are a knight's move apart and are both 2"):
        Variant(parse("2.....2........."), (ANTI_KNIGHT,))
    with pytest.raises(
        PuzzleError, match="r1c1 and r1c2 are side by side with consecutive values 2 and 3"
    ):
        Variant(parse("23.............."), (NON_CONSECUTIVE,))
    with pytest.raises(PuzzleError, match="jigsaw: region 0 has 3 cells, not 4"):
        Variant(parse("." * 16), (Regions(regions=(0, 0, 0, 1) + (1,) * 4 + (2,) * 4 + (3,) * 4),))
    with pytest.raises(PuzzleError, match="jigsaw: the region map has 3 cells, not 16"):
        Variant(parse("." * 16), (Regions(regions=(0, 1, 2)),))
    with pytest.raises(PuzzleError, match="unknown rule 'killer'"):
        Variant(parse("." * 16), (Rule("killer"),))


def test_a_jigsaw_given_may_repeat_in_a_classic_box() -> None:
    # r1c1 and r2c2 share a classic box but not a region of JIGSAW4 (regions 0 and 2).
    puzzle = parse("1....1..........")
    with pytest.raises(PuzzleError, match="givens conflict"):
        classic.start(puzzle)
    variant = Variant(puzzle, (JIGSAW4,))
    expected = sum(1 for g in LATIN if _plain(g, (JIGSAW4,)) and g[0] == 1 and g[5] == 1)
    assert count_solutions(variant) == expected > 0
