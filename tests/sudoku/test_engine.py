"""The engine agrees with Bird's stages and with the public data sets' answers."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings

from lazyfun.sudoku import (
    Grid,
    PuzzleError,
    count_solutions,
    is_solution,
    is_unique,
    parse,
    solve,
)
from lazyfun.sudoku.bird import solve_search
from lazyfun.sudoku.solving.engine import _branching_cell, _propagate
from lazyfun.sudoku.solving.tables import tables_of
from tests.budget import examples, sample
from tests.datafiles import read_lines
from tests.sudoku.strategies import random_4x4, solved_grid

pytestmark = pytest.mark.compiled  # run again from source by `make unit`

MSF = "006200080008970000004810500000060002070000030600050000002047100003028400050001200"


@settings(max_examples=examples(200), deadline=None)
@given(random_4x4())
def test_engine_agrees_with_bird_on_any_4x4(puzzle: Grid) -> None:
    assert set(solve(puzzle)) == set(solve_search(puzzle))


@pytest.mark.long_from_source
def test_engine_agrees_with_bird_on_every_four_given_4x4_puzzle_of_a_grid() -> None:
    """Bird's search gives the 288 full grids once; a puzzle's solutions are those of them
    that keep its givens (brute force), and the engine must find exactly those."""
    full = set(solve_search(parse("." * 16)))
    assert len(full) == 288
    grid = solved_grid(2, [1, 2, 3, 4], 0)
    for cells in sample(list(itertools.combinations(range(16), 4))):
        puzzle = Grid(tuple(v if i in cells else 0 for i, v in enumerate(grid.cells)), 2)
        kept = {g for g in full if all(g.cells[i] == grid.cells[i] for i in cells)}
        assert set(solve(puzzle)) == kept


def test_the_empty_4x4_has_288_solutions_all_distinct_and_valid() -> None:
    empty = parse("." * 16)
    solutions = list(solve(empty))
    assert len(solutions) == 288 == len(set(solutions))
    assert all(is_solution(empty, s) for s in solutions)


def test_the_solver_foundation_puzzle() -> None:
    (only,) = solve(parse(MSF))
    assert str(only) == (
        "716235984528974316394816527845163792271489635639752841982647153163528479457391268"
    )


@pytest.mark.parametrize("name", ["top95_first20", "forum_hardest_first20"])
def test_solutions_match_the_published_ones(name: str) -> None:
    puzzles = read_lines(f"{name}.txt")
    expected = read_lines(f"{name}.solutions.txt")
    for puzzle, solution in zip(puzzles, expected, strict=True):
        (found,) = solve(parse(puzzle))
        assert str(found) == solution


@pytest.mark.long_from_source  # from source it reaches no line the pure pass's other tests miss
def test_counts_match_tdoku_test_puzzles() -> None:
    for line in sample(read_lines("tdoku_test_puzzles_with_counts.txt")):
        puzzle, count, *solution = line.split(":")
        grid = parse(puzzle)
        assert count_solutions(grid) == int(count)
        if solution:
            assert str(next(solve(grid))) == solution[0]


def test_counts_match_the_serg_benchmark() -> None:
    puzzles = read_lines("serg_first20.txt")
    counts = read_lines("serg_first20.counts.txt")
    for puzzle, count in sample(list(zip(puzzles, counts, strict=True))):
        assert count_solutions(parse(puzzle)) == int(count)
        assert count_solutions(parse(puzzle), limit=5) == min(5, int(count))


def test_impossible_puzzles_yield_nothing() -> None:
    for puzzle in read_lines("royle17_plus_wrong_clue_first20.txt"):
        assert list(solve(parse(puzzle))) == []
        assert not is_unique(parse(puzzle))


def test_sixteen_by_sixteen_in_the_hex_alphabet() -> None:
    for puzzle, solution in zip(
        read_lines("hexadoku16_oliroshow.txt"),
        read_lines("hexadoku16_oliroshow.solutions.txt"),
        strict=True,
    ):
        (found,) = itertools.islice(solve(parse(puzzle)), 2)
        assert str(found) == solution


def test_twenty_five_by_twenty_five_top_half() -> None:
    """The unique 25x25 puzzle with the blanks of its lower rows filled in: still unique."""
    (puzzle_text,) = read_lines("sudoku25_unique.txt")
    (solution_text,) = read_lines("sudoku25_unique.solution.txt")
    puzzle, solution = parse(puzzle_text), parse(solution_text)
    easier = Grid(
        tuple(
            s if p or i >= 8 * 25 else 0
            for i, (p, s) in enumerate(zip(puzzle.cells, solution.cells, strict=True))
        ),
        5,
    )
    (found,) = solve(easier)
    assert found == solution


SET25 = list(
    zip(read_lines("sudoku25_set.txt"), read_lines("sudoku25_set.solutions.txt"), strict=True)
)


def test_the_25x25_set_is_what_its_provenance_says() -> None:
    """At least ten puzzles of about 270 givens, each kept by its recorded solution."""
    assert len(SET25) >= 10
    assert len({puzzle for puzzle, _ in SET25}) == len(SET25)
    for puzzle_text, solution_text in SET25:
        puzzle, solution = parse(puzzle_text), parse(solution_text)
        assert puzzle.size == 25
        assert 265 <= puzzle.givens <= 285
        assert is_solution(puzzle, solution)


@pytest.mark.parametrize("k", range(len(SET25)))
def test_the_25x25_set_with_its_lower_rows_filled_has_the_recorded_solution_alone(k: int) -> None:
    """Filling the blanks of rows 13-25 from the solution keeps a unique puzzle
    (CP-SAT proved the whole one unique); the engine finds that solution and no other."""
    puzzle_text, solution_text = SET25[k]
    puzzle, solution = parse(puzzle_text), parse(solution_text)
    easier = Grid(
        tuple(
            s if p or i >= 12 * 25 else 0
            for i, (p, s) in enumerate(zip(puzzle.cells, solution.cells, strict=True))
        ),
        5,
    )
    assert list(itertools.islice(solve(easier), 2)) == [solution]


def test_twenty_five_by_twenty_five_unique() -> None:
    """Slow for depth-first search; the engine hands 25x25 to its learning search."""
    (puzzle_text,) = read_lines("sudoku25_unique.txt")
    (solution_text,) = read_lines("sudoku25_unique.solution.txt")
    puzzle = parse(puzzle_text)
    assert puzzle.size == 25
    solutions = list(itertools.islice(solve(puzzle), 2))
    assert [str(s) for s in solutions] == [solution_text]


def test_first_solution_comes_before_the_rest_are_searched() -> None:
    solutions = solve(parse("." * 81))
    first = next(solutions)
    assert is_solution(parse("." * 81), first)
    assert next(solutions) != first


def test_conflicting_givens_fail_before_searching() -> None:
    bad = "11" + "." * 79
    with pytest.raises(PuzzleError, match="givens conflict: r1c1 and r1c2 are both 1"):
        next(solve(parse(bad)))
    with pytest.raises(PuzzleError):
        count_solutions(parse(bad))


def test_is_solution_rejects_wrong_grids() -> None:
    puzzle = parse(MSF)
    (good,) = solve(puzzle)
    assert is_solution(puzzle, good)
    assert not is_solution(puzzle, puzzle)
    swapped = parse(str(good)[1] + str(good)[0] + str(good)[2:])
    assert not is_solution(puzzle, swapped)
    assert not is_solution(parse("." * 16), good)
    assert is_unique(puzzle)


def test_branching_ties_go_to_the_cell_with_most_conflicts() -> None:
    cands = (0b1, 0b110, 0b1110, 0b011, 0b1)
    assert _branching_cell(cands, [0, 0, 0, 0, 0]) == 1  # fewest choices, first of the ties
    assert _branching_cell(cands, [0, 2, 9, 3, 0]) == 3  # the tie with more conflicts
    assert _branching_cell((0b1, 0b10), [5, 5]) == -1  # nothing left to choose


def test_a_cell_left_without_a_choice_is_counted_against_its_peers() -> None:
    t = tables_of(2)
    cands = [t.full] * 16
    cands[0], cands[1] = 0b1, 0b1  # r1c1 and r1c2 both 1: r1c2 loses its only choice
    conflicts = [0] * 16
    assert _propagate(cands, [0], t, conflicts, locked=False) == -1
    assert [c for c in range(16) if conflicts[c]] == sorted(t.peers[1])
