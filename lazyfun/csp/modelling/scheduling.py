"""Scheduling: intervals of time, and the constraints that keep them apart or under a capacity.

An interval is a task: a start (a decision), a size (a number or a decision)
and its end, ``start + size``; each usable in expressions like any decision.
An *optional* interval has a presence, a 0/1 decision: when it is 0 the
interval is absent and constrains nothing (CP-SAT's
``NewOptionalIntervalVar``).  ``no_overlap(intervals)`` keeps the present ones
from running at the same time (a machine that does one task at a time);
``cumulative(intervals, demands, capacity)`` keeps the demands of those running
at any time within the capacity.  An interval of size 0 occupies no time.

>>> from lazyfun.csp import Model, Domain, no_overlap
>>> m = Model()
>>> a = m.interval("a", start=Domain.integer_range(0, 4), size=3)
>>> b = m.interval("b", start=Domain.integer_range(0, 4), size=2)
>>> m.add_constraint("one machine", no_overlap([a, b]))
>>> m.solve().as_dict(), m.count()
({'a': 0, 'b': 3}, 9)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import pairwise
from typing import Protocol, runtime_checkable

from lazyfun.csp.modelling.constraints import Constraint, Decision, Expr
from lazyfun.csp.modelling.domain import Domain, ModelError, check_int

__all__ = ["Cumulative", "Interval", "NoOverlap", "cumulative", "make_interval", "no_overlap"]


@runtime_checkable
class _Defines(Protocol):
    """What an interval needs of its model: decisions, and hidden ones for expressions."""

    @property
    def decisions(self) -> Sequence[Decision]: ...

    def decision(self, name: str, domain: Domain) -> Decision: ...

    def define(
        self, kind: str, domain: Domain, tie: Callable[[Decision], Constraint]
    ) -> Decision: ...


class Interval:
    """A task of a model: ``start``, ``size`` and ``end`` (``start + size``), and whether it
    is ``present`` (None: always).  Made by ``Model.interval``."""

    def __init__(
        self,
        model: object,
        name: str,
        start: Decision,
        size: Decision | int,
        present: Decision | None,
    ) -> None:
        self.model = model
        self.name = name
        self.start = start
        self._size = size
        self.present = present

    @property
    def size(self) -> Expr:
        """The size, as an expression (a constant one when the size is a number)."""
        size = self._size
        return size._expr() if isinstance(size, Decision) else Expr(self.model, {}, size)

    @property
    def end(self) -> Expr:
        """``start + size``."""
        return self.start + self._size

    def parts(self) -> tuple[int, int, int, int]:
        """The decisions behind it, for the propagators: start, size (-1: a number, in
        the second place then), presence (-1: always present).  As
        ``(start, size decision or -1, size number or 0, presence or -1)``."""
        size = self._size
        if isinstance(size, Decision):
            return (self.start.index, size.index, 0, self._presence())
        return (self.start.index, -1, size, self._presence())

    def _presence(self) -> int:
        return self.present.index if self.present is not None else -1

    def scope(self) -> tuple[int, ...]:
        start, size, _, present = self.parts()
        return (start, *(i for i in (size, present) if i >= 0))

    def runs(self, values: Sequence[int]) -> tuple[int, int] | None:
        """``(start, end)`` when present with a positive size in these values, else None."""
        start, size_at, size, present = self.parts()
        if present >= 0 and values[present] == 0:
            return None
        length = values[size_at] if size_at >= 0 else size
        if length <= 0:
            return None
        return values[start], values[start] + length

    def __repr__(self) -> str:
        optional = f", present={self.present.name}" if self.present is not None else ""
        return f"Interval({self.name!r}, start={self.start!r}, size={self._size!r}{optional})"


def make_interval(
    model: object,
    name: str,
    start: Domain | Decision,
    size: int | Decision | Expr,
    present: Decision | None,
) -> Interval:
    """``Model.interval``'s work: the start decision (named ``name``), the size checked or
    defined as a hidden decision, the presence checked."""
    if not isinstance(model, _Defines):
        raise ModelError(f"interval {name!r} needs a model")
    if isinstance(start, Domain):
        start_decision = model.decision(name, start)
    elif isinstance(start, Decision):
        if start.model is not model:
            raise ModelError(f"interval {name!r}: its start is a decision of another model")
        start_decision = start
    else:
        raise ModelError(f"interval {name!r}: start must be a Domain or a decision, got {start!r}")
    return Interval(
        model, name, start_decision, _size(model, name, size), _presence(model, name, present)
    )


def _size(model: _Defines, name: str, size: object) -> Decision | int:
    if isinstance(size, Decision | Expr):
        if size.model is not model and (size._expr().terms or isinstance(size, Decision)):
            raise ModelError(f"interval {name!r}: its size uses a decision of another model")
        expr = size._expr()
        if not expr.terms:
            size = expr.constant
        elif isinstance(size, Decision):
            if size.domain.values[0] < 0:
                raise ModelError(
                    f"interval {name!r}: its size {size.name!r} may be negative "
                    f"({size.domain.values[0]}); a size is 0 or more"
                )
            return size
        else:
            low, high = _span(expr, model)
            if high < 0:
                raise ModelError(f"interval {name!r}: its size is always negative")
            tied = expr
            return model.define(
                "size", Domain.integer_range(max(low, 0), high), lambda d: d == tied
            )
    value = check_int(size, f"the size of interval {name!r}")
    if value < 0:
        raise ModelError(f"interval {name!r} has a negative size {value}")
    return value


def _span(expr: Expr, model: _Defines) -> tuple[int, int]:
    """The least and the most ``expr`` can be over its decisions' domains."""
    decisions = model.decisions
    low = high = expr.constant
    for i, a in expr.terms.items():
        values = decisions[i].domain.values
        low += min(a * values[0], a * values[-1])
        high += max(a * values[0], a * values[-1])
    return low, high


