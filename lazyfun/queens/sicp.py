"""SICP exercise 2.42, name for name, as lazy streams.

The book's procedure, with Scheme's lists turned into Python iterators::

    (define (queens board-size)
      (define (queen-cols k)
        (if (= k 0)
            (list empty-board)
            (filter (lambda (positions) (safe? k positions))
                    (flatmap (lambda (rest-of-queens)
                               (map (lambda (new-row)
                                      (adjoin-position new-row k rest-of-queens))
                                    (enumerate-interval 1 board-size)))
                             (queen-cols (- k 1))))))
      (queen-cols board-size))

Rows and columns count from 1; a set of positions is a list of ``(row, col)``
pairs, the newest queen first, so ``(queens 4)`` gives
``((3 4) (1 3) (4 2) (2 1))`` and then ``((2 4) (4 3) (1 2) (3 1))``:

>>> for positions in queens(4):
...     print(positions)
[(3, 4), (1, 3), (4, 2), (2, 1)]
[(2, 4), (4, 3), (1, 2), (3, 1)]

Each ``queen_cols k`` is a generator reading ``queen_cols (k - 1)`` one
placement at a time, so the whole chain holds one partial placement per
column and never a list of them: the book's ``flatmap`` over a stream.
"""

from __future__ import annotations

from collections.abc import Iterator

from lazyfun.core import flatmap
from lazyfun.queens.board import board_size as checked_size

__all__ = [
    "Position",
    "Positions",
    "adjoin_position",
    "empty_board",
    "enumerate_interval",
    "flatmap",
    "queen_cols",
    "queens",
    "safe",
]

Position = tuple[int, int]
"""A queen's ``(row, col)``, both from 1."""

Positions = list[Position]
"""A board: the queens' positions, newest first."""

empty_board: Positions = []
"""``empty-board``: no queens yet.  Never mutated: ``adjoin_position`` builds new lists."""


def enumerate_interval(low: int, high: int) -> Iterator[int]:
    """``(enumerate-interval low high)``: ``low, low + 1, ..., high``, lazily.

    >>> list(enumerate_interval(1, 4))
    [1, 2, 3, 4]
    """
    return iter(range(low, high + 1))


def adjoin_position(new_row: int, k: int, rest_of_queens: Positions) -> Positions:
    """``(cons (list new-row k) rest-of-queens)``: a new list, the new queen first.

    >>> adjoin_position(1, 2, [(3, 1)])
    [(1, 2), (3, 1)]
    """
    return [(new_row, k), *rest_of_queens]


def safe(k: int, positions: Positions) -> bool:
    """``(safe? k positions)``: the queen of column ``k`` (the first) attacks no other.

    No other queen shares its row, and none is as many rows away as columns.

    >>> safe(2, [(3, 2), (1, 1)]), safe(2, [(2, 2), (1, 1)])
    (True, False)
    """
    (row, col), *others = positions
    return all(r != row and abs(r - row) != col - c for r, c in others)


def queen_cols(k: int, board_size: int) -> Iterator[Positions]:
    """Every safe way to put queens in the first ``k`` columns, as a lazy stream.

    ``filter (safe? k) (flatmap (λ rest. map (λ new-row. adjoin-position new-row k rest)
    (enumerate-interval 1 board-size)) (queen-cols (k - 1)))``.

    >>> next(queen_cols(2, 4))
    [(3, 2), (1, 1)]
    """
    if k == 0:
        return iter([empty_board])
    return (
        positions
        for positions in flatmap(
            lambda rest_of_queens: (
                adjoin_position(new_row, k, rest_of_queens)
                for new_row in enumerate_interval(1, board_size)
            ),
            queen_cols(k - 1, board_size),
        )
        if safe(k, positions)
    )


def queens(board_size: int) -> Iterator[Positions]:
    """``(queens board-size)``: ``queen_cols board_size``, one placement at a time.

    >>> from lazyfun import ilen
    >>> ilen(queens(8))
    92
    """
    size, _ = checked_size(board_size)
    return queen_cols(size, size)
