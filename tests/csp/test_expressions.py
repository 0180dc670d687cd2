"""Every modelling form (booleans, & | ~, truth, products, //, %, abs, element, minimum,
maximum of expressions) on random small models: the solver counts exactly what brute
force counts over the user's decisions, and hidden decisions never show."""

from __future__ import annotations

from collections.abc import Callable
from itertools import product
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.csp import Domain, Model, ModelError, element, maximum, minimum, total
from lazyfun.csp.modelling.constraints import Constraint, Decision, Expr
from tests.budget import examples

pytestmark = pytest.mark.compiled  # run again from source by `make unit`

Values = dict[str, int]
Term = tuple[Any, Callable[[Values], int]]  # a model expression and its meaning
Condition = tuple[Constraint, Callable[[Values], bool]]


class OutOfRange(Exception):
    """An element index off its list: the model has no solution there at all."""


def _at(items: list[Callable[[Values], int]], index: Callable[[Values], int], v: Values) -> int:
    values = [item(v) for item in items]  # each item's own conditions hold everywhere
    k = index(v)
    if not 0 <= k < len(items):
        raise OutOfRange
    return values[k]


def _term(draw: st.DrawFn, m: Model, xs: list[Decision], depth: int) -> Term:
    kinds = ["decision", "number"]
    if depth:
        kinds += ["sum", "product", "quotient", "remainder", "abs", "min", "max", "element"]
        kinds += ["truth"]
    kind = draw(st.sampled_from(kinds))
    if kind == "decision":
        x = draw(st.sampled_from(xs))
        return x, lambda v, name=x.name: v[name]
    if kind == "number":
        n = draw(st.integers(-3, 3))
        return n, lambda v: n
    if kind == "truth":
        c, holds = _condition(draw, m, xs, depth - 1)
        return m.truth(c), lambda v: int(holds(v))
    a, fa = _term(draw, m, xs, depth - 1)
    if kind in ("quotient", "remainder", "abs"):
        return _of_one(draw, kind, a, fa)
    b, fb = _term(draw, m, xs, depth - 1)
    if kind == "sum":
        return a + b, lambda v: fa(v) + fb(v)
    if kind == "product":
        return a * b, lambda v: fa(v) * fb(v)
    if not any(_has_decision(t) for t in (a, b)):
        return a + b, lambda v: fa(v) + fb(v)  # minimum and element need a decision
    if kind == "min":
        return minimum([a, b]), lambda v: min(fa(v), fb(v))
    if kind == "max":
        return maximum([a, b]), lambda v: max(fa(v), fb(v))
    usable = [x for x in xs if 0 in x.domain or 1 in x.domain]
    if not usable:
        return a + b, lambda v: fa(v) + fb(v)
    index = draw(st.sampled_from(usable))
    return element([a, b], index), lambda v, i=index.name: _at([fa, fb], lambda w: w[i], v)


def _has_decision(t: Any) -> bool:
    """Whether ``t`` depends on a decision: ``0 * x`` is an expression of none."""
    return isinstance(t, Decision) or (isinstance(t, Expr) and bool(t.terms))


def _of_one(draw: st.DrawFn, kind: str, a: Any, fa: Callable[[Values], int]) -> Term:
    if kind == "abs":
        return abs(a), lambda v: abs(fa(v))
    k = draw(st.sampled_from([-3, -2, 2, 3]))
    if kind == "quotient":
        return a // k, lambda v: fa(v) // k
    return a % k, lambda v: fa(v) % k


def _condition(draw: st.DrawFn, m: Model, xs: list[Decision], depth: int) -> Condition:
    kind = draw(
        st.sampled_from(["compare", "compare", "and", "or", "not"] if depth else ["compare"])
    )
    if kind == "compare":
        a, fa = _term(draw, m, xs, depth)
        b, fb = _term(draw, m, xs, depth)
        op = draw(st.sampled_from(["==", "!=", "<=", "<", ">=", ">"]))
        left = a if not isinstance(a, int) else b
        if isinstance(left, int):  # two numbers: compare a decision with them
            first = xs[0].name
            a, fa = xs[0], lambda v: v[first]
        tests: dict[str, Callable[[Any, Any], Any]] = {
            "==": lambda p, q: p == q,
            "!=": lambda p, q: p != q,
            "<=": lambda p, q: p <= q,
            "<": lambda p, q: p < q,
            ">=": lambda p, q: p >= q,
            ">": lambda p, q: p > q,
        }
        test = tests[op]
        built = test(a, b) if not isinstance(a, int) else test(b, a)
        if isinstance(a, int):
            return built, lambda v: bool(test(fb(v), fa(v)))
        return built, lambda v: bool(test(fa(v), fb(v)))
    if kind == "not":
        c, holds = _condition(draw, m, xs, depth - 1)
        return ~c, lambda v: not holds(v)
    (c1, h1), (c2, h2) = _condition(draw, m, xs, depth - 1), _condition(draw, m, xs, depth - 1)
    # both sides evaluated: an element inside either one keeps its index in range everywhere
    if kind == "and":
        return c1 & c2, lambda v: all([h1(v), h2(v)])
    return c1 | c2, lambda v: any([h1(v), h2(v)])


