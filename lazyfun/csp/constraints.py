"""Decisions, expressions and constraints: what a model is written with.

Constraints are written with operators on decisions (``x != y``, ``x + y ==
z``, ``abs(x - y) != 2``): expressions are linear, ``sum(coefficient *
decision) + constant``, plus ``abs`` of a linear expression compared with a
constant; ``all_different`` and predicates cover the rest.  A decision
belongs to one model (its ``model``, compared by identity): mixing the
decisions of two models is a ``ModelError``.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Sequence
from typing import Literal, TypeAlias

from lazyfun.csp.domain import Domain, ModelError, check_int

__all__ = [
    "COMPARISONS",
    "Abs",
    "AbsCompare",
    "AllDifferent",
    "Constraint",
    "Decision",
    "Expr",
    "Linear",
    "Op",
    "Predicate",
    "all_different",
    "total",
]


Operand: TypeAlias = "Expr | Decision | int"
Op = Literal["==", "!=", "<=", "<", ">=", ">"]

# What each comparison means on numbers.
COMPARISONS: dict[str, Callable[[int, int], bool]] = {
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
        check_int(k, "a coefficient")
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
    """One unknown of a model: ``model.decision(name, domain)``; ``model`` is that model.

    A ``hidden`` decision stands for an expression such as ``minimum(xs)``:
    the model defines it, and a solution's ``as_dict`` leaves it out.
    """

    def __init__(
        self, model: object, index: int, name: str, domain: Domain, *, hidden: bool = False
    ) -> None:
        self.model = model
        self.index = index
        self.name = name
        self.domain = domain
        self.hidden = hidden

    def _expr(self) -> Expr:
        return Expr(self.model, {self.index: 1}, 0)

    def __repr__(self) -> str:
        return f"Decision({self.name!r}, {self.domain.values[0]}..{self.domain.values[-1]})"

    __hash__ = object.__hash__


class Expr(_Comparable):
    """``sum(terms[i] * decision_i) + constant``, over the decisions of one model."""

    def __init__(self, model: object, terms: dict[int, int], constant: int) -> None:
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
        return AbsCompare(self.inner, op, check_int(other, "the right side of abs(...)"))

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


def _as_expr(value: object, model: object) -> Expr:
    if isinstance(value, _Comparable):
        return value._expr()
    return Expr(model, {}, check_int(value, "a constant"))


class Constraint:
    """A condition over some decisions of one model."""

    model: object  # the model of its decisions (None for a constant constraint)
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
        return COMPARISONS[self.op](total, 0)

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
        return COMPARISONS[self.op](abs(total), self.bound)


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
        self, model: object, test: Callable[..., bool], decisions: Sequence[Decision]
    ) -> None:
        self.model = model
        self.test = test
        self.scope = tuple(d.index for d in decisions)

    def holds(self, values: Sequence[int]) -> bool:
        return bool(self.test(*(values[i] for i in self.scope)))


def total(terms: Iterable[Decision | Expr]) -> Expr:
    """``sum(terms)`` typed as an expression (``sum`` itself is typed ``Expr | int``).

    >>> from lazyfun.csp import Model
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
