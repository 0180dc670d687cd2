"""Sudoku Explainer's forcing chains from many starts: nishio, cell and region forcing
chains, and their dynamic forms.

Where the cycles and forcing chains of :mod:`lazyfun.sudoku.steps.chaining`
follow one line of links, these follow *everything* a candidate turned on (or
off) implies, breadth first, each node remembering the nodes it came from (its
parents):

- turned on, a candidate turns off the cell's other candidates and the value in
  its peers (box, row, column);
- turned off, it turns on the cell's other candidate when the cell had two, and
  the value's other place in a unit that had two.

Static chains (*multiple*) reason on the grid as it is.  *Dynamic* chains strike
each candidate they turn off from a copy of the grid, so a cell or unit left
with one candidate or place turns it on, its parents being every candidate of
that cell (place of that unit) the chain struck.

- **Nishio** (7.5): dynamic, X links only: a candidate whose being on or off
  leads to a candidate both on and off is decided the other way.
- **Cell forcing chains** (multiple 8.0, dynamic 8.5): a node every candidate of
  a cell implies holds.
- **Region forcing chains** (8.0, 8.5): a node every place of a value in a unit
  implies holds.
- **Contradiction forcing chains** and **double forcing chains** (dynamic, 8.5):
  a candidate on (off) that leads to a contradiction is off (on); a node that a
  candidate's being on and its being off both imply holds.
- **Dynamic forcing chains (+)** (9.0): the dynamic ones, each branch, where its
  links run dry, running the inner rules of :mod:`lazyfun.sudoku.steps.inner`
  (pointing, claiming, hidden and naked pairs, X-wings) on its grid and going on
  from what they strike.
- **Nested forcing chains** (SE's levels 2 and 3, 9.5 and 10.0): where those
  rules find nothing, every cycle and forcing chain of one line on the branch's
  grid (:func:`lazyfun.sudoku.steps.inner.nested`), and at level 3, failing
  them, every static cell and region forcing chain there (:func:`_nested_multiple`),
  that rests on what the branch struck strikes; a hint resting on a nested chain
  adds its complexity, once.

A chain's difficulty is its base plus the bonus of
:func:`~lazyfun.sudoku.steps.chaining.length_bonus` for its *complexity*: the
count of distinct nodes among the conclusion's ancestors, summed over the
branches.  The step taken is the easiest (ties to the lower complexity, then
double, cell, region, contradiction, then the first found: cell by cell, value
by value).  These are facts from reading SukakuExplainer's rules; the code is ours.

The search below is the readable form.  Where the C engine was built
(``lazyfun/sudoku/steps/forcing_c/``, the same search with the same answers) it
runs instead, on grids of up to nine values (``LAZYFUN_PURE=1`` turns it off);
it rates a hard puzzle's chains some sixty times as fast.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import NamedTuple

from lazyfun.sudoku.steps import engine
from lazyfun.sudoku.steps.chaining import houses_of, length_bonus
from lazyfun.sudoku.steps.inner import (
    Nested,
    Strike,
    Taken,
    inferences,
    link_parents,
    struck_in_cell,
    struck_places,
    table_order,
)
from lazyfun.sudoku.steps.techniques import Found, State

__all__ = [
    "BASES",
    "dynamic_forcing_chains",
    "dynamic_forcing_chains_plus",
    "multiple_forcing_chains",
    "nested_forcing_chains",
    "nested_multiple_forcing_chains",
    "nishio_forcing_chains",
]

# A node: (cell * n + value - 1) * 2 + 1 when on, + 0 when off.
Node = int
Parents = dict[Node, tuple[Node, ...]]


class _Branch(NamedTuple):
    """What a source implies: the nodes turned on and off, each with its parents, the
    node found both on and off (-1: none), and the chain nested in the branch (level 2)
    that turned off each node it turned off."""

    on: Parents
    off: Parents
    clash: Node
    nested: dict[Node, Nested]


# Each kind of step, its base on the Sudoku Explainer scale and its place among ties.
BASES: dict[str, float] = {
    "nishio forcing chain": 7.5,
    "cell forcing chains": 8.0,
    "region forcing chains": 8.0,
    "dynamic double forcing chain": 8.5,
    "dynamic cell forcing chains": 8.5,
    "dynamic region forcing chains": 8.5,
    "dynamic contradiction forcing chain": 8.5,
    "dynamic double forcing chain (+)": 9.0,
    "dynamic cell forcing chains (+)": 9.0,
    "dynamic region forcing chains (+)": 9.0,
    "dynamic contradiction forcing chain (+)": 9.0,
    "dynamic double forcing chain (+ forcing chains)": 9.5,
    "dynamic cell forcing chains (+ forcing chains)": 9.5,
    "dynamic region forcing chains (+ forcing chains)": 9.5,
    "dynamic contradiction forcing chain (+ forcing chains)": 9.5,
    "dynamic double forcing chain (+ multiple forcing chains)": 10.0,
    "dynamic cell forcing chains (+ multiple forcing chains)": 10.0,
    "dynamic region forcing chains (+ multiple forcing chains)": 10.0,
    "dynamic contradiction forcing chain (+ multiple forcing chains)": 10.0,
}
# Each level's suffix: none, the inner rules (+), forcing chains nested too, and
# multiple forcing chains nested too.
_SUFFIXES = ("", " (+)", " (+ forcing chains)", " (+ multiple forcing chains)")
_KIND_ORDER = {"double": 1, "cell": 5, "region": 6, "contradiction": 7, "nishio": 7}
# The C engine's flag for each kind.
_FLAGS = {"contradiction": 1, "double": 2, "cell": 4, "region": 8, "nishio": 16}


class _Hint(NamedTuple):
    kind: str
    difficulty: float
    complexity: int
    found: Found

    def key(self) -> tuple[float, int, int]:
        return self.difficulty, self.complexity, _KIND_ORDER[self.kind]

    def name(self, dynamic: bool, level: int) -> str:
        """The step's name, as :data:`BASES` has it."""
        plural = "s" if self.kind in ("cell", "region") else ""
        prefix = "dynamic " if dynamic and self.kind != "nishio" else ""
        return f"{prefix}{self.kind} forcing chain{plural}{_SUFFIXES[level]}"


