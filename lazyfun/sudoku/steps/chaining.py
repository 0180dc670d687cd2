"""Sudoku Explainer's chains: cycles and forcing chains over candidates turned on and off.

A *node* is a candidate (a cell and a value) said to be on (the cell holds the
value) or off (it does not).  Two kinds of link lead from one node to the next:

- on to off: the cell's other candidates go (a *Y* link, within the cell), and
  so does the value in every peer of the cell (box, row, column, in that order);
- off to on: a cell left with two candidates holds the other (*Y*), and a unit
  left with two places for the value has it in the other (*X*: box, row, column).

Sudoku Explainer's first chaining rule searches three ways: with X links only,
with Y links only (the chains start in cells of two candidates), and with both.
From each candidate turned on, a breadth-first search finds

- *cycles*: the search comes back to the start, on, after four links or more;
  the loop holds whichever way round it is read, so a value goes from every
  cell outside it that sees a node of that value on and a node of it off;
- *forcing chains* (X and XY searches): turning the candidate on leads to
  turning it off (it goes), or turning it off leads to turning it on (it is
  placed).

Each found is rated as Sudoku Explainer rates it: a base (X- and Y-cycles 6.5,
a forcing X-chain 6.6, an XY-cycle or a forcing chain 7.0) plus 0.1 for each
of the lengths 4, 6, 8, 12, 16, 24, ... that the chain's length (its nodes less
two) exceeds.  The step taken is the easiest of all (ties to the fewer nodes,
then X before Y before XY, then the first found: cell by cell, value by value).
These are facts from reading SukakuExplainer's rules; the code is ours.
The search below is the readable form: on a classic grid of up to nine values,
the C engine of :mod:`lazyfun.sudoku.steps.forcing` runs the same search instead
(``chains``), when it was built and ``LAZYFUN_PURE`` is not set.

>>> [round(length_bonus(c), 1) for c in (4, 6, 7, 9, 11, 15, 19, 27)]
[0.0, 0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6]
"""

from __future__ import annotations

from typing import NamedTuple

from lazyfun.sudoku.steps import engine
from lazyfun.sudoku.steps.techniques import Found, State

__all__ = ["BASES", "Chain", "chains_and_cycles", "every_chain", "houses_of", "length_bonus"]

# Each kind of chain and its base on the Sudoku Explainer scale, in the order
# ties go (the kind's place in it is its tie-break after the length).
BASES: dict[str, float] = {
    "X-cycle": 6.5,
    "Y-cycle": 6.5,
    "forcing X-chain": 6.6,
    "XY-cycle": 7.0,
    "forcing chain": 7.0,
}
# The C engine's code for each kind.
_KINDS = ("X-cycle", "Y-cycle", "forcing X-chain", "XY-cycle", "forcing chain")
_KIND_ORDER = {"X-cycle": 2, "forcing X-chain": 2, "Y-cycle": 3, "XY-cycle": 4, "forcing chain": 4}

# A node: (cell * n + value - 1) * 2 + 1 when on, + 0 when off.
Node = int


class Chain(NamedTuple):
    """A chain found: its kind, its difficulty (base plus the length's bonus, summed as
    Sudoku Explainer sums it), its nodes in order, and what it concludes."""

    kind: str
    difficulty: float
    nodes: tuple[Node, ...]
    found: Found

    def key(self) -> tuple[float, int, int]:
        """What makes one chain easier than another."""
        return self.difficulty, len(self.nodes), _KIND_ORDER[self.kind]


def length_bonus(complexity: int) -> float:
    """Sudoku Explainer's bonus for a chain of ``complexity`` nodes: 0.1 for each of
    the thresholds 4, 6, 8, 12, 16, 24, 32, ... (by 3/2 and 4/3 in turn) that its
    length, ``complexity - 2``, exceeds; summed in floating point as it sums it."""
    added = 0.0
    ceiling = 4
    odd = False
    length = complexity - 2
    while length > ceiling:
        added += 0.1
        ceiling = ceiling * 4 // 3 if odd else ceiling * 3 // 2
        odd = not odd
    return added


def houses_of(s: State, cell: int) -> list[int]:
    """The units of a cell in the order Sudoku Explainer reads them: its box first, then
    its row and column (and a variant's units)."""
    units = s.units_of[cell]
    return [u for u in units if u in s.boxes] + [u for u in units if u not in s.boxes]


