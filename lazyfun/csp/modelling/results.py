"""What solving gives back: a ``Solution`` of some ``Quality`` (Solver Foundation's names)."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Protocol

from lazyfun.csp.modelling.constraints import Decision
from lazyfun.csp.modelling.domain import ModelError

__all__ = ["Decisions", "Quality", "Solution"]


class Decisions(Protocol):
    """What a solution needs of its model: its decisions, in order and by name."""

    @property
    def decisions(self) -> Sequence[Decision]: ...

    def __getitem__(self, name: str) -> Decision: ...


class Quality(Enum):
    """What a :class:`Solution` is (Solver Foundation's ``SolverQuality``).

    OPTIMAL: no solution is better on the model's goals (proved by the
    search); FEASIBLE: a solution, or with goals the best found when a
    limit stopped the search; INFEASIBLE: no solution exists; UNKNOWN: a
    limit stopped the search before any solution was found.
    """

    OPTIMAL = "optimal"
    FEASIBLE = "feasible"
    INFEASIBLE = "infeasible"
    UNKNOWN = "unknown"


class Solution:
    """Values for every decision of a model, or a verdict that there are none.

    ``solution[x]`` or ``solution["x"]`` gives a value; ``as_dict()`` all of
    them by name.  An infeasible (or unknown) solution has a ``quality`` and no
    values.  On a model with goals, ``objective`` holds the goals' values in
    the order they were set, and ``bound`` the best value the first goal could
    still reach when the solution was reported (equal to ``objective[0]`` once
    the solution is OPTIMAL; None without goals, or when nothing is proved).
    """

    def __init__(
        self,
        model: Decisions,
        values: tuple[int, ...] | None,
        quality: Quality,
        *,
        objective: tuple[int, ...] = (),
        bound: int | None = None,
    ) -> None:
        self.model = model
        self.values = values
        self.quality = quality
        self.objective = objective
        self.bound = bound

    def __getitem__(self, key: Decision | str) -> int:
        decision = self.model[key] if isinstance(key, str) else key
        if decision.model is not self.model:
            raise ModelError(f"{decision!r} is a decision of another model")
        if self.values is None:
            raise ModelError(f"a {self.quality.value} solution has no values")
        return self.values[decision.index]

    def as_dict(self) -> dict[str, int]:
        """Every decision's value, by name (empty when there is no solution); the hidden
        decisions that stand for expressions such as ``minimum(xs)`` are left out."""
        if self.values is None:
            return {}
        pairs = zip(self.model.decisions, self.values, strict=True)
        return {d.name: v for d, v in pairs if not d.hidden}

    def __repr__(self) -> str:
        goals = f", objective={self.objective}" if self.objective else ""
        return f"Solution({self.quality.name}, {self.as_dict()!r}{goals})"
