"""FlatZinc, MiniZinc's solver language, read into a :class:`~lazyfun.csp.model.Model`.

:func:`read` turns the text form (``.fzn``) into a :class:`FlatZinc`: the model,
with what its ``output_var`` and ``output_array`` annotations ask to be shown.
:func:`run` solves a file and writes its solutions in the FlatZinc protocol
(``x = 3;`` lines, then ``----------``; ``==========`` once the search is
complete, ``=====UNSATISFIABLE=====``, ``=====UNKNOWN=====``), as does
``python -m lazyfun.csp.flatzinc FILE.fzn [-a] [-i] [-t MS] [-f] [-s] [-p N]`` (see
:func:`main`).

Integers, sets of integers as domains and constants, booleans and arrays of
them are read; floats and set variables are refused with the reason.  A ``var
int`` without bounds takes the bounds its defining constraint gives (``::
defines_var``); a variable with none, or wider than a domain may span
(:data:`~lazyfun.csp.domain.MAX_SPAN`), is refused by name.  Every mistake is a
:class:`FlatZincError` with the line it is on.

>>> text = '''
... var 1..3: x :: output_var;
... var 1..3: y :: output_var;
... constraint int_lt(x, y);
... constraint int_lin_eq([1, 1], [x, y], 4);
... solve satisfy;
... '''
>>> fz = parse(text)
>>> import io
>>> out = io.StringIO()
>>> solve(fz, out=out, all_solutions=True)
>>> print(out.getvalue(), end="")
x = 1;
y = 3;
----------
==========
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TextIO, TypeAlias, TypeVar

from lazyfun.csp.arithmetic import Function
from lazyfun.csp.constraints import (
    AllDifferent,
    AllOf,
    AnyOf,
    Constraint,
    Decision,
    Expr,
    Truth,
)
from lazyfun.csp.domain import MAX_SPAN, Domain, ModelError
from lazyfun.csp.model import Model
from lazyfun.csp.relations import Element, Extreme, if_then
from lazyfun.csp.results import Quality, Solution

__all__ = [
    "BUILTINS",
    "FlatZinc",
    "FlatZincError",
    "IntSet",
    "Output",
    "main",
    "parse",
    "read",
    "run",
    "solve",
]


_T = TypeVar("_T")


class FlatZincError(ValueError):
    """A FlatZinc text that cannot be read or is not supported; the message names its line."""


# ---------------------------------------------------------------------------
# Reading the text: tokens, then items


_TOKEN = re.compile(
    r"""
    (?P<space>[ \t\r]+|%[^\n]*)
  | (?P<newline>\n)
  | (?P<float>-?\d+\.\d+(?:[eE][-+]?\d+)?|-?\d+[eE][-+]?\d+)
  | (?P<int>-?0x[0-9a-fA-F]+|-?0o[0-7]+|-?\d+)
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<ident>_*[A-Za-z][A-Za-z0-9_]*)
  | (?P<punct>\.\.|::|[:;,\[\](){}=])
    """,
    re.VERBOSE,
)


@dataclass
class _Token:
    kind: str
    text: str
    line: int


def _tokens(text: str) -> list[_Token]:
    found: list[_Token] = []
    line, at = 1, 0
    while at < len(text):
        match = _TOKEN.match(text, at)
        if match is None:
            raise FlatZincError(f"line {line}: cannot read {text[at : at + 20]!r}")
        kind = match.lastgroup
        assert kind is not None
        if kind == "newline":
            line += 1
        elif kind != "space":
            found.append(_Token(kind, match.group(), line))
        at = match.end()
    found.append(_Token("end", "", line))
    return found


@dataclass(frozen=True)
class _Id:
    name: str


@dataclass(frozen=True)
class _Access:
    name: str
    index: int


@dataclass(frozen=True)
class _Range:
    low: int
    high: int


@dataclass(frozen=True)
class _SetLit:
    values: tuple[int, ...]


@dataclass(frozen=True)
class _Call:
    name: str
    args: tuple[_Ast, ...]


_Ast: TypeAlias = "int | bool | str | _Id | _Access | _Range | _SetLit | _Call | list[_Ast]"


@dataclass
class _Type:
    """A declared type: ``var``, its base (int, bool, float, set), a domain, array index sets."""

    var: bool
    base: str
    domain: _Range | _SetLit | None = None
    dims: list[_Range] = field(default_factory=list)


@dataclass
class _Item:
    kind: str  # "predicate", "decl", "constraint", "solve"
    line: int
    name: str = ""
    type: _Type | None = None
    value: _Ast | None = None
    args: tuple[_Ast, ...] = ()
    annotations: list[_Ast] = field(default_factory=list)
    goal: str = ""


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = _tokens(text)
        self.at = 0
        self.annotating = False  # a float in an annotation is kept as its text

    @property
    def token(self) -> _Token:
        return self.tokens[self.at]

    def fail(self, why: str) -> FlatZincError:
        return FlatZincError(f"line {self.token.line}: {why}")

    def take(self, text: str | None = None, kind: str | None = None) -> _Token:
        t = self.token
        if (text is not None and t.text != text) or (kind is not None and t.kind != kind):
            wanted = repr(text) if text is not None else f"a{'n' if kind == 'int' else ''} {kind}"
            shown = repr(t.text) if t.kind != "end" else "the end"
            before = self.tokens[self.at - 1].line if self.at else t.line
            if before < t.line:  # what is missing belongs to the line before
                raise FlatZincError(
                    f"line {before}: expected {wanted}, found {shown} on line {t.line}"
                )
            raise self.fail(f"expected {wanted}, found {shown}")
        self.at += 1
        return t

    def peek(self, text: str) -> bool:
        return self.token.text == text and self.token.kind != "string"

    def items(self) -> list[_Item]:
        found = []
        while self.token.kind != "end":
            found.append(self.item())
        return found

    def item(self) -> _Item:
        line = self.token.line
        if self.peek("predicate"):
            while not self.peek(";"):
                if self.token.kind == "end":
                    raise self.fail("a predicate item with no ';'")
                self.at += 1
            self.take(";")
            return _Item("predicate", line)
        if self.peek("constraint"):
            self.take()
            name = self.take(kind="ident").text
            args = self.arguments()
            annotations = self.annotations()
            self.take(";")
            return _Item("constraint", line, name=name, args=args, annotations=annotations)
        if self.peek("solve"):
            self.take()
            annotations = self.annotations()
            goal = self.take(kind="ident").text
            if goal not in ("satisfy", "minimize", "maximize"):
                raise FlatZincError(f"line {line}: solve {goal}? (satisfy, minimize or maximize)")
            value = None if goal == "satisfy" else self.expr()
            self.take(";")
            return _Item("solve", line, value=value, annotations=annotations, goal=goal)
        type_ = self.type()
        self.take(":")
        name = self.take(kind="ident").text
        annotations = self.annotations()
        value = None
        if self.peek("="):
            self.take()
            value = self.expr()
        self.take(";")
        return _Item("decl", line, name=name, type=type_, value=value, annotations=annotations)

    def type(self) -> _Type:
        dims: list[_Range] = []
        if self.peek("array"):
            self.take()
            self.take("[")
            while True:
                if self.peek("int"):
                    raise self.fail("an array indexed by 'int' (FlatZinc gives 1..n)")
                low = self.integer()
                self.take("..")
                dims.append(_Range(low, self.integer()))
                if not self.peek(","):
                    break
                self.take()
            self.take("]")
            self.take("of")
        var = self.peek("var")
        if var:
            self.take()
        if self.peek("int") or self.peek("bool") or self.peek("float"):
            base = self.take().text
            if base == "float":
                raise self.fail("floats are not supported (lazyfun.csp solves over integers)")
            return _Type(var, base, None, dims)
        if self.peek("set"):
            self.take()
            self.take("of")
            if var:
                raise self.fail(
                    "set variables are not supported (sets of integers as constants are)"
                )
            if self.peek("int"):
                self.take()
            else:
                self.domain()
            return _Type(var, "set", None, dims)
        if self.token.kind == "float":
            raise self.fail("floats are not supported (lazyfun.csp solves over integers)")
        return _Type(var, "int", self.domain(), dims)

    def domain(self) -> _Range | _SetLit:
        value = self.expr()
        if not isinstance(value, _Range | _SetLit):
            raise self.fail(f"a domain (low..high or {{a, b, ...}}), got {value!r}")
        return value

    def listed(self, opening: str, closing: str, element: Callable[[], _T]) -> list[_T]:
        """Elements between ``opening`` and ``closing``, separated by commas."""
        self.take(opening)
        found = []
        while not self.peek(closing):
            found.append(element())
            if not self.peek(","):
                break
            self.take()
        self.take(closing)
        return found

    def integer(self) -> int:
        return _int(self.take(kind="int").text)

    def arguments(self) -> tuple[_Ast, ...]:
        self.take("(")
        args = []
        if not self.peek(")"):
            args.append(self.expr())
            while self.peek(","):
                self.take()
                args.append(self.expr())
        self.take(")")
        return tuple(args)

    def annotations(self) -> list[_Ast]:
        found = []
        while self.peek("::"):
            self.take()
            self.annotating = True
            try:
                found.append(self.expr())
            finally:
                self.annotating = False
        return found

    def expr(self) -> _Ast:
        t = self.token
        if t.kind == "float" and self.annotating:
            return self.take().text
        if t.kind == "float":
            raise self.fail(
                f"floats are not supported (lazyfun.csp solves over integers): {t.text}"
            )
        if t.kind == "int":
            low = self.integer()
            if self.peek(".."):
                self.take()
                if self.token.kind == "float":
                    raise self.fail("floats are not supported (lazyfun.csp solves over integers)")
                return _Range(low, self.integer())
            return low
        if t.kind == "string":
            self.take()
            return t.text[1:-1]
        if self.peek("{"):
            return _SetLit(tuple(sorted(set(self.listed("{", "}", self.integer)))))
        if self.peek("["):
            return self.listed("[", "]", self.expr)
        if t.kind == "ident":
            return self.named(self.take().text)
        raise self.fail(f"an expression, found {t.text or 'the end'!r}")

    def named(self, name: str) -> _Ast:
        """What starts with a name: true, false, a call, an array's element, a name."""
        if name in ("true", "false"):
            return name == "true"
        if self.peek("("):
            return _Call(name, self.arguments())
        if self.peek("["):
            self.take()
            index = self.integer()
            self.take("]")
            return _Access(name, index)
        return _Id(name)


