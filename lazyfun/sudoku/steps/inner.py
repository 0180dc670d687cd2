"""The rules a dynamic forcing chain (+) runs inside itself, when its links run dry.

A dynamic chain strikes every candidate it turns off from a copy of the grid.
Sudoku Explainer's *dynamic forcing chains (+)* (its level 1, rated 9.0 and up)
go further: when no link applies any more, they look on that copy for

1. a **pointing or claiming** (box and column, box and row, column and box,
   row and box),
2. a **hidden pair** (boxes, columns, rows),
3. a **naked pair** (boxes, columns, rows),
4. an **X-wing** (on columns, then on rows),

and the first of these rules that finds anything the chain made possible
strikes what it strikes, each strike an *off* node whose parents are the
candidates the rule needed gone: the places of the value the chain struck
from the first unit (pointing, claiming, X-wing), the struck places of the
pair's values in the unit (hidden pair), the struck other values of the pair's
cells (naked pair).  A finding with no such parent holds in the grid as it is,
so the chain leaves it to the plain rung.

Each rule reads its units in SE's order and the pairs of values, cells or lines
in the order of its enumeration (by the greater, then the lesser: colex); a
finding's strikes come in the order of SE's table of them (by cell number modulo
the table's size, then as found).  The order decides which finding a strike
rests on when two make it, and the order the chain goes on in, and so the
chain's complexity.  These are facts from reading SukakuExplainer's rules; the
code is ours.

>>> from lazyfun.sudoku import parse
>>> from lazyfun.sudoku.steps.techniques import State
>>> s = State(parse("." * 81), None)
>>> cands = list(s.cands)
>>> for cell in (3, 4, 5, 6, 7, 8):  # the chain struck 1 from row 1 outside box 1
...     cands[cell] &= ~1
>>> strikes, parents, _ = inferences(s, cands)[0]  # claiming: 1 leaves box 1's rows 2, 3
>>> strikes  # in SE's order: cell number modulo 16
((18, 1), (19, 1), (20, 1), (9, 1), (10, 1), (11, 1))
>>> parents
((3, 1), (4, 1), (5, 1), (6, 1), (7, 1), (8, 1))
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from typing import NamedTuple

from lazyfun.sudoku.steps.chaining import Chain, every_chain, houses_of
from lazyfun.sudoku.steps.techniques import State, colex_pairs

__all__ = [
    "RULES",
    "Inference",
    "Nested",
    "hidden_pairs",
    "inferences",
    "link_parents",
    "locking",
    "naked_pairs",
    "nested",
    "struck_in_cell",
    "struck_places",
    "table_order",
    "x_wings",
]

Strike = tuple[int, int]  # (cell, value)


class Nested(NamedTuple):
    """A chain nested in a dynamic one: what tells it from another (its kind, and its
    nodes or, for forcing chains from many starts, its conclusion and each branch's
    nodes), and its complexity, which a hint resting on it adds once."""

    kind: str
    nodes: tuple[int, ...]
    complexity: int


# What one rule's finding strikes, and the struck candidates it rests on.
Inference = tuple[tuple[Strike, ...], tuple[Strike, ...]]
# An inference with the chain it comes from (none from the rules).
Taken = tuple[tuple[Strike, ...], tuple[Strike, ...], Nested | None]


def table_order(strikes: list[Strike]) -> tuple[Strike, ...]:
    """``strikes`` in the order SE's table of them reads them out: a cell's values
    together, the cells by number modulo the table's size (16, doubled while it is
    more than three quarters full), then in the order they were found.

    >>> table_order([(20, 3), (4, 3), (3, 3)])
    ((3, 3), (20, 3), (4, 3))
    """
    cells = list(dict.fromkeys(cell for cell, _ in strikes))
    size = 16
    while len(cells) > size * 3 // 4:
        size *= 2
    order = sorted(range(len(cells)), key=lambda i: (cells[i] % size, i))
    ranks = {cells[i]: rank for rank, i in enumerate(order)}
    return tuple(sorted(strikes, key=lambda strike: (ranks[strike[0]], strike[1])))


def _units(s: State) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]], list[tuple[int, ...]]]:
    """The classic grid's boxes, rows and columns (SE reads its subsets' units boxes,
    columns, rows)."""
    n = s.n
    return list(s.units[2 * n : 3 * n]), list(s.units[:n]), list(s.units[n : 2 * n])


def _places(unit: tuple[int, ...], cands: list[int], n: int) -> list[int]:
    """Each value's places in ``unit`` (0-based value), as bits of the unit's positions."""
    at = [0] * n
    for i, c in enumerate(unit):
        bits = cands[c]
        while bits:
            low = bits & -bits
            at[low.bit_length() - 1] |= 1 << i
            bits ^= low
    return at


def _empty(s: State, unit: tuple[int, ...]) -> int:
    return sum(1 for c in unit if not s.values[c])


def locking(s: State, cands: list[int]) -> Iterator[Inference]:
    """Pointing and claiming on ``cands``: a value whose places in a unit all lie in a
    second unit leaves the rest of the second; it rests on the first unit's places the
    chain struck outside the second."""
    boxes, rows, columns = _units(s)
    kinds = {"box": boxes, "row": rows, "column": columns}
    indices = s.of_geometry("each cell's box, row, column", _indices)
    for one, two in (("box", "column"), ("box", "row"), ("column", "box"), ("row", "box")):
        seconds, index = kinds[two], indices[two]
        for value in range(1, s.n + 1):
            bit = 1 << (value - 1)
            for first in kinds[one]:
                held = [c for c in first if cands[c] & bit]
                if len(held) < 2 or any(index[c] != index[held[0]] for c in held):
                    continue
                second = seconds[index[held[0]]]
                strikes = [(c, value) for c in second if c not in first and cands[c] & bit]
                if strikes:
                    parents = tuple(
                        (c, value)
                        for c in first
                        if s.cands[c] & bit and not cands[c] & bit and c not in second
                    )
                    yield table_order(strikes), parents


def _indices(s: State) -> dict[str, dict[int, int]]:
    """Each cell's box, row and column, numbered within their kind."""
    boxes, rows, columns = _units(s)
    kinds = {"box": boxes, "row": rows, "column": columns}
    return {
        name: {c: k for k, unit in enumerate(units) for c in unit} for name, units in kinds.items()
    }


