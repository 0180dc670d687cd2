"""The search that learns: lazy clause generation, as a stream of solutions.

:class:`LearningSolutions` is :class:`~lazyfun.csp.search.solver.Solutions` (the same
stream, limits and figures) searched the way CDCL solvers search, over the model's own
propagators:

- **propagate**: the learnt nogoods first (:mod:`lazyfun.csp.clauses.store`), then the
  propagators watching what narrowed, to a fixpoint; each narrowing goes on the trail
  with its cause (:mod:`lazyfun.csp.clauses.trail`); nothing is explained yet;
- **conflict**: the failure is analysed to a first-UIP nogood, asking the causes for
  their explanations only now (:mod:`lazyfun.csp.clauses.analysis`); the search backs
  up to where the nogood asserts and goes on from there, the nogood kept;
- **decide**: in the odd runs, the model's branching (``Model.branch_on``, FlatZinc's
  search annotations) while one of its decisions is open, its first branch taken as the
  decision (the best solution's value first, where its domain holds it); otherwise, and
  in the even runs, the open decision of highest activity (VSIDS: each nogood learnt
  bumps its decisions, and the bump grows by 1/0.95 a conflict, so recent conflicts
  count most; ties to the smallest domain), at its saved phase (the value it last had
  fixed, or in the best solution) where its domain holds it, else its least value (its
  largest where that lowers the first goal), or with more than :data:`SPLIT` values its
  lower half;
- **restart** after ``RESTART_CONFLICTS * luby(k)`` conflicts (run ``k``), back to the
  root with every nogood kept; there, past a limit, the worse half of the nogoods by
  LBD goes;
- **solution**: every domain fixed.  Without goals the nogood of its decisions leaves
  it out of what follows; with goals the goals' cut tightens past it and the next
  propagation fails on it.  A conflict at the root ends the search: every solution was
  found, or the best is optimal.

The nogoods hold whatever order the search takes, so the stream holds the same
solutions (or the same optimum) as the depth-first search, found in another order.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from lazyfun.csp.clauses.analysis import analyse
from lazyfun.csp.clauses.explanations import (
    Explainer,
    Literal,
    at_most,
    by_bounds,
    by_element,
    by_guards,
    by_others,
    by_ranges,
    by_scope,
    by_time_table,
    by_values,
)
from lazyfun.csp.clauses.store import Learnt
from lazyfun.csp.clauses.trail import Trail, clause_cause
from lazyfun.csp.modelling.constraints import Constraint, Decision, Expr
from lazyfun.csp.modelling.domain import ModelError
from lazyfun.csp.modelling.results import Decisions, Quality, Solution
from lazyfun.csp.propagation import kernels
from lazyfun.csp.search.progress import SearchProgress
from lazyfun.csp.search.restarts import luby
from lazyfun.csp.search.solver import Solutions
from lazyfun.csp.search.strategy import Strategy, branches, chosen, solvers_choice

__all__ = ["RESTART_CONFLICTS", "SPLIT", "LearningSolutions"]

RESTART_CONFLICTS = 100
"""The conflicts of a run of budget 1 (run ``k`` takes ``luby(k)`` times as many)."""
SPLIT = 8
"""A decision with more values than this is split in halves rather than fixed."""
KEPT = 2000
"""The nogoods kept before the first cut; each cut lets 10% more stay."""
DECAY = 0.95


class LearningSolutions(Solutions):
    """The solutions of a model, searched with lazy clause generation (see the module's
    docstring).  ``conflicts`` and ``restarts`` count what they say, ``nogoods`` the
    nogoods learnt (all of them, cut or not), ``found`` the solutions; ``store`` holds
    the nogoods, ``bounds`` for each the goals' best when it was learnt and ``after``
    how many solutions were found by then."""

    def __init__(
        self,
        model: Decisions,
        decisions: Sequence[Decision],
        constraints: Sequence[Constraint],
        *,
        time_limit: float | None,
        node_limit: int | None,
        goals: Sequence[tuple[Expr, int]] = (),
        strategies: Sequence[Strategy] = (),
        progress: SearchProgress | None = None,
        lns: bool = False,
        seed: int = 0,
        learn: bool = False,
    ) -> None:
        """As :class:`~lazyfun.csp.search.solver.Solutions` is made; ``lns``, ``seed``
        and ``learn`` are left aside (this search learns its own way)."""
        super().__init__(
            model,
            decisions,
            constraints,
            time_limit=time_limit,
            node_limit=node_limit,
            goals=goals,
            strategies=strategies,
            progress=progress,
        )
        c = self._compiled
        self.conflicts = 0
        self.restarts = 0
        self.store = Learnt(c.size)
        # Per nogood, the goals' best (minimised) when it was learnt: it holds for the
        # solutions better than that (None without goals: for all).
        self.bounds: list[tuple[int, ...] | None] = []
        # Per nogood, how many solutions were found before it was learnt: without goals,
        # those alone may break it (a solution's own nogood leaves it out).
        self.after: list[int] = []
        self.found = 0
        self.trail = Trail(c.start)
        self._scopes = [tuple(dict.fromkeys(scope)) for scope in c.scopes]
        self._explainers = [self._explainer(k, scope) for k, scope in enumerate(self._scopes)]
        self._activity = [0.0] * c.size
        self._bump = 1.0
        self._phase = [0] * c.size
        self._best: list[int] = []  # the best solution's domains
        self._guided = bool(self._strategies)  # in a run by the model's branching
        self._weighted = False  # in a run by dom/wdeg
        self._queue: list[int] = []
        self._head = 0
        self._queued = [False] * len(c.propagators)
        self._checked = 0  # the trail entries whose nogoods were woken
        self._gates = self._element_gates()

    def _element_gates(self) -> list[list[tuple[int, int]] | None]:
        """Per decision, per propagator watching it: an element's index and the index's
        bits that point at the decision when the decision is one of its items (else
        ``(-1, 0)``); None for a decision no element holds as an item.  A change of an
        item the index no longer points at narrows nothing, so it wakes no element."""
        c = self._compiled
        at: dict[tuple[int, int], int] = {}
        for k, (_, index, items) in c.elements.items():  # neither end is an item
            base = c.offsets[index]
            for p, (j, _) in enumerate(items):
                if j >= 0 and p >= base:
                    at[j, k] = at.get((j, k), 0) | 1 << (p - base)
        gates: list[list[tuple[int, int]] | None] = [None] * c.size
        for (j, k), bits in at.items():
            gate = gates[j] or [(-1, 0)] * len(c.watchers[j])
            gate[c.watchers[j].index(k)] = (c.elements[k][1], bits)
            gates[j] = gate
        return gates

    def _explainer(self, k: int, scope: tuple[int, ...]) -> Explainer:
        """Propagator ``k``'s explanation (see :mod:`lazyfun.csp.clauses.explanations`)."""
        c = self._compiled
        if k in c.rows:
            return by_bounds(*c.rows[k], scope, c.start)
        if k in c.elements:
            return by_element(*c.elements[k], scope, c.start, c.offsets)
        if k in c.guarded:
            return by_guards(c.guarded[k], scope, c.start)
        if k in c.timetables:
            return by_time_table(*c.timetables[k], scope, c.start, c.offsets)
        kind = c.explained.get(k, "")
        if kind == "distinct":
            return by_values(scope, c.start, c.offsets)
        if kind == "supported":
            return by_others(scope, c.start)
        if kind == "bounded":
            return by_ranges(scope, c.start)
        return by_scope(scope, c.start)

    @property
    def nogoods(self) -> int:
        """How many nogoods were learnt so far."""
        return len(self.store.literals)

    def start_from(self, best: Solution) -> None:
        """Search only for solutions better than ``best``, a solution of the same model
        with its goals' values (another search's), each decision's value in it tried first;
        called before the stream starts.  Searched to its end, the stream ends with
        ``best`` proved optimal unless it found better."""
        c = self._compiled
        if best.values is None or not self._signs:
            raise ModelError("start_from takes a solution, and a model with goals")
        c.goal.improve_on([c.goal.value(k, best.values) for k in range(len(self._signs))])
        self.best = best
        self._best = [1 << (v - off) for v, off in zip(best.values, c.offsets, strict=True)]
        self._phase = list(self._best)

    def _run(self) -> Iterator[Solution]:
        c, trail = self._compiled, self.trail
        if all(check(trail.doms) is not None for check in c.constant):
            for k in range(len(c.propagators)):
                self._enqueue(k)
            yield from self._search()
        self._open = []
        self._ended("optimal" if self.best is not None else "searched to the end")
        if self.best is not None:
            best = self.best
            yield Solution(
                self.model,
                best.values,
                Quality.OPTIMAL,
                objective=best.objective,
                bound=best.objective[0],
            )

    def _search(self) -> Iterator[Solution]:
        """Propagate, learn from each conflict, restart, decide, until a conflict at the
        root; each solution as it is found."""
        trail = self.trail
        run, budget = 1, RESTART_CONFLICTS
        kept = KEPT
        while True:
            conflict = self._propagate()
            if conflict is not None:
                if not self._learn(conflict):
                    return
                budget -= 1
                self._limits()  # conflicts in a row, each analysed, may take long
                continue
            if trail.depth == 0:
                self._open = [list(trail.doms)]  # what no solution leaves: the bound
            elif budget <= 0:
                run += 1
                self.restarts += 1
                budget = RESTART_CONFLICTS * luby(run)
                self._guided = bool(self._strategies) and run % 2 == 1
                self._weighted = run % 4 == 2
                self._back(0)
                if self.store.alive > kept:
                    self.store.reduce(kept // 2)
                    kept += kept // 10
                continue
            self._limits()
            if not self._decide():
                yield from self._solution()
                if not self._signs and not self._block():
                    return

    def _solution(self) -> Iterator[Solution]:
        """The solution the domains hold; with goals, a new best, which the goals' cut
        leaves out from now on (queued, its propagator fails on it)."""
        c = self._compiled
        doms = self.trail.doms
        self._phase = list(doms)
        self._best = list(doms)
        values = tuple(c.value(i, bits) for i, bits in enumerate(doms))
        self.found += 1
        if not self._signs:
            yield Solution(self.model, values, Quality.FEASIBLE)
            return
        scores = [c.goal.value(k, values) for k in range(len(self._signs))]
        c.goal.improve_on(scores)
        objective = tuple(sign * v for sign, v in zip(self._signs, scores, strict=True))
        self.best = Solution(self.model, values, Quality.FEASIBLE, objective=objective)
        self.best.bound = self.bound
        self._show()
        for k in c.seeds:
            self._enqueue(k)
        yield self.best

    def _block(self) -> bool:
        """Leave the solution found out of what follows: its decisions cannot all be made
        again (they and propagation give it alone).  False: it rests on none, so it was
        the last."""
        trail = self.trail
        decided = [(trail.var[p], trail.new[p]) for p in trail.starts]
        return bool(decided) and self._learn(decided, forever=True)

    def _propagate(self) -> list[Literal] | None:
        """Nogoods and propagators to a fixpoint; the literals of a conflict, else None."""
        c, trail, store = self._compiled, self.trail, self.store
        doms = trail.doms
        props, idempotent, queue, queued = c.propagators, c.idempotent, self._queue, self._queued
        every, scopes = kernels.INTERRUPT_EVERY, self._scopes
        while True:
            while self._checked < len(trail):
                i = trail.var[self._checked]
                self._checked += 1
                broken = store.wake(i, doms, self._imply)
                if broken >= 0:
                    self._clear()
                    return store.literals[broken]
            if self._head >= len(queue):
                queue.clear()
                self._head = 0
                return None
            k = queue[self._head]
            self._head += 1
            queued[k] = False
            origin = len(trail)
            changes = props[k](doms)
            c.propagations += 1
            if not c.propagations % every or len(scopes[k]) > every:
                self._limits()  # a propagation that creeps, or runs over thousands, ends
            if changes is None or any(not doms[i] for i in changes):
                return self._failed(k)
            for i in changes:
                bits, old = doms[i], self._now(i)
                if bits != old:
                    doms[i] = old
                    self._narrow(i, bits, k, origin)
                    self._wake(i, k if idempotent[k] else -1)

    def _failed(self, k: int) -> list[Literal]:
        """Propagator ``k`` failed: its scope's domains back as the trail has them, and
        its explanation of the failure."""
        doms = self.trail.doms
        scope = self._scopes[k]
        for i in scope:
            doms[i] = self._now(i)
        self._clear()
        c = self._compiled
        c.failures += 1
        for i in scope:
            c.weight[i] += 1
        return self._explainers[k]([doms[i] for i in scope], -1, 0)

    def _now(self, i: int) -> int:
        """Decision ``i``'s domain as the trail has it."""
        entries = self.trail.at[i]
        return self.trail.new[entries[-1]] if entries else self.trail.start[i]

    def _narrow(self, i: int, bits: int, cause: int, origin: int) -> None:
        self.trail.narrow(i, bits, cause, origin)
        if not bits & (bits - 1):
            self._phase[i] = bits

    def _imply(self, nogood: int, i: int, bits: int) -> None:
        self._narrow(i, bits, clause_cause(nogood), len(self.trail))
        self._wake(i, -1)

    def _wake(self, i: int, skip: int) -> None:
        """Queue the propagators watching decision ``i`` (but ``skip``)."""
        queued = self._queued
        gates = self._gates[i]
        if gates is None:
            for k in self._compiled.watchers[i]:
                if not queued[k] and k != skip:
                    queued[k] = True
                    self._queue.append(k)
            return
        doms = self.trail.doms
        for n, k in enumerate(self._compiled.watchers[i]):
            if not queued[k] and k != skip:
                index, bits = gates[n]
                if index < 0 or doms[index] & bits:
                    queued[k] = True
                    self._queue.append(k)

    def _enqueue(self, k: int) -> None:
        if not self._queued[k]:
            self._queued[k] = True
            self._queue.append(k)

    def _clear(self) -> None:
        for k in self._queue[self._head :]:
            self._queued[k] = False
        self._queue.clear()
        self._head = 0

    def _reason(self, p: int) -> list[Literal]:
        """What made trail entry ``p``: its propagator's explanation on the domains it ran
        on, or the other literals of its nogood."""
        trail = self.trail
        cause, i = trail.cause[p], trail.var[p]
        if cause >= 0:
            t = trail.origin[p]
            before = [trail.dom_at(j, t) for j in self._scopes[cause]]
            return self._explainers[cause](before, i, trail.old[p] & ~trail.new[p])
        return [literal for literal in self.store.literals[-2 - cause] if literal[0] != i]

    def _learn(self, conflict: list[Literal], forever: bool = False) -> bool:
        """Analyse ``conflict``, back up to where its nogood asserts, keep the nogood
        (``forever``: never cut, as a solution's is) and make its UIP false; False when
        the conflict holds at the root."""
        self.conflicts += 1
        learnt = analyse(self.trail, conflict, self._reason)
        if learnt is None:
            return False
        literals, back, lbd = learnt
        activity, bump = self._activity, self._bump
        for i, _ in literals:
            activity[i] += bump
        self._bump = bump / DECAY
        if self._bump > 1e100:
            self._activity = [a * 1e-100 for a in activity]
            self._bump *= 1e-100
        self._back(back)
        nogood = self.store.add(literals, 0 if forever else lbd)
        self.bounds.append(tuple(self._compiled.goal.incumbent) if self._signs else None)
        self.after.append(self.found)
        i, mask = literals[0]
        self._narrow(i, self.trail.doms[i] & ~mask, clause_cause(nogood), len(self.trail))
        self._wake(i, -1)
        return True

    def _back(self, level: int) -> None:
        self.trail.backjump(level)
        self._checked = len(self.trail)
        self._clear()

    def _decide(self) -> bool:
        """Open a decision level on the decision and values the module's docstring says;
        False when every domain is fixed."""
        doms = self.trail.doms
        c = self._compiled
        best, part = -1, 0
        if self._guided:
            for strategy in self._strategies:
                best = chosen(strategy, doms, c.offsets, c.weight)
                if best >= 0:
                    bits = doms[best]
                    part = self._best[best] & bits if self._best else 0
                    part = part or branches(bits, strategy.value)[0]
                    break
        if best < 0 and self._weighted:
            best = solvers_choice(doms, c.weight, c.relaxation, True)
            if best >= 0:
                part = self._value(best)
        if best < 0:
            best = self._most_active()
            if best < 0:
                return False
            part = self._value(best)
        self.nodes += 1
        if self._progress is not None and not self.nodes & 255 and self._progress.due():
            self._show()
        self.trail.decide(best, part)
        self._wake(best, -1)
        return True

    def _most_active(self) -> int:
        """The open decision of highest activity, ties to the smallest domain; -1: none."""
        doms, activity = self.trail.doms, self._activity
        best, most, size = -1, -1.0, 0
        for i, bits in enumerate(doms):
            if bits & (bits - 1):
                a = activity[i]
                if a > most or (a == most and bits.bit_count() < size):
                    best, most, size = i, a, bits.bit_count()
        return best

    def _value(self, i: int) -> int:
        """The part of decision ``i``'s domain to decide on: its saved phase, else its
        least value (largest where that lowers the first goal), or a half of it."""
        bits = self.trail.doms[i]
        part = self._phase[i] & bits
        if part:
            return part
        down = self._descending[i]
        if bits.bit_count() <= SPLIT:
            return 1 << (bits.bit_length() - 1) if down else bits & -bits
        lower = at_most(bits, ((bits & -bits).bit_length() - 1 + bits.bit_length() - 1) // 2)
        return bits ^ lower if down else lower
