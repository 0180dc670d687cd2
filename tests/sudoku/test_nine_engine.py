"""The 9x9 engine in C agrees with the depth-first engine and with Bird's stages: the
same solutions and counts on random, marked and transformed puzzles, and the public
data sets' answers."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.sudoku import (
    Grid,
    MarkedGrid,
    PuzzleError,
    count_solutions,
    is_solution,
    is_unique,
    parse,
    solve,
)
from lazyfun.sudoku.bird import solve_search
from lazyfun.sudoku.board import formats
from lazyfun.sudoku.solving import engine, nine
from tests.budget import examples, sample
from tests.datafiles import read_lines
from tests.puzzles import HARD, NO_SOLUTION, NORVIG_GRID2, NORVIG_GRID2_SOLUTION, PUZZLES, SOLUTIONS
from tests.sudoku.strategies import marked_grids, puzzles

pytestmark = [
    pytest.mark.compiled,  # run again from source by `make unit`: the fallback answers
    pytest.mark.skipif(not nine.AVAILABLE, reason="the 9x9 C engine was not built"),
]

LIMIT = 60  # solutions compared per puzzle: a puzzle with few givens has millions


def depth_first(puzzle: Grid | MarkedGrid, limit: int = LIMIT) -> set[Grid]:
    """The depth-first engine's solutions (up to ``limit``), whatever the wiring."""
    grid = puzzle.grid if isinstance(puzzle, MarkedGrid) else puzzle
    nodes = itertools.islice(engine.solutions(engine.start(puzzle)), limit)
    return {engine._grid(node, grid) for node in nodes}


def in_c(puzzle: Grid | MarkedGrid, limit: int = LIMIT) -> set[Grid]:
    """The C engine's solutions (up to ``limit``)."""
    if isinstance(puzzle, MarkedGrid):
        return set(itertools.islice(nine.solve(puzzle.grid, puzzle.ruled_out()), limit))
    return set(itertools.islice(nine.solve(puzzle), limit))


def assert_agree(puzzle: Grid) -> None:
    """Both engines give the same solutions, when there are fewer than ``LIMIT``; else
    both count to ``LIMIT``, and C's are solutions (each engine has its own order)."""
    expected = depth_first(puzzle)
    if len(expected) < LIMIT:
        assert in_c(puzzle) == expected
        assert nine.count_solutions(puzzle) == len(expected)
    else:
        assert nine.count_solutions(puzzle, limit=LIMIT) == LIMIT
        assert all(is_solution(puzzle, g) for g in in_c(puzzle))


@settings(max_examples=examples(150), deadline=None)
@given(puzzles(3, max_blanks=60))
def test_the_c_engine_finds_the_depth_first_engines_solutions(puzzle: Grid) -> None:
    assert_agree(puzzle)


@settings(max_examples=examples(40), deadline=None)
@given(puzzles(3, max_blanks=45))
def test_the_c_engine_finds_birds_solutions(puzzle: Grid) -> None:
    assert in_c(puzzle, 10**6) == set(solve_search(puzzle))


@settings(max_examples=examples(100), deadline=None)
@given(marked_grids(3, max_blanks=60))
def test_pencil_marks_narrow_the_c_engine_as_the_depth_first_one(marked: MarkedGrid) -> None:
    expected = depth_first(marked)
    if len(expected) < LIMIT:
        assert in_c(marked) == expected
    limited = nine.count_solutions(marked.grid, LIMIT, marked.ruled_out())
    assert limited == min(LIMIT, engine.count_below(engine.start(marked), LIMIT))