def _int(text: str) -> int:
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("-")
    if digits.startswith("0x"):
        return sign * int(digits[2:], 16)
    if digits.startswith("0o"):
        return sign * int(digits[2:], 8)
    return sign * int(digits)


# ---------------------------------------------------------------------------
# Building the model


Value: TypeAlias = "int | Decision | IntSet | list[Value]"
"""What a name stands for: a number (a boolean is 0 or 1), a decision, a set, an array."""


@dataclass(frozen=True)
class IntSet:
    """A set of integers, as sorted disjoint ranges ``(low, high)``."""

    ranges: tuple[tuple[int, int], ...]

    @staticmethod
    def of(ast: _Range | _SetLit) -> IntSet:
        if isinstance(ast, _Range):
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


Cond: TypeAlias = Constraint | bool
Builtin = Callable[["_Builder", Sequence[Value]], None]
BUILTINS: dict[str, Builtin] = {}
"""The FlatZinc builtins read, by name: each posts its constraint on the model."""


def _builtin(*names: str) -> Callable[[Builtin], Builtin]:
    def register(f: Builtin) -> Builtin:
        for name in names:
            BUILTINS[name] = f
        return f

    return register


class _Builder:
    def __init__(self) -> None:
        self.model = Model()
        self.names: dict[str, Value] = {}
        self.line = 0
        self.count = 0
        self.unsatisfiable: str | None = None
        self.half = False  # an _imp builtin: reify() only implies

    def fail(self, why: str) -> FlatZincError:
        return FlatZincError(f"line {self.line}: {why}")

    # -- values --------------------------------------------------------------

    def value(self, ast: _Ast) -> Value:
        if isinstance(ast, bool):
            return int(ast)
        if isinstance(ast, int):
            return ast
        if isinstance(ast, _Id):
            if ast.name not in self.names:
                raise self.fail(f"unknown name {ast.name!r}")
            return self.names[ast.name]
        if isinstance(ast, _Access):
            array = self.value(_Id(ast.name))
            if not isinstance(array, list) or not 1 <= ast.index <= len(array):
                raise self.fail(f"{ast.name}[{ast.index}] is not an element of an array")
            return array[ast.index - 1]
        if isinstance(ast, _Range | _SetLit):
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
            return self.model.decision(f"_fzn#{self.count}", Domain.integer_range(low, high))
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
            self.post(c if r else _not(c))
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


