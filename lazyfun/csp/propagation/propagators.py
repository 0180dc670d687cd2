"""Propagators: each constraint of a model as a function that narrows domains in place.

A domain is a bit set over the decision's offset: bit ``i`` of decision ``d`` stands for
``offset[d] + i``.  A propagator takes the list of domains, narrows some of them, and
returns the decisions it narrowed, or None when it finds the constraint cannot hold.
:class:`Propagators` compiles a model's constraints once and runs them to a fixpoint.

The propagators: bounds reasoning for linear constraints (domain reasoning for ``x == y +
k``), forward checking for ``!=``, ``abs`` and predicates (filter the last open decision's
values), and for ``all_different`` removal of fixed values, the pigeonhole test, and hidden
singles when the decisions must use every value they can take
(:mod:`lazyfun.csp.propagation.distinct`).

Installed from source, this module is compiled with mypyc (see
:mod:`lazyfun.compiled`); the code here is what runs either way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from lazyfun.csp.modelling.arithmetic import Function
from lazyfun.csp.modelling.constraints import (
    COMPARISONS,
    AbsCompare,
    AllDifferent,
    AllOf,
    AnyOf,
    Constraint,
    Decision,
    Expr,
    Linear,
    Not,
    Predicate,
    Truth,
)
from lazyfun.csp.modelling.domain import ModelError
from lazyfun.csp.modelling.relations import Circuit, Element, Extreme, IfThen, LexLess, Table
from lazyfun.csp.modelling.scheduling import Cumulative, Interval, NoOverlap
from lazyfun.csp.propagation import kernels
from lazyfun.csp.propagation.circuit import circuit_filter
from lazyfun.csp.propagation.disjunctive import Task, cumulative_filter, no_overlap_filter
from lazyfun.csp.propagation.distances import chain_bounds, chains, difference_filter, difference_of
from lazyfun.csp.propagation.distinct import all_different_filter, bounds_distinct
from lazyfun.csp.propagation.filters import (
    Changes,
    GoalBound,
    Propagator,
    Terms,
    bounds,
    element_filter,
    extreme_filter,
    if_then_filter,
    keep_where,
    lex_filter,
    low,
    not_equal_filter,
    reified_linear_filter,
    table_filter,
    unit_equality,
)
from lazyfun.csp.propagation.matching import matching_distinct
from lazyfun.csp.propagation.nogoods import Nogoods
from lazyfun.csp.propagation.nonlinear import (
    abs_filter,
    all_filter,
    any_filter,
    clause_filter,
    function_filter,
    reified_clause_filter,
    reified_shift_filter,
    reified_unary_filter,
    truth_filter,
)
from lazyfun.csp.propagation.relaxation import Relaxation, RowBound, knapsacks, row_bounds

if TYPE_CHECKING:
    from lazyfun.csp.propagation._kernels import Loop

__all__ = ["UNARY_VALUES", "Propagators"]

# A condition on one decision reified (``r <-> x == 3``) is propagated by bit masks
# when the decision has at most this many values.
UNARY_VALUES = 4096


def _is_shift(c: Constraint, ops: tuple[str, ...] = ("==", "!=")) -> bool:
    """``x - y + k == 0`` or ``!= 0`` (of ``ops``): reified, told by bit sets moved onto
    each other; ``==`` alone propagated exactly (and once is enough) by shifting them."""
    return isinstance(c, Linear) and c.op in ops and sorted(c.expr.terms.values()) == [-1, 1]


def _task(x: Interval, demand: Decision | int) -> Task:
    """An interval and its demand, as :mod:`lazyfun.csp.propagation.disjunctive` reads them."""
    start, size_at, size, present = x.parts()
    if isinstance(demand, Decision):
        return (start, size_at, size, present, demand.index, 0)
    return (start, size_at, size, present, -1, demand)


class Propagators:
    """A model's constraints turned into propagators over bit sets, and the watch lists."""

    # called every kernels.INTERRUPT_EVERY runs of one propagation; it may raise to end it
    interrupt: Callable[[], object] | None = None

    def __init__(
        self,
        decisions: Sequence[Decision],
        constraints: Sequence[Constraint],
        goals: Sequence[Expr] = (),
        learn: bool = False,
    ) -> None:
        self.size = len(decisions)
        self.offsets = [d.domain.offset for d in decisions]
        self.start = tuple(d.domain.bits for d in decisions)
        self._probe = [0] * self.size  # values to test a condition with (see _unary)
        self.propagators: list[Propagator] = []
        self.watchers: list[list[int]] = [[] for _ in decisions]
        self.constant: list[Propagator] = []
        self.scopes: list[tuple[int, ...]] = []
        self.idempotent: list[bool] = []
        # The costly propagators (Hall intervals, distinct distances, scheduling's),
        # run once the others are at a fixpoint.
        self.slow: list[bool] = []
        # which propagators are queued, kept between runs (all False at rest)
        self._queued: list[bool] = []
        self.costly: list[tuple[Propagator, tuple[int, ...]]] = []
        # The differences g == x - y and the all_different scopes, for distinct distances.
        self.ties: list[tuple[int, int, int]] = []
        self.groups: list[tuple[int, ...]] = []
        self.adding: Constraint | None = None
        # What explains a propagator's runs better than its scope's domains (see
        # lazyfun.csp.clauses.explanations), noted as each is compiled: a row of linear
        # bounds reasoning (a constraint's, the one goal's cut) and whether it is an
        # equality; "supported" (forward checking, tables), "distinct" (all_different's),
        # "bounded" (reading bounds only: scheduling's, the cuts, the relaxations);
        # inequalities each holding when a decision takes some values (if_then's, a
        # reified one's two); a time-table's tasks and capacity; an element's result,
        # index and items.
        self.rows: dict[int, tuple[Terms, bool]] = {}
        self.explained: dict[int, str] = {}
        self.guarded: dict[int, list[tuple[int, int, Terms]]] = {}
        self.timetables: dict[int, tuple[list[Task], int]] = {}
        self.elements: dict[int, tuple[int, int, list[tuple[int, int]]]] = {}
        # The starts of the scheduling constraints' intervals, for SetTimes branching.
        self.tasks: list[int] = []
        self.sizes: list[int] = []
        self.optional = False
        # Per no_overlap, its intervals as (start, size) while their sizes are numbers
        # (an interval of variable size leaves the list empty), for ranking.
        self.machines: list[list[tuple[int, int]]] = []
        # How many times a propagator has run, and how many times one failed.
        self.propagations = self.failures = 0
        for constraint in constraints:
            self._add(constraint)
        for chain in chains(self.groups, self.ties, self.offsets):
            scope = (*chain.points, *chain.steps)
            self.costly.append((chain_bounds(chain, self.offsets), scope))
        # Goals, each an expression to minimise, ranked; their cut tightens
        # with every solution found (branch and bound).
        self.goal = GoalBound([(self._terms(e), e.constant) for e in goals])
        self.goal_index = len(self.propagators)
        if goals:
            scope = tuple(sorted({i for e in goals for i in e.terms}))
            if len(goals) == 1:
                self.rows[self.goal_index] = (self.goal.goals[0][0], False)
            self.explained[self.goal_index] = "bounded"
            self._watch(self.goal, scope, idempotent=False)
        # The first goal's linear relaxation against the linear constraints it
        # competes in (see lazyfun.csp.propagation.relaxation); -1: none.
        self.relaxation: Relaxation | None = knapsacks(self.goal, constraints, self.offsets)
        self.relaxation_index = -1
        if self.relaxation is not None:
            self.relaxation_index = len(self.propagators)
            self.explained[self.relaxation_index] = "bounded"
            self._watch(self.relaxation, self.relaxation.scope, idempotent=False)
        # Weighted degree, for branching ties: the number of constraints on a
        # decision, plus one each time one of them failed during the search.
        self.weight = [len(w) for w in self.watchers]
        self._watch_costly(row_bounds(constraints, self.offsets))
        # With ``learn``, the nogoods the search learns (see lazyfun.csp.search.learning),
        # and the decisions with a propagator of theirs (see learnt).
        self.nogoods: Nogoods | None = Nogoods(self.size) if learn else None
        self._listened: set[int] = set()
        # The goals' cut and the relaxation are queued first in every run; with the C
        # engine built, the loop runs in C (see lazyfun.csp.propagation.kernels).
        self.seeds = [
            k for k in (self.goal_index if goals else -1, self.relaxation_index) if k >= 0
        ]
        self._loop: Loop | None = None
        if kernels.BUILT:
            self._loop = kernels.c.Loop(self.propagators, self.watchers, self.idempotent, self.slow)

    def _watch_costly(self, rows: list[RowBound]) -> None:
        """Watch the costly propagators, and after them the relaxed linear ``rows``
        (which read only bounds)."""
        for prop, scope in self.costly:
            self._watch(prop, scope, idempotent=False)
            self.slow[-1] = True
        for row in rows:
            self.explained[len(self.propagators)] = "bounded"
            self.costly.append((row, row.scope))
            self._watch(row, row.scope, idempotent=False)
            self.slow[-1] = True

    def _in_c(self, scope: Sequence[int]) -> bool:
        """Whether a C kernel can hold the domains of ``scope``: the engine is built and
        each first domain fits in a machine word."""
        return kernels.BUILT and all(self.start[i].bit_length() <= kernels.c.WIDTH for i in scope)

    def _clause(self, literals: list[tuple[int, int]]) -> Propagator:
        """:func:`clause_filter`, in C where it fits."""
        if self._in_c([i for i, _ in literals]):
            return kernels.c.clause(literals)
        return clause_filter(literals)

    def _reified_clause(self, truth: int, when: int, literals: list[tuple[int, int]]) -> Propagator:
        """:func:`reified_clause_filter`, in C where it fits."""
        if self._in_c([truth, *(i for i, _ in literals)]):
            return kernels.c.reified_clause(truth, when, literals)
        return reified_clause_filter(truth, when, literals)

    def _terms(self, e: Expr) -> Terms:
        return [(i, a, self.offsets[i]) for i, a in sorted(e.terms.items())]

    def _add(self, c: Constraint) -> None:
        if isinstance(c, AllOf):  # each part watched on its own
            for part in c.parts:
                self._add(part)
            return
        self.adding = c
        ties = len(self.ties)
        prop = self.compile(c)
        if not c.scope:
            self.constant.append(prop)
            return
        k = len(self.propagators)
        if isinstance(c, Table | Predicate | Not | AbsCompare) or _is_shift(c):
            self.explained[k] = "supported"
        elif isinstance(c, NoOverlap | Cumulative):
            self.explained[k] = "bounded"
        elif isinstance(c, AllDifferent):
            self.explained[k] = "distinct"
        tied = len(self.ties) > ties  # its own fixpoint, as the two below
        self._watch(prop, c.scope, tied or isinstance(c, AllDifferent) or _is_shift(c, ("==",)))
        self.slow[-1] = isinstance(c, NoOverlap | Cumulative)
        if isinstance(c, AllDifferent):
            self.groups.append(c.scope)
            if c.domain:
                self.costly.append((matching_distinct(c.scope, self.offsets), c.scope))
            elif self._many_values(c.scope):
                self.costly.append((bounds_distinct(c.scope, self.offsets), c.scope))

    def _many_values(self, scope: tuple[int, ...]) -> bool:
        """Whether the decisions can take at least twice as many values as there are
        of them: where an ``all_different`` is worth its bounds consistency too."""
        base = self.offsets[scope[0]]
        values = 0
        for i in scope:
            offset = self.offsets[i]
            if offset < base:
                values <<= base - offset
                base = offset
            values |= self.start[i] << (offset - base)
        return values.bit_count() >= 2 * len(scope)

    def _watch(self, prop: Propagator, scope: tuple[int, ...], idempotent: bool) -> None:
        k = len(self.propagators)
        self.propagators.append(prop)
        self.scopes.append(scope)
        self.idempotent.append(idempotent)
        self.slow.append(False)
        for i in set(scope):
            self.watchers[i].append(k)

    def compile(self, c: Constraint) -> Propagator:
        """The propagator of one constraint."""
        if isinstance(c, Linear):
            return self._linear(c)
        if isinstance(c, AllDifferent):
            return all_different_filter(c.scope, self.offsets)
        if isinstance(c, AbsCompare) and c.op == "!=" and sorted(c.expr.terms.values()) == [-1, 1]:
            return self._abs_pair(c)
        if isinstance(c, AbsCompare | Predicate | Not):
            return self._forward(c)
        if isinstance(c, Function | AllOf | AnyOf | Truth):
            return self._combined(c)
        if isinstance(c, Element | Table | IfThen | Extreme):
            return self._relation(c)
        if isinstance(c, NoOverlap | Cumulative):
            return self._scheduling(c)
        if isinstance(c, Circuit):
            return circuit_filter(c.scope, c.first, self.offsets)
        if isinstance(c, LexLess):
            return self._lex(c)
        raise ModelError(f"unsupported constraint {c!r}")

    def _relation(self, c: Element | Table | IfThen | Extreme) -> Propagator:
        """element, table, if_then, minimum and maximum: see
        :mod:`lazyfun.csp.propagation.filters`."""
        if isinstance(c, Element):
            items = [(x.index, 0) if isinstance(x, Decision) else (-1, x) for x in c.items]
            ends = {c.result.index, c.index.index}  # x == items[x], or either an item: by scope
            if c is self.adding and len(ends) == 2 and not ends & {j for j, _ in items}:
                self.elements[len(self.propagators)] = (c.result.index, c.index.index, items)
            return self._element(c.result.index, c.index.index, items)
        if isinstance(c, Table):
            return table_filter(c.scope, c.rows, self.offsets)
        if isinstance(c, IfThen):
            row, meets = self._inequality(c.then), self._unary(c.condition)
            apart = not set(c.condition.scope) & set(c.then.scope)
            if c is self.adding and row is not None and meets is not None and apart:
                self.guarded[len(self.propagators)] = [(c.condition.scope[0], meets, row)]
            return if_then_filter(c.condition, self.compile(c.then), c.then.scope, self.offsets)
        scope = [d.index for d in c.decisions]
        return extreme_filter(c.result.index, scope, c.cap, c.largest, self.offsets)

    def _element(self, result: int, index: int, items: list[tuple[int, int]]) -> Propagator:
        """:func:`element_filter`, in C where the result and the items fit in a word (the
        index may be wider) and the index is not an item."""
        held = [j for j, _ in items if j >= 0]
        if not self._in_c([result, *held]) or index in held:
            return element_filter(result, index, items, self.offsets)
        off = self.offsets[result]
        moves = [(j, self.offsets[j] - off if j >= 0 else number - off) for j, number in items]
        width = self.start[index].bit_length()
        return kernels.c.element(result, index, self.offsets[index], width, moves)

    def _lex(self, c: LexLess) -> Propagator:
        """Lexicographic order over the pairs the shorter list has; the lengths decide
        whether the lists may end equal there."""
        n = min(len(c.xs), len(c.ys))
        xs, ys = [d.index for d in c.xs[:n]], [d.index for d in c.ys[:n]]
        shorter = len(c.xs) <= len(c.ys) if c.or_equal else len(c.xs) < len(c.ys)
        return lex_filter(xs, ys, shorter, self.offsets)

    def _scheduling(self, c: NoOverlap | Cumulative) -> Propagator:
        """no_overlap and cumulative (see :mod:`lazyfun.csp.propagation.disjunctive`); their
        tasks are noted for the SetTimes branching."""
        self.tasks.extend(x.start.index for x in c.intervals)
        self.sizes.extend(x.parts()[2] for x in c.intervals)
        self.optional = self.optional or any(x.present is not None for x in c.intervals)
        if isinstance(c, NoOverlap):
            ranked = [(x.start.index, x.parts()[2]) for x in c.intervals]
            fixed = all(x.parts()[1] < 0 for x in c.intervals)
            self.machines.append(ranked if fixed else [])
            tasks = [_task(x, 1) for x in c.intervals]
            if c is self.adding:
                self.timetables[len(self.propagators)] = (tasks, 1)
            return no_overlap_filter(tasks, self.offsets)
        tasks = [_task(x, d) for x, d in zip(c.intervals, c.demands, strict=True)]
        if c is self.adding:
            self.timetables[len(self.propagators)] = (tasks, c.capacity)
        return cumulative_filter(tasks, c.capacity, self.offsets)

    def _combined(self, c: Function | AllOf | AnyOf | Truth) -> Propagator:
        """A function of decisions (``x * y``, ``x // k``, ...), or constraints combined
        (``&``, ``|``, ``model.truth``): see :mod:`lazyfun.csp.propagation.nonlinear`."""
        if isinstance(c, Function):
            arguments = tuple(a.index for a in c.arguments)
            if c.name == "abs" and len(arguments) == 1 and arguments[0] != c.result.index:
                return abs_filter(c.result.index, arguments[0], self.offsets)
            return function_filter(c.result.index, arguments, c.name, c.k, c.f, self.offsets)
        if isinstance(c, AllOf):
            return all_filter([self.compile(p) for p in c.parts])
        if isinstance(c, AnyOf):
            literals = self._literals(c.parts)
            if literals is not None:
                return self._clause(literals)
            return any_filter([(self.compile(p), p.scope) for p in c.parts])
        return self._truth(c)

    def _truth(self, c: Truth) -> Propagator:
        """``model.truth``: a reified clause, ``x == y + k``, a condition on one decision,
        a linear relation, or any constraint and its negation."""
        condition = c.condition
        if isinstance(condition, AnyOf | AllOf):
            literals = self._literals(condition.parts)
            if literals is not None and isinstance(condition, AnyOf):
                return self._reified_clause(c.truth.index, 0b10, literals)
            if literals is not None:  # the truth is 0 exactly when some literal fails
                negated = [(i, bit ^ 0b11) for i, bit in literals]
                return self._reified_clause(c.truth.index, 0b01, negated)
        if _is_shift(condition) and c.truth.index not in condition.scope:
            assert isinstance(condition, Linear)
            (i, a), (j, _) = condition.expr.terms.items()
            x, y = (i, j) if a > 0 else (j, i)  # x - y + constant (== or !=) 0
            equal = 0b10 if condition.op == "==" else 0b01
            k = -condition.expr.constant
            shift = self.offsets[y] + k - self.offsets[x]
            if self._in_c([c.truth.index, x, y]) and abs(shift) < 1 << kernels.c.WIDTH:
                return kernels.c.reified_shift(c.truth.index, x, y, shift, equal)
            return reified_shift_filter(c.truth.index, x, y, k, equal, self.offsets)
        meets = self._unary(condition)
        if meets is not None and condition.scope[0] != c.truth.index:
            if self._in_c([c.truth.index, condition.scope[0]]):
                return kernels.c.reified_unary(c.truth.index, condition.scope[0], meets)
            return reified_unary_filter(c.truth.index, condition.scope[0], meets)
        holds, fails = self.compile(condition), self.compile(condition.negated())
        if (
            isinstance(condition, Linear)
            and c.truth.index not in condition.scope
            and not (condition.op == "==" and len(condition.scope) == 2)  # holes matter
        ):
            row, r = self._inequality(condition), c.truth.index
            if row is not None and c is self.adding:  # 1: the row holds, 0: its negation
                turned = [(i, -a, off) for i, a, off in row]
                self.guarded[len(self.propagators)] = [(r, 0b10, row), (r, 0b01, turned)]
            return reified_linear_filter(c.truth.index, condition, holds, fails, self.offsets)
        return truth_filter(c.truth.index, holds, fails, c.scope)

    def _inequality(self, c: Constraint) -> Terms | None:
        """A linear inequality's terms as ``sum(a * x) + k <= 0``; None for the rest."""
        if not isinstance(c, Linear) or c.op in ("==", "!="):
            return None
        terms = self._terms(c.expr)
        return [(i, -a, off) for i, a, off in terms] if c.op in (">=", ">") else terms

    def _unary(self, c: Constraint) -> int | None:
        """The values (a bit set over its offset) that the one decision of ``c`` meets
        ``c`` with, found by trying each; None when ``c`` has more decisions or its
        decision more than :data:`UNARY_VALUES` values."""
        if len(c.scope) != 1:
            return None
        (i,) = c.scope
        bits = self.start[i]
        if bits.bit_count() > UNARY_VALUES:
            return None
        probe = self._probe
        meets = 0
        while bits:
            bit = bits & -bits
            bits ^= bit
            probe[i] = self.offsets[i] + bit.bit_length() - 1
            if c.holds(probe):
                meets |= bit
        return meets

    def _literals(self, parts: Sequence[Constraint]) -> list[tuple[int, int]] | None:
        """``parts`` as literals ``(decision, bit)`` when each is a comparison of one 0/1
        decision that one of its two values meets (the bit of that value); else None."""
        literals = []
        for p in parts:
            if not isinstance(p, Linear) or len(p.expr.terms) != 1:
                return None
            ((i, a),) = p.expr.terms.items()
            if self.offsets[i] != 0 or self.start[i] & ~0b11:
                return None
            test, k = COMPARISONS[p.op], p.expr.constant
            meets = [v for v in (0, 1) if test(a * v + k, 0)]
            if len(meets) != 1:
                return None
            literals.append((i, 1 << meets[0]))
        return literals

    def value(self, i: int, bits: int) -> int:
        return self.offsets[i] + low(bits)

    def learnt(self, nogoods: list[list[tuple[int, int]]], bound: tuple[int, ...] | None) -> None:
        """Keep ``nogoods`` (with the goals' ``bound`` then; see
        :class:`~lazyfun.csp.propagation.nogoods.Nogoods`), and give each decision they
        name its propagator of the nogoods watching it, once: a decision in none wakes none,
        so a model pays only for the decisions its nogoods are about.  Between searches
        only: the loop in C is made again with the new propagators."""
        store = self.nogoods
        assert store is not None, "learnt nogoods need Propagators(..., learn=True)"
        store.extend(nogoods, self.start, bound)
        named = {i for literals in nogoods for i, _ in literals} - self._listened
        for i in sorted(named):
            self._watch(store.watcher(i), (i,), idempotent=False)
        self._listened |= named
        if named and self._loop is not None:
            self._loop = kernels.c.Loop(self.propagators, self.watchers, self.idempotent, self.slow)

    def reach(self, doms: Sequence[int]) -> list[int]:
        """The least the first goal can reach within ``doms`` (none when the relaxation
        shows nothing there fits): the goal's span, raised by the relaxation."""
        least = self.goal.lowest(0, doms)
        bound = least if self.relaxation is None else self.relaxation.lowest(doms)
        return [] if bound is None else [max(least, bound)]

    def _forward(self, c: Constraint) -> Propagator:
        """Forward checking: once one decision is open, keep its values that satisfy ``c``."""
        scope = c.scope
        offsets = self.offsets
        values = [0] * self.size

        def prop(doms: list[int]) -> Changes:
            open_ = [i for i in scope if doms[i] & (doms[i] - 1)]
            if len(open_) > 1:
                return ()
            if open_:
                return keep_where(c, True, doms, open_[0], offsets, values)
            for i in scope:
                values[i] = offsets[i] + low(doms[i])
            return () if c.holds(values) else None

        return prop

    def _linear(self, c: Linear) -> Propagator:
        terms = self._terms(c.expr)
        constant = c.expr.constant
        op = c.op
        if op == "!=":
            return not_equal_filter(terms, constant)
        if not terms:
            holds: Changes = () if COMPARISONS[op](constant, 0) else None
            return lambda doms: holds
        if op in (">=", ">"):
            terms = [(i, -a, off) for i, a, off in terms]
            constant = -constant
            op = "<=" if op == ">=" else "<"
        if op == "<":
            constant += 1
            op = "<="
        if _is_shift(c, ("==",)):
            return self._shift_equal(terms, constant)
        tie = difference_of(c)
        if tie is not None:
            if c is self.adding:  # a constraint of the model, not one inside if_then
                self.ties.append(tie)
            return difference_filter(*tie, self.offsets)
        if op == "==" and len(terms) > 2 and all(abs(a) == 1 for _, a, _ in terms):
            return unit_equality(terms, constant)
        if c is self.adding:  # the propagator watched next
            self.rows[len(self.propagators)] = (terms, op == "==")
        if self._in_c([i for i, _, _ in terms]):
            try:
                return kernels.c.linear(terms, constant, op == "==")
            except OverflowError:  # sums wider than a machine word: the Python filter
                pass
        return bounds(terms, constant, op == "==")

    def _abs_pair(self, c: AbsCompare) -> Propagator:
        """``abs(x - y + k) != b``: a fixed side strikes at most two values from the other."""
        (i, _), (j, _) = sorted(c.expr.terms.items(), key=lambda t: -t[1])
        k, b = c.expr.constant, c.bound
        off_i, off_j = self.offsets[i], self.offsets[j]

        def strike(bits: int, values: tuple[int, ...], off: int) -> int:
            for v in values:
                if v >= off:
                    bits &= ~(1 << (v - off))
            return bits

        def prop(doms: list[int]) -> Changes:
            x, y = doms[i], doms[j]
            changed = []
            if not y & (y - 1):
                vy = off_j + y.bit_length() - 1
                x = strike(x, (vy - k + b, vy - k - b), off_i)
                if not x:
                    return None
                if x != doms[i]:
                    doms[i] = x
                    changed.append(i)
            if not x & (x - 1):
                vx = off_i + x.bit_length() - 1
                y = strike(y, (vx + k - b, vx + k + b), off_j)
                if not y:
                    return None
                if y != doms[j]:
                    doms[j] = y
                    changed.append(j)
            return changed

        return prop

    def _shift_equal(self, terms: Terms, constant: int) -> Propagator:
        """``x - y + k == 0``: x's values are y's shifted by ``-k``, and back."""
        (i, a, off_i), (j, _, off_j) = terms
        if a < 0:
            (i, _, off_i), (j, _, off_j) = (j, 1, off_j), (i, -1, off_i)
        shift = off_j - constant - off_i  # value x = y - k; bit of x = bit of y + shift

        def moved(bits: int, by: int) -> int:
            return bits << by if by >= 0 else bits >> -by

        def prop(doms: list[int]) -> Changes:
            x0, y0 = doms[i], doms[j]
            x = x0 & moved(y0, shift)
            y = y0 & moved(x, -shift)
            if not x or not y:
                return None
            doms[i], doms[j] = x, y
            return [d for d, old, new in ((i, x0, x), (j, y0, y)) if old != new]

        return prop

    def propagate(self, doms: list[int], touched: Sequence[int]) -> bool:
        """Run propagators to a fixpoint, starting from those watching ``touched``
        (and from the goals' cut and relaxation, which may have tightened since the
        domains were last propagated).

        The queue is first in, first out.  A propagator that reaches its own
        fixpoint in one run (``all_different``, ``x == y + k``) is not queued
        again by its own changes; the others are.  The costly ones (Hall
        intervals, distinct distances, scheduling's) wait in a second queue until
        the first is empty, so they run on domains the cheap ones have narrowed.
        """
        loop = self._loop
        if loop is not None:
            ok = loop.run(doms, touched, self.seeds, self.interrupt)
            if ok:
                self.propagations += loop.runs
            else:
                self._failed(loop.failed, loop.runs)
            return ok
        try:
            return self._propagate(doms, touched)
        except BaseException:
            self._queued = []  # a propagator raised mid-run: the marks start afresh
            raise

    def _propagate(self, doms: list[int], touched: Sequence[int]) -> bool:
        """:meth:`propagate`, its marks of what is queued kept between runs."""
        watchers = self.watchers
        props = self.propagators
        idempotent = self.idempotent
        slow = self.slow
        queued = self._queued
        every, interrupt = kernels.INTERRUPT_EVERY, self.interrupt
        if len(queued) != len(props):
            queued = self._queued = [False] * len(props)
        # Two first-in first-out queues as lists read from a head (cheaper than deques
        # compiled): the cheap propagators', then the costly ones'.
        queue: list[int] = []
        later: list[int] = []
        head = late = 0
        self._seed(touched, queued, queue, later)
        runs = 0
        while True:
            if head < len(queue):
                k = queue[head]
                head += 1
            elif late < len(later):
                k = later[late]
                late += 1
            else:
                break
            queued[k] = False
            runs += 1
            if not runs % every and interrupt is not None:
                interrupt()
            changes = props[k](doms)
            if changes is None:
                self._failed(k, runs)
                for j in queue[head:]:  # at rest again for the next run
                    queued[j] = False
                for j in later[late:]:
                    queued[j] = False
                return False
            again = not idempotent[k]
            for i in changes:
                for k2 in watchers[i]:
                    if not queued[k2] and (k2 != k or again):
                        queued[k2] = True
                        (later if slow[k2] else queue).append(k2)
        self.propagations += runs
        return True

    def _seed(
        self, touched: Sequence[int], queued: list[bool], queue: list[int], later: list[int]
    ) -> None:
        """Queue the goals' cut, the relaxation and the propagators watching ``touched``."""
        for k in self.seeds:
            queued[k] = True
            queue.append(k)
        slow = self.slow
        for i in touched:
            for k in self.watchers[i]:
                if not queued[k]:
                    queued[k] = True
                    (later if slow[k] else queue).append(k)

    def _failed(self, k: int, runs: int) -> None:
        """Propagator ``k`` failed after ``runs`` runs: its decisions weigh one more."""
        for i in self.scopes[k]:
            self.weight[i] += 1
        self.propagations += runs
        self.failures += 1
