"""The most-constrained strategy: the same placements, each once; a first one fast on big boards."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun import first, ilen
from lazyfun.queens import is_placement, queens
from lazyfun.queens.constrained import (
    Board,
    blocked,
    expand1,
    forced,
    most_constrained,
    place,
    prune,
    start,
)


@settings(max_examples=40)
@given(st.integers(0, 8), st.integers(0, 8))
def test_it_yields_exactly_the_lexicographic_placements(rows: int, cols: int) -> None:
    found = list(most_constrained(rows, cols))
    assert len(found) == len(set(found))
    assert sorted(found) == list(queens(rows, cols))


@pytest.mark.untraced
@pytest.mark.parametrize("n", [20, 50, 100, 119, 200])
def test_a_first_placement_of_a_large_board(n: int) -> None:
    p = first(queens(n, strategy="most-constrained"))
    assert is_placement(p, n)
    assert len(p) == n


@pytest.mark.slow
def test_a_first_placement_of_a_thousand_queens() -> None:
    assert is_placement(first(most_constrained(1000)), 1000)


def test_placing_a_queen_strikes_its_row_and_diagonals_from_the_empty_columns() -> None:
    board = place(start(5, 5), 2, 2)
    assert board.rows == (-1, -1, 2, -1, -1)
    assert [bin(rows) for rows in board.safe] == ["0b1010", "0b10001", "0b0", "0b10001", "0b1010"]
    assert board.free == 0b11011
    assert not board.dead


def test_a_column_left_with_no_row_makes_the_board_blocked() -> None:
    board = place(place(start(3, 3), 0, 0), 1, 2)
    assert board.dead and blocked(board)


def test_a_free_row_no_column_can_take_makes_a_tight_board_blocked() -> None:
    board = Board(height=2, rows=(-1, -1), safe=(0b01, 0b01), free=0b11, empty=2)
    assert blocked(board)


def test_forced_fills_a_row_that_only_one_column_can_take() -> None:
    board = Board(height=2, rows=(-1, -1), safe=(0b11, 0b01), free=0b11, empty=2)
    assert forced(board).rows == (1, -1)
    assert prune(board).dead


def test_expand1_branches_on_the_column_with_fewest_rows_middle_rows_first() -> None:
    board = Board(
        height=5, rows=(-1, -1, -1), safe=(0b11111, 0b10101, 0b11111), free=0b11111, empty=3
    )
    assert [child.rows for child in expand1(board)] == [(-1, 2, -1), (-1, 0, -1), (-1, 4, -1)]


def test_the_whole_stream_of_eight_queens() -> None:
    assert ilen(most_constrained(8)) == 92