def _not(c: Cond) -> Cond:
    return (not c) if isinstance(c, bool) else ~c


def _compare(a: Decision | Expr | int, op: str, b: Decision | Expr | int) -> Cond:
    if isinstance(a, int) and isinstance(b, int):
        return {"==": a == b, "!=": a != b, "<=": a <= b, "<": a < b}[op]
    left = (a - b) if not isinstance(a, int) else (b * -1 + a)
    assert not isinstance(left, int)
    if op == "==":
        return left == 0
    if op == "!=":
        return left != 0
    if op == "<=":
        return left <= 0
    return left < 0


def _linear(b: _Builder, args: Sequence[Value]) -> Expr | int:
    coefficients, xs = b.array(args[0]), b.array(args[1])
    if len(coefficients) != len(xs):
        raise b.fail("the coefficients and the variables differ in length")
    total: Expr | int = 0
    for k, x in zip(coefficients, xs, strict=True):
        if not isinstance(k, int):
            raise b.fail("a linear constraint's coefficients must be numbers")
        total = total + k * x
    return total


def _relation(op: str, kind: str) -> Builtin:
    def post(b: _Builder, args: Sequence[Value]) -> None:
        c = _compare(b.var(args[0]), op, b.var(args[1]))
        _finish(b, kind, c, args[2:])

    return post


def _lin_relation(op: str, kind: str) -> Builtin:
    def post(b: _Builder, args: Sequence[Value]) -> None:
        c = _compare(_linear(b, args), op, b.var(args[2]))
        _finish(b, kind, c, args[3:])

    return post


def _finish(b: _Builder, kind: str, c: Cond, rest: Sequence[Value]) -> None:
    if kind == "":
        b.post(c)
    elif kind == "reif":
        b.reify(b.var(rest[0]), c)
    else:
        b.implied(b.var(rest[0]), c)


for _op, _name in (("==", "eq"), ("!=", "ne"), ("<=", "le"), ("<", "lt")):
    for _kind in ("", "reif", "imp"):
        _suffix = f"_{_kind}" if _kind else ""
        BUILTINS[f"int_{_name}{_suffix}"] = _relation(_op, _kind)
        BUILTINS[f"bool_{_name}{_suffix}"] = _relation(_op, _kind)
        BUILTINS[f"int_lin_{_name}{_suffix}"] = _lin_relation(_op, _kind)
        BUILTINS[f"bool_lin_{_name}{_suffix}"] = _lin_relation(_op, _kind)


def _truth(b: _Builder, x: Decision | int) -> Cond:
    """The constraint that the boolean ``x`` is true."""
    return bool(x) if isinstance(x, int) else x == 1


def _all_of(parts: Sequence[Cond]) -> Cond:
    if any(p is False for p in parts):
        return False
    kept = [p for p in parts if not isinstance(p, bool)]
    return True if not kept else kept[0] if len(kept) == 1 else AllOf(kept)


def _any_of(parts: Sequence[Cond]) -> Cond:
    if any(p is True for p in parts):
        return True
    kept = [p for p in parts if not isinstance(p, bool)]
    return False if not kept else kept[0] if len(kept) == 1 else AnyOf(kept)