def transformed(grid: Grid, rng: random.Random) -> Grid:
    """``grid`` under a random symmetry of Sudoku: values relabelled, bands and stacks
    and the rows and columns inside them permuted, maybe transposed."""
    relabel = [0, *rng.sample(range(1, 10), 9)]

    def lines() -> list[int]:
        bands = rng.sample(range(3), 3)
        return [3 * b + r for b in bands for r in rng.sample(range(3), 3)]

    rows, cols, flip = lines(), lines(), rng.random() < 0.5
    cells = [
        grid.cells[(9 * cols[r] + rows[c]) if flip else (9 * rows[r] + cols[c])]
        for r in range(9)
        for c in range(9)
    ]
    return Grid(tuple(relabel[v] for v in cells), 3)


@settings(max_examples=examples(40), deadline=None)
@given(st.sampled_from(HARD), st.randoms(), st.integers(0, 6))
def test_a_transformed_hard_puzzle_less_some_givens_counts_the_same_in_both(
    line: str, rng: random.Random, dropped: int
) -> None:
    puzzle = parse(line)
    cells = list(puzzle.cells)
    for cell in rng.sample([c for c, v in enumerate(cells) if v], dropped):
        cells[cell] = 0
    assert_agree(transformed(Grid(tuple(cells), 3), rng))


def test_the_c_solutions_of_famous_puzzles_are_theirs() -> None:
    for puzzle, solution in zip(PUZZLES, SOLUTIONS, strict=True):
        assert [str(g) for g in nine.solve(parse(puzzle))] == [solution]


@pytest.mark.parametrize("name", ["top95_first20", "forum_hardest_first20"])
def test_the_c_solutions_match_the_published_ones(name: str) -> None:
    published = read_lines(f"{name}.solutions.txt")
    for puzzle, solution in zip(read_lines(f"{name}.txt"), published, strict=True):
        assert [str(g) for g in nine.solve(parse(puzzle))] == [solution]


def test_the_c_counts_match_tdokus_test_puzzles_and_the_serg_benchmark() -> None:
    for line in sample(read_lines("tdoku_test_puzzles_with_counts.txt")):
        puzzle, count, *_ = line.split(":")
        assert nine.count_solutions(parse(puzzle)) == int(count)
    for puzzle, count in zip(
        read_lines("serg_first20.txt"), read_lines("serg_first20.counts.txt"), strict=True
    ):
        assert nine.count_solutions(parse(puzzle), limit=5) == min(5, int(count))


def test_impossible_puzzles_have_no_c_solution() -> None:
    assert list(nine.solve(parse(NO_SOLUTION))) == []
    assert nine.solve_lines([NO_SOLUTION], limit=2) == [(0, None)]
    lines = read_lines("royle17_plus_wrong_clue_first20.txt")
    assert [list(nine.solve(parse(line))) for line in lines] == [[]] * len(lines)
    assert [count for count, _ in nine.solve_lines(lines, limit=2)] == [0] * len(lines)


def test_the_c_search_waits_between_solutions() -> None:
    """The empty grid has 6.67e21 solutions: a search that did not wait would never give one."""
    found = nine.solve(parse("." * 81))
    first, second = next(found), next(found)
    assert first != second and is_solution(parse("." * 81), first)
    assert nine.count_solutions(parse("." * 81), limit=2000) == 2000


@pytest.mark.parametrize("fast", [True, False])
def test_the_engines_public_functions_hand_9x9_to_c_when_fast(
    monkeypatch: pytest.MonkeyPatch, fast: bool
) -> None:
    """9x9 grids and marked grids go to C when it is built and not turned off; 4x4 never."""
    asked: list[Grid] = []
    real_solve, real_count = nine.solve, nine.count_solutions

    def spy_solve(grid: Grid, ruled_out: nine.RuledOut = ()) -> Iterator[Grid]:
        asked.append(grid)
        return real_solve(grid, ruled_out)

    def spy_count(grid: Grid, limit: int | None = None, ruled_out: nine.RuledOut = ()) -> int:
        asked.append(grid)
        return real_count(grid, limit, ruled_out)

    monkeypatch.setattr(nine, "FAST", fast)
    for name in ("solve", "solutions"):  # a marked grid's call, a plain grid's
        monkeypatch.setattr(nine, name, spy_solve)
    for name in ("count_solutions", "count_grid"):
        monkeypatch.setattr(nine, name, spy_count)
    top = parse(NORVIG_GRID2)
    assert [str(g) for g in engine.solve(top)] == [NORVIG_GRID2_SOLUTION]
    assert engine.is_unique(MarkedGrid.of(top))
    assert engine.count_solutions(parse("." * 16)) == 288
    assert asked == ([top, top] if fast else [])


