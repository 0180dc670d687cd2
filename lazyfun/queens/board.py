"""What every queens program shares: board sizes, checked, and the one error type.

A placement on a ``rows`` x ``cols`` board puts one queen in each column; it is
a tuple ``p`` with ``p[c]`` the row (``0 .. rows - 1``) of the queen in column
``c``.  Two queens attack each other when they share a row or a diagonal
(``|p[i] - p[j]| == |i - j|``); one per column is built into the shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

__all__ = ["Placement", "QueensError", "board_size", "is_placement"]

Placement = tuple[int, ...]


class QueensError(ValueError):
    """A board size that names no board: negative, or not a whole number."""


def board_size(rows: int, cols: int | None = None) -> tuple[int, int]:
    """Check a board's size and fill in ``cols`` (it defaults to ``rows``).

    >>> board_size(8)
    (8, 8)
    >>> board_size(6, 4)
    (6, 4)
    >>> board_size(-1)
    Traceback (most recent call last):
    ...
    lazyfun.queens.board.QueensError: rows must be a whole number >= 0, got -1
    """
    cols = rows if cols is None else cols
    for name, value in (("rows", rows), ("cols", cols)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise QueensError(f"{name} must be a whole number >= 0, got {value!r}")
    return rows, cols


def is_placement(p: Sequence[int], rows: int) -> bool:
    """Whether ``p`` puts its queens on the board with no two attacking.

    >>> is_placement((1, 3, 0, 2), 4), is_placement((0, 2, 1), 4)
    (True, False)
    """
    if any(not 0 <= r < rows for r in p):
        return False
    return all(a != b and abs(a - b) != j - i for (i, a), (j, b) in combinations(enumerate(p), 2))
