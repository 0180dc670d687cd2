"""Solving a model: propagation to a fixpoint inside the core search skeleton.

A search state is a tuple of domains, one bit set per decision (bit ``i`` of
decision ``d`` stands for ``offset[d] + i``), with the decision last fixed.
The four parameters of :func:`lazyfun.search`:

- ``prune``: run the propagators of the constraints on the decision just
  fixed, then of every decision whose domain shrinks, to a fixpoint (see
  :mod:`lazyfun.csp.propagators`);
- ``blocked``: some domain became empty;
- ``complete``: every domain holds one value;
- ``expand1``: the decision with the smallest domain, one child per value,
  smallest value first.  Ties go to the highest weighted degree: the number
  of constraints on the decision, plus one for each time one of them failed
  so far in this search (dom/wdeg's weights, used only to break ties).

The solver knows decisions and constraints, not the model that holds them.

Installed from source, this module is compiled with mypyc (see
:mod:`lazyfun.compiled`); the code here is what runs either way.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from lazyfun.csp.constraints import Constraint, Decision
from lazyfun.csp.propagators import Propagators
from lazyfun.csp.results import Decisions, Quality, Solution
from lazyfun.search import search

__all__ = ["Node", "Solutions"]

Domains = tuple[int, ...]


class Node(NamedTuple):
    """A search state: the domains, the decision just fixed (-1: none), and failure."""

    domains: Domains
    fixed: int
    failed: bool = False


class _Stop(Exception):
    """A time or node limit was reached."""


class Solutions(Iterator[Solution]):
    """The solutions of a model, each found when asked for.

    ``stopped_by`` is None while the stream runs and after it ends by
    exhaustion; ``"time_limit"`` or ``"node_limit"`` when a limit ended it.
    ``nodes`` counts the branchings so far.
    """

    def __init__(
        self,
        model: Decisions,
        decisions: Sequence[Decision],
        constraints: Sequence[Constraint],
        *,
        time_limit: float | None,
        node_limit: int | None,
    ) -> None:
        self.model = model
        self.time_limit = time_limit
        self.node_limit = node_limit
        self.stopped_by: str | None = None
        self.nodes = 0
        self._compiled = Propagators(decisions, constraints)
        self._started = time.perf_counter()
        self._stream = self._run()

    def __iter__(self) -> Solutions:
        return self

    def __next__(self) -> Solution:
        try:
            return next(self._stream)
        except _Stop as stop:
            self.stopped_by = str(stop)
            raise StopIteration from None

    def _prune(self, node: Node) -> Node:
        doms = list(node.domains)
        compiled = self._compiled
        if node.fixed >= 0:
            ok = compiled.propagate(doms, [node.fixed])
        else:
            ok = all(check(doms) is not None for check in compiled.constant)
            ok = ok and compiled.propagate(doms, range(len(doms)))
        return Node(tuple(doms), node.fixed, not ok)

    def _expand1(self, node: Node) -> Iterator[Node]:
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise _Stop("node_limit")
        if self.time_limit is not None and time.perf_counter() - self._started > self.time_limit:
            raise _Stop("time_limit")
        doms = node.domains
        weight = self._compiled.weight
        best = -1
        best_key = (0, 0)
        for i, bits in enumerate(doms):
            if bits & (bits - 1):
                key = (bits.bit_count(), -weight[i])
                if best < 0 or key < best_key:
                    best, best_key = i, key
        bits = doms[best]
        while bits:
            bit = bits & -bits
            bits ^= bit
            yield Node((*doms[:best], bit, *doms[best + 1 :]), best)

    def _run(self) -> Iterator[Solution]:
        compiled = self._compiled
        root = self._prune(Node(compiled.start, -1))
        found = search(
            root,
            expand1=self._expand1,
            complete=lambda n: all(not b & (b - 1) for b in n.domains),
            blocked=lambda n: n.failed,
            prune=self._prune,
        )
        for node in found:
            values = tuple(compiled.value(i, b) for i, b in enumerate(node.domains))
            yield Solution(self.model, values, Quality.FEASIBLE)
