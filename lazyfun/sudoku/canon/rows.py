"""The row-by-row search: every partial arrangement whose rows so far are the smallest.

A state is one partial arrangement, its interchangeable columns still grouped
in cells (see the package docstring).  ``extend`` takes every surviving state
one row further and keeps those that write the smallest next row.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import permutations, product
from typing import NamedTuple

from lazyfun.sudoku.board.arrangement import Row

__all__ = ["BLANK", "EQUAL", "NEW", "STACK", "Cells", "Entry", "Layout", "State", "extend", "start"]

Cells = tuple[tuple[int, ...], ...]
# A stack slot of the output: (source stack, its columns in ordered cells), or
# (-1, (source stacks,)): stacks blank so far, filling the next slots in any order.
Entry = tuple[int, Cells]
Layout = tuple[Entry, ...]


class State(NamedTuple):
    """One partial arrangement.

    ``transpose``: 1 if the grid is read transposed; ``layout``: the output's
    stack slots so far; ``labels[d]``: the label digit d got (0: none yet);
    ``next_label``: the next label to give; ``band_left``: source rows of the
    current band not placed yet; ``bands_left``: source bands not started;
    ``weight``: how many arrangements this state stands for (merged states
    add up); ``placed``: the source rows placed so far, in output order.
    """

    transpose: int
    layout: Layout
    labels: tuple[int, ...]
    next_label: int
    band_left: tuple[int, ...]
    bands_left: tuple[int, ...]
    weight: int
    placed: Row


# How a stack may be refined: a sequence of parts, each a list of choices of cells.
Parts = list[list[Cells]]
# A piece of the next layout: (kind, source stacks, their parts), the kind being
# STACK (one placed stack), EQUAL (stacks that write the row alike: every order
# is tried) or BLANK (stacks still blank: they stay unordered).
Piece = tuple[int, tuple[int, ...], list[Parts]]
STACK, EQUAL, BLANK = 0, 1, 2

NEW = 1 << 20  # sorts after every label: a digit seen for the first time


def _refine_stack(cells: Cells, labels: tuple[int, ...], row: Row) -> tuple[list[int], Parts]:
    """Write one row through a stack's cells, as small as it can be.

    Inside a cell: blanks first (they stay one cell), then known labels in
    ascending order, then new digits (written ``NEW``), whose order is open.
    Returns the values and the parts the refined cells are chosen from.
    """
    values: list[int] = []
    parts: Parts = []
    fixed: list[tuple[int, ...]] = []
    for cell in cells:
        if len(cell) == 1:
            d = row[cell[0]]
            values.append((labels[d] or NEW) if d else 0)
            fixed.append(cell)
            continue
        blanks = tuple(c for c in cell if not row[c])
        known = sorted((labels[row[c]], c) for c in cell if row[c] and labels[row[c]])
        new = [c for c in cell if row[c] and not labels[row[c]]]
        values += [0] * len(blanks)
        values += [k for k, _ in known]
        values += [NEW] * len(new)
        if blanks:
            fixed.append(blanks)
        fixed += [(c,) for _, c in known]
        if len(new) > 1:
            parts.append([tuple(fixed)])
            parts.append([tuple((c,) for c in p) for p in permutations(new)])
            fixed = []
        else:
            fixed += [(c,) for c in new]
    parts.append([tuple(fixed)])
    return values, parts


def _choices(parts: Parts) -> list[Cells]:
    """Every refined cell sequence a stack's parts allow."""
    if len(parts) == 1:
        return parts[0]
    return [tuple(cell for part in choice for cell in part) for choice in product(*parts)]


def _write_row(
    layout: Layout, labels: tuple[int, ...], nxt: int, row: Row, box: int
) -> tuple[Row, list[Piece]]:
    """The smallest way to write ``row`` next, and the pieces its arrangements are made of.

    Stacks still blank so far are sorted by how small they write this row;
    those that stay blank stay unordered, equal ones are tried in every order.
    """
    values: list[int] = []
    pieces: list[Piece] = []
    for s, body in layout:
        if s >= 0:
            vals, parts = _refine_stack(body, labels, row)
            values += vals
            pieces.append((STACK, (s,), [parts]))
            continue
        keyed = sorted(
            (
                (*_refine_stack((tuple(range(t * box, t * box + box)),), labels, row), t)
                for t in body[0]
            ),
            key=lambda x: x[0],
        )
        i = 0
        while i < len(keyed):
            j = i + 1
            while j < len(keyed) and keyed[j][0] == keyed[i][0]:
                j += 1
            vals = keyed[i][0]
            values += vals * (j - i)
            if any(vals):
                group = keyed[i:j]
                pieces.append((EQUAL, tuple(t for *_, t in group), [p for _, p, _ in group]))
            else:
                pieces.append((BLANK, tuple(t for *_, t in keyed[i:j]), []))
            i = j
    if NEW in values:
        for i, v in enumerate(values):
            if v == NEW:
                values[i] = nxt
                nxt += 1
    return tuple(values), pieces