class _Graph:
    """The links of a state's candidates (or of ``cands``, a chain's copy of them), by
    node: what turning a node on turns off (with and without the Y links), and what
    turning it off turns on (X and Y apart)."""

    def __init__(self, s: State, cands: list[int] | None = None) -> None:
        n = s.n
        self.n = n
        self.cands = cands = s.cands if cands is None else cands
        houses = [houses_of(s, cell) for cell in range(len(cands))]
        self.off_x: dict[Node, list[Node]] = {}
        self.off_y: dict[Node, list[Node]] = {}
        self.on_y: dict[Node, list[Node]] = {}
        self.on_x: dict[Node, list[Node]] = {}
        for cell, bits in enumerate(cands):
            for value in range(1, n + 1):
                bit = 1 << (value - 1)
                if not bits & bit:
                    continue
                node = (cell * n + value - 1) * 2
                others = [(cell * n + v - 1) * 2 for v in range(1, n + 1) if bits >> (v - 1) & 1]
                same: list[Node] = []
                seen = {cell}
                for unit in houses[cell]:
                    for c in s.units[unit]:
                        if c not in seen and cands[c] & bit:
                            seen.add(c)
                            same.append((c * n + value - 1) * 2)
                for c in sorted(s.peers[cell] - seen):
                    if cands[c] & bit:
                        same.append((c * n + value - 1) * 2)
                self.on_x[node + 1] = same
                self.on_y[node + 1] = [o for o in others if o != node] + same
                pair = [o + 1 for o in others if o != node] if len(others) == 2 else []
                self.off_y[node] = pair
                conjugates: list[Node] = []
                for unit in houses[cell]:
                    places = [c for c in s.units[unit] if cands[c] & bit]
                    if len(places) == 2:
                        other = (places[0] if places[1] == cell else places[1]) * n + value - 1
                        if other * 2 + 1 not in conjugates:
                            conjugates.append(other * 2 + 1)
                self.off_x[node] = conjugates

    def turned_off(self, node: Node, y: bool) -> list[Node]:
        return self.on_y[node] if y else self.on_x[node]

    def turned_on(self, node: Node, x: bool, y: bool) -> list[Node]:
        out = list(self.off_y[node]) if y else []
        if x:
            out += [q for q in self.off_x[node] if q not in out]
        return out


def _path(parent: dict[Node, Node], end: Node) -> list[Node]:
    out = [end]
    while out[-1] in parent:
        out.append(parent[out[-1]])
    return out[::-1]


def _cycles(g: _Graph, start: Node, x: bool, y: bool) -> list[list[Node]]:
    """The loops from ``start`` (on) back to it, four links or more, breadth first to the
    end (a longer loop may strike where the shortest does not): on nodes are reached
    once, off nodes again by other paths (never along their own)."""
    found: list[list[Node]] = []
    on_parent: dict[Node, tuple[Node, ...]] = {start: (start,)}
    pending_on: list[tuple[Node, ...]] = [(start,)]
    while pending_on:
        pending_off: list[tuple[Node, ...]] = []
        for path in pending_on:
            for q in g.turned_off(path[-1], y):
                if q not in path:
                    pending_off.append((*path, q))
        pending_on = []
        for path in pending_off:
            for q in g.turned_on(path[-1], x, y):
                if q == start and len(path) >= 4:
                    found.append(list(path))
                elif q not in on_parent:
                    on_parent[q] = (*path, q)
                    pending_on.append((*path, q))
    return found


def _forcing_chain(g: _Graph, start: Node, x: bool, y: bool) -> list[Node] | None:
    """The shortest chain from ``start`` to its opposite (on to off, or off to on)."""
    target = start ^ 1
    parent: dict[Node, Node] = {}
    seen = {start}
    frontier = [start]
    while frontier:
        nxt: list[Node] = []
        for node in frontier:
            links = g.turned_off(node, y) if node & 1 else g.turned_on(node, x, y)
            for q in links:
                if q in seen:
                    continue
                seen.add(q)
                parent[q] = node
                if q == target:
                    return _path(parent, q)
                nxt.append(q)
        frontier = nxt
    return None


def _cell_value(n: int, node: Node) -> tuple[int, int]:
    return node // 2 // n, node // 2 % n + 1


def _cycle_found(s: State, nodes: list[Node], cands: list[int] | None = None) -> Found | None:
    """A loop's eliminations (from ``s``'s candidates or ``cands``): a value from each
    cell outside the loop that sees one of its nodes of that value on and one off."""
    cells = {_cell_value(s.n, q)[0] for q in nodes}
    on: dict[int, set[int]] = {}
    off: dict[int, set[int]] = {}
    for q in nodes:
        cell, value = _cell_value(s.n, q)
        (on if q & 1 else off).setdefault(value, set()).add(cell)
    gone = []
    for value in sorted(on.keys() & off.keys()):
        bit = 1 << (value - 1)
        for c, bits in enumerate(s.cands if cands is None else cands):
            if bits & bit and c not in cells:
                peers = s.peers[c]
                if peers & on[value] and peers & off[value]:
                    gone.append((c, value))
    if not gone:
        return None
    return Found(eliminations=tuple(sorted(gone)), cells=tuple(sorted(cells)))


