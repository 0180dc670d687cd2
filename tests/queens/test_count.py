"""count_queens: OEIS A000170 through the board's symmetries; agreement with the stream."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun import ilen
from lazyfun.queens import QueensError, count_queens, queens

A000170 = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200]


def test_square_counts_match_oeis_a000170_to_twelve() -> None:
    assert [count_queens(n) for n in range(13)] == A000170


@pytest.mark.slow
def test_square_counts_thirteen_and_fourteen() -> None:
    assert count_queens(13) == 73712
    assert count_queens(14) == 365596


@pytest.mark.parametrize(("rows", "cols", "count"), [(6, 4, 46), (8, 6, 550), (12, 11, 68264)])
def test_rectangular_counts_match_oeis_a269133(rows: int, cols: int, count: int) -> None:
    assert count_queens(rows, cols) == count


@settings(max_examples=60)
@given(st.integers(0, 9), st.integers(0, 9))
def test_the_count_is_the_length_of_the_stream(rows: int, cols: int) -> None:
    assert count_queens(rows, cols) == ilen(queens(rows, cols))


def test_bad_sizes_are_refused() -> None:
    with pytest.raises(QueensError):
        count_queens(-3)
