"""The laws of Bird's chapter 5, as properties; and the three solvers agree."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable
from math import prod

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun import cp, many
from lazyfun.sudoku import Grid, bird
from lazyfun.sudoku.bird import (
    boxs,
    choices,
    cols,
    expand,
    group,
    nodups,
    prune,
    prune_row,
    rows,
    solve_naive,
    solve_pruned,
    solve_search,
    ungroup,
    valid,
)
from lazyfun.trace import Probe
from tests.sudoku.strategies import Matrix, full_grids, matrices, puzzles

pytestmark = pytest.mark.compiled  # run again from source by `make unit`

boxes = st.sampled_from([2, 3, 4])
involutions = st.sampled_from([rows, cols, boxs])


@pytest.mark.long_from_source  # from source it reaches no line the pure pass's other tests miss
@given(boxes.flatmap(matrices), involutions)
def test_rows_cols_and_boxs_are_involutions(m: Matrix, f: Callable[[Matrix], Matrix]) -> None:
    assert f(f(m)) == m


@given(st.lists(matrices(2), max_size=8), involutions)
def test_filter_through_a_grid_view(ms: list[Matrix], f: Callable[[Matrix], Matrix]) -> None:
    """``filter (p . f) = map f . filter p . map f`` for the involutions ``rows``, ``cols``,
    ``boxs``: the step that moves ``filter (all nodups . f)`` through a view of the grid."""

    def p(m: Matrix) -> bool:
        return nodups(m[0])

    assert [m for m in ms if p(f(m))] == list(map(f, filter(p, map(f, ms))))


@given(
    st.integers(1, 5).flatmap(
        lambda b: st.tuples(
            st.just(b),
            st.lists(st.lists(st.integers(), min_size=b, max_size=b).map(tuple), max_size=6),
        )
    )
)
def test_group_after_ungroup_is_id_on_grouped_input(
    case: tuple[int, list[tuple[int, ...]]],
) -> None:
    b, xss = case
    assert group(b, ungroup(xss)) == tuple(xss)


Choices = bird.Matrix[bird.Choices]


def _choice_matrices(box: int, max_blanks: int) -> st.SearchStrategy[Choices]:
    return puzzles(box, max_blanks).map(lambda g: choices(g.rows))


@settings(max_examples=40)
@given(_choice_matrices(2, 4), st.sampled_from(["rows", "cols", "boxs"]))
def test_expand_commutes_with_the_grid_views(m: Choices, view: str) -> None:
    """``map rows . expand = expand . rows`` (and cols, boxs), as bags of grids."""
    f = getattr(bird, view)
    assert sorted(map(f, expand(m))) == sorted(expand(f(m)))


@settings(max_examples=40)
@given(_choice_matrices(2, 5))
def test_expand_by_need_is_expand(m: Choices) -> None:
    """Call-by-need and call-by-name give the same stream, in the same order."""
    assert list(bird.expand_by_need(m)) == list(expand(m))


rows_of_choices = st.lists(
    st.lists(st.integers(1, 5), min_size=1, max_size=3, unique=True).map(tuple), max_size=5
).map(tuple)


@given(rows_of_choices)
def test_prune_row_keeps_every_row_without_duplicates(row: tuple[tuple[int, ...], ...]) -> None:
    """``filter nodups . cp = filter nodups . cp . pruneRow``."""
    assert [r for r in cp(row) if nodups(r)] == [r for r in cp(prune_row(row)) if nodups(r)]


@pytest.mark.long_from_source  # from source it reaches no line the pure pass's other tests miss
@settings(max_examples=60)
@given(_choice_matrices(2, 7))
def test_prune_keeps_every_valid_grid(m: Choices) -> None:
    """``filter valid . expand = filter valid . expand . prune``."""
    assert [g for g in expand(m) if valid(g)] == [g for g in expand(prune(m)) if valid(g)]


def _candidates(m: Choices) -> int:
    """How many grids ``expand m`` would stream."""
    return prod([len(cs) for row in m for cs in row])


@settings(max_examples=60, deadline=None)
@given(puzzles(2, 16))
def test_three_solvers_agree_on_4x4(puzzle: Grid) -> None:
    searched = set(solve_search(puzzle))
    assert all(g.is_complete() and valid(g.rows) for g in searched)
    if _candidates(many(prune, choices(puzzle.rows))) <= 5_000:
        assert set(solve_pruned(puzzle)) == searched
    if 16 - puzzle.givens <= 5:
        assert set(solve_naive(puzzle)) == searched


@settings(max_examples=10, deadline=None)
@given(puzzles(3, 4))
def test_three_solvers_agree_on_9x9_with_few_blanks(puzzle: Grid) -> None:
    assert set(solve_naive(puzzle)) == set(solve_pruned(puzzle)) == set(solve_search(puzzle))


@pytest.mark.slow
@settings(max_examples=3, deadline=None)
@given(full_grids(3), st.integers(5, 6))
def test_solve_naive_on_9x9_with_six_blanks(grid: Grid, blanks: int) -> None:
    puzzle = Grid(grid.cells[: 81 - blanks] + (0,) * blanks, 3)
    assert list(solve_naive(puzzle)) == list(solve_search(puzzle))


@pytest.mark.long_from_source  # from source it reaches no line the pure pass's other tests miss
def test_solve_naive_streams_candidates_in_constant_memory() -> None:
    """Five blanks: 9^5 = 59,049 candidate grids, streamed, never stored."""
    solution = bird.extract(tuple(tuple((v,) for v in row) for row in _msf_solution().rows))
    puzzle = Grid(tuple(v for row in solution for v in row)[:76] + (0,) * 5, 3)
    probe = Probe(memory=True)
    with probe:
        candidates = probe.stage("candidates", expand(choices(puzzle.rows)))
        found = list(probe.stage("solutions", filter(valid, candidates)))
    assert probe.counts == {"candidates": 9**5, "solutions": 1}
    assert found == [solution]
    assert probe.peak_bytes is not None and probe.peak_bytes < 300_000
    assert not tracemalloc.is_tracing()


def _msf_solution() -> Grid:
    return Grid.from_rows(
        [
            [int(ch) for ch in row]
            for row in (
                "716235984",
                "528974316",
                "394816527",
                "845163792",
                "271489635",
                "639752841",
                "982647153",
                "163528479",
                "457391268",
            )
        ]
    )
