"""The bounds a ``var int`` declared without them takes from the constraint that
defines it (``:: defines_var``): a sum, a product, an element, a maximum...; failing
that, from the linear constraints over it (``x >= 0`` and ``x + y = 1`` put ``x`` in
0..1 when ``y >= 0``: :func:`implied`)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from lazyfun.csp.flatzinc.builder import IntSet
from lazyfun.csp.flatzinc.text import Access, Ast, Call, Id, Item

__all__ = ["Bounds", "Row", "implied", "linear_rows"]

ROUNDS = 20
"""How many times :func:`implied` goes over the linear constraints at most: bounds that
creep round a cycle of them would tighten a little each time."""


class Bounds:
    """The bounds an unbounded ``var int`` gets from its ``:: defines_var`` constraint."""

    def __init__(self, items: list[Item]) -> None:
        self.decls = {i.name: i for i in items if i.kind == "decl"}
        self.defined: dict[str, Item] = {}
        for item in items:
            if item.kind != "constraint":
                continue
            for a in item.annotations:
                if isinstance(a, Call) and a.name == "defines_var" and a.args:
                    target = a.args[0]
                    if isinstance(target, Id):
                        self.defined[target.name] = item
        self.known: dict[str, tuple[int, int] | None] = {}
        self._implied: dict[str, tuple[int, int]] | None = None
        self._items = items
        # bool2int(b, x) :: defines_var(x): x is b itself, as an integer
        self.merged = {
            name: item.args[0].name
            for name, item in self.defined.items()
            if item.name == "bool2int" and isinstance(item.args[0], Id)
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
        found = None if item is None else self._defined(name, item)
        if found is None and not t.dims:
            if self._implied is None:
                self._implied = {}  # a variable's own bounds asked while finding them
                self._implied = implied(self._items, self)
            found = self._implied.get(name)
        return found

    def of(self, ast: Ast | None) -> tuple[int, int] | None:
        if isinstance(ast, bool | int):
            return int(ast), int(ast)
        if isinstance(ast, Id):
            return self.of_name(ast.name)
        if isinstance(ast, Access):
            array = self.decls.get(ast.name)
            value = None if array is None else array.value
            if isinstance(value, list) and 1 <= ast.index <= len(value):
                return self.of(value[ast.index - 1])
        return None

    def items(self, ast: Ast) -> list[Ast] | None:
        if isinstance(ast, list):
            return ast
        if isinstance(ast, Id) and ast.name in self.decls:
            value = self.decls[ast.name].value
            return value if isinstance(value, list) else None
        return None

    def _defined(self, name: str, item: Item) -> tuple[int, int] | None:
        args, target = item.args, Id(name)
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

    def _linear(self, target: Id, args: Sequence[Ast]) -> tuple[int, int] | None:
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


Row = tuple[list[int], list[str], int]  # sum(k * x) <= c


def linear_rows(item: Item, bounds: Bounds) -> list[Row]:
    """``item`` as rows ``sum(k * x) <= c`` over variable names, if it is a plain
    ``int_le``, ``int_lin_le`` or ``int_lin_eq`` (two rows) over variables and numbers."""
    args = item.args
    ks: list[Ast]
    xs: list[Ast]
    if item.name == "int_le" and len(args) == 2:
        ks = [1, -1]
        xs, c = list(args), 0
    elif item.name in ("int_lin_le", "int_lin_eq") and len(args) == 3:
        found_ks, found_xs, c_ast = bounds.items(args[0]), bounds.items(args[1]), args[2]
        if found_ks is None or found_xs is None or not isinstance(c_ast, int):
            return []
        if len(found_ks) != len(found_xs):
            return []
        ks, xs, c = found_ks, found_xs, int(c_ast)
    else:
        return []
    terms: list[tuple[int, str]] = []
    for k, x in zip(ks, xs, strict=False):
        if not isinstance(k, int) or isinstance(x, bool):
            return []
        if isinstance(x, int):
            c -= k * x
        elif isinstance(x, Id):
            terms.append((k, x.name))
        else:
            return []
    row = ([k for k, _ in terms], [x for _, x in terms], c)
    if item.name != "int_lin_eq":
        return [row]
    return [row, ([-k for k in row[0]], row[1], -c)]


def implied(items: list[Item], bounds: Bounds) -> dict[str, tuple[int, int]]:
    """The bounds the linear constraints of ``items`` imply for the scalar variables
    declared without a domain, by interval reasoning: in ``sum(k * x) <= c``, each
    ``k * x`` is at most ``c`` less the least the other terms can be, when that is
    finite (each variable starts from its declared domain, or no bound), the rows
    gone over until nothing tightens or :data:`ROUNDS` times.  Only the variables
    with both bounds found are given."""
    free = {
        i.name
        for i in items
        if i.kind == "decl"
        and i.type is not None
        and i.type.var
        and i.type.base == "int"
        and i.type.domain is None
        and not i.type.dims
        and i.value is None
    }
    rows = [r for i in items if i.kind == "constraint" for r in linear_rows(i, bounds)]
    rows = [r for r in rows if any(x in free for x in r[1])]
    low: dict[str, float] = {}
    high: dict[str, float] = {}
    for _, xs, _ in rows:
        for x in xs:
            if x not in low:
                known = None if x in free else bounds.of_name(x)
                low[x], high[x] = known if known is not None else (-math.inf, math.inf)
    for _ in range(ROUNDS):
        if not _tighten(rows, low, high):
            break
    return {
        x: (int(low[x]), int(high[x]))
        for x in free
        if x in low and math.isfinite(low[x]) and math.isfinite(high[x])
    }


def _tighten(rows: list[Row], low: dict[str, float], high: dict[str, float]) -> bool:
    """One pass of :func:`implied` over ``rows``; whether a bound moved."""
    moved = False
    for ks, xs, c in rows:
        least = [k * (low[x] if k > 0 else high[x]) for k, x in zip(ks, xs, strict=True)]
        unbounded = sum(1 for v in least if not math.isfinite(v))
        finite = sum(v for v in least if math.isfinite(v))
        for k, x, own in zip(ks, xs, least, strict=True):
            if unbounded - (not math.isfinite(own)) > 0:
                continue
            room = c - (finite - own if math.isfinite(own) else finite)  # k * x <= room
            if k > 0 and room // k < high[x]:
                high[x], moved = room // k, True
            elif k < 0 and -(room // -k) > low[x]:
                low[x], moved = -(room // -k), True
    return moved
