"""Learnt nogoods: clauses over domain literals, propagated by two watched literals.

A literal ``(i, mask)`` says decision ``i`` takes a value of ``mask`` (a bit set over
its offset, as a domain is): it is *true* once the domain lies within ``mask``, *false*
once the domain misses ``mask``, open otherwise.  ``x = v`` is one bit; ``x <= v`` the
bits up to ``v``'s.  A nogood is a list of literals that cannot all be true in a
solution better than the best known when it was learnt (see
:mod:`lazyfun.csp.search.learning`, which records them from the search's branches).

:class:`Nogoods` holds them and propagates them as one propagator per decision they
name (see :meth:`Nogoods.watcher`; ``Propagators.learnt`` registers them), each run by
the propagation engine when its decision's domain narrows.  Each nogood watches two
literals that were open when they were chosen; only a watched literal turning true
wakes the nogood: then another literal that is not true takes its watch, or, with none
left, the other watched literal is made false (its values in ``mask`` struck out); both
true, the node fails.  Watches need no undoing when the search backs up: domains only
grow there, so a literal open below stays open above.  A literal is always checked
against the domains before anything is struck, so a stale watch can only miss a
pruning, never make a wrong one.

>>> store = Nogoods(2)
>>> store.add([(0, 0b01), (1, 0b01)], [0b11, 0b11])  # not (x = 0 and y = 0)
True
>>> doms = [0b01, 0b11]  # x = 0
>>> store.watcher(0)(doms), doms  # y = 0 is struck out
([1], [1, 2])
>>> store.watcher(0)([0b01, 0b01]) is None  # both true: a dead end
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from lazyfun.csp.propagation.filters import Changes

__all__ = ["Literal", "Nogoods"]

Literal = tuple[int, int]
"""``(decision, mask)``: the decision takes a value of ``mask``."""


def is_true(doms: Sequence[int], literal: Literal) -> bool:
    """Whether the domain lies within the literal's values."""
    i, mask = literal
    return not doms[i] & ~mask


class Nogoods:
    """The nogoods learnt so far over ``size`` decisions, each with the best objective
    known when it was learnt (``bounds``: the goals' minimised values that no solution
    within it beats; None without goals), and per decision the nogoods watching one of
    its literals."""

    def __init__(self, size: int) -> None:
        self.clauses: list[list[Literal]] = []
        self.bounds: list[tuple[int, ...] | None] = []
        self._watched: list[list[int]] = []  # per nogood, the positions of its two watches
        self._watches: list[list[int]] = [[] for _ in range(size)]
        self._seen: set[tuple[Literal, ...]] = set()

    def __len__(self) -> int:
        return len(self.clauses)

    def add(
        self, literals: list[Literal], doms: Sequence[int], bound: tuple[int, ...] | None = None
    ) -> bool:
        """Keep ``literals`` as a nogood (unless it is kept already; whether it is new),
        watching the last two that are not true in ``doms`` (the domains a search starts
        from): a branch's nogood ends with its deepest decisions, the last to come true
        as a search goes down, so it is woken late."""
        key = tuple(sorted(literals))
        if key in self._seen:
            return False
        self._seen.add(key)
        k = len(self.clauses)
        self.clauses.append(list(literals))
        self.bounds.append(bound)
        positions = range(len(literals) - 1, -1, -1)
        open_ = [p for p in positions if not is_true(doms, literals[p])]
        chosen = (open_ + [p for p in positions if p not in open_])[:2]
        watched = [chosen[0], chosen[-1]]
        self._watched.append(watched)
        for i in {literals[p][0] for p in watched}:
            self._watches[i].append(k)
        return True

    def extend(
        self, nogoods: list[list[Literal]], doms: Sequence[int], bound: tuple[int, ...] | None
    ) -> None:
        """Keep each of ``nogoods`` (see :meth:`add`)."""
        for literals in nogoods:
            self.add(literals, doms, bound)

    def watcher(self, i: int) -> Callable[[list[int]], Changes]:
        """The propagator of the nogoods watching a literal of decision ``i``."""

        def prop(doms: list[int]) -> Changes:
            return self._wake(i, doms)

        return prop

    def _wake(self, i: int, doms: list[int]) -> Changes:
        """Decision ``i`` narrowed: each nogood watching it moves a watch that turned
        true, or makes its other watched literal false; None at a dead end."""
        watching = self._watches[i]
        if not watching:
            return ()
        kept: list[int] = []
        changed: list[int] = []
        for n, k in enumerate(watching):
            struck = self._check(k, i, doms)
            if struck == -2:
                self._watches[i] = kept + watching[n:]
                return None
            if struck >= 0:
                changed.append(struck)
            literals, (first, second) = self.clauses[k], self._watched[k]
            if literals[first][0] == i or literals[second][0] == i:
                kept.append(k)
        self._watches[i] = kept
        return changed

    def _check(self, k: int, i: int, doms: list[int]) -> int:
        """Nogood ``k``, woken by decision ``i``, against ``doms``: its true watches moved
        to literals not true where there are some; the decision whose values it strikes
        (-1: none; -2: all its literals are true, a dead end)."""
        literals = self.clauses[k]
        watched = self._watched[k]
        first, second = literals[watched[0]], literals[watched[1]]
        if watched[0] != watched[1] and not is_true(doms, first) and not is_true(doms, second):
            return -1  # two literals open: nothing to infer (most wakes end here)
        for w in (0, 1):
            old = literals[watched[w]]
            if not is_true(doms, old):
                continue
            other = watched[1 - w]
            for p in range(len(literals) - 1, -1, -1):  # the deepest first: woken later
                lit = literals[p]
                if p != other and p != watched[w] and not is_true(doms, lit):
                    watched[w] = p
                    if lit[0] not in (i, old[0], literals[other][0]):
                        self._watches[lit[0]].append(k)
                    break
        first, second = literals[watched[0]], literals[watched[1]]
        true_first, true_second = is_true(doms, first), is_true(doms, second)
        if true_first and true_second:
            return -2  # every literal is true (the search went through the others)
        if true_first == true_second and len(literals) > 1:
            return -1  # two literals open: nothing to infer
        j, mask = second if true_first else first  # the last literal not true: made false
        narrowed = doms[j] & ~mask
        if narrowed == doms[j]:
            return -1
        if not narrowed:
            return -2
        doms[j] = narrowed
        return j
