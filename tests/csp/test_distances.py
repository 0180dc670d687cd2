"""Distinct distances: the chain bound and the difference filter against brute force."""

from __future__ import annotations

from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.csp import Domain, Model, all_different
from lazyfun.csp.examples import golomb_model
from lazyfun.csp.modelling.constraints import Decision
from lazyfun.csp.modelling.relations import if_then
from lazyfun.csp.propagation.distances import (
    Chain,
    chain_bounds,
    difference_filter,
    distinct_distances,
    smallest_sum,
)
from lazyfun.csp.propagation.filters import Propagator, unit_equality
from lazyfun.csp.propagation.propagators import Propagators
from tests.budget import examples

pytestmark = pytest.mark.compiled  # run again from source by `make unit`

small_sets = st.lists(st.integers(-2, 9), min_size=1, max_size=6)


def fixpoint(prop: Propagator, doms: list[int]) -> list[int] | None:
    """``prop`` run until it changes nothing; None when it fails."""
    while True:
        changes = prop(doms)
        if changes is None:
            return None
        if not changes:
            return doms


def bits_of(values: list[int], offset: int) -> int:
    return sum({1 << (v - offset) for v in values})


def values_of(bits: int, offset: int) -> set[int]:
    return {offset + k for k in range(bits.bit_length()) if bits >> k & 1}


@settings(max_examples=examples(300), deadline=None)
@given(small_sets, small_sets, small_sets)
def test_the_difference_filter_agrees_with_unit_equality(
    g: list[int], x: list[int], y: list[int]
) -> None:
    offsets = [min(g), min(x), min(y)]
    doms = [bits_of(vs, off) for vs, off in zip((g, x, y), offsets, strict=True)]
    fast = fixpoint(difference_filter(0, 1, 2, offsets), list(doms))
    terms = [(0, 1, offsets[0]), (1, -1, offsets[1]), (2, 1, offsets[2])]
    readable = fixpoint(unit_equality(terms, 0), list(doms))
    assert fast == readable
    # and neither loses a solution of g == x - y
    kept = [(a, b, c) for a, b, c in product(g, x, y) if a == b - c]
    if fast is None:
        assert not kept
    else:
        for a, b, c in kept:
            assert a in values_of(fast[0], offsets[0])
            assert b in values_of(fast[1], offsets[1])
            assert c in values_of(fast[2], offsets[2])


@st.composite
def rulers(draw: st.DrawFn) -> tuple[list[list[int]], dict[tuple[int, int], list[int]]]:
    """Points' domains, and domains for the differences of some pairs (every neighbour pair)."""
    n = draw(st.integers(2, 4))
    points = [
        draw(st.lists(st.integers(0, 9), min_size=1, max_size=5, unique=True)) for _ in range(n)
    ]
    gaps = {}
    for i, j in combinations(range(n), 2):
        if j == i + 1 or draw(st.booleans()):
            gaps[(i, j)] = draw(st.lists(st.integers(1, 8), min_size=1, max_size=6, unique=True))
    return points, gaps


def ruler_solutions(
    points: list[list[int]], gaps: dict[tuple[int, int], list[int]]
) -> list[tuple[int, ...]]:
    """Brute force: the points' values with every difference in its domain, all distinct."""
    found = []
    for values in product(*map(sorted, points)):
        differences = [values[j] - values[i] for i, j in gaps]
        if len(set(differences)) == len(differences) and all(
            values[j] - values[i] in gaps[(i, j)] for i, j in gaps
        ):
            found.append(values)
    return found


def ruler_model(
    points: list[list[int]], gaps: dict[tuple[int, int], list[int]]
) -> tuple[Model, list[Decision]]:
    m = Model()
    marks = [m.decision(f"m{i}", Domain.of(vs)) for i, vs in enumerate(points)]
    ds = []
    for (i, j), vs in gaps.items():
        d = m.decision(f"d{i}_{j}", Domain.of(vs))
        m.add_constraint(f"gap{i}_{j}", d == marks[j] - marks[i])
        ds.append(d)
    m.add_constraint("distinct", all_different(ds))
    return m, marks