def _piece_layouts(piece: Piece) -> list[tuple[Entry, ...]]:
    """The layout entries one piece may become."""
    kind, stacks, parts = piece
    if kind == STACK:
        return [((stacks[0], cells),) for cells in _choices(parts[0])]
    if kind == BLANK:
        return [((-1, (stacks,)),)]
    return [
        tuple(zip((t for t, _ in order), choice, strict=True))
        for order in permutations(zip(stacks, parts, strict=True))
        for choice in product(*(_choices(p) for _, p in order))
    ]


def _arrangements_of(
    pieces: list[Piece], labels: tuple[int, ...], nxt: int, row: Row
) -> Iterator[tuple[Layout, tuple[int, ...], int]]:
    """Each way of choosing among the pieces: the layout, its labels and the next label."""
    for choice in product(*map(_piece_layouts, pieces)):
        layout = tuple(e for entries in choice for e in entries)
        new_labels = list(labels)
        n = nxt
        for s, cells in layout:
            if s < 0:
                continue
            for cell in cells:
                d = row[cell[0]]
                if len(cell) == 1 and d and not new_labels[d]:
                    new_labels[d] = n
                    n += 1
        yield layout, tuple(new_labels), n


def _next_rows(
    band_left: tuple[int, ...], bands_left: tuple[int, ...], src: tuple[Row, ...], box: int
) -> Iterator[tuple[int, int]]:
    """The source rows that may come next, each with how many blank rows it stands for.

    Blank rows of one band are interchangeable, so only the first is tried.
    """
    rows = band_left or tuple(r for b in bands_left for r in range(b * box, b * box + box))
    blank: dict[int, int] = {}
    for r in rows:
        if not any(src[r]):
            blank[r // box] = blank.get(r // box, 0) + 1
    seen: set[int] = set()
    for r in rows:
        if any(src[r]):
            yield r, 1
        elif r // box not in seen:
            seen.add(r // box)
            yield r, blank[r // box]


def start(box: int) -> list[State]:
    """The states before any row: both orientations, every stack still blank."""
    n = box * box
    free: Layout = ((-1, (tuple(range(box)),)),)
    return [State(t, free, (0,) * (n + 1), 1, (), tuple(range(box)), 1, ()) for t in (0, 1)]


def extend(
    states: list[State], srcs: tuple[tuple[Row, ...], ...], box: int
) -> tuple[Row, list[State]]:
    """One step of the search: the smallest next row, and every state that writes it."""
    best: Row | None = None
    winners: list[tuple[State, int, int, list[Piece]]] = []
    for state in states:
        t, layout, labels, nxt, band_left, bands_left, _, _ = state
        src = srcs[t]
        for r, count in _next_rows(band_left, bands_left, src, box):
            values, pieces = _write_row(layout, labels, nxt, src[r], box)
            if best is None or values < best:
                best, winners = values, [(state, r, count, pieces)]
            elif values == best:
                winners.append((state, r, count, pieces))
    assert best is not None
    merged: dict[tuple[object, ...], State] = {}
    for (t, _, labels, nxt, band_left, bands_left, mult, placed), r, count, pieces in winners:
        band = r // box
        if band_left:
            rest = tuple(x for x in band_left if x != r)
            bands = bands_left
        else:
            rest = tuple(x for x in range(band * box, band * box + box) if x != r)
            bands = tuple(b for b in bands_left if b != band)
        for layout, new_labels, n in _arrangements_of(pieces, labels, nxt, srcs[t][r]):
            key = (t, layout, new_labels, rest, bands)
            old = merged.get(key)
            weight = mult * count + (old.weight if old else 0)
            merged[key] = State(t, layout, new_labels, n, rest, bands, weight, (*placed, r))
    return best, list(merged.values())
