"""Counting placements without listing them: bit masks and the symmetries of the board.

Square boards use the eight symmetries of the square (Takaken's method, after
the classic C program): the search visits only placements that can represent
their class of rotations and reflections, checks that each is the least of its
rotations, and counts the class as 2, 4 or 8.  Rectangular boards use the one
symmetry they have, turning the board upside down, and so search half the
first column.  The row masks work as in :mod:`lazyfun.queens.lex`: ``taken``,
``rising`` and ``falling`` are the rows attacked in the next column.

>>> [count_queens(n) for n in range(1, 11)]
[1, 0, 0, 2, 10, 4, 40, 92, 352, 724]
>>> count_queens(6, 4), count_queens(8, 6), count_queens(3, 4)
(46, 550, 0)
"""

from __future__ import annotations

import random
from typing import NamedTuple

from lazyfun.queens.board import board_size
from lazyfun.trace import Meter

__all__ = ["Subtree", "count_queens", "count_subtree", "estimate_nodes", "subtrees"]


def count_queens(rows: int, cols: int | None = None, meter: Meter | None = None) -> int:
    """How many placements ``queens(rows, cols)`` yields, counted without building them.

    Eager by nature (it returns a number); the work is a depth-first walk with
    O(rows) memory.  Matches OEIS A000170 on square boards and A269133 on
    rectangular ones.  A ``meter`` counts the first-column branches done, out
    of its ``total``, for a front end to show progress.
    """
    rows, cols = board_size(rows, cols)
    if rows == cols and rows >= 4:
        return _walk(rows, meter=meter)[0]
    return _upside_down(rows, cols, meter)


def estimate_nodes(rows: int, cols: int | None = None, probes: int = 1000, seed: int = 0) -> float:
    """About how many partial placements the plain search of a board visits (Knuth's estimate).

    Each probe walks one random path from the root, choosing a safe row
    uniformly in each column, and scores the path ``1 + d1 + d1*d2 + ...``
    where ``dk`` is the number of safe rows it met in column k: an unbiased
    estimate of the size of the tree (D. E. Knuth, *Estimating the efficiency
    of backtrack programs*, 1975).  Front ends use it to refuse, at once and
    with the figure, a count that would run for days.

    >>> round(estimate_nodes(8), -2)  # the plain walk of 8 queens visits 2,057 nodes
    2000.0
    """
    rows, cols = board_size(rows, cols)
    rng = random.Random(seed)
    full = (1 << rows) - 1
    total = 0.0
    for _ in range(probes):
        taken = rising = falling = 0
        weight = nodes = 1.0
        for _ in range(cols):
            free = full & ~(taken | rising | falling)
            choices = free.bit_count()
            if not choices:
                break
            weight *= choices
            nodes += weight
            for _ in range(rng.randrange(choices)):
                free &= free - 1
            bit = free & -free
            taken, rising, falling = taken | bit, (rising | bit) << 1, (falling | bit) >> 1
        total += nodes
    return total / probes


def _below(height: int, columns_left: int, taken: int, rising: int, falling: int) -> int:
    """Placements of ``columns_left`` more queens below a partial one: the plain count."""
    full = (1 << height) - 1

    def walk(left: int, taken: int, rising: int, falling: int) -> int:
        free = full & ~(taken | rising | falling)
        if left == 1:
            return free.bit_count()
        total = 0
        left -= 1
        while free:
            bit = free & -free
            free ^= bit
            total += walk(left, taken | bit, (rising | bit) << 1, (falling | bit) >> 1)
        return total

    return walk(columns_left, taken, rising, falling) if columns_left else 1