class _Chaining:
    """One search's rules: the grid's houses, static or dynamic, X links only or both."""

    def __init__(self, s: State, dynamic: bool, y: bool, level: int = 0) -> None:
        self.s = s
        self.n = s.n
        self.dynamic = dynamic
        self.y = y
        self.level = level
        self.houses = [houses_of(s, c) for c in range(len(s.cands))]
        self.places: dict[int, list[int]] = {}

    def node(self, cell: int, value: int, on: bool) -> Node:
        return (cell * self.n + value - 1) * 2 + (1 if on else 0)

    def follow(self, source: Node) -> _Branch:
        """Everything ``source`` implies (the search stops at a node both on and off)."""
        s, n = self.s, self.n
        cands = list(s.cands)
        on: Parents = {}
        off: Parents = {}
        nested: dict[Node, Nested] = {}
        pending_on: deque[Node] = deque()
        pending_off: deque[Node] = deque()
        (on if source & 1 else off)[source] = ()
        (pending_on if source & 1 else pending_off).append(source)
        while (
            pending_on
            or pending_off
            or (self.level and self._infer(cands, off, nested, pending_off))
        ):
            if pending_on:
                p = pending_on.popleft()
                for q in self._turned_off(cands, p):
                    if q + 1 in on:
                        off[q] = (p,)
                        return _Branch(on, off, q, nested)
                    if q not in off:
                        off[q] = (p,)
                        pending_off.append(q)
            else:
                p = pending_off.popleft()
                cell, value = p // 2 // n, p // 2 % n + 1
                if self.dynamic:
                    cands[cell] &= ~(1 << (value - 1))
                for q, parents in self._turned_on(cands, p, off):
                    if q - 1 in off:
                        on[q] = parents
                        return _Branch(on, off, q - 1, nested)
                    if q not in on:
                        on[q] = parents
                        pending_on.append(q)
        return _Branch(on, off, -1, nested)

    def _infer(
        self, cands: list[int], off: Parents, nested: dict[Node, Nested], pending_off: deque[Node]
    ) -> bool:
        """When the links run dry (+): what the first inner rule (level 2: or the chains
        nested) finds on the chain's grid turns off, resting on the struck candidates it
        needed; whether any is new."""
        n = self.n
        new = False
        found = inferences(self.s, cands, self.level)
        if not found and self.level >= 3:
            found = _nested_multiple(self.s, cands)
        for strikes, parents, chain in found:
            nodes = tuple((cell * n + value - 1) * 2 for cell, value in parents)
            for cell, value in strikes:
                q = (cell * n + value - 1) * 2
                if q not in off:
                    off[q] = nodes
                    pending_off.append(q)
                    new = True
                    if chain is not None:
                        nested[q] = chain
        return new

    def _places(self, unit: int, value: int) -> list[int]:
        """The places of ``value`` in ``unit`` in the grid the search starts from."""
        key = unit * (self.n + 1) + value
        if key not in self.places:
            bit = 1 << (value - 1)
            self.places[key] = [c for c in self.s.units[unit] if self.s.cands[c] & bit]
        return self.places[key]

    def _turned_off(self, cands: list[int], p: Node) -> list[Node]:
        s, n = self.s, self.n
        cell, value = p // 2 // n, p // 2 % n + 1
        out: list[Node] = []
        if self.y:
            bits = cands[cell]
            out += [
                self.node(cell, v, False)
                for v in range(1, n + 1)
                if v != value and bits >> (v - 1) & 1
            ]
        bit = 1 << (value - 1)
        seen = {cell}
        for unit in self.houses[cell]:
            for c in s.units[unit]:
                if c not in seen and cands[c] & bit:
                    seen.add(c)
                    out.append(self.node(c, value, False))
        return out

    def _turned_on(
        self, cands: list[int], p: Node, off: Parents
    ) -> list[tuple[Node, tuple[Node, ...]]]:
        s, n = self.s, self.n
        cell, value = p // 2 // n, p // 2 % n + 1
        original = s.cands
        out: list[tuple[Node, tuple[Node, ...]]] = []
        if self.y:
            if self.dynamic:
                left = cands[cell]
                if left and not left & (left - 1):
                    v = left.bit_length()
                    struck = original[cell] & ~left
                    parents = tuple(
                        self.node(cell, w, False)
                        for w in range(1, n + 1)
                        if struck >> (w - 1) & 1 and self.node(cell, w, False) in off
                    )
                    out.append((self.node(cell, v, True), parents or (p,)))
            elif original[cell].bit_count() == 2:
                v = (original[cell] & ~(1 << (value - 1))).bit_length()
                out.append((self.node(cell, v, True), (p,)))
        bit = 1 << (value - 1)
        for unit in self.houses[cell]:
            places = self._places(unit, value)
            if self.dynamic:
                held = [c for c in places if cands[c] & bit]
                if len(held) != 1:
                    continue
                base = value - 1
                parents = tuple(
                    q for c in places if c != held[0] and (q := (c * n + base) * 2) in off
                )
                q = (held[0] * n + base) * 2 + 1
            else:
                if len(places) != 2:
                    continue
                other = places[0] if places[1] == cell else places[1]
                q, parents = self.node(other, value, True), (p,)
            if all(q != r for r, _ in out):
                out.append((q, parents or (p,)))
        return out