def test_parse_hands_a_plain_line_to_the_c_reader_when_fast() -> None:
    from lazyfun.sudoku.solving import _nine  # built: the mark skips this file otherwise

    assert formats._parse_line is (_nine.parse_line if nine.FAST else None)


def test_the_readers_agree_on_the_samples() -> None:
    """The C reader's grid of each sample line is the Python reader's."""
    from lazyfun.sudoku.solving import _nine

    names = ["top95_first20", "forum_hardest_first20", "serg_first20"]
    lines = [*PUZZLES, NO_SOLUTION, *(line for name in names for line in read_lines(f"{name}.txt"))]
    lines += [line.split(":")[0] for line in read_lines("tdoku_test_puzzles_with_counts.txt")]
    for line in lines:
        expected = formats._read_text(line)
        for grid in (_nine.parse_line(line, formats._NINE), parse(line)):
            assert grid is not None
            assert (type(grid), grid, grid.symbols) == (Grid, expected, expected.symbols)


def first_solutions(found: Iterator[Grid], k: int = 5) -> list[str]:
    return [str(grid) for grid in itertools.islice(found, k)]


def assert_text_as_grid(line: str) -> None:
    """solve, count_solutions and is_unique answer a line as they answer its grid."""
    grid = parse(line)
    assert first_solutions(solve(line)) == first_solutions(solve(grid))
    assert count_solutions(line, limit=5) == count_solutions(grid, limit=5)
    assert is_unique(line) == is_unique(grid)


@settings(max_examples=examples(60), deadline=None)
@given(puzzles(3, max_blanks=60))
def test_solve_count_and_is_unique_answer_a_line_as_its_grid(puzzle: Grid) -> None:
    assert_text_as_grid(str(puzzle))
    assert_text_as_grid(str(puzzle).replace("0", "."))


def test_the_text_forms_answer_famous_impossible_and_other_sizes_as_their_grids() -> None:
    pretty = parse(PUZZLES[0]).pretty()
    for line in [*PUZZLES, NO_SOLUTION, "." * 81, "1" + "." * 80, "." * 16, pretty]:
        assert_text_as_grid(line)
    assert first_solutions(solve(PUZZLES[0])) == [SOLUTIONS[0]]


def test_the_text_forms_raise_what_parse_raises_and_name_clashing_givens() -> None:
    clash = "1" + "." * 8 + "1" + "." * 71
    found = solve(clash)  # clashing givens: raised when the first solution is asked for
    with pytest.raises(PuzzleError, match="r1c1 and r2c1 are both 1"):
        next(found)
    for count in (count_solutions, is_unique):
        with pytest.raises(PuzzleError, match="r1c1 and r2c1 are both 1"):
            count(clash)
    for ask in (solve, count_solutions, is_unique):
        with pytest.raises(PuzzleError, match="unexpected character 'x'") as bad:
            ask("." * 11 + "x" + "." * 69)
        assert bad.value.column == 12


def test_clashing_givens_are_a_puzzle_error_naming_them() -> None:
    clash = parse("1" + "." * 8 + "1" + "." * 71)
    with pytest.raises(PuzzleError, match="r1c1 and r2c1 are both 1"):
        next(nine.solve(clash))
    with pytest.raises(PuzzleError, match="r1c1 and r2c1 are both 1"):
        nine.count_solutions(clash)
    assert nine.solve_lines(["11" + "." * 79]) == [(-1, None)]


