"""The C engine of Sudoku Explainer's chains and wings gives the Python searches'
answers (the forcing chains from many starts, the cycles and forcing chains of one
line, the wings of three to five cells): on states a rating walk reaches, on states
with candidates struck at random, on a 4x4 grid; and it refuses what it cannot read."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.sudoku import MarkedGrid, parse, read, solve
from lazyfun.sudoku.board.arrangement import random_transform
from lazyfun.sudoku.steps import aligned, chaining, forcing
from lazyfun.sudoku.steps.chaining import Chain, houses_of
from lazyfun.sudoku.steps.deduction import Step, steps
from lazyfun.sudoku.steps.techniques import Found, State
from lazyfun.sudoku.steps.wings import C_WINGS, _wings_in_c, _wings_search
from tests.datafiles import read_lines, rows

engine = pytest.importorskip("lazyfun.sudoku.steps._forcing")

# The searches of the ladder: base, dynamic, Y links, kinds, inner rules (+).
DYNAMIC = frozenset({"contradiction", "double", "cell", "region"})
SEARCHES = [
    (7.5, True, False, frozenset({"contradiction", "nishio"}), 0),
    (8.0, False, True, frozenset({"cell", "region"}), 0),
    (8.5, True, True, DYNAMIC, 0),
]
PLUS = (9.0, True, True, DYNAMIC, 1)
NESTED = (9.5, True, True, DYNAMIC, 2)  # forcing chains nested (level 2)
NESTED_MULTIPLE = (10.0, True, True, DYNAMIC, 3)  # and multiple forcing chains (level 3)
# serate's ER 9.0 and 8.4 (serate_sample180.txt): dynamic and static chains.
HARD = ".92.6.5..8....54.6....98.....5..16...786....36..........9.4.....6..13..2.......3."
MIDDLE = "15.3......7..4.2....4.72.....8.........9..1.8.1..8.79......38...........6....7423"
# serate's ER 9.8 (serate_techniques.txt): dynamic forcing chains (+).
PLUSSED = "7.....4...2..7..8...3..8..9...5..3...6..2..9...1..7..6...3..9...3..4..6...9..1..5"
# the repo's own puzzles whose walks take forcing chains, by index (generated_chains.txt)
OURS = {row[1]: row[2] for row in rows("generated_chains.txt", 6)}


def _both(s: State) -> list[tuple[Found | Chain | None, Found | Chain | None]]:
    """Each search's hint from C and from Python, the chains of one line last."""
    forcing_chains: list[tuple[Found | Chain | None, Found | Chain | None]] = [
        (forcing._in_c(s, *search), forcing._Search(s, *search).run()) for search in SEARCHES
    ]
    return [*forcing_chains, (chaining._in_c(s), chaining._search(s))]


def _aligned_agree(s: State) -> int:
    """Asserts the C aligned exclusions are the Python's; how many found one."""
    found = 0
    for size, search in ((2, aligned._pair_search), (3, aligned._triple_search)):
        ours = aligned._in_c(s, size)
        assert ours == search(s)
        found += ours is not None
    return found


def _wings_agree(s: State) -> int:
    """Asserts the C wings are the Python's, for each size; how many sizes found one."""
    found = 0
    for size in C_WINGS:
        ours = _wings_in_c(s, size)
        assert ours == _wings_search(s, size)
        found += ours[None] is not None
    return found


# serate's WXYZ (5.5, 5.6), VWXYZ (6.4) and UVWXYZ (6.6) wings (serate_techniques.txt).
WINGED = [
    "008060070030000400000001000000400300100090000600000000200000010000300800040500000",
    "4..1......9....2..1..2.93.....9.......6.4.12.......754.7.81....3.25..8..6....4..5",
    "008000020704000080100900600070060500000003069020000740006500003080004000000000000",
    "100000003060300700070005001210700090007000000008010020000806400009020060000400000",
]


@pytest.mark.untraced
@pytest.mark.parametrize("puzzle", WINGED)
def test_the_c_wings_are_the_python_wings_on_the_states_of_a_rating_walk(puzzle: str) -> None:
    grid = parse(puzzle)
    s = State(grid, None)
    found = 0
    for step in steps(grid):
        found += _wings_agree(s)
        s.apply(step.placements, step.eliminations)
    assert found >= 1


@pytest.mark.untraced  # the readable search is 4x slower traced; test_se_top reaches its lines
def test_the_c_search_gives_the_python_hint_on_the_states_of_a_rating_walk() -> None:
    grid = parse(HARD)
    s = State(grid, None)
    compared = found = 0
    for step in steps(grid):
        if step.difficulty is not None and step.difficulty >= 6.5:
            for ours, reference in _both(s):
                assert ours == reference
                compared += 1
                found += ours is not None
            if compared >= 16:
                break
        s.apply(step.placements, step.eliminations)
    assert compared == 16 and found >= 6


