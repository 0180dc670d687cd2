"""The trail: every narrowing of a domain since the root, in order, with its cause.

An entry says decision ``var`` went from domain ``old`` to ``new`` at a decision level,
because of a *decision* (the search chose it), a *propagator* (which ran on the domains
as they were before the entry its run began with: ``origin``), or a learnt *clause*.
Backing up to a level undoes its entries, newest first; nothing else is copied, so a
node costs what it narrows.  For conflict analysis (:mod:`lazyfun.csp.clauses.analysis`)
the trail answers two questions about the past:

- ``dom_at(i, t)``: decision ``i``'s domain just before entry ``t`` (the ``new`` of its
  last entry before ``t``, else its start);
- ``first_true(i, mask)``: the first entry from which the literal ``(i, mask)`` holds
  (domains only narrow along the trail, so a binary search over ``i``'s entries finds
  it); -1 when it holds at the start.

>>> trail = Trail([0b111, 0b111])
>>> trail.decide(0, 0b001)
>>> trail.narrow(1, 0b110, 4, 0)  # propagator 4, run after entry 0
>>> trail.first_true(1, 0b110), trail.level[1], trail.dom_at(1, 1)
(1, 1, 7)
>>> trail.backjump(0); trail.doms
[7, 7]
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

__all__ = ["DECIDED", "Trail", "clause_cause"]

DECIDED = -1
"""The cause of a decision's entry."""


def clause_cause(c: int) -> int:
    """The cause of an entry that learnt clause ``c`` made (below :data:`DECIDED`)."""
    return -2 - c


class Trail:
    """The domains now (``doms``) and the entries that narrowed them from ``start``."""

    def __init__(self, start: Sequence[int]) -> None:
        self.start = list(start)
        self.doms = list(start)
        self.var: list[int] = []
        self.old: list[int] = []
        self.new: list[int] = []
        self.cause: list[int] = []
        self.origin: list[int] = []
        self.level: list[int] = []
        self.starts: list[int] = []  # per decision level, its first entry
        self.at: list[list[int]] = [[] for _ in start]  # per decision, its entries

    def __len__(self) -> int:
        return len(self.var)

    @property
    def depth(self) -> int:
        """The decision level: how many decisions the domains rest on."""
        return len(self.starts)

    def narrow(self, i: int, bits: int, cause: int, origin: int) -> None:
        """Decision ``i``'s domain becomes ``bits`` (narrower), because of ``cause``,
        which read the domains before entry ``origin``."""
        p = len(self.var)
        self.var.append(i)
        self.old.append(self.doms[i])
        self.new.append(bits)
        self.cause.append(cause)
        self.origin.append(origin)
        self.level.append(len(self.starts))
        self.at[i].append(p)
        self.doms[i] = bits

    def decide(self, i: int, bits: int) -> None:
        """A new decision level, whose first entry narrows ``i`` to ``bits``."""
        self.starts.append(len(self.var))
        self.narrow(i, bits, DECIDED, len(self.var))

    def backjump(self, level: int) -> None:
        """Undo every entry above decision level ``level``."""
        if level >= len(self.starts):
            return
        end = self.starts[level]
        doms, at = self.doms, self.at
        for p in range(len(self.var) - 1, end - 1, -1):
            i = self.var[p]
            doms[i] = self.old[p]
            at[i].pop()
        for column in (self.var, self.old, self.new, self.cause, self.origin, self.level):
            del column[end:]
        del self.starts[level:]

    def dom_at(self, i: int, t: int) -> int:
        """Decision ``i``'s domain just before entry ``t``."""
        entries = self.at[i]
        n = bisect_left(entries, t)
        return self.new[entries[n - 1]] if n else self.start[i]

    def first_true(self, i: int, mask: int) -> int:
        """The first entry from which ``(i, mask)`` holds; -1: it holds at the start;
        ``len(self)``: it does not hold now."""
        if not self.start[i] & ~mask:
            return -1
        entries, new = self.at[i], self.new
        lo, hi = 0, len(entries)
        while lo < hi:
            mid = (lo + hi) // 2
            if new[entries[mid]] & ~mask:
                lo = mid + 1
            else:
                hi = mid
        return entries[lo] if lo < len(entries) else len(self.var)
