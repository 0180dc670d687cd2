"""Every placement, in lexicographic order: the search skeleton and its fast twin.

Column by column, a queen goes on each safe row in turn, lowest row first; the
placements therefore come out in lexicographic order of their tuples, and
``lexicographic(4)`` yields ``(1, 3, 0, 2)`` then ``(2, 0, 3, 1)``, the order of the
list-comprehension article's ``queens(4, 4)``.

A partial placement carries three bit sets besides its rows, so a safe row is
one mask away rather than a loop over the queens already placed:

- ``taken``: rows that already hold a queen;
- ``rising``: rows attacked in the *next* column along rising diagonals
  (shift left one bit per column);
- ``falling``: the same for falling diagonals (shift right).

``solutions`` is the readable instance of :func:`lazyfun.search` (``expand1``
adjoins each safe row to the next column; ``complete`` counts the columns).
``lexicographic`` walks the same tree with its own explicit stack and no per-node
objects: masks per column up to 64 rows (a mask is then one machine word),
one set of masks undone on the way back beyond that, so memory stays
O(rows + cols) words on any board.  The tests check that all three yield the
same stream.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import NamedTuple

from lazyfun.queens.board import Placement, board_size
from lazyfun.search import search
from lazyfun.trace import Meter

__all__ = ["Partial", "adjoin", "expand1", "lexicographic", "safe_rows", "solutions"]


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
    """``lexicographic`` as an instance of :func:`lazyfun.search`, the readable twin.

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


def lexicographic(
    rows: int, cols: int | None = None, meter: Meter | None = None
) -> Iterator[Placement]:
    """Every placement of ``cols`` non-attacking queens, one per column, on ``rows`` rows.

    Lazy and depth-first, in lexicographic order of the tuples (``p[c]`` is the
    row of the queen in column ``c``); memory stays O(rows + cols) words however
    many placements follow.  ``cols`` defaults to ``rows``; with ``rows < cols``
    the stream is empty, and ``lexicographic(n, 0)`` yields the one empty placement.
    A ``meter`` counts the queens placed: the nodes of the search tree built
    (its root, the empty board, aside), as the readable ``solutions`` builds
    them; every one built before a placement is counted by the time it is read.

    >>> meter = Meter("queens placed")
    >>> first = next(lexicographic(8, meter=meter))
    >>> first, meter.done
    ((0, 4, 7, 5, 2, 6, 1, 3), 113)

    >>> list(lexicographic(4))
    [(1, 3, 0, 2), (2, 0, 3, 1)]
    >>> from lazyfun import ilen
    >>> ilen(lexicographic(6, 4)), ilen(lexicographic(3, 4))
    (46, 0)
    """
    rows, cols = board_size(rows, cols)
    if cols == 0:
        return iter(((),))
    if rows < cols:
        return iter(())
    walk = _by_columns if rows <= WORD else _undoing
    return walk(rows, cols, meter)


WORD = 64  # up to this many rows a row mask is one machine word
TICK = 4096  # placements counted between two updates of a meter


def _count(meter: Meter, steps: int, counted: int) -> int:
    """Add the queens placed since the meter's last update to it; return the new mark.

    The walks update their meter every ``TICK`` placements while they search,
    and with the rest before each placement they yield and at their end, so a
    reader that stops after any placement sees every node built to reach it.
    """
    meter.add(steps - counted)
    return steps


def _by_columns(height: int, width: int, meter: Meter | None) -> Iterator[Placement]:
    """The search of ``solutions`` with one array slot per column instead of a node object.

    Each column keeps its own masks (rows still to try, rows attacked), so
    going back a column costs nothing; with at most ``WORD`` rows a mask is one
    machine word, so the arrays are O(width) words.
    """
    full = (1 << height) - 1
    last = width - 1
    placed = [0] * width
    free = [0] * width
    taken = [0] * width
    rising = [0] * width
    falling = [0] * width
    free[0] = full
    column = steps = counted = 0
    while column >= 0:
        options = free[column]
        if not options:
            column -= 1
            continue
        bit = options & -options
        free[column] = options ^ bit
        placed[column] = bit.bit_length() - 1
        steps += 1
        if not steps % TICK and meter is not None:
            counted = _count(meter, steps, counted)
        if column == last:
            if meter is not None:
                counted = _count(meter, steps, counted)
            yield tuple(placed)
            continue
        t = taken[column] | bit
        up = (rising[column] | bit) << 1
        down = (falling[column] | bit) >> 1
        column += 1
        taken[column], rising[column], falling[column] = t, up, down
        free[column] = full & ~(t | up | down)
    if meter is not None:
        _count(meter, steps, counted)


def _undoing(height: int, width: int, meter: Meter | None) -> Iterator[Placement]:
    """The same walk keeping one set of masks, undone when the walk goes back.

    For boards taller than a machine word, per-column masks would cost
    O(height * width) bits; here the attacked rows and diagonals are three
    masks indexed by row, ``row + column`` and ``row - column + width - 1``,
    and a column remembers only its queen's row: O(height + width) words.
    """
    full = (1 << height) - 1
    last = width - 1
    placed = [0] * width
    taken = rising = falling = 0
    column = low = steps = counted = 0
    while True:
        options = full & ~(taken | rising >> column | falling >> (last - column)) >> low << low
        if not options:
            column -= 1
            if column < 0:
                if meter is not None:
                    _count(meter, steps, counted)
                return
            row = placed[column]
            taken ^= 1 << row
            rising ^= 1 << (row + column)
            falling ^= 1 << (row + last - column)
            low = row + 1
            continue
        bit = options & -options
        row = bit.bit_length() - 1
        placed[column] = row
        steps += 1
        if not steps % TICK and meter is not None:
            counted = _count(meter, steps, counted)
        if column == last:
            if meter is not None:
                counted = _count(meter, steps, counted)
            yield tuple(placed)
            low = row + 1
            continue
        taken |= bit
        rising |= bit << column
        falling |= bit << (last - column)
        column += 1
        low = 0
