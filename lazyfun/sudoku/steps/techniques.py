"""The techniques' finders: each looks at a state and returns what it deduces, or None.

A finder is a function ``State -> Found | None``: the placements and
eliminations a technique allows in the state, and the cells and units it
rests on.  It does not name the technique: the ladder
(:data:`lazyfun.sudoku.steps.deduction.LADDER`) pairs each finder with its name and
rating and tries them in order.  The state is the grid's placed values and the
candidates of its empty cells as bitsets (bit v-1 for value v).

>>> from lazyfun.sudoku import parse
>>> full_house(State(parse("123." "34.." "2..." "4..."), None)).placements
((3, 4),)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from copy import copy
from functools import cache
from itertools import combinations, count
from typing import NamedTuple, TypeVar, cast

from lazyfun.sudoku.board import geometry
from lazyfun.sudoku.board.geometry import unit_name
from lazyfun.sudoku.board.grid import Grid, check_givens
from lazyfun.sudoku.steps import engine
from lazyfun.sudoku.variants import Variant
from lazyfun.sudoku.variants.rule import values_of

__all__ = [
    "Finder",
    "Found",
    "Pair",
    "State",
    "claiming",
    "colex_pairs",
    "direct_claiming",
    "direct_hidden_subset",
    "direct_pointing",
    "fish",
    "full_house",
    "hidden_single_box",
    "hidden_single_line",
    "hidden_subset",
    "naked_single",
    "naked_subset",
    "pointing",
    "positions",
    "values_of",
    "wxyz_wing",
    "xy_wing",
    "xyz_wing",
]

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


# --- singles --------------------------------------------------------------------


def full_house(s: State) -> Found | None:
    for k, unit in enumerate(s.units):
        empty = [c for c in unit if not s.values[c]]
        if len(empty) == 1 and s.cands[empty[0]]:
            (value,) = s.missing(unit)
            if s.cands[empty[0]] >> (value - 1) & 1:
                return Found(
                    placements=((empty[0], value),), cells=(empty[0],), units=(s.names[k],)
                )
    return None


def _hidden_single(s: State, unit_range: Iterable[int]) -> Found | None:
    """The first unit's least value with one place.  Its candidates are read once, as
    bitsets: ``once`` the values met so far, ``twice`` those met again."""
    for k in unit_range:
        unit = s.units[k]
        once = twice = 0
        for c in unit:
            x = s.cands[c]
            twice |= once & x
            once |= x
        single = once & ~twice
        if single:
            bit = single & -single
            (cell,) = (c for c in unit if s.cands[c] & bit)
            value = bit.bit_length()
            return Found(placements=((cell, value),), cells=(cell,), units=(s.names[k],))
    return None


def hidden_single_box(s: State) -> Found | None:
    return _hidden_single(s, s.boxes)


def hidden_single_line(s: State) -> Found | None:
    return _hidden_single(s, s.lines())


def naked_single(s: State) -> Found | None:
    for cell, x in enumerate(s.cands):
        if x and not x & (x - 1):
            return Found(placements=((cell, x.bit_length()),), cells=(cell,))
    return None


Confinement = tuple[int, int, int, tuple[int, ...]]


def _confinements(s: State, boxes: bool) -> list[Confinement]:
    """Each value of a base unit ``k`` (a box, or a line) with two places or more, all of
    them in another unit ``j`` (the cover), as ``(k, j, value, places)``: the
    intersections that pointing and claiming read (the direct forms first, the others
    later on the same state: kept while the candidates stay)."""
    memo = s.memo.get(("confinements", boxes))
    if memo is None or memo[0] != s.cands:
        found = list(_confined_values(s, s.boxes if boxes else s.lines()))
        memo = (list(s.cands), found)
        s.memo[("confinements", boxes)] = memo
    return memo[1]  # type: ignore[return-value]


def _confined_values(s: State, bases: Iterable[int]) -> Iterator[Confinement]:
    for k in bases:
        yield from s.of_unit("confinements", k, _confined_in)


def _confined_in(s: State, k: int) -> list[Confinement]:
    """The confinements of base unit ``k``."""
    unit = s.units[k]
    found = []
    for value in s.missing(unit):
        places = s.where(unit, value)
        if len(places) < 2:
            continue
        for j in s.units_of[places[0]]:
            if j != k and all(j in s.units_of[c] for c in places):
                found.append((k, j, value, places))
    return found


# --- direct techniques: an intersection or hidden subset seen through a single ----


def _kind(s: State, k: int) -> int:
    """The kind of unit ``k``: rows, columns and boxes are three kinds; an extra unit of
    a variant (a diagonal, a window) is a kind of its own."""
    return k // s.n if k < 3 * s.n else k


def _direct_confined(s: State, boxes: bool, covers: frozenset[int]) -> Found | None:
    """Pointing or claiming read only for the single it leaves: a value confined, in a
    base unit, to its crossing with a cover unit is not elsewhere in the cover, so in
    another unit of the base's kind that crosses the cover (a box beside it for
    pointing, a parallel line for claiming) the value may have one place left outside
    the cover: it goes there.  Only the placement is the step (Sudoku Explainer's
    direct hints place the single and strike nothing)."""
    for k, j, value, places in _confinements(s, boxes):
        if j not in covers:
            continue
        unit = s.units[k]
        cover = set(s.units[j])
        kind = _kind(s, k)
        crossing = {
            o
            for c in s.where(s.units[j], value)
            if c not in unit
            for o in s.units_of[c]
            if o != k and _kind(s, o) == kind
        }
        for other in sorted(crossing):
            there = s.where(s.units[other], value)
            outside = [c for c in there if c not in cover]
            if len(there) > 1 and len(outside) == 1:
                return Found(
                    placements=((outside[0], value),),
                    cells=(*places, outside[0]),
                    units=(s.names[k], s.names[j], s.names[other]),
                )
    return None


def direct_pointing(s: State) -> Found | None:
    """Sudoku Explainer's Direct Pointing (1.7): a box's value confined to one line
    leaves a hidden single in another box on that line."""
    return _direct_confined(s, True, frozenset(s.lines()))


def direct_claiming(s: State) -> Found | None:
    """Sudoku Explainer's Direct Claiming (1.9): a line's value confined to one box
    leaves a hidden single in a parallel line through that box."""
    return _direct_confined(s, False, frozenset(s.boxes))


def direct_hidden_subset(size: int) -> Finder:
    """Sudoku Explainer's Direct Hidden Pair (2.0) and Direct Hidden Triplet (2.5):
    ``size`` values of a unit fit only ``size`` cells, so no other value goes there,
    and another value of the unit is left with one place: it goes there.  As in SE,
    the unit has more than ``size`` empty cells, each value of the subset at least two
    places, and only the placement is the step."""

    def in_unit(s: State, k: int) -> Found | None:
        unit = s.units[k]
        if sum(1 for c in unit if not s.values[c]) <= size:
            return None
        places = {v: s.where(unit, v) for v in s.missing(unit)}
        few = [v for v, where in places.items() if 1 < len(where) <= size]
        for values in combinations(few, size):
            cells = {c for v in values for c in places[v]}
            if len(cells) != size:
                continue
            for value, where in places.items():
                outside = [c for c in where if c not in cells]
                if value not in values and len(where) > 1 and len(outside) == 1:
                    return Found(
                        placements=((outside[0], value),),
                        cells=(*sorted(cells), outside[0]),
                        units=(s.names[k],),
                    )
        return None

    return _first_in_units(f"direct hidden subset {size}", in_unit)


# --- intersections --------------------------------------------------------------


def _confined(s: State, boxes: bool) -> Found | None:
    """A value whose places in a base unit all lie in one other unit (the cover) leaves
    the rest of the cover (pointing: a box into a line; claiming: a line into a box;
    in a variant, any unit into any other)."""
    for k, j, value, places in _confinements(s, boxes):
        unit = s.units[k]
        gone = tuple((c, value) for c in s.where(s.units[j], value) if c not in unit)
        if gone:
            return Found(eliminations=gone, cells=tuple(places), units=(s.names[k], s.names[j]))
    return None


def pointing(s: State) -> Found | None:
    return _confined(s, True)


def claiming(s: State) -> Found | None:
    return _confined(s, False)


# --- subsets --------------------------------------------------------------------


def _first_in_units(name: str, in_unit: Callable[[State, int], Found | None]) -> Finder:
    """The finder of the first unit where ``in_unit`` finds something, each unit's
    finding kept while the unit stays (:meth:`State.of_unit`)."""

    def find(s: State) -> Found | None:
        for k in range(len(s.units)):
            found = s.of_unit(name, k, in_unit)
            if found:
                return found
        return None

    return find


def naked_subset(size: int) -> Finder:
    def in_unit(s: State, k: int) -> Found | None:
        open_cells = [c for c in s.units[k] if s.cands[c]]
        small = [c for c in open_cells if s.cands[c].bit_count() <= size]
        for group in combinations(small, size):
            union = 0
            for c in group:
                union |= s.cands[c]
            if union.bit_count() != size:
                continue
            gone = tuple(
                (c, v) for c in open_cells if c not in group for v in values_of(s.cands[c] & union)
            )
            if gone:
                return Found(eliminations=gone, cells=group, units=(s.names[k],))
        return None

    return _first_in_units(f"naked subset {size}", in_unit)


def hidden_subset(size: int) -> Finder:
    def in_unit(s: State, k: int) -> Found | None:
        unit = s.units[k]
        places = {v: s.where(unit, v) for v in s.missing(unit)}
        few = [v for v, where in places.items() if 1 < len(where) <= size]
        for values in combinations(few, size):
            cells = sorted({c for v in values for c in places[v]})
            if len(cells) != size:
                continue
            keep = sum(1 << (v - 1) for v in values)
            gone = tuple((c, v) for c in cells for v in values_of(s.cands[c] & ~keep))
            if gone:
                return Found(eliminations=gone, cells=tuple(cells), units=(s.names[k],))
        return None

    return _first_in_units(f"hidden subset {size}", in_unit)


# --- fish -----------------------------------------------------------------------


def fish(size: int) -> Finder:
    """A value whose places in ``size`` base lines lie in ``size`` cover lines leaves
    the rest of the cover lines (rows as bases, then columns).  A value's fish depend
    on its places alone: they are kept while those stay."""

    def find(s: State) -> Found | None:
        for base_start in (0, s.n):
            for value in range(1, s.n + 1):
                plane = s.plane(value)
                key = ("fish", (size * 2 + (base_start > 0)) * 64 + value)
                kept = s.memo.get(key)
                if kept is None or kept[0] != plane:
                    kept = (plane, _fish(s, size, value, base_start))
                    s.memo[key] = kept
                if kept[1] is not None:
                    return kept[1]  # type: ignore[return-value]
        return None

    return find


def _fish(s: State, size: int, value: int, base_start: int) -> Found | None:
    """The first fish of ``value`` on ``size`` base lines from unit ``base_start`` on."""
    n = s.n
    cover_start = n - base_start
    lines = []  # each base line, its places, and the cover lines they lie on
    for k in range(base_start, base_start + n):
        where = s.where(s.units[k], value)
        if 2 <= len(where) <= size:
            lines.append((k, where, sum(1 << _cross(c, n, base_start) for c in where)))
    for group in combinations(lines, size):
        covers = 0
        for _, _, crossing in group:
            covers |= crossing
        if covers.bit_count() != size:
            continue
        base_cells = {c for _, where, _ in group for c in where}
        gone = tuple(
            (c, value)
            for j in range(n)
            if covers >> j & 1
            for c in s.where(s.units[cover_start + j], value)
            if c not in base_cells
        )
        if gone:
            names = tuple(s.names[k] for k, _, _ in group)
            return Found(eliminations=gone, cells=tuple(sorted(base_cells)), units=names)
    return None


def _cross(cell: int, n: int, base_start: int) -> int:
    """The index of the other line through a cell: its column for a row base."""
    return cell % n if base_start == 0 else cell // n


# --- wings ----------------------------------------------------------------------


def xy_wing(s: State) -> Found | None:
    pairs = [c for c, x in enumerate(s.cands) if x.bit_count() == 2]
    for pivot in pairs:
        ab = s.cands[pivot]
        wings = [c for c in pairs if c in s.peers[pivot] and (s.cands[c] & ab).bit_count() == 1]
        for one, two in combinations(wings, 2):
            x, y = s.cands[one], s.cands[two]
            if x & y & ab or (x & ab) == (y & ab):
                continue
            z = (x & y) & ~ab
            if z.bit_count() != 1:
                continue
            found = _wing(s, (pivot, one, two), (one, two), z)
            if found:
                return found
    return None


def xyz_wing(s: State) -> Found | None:
    for pivot, abc in enumerate(s.cands):
        if abc.bit_count() != 3:
            continue
        wings = [
            c for c in s.peers[pivot] if s.cands[c].bit_count() == 2 and s.cands[c] & ~abc == 0
        ]
        for one, two in combinations(wings, 2):
            z = s.cands[one] & s.cands[two]
            if z.bit_count() != 1 or s.cands[one] == s.cands[two]:
                continue
            found = _wing(s, (pivot, one, two), (pivot, one, two), z)
            if found:
                return found
    return None


def _wing(s: State, cells: tuple[int, ...], seen_by: tuple[int, ...], z: int) -> Found | None:
    value = z.bit_length()
    common = frozenset.intersection(*(s.peers[c] for c in seen_by)) - set(cells)
    gone = tuple((c, value) for c in sorted(common) if s.cands[c] & z)
    return Found(eliminations=gone, cells=cells) if gone else None


# --- the wings of Sudoku Explainer's newer rules: sets of cells that see one another


def _seeing(s: State, cells: Iterable[int], skip: Iterable[int], bit: int) -> list[int]:
    """The cells, but those of ``skip``, that see every one of ``cells`` and hold ``bit``."""
    common = frozenset.intersection(*(s.peers[c] for c in cells))
    return sorted(c for c in common - set(skip) if s.cands[c] & bit)


def wxyz_wing(middle: bool) -> Finder:
    """Sudoku Explainer's WXYZ-wing: three cells that see one another hold four values
    between them (an almost locked set), and a cell {x,z} sees every one of them that
    holds x.  One of the four cells holds z, so z leaves every cell that sees all those
    holding it.  When z is restricted too (doubly linked) x goes the same way, and each
    of the other two values leaves the cells that see all the set's cells holding it.
    SE rates it 5.5, or 5.6 when the set's biggest cell holds three values (``middle``);
    of those it finds, SE's first (see :func:`wing`) is taken."""

    def find(s: State) -> Found | None:
        return _wings(s, 3)[middle]

    return find