def hidden_pairs(s: State, cands: list[int]) -> Iterator[Inference]:
    """Two values each with two or more places in a unit, two places in all: the two
    cells keep only them; it rests on the values' places the chain struck in the unit.
    A unit is read when it has more than four empty cells."""
    n = s.n
    boxes, rows, columns = _units(s)
    for kind in (boxes, columns, rows):
        for unit in kind:
            if _empty(s, unit) <= 4:
                continue
            at = _places(unit, cands, n)
            for a, b in colex_pairs(n):
                both = at[a] | at[b]
                if at[a].bit_count() < 2 or at[b].bit_count() < 2 or both.bit_count() != 2:
                    continue
                pair = 1 << a | 1 << b
                cells = {c for i, c in enumerate(unit) if both >> i & 1}
                strikes = [
                    (c, v)
                    for c in unit
                    if c in cells
                    for v in range(1, n + 1)
                    if cands[c] >> (v - 1) & 1 and not pair >> (v - 1) & 1
                ]
                if strikes:
                    parents = tuple(
                        (c, v + 1)
                        for c in unit
                        if c not in cells
                        for v in (a, b)
                        if s.cands[c] >> v & 1
                    )
                    yield table_order(strikes), parents


def naked_pairs(s: State, cands: list[int]) -> Iterator[Inference]:
    """Two cells of a unit with two or more candidates each, two values in all: the
    values leave the unit's other cells; it rests on the cells' other values the chain
    struck.  A unit is read when it has four empty cells or more."""
    n = s.n
    boxes, rows, columns = _units(s)
    for kind in (boxes, columns, rows):
        for unit in kind:
            if _empty(s, unit) < 4:
                continue
            for i, j in colex_pairs(len(unit)):
                one, two = cands[unit[i]], cands[unit[j]]
                pair = one | two
                if one.bit_count() < 2 or two.bit_count() < 2 or pair.bit_count() != 2:
                    continue
                strikes = [
                    (c, v)
                    for k, c in enumerate(unit)
                    if k not in (i, j)
                    for v in range(1, n + 1)
                    if (cands[c] & pair) >> (v - 1) & 1
                ]
                if strikes:
                    parents = tuple(
                        (c, v)
                        for c in (unit[i], unit[j])
                        for v in range(1, n + 1)
                        if (s.cands[c] & ~pair) >> (v - 1) & 1
                    )
                    yield table_order(strikes), parents


def x_wings(s: State, cands: list[int]) -> Iterator[Inference]:
    """Two columns (then rows) where a value has two or more places each, on two rows
    (columns) in all: the value leaves the rest of those rows (columns); it rests on
    the places the chain struck from the two base lines off the cover lines.  A value
    placed more than ``n - 4`` times is passed over."""
    n = s.n
    _, rows, columns = _units(s)
    placed = [0] * (n + 1)
    for v in s.values:
        placed[v] += 1
    for bases, covers in ((columns, rows), (rows, columns)):
        places = [_places(line, cands, n) for line in bases]
        for a, b in colex_pairs(n):
            places_a, places_b = places[a], places[b]
            for value in range(1, n + 1):
                if placed[value] + 4 > n:
                    continue
                bit = 1 << (value - 1)
                at_a, at_b = places_a[value - 1], places_b[value - 1]
                both = at_a | at_b
                if at_a.bit_count() < 2 or at_b.bit_count() < 2 or both.bit_count() != 2:
                    continue
                lines = {k for k in range(n) if both >> k & 1}
                strikes = [
                    (c, value)
                    for k in sorted(lines)
                    for t, c in enumerate(covers[k])
                    if t not in (a, b) and cands[c] & bit
                ]
                if strikes:
                    parents = tuple(
                        (c, value)
                        for base in (bases[a], bases[b])
                        for t, c in enumerate(base)
                        if t not in lines and s.cands[c] & bit and not cands[c] & bit
                    )
                    yield table_order(strikes), parents


