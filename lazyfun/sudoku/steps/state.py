"""What a technique's finder reads and returns: the :class:`State` (the grid's placed
values and the candidates of its empty cells as bitsets, bit v-1 for value v, with what
the finders keep between calls) and :class:`Found` (the placements and eliminations a
technique allows, and the cells and units it rests on).  A :data:`Finder` is a function
``State -> Found | None``; the finders are in :mod:`lazyfun.sudoku.steps.techniques`
and the modules beside it.

>>> from lazyfun.sudoku import parse
>>> s = State(parse("123." "34.." "2..." "4..."), None)
>>> positions(s.cands[3])
[3]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from copy import copy
from functools import cache
from itertools import count
from typing import NamedTuple, TypeVar, cast

from lazyfun.sudoku.board import geometry
from lazyfun.sudoku.board.geometry import unit_name
from lazyfun.sudoku.board.grid import Grid, check_givens
from lazyfun.sudoku.variants import Variant
from lazyfun.sudoku.variants.rule import values_of

__all__ = ["Finder", "Found", "Pair", "State", "colex_pairs", "positions", "values_of"]

Pair = tuple[int, int]


def positions(bits: int) -> list[int]:
    """The places of a set held as bits (cells, a unit's positions), rising.

    >>> positions(0b10110)
    [1, 2, 4]
    """
    return [v - 1 for v in values_of(bits)]


def colex_pairs(count: int) -> Iterator[tuple[int, int]]:
    """The pairs of 0..count-1 in Sudoku Explainer's order: by the greater, then the
    lesser (colex).

    >>> list(colex_pairs(3))
    [(0, 1), (0, 2), (1, 2)]
    """
    for b in range(1, count):
        for a in range(b):
            yield a, b


class Found(NamedTuple):
    """What a technique's finder returns: the step without its name (the ladder names it)."""

    placements: tuple[Pair, ...] = ()
    eliminations: tuple[Pair, ...] = ()
    cells: tuple[int, ...] = ()
    units: tuple[str, ...] = ()
    # A technique whose steps differ in kind and rating (a chain's) names and rates
    # each step itself; empty and None otherwise (the ladder's name and rating).
    technique: str = ""
    rating: float | None = None


T = TypeVar("T")
# Stamps for the units' contents: each change of a unit's candidates takes the next.
_CLOCK = count(1)


class State:
    """Placed values and the candidates (bit v-1 for value v) of the empty cells.

    A state of a variant (:class:`~lazyfun.sudoku.variants.Variant`) takes the
    variant's units (the boxes or a jigsaw's regions, then its extra units),
    its peers (anti-knight, a cage's cells, ...) and its rules; its units are
    named as steps name them (``region 2``, ``diagonal 1``).  ``boxes`` are
    the indices of the boxes (or regions); every unit after them is an extra.
    """

    def __init__(
        self, grid: Grid | Variant, candidates: Mapping[int, Iterable[int]] | None
    ) -> None:
        if isinstance(grid, Variant):
            self.variant: Variant | None = grid
            tables = grid.tables
            self.units, self.names = tables.units, grid.unit_names
            self.peers = tuple(frozenset(p) for p in tables.peers)
            self.units_of = tuple(
                tuple(k for k in range(len(self.units)) if bits >> k & 1)
                for bits in tables.units_of
            )
            self.beside, self.rules = tables.adjacent, grid.rules
            grid = grid.grid
        else:
            check_givens(grid)
            self.variant = None
            self.units, self.peers = geometry.units(grid.box), geometry.peer_sets(grid.box)
            self.units_of = geometry.units_of(grid.box)
            self.names, self.beside, self.rules = _names(grid.size), (), ()
        self.box, self.n = grid.box, grid.size
        # what a finder keeps between calls, with the candidates it was found from
        self.memo: dict[tuple[str, int], tuple[object, object]] = {}
        # the places of a value in a unit (see where), until the candidates change
        self.places: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self.planes: dict[int, tuple[int, ...]] = {}  # the cells holding each value (see plane)
        self.boxes = range(2 * self.n, 3 * self.n)
        # each unit's stamp, a new one whenever its candidates or values change, and what
        # a finder found in a unit, with the stamp it was found at (see of_unit)
        self.stamps = [0] * len(self.units)
        self.unit_memo: dict[tuple[str, int], tuple[int, object]] = {}
        self.fixed: dict[str, object] = {}  # what the geometry alone gives (see of_geometry)
        self.values = list(grid.cells)
        full = (1 << self.n) - 1
        self.cands = [0 if v else full for v in self.values]
        for cell, v in enumerate(self.values):
            if v:
                self._clear_around(cell, v)
        for cell, marks in (candidates or {}).items():
            if self.values[cell]:
                continue
            self.cands[cell] &= sum(1 << (v - 1) for v in marks)

    def _clear_around(self, cell: int, value: int) -> None:
        """A placed value leaves its peers (and, non-consecutive, its neighbours' next values)."""
        for p in self.peers[cell]:
            self.cands[p] &= ~(1 << (value - 1))
        if self.beside:
            near = (1 << value | 1 << (value - 2)) if value > 1 else 1 << value
            for p in self.beside[cell]:
                self.cands[p] &= ~near

    def apply(self, placements: Iterable[Pair], eliminations: Iterable[Pair]) -> None:
        """Place values (clearing their peers' candidates) and strike candidates."""
        self.places, self.planes = {}, {}
        touched = set()
        for cell, value in placements:
            self.values[cell] = value
            self.cands[cell] = 0
            self._clear_around(cell, value)
            touched |= {cell, *self.peers[cell], *(self.beside[cell] if self.beside else ())}
        for cell, value in eliminations:
            self.cands[cell] &= ~(1 << (value - 1))
            touched.add(cell)
        stamp = next(_CLOCK)
        for cell in touched:
            for k in self.units_of[cell]:
                self.stamps[k] = stamp

    def solved(self) -> bool:
        return 0 not in self.values

    def fork(self) -> State:
        """A copy whose placing and striking leave this state as it is."""
        other = copy(self)
        other.values, other.cands, other.places = list(self.values), list(self.cands), {}
        other.planes = {}
        other.stamps = list(self.stamps)
        return other

    def struck(self, cands: list[int]) -> State:
        """A fork whose candidates are ``cands`` (a chain's copy of these, struck as it
        went), every unit stamped anew: nothing found on this state is kept for it."""
        other = self.fork()
        other.cands, other.memo, other.unit_memo = list(cands), {}, {}
        other.stamps = [next(_CLOCK)] * len(self.stamps)
        return other

    def of_unit(self, name: str, k: int, find: Callable[[State, int], T]) -> T:
        """``find(self, k)``, for a finding that reads only unit ``k``'s candidates and
        values: kept under ``name`` while they stay (a step changes few units, and the
        ladder asks every unit again after each step).  Stamps are never reused, so a
        fork's findings and its parent's do not mix."""
        kept = self.unit_memo.get((name, k))
        stamp = self.stamps[k]
        if kept is not None and kept[0] == stamp:
            return cast(T, kept[1])
        found = find(self, k)
        self.unit_memo[(name, k)] = (stamp, found)
        return found

    def of_geometry(self, name: str, make: Callable[[State], T]) -> T:
        """``make(self)``, for what the grid's units alone give: made once, under
        ``name``, for the state and its forks."""
        if name not in self.fixed:
            self.fixed[name] = make(self)
        return cast(T, self.fixed[name])

    def where(self, unit: tuple[int, ...], value: int) -> tuple[int, ...]:
        """The cells of ``unit`` that still have ``value``.  Every technique asks this
        again and again of the same state: the answer is kept until the candidates
        change (``apply``), by the unit's identity."""
        key = id(unit) * 64 + value
        kept = self.places.get(key)
        if kept is not None and kept[0] is unit:
            return kept[1]
        bit = 1 << (value - 1)
        places = tuple([c for c in unit if self.cands[c] & bit])
        self.places[key] = (unit, places)
        return places

    def plane(self, value: int) -> tuple[int, ...]:
        """The cells that hold ``value``: what a finder of one value reads, and so the key
        it keeps its findings by (kept until the candidates change)."""
        kept = self.planes.get(value)
        if kept is None:
            bit = 1 << (value - 1)
            kept = self.planes[value] = tuple([c for c, x in enumerate(self.cands) if x & bit])
        return kept

    def missing(self, unit: tuple[int, ...]) -> list[int]:
        """The values not yet placed in a unit."""
        placed = {self.values[c] for c in unit}
        return [v for v in range(1, self.n + 1) if v not in placed]

    def lines(self) -> Iterator[int]:
        """The indices of the rows, the columns and the extra units (all but the boxes)."""
        yield from range(2 * self.n)
        yield from range(3 * self.n, len(self.units))


@cache
def _names(n: int) -> tuple[str, ...]:
    return tuple(unit_name(k, n) for k in range(3 * n))


Finder = Callable[[State], Found | None]
