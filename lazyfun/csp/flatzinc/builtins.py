"""FlatZinc's standard builtins as constraints of the model: comparisons and
linear relations (plain, ``_reif``, ``_imp``), boolean logic, element, arithmetic
(times, pow, plus, abs, div and mod rounded toward zero, max, min), set membership
and all_different; each registered in :data:`~lazyfun.csp.flatzinc.builder.BUILTINS`
by its FlatZinc name."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from lazyfun.csp.flatzinc.builder import (
    BUILTINS,
    Builder,
    Builtin,
    Cond,
    IntSet,
    Value,
    builtin,
    negation,
)
from lazyfun.csp.modelling.arithmetic import Function
from lazyfun.csp.modelling.constraints import AllDifferent, AllOf, AnyOf, Decision, Expr
from lazyfun.csp.modelling.relations import Element, Extreme

__all__ = ["all_of", "any_of", "bounds_of", "compare", "member"]


def compare(a: Decision | Expr | int, op: str, b: Decision | Expr | int) -> Cond:
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


def _linear(b: Builder, args: Sequence[Value]) -> Expr | int:
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
    def post(b: Builder, args: Sequence[Value]) -> None:
        c = compare(b.var(args[0]), op, b.var(args[1]))
        _finish(b, kind, c, args[2:])

    return post


def _lin_relation(op: str, kind: str) -> Builtin:
    def post(b: Builder, args: Sequence[Value]) -> None:
        c = compare(_linear(b, args), op, b.var(args[2]))
        _finish(b, kind, c, args[3:])

    return post


def _finish(b: Builder, kind: str, c: Cond, rest: Sequence[Value]) -> None:
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


def _truth(b: Builder, x: Decision | int) -> Cond:
    """The constraint that the boolean ``x`` is true."""
    return bool(x) if isinstance(x, int) else x == 1


def all_of(parts: Sequence[Cond]) -> Cond:
    if any(p is False for p in parts):
        return False
    kept = [p for p in parts if not isinstance(p, bool)]
    return True if not kept else kept[0] if len(kept) == 1 else AllOf(kept)


def any_of(parts: Sequence[Cond]) -> Cond:
    if any(p is True for p in parts):
        return True
    kept = [p for p in parts if not isinstance(p, bool)]
    return False if not kept else kept[0] if len(kept) == 1 else AnyOf(kept)


@builtin("bool2int")
def _bool2int(b: Builder, args: Sequence[Value]) -> None:
    x, y = b.var(args[0]), b.var(args[1])
    if x is not y:  # the integer merged with its boolean when it was declared
        b.post(compare(x, "==", y))


@builtin("bool_not")
def _bool_not(b: Builder, args: Sequence[Value]) -> None:
    x, y = b.var(args[0]), b.var(args[1])
    b.post(compare(x + y, "==", 1))


def _logic(combine: Callable[[Builder, Decision | int, Decision | int], Cond]) -> Builtin:
    def post(b: Builder, args: Sequence[Value]) -> None:
        c = combine(b, b.var(args[0]), b.var(args[1]))
        if len(args) == 2:
            b.post(c)
        else:
            b.reify(b.var(args[2]), c)

    return post


BUILTINS["bool_and"] = BUILTINS["bool_and_reif"] = _logic(
    lambda b, x, y: all_of([_truth(b, x), _truth(b, y)])
)
BUILTINS["bool_or"] = BUILTINS["bool_or_reif"] = _logic(
    lambda b, x, y: any_of([_truth(b, x), _truth(b, y)])
)
BUILTINS["bool_xor"] = BUILTINS["bool_xor_reif"] = _logic(lambda b, x, y: compare(x, "!=", y))


@builtin("array_bool_and", "array_bool_and_reif")
def _array_and(b: Builder, args: Sequence[Value]) -> None:
    c = all_of([_truth(b, x) for x in b.array(args[0])])
    b.reify(b.var(args[1]), c) if len(args) > 1 else b.post(c)


@builtin("array_bool_or", "array_bool_or_reif")
def _array_or(b: Builder, args: Sequence[Value]) -> None:
    c = any_of([_truth(b, x) for x in b.array(args[0])])
    b.reify(b.var(args[1]), c) if len(args) > 1 else b.post(c)


@builtin("array_bool_xor")
def _array_xor(b: Builder, args: Sequence[Value]) -> None:
    xs = b.array(args[0])
    b.post(compare(sum(xs) % 2 if all(isinstance(x, int) for x in xs) else _odd(b, xs), "==", 1))


def _odd(b: Builder, xs: list[Decision | int]) -> Decision | int:
    total: Expr | int = 0
    for x in xs:
        total = total + x
    assert not isinstance(total, int)
    low, high = total.span()
    half = b.fresh(-(-low // 2) - 1, high // 2 + 1)
    parity = b.fresh(0, 1)
    b.post(total == half * 2 + parity)
    return parity


@builtin("bool_clause", "bool_clause_reif")
def _clause(b: Builder, args: Sequence[Value]) -> None:
    positive, negative = b.array(args[0]), b.array(args[1])
    c = any_of([_truth(b, x) for x in positive] + [negation(_truth(b, x)) for x in negative])
    b.reify(b.var(args[2]), c) if len(args) > 2 else b.post(c)


@builtin(
    "array_int_element", "array_var_int_element", "array_bool_element", "array_var_bool_element"
)
def _element(b: Builder, args: Sequence[Value]) -> None:
    index, items, result = b.var(args[0]), b.array(args[1]), b.var(args[2])
    if isinstance(index, int):
        if not 1 <= index <= len(items):
            b.post(False)
            return
        b.post(compare(items[index - 1], "==", result))
        return
    b.post(index >= 1)
    b.post(index <= len(items))
    if isinstance(result, int):
        result = b.fresh(result, result)
    b.post(Element(result, [0, *items], index))


@builtin("int_times")
def _times(b: Builder, args: Sequence[Value]) -> None:
    x, y, z = (b.var(a) for a in args)
    if isinstance(x, int) or isinstance(y, int):
        b.post(compare(x * y, "==", z))
        return
    if isinstance(z, int):
        z = b.fresh(z, z)
    b.post(Function("*", z, [x] if x is y else [x, y]))


@builtin("int_pow")
def _pow(b: Builder, args: Sequence[Value]) -> None:
    x, y, z = (b.var(a) for a in args)
    if isinstance(y, int) and y >= 0:
        power: Decision | int = 1 if y == 0 else x
        for _ in range(y - 1):
            power = _product(b, power, x)
        b.post(compare(power, "==", z))
        return
    scope = [v if isinstance(v, Decision) else b.fresh(v, v) for v in (x, y, z)]
    b.count += 1
    b.model.add_constraint(f"c{b.count} (line {b.line})", _power_holds, scope)


def _power_holds(x: int, y: int, z: int) -> bool:
    return y >= 0 and x**y == z


def _product(b: Builder, x: Decision | int, y: Decision | int) -> Decision | int:
    if isinstance(x, int):
        x, y = y, x
    if isinstance(x, int):
        assert isinstance(y, int)
        return x * y
    if isinstance(y, int):
        (low, high), k = bounds_of(x), y
        result = b.fresh(min(low * k, high * k), max(low * k, high * k))
        b.post(result == x * k)
        return result
    (a, c), (d, e) = bounds_of(x), bounds_of(y)
    corners = (a * d, a * e, c * d, c * e)
    result = b.fresh(min(corners), max(corners))
    b.post(Function("*", result, [x, y]))
    return result


@builtin("int_plus")
def _plus(b: Builder, args: Sequence[Value]) -> None:
    x, y, z = (b.var(a) for a in args)
    b.post(compare(x + y, "==", z))


@builtin("int_abs")
def _abs(b: Builder, args: Sequence[Value]) -> None:
    x, y = b.var(args[0]), b.var(args[1])
    if isinstance(x, int):
        b.post(compare(y, "==", abs(x)))
        return
    if isinstance(y, int):
        y = b.fresh(y, y)
    b.post(Function("abs", y, [x]))


def _extreme(largest: bool) -> Builtin:
    def post(b: Builder, args: Sequence[Value]) -> None:
        if len(args) == 3:
            items, result = [b.var(args[0]), b.var(args[1])], b.var(args[2])
        else:
            items, result = b.array(args[1]), b.var(args[0])
        if all(isinstance(x, int) for x in items):
            b.post(compare(result, "==", (max if largest else min)(items)))
            return
        if isinstance(result, int):
            result = b.fresh(result, result)
        b.post(Extreme(result, items, largest))

    return post


BUILTINS["int_max"] = BUILTINS["array_int_maximum"] = _extreme(True)
BUILTINS["int_min"] = BUILTINS["array_int_minimum"] = _extreme(False)


def bounds_of(x: Decision | int) -> tuple[int, int]:
    return (x, x) if isinstance(x, int) else (x.domain.low, x.domain.high)


def _divide(
    b: Builder, a: Decision | int, d: Decision | int, q: Decision | int, r: Decision | int
) -> None:
    """``q`` and ``r`` the quotient and remainder of ``a`` by ``d``, rounded toward zero (FlatZinc's
    ``div`` and ``mod``): ``a == d * q + r``, ``|r| < |d|``, and ``r`` 0 or of ``a``'s sign."""
    if isinstance(a, int) and isinstance(d, int):
        if d == 0:
            b.post(False)
            return
        quotient = abs(a) // abs(d) * (1 if (a >= 0) == (d > 0) else -1)
        b.post(compare(q, "==", quotient))
        b.post(compare(r, "==", a - d * quotient))
        return
    b.post(compare(d, "!=", 0))
    low, high = bounds_of(a)
    if isinstance(q, int):
        q = b.fresh(q, q)
    if isinstance(r, int):
        r = b.fresh(r, r)
    if isinstance(d, int):
        b.post(compare(d * q + r, "==", a))
        b.post(compare(r, "<=", abs(d) - 1))
        b.post(compare(1 - abs(d), "<=", r))
    else:
        (dl, dh), (ql, qh) = bounds_of(d), bounds_of(q)
        corners = (dl * ql, dl * qh, dh * ql, dh * qh)
        product = b.fresh(min(corners), max(corners))
        b.post(Function("*", product, [d, q]))
        b.post(compare(product + r, "==", a))
        size_r = b.fresh(0, max(abs(v) for v in bounds_of(r)))
        size_d = b.fresh(0, max(abs(dl), abs(dh)))
        b.post(Function("abs", size_r, [r]))
        b.post(Function("abs", size_d, [d]))
        b.post(compare(size_r, "<", size_d))
    if low < 0:
        b.when(compare(a, "<", 0), compare(r, "<=", 0))
    if high > 0:
        b.when(compare(0, "<", a), compare(0, "<=", r))


