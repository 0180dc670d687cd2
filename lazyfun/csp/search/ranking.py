"""Ranking for schedules on machines: which task goes first, with shaving and a
neighbourhood search for the bound.

A job shop's proof of optimality is a proof that no schedule ends by ``best - 1``.
SetTimes (:class:`~lazyfun.csp.propagation.disjunctive.SetTimes`) branches on start times,
which finds schedules well but proves badly: on Fisher and Thompson's 10x10 it
needs millions of branchings to show that 929 cannot be met.  Three steps, each a
classic of constraint-based scheduling (Baptiste, Le Pape and Nuijten), prove it
in a few dozen:

- **Rank first.**  On the machine with the least slack (its open tasks' window,
  less the time they need), the open task that can start first either runs
  before all the machine's other open tasks, or does not:

      first(t):     start_u >= est_t + p_t for each other open u on the machine
      not_first(t): start_t >= min over the other open u of (est_u + p_u)

  Every schedule lies in one branch or the other.  The tasks ranked on a machine
  stay in that order below the branch (:meth:`Ranking.enforce`: each starts after
  the one ranked before it ends, the open ones after the last ranked, and the
  same backwards for the latest starts).  Once every machine is ranked, each
  task starts as early as it can: with precedences and deadlines only
  (:func:`~lazyfun.csp.search.shop.regular`), that schedule is feasible whenever the
  ranks are, and no other schedule of those ranks ends sooner.
- **Shaving** (Carlier and Pinson's, Martin and Shmoys'): near the root, a start
  that, held to its first (last) values, makes propagation fail cannot take
  them; a bisection finds how many go.  Each try is one propagation, so shaving
  runs only while few tasks are ranked, where a node stands for a large tree.
- **A neighbourhood search for the bound**: the proof's cut is only as tight as
  the best schedule found.  From the best schedule so far, all machines but a
  few keep its order (ranked as it had them) and a short search re-ranks the
  rest under the cut; each schedule it finds is a strict improvement.

Everything here narrows domains only: a node is the domains and the ranks.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import pairwise

from lazyfun.csp.propagation.filters import low

__all__ = ["Ranking", "Ranks"]

# Shaving runs at the nodes with at most this many tasks ranked, for at most this
# many passes over the starts.
SHAVE_DEPTH = 6
SHAVE_ROUNDS = 2

# The tasks ranked so far, in the order they were ranked: (machine, start).
Ranks = tuple[tuple[int, int], ...]
Propagate = Callable[[list[int], Sequence[int]], bool]


def _at_least(bits: int, offset: int, value: int) -> int:
    """``bits`` without the values below ``value``."""
    cut = value - offset
    return bits & ~((1 << cut) - 1) if cut > 0 else bits


def _at_most(bits: int, offset: int, value: int) -> int:
    """``bits`` without the values above ``value``."""
    cut = value - offset
    return bits & ((1 << (cut + 1)) - 1) if cut >= 0 else 0


class Ranking:
    """Rank-first branching over machines (``no_overlap`` resources of tasks of fixed
    sizes), shaving near the root, and neighbourhoods of a schedule.

    ``machines`` holds, per machine, its tasks as ``(start decision, size)``;
    tasks of size 0 occupy no time and are not ranked.  ``propagate`` runs the
    model's propagators to a fixpoint from the decisions given.
    """

    def __init__(
        self,
        machines: Sequence[Sequence[tuple[int, int]]],
        offsets: Sequence[int],
        propagate: Propagate,
        *,
        seed: int = 0,
    ) -> None:
        self.machines = [[(i, p) for i, p in tasks if p > 0] for tasks in machines]
        self.size = {i: p for tasks in self.machines for i, p in tasks}
        self.starts = sorted(self.size)
        self.offsets = offsets
        self.propagate = propagate
        self.random = random.Random(seed)

    def _est(self, doms: Sequence[int], i: int) -> int:
        return self.offsets[i] + low(doms[i])

    def _lst(self, doms: Sequence[int], i: int) -> int:
        return self.offsets[i] + doms[i].bit_length() - 1

    def sequences(self, ranks: Ranks) -> list[list[int]]:
        """Each machine's ranked tasks, first first."""
        seqs: list[list[int]] = [[] for _ in self.machines]
        for machine, i in ranks:
            seqs[machine].append(i)
        return seqs

    def choose(self, doms: Sequence[int], ranks: Ranks) -> tuple[int, int]:
        """The machine to rank on (least slack) and its open task that can start
        first (ties: the one that must start soonest); ``(-1, -1)`` once every
        machine is ranked."""
        seqs = self.sequences(ranks)
        best = (-1, -1)
        best_slack = 0
        for machine, tasks in enumerate(self.machines):
            ranked = set(seqs[machine])
            open_ = [(i, p) for i, p in tasks if i not in ranked]
            if len(open_) < 2:
                continue
            first = min(self._est(doms, i) for i, _ in open_)
            last = max(self._lst(doms, i) + p for i, p in open_)
            slack = last - first - sum(p for _, p in open_)
            if best[0] < 0 or slack < best_slack:
                task = min(open_, key=lambda ip: (self._est(doms, ip[0]), self._lst(doms, ip[0])))
                best, best_slack = (machine, task[0]), slack
        return best

    def _others(self, machine: int, t: int, ranks: Ranks) -> list[int]:
        """The machine's open tasks but ``t``."""
        ranked = set(self.sequences(ranks)[machine])
        return [i for i, _ in self.machines[machine] if i != t and i not in ranked]

    def first(self, doms: Sequence[int], machine: int, t: int, ranks: Ranks) -> list[int]:
        """The domains where ``t`` runs before the machine's other open tasks."""
        others = self._others(machine, t, ranks)
        out = list(doms)
        end = self._est(doms, t) + self.size[t]
        for u in others:
            out[u] = _at_least(out[u], self.offsets[u], end)
        latest = min(self._lst(doms, u) for u in others) - self.size[t]
        out[t] = _at_most(out[t], self.offsets[t], latest)
        return out

    def not_first(self, doms: Sequence[int], machine: int, t: int, ranks: Ranks) -> list[int]:
        """The domains where some other open task of the machine runs before ``t``."""
        others = self._others(machine, t, ranks)
        out = list(doms)
        soonest = min(self._est(doms, u) + self.size[u] for u in others)
        out[t] = _at_least(out[t], self.offsets[t], soonest)
        return out

    def enforce(self, doms: list[int], ranks: Ranks) -> bool:
        """Keep the ranked tasks in their order, and before the open ones, propagating
        to a fixpoint; False when that cannot be."""
        if not ranks:
            return True
        seqs = self.sequences(ranks)
        while True:
            touched: list[int] = []
            for machine, seq in enumerate(seqs):
                if seq:
                    rest = [i for i, _ in self.machines[machine] if i not in seq]
                    self._in_order(doms, seq, rest, touched)
            if not touched:
                return True
            if any(not doms[i] for i in touched) or not self.propagate(doms, touched):
                return False

    def _in_order(
        self, doms: list[int], seq: list[int], rest: list[int], touched: list[int]
    ) -> None:
        """One pass of ``seq`` first, in order, then ``rest``: earliest starts pushed
        forwards along the order, latest starts pulled back against it; the starts
        narrowed are added to ``touched``."""
        size = self.size
        offsets = self.offsets
        last = seq[-1]
        after = [(a, b) for a, b in pairwise(seq)] + [(last, b) for b in rest]
        for a, b in after:
            narrowed = _at_least(doms[b], offsets[b], self._est(doms, a) + size[a])
            if narrowed != doms[b]:
                doms[b] = narrowed
                touched.append(b)
        ahead = [(last, min(self._lst(doms, b) for b in rest))] if rest else []
        ahead += [(a, self._lst(doms, b)) for a, b in pairwise(seq)][::-1]
        for a, start in ahead:
            narrowed = _at_most(doms[a], offsets[a], start - size[a])
            if narrowed != doms[a]:
                doms[a] = narrowed
                touched.append(a)

    def shaves(self, ranks: Ranks) -> bool:
        """Whether a node with these ranks is near enough the root to shave."""
        return len(ranks) <= SHAVE_DEPTH

    def shave(self, doms: list[int], rounds: int = -1) -> bool:
        """Take out of each start the first and last values that propagation refutes
        (a bisection over how many), for ``rounds`` passes or to a fixpoint; False
        when a start is left with none."""
        for _ in range(rounds if rounds >= 0 else SHAVE_ROUNDS):
            changed = False
            for i in self.starts:
                for side in (0, 1):
                    bits = doms[i]
                    if not bits & (bits - 1):
                        continue
                    gone = self._refuted(doms, i, side)
                    if gone < 0:
                        continue
                    changed = True
                    lo = low(bits)
                    hi = bits.bit_length() - 1
                    if side == 0:
                        doms[i] = bits & ~((1 << (lo + gone + 1)) - 1)
                    else:
                        doms[i] = bits & ((1 << (hi - gone)) - 1)
                    if not doms[i] or not self.propagate(doms, [i]):
                        return False
            if not changed:
                break
        return True

    def _refuted(self, doms: list[int], i: int, side: int) -> int:
        """The largest ``w`` such that start ``i`` held to its first (side 0) or last
        (side 1) ``w + 1`` positions fails; -1 when even one position holds."""
        bits = doms[i]
        lo = low(bits)
        hi = bits.bit_length() - 1

        def fails(w: int) -> bool:
            trial = list(doms)
            if side == 0:
                trial[i] = bits & ((1 << (lo + w + 1)) - 1)
            else:
                trial[i] = bits & ~((1 << (hi - w)) - 1)
            return not trial[i] or not self.propagate(trial, [i])

        if not fails(0):
            return -1
        # Galloping first (few values go, as a rule), then a bisection.
        failing, holding = 0, hi - lo
        step = 1
        while failing + step < holding:
            if not fails(failing + step):
                holding = failing + step
                break
            failing += step
            step *= 2
        while holding - failing > 1:
            middle = (failing + holding) // 2
            if fails(middle):
                failing = middle
            else:
                holding = middle
        return failing

    def earliest(self, doms: Sequence[int]) -> list[int]:
        """Every open start at its earliest: once every machine is ranked, the
        schedule that ends soonest."""
        out = list(doms)
        for i in self.starts:
            bits = out[i]
            out[i] = bits & -bits
        return out

    def neighbourhood(self, values: Sequence[int], keep: int) -> Ranks:
        """The ranks of ``keep`` machines chosen at random, in the order a schedule
        (its ``values``) runs them: the other machines are free to be re-ranked."""
        chosen = self.random.sample(range(len(self.machines)), keep)
        ranks: list[tuple[int, int]] = []
        for machine in sorted(chosen):
            order = sorted(self.machines[machine], key=lambda ip: values[ip[0]])
            ranks += [(machine, i) for i, _ in order]
        return tuple(ranks)
