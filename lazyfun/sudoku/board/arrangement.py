"""Arrangements of a Sudoku grid: the moves that keep it a Sudoku, and relabelling.

An arrangement transposes (or not), reorders the bands and the rows inside
each band, reorders the stacks and the columns inside each stack, and
relabels the digits.  For a 9x9 grid there are 2 * 6^8 = 3,359,232
arrangements of the cells.
"""

from __future__ import annotations

import random
from itertools import permutations, product
from typing import NamedTuple

from lazyfun.sudoku.board.formats import parse  # noqa: F401 (doctests)
from lazyfun.sudoku.board.grid import Grid

__all__ = [
    "CANON_BOXES",
    "Arrangement",
    "Row",
    "band_orders",
    "identity",
    "oriented",
    "random_arrangement",
    "random_transform",
    "relabelled",
    "transform",
]

CANON_BOXES = (2, 3)

Row = tuple[int, ...]


class Arrangement(NamedTuple):
    """One arrangement of a grid: ``transform`` reads it as

    ``out[i][j] = digits[src[rows[i]][cols[j]]]`` where ``src`` is the grid,
    transposed first when ``transpose`` is true.  ``rows`` must keep bands
    together (each output band takes the rows of one source band), ``cols``
    must keep stacks together, and ``digits`` is a permutation of 1..N with
    ``digits[0] == 0``.
    """

    transpose: bool
    rows: tuple[int, ...]
    cols: tuple[int, ...]
    digits: tuple[int, ...]

    def check(self, box: int) -> None:
        """Raise ``ValueError`` unless this is an arrangement of a grid of box size ``box``."""
        n = box * box
        for name, order in (("rows", self.rows), ("cols", self.cols)):
            if sorted(order) != list(range(n)):
                raise ValueError(f"{name} must be a permutation of 0..{n - 1}: {order}")
            for k in range(0, n, box):
                if len({i // box for i in order[k : k + box]}) != 1:
                    raise ValueError(f"{name} {order} splits a band or stack")
        if (
            len(self.digits) != n + 1
            or self.digits[0] != 0
            or sorted(self.digits) != list(range(n + 1))
        ):
            raise ValueError(f"digits must be 0 then a permutation of 1..{n}: {self.digits}")


def identity(box: int) -> Arrangement:
    """The arrangement that leaves a grid of box size ``box`` as it is."""
    n = box * box
    return Arrangement(False, tuple(range(n)), tuple(range(n)), tuple(range(n + 1)))


def oriented(grid: Grid, transpose: bool) -> tuple[Row, ...]:
    """The rows of the grid, or of its transpose."""
    rows = grid.rows
    return tuple(zip(*rows, strict=True)) if transpose else rows


def transform(grid: Grid, arrangement: Arrangement) -> Grid:
    """The grid rearranged: ``out[i][j] = digits[src[rows[i]][cols[j]]]``.

    >>> g = parse("1200" "0000" "0000" "0001")
    >>> print(transform(g, Arrangement(True, (1, 0, 2, 3), (0, 1, 3, 2), (0, 2, 1, 3, 4))))
    1000200000000020
    """
    arrangement.check(grid.box)
    src = oriented(grid, arrangement.transpose)
    d = arrangement.digits
    return Grid(
        tuple(d[src[r][c]] for r in arrangement.rows for c in arrangement.cols),
        grid.box,
    )


def _shuffled_blocks(box: int, rng: random.Random) -> tuple[int, ...]:
    blocks = rng.sample(range(box), box)
    return tuple(b * box + i for b in blocks for i in rng.sample(range(box), box))


def random_arrangement(box: int, rng: random.Random) -> Arrangement:
    """A uniformly random arrangement (relabelling included) for box size ``box``."""
    n = box * box
    return Arrangement(
        rng.random() < 0.5,
        _shuffled_blocks(box, rng),
        _shuffled_blocks(box, rng),
        (0, *rng.sample(range(1, n + 1), n)),
    )


def random_transform(grid: Grid, rng: random.Random) -> Grid:
    """``grid`` under a random arrangement: an equivalent grid."""
    return transform(grid, random_arrangement(grid.box, rng))


def relabelled(cells: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    """Relabel digits by first appearance: ``relabel`` of the specification.

    >>> relabelled((5, 0, 3, 5))
    (1, 0, 2, 1)
    """
    labels: dict[int, int] = {0: 0}
    for v in cells:
        if v not in labels:
            labels[v] = len(labels)
    return tuple(labels[v] for v in cells)


def band_orders(box: int) -> list[tuple[int, ...]]:
    """Every band-preserving order of 0..N-1: every row order, and every column order."""
    inner = list(permutations(range(box)))
    return [
        tuple(b * box + i for b, w in zip(blocks, within, strict=True) for i in w)
        for blocks in permutations(range(box))
        for within in product(inner, repeat=box)
    ]