RULES = (locking, hidden_pairs, naked_pairs, x_wings)


def nested(
    s: State, cands: list[int]
) -> Iterator[tuple[tuple[Strike, ...], tuple[Strike, ...], Nested]]:
    """Level 2 (+ forcing chains): every cycle and forcing chain of one line on ``cands``
    (:func:`~lazyfun.sudoku.steps.chaining.every_chain`), easiest first (by difficulty,
    length, kind: a stable sort of the order found), one of each set of strikes, that
    rests on what the chain struck; as inferences with the chain they come from."""
    done: set[frozenset[Strike]] = set()
    for chain in sorted(every_chain(s, cands), key=Chain.key):
        strikes = _chain_strikes(s, cands, chain)
        if frozenset(strikes) in done:
            continue
        done.add(frozenset(strikes))
        parents = _chain_parents(s, cands, chain)
        if parents:
            kind = "loop" if chain.kind.endswith("cycle") else "chain"
            yield table_order(strikes), parents, Nested(kind, chain.nodes, len(chain.nodes))


def _chain_strikes(s: State, cands: list[int], chain: Chain) -> list[Strike]:
    """What a chain strikes, in the order SE's table of them is filled: a forcing chain to
    off its candidate, to on the cell's other candidates; a loop the values its
    :func:`~lazyfun.sudoku.steps.chaining._cycle_found` finds, cell by cell as the loop's
    on nodes, read from its end back, see them (each node's peers in order)."""
    n, nodes = s.n, chain.nodes
    if not chain.kind.endswith("cycle"):
        cell, value = nodes[-1] // 2 // n, nodes[-1] // 2 % n + 1
        if not nodes[-1] & 1:
            return [(cell, value)]
        return [(cell, v) for v in range(1, n + 1) if v != value and cands[cell] >> (v - 1) & 1]
    gone = set(chain.found.eliminations)
    out: list[Strike] = []
    for q in (nodes[0], *nodes[-2:0:-2]):
        cell, value = q // 2 // n, q // 2 % n + 1
        for c in sorted(s.peers[cell]):
            if (c, value) in gone and (c, value) not in out:
                out.append((c, value))
    return out


def _chain_parents(s: State, cands: list[int], chain: Chain) -> tuple[Strike, ...]:
    """What a nested chain rests on: the cause of each of its on nodes (every node of a
    loop, which holds both ways round, and its closing link) in the chain's grid
    (:func:`link_parents`)."""
    nodes = chain.nodes
    loop = chain.kind.endswith("cycle")
    links = pairwise((*nodes, nodes[0]) if loop else nodes)
    parents: dict[Strike, None] = {}
    for p, q in links:
        if loop or q & 1:
            parents.update(dict.fromkeys(link_parents(s, cands, p, q)))
    return tuple(parents)


def struck_in_cell(s: State, cands: list[int], cell: int) -> list[Strike]:
    """The candidates of ``cell`` that ``cands`` (a chain's copy of ``s``'s) lacks."""
    struck = s.cands[cell] & ~cands[cell]
    return [(cell, v) for v in range(1, s.n + 1) if struck >> (v - 1) & 1]


def struck_places(s: State, cands: list[int], unit: int, value: int) -> list[Strike]:
    """The places of ``value`` in ``unit`` that ``cands`` (a chain's copy) lacks."""
    bit = 1 << (value - 1)
    return [(c, value) for c in s.units[unit] if s.cands[c] & bit and not cands[c] & bit]


def link_parents(s: State, cands: list[int], p: int, q: int) -> list[Strike]:
    """What the link from node ``p`` to node ``q`` rests on: within a cell, the cell's
    struck candidates; else, in the first house of ``p``'s cell that holds ``q``'s (with
    just two places for its value, when ``q`` is on), the value's struck places."""
    n = s.n
    source, cell, value = p // 2 // n, q // 2 // n, q // 2 % n + 1
    if source == cell:
        return struck_in_cell(s, cands, cell)
    bit = 1 << (value - 1)
    for unit in houses_of(s, source):
        cells = s.units[unit]
        if cell not in cells:
            continue
        if q & 1 and sum(1 for c in cells if cands[c] & bit) != 2:
            continue
        return struck_places(s, cands, unit, value)
    return []


def inferences(s: State, cands: list[int], level: int = 1) -> list[Taken]:
    """The findings on ``cands`` (a chain's copy of ``s``'s candidates) of the first rule
    that finds any resting on what the chain struck, each with the chain it comes from
    (none from the rules); at level 2, failing the rules, those of :func:`nested`."""
    for rule in RULES:
        found: list[Taken] = [(strikes, parents, None) for strikes, parents in rule(s, cands)]
        found = [taken for taken in found if taken[1]]
        if found:
            return found
    return list(nested(s, cands)) if level >= 2 else []
