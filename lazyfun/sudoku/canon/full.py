"""Full grids: the top two canonical rows found together.

Every top row of a full grid reads ``123456789`` under every column order,
so the row-by-row search could not prune at the first row.  Here the second
row, read through the column order that the first row fixes, is a
permutation conjugated by that order, and its smallest form is found
position by position, placing each digit's column as early as its stack
allows.
"""

from __future__ import annotations

from lazyfun.sudoku.canon.arrangement import Row
from lazyfun.sudoku.canon.rows import State

__all__ = ["ColumnOrder", "full_second_rows"]


# A partial column order for one orientation, top row and second row, always
# unpacked in this order: (transpose, top, second, pi, sigma, inv, stack_at,
# slot_of, fill).  ``pi[c]``: the top-row column holding the second row's digit of
# column c; ``sigma[j]``/``inv[c]``: the source column at output position j and
# back (-1: open); ``stack_at[k]``/``slot_of[s]``: the source stack at output slot k
# and back; ``fill[k]``: the columns placed in slot k.  A plain tuple, not a
# NamedTuple: one is made per surviving choice in the hot loop, and a NamedTuple
# made full-grid minlex about 17% slower (measured: 274-286/s against 337-343/s).
ColumnOrder = tuple[
    int, int, int, tuple[int, ...], list[int], list[int], list[int], list[int], list[int]
]


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
                        (t, r0, r1, pi, [-1] * n, [-1] * n, [-1] * box, [-1] * box, [0] * box)
                    )
    row1: list[int] = []
    for j in range(n):
        k = j // box
        best = n + 1
        survivors: list[ColumnOrder] = []
        for order in frontier:
            t, r0, r1, pi, sigma, inv, stack_at, slot_of, fill = order
            if sigma[j] >= 0:
                choices = [sigma[j]]
            elif stack_at[k] >= 0:
                s = stack_at[k]
                choices = [c for c in range(s * box, s * box + box) if inv[c] < 0]
            else:
                choices = [c for c in range(n) if slot_of[c // box] < 0]
            for c in choices:
                to_source, to_output = list(sigma), list(inv)
                stack_of_slot, slot_of_stack, filled = list(stack_at), list(slot_of), list(fill)
                if to_source[j] < 0:
                    if stack_of_slot[k] < 0:
                        stack_of_slot[k], slot_of_stack[c // box] = c // box, k
                    to_source[j], to_output[c] = c, j
                    filled[k] += 1
                target = pi[c]
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
                        (t, r0, r1, pi, to_source, to_output, stack_of_slot, slot_of_stack, filled)
                    )
        row1.append(best)
        frontier = survivors
    return tuple(row1), [_state(order, srcs, box) for order in frontier]


def _state(order: ColumnOrder, srcs: tuple[tuple[Row, ...], ...], box: int) -> State:
    """The search state of a finished column order: two rows placed, labels from the top row."""
    t, r0, r1, _, sigma, _, stack_at, _, _ = order
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
