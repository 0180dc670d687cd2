"""``t <-> (x - y == k)`` and ``t <-> (x - y != k)`` by bit sets moved onto each other: the
solutions against brute force, and domain consistency (each value left has a support,
each value struck has none) on domains with holes and negative values."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.csp import Domain, Model
from lazyfun.csp.propagation.propagators import Propagators
from tests.budget import examples
from tests.csp.brute import brute_force

pytestmark = pytest.mark.compiled  # run again from source by `make unit`

VALUES = st.lists(st.integers(-3, 4), min_size=1, max_size=4)


@st.composite
def shift_models(draw: st.DrawFn) -> Model:
    """``x`` and ``y`` over random values, ``t`` their reified difference against ``k``;
    ``t`` fixed at random, or left open."""
    m = Model()
    x = m.decision("x", Domain.of(draw(VALUES)))
    y = m.decision("y", Domain.of(draw(VALUES)))
    k = draw(st.integers(-3, 3))
    condition = x - y == k if draw(st.booleans()) else y - x != k
    t = m.truth(condition)
    fixed = draw(st.sampled_from([None, 0, 1]))
    if fixed is not None:
        m.add_constraint("fixed", t == fixed)
    return m


@settings(max_examples=examples(400), deadline=None)
@given(shift_models())
def test_the_solutions_are_exactly_the_brute_force_ones(m: Model) -> None:
    assert sorted(s.values for s in m.solutions()) == brute_force(m)  # type: ignore[type-var]


@settings(max_examples=examples(400), deadline=None)
@given(shift_models())
def test_each_value_left_has_a_support_and_each_value_struck_has_none(m: Model) -> None:
    compiled = Propagators(m.decisions, list(m.constraints.values()))
    doms = list(compiled.start)
    ok = compiled.propagate(doms, range(len(doms)))
    solutions = brute_force(m)
    assert ok == bool(solutions)
    for d in m.decisions if ok else ():
        offset = compiled.offsets[d.index]
        kept = {offset + b for b in range(doms[d.index].bit_length()) if doms[d.index] >> b & 1}
        assert kept == {values[d.index] for values in solutions}