@builtin("int_div")
def _div(b: Builder, args: Sequence[Value]) -> None:
    a, d, q = (b.var(x) for x in args)
    if isinstance(d, int) and d > 0 and not isinstance(a, int) and a.domain.low >= 0:
        if isinstance(q, int):
            q = b.fresh(q, q)
        b.post(Function("//", q, [a], d))
        return
    low, high = bounds_of(a)
    reach = max(abs(low), abs(high))
    r = b.fresh(-reach, reach)
    _divide(b, a, d, q, r)


@builtin("int_mod")
def _mod(b: Builder, args: Sequence[Value]) -> None:
    a, d, r = (b.var(x) for x in args)
    if isinstance(d, int) and d > 0 and not isinstance(a, int) and a.domain.low >= 0:
        if isinstance(r, int):
            r = b.fresh(r, r)
        b.post(Function("%", r, [a], d))
        return
    low, high = bounds_of(a)
    reach = max(abs(low), abs(high))
    q = b.fresh(-reach, reach)
    _divide(b, a, d, q, r)


def member(x: Decision | int, s: IntSet) -> Cond:
    if isinstance(x, int):
        return x in s
    return any_of(
        [
            compare(x, "==", lo)
            if lo == hi
            else all_of([compare(lo, "<=", x), compare(x, "<=", hi)])
            for lo, hi in s.ranges
        ]
    )


