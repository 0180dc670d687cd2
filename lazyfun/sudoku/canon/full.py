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

__all__ = ["full_second_rows"]


# A partial column order for one (orientation, top row, second row), always
# unpacked by name: (transpose, top, second, pi, sigma, inv, stack_at,
# slot_of, fill).  ``pi[c]``: the top-row column holding the second row's
# digit of column c; ``sigma[j]``/``inv[c]``: the source column at output
# position j and back (-1: open); ``stack_at[k]``/``slot_of[s]``: the source
# stack at output slot k and back; ``fill[k]``: columns placed in slot k.
# A plain tuple: one is made per surviving choice, in the hot loop.
Frontier = tuple[
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
    frontier: list[Frontier] = []
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
        survivors: list[Frontier] = []
        for item in frontier:
            t, r0, r1, pi, sigma, inv, stack_at, slot_of, fill = item
            if sigma[j] >= 0:
                choices = [sigma[j]]
            elif stack_at[k] >= 0:
                s = stack_at[k]
                choices = [c for c in range(s * box, s * box + box) if inv[c] < 0]
            else:
                choices = [c for c in range(n) if slot_of[c // box] < 0]
            for c in choices:
                sg, iv, sa, so, fl = (
                    list(sigma),
                    list(inv),
                    list(stack_at),
                    list(slot_of),
                    list(fill),
                )
                if sg[j] < 0:
                    if sa[k] < 0:
                        sa[k], so[c // box] = c // box, k
                    sg[j], iv[c] = c, j
                    fl[k] += 1
                target = pi[c]
                if iv[target] < 0:
                    st = target // box
                    if so[st] < 0:
                        slot = sa.index(-1)
                        sa[slot], so[st] = st, slot
                    slot = so[st]
                    p = slot * box + fl[slot]
                    fl[slot] += 1
                    sg[p], iv[target] = target, p
                value = iv[target] + 1
                if value < best:
                    best, survivors = value, []
                if value == best:
                    survivors.append((t, r0, r1, pi, sg, iv, sa, so, fl))
        row1.append(best)
        frontier = survivors
    return tuple(row1), [_state(item, srcs, box) for item in frontier]


def _state(item: Frontier, srcs: tuple[tuple[Row, ...], ...], box: int) -> State:
    """The search state of a finished column order: two rows placed, labels from the top row."""
    t, r0, r1, _, sigma, _, stack_at, _, _ = item
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
