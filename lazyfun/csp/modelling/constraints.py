"""Decisions, expressions and constraints: what a model is written with.

Constraints are written with operators on decisions (``x != y``, ``x + y ==
z``, ``abs(x - y) != 2``) and combined with ``&``, ``|`` and ``~``.
Expressions are linear, ``sum(coefficient * decision) + constant``; what is
not linear (``x * y``, ``x // 3``, ``x % 3``, ``abs(x - y)`` used in a sum) is
a *hidden* decision the model defines and ties to its arguments (see
:mod:`lazyfun.csp.modelling.arithmetic`), so every expression stays linear over
decisions.  ``all_different`` and predicates cover the rest.  A decision
belongs to one model (its ``model``, compared by identity): mixing the
decisions of two models is a ``ModelError``.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Sequence
from typing import Literal, Protocol, TypeAlias, runtime_checkable

from lazyfun.csp.modelling.domain import Domain, ModelError, check_int

__all__ = [
    "COMPARISONS",
    "NEGATED",
    "Abs",
    "AbsCompare",
    "AllDifferent",
    "AllOf",
    "AnyOf",
    "Builds",
    "Constraint",
    "Decision",
    "Expr",
    "Expression",
    "Linear",
    "Not",
    "Op",
    "Predicate",
    "Truth",
    "all_different",
    "decision_of",
    "total",
]


Operand: TypeAlias = "Expr | Decision | int"
Expression: TypeAlias = "Expr | Decision | Abs | int"  # what element, minimum, ... take
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
# The comparison that holds exactly when the other does not.
NEGATED: dict[str, Op] = {"==": "!=", "!=": "==", "<=": ">", "<": ">=", ">=": "<", ">": "<="}


@runtime_checkable
class Builds(Protocol):
    """What an expression that is not linear needs of its model: the decisions, and
    hidden decisions defined for products, quotients, remainders and absolute values."""

    decisions: list[Decision]

    def define(
        self, kind: str, domain: Domain, tie: Callable[[Decision], Constraint]
    ) -> Decision: ...

    def product(self, a: Expr, b: Expr) -> Decision: ...

    def quotient(self, a: Expr, k: int) -> Decision: ...

    def remainder(self, a: Expr, k: int) -> Decision: ...

    def absolute(self, a: Expr) -> Decision: ...


def _builder(e: Expr, what: str) -> Builds:
    """The model of ``e``, which builds the hidden decision for ``what``."""
    if not isinstance(e.model, Builds):
        raise ModelError(f"{what}: {e!r} belongs to no model")
    return e.model


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

    def __mul__(self, other: Operand) -> Expr:
        """``k * x`` scales; ``x * y`` of two expressions is a hidden decision."""
        e = self._expr()
        if isinstance(other, _Comparable):
            o = other._expr()
            if not o.terms:
                return e._scaled(o.constant)
            if not e.terms:
                return o._scaled(e.constant)
            model = e.model if e.model is not None else o.model
            if e.model is not None and o.model is not None and e.model is not o.model:
                raise ModelError("a product mixes decisions of two models")
            return _builder(Expr(model, e.terms, e.constant), "x * y").product(e, o)._expr()
        return e._scaled(check_int(other, "a coefficient"))

    def __rmul__(self, k: int) -> Expr:
        return self.__mul__(k)

    def __neg__(self) -> Expr:
        return self._expr()._scaled(-1)

    def __floordiv__(self, k: int) -> Expr:
        """``x // k`` (Python's floor division) for a constant ``k``: a hidden decision."""
        e, k = self._expr(), _divisor(k, "//")
        if not e.terms:
            return Expr(e.model, {}, e.constant // k)
        return _builder(e, "x // k").quotient(e, k)._expr()

    def __mod__(self, k: int) -> Expr:
        """``x % k`` (Python's remainder: the sign of ``k``) for a constant ``k``."""
        e, k = self._expr(), _divisor(k, "%")
        if not e.terms:
            return Expr(e.model, {}, e.constant % k)
        return _builder(e, "x % k").remainder(e, k)._expr()

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
        return f"Decision({self.name!r}, {self.domain.low}..{self.domain.high})"

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

    def _scaled(self, k: int) -> Expr:
        return Expr(
            self.model, {i: c * k for i, c in self.terms.items() if c * k}, self.constant * k
        )

    def span(self) -> tuple[int, int]:
        """The smallest and largest value the expression can take, from its decisions'
        domains (each term at its extremes)."""
        low = high = self.constant
        if self.terms:
            decisions = _builder(self, "an expression's range").decisions
            for i, c in self.terms.items():
                d = decisions[i].domain
                low += c * (d.low if c > 0 else d.high)
                high += c * (d.high if c > 0 else d.low)
        return low, high

    def __repr__(self) -> str:
        return f"Expr({self.terms!r} + {self.constant})"

    __hash__ = object.__hash__


class Abs(_Comparable):
    """``abs(expression)``.  Compared with a constant it is a constraint of its own
    (``abs(x - y) != 2``, propagated directly); anywhere else (``abs(x - y) + z``,
    ``abs(x) == y``) it is a hidden decision the model ties to the expression."""

    def __init__(self, inner: Expr) -> None:
        self.inner = inner
        self._hidden: Expr | None = None

    def _expr(self) -> Expr:
        if self._hidden is None:
            inner = self.inner
            if not inner.terms:
                self._hidden = Expr(inner.model, {}, abs(inner.constant))
            else:
                self._hidden = _builder(inner, "abs(x)").absolute(inner)._expr()
        return self._hidden

    def _against(self, other: object, op: Op) -> AbsCompare | Linear:
        if isinstance(other, int) and not isinstance(other, bool):
            return AbsCompare(self.inner, op, other)
        return self._compare(other, op)  # type: ignore[arg-type]

    def __eq__(self, other: object) -> AbsCompare | Linear:  # type: ignore[override]
        return self._against(other, "==")

    def __ne__(self, other: object) -> AbsCompare | Linear:  # type: ignore[override]
        return self._against(other, "!=")

    def __le__(self, other: Operand) -> AbsCompare | Linear:  # type: ignore[override]
        return self._against(other, "<=")

    def __lt__(self, other: Operand) -> AbsCompare | Linear:  # type: ignore[override]
        return self._against(other, "<")

    def __ge__(self, other: Operand) -> AbsCompare | Linear:  # type: ignore[override]
        return self._against(other, ">=")

    def __gt__(self, other: Operand) -> AbsCompare | Linear:  # type: ignore[override]
        return self._against(other, ">")

    __hash__ = object.__hash__


def _divisor(k: object, op: str) -> int:
    """``k`` as the constant divisor of ``x // k`` or ``x % k``; a ModelError otherwise."""
    if isinstance(k, _Comparable):
        raise ModelError(
            f"x {op} k needs a constant integer k, got an expression {k!r}: divide by a number"
        )
    divisor = check_int(k, f"the divisor of x {op} k")
    if divisor == 0:
        raise ModelError(f"x {op} 0: division by zero")
    return divisor


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
        raise TypeError(
            "a constraint has no truth value; add it with model.add_constraint, combine it "
            "with & | ~, or take model.truth(c) for a 0/1 expression"
        )

    def negated(self) -> Constraint:
        """The constraint that holds exactly when this one does not."""
        return Not(self)

    def __invert__(self) -> Constraint:
        return self.negated()

    def __and__(self, other: Constraint) -> AllOf:
        return AllOf([self, _constraint(other, "&")])

    def __rand__(self, other: Constraint) -> AllOf:
        return AllOf([_constraint(other, "&"), self])

    def __or__(self, other: Constraint) -> AnyOf:
        return AnyOf([self, _constraint(other, "|")])

    def __ror__(self, other: Constraint) -> AnyOf:
        return AnyOf([_constraint(other, "|"), self])


def _constraint(c: object, op: str) -> Constraint:
    if not isinstance(c, Constraint):
        raise ModelError(
            f"{op} combines constraints (x > 0, c1 & c2), got {c!r}; parenthesise comparisons: "
            f"(x == 1) {op} (y == 2)"
        )
    return c


def _model_of_parts(parts: Sequence[Constraint], what: str) -> object:
    """The one model of the parts that name decisions (None when none does)."""
    models = {id(p.model): p.model for p in parts if p.scope}
    if len(models) > 1:
        raise ModelError(f"{what} over decisions of two models")
    return next(iter(models.values()), None)


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

    def negated(self) -> Linear:
        return Linear(self.expr, NEGATED[self.op])

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

    def negated(self) -> AbsCompare:
        return AbsCompare(self.expr, NEGATED[self.op], self.bound)


class AllOf(Constraint):
    """``c1 & c2 & ...``: every part holds."""

    def __init__(self, parts: Sequence[Constraint]) -> None:
        self.parts: tuple[Constraint, ...] = tuple(
            q for p in parts for q in (p.parts if isinstance(p, AllOf) else (p,))
        )
        self.model = _model_of_parts(self.parts, "&")
        self.scope = tuple(sorted({i for p in self.parts for i in p.scope}))

    def holds(self, values: Sequence[int]) -> bool:
        return all(p.holds(values) for p in self.parts)

    def negated(self) -> AnyOf:
        return AnyOf([p.negated() for p in self.parts])

    def __repr__(self) -> str:
        return " & ".join(f"({p!r})" for p in self.parts)


class AnyOf(Constraint):
    """``c1 | c2 | ...``: at least one part holds."""

    def __init__(self, parts: Sequence[Constraint]) -> None:
        self.parts: tuple[Constraint, ...] = tuple(
            q for p in parts for q in (p.parts if isinstance(p, AnyOf) else (p,))
        )
        self.model = _model_of_parts(self.parts, "|")
        self.scope = tuple(sorted({i for p in self.parts for i in p.scope}))

    def holds(self, values: Sequence[int]) -> bool:
        return any(p.holds(values) for p in self.parts)

    def negated(self) -> AllOf:
        return AllOf([p.negated() for p in self.parts])

    def __repr__(self) -> str:
        return " | ".join(f"({p!r})" for p in self.parts)


class Not(Constraint):
    """``~c``: ``c`` does not hold (for a comparison, the opposite comparison instead)."""

    def __init__(self, inner: Constraint) -> None:
        self.inner = inner
        self.model = inner.model
        self.scope = inner.scope

    def holds(self, values: Sequence[int]) -> bool:
        return not self.inner.holds(values)

    def negated(self) -> Constraint:
        return self.inner

    def __repr__(self) -> str:
        return f"~({self.inner!r})"


class Truth(Constraint):
    """``truth == (1 if condition holds else 0)``: ``model.truth(condition)`` reified."""

    def __init__(self, truth: Decision, condition: Constraint) -> None:
        self.truth = truth
        self.condition = condition
        self.model = truth.model
        self.scope = tuple(sorted({truth.index, *condition.scope}))

    def holds(self, values: Sequence[int]) -> bool:
        return values[self.truth.index] == (1 if self.condition.holds(values) else 0)

    def __repr__(self) -> str:
        return f"Truth({self.truth.name} == truth({self.condition!r}))"


class AllDifferent(Constraint):
    """``Model.AllDifferent``: no two of the decisions take the same value.  With
    ``domain``, propagated to domain consistency too (Régin's matching rule, see
    :mod:`lazyfun.csp.propagation.matching`), as MiniZinc's ``:: domain`` asks."""

    def __init__(self, decisions: Sequence[Decision], *, domain: bool = False) -> None:
        self.domain = domain
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


def decision_of(item: object, what: str) -> Decision | int:
    """``item`` as a decision or a number: an expression that is neither (``x + 1``,
    ``x * y``) becomes a hidden decision equal to it."""
    if isinstance(item, Decision):
        return item
    if not isinstance(item, _Comparable):
        return check_int(item, f"an item of {what}")
    e = item._expr()
    if not e.terms:
        return e.constant
    if e.constant == 0 and len(e.terms) == 1:
        ((i, c),) = e.terms.items()
        if c == 1:
            return _builder(e, what).decisions[i]
    low, high = e.span()
    return _builder(e, what).define("expr", Domain.integer_range(low, high), lambda d: d == e)


def all_different(decisions: Iterable[Decision]) -> AllDifferent:
    """No two of ``decisions`` take the same value (``Model.AllDifferent``)."""
    items = list(decisions)
    for d in items:
        if not isinstance(d, Decision):
            raise ModelError(f"all_different takes decisions, got {d!r}")
    return AllDifferent(items)
