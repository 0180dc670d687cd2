"""The engine's tables: what it precomputes for one board, and the arithmetic rules of a
variant as it runs them (:class:`Check`).

A classic board of box size b has one :class:`Tables` (:func:`tables_of`, cached); a
variant builds its own from its units, peers and rules (:func:`variant_tables`).  The
engine (:mod:`lazyfun.sudoku.solving.engine`) only reads them, and runs a variant's
checks with :func:`run_check`: each narrows the candidates of its cells (a pair by arc
consistency, a sum by bounds, a cage by the value sets that fit).

Installed from source, this module is compiled with mypyc together with the engine
(see :mod:`lazyfun.compiled`).

>>> t = tables_of(3)
>>> t.size, len(t.units), len(t.peers[0])
(9, 27, 20)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Final, final

from lazyfun.sudoku.board import geometry

__all__ = ["CAGE", "PAIR", "SUM", "Check", "Tables", "run_check", "tables_of", "variant_tables"]

PAIR: Final = 0
SUM: Final = 1
CAGE: Final = 2


@final
class Check:
    """An arithmetic rule of a variant, as the engine runs it.

    * ``PAIR`` (two ``cells``, a and b): ``table[i]`` holds the values b may
      take when a holds value i+1, and ``table[N + i]`` those a may take when
      b holds i+1: a kropki dot, a greater-than sign, one step of a thermometer;
    * ``SUM``: ``sum(table[k] * value(cells[k])) == total``, filtered by
      bounds: an arrow is ``shaft - circle == 0``;
    * ``CAGE``: distinct values with a sum; ``table`` lists the value sets
      (as bits) that fit, and only those values stay (killer cages, read as
      solvers read them: by the combinations that make the sum).
    """

    __slots__ = ("cells", "kind", "table", "total")

    def __init__(
        self, kind: int, cells: tuple[int, ...], table: tuple[int, ...], total: int
    ) -> None:
        self.kind: Final = kind
        self.cells: Final = cells
        self.table: Final = table
        self.total: Final = total

    def __reduce__(self) -> tuple[type[Check], tuple[int, tuple[int, ...], tuple[int, ...], int]]:
        return Check, (self.kind, self.cells, self.table, self.total)

    def __repr__(self) -> str:
        return f"Check({self.kind}, {self.cells}, {self.table}, {self.total})"


@dataclass(frozen=True, slots=True)
class Tables:
    """Everything the engine precomputes for one board: the classic grid of a box
    size, or a variant's (:func:`variant_tables`)."""

    size: int
    full: int
    units: tuple[tuple[int, ...], ...]
    peers: tuple[tuple[int, ...], ...]
    # For each cell, its units as bits (bit k: units[k]).
    units_of: tuple[int, ...]
    # Box/line intersections (segments), for locked candidates: the cells of
    # each segment, and for each segment the indices of the other segments of
    # its line and of its box, and the cells of the rest of its line and box.
    segments: tuple[tuple[int, ...], ...]
    locks: tuple[
        tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...
    ]
    # Non-consecutive: for each cell, the cells whose values may not differ from
    # its own by one (empty when the rule is not in play).
    adjacent: tuple[tuple[int, ...], ...] = ()
    # Arithmetic rules; check k is woken by bit len(units) + k of units_of.
    checks: tuple[Check, ...] = ()


