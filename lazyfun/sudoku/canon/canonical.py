"""The public forms: minlex, the arrangement that reaches it, automorphisms, equivalence.

canonical_rows g = map best (iterate extend (start g))

``minlex`` of a 9x9 grid runs the same search in C (``lazyfun/sudoku/canon/minlex_c``)
where it was built and ``LAZYFUN_PURE`` is not set (:data:`FAST`): the same states, 32
bytes each, merged at each row.  A grid whose search would keep more than 2^20 states
in a row comes back to the Python search, which answers every grid.
"""

from __future__ import annotations

import os
import random  # noqa: F401 (doctests)
from collections.abc import Iterator
from math import factorial
from typing import Final

from lazyfun.compiled import PURE_ENV
from lazyfun.sudoku.board.arrangement import (
    CANON_BOXES,
    Arrangement,
    Row,
    oriented,
    random_transform,  # noqa: F401 (doctests)
    transform,  # noqa: F401 (doctests)
)
from lazyfun.sudoku.board.formats import parse  # noqa: F401 (doctests)
from lazyfun.sudoku.board.grid import Grid, PuzzleError, check_givens
from lazyfun.sudoku.canon.full import full_second_rows
from lazyfun.sudoku.canon.rows import Layout, State, extend, start
from lazyfun.sudoku.variants import Variant

try:
    from lazyfun.sudoku.canon import _minlex
except ImportError:  # built without a C compiler: the Python search answers
    AVAILABLE = False
else:
    AVAILABLE = True
FAST: Final = AVAILABLE and not os.environ.get(PURE_ENV)  # 9x9 minlex runs in C

__all__ = [
    "AVAILABLE",
    "FAST",
    "automorphisms",
    "canonical_rows",
    "equivalent",
    "minlex",
    "minlex_arrangement",
    "minlex_line",
]


def _search(grid: Grid) -> Iterator[tuple[Row, list[State]]]:
    """The canonical rows one at a time, each with the states that write it (lazy)."""
    box = grid.box
    if box not in CANON_BOXES:
        raise PuzzleError(f"minlex supports 4x4 and 9x9 grids, not {grid.size}x{grid.size}")
    check_givens(grid)
    n = box * box
    srcs = (oriented(grid, False), oriented(grid, True))
    if grid.is_complete():
        yield tuple(range(1, n + 1)), []
        row1, states = full_second_rows(srcs, box)
        yield row1, states
        done = 2
    else:
        states, done = start(box), 0
    for _ in range(done, n):
        row, states = extend(states, srcs, box)
        yield row, states


def canonical_rows(grid: Grid) -> Iterator[Row]:
    """The rows of ``minlex(grid)``, each computed only when it is asked for.

    The first row needs only the clue counts; later rows cost more.  Two grids
    can be told apart at the first row where these streams differ.

    >>> g = parse("2070050000003400001500000090050000010400003200000165"
    ...           "00000002084700000010010580000")
    >>> next(canonical_rows(g))
    (0, 0, 0, 0, 0, 0, 0, 1, 2)
    """
    return (row for row, _ in _search(grid))


def _last_level(grid: Grid) -> tuple[Row, list[State]]:
    cells: list[int] = []
    states: list[State] = []
    for row, level in _search(grid):
        cells += row
        states = level
    return tuple(cells), states


def minlex(grid: Grid | Variant) -> Grid:
    """The minlex canonical form: the least relabelled arrangement of ``grid``.

    A puzzle with no solution still has one; givens that conflict raise
    ``PuzzleError``, and so does a variant, with the reason: the arrangements
    move rows and columns, which a variant's rules do not follow.

    >>> print(minlex(parse("0000" "0000" "0000" "0001")))
    0000000000000001
    """
    if isinstance(grid, Variant):
        raise PuzzleError(
            f"a variant ({grid.kind}) has no minlex form: minlex is defined for"
            " the classic grid, whose arrangements (swapping rows, columns, bands, stacks)"
            " would move the variant's diagonals, regions and cages"
        )
    if FAST and grid.box == 3:
        try:
            form = _minlex.minlex(grid.cells)  # pyright: ignore[reportPossiblyUnboundVariable] (FAST)
        except _minlex.Conflict:  # pyright: ignore[reportPossiblyUnboundVariable] (FAST)
            form = None  # the search below names the givens that clash
        if form is not None:
            return Grid(form, 3)
    cells, _ = _last_level(grid)
    return Grid(cells, grid.box)


def minlex_line(text: str) -> str | None:
    """The minlex form of a plain 9x9 line (81 characters: 1-9 given, ``0`` or ``.``
    blank) as 81 digits, in one call into C with no grid built: what the CLI's ``canon``
    and ``canon_file`` give such a line.  None where the C does not answer (not built,
    or ``LAZYFUN_PURE``; any other line; givens that clash; a search past its bound):
    :func:`minlex` answers those, or names the fault.

    >>> minlex_line("a line of another kind") is None
    True
    """
    if not FAST or len(text) != 81:
        return None
    try:
        (form,) = _minlex.minlex_lines([text])  # pyright: ignore[reportPossiblyUnboundVariable] (FAST)
    except ValueError:  # another alphabet, or givens that clash (Conflict)
        return None
    return form


def _columns(layout: Layout, box: int) -> tuple[int, ...]:
    cols: list[int] = []
    for s, body in layout:
        if s >= 0:
            cols += [c for cell in body for c in cell]
        else:
            cols += [c for t in body[0] for c in range(t * box, t * box + box)]
    return tuple(cols)


def minlex_arrangement(grid: Grid) -> Arrangement:
    """An arrangement taking ``grid`` to ``minlex(grid)``.

    >>> g = parse("1200" "0000" "0000" "0001")
    >>> transform(g, minlex_arrangement(g)) == minlex(g)
    True
    """
    _, states = _last_level(grid)
    t, layout, labels, _, _, _, _, placed = states[0]
    n = grid.size
    unused = iter(sorted(set(range(1, n + 1)) - set(labels)))
    digits = tuple(labels[d] or next(unused) if d else 0 for d in range(n + 1))
    return Arrangement(bool(t), placed, _columns(layout, grid.box), digits)


def _weight(state: State, box: int) -> int:
    """How many arrangements one final state stands for."""
    total = state.weight
    for s, body in state.layout:
        if s >= 0:
            for cell in body:
                total *= factorial(len(cell))
        else:
            total *= factorial(len(body[0])) * factorial(box) ** len(body[0])
    return total


def automorphisms(grid: Grid) -> int:
    """How many arrangements map ``grid`` to itself (the identity included).

    Each arrangement is counted with the relabelling it forces on the digits
    present; digits absent from a puzzle are not permuted separately.

    >>> automorphisms(parse("0000" "0000" "0000" "0000"))
    128
    """
    _, states = _last_level(grid)
    return sum(_weight(state, grid.box) for state in states)


def equivalent(a: Grid, b: Grid) -> bool:
    """Whether some arrangement takes ``a`` to ``b``; stops at the first canonical row that differs.

    Two 9x9 grids are compared by their whole forms where the C search runs
    (:data:`FAST`): it writes all nine rows in less time than Python writes one.

    >>> a = parse("1200" "0000" "0000" "0001")
    >>> equivalent(a, random_transform(a, random.Random(7)))
    True
    """
    if a.box != b.box:
        return False
    if FAST and a.box == 3:
        return minlex(a) == minlex(b)
    return all(x == y for x, y in zip(canonical_rows(a), canonical_rows(b), strict=True))