@_builtin("bool2int")
def _bool2int(b: _Builder, args: Sequence[Value]) -> None:
    x, y = b.var(args[0]), b.var(args[1])
    if x is not y:  # the integer merged with its boolean when it was declared
        b.post(_compare(x, "==", y))


@_builtin("bool_not")
def _bool_not(b: _Builder, args: Sequence[Value]) -> None:
    x, y = b.var(args[0]), b.var(args[1])
    b.post(_compare(x + y, "==", 1))


def _logic(combine: Callable[[_Builder, Decision | int, Decision | int], Cond]) -> Builtin:
    def post(b: _Builder, args: Sequence[Value]) -> None:
        c = combine(b, b.var(args[0]), b.var(args[1]))
        if len(args) == 2:
            b.post(c)
        else:
            b.reify(b.var(args[2]), c)

    return post


BUILTINS["bool_and"] = BUILTINS["bool_and_reif"] = _logic(
    lambda b, x, y: _all_of([_truth(b, x), _truth(b, y)])
)
BUILTINS["bool_or"] = BUILTINS["bool_or_reif"] = _logic(
    lambda b, x, y: _any_of([_truth(b, x), _truth(b, y)])
)
BUILTINS["bool_xor"] = BUILTINS["bool_xor_reif"] = _logic(lambda b, x, y: _compare(x, "!=", y))


@_builtin("array_bool_and", "array_bool_and_reif")
def _array_and(b: _Builder, args: Sequence[Value]) -> None:
    c = _all_of([_truth(b, x) for x in b.array(args[0])])
    b.reify(b.var(args[1]), c) if len(args) > 1 else b.post(c)


@_builtin("array_bool_or", "array_bool_or_reif")
def _array_or(b: _Builder, args: Sequence[Value]) -> None:
    c = _any_of([_truth(b, x) for x in b.array(args[0])])
    b.reify(b.var(args[1]), c) if len(args) > 1 else b.post(c)


@_builtin("array_bool_xor")
def _array_xor(b: _Builder, args: Sequence[Value]) -> None:
    xs = b.array(args[0])
    b.post(_compare(sum(xs) % 2 if all(isinstance(x, int) for x in xs) else _odd(b, xs), "==", 1))


