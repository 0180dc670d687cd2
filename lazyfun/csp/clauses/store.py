"""The learnt clauses: nogoods over literals, propagated by two watched literals, and
cut back by their literal block distance.

A nogood is a list of literals that cannot all be true (one literal per decision).  Each
watches two literals that were not true when they were chosen; only a watched literal
turning true wakes it (:meth:`Learnt.wake`).  Then another literal that is not true takes
its watch; with none left, every other literal is true, so the other watched one must be
false: its values are struck (a literal already true there is a conflict, the nogood's
own).  A nogood with a false watched literal holds already and is left alone.  Watches
need no undoing when the search backs up: domains only grow there, so a literal that was
not true stays so.

A nogood's *literal block distance* (LBD; Audemard and Simon, 2009) is how many decision
levels its literals were made true at when it was learnt: few levels, a nogood that
glues few decisions together, worth keeping.  :meth:`Learnt.reduce` deletes the worse
half of the others when there are too many (a nogood added with LBD 0 is never cut).

>>> store = Learnt(2)
>>> store.add([(0, 0b01), (1, 0b01)], 2)  # not (x = 0 and y = 0)
0
>>> doms, implied = [0b01, 0b11], []
>>> store.wake(0, doms, lambda c, j, bits: implied.append((c, j, bits)))  # x = 0
-1
>>> implied  # y = 0 is struck
[(0, 1, 2)]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from lazyfun.csp.clauses.explanations import Literal

__all__ = ["Learnt"]

Imply = Callable[[int, int, int], None]
"""Told that nogood ``c`` narrows decision ``j`` to ``bits``."""


class Learnt:
    """The nogoods learnt over ``size`` decisions, each with its LBD, and per decision the
    nogoods watching one of its literals."""

    def __init__(self, size: int) -> None:
        self.literals: list[list[Literal]] = []  # a deleted nogood's is empty
        self.lbd: list[int] = []
        self.alive = 0
        self._watched: list[list[int]] = []
        # Per decision, the nogoods watching one of its literals, and that literal's mask:
        # a watch is woken only when its literal turned true.  A watch that moves leaves
        # the list it was in, and each cut makes the lists again, so they hold exactly
        # the live nogoods' watches.
        self._watching: list[list[int]] = [[] for _ in range(size)]
        self._masks: list[list[int]] = [[] for _ in range(size)]

    def add(self, literals: Sequence[Literal], lbd: int) -> int:
        """Keep ``literals`` as nogood number ``c`` (returned), watching its first two:
        the first is the one the learning makes false, the second the one made true last
        among the others."""
        c = len(self.literals)
        self.literals.append(list(literals))
        self.lbd.append(lbd)
        self.alive += 1
        watched = [0, 1 if len(literals) > 1 else 0]
        self._watched.append(watched)
        for p in set(watched):
            self._watch(c, *literals[p])
        return c

    def _watch(self, c: int, i: int, mask: int) -> None:
        self._watching[i].append(c)
        self._masks[i].append(mask)

    def wake(self, i: int, doms: list[int], imply: Imply) -> int:
        """Decision ``i`` narrowed: each nogood whose watched literal there turned true
        moves that watch, or strikes its other watched literal's values (by ``imply``);
        the nogood whose literals all hold, else -1."""
        watching, masks = self._watching[i], self._masks[i]
        bits, size, kept = doms[i], len(watching), 0
        for n in range(size):
            c, mask = watching[n], masks[n]
            if bits & ~mask:  # not true
                watching[kept], masks[kept] = c, mask
                kept += 1
                continue
            literals = self.literals[c]
            watched = self._watched[c]
            me = 0 if literals[watched[0]][0] == i else 1
            other = watched[1 - me]
            j, other_mask = literals[other]
            if not doms[j] & other_mask:  # the nogood holds already
                watching[kept], masks[kept] = c, mask
                kept += 1
                continue
            for p, (k, k_mask) in enumerate(literals):
                if p != watched[0] and p != watched[1] and doms[k] & ~k_mask:
                    watched[me] = p
                    self._watch(c, k, k_mask)
                    break
            else:
                watching[kept], masks[kept] = c, mask
                kept += 1
                narrowed = doms[j] & ~other_mask
                if not narrowed or other == watched[me]:
                    for m in range(n + 1, size):  # the rest stay as they are
                        watching[kept], masks[kept] = watching[m], masks[m]
                        kept += 1
                    del watching[kept:], masks[kept:]
                    return c
                imply(c, j, narrowed)
        del watching[kept:], masks[kept:]
        return -1

    def reduce(self, keep: int) -> None:
        """Delete the nogoods of LBD above 2, worst LBD first (the oldest among equals),
        until at most ``keep`` are left (those of LBD 2 or less all stay); the watch lists
        are made again without the deleted nogoods."""
        candidates = [c for c, lbd in enumerate(self.lbd) if lbd > 2 and self.literals[c]]
        candidates.sort(key=lambda c: (-self.lbd[c], c))
        for c in candidates[: max(0, self.alive - keep)]:
            self.literals[c] = []
            self.alive -= 1
        for watching, masks in zip(self._watching, self._masks, strict=True):
            watching.clear()
            masks.clear()
        for c, literals in enumerate(self.literals):
            for p in set(self._watched[c]) if literals else ():
                self._watch(c, *literals[p])
