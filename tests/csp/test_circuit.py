"""circuit: one tour through every stop, against brute force."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.csp import Domain, Model, ModelError, circuit

pytestmark = pytest.mark.compiled  # run again from source by `make unit`


def tours_by_brute_force(first: int, domains: list[list[int]]) -> list[tuple[int, ...]]:
    n = len(domains)
    found = []
    for nexts in itertools.product(*domains):
        stops = [v - first for v in nexts]
        if sorted(stops) != list(range(n)):
            continue
        stop, visited = stops[0], 1
        while stop != 0:
            stop, visited = stops[stop], visited + 1
        if visited == n:
            found.append(nexts)
    return sorted(found)


def tours(first: int, domains: list[list[int]]) -> list[tuple[int, ...]]:
    m = Model()
    after = [m.decision(f"after{k}", Domain.of(values)) for k, values in enumerate(domains)]
    m.add_constraint("tour", circuit(after, first))
    return sorted(tuple(s[d] for d in after) for s in m.solutions())


def test_n_stops_have_n_minus_1_factorial_tours() -> None:
    assert [len(tours(1, [list(range(1, n + 1))] * n)) for n in range(1, 7)] == [
        1,
        1,
        2,
        6,
        24,
        120,
    ]


@settings(max_examples=60, deadline=None)
@given(
    st.integers(-2, 1),
    st.integers(1, 6).flatmap(
        lambda n: st.lists(
            st.lists(st.integers(-3, 7), min_size=1, max_size=n + 2, unique=True),
            min_size=n,
            max_size=n,
        )
    ),
)
def test_circuit_agrees_with_brute_force(first: int, domains: list[list[int]]) -> None:
    assert tours(first, domains) == tours_by_brute_force(first, domains)


def test_circuit_refuses_what_is_not_a_tour_of_decisions() -> None:
    m = Model()
    x = m.decision("x", Domain.integer_range(0, 1))
    with pytest.raises(ModelError, match="circuit lists the same decision twice"):
        circuit([x, x])
    with pytest.raises(ModelError, match="circuit takes decisions"):
        circuit([x, 1])  # type: ignore[list-item]
