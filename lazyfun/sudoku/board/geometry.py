"""The shape of a Sudoku board, once: box sizes, units, peers, their bit masks, cell names.

A board of box size b has side N = b*b and N*N cells, numbered 0..N*N-1 in
reading order.  Its units are the N rows, then the N columns, then the N
boxes; two cells are peers when they share a unit.  The grid reader, Bird's
stages, the engine, the steps, the generator, canon, the clause-learning search and
the CLI take the classic board's tables from here; a variant adds its own units and
peers on top of them (:mod:`lazyfun.sudoku.variants`).

>>> units(2)[0], units(2)[4], units(2)[8]
((0, 1, 2, 3), (0, 4, 8, 12), (0, 1, 4, 5))
>>> peers(2)[0]
(1, 2, 3, 4, 5, 8, 12)
>>> cell_name(10, 4), unit_name(9, 4)
('r3c3', 'box 2')
"""

from __future__ import annotations

from functools import cache

__all__ = [
    "BOX_OF_SIDE",
    "BOX_SIZES",
    "cell_name",
    "peer_masks",
    "peer_sets",
    "peers",
    "unit_index",
    "unit_masks",
    "unit_name",
    "units",
    "units_of",
]

BOX_SIZES = (2, 3, 4, 5)
BOX_OF_SIDE = {box * box: box for box in BOX_SIZES}


@cache
def units(box: int) -> tuple[tuple[int, ...], ...]:
    """The cell indices of every row, then every column, then every box."""
    n = box * box
    rows = [tuple(r * n + c for c in range(n)) for r in range(n)]
    cols = [tuple(r * n + c for r in range(n)) for c in range(n)]
    boxes = [
        tuple((br + r) * n + bc + c for r in range(box) for c in range(box))
        for br in range(0, n, box)
        for bc in range(0, n, box)
    ]
    return tuple(rows + cols + boxes)


@cache
def units_of(box: int) -> tuple[tuple[int, ...], ...]:
    """For each cell, the indices (into :func:`units`) of its row, column and box."""
    n = box * box
    return tuple(
        (cell // n, n + cell % n, 2 * n + (cell // n // box) * box + cell % n // box)
        for cell in range(n * n)
    )


@cache
def peers(box: int) -> tuple[tuple[int, ...], ...]:
    """For each cell, the other cells of its units, in increasing order."""
    all_units = units(box)
    return tuple(
        tuple(sorted({p for k in of for p in all_units[k]} - {cell}))
        for cell, of in enumerate(units_of(box))
    )


@cache
def peer_sets(box: int) -> tuple[frozenset[int], ...]:
    """:func:`peers` as sets, for the set algebra of human techniques."""
    return tuple(frozenset(p) for p in peers(box))


@cache
def peer_masks(box: int) -> tuple[int, ...]:
    """:func:`peers` as bit sets of cells (bit c for cell c)."""
    return tuple(sum(1 << p for p in of) for of in peers(box))


@cache
def unit_masks(box: int) -> tuple[int, ...]:
    """Each unit of :func:`units` as a bit set of cells."""
    return tuple(sum(1 << c for c in unit) for unit in units(box))


def cell_name(cell: int, side: int) -> str:
    """``rRcC``: the row and column of a cell, counted from 1."""
    return f"r{cell // side + 1}c{cell % side + 1}"


def unit_name(k: int, side: int) -> str:
    """``row 3``, ``column 5`` or ``box 9``: unit ``k`` of :func:`units`, counted from 1."""
    return f"{('row', 'column', 'box')[k // side]} {k % side + 1}"


def unit_index(name: str, side: int) -> int:
    """The inverse of :func:`unit_name`: ``unit_index("box 2", 4) == 9``.

    >>> unit_index(unit_name(21, 9), 9)
    21
    """
    kind, _, number = name.partition(" ")
    kinds = ("row", "column", "box")
    if kind not in kinds or not number.isdigit() or not 1 <= int(number) <= side:
        raise ValueError(f"not a unit of a {side}x{side} board: {name!r}")
    return kinds.index(kind) * side + int(number) - 1
