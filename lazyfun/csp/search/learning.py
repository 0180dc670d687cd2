"""Nogoods recorded from restarts (Lecoutre, Sais, Tabary and Vidal, 2007, "Recording
and minimizing nogoods from restarts"): what a run of the search has refuted, kept as
clauses that every later run propagates, so none searches a refuted subtree again.

A branching splits a decision's domain into parts, tried in turn (one value each, or
the halves of a split, or the best solution's value and the rest).  While a search
runs, :class:`Branch` keeps its current branch: per open branching, the decision, the
part being searched (a positive decision, the literal ``x in part``) and the union of
the parts already searched to the end (refuted: no solution better than the best there).
When the run stops, each branching with refuted parts gives a reduced nld-nogood: the
positive decisions above it and ``x in refuted`` cannot all hold
(:meth:`Branch.nogoods`; the negative decisions drop out, as in the paper).  The solver
(:mod:`lazyfun.csp.search.solver`) records them at the end of each restart run and each
slice of the proof's search, and they are propagated by two watched literals
(:class:`lazyfun.csp.propagation.nogoods.Nogoods`).

With goals a refuted part may hold solutions, but none better than the best then: the
goals' cut only tightens, so the nogood stays true.  Large neighbourhood rounds and the
scheduling searches record nothing: their branches start from domains narrowed by more
than their decisions.

>>> branch = Branch()
>>> x = branch.open(0)
>>> x.enter(0b001); x.enter(0b010)  # x = 0 refuted, x = 1 now
>>> y = branch.open(1)
>>> y.enter(0b100); y.enter(0b011)  # y = 2 refuted, y in {0, 1} now
>>> branch.nogoods()
[[(0, 1)], [(0, 2), (1, 4)]]
"""

from __future__ import annotations

from collections.abc import Iterator

from lazyfun.csp.search.node import Node

__all__ = ["Branch", "Level", "tracked"]


class Level:
    """One open branching: its decision, the part searched now and the parts refuted."""

    def __init__(self, decision: int) -> None:
        self.decision = decision
        self.part = 0
        self.refuted = 0

    def enter(self, part: int) -> None:
        """The next part is searched: the one before was refuted."""
        self.refuted |= self.part
        self.part = part


class Branch:
    """The open branchings from the root to the node searched now."""

    def __init__(self) -> None:
        self.levels: list[Level] = []

    def open(self, decision: int) -> Level:
        """A branching on ``decision`` opens below the others."""
        level = Level(decision)
        self.levels.append(level)
        return level

    def close(self) -> None:
        """The deepest branching is searched to the end."""
        self.levels.pop()

    def nogoods(self) -> list[list[tuple[int, int]]]:
        """The reduced nld-nogoods of the branch: per branching with refuted parts, the
        positive decisions above it and its decision in the refuted parts."""
        found: list[list[tuple[int, int]]] = []
        positive: list[tuple[int, int]] = []
        for level in self.levels:
            if level.refuted:
                found.append([*positive, (level.decision, level.refuted)])
            if level.part:
                positive.append((level.decision, level.part))
        return found


def tracked(branch: Branch, children: Iterator[Node]) -> Iterator[Node]:
    """``children``, one branching's, as they come, each entered in ``branch`` (a child
    that narrows no decision, as the node that ends a slice, is passed on as it is)."""
    level: Level | None = None
    for child in children:
        if child.fixed >= 0:
            if level is None:
                level = branch.open(child.fixed)
            level.enter(child.value)
        yield child
    if level is not None:
        branch.close()
