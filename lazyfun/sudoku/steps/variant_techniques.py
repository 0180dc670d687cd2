"""Steps a variant's setters take beyond a rule read alone: the 45 rule and cages'
locked values.

- **The 45 rule** (killer): a union of whole units (rows, columns, boxes or regions,
  a diagonal, a window) that share no cell holds each value once a unit, so its
  values add up to ``k * (1 + ... + N)``.  The cages wholly inside add up to their
  totals; what is left is the **innies** (the union's cells outside those cages),
  and their sum is known.  Counting a cage that sticks out as a whole instead, its
  cells outside the union (the **outies**) come in with a minus sign.  Each such
  equation (``innies - outies = total``) strikes the candidates that no way of
  making it keeps (cells that see each other holding different values): a one-cell
  innie is a placement.  Named ``innie`` (only innies), ``outie`` (only outies) and
  ``45 rule`` (both: the innie-outie difference).
- **Cage pointing** (killer): a value that every combination still open to a cage
  contains is in the cage; it leaves every cell outside the cage that sees all the
  cage's cells that could hold it (pointing, with a cage for the box).

>>> from lazyfun.sudoku import parse
>>> from lazyfun.sudoku.variants import Cage, Variant
>>> rows = [Cage(cells=(c, c + 1), total=3 if c == 0 else 7) for c in (0, 4, 8, 12)]
>>> print(innie(State(Variant(parse("." * 16), tuple(rows[:1] + rows[2:])), None)))
None
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import combinations
from typing import NamedTuple

from lazyfun.sudoku.steps.techniques import Finder, Found, State, values_of
from lazyfun.sudoku.variants.sums import Cage, sets_making

__all__ = ["Equation", "cage_pointing", "equations", "innie", "outie", "rule_45"]

MOST_CELLS = 6  # an equation with more open cells than this strikes too little to try


class Equation(NamedTuple):
    """``sum(innies) - sum(outies) == total``, read off the 45 rule on ``units``."""

    innies: tuple[int, ...]
    outies: tuple[int, ...]
    total: int
    units: tuple[str, ...]


def _unions(s: State) -> list[tuple[int, ...]]:
    """Unions of whole units that share no cell, as indices into the state's units:
    runs of adjacent rows, runs of adjacent columns, one to three boxes (or regions),
    and each other whole unit (a diagonal, a window) alone."""
    n = s.n
    whole = [k for k, unit in enumerate(s.units) if len(unit) == n]
    unions: list[tuple[int, ...]] = []
    for start in (0, n):
        for k in range(1, n):
            unions += [tuple(range(start + i, start + i + k)) for i in range(n - k + 1)]
    boxes = [k for k in s.boxes]
    for k in (1, 2, 3):
        unions += list(combinations(boxes, k))
    unions += [(k,) for k in whole if k >= 3 * n]
    return unions


@cache
def _equations(
    units: tuple[tuple[int, ...], ...],
    names: tuple[str, ...],
    unions: tuple[tuple[int, ...], ...],
    cages: tuple[tuple[tuple[int, ...], int], ...],
    n: int,
) -> tuple[Equation, ...]:
    whole = n * (n + 1) // 2
    found: dict[tuple[tuple[int, ...], tuple[int, ...]], Equation] = {}
    for union in unions:
        inside = frozenset(c for k in union for c in units[k])
        within = [(cells, t) for cells, t in cages if inside.issuperset(cells)]
        crossing = [(cells, t) for cells, t in cages if not inside.isdisjoint(cells)]
        crossing = [(cells, t) for cells, t in crossing if not inside.issuperset(cells)]
        total = whole * len(union) - sum(t for _, t in within)
        innies = inside.difference(*(cells for cells, _ in within))
        # Count as whole: none, all, each alone, all but each, those mostly inside.
        counted = [(), tuple(crossing)]
        counted += [(cage,) for cage in crossing]
        counted += [tuple(c for c in crossing if c != cage) for cage in crossing]
        counted.append(tuple(c for c in crossing if 2 * len(inside & set(c[0])) > len(c[0])))
        for whole_cages in counted:
            plus = tuple(sorted(innies.difference(*(cells for cells, _ in whole_cages))))
            minus = tuple(sorted({c for cells, _ in whole_cages for c in cells} - inside))
            if not plus and not minus or len(plus) + len(minus) > 2 * MOST_CELLS:
                continue
            made = total - sum(t for _, t in whole_cages)
            named = tuple(names[k] for k in union)
            key = (plus, minus)
            if key not in found or len(found[key].units) > len(named):
                found[key] = Equation(plus, minus, made, named)
    return tuple(sorted(found.values(), key=lambda e: (len(e.innies) + len(e.outies), e)))


def equations(s: State) -> tuple[Equation, ...]:
    """Every equation the 45 rule gives on the state's board and killer cages, fewest
    cells first (built once a board)."""
    cages = tuple(
        (r.cells, r.total) for r in s.rules if isinstance(r, Cage) and r.total is not None
    )
    if not cages:
        return ()
    return _equations(s.units, s.names, tuple(_unions(s)), cages, s.n)


def _struck(s: State, e: Equation) -> Found | None:
    """What one equation strikes (or, one open innie left, places) in the state."""
    total = e.total - sum(s.values[c] for c in e.innies) + sum(s.values[c] for c in e.outies)
    plus = [c for c in e.innies if not s.values[c]]
    minus = [c for c in e.outies if not s.values[c]]
    if not plus and not minus or len(plus) + len(minus) > MOST_CELLS:
        return None
    cells = (*plus, *minus)
    sees = tuple(
        sum(1 << j for j, d in enumerate(cells) if d in s.peers[c]) for c in cells
    )
    domains = tuple(s.cands[c] for c in cells)
    keep = support(len(plus), total, domains, sees)
    if len(cells) == 1 and keep[0]:
        (cell,) = cells
        value = keep[0].bit_length()
        if keep[0] == 1 << (value - 1) and s.cands[cell] != keep[0]:
            return Found(placements=((cell, value),), cells=cells, units=e.units)
    gone = tuple(
        (c, v) for c, k in zip(cells, keep, strict=True) for v in values_of(s.cands[c] & ~k)
    )
    return Found(eliminations=gone, cells=cells, units=e.units) if gone else None


@lru_cache(maxsize=1 << 16)
def support(plus: int, total: int, domains: tuple[int, ...], sees: tuple[int, ...]) -> list[int]:
    """For ``x_0 + ... + x_(plus-1) - x_plus - ... == total`` over cells whose values
    lie in ``domains`` (bitsets), cells ``i`` and ``j`` holding different values when
    bit ``j`` of ``sees[i]`` is set: the values of each cell some solution gives it.

    >>> support(2, 4, (0b111, 0b111), (0b10, 0b01))  # a + b = 4, a != b: 1 + 3
    [5, 5]
    """
    size = len(domains)
    signs = [1 if i < plus else -1 for i in range(size)]
    values = [values_of(d) for d in domains]
    kept = [0] * size
    chosen = [0] * size
    low = [0] * (size + 1)  # the least and most the cells from i on (in order) add
    high = [0] * (size + 1)

    def fill(i: int, made: int, order: list[int]) -> bool:
        """Whether the cells from ``order[i]`` on can make the rest of the total."""
        if i == size:
            for j in range(size):
                kept[j] |= 1 << (chosen[j] - 1)
            return True
        cell = order[i]
        for v in values[cell]:
            now = made + signs[cell] * v
            if not low[i + 1] <= total - now <= high[i + 1]:
                continue
            if any(chosen[j] == v for j in range(size) if sees[cell] >> j & 1):
                continue
            chosen[cell] = v
            done = fill(i + 1, now, order)
            chosen[cell] = 0
            if done:
                return True
        return False

    for first in range(size):
        order = [first] + [j for j in range(size) if j != first]
        for i in range(size - 1, -1, -1):
            ends = [signs[order[i]] * v for v in values[order[i]]] or [0]
            low[i], high[i] = low[i + 1] + min(ends), high[i + 1] + max(ends)
        for v in values[first]:
            if kept[first] >> (v - 1) & 1:
                continue
            now = signs[first] * v
            if low[1] <= total - now <= high[1]:
                chosen[first] = v
                fill(1, now, order)
                chosen[first] = 0
    return kept


def _rule_45(innies: bool, outies: bool) -> Finder:
    def find(s: State) -> Found | None:
        for e in equations(s):
            if bool(e.innies) == innies and bool(e.outies) == outies:
                found = _struck(s, e)
                if found is not None:
                    return found
        return None

    return find


innie = _rule_45(True, False)
innie.__doc__ = """The 45 rule's innies: the cells of a union of whole units outside the
cages wholly inside it add up to what those cages leave of the union's sum."""
outie = _rule_45(False, True)
outie.__doc__ = """The 45 rule's outies: the cells of the cages crossing a union of
whole units that lie outside it add up to what those cages' totals exceed the union's
sum by (the union being wholly covered by cages)."""
rule_45 = _rule_45(True, True)
rule_45.__doc__ = """The 45 rule with innies and outies: the innies' sum less the
outies' is known (the innie-outie difference)."""


