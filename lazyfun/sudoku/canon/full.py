"""Full grids: the top two canonical rows found together.

Every top row of a full grid reads ``123456789`` under every column order,
so the row-by-row search could not prune at the first row.  Here the second
row, read through the column order that the first row fixes, is a
permutation conjugated by that order, and its smallest form is found
position by position, placing each digit's column as early as its stack
allows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import final

from lazyfun.sudoku.board.arrangement import Row
from lazyfun.sudoku.canon.rows import State

__all__ = ["ColumnOrder", "full_second_rows"]


@final
@dataclass(slots=True)
class ColumnOrder:
    """A partial column order for one orientation, its top row and its second row.

    ``pi[c]`` is the top-row column holding the second row's digit of column c;
    ``sigma[j]``/``inv[c]`` the source column at output position j and back (-1:
    open); ``stack_at[k]``/``slot_of[s]`` the source stack at output slot k and
    back; ``fill[k]`` how many columns slot k holds.  One is made per surviving
    choice in the hot loop: this module is compiled (``lazyfun.compiled``), where
    a class like this one is a C struct.
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


def full_second_rows(  # noqa: C901, PLR0912 (the hot loop, kept whole)
    srcs: tuple[tuple[Row, ...], ...], box: int
) -> tuple[Row, list[State]]:
    """For a full grid: the smallest second row over every top row and column order.

    Row 0 reads 1..N under any column order, so the labels are the output
    positions of row 0's columns.  Row 1 at output position j then reads
    ``1 + pos(pi(sigma j))`` where ``pi(c)`` is the row-0 column holding
    ``row1[c]``.  Positions are filled left to right; a target column not yet
    placed goes to the earliest free position its stack allows (the smallest
    value there), and only the choice of ``sigma j`` branches.
    """
    n = box * box
    frontier: list[ColumnOrder] = []
    for t, src in enumerate(srcs):
        for r0 in range(n):
            pos0 = [0] * (n + 1)
            for c, d in enumerate(src[r0]):
                pos0[d] = c
            band = r0 // box
            for r1 in range(band * box, band * box + box):
                if r1 != r0:
                    pi = tuple(pos0[d] for d in src[r1])
                    frontier.append(
                        ColumnOrder(
                            t, r0, r1, pi, [-1] * n, [-1] * n, [-1] * box, [-1] * box, [0] * box
                        )
                    )
    row1: list[int] = []
    for j in range(n):
        k = j // box
        best = n + 1
        survivors: list[ColumnOrder] = []
        for order in frontier:
            sigma, inv, stack_at, slot_of = order.sigma, order.inv, order.stack_at, order.slot_of
            if sigma[j] >= 0:
                choices = [sigma[j]]
            elif stack_at[k] >= 0:
                s = stack_at[k]
                choices = [c for c in range(s * box, s * box + box) if inv[c] < 0]
            else:
                choices = [c for c in range(n) if slot_of[c // box] < 0]
            for c in choices:
                to_source, to_output = list(sigma), list(inv)
                stack_of_slot, slot_of_stack, filled = (
                    list(stack_at),
                    list(slot_of),
                    list(order.fill),
                )
                if to_source[j] < 0:
                    if stack_of_slot[k] < 0:
                        stack_of_slot[k], slot_of_stack[c // box] = c // box, k
                    to_source[j], to_output[c] = c, j
                    filled[k] += 1
                target = order.pi[c]
                if to_output[target] < 0:
                    stack = target // box
                    if slot_of_stack[stack] < 0:
                        slot = stack_of_slot.index(-1)
                        stack_of_slot[slot], slot_of_stack[stack] = stack, slot
                    slot = slot_of_stack[stack]
                    p = slot * box + filled[slot]
                    filled[slot] += 1
                    to_source[p], to_output[target] = target, p
                value = to_output[target] + 1
                if value < best:
                    best, survivors = value, []
                if value == best:
                    survivors.append(
                        ColumnOrder(
                            order.transpose,
                            order.top,
                            order.second,
                            order.pi,
                            to_source,
                            to_output,
                            stack_of_slot,
                            slot_of_stack,
                            filled,
                        )
                    )
        row1.append(best)
        frontier = survivors
    return tuple(row1), [_state(order, srcs, box) for order in frontier]


def _state(order: ColumnOrder, srcs: tuple[tuple[Row, ...], ...], box: int) -> State:
    """The search state of a finished column order: two rows placed, labels from the top row."""
    sigma, stack_at, r0, r1 = order.sigma, order.stack_at, order.top, order.second
    n = box * box
    labels = [0] * (n + 1)
    for j, c in enumerate(sigma):
        labels[srcs[order.transpose][r0][c]] = j + 1
    layout = tuple(
        (stack_at[k], tuple((sigma[k * box + i],) for i in range(box))) for k in range(box)
    )
    band = r0 // box
    rest = tuple(x for x in range(band * box, band * box + box) if x not in (r0, r1))
    bands = tuple(b for b in range(box) if b != band)
    return State(order.transpose, layout, tuple(labels), n + 1, rest, bands, 1, (r0, r1))
