"""The clause-learning search: the same solutions as the engine, and no stall at 25x25."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.sudoku import Grid, PuzzleError, count_solutions, is_solution, parse
from lazyfun.sudoku.solving import engine, learning
from tests.budget import cheap
from tests.datafiles import read_lines
from tests.sudoku.strategies import puzzles

if not learning.AVAILABLE:
    pytest.skip("the C learning engine is not built", allow_module_level=True)

from lazyfun.sudoku.board import geometry
from lazyfun.sudoku.solving._learning import Learner
from lazyfun.sudoku.solving.learning import learner as new_learner

pytestmark = pytest.mark.compiled  # run again from source by `make unit`

SET25 = list(
    zip(read_lines("sudoku25_set.txt"), read_lines("sudoku25_set.solutions.txt"), strict=True)
)


def _all(grid: Grid) -> set[Grid]:
    found = list(learning.solve(grid))
    assert len(found) == len(set(found)), "a solution came twice"
    return set(found)


def test_the_empty_4x4_has_288_solutions_all_distinct_and_valid() -> None:
    empty = parse("." * 16)
    found = _all(empty)
    assert len(found) == 288 == learning.count_solutions(empty)
    assert all(is_solution(empty, g) for g in found)


def test_solutions_stream_lazily_and_stop_at_the_limit() -> None:
    puzzle = parse("1.....1..1.....1")
    grids = learning.solve(puzzle)
    assert is_solution(puzzle, next(grids))
    assert sum(1 for _ in grids) == 17
    assert learning.count_solutions(parse("." * 81), limit=3) == 3


@settings(max_examples=60, deadline=None)
@given(puzzles(2, max_blanks=16))
def test_any_4x4_has_the_engines_solutions(puzzle: Grid) -> None:
    assert _all(puzzle) == set(engine.solve(puzzle))


@settings(max_examples=40, deadline=None)
@given(puzzles(3, max_blanks=60), st.integers(0, 2**32))
def test_any_9x9_with_few_solutions_has_the_engines_solutions_for_any_seed(
    puzzle: Grid, seed: int
) -> None:
    expected = set(itertools.islice(engine.solve(puzzle), 50))
    found = set(itertools.islice(learning.solve(puzzle, seed=seed), 50))
    assert all(is_solution(puzzle, g) for g in found)
    if len(expected) < 50:
        assert found == expected
    else:
        assert len(found) == 50


def test_counts_match_the_serg_benchmark() -> None:
    for puzzle, count in zip(
        read_lines("serg_first20.txt"), read_lines("serg_first20.counts.txt"), strict=True
    ):
        assert learning.count_solutions(parse(puzzle)) == int(count)


def test_counts_and_solutions_match_tdoku_test_puzzles() -> None:
    for line in read_lines("tdoku_test_puzzles_with_counts.txt"):
        puzzle, count, *solution = line.split(":")
        grid = parse(puzzle)
        assert learning.count_solutions(grid) == int(count)
        if solution:
            assert str(next(learning.solve(grid))) == solution[0]


def test_impossible_puzzles_yield_nothing() -> None:
    for puzzle in read_lines("royle17_plus_wrong_clue_first20.txt"):
        assert list(learning.solve(parse(puzzle))) == []


def test_sixteen_by_sixteen_puzzles_have_their_published_solution_alone() -> None:
    for puzzle, solution in zip(
        read_lines("hexadoku16_oliroshow.txt"),
        read_lines("hexadoku16_oliroshow.solutions.txt"),
        strict=True,
    ):
        assert [str(g) for g in learning.solve(parse(puzzle))] == [solution]


def test_conflicting_givens_fail_at_once() -> None:
    with pytest.raises(PuzzleError, match="r1c1 and r1c2 are both 1"):
        learning.solve(parse("11" + "." * 79)).__next__()


@pytest.mark.parametrize("k", cheap([2, 11], {11}))
def test_25x25_puzzles_of_the_set_reach_their_recorded_solution(k: int) -> None:
    """Two of the set's puzzles that depth-first search could not finish in 20 s."""
    puzzle_text, solution_text = SET25[k]
    first, stats = learning.stats_of(parse(puzzle_text))
    assert first == parse(solution_text)
    assert stats.conflicts > 0
    assert stats.decisions >= stats.conflicts
    assert stats.learnt_literals >= stats.conflicts


@pytest.mark.parametrize("k", cheap([2, 10], {10}))
def test_25x25_puzzles_of_the_set_are_proved_unique_as_cp_sat_proved_them(k: int) -> None:
    puzzle = parse(SET25[k][0])
    assert learning.count_solutions(puzzle, limit=2) == 1
    assert count_solutions(puzzle, limit=2) == 1


