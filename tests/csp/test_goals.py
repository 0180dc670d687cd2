"""Goals: a lazy stream of strictly improving solutions, ending with the proved optimum."""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.csp import Domain, Model, ModelError, Quality, Solution, maximum, total
from lazyfun.csp.examples import (
    HIKING,
    correlated_items,
    golomb_model,
    knapsack_model,
    queens_model,
)
from tests.budget import examples

pytestmark = pytest.mark.compiled  # run again from source by `make unit`


@pytest.mark.parametrize(("marks", "length"), [(4, 6), (5, 11), (6, 17), (7, 25), (8, 34)])
def test_golomb_rulers_have_their_known_optimal_lengths(marks: int, length: int) -> None:
    model, ruler = golomb_model(marks)
    best = model.solve()
    assert best.quality is Quality.OPTIMAL
    assert best.objective == (length,) and best.bound == length
    values = [best[m] for m in ruler]
    gaps = [b - a for i, a in enumerate(values) for b in values[i + 1 :]]
    assert values[0] == 0 and values[-1] == length
    assert len(set(gaps)) == len(gaps)


def _improving(stream: list[Solution], sign: int) -> None:
    """Strictly better each time, then the last once more as OPTIMAL."""
    *feasible, optimal = stream
    assert all(s.quality is Quality.FEASIBLE for s in feasible)
    assert optimal.quality is Quality.OPTIMAL
    scores = [sign * s.objective[0] for s in feasible]
    assert scores == sorted(set(scores), reverse=True)  # each lower, as minimised
    assert optimal.values == feasible[-1].values and optimal.objective == feasible[-1].objective


def test_the_hiking_knapsack_streams_improving_packings_to_the_published_1030() -> None:
    model, take = knapsack_model()
    stream = list(model.solutions())
    _improving(stream, -1)
    assert len(stream) >= 2  # best value per weight first finds 1030 at once
    best = stream[-1]
    assert best.objective == (1030,)
    packed = [w for (_, w, _), x in zip(HIKING, take, strict=True) if best[x]]
    assert sum(packed) == 396


def test_reading_stops_the_search_where_the_reader_stops() -> None:
    model, _ = golomb_model(9)
    stream = model.solutions()
    first = next(stream)
    assert first.quality is Quality.FEASIBLE and stream.nodes < 50
    assert first.bound is not None and first.bound <= 44 <= first.objective[0]


@pytest.mark.long_from_source
def test_a_limit_gives_the_best_found_with_the_bound_proved_so_far() -> None:
    model, _ = golomb_model(9)
    cut_short = model.solve(node_limit=200)
    assert cut_short.quality is Quality.FEASIBLE
    assert cut_short.bound is not None
    assert cut_short.bound <= 44 <= cut_short.objective[0]
    assert model.solve(node_limit=0).quality is Quality.UNKNOWN
    knapsack, _ = knapsack_model(*correlated_items())
    early = knapsack.solve(node_limit=100)
    assert early.quality is Quality.FEASIBLE
    assert early.bound is not None and early.objective[0] <= 16022 <= early.bound
    assert early.bound - 16022 < 100  # the relaxation's bound, not the sum of all values


def test_an_infeasible_model_with_a_goal_streams_nothing() -> None:
    m = Model()
    x = m.decision("x", Domain.integer_range(0, 3))
    m.add_constraint("none", x > 5)
    m.minimize(x)
    assert list(m.solutions()) == []
    assert m.solve().quality is Quality.INFEASIBLE


def test_goals_rank_in_the_order_set_and_maximum_is_an_expression() -> None:
    m = Model()
    xs = [m.decision(f"x{i}", Domain.integer_range(0, 3)) for i in range(3)]
    m.add_constraint("sum", total(xs) == 6)
    m.minimize(maximum(xs))  # as even as can be ...
    m.maximize(xs[0] - xs[2])  # ... then the first as large as can be against the last
    best = m.solve()
    assert best.as_dict() == {"x0": 2, "x1": 2, "x2": 2}
    assert best.objective == (2, 0)
    m2 = Model()
    ys = [m2.decision(f"y{i}", Domain.integer_range(0, 3)) for i in range(3)]
    m2.add_constraint("sum", total(ys) == 6)
    m2.maximize(ys[0] - ys[2])
    m2.minimize(maximum(ys))
    assert m2.solve().as_dict() == {"y0": 3, "y1": 3, "y2": 0}


