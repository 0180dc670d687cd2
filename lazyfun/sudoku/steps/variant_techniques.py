"""Steps a variant's setters take beyond a rule read alone: the 45 rule, cages'
locked values, and forcing chains.

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
>>> cage = Cage(cells=(0, 1, 2), total=6)  # row 1 of a 4x4 adds up to 10
>>> found = innie(State(Variant(parse("." * 16), (cage,)), None))
>>> found.placements, found.cells, found.units
(((3, 4),), (3,), ('row 1',))

Beyond them, the forcing chains over a variant's units, peers and rules, tried before
a guess: **nishio** (a value whose consequences run into a contradiction goes) and the
**cell forcing chain** (what every value of a cell forces holds).
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import combinations
from typing import NamedTuple

from lazyfun.sudoku.steps import rule_techniques
from lazyfun.sudoku.steps.techniques import Finder, Found, Pair, State, values_of
from lazyfun.sudoku.variants.sums import Cage, sets_making

__all__ = [
    "Equation",
    "cage_pointing",
    "cell_forcing_chain",
    "equations",
    "innie",
    "nishio",
    "outie",
    "rule_45",
    "support",
    "unit_forcing_chain",
]

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
            if (not plus and not minus) or len(plus) + len(minus) > 2 * MOST_CELLS:
                continue
            made = total - sum(t for _, t in whole_cages)
            named = tuple(names[k] for k in union)
            key = (plus, minus)
            if key not in found or len(found[key].units) > len(named):
                found[key] = Equation(plus, minus, made, named)
    return tuple(sorted(found.values(), key=lambda e: (len(e.innies) + len(e.outies), e)))


def equations(s: State) -> tuple[Equation, ...]:
    """Every equation the 45 rule gives on the state's board and killer cages (those
    that overlap no other cage), fewest cells first (built once a board)."""
    summed = [(r.cells, r.total) for r in s.rules if isinstance(r, Cage) and r.total is not None]
    # Cages that overlap another would count a cell twice: only the others take part.
    count = [0] * (s.n * s.n)
    for cells, _ in summed:
        for c in cells:
            count[c] += 1
    cages = tuple((cells, t) for cells, t in summed if all(count[c] == 1 for c in cells))
    if not cages:
        return ()
    return _equations(s.units, s.names, tuple(_unions(s)), cages, s.n)


def _struck(s: State, e: Equation) -> Found | None:
    """What one equation strikes (or, one open innie left, places) in the state."""
    total = e.total - sum(s.values[c] for c in e.innies) + sum(s.values[c] for c in e.outies)
    plus = [c for c in e.innies if not s.values[c]]
    minus = [c for c in e.outies if not s.values[c]]
    if (not plus and not minus) or len(plus) + len(minus) > MOST_CELLS:
        return None
    cells = (*plus, *minus)
    sees = tuple(sum(1 << j for j, d in enumerate(cells) if d in s.peers[c]) for c in cells)
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


def _bounds(order: list[int], terms: list[list[int]], low: list[int], high: list[int]) -> None:
    """``low[i]``, ``high[i]``: the least and most the cells ``order[i:]`` add."""
    for i in range(len(order) - 1, -1, -1):
        ends = terms[order[i]] or [0]
        low[i], high[i] = low[i + 1] + min(ends), high[i + 1] + max(ends)


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
        _bounds(order, [[signs[j] * v for v in values[j]] for j in range(size)], low, high)
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


# --- forcing chains ----------------------------------------------------------------


Assumed = tuple[State, int | None]
_assumed: dict[tuple[object, ...], dict[Pair, Assumed]] = {}


def _assume(s: State, cell: int, value: int) -> Assumed:
    """:func:`_follow`, remembered for the last state asked about (the chains all
    follow the same assumptions from one state: its rules, values and candidates)."""
    key = (s.rules, s.n, *s.values, *s.cands)
    known = _assumed.get(key)
    if known is None:
        _assumed.clear()
        known = _assumed[key] = {}
    if (cell, value) not in known:
        known[cell, value] = _follow(s, cell, value)
    return known[cell, value]


def _singles(t: State) -> list[Pair] | int:
    """The naked and hidden singles of a state (over its units), or where it has run
    into a contradiction: a cell with no candidate, or ``-1 - k`` for a unit ``k``
    with a value nowhere."""
    placed: list[Pair] = []
    values, cands = t.values, t.cands
    for c, x in enumerate(cands):
        if not values[c]:
            if not x:
                return c
            if not x & (x - 1):
                placed.append((c, x.bit_length()))
    full = (1 << t.n) - 1
    for k, unit in enumerate(t.units):
        once = twice = held = 0
        for c in unit:
            x = cands[c]
            twice |= once & x
            once |= x
            if values[c]:
                held |= 1 << (values[c] - 1)
        if (once | held) != full:
            return -1 - k
        single = once & ~twice & ~held
        while single:
            bit = single & -single
            single ^= bit
            placed += [(c, bit.bit_length()) for c in unit if cands[c] & bit]
    return placed


def _follow(s: State, cell: int, value: int) -> Assumed:
    """The state after placing ``value`` in ``cell`` and following what it forces as
    far as it goes: singles (naked and hidden, over the variant's units and peers) and
    the rules' own strikes; and the cell or unit (``-1 - k`` for unit ``k``; past the
    units: a rule) where they run into a contradiction (None if they don't)."""
    t = s.fork()
    struck_at = list(s.cands)  # the candidates the rules last struck from
    t.apply(((cell, value),), ())
    while True:
        placed = _singles(t)
        if isinstance(placed, int):
            return t, placed
        if not placed:
            changed = {c for c, x in enumerate(t.cands) if x != struck_at[c]}
            struck_at = list(t.cands)
            struck = rule_techniques.strikes(t, changed) if t.rules else ()
            if not struck:
                return t, None
            t.apply((), struck)
            continue
        seen: dict[int, int] = {}
        for c, v in placed:
            if seen.setdefault(c, v) != v:
                return t, c
        t.apply(seen.items(), ())
        now = tuple(t.values)
        if any(rule.broken(now, t.n) for rule in t.rules):
            return t, -1 - len(t.units)


def _candidates(s: State) -> list[tuple[int, int]]:
    """The open candidates, those of cells with fewest candidates first."""
    cells = sorted((c for c, x in enumerate(s.cands) if x), key=lambda c: s.cands[c].bit_count())
    return [(c, v) for c in cells for v in values_of(s.cands[c])]


def nishio(s: State) -> Found | None:
    """Nishio (a contradiction chain): placing a value and following what it forces
    (singles, and the rules' own strikes) leaves a cell with no value, or a unit with a
    value nowhere: the value goes (every such value of the grid at once)."""
    gone = [
        (cell, value) for cell, value in _candidates(s) if _assume(s, cell, value)[1] is not None
    ]
    if not gone:
        return None
    return Found(eliminations=tuple(sorted(gone)), cells=tuple(sorted({c for c, _ in gone})))


def _common(s: State, branches: list[Pair]) -> Found | None:
    """What holds whichever of ``branches`` (one of them holds) does: a value every
    branch places in another cell, or the candidates no branch keeps."""
    common_values: list[int] | None = None
    common_cands: list[int] = []
    for cell, value in branches:
        t, broken = _assume(s, cell, value)
        if broken is not None:
            continue  # this branch cannot hold: the others decide
        held = [x | (1 << (v - 1) if v else 0) for x, v in zip(t.cands, t.values, strict=True)]
        if common_values is None:
            common_values, common_cands = list(t.values), held
            continue
        for c, v in enumerate(t.values):
            if common_values[c] != v:
                common_values[c] = 0
            common_cands[c] |= held[c]
    if common_values is None:
        return None
    starts = tuple(sorted({c for c, _ in branches}))
    placed = [(c, v) for c, v in enumerate(common_values) if v and not s.values[c]]
    if placed:
        return Found(placements=(placed[0],), cells=(*starts, placed[0][0]))
    gone = tuple((c, v) for c, x in enumerate(s.cands) for v in values_of(x & ~common_cands[c]))
    return Found(eliminations=gone, cells=starts) if gone else None


def cell_forcing_chain(s: State) -> Found | None:
    """A cell forcing chain: each value of a cell, followed through what it forces,
    places the same value in another cell (or strikes the same candidate): whichever
    the cell holds, so does that one."""
    cells = sorted((c for c, x in enumerate(s.cands) if x), key=lambda c: s.cands[c].bit_count())
    for cell in cells:
        found = _common(s, [(cell, v) for v in values_of(s.cands[cell])])
        if found is not None:
            return found
    return None


def unit_forcing_chain(s: State) -> Found | None:
    """A unit (region) forcing chain: each place of a value in a unit, followed through
    what it forces, places the same value in another cell (or strikes the same
    candidate): wherever the unit holds the value, so does that."""
    for k, unit in enumerate(s.units):
        for value in s.missing(unit):
            places = s.where(unit, value)
            if len(places) < 2:
                continue
            found = _common(s, [(c, value) for c in places])
            if found is not None:
                return found._replace(units=(s.names[k],))
    return None