@builtin("set_in", "set_in_reif")
def _set_in(b: Builder, args: Sequence[Value]) -> None:
    c = member(b.var(args[0]), b.set(args[1]))
    b.reify(b.var(args[2]), c) if len(args) > 2 else b.post(c)


@builtin("all_different_int", "lazyfun_all_different", "fzn_all_different_int")
def _all_different(b: Builder, args: Sequence[Value]) -> None:
    _distinct(b, args, domain=False)


@builtin("lazyfun_all_different_domain")
def _all_different_domain(b: Builder, args: Sequence[Value]) -> None:
    """``all_different`` propagated to domain consistency (the mznlib's ``inverse``)."""
    _distinct(b, args, domain=True)


def _distinct(b: Builder, args: Sequence[Value], *, domain: bool) -> None:
    """The decisions of ``args[0]`` all differ; a decision listed twice fails."""
    xs = b.array(args[0])
    decisions = [x if isinstance(x, Decision) else b.fresh(x, x) for x in xs]
    if len({d.index for d in decisions}) != len(decisions):
        b.post(False)
        return
    b.post(AllDifferent(decisions, domain=domain))


def _half(reified: Builtin) -> Builtin:
    """The ``_imp`` form of a builtin whose last argument ``r`` reifies it: ``r -> c``."""

    def post(b: Builder, args: Sequence[Value]) -> None:
        b.half = True
        try:
            reified(b, args)
        finally:
            b.half = False

    return post


for _name in ("bool_and", "bool_or", "bool_xor", "array_bool_and", "array_bool_or", "bool_clause"):
    BUILTINS[f"{_name}_imp"] = _half(BUILTINS[_name])
BUILTINS["set_in_imp"] = _half(BUILTINS["set_in_reif"])