@pytest.mark.untraced  # the readable search is 4x slower traced; test_se_top reaches its lines
@settings(max_examples=6, deadline=None)
@given(st.sampled_from([HARD, MIDDLE]), st.integers(0, 2**32), st.floats(0.0, 0.3))
def test_the_c_search_gives_the_python_hint_with_candidates_struck_at_random(
    puzzle: str, seed: int, share: float
) -> None:
    """Striking some of the candidates the solution does not hold makes states no walk
    passes through: the two searches still agree, hint for hint."""
    rng = random.Random(seed)
    grid = random_transform(parse(puzzle), rng)
    solution = next(solve(grid)).cells
    s = State(grid, None)
    struck = [
        (cell, v)
        for cell, bits in enumerate(s.cands)
        for v in range(1, 10)
        if bits >> (v - 1) & 1 and v != solution[cell] and rng.random() < share
    ]
    s.apply((), struck)
    for ours, reference in _both(s):
        assert ours == reference
    _wings_agree(s)
    _aligned_agree(s)


@pytest.mark.untraced  # the readable search is 4x slower traced; test_se_top reaches its lines
def test_the_c_aligned_exclusions_are_the_python_ones_on_a_rating_walk() -> None:
    """The pairs and triples on every third state of a walk that reaches past the wings
    (the readable triples take a second or so a state)."""
    found = 0
    grid = parse(HARD)
    s = State(grid, None)
    for number, step in enumerate(steps(grid)):
        if number % 3 == 0:
            found += _aligned_agree(s)
        s.apply(step.placements, step.eliminations)
    assert found >= 5
    with pytest.raises(ValueError, match="size = 4: aligned exclusion takes 2 or 3 cells"):
        engine.aligned(s.cands, s.n, s.units, 4)


def test_the_c_search_gives_the_python_hint_on_a_4x4_grid() -> None:
    s = State(parse("............1234"), {0: [2, 3], 5: [1, 4]})
    for ours, reference in _both(s):
        assert ours == reference
    _wings_agree(s)
    with pytest.raises(ValueError, match="size = 7: the wings' sets are of 3 to 6 cells"):
        engine.wings(s.cands, s.n, s.units, 7)


def _arguments(s: State) -> list[object]:
    return [s.cands, s.n, s.units, [houses_of(s, c) for c in range(len(s.cands))], 8.5]


def _first_state(puzzle: str, suffix: str) -> tuple[State, Step]:
    """The state of ``puzzle``'s walk before its first step whose name ends ``suffix``."""
    grid = parse(puzzle)
    s = State(grid, None)
    for step in steps(grid):
        if step.technique.endswith(suffix):
            return s, step
        s.apply(step.placements, step.eliminations)
    raise AssertionError(f"no {suffix} step")


@pytest.mark.parametrize(
    ("index", "technique", "search"),
    [
        ("131", "nishio forcing chain", 0),
        ("5", "cell forcing chains", 1),
        ("28", "region forcing chains", 1),
        ("1153", "dynamic contradiction forcing chain", 2),
    ],
)
def test_the_c_search_gives_the_python_hint_where_our_walks_take_forcing_chains(
    index: str, technique: str, search: int
) -> None:
    """The state before the first nishio, static and dynamic forcing chain of the repo's
    own generated puzzles' walks: each search finds in C what the readable one finds,
    and the rung's search finds the step the walk took."""
    s, step = _first_state(OURS[index], technique)
    found = [(forcing._in_c(s, *kind), forcing._Search(s, *kind).run()) for kind in SEARCHES]
    assert all(ours == reference for ours, reference in found)
    taken = found[search][0]
    assert taken is not None and (taken.technique, taken.rating) == (technique, step.difficulty)


@pytest.mark.untraced  # the readable search is 4x slower traced; test_se_top reaches its lines
def test_the_c_search_gives_the_python_hint_with_the_inner_rules() -> None:
    """Dynamic forcing chains (+): the first state of a walk where the inner rules are
    needed (the readable search takes seconds there)."""
    s, step = _first_state(PLUSSED, "(+)")
    found = forcing._in_c(s, *PLUS)
    assert found is not None and found == forcing._Search(s, *PLUS).run()
    assert found.technique == step.technique and found.rating == step.difficulty


@pytest.mark.slow  # some seven seconds of readable search; the C levels alone are below
def test_the_c_search_gives_the_python_hint_with_chains_nested() -> None:
    """Level 2 on the first state of a forum puzzle's walk that needs it (serate's ER
    10.3, serate_nested.txt); `make sanitize` leaves it out, for the C
    engine's nested levels alone below."""
    s, step = _first_state(read_lines("serate_nested.txt")[1].split()[0], "(+ forcing chains)")
    found = forcing._in_c(s, *NESTED)
    assert found is not None and found == forcing._Search(s, *NESTED).run()
    assert found.technique == step.technique and found.rating == step.difficulty == 10.3


