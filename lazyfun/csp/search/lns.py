"""Large neighbourhood search for branch and bound: which decisions a round sets free.

With ``lns=True`` (``Model.solutions``, ``Model.solve``; the FlatZinc front end's ``-f``),
once a solution is known the runs of the search that restart from the root (see
:mod:`lazyfun.csp.search.restarts`) become rounds of large neighbourhood search (Shaw, 1998;
without ``-f``, the FlatZinc runner's rounds come before one run in two: ``every`` below):
each round keeps most of the best solution (its decisions fixed to their values there) and
sets a random part free, then searches that smaller model for a better solution, within
:data:`ROUND_NODES` branchings, under the goal's cut (only strictly better solutions).  A
better solution found is reported as branch and bound reports one, and the next rounds start
from it.

The part set free is a fraction ``rate`` of the *candidates* (the model's own
decisions, neither hidden nor a goal that is one decision, such as a makespan: those are
never fixed, they follow the others; a goal's sum is of candidates).  It adapts: a
round that searches its neighbourhood to the end and finds nothing better widens the
next (``rate`` times :data:`GROW`, up to :data:`MOST`); one that runs out of branchings
narrows it (down to :data:`LEAST`); one that finds better keeps it.  The choice is a
seeded ``random.Random``, so a run is the same for the same seed and the same limits.

Rounds prove nothing: the proof's search, in slices between them, still runs, and once
:data:`STALE_RUNS` of the rounds' runs in a row find nothing better (``stale_runs``: where
the rounds share the runs with the solver's branching, as many as without rounds) it goes
on alone to its end; a search that reaches its end proves the best optimal, as without
rounds.

Five candidates of six decisions, each over three values, the best solution at the
first value of each: one candidate (a fifth) is set free, the sixth decision is not a
candidate and stays free.

>>> n = Neighbourhoods([0, 1, 2, 3, 4], seed=1)
>>> n.relaxed([0b111] * 6, [0b001] * 6)
[1, 7, 1, 1, 1, 7]
>>> n.ended(improved=False, exhausted=True); round(n.rate, 2)
0.3
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from lazyfun.csp.modelling.constraints import Decision, Expr
from lazyfun.csp.search.node import Domains
from lazyfun.csp.search.restarts import IDLE_RUNS

__all__ = [
    "FARTHEST",
    "GROW",
    "LEAST",
    "MOST",
    "ROOT_COST",
    "ROUND_NODES",
    "STALE_RUNS",
    "START",
    "Neighbourhoods",
    "neighbourhoods",
]

ROUND_NODES = 100
"""The branchings a round may take."""
START = 0.2
"""The fraction of the candidates the first round sets free."""
LEAST = 0.1
"""The least fraction set free."""
MOST = 0.4
"""The largest fraction set free."""
GROW = 1.5
"""How much a round that found its neighbourhood empty widens the next (and one that ran
out of branchings narrows it)."""
STALE_RUNS = 10
"""The runs of rounds in a row that may find nothing better before the proof's search
goes on alone."""
ROOT_COST = 10
"""The branchings of its run's budget a round takes at least: one whose root fails took
one branching, but a propagation of the whole model."""
FARTHEST = 16
"""The most runs of the solver's branching from one run of rounds to the next."""


class Neighbourhoods:
    """The neighbourhoods of the rounds: the candidates, the seeded choice, the fraction
    set free, and how many rounds ran and found better (``rounds``, ``improved``).

    Which runs of the solver's branching have rounds: the first, and after rounds that
    found better, the ``every``-th run after them (1, the default: the next); after rounds
    that found nothing better, twice as many runs after them as the last time, up to
    :data:`FARTHEST`, so rounds that stop paying give their time back.  With ``every`` 1
    the rounds take the run; above 1 they come first, on a budget of their own as large
    as the run's, and the run follows as without them (so a proof the runs make is made
    as without rounds).  ``root_cost``: the branchings of its run's budget a round takes at
    least (:data:`ROOT_COST`)."""

    def __init__(self, candidates: Sequence[int], seed: int, every: int = 1) -> None:
        if every < 1:
            raise ValueError(f"every is at least 1, not {every}")
        self.candidates = list(candidates)
        self.rate = START
        self.rounds = 0
        self.improved = 0
        self.every = every
        self.root_cost = ROOT_COST
        self._gap = 1  # runs from one run of rounds to the next
        self._waiting = 0  # runs to wait before the next
        self._in_rounds = False  # whether the last run was of rounds
        self._improved_before = 0  # rounds that found better before it
        self._random = random.Random(seed)

    @property
    def stale_runs(self) -> int:
        """The runs in a row that may find nothing better before the proof's search goes on
        alone: :data:`STALE_RUNS` where every run is one of rounds, else as without them."""
        return STALE_RUNS if self.every == 1 else IDLE_RUNS

    def takes_run(self) -> bool:
        """Whether the run of the solver's branching starting now has rounds."""
        if self._in_rounds:  # it ended: when the next one comes
            found = self.improved > self._improved_before
            self._gap = self.every if found else min(FARTHEST, 2 * max(self._gap, self.every))
            self._waiting = self._gap - 1
        self._in_rounds = not self._waiting
        self._waiting = max(0, self._waiting - 1)
        self._improved_before = self.improved
        return self._in_rounds

    def relaxed(self, root: Domains, best: Domains) -> Domains:
        """``root``'s domains with every candidate but a random ``rate`` of them (at least
        one) fixed to its domain in ``best`` (a solution's: one value each)."""
        self.rounds += 1
        free = max(1, round(self.rate * len(self.candidates)))
        kept = set(self.candidates) - set(self._random.sample(self.candidates, free))
        return [best[i] & bits if i in kept else bits for i, bits in enumerate(root)]

    def ended(self, *, improved: bool, exhausted: bool) -> None:
        """Adapt the fraction to how a round went: found better (kept), searched its
        neighbourhood to the end in vain (widened), or ran out of branchings (narrowed)."""
        if improved:
            self.improved += 1
        elif exhausted:
            self.rate = min(MOST, self.rate * GROW)
        else:
            self.rate = max(LEAST, self.rate / GROW)


def neighbourhoods(
    decisions: Sequence[Decision], goals: Sequence[tuple[Expr, int]], seed: int
) -> Neighbourhoods | None:
    """The rounds' neighbourhoods for a model with ``goals``, over its decisions neither
    hidden nor a goal of one decision; None without goals or such decisions."""
    objectives = {i for expr, _ in goals if len(expr.terms) == 1 for i in expr.terms}
    free = [d.index for d in decisions if not d.hidden and d.index not in objectives]
    return Neighbourhoods(free, seed) if goals and free else None