# Each wing's set size: its name, and its rating from the biggest cell's size.
WINGS: dict[int, tuple[str, Callable[[int], float]]] = {
    3: ("WXYZ-wing", lambda big: 5.5 + (1 - abs(3 - big)) * 0.1),
    4: ("VWXYZ-wing", lambda big: 6.2 + (2 - abs(3 - big)) * 0.1),
    5: ("UVWXYZ-wing", lambda big: 6.6),
    6: ("TUVWXYZ-wing", lambda big: 7.5),
}
# The sizes the C engine finds, and the Python search finds in one pass; the
# TUVWXYZ-wing's (six cells, tried only where no chain of one line is found) in another.
C_WINGS = (3, 4, 5, 6)
ONE_PASS = (3, 4, 5)


def wing(size: int) -> Finder:
    """Sudoku Explainer's wings of ``size`` + 2 values: ``size`` cells that see one another
    hold ``size`` + 1 values, and a cell {x,z} outside them, each of whose values they
    hold, sees every one of them that holds x (x is restricted).  So z leaves every cell
    that sees {x,z} and all the set's cells holding z; when z is restricted too, both
    go that way and each other value leaves the cells that see all its holders.  The
    VWXYZ-wing (four cells) rates 6.2 to 6.4 by its biggest cell, the UVWXYZ-wing (five)
    6.6.  Of those found SE takes the easiest, then the one that strikes most, then
    the greatest name (its code: linked once or twice, the biggest cell, the cells'
    candidates in all), then the first found."""

    def find(s: State) -> Found | None:
        return _wings(s, size)[None]

    return find


