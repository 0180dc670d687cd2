"""FlatZinc's text read into items: tokens, then declarations, constraints and the
solve item, each with its line and its annotations (not yet a model: see
:mod:`~lazyfun.csp.flatzinc.reader`)."""

from __future__ import annotations

import re
import string
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


# Spaces, then one token: a comment, a newline, a float, an int (the float first, so that
# ``1.5`` is one), a string, a name, punctuation, or any other character (an error: a
# digit of another script among them).
_TOKEN = re.compile(
    r"""
    [ \t\r]*
    ( %[^\n]*
    | \n
    | -?[0-9]+\.[0-9]+(?:[eE][-+]?[0-9]+)? | -?[0-9]+[eE][-+]?[0-9]+
    | -?0x[0-9a-fA-F]+ | -?0o[0-7]+ | -?[0-9]+
    | "(?:[^"\\\n]|\\.)*"
    | _*[A-Za-z][A-Za-z0-9_]*
    | \.\. | :: | [:;,\[\](){}=]
    | [^ \t\r]
    )
    """,
    re.VERBOSE,
)

# A token's kind by its first character; "-" and digits start numbers, and a token of one
# character is an error unless it is punctuation, a digit or a letter.
_KINDS = {
    **dict.fromkeys(string.ascii_letters + "_", "ident"),
    **dict.fromkeys(string.digits + "-", "number"),
    **dict.fromkeys(":;,[](){}=.", "punct"),
    '"': "string",
    "%": "comment",
    "\n": "newline",
}
_ALONE = frozenset(string.ascii_letters + string.digits + ":;,[](){}=")


def _kind(token: str) -> str:
    """A token's kind: ``ident``, ``int``, ``float``, ``punct``, ``string``, ``comment``,
    ``newline`` or ``error`` (a character no token starts with)."""
    kind = _KINDS.get(token[0], "error")
    if len(token) == 1 and token not in _ALONE and kind not in ("newline", "comment"):
        return "error"
    if kind == "number":
        floating = "." in token or (("e" in token or "E" in token) and "x" not in token)
        return "float" if floating else "int"
    return kind


def _tokens(text: str) -> tuple[list[str], list[str], list[int]]:
    """The tokens of ``text`` as three lists, their kinds, texts and lines, spaces and
    comments left out, and an ``end`` token last."""
    kinds: list[str] = []
    texts: list[str] = []
    lines: list[int] = []
    line = 1
    for token in _TOKEN.findall(text):
        kind = _kind(token)
        if kind == "newline":
            line += 1
        elif kind == "error":
            raise FlatZincError(f"line {line}: cannot read {_error_text(text, line)!r}")
        elif kind != "comment":
            kinds.append(kind)
            texts.append(token)
            lines.append(line)
    kinds.append("end")
    texts.append("")
    lines.append(line)
    return kinds, texts, lines


def _error_text(text: str, line: int) -> str:
    """The 20 characters of ``text`` from the first on ``line`` no token starts with."""
    at = 0
    for _ in range(line - 1):
        at = text.index("\n", at) + 1
    for match in _TOKEN.finditer(text, at):
        if _kind(match.group(1)) == "error":
            at = match.start(1)
            break
    return text[at : at + 20]


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
        self.kinds, self.texts, self.lines = _tokens(text)
        self.at = 0
        self.annotating = False  # a float in an annotation is kept as its text

    @property
    def kind(self) -> str:
        """The kind of the token at hand."""
        return self.kinds[self.at]

    @property
    def text(self) -> str:
        """The text of the token at hand."""
        return self.texts[self.at]

    def fail(self, why: str) -> FlatZincError:
        return FlatZincError(f"line {self.lines[self.at]}: {why}")

    def take(self, text: str | None = None, kind: str | None = None) -> str:
        """The text of the token at hand, which must be ``text`` or of ``kind``; then the next."""
        at = self.at
        found, its_kind = self.texts[at], self.kinds[at]
        if (text is not None and found != text) or (kind is not None and its_kind != kind):
            wanted = repr(text) if text is not None else f"a{'n' if kind == 'int' else ''} {kind}"
            shown = repr(found) if its_kind != "end" else "the end"
            line = self.lines[at]
            before = self.lines[at - 1] if at else line
            if before < line:  # what is missing belongs to the line before
                raise FlatZincError(
                    f"line {before}: expected {wanted}, found {shown} on line {line}"
                )
            raise self.fail(f"expected {wanted}, found {shown}")
        self.at = at + 1
        return found

    def peek(self, text: str) -> bool:
        at = self.at
        return self.texts[at] == text and self.kinds[at] != "string"

    def items(self) -> list[Item]:
        found = []
        while self.kind != "end":
            found.append(self.item())
        return found

    def item(self) -> Item:
        line = self.lines[self.at]
        if self.peek("predicate"):
            while not self.peek(";"):
                if self.kind == "end":
                    raise self.fail("a predicate item with no ';'")
                self.at += 1
            self.take(";")
            return Item("predicate", line)
        if self.peek("constraint"):
            self.take()
            name = self.take(kind="ident")
            args = self.arguments()
            annotations = self.annotations()
            self.take(";")
            return Item("constraint", line, name=name, args=args, annotations=annotations)
        if self.peek("solve"):
            self.take()
            annotations = self.annotations()
            goal = self.take(kind="ident")
            if goal not in ("satisfy", "minimize", "maximize"):
                raise FlatZincError(f"line {line}: solve {goal}? (satisfy, minimize or maximize)")
            value = None if goal == "satisfy" else self.expr()
            self.take(";")
            return Item("solve", line, value=value, annotations=annotations, goal=goal)
        type_ = self.type()
        self.take(":")
        name = self.take(kind="ident")
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
            base = self.take()
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
        if self.kind == "float":
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
        return _int(self.take(kind="int"))

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
        kind, text = self.kind, self.text
        if kind == "float" and self.annotating:
            return self.take()
        if kind == "float":
            raise self.fail(f"floats are not supported (lazyfun.csp solves over integers): {text}")
        if kind == "int":
            low = self.integer()
            if self.peek(".."):
                self.take()
                if self.kind == "float":
                    raise self.fail("floats are not supported (lazyfun.csp solves over integers)")
                return Range(low, self.integer())
            return low
        if kind == "string":
            self.take()
            return text[1:-1]
        if self.peek("{"):
            return SetLit(tuple(sorted(set(self.listed("{", "}", self.integer)))))
        if self.peek("["):
            return self.listed("[", "]", self.expr)
        if kind == "ident":
            return self.named(self.take())
        raise self.fail(f"an expression, found {text or 'the end'!r}")

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
