"""The eager twins give the same answers as the lazy ones, and hold far more memory."""

from __future__ import annotations

import pytest

from lazyfun.eager import (
    Work,
    expand_eager,
    predicted_work,
    queens_comprehension,
    queens_flatmap,
    solve_naive_eager,
)
from lazyfun.queens import queens
from lazyfun.sudoku import Grid
from lazyfun.sudoku.bird import choices, expand, solve_naive
from lazyfun.trace import Probe
from tests.sudoku.strategies import solved_grid


def _puzzle(blanks: int) -> Grid:
    grid = solved_grid(3, list(range(1, 10)), 1)
    return Grid(grid.cells[: 81 - blanks] + (0,) * blanks, 3)


def test_eager_and_lazy_expand_agree() -> None:
    m = choices(_puzzle(3).rows)
    assert expand_eager(m) == list(expand(m))


def test_eager_and_lazy_specification_agree_on_tiny_inputs() -> None:
    for blanks in range(4):
        puzzle = _puzzle(blanks)
        assert solve_naive_eager(puzzle) == list(solve_naive(puzzle))


def test_eager_holds_every_candidate_where_lazy_holds_one() -> None:
    puzzle = _puzzle(4)
    # One untraced run first, so that first-call costs (imports, caches, a
    # coverage tracer's records) are not counted against either strategy.
    solve_naive_eager(puzzle)
    list(solve_naive(puzzle))
    with Probe(memory=True) as eager:
        solve_naive_eager(puzzle)
    with Probe(memory=True) as lazy:
        list(solve_naive(puzzle))
    assert eager.peak_bytes is not None and lazy.peak_bytes is not None
    assert eager.peak_bytes > 10 * lazy.peak_bytes


@pytest.mark.untraced
@pytest.mark.parametrize(("rows", "cols"), [(4, 4), (5, 5), (6, 6), (6, 4), (5, 3), (3, 4), (4, 0)])
def test_eager_queens_counters_match_their_predicted_work(rows: int, cols: int) -> None:
    comprehension, flatmap = Work(), Work()
    queens_comprehension(rows, cols, comprehension)
    queens_flatmap(rows, cols, flatmap)
    assert comprehension == predicted_work("comprehension", rows, cols)
    assert flatmap == predicted_work("flatmap", rows, cols)


@pytest.mark.untraced
@pytest.mark.parametrize(("rows", "cols"), [(4, 4), (6, 6), (7, 5), (5, 2)])
def test_eager_queens_find_the_lazy_placements(rows: int, cols: int) -> None:
    lazy = list(queens(rows, cols))
    # The article's lists put the newest column first; reading them as tuples
    # gives the lazy stream, because reversing the columns is a symmetry.
    assert [tuple(p) for p in queens_comprehension(rows, cols)] == lazy
    assert sorted(tuple(p) for p in queens_flatmap(rows, cols)) == lazy


def test_the_comprehension_blows_up_where_flatmap_does_not() -> None:
    comprehension = [predicted_work("comprehension", n).calls for n in range(4, 9)]
    flatmap = [predicted_work("flatmap", n).candidates for n in range(4, 9)]
    assert comprehension == [341, 3906, 55987, 960800, 19173961]
    assert flatmap == [60, 220, 894, 3584, 15720]
