"""FlatZinc's text read into items: tokens, then declarations, constraints and the
solve item, each with its line and its annotations (not yet a model: see
:mod:`~lazyfun.csp.flatzinc.reader`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeAlias, TypeVar

__all__ = [
    "Access",
    "Ast",
    "Call",
    "FlatZincError",
    "Id",
    "Item",
    "Parser",
    "Range",
    "SetLit",
    "Type",
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
  | (?P<error>.)
    """,
    re.VERBOSE,
)


@dataclass(slots=True)
class _Token:
    kind: str
    text: str
    line: int


def _tokens(text: str) -> list[_Token]:
    """The tokens of ``text``, each with its line, spaces and comments left out."""
    found: list[_Token] = []
    line = 1
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup
        if kind == "newline":
            line += 1
        elif kind == "error":
            at = match.start()
            raise FlatZincError(f"line {line}: cannot read {text[at : at + 20]!r}")
        elif kind != "space":
            assert kind is not None
            found.append(_Token(kind, match.group(), line))
    found.append(_Token("end", "", line))
    return found


@dataclass(frozen=True)
class Id:
    name: str


@dataclass(frozen=True)
class Access:
    name: str
    index: int


@dataclass(frozen=True)
class Range:
    low: int
    high: int


@dataclass(frozen=True)
class SetLit:
    values: tuple[int, ...]


@dataclass(frozen=True)
class Call:
    name: str
    args: tuple[Ast, ...]


Ast: TypeAlias = "int | bool | str | Id | Access | Range | SetLit | Call | list[Ast]"


@dataclass
class Type:
    """A declared type: ``var``, its base (int, bool, float, set), a domain, array index sets."""

    var: bool
    base: str
    domain: Range | SetLit | None = None
    dims: list[Range] = field(default_factory=list)


@dataclass
class Item:
    kind: str  # "predicate", "decl", "constraint", "solve"
    line: int
    name: str = ""
    type: Type | None = None
    value: Ast | None = None
    args: tuple[Ast, ...] = ()
    annotations: list[Ast] = field(default_factory=list)
    goal: str = ""


class Parser:
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

    def items(self) -> list[Item]:
        found = []
        while self.token.kind != "end":
            found.append(self.item())
        return found

    def item(self) -> Item:
        line = self.token.line
        if self.peek("predicate"):
            while not self.peek(";"):
                if self.token.kind == "end":
                    raise self.fail("a predicate item with no ';'")
                self.at += 1
            self.take(";")
            return Item("predicate", line)
        if self.peek("constraint"):
            self.take()
            name = self.take(kind="ident").text
            args = self.arguments()
            annotations = self.annotations()
            self.take(";")
            return Item("constraint", line, name=name, args=args, annotations=annotations)
        if self.peek("solve"):
            self.take()
            annotations = self.annotations()
            goal = self.take(kind="ident").text
            if goal not in ("satisfy", "minimize", "maximize"):
                raise FlatZincError(f"line {line}: solve {goal}? (satisfy, minimize or maximize)")
            value = None if goal == "satisfy" else self.expr()
            self.take(";")
            return Item("solve", line, value=value, annotations=annotations, goal=goal)
        type_ = self.type()
        self.take(":")
        name = self.take(kind="ident").text
        annotations = self.annotations()
        value = None
        if self.peek("="):
            self.take()
            value = self.expr()
        self.take(";")
        return Item("decl", line, name=name, type=type_, value=value, annotations=annotations)

    def type(self) -> Type:
        dims: list[Range] = []
        if self.peek("array"):
            self.take()
            self.take("[")
            while True:
                if self.peek("int"):
                    raise self.fail("an array indexed by 'int' (FlatZinc gives 1..n)")
                low = self.integer()
                self.take("..")
                dims.append(Range(low, self.integer()))
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
            return Type(var, base, None, dims)
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
            return Type(var, "set", None, dims)
        if self.token.kind == "float":
            raise self.fail("floats are not supported (lazyfun.csp solves over integers)")
        return Type(var, "int", self.domain(), dims)

    def domain(self) -> Range | SetLit:
        value = self.expr()
        if not isinstance(value, Range | SetLit):
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

    def arguments(self) -> tuple[Ast, ...]:
        self.take("(")
        args = []
        if not self.peek(")"):
            args.append(self.expr())
            while self.peek(","):
                self.take()
                args.append(self.expr())
        self.take(")")
        return tuple(args)

    def annotations(self) -> list[Ast]:
        found = []
        while self.peek("::"):
            self.take()
            self.annotating = True
            try:
                found.append(self.expr())
            finally:
                self.annotating = False
        return found

    def expr(self) -> Ast:
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
                return Range(low, self.integer())
            return low
        if t.kind == "string":
            self.take()
            return t.text[1:-1]
        if self.peek("{"):
            return SetLit(tuple(sorted(set(self.listed("{", "}", self.integer)))))
        if self.peek("["):
            return self.listed("[", "]", self.expr)
        if t.kind == "ident":
            return self.named(self.take().text)
        raise self.fail(f"an expression, found {t.text or 'the end'!r}")

    def named(self, name: str) -> Ast:
        """What starts with a name: true, false, a call, an array's element, a name."""
        if name in ("true", "false"):
            return name == "true"
        if self.peek("("):
            return Call(name, self.arguments())
        if self.peek("["):
            self.take()
            index = self.integer()
            self.take("]")
            return Access(name, index)
        return Id(name)


def _int(text: str) -> int:
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("-")
    if digits.startswith("0x"):
        return sign * int(digits[2:], 16)
    if digits.startswith("0o"):
        return sign * int(digits[2:], 8)
    return sign * int(digits)
