"""The first goal's linear relaxation: never cuts a better solution, on random small models.

Knapsacks with boolean and integer decisions (domains with holes, negative
values, coefficients of both signs, ``<=``, ``>=`` and ``==``, one to three
constraints), minimised or maximised, with one goal or two ranked ones:
``solve()`` finds the brute-force optimum; the relaxation, run alone on any
narrowed domains against any incumbent, keeps every assignment that beats
it; and a failure means there is none.
"""

from __future__ import annotations

import subprocess
import sys
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.csp import Domain, Model, Quality, total
from lazyfun.csp.examples import HIKING, correlated_items, golomb_model, knapsack_model
from lazyfun.csp.modelling.constraints import Expr
from lazyfun.csp.propagation.propagators import Propagators
from lazyfun.csp.propagation.relaxation import knapsacks
from tests.budget import examples

pytestmark = pytest.mark.compiled  # run again from source by `make unit`


@st.composite
def domains(draw: st.DrawFn) -> Domain:
    kind = draw(st.sampled_from(["boolean", "range", "holes"]))
    if kind == "boolean":
        return Domain.boolean()
    if kind == "range":
        low_end = draw(st.integers(-2, 2))
        return Domain.integer_range(low_end, low_end + draw(st.integers(0, 3)))
    return Domain.of(draw(st.lists(st.integers(-2, 4), min_size=1, max_size=4)))


@st.composite
def knapsack_models(draw: st.DrawFn) -> tuple[Model, int]:
    """A model whose goals are linear, with linear constraints; and its goals' count."""
    m = Model()
    n = draw(st.integers(2, 6))
    xs = [m.decision(f"x{i}", draw(domains())) for i in range(n)]
    positive = draw(st.booleans())  # the plain knapsack shape, or any signs
    coefficient = st.integers(1, 9) if positive else st.integers(-6, 9)
    for k in range(draw(st.integers(1, 3))):
        weights = draw(st.lists(coefficient, min_size=n, max_size=n))
        lhs = total(w * x for w, x in zip(weights, xs, strict=True))
        room = draw(st.integers(-5, 5 * n))
        op = draw(st.sampled_from(["<=", "<=", ">=", "=="]))
        m.add_constraint(
            f"c{k}", lhs <= room if op == "<=" else lhs >= -room if op == ">=" else lhs == room
        )
    goals = draw(st.integers(1, 2))
    for _ in range(goals):
        profits = draw(st.lists(coefficient, min_size=n, max_size=n))
        goal = total(p * x for p, x in zip(profits, xs, strict=True)) + draw(st.integers(-3, 3))
        if not goal.terms:
            goal = goal + xs[0]
        (m.maximize if draw(st.booleans()) else m.minimize)(goal)
    return m, goals


def _score(m: Model, values: tuple[int, ...]) -> tuple[int, ...]:
    """The goals' values, each as minimised."""
    signs = [sign for _, sign in m.goals]
    return tuple(
        sign * (e.constant + sum(a * values[i] for i, a in e.terms.items()))
        for (e, _), sign in zip(m.goals, signs, strict=True)
    )


def _feasible(m: Model) -> list[tuple[int, ...]]:
    return [
        values
        for values in product(*(d.domain.values for d in m.decisions))
        if all(c.holds(values) for c in m.constraints.values())
    ]


@settings(max_examples=examples(400), deadline=None)
@given(knapsack_models())
def test_solve_finds_the_brute_force_optimum(case: tuple[Model, int]) -> None:
    m, _ = case
    best = m.solve()
    feasible = _feasible(m)
    if best.values is None:
        assert best.quality is Quality.INFEASIBLE and not feasible
        return
    assert best.quality is Quality.OPTIMAL
    assert _score(m, best.values) == min(_score(m, v) for v in feasible)
    assert best.values in feasible


@st.composite
def narrowed(draw: st.DrawFn) -> tuple[Model, list[int], int]:
    """A model, domains narrowed from its own (each keeps a nonempty subset), and how far
    above the best solution within them the incumbent lies."""
    m, _ = draw(knapsack_models())
    doms = []
    for d in m.decisions:
        bits = d.domain.bits
        kept = draw(st.integers(1, bits)) & bits
        doms.append(kept or bits)
    return m, doms, draw(st.integers(-3, 6))


def _within(doms: list[int], offsets: list[int]) -> list[tuple[int, ...]]:
    return list(
        product(
            *(
                [off + k for k in range(bits.bit_length()) if bits >> k & 1]
                for bits, off in zip(doms, offsets, strict=True)
            )
        )
    )


