"""What a FlatZinc model is built with: the values its names stand for, the
:class:`Builder` that posts constraints on the model (reified, half-reified, or
plain), and the registry of builtins (filled by :mod:`~lazyfun.csp.flatzinc.builtins`
and :mod:`~lazyfun.csp.flatzinc.globals`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from lazyfun.csp.flatzinc.text import Access, Ast, FlatZincError, Id, Range, SetLit
from lazyfun.csp.modelling.constraints import Constraint, Decision, Truth
from lazyfun.csp.modelling.domain import Domain, ModelError
from lazyfun.csp.modelling.model import Model
from lazyfun.csp.modelling.relations import if_then

__all__ = [
    "BUILTINS",
    "Builder",
    "Builtin",
    "Cond",
    "FlatZinc",
    "IntSet",
    "Output",
    "Value",
    "builtin",
    "negation",
]

Value: TypeAlias = "int | Decision | IntSet | list[Value]"
"""What a name stands for: a number (a boolean is 0 or 1), a decision, a set, an array."""


@dataclass(frozen=True)
class IntSet:
    """A set of integers, as sorted disjoint ranges ``(low, high)``."""

    ranges: tuple[tuple[int, int], ...]

    @staticmethod
    def of(ast: Range | SetLit) -> IntSet:
        if isinstance(ast, Range):
            return IntSet(((ast.low, ast.high),) if ast.low <= ast.high else ())
        ranges: list[tuple[int, int]] = []
        for v in ast.values:
            if ranges and ranges[-1][1] == v - 1:
                ranges[-1] = (ranges[-1][0], v)
            else:
                ranges.append((v, v))
        return IntSet(tuple(ranges))

    def __contains__(self, v: object) -> bool:
        return isinstance(v, int) and any(lo <= v <= hi for lo, hi in self.ranges)


@dataclass
class Output:
    """One name to show: its decisions or numbers, whether they are booleans, and for an
    array its index sets (empty for a single variable)."""

    name: str
    values: list[Decision | int]
    boolean: bool
    dims: list[tuple[int, int]]


@dataclass
class FlatZinc:
    """A FlatZinc model read into a :class:`Model`, with its outputs."""

    model: Model
    outputs: list[Output]
    goal: str  # "satisfy", "minimize" or "maximize"
    unsatisfiable: str | None = None  # why, when a constraint on numbers alone fails
    introduced: frozenset[int] = frozenset()  # the decisions FlatZinc introduced or defines


Cond: TypeAlias = Constraint | bool
Builtin = Callable[["Builder", Sequence[Value]], None]
BUILTINS: dict[str, Builtin] = {}
"""The FlatZinc builtins read, by name: each posts its constraint on the model."""


def builtin(*names: str) -> Callable[[Builtin], Builtin]:
    def register(f: Builtin) -> Builtin:
        for name in names:
            BUILTINS[name] = f
        return f

    return register


class Builder:
    def __init__(self) -> None:
        self.model = Model()
        self.names: dict[str, Value] = {}
        self.line = 0
        self.count = 0
        self.unsatisfiable: str | None = None
        self.half = False  # an _imp builtin: reify() only implies
        self.introduced: set[int] = set()  # decisions FlatZinc introduced or defines

    def fail(self, why: str) -> FlatZincError:
        return FlatZincError(f"line {self.line}: {why}")

    # -- values --------------------------------------------------------------

    def value(self, ast: Ast) -> Value:
        if isinstance(ast, bool):
            return int(ast)
        if isinstance(ast, int):
            return ast
        if isinstance(ast, Id):
            if ast.name not in self.names:
                raise self.fail(f"unknown name {ast.name!r}")
            return self.names[ast.name]
        if isinstance(ast, Access):
            array = self.value(Id(ast.name))
            if not isinstance(array, list) or not 1 <= ast.index <= len(array):
                raise self.fail(f"{ast.name}[{ast.index}] is not an element of an array")
            return array[ast.index - 1]
        if isinstance(ast, Range | SetLit):
            return IntSet.of(ast)
        if isinstance(ast, list):
            return [self.value(a) for a in ast]
        raise self.fail(f"cannot use {ast!r} here")

    def var(self, v: Value) -> Decision | int:
        if isinstance(v, Decision | int):
            return v
        raise self.fail(f"expected an integer or a variable, got {v!r}")

    def array(self, v: Value) -> list[Decision | int]:
        if not isinstance(v, list):
            raise self.fail(f"expected an array, got {v!r}")
        return [self.var(x) for x in v]

    def set(self, v: Value) -> IntSet:
        if not isinstance(v, IntSet):
            raise self.fail(f"expected a set of integers, got {v!r}")
        return v

    def fresh(self, low: int, high: int) -> Decision:
        self.count += 1
        try:
            made = self.model.decision(f"_fzn#{self.count}", Domain.integer_range(low, high))
            self.introduced.add(made.index)
            return made
        except ModelError as error:
            raise self.fail(str(error)) from None

    # -- posting -------------------------------------------------------------

    def post(self, c: Cond) -> None:
        if isinstance(c, bool):
            if not c and self.unsatisfiable is None:
                self.unsatisfiable = f"line {self.line}: a constraint on numbers alone fails"
            return
        self.count += 1
        self.model.add_constraint(f"c{self.count} (line {self.line})", c)

    def reify(self, r: Decision | int, c: Cond) -> None:
        """``r`` (0/1) is 1 exactly when ``c`` holds (when an ``_imp`` builtin
        posts it: ``c`` holds when ``r`` is 1)."""
        if self.half:
            self.implied(r, c)
        elif isinstance(r, int):
            self.post(c if r else negation(c))
        elif isinstance(c, bool):
            self.post(r == int(c))
        else:
            self.post(Truth(r, c))

    def when(self, condition: Cond, then: Cond) -> None:
        """``then`` holds whenever ``condition`` does."""
        if isinstance(condition, bool):
            if condition:
                self.post(then)
        elif isinstance(then, bool):
            if not then:
                self.post(~condition)
        else:
            self.post(if_then(condition, then))

    def implied(self, r: Decision | int, c: Cond) -> None:
        """``c`` holds when ``r`` is 1."""
        if isinstance(r, int):
            if r:
                self.post(c)
        elif isinstance(c, bool):
            if not c:
                self.post(r == 0)
        else:
            self.post(if_then(r == 1, c))


def negation(c: Cond) -> Cond:
    """``c`` negated (a constant, or its constraint's ``~``)."""
    return (not c) if isinstance(c, bool) else ~c