def test_the_c_nested_levels_find_what_the_readable_search_found() -> None:
    """The C engine alone (as `make sanitize` runs it) at levels 2 and 3, on the stored
    states before the first step of a walk that needs each: the step the readable
    search finds there (the tests beside this one), r6c5<>4 at 10.3 and r2c9<>2 at 10.9."""
    region = "dynamic region forcing chains "
    expected = {
        1: (NESTED, "(+ forcing chains)", 10.3, (49, 4)),
        5: (NESTED_MULTIPLE, "(+ multiple forcing chains)", 10.9, (17, 2)),
    }
    for line in read_lines("nested_states.txt")[1:]:
        number, marks = line.split()
        level, suffix, rating, gone = expected[int(number)]
        marked = read(marks)
        assert isinstance(marked, MarkedGrid)
        found = forcing._in_c(State(marked.grid, marked.marks()), *level)
        assert found is not None and found.technique == region + suffix
        assert (found.rating, found.eliminations) == (rating, (gone,))


@pytest.mark.slow
def test_the_c_search_gives_the_python_hint_with_multiple_chains_nested() -> None:
    """Level 3 likewise (serate's ER 11.0): the readable search takes most of a minute."""
    s, step = _first_state(
        read_lines("serate_nested.txt")[5].split()[0], "(+ multiple forcing chains)"
    )
    found = forcing._in_c(s, *NESTED_MULTIPLE)
    assert found is not None and found == forcing._Search(s, *NESTED_MULTIPLE).run()
    assert found.technique == step.technique and found.rating == step.difficulty


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda a: a.__setitem__(1, 10), "takes 1 to 9 values"),
        (lambda a: a.__setitem__(0, [1024, *a[0][1:]]), "are not of 9 values"),
        (lambda a: a.__setitem__(3, a[3][:-1]), "one list of units a cell"),
        (lambda a: a.__setitem__(2, [(0, 81)]), "names a cell off the grid"),
        (lambda a: a.__setitem__(0, [0] * 82), "cands: more than 81"),
    ],
)
def test_the_c_search_refuses_what_it_cannot_read(change: object, message: str) -> None:
    arguments = _arguments(State(parse(MIDDLE), None))
    assert callable(change)
    change(arguments)
    with pytest.raises(ValueError, match=message):
        engine.search(*arguments, True, True, engine.CONTRADICTION)
    with pytest.raises(ValueError, match=message):
        engine.search(*arguments, True, True, engine.CONTRADICTION, [0] * 81)
    with pytest.raises(ValueError, match=message):
        engine.chains(*arguments[:4])
    if "list of units" not in message:
        with pytest.raises(ValueError, match=message):
            engine.wings(*arguments[:3], 4)


def test_the_inner_rules_refuse_a_grid_they_cannot_read() -> None:
    """(+) reads the classic rows, columns and boxes, and a placed value for each cell."""
    arguments = _arguments(State(parse(MIDDLE), None))
    for values, message in (([0] * 80, "one a cell"), ([10] * 81, "value 10 is not of 9")):
        with pytest.raises(ValueError, match=message):
            engine.search(*arguments, True, True, engine.CONTRADICTION, values)
    with pytest.raises(ValueError, match="a dynamic search"):
        engine.search(*arguments, False, True, engine.CELL, [0] * 81)
    levels: list[tuple[int, list[int] | None]] = [(0, [0] * 81), (4, [0] * 81), (2, None)]
    for level, values_given in levels:
        with pytest.raises(ValueError, match=f"level {level}: 1 \\(\\+\\), 2 .* with values"):
            engine.search(*arguments, True, True, engine.CONTRADICTION, values_given, level)
    arguments[2] = [*arguments[2][:5], arguments[2][5][:8], *arguments[2][6:]]  # type: ignore[index]
    with pytest.raises(ValueError, match="unit 5: \\(\\+\\) reads units of 9 cells"):
        engine.search(*arguments, True, True, engine.CONTRADICTION, [0] * 81)


def test_the_c_chains_refuse_a_candidate_with_more_links_than_they_hold() -> None:
    """A unit of all 81 cells gives each candidate 80 peers: more than a classic grid's."""
    s = State(parse(MIDDLE), None)
    units = [*s.units, tuple(range(81))]
    houses = [[*houses_of(s, c), len(s.units)] for c in range(81)]
    with pytest.raises(ValueError, match="more links than the engine holds"):
        engine.chains(s.cands, s.n, units, houses)