@pytest.mark.long_from_source  # from source it reaches no line the pure pass's other tests miss
@settings(max_examples=examples(600), deadline=None)
@given(narrowed())
def test_the_relaxation_never_cuts_an_assignment_that_beats_the_incumbent(
    case: tuple[Model, list[int], int],
) -> None:
    m, doms, above = case
    compiled = Propagators(m.decisions, list(m.constraints.values()), [e * s for e, s in m.goals])
    relaxation = compiled.relaxation
    if relaxation is None:
        return
    goal = compiled.goal
    feasible = [
        values
        for values in _within(doms, compiled.offsets)
        if all(c.holds(values) for c in m.constraints.values())
    ]
    incumbent = min((goal.value(0, v) for v in feasible), default=0) + above
    goal.improve_on([incumbent] + [0] * (len(m.goals) - 1))
    limit = goal.limit()
    assert limit is not None
    better = [values for values in feasible if goal.value(0, values) <= limit]
    after = list(doms)
    changes = relaxation(after)
    if changes is None:
        assert not better
        return
    for values in better:
        for i, v in enumerate(values):
            assert after[i] >> (v - compiled.offsets[i]) & 1, (values, i)
    for i in changes:
        assert after[i] != doms[i] and after[i] & ~doms[i] == 0
    reach = relaxation.lowest(doms)
    assert reach is not None or not better
    assert all(reach is not None and reach <= goal.value(0, v) for v in better)


def _relaxation_of(m: Model) -> object:
    compiled = Propagators(m.decisions, list(m.constraints.values()), [e * s for e, s in m.goals])
    return knapsacks(compiled.goal, list(m.constraints.values()), compiled.offsets)


def test_the_shape_is_found_where_two_goal_decisions_compete_for_room() -> None:
    assert _relaxation_of(knapsack_model()[0]) is not None
    assert _relaxation_of(golomb_model(5)[0]) is None  # one goal decision: bounds suffice
    m = Model()
    x, y = (m.decision(n, Domain.integer_range(0, 5)) for n in "xy")
    m.add_constraint("room", 2 * x + 3 * y <= 7)
    m.minimize(x + y)  # growing x or y only costs: nothing competes
    assert _relaxation_of(m) is None
    m.maximize(x - y)  # ranked second: only the first goal is relaxed
    assert _relaxation_of(m) is None


def _dynamic_programming(items: list[tuple[str, int, int]], capacity: int) -> int:
    best = [0] * (capacity + 1)
    for _, w, v in items:
        for room in range(capacity, w - 1, -1):
            best[room] = max(best[room], best[room - w] + v)
    return best[capacity]


@pytest.mark.untraced
@pytest.mark.parametrize("seed", [1, 2])
def test_a_strongly_correlated_50_item_knapsack_is_proved_optimal(seed: int) -> None:
    items, capacity = correlated_items(50, seed)
    model, take = knapsack_model(items, capacity)
    stream = model.solutions()
    found = list(stream)
    best = found[-1]
    assert best.quality is Quality.OPTIMAL
    assert best.objective[0] == _dynamic_programming(items, capacity)
    assert sum(w for (_, w, _), x in zip(items, take, strict=True) if best[x]) <= capacity
    assert stream.nodes < 3000  # 2,302 and 2,264 (no restarts from Python by default)


def test_integer_decisions_share_a_budget() -> None:
    """Copies of items (0..3 each): the relaxation takes whole decisions' ranges."""
    m = Model()
    copies = [m.decision(name, Domain.integer_range(0, 3)) for name, _, _ in HIKING]
    weight: Expr = total(w * x for (_, w, _), x in zip(HIKING, copies, strict=True))
    m.add_constraint("capacity", weight <= 400)
    m.maximize(total(v * x for (_, _, v), x in zip(HIKING, copies, strict=True)))
    best = m.solve()
    expanded = [item for item in HIKING for _ in range(3)]
    assert best.quality is Quality.OPTIMAL
    assert best.objective[0] == _dynamic_programming(expanded, 400)


def test_the_knapsack_example_streams_better_loads_then_the_proved_optimum() -> None:
    script = Path(__file__).resolve().parents[2] / "examples" / "knapsack.py"
    out = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, check=True
    ).stdout
    assert "50 parcels, 25045 kg waiting, lorry takes 12522 kg" in out
    pays = [int(line.split("pay ")[1].split()[0]) for line in out.splitlines() if "  pay " in line]
    assert len(pays) > 1 and pays == sorted(set(pays)) and pays[-1] == 16022
    assert "parcel 01 to Leeds      138 kg  pays 238" in out
    assert out.rstrip().endswith("pay 16022 (quality: optimal)")
