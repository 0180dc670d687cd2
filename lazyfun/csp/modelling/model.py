"""The model: decisions over integer domains, and named constraints; solved lazily.

Shaped after Microsoft Solver Foundation's ``Decision``, ``Domain.IntegerRange``,
``Model.AddConstraint(name, ...)`` and ``Model.AllDifferent``, in Python's
terms: constraints are written with operators on decisions (see
:mod:`lazyfun.csp.modelling.constraints`), and a model's solutions are a lazy iterator
(see :mod:`lazyfun.csp.search.solver`).  Imports run one way: the model uses the
solver, the solver knows only decisions and constraints.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Literal, TextIO

from lazyfun.csp.clauses.engine import LearningSolutions
from lazyfun.csp.modelling.arithmetic import Function, image
from lazyfun.csp.modelling.constraints import (
    Constraint,
    Decision,
    Expr,
    Predicate,
    Truth,
    decision_of,
)
from lazyfun.csp.modelling.domain import Domain, ModelError
from lazyfun.csp.modelling.results import Quality, Solution
from lazyfun.csp.modelling.scheduling import Interval, make_interval
from lazyfun.csp.search.progress import SearchProgress
from lazyfun.csp.search.solver import Solutions
from lazyfun.csp.search.strategy import VALUE_CHOICES, VARIABLE_CHOICES, Strategy

Learning = bool | Literal["clauses"]
"""``learn``: False, True (nogoods from restarts) or ``"clauses"`` (lazy clause generation)."""

__all__ = ["Model"]


class Model:
    """Decisions and named constraints; solved lazily.

    Two models are equal only when they are the same model (comparing
    decisions builds constraints, so a model is never compared field by
    field).

    >>> m = Model()
    >>> x = m.decision("x", Domain.integer_range(0, 9))
    >>> y = m.decision("y", Domain.integer_range(0, 9))
    >>> m.add_constraint("sum", x + y == 10)
    >>> m.add_constraint("order", x > y + 4)
    >>> [s.as_dict() for s in m.solutions()]
    [{'x': 8, 'y': 2}, {'x': 9, 'y': 1}]
    """

    def __init__(self) -> None:
        self.decisions: list[Decision] = []
        self.constraints: dict[str, Constraint] = {}
        self.goals: list[tuple[Expr, int]] = []
        self.branching: list[Decision] = []
        self.strategies: list[Strategy] = []
        self._names: dict[str, Decision] = {}
        self._last_defined: dict[str, int] = {}

    def __repr__(self) -> str:
        goals = f", {len(self.goals)} goals" if self.goals else ""
        return f"Model({len(self.decisions)} decisions, {len(self.constraints)} constraints{goals})"

    def decision(self, name: str, domain: Domain) -> Decision:
        """A new decision; names are unique within a model."""
        if not isinstance(name, str) or not name:
            raise ModelError(f"a decision needs a non-empty name, got {name!r}")
        return self._decision(name, domain, hidden=False)

    def boolean(self, name: str) -> Decision:
        """A new 0/1 decision (``Domain.boolean()``), usable anywhere an integer is:
        ``total(w[i] * take[i] for i ...)``, ``b == 1``."""
        return self.decision(name, Domain.boolean())

    def truth(self, constraint: Constraint) -> Decision:
        """A hidden 0/1 decision that is 1 exactly when ``constraint`` holds
        (reification): ``m.truth(x > 0) + m.truth(y > 0) == 2``, ``b == m.truth(x + y > z)``.

        >>> m = Model()
        >>> x, y = (m.decision(name, Domain.integer_range(0, 3)) for name in "xy")
        >>> m.add_constraint("one positive", m.truth(x > 0) + m.truth(y > 0) == 1)
        >>> m.count()
        6
        """
        if isinstance(constraint, bool) or not isinstance(constraint, Constraint):
            raise ModelError(
                f"truth() takes a constraint (x > 0, c1 & c2), got {constraint!r}: "
                "compare decisions, not numbers"
            )
        if constraint.scope and constraint.model is not self:
            raise ModelError("truth(): the constraint uses a decision of another model")
        return self.define("truth", Domain.boolean(), lambda b: Truth(b, constraint))

    def product(self, a: Expr, b: Expr) -> Decision:
        """``a * b`` of two expressions, as a hidden decision (``x * y`` calls this)."""
        x, y = decision_of(a, "x * y"), decision_of(b, "x * y")
        assert isinstance(x, Decision) and isinstance(y, Decision)  # both have decisions
        arguments = [x] if x is y else [x, y]
        return self._function("*", 0, arguments)

    def quotient(self, a: Expr, k: int) -> Decision:
        """``a // k``, as a hidden decision (``x // k`` calls this)."""
        return self._function("//", k, [self._argument(a, "x // k")])

    def remainder(self, a: Expr, k: int) -> Decision:
        """``a % k``, as a hidden decision (``x % k`` calls this)."""
        return self._function("%", k, [self._argument(a, "x % k")])

    def absolute(self, a: Expr) -> Decision:
        """``abs(a)``, as a hidden decision (``abs(x)`` used as an expression calls this)."""
        return self._function("abs", 0, [self._argument(a, "abs(x)")])

    def _argument(self, a: Expr, what: str) -> Decision:
        x = decision_of(a, what)
        assert isinstance(x, Decision)  # called only with an expression over decisions
        return x

    def _function(self, name: str, k: int, arguments: list[Decision]) -> Decision:
        kind = {"*": "product", "//": "quotient", "%": "remainder", "abs": "abs"}[name]
        try:
            domain = image(name, k, arguments)
        except ModelError as error:
            shown = " and ".join(a.name for a in arguments)
            raise ModelError(f"the {kind} of {shown}: {error}") from None
        return self.define(kind, domain, lambda r: Function(name, r, arguments, k))

    def _decision(self, name: str, domain: Domain, *, hidden: bool) -> Decision:
        if name in self._names:
            raise ModelError(f"duplicate decision name {name!r}")
        if not isinstance(domain, Domain):
            raise ModelError(f"decision {name!r} needs a Domain, got {domain!r}")
        d = Decision(self, len(self.decisions), name, domain, hidden=hidden)
        self.decisions.append(d)
        self._names[name] = d
        return d

    def define(self, kind: str, domain: Domain, tie: Callable[[Decision], Constraint]) -> Decision:
        """A hidden decision standing for an expression (``minimum(xs)``, ...), tied to
        its arguments by the constraint ``tie(decision)``; both are named ``kind#n``, ``n``
        one past the last of its kind (a name already taken is skipped): O(1) a call."""
        n = self._last_defined.get(kind, 0) + 1
        while f"{kind}#{n}" in self._names or f"{kind}#{n}" in self.constraints:
            n += 1
        self._last_defined[kind] = n
        d = self._decision(f"{kind}#{n}", domain, hidden=True)
        self.add_constraint(d.name, tie(d))
        return d

    def interval(
        self,
        name: str,
        start: Domain | Decision,
        size: int | Decision | Expr,
        present: Decision | None = None,
    ) -> Interval:
        """A task: its start a new decision named ``name`` over ``start`` (or a decision
        given), its ``size`` a number 0 or more or an expression, and its ``end`` ``start +
        size``; with ``present`` (a 0/1 decision) an optional task, absent when it is 0
        (CP-SAT's ``NewIntervalVar``/``NewOptionalIntervalVar``).  Constrain them with
        ``no_overlap`` and ``cumulative``."""
        return make_interval(self, name, start, size, present)

    def minimize(self, goal: Expr | Decision) -> None:
        """Seek the smallest value of ``goal`` (a linear expression of decisions).

        Goals rank in the order they are set: a later one only breaks the ties
        of the earlier ones (Solver Foundation's goal priorities).
        """
        self._goal(goal, 1, "minimize")

    def maximize(self, goal: Expr | Decision) -> None:
        """Seek the largest value of ``goal``; ranked with the others as in :meth:`minimize`."""
        self._goal(goal, -1, "maximize")

    def branch_on(
        self,
        decisions: Sequence[Decision],
        *,
        variable: str = "input_order",
        value: str = "default",
        tentative: bool = False,
    ) -> None:
        """Branch on these decisions first, before the rest by smallest domain: a search
        strategy, as CP-SAT's ``AddDecisionStrategy`` or MiniZinc's ``int_search``.
        ``variable`` says which open one next (``input_order``: the first still open;
        ``first_fail``, ``anti_first_fail``, ``smallest``, ``largest``, ``occurrence``,
        ``dom_w_deg``), ``value`` how its domain is split (``default``: each value in
        turn, smallest first; ``min``, ``max``, ``median``, ``split``,
        ``reverse_split``: see :mod:`lazyfun.csp.search.strategy`).  A second call's
        decisions come after the first's (MiniZinc's ``seq_search``).  The solutions
        are the same; the order they come in, and the time, may not be.
        ``tentative=True`` marks the branching a guess rather than the author's choice
        (the FlatZinc reader's for a model without search annotations): without goals,
        the search tries it in short runs that alternate with the solver's own branching,
        and goes on by it to the end only after ten runs find nothing (see
        :mod:`lazyfun.csp.search.restarts`).

        >>> m = Model()
        >>> x, y = (m.decision(name, Domain.integer_range(0, 3)) for name in "xy")
        >>> m.add_constraint("apart", x - y >= 2)
        >>> m.branch_on([y, x], value="max")
        >>> m.solve().as_dict()
        {'x': 3, 'y': 1}
        """
        if variable not in VARIABLE_CHOICES:
            raise ModelError(f"branch_on: variable={variable!r} is not one of {VARIABLE_CHOICES}")
        if value not in VALUE_CHOICES:
            raise ModelError(f"branch_on: value={value!r} is not one of {VALUE_CHOICES}")
        for d in decisions:
            if not isinstance(d, Decision) or d.model is not self:
                raise ModelError(f"branch_on: {d!r} is not a decision of this model")
        self.branching.extend(decisions)
        self.strategies.append(Strategy([d.index for d in decisions], variable, value, tentative))

    def _goal(self, goal: Expr | Decision, sign: int, verb: str) -> None:
        if not isinstance(goal, Expr | Decision):
            raise ModelError(
                f"{verb} takes a linear expression of decisions (x, 2 * x + y, total(xs), "
                f"minimum(xs)), got {goal!r}"
            )
        expr = goal._expr()
        if not expr.terms:
            raise ModelError(f"{verb}: the goal has no decision in it")
        if expr.model is not self:
            raise ModelError(f"{verb}: the goal uses a decision of another model")
        self.goals.append((expr, sign))

    def __getitem__(self, name: str) -> Decision:
        try:
            return self._names[name]
        except KeyError:
            raise ModelError(f"unknown decision {name!r}") from None

    def add_constraint(
        self,
        name: str,
        constraint: Constraint | Callable[..., bool],
        decisions: Sequence[Decision | str] | None = None,
    ) -> None:
        """Add a named constraint, or a predicate over the listed decisions.

        ``model.add_constraint("c", x != y)``; the escape hatch:
        ``model.add_constraint("odd", lambda a, b: (a + b) % 2 == 1, [x, "y"])``.
        """
        if not isinstance(name, str) or not name:
            raise ModelError(f"a constraint needs a non-empty name, got {name!r}")
        if name in self.constraints:
            raise ModelError(f"duplicate constraint name {name!r}")
        if decisions is not None:
            if not callable(constraint) or isinstance(constraint, Constraint):
                raise ModelError(f"constraint {name!r}: with a list of decisions, pass a predicate")
            resolved = [self[d] if isinstance(d, str) else d for d in decisions]
            for d in resolved:
                if not isinstance(d, Decision) or d.model is not self:
                    raise ModelError(f"constraint {name!r}: {d!r} is not a decision of this model")
            constraint = Predicate(self, constraint, resolved)
        if isinstance(constraint, bool):
            raise ModelError(
                f"constraint {name!r} is a plain {constraint}: compare decisions, not numbers"
            )
        if not isinstance(constraint, Constraint):
            raise ModelError(f"constraint {name!r} is not a constraint: {constraint!r}")
        if constraint.scope and constraint.model is not self:
            raise ModelError(f"constraint {name!r} uses a decision of another model")
        self.constraints[name] = constraint

    def solutions(
        self,
        *,
        time_limit: float | None = None,
        node_limit: int | None = None,
        progress: bool | TextIO = False,
        lns: bool = False,
        seed: int = 0,
        learn: Learning = False,
    ) -> Solutions:
        """Every solution, found one at a time as you ask (``GetNext`` as a generator).

        With goals: each strictly better than the last (quality FEASIBLE), as
        soon as it is found; once the search proves nothing better exists, the
        best once more as OPTIMAL, and the stream ends.  Stop reading whenever
        the last one is good enough: the search goes no further.

        ``progress=True`` shows the search on standard error as it goes (nodes,
        the best goal value so far and the bound; see :mod:`lazyfun.csp.search.progress`);
        a text stream instead of True shows it there.

        ``lns=True`` (with goals) searches, once a solution is known, neighbourhoods of the
        best (most decisions kept, a random part set free, chosen by ``seed``) between
        slices of the complete search, which still proves the optimum (see
        :mod:`lazyfun.csp.search.lns`): often better solutions sooner on a large model.

        ``learn=True`` searches in restarts that keep what each run refuted as nogoods,
        propagated by every later run, so none searches a refuted part again (the stream's
        ``nogoods`` counts them; see :mod:`lazyfun.csp.search.learning`): the same
        solutions and optimum, often in fewer nodes on a hard model.  Off by default.
        ``learn="clauses"`` learns from every failure instead (lazy clause generation: a
        nogood over domain literals per conflict, explained by the propagators, with
        activity-based branching and restarts; ``lns`` is left aside; see
        :mod:`lazyfun.csp.clauses.engine`).
        """
        shown = None
        if progress is not False:
            shown = SearchProgress(sys.stderr if progress is True else progress)
        if learn not in (False, True, "clauses"):
            raise ModelError(f"learn is True, False or 'clauses', not {learn!r}")
        search = LearningSolutions if learn == "clauses" else Solutions
        return search(
            self,
            self.decisions,
            list(self.constraints.values()),
            time_limit=time_limit,
            node_limit=node_limit,
            goals=self.goals,
            strategies=self.strategies,
            progress=shown,
            lns=lns and learn != "clauses",
            seed=seed,
            learn=learn is True,
        )

    def solve(
        self,
        *,
        time_limit: float | None = None,
        node_limit: int | None = None,
        lns: bool = False,
        seed: int = 0,
        learn: Learning = False,
    ) -> Solution:
        """Without goals, the first solution (FEASIBLE); with goals, the optimum (OPTIMAL),
        or when a limit stops the search the best found (FEASIBLE, with the ``bound``
        proved so far).  INFEASIBLE when there is no solution; UNKNOWN when a limit
        stopped the search before one was found.  ``lns``, ``seed`` and ``learn``: as for
        :meth:`solutions`."""
        stream = self.solutions(
            time_limit=time_limit, node_limit=node_limit, lns=lns, seed=seed, learn=learn
        )
        last = None
        for solution in stream:
            last = solution
            if not self.goals:
                break
        if last is None:
            quality = Quality.UNKNOWN if stream.stopped_by else Quality.INFEASIBLE
            return Solution(self, None, quality, bound=stream.bound)
        if last.quality is Quality.FEASIBLE:
            last.bound = stream.bound
        return last

    def count(
        self,
        limit: int | None = None,
        *,
        time_limit: float | None = None,
        node_limit: int | None = None,
    ) -> int:
        """How many solutions (stopping at ``limit``); eager, but holds one solution at a time.

        Refused on a model with goals: its stream holds improving solutions, not all.
        """
        if self.goals:
            raise ModelError(
                "count() is refused on a model with goals: its solutions() are the improving "
                "ones, not all of them; count the model without minimize/maximize"
            )
        n = 0
        for _ in self.solutions(time_limit=time_limit, node_limit=node_limit):
            n += 1
            if limit is not None and n >= limit:
                break
        return n