def _cliques(s: State, size: int) -> list[tuple[tuple[int, ...], int]]:
    """The sets of ``size`` cells of a unit, each of two values or more and ``size`` + 1
    between them, with their values, in the order SE finds them (cells rising).  Cells
    that see one another share a unit on the classic grid; a variant's sets of cells
    that see one another only through its extra peers are left out.  The sets of every
    wing's size up to five are found in one pass and kept while the candidates stay;
    the sets of six, wanted rarely, in a pass of their own."""
    sizes = ONE_PASS if size in ONE_PASS else (size,)
    memo = s.memo.get(("cliques", sizes[-1]))
    if memo is None or memo[0] != s.cands:
        memo = (list(s.cands), _all_cliques(s, sizes))
        s.memo[("cliques", sizes[-1])] = memo
    return memo[1][size]  # type: ignore[index, no-any-return]


def _all_cliques(s: State, sizes: tuple[int, ...]) -> dict[int, list[tuple[tuple[int, ...], int]]]:
    most = max(sizes) + 1
    found: dict[int, dict[tuple[int, ...], int]] = {size: {} for size in sizes}

    def grow(cells: tuple[int, ...], union: int, rest: list[int]) -> None:
        for i, c in enumerate(rest):
            joined = union | s.cands[c]
            values = joined.bit_count()
            if values > most:
                continue
            more = (*cells, c)
            if len(more) + 1 == values and len(more) in found:
                found[len(more)][more] = joined
            if len(more) < most - 1:
                grow(more, joined, rest[i + 1 :])

    for unit in s.units:
        open_cells = sorted(c for c in unit if s.cands[c].bit_count() > 1)
        for i, a in enumerate(open_cells):
            if s.cands[a].bit_count() <= most:
                grow((a,), s.cands[a], open_cells[i + 1 :])
    return {size: sorted(sets.items()) for size, sets in found.items()}