@st.composite
def models(draw: st.DrawFn) -> tuple[Model, list[Callable[[Values], bool]]]:
    m = Model()
    xs = [
        m.decision(f"x{i}", Domain.of(draw(st.lists(st.integers(-3, 3), min_size=1, max_size=4))))
        for i in range(draw(st.integers(1, 3)))
    ]
    if draw(st.booleans()):
        xs.append(m.boolean("b"))
    tests = []
    for k in range(draw(st.integers(1, 3))):
        c, holds = _condition(draw, m, xs, draw(st.integers(0, 2)))
        m.add_constraint(f"c{k}", c)
        tests.append(holds)
    return m, tests


def brute_force(m: Model, tests: list[Callable[[Values], bool]]) -> list[Values]:
    shown = [d for d in m.decisions if not d.hidden]
    found = []
    for values in product(*(d.domain.values for d in shown)):
        v = {d.name: x for d, x in zip(shown, values, strict=True)}
        try:
            if all(test(v) for test in tests):
                found.append(v)
        except OutOfRange:
            continue
    return found


@settings(max_examples=examples(300), deadline=None)
@given(models())
def test_every_form_counts_as_brute_force_does(case: tuple[Model, list[Any]]) -> None:
    m, tests = case
    ours = [s.as_dict() for s in m.solutions()]
    expected = brute_force(m, tests)
    shown = [(d.name, d.domain.values) for d in m.decisions]
    assert sorted(map(sorted, (d.items() for d in ours))) == sorted(
        map(sorted, (d.items() for d in expected))
    ), (shown, m.constraints)
    assert m.count() == len(expected)


def test_a_party_seating_with_booleans() -> None:
    """Five guests, two tables: friends together, a quarrel apart, at most three a table."""
    m = Model()
    at_first = {g: m.boolean(g) for g in ["ann", "bob", "cy", "dee", "ed"]}
    m.add_constraint("friends", at_first["ann"] == at_first["bob"])
    m.add_constraint("quarrel", at_first["cy"] != at_first["dee"])
    m.add_constraint("room", total(at_first.values()) <= 3)
    m.add_constraint("room too", total(at_first.values()) >= 2)
    assert m.count() == sum(
        1
        for a, b, c, d, e in product((0, 1), repeat=5)
        if a == b and c != d and 2 <= a + b + c + d + e <= 3
    )


def test_truth_counts_constraints_that_hold() -> None:
    m = Model()
    xs = [m.decision(f"x{i}", Domain.integer_range(0, 4)) for i in range(3)]
    m.add_constraint("two big", total(m.truth(x >= 3) for x in xs) == 2)
    assert m.count() == 3 * 2 * 2 * 3
    assert all(set(s.as_dict()) == {"x0", "x1", "x2"} for s in m.solutions())


def test_an_expression_over_a_wide_domain_reasons_on_bounds() -> None:
    m = Model()
    x, y = (m.decision(n, Domain.integer_range(0, 4000)) for n in "xy")
    m.add_constraint("product", x * y == 3989 * 7)
    m.add_constraint("small", x <= 10)
    assert m.solve().as_dict() == {"x": 7, "y": 3989}
    wide = m.decision("wide", Domain.integer_range(0, 300_000))
    with pytest.raises(ModelError, match="product of x and wide: a domain may span at most"):
        _ = x * wide
    m = Model()
    x = m.decision("x", Domain.integer_range(-300_000, 300_000))
    m.add_constraint("far", abs(x) // 1000 == 299)
    m.add_constraint("negative", x < 0)
    assert [s["x"] for s in m.solutions()][:2] == [-299_999, -299_998]


def test_a_linear_sum_over_a_long_range_is_quick_to_build() -> None:
    m = Model()
    x, y, z = (m.decision(n, Domain.integer_range(0, 300_000)) for n in "xyz")
    m.add_constraint("sum", x + y == z)
    m.add_constraint("big", z >= 299_999)
    assert m.solve().as_dict() == {"x": 0, "y": 299_999, "z": 299_999}


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda m, x: x // 0, "division by zero"),
        (lambda m, x: x % 0, "division by zero"),
        (lambda m, x: x // x, "constant integer k"),
        (lambda m, x: x % 1.5, "must be an integer"),
        (lambda m, x: m.truth(x), "truth\\(\\) takes a constraint"),
        (lambda m, x: m.truth(True), "truth\\(\\) takes a constraint"),
        (lambda m, x: (x == 1) & 3, "& combines constraints"),
        (lambda m, x: (x == 1) | True, "\\| combines constraints"),
        (lambda m, x: element([x], 2), "index must be a decision or an expression"),
        (lambda m, x: m.decision("y", Domain.integer_range(0, 1 << 25)), "at most 16,777,216"),
    ],
)
def test_mistakes_are_model_errors_where_they_are_made(
    build: Callable[[Model, Decision], object], message: str
) -> None:
    m = Model()
    x = m.decision("x", Domain.integer_range(-5, 5))
    with pytest.raises(ModelError, match=message):
        build(m, x)


def test_combining_constraints_of_two_models_is_refused() -> None:
    m, n = Model(), Model()
    x, y = m.decision("x", Domain.boolean()), n.decision("y", Domain.boolean())
    with pytest.raises(ModelError, match="two models"):
        _ = (x == 1) | (y == 1)