def _open_sets(cells: tuple[int, ...], domains: list[int], sets: tuple[int, ...]) -> list[int]:
    """The value sets a cage can still take: those its cells can share out, one each."""
    layers = [{0}]
    for domain in domains:
        layers.append({u | 1 << (v - 1) for u in layers[-1] for v in values_of(domain & ~u)})
    return [s for s in sets if s in layers[-1]]


@cache
def _sets(total: int, size: int, n: int) -> tuple[int, ...]:
    return sets_making(total, size, n)


def cage_pointing(s: State) -> Found | None:
    """A value every combination still open to a cage contains is in the cage: it
    leaves each cell outside the cage that sees every cell of the cage that could hold
    it (and a row, column or box holding them all, by the same token)."""
    for rule in s.rules:
        if not isinstance(rule, Cage) or rule.total is None:
            continue
        cells = rule.cells
        if all(s.values[c] for c in cells):
            continue
        domains = [1 << (s.values[c] - 1) if s.values[c] else s.cands[c] for c in cells]
        open_sets = _open_sets(cells, domains, _sets(rule.total, len(cells), s.n))
        if not open_sets:
            continue
        must = (1 << s.n) - 1
        for bits in open_sets:
            must &= bits
        for value in values_of(must):
            bit = 1 << (value - 1)
            places = [c for c in cells if not s.values[c] and s.cands[c] & bit]
            if not places or any(s.values[c] == value for c in cells):
                continue
            seen = frozenset.intersection(*(s.peers[c] for c in places)) - set(cells)
            gone = tuple((c, value) for c in sorted(seen) if s.cands[c] & bit)
            if gone:
                units = [rule.label(s.n)]
                units += [
                    s.names[k]
                    for k in s.units_of[places[0]]
                    if all(c in s.units[k] for c in places)
                ]
                return Found(eliminations=gone, cells=tuple(places), units=tuple(units[:2]))
    return None
