"""Intervals, no_overlap and cumulative against brute force on small random models."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.csp import Domain, Interval, Model, ModelError, cumulative, no_overlap
from lazyfun.csp.modelling.constraints import Decision
from lazyfun.csp.propagation.propagators import Propagators
from tests.budget import examples
from tests.csp.brute import brute_force

pytestmark = pytest.mark.compiled  # run again from source by `make unit`


@st.composite
def schedules(draw: st.DrawFn) -> Model:
    """2 to 5 intervals over small horizons, some optional, some of a size decided,
    under a no_overlap or a cumulative, with a precedence now and then."""
    m = Model()
    intervals: list[Interval] = []
    for k in range(draw(st.integers(2, 5))):
        low = draw(st.integers(0, 3))
        start = Domain.integer_range(low, low + draw(st.integers(0, 4)))
        size: int | Decision = draw(st.integers(0, 3))
        if draw(st.booleans()) and k % 2:
            size = m.decision(f"p{k}", Domain.integer_range(0, draw(st.integers(0, 3))))
        present = m.decision(f"b{k}", Domain.boolean()) if draw(st.booleans()) else None
        intervals.append(m.interval(f"t{k}", start=start, size=size, present=present))
    if draw(st.booleans()):
        m.add_constraint("machine", no_overlap(intervals))
    else:
        demands = [draw(st.integers(0, 3)) for _ in intervals]
        m.add_constraint("resource", cumulative(intervals, demands, draw(st.integers(0, 4))))
    if draw(st.booleans()):
        a, b = draw(st.permutations(intervals))[:2]
        m.add_constraint("before", a.end <= b.start)
    return m


@pytest.mark.untraced  # from source under the tracer, 0.6 s an example
@settings(max_examples=examples(300), deadline=None)
@given(schedules())
def test_the_count_is_the_brute_force_count(m: Model) -> None:
    expected = brute_force(m)
    assert m.count() == len(expected)
    assert sorted(s.values for s in m.solutions() if s.values is not None) == expected


@settings(max_examples=examples(300), deadline=None)
@given(schedules(), st.data())
def test_propagation_keeps_every_value_of_a_solution(m: Model, data: st.DataObject) -> None:
    """From the full domains or a random narrowing of them, the propagators never remove
    a value some solution inside the narrowed domains takes."""
    compiled = Propagators(m.decisions, list(m.constraints.values()))
    doms = list(compiled.start)
    for i, bits in enumerate(doms):
        keep = data.draw(st.integers(1, bits))
        if keep & bits:
            doms[i] = keep & bits
    inside = [
        v
        for v in brute_force(m)
        if all(doms[i] >> (x - compiled.offsets[i]) & 1 for i, x in enumerate(v))
    ]
    ok = compiled.propagate(doms, range(len(doms)))
    if not ok:
        assert not inside
        return
    for v in inside:
        for i, x in enumerate(v):
            assert doms[i] >> (x - compiled.offsets[i]) & 1, (m.decisions[i], x)


def test_an_interval_s_start_size_and_end_are_expressions() -> None:
    m = Model()
    a = m.interval("a", start=Domain.integer_range(0, 5), size=2)
    b = m.interval("b", start=Domain.integer_range(0, 5), size=m.decision("n", Domain.of([1, 3])))
    m.add_constraint("machine", no_overlap([a, b]))
    m.add_constraint("a first", a.end <= b.start)
    m.add_constraint("b ends at 5", b.end == 5)
    found = sorted((s["a"], s["b"], s["n"]) for s in m.solutions())
    assert found == [(0, 2, 3), (0, 4, 1), (1, 4, 1), (2, 4, 1)]


def test_a_size_expression_is_a_hidden_decision() -> None:
    m = Model()
    n = m.decision("n", Domain.integer_range(1, 3))
    a = m.interval("a", start=Domain.integer_range(0, 3), size=n + 1)
    b = m.interval("b", start=Domain.integer_range(0, 3), size=1)
    m.add_constraint("machine", no_overlap([a, b]))
    assert set(m.solve().as_dict()) == {"n", "a", "b"}
    assert m.count() == len(brute_force(m))


def test_an_absent_interval_constrains_nothing() -> None:
    m = Model()
    here = m.decision("here", Domain.boolean())
    a = m.interval("a", start=Domain.integer_range(0, 2), size=3, present=here)
    b = m.interval("b", start=Domain.integer_range(0, 2), size=3)
    m.add_constraint("machine", no_overlap([a, b]))
    found = sorted((s["here"], s["a"], s["b"]) for s in m.solutions())
    assert found == [(0, a, b) for a in range(3) for b in range(3)]


def test_an_optional_interval_that_cannot_fit_is_absent() -> None:
    m = Model()
    here = m.decision("here", Domain.boolean())
    a = m.interval("a", start=Domain.integer_range(0, 2), size=3, present=here)
    b = m.interval("b", start=Domain.integer_range(0, 2), size=4)
    m.add_constraint("machine", no_overlap([a, b]))
    compiled = Propagators(m.decisions, list(m.constraints.values()))
    doms = list(compiled.start)
    assert compiled.propagate(doms, range(len(doms)))
    assert doms[here.index] == 1  # only 0 is left


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda m: m.interval("a", start=Domain.integer_range(0, 3), size=-1), "negative size"),
        (
            lambda m: m.interval(
                "a", start=Domain.integer_range(0, 3), size=m.decision("s", Domain.of([-1, 2]))
            ),
            "may be negative",
        ),
        (
            lambda m: m.interval(
                "a",
                start=Domain.integer_range(0, 3),
                size=1,
                present=m.decision("p", Domain.of([0, 2])),
            ),
            "must be 0/1",
        ),
        (
            lambda m: no_overlap([m.interval("a", start=Domain.of([0]), size=1), 3]),  # type: ignore[list-item]
            "takes intervals",
        ),
        (
            lambda m: no_overlap(
                [
                    m.interval("a", start=Domain.of([0]), size=1),
                    Model().interval("b", start=Domain.of([0]), size=1),
                ]
            ),
            "two models",
        ),
        (
            lambda m: cumulative([m.interval("a", start=Domain.of([0]), size=1)], [1, 2], 3),
            "2 demands for 1 intervals",
        ),
        (
            lambda m: cumulative([m.interval("a", start=Domain.of([0]), size=1)], [-1], 3),
            "negative demand",
        ),
        (
            lambda m: cumulative([m.interval("a", start=Domain.of([0]), size=1)], [1], -2),
            "negative capacity",
        ),
    ],
)
def test_bad_models_fail_where_they_are_made(make: object, message: str) -> None:
    with pytest.raises(ModelError, match=message):
        make(Model())  # type: ignore[operator]


def test_an_interval_of_another_model_is_refused() -> None:
    other = Model().interval("a", start=Domain.of([0]), size=1)
    m = Model()
    with pytest.raises(ModelError, match="another model"):
        m.add_constraint("machine", no_overlap([other]))


@st.composite
def shops(draw: st.DrawFn) -> tuple[Model, Decision]:
    """Small job shops (2-3 jobs of 1-3 operations on 2 machines, some optional when
    drawn so; an operation waits 0-2 after the one before it, some at most one more)
    with the makespan to minimise."""
    m = Model()
    machines: dict[int, list[Interval]] = {0: [], 1: []}
    makespan = m.decision("makespan", Domain.integer_range(0, 12))
    for j in range(draw(st.integers(2, 3))):
        previous = None
        for k in range(draw(st.integers(1, 3))):
            present = None
            if draw(st.integers(0, 4)) == 0:
                present = m.decision(f"b{j}{k}", Domain.boolean())
            task = m.interval(
                f"t{j}{k}",
                start=Domain.integer_range(0, 8),
                size=draw(st.integers(1, 3)),
                present=present,
            )
            machines[draw(st.integers(0, 1))].append(task)
            if previous is not None:
                lag = draw(st.integers(0, 2))
                m.add_constraint(f"t{j}{k} after", previous.end + lag <= task.start)
                if draw(st.integers(0, 3)) == 0:  # a maximum lag: moving earlier may break it
                    m.add_constraint(f"t{j}{k} soon", task.start <= previous.end + lag + 1)
            m.add_constraint(f"t{j}{k} done", makespan >= task.end)
            previous = task
    for machine, tasks in machines.items():
        m.add_constraint(f"machine {machine}", no_overlap(tasks))
    return m, makespan


@settings(max_examples=examples(400), deadline=None)
@given(shops())
def test_the_optimal_makespan_is_the_one_a_complete_search_proves(
    shop: tuple[Model, Decision],
) -> None:
    """SetTimes (postponing tasks when every interval is present and the lags keep a task
    free to move earlier) proves the least makespan that branching on every value, in
    order, proves."""
    m, makespan = shop
    m.minimize(makespan)
    best = m.solve()
    m.branch_on(m.decisions)  # a branching order given: no SetTimes
    assert best.objective == m.solve().objective
