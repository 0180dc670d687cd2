"""Sudoku Explainer's techniques that assume the puzzle has one solution: unique
rectangles and loops, and the bivalue universal grave (BUG).

Both read a deadly pattern: candidates arranged so that, were they all that was
left, their values could be swapped and the puzzle would have two solutions.  A
puzzle with one solution never ends that way, so something outside the pattern
must hold.  They are sound only on puzzles with one solution (``rate`` checks
that first), and only on the classic grid: a variant's rules (a cage's sum, a
thermometer) may tell the swapped values apart, so the variant ladder leaves
them out.

- A **unique loop** is an even ring of cells, each holding both of two values
  v1 and v2, each step to the next in another kind of unit (box, row, column),
  every unit it touches holding two of its cells.  SE rates it by its length:
  4 cells (the *unique rectangle*) 4.5, 6 4.6, 8 4.7, 10 and more 5.0.

  - type 1: one cell holds more: v1 and v2 go from it;
  - type 2: the cells that hold more share one extra value x: x goes from every
    cell that sees them all;
  - type 3: two cells hold more and share a unit, where their extra values and
    the candidates of other cells make a naked set (rated 0.1 a value past two
    above the loop) or v1, v2 and other values fit only those cells with the two
    (a hidden set, 0.1 a value past three): the set's values go from the unit's
    other cells (hidden: the others go from the set's cells);
  - type 4: two cells hold more, and in a unit they share v1 has no other place:
    v2 goes from both (or the other way round).

  SE looks for loops from each cell of two candidates, box links first, then
  rows and columns, cells in the unit's order; of the hints found it takes the
  easiest, then the lowest type, then the first found.
- A **BUG** is a grid where every empty cell has two candidates and every value
  two places in each unit.  When one cell holds a third value (the BUG value:
  the one with three places in its units), that value is the cell's: its other
  candidates go (type 1, 5.6).

These are facts from reading SukakuExplainer's rules; the code is ours.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import NamedTuple

from lazyfun.sudoku.steps.techniques import Found, Pair, State, positions
from lazyfun.sudoku.variants.rule import values_of

__all__ = ["LOOP_RATINGS", "bug", "unique_loops"]

# A loop's rating by its length; 10 cells and more rate 5.0.
LOOP_RATINGS = {4: 4.5, 6: 4.6, 8: 4.7}


class _Hint(NamedTuple):
    difficulty: float
    kind: int  # the type, 1 to 4
    identity: tuple[object, ...]  # what SE compares to drop a hint found twice
    found: Found


def _regions(s: State) -> list[tuple[int, int, int]]:
    """Each cell's box, row and column (the kinds of unit a loop steps by, in SE's order),
    kept on the state."""
    return s.of_geometry("regions", _find_regions)


def _find_regions(s: State) -> list[tuple[int, int, int]]:
    n = s.n
    return [
        (next(k for k in s.units_of[cell] if k in s.boxes), cell // n, n + cell % n)
        for cell in range(len(s.cands))
    ]


def _loops(
    s: State, regions: list[tuple[int, int, int]], start: int, pair: int
) -> Iterator[list[int]]:
    """The loops from ``start`` (a cell of just the two values ``pair``), as SE's search
    meets them: each step to a cell holding both, by a box, row or column other than
    the last step's, a cell with more values let in only while the extra values along
    the way are one value or fewer than two such cells were taken.  A path whose even
    (or odd) cells share a unit is not followed: no loop through it is valid."""
    path = [start]
    touched: list[set[int]] = [set(regions[start]), set()]  # the units of even, odd cells

    def grow(last: int, extra: int, spare: int) -> Iterator[list[int]]:
        cell = path[-1]
        for kind in (0, 1, 2):
            if kind == last:
                continue
            for c in s.units[regions[cell][kind]]:
                if c == start and len(path) >= 4:
                    yield list(path)
                    continue
                bits = s.cands[c]
                if c in path or bits & pair != pair:
                    continue
                more = bits & ~pair
                joined = extra | more
                if more and joined.bit_count() != 1 and spare <= 0:
                    continue
                units = touched[len(path) % 2]
                if not units.isdisjoint(regions[c]):
                    continue
                units.update(regions[c])
                path.append(c)
                yield from grow(kind, joined, spare - 1 if more else spare)
                path.pop()
                units.difference_update(regions[c])

    yield from grow(-1, 0, 2)


def _loops_of(
    s: State, regions: list[tuple[int, int, int]], pair: int
) -> dict[int, list[list[int]]]:
    """The valid loops of ``pair`` from each cell of just its two values, as
    :func:`_loops` meets them.  They depend on the cells holding both values alone (and
    those cells' other values): kept on the state while those stay."""
    holders = tuple((c, x) for c, x in enumerate(s.cands) if x & pair == pair)
    kept = s.memo.get(("unique loops", pair))
    if kept is not None and kept[0] == holders:
        return kept[1]  # type: ignore[return-value]
    loops: dict[int, list[list[int]]] = {}
    if len(holders) >= 4:  # no loop has fewer than four cells
        for start, x in holders:
            if x == pair:
                found = [loop for loop in _loops(s, regions, start, pair) if _valid(regions, loop)]
                if found:
                    loops[start] = found
    s.memo[("unique loops", pair)] = (holders, loops)
    return loops


def _valid(regions: list[tuple[int, int, int]], loop: list[int]) -> bool:
    """Whether no two of the loop's even cells share a unit, nor two odd ones, and the
    even cells touch the units the odd ones do: every unit holds two of its cells."""
    touched: list[set[int]] = [set(), set()]
    for i, cell in enumerate(loop):
        units = set(regions[cell])
        if units & touched[i % 2]:
            return False
        touched[i % 2] |= units
    return touched[0] == touched[1]


def _seeing_all(s: State, cells: list[int], value: int) -> list[int]:
    """The cells holding ``value`` that see every one of ``cells`` (none of them)."""
    bit = 1 << (value - 1)
    common = frozenset.intersection(*(s.peers[c] for c in cells))
    return sorted(c for c in common if s.cands[c] & bit and c not in cells)


class _Loop:
    """One loop's hints, by its cells that hold more than the two values."""

    def __init__(
        self, s: State, regions: list[tuple[int, int, int]], loop: list[int], pair: int
    ) -> None:
        self.s, self.regions, self.loop, self.pair = s, regions, loop, pair
        self.base = LOOP_RATINGS.get(len(loop), 5.0)
        self.name = "unique rectangle" if len(loop) == 4 else f"unique loop {len(loop)}"
        self.extra = [c for c in loop if s.cands[c] & ~pair]
        self.extras = 0
        for c in self.extra:
            self.extras |= s.cands[c] & ~pair

    def hint(self, kind: int, gone: list[Pair], rating: float, more: object = ()) -> _Hint:
        found = Found(
            eliminations=tuple(sorted(gone)),
            cells=tuple(sorted(self.loop)),
            technique=f"{self.name} type {kind}",
            rating=round(rating, 1),
        )
        return _Hint(rating, kind, (kind, frozenset(self.loop), more), found)

    def hints(self) -> Iterator[_Hint]:
        s, extra = self.s, self.extra
        v1, v2 = values_of(self.pair)
        if len(extra) == 1:
            yield self.hint(1, [(extra[0], v1), (extra[0], v2)], self.base)
            return
        if len(extra) > 2 or (len(extra) == 2 and self.extras.bit_count() == 1):
            (x,) = values_of(self.extras)
            yield self.hint(2, [(c, x) for c in _seeing_all(s, extra, x)], self.base)
        elif len(extra) == 2:
            yield from self.type3()
        if len(extra) == 2:
            yield from self.type4(v1, v2)

    def shared_units(self) -> Iterator[int]:
        """The units (box, row, column) the two cells with more values share."""
        c1, c2 = self.extra
        for unit, other in zip(self.regions[c1], self.regions[c2], strict=True):
            if unit == other:
                yield unit

    def type3(self) -> Iterator[_Hint]:
        """Type 3: a naked set of the two cells' extra values and other cells of a unit
        they share, or a hidden set of v1, v2 and other values there; by the set's
        size, then the unit, naked before hidden."""
        for degree in range(2, 8):
            for unit in self.shared_units():
                empty = [c for c in self.s.units[unit] if self.s.cands[c]]
                if 2 * degree <= len(empty) and degree >= self.extras.bit_count():
                    yield from self.naked(unit, empty, degree)
                if 2 * degree < len(empty):
                    yield from self.hidden(unit, empty, degree)

    def naked(self, unit: int, empty: list[int], degree: int) -> Iterator[_Hint]:
        s, (c1, c2) = self.s, self.extra
        shared = self.extras & s.cands[c1] & s.cands[c2]
        others = [c for c in empty if c not in self.extra]
        # SE runs through the sets in colex order: by their last cell, then the one before
        for chosen in sorted(combinations(others, degree - 1), key=lambda t: t[::-1]):
            if any(s.cands[c].bit_count() < 2 for c in chosen):
                continue
            held = 0
            for c in chosen:
                held |= s.cands[c]
            together = self.extras | held
            if together.bit_count() != degree or (shared | held).bit_count() != degree:
                continue
            gone = [
                (c, v) for c in others if c not in chosen for v in values_of(s.cands[c] & together)
            ]
            if gone:
                more = (unit, together, frozenset(chosen), "naked")
                yield self.hint(3, gone, self.base + (degree - 1) * 0.1, more)

    def hidden(self, unit: int, empty: list[int], degree: int) -> Iterator[_Hint]:
        s, (c1, c2) = self.s, self.extra
        rest = [v for v in range(1, s.n + 1) if not (self.pair | self.extras) >> (v - 1) & 1]
        for chosen in combinations(rest, degree - 2):
            keep = self.pair | sum(1 << (v - 1) for v in chosen)
            places: set[int] = set()
            for v in values_of(keep):
                where = {c for c in empty if c != c2 and s.cands[c] >> (v - 1) & 1}
                if not where:
                    break
                places |= where
            else:
                if len(places) != degree:
                    continue
                gone = [
                    (c, v) for c in sorted(places - {c1, c2}) for v in values_of(s.cands[c] & ~keep)
                ]
                if gone:
                    more = (unit, keep, frozenset(places), "hidden")
                    yield self.hint(3, gone, self.base + (degree - 2) * 0.1, more)

    def type4(self, v1: int, v2: int) -> Iterator[_Hint]:
        """Type 4: in a unit the two cells share, a value has no other place: the other
        value goes from both (the last such unit, box, row, column, decides)."""
        c1, c2 = self.extra
        alone: dict[int, int] = {}
        for unit in self.shared_units():
            for v in (v1, v2):
                if set(self.s.where(self.s.units[unit], v)) == {c1, c2}:
                    alone[v] = unit
        for lock, other in ((v1, v2), (v2, v1)):
            if lock in alone:
                yield self.hint(4, [(c1, other), (c2, other)], self.base)
                return


def unique_loops(s: State) -> Found | None:
    """SE's unique rectangle or loop: of all found, the easiest, then the lowest type,
    then the first found (a loop is found once, from its first cell of two values)."""
    hints: list[_Hint] = []
    seen: set[tuple[object, ...]] = set()
    regions = _regions(s)
    pairs: dict[int, dict[int, list[list[int]]]] = {}  # a pair of values -> its loops
    met: set[tuple[frozenset[int], tuple[int, ...]]] = set()
    for start, bits in enumerate(s.cands):
        if bits.bit_count() != 2:
            continue
        if bits not in pairs:
            pairs[bits] = _loops_of(s, regions, bits)
        for loop in pairs[bits].get(start, ()):
            # met again from another cell or the other way round, a loop gives the same
            # hints when its cells of more values come in the same order
            key = (frozenset(loop), tuple(c for c in loop if s.cands[c] != bits))
            if key in met:
                continue
            met.add(key)
            for hint in _Loop(s, regions, loop, bits).hints():
                if hint.found.eliminations and hint.identity not in seen:
                    seen.add(hint.identity)
                    hints.append(hint)
    if not hints:
        return None
    return min(hints, key=lambda h: (h.difficulty, h.kind)).found


class _Grave:
    """A BUG as Sudoku Explainer reads it: the cells of three candidates or more that
    break it (in the order found: boxes, rows, columns), each with its extra values
    (those with neither none nor two places in one of its units, through it alone),
    and the cells that see them all."""

    def __init__(self, s: State) -> None:
        self.s = s
        self.cells: list[int] = []
        self.extra: dict[int, int] = {}  # a BUG cell -> its extra values
        self.values = 0  # every extra value, but those the one-value rule adds
        self.seeing = -1  # the cells that see every BUG cell, as bits (-1: no cell yet)
        self.left = list(s.cands)  # the candidates less the extra values

    def add(self, cell: int, value: int) -> None:
        if cell not in self.cells:
            self.cells.append(cell)
        self.extra[cell] = self.extra.get(cell, 0) | 1 << (value - 1)
        self.left[cell] &= ~(1 << (value - 1))
        self.seeing &= sum(1 << p for p in self.s.peers[cell])
        self.seeing &= ~sum(1 << c for c in self.cells)

    def holds(self) -> bool:
        """Whether the rest is a BUG: every open cell of two candidates, every value with
        none or two places in each unit."""
        s = self.s
        if any(bits and bits.bit_count() != 2 for bits in self.left):
            return False
        return all(
            sum(self.left[c] >> (value - 1) & 1 for c in unit) in (0, 2)
            for unit in s.units[: 3 * s.n]
            for value in range(1, s.n + 1)
        )


def _grave(s: State) -> _Grave | None:
    """The BUG cells of ``s``, or None where it is not a BUG but for them.  A value with
    neither none nor two places in a unit, each held by cells of two, ends it; one held
    by one big cell makes it a BUG cell; when every such value is one value, all its big
    cells are (SE's rule for a value that no unit pins to one cell)."""
    sizes = [x.bit_count() for x in s.cands]
    if 1 in sizes or max(sizes) < 3:
        return None
    grave = _Grave(s)
    regions = _regions(s)
    extra_cells: set[int] = set()
    only: int | None = None  # the one value of every anomaly so far (0: several)
    for kind in (0, 1, 2):
        for k in sorted({units[kind] for units in regions}):
            for value in range(1, s.n + 1):
                places = s.where(s.units[k], value)
                if len(places) in (0, 2):
                    continue
                big = [c for c in places if sizes[c] >= 3]
                if not big:
                    return None
                if only is None or only == value:
                    only = value
                    extra_cells.update(big)
                else:
                    only = 0
                if len(big) == 1:
                    grave.add(big[0], value)
                    grave.values |= 1 << (value - 1)
    if only:
        for cell in sorted(extra_cells - set(grave.cells)):
            grave.add(cell, only)
    return grave if grave.cells and grave.holds() else None


def bug(s: State) -> Found | None:
    """SE's BUG: every value has two places in each unit but for some cells of three
    candidates or more.  Type 1 (5.6): one such cell holds only its extra values.  Type
    2 (5.7): the cells share one extra value, which leaves every cell that sees them
    all.  Type 4 (5.7): two cells in a unit share one value u besides the extra ones:
    each keeps its extra values and u.  Type 3 (5.8 to 6.2): the cells and a naked set
    of the unit's other cells hold, between them, as many values as cells, the cells
    counted as one holding the extra values: those values leave the unit's other cells.
    SE tries type 1; else 2 then 4 (one extra value), or 4 then 3."""
    grave = _grave(s)
    if grave is None:
        return None
    if len(grave.cells) == 1:
        (cell,) = grave.cells
        gone = tuple((cell, v) for v in values_of(s.cands[cell] & ~grave.values))
        return Found(eliminations=gone, cells=(cell,)) if gone else None
    if grave.values.bit_count() == 1:
        return _bug_2(grave) or _bug_4(grave)
    if grave.seeing > 0:
        return _bug_4(grave) or _bug_3(grave)
    return None


def _bug_2(grave: _Grave) -> Found | None:
    s, (value,) = grave.s, values_of(grave.values)
    gone = tuple(
        (c, value) for c in positions(max(grave.seeing, 0)) if s.cands[c] >> (value - 1) & 1
    )
    if not gone:
        return None
    return Found(eliminations=gone, cells=tuple(grave.cells), technique="BUG type 2", rating=5.7)


def _bug_4(grave: _Grave) -> Found | None:
    s = grave.s
    if len(grave.cells) != 2:
        return None
    one, two = grave.cells
    shared = s.cands[one] & s.cands[two] & ~grave.values
    if shared.bit_count() != 1:
        return None
    regions = _regions(s)
    if not any(a == b for a, b in zip(regions[one], regions[two], strict=True)):
        return None
    gone = tuple(
        (c, v) for c in (one, two) for v in values_of(s.cands[c] & ~grave.extra[c] & ~shared)
    )
    if not gone:
        return None
    return Found(eliminations=gone, cells=(one, two), technique="BUG type 4", rating=5.7)


def _bug_3(grave: _Grave) -> Found | None:
    s = grave.s
    if grave.values.bit_count() < 2:  # SE counts the BUG cells as one cell of two or more
        return None
    regions = _regions(s)
    for size in range(2, 7):
        for kind in (0, 1, 2):
            unit = {regions[c][kind] for c in grave.cells}
            if len(unit) != 1:
                continue
            others = sorted(c for c in s.units[unit.pop()] if c not in grave.cells)
            if len(others) < size:
                continue
            for chosen in _colex(others, size - 1):
                held = 0
                for c in chosen:
                    held |= s.cands[c]
                if held.bit_count() != size or grave.values & ~held:
                    continue
                if any(s.cands[c].bit_count() < 2 for c in chosen):
                    continue
                gone = tuple(
                    (c, v) for c in others if c not in chosen for v in values_of(s.cands[c] & held)
                )
                if gone:
                    return Found(
                        eliminations=gone,
                        cells=(*grave.cells, *chosen),
                        technique="BUG type 3",
                        rating=round(5.7 + (size - 1) * 0.1, 1),
                    )
    return None


def _colex(cells: list[int], size: int) -> Iterator[tuple[int, ...]]:
    """The sets of ``size`` of ``cells`` in SE's order: by the last, then the one before."""
    return (tuple(chosen) for chosen in sorted(combinations(cells, size), key=lambda c: c[::-1]))
