"""Solving a model: propagation to a fixpoint inside the core search skeleton.

A search state is a tuple of domains, one bit set per decision (bit ``i`` of
decision ``d`` stands for ``offset[d] + i``), with the decision last fixed
(:class:`~lazyfun.csp.search.node.Node`).
The four parameters of :func:`lazyfun.search`:

- ``prune``: run the propagators of the constraints on the decision just fixed, then of every
  decision whose domain shrinks, to a fixpoint (:mod:`lazyfun.csp.propagation.propagators`);
- ``blocked``: some domain became empty;
- ``complete``: every domain holds one value;
- ``expand1``: the decision the model's branching strategies choose
  (``Model.branch_on``; see :mod:`lazyfun.csp.search.strategy`), split as they
  say; once theirs are fixed, the decision the first goal's linear relaxation
  takes a fraction of (see :mod:`lazyfun.csp.propagation.relaxation`: the best value per
  weight that does not fit), else the decision with the smallest domain; one child per
  value, smallest value first.  Ties go to the highest weighted degree: the number of
  constraints on the decision, plus one for each time one of them failed so far in this
  search (dom/wdeg's weights, used only to break ties).

With goals, the same search is branch and bound: each solution found tightens the goals'
cut (see :class:`lazyfun.csp.propagation.filters.GoalBound`), so the stream holds strictly
improving solutions; when it runs out, the last one is proved optimal and is yielded again
as such.  Outside scheduling, the proof's search runs in slices between restarts by
dom/wdeg (see :mod:`lazyfun.csp.search.restarts`), with ``lns`` between rounds of large
neighbourhood search (:mod:`lazyfun.csp.search.lns`), with ``learn`` keeping the nogoods
each run refuted (:mod:`lazyfun.csp.search.learning`).  A decision of the first goal that
lowers the goal as it grows is tried largest first.

The solver knows decisions and constraints, not the model that holds them.

Installed from source, this module is compiled with mypyc (see
:mod:`lazyfun.compiled`); the code here is what runs either way.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Generator, Iterator, Sequence

from lazyfun.csp.modelling.constraints import Constraint, Decision, Expr
from lazyfun.csp.modelling.results import Decisions, Quality, Solution
from lazyfun.csp.propagation.filters import low
from lazyfun.csp.propagation.nogoods import Nogoods
from lazyfun.csp.propagation.propagators import Propagators
from lazyfun.csp.search.learning import Branch, tracked
from lazyfun.csp.search.lns import ROUND_NODES, Neighbourhoods, neighbourhoods
from lazyfun.csp.search.node import Domains, Node, replaced
from lazyfun.csp.search.progress import SearchProgress
from lazyfun.csp.search.ranking import Ranking, Ranks
from lazyfun.csp.search.restarts import IDLE_RUNS, RESTART_NODES, luby
from lazyfun.csp.search.shop import (
    FIRST_NODES,
    FREE_MACHINES,
    PATIENCE,
    RUNS,
    TARGET_NODES,
    TRY_NODES,
    schedulers,
)
from lazyfun.csp.search.strategy import Strategy, branches, choice
from lazyfun.csp.search.tabu import Arc, Shop
from lazyfun.search import search

__all__ = ["Node", "Solutions"]

# The ``fixed`` of the node that ends a slice of the proof's search (see _restarts).
PAUSED = -2


class _Stop(Exception):
    """A time or node limit was reached."""


class _Enough(Exception):
    """A neighbourhood's try has taken its branchings."""