def test_the_engine_hands_25x25_to_the_learning_search() -> None:
    puzzle_text, solution_text = SET25[2]
    assert next(engine.solve(parse(puzzle_text))) == parse(solution_text)
    assert engine._learns(parse(puzzle_text))
    assert not engine._learns(parse("." * 256))


UNITS9 = [c for unit in geometry.units(3) for c in unit]
PEERS9 = [p for of in geometry.peers(3) for p in of]


def test_the_learner_refuses_what_it_cannot_search() -> None:
    with pytest.raises(ValueError, match=r"box must be 2\.\.5"):
        Learner(6, [0] * 1296, UNITS9, PEERS9)
    with pytest.raises(ValueError, match="expected 81 values, got 80"):
        Learner(3, [0] * 80, UNITS9, PEERS9)
    with pytest.raises(ValueError, match=r"item 4 is 10, outside 0\.\.9"):
        Learner(3, [0, 0, 0, 0, 10] + [0] * 76, UNITS9, PEERS9)
    with pytest.raises(ValueError, match="restart_base"):
        Learner(3, [0] * 81, UNITS9, PEERS9, restart_base=0)


def test_the_learner_takes_the_geometry_it_is_given_and_checks_it() -> None:
    with pytest.raises(ValueError, match="units: expected 243 values, got 242"):
        Learner(3, [0] * 81, UNITS9[:-1], PEERS9)
    with pytest.raises(ValueError, match="units: item 0 is 81"):
        Learner(3, [0] * 81, [81, *UNITS9[1:]], PEERS9)
    twice = [UNITS9[1], *UNITS9[1:]]  # cell 1 twice in row 1, cell 0 in no row
    with pytest.raises(ValueError, match="cell 1 is twice in the rows"):
        Learner(3, [0] * 81, twice, PEERS9)
    with pytest.raises(ValueError, match="peers: expected 1620 values"):
        Learner(3, [0] * 81, UNITS9, PEERS9[:-1])
    empty = Learner(3, [0] * 81, UNITS9, PEERS9)
    assert empty.run() == 1
    assert is_solution(parse("0" * 81), Grid(empty.solution(), 3))


def test_the_learner_answers_in_order_and_says_when_it_is_done() -> None:
    learner = new_learner(2, (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 0))
    with pytest.raises(RuntimeError, match="no solution"):
        learner.solution()
    assert learner.run() == 1
    assert learner.solution()[-1] == 1
    assert learner.run() == 0
    assert learner.run() == 0
    with pytest.raises(RuntimeError, match="no solution"):
        learner.solution()


def test_a_spent_budget_is_reported_and_the_search_goes_on() -> None:
    puzzle_text, solution_text = SET25[2]
    learner = new_learner(5, parse(puzzle_text).cells)
    assert learner.run(1) == -1
    assert learner.stats()["conflicts"] >= 1
    while (outcome := learner.run(500)) == -1:
        pass
    assert outcome == 1
    assert learner.solution() == parse(solution_text).cells


def test_without_the_extension_the_engine_stays_depth_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(learning, "AVAILABLE", False)
    with pytest.raises(RuntimeError, match="not built"):
        next(learning.solve(parse("." * 16)))
    assert not engine._learns(parse(SET25[2][0]))
    assert engine.count_solutions(parse("." * 16)) == 288


def test_a_value_ruled_out_from_the_start() -> None:
    cells = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 0)
    assert not learning.has_solution_ruling_out(cells, 2, 15, 1)
    assert learning.has_solution_ruling_out(cells, 2, 15, 3) is True
    assert learning.has_solution_ruling_out((0,) * 16, 2, 0, 1)
    assert learning.count_solutions(parse("." * 16)) == 288
    ruled = new_learner(2, (0,) * 16, ruled_out=[(0, 1), (0, 2), (0, 3)])
    assert ruled.run() == 1
    assert ruled.solution()[0] == 4
    with pytest.raises(ValueError, match=r"ruled_out \(16, 1\): cells are 0 to 15"):
        new_learner(2, (0,) * 16, ruled_out=[(16, 1)])
    with pytest.raises(ValueError, match="values 1 to 4"):
        new_learner(2, (0,) * 16, ruled_out=[(0, 5)])
    with pytest.raises(TypeError):
        new_learner(2, (0,) * 16, ruled_out=[(0,)])  # type: ignore[list-item]
