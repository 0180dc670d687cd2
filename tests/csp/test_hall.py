"""Hall intervals: the fast bounds-consistent all_different against its definition."""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.csp import Domain, Model, all_different
from lazyfun.csp.propagation.distinct import bounds_distinct, hall_bounds, hall_bounds_naive
from tests.budget import examples

pytestmark = pytest.mark.compiled  # run again from source by `make unit`

ranges = st.lists(
    st.tuples(st.integers(-3, 8), st.integers(0, 4)).map(lambda t: (t[0], t[0] + t[1])),
    min_size=1,
    max_size=7,
)


@settings(max_examples=examples(500), deadline=None)
@given(ranges)
def test_the_fast_hall_bounds_agree_with_the_definition(spans: list[tuple[int, int]]) -> None:
    lo, hi = [a for a, _ in spans], [b for _, b in spans]
    fast_lo, fast_hi = list(lo), list(hi)
    fast = hall_bounds(fast_lo, fast_hi)
    naive = hall_bounds_naive(lo, hi)
    assert fast == naive
    if fast:
        assert (fast_lo, fast_hi) == (lo, hi)


@settings(max_examples=examples(300), deadline=None)
@given(ranges)
def test_hall_bounds_are_the_tightest_bounds_of_some_distinct_choice(
    spans: list[tuple[int, int]],
) -> None:
    choices = [
        vs for vs in product(*(range(a, b + 1) for a, b in spans)) if len(set(vs)) == len(vs)
    ]
    lo, hi = [a for a, _ in spans], [b for _, b in spans]
    if not hall_bounds(lo, hi):
        assert not choices
        return
    for k in range(len(spans)):
        assert lo[k] == min(vs[k] for vs in choices)
        assert hi[k] == max(vs[k] for vs in choices)


def fixpoint(doms: list[int], scope: tuple[int, ...], offsets: list[int]) -> list[int] | None:
    prop = bounds_distinct(scope, offsets)
    while True:
        changes = prop(doms)
        if changes is None:
            return None
        if not changes:
            return doms


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.lists(st.integers(-2, 7), min_size=1, max_size=5), min_size=1, max_size=5))
def test_bounds_distinct_keeps_every_value_some_solution_uses(values: list[list[int]]) -> None:
    m = Model()
    xs = [m.decision(f"x{k}", Domain.of(vs)) for k, vs in enumerate(values)]
    offsets = [x.domain.offset for x in xs]
    solutions = [vs for vs in product(*(x.domain.values for x in xs)) if len(set(vs)) == len(vs)]
    doms = fixpoint([x.domain.bits for x in xs], tuple(range(len(xs))), offsets)
    if doms is None:
        assert not solutions
        return
    for vs in solutions:
        for k, v in enumerate(vs):
            assert doms[k] >> (v - offsets[k]) & 1
    m.add_constraint("distinct", all_different(xs))
    assert m.count() == len(solutions)