def _upside_down(height: int, width: int, meter: Meter | None = None) -> int:
    """Count using one symmetry: the first queen in the top half, doubled; the middle row once."""
    if width == 0:
        return 1
    if height < width:
        return 0
    if meter is not None:
        meter.total = (height + 1) // 2
    total = 0
    for row in range(height // 2):
        bit = 1 << row
        total += _below(height, width - 1, bit, bit << 1, bit >> 1)
        if meter is not None:
            meter.add()
    total *= 2
    if height % 2:
        bit = 1 << (height // 2)
        total += _below(height, width - 1, bit, bit << 1, bit >> 1)
        if meter is not None:
            meter.add()
    return total


class Subtree(NamedTuple):
    """A node of the symmetric walk on an n x n board, from which it can resume.

    ``edge`` tells the two branches apart (see ``_walk``); ``board`` holds the
    queens placed so far (as row bits) where the edge branch needs them.
    """

    edge: bool
    column: int
    taken: int
    rising: int
    falling: int
    board: tuple[int, ...]
    bound: int
    bound2: int
    side_mask: int
    last_mask: int


def subtrees(n: int, depth: int) -> list[Subtree]:
    """The symmetric walk on an n x n board (n >= 4) cut at column ``depth``.

    Eager: the independent subtrees whose weighted counts add up to
    ``count_queens(n)``.

    >>> parts = subtrees(8, 3)
    >>> len(parts), sum(count_subtree(8, part) for part in parts)
    (44, 92)
    """
    return _walk(n, stop=min(depth, n - 1))[1]


def count_subtree(n: int, subtree: Subtree) -> int:
    """The placements that one subtree of ``subtrees(n, depth)`` stands for."""
    return _walk(n, resume=subtree)[0]


def _walk(  # noqa: C901, PLR0915 (Takaken's walk: one closure per branch kind, kept whole)
    n: int, stop: int | None = None, resume: Subtree | None = None, meter: Meter | None = None
) -> tuple[int, list[Subtree]]:
    """Takaken's walk over class representatives; returns the weighted count.

    The board's eight symmetries split the placements into classes of 8, 4 or
    2 members.  The walk only visits placements that can represent a class:

    - ``corner``: the first column's queen in row 0.  A rotation cannot fix
      such a placement (the opposite corner is on the same diagonal), so each
      class counts 8.  Of a placement and its mirror in the main diagonal, the
      representative keeps row 1 empty in the columns before ``bound``, the row
      of the column-1 queen.
    - ``edge``: the first column's queen on row ``bound1``, strictly in the top
      half and no nearer a corner than the queens of the other three edges:
      the ``side_mask`` (rows 0 and n - 1) stays empty before column
      ``bound1`` and is filled by column ``bound2``, and ``last_mask`` keeps
      the last column's queen away from its corners.  A completed placement is
      kept when no rotation of it is smaller (``classify``), and counts 2, 4 or
      8 as it is fixed by a quarter turn, a half turn, or neither.

    With ``stop``, nodes reaching that column are collected as ``Subtree``s
    instead of walked; with ``resume``, only that subtree is walked.  A
    ``meter`` counts the first-column branches done.
    """
    last = n - 1
    full = (1 << n) - 1
    top = 1 << last
    board = [0] * n
    eights = fours = twos = 0
    limit = n + 1 if stop is None else stop
    found: list[Subtree] = []

    def corner(column: int, taken: int, rising: int, falling: int, bound: int) -> None:
        nonlocal eights
        if column >= limit:
            found.append(Subtree(False, column, taken, rising, falling, (), bound, 0, 0, 0))
            return
        free = full & ~(taken | rising | falling)
        if column == last:
            if free:
                eights += 1
            return
        if column < bound:
            free &= ~2
        while free:
            bit = free & -free
            free ^= bit
            corner(column + 1, taken | bit, (rising | bit) << 1, (falling | bit) >> 1, bound)

    def edge(column: int, taken: int, rising: int, falling: int) -> None:
        if column >= limit:
            state = (tuple(board[:column]), bound1, bound2, side_mask, last_mask)
            found.append(Subtree(True, column, taken, rising, falling, *state))
            return
        free = full & ~(taken | rising | falling)
        if column == last:
            if free and not free & last_mask:
                board[column] = free
                classify()
            return
        if column < bound1:
            free &= ~side_mask
        elif column == bound2:
            if not taken & side_mask:
                return
            if taken & side_mask != side_mask:
                free &= side_mask
        while free:
            bit = free & -free
            free ^= bit
            board[column] = bit
            edge(column + 1, taken | bit, (rising | bit) << 1, (falling | bit) >> 1)

    def classify() -> None:
        nonlocal eights, fours, twos
        rows = tuple(b.bit_length() - 1 for b in board)
        turned = [0] * n
        for c, r in enumerate(rows):
            turned[r] = last - c
        quarter = tuple(turned)
        half = tuple(last - r for r in reversed(rows))
        for c, r in enumerate(rows):
            turned[last - r] = c
        three_quarters = tuple(turned)
        if min(quarter, half, three_quarters) < rows:
            return
        if quarter == rows:
            twos += 1
        elif half == rows:
            fours += 1
        else:
            eights += 1

    if resume is not None:
        if resume.edge:
            board[: resume.column] = resume.board
            bound1, bound2, side_mask, last_mask = resume[6:]
            edge(resume.column, resume.taken, resume.rising, resume.falling)
        else:
            corner(resume.column, resume.taken, resume.rising, resume.falling, resume.bound)
        return 8 * eights + 4 * fours + 2 * twos, found

    if meter is not None:
        meter.total = (last - 2) + (n - 2) // 2
    board[0] = 1
    for bound in range(2, last):
        bit = 1 << bound
        board[1] = bit
        corner(2, 1 | bit, (2 | bit) << 1, bit >> 1, bound)
        if meter is not None:
            meter.add()

    side_mask = last_mask = top | 1
    bound1, bound2 = 1, n - 2
    while bound1 < bound2:
        bit = 1 << bound1
        board[0] = bit
        edge(1, bit, bit << 1, bit >> 1)
        last_mask |= last_mask >> 1 | last_mask << 1
        bound1 += 1
        bound2 -= 1
        if meter is not None:
            meter.add()
    return 8 * eights + 4 * fours + 2 * twos, found
