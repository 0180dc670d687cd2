"""Sudoku Explainer's aligned exclusion: the values two or three cells can take together.

Take two cells (three), each with two candidates or more, and the cells that see
every one of them with two candidates (two or three): their *excluders*.  A
combination of values for the cells is ruled out when two of the cells that see
each other would hold the same value, or when it holds every candidate of an
excluder (the excluder would be left empty).  A candidate that no allowed
combination gives its cell goes.

- **Aligned pair exclusion** (6.2): two cells, excluders of two candidates.
- **Aligned triple exclusion** (7.5): three cells, excluders of two or three.

As in Sudoku Explainer, which these follow:

- the cells need not see one another: they need two excluders in common or more
  (one would do, but SE asks for two);
- a cell is a base when it has two candidates or more, some excluder, and no peer
  with a single candidate;
- the pairs of bases are read by the later, then the earlier (colex, cells
  rising); a triple adds to a pair a third base of two or three candidates from
  the first cell's excluders, then the second's (each rising);
- the first pair (triple) that strikes anything is the step.

These are facts from reading SukakuExplainer's rules; the code is ours.  The search
below is the readable form; on a classic grid the C engine runs it where it was built
(``lazyfun/sudoku/steps/forcing_c/``, the same answers), since the rating walk asks
for the triples at every step past the chains of one line.

>>> from lazyfun.sudoku import parse
>>> from lazyfun.sudoku.steps.techniques import State
>>> s = State(parse("." * 81), None)
>>> for cell, values in ((0, (1, 2, 3)), (4, (1, 2, 3)), (2, (1, 2)), (6, (1, 3))):
...     s.cands[cell] = sum(1 << (v - 1) for v in values)
>>> found = aligned_pair_exclusion(s)  # r1c2=1 leaves r1c1 {1,2,3} none: r1c3, r1c7 take 2, 3
>>> found.eliminations, found.cells
(((1, 1),), (0, 1, 2, 6))
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import reduce
from itertools import product
from operator import or_

from lazyfun.sudoku.steps import engine
from lazyfun.sudoku.steps.techniques import Found, Pair, State, colex_pairs, positions

__all__ = ["aligned_pair_exclusion", "aligned_triple_exclusion"]


def _peer_bits(s: State) -> list[int]:
    """Each cell's peers as bits."""
    return [sum(1 << p for p in peers) for peers in s.peers]


def _bases(s: State, most: int) -> dict[int, int]:
    """Each base cell (rising) and its excluders as bits: its peers with two to ``most``
    candidates."""
    peers = s.of_geometry("peer bits", _peer_bits)
    singles = excluding = 0
    for cell, bits in enumerate(s.cands):
        size = bits.bit_count()
        if size == 1:
            singles |= 1 << cell
        elif 2 <= size <= most:
            excluding |= 1 << cell
    return {
        cell: peers[cell] & excluding
        for cell, bits in enumerate(s.cands)
        if bits.bit_count() >= 2 and peers[cell] & excluding and not peers[cell] & singles
    }


def _exclusion(s: State, cells: tuple[int, ...], excluders: list[int]) -> Found | None:
    """What the combinations of ``cells``' values that no two peers repeat and no
    excluder empties leave out, cell by cell."""
    left = [0] * len(cells)
    locks = [s.cands[e] for e in excluders]
    seeing = [(i, j) for i in range(len(cells)) for j in range(i + 1, len(cells))]
    seeing = [(i, j) for i, j in seeing if cells[j] in s.peers[cells[i]]]
    options = [[v for v in range(1, s.n + 1) if s.cands[c] >> (v - 1) & 1] for c in cells]
    for combo in product(*options):
        if any(combo[i] == combo[j] for i, j in seeing):
            continue
        held = reduce(or_, (1 << (v - 1) for v in combo))  # cells apart may share a value
        if any(not lock & ~held for lock in locks):
            continue
        for i, v in enumerate(combo):
            left[i] |= 1 << (v - 1)
    gone: list[Pair] = [
        (c, v)
        for i, c in enumerate(cells)
        for v in range(1, s.n + 1)
        if (s.cands[c] & ~left[i]) >> (v - 1) & 1
    ]
    return Found(eliminations=tuple(sorted(gone)), cells=(*cells, *excluders)) if gone else None


def _pairs(bases: dict[int, int]) -> Iterator[tuple[int, int]]:
    """The pairs of base cells in SE's order: by the later, then the earlier."""
    cells = list(bases)
    return ((cells[i], cells[j]) for i, j in colex_pairs(len(cells)))


def _c_runs(s: State) -> bool:
    return engine.BUILT and s.variant is None and s.n <= engine.c.MAX_N


def _in_c(s: State, size: int) -> Found | None:
    """The first aligned exclusion of ``size`` cells by the C engine (a classic grid)."""
    found = engine.c.aligned(s.cands, s.n, s.units, size)
    if found is None:
        return None
    cells, gone = found
    return Found(eliminations=tuple(sorted(gone)), cells=cells)


def aligned_pair_exclusion(s: State) -> Found | None:
    """Two cells with two excluders of two candidates or more in common: a candidate
    that no allowed pair of values gives its cell goes (6.2)."""
    return _in_c(s, 2) if _c_runs(s) else _pair_search(s)


def aligned_triple_exclusion(s: State) -> Found | None:
    """Three cells, the third of two or three candidates seeing one of the others, with
    two excluders of two or three candidates or more in common: a candidate that no
    allowed triple of values gives its cell goes (7.5)."""
    return _in_c(s, 3) if _c_runs(s) else _triple_search(s)


def _pair_search(s: State) -> Found | None:
    """:func:`aligned_pair_exclusion` in Python."""
    bases = _bases(s, 2)
    for one, two in _pairs(bases):
        common = bases[one] & bases[two]
        if common.bit_count() >= 2:
            found = _exclusion(s, (one, two), positions(common))
            if found:
                return found
    return None


def _triple_search(s: State) -> Found | None:
    """:func:`aligned_triple_exclusion` in Python."""
    bases = _bases(s, 3)
    for one, two in _pairs(bases):
        both = bases[one] & bases[two]
        if both.bit_count() < 2:
            continue
        around = positions(bases[one]) + positions(bases[two] & ~bases[one])
        for third in around:
            if third in (one, two) or third not in bases:
                continue
            common = both & bases[third]
            if common.bit_count() >= 2:
                found = _exclusion(s, (one, two, third), positions(common))
                if found:
                    return found
    return None