def _wings(s: State, size: int) -> dict[bool | None, Found | None]:
    """SE's first wing of ``size`` cells (see :func:`wing`), under None; and for the
    WXYZ-wing, the first of each class (whether the set's biggest cell holds three
    values), under False and True.  All found in one pass, kept while the candidates
    stay."""
    memo = s.memo.get(("wing", size))
    if memo is not None and memo[0] == s.cands:
        return memo[1]  # type: ignore[return-value]
    if engine.BUILT and s.variant is None and s.n <= engine.c.MAX_N and size in C_WINGS:
        found = _wings_in_c(s, size)
    else:
        found = _wings_search(s, size)
    s.memo[("wing", size)] = (list(s.cands), found)
    return found


def _wings_in_c(s: State, size: int) -> dict[bool | None, Found | None]:
    """:func:`_wings_search` by the C engine (on a classic grid)."""
    first, other, three = engine.c.wings(s.cands, s.n, s.units, size)
    return {
        key: Found(eliminations=chosen[2], cells=chosen[1], rating=chosen[0] / 10)
        if chosen
        else None
        for key, chosen in ((False, other), (True, three), (None, first))
    }


def _wings_search(s: State, size: int) -> dict[bool | None, Found | None]:
    """:func:`_wings`'s search, in Python."""
    rating = WINGS[size][1]
    best: dict[bool | None, tuple[float, int, str, tuple[int, ...], tuple[Pair, ...]]] = {}
    bivalue: dict[int, list[int]] = {}  # a pair of values -> the cells holding just those
    for c, x in enumerate(s.cands):
        if x.bit_count() == 2:
            bivalue.setdefault(x, []).append(c)
    within: dict[int, list[int]] = {}  # a set's values -> the cells of two of them, rising
    for cells, union in _cliques(s, size):
        if union not in within:
            within[union] = sorted(
                c for pair, holders in bivalue.items() if not pair & ~union for c in holders
            )
        pincers = [c for c in within[union] if c not in cells and not s.peers[c].isdisjoint(cells)]
        if not pincers:
            continue
        big = max(s.cands[c].bit_count() for c in cells)
        held = sum(s.cands[c].bit_count() for c in cells)
        holding = {v: [c for c in cells if s.cands[c] >> (v - 1) & 1] for v in values_of(union)}
        for yz in pincers:
            near = s.peers[yz]
            links = [v for v in values_of(s.cands[yz]) if all(t in near for t in holding[v])]
            if not links:
                continue
            gone, twice = _wing_eliminations(s, (*cells, yz), holding, links)
            if not gone:
                continue
            hint = (rating(big), len(gone), f"{2 if twice else 1}{big}{held}", (*cells, yz), gone)
            for key in (None, big == 3):
                if key not in best or _before(hint, best[key]):
                    best[key] = hint
    return {
        key: (
            Found(eliminations=chosen[4], cells=chosen[3], rating=round(chosen[0], 1))
            if (chosen := best.get(key))
            else None
        )
        for key in (False, True, None)
    }


