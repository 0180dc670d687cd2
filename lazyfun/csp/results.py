"""What solving gives back: a ``Solution`` of some ``Quality`` (Solver Foundation's names)."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Protocol

from lazyfun.csp.constraints import Decision
from lazyfun.csp.domain import ModelError

__all__ = ["Decisions", "Quality", "Solution"]


class Decisions(Protocol):
    """What a solution needs of its model: its decisions, in order and by name."""

    @property
    def decisions(self) -> Sequence[Decision]: ...

    def __getitem__(self, name: str) -> Decision: ...


class Quality(Enum):
    """What a :class:`Solution` is (Solver Foundation's ``SolverQuality``)."""

    FEASIBLE = "feasible"
    INFEASIBLE = "infeasible"
    UNKNOWN = "unknown"


class Solution:
    """Values for every decision of a model, or a verdict that there are none.

    ``solution[x]`` or ``solution["x"]`` gives a value; ``as_dict()`` all of
    them by name.  An infeasible (or unknown) solution has a ``quality`` and no
    values.
    """

    def __init__(self, model: Decisions, values: tuple[int, ...] | None, quality: Quality) -> None:
        self.model = model
        self.values = values
        self.quality = quality

    def __getitem__(self, key: Decision | str) -> int:
        decision = self.model[key] if isinstance(key, str) else key
        if decision.model is not self.model:
            raise ModelError(f"{decision!r} is a decision of another model")
        if self.values is None:
            raise ModelError(f"a {self.quality.value} solution has no values")
        return self.values[decision.index]

    def as_dict(self) -> dict[str, int]:
        """Every decision's value, by name (empty when there is no solution)."""
        if self.values is None:
            return {}
        return {d.name: v for d, v in zip(self.model.decisions, self.values, strict=True)}

    def __repr__(self) -> str:
        return f"Solution({self.quality.name}, {self.as_dict()!r})"
