"""The solver's search state: :class:`Node`, the domains and what the branching that made
them left to do (see :mod:`lazyfun.csp.search.solver`).

A node's domains are one bit set per decision (bit ``i`` of decision ``d`` stands for
``offset[d] + i``), held in a list that no one changes once made: a child gets its
parent's list and the domain it fixes, and its own copy only when it is pruned.

Installed from source, this module is compiled with mypyc (see
:mod:`lazyfun.compiled`); the code here is what runs either way.
"""

from __future__ import annotations

from lazyfun.csp.search.ranking import Ranks

__all__ = ["Domains", "Node", "Postponed", "replaced"]

# A node's domains: a list, copied (never changed) when a child is made or pruned, so
# that pruning hands its list on with no tuple made of it
Domains = list[int]
Postponed = tuple[tuple[int, int], ...]


def replaced(doms: Domains, i: int, bits: int) -> Domains:
    """``doms`` with decision ``i``'s domain ``bits`` (one copy, rather than two
    slices joined).

    >>> replaced([1, 2, 3], 1, 7)
    [1, 7, 3]
    """
    child = list(doms)
    child[i] = bits
    return child


class Node:
    """A search state: the domains, the decision just fixed (-1: none), failure, the
    tasks SetTimes put off (start, earliest start then), the tasks ranked on their
    machines, the decisions a ranking branch narrowed (None: see ``fixed``), and the
    domain ``fixed`` takes in a child not yet pruned (0: ``domains`` are the child's
    own; else they are its parent's, copied once, when the child is pruned).

    A class rather than a named tuple: compiled, a node is made and read in C (a named
    tuple's constructor is Python even then, and a node is made per branch).
    """

    def __init__(
        self,
        domains: Domains,
        fixed: int,
        failed: bool = False,
        postponed: Postponed = (),
        ranks: Ranks = (),
        moved: tuple[int, ...] | None = None,
        value: int = 0,
    ) -> None:
        self.domains = domains
        self.fixed = fixed
        self.failed = failed
        self.postponed = postponed
        self.ranks = ranks
        self.moved = moved
        self.value = value

    def __repr__(self) -> str:
        return (
            f"Node(fixed={self.fixed}, failed={self.failed}, value={self.value}, "
            f"{sum(1 for bits in self.domains if bits & (bits - 1))} open)"
        )