@settings(max_examples=examples(300), deadline=None)
@given(rulers())
def test_a_ruler_model_counts_as_brute_force_does(
    ruler: tuple[list[list[int]], dict[tuple[int, int], list[int]]],
) -> None:
    points, gaps = ruler
    m, marks = ruler_model(points, gaps)
    expected = ruler_solutions(points, gaps)
    assert m.count() == len(expected)
    assert sorted(tuple(s[x] for x in marks) for s in m.solutions()) == expected


@settings(max_examples=examples(300), deadline=None)
@given(rulers())
def test_the_chain_bound_keeps_every_solution(
    ruler: tuple[list[list[int]], dict[tuple[int, int], list[int]]],
) -> None:
    points, gaps = ruler
    m, _ = ruler_model(points, gaps)
    offsets = [d.domain.offset for d in m.decisions]
    chains = distinct_distances(list(m.constraints.values()), offsets)
    assert len(chains) == (1 if len(gaps) >= 3 else 0)
    if not chains:
        return
    doms = fixpoint(chain_bounds(chains[0], offsets), [d.domain.bits for d in m.decisions])
    expected = ruler_solutions(points, gaps)
    if doms is None:
        assert not expected
        return
    for values in expected:
        for i, v in enumerate(values):
            assert v in values_of(doms[i], offsets[i])
        for k, (i, j) in enumerate(gaps):
            d = len(points) + k
            assert values[j] - values[i] in values_of(doms[d], offsets[d])


def test_a_golomb_model_is_one_chain_of_its_marks_in_order() -> None:
    model, ruler = golomb_model(6)
    offsets = [d.domain.offset for d in model.decisions]
    (chain,) = distinct_distances(list(model.constraints.values()), offsets)
    assert isinstance(chain, Chain)
    assert chain.points == [m.index for m in ruler]
    assert [model.decisions[g].name for g in chain.steps] == [f"d{i}_{i + 1}" for i in range(5)]


def test_differences_that_may_be_zero_or_negative_make_no_chain() -> None:
    m = Model()
    xs = [m.decision(f"x{i}", Domain.integer_range(0, 5)) for i in range(3)]
    ds = [m.decision(f"d{i}", Domain.integer_range(0, 5)) for i in range(3)]
    for d, (i, j) in zip(ds, combinations(range(3), 2), strict=True):
        m.add_constraint(f"t{i}{j}", d == xs[j] - xs[i])
    m.add_constraint("distinct", all_different(ds))
    offsets = [d.domain.offset for d in m.decisions]
    assert distinct_distances(list(m.constraints.values()), offsets) == []


@given(st.integers(0, 2**12 - 1), st.integers(0, 6))
def test_smallest_sum_is_the_sum_of_the_lowest_positions(bits: int, count: int) -> None:
    positions = [k for k in range(12) if bits >> k & 1]
    expected = sum(positions[:count]) if len(positions) >= count else -1
    assert smallest_sum(bits, count) == expected


@pytest.mark.parametrize(("marks", "length"), [(4, 6), (5, 11), (6, 17), (7, 25)])
def test_golomb_optima(marks: int, length: int) -> None:
    best = golomb_model(marks)[0].solve()
    assert best.quality.name == "OPTIMAL"
    assert best.objective == (length,)


def test_a_difference_inside_if_then_orders_no_points() -> None:
    m = Model()
    switch = m.decision("on", Domain.boolean())
    xs = [m.decision(f"x{i}", Domain.integer_range(0, 5)) for i in range(3)]
    ds = [m.decision(f"d{i}", Domain.integer_range(1, 5)) for i in range(3)]
    for d, (i, j) in zip(ds, combinations(range(3), 2), strict=True):
        m.add_constraint(f"t{i}{j}", if_then(switch == 1, d == xs[j] - xs[i]))
    m.add_constraint("distinct", all_different(ds))
    compiled = Propagators(m.decisions, list(m.constraints.values()))
    assert compiled.ties == []
    assert m.count() == sum(
        1
        for on, *values in product((0, 1), *(range(6),) * 3, *(range(1, 6),) * 3)
        if len(set(values[3:])) == 3
        and (
            not on
            or all(
                d == values[j] - values[i]
                for d, (i, j) in zip(values[3:], combinations(range(3), 2), strict=True)
            )
        )
    )