def _kind(x: bool, y: bool, cycle: bool) -> str:
    if cycle:
        return "XY-cycle" if x and y else "X-cycle" if x else "Y-cycle"
    return "forcing chain" if y else "forcing X-chain"


def _chains(s: State, g: _Graph, x: bool, y: bool, best: float) -> list[Chain]:
    """The cycles and forcing chains of one search, cell by cell and value by value, that
    could rate at most ``best``."""
    out: list[Chain] = []
    n = s.n
    for cell, bits in enumerate(g.cands):
        if bits.bit_count() < 2 or (y and not x and bits.bit_count() != 2):
            continue
        for value in range(1, n + 1):
            if not bits >> (value - 1) & 1:
                continue
            on = (cell * n + value - 1) * 2 + 1
            for nodes in _cycles(g, on, x, y):
                found = _cycle_found(s, nodes, g.cands)
                if found is not None:
                    out.append(_chain(n, _kind(x, y, True), nodes, found))
            if not x:
                continue
            for start in (on, on - 1):
                chain = _forcing_chain(g, start, x, y)
                if chain is None:
                    continue
                out.append(_chain(n, _kind(x, y, False), chain, _forced(n, start)))
    return [c for c in out if c.difficulty <= best]


def _forced(n: int, start: Node) -> Found:
    """What a forcing chain from ``start`` to its opposite concludes: its candidate goes
    (from on) or is placed (from off)."""
    cell, value = _cell_value(n, start)
    pair = ((cell, value),)
    if start & 1:
        return Found(eliminations=pair, cells=(cell,))
    return Found(placements=pair, cells=(cell,))


def _chain(n: int, kind: str, nodes: list[Node], found: Found) -> Chain:
    cells = {_cell_value(n, q)[0] for q in nodes}
    return Chain(
        kind,
        BASES[kind] + length_bonus(len(nodes)),
        tuple(nodes),
        found._replace(cells=tuple(sorted({*found.cells, *cells}))),
    )


def easiest_chain(s: State) -> Chain | None:
    """The easiest of the cycles and forcing chains of Sudoku Explainer's first chaining
    rule (X links, then Y, then both)."""
    if engine.BUILT and s.variant is None and s.n <= engine.c.MAX_N:
        return _in_c(s)
    return _search(s)


# The three searches, in order: X links only, Y links only, both.
_SEARCHES = ((True, False), (False, True), (True, True))


def every_chain(s: State, cands: list[int]) -> list[Chain]:
    """Every cycle and forcing chain of the three searches on ``cands`` (a chain's copy of
    ``s``'s candidates) that strikes something, in the order found (the chains nested
    in dynamic ones: :func:`lazyfun.sudoku.steps.inner.nested`)."""
    g = _Graph(s, cands)
    return [chain for x, y in _SEARCHES for chain in _chains(s, g, x, y, 99.0)]


def _search(s: State) -> Chain | None:
    """:func:`easiest_chain`'s search: each of the three, while a later one could rate
    lower, and the easiest chain of all."""
    g = _Graph(s)
    best: Chain | None = None
    for x, y in _SEARCHES:
        if best is not None and best.difficulty < 7.0:
            break  # every chain of the XY search rates 7.0 at least
        limit = best.difficulty if best is not None else 99.0
        for chain in _chains(s, g, x, y, limit):
            if best is None or chain.key() < best.key():
                best = chain
    return best


def _in_c(s: State) -> Chain | None:
    """:func:`easiest_chain` by the C engine, which gives the chain's kind and nodes."""
    houses = [houses_of(s, cell) for cell in range(len(s.cands))]
    found = engine.c.chains(s.cands, s.n, s.units, houses)
    if found is None:
        return None
    kind, nodes = _KINDS[found[0]], list(found[1])
    if kind.endswith("cycle"):
        conclusion = _cycle_found(s, nodes)
        assert conclusion is not None, "the engine offers only loops that strike"
    else:
        conclusion = _forced(s.n, nodes[0])
    return _chain(s.n, kind, nodes, conclusion)


def chains_and_cycles(s: State) -> Found | None:
    """The step of the easiest cycle or forcing chain (see :func:`easiest_chain`), named
    and rated as its kind."""
    chain = easiest_chain(s)
    if chain is None:
        return None
    return chain.found._replace(technique=chain.kind, rating=chain.difficulty)