def test_a_batch_answers_lines_and_pencil_marks_as_the_engine_does() -> None:
    lines = PUZZLES[:5]
    marked = MarkedGrid.of(parse(lines[0]))
    answers = nine.solve_lines([*lines, str(marked), "." * 81], limit=2)
    expected = [(1, line) for line in SOLUTIONS[:5]]
    assert answers[:5] == expected
    assert answers[5] == expected[0]
    assert answers[6][0] == 2


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (["1" * 80], "line 1: expected 81 or 729 characters, got 80"),
        (["." * 81, "." * 40 + "x" + "." * 40], "line 2, column 41: unexpected x"),
        (["2" + "." * 728], "line 1, column 1: unexpected 2"),
        (["." * 40 + "\x00" + "." * 40], "line 1, column 41: unexpected"),
    ],
)
def test_a_batch_line_of_another_shape_is_refused_where_it_goes_wrong(
    lines: list[str], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        nine.solve_lines(lines)


def test_the_c_engine_takes_only_9x9_and_checks_what_it_is_given() -> None:
    from lazyfun.sudoku.solving import _nine  # built: the mark skips this file otherwise

    with pytest.raises(ValueError, match="9x9 grids, not 4x4"):
        nine.count_solutions(parse("." * 16))
    with pytest.raises(ValueError, match="limit must be None or 0 and up"):
        nine.count_solutions(parse("." * 81), limit=-1)
    with pytest.raises(ValueError, match="expected 81 values, got 3"):
        _nine.count([0, 0, 0])
    with pytest.raises(ValueError, match="item 2 is 10"):
        _nine.count([0, 0, 10] + [0] * 78)
    with pytest.raises(ValueError, match=r"\(81, 1\) is no cell"):
        _nine.count([0] * 81, 1, [(81, 1)])
    with pytest.raises(ValueError, match="limit must be None or 0 and up"):
        nine.count_grid(parse("." * 81), -1)
    with pytest.raises(TypeError):
        _nine.count_grid(parse("." * 81))  # type: ignore[call-arg]


@settings(max_examples=examples(25), deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.booleans()), min_size=1, max_size=40))
def test_searches_waiting_side_by_side_each_keep_their_own_memory(
    moves: list[tuple[int, bool]],
) -> None:
    """Searches started, read a solution at a time, counted and closed in any order (each
    takes back a search's memory another gave up) find what each finds alone."""
    grids = [parse(line) for line in (*PUZZLES[:3], "." * 81, "1" + "." * 80, NO_SOLUTION)]
    alone = [list(itertools.islice(nine.solve(grid), 3)) for grid in grids]
    open_ = [nine.solutions(grid) for grid in grids]
    got: list[list[Grid]] = [[] for _ in grids]
    for at, close in moves:
        if close:
            open_[at].close()  # type: ignore[attr-defined]
            open_[at] = nine.solutions(grids[at])
            got[at] = []
        elif len(got[at]) < 3:
            got[at].extend(itertools.islice(open_[at], 1))
        assert nine.count_grid(grids[at], 3) == len(alone[at])
        assert got[at] == alone[at][: len(got[at])]


def test_a_solution_is_a_grid_of_the_puzzles_type_and_symbols() -> None:
    """The engine makes each solution in the puzzle's own class, with its symbols, and
    reads its cells there: a Grid, a subclass of it, and a class changed on the way."""

    class Lettered(Grid):
        pass

    puzzle = parse(PUZZLES[0])
    for grid in (puzzle, Lettered(puzzle.cells, 3, "ABCDEFGHI"), puzzle):
        found = next(nine.solutions(grid))
        assert (type(found), found.box, found.symbols) == (type(grid), 3, grid.symbols)
        assert found.cells == parse(SOLUTIONS[0]).cells
        assert nine.count_grid(grid, None) == 1
        Lettered.changed = True  # type: ignore[attr-defined]  # its slots are noted again