@cache
def tables_of(box: int) -> Tables:
    n = box * box
    all_units = geometry.units(box)
    lines = all_units[: 2 * n]
    segments = [line[k * box : (k + 1) * box] for line in lines for k in range(box)]
    box_of = {cell: i for i, u in enumerate(all_units[2 * n :]) for cell in u}
    locks = []
    for i, seg in enumerate(segments):
        line = lines[i // box]
        same_line = [j for j in range(len(segments)) if j != i and j // box == i // box]
        same_box = [
            j
            for j in range(len(segments))
            if j != i
            and (j < n * box) == (i < n * box)
            and box_of[segments[j][0]] == box_of[seg[0]]
        ]
        box_cells = all_units[2 * n + box_of[seg[0]]]
        locks.append(
            (
                i,
                tuple(same_line),
                tuple(same_box),
                tuple(c for c in line if c not in seg),
                tuple(c for c in box_cells if c not in seg),
            )
        )
    units_of = tuple(sum(1 << k for k in of) for of in geometry.units_of(box))
    return Tables(
        n, (1 << n) - 1, all_units, geometry.peers(box), units_of, tuple(segments), tuple(locks)
    )


def variant_tables(
    box: int,
    units: tuple[tuple[int, ...], ...],
    peers: tuple[tuple[int, ...], ...],
    adjacent: tuple[tuple[int, ...], ...] = (),
    boxes: bool = True,
    checks: tuple[Check, ...] = (),
) -> Tables:
    """The tables of a variant board: its ``units`` (each holds every value once),
    the extra ``peers`` of each cell beside its units' cells (anti-knight, ...),
    the ``adjacent`` cells of each cell for non-consecutive, and the arithmetic
    ``checks``.  ``boxes``: the classic boxes are among the units, so box-line
    locked candidates apply.
    """
    n = box * box
    cells = n * n
    of: list[int] = [0] * cells
    seen: list[set[int]] = [set(peers[c]) if peers else set() for c in range(cells)]
    for k, unit in enumerate(units):
        for cell in unit:
            of[cell] |= 1 << k
            seen[cell].update(unit)
    for k, check in enumerate(checks):
        for cell in check.cells:
            of[cell] |= 1 << (len(units) + k)
    classic = tables_of(box)
    return Tables(
        n,
        classic.full,
        units,
        tuple(tuple(sorted(s - {c})) for c, s in enumerate(seen)),
        tuple(of),
        classic.segments if boxes else (),
        classic.locks if boxes else (),
        adjacent,
        checks,
    )


# --- the checks, as the engine runs them ---------------------------------------------


def run_check(cands: list[int], queue: list[int], check: Check, t: Tables) -> int:
    """Run one arithmetic check: returns the units (and checks) that changed, as
    bits, or -1 when the rule cannot be kept."""
    if check.kind == PAIR:
        return _pair(cands, queue, check, t)
    if check.kind == SUM:
        return _sum(cands, queue, check, t)
    return _cage(cands, queue, check, t)


def _values(x: int, t: Tables) -> int:
    """A cell's values as bits, placed or not."""
    return x if x <= t.full else x >> t.size


def _narrow(cands: list[int], queue: list[int], cell: int, keep: int, t: Tables) -> int:
    """Keep only the values ``keep`` at ``cell``: the units that changed, as bits, or -1."""
    x = cands[cell]
    if x > t.full:
        return 0 if (x >> t.size) & keep else -1
    y = x & keep
    if y == x:
        return 0
    if not y:
        return -1
    cands[cell] = y
    if not y & (y - 1):
        queue.append(cell)
    return t.units_of[cell]


def _supported(x: int, table: tuple[int, ...], offset: int) -> int:
    """The values the other cell of a pair may take while this one holds one of ``x``."""
    allowed = 0
    while x:
        bit = x & -x
        x ^= bit
        allowed |= table[offset + bit.bit_length() - 1]
    return allowed


def _pair(cands: list[int], queue: list[int], check: Check, t: Tables) -> int:
    """``PAIR``: each cell keeps the values the other's values allow (arc consistency)."""
    a, b = check.cells[0], check.cells[1]
    forward = _narrow(cands, queue, b, _supported(_values(cands[a], t), check.table, 0), t)
    if forward < 0:
        return -1
    back = _narrow(cands, queue, a, _supported(_values(cands[b], t), check.table, t.size), t)
    if back < 0:
        return -1
    return forward | back


def _between(low: int, high: int, t: Tables) -> int:
    """The values ``low..high`` as bits (within 1..N)."""
    low, high = max(low, 1), min(high, t.size)
    if low > high:
        return 0
    return ((1 << high) - 1) & ~((1 << (low - 1)) - 1)


def _sum(cands: list[int], queue: list[int], check: Check, t: Tables) -> int:
    """``SUM``: each term keeps the values that the others' bounds leave room for."""
    cells, coefs = check.cells, check.table
    least = [0] * len(cells)
    most = [0] * len(cells)
    for k, cell in enumerate(cells):
        x = _values(cands[cell], t)
        low, high = coefs[k] * (x & -x).bit_length(), coefs[k] * x.bit_length()
        least[k], most[k] = min(low, high), max(low, high)
    floor, ceiling = sum(least), sum(most)
    dirty = 0
    for k, cell in enumerate(cells):
        low = check.total - (ceiling - most[k])
        high = check.total - (floor - least[k])
        a = coefs[k]
        if a > 0:
            keep = _between(-(-low // a), high // a, t)
        else:
            keep = _between(-(-high // a), low // a, t)
        changed = _narrow(cands, queue, cell, keep, t)
        if changed < 0:
            return -1
        dirty |= changed
    return dirty


def _cage(cands: list[int], queue: list[int], check: Check, t: Tables) -> int:
    """``CAGE``: only the values of the sets that fit stay; a value every fitting set
    needs, with one place left in the cage, goes there (a hidden single)."""
    placed = possible = 0
    for cell in check.cells:
        x = cands[cell]
        if x > t.full:
            placed |= x >> t.size
        possible |= _values(x, t)
    allowed, required = 0, t.full
    for digits in check.table:
        if digits & placed != placed or digits & ~possible:
            continue
        if all(_values(cands[cell], t) & digits for cell in check.cells):
            allowed |= digits
            required &= digits
    if not allowed:
        return -1
    dirty = 0
    for cell in check.cells:
        changed = _narrow(cands, queue, cell, allowed, t)
        if changed < 0:
            return -1
        dirty |= changed
    hidden = _hidden_in_cage(cands, queue, check.cells, required, t)
    return -1 if hidden < 0 else dirty | hidden


def _hidden_in_cage(
    cands: list[int], queue: list[int], cells: tuple[int, ...], required: int, t: Tables
) -> int:
    """Place each ``required`` value with one place left among ``cells``: the units
    that changed, as bits, or -1 (a required value with no place, or two in one cell)."""
    once = twice = 0
    for cell in cells:
        x = _values(cands[cell], t)
        twice |= once & x
        once |= x
    if required & ~once:
        return -1
    hidden = required & ~twice
    dirty = 0
    for cell in cells:
        x = cands[cell]
        h = x & hidden
        if x <= t.full and h and h != x:
            if h & (h - 1):
                return -1
            cands[cell] = h
            queue.append(cell)
            dirty |= t.units_of[cell]
    return dirty