@st.composite
def goal_models(draw: st.DrawFn) -> tuple[Model, list[tuple[list[int], int]]]:
    """Up to four small decisions, a linear constraint, and one or two linear goals."""
    m = Model()
    n = draw(st.integers(1, 4))
    xs = [
        m.decision(f"x{i}", Domain.of(draw(st.lists(st.integers(-2, 4), min_size=1, max_size=4))))
        for i in range(n)
    ]
    weights = draw(st.lists(st.integers(-2, 2), min_size=n, max_size=n))
    m.add_constraint(
        "c", total(w * x for w, x in zip(weights, xs, strict=True)) <= draw(st.integers(-3, 3))
    )
    goals = []
    for _ in range(draw(st.integers(1, 2))):
        coefficients = draw(st.lists(st.integers(-3, 3), min_size=n, max_size=n).filter(any))
        sign = draw(st.sampled_from([1, -1]))
        expr = total(c * x for c, x in zip(coefficients, xs, strict=True))
        (m.minimize if sign == 1 else m.maximize)(expr)
        goals.append((coefficients, sign))
    return m, goals


@settings(max_examples=examples(300), deadline=None)
@given(goal_models())
def test_the_optimum_is_brute_forces_and_the_stream_improves_strictly(
    case: tuple[Model, list[tuple[list[int], int]]],
) -> None:
    m, goals = case
    feasible = [
        values
        for values in product(*(d.domain.values for d in m.decisions))
        if all(c.holds(values) for c in m.constraints.values())
    ]
    stream = list(m.solutions())
    if not feasible:
        assert stream == [] and m.solve().quality is Quality.INFEASIBLE
        return

    def key(values: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(
            sign * sum(c * v for c, v in zip(cs, values, strict=True)) for cs, sign in goals
        )

    best = min(key(v) for v in feasible)
    ranked = [key(s.values) for s in stream[:-1]]  # type: ignore[arg-type]
    assert ranked == sorted(set(ranked), reverse=True)  # strictly improving, lexicographically
    assert stream[-1].quality is Quality.OPTIMAL
    assert key(stream[-1].values) == best  # type: ignore[arg-type]
    assert stream[-1].objective == tuple(sign * b for (_, sign), b in zip(goals, best, strict=True))


def test_goals_refuse_what_is_not_a_goal_and_count_refuses_a_model_with_one() -> None:
    m = Model()
    x = m.decision("x", Domain.integer_range(0, 3))
    with pytest.raises(ModelError, match="minimize takes a linear expression"):
        m.minimize(3)  # type: ignore[arg-type]
    with pytest.raises(ModelError, match="maximize takes a linear expression"):
        m.maximize(abs(x - 1))  # type: ignore[arg-type]
    with pytest.raises(ModelError, match="the goal has no decision in it"):
        m.minimize(x - x)
    with pytest.raises(ModelError, match="a decision of another model"):
        m.minimize(Model().decision("y", Domain.boolean()))
    with pytest.raises(ModelError, match="branch_on: 3 is not a decision of this model"):
        m.branch_on([3])  # type: ignore[list-item]
    m.minimize(x)
    with pytest.raises(ModelError, match="count\\(\\) is refused on a model with goals"):
        m.count()
    assert repr(m) == "Model(1 decisions, 0 constraints, 1 goals)"


def test_branch_on_keeps_the_solutions_and_changes_their_order() -> None:
    model, q = queens_model(6)
    plain = [tuple(s[x] for x in q) for s in model.solutions()]
    model.branch_on(list(reversed(q)))
    ordered = [tuple(s[x] for x in q) for s in model.solutions()]
    assert sorted(plain) == sorted(ordered) and len(plain) == 4
    assert ordered == sorted(ordered, key=lambda p: p[::-1])  # last column first, smallest first
