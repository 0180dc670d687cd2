"""The wings' finders: the XY- and XYZ-wings, and the wings of Sudoku Explainer's
newer rules (WXYZ to TUVWXYZ), sets of cells that see one another and a pincer.  On a
classic grid the C engine (:mod:`lazyfun.sudoku.steps.engine`) finds the newer rules'
wings, with the same answers as the Python search here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import combinations

from lazyfun.sudoku.steps import engine
from lazyfun.sudoku.steps.state import Finder, Found, Pair, State, values_of

__all__ = ["C_WINGS", "WINGS", "wing", "wxyz_wing", "xy_wing", "xyz_wing"]


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