class Solutions(Iterator[Solution]):
    """The solutions of a model, each found when asked for.

    ``stopped_by`` is None while the stream runs and after it ends by exhaustion;
    ``"time_limit"`` or ``"node_limit"`` when a limit ended it.  ``nodes`` counts the
    branchings so far, ``failures`` the dead ends and ``propagations`` the propagators run.
    With goals (``(expression, sign)`` pairs, sign 1 to minimise and -1 to maximise), the
    stream holds strictly improving solutions, then the last once more as OPTIMAL; ``best``
    is the best so far and ``bound`` what the first goal could still reach.  Outside
    scheduling, an optimisation may be searched in runs that restart (``restart_nodes``
    branchings times the Luby sequence, set before the first ``next``, as the FlatZinc
    front end does with :data:`RESTART_NODES`; see :mod:`lazyfun.csp.search.restarts`).
    By default 0: one search by the model's branching, but for a tentative branching,
    ``lns`` (runs of large neighbourhood search by ``seed``, counted in ``lns``: see
    :mod:`lazyfun.csp.search.lns`) or ``learn`` (a model with or without goals;
    ``nogoods`` counts what the runs refuted and every later run propagates: see
    :mod:`lazyfun.csp.search.learning`)."""

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
        self._started = time.perf_counter()  # the limit counts compiling the constraints
        self.model = model
        self.time_limit = time_limit
        self.node_limit = node_limit
        self.stopped_by: str | None = None
        self.nodes = 0
        self.best: Solution | None = None
        self._signs = [sign for _, sign in goals]
        self._compiled = Propagators(decisions, constraints, [e * sign for e, sign in goals], learn)
        self._compiled.interrupt = self._limits  # a propagation that creeps ends at a limit
        # Per open branching, the domains of its siblings still to try (None: none
        # left): the least the first goal can reach there makes ``bound`` a proof.
        self._open: list[Domains | None] = []
        first = self._compiled.goal.goals[0][0] if goals else []
        self._descending = [False] * len(decisions)
        for i, a, _ in first:
            self._descending[i] = a < 0
        self._strategies = list(strategies)
        self._set_times, self._ranking, self._shop = schedulers(
            self._compiled, constraints, goals, bool(strategies)
        )
        # While the neighbourhood search runs: no shaving, no bound from its nodes,
        # and the branching at which its try ends.
        self._trying = False
        self._shaving = True
        # Restarts (see lazyfun.csp.search.restarts): for a goal outside scheduling's
        # searches; whether this run takes the solver's own branching, and the best
        # solution's domains (one bit each), whose values are tried first.
        tentative = any(s.tentative for s in strategies)
        self.restart_nodes = RESTART_NODES if tentative or lns or learn else 0
        self.lns = neighbourhoods(decisions, goals, seed) if lns else None
        searched = self._set_times is None or self.lns is not None  # outside scheduling
        self._restarting = searched and (bool(goals) or tentative or learn)
        # With ``learn``, outside scheduling: the branch searched now (see learning.py).
        self._learning = learn and self._ranking is None and self._set_times is None
        self._branch: Branch | None = None
        self._skip: tuple[int, ...] | None = None  # a solution the runs found, shown once
        self._free = False
        self._guide: Domains | None = None
        self._try_ends = 0
        # While the proof's search runs in slices between restarts: each slice ends at
        # a PAUSED node, and whether the last did.
        self._pausing = False
        self._paused = False
        # Set when the search before the proof has settled it: nothing (better) exists.
        self._empty = False
        self._aimed = ""
        self._progress = progress
        self._stream = self._run()

    @property
    def failures(self) -> int:
        """The dead ends so far: a propagator found its constraint could not hold."""
        return self._compiled.failures

    @property
    def learnt(self) -> Nogoods | None:
        """The nogoods learnt so far (None without ``learn``)."""
        return self._compiled.nogoods

    @property
    def nogoods(self) -> int:
        """How many nogoods were learnt so far."""
        return 0 if self._compiled.nogoods is None else len(self._compiled.nogoods)

    @property
    def propagations(self) -> int:
        """The propagators run so far."""
        return self._compiled.propagations

    @property
    def bound(self) -> int | None:
        """The best value the first goal could still reach: no solution beats it (below every
        solution left unexplored and the best found); None without goals, or before anything
        is known."""
        if not self._signs:
            return None
        reach = [r for doms in self._open if doms is not None for r in self._compiled.reach(doms)]
        if self.best is not None:
            reach.append(self._signs[0] * self.best.objective[0])
        return self._signs[0] * min(reach) if reach else None

    def __iter__(self) -> Solutions:
        return self

    def __next__(self) -> Solution:
        try:
            return next(self._stream)
        except _Stop as stop:
            self.stopped_by = str(stop)
            self._ended(f"stopped by the {self.stopped_by}")
            raise StopIteration from None

    def _show(self) -> None:
        if self._progress is not None:
            best = self.best.objective[0] if self.best is not None else None
            self._progress.update(self.nodes, best, self.bound)

    def _ended(self, how: str) -> None:
        if self._progress is not None:
            self._show()
            self._progress.close(how)
            self._progress = None

    def _limited(self) -> bool:
        """Whether a time or node limit is reached."""
        return (self.node_limit is not None and self.nodes > self.node_limit) or (
            self.time_limit is not None and time.perf_counter() - self._started > self.time_limit
        )

    def _limits(self) -> None:
        """Stop the stream once a limit is reached."""
        if self._limited():
            nodes = self.node_limit is not None and self.nodes > self.node_limit
            raise _Stop("node_limit" if nodes else "time_limit")

    def _prune(self, node: Node) -> Node:
        if node.fixed == PAUSED:
            return node
        doms = list(node.domains)
        if node.value:
            doms[node.fixed] = node.value
        compiled = self._compiled
        if node.moved is not None:
            ok = compiled.propagate(doms, node.moved)
        elif node.fixed >= 0:
            ok = compiled.propagate(doms, [node.fixed])
        else:
            ok = all(check(doms) is not None for check in compiled.constant)
            ok = ok and compiled.propagate(doms, range(len(doms)))
        ranking = self._ranking
        if ok and ranking is not None:
            ok = ranking.enforce(doms, node.ranks)
            if ok and self._shaving and ranking.shaves(node.ranks):
                ok = ranking.shave(doms) and ranking.enforce(doms, node.ranks)
        return Node(doms, node.fixed, not ok, node.postponed, node.ranks)

    def _expand1(self, node: Node) -> Iterator[Node]:
        """The children of ``node`` (:meth:`_children`), their branch kept while learning."""
        children = self._children(node)
        return children if self._branch is None else tracked(self._branch, children)

    def _children(self, node: Node) -> Iterator[Node]:
        self.nodes += 1
        if self._progress is not None and not self.nodes & 255 and self._progress.due():
            self._show()
        doms = node.domains
        tracking = bool(self._signs) and not self._trying
        if tracking:
            self._open.append(doms)
        self._limits()
        if self._trying and self.nodes > self._try_ends:
            self._record()
            if not self._pausing:
                raise _Enough
            yield Node(doms, PAUSED)  # the slice ends here; resumed, the children follow
        children = (
            self._by_ranks(node, tracking)
            if self._ranking is not None
            else self._by_times(node, tracking)
            if self._set_times is not None
            else None
        )
        if children is not None:
            yield from children
            return
        c = self._compiled  # the model's branching, else the solver's (see strategy.py)
        best, value = choice(self._strategies, doms, c.offsets, c.weight, c.relaxation, self._free)
        bits = doms[best]
        guide = self._guide[best] & bits if self._guide is not None else 0
        if guide:  # the best solution's value first (see restarts)
            yield from self._split(node, best, [guide, bits ^ guide], tracking)
            return
        if value != "default":
            yield from self._split(node, best, branches(bits, value), tracking)
            return
        down = self._descending[best]
        while bits:
            bit = 1 << (bits.bit_length() - 1) if down else bits & -bits
            bits ^= bit
            if tracking:
                self._open[-1] = replaced(doms, best, bits) if bits else None
            yield Node(doms, best, False, (), node.ranks, None, bit)
        if tracking:
            self._open.pop()

    def _split(self, node: Node, i: int, parts: list[int], tracking: bool) -> Iterator[Node]:
        """One child per part of decision ``i``'s domain, in order."""
        doms = node.domains
        for k, part in enumerate(parts):
            if tracking:
                rest = sum(parts[k + 1 :])
                self._open[-1] = replaced(doms, i, rest) if rest else None
            yield Node(doms, i, False, (), node.ranks, None, part)
        if tracking:
            self._open.pop()

    def _by_ranks(self, node: Node, tracking: bool) -> Iterator[Node] | None:
        """Rank-first's branches while a machine has open tasks to rank; then, once, every
        open start at its earliest; None when the starts are all fixed."""
        assert self._ranking is not None
        doms = node.domains
        machine, task = self._ranking.choose(doms, node.ranks)
        if machine >= 0:
            return self._rank(node, machine, task)
        open_starts = tuple(i for i in self._ranking.starts if doms[i] & (doms[i] - 1))
        if not open_starts:
            return None
        if tracking:
            self._open.pop()  # the one child holds every schedule of these ranks worth having
        earliest = self._ranking.earliest(doms)
        return iter((Node(earliest, -1, False, (), node.ranks, open_starts),))

    def _by_times(self, node: Node, tracking: bool) -> Iterator[Node] | None:
        """SetTimes' branches while a task is open; nothing at a dead end; None when the
        starts are all fixed."""
        assert self._set_times is not None
        task = self._set_times.choose(node.domains, node.postponed)
        if task >= 0:
            return self._set_time(node, task)
        if task == -2:
            if tracking:
                self._open.pop()
            return iter(())
        return None

    def _rank(self, node: Node, machine: int, task: int) -> Iterator[Node]:
        """Rank-first's two branches: ``task`` runs first of the machine's open tasks,
        or it does not (see :class:`~lazyfun.csp.search.ranking.Ranking`)."""
        assert self._ranking is not None
        doms = node.domains
        first = self._ranking.first(doms, machine, task, node.ranks)
        later = self._ranking.not_first(doms, machine, task, node.ranks)
        tracking = bool(self._signs) and not self._trying
        if tracking:
            self._open[-1] = later
        moved = tuple(i for i, bits in enumerate(first) if bits != doms[i]) or (task,)
        yield Node(first, -1, False, (), (*node.ranks, (machine, task)), moved)
        if tracking:
            self._open[-1] = None
        yield Node(later, -1, False, (), node.ranks, (task,))
        if tracking:
            self._open.pop()

    def _set_time(self, node: Node, i: int) -> Iterator[Node]:
        """SetTimes' two branches on start ``i``: it starts as early as it can, or later
        (postponed: still free to start then, but not chosen until its earliest start
        moves; see :class:`~lazyfun.csp.propagation.disjunctive.SetTimes`)."""
        assert self._set_times is not None
        doms = node.domains
        bits = doms[i]
        first = bits & -bits
        rest = bits if self._set_times.postpone else bits ^ first
        tracking = bool(self._signs) and not self._trying
        if tracking:
            self._open[-1] = replaced(doms, i, rest)
        yield Node(doms, i, False, node.postponed, (), None, first)
        if tracking:
            self._open[-1] = None
        later = self._set_times.later(i, rest, node.postponed)
        yield Node(doms, i, False, later, (), None, rest)
        if tracking:
            self._open.pop()

    def _found(self, root: Node) -> Iterator[Solution]:
        """The solutions below ``root``: each a new best when there are goals."""
        return self._solutions(self._tree(root))

    def _tree(self, root: Node) -> Iterator[Node]:
        """The complete nodes below ``root``, depth first (and, while ``_pausing``, a
        PAUSED node where a slice's budget ends)."""
        return search(
            root,
            expand1=self._expand1,
            complete=lambda n: n.fixed == PAUSED or all(not b & (b - 1) for b in n.domains),
            blocked=lambda n: n.failed,
            prune=self._prune,
        )

    def _solutions(self, found: Iterator[Node]) -> Iterator[Solution]:
        """The solutions of the complete nodes ``found`` gives, until it ends or pauses
        (``_paused`` says which): each a new best when there are goals."""
        compiled = self._compiled
        goal = compiled.goal
        self._paused = False
        for node in found:
            if node.fixed == PAUSED:
                self._paused = True
                return
            values = tuple(compiled.value(i, b) for i, b in enumerate(node.domains))
            if not self._signs:
                if values != self._skip:
                    yield Solution(self.model, values, Quality.FEASIBLE)
                continue
            scores = [goal.value(k, values) for k in range(len(self._signs))]
            goal.improve_on(scores)
            objective = tuple(sign * v for sign, v in zip(self._signs, scores, strict=True))
            self.best = Solution(self.model, values, Quality.FEASIBLE, objective=objective)
            if self._restarting and self._trying:
                self._guide = node.domains
            self.best.bound = self.bound
            self._show()
            yield self.best

    def _improve(self) -> Iterator[Solution]:
        """What tightens a schedule's bound before the proof: a first schedule, then tries
        that keep all machines but a few as the best schedule ranks them, until
        :data:`PATIENCE` tries in a row find nothing better; then, with one goal,
        targets between the best and the least the goal can reach (:meth:`_targets`)."""
        assert self._ranking is not None
        start = Node(list(self._compiled.start), -1)
        self._trying = True
        self._shaving = False
        self._try_ends = 1 << 62
        try:
            root = self._prune(start)
            if root.failed:
                return
            self._open = [root.domains]  # the bound stays the whole model's meanwhile
            yield from self._tries(root, self._ranking)
            if len(self._signs) == 1:
                yield from self._targets(root)
        finally:
            self._trying = False
            self._shaving = True
            self._open = []

    def _targets(self, root: Node) -> Iterator[Solution]:
        """One below the best schedule, briefly and without shaving (a small model is
        settled there).  Then targets halfway between the least the goal can reach and
        the best, each searched first briefly without shaving (:data:`TRY_NODES`
        branchings), then with shaving for at most :data:`TARGET_NODES`.  A schedule
        found is a new best; a target searched to the end raises the least (a proof);
        one that runs out of branchings raises it halfway to the best (a guess: aim
        higher).  Once the least is within 2 of the best, the target is one below the
        best: searched to the end, the best is optimal; out of branchings, the proof's
        search takes over."""
        start = Node(root.domains, -1)
        if self.best is None or self._shop is not None:
            return  # the tabu search aimed below its best: on to the proof
        yield from self._aim(start, self._signs[0] * self.best.objective[0] - 1, False)
        if self._aimed in ("optimal", "none"):  # a small model is settled here
            self._empty = True
            return
        self._shaving = True
        shaved = self._prune(start)  # the goal's least, as shaving raises it
        if shaved.failed:
            self._empty = True  # not even one below the best: it is optimal
            return
        least = self._compiled.goal.lowest(0, shaved.domains)
        while self.best is not None:
            best = self._signs[0] * self.best.objective[0]
            if least >= best:
                self._empty = True
                return
            target = best - 1 if least >= best - 2 else (least + best) // 2
            for shaving in (False, True):
                yield from self._aim(start, target, shaving)
                if self._aimed != "open":
                    break
            if self._aimed == "optimal":
                self._empty = True
                return
            if self._aimed == "none":
                least = target + 1
            elif self._aimed == "open":
                if target == best - 1:
                    return  # the proof's search takes it from here
                least = (target + best + 1) // 2

    def _aim(self, start: Node, target: int, shaving: bool) -> Iterator[Solution]:
        """The schedules below ``start`` that meet ``target``, each a new best, found
        within a budget of branchings; ``_aimed`` says how it went: "optimal" (the last
        found is: the search ended below it), "better" (found, budget spent), "none"
        (searched to the end: nothing meets the target), "open" (budget spent, none
        found)."""
        goal = self._compiled.goal
        goal.improve_on([target + 1])  # only schedules that meet the target
        self._shaving = shaving
        self._try_ends = self.nodes + (TARGET_NODES if shaving else TRY_NODES)
        found = False
        try:
            for better in self._found(self._prune(start)):
                found = True
                yield better
            self._aimed = "optimal" if found else "none"
        except _Enough:
            self._aimed = "better" if found else "open"
        finally:
            if self.best is not None:
                goal.improve_on([self._signs[0] * self.best.objective[0]])

    def _tries(self, root: Node, ranking: Ranking) -> Iterator[Solution]:
        """A first schedule, then better ones: by the tabu search where the model is a
        shop it can judge, else by neighbourhoods of the best schedule, until
        :data:`PATIENCE` tries in a row find nothing better."""
        self._try_ends = self.nodes + FIRST_NODES
        try:
            first = next(self._found(root), None)
        except _Enough:
            return  # no schedule comes easily: the proof's search, shaving, looks for it
        if first is None:
            self._empty = True  # that search was complete: there is no schedule
            return
        yield first
        if self._shop is not None:
            yield from self._tabu(root, *self._shop)
            return
        keep = max(0, len(ranking.machines) - FREE_MACHINES)
        stale = 0
        while stale < PATIENCE and self.best is not None and self.best.values is not None:
            ranks = ranking.neighbourhood(self.best.values, keep)
            stale += 1
            for better in self._ranked(root, ranks):
                stale = 0
                yield better

    def _ranked(self, root: Node, ranks: Ranks) -> Iterator[Solution]:
        """The better schedules that keep ``ranks``, found within :data:`TRY_NODES`
        branchings."""
        self._try_ends = self.nodes + TRY_NODES
        with contextlib.suppress(_Enough):
            start = Node(
                root.domains, root.fixed, root.failed, root.postponed, ranks, root.moved, root.value
            )
            yield from self._found(self._prune(start))

    def _tabu(
        self, root: Node, machines: list[list[tuple[int, int]]], arcs: list[Arc]
    ) -> Iterator[Solution]:
        """Tabu searches (see :mod:`lazyfun.csp.search.tabu`) from the best schedule, until
        :data:`RUNS` in a row find nothing better; each better order is checked against
        the whole model with its machines ranked so.  Before each search, while the
        best is new, one below it is aimed at briefly (:meth:`_aim`, without shaving):
        a small model is settled there."""
        assert self.best is not None and self.best.values is not None
        offsets = self._compiled.offsets
        release = {i: offsets[i] + low(root.domains[i]) for on in machines for i, _ in on}
        shop = Shop(machines, arcs, release)
        if not shop.begin(shop.orders(self.best.values)):
            return
        start = Node(root.domains, -1)
        aimed: int | None = None
        idle = 0
        while idle < RUNS and self.best is not None:
            best = self._signs[0] * self.best.objective[0]
            if best != aimed:
                aimed = best
                yield from self._aim(start, best - 1, False)
                if self._aimed in ("optimal", "none"):
                    self._empty = True
                    return
            idle += 1
            for makespan, orders in shop.walk(self._limited):
                if makespan < self._signs[0] * self.best.objective[0]:
                    ranks = tuple((m, i) for m, seq in enumerate(orders) for i in seq)
                    for better in self._ranked(root, ranks):
                        idle = 0
                        yield better
            self._limits()

    def _restarts(self) -> Iterator[Solution]:
        """The proof's search by the model's branching, in slices of growing budgets,
        and between them runs by the solver's branching, each from the root (see
        :mod:`lazyfun.csp.search.restarts`).  A run that ends within its budget has
        settled it; after :data:`IDLE_RUNS` of the solver's runs in a row find nothing
        better, the proof's search goes on to its end.  Without goals (a tentative branching),
        the first solution ends the runs; the proof's search, going on, leaves it out.
        Learning, every run restarts from the root, by either branching, until one ends
        within its budget: the nogoods keep it from searching again what the others did."""
        root = self._prune(Node(list(self._compiled.start), -1))
        if root.failed:
            return
        self._trying = True
        self._open = [root.domains]  # the bound stays the whole model's meanwhile
        proof = self._tree(root)
        run = idle = 0
        idle_runs = IDLE_RUNS if self.lns is None else self.lns.stale_runs
        while (idle < idle_runs or self._learning) and not self._empty:
            run += 1
            self._free = run % 2 == 0
            self._try_ends = self.nodes + self.restart_nodes * luby(run)
            before = self.best
            if self._free or self._learning:  # learning, each run restarts from the root
                found = yield from self._run_free(root)
                idle = 0 if self.best is not before else idle + 1
            else:
                found = yield from self._slice(proof)
            if found and not self._signs:
                break
        self._free, self._branch = False, None
        if not self._empty:
            self._try_ends = 1 << 62
            yield from self._slice(proof, last=True)
        self._empty = True
        # Stopped by a limit, the bound stays the whole model's.
        self._trying = False
        self._open = []

    def _slice(self, proof: Iterator[Node], last: bool = False) -> Generator[Solution, None, bool]:
        """The proof's search until its slice's budget ends (the ``last`` slice: to its
        end); whether it found a solution (without goals, the first ends a slice but the
        last).  Searched to its end, it has settled the model (``_empty``)."""
        self._pausing = True
        found = False
        try:
            for solution in self._solutions(proof):
                found = True
                yield solution
                if not self._signs and not last:
                    return True
        finally:
            self._pausing = False
        self._empty = not self._paused
        return found

    def _run_free(self, root: Node) -> Generator[Solution, None, bool]:
        """A run by the solver's branching (learning, the model's on odd runs) from ``root``
        until its budget ends; whether it found a solution (without goals: the first ends
        it, and the proof's search leaves it out).  Searched to its end, it has settled the
        model.  With ``lns`` and a solution, rounds of large neighbourhood search first
        (:meth:`_rounds`), and with ``lns.every`` 1 instead."""
        if self._free and self.lns is not None and self._guide is not None and self.lns.takes_run():
            self._branch = None
            better = yield from self._rounds(root, self.lns)
            if self.lns.every == 1:
                return better
        if self._learning:  # from the root with the nogoods learnt so far
            self._branch, root = Branch(), self._prune(Node(root.domains, -1))
        found = False
        try:
            for solution in [] if root.failed else self._found(root):
                found = True
                yield solution
                if not self._signs:
                    self._skip = solution.values
                    return True
        except _Enough:
            return found
        self._empty = True
        return found

    def _rounds(self, root: Node, lns: Neighbourhoods) -> Generator[Solution, None, bool]:
        """Rounds until the run's budget ends, each the best solution with a part of ``root``
        set free, searched for :data:`ROUND_NODES` branchings (its root, which may fail, one;
        of the budget ``lns.root_cost`` at least); whether one found better.  With
        ``lns.every`` above 1 the run has its whole budget again after them."""
        ends, before, spent, first = self._try_ends, self.best, self.nodes, self.nodes
        while spent < ends and self._guide is not None:
            self.nodes += 1
            self._limits()
            self._try_ends = min(ends, self.nodes + ROUND_NODES)
            start, best = self._prune(Node(lns.relaxed(root.domains, self._guide), -1)), self.best
            try:
                yield from self._found(start)
                lns.ended(improved=self.best is not best, exhausted=True)
            except _Enough:
                lns.ended(improved=self.best is not best, exhausted=False)
            spent = max(spent + lns.root_cost, self.nodes)
        self._try_ends = ends if lns.every == 1 else self.nodes + ends - first
        return self.best is not before

    def _record(self) -> None:
        """Keep the nogoods of the branch the run stopping now searched (see
        :mod:`lazyfun.csp.search.learning`), with the best objective then."""
        if self._compiled.nogoods is not None and self._branch is not None:
            bound = tuple(self._compiled.goal.incumbent) if self._signs else None
            self._compiled.learnt(self._branch.nogoods(), bound)

    def _run(self) -> Iterator[Solution]:
        compiled = self._compiled
        if self._ranking is not None and self._signs:
            yield from self._improve()
        elif self._restarting and self.restart_nodes > 0:
            yield from self._restarts()
        if not self._empty:
            yield from self._found(self._prune(Node(list(compiled.start), -1)))
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