def _ancestors(node: Node, branch: _Branch) -> set[Node]:
    """The nodes ``node`` rests on in ``branch``, itself included."""
    seen = {node}
    stack = [node]
    while stack:
        q = stack.pop()
        for parent in (branch.on if q & 1 else branch.off).get(q, ()):
            if parent not in seen:
                seen.add(parent)
                stack.append(parent)
    return seen


def _complexity(targets: list[tuple[Node, _Branch]]) -> int:
    """A hint's complexity: for each of its targets, how many distinct nodes it rests on
    in its branch; plus the length of each chain nested in them, counted once."""
    total = 0
    chains: set[Nested] = set()
    for node, branch in targets:
        seen = _ancestors(node, branch)
        total += len(seen)
        chains.update(branch.nested[q] for q in seen if q in branch.nested)
    return total + sum(chain.complexity for chain in chains)


def _conclusion(n: int, node: Node) -> Found:
    cell, value = node // 2 // n, node // 2 % n + 1
    pair = ((cell, value),)
    return (
        Found(placements=pair, cells=(cell,))
        if node & 1
        else Found(eliminations=pair, cells=(cell,))
    )


def _common(branches: list[_Branch], s: State) -> list[Node]:
    """The nodes every branch implies that change the grid."""
    n = s.n
    out: list[Node] = []
    for nodes in (branches[0].on, branches[0].off):
        for q in nodes:
            cell, value = q // 2 // n, q // 2 % n + 1
            if not s.cands[cell] >> (value - 1) & 1:
                continue
            if q & 1 and s.cands[cell].bit_count() == 1:
                continue
            if all(q in (b.on if q & 1 else b.off) for b in branches[1:]):
                out.append(q)
    return out


class _Offer(NamedTuple):
    """A hint with what it rests on: each branch with its node concluded (or, for a
    contradiction, the two clashing), and where the branches start (a cell, or a unit
    and a value)."""

    hint: _Hint
    targets: list[tuple[Node, _Branch]]
    origin: tuple[int, ...]