def _before(
    hint: tuple[float, int, str, tuple[int, ...], tuple[Pair, ...]],
    other: tuple[float, int, str, tuple[int, ...], tuple[Pair, ...]],
) -> bool:
    """Whether SE sorts wing ``hint`` before ``other``: easier, then striking more, then
    the greater name; among equals the first found stays first."""
    if hint[0] != other[0]:
        return hint[0] < other[0]
    if hint[1] != other[1]:
        return hint[1] > other[1]
    return hint[2] > other[2]


def _wing_eliminations(
    s: State, skip: tuple[int, ...], holding: dict[int, list[int]], links: list[int]
) -> tuple[tuple[Pair, ...], bool]:
    """What a wing strikes: its cells and then yz (``skip``), the cells holding each
    value, and yz's values that are restricted (held only by cells that see yz); and
    whether SE names it doubly linked (both restricted, and the other values strike
    something or both of yz's go somewhere)."""
    yz = skip[-1]
    gone: set[Pair] = set()
    if len(links) == 2:  # doubly linked: both of yz's values, and the others
        for v in holding:
            seen = holding[v] + ([yz] if v in links else [])
            gone |= {(c, v) for c in _seeing(s, seen, skip, 1 << (v - 1))}
        others = any(v not in links for _, v in gone)
        both = all(any(v == w for _, v in gone) for w in links)
        return tuple(sorted(gone)), others or both
    (z,) = (v for v in values_of(s.cands[yz]) if v != links[0])
    gone |= {(c, z) for c in _seeing(s, [*holding[z], yz], skip, 1 << (z - 1))}
    return tuple(sorted(gone)), False


# --- chains ---------------------------------------------------------------------
