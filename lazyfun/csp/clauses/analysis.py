"""Conflict analysis: from the literals a failure rests on to a first-UIP nogood.

A conflict is a set of literals that cannot all be true, all true now.  While more than
one of them was made true at the conflict's decision level, the one made true last (at
trail entry ``p``, decision ``i``) is replaced by what made it true:

    {(i, m)} + rest   becomes   reason(p) + {(i, m | removed(p))} + rest

where ``reason(p)`` explains entry ``p`` (:mod:`lazyfun.csp.clauses.explanations`, or the
other literals of the nogood that made it) and ``removed(p)`` is what it struck: given the
reason those values are gone, so ``i`` lies in ``m`` as soon as it lies in ``m`` or in
what was struck, which held before ``p``.  Literals on one decision are one literal, the
intersection of their masks; a literal true at the root (or at level 0) is dropped.  Each
step replaces the last-made literal by ones made before it, so the analysis ends, at the
*first unique implication point*: one literal of the level left, the UIP.  The nogood it
gives is asserting: back at the highest level among its other literals, they are all
true and the UIP must be false.

Minimisation then drops each other literal whose reason follows from the literals kept
(and the root): the nogood without it still cannot hold.  It asks each literal's reason,
so over a nogood of thousands of literals (a linear row over thousands of decisions,
explained by its scope) it would take seconds, past the search's time limit, for little:
such a nogood is kept as it is (:data:`MINIMISED_UP_TO`).
"""

from __future__ import annotations

from collections.abc import Callable

from lazyfun.csp.clauses.explanations import Literal
from lazyfun.csp.clauses.trail import DECIDED, Trail

__all__ = ["MINIMISED_UP_TO", "Learnt", "analyse"]

MINIMISED_UP_TO = 256
"""The most literals a nogood may have to be minimised."""

Reason = Callable[[int], list[Literal]]
"""Trail entry ``p`` (not a decision) to the literals that made it."""
Learnt = tuple[list[Literal], int, int]
"""A nogood with its UIP first, the level to back up to, its LBD."""


def analyse(trail: Trail, conflict: list[Literal], reason: Reason) -> Learnt | None:
    """The first-UIP nogood of ``conflict`` (see the module's docstring), minimised, with
    the level to back up to and its LBD; None when it is empty: the conflict holds at the
    root, and the search is over."""
    mask: dict[int, int] = {}
    made: dict[int, int] = {}  # per literal's decision, the entry that made it true
    level = trail.level

    def add(literals: list[Literal]) -> None:
        for i, m in literals:
            m &= mask.get(i, -1)
            p = trail.first_true(i, m)
            if p < 0 or level[p] == 0:
                mask.pop(i, None)
                made.pop(i, None)
            else:
                mask[i], made[i] = m, p

    add(conflict)
    if not made:
        return None
    top = max(level[p] for p in made.values())
    while True:
        here = [i for i, p in made.items() if level[p] == top]
        if len(here) <= 1:
            break
        i = max(here, key=made.__getitem__)
        p = made.pop(i)
        m = mask.pop(i)
        add([*reason(p), (i, m | (trail.old[p] & ~trail.new[p]))])
    uip = here[0]
    if len(made) <= MINIMISED_UP_TO:
        _minimise(trail, mask, made, uip, reason)
    others = sorted((i for i in made if i != uip), key=made.__getitem__, reverse=True)
    literals = [(uip, mask[uip]), *((i, mask[i]) for i in others)]
    back = level[made[others[0]]] if others else 0
    lbd = len({level[p] for p in made.values()})
    return literals, back, lbd


def _minimise(
    trail: Trail, mask: dict[int, int], made: dict[int, int], uip: int, reason: Reason
) -> None:
    """Drop each literal but the UIP whose reason the others imply (one at a time, each
    against the literals left, so no two justify each other)."""
    for i in sorted(made, key=made.__getitem__, reverse=True):
        p = made[i]
        if i == uip or trail.cause[p] == DECIDED:
            continue
        needed = [*reason(p), (i, mask[i] | (trail.old[p] & ~trail.new[p]))]
        if all(_implied(trail, mask, i, j, r) for j, r in needed):
            del mask[i], made[i]


def _implied(trail: Trail, mask: dict[int, int], dropped: int, j: int, r: int) -> bool:
    """Whether ``(j, r)`` holds wherever the literals of ``mask`` but ``dropped``'s do,
    or holds from the root (or level 0) on."""
    if j != dropped and j in mask and not mask[j] & ~r:
        return True
    p = trail.first_true(j, r)
    return p < 0 or (p < len(trail) and trail.level[p] == 0)