class _Search:
    """The easiest forcing chain of the kinds asked for, searched as Sudoku Explainer
    searches them: cell by cell (those with at least three candidates, two when
    dynamic), value by value: contradictions from on and from off, a double, the
    regions the cell is the first place of the value in; then the cell's own."""

    def __init__(
        self,
        s: State,
        base: float,
        dynamic: bool,
        y: bool,
        kinds: frozenset[str],
        level: int,
        keep: bool = False,
    ) -> None:
        self.s = s
        self.base = base
        self.dynamic = dynamic
        self.level = level
        self.kinds = kinds
        self.chaining = _Chaining(s, dynamic, y, level)
        self.best: _Hint | None = None
        self.followed: dict[Node, _Branch] = {}
        # every hint in the order found, when asked to keep them (nested, level 3)
        self.offers: list[_Offer] | None = [] if keep else None

    def follow(self, source: Node) -> _Branch:
        """What ``source`` implies (see :meth:`_Chaining.follow`), each source followed once."""
        if source not in self.followed:
            self.followed[source] = self.chaining.follow(source)
        return self.followed[source]

    def offer(
        self, kind: str, node: Node, targets: list[tuple[Node, _Branch]], origin: tuple[int, ...]
    ) -> None:
        """A hint concluding ``node``, resting on ``targets``: kept when it is the easiest
        so far (or, keeping them all, kept)."""
        complexity = _complexity(targets)
        hint = _Hint(
            kind, self.base + length_bonus(complexity), complexity, _conclusion(self.s.n, node)
        )
        if self.offers is not None:
            self.offers.append(_Offer(hint, targets, origin))
        elif self.best is None or hint.key() < self.best.key():
            self.best = hint

    def run(self) -> Found | None:
        least = 2 if self.dynamic else 3
        for cell, bits in enumerate(self.s.cands):
            if bits.bit_count() >= least:
                self._cell(cell, bits)
        best = self.best
        if best is None:
            return None
        technique = best.name(self.dynamic, self.level)
        return best.found._replace(technique=technique, rating=best.difficulty)

    def _cell(self, cell: int, bits: int) -> None:
        s, chaining, kinds = self.s, self.chaining, self.kinds
        from_on: list[_Branch] = []
        for value in range(1, s.n + 1):
            if not bits >> (value - 1) & 1:
                continue
            node_on = chaining.node(cell, value, True)
            on_branch = self.follow(node_on)
            from_on.append(on_branch)
            if "contradiction" in kinds:
                self._contradictions(node_on, on_branch, bits.bit_count() >= 3)
            if "region" in kinds:
                self._regions(cell, value, on_branch)
        if "cell" in kinds:
            for q in _common(from_on, s):
                self.offer("cell", q, [(q, b) for b in from_on], (cell,))

    def _contradictions(self, node_on: Node, on_branch: _Branch, double: bool) -> None:
        """A candidate whose being on, or off, leads to a contradiction; then (dynamic,
        three candidates or more) what its being on and off both imply."""
        off_branch = self.follow(node_on - 1)
        kind = "nishio" if "nishio" in self.kinds else "contradiction"
        for source, branch in ((node_on, on_branch), (node_on - 1, off_branch)):
            if branch.clash >= 0:
                targets = [(branch.clash + 1, branch), (branch.clash, branch)]
                self.offer(kind, source ^ 1, targets, (node_on // 2 // self.s.n,))
        if "double" in self.kinds and double:
            for q in _common([on_branch, off_branch], self.s):
                self.offer(
                    "double", q, [(q, on_branch), (q, off_branch)], (node_on // 2 // self.s.n,)
                )

    def _regions(self, cell: int, value: int, on_branch: _Branch) -> None:
        """Each unit of ``cell`` whose first place for ``value`` it is: what every place
        implies."""
        s, chaining = self.s, self.chaining
        for unit in chaining.houses[cell]:
            places = s.where(s.units[unit], value)
            if len(places) < 2 or places[0] != cell:
                continue
            branches = [on_branch] + [
                self.follow(chaining.node(c, value, True)) for c in places[1:]
            ]
            for q in _common(branches, s):
                self.offer("region", q, [(q, b) for b in branches], (unit, value))


def _nested_multiple(s: State, cands: list[int]) -> list[Taken]:
    """Level 3 (+ multiple forcing chains), where the inner rules and the chains of one
    line find nothing: every static cell and region forcing chain on ``cands`` (a
    branch's grid, searched as a grid of its own), easiest first (by difficulty,
    complexity, cell before region: a stable sort of the order found), one of each set
    of strikes, that rests on what the branch struck (:func:`_offer_parents`)."""
    kinds = frozenset({"cell", "region"})
    search = _Search(s.struck(cands), 8.0, False, True, kinds, 0, keep=True)
    search.run()
    done: set[frozenset[Strike]] = set()
    out: list[Taken] = []
    for offer in sorted(search.offers or (), key=lambda offer: offer.hint.key()):
        strikes = list(offer.hint.found.eliminations)
        for cell, value in offer.hint.found.placements:
            strikes += [
                (cell, v) for v in range(1, s.n + 1) if v != value and cands[cell] >> (v - 1) & 1
            ]
        if frozenset(strikes) in done:
            continue
        done.add(frozenset(strikes))
        parents = _offer_parents(s, cands, offer)
        if parents:
            node = offer.targets[0][0]
            seen = [sorted(_ancestors(q, branch)) for q, branch in offer.targets]
            nodes = (node, *(x for nodes in seen for x in (len(nodes), *nodes)))
            nested = Nested(offer.hint.kind, nodes, offer.hint.complexity)
            out.append((table_order(strikes), parents, nested))
    return out


def _offer_parents(s: State, cands: list[int], offer: _Offer) -> tuple[Strike, ...]:
    """What a nested hint from many starts rests on: for each on node its branches' nodes
    rest on, its cause (:func:`~lazyfun.sudoku.steps.inner.link_parents`); a branch's
    start stands for a cell's struck candidates (a cell's chains) or a value's struck
    places in the unit (a region's)."""
    if len(offer.origin) == 1:
        start = struck_in_cell(s, cands, *offer.origin)
    else:
        start = struck_places(s, cands, *offer.origin)
    parents: dict[Strike, None] = {}
    for node, branch in offer.targets:
        for q in sorted(_ancestors(node, branch)):
            if q & 1:
                causes = branch.on[q]
                parents.update(
                    dict.fromkeys(link_parents(s, cands, causes[0], q) if causes else start)
                )
    return tuple(parents)


def _in_c(
    s: State, base: float, dynamic: bool, y: bool, kinds: frozenset[str], level: int
) -> Found | None:
    """:meth:`_Search.run` by the C engine."""
    found = engine.c.search(
        s.cands,
        s.n,
        s.units,
        [houses_of(s, cell) for cell in range(len(s.cands))],
        base,
        dynamic,
        y,
        sum(_FLAGS[kind] for kind in kinds),
        s.values if level else None,
        max(level, 1),
    )
    if found is None:
        return None
    flag, complexity, node = found
    kind = next(k for k in kinds if _FLAGS[k] == flag)
    hint = _Hint(kind, base + length_bonus(complexity), complexity, _conclusion(s.n, node))
    return hint.found._replace(technique=hint.name(dynamic, level), rating=hint.difficulty)


def _finder(
    base: float, dynamic: bool, y: bool, kinds: frozenset[str], level: int = 0
) -> Callable[[State], Found | None]:
    def find(s: State) -> Found | None:
        if engine.BUILT and s.n <= engine.c.MAX_N:
            return _in_c(s, base, dynamic, y, kinds, level)
        return _Search(s, base, dynamic, y, kinds, level).run()

    return find


nishio_forcing_chains = _finder(7.5, True, False, frozenset({"contradiction", "nishio"}))
nishio_forcing_chains.__doc__ = "Nishio: a dynamic contradiction along X links (7.5)."
multiple_forcing_chains = _finder(8.0, False, True, frozenset({"cell", "region"}))
multiple_forcing_chains.__doc__ = "Static cell and region forcing chains (8.0)."
# The kinds of the dynamic searches, at every level.
_DYNAMIC = frozenset({"contradiction", "double", "cell", "region"})
dynamic_forcing_chains = _finder(8.5, True, True, _DYNAMIC)
dynamic_forcing_chains.__doc__ = (
    "Dynamic contradiction, double, cell and region forcing chains (8.5)."
)
dynamic_forcing_chains_plus = _finder(9.0, True, True, _DYNAMIC, level=1)
dynamic_forcing_chains_plus.__doc__ = (
    "The dynamic forcing chains with pointing, claiming, hidden and naked pairs and"
    " X-wings inside (+, 9.0): see :mod:`lazyfun.sudoku.steps.inner`."
)
nested_forcing_chains = _finder(9.5, True, True, _DYNAMIC, level=2)
nested_forcing_chains.__doc__ = (
    "The dynamic forcing chains (+) with the cycles and forcing chains of one line inside"
    " (+ forcing chains, 9.5): see :func:`lazyfun.sudoku.steps.inner.nested`."
)
nested_multiple_forcing_chains = _finder(10.0, True, True, _DYNAMIC, level=3)
nested_multiple_forcing_chains.__doc__ = (
    "The nested forcing chains with the static cell and region forcing chains inside too"
    " (+ multiple forcing chains, 10.0)."
)