def _odd(b: _Builder, xs: list[Decision | int]) -> Decision | int:
    total: Expr | int = 0
    for x in xs:
        total = total + x
    assert not isinstance(total, int)
    low, high = total.span()
    half = b.fresh(-(-low // 2) - 1, high // 2 + 1)
    parity = b.fresh(0, 1)
    b.post(total == half * 2 + parity)
    return parity


@_builtin("bool_clause", "bool_clause_reif")
def _clause(b: _Builder, args: Sequence[Value]) -> None:
    positive, negative = b.array(args[0]), b.array(args[1])
    c = _any_of([_truth(b, x) for x in positive] + [_not(_truth(b, x)) for x in negative])
    b.reify(b.var(args[2]), c) if len(args) > 2 else b.post(c)


@_builtin(
    "array_int_element", "array_var_int_element", "array_bool_element", "array_var_bool_element"
)
def _element(b: _Builder, args: Sequence[Value]) -> None:
    index, items, result = b.var(args[0]), b.array(args[1]), b.var(args[2])
    if isinstance(index, int):
        if not 1 <= index <= len(items):
            b.post(False)
            return
        b.post(_compare(items[index - 1], "==", result))
        return
    b.post(index >= 1)
    b.post(index <= len(items))
    if isinstance(result, int):
        result = b.fresh(result, result)
    b.post(Element(result, [0, *items], index))


@_builtin("int_times")
def _times(b: _Builder, args: Sequence[Value]) -> None:
    x, y, z = (b.var(a) for a in args)
    if isinstance(x, int) or isinstance(y, int):
        b.post(_compare(x * y, "==", z))
        return
    if isinstance(z, int):
        z = b.fresh(z, z)
    b.post(Function("*", z, [x] if x is y else [x, y]))


@_builtin("int_pow")
def _pow(b: _Builder, args: Sequence[Value]) -> None:
    x, y, z = (b.var(a) for a in args)
    if isinstance(y, int) and y >= 0:
        power: Decision | int = 1 if y == 0 else x
        for _ in range(y - 1):
            power = _product(b, power, x)
        b.post(_compare(power, "==", z))
        return
    scope = [v if isinstance(v, Decision) else b.fresh(v, v) for v in (x, y, z)]
    b.count += 1
    b.model.add_constraint(f"c{b.count} (line {b.line})", _power_holds, scope)


def _power_holds(x: int, y: int, z: int) -> bool:
    return y >= 0 and x**y == z


def _product(b: _Builder, x: Decision | int, y: Decision | int) -> Decision | int:
    if isinstance(x, int):
        x, y = y, x
    if isinstance(x, int):
        assert isinstance(y, int)
        return x * y
    if isinstance(y, int):
        (low, high), k = _bounds(x), y
        result = b.fresh(min(low * k, high * k), max(low * k, high * k))
        b.post(result == x * k)
        return result
    (a, c), (d, e) = _bounds(x), _bounds(y)
    corners = (a * d, a * e, c * d, c * e)
    result = b.fresh(min(corners), max(corners))
    b.post(Function("*", result, [x, y]))
    return result


@_builtin("int_plus")
def _plus(b: _Builder, args: Sequence[Value]) -> None:
    x, y, z = (b.var(a) for a in args)
    b.post(_compare(x + y, "==", z))


@_builtin("int_abs")
def _abs(b: _Builder, args: Sequence[Value]) -> None:
    x, y = b.var(args[0]), b.var(args[1])
    if isinstance(x, int):
        b.post(_compare(y, "==", abs(x)))
        return
    if isinstance(y, int):
        y = b.fresh(y, y)
    b.post(Function("abs", y, [x]))


def _extreme(largest: bool) -> Builtin:
    def post(b: _Builder, args: Sequence[Value]) -> None:
        if len(args) == 3:
            items, result = [b.var(args[0]), b.var(args[1])], b.var(args[2])
        else:
            items, result = b.array(args[1]), b.var(args[0])
        if all(isinstance(x, int) for x in items):
            b.post(_compare(result, "==", (max if largest else min)(items)))
            return
        if isinstance(result, int):
            result = b.fresh(result, result)
        b.post(Extreme(result, items, largest))

    return post


BUILTINS["int_max"] = BUILTINS["array_int_maximum"] = _extreme(True)
BUILTINS["int_min"] = BUILTINS["array_int_minimum"] = _extreme(False)


def _bounds(x: Decision | int) -> tuple[int, int]:
    return (x, x) if isinstance(x, int) else (x.domain.low, x.domain.high)


def _divide(
    b: _Builder, a: Decision | int, d: Decision | int, q: Decision | int, r: Decision | int
) -> None:
    """``q`` and ``r`` the quotient and remainder of ``a`` by ``d``, rounded toward zero (FlatZinc's
    ``div`` and ``mod``): ``a == d * q + r``, ``|r| < |d|``, and ``r`` 0 or of ``a``'s sign."""
    if isinstance(a, int) and isinstance(d, int):
        if d == 0:
            b.post(False)
            return
        quotient = abs(a) // abs(d) * (1 if (a >= 0) == (d > 0) else -1)
        b.post(_compare(q, "==", quotient))
        b.post(_compare(r, "==", a - d * quotient))
        return
    b.post(_compare(d, "!=", 0))
    low, high = _bounds(a)
    if isinstance(q, int):
        q = b.fresh(q, q)
    if isinstance(r, int):
        r = b.fresh(r, r)
    if isinstance(d, int):
        b.post(_compare(d * q + r, "==", a))
        b.post(_compare(r, "<=", abs(d) - 1))
        b.post(_compare(1 - abs(d), "<=", r))
    else:
        (dl, dh), (ql, qh) = _bounds(d), _bounds(q)
        corners = (dl * ql, dl * qh, dh * ql, dh * qh)
        product = b.fresh(min(corners), max(corners))
        b.post(Function("*", product, [d, q]))
        b.post(_compare(product + r, "==", a))
        size_r = b.fresh(0, max(abs(v) for v in _bounds(r)))
        size_d = b.fresh(0, max(abs(dl), abs(dh)))
        b.post(Function("abs", size_r, [r]))
        b.post(Function("abs", size_d, [d]))
        b.post(_compare(size_r, "<", size_d))
    if low < 0:
        b.when(_compare(a, "<", 0), _compare(r, "<=", 0))
    if high > 0:
        b.when(_compare(0, "<", a), _compare(0, "<=", r))


@_builtin("int_div")
def _div(b: _Builder, args: Sequence[Value]) -> None:
    a, d, q = (b.var(x) for x in args)
    if isinstance(d, int) and d > 0 and not isinstance(a, int) and a.domain.low >= 0:
        if isinstance(q, int):
            q = b.fresh(q, q)
        b.post(Function("//", q, [a], d))
        return
    low, high = _bounds(a)
    reach = max(abs(low), abs(high))
    r = b.fresh(-reach, reach)
    _divide(b, a, d, q, r)


@_builtin("int_mod")
def _mod(b: _Builder, args: Sequence[Value]) -> None:
    a, d, r = (b.var(x) for x in args)
    if isinstance(d, int) and d > 0 and not isinstance(a, int) and a.domain.low >= 0:
        if isinstance(r, int):
            r = b.fresh(r, r)
        b.post(Function("%", r, [a], d))
        return
    low, high = _bounds(a)
    reach = max(abs(low), abs(high))
    q = b.fresh(-reach, reach)
    _divide(b, a, d, q, r)


def _in(x: Decision | int, s: IntSet) -> Cond:
    if isinstance(x, int):
        return x in s
    return _any_of(
        [
            _compare(x, "==", lo)
            if lo == hi
            else _all_of([_compare(lo, "<=", x), _compare(x, "<=", hi)])
            for lo, hi in s.ranges
        ]
    )


@_builtin("set_in", "set_in_reif")
def _set_in(b: _Builder, args: Sequence[Value]) -> None:
    c = _in(b.var(args[0]), b.set(args[1]))
    b.reify(b.var(args[2]), c) if len(args) > 2 else b.post(c)


@_builtin("all_different_int", "lazyfun_all_different", "fzn_all_different_int")
def _all_different(b: _Builder, args: Sequence[Value]) -> None:
    xs = b.array(args[0])
    decisions = [x if isinstance(x, Decision) else b.fresh(x, x) for x in xs]
    if len({d.index for d in decisions}) != len(decisions):
        b.post(False)
        return
    b.post(AllDifferent(decisions))


def _half(reified: Builtin) -> Builtin:
    """The ``_imp`` form of a builtin whose last argument ``r`` reifies it: ``r -> c``."""

    def post(b: _Builder, args: Sequence[Value]) -> None:
        b.half = True
        try:
            reified(b, args)
        finally:
            b.half = False

    return post


for _name in ("bool_and", "bool_or", "bool_xor", "array_bool_and", "array_bool_or", "bool_clause"):
    BUILTINS[f"{_name}_imp"] = _half(BUILTINS[_name])
BUILTINS["set_in_imp"] = _half(BUILTINS["set_in_reif"])

# ---------------------------------------------------------------------------
# Bounds of a ``var int`` declared without them, from the constraint that defines it


class _Bounds:
    """The bounds an unbounded ``var int`` gets from its ``:: defines_var`` constraint."""

    def __init__(self, items: list[_Item]) -> None:
        self.decls = {i.name: i for i in items if i.kind == "decl"}
        self.defined: dict[str, _Item] = {}
        for item in items:
            if item.kind != "constraint":
                continue
            for a in item.annotations:
                if isinstance(a, _Call) and a.name == "defines_var" and a.args:
                    target = a.args[0]
                    if isinstance(target, _Id):
                        self.defined[target.name] = item
        self.known: dict[str, tuple[int, int] | None] = {}
        # bool2int(b, x) :: defines_var(x): x is b itself, as an integer
        self.merged = {
            name: item.args[0].name
            for name, item in self.defined.items()
            if item.name == "bool2int" and isinstance(item.args[0], _Id)
        }

    def of_name(self, name: str) -> tuple[int, int] | None:
        if name in self.known:
            return self.known[name]
        self.known[name] = None  # a cycle has no bounds
        found = self._find(name)
        self.known[name] = found
        return found

    def _find(self, name: str) -> tuple[int, int] | None:
        decl = self.decls.get(name)
        if decl is None or decl.type is None:
            return None
        t = decl.type
        if t.base == "bool":
            return 0, 1
        if t.domain is not None and not t.dims:
            s = IntSet.of(t.domain)
            return (s.ranges[0][0], s.ranges[-1][1]) if s.ranges else None
        if decl.value is not None and not t.dims:
            return self.of(decl.value)
        item = self.defined.get(name)
        return None if item is None else self._defined(name, item)

    def of(self, ast: _Ast | None) -> tuple[int, int] | None:
        if isinstance(ast, bool | int):
            return int(ast), int(ast)
        if isinstance(ast, _Id):
            return self.of_name(ast.name)
        if isinstance(ast, _Access):
            array = self.decls.get(ast.name)
            value = None if array is None else array.value
            if isinstance(value, list) and 1 <= ast.index <= len(value):
                return self.of(value[ast.index - 1])
        return None

    def items(self, ast: _Ast) -> list[_Ast] | None:
        if isinstance(ast, list):
            return ast
        if isinstance(ast, _Id) and ast.name in self.decls:
            value = self.decls[ast.name].value
            return value if isinstance(value, list) else None
        return None

    def _defined(self, name: str, item: _Item) -> tuple[int, int] | None:
        args, target = item.args, _Id(name)
        if item.name == "int_lin_eq" and len(args) == 3:
            return self._linear(target, args)
        if item.name == "bool2int" and args[1:] == (target,):
            return 0, 1
        if item.name.startswith("array_") and item.name.endswith("element"):
            found = [self.of(a) for a in self.items(args[1]) or []] if args[2:] == (target,) else []
            return _hull(found)
        if args[-1:] != (target,):
            return None
        known = [self.of(a) for a in args[:-1]]
        ranges = [r for r in known if r is not None]
        if len(ranges) != len(known) or not ranges:
            return None
        if item.name in ("int_max", "int_min"):
            return _hull(ranges)
        return _image(item.name, ranges)

    def _linear(self, target: _Id, args: Sequence[_Ast]) -> tuple[int, int] | None:
        ks, xs, c = self.items(args[0]), self.items(args[1]), self.of(args[2])
        if ks is None or xs is None or c is None or c[0] != c[1]:
            return None
        own, low, high = 0, c[0], c[0]
        for k, x in zip(ks, xs, strict=False):
            if not isinstance(k, int):
                return None
            if x == target:
                own += k
                continue
            b = self.of(x)
            if b is None:
                return None
            low, high = low - max(k * b[0], k * b[1]), high - min(k * b[0], k * b[1])
        if own == 0:
            return None
        a, z = sorted((low / own, high / own))
        return -int(-a // 1), int(z // 1)


def _hull(found: Sequence[tuple[int, int] | None]) -> tuple[int, int] | None:
    ranges = [r for r in found if r is not None]
    if not ranges or len(ranges) != len(found):
        return None
    return min(r[0] for r in ranges), max(r[1] for r in ranges)


def _image(name: str, ranges: list[tuple[int, int]]) -> tuple[int, int] | None:
    """The bounds of the result of ``int_plus``, ``int_times``, ``int_abs``, ``int_div`` or
    ``int_mod`` with its arguments in ``ranges``."""
    (a, b), (c, d) = ranges[0], ranges[-1]
    reach = max(abs(a), abs(b))
    if name == "int_plus" and len(ranges) == 2:
        return a + c, b + d
    if name == "int_times" and len(ranges) == 2:
        corners = (a * c, a * d, b * c, b * d)
        return min(corners), max(corners)
    if name == "int_abs" and len(ranges) == 1:
        return (0 if a <= 0 <= b else min(abs(a), abs(b))), reach
    if name == "int_div" and len(ranges) == 2:
        return -reach, reach
    if name == "int_mod" and len(ranges) == 2:
        reach = min(reach, max(abs(c), abs(d)) - 1)
        return -reach, reach
    return None


# ---------------------------------------------------------------------------
# Items into the model


def parse(text: str, *, free_search: bool = False) -> FlatZinc:
    """The model of a FlatZinc text (its ``.fzn`` form); with ``free_search`` its search
    annotations are left out."""
    items = _Parser(text).items()
    b = _Builder()
    bounds = _Bounds(items)
    outputs: list[Output] = []
    goal = "satisfy"
    for item in items:
        b.line = item.line
        if item.kind == "decl":
            _declare(b, item, bounds, outputs)
        elif item.kind == "constraint":
            builtin = BUILTINS.get(item.name)
            if builtin is None:
                raise b.fail(f"the builtin {item.name!r} is not supported")
            args = [b.value(a) for a in item.args]
            try:
                builtin(b, args)
            except (ModelError, IndexError, TypeError) as error:
                raise b.fail(f"{item.name}: {error}") from None
        elif item.kind == "solve":
            goal = item.goal
            if not free_search:
                _search(b, item.annotations)
            if item.value is not None:
                objective = b.var(b.value(item.value))
                if isinstance(objective, int):
                    goal = "satisfy"
                elif goal == "minimize":
                    b.model.minimize(objective)
                else:
                    b.model.maximize(objective)
    return FlatZinc(b.model, outputs, goal, b.unsatisfiable)


def read(path: str, *, free_search: bool = False) -> FlatZinc:
    """The model of a ``.fzn`` file (see :func:`parse`)."""
    with open(path, encoding="utf-8") as f:
        return parse(f.read(), free_search=free_search)


def _domain(b: _Builder, name: str, t: _Type, bounds: _Bounds) -> Domain:
    if t.base == "bool":
        return Domain.boolean()
    try:
        if t.domain is not None:
            s = IntSet.of(t.domain)
            if not s.ranges:
                raise b.fail(f"{name} has an empty domain")
            low, high = s.ranges[0][0], s.ranges[-1][1]
            if high - low >= MAX_SPAN:
                raise b.fail(
                    f"{name} spans {high - low + 1:,} values; "
                    f"a domain may span at most {MAX_SPAN:,}"
                )
            if len(s.ranges) == 1:
                return Domain.integer_range(low, high)
            return Domain.union(Domain.integer_range(lo, hi) for lo, hi in s.ranges)
        found = bounds.of_name(name)
        if found is None:
            raise b.fail(
                f"var int {name} has no bounds (none declared, none from a constraint "
                f"defining it): a domain may span at most {MAX_SPAN:,} values"
            )
        low, high = found
        if high - low >= MAX_SPAN:
            raise b.fail(
                f"var int {name} has no bounds declared and its defining constraint gives "
                f"{low}..{high}, wider than a domain may span ({MAX_SPAN:,} values)"
            )
        return Domain.integer_range(low, high)
    except ModelError as error:
        raise b.fail(f"{name}: {error}") from None


def _declare(b: _Builder, item: _Item, bounds: _Bounds, outputs: list[Output]) -> None:
    t, name = item.type, item.name
    assert t is not None
    if name in b.names:
        raise b.fail(f"{name} is declared twice")
    if not t.var:
        if item.value is None:
            raise b.fail(f"the parameter {name} has no value")
        b.names[name] = b.value(item.value)
        return
    if t.dims:
        _declare_array(b, item, t, outputs)
        return
    source = item.value
    if source is None and isinstance(b.names.get(bounds.merged.get(name, "")), Decision):
        source = _Id(bounds.merged[name])  # the 0/1 decision of bool2int, declared before
    if source is not None:
        value = b.var(b.value(source))
        low, high = _bounds(value)
        domain = IntSet.of(t.domain) if t.domain is not None else IntSet(((low, high),))
        if not any(lo <= low and high <= hi for lo, hi in domain.ranges):
            b.post(_in(value, domain))
        b.names[name] = value
    else:
        b.names[name] = b.model.decision(name, _domain(b, name, t, bounds))
    if any(a == _Id("output_var") for a in item.annotations):
        outputs.append(Output(name, [b.var(b.names[name])], t.base == "bool", []))


def _declare_array(b: _Builder, item: _Item, t: _Type, outputs: list[Output]) -> None:
    if not isinstance(item.value, list):
        raise b.fail(f"the array of variables {item.name} needs its elements listed")
    elements = b.array(b.value(item.value))
    b.names[item.name] = list(elements)
    for a in item.annotations:
        if isinstance(a, _Call) and a.name == "output_array" and a.args:
            dims = a.args[0]
            ranges = (
                [(r.low, r.high) for r in dims if isinstance(r, _Range)]
                if isinstance(dims, list)
                else []
            )
            outputs.append(Output(item.name, elements, t.base == "bool", ranges))


def _search(b: _Builder, annotations: list[_Ast]) -> None:
    """Branch first on the variables of ``int_search``/``bool_search`` in input order."""
    for a in annotations:
        if not isinstance(a, _Call):
            continue
        if a.name == "seq_search" and a.args and isinstance(a.args[0], list):
            _search(b, a.args[0])
        elif a.name in ("int_search", "bool_search") and a.args[1:2] == (_Id("input_order"),):
            chosen = [x for x in b.array(b.value(a.args[0])) if isinstance(x, Decision)]
            b.model.branch_on([x for x in dict.fromkeys(chosen) if x not in b.model.branching])


# ---------------------------------------------------------------------------
# Solving, in the FlatZinc protocol


SOLUTION = "----------"
COMPLETE = "=========="
UNSATISFIABLE = "=====UNSATISFIABLE====="
UNKNOWN = "=====UNKNOWN====="


def _shown(v: int, boolean: bool) -> str:
    return ("true" if v else "false") if boolean else str(v)


def _lines(fz: FlatZinc, values: Sequence[int]) -> Iterator[str]:
    for o in fz.outputs:
        shown = [_shown(x if isinstance(x, int) else values[x.index], o.boolean) for x in o.values]
        if not o.dims:
            yield f"{o.name} = {shown[0]};"
        else:
            index = ", ".join(f"{lo}..{hi}" for lo, hi in o.dims)
            yield f"{o.name} = array{len(o.dims)}d({index}, [{', '.join(shown)}]);"
    yield SOLUTION


def solve(
    fz: FlatZinc,
    *,
    all_solutions: bool = False,
    time_limit: float | None = None,
    out: TextIO | None = None,
    statistics: bool = False,
) -> None:
    """Solve ``fz`` and write its solutions to ``out`` in the FlatZinc protocol.

    Satisfaction: the first solution, or with ``all_solutions`` every one and
    ``==========`` when they are all found.  Optimisation: with ``all_solutions``
    (MiniZinc's ``-a`` and ``-i``) each better solution as it is found, otherwise
    the best; ``==========`` once it is proved optimal.  ``time_limit`` is in
    seconds; ``=====UNKNOWN=====`` when it ends the search before a solution.
    ``statistics`` adds the search's nodes and time as ``%%%mzn-stat:`` lines.
    """
    target = out if out is not None else sys.stdout
    if fz.unsatisfiable is not None:
        target.write(UNSATISFIABLE + "\n")
        return
    satisfy = fz.goal == "satisfy"
    started = time.perf_counter()
    stream = fz.model.solutions(time_limit=time_limit)
    shown: tuple[int, ...] | None = None
    last: Solution | None = None
    for last in stream:
        assert last.values is not None
        if satisfy or (all_solutions and last.quality is not Quality.OPTIMAL):
            shown = _show(fz, last.values, target)
        if satisfy and not all_solutions:
            break
    if last is None or last.values is None:
        target.write((UNKNOWN if stream.stopped_by else UNSATISFIABLE) + "\n")
    else:
        if last.values != shown:
            _show(fz, last.values, target)
        if (
            (all_solutions and stream.stopped_by is None)
            if satisfy
            else last.quality is Quality.OPTIMAL
        ):
            target.write(COMPLETE + "\n")
    if statistics:
        elapsed = time.perf_counter() - started
        target.write(f"%%%mzn-stat: nodes={stream.nodes}\n%%%mzn-stat: solveTime={elapsed:.3f}\n")
        target.write("%%%mzn-stat-end\n")


def _show(fz: FlatZinc, values: tuple[int, ...], target: TextIO) -> tuple[int, ...]:
    target.write("".join(line + "\n" for line in _lines(fz, values)))
    target.flush()
    return values


def run(
    path: str,
    all_solutions: bool = False,
    time_limit: float | None = None,
    out: TextIO | None = None,
    *,
    free_search: bool = False,
    statistics: bool = False,
) -> None:
    """Read the ``.fzn`` file at ``path``, solve it and write the solutions to ``out``
    (standard output by default) in the FlatZinc protocol (see :func:`solve`;
    ``time_limit`` in seconds)."""
    fz = read(path, free_search=free_search)
    solve(fz, all_solutions=all_solutions, time_limit=time_limit, out=out, statistics=statistics)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m lazyfun.csp.flatzinc FILE.fzn [-a] [-i] [-t MS] [-f] [-s] [-p N]``."""
    parser = argparse.ArgumentParser(
        prog="python -m lazyfun.csp.flatzinc",
        description="Solve a FlatZinc model with lazyfun.csp.",
    )
    parser.add_argument("file", help="a .fzn file")
    parser.add_argument(
        "-a", "--all-solutions", action="store_true", help="every solution (or every better one)"
    )
    parser.add_argument(
        "-i", "--intermediate", action="store_true", help="every better solution (as -a)"
    )
    parser.add_argument(
        "-t", "--time-limit", type=int, metavar="MS", help="stop after MS milliseconds"
    )
    parser.add_argument(
        "-f", "--free-search", action="store_true", help="leave out the search annotations"
    )
    parser.add_argument(
        "-s", "--statistics", action="store_true", help="the search's nodes and time at the end"
    )
    parser.add_argument("-p", "--parallel", type=int, metavar="N", help="workers: one only")
    args = parser.parse_args(argv)
    if args.parallel is not None and args.parallel > 1:
        print(f"{parser.prog}: one worker only; -p {args.parallel} is ignored", file=sys.stderr)
    try:
        run(
            args.file,
            all_solutions=args.all_solutions or args.intermediate,
            time_limit=None if args.time_limit is None else args.time_limit / 1000,
            free_search=args.free_search,
            statistics=args.statistics,
        )
    except (FlatZincError, OSError) as error:
        print(f"{parser.prog}: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
