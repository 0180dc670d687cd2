"""The model: decisions over integer domains, expressions, named constraints.

Shaped after Microsoft Solver Foundation's ``Decision``, ``Domain.IntegerRange``,
``Model.AddConstraint(name, ...)`` and ``Model.AllDifferent``, in Python's
terms: constraints are written with operators on decisions (``x != y``,
``x + y == z``, ``abs(x - y) != 2``), and a model's solutions are a lazy
iterator (see :mod:`lazyfun.csp.solver`).

A domain is stored as a bit set over an offset: bit ``i`` stands for the value
``offset + i``.  Expressions are linear, ``sum(coefficient * decision) +
constant``, plus ``abs`` of a linear expression compared with a constant.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, TypeAlias

if TYPE_CHECKING:
    from lazyfun.csp.solver import Solution, Solutions

__all__ = [
    "AbsCompare",
    "AllDifferent",
    "Constraint",
    "Decision",
    "Domain",
    "Expr",
    "Linear",
    "Model",
    "ModelError",
    "Predicate",
    "all_different",
    "total",
]


class ModelError(ValueError):
    """A model that cannot be built as written; the message names the mistake."""


@dataclass(frozen=True)
class Domain:
    """The values a decision may take: a finite set of integers.

    >>> Domain.integer_range(1, 4).values
    (1, 2, 3, 4)
    >>> Domain.of([5, 1, 5]).values, Domain.boolean().values
    ((1, 5), (0, 1))
    """

    values: tuple[int, ...]

    def __post_init__(self) -> None:
        if not self.values:
            raise ModelError("a domain needs at least one value")
        for v in self.values:
            _check_int(v, "a domain value")

    @staticmethod
    def integer_range(low: int, high: int) -> Domain:
        """``Domain.IntegerRange(low, high)``: every integer from ``low`` to ``high``."""
        _check_int(low, "the low end of a range")
        _check_int(high, "the high end of a range")
        if low > high:
            raise ModelError(f"empty domain: integer_range({low}, {high})")
        return Domain(tuple(range(low, high + 1)))

    @staticmethod
    def of(values: Iterable[int]) -> Domain:
        """The given values (sorted, duplicates dropped)."""
        vals = list(values)
        for v in vals:
            _check_int(v, "a domain value")
        return Domain(tuple(sorted(set(vals))))

    @staticmethod
    def boolean() -> Domain:
        """0 or 1."""
        return Domain((0, 1))

    @property
    def offset(self) -> int:
        return self.values[0]

    @property
    def bits(self) -> int:
        """The values as a bit set over ``offset``."""
        bits = 0
        for v in self.values:
            bits |= 1 << (v - self.offset)
        return bits


def _check_int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ModelError(f"{what} must be an integer, got {value!r}")
    return value


Operand: TypeAlias = "Expr | Decision | int"
Op = Literal["==", "!=", "<=", "<", ">=", ">"]

_OPS: dict[str, Callable[[int, int], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<=": operator.le,
    "<": operator.lt,
    ">=": operator.ge,
    ">": operator.gt,
}


class _Comparable:
    """Arithmetic and comparison operators that build expressions and constraints."""

    def _expr(self) -> Expr:
        raise NotImplementedError

    def __add__(self, other: Operand) -> Expr:
        return self._expr().plus(_as_expr(other, self._expr().model), 1)

    def __radd__(self, other: Operand) -> Expr:
        return self.__add__(other)

    def __sub__(self, other: Operand) -> Expr:
        return self._expr().plus(_as_expr(other, self._expr().model), -1)

    def __rsub__(self, other: Operand) -> Expr:
        return _as_expr(other, self._expr().model).plus(self._expr(), -1)

    def __mul__(self, k: int) -> Expr:
        _check_int(k, "a coefficient")
        e = self._expr()
        return Expr(e.model, {i: c * k for i, c in e.terms.items() if c * k}, e.constant * k)

    def __rmul__(self, k: int) -> Expr:
        return self.__mul__(k)

    def __neg__(self) -> Expr:
        return self.__mul__(-1)

    def __abs__(self) -> Abs:
        return Abs(self._expr())

    def _compare(self, other: Operand, op: Op) -> Linear:
        e = self._expr()
        return Linear(e.plus(_as_expr(other, e.model), -1), op)

    def __eq__(self, other: object) -> Linear:  # type: ignore[override]
        return self._compare(other, "==")  # type: ignore[arg-type]

    def __ne__(self, other: object) -> Linear:  # type: ignore[override]
        return self._compare(other, "!=")  # type: ignore[arg-type]

    def __le__(self, other: Operand) -> Linear:
        return self._compare(other, "<=")

    def __lt__(self, other: Operand) -> Linear:
        return self._compare(other, "<")

    def __ge__(self, other: Operand) -> Linear:
        return self._compare(other, ">=")

    def __gt__(self, other: Operand) -> Linear:
        return self._compare(other, ">")

    def __bool__(self) -> bool:
        raise TypeError(
            "a decision or expression has no truth value; compare it to build a constraint"
        )

    __hash__ = object.__hash__


class Decision(_Comparable):
    """One unknown of a model: ``model.decision(name, domain)``."""

    def __init__(self, model: Model, index: int, name: str, domain: Domain) -> None:
        self.model = model
        self.index = index
        self.name = name
        self.domain = domain

    def _expr(self) -> Expr:
        return Expr(self.model, {self.index: 1}, 0)

    def __repr__(self) -> str:
        return f"Decision({self.name!r}, {self.domain.values[0]}..{self.domain.values[-1]})"

    __hash__ = object.__hash__


class Expr(_Comparable):
    """``sum(terms[i] * decision_i) + constant``, over the decisions of one model."""

    def __init__(self, model: Model | None, terms: dict[int, int], constant: int) -> None:
        self.model = model
        self.terms = terms
        self.constant = constant

    def _expr(self) -> Expr:
        return self

    def plus(self, other: Expr, sign: int) -> Expr:
        """``self + sign * other``, both of the same model."""
        model = self.model or other.model
        if self.model is not None and other.model is not None and self.model is not other.model:
            raise ModelError("an expression mixes decisions of two models")
        terms = dict(self.terms)
        for i, c in other.terms.items():
            terms[i] = terms.get(i, 0) + sign * c
            if not terms[i]:
                del terms[i]
        return Expr(model, terms, self.constant + sign * other.constant)

    def __repr__(self) -> str:
        return f"Expr({self.terms!r} + {self.constant})"

    __hash__ = object.__hash__


class Abs:
    """``abs(expression)``; compare it with a constant: ``abs(x - y) != 2``."""

    def __init__(self, inner: Expr) -> None:
        self.inner = inner

    def _compare(self, other: object, op: Op) -> AbsCompare:
        return AbsCompare(self.inner, op, _check_int(other, "the right side of abs(...)"))

    def __eq__(self, other: object) -> AbsCompare:  # type: ignore[override]
        return self._compare(other, "==")

    def __ne__(self, other: object) -> AbsCompare:  # type: ignore[override]
        return self._compare(other, "!=")

    def __le__(self, other: int) -> AbsCompare:
        return self._compare(other, "<=")

    def __lt__(self, other: int) -> AbsCompare:
        return self._compare(other, "<")

    def __ge__(self, other: int) -> AbsCompare:
        return self._compare(other, ">=")

    def __gt__(self, other: int) -> AbsCompare:
        return self._compare(other, ">")

    __hash__ = object.__hash__


def _as_expr(value: object, model: Model | None) -> Expr:
    if isinstance(value, _Comparable):
        return value._expr()
    return Expr(model, {}, _check_int(value, "a constant"))


class Constraint:
    """A condition over some decisions of one model."""

    model: Model | None
    scope: tuple[int, ...]

    def holds(self, values: Sequence[int]) -> bool:
        """Whether the condition holds when every decision ``i`` takes ``values[i]``."""
        raise NotImplementedError

    def __bool__(self) -> bool:
        raise TypeError("a constraint has no truth value; add it with model.add_constraint")


class Linear(Constraint):
    """``expression op 0`` for one of ``== != <= < >= >``."""

    def __init__(self, expr: Expr, op: Op) -> None:
        self.model = expr.model
        self.expr = expr
        self.op = op
        self.scope = tuple(sorted(expr.terms))

    def holds(self, values: Sequence[int]) -> bool:
        total = self.expr.constant + sum(c * values[i] for i, c in self.expr.terms.items())
        return _OPS[self.op](total, 0)

    def __repr__(self) -> str:
        return f"Linear({self.expr!r} {self.op} 0)"


class AbsCompare(Constraint):
    """``abs(expression) op constant``."""

    def __init__(self, expr: Expr, op: Op, bound: int) -> None:
        self.model = expr.model
        self.expr = expr
        self.op = op
        self.bound = bound
        self.scope = tuple(sorted(expr.terms))

    def holds(self, values: Sequence[int]) -> bool:
        total = self.expr.constant + sum(c * values[i] for i, c in self.expr.terms.items())
        return _OPS[self.op](abs(total), self.bound)


class AllDifferent(Constraint):
    """``Model.AllDifferent``: no two of the decisions take the same value."""

    def __init__(self, decisions: Sequence[Decision]) -> None:
        models = {id(d.model) for d in decisions}
        if len(models) > 1:
            raise ModelError("all_different over decisions of two models")
        self.model = decisions[0].model if decisions else None
        self.scope = tuple(d.index for d in decisions)
        if len(set(self.scope)) != len(self.scope):
            raise ModelError("all_different lists the same decision twice")

    def holds(self, values: Sequence[int]) -> bool:
        seen = [values[i] for i in self.scope]
        return len(set(seen)) == len(seen)


class Predicate(Constraint):
    """Any test of the listed decisions' values: the escape hatch."""

    def __init__(
        self, model: Model, test: Callable[..., bool], decisions: Sequence[Decision]
    ) -> None:
        self.model = model
        self.test = test
        self.scope = tuple(d.index for d in decisions)

    def holds(self, values: Sequence[int]) -> bool:
        return bool(self.test(*(values[i] for i in self.scope)))


