"""Two searches of one model, one after the other, as one stream of solutions.

The depth-first search with restarts proves fast what propagation and a good branching
settle (``all_different`` puzzles, tight annotations), and lazy clause generation what
needs memory of its failures (schedules, planning: see :mod:`lazyfun.csp.clauses.engine`);
neither is the better on every model.  :class:`Portfolio` gives the first a share of the
time; unless it settled the model by then, the second takes the rest, searching only for
better than the best the first found, from that solution's values.  An optimisation
whose first search has found nothing better for a while goes over sooner: the restarts
had found what they find.  Each solution is
yielded as its search finds it; a search that ends within its time proves what it
found (or that there is nothing), so the stream ends as a single search's would.
A satisfaction's first search has a third of the time: what it finds it finds fast
(each satisfaction of the bench's 60 it solves within 10 s of a minute), and past that
the second's memory has the better odds.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from lazyfun.csp.clauses.engine import LearningSolutions
from lazyfun.csp.modelling.results import Solution
from lazyfun.csp.search.lns import Neighbourhoods
from lazyfun.csp.search.solver import Solutions

__all__ = ["FIRST_SHARE", "SATISFACTION_SHARE", "STALE_SHARE", "Portfolio"]

FIRST_SHARE = 0.5
"""The depth-first search's share of the time in an optimisation."""

SATISFACTION_SHARE = 1 / 3
"""The depth-first search's share of the time in a satisfaction."""

STALE_SHARE = 1 / 6
"""How long, as a share of the time, the depth-first search of an optimisation has to
better its last solution before the second search takes over."""


class Portfolio:
    """``first`` for :data:`FIRST_SHARE` of ``time_limit`` seconds (counted from now; once
    it has a solution to better, at most :data:`STALE_SHARE` of them after its last; not
    ``optimising``, :data:`SATISFACTION_SHARE`),
    then, unless it settled the model, the stream ``second(seconds left)`` makes, started
    from the best solution ``first`` found (:meth:`LearningSolutions.start_from`).
    ``nodes``, ``failures`` and ``propagations`` add up both searches', ``stopped_by``
    is the last one's."""

    def __init__(
        self,
        first: Solutions,
        second: Callable[[float], LearningSolutions],
        time_limit: float,
        *,
        optimising: bool = True,
    ) -> None:
        self.first = first
        self.second: LearningSolutions | None = None
        self._make = second
        self._started = time.perf_counter()
        self._ends = self._started + time_limit
        share = FIRST_SHARE if optimising else SATISFACTION_SHARE
        self._share, self._stale = share * time_limit, STALE_SHARE * time_limit
        first.time_limit = self._share
        self.stopped_by: str | None = None
        self._stream = self._run()

    def __iter__(self) -> Portfolio:
        return self

    def __next__(self) -> Solution:
        return next(self._stream)

    def _run(self) -> Iterator[Solution]:
        for solution in self.first:
            if solution.objective:
                spent = time.perf_counter() - self._started
                self.first.time_limit = min(self._share, spent + self._stale)
            yield solution
        if self.first.stopped_by is None:  # settled
            return
        second = self._make(max(0.0, self._ends - time.perf_counter()))
        self.second = second
        if self.first.best is not None:
            second.start_from(self.first.best)
        yield from second
        self.stopped_by = second.stopped_by

    def _searches(self) -> list[Solutions]:
        return [self.first] if self.second is None else [self.first, self.second]

    @property
    def nodes(self) -> int:
        """The branchings of both searches."""
        return sum(s.nodes for s in self._searches())

    @property
    def failures(self) -> int:
        """The dead ends of both searches."""
        return sum(s.failures for s in self._searches())

    @property
    def propagations(self) -> int:
        """The propagator runs of both searches."""
        return sum(s.propagations for s in self._searches())

    @property
    def nogoods(self) -> int:
        """The nogoods the second search learnt (0 before it starts)."""
        return 0 if self.second is None else self.second.nogoods

    @property
    def lns(self) -> Neighbourhoods | None:
        """The first search's large neighbourhoods, if it searches them."""
        return self.first.lns
