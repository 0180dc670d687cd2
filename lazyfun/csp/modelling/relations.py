"""Constraints that linear expressions cannot say: element, table, if_then, minimum, maximum,
circuit, lexicographic order.

``element``, ``minimum`` and ``maximum`` are expressions: each defines a
*hidden* decision in the model (left out of ``Solution.as_dict``), tied to
its arguments by a constraint, and returns it, so it can be compared, added
or set as a goal like any decision.  ``table``, ``if_then`` and ``circuit`` are
constraints, added with ``model.add_constraint`` as usual.

>>> from lazyfun.csp import Model, Domain
>>> m = Model()
>>> i = m.decision("i", Domain.integer_range(0, 3))
>>> x = m.decision("x", Domain.integer_range(0, 9))
>>> m.add_constraint("pick", element([7, 3, 8, 1], i) == x + 5)
>>> [s.as_dict() for s in m.solutions()]
[{'i': 0, 'x': 2}, {'i': 2, 'x': 3}]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Protocol, runtime_checkable

from lazyfun.csp.modelling.constraints import Constraint, Decision, Expression, decision_of
from lazyfun.csp.modelling.domain import Domain, ModelError, check_int

__all__ = [
    "Circuit",
    "Element",
    "Extreme",
    "IfThen",
    "LexLess",
    "Table",
    "circuit",
    "element",
    "if_then",
    "lex_less",
    "lex_less_equal",
    "maximum",
    "minimum",
    "table",
]


@runtime_checkable
class Defines(Protocol):
    """What an expression constraint needs of its model: a way to define a hidden decision."""

    def define(
        self, kind: str, domain: Domain, tie: Callable[[Decision], Constraint]
    ) -> Decision: ...


def _model_of(what: str, decisions: Sequence[Decision]) -> Defines:
    """The one model the ``decisions`` belong to."""
    if not decisions:
        raise ModelError(f"{what} needs at least one decision")
    model = decisions[0].model
    if any(d.model is not model for d in decisions):
        raise ModelError(f"{what} over decisions of two models")
    if not isinstance(model, Defines):
        raise ModelError(f"{what}: {decisions[0]!r} belongs to no model")
    return model


def _decision_or_int(what: str, item: object) -> Decision | int:
    """A decision or a number as it is; an expression as the hidden decision equal to it."""
    return decision_of(item, what)


class Element(Constraint):
    """``result == items[index]``: ``index`` counts from 0 and must name a position."""

    def __init__(self, result: Decision, items: Sequence[Decision | int], index: Decision) -> None:
        self.model = result.model
        self.result = result
        self.items = tuple(items)
        self.index = index
        inner = tuple(x.index for x in self.items if isinstance(x, Decision))
        self.scope = (result.index, index.index, *inner)

    def holds(self, values: Sequence[int]) -> bool:
        k = values[self.index.index]
        if not 0 <= k < len(self.items):
            return False
        item = self.items[k]
        chosen = values[item.index] if isinstance(item, Decision) else item
        return values[self.result.index] == chosen


def element(items: Sequence[Expression], index: Expression) -> Decision:
    """The ``index``-th of ``items`` (from 0), as a hidden decision (Solver Foundation's
    ``Model.Element``, CP-SAT's ``AddElement``).

    ``index`` (a decision or an expression) is kept to the positions of ``items``;
    ``items`` mixes numbers, decisions and expressions of the same model.
    """
    chosen = index if isinstance(index, int) else decision_of(index, "element's index")
    if not isinstance(chosen, Decision):
        raise ModelError(f"element's index must be a decision or an expression, got {index!r}")
    index = chosen
    parts = [_decision_or_int("element", x) for x in items]
    if not parts:
        raise ModelError("element needs at least one item")
    model = _model_of("element", [index, *(x for x in parts if isinstance(x, Decision))])
    reachable: set[int] = set()
    for k in index.domain.values:
        if 0 <= k < len(parts):
            item = parts[k]
            reachable.update(item.domain.values if isinstance(item, Decision) else (item,))
    if not reachable:
        raise ModelError(
            f"element: index {index.name!r} can take no position of a list of {len(parts)}"
        )
    return model.define("element", Domain.of(reachable), lambda r: Element(r, parts, index))


class Table(Constraint):
    """The decisions' values, in order, are one of the allowed rows."""

    def __init__(self, decisions: Sequence[Decision], rows: Sequence[tuple[int, ...]]) -> None:
        self.model = decisions[0].model
        self.scope = tuple(d.index for d in decisions)
        self.rows = tuple(rows)
        self._allowed = frozenset(self.rows)

    def holds(self, values: Sequence[int]) -> bool:
        return tuple(values[i] for i in self.scope) in self._allowed


def table(decisions: Sequence[Decision], allowed: Iterable[Sequence[int]]) -> Table:
    """The ``decisions`` take one of the ``allowed`` rows of values (CP-SAT's
    ``AddAllowedAssignments``); no rows means the constraint cannot hold."""
    scope = list(decisions)
    for d in scope:
        if not isinstance(d, Decision):
            raise ModelError(f"table takes decisions, got {d!r}")
    _model_of("table", scope)
    rows = []
    for n, row in enumerate(allowed):
        values = tuple(check_int(v, f"a value of table row {n}") for v in row)
        if len(values) != len(scope):
            raise ModelError(
                f"table row {n} has {len(values)} values for {len(scope)} decisions: {values}"
            )
        rows.append(values)
    return Table(scope, rows)


class IfThen(Constraint):
    """``then`` holds whenever ``condition`` does (``not condition or then``)."""

    def __init__(self, condition: Constraint, then: Constraint) -> None:
        self.model = condition.model if condition.scope else then.model
        self.condition = condition
        self.then = then
        self.scope = tuple(sorted(set(condition.scope) | set(then.scope)))

    def holds(self, values: Sequence[int]) -> bool:
        return not self.condition.holds(values) or self.then.holds(values)


def if_then(condition: Constraint, then: Constraint) -> IfThen:
    """When ``condition`` holds, so must ``then`` (an implication; ``then`` is not
    required otherwise)."""
    for part in (condition, then):
        if not isinstance(part, Constraint):
            raise ModelError(f"if_then takes constraints, got {part!r}")
    if condition.scope and then.scope and condition.model is not then.model:
        raise ModelError("if_then over decisions of two models")
    return IfThen(condition, then)


class Extreme(Constraint):
    """``result == min(items)`` (or ``max`` when ``largest``)."""

    def __init__(self, result: Decision, items: Sequence[Decision | int], largest: bool) -> None:
        self.model = result.model
        self.result = result
        self.decisions = tuple(x for x in items if isinstance(x, Decision))
        numbers = [x for x in items if not isinstance(x, Decision)]
        self.cap = (max if largest else min)(numbers) if numbers else None
        self.largest = largest
        self.scope = (result.index, *(d.index for d in self.decisions))

    def holds(self, values: Sequence[int]) -> bool:
        found = [values[d.index] for d in self.decisions]
        if self.cap is not None:
            found.append(self.cap)
        return values[self.result.index] == (max(found) if self.largest else min(found))


def _extreme(items: Iterable[Expression], largest: bool) -> Decision:
    what = "maximum" if largest else "minimum"
    parts = [_decision_or_int(what, x) for x in items]
    decisions = [x for x in parts if isinstance(x, Decision)]
    if not decisions:
        raise ModelError(f"{what} needs at least one decision (of numbers alone, use {what[:3]})")
    model = _model_of(what, decisions)
    numbers = [Domain.of([x]) for x in parts if not isinstance(x, Decision)]
    domain = Domain.union([*(d.domain for d in decisions), *numbers])
    return model.define(what, domain, lambda r: Extreme(r, parts, largest))


def minimum(items: Iterable[Expression]) -> Decision:
    """The smallest of ``items`` (decisions, expressions and numbers), as a hidden decision."""
    return _extreme(items, largest=False)


def maximum(items: Iterable[Expression]) -> Decision:
    """The largest of ``items`` (decisions, expressions and numbers), as a hidden decision."""
    return _extreme(items, largest=True)


class Circuit(Constraint):
    """Each decision is the next stop after its own (numbered from ``first``), and following
    them from any stop visits every stop once before coming back: one tour."""

    def __init__(self, decisions: Sequence[Decision], first: int) -> None:
        self.model = decisions[0].model
        self.scope = tuple(d.index for d in decisions)
        self.first = first

    def holds(self, values: Sequence[int]) -> bool:
        n = len(self.scope)
        nexts = [values[i] - self.first for i in self.scope]
        if sorted(nexts) != list(range(n)):
            return False
        stop, visited = 0, 0
        while True:
            stop, visited = nexts[stop], visited + 1
            if stop == 0:
                return visited == n


def circuit(decisions: Sequence[Decision], first: int = 0) -> Circuit:
    """A tour through every stop: ``decisions[k]`` is the stop after stop ``k``, stops
    numbered from ``first`` (MiniZinc's ``circuit``, whose stops count from 1: ``first=1``).

    >>> from lazyfun.csp import Model, Domain
    >>> m = Model()
    >>> after = [m.decision(f"after{k}", Domain.integer_range(0, 3)) for k in range(4)]
    >>> m.add_constraint("tour", circuit(after))
    >>> m.count()
    6
    """
    scope = list(decisions)
    for d in scope:
        if not isinstance(d, Decision):
            raise ModelError(f"circuit takes decisions, got {d!r}")
    _model_of("circuit", scope)
    if len({d.index for d in scope}) != len(scope):
        raise ModelError("circuit lists the same decision twice")
    return Circuit(scope, check_int(first, "circuit's first stop"))


class LexLess(Constraint):
    """``xs`` comes before ``ys`` in lexicographic order (or equals it, with ``or_equal``),
    compared from the first position; a list that is a beginning of the other comes
    first, as Python compares tuples."""

    def __init__(self, xs: Sequence[Decision], ys: Sequence[Decision], or_equal: bool) -> None:
        self.model = (xs or ys)[0].model
        self.xs, self.ys = tuple(xs), tuple(ys)
        self.or_equal = or_equal
        self.scope = tuple(dict.fromkeys(d.index for d in (*xs, *ys)))

    def holds(self, values: Sequence[int]) -> bool:
        left = tuple(values[d.index] for d in self.xs)
        right = tuple(values[d.index] for d in self.ys)
        return left <= right if self.or_equal else left < right


def _lex(xs: Sequence[Decision], ys: Sequence[Decision], or_equal: bool) -> LexLess:
    """:class:`LexLess` over two lists of decisions of one model."""
    scope = [*xs, *ys]
    for d in scope:
        if not isinstance(d, Decision):
            raise ModelError(f"lex_less takes decisions, got {d!r}")
    _model_of("lex_less", scope)
    return LexLess(xs, ys, or_equal)


def lex_less(xs: Sequence[Decision], ys: Sequence[Decision]) -> LexLess:
    """``xs`` comes strictly before ``ys`` in lexicographic order (MiniZinc's
    ``lex_less``), a symmetry breaker: propagated by Frisch et al.'s rule.

    >>> from lazyfun.csp import Model, Domain
    >>> m = Model()
    >>> a, b, c, d = (m.decision(n, Domain.integer_range(0, 1)) for n in "abcd")
    >>> m.add_constraint("order", lex_less([a, b], [c, d]))
    >>> m.count()
    6
    """
    return _lex(xs, ys, or_equal=False)


def lex_less_equal(xs: Sequence[Decision], ys: Sequence[Decision]) -> LexLess:
    """``xs`` comes before ``ys`` in lexicographic order, or equals it (MiniZinc's
    ``lex_lesseq``)."""
    return _lex(xs, ys, or_equal=True)