def total(terms: Iterable[Decision | Expr]) -> Expr:
    """``sum(terms)`` typed as an expression (``sum`` itself is typed ``Expr | int``).

    >>> m = Model()
    >>> xs = [m.decision(f"x{i}", Domain.boolean()) for i in range(3)]
    >>> m.add_constraint("two", total(xs) == 2)
    >>> m.count()
    3
    """
    result = Expr(None, {}, 0)
    for term in terms:
        result = result + term
    return result


def all_different(decisions: Iterable[Decision]) -> AllDifferent:
    """No two of ``decisions`` take the same value (``Model.AllDifferent``)."""
    items = list(decisions)
    for d in items:
        if not isinstance(d, Decision):
            raise ModelError(f"all_different takes decisions, got {d!r}")
    return AllDifferent(items)


@dataclass
class Model:
    """Decisions and named constraints; solved lazily.

    >>> m = Model()
    >>> x = m.decision("x", Domain.integer_range(0, 9))
    >>> y = m.decision("y", Domain.integer_range(0, 9))
    >>> m.add_constraint("sum", x + y == 10)
    >>> m.add_constraint("order", x > y + 4)
    >>> [s.as_dict() for s in m.solutions()]
    [{'x': 8, 'y': 2}, {'x': 9, 'y': 1}]
    """

    decisions: list[Decision] = field(default_factory=list)
    constraints: dict[str, Constraint] = field(default_factory=dict)
    _names: dict[str, Decision] = field(default_factory=dict, repr=False)

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
        from lazyfun.csp.solver import Solutions

        return Solutions(self, time_limit=time_limit, node_limit=node_limit)

    def solve(self, *, time_limit: float | None = None, node_limit: int | None = None) -> Solution:
        """The first solution; its ``quality`` is FEASIBLE, INFEASIBLE or UNKNOWN (a limit hit)."""
        from lazyfun.csp.solver import Quality, Solution

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
