"""lazyfun.csp: decisions, expressions, constraints and the solutions of a model."""

from __future__ import annotations

from typing import assert_type

from lazyfun.csp import (
    Constraint,
    Decision,
    Domain,
    Expr,
    Model,
    Quality,
    Solution,
    Solutions,
    all_different,
)


def constrain(model: Model, name: str, constraint: Constraint) -> None:
    model.add_constraint(name, constraint)


model = Model()
s, e, n, d = (model.decision(c, Domain.integer_range(0, 9)) for c in "SEND")
assert_type(s, Decision)
assert_type(model["S"], Decision)
assert_type(s + e, Expr)
assert_type(s + e - 3, Expr)
constrain(model, "distinct", all_different([s, e, n, d]))
constrain(model, "sum", s + e + n + d == 24)
constrain(model, "order", s > e)
constrain(model, "either", (s > e) | (n == d))
constrain(model, "both", (s > e) & ~(n == d))
constrain(model, "gap", abs(n - d) == 4)

first = model.solve()
assert_type(first, Solution)
assert_type(first.quality, Quality)
assert_type(first[s], int)
assert_type(first["S"], int)
assert_type(first.as_dict(), dict[str, int])
assert_type(model.solutions(), Solutions)
assert_type(next(model.solutions()), Solution)
assert_type(model.count(), int)
