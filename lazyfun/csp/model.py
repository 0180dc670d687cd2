"""The model: decisions over integer domains, and named constraints; solved lazily.

Shaped after Microsoft Solver Foundation's ``Decision``, ``Domain.IntegerRange``,
``Model.AddConstraint(name, ...)`` and ``Model.AllDifferent``, in Python's
terms: constraints are written with operators on decisions (see
:mod:`lazyfun.csp.constraints`), and a model's solutions are a lazy iterator
(see :mod:`lazyfun.csp.solver`).  Imports run one way: the model uses the
solver, the solver knows only decisions and constraints.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from lazyfun.csp.constraints import Constraint, Decision, Predicate
from lazyfun.csp.domain import Domain, ModelError
from lazyfun.csp.results import Quality, Solution
from lazyfun.csp.solver import Solutions

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
        self._names: dict[str, Decision] = {}

    def __repr__(self) -> str:
        return f"Model({len(self.decisions)} decisions, {len(self.constraints)} constraints)"

    def decision(self, name: str, domain: Domain) -> Decision:
        """A new decision; names are unique within a model."""
        if not isinstance(name, str) or not name:
            raise ModelError(f"a decision needs a non-empty name, got {name!r}")
        if name in self._names:
            raise ModelError(f"duplicate decision name {name!r}")
        if not isinstance(domain, Domain):
            raise ModelError(f"decision {name!r} needs a Domain, got {domain!r}")
        d = Decision(self, len(self.decisions), name, domain)
        self.decisions.append(d)
        self._names[name] = d
        return d

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
        self, *, time_limit: float | None = None, node_limit: int | None = None
    ) -> Solutions:
        """Every solution, found one at a time as you ask (``GetNext`` as a generator)."""
        return Solutions(
            self,
            self.decisions,
            list(self.constraints.values()),
            time_limit=time_limit,
            node_limit=node_limit,
        )

    def solve(self, *, time_limit: float | None = None, node_limit: int | None = None) -> Solution:
        """The first solution; its ``quality`` is FEASIBLE, INFEASIBLE or UNKNOWN (a limit hit)."""
        stream = self.solutions(time_limit=time_limit, node_limit=node_limit)
        for solution in stream:
            return solution
        quality = Quality.UNKNOWN if stream.stopped_by else Quality.INFEASIBLE
        return Solution(self, None, quality)

    def count(
        self,
        limit: int | None = None,
        *,
        time_limit: float | None = None,
        node_limit: int | None = None,
    ) -> int:
        """How many solutions (stopping at ``limit``); eager, but holds one solution at a time."""
        n = 0
        for _ in self.solutions(time_limit=time_limit, node_limit=node_limit):
            n += 1
            if limit is not None and n >= limit:
                break
        return n
