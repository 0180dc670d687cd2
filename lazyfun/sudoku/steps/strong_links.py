"""Sudoku Explainer's strong links of one value, plain and grouped: the turbot fish
family (skyscraper, 2-string kite, turbot fish) and its chains of three and four
links, as SE's StrongLinks rules find and rate them.

A *strong link* is a unit where the value has two places, or two *groups* of
places: at least one of the two holds it.  In a row or column the places may fill
two of its three box segments (a group is a segment's places); in a box they may
lie on one row and one column through a cell, the *heart* (one group a single
place, the other the rest with the heart), or on two rows (two columns): each
row's (column's) places are a group.  A chain joins ``L`` links with weak links
(the exit group of one and the entry of the next lie in one column, row or box),
no place used twice; its ends cannot both lack the value, so it leaves every cell
that sees all of both ends, outside the links' units and the weak links' own.  If
the ends lie in one unit too, the chain is a loop (an X-loop) and each weak link
strikes what sees both its groups.

SE rates the links of ``L`` = 2, 3, 4 from 4.0, 5.4, 5.8: +0.3 with any grouped
link; otherwise +0 for lines of one kind (the skyscrapers), +0.1 for rows and
columns, or boxes with lines of one kind, +0.2 for all three kinds.  Of the
chains of one ``L``, the one taken is the easiest, then the one that strikes
most (a loop's strikes counted once per weak link), then the least code (its
grouped links, then the kinds of its links read the shorter way round), then the
first found.  These are facts from reading SukakuExplainer's rules; the code is
ours.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations_with_replacement
from typing import NamedTuple

from lazyfun.sudoku.steps.techniques import Finder, Found, State

__all__ = ["BASES", "strong_links"]

# The base rating of a chain of L strong links.
BASES = {2: 4.0, 3: 5.4, 4: 5.8}
Group = tuple[int, ...]  # a node: cells, the first the one a chain is drawn through


class _Link(NamedTuple):
    kind: int  # 0 box, 1 row, 2 column
    unit: int  # its index in the state's units
    grouped: bool
    ends: tuple[Group, Group]
    places: frozenset[int]
    variant: int = 0  # which of a unit's links (a square's two readings)


class _Hint(NamedTuple):
    difficulty: float
    struck: int
    code: str
    found: Found


def _kind_units(s: State, kind: int) -> range:
    n = s.n
    return range(2 * n, 3 * n) if kind == 0 else range((kind - 1) * n, kind * n)


def _box_groups(box: tuple[int, ...], where: list[int]) -> list[tuple[Group, Group]]:
    """A box's grouped links: its places (positions 0-8) on the row and column of a
    heart cell whose corner (the rest of the box) is empty, or on two rows (columns)."""
    here = set(where)
    for heart in range(9):
        r, c = divmod(heart, 3)
        if not any(p // 3 != r and p % 3 != c for p in here):
            return _hearts(box, where, heart)
    if len(where) < 4:
        return []
    for across in (True, False):  # two rows (0 and 1, 0 and 2, 1 and 2), then two columns
        for lines in ((0, 1), (0, 2), (1, 2)):
            line_of = _row_in_box if across else _column_in_box
            if any(line_of(p) not in lines for p in where):
                continue
            first = tuple(box[p] for p in where if line_of(p) == lines[0])
            second = tuple(box[p] for p in where if line_of(p) == lines[1])
            if not first or not second:
                return []
            out = [(first, second)]
            if len(where) == 4 and _square(where):
                out.append(((first[0], second[0]), (first[1], second[1])))
            return out
    return []


def _hearts(box: tuple[int, ...], where: list[int], heart: int) -> list[tuple[Group, Group]]:
    """The link of a box's places on the row and column through ``heart``: a single
    place against the other blade with the heart (the row's single first), or, both
    blades of two, each blade (with the heart when it holds the value)."""
    r, c = divmod(heart, 3)
    column = [box[p] for p in where if p % 3 == c and p != heart]
    row = [box[p] for p in where if p // 3 == r and p != heart]
    if not column or not row:
        return []
    h = box[heart]
    if len(row) == 1:
        return [((row[0],), (column[0], h, *column[1:]))]
    if len(column) == 1:
        return [((column[0],), (row[0], h, *row[1:]))]
    if heart in where:
        return [((*column, h), (*row, h))]
    return [(tuple(column), tuple(row))]


def _row_in_box(p: int) -> int:
    return p // 3


def _column_in_box(p: int) -> int:
    return p % 3


def _square(where: list[int]) -> bool:
    """Whether four places of a box are the corners of a rectangle."""
    return len({p // 3 for p in where}) == 2 and len({p % 3 for p in where}) == 2


def _links(s: State, value: int, kind: int, unit: int, grouped: bool) -> list[_Link]:
    """The strong links of ``value`` in a unit: plain (two places; a box's two on one
    line are that line's link), or grouped (three to six places, on a 9x9 grid)."""
    cells = s.units[unit]
    places = s.where(cells, value)
    if len(places) == 2:
        a, b = places
        if kind == 0 and (a // s.n == b // s.n or a % s.n == b % s.n):
            return []
        return [_Link(kind, unit, False, ((a,), (b,)), frozenset(places))]
    if not grouped or not 3 <= len(places) <= 6:
        return []
    where = [cells.index(c) for c in places]
    groups = _box_groups(cells, where) if kind == 0 else _line_groups(cells, where)
    return [_Link(kind, unit, True, ends, frozenset(places), i) for i, ends in enumerate(groups)]


def _line_groups(line: tuple[int, ...], where: list[int]) -> list[tuple[Group, Group]]:
    """A line's grouped link: its places fill two of its three box segments."""
    for empty in range(3):
        if any(p // 3 == empty for p in where):
            continue
        first, second = (k for k in range(3) if k != empty)
        a = tuple(line[p] for p in where if p // 3 == first)
        b = tuple(line[p] for p in where if p // 3 == second)
        return [(a, b)] if a and b else []
    return []


def _shared(s: State, cells: Group) -> int | None:
    """The unit all of ``cells`` lie in, looked for as SE does: column, row, box."""
    units = _units_holding(s, cells)
    return units[0] if units else None


def _orders(count: int) -> Iterator[tuple[int, ...]]:
    """The orders of ``count`` links, each chain once (the one that reads no later
    than its reverse), in the order of the QuickPerm algorithm."""
    q = list(range(count))
    counters = list(range(count + 1))
    yield tuple(q)
    i = 1
    while i < count:
        counters[i] -= 1
        j = (i % 2) * counters[i]
        q[j], q[i] = q[i], q[j]
        if q <= q[::-1]:
            yield tuple(q)
        i = 1
        while counters[i] == 0:
            counters[i] = i
            i += 1


def _code(kinds: list[int], grouped: int) -> str:
    """SE's code of a chain: its grouped links, then the kinds of its links (0 box,
    1 line), read the shorter way round; rows and columns told apart (1, 2) when the
    chain has both, as the least of their two namings."""
    read = kinds if kinds <= kinds[::-1] else kinds[::-1]
    text = "".join(map(str, read))
    if 1 in read:
        swapped = "".join({1: "2", 2: "1"}.get(k, str(k)) for k in read)
        turned = min(swapped, swapped[::-1])
        return f"{grouped}{min(text, turned)}"
    return f"{grouped}{text.replace('2', '1')}"


def _rating(count: int, grouped: int, code: str) -> float:
    kinds = code[1:]
    if grouped:
        return BASES[count] + 0.3
    if "0" not in kinds and "2" not in kinds:
        return BASES[count]
    if "0" in kinds and "2" in kinds:
        return BASES[count] + 0.2
    return BASES[count] + 0.1


def _name(count: int, grouped: int, code: str, loop: bool) -> str:
    kinds = code[1:]
    prefix = "grouped " if grouped else ""
    if loop:
        return f"{prefix}X-loop of {count} strong links"
    if "0" not in kinds and "2" not in kinds:
        return prefix + ("skyscraper" if count == 2 else f"{count} skyscrapers")
    if "0" not in kinds and count < 4:
        return f"{prefix}{count}-string kite"
    if count == 2:
        return prefix + "turbot fish"
    return f"{prefix}{count} strong links"


class Graph(NamedTuple):
    """A value's strong links and how they join (see :func:`_graph`)."""

    links: list[_Link]
    next: dict[tuple[int, int], list[tuple[int, int]]]  # an end -> the ends it leads to
    units: dict[tuple[int, int], set[int]]  # an end -> the units holding all its cells
    seers: dict[tuple[int, int], frozenset[int]]  # an end -> the holders seeing all of it


def _graph(s: State, value: int) -> Graph:
    """The strong links of ``value`` and, from each link's end, the ends of the links
    with none of its places that lie in one unit with it (the weak links), in SE's
    order of links; kept on the state while the value's places stay, for the three rules."""
    plane = s.plane(value)
    memo = s.memo.get(("strong links", value))
    if memo is not None and memo[0] == plane:
        return memo[1]  # type: ignore[return-value]
    grouped = s.variant is None and s.n == 9 and s.box == 3
    links = [
        link
        for kind in (0, 1, 2)
        for unit in _kind_units(s, kind)
        for link in _links(s, value, kind, unit, grouped)
    ]
    ends = [(i, way) for i in range(len(links)) for way in (0, 1)]
    units = {(i, way): set(_units_holding(s, links[i].ends[way])) for i, way in ends}
    in_unit: dict[int, list[tuple[int, int]]] = {}
    for end in ends:
        for unit in units[end]:
            in_unit.setdefault(unit, []).append(end)
    following = {
        (i, way): sorted(
            {
                other
                for unit in units[(i, way)]
                for other in in_unit[unit]
                if links[i].places.isdisjoint(links[other[0]].places)
            }
        )
        for i, way in ends
    }
    held = frozenset(plane)
    seers = {
        (i, way): held.intersection(*(s.peers[c] for c in links[i].ends[way])) for i, way in ends
    }
    graph = Graph(links, following, units, seers)
    s.memo[("strong links", value)] = (plane, graph)
    return graph


def _units_holding(s: State, cells: Group) -> list[int]:
    """The units that hold all of ``cells``: its column, row, box (where they share one);
    kept on the state for every group asked about."""
    known = s.of_geometry("units holding", _no_groups)
    if cells not in known:
        known[cells] = _find_units_holding(s, cells)
    return known[cells]


def _no_groups(s: State) -> dict[Group, list[int]]:
    return {}


def _find_units_holding(s: State, cells: Group) -> list[int]:
    n = s.n
    out = []
    if len({c % n for c in cells}) == 1:
        out.append(n + cells[0] % n)
    if len({c // n for c in cells}) == 1:
        out.append(cells[0] // n)
    common = set(s.units_of[cells[0]]).intersection(*(s.units_of[c] for c in cells[1:]))
    return out + sorted(k for k in common if k in s.boxes)


def _colex(count: int) -> dict[tuple[int, ...], int]:
    """SE's order of the kinds of ``count`` links (0 box, 1 row, 2 column): the
    multisets, by their greatest kind, then the next (colex)."""
    kinds = sorted(combinations_with_replacement(range(3), count), key=lambda k: k[::-1])
    return {k: i for i, k in enumerate(kinds)}


def _perm_ranks(count: int) -> dict[tuple[int, ...], int]:
    """The orders of ``count`` links SE reads (each chain one way), by their place in
    its QuickPerm enumeration."""
    return {q: i for i, q in enumerate(_orders(count))}


class _Search:
    """The chains of ``count`` strong links of one value.  SE tries every set of links
    in every order; here chains grow link by link along weak links, and each keeps the
    place SE would meet it at (for ties)."""

    def __init__(self, s: State, count: int, value: int) -> None:
        self.s, self.count, self.value = s, count, value
        self.bit = 1 << (value - 1)
        self.links, self.next, self.units, self.seers = _graph(s, value)
        self.hints: list[tuple[_Hint, tuple[object, ...]]] = []

    def run(self) -> None:
        for i, link in enumerate(self.links):
            for way in (0, 1):
                self.grow([(i, way)], set(link.places))

    def grow(self, path: list[tuple[int, int]], used: set[int]) -> None:
        last, way = path[-1]
        final = len(path) + 1 == self.count
        start = self.units[path[0]], self.seers[path[0]]
        for j, into in self.next[(last, 1 - way)]:
            places = self.links[j].places
            if not used.isdisjoint(places):
                continue
            if not final:
                self.grow([*path, (j, into)], used | places)
            elif start[0].isdisjoint(self.units[(j, 1 - into)]):
                if not start[1].isdisjoint(self.seers[(j, 1 - into)]):
                    self.chain([*path, (j, into)], False)
            else:
                self.chain([*path, (j, into)], True)

    def chain(self, path: list[tuple[int, int]], loop: bool) -> None:
        """The hint of a chain whose ends lie in one unit (a ``loop``) or are both seen
        by a holder of the value."""
        s, count = self.s, self.count
        links = [self.links[i] for i, _ in path]
        way = [w for _, w in path]
        start = links[0].ends[way[0]]
        end = links[-1].ends[1 - way[-1]]
        chosen = sorted(i for i, _ in path)  # SE's set of links, in its order
        order = tuple(chosen.index(i) for i, _ in path)
        if order > order[::-1]:
            return  # SE reads this chain the other way round
        number = [self.links[i].kind * 10 + self.links[i].unit % s.n for i in chosen]
        if loop and (number[order[0]] != min(number) or way[0]):
            return
        bridges = []
        for k in range(count - 1):
            exit_, into = links[k].ends[1 - way[k]], links[k + 1].ends[way[k + 1]]
            unit = _shared(s, (*exit_, *into))
            assert unit is not None
            bridges.append((exit_, into, unit))
        grouped = sum(link.grouped for link in links)
        code = _code([link.kind for link in links], grouped)
        houses = {c for link in links for c in s.units[link.unit]}
        place = (
            COLEX[count][tuple(self.links[i].kind for i in chosen)],
            tuple((self.links[i].unit, self.links[i].variant) for i in chosen),
            PERMS[count][order],
            int("".join(map(str, way)), 2),
        )
        hint = self.offer(
            start, end, bridges, houses, loop, (_rating(count, grouped, code), code, grouped)
        )
        if hint is not None:
            self.hints.append((hint, place))

    def offer(
        self,
        start: Group,
        end: Group,
        bridges: list[tuple[Group, Group, int]],
        houses: set[int],
        loop: bool,
        rated: tuple[float, str, int],
    ) -> _Hint | None:
        s = self.s
        outside = set(houses)
        if not loop:
            outside |= {c for _, _, unit in bridges for c in s.units[unit]}
        struck = self.seeing((*start, *end), outside)
        gone = set(struck)
        total = len(struck)
        if loop:
            for exit_, into, _ in bridges:
                more = self.seeing((*exit_, *into), houses)
                gone |= set(more)
                total += len(more)
        if not gone:
            return None
        rating, code, grouped = rated
        nodes = [start[0], *(c for a, b, _ in bridges for c in (a[0], b[0])), end[0]]
        found = Found(
            eliminations=tuple((c, self.value) for c in sorted(gone)),
            cells=tuple(nodes),
            technique=_name(self.count, grouped, code, loop),
            rating=round(rating, 1),
        )
        return _Hint(rating, total, code, found)

    def seeing(self, cells: Group, outside: set[int]) -> list[int]:
        """The cells holding the value that see all of ``cells``, outside ``outside``."""
        s = self.s
        common = frozenset.intersection(*(s.peers[c] for c in cells))
        return [c for c in common if c not in outside and s.cands[c] & self.bit]


def _hints(s: State, count: int, value: int) -> list[tuple[_Hint, tuple[object, ...]]]:
    """The chains of ``count`` links of ``value`` that strike something.  They depend on
    the value's places alone, and a step changes the places of few values: they are
    kept on the state while the value's places stay."""
    plane = s.plane(value)
    memo = s.memo.get(("strong link hints", count * 64 + value))
    if memo is not None and memo[0] == plane:
        return memo[1]  # type: ignore[return-value]
    search = _Search(s, count, value)
    search.run()
    s.memo[("strong link hints", count * 64 + value)] = (plane, search.hints)
    return search.hints


COLEX = {count: _colex(count) for count in BASES}
PERMS = {count: _perm_ranks(count) for count in BASES}


def strong_links(count: int) -> Finder:
    """SE's StrongLinks rule of ``count`` links (see the module's docstring)."""

    def find(s: State) -> Found | None:
        best: tuple[tuple[float, int, str, tuple[object, ...]], Found] | None = None
        for value in range(1, s.n + 1):
            for hint, place in _hints(s, count, value):
                key = (hint.difficulty, -hint.struck, hint.code, (place[0], value, *place[1:]))
                if best is None or key < best[0]:
                    best = (key, hint.found)
        return None if best is None else best[1]

    return find