def _presence(model: object, name: str, present: object) -> Decision | None:
    if present is None:
        return None
    if not isinstance(present, Decision):
        raise ModelError(f"interval {name!r}: present must be a 0/1 decision, got {present!r}")
    if present.model is not model:
        raise ModelError(f"interval {name!r}: its presence is a decision of another model")
    if not set(present.domain.values) <= {0, 1}:
        raise ModelError(
            f"interval {name!r}: its presence {present.name!r} must be 0/1 "
            f"(Domain.boolean()), got {present.domain.values}"
        )
    return present


def _intervals(what: str, intervals: Iterable[Interval]) -> tuple[Interval, ...]:
    items = tuple(intervals)
    for x in items:
        if not isinstance(x, Interval):
            raise ModelError(f"{what} takes intervals (model.interval(...)), got {x!r}")
    if items and any(x.model is not items[0].model for x in items):
        raise ModelError(f"{what} over intervals of two models")
    if len({id(x) for x in items}) != len(items):
        raise ModelError(f"{what} lists the same interval twice")
    return items


def _scope(intervals: Sequence[Interval], more: Iterable[int] = ()) -> tuple[int, ...]:
    return tuple(sorted({i for x in intervals for i in x.scope()} | set(more)))


class NoOverlap(Constraint):
    """No two present intervals run at the same time (CP-SAT's ``AddNoOverlap``)."""

    def __init__(self, intervals: Sequence[Interval]) -> None:
        self.intervals = tuple(intervals)
        self.model = intervals[0].model if intervals else None
        self.scope = _scope(intervals)

    def holds(self, values: Sequence[int]) -> bool:
        runs = sorted(r for x in self.intervals if (r := x.runs(values)) is not None)
        return all(a[1] <= b[0] for a, b in pairwise(runs))

    def __repr__(self) -> str:
        return f"NoOverlap({[x.name for x in self.intervals]})"


class Cumulative(Constraint):
    """At any time, the demands of the present intervals running then add up to at most
    ``capacity`` (CP-SAT's ``AddCumulative``)."""

    def __init__(
        self, intervals: Sequence[Interval], demands: Sequence[Decision | int], capacity: int
    ) -> None:
        self.intervals = tuple(intervals)
        self.demands = tuple(demands)
        self.capacity = capacity
        self.model = intervals[0].model if intervals else None
        self.scope = _scope(intervals, (d.index for d in demands if isinstance(d, Decision)))

    def holds(self, values: Sequence[int]) -> bool:
        runs = [
            (r, values[d.index] if isinstance(d, Decision) else d)
            for x, d in zip(self.intervals, self.demands, strict=True)
            if (r := x.runs(values)) is not None
        ]
        for (t, _), _ in runs:
            if sum(d for (s, e), d in runs if s <= t < e) > self.capacity:
                return False
        return True

    def __repr__(self) -> str:
        names = [x.name for x in self.intervals]
        return f"Cumulative({names}, {list(self.demands)}, {self.capacity})"


def no_overlap(intervals: Iterable[Interval]) -> NoOverlap:
    """No two of the (present) ``intervals`` run at once: one machine, one task at a time."""
    return NoOverlap(_intervals("no_overlap", intervals))


def cumulative(
    intervals: Iterable[Interval], demands: Iterable[Decision | int], capacity: int
) -> Cumulative:
    """The (present) ``intervals`` running at any time demand at most ``capacity`` in all;
    each demand a number or a decision, 0 or more."""
    items = _intervals("cumulative", intervals)
    amounts = list(demands)
    if len(amounts) != len(items):
        raise ModelError(f"cumulative: {len(amounts)} demands for {len(items)} intervals")
    for d in amounts:
        if isinstance(d, Decision):
            if items and d.model is not items[0].model:
                raise ModelError(f"cumulative: demand {d.name!r} is a decision of another model")
            if d.domain.values[0] < 0:
                raise ModelError(f"cumulative: demand {d.name!r} may be negative")
        elif check_int(d, "a demand") < 0:
            raise ModelError(f"cumulative: a negative demand {d}")
    if check_int(capacity, "cumulative's capacity") < 0:
        raise ModelError(f"cumulative: a negative capacity {capacity}")
    return Cumulative(items, amounts, capacity)
