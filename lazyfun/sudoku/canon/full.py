"""Full grids: the top two canonical rows found together.

Every top row of a full grid reads ``123456789`` under every column order,
so the row-by-row search could not prune at the first row.  Here the second
row, read through the column order that the first row fixes, is a
permutation conjugated by that order, and its smallest form is found
position by position, placing each digit's column as early as its stack
allows.
"""

from __future__ import annotations

from typing import NamedTuple

from lazyfun.sudoku.canon.arrangement import Row
from lazyfun.sudoku.canon.rows import State

__all__ = ["ColumnOrder", "full_second_rows"]


class ColumnOrder(NamedTuple):
    """A partial column order for one orientation, top row and second row.

    ``pi[c]``: the top-row column holding the second row's digit of column c;
    ``sigma[j]``/``inv[c]``: the source column at output position j and back
    (-1: open); ``stack_at[k]``/``slot_of[s]``: the source stack at output slot
    k and back; ``fill[k]``: the columns placed in slot k.
    """

    transpose: int
    top: int
    second: int
    pi: tuple[int, ...]
    sigma: list[int]
    inv: list[int]
    stack_at: list[int]
    slot_of: list[int]
    fill: list[int]


def _choices(order: ColumnOrder, j: int, box: int) -> list[int]:
    """The source columns that can go to output position j."""
    n, k = box * box, j // box
    if order.sigma[j] >= 0:
        return [order.sigma[j]]
    if order.stack_at[k] >= 0:
        s = order.stack_at[k]
        return [c for c in range(s * box, s * box + box) if order.inv[c] < 0]
    return [c for c in range(n) if order.slot_of[c // box] < 0]


def _placed(order: ColumnOrder, j: int, c: int, box: int) -> ColumnOrder:
    """The order with source column c at output position j, and the column that holds
    the second row's digit there placed at the earliest position its stack allows."""
    sigma, inv = list(order.sigma), list(order.inv)
    stack_at, slot_of, fill = list(order.stack_at), list(order.slot_of), list(order.fill)
    k = j // box
    if sigma[j] < 0:
        if stack_at[k] < 0:
            stack_at[k], slot_of[c // box] = c // box, k
        sigma[j], inv[c] = c, j
        fill[k] += 1
    target = order.pi[c]
    if inv[target] < 0:
        stack = target // box
        if slot_of[stack] < 0:
            slot = stack_at.index(-1)
            stack_at[slot], slot_of[stack] = stack, slot
        slot = slot_of[stack]
        p = slot * box + fill[slot]
        fill[slot] += 1
        sigma[p], inv[target] = target, p
    return ColumnOrder(
        order.transpose, order.top, order.second, order.pi, sigma, inv, stack_at, slot_of, fill
    )


def _starts(srcs: tuple[tuple[Row, ...], ...], box: int) -> list[ColumnOrder]:
    """Every (orientation, top row, second row of its band), no column placed yet."""
    n = box * box
    orders = []
    for t, src in enumerate(srcs):
        for r0 in range(n):
            pos0 = [0] * (n + 1)
            for c, d in enumerate(src[r0]):
                pos0[d] = c
            band = r0 // box
            for r1 in range(band * box, band * box + box):
                if r1 != r0:
                    pi = tuple(pos0[d] for d in src[r1])
                    orders.append(
                        ColumnOrder(
                            t, r0, r1, pi, [-1] * n, [-1] * n, [-1] * box, [-1] * box, [0] * box
                        )
                    )
    return orders


def full_second_rows(srcs: tuple[tuple[Row, ...], ...], box: int) -> tuple[Row, list[State]]:
    """For a full grid: the smallest second row over every top row and column order.

    Row 0 reads 1..N under any column order, so the labels are the output
    positions of row 0's columns.  Row 1 at output position j then reads
    ``1 + pos(pi(sigma j))`` where ``pi(c)`` is the row-0 column holding
    ``row1[c]``.  Positions are filled left to right; a target column not yet
    placed goes to the earliest free position its stack allows (the smallest
    value there), and only the choice of ``sigma j`` branches.
    """
    frontier = _starts(srcs, box)
    row1: list[int] = []
    for j in range(box * box):
        best = box * box + 1
        survivors: list[ColumnOrder] = []
        for order in frontier:
            for c in _choices(order, j, box):
                placed = _placed(order, j, c, box)
                value = placed.inv[order.pi[c]] + 1
                if value < best:
                    best, survivors = value, []
                if value == best:
                    survivors.append(placed)
        row1.append(best)
        frontier = survivors
    return tuple(row1), [_state(order, srcs, box) for order in frontier]


def _state(order: ColumnOrder, srcs: tuple[tuple[Row, ...], ...], box: int) -> State:
    """The search state of a finished column order: two rows placed, labels from the top row."""
    t, r0, r1, sigma, stack_at = (
        order.transpose,
        order.top,
        order.second,
        order.sigma,
        order.stack_at,
    )
    n = box * box
    labels = [0] * (n + 1)
    for j, c in enumerate(sigma):
        labels[srcs[t][r0][c]] = j + 1
    layout = tuple(
        (stack_at[k], tuple((sigma[k * box + i],) for i in range(box))) for k in range(box)
    )
    band = r0 // box
    rest = tuple(x for x in range(band * box, band * box + box) if x not in (r0, r1))
    bands = tuple(b for b in range(box) if b != band)
    return State(t, layout, tuple(labels), n + 1, rest, bands, 1, (r0, r1))
