"""Each linear row relaxed against each other row (``row_bounds``): never cuts a solution,
on random small systems; and it sees what bounds reasoning, one row at a time, cannot."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.csp import Domain, Model, total
from lazyfun.csp.propagation.propagators import Propagators
from lazyfun.csp.propagation.relaxation import ROW_LIMIT, row_bounds
from tests.budget import examples
from tests.csp.brute import brute_force

pytestmark = pytest.mark.compiled  # run again from source by `make unit`


@st.composite
def linear_systems(draw: st.DrawFn) -> Model:
    """Three to five decisions (0/1, ranges, holes, negative values) under two to four
    linear rows over all of them, of any signs and comparisons."""
    m = Model()
    n = draw(st.integers(3, 5))
    xs = []
    for i in range(n):
        values = draw(st.lists(st.integers(-2, 3), min_size=1, max_size=4))
        xs.append(
            m.decision(f"x{i}", Domain.boolean() if draw(st.booleans()) else Domain.of(values))
        )
    for k in range(draw(st.integers(2, 4))):
        weights = draw(st.lists(st.integers(-4, 9), min_size=n, max_size=n))
        lhs = total(w * x for w, x in zip(weights, xs, strict=True))
        room = draw(st.integers(-6, 4 * n))
        op = draw(st.sampled_from(["<=", ">=", "=="]))
        m.add_constraint(
            f"c{k}", lhs <= room if op == "<=" else lhs >= room if op == ">=" else lhs == room
        )
    return m


@pytest.mark.long_from_source  # from source it reaches no line the pure pass's other tests miss
@settings(max_examples=examples(400), deadline=None)
@given(linear_systems())
def test_the_solutions_are_exactly_the_brute_force_ones(m: Model) -> None:
    assert sorted(s.values for s in m.solutions()) == brute_force(m)  # type: ignore[type-var]


@settings(max_examples=examples(300), deadline=None)
@given(linear_systems(), st.data())
def test_on_any_narrowed_domains_no_row_bound_cuts_a_solution(
    m: Model, data: st.DataObject
) -> None:
    """Each row bound alone, on domains narrowed at random, keeps every solution inside
    them (and fails only when there is none)."""
    compiled = Propagators(m.decisions, list(m.constraints.values()))
    doms = [bits & ~data.draw(st.integers(0, bits)) or bits & -bits for bits in compiled.start]
    inside = [
        v
        for v in brute_force(m)
        if all(doms[i] >> (x - compiled.offsets[i]) & 1 for i, x in enumerate(v))
    ]
    for row in row_bounds(list(m.constraints.values()), compiled.offsets):
        narrowed = list(doms)
        if row(narrowed) is None:
            assert not inside
            continue
        for v in inside:
            assert all(narrowed[i] >> (x - compiled.offsets[i]) & 1 for i, x in enumerate(v))


def test_a_profit_target_against_a_capacity_fails_at_the_root() -> None:
    """``x + y + z >= 2`` with ``2x + 2y + 2z <= 3`` over 0/1: each row alone leaves
    every value (bounds reasoning), the relaxation of one against the other reaches
    only 1.5."""
    m = Model()
    x, y, z = (m.decision(n, Domain.boolean()) for n in "xyz")
    m.add_constraint("target", x + y + z >= 2)
    m.add_constraint("room", 2 * x + 2 * y + 2 * z <= 3)
    compiled = Propagators(m.decisions, list(m.constraints.values()))
    assert not compiled.propagate(list(compiled.start), range(3))
    assert m.solve().quality.value == "infeasible"


def test_more_rows_than_the_limit_are_left_to_bounds_reasoning() -> None:
    m = Model()
    xs = [m.decision(f"x{i}", Domain.boolean()) for i in range(3)]
    for k in range(ROW_LIMIT + 1):
        m.add_constraint(f"c{k}", total(xs) <= 2 + k)
    compiled = Propagators(m.decisions, list(m.constraints.values()))
    assert row_bounds(list(m.constraints.values()), compiled.offsets) == []
