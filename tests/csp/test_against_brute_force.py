"""Random small models: the lazy solver finds exactly what brute force finds, each once."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.csp import Domain, Model, all_different
from lazyfun.csp.modelling.constraints import Constraint, Decision
from tests.budget import examples
from tests.csp.brute import brute_force

pytestmark = pytest.mark.compiled  # run again from source by `make unit`

OPS = ["==", "!=", "<=", "<", ">=", ">"]


@st.composite
def models(draw: st.DrawFn) -> Model:
    m = Model()
    n = draw(st.integers(1, 4))
    xs: list[Decision] = []
    for i in range(n):
        values = draw(st.lists(st.integers(-3, 5), min_size=1, max_size=5))
        xs.append(m.decision(f"x{i}", Domain.of(values)))
    for k in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["linear", "abs", "alldiff", "predicate"]))
        picked = draw(st.lists(st.sampled_from(xs), min_size=1, max_size=4, unique=True))
        constraint: Constraint
        if kind == "linear":
            coefficients = draw(
                st.lists(st.integers(-3, 3), min_size=len(picked), max_size=len(picked))
            )
            expr = sum((c * x for c, x in zip(coefficients, picked, strict=True)), start=0)
            bound = draw(st.integers(-6, 6))
            op = draw(st.sampled_from(OPS))
            constraint = {
                "==": lambda e, b: e == b,
                "!=": lambda e, b: e != b,
                "<=": lambda e, b: e <= b,
                "<": lambda e, b: e < b,
                ">=": lambda e, b: e >= b,
                ">": lambda e, b: e > b,
            }[op](expr, bound)
            m.add_constraint(f"c{k}", constraint)
        elif kind == "abs":
            a, b = picked[0], picked[-1]
            m.add_constraint(f"c{k}", abs(a - b) != draw(st.integers(0, 3)))
        elif kind == "alldiff":
            m.add_constraint(f"c{k}", all_different(picked))
        else:
            modulus = draw(st.integers(2, 3))
            m.add_constraint(f"c{k}", lambda *v, q=modulus: sum(v) % q == 0, picked)
    return m


@settings(max_examples=examples(300), deadline=None)
@given(models())
def test_the_solutions_are_exactly_the_brute_force_ones(m: Model) -> None:
    ours = [s.values for s in m.solutions()]
    assert len(ours) == len(set(ours))
    assert sorted(ours) == brute_force(m)  # type: ignore[type-var]


@settings(max_examples=examples(100), deadline=None)
@given(models())
def test_solve_says_feasible_exactly_when_there_is_a_solution(m: Model) -> None:
    quality = m.solve().quality.value
    assert quality == ("feasible" if brute_force(m) else "infeasible")


@st.composite
def assignment_models(draw: st.DrawFn) -> Model:
    """all_different over as many decisions as values: the case where hidden singles apply.

    Domains with different smallest values exercise the lifted propagator.
    """
    m = Model()
    n = draw(st.integers(2, 6))
    xs = [
        m.decision(
            f"x{i}",
            Domain.of(draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))),
        )
        for i in range(n)
    ]
    m.add_constraint("distinct", all_different(xs))
    return m


@settings(max_examples=examples(300), deadline=None)
@given(assignment_models())
def test_all_different_over_as_many_values_as_decisions(m: Model) -> None:
    assert sorted(s.values for s in m.solutions()) == brute_force(m)  # type: ignore[type-var]
