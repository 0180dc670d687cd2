"""The eager twins give the same answers as the lazy ones, and hold far more memory."""

from __future__ import annotations

from lazyfun.eager import expand_eager, solve_naive_eager
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
    with Probe(memory=True) as eager:
        solve_naive_eager(puzzle)
    with Probe(memory=True) as lazy:
        list(solve_naive(puzzle))
    assert eager.peak_bytes is not None and lazy.peak_bytes is not None
    assert eager.peak_bytes > 20 * lazy.peak_bytes
