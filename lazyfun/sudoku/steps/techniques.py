"""The techniques' finders: each looks at a state and returns what it deduces, or None.

A finder is a function ``State -> Found | None``: the placements and
eliminations a technique allows in the state, and the cells and units it
rests on.  It does not name the technique: the ladder
(:data:`lazyfun.sudoku.steps.deduction.LADDER`) pairs each finder with its name and
rating and tries them in order.  The state is the grid's placed values and the
candidates of its empty cells as bitsets (bit v-1 for value v).

Here are the singles, the intersections, the subsets and the fish; the state and
``Found`` are in :mod:`~lazyfun.sudoku.steps.state`, the wings in
:mod:`~lazyfun.sudoku.steps.wings` (both names also importable from here, as before).

>>> from lazyfun.sudoku import parse
>>> full_house(State(parse("123." "34.." "2..." "4..."), None)).placements
((3, 4),)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import combinations

from lazyfun.sudoku.steps.state import (
    Finder,
    Found,
    Pair,
    State,
    colex_pairs,
    positions,
    values_of,
)
from lazyfun.sudoku.steps.wings import wxyz_wing, xy_wing, xyz_wing

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
