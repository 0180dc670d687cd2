"""Every placement, in lexicographic order: the search skeleton and its fast twin.

Column by column, a queen goes on each safe row in turn, lowest row first; the
placements therefore come out in lexicographic order of their tuples, and
``queens(4)`` yields ``(1, 3, 0, 2)`` then ``(2, 0, 3, 1)``, the order of the
list-comprehension article's ``queens(4, 4)``.

A partial placement carries three bit sets besides its rows, so a safe row is
one mask away rather than a loop over the queens already placed:

- ``taken``: rows that already hold a queen;
- ``rising``: rows attacked in the *next* column along rising diagonals
  (shift left one bit per column);
- ``falling``: the same for falling diagonals (shift right).

``solutions`` is the readable instance of :func:`lazyfun.search` (``expand1``
adjoins each safe row to the next column; ``complete`` counts the columns).
``queens`` walks the same tree with its own explicit stack and no per-node
objects; the tests check that both yield the same stream.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import NamedTuple

from lazyfun.queens.board import Placement, board_size
from lazyfun.search import search

__all__ = ["Partial", "adjoin", "expand1", "queens", "safe_rows", "solutions"]


class Partial(NamedTuple):
    """Queens in the first ``len(rows)`` columns, and the rows they attack next."""

    rows: Placement
    taken: int = 0
    rising: int = 0
    falling: int = 0


def safe_rows(p: Partial, height: int) -> int:
    """The rows of the next column no queen of ``p`` attacks, as a bit set.

    ``safe? k positions`` of SICP, for every row of column ``k`` at once.

    >>> bin(safe_rows(Partial((0,), 0b1, 0b10, 0b0), 4))
    '0b1100'
    """
    return ((1 << height) - 1) & ~(p.taken | p.rising | p.falling)


def adjoin(p: Partial, row: int) -> Partial:
    """Put a queen on ``row`` of the next column: ``adjoin-position row k rest``.

    >>> adjoin(Partial(()), 2)
    Partial(rows=(2,), taken=4, rising=8, falling=2)
    """
    bit = 1 << row
    return Partial((*p.rows, row), p.taken | bit, (p.rising | bit) << 1, (p.falling | bit) >> 1)


def expand1(height: int) -> Callable[[Partial], Iterator[Partial]]:
    """``expand1 p = [adjoin p r | r <- safe rows of the next column]``, lowest row first."""

    def children(p: Partial) -> Iterator[Partial]:
        free = safe_rows(p, height)
        while free:
            bit = free & -free
            free ^= bit
            yield adjoin(p, bit.bit_length() - 1)

    return children


def solutions(rows: int, cols: int | None = None) -> Iterator[Placement]:
    """``queens`` as an instance of :func:`lazyfun.search`: lazy, lexicographic.

    >>> list(solutions(4))
    [(1, 3, 0, 2), (2, 0, 3, 1)]
    """
    rows, cols = board_size(rows, cols)
    found = search(
        Partial(()),
        expand1=expand1(rows),
        complete=lambda p: len(p.rows) == cols,
    )
    return (p.rows for p in found)


def queens(rows: int, cols: int | None = None) -> Iterator[Placement]:
    """Every placement of ``cols`` non-attacking queens, one per column, on ``rows`` rows.

    Lazy and depth-first, in lexicographic order of the tuples (``p[c]`` is the
    row of the queen in column ``c``); memory stays O(rows + cols) however many
    placements follow.  ``cols`` defaults to ``rows``; with ``rows < cols`` the
    stream is empty, and ``queens(n, 0)`` yields the one empty placement.

    >>> list(queens(4))
    [(1, 3, 0, 2), (2, 0, 3, 1)]
    >>> from lazyfun import ilen
    >>> ilen(queens(6, 4)), ilen(queens(3, 4))
    (46, 0)
    """
    rows, cols = board_size(rows, cols)
    return _lexicographic(rows, cols)


def _lexicographic(height: int, width: int) -> Iterator[Placement]:
    """The search of ``solutions`` with one array slot per column instead of a node object."""
    if width == 0:
        yield ()
        return
    if height < width:
        return
    full = (1 << height) - 1
    row_of = {1 << r: r for r in range(height)}
    last = width - 1
    placed = [0] * width
    free = [0] * width
    taken = [0] * width
    rising = [0] * width
    falling = [0] * width
    free[0] = full
    column = 0
    while column >= 0:
        options = free[column]
        if not options:
            column -= 1
            continue
        bit = options & -options
        free[column] = options ^ bit
        placed[column] = row_of[bit]
        if column == last:
            yield tuple(placed)
            continue
        t = taken[column] | bit
        up = (rising[column] | bit) << 1
        down = (falling[column] | bit) >> 1
        column += 1
        taken[column], rising[column], falling[column] = t, up, down
        free[column] = full & ~(t | up | down)
