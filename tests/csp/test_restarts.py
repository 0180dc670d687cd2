"""Restarts keep branch and bound's answers: strictly improving solutions, the optimum
proved, a limit's bound still a bound; each checked with runs of one branching (many
restarts) against brute force and known optima.  A satisfaction's tentative branching
restarts too: its solutions are still each found once."""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.csp import Domain, Model, Quality, Solution, all_different, total
from lazyfun.csp.examples import correlated_items, golomb_model, knapsack_model
from lazyfun.csp.search.restarts import RESTART_NODES, luby
from lazyfun.csp.search.solver import Solutions
from tests.budget import examples
from tests.csp.brute import brute_force

pytestmark = pytest.mark.compiled  # run again from source by `make unit`


def _run(stream: Solutions, nodes: int) -> list[Solution]:
    stream.restart_nodes = nodes
    return list(stream)


def test_luby_doubles_its_runs_and_repeats_what_came_before() -> None:
    terms = [luby(k) for k in range(1, 64)]
    assert terms[:15] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    for e in range(2, 6):
        end = 2**e - 1  # the sequence up to here, repeated, then twice its last term
        assert terms[end - 1] == 2 ** (e - 1)
        assert terms[end : 2 * end] == terms[:end]
        assert terms[2 * end] == 2**e


def test_from_python_one_search_by_the_models_branching_unless_it_is_a_guess() -> None:
    """Restarts cost Golomb 10 4,553 branchings against 2,801: from Python they are asked
    for (the FlatZinc front end does); a tentative branching restarts by default."""
    model, ruler = golomb_model(7)
    assert model.solutions().restart_nodes == 0
    model.branch_on(ruler, tentative=True)
    assert model.solutions().restart_nodes == RESTART_NODES


@pytest.mark.parametrize("nodes", [1, 3, 250])
def test_golomb_7_is_proved_25_whatever_the_runs(nodes: int) -> None:
    model, _ = golomb_model(7)
    stream = model.solutions()
    found = _run(stream, nodes)
    scores = [s.objective[0] for s in found[:-1]]
    assert scores == sorted(set(scores), reverse=True)
    assert found[-1].quality is Quality.OPTIMAL and found[-1].objective == (25,)


@pytest.mark.long_from_source  # from source it reaches no line the pure pass's other tests miss
def test_the_correlated_knapsack_is_proved_16022_in_short_runs() -> None:
    stream = knapsack_model(*correlated_items())[0].solutions()
    found = _run(stream, 2)
    assert found[-1].quality is Quality.OPTIMAL and found[-1].objective == (16022,)


def test_a_limit_inside_the_restarts_keeps_a_true_bound() -> None:
    """Stopped while restarting, the bound is the whole model's: never below the optimum."""
    model = knapsack_model(*correlated_items())[0]
    stream = model.solutions(node_limit=100)
    found = _run(stream, 20)  # four runs: 20, 20, 40 and 20 branchings
    best = found[-1]
    assert best.quality is Quality.FEASIBLE and stream.stopped_by == "node_limit"
    assert stream.bound is not None and best.objective[0] <= 16022 <= stream.bound


@st.composite
def goal_models(draw: st.DrawFn) -> Model:
    """Up to four decisions, a linear constraint or an all_different, a weighted sum to
    minimise or maximise."""
    m = Model()
    n = draw(st.integers(1, 4))
    xs = [m.decision(f"x{i}", Domain.integer_range(0, draw(st.integers(1, 4)))) for i in range(n)]
    if draw(st.booleans()) and n > 1:
        m.add_constraint("distinct", all_different(xs))
    weights = draw(st.lists(st.integers(-3, 3), min_size=n, max_size=n))
    cap = total(w * x for w, x in zip(weights, xs, strict=True))
    m.add_constraint("cap", cap <= draw(st.integers(-2, 6)))
    gains = draw(st.lists(st.integers(-4, 4), min_size=n, max_size=n).filter(lambda g: any(g)))
    goal = total(g * x for g, x in zip(gains, xs, strict=True))
    if draw(st.booleans()):
        m.minimize(goal)
    else:
        m.maximize(goal)
    return m


@settings(max_examples=examples(200), deadline=None)
@given(goal_models(), st.sampled_from([1, 2, 7]))
def test_restarts_reach_brute_forces_optimum(m: Model, nodes: int) -> None:
    values = [
        v
        for v in product(*(d.domain.values for d in m.decisions))
        if all(c.holds(v) for c in m.constraints.values())
    ]
    found = _run(m.solutions(), nodes)
    if not values:
        assert found == []
        return
    assert found[-1].quality is Quality.OPTIMAL
    assert found[-1].values in values
    plain = _run(m.solutions(), 0)
    assert found[-1].objective == plain[-1].objective
    objectives = [s.objective for s in found[:-1]]
    assert len(objectives) == len(set(objectives))


@st.composite
def tentative_models(draw: st.DrawFn) -> Model:
    """Up to four decisions, a linear constraint or an all_different, no goal, and a
    tentative branching on some of them."""
    m = Model()
    n = draw(st.integers(1, 4))
    xs = [m.decision(f"x{i}", Domain.integer_range(0, draw(st.integers(1, 4)))) for i in range(n)]
    if draw(st.booleans()) and n > 1:
        m.add_constraint("distinct", all_different(xs))
    weights = draw(st.lists(st.integers(-3, 3), min_size=n, max_size=n))
    m.add_constraint("cap", total(w * x for w, x in zip(weights, xs, strict=True)) <= 3)
    chosen = draw(st.lists(st.sampled_from(xs), unique=True, min_size=1))
    m.branch_on(chosen, variable="first_fail", tentative=True)
    return m


@settings(max_examples=examples(100), deadline=None)
@given(tentative_models(), st.sampled_from([1, 2, 7]))
def test_a_tentative_branching_finds_each_solution_once(m: Model, nodes: int) -> None:
    values = brute_force(m)
    found = [s.values for s in _run(m.solutions(), nodes)]
    assert sorted(v for v in found if v is not None) == sorted(values)
    assert len(found) == len(values)
