"""Variants with arithmetic (killer, thermo, arrow, kropki, greater-than) against brute force."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.sudoku import Grid, PuzzleError, parse
from lazyfun.sudoku.solving import engine as classic
from lazyfun.sudoku.variants import (
    DIAGONALS,
    Arrow,
    Cage,
    Dot,
    GreaterThan,
    Rule,
    Thermo,
    Variant,
    count_solutions,
    is_solution,
    sets_making,
    solve,
)
from tests.budget import examples
from tests.puzzles import PUZZLES
from tests.sudoku.test_variants import LATIN, _boxes

pytestmark = pytest.mark.compiled

# A plain reading of each rule on a grid's values, written apart from the library.
Plain = Callable[[tuple[int, ...]], bool]


def _plain(rule: Rule) -> Plain:
    if isinstance(rule, Cage):
        cells, total = rule.cells, rule.total
        return lambda g: (
            len({g[c] for c in cells}) == len(cells)
            and (total is None or sum(g[c] for c in cells) == total)
        )
    if isinstance(rule, Thermo):
        path = rule.cells
        return lambda g: all(g[a] < g[b] for a, b in pairwise(path))
    if isinstance(rule, Arrow):
        circle, shaft = rule.circle, rule.shaft
        return lambda g: g[circle] == sum(g[c] for c in shaft)
    if isinstance(rule, Dot):
        a, b = rule.cells
        if rule.color == "white":
            return lambda g: abs(g[a] - g[b]) == 1
        return lambda g: g[a] == 2 * g[b] or g[b] == 2 * g[a]
    assert isinstance(rule, GreaterThan)
    a, b = rule.cells
    return lambda g: g[a] < g[b]


def _path(draw: st.DrawFn, n: int, length: int, king: bool) -> tuple[int, ...]:
    """A random path of distinct cells, each touching the last."""
    steps = [(0, 1), (1, 0), (0, -1), (-1, 0)] + ([(1, 1), (1, -1), (-1, 1), (-1, -1)] * king)
    cells = [draw(st.integers(0, n * n - 1))]
    for _ in range(length - 1):
        r, c = divmod(cells[-1], n)
        near = [
            (r + dr) * n + c + dc
            for dr, dc in steps
            if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr) * n + c + dc not in cells
        ]
        if not near:
            break
        cells.append(draw(st.sampled_from(near)))
    return tuple(cells)


@st.composite
def rules_from(draw: st.DrawFn, solution: tuple[int, ...], n: int) -> tuple[Rule, ...]:
    """A few rules laid on the board, most of them true of ``solution`` (some not, so
    that a variant can also have no solution)."""
    rules: list[Rule] = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["killer", "thermo", "arrow", "kropki", "greater-than"]))
        cells = _path(draw, n, draw(st.integers(2, 4)), king=kind in ("thermo", "arrow"))
        if kind != "killer" and len(cells) < 2:
            continue
        truthful = draw(st.booleans()) or draw(st.booleans())
        values = [solution[c] for c in cells]
        if kind == "killer":
            total = sum(values) if truthful else draw(st.integers(1, 2 * n))
            distinct = len(set(values)) == len(values)
            if (distinct or not truthful) and sets_making(total, len(cells), n):
                rules.append(Cage(cells=cells, total=total))
        elif kind == "thermo":
            rules.append(Thermo(cells=cells if truthful else cells[::-1]))
        elif kind == "arrow":
            rules.append(Arrow(circle=cells[0], shaft=cells[1:]))
        elif kind == "kropki":
            color = "white" if abs(values[0] - values[1]) == 1 else "black"
            rules.append(Dot(cells=cells[:2], color=color if truthful else "black"))
        else:
            low_first = cells[:2] if values[0] < values[1] else cells[1::-1]
            rules.append(GreaterThan(cells=low_first))
    return tuple(rules)


SOLVED4 = [g for g in LATIN if _boxes(g)]


@pytest.mark.long_from_source  # from source it reaches no line the pure pass's other tests miss
@settings(max_examples=examples(300), deadline=None)
@given(st.data())
def test_4x4_arithmetic_counts_agree_with_brute_force(data: st.DataObject) -> None:
    solution = data.draw(st.sampled_from(SOLVED4))
    rules = data.draw(rules_from(solution, 4))
    shown = data.draw(st.lists(st.booleans(), min_size=16, max_size=16))
    givens = tuple(
        v if keep and data.draw(st.booleans()) else 0
        for v, keep in zip(solution, shown, strict=True)
    )
    try:
        variant = Variant(Grid(givens, 2), rules)
    except PuzzleError:
        return
    plain = [_plain(r) for r in rules]
    expected = sorted(
        g
        for g in SOLVED4
        if all(v in (0, w) for v, w in zip(givens, g, strict=True)) and all(p(g) for p in plain)
    )
    assert sorted(g.cells for g in solve(variant)) == expected
    assert count_solutions(variant) == len(expected)
    for g in solve(variant):
        assert is_solution(variant, g)


def test_the_4x4_counts_that_make_the_rules_worth_testing() -> None:
    """Known counts, by hand: of the 288 grids, 1+2 or 2+1 in r1c1-r1c2 ..."""
    empty = parse("." * 16)
    assert count_solutions(Variant(empty, (Cage(cells=(0, 1), total=3),))) == 288 // 6
    assert count_solutions(Variant(empty, (Cage(cells=(0, 1, 4, 5), total=10),))) == 288
    assert count_solutions(Variant(empty, (Thermo(cells=(0, 1, 2, 3)),))) == 288 // 24
    assert count_solutions(Variant(empty, (GreaterThan(cells=(0, 1)),))) == 144
    assert count_solutions(Variant(empty, (Arrow(circle=0, shaft=(1,)),))) == 0
    assert count_solutions(Variant(empty, (Arrow(circle=0, shaft=(5, 6)),))) > 0
    # a black dot joins 1-2 or 2-4 (in either order): 4 of the 12 ordered pairs
    assert count_solutions(Variant(empty, (Dot(cells=(0, 1), color="black"),))) == 288 * 4 // 12


def _solved9() -> list[Grid]:
    return [next(classic.solve(parse(line))) for line in PUZZLES[:5]]


SOLVED9 = _solved9()


@pytest.mark.long_from_source  # from source it reaches no line the pure pass's other tests miss
@settings(max_examples=60, deadline=None)
@given(st.data())
def test_killer_propagation_never_removes_a_digit_of_a_solution(data: st.DataObject) -> None:
    solution = data.draw(st.sampled_from(SOLVED9))
    cells = solution.cells
    cages: list[Rule] = []
    taken: set[int] = set()
    for _ in range(data.draw(st.integers(1, 12))):
        cage = _path_cage(data, cells, taken)
        if cage:
            taken.update(cage)
            cages.append(Cage(cells=cage, total=sum(cells[c] for c in cage)))
    shown = data.draw(st.sets(st.integers(0, 80), max_size=20))
    puzzle = Grid(tuple(v if i in shown else 0 for i, v in enumerate(cells)), 3)
    variant = Variant(puzzle, tuple(cages))
    node = classic.start(puzzle, variant.tables)
    search = classic.Search(81, variant.tables)
    for cell in data.draw(st.permutations(range(81))):
        assert not node.dead
        for c, value in enumerate(cells):
            x = node.cands[c]
            assert (x if x < 1 << 9 else x >> 9) & 1 << (value - 1)
        if node.cands[cell] < 1 << 9:  # not placed yet: place the solution's value
            choice = classic.Node(node.cands, node.open, cell, 1 << (cells[cell] - 1))
            node = classic.prune(search, choice)
    assert classic.complete(node)


def _path_cage(data: st.DataObject, cells: tuple[int, ...], taken: set[int]) -> tuple[int, ...]:
    """A cage of 1..5 cells side by side, free so far, with distinct values in ``cells``."""
    start = data.draw(st.integers(0, 80))
    if start in taken:
        return ()
    cage = [start]
    for _ in range(data.draw(st.integers(0, 4))):
        r, c = divmod(cage[-1], 9)
        near = [
            x
            for x in ((r + 1) * 9 + c, (r - 1) * 9 + c, r * 9 + c + 1, r * 9 + c - 1)
            if 0 <= x < 81
            and abs(x % 9 - c) <= 1
            and x not in taken
            and x not in cage
            and cells[x] not in [cells[y] for y in cage]
        ]
        if not near:
            break
        cage.append(data.draw(st.sampled_from(near)))
    return tuple(cage)


def test_9x9_arithmetic_variants_solve_to_grids_the_plain_checker_accepts() -> None:
    rules: tuple[Rule, ...] = (
        Cage(cells=(0, 1, 9), total=6),
        Thermo(cells=(20, 21, 22, 23)),
        Arrow(circle=40, shaft=(41, 42)),
        Dot(cells=(60, 61), color="black"),
        Dot(cells=(70, 71), color="white"),
        GreaterThan(cells=(80, 79)),
        DIAGONALS,
    )
    variant = Variant(parse("." * 81), rules)
    found = [g for _, g in zip(range(3), solve(variant), strict=False)]
    assert len(found) == 3
    for g in found:
        assert is_solution(variant, g)
        assert all(_plain(r)(g.cells) for r in rules if r is not DIAGONALS)


def test_bad_arithmetic_rules_are_refused_naming_the_rule_and_the_field() -> None:
    empty = parse("." * 81)
    with pytest.raises(PuzzleError, match=r"killer: no 2 distinct values of 1..9 add up to 18"):
        Variant(empty, (Cage(cells=(0, 1), total=18),))
    with pytest.raises(PuzzleError, match="killer: cell 81 is outside the 9x9 board"):
        Variant(empty, (Cage(cells=(80, 81), total=3),))
    with pytest.raises(PuzzleError, match="thermo: r1c1 and r1c3 do not touch"):
        Variant(empty, (Thermo(cells=(0, 2)),))
    with pytest.raises(PuzzleError, match="kropki: r1c1 and r2c2 do not touch along a side"):
        Variant(empty, (Dot(cells=(0, 10)),))
    with pytest.raises(PuzzleError, match="kropki: color 'grey'"):
        Variant(empty, (Dot(cells=(0, 1), color="grey"),))
    with pytest.raises(PuzzleError, match="arrow: r1c1-r1c1 names a cell twice"):
        Variant(empty, (Arrow(circle=0, shaft=(0,)),))


def test_givens_that_break_arithmetic_are_refused() -> None:
    with pytest.raises(PuzzleError, match="the killer cage r1c1-r1c2 adds up to 5, not 3"):
        Variant(parse("23" + "." * 14), (Cage(cells=(0, 1), total=3),))
    with pytest.raises(PuzzleError, match="r1c1 and r2c3 are in one killer cage and are both 1"):
        Variant(parse("1.....1." + "." * 8), (Cage(cells=(0, 6)),))
    with pytest.raises(PuzzleError, match="thermometer r1c1-r1c2 does not rise"):
        Variant(parse("21" + "." * 14), (Thermo(cells=(0, 1)),))
    with pytest.raises(PuzzleError, match="the white dot between r1c1-r1c2 joins 1 and 3"):
        Variant(parse("13" + "." * 14), (Dot(cells=(0, 1)),))
    with pytest.raises(PuzzleError, match="the arrow from r1c1 along r1c2 adds up to 2, not 1"):
        Variant(parse("12" + "." * 14), (Arrow(circle=0, shaft=(1,)),))
    with pytest.raises(PuzzleError, match="r1c2 < r1c1 fails: 3 >= 1"):
        Variant(parse("13" + "." * 14), (GreaterThan(cells=(1, 0)),))


def test_a_cage_places_a_value_every_fitting_set_needs_where_it_has_one_place() -> None:
    """6 in three cells is only 1+2+3; a 1 in row 2 leaves the 1 one place: r1c1."""
    puzzle = parse("." * 17 + "1" + "." * 63)
    variant = Variant(puzzle, (Cage(cells=(0, 9, 10), total=6),))
    root = classic.start(puzzle, variant.tables)
    assert root.cands[0] == 1 << 9  # placed: value 1, moved above the candidates
    assert {root.cands[9], root.cands[10]} == {0b110}
