"""SICP 2.42 as lazy streams: the book's answers, 1-based and newest first."""

from __future__ import annotations

import pytest

from lazyfun import ilen
from lazyfun.queens import queens as lex_queens
from lazyfun.queens.sicp import (
    adjoin_position,
    empty_board,
    enumerate_interval,
    queen_cols,
    queens,
    safe,
)


def test_queens_4_is_the_books_answer() -> None:
    assert list(queens(4)) == [
        [(3, 4), (1, 3), (4, 2), (2, 1)],
        [(2, 4), (4, 3), (1, 2), (3, 1)],
    ]


@pytest.mark.parametrize(("n", "count"), [(1, 1), (2, 0), (3, 0), (6, 4), (8, 92)])
def test_counts(n: int, count: int) -> None:
    assert ilen(queens(n)) == count


@pytest.mark.slow
def test_queens_11_has_2680_solutions() -> None:
    assert ilen(queens(11)) == 2680


@pytest.mark.parametrize("n", range(1, 8))
def test_the_book_order_is_the_lexicographic_order_of_the_columns(n: int) -> None:
    as_tuples = [tuple(row - 1 for row, _ in reversed(p)) for p in queens(n)]
    assert as_tuples == list(lex_queens(n))


def test_the_pieces() -> None:
    assert list(enumerate_interval(1, 3)) == [1, 2, 3]
    assert list(enumerate_interval(2, 1)) == []
    assert adjoin_position(2, 1, empty_board) == [(2, 1)]
    assert empty_board == []
    assert safe(3, [(1, 3), (3, 2), (2, 1)]) is True
    assert safe(3, [(2, 3), (3, 2), (1, 1)]) is False  # diagonal neighbour
    assert safe(3, [(1, 3), (4, 2), (1, 1)]) is False  # same row, two columns back


def test_each_placement_is_a_fresh_list() -> None:
    stream = queens(6)
    head = next(stream)
    head.clear()
    assert head == []
    assert next(stream) == [(4, 6), (1, 5), (5, 4), (2, 3), (6, 2), (3, 1)]


def test_the_stream_is_lazy_one_generator_per_column() -> None:
    first_of_14 = next(queens(14))
    assert [row - 1 for row, _ in reversed(first_of_14)] == list(next(lex_queens(14)))
    assert next(queen_cols(3, 20)) == [(5, 3), (3, 2), (1, 1)]
