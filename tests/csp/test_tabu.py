"""The tabu search over machine orders: its heads are the earliest schedule of the
orders, its moves swap critical neighbours, what it yields is strictly better and
real, and the solver hands it only the models it can judge."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.csp import Quality
from lazyfun.csp.jobshop import FT06, JobShop, jobshop_model
from lazyfun.csp.propagation.filters import low
from lazyfun.csp.propagation.propagators import Propagators
from lazyfun.csp.search.shop import shop as _shop
from lazyfun.csp.search.tabu import Arc, Shop
from tests.budget import examples
from tests.csp.test_ranking import _schedules, shop_model, shops

pytestmark = pytest.mark.compiled  # run again from source by `make unit`


def _shop_of(jobs: JobShop, seed: int = 0) -> tuple[Shop, list[list[tuple[int, int]]], list[Arc]]:
    """The job shop's model read as the solver reads it, and its tabu search."""
    m, _, makespan = jobshop_model(jobs)
    constraints = list(m.constraints.values())
    compiled = Propagators(m.decisions, constraints)
    read = _shop(compiled.machines, constraints, [(makespan + 0, 1)])
    assert read is not None
    machines, arcs = read
    release = {i: compiled.offsets[i] + low(compiled.start[i]) for on in machines for i, _ in on}
    return Shop(machines, arcs, release, seed=seed), machines, arcs


def _earliest(
    machines: list[list[tuple[int, int]]],
    arcs: list[Arc],
    release: dict[int, int],
    orders: list[list[int]],
) -> dict[int, int] | None:
    """The earliest starts that keep the arcs and run each machine in its order, by
    relaxing every arc until nothing moves (None: the arcs make a cycle)."""
    size = {i: p for on in machines for i, p in on}
    every = [*arcs, *((a, b, size[a]) for seq in orders for a, b in pairwise(seq))]
    start = dict(release)
    for _ in range(len(start) + 1):
        moved = False
        for a, b, lag in every:
            if start[a] + lag > start[b]:
                start[b] = start[a] + lag
                moved = True
        if not moved:
            return start
    return None


@settings(max_examples=examples(200), deadline=None)
@given(shops(), st.data())
def test_heads_are_the_earliest_schedule_of_the_orders(jobs: JobShop, data: st.DataObject) -> None:
    """For any machine orders: the heads are the earliest starts that keep the orders
    and precedences (or both say the orders make a cycle), the makespan is the last
    end, and a task is critical exactly when its head and tail add up to it."""
    shop, machines, arcs = _shop_of(jobs)
    orders = [data.draw(st.permutations([i for i, _ in on])) for on in machines]
    earliest = _earliest(
        machines, arcs, dict(zip(shop.decision, shop.release, strict=True)), orders
    )
    assert shop.begin(orders) == (earliest is not None)
    if earliest is None:
        return
    assert {i: shop.head[k] for k, i in enumerate(shop.decision)} == earliest
    assert shop.makespan == max(shop.head[k] + shop.p[k] for k in range(shop.n))
    for u, v in shop.moves(shop.critical_blocks()):
        assert shop.after[u] == v
        assert shop.head[u] + shop.tail[u] == shop.makespan
        assert shop.head[v] + shop.tail[v] == shop.makespan


@settings(max_examples=examples(100), deadline=None)
@given(shops(), st.integers(0, 3))
def test_each_schedule_found_is_better_and_real(jobs: JobShop, seed: int) -> None:
    """From the orders jobs first to last would give, each schedule the search yields
    ends strictly sooner than the one before, its orders run it in that time, and
    none beats the least makespan."""
    shop, machines, arcs = _shop_of(jobs, seed)
    release = dict(zip(shop.decision, shop.release, strict=True))
    orders = [[i for i, _ in on] for on in machines]
    assert shop.begin(orders)
    least = jobshop_model(jobs)[0].solve().objective[0]  # proved against brute force
    last = shop.makespan
    for makespan, better in shop.walk():
        assert least <= makespan < last
        earliest = _earliest(machines, arcs, release, better)
        assert earliest is not None
        size = {i: p for on in machines for i, p in on}
        assert max(earliest[i] + size[i] for i in earliest) == makespan
        last = makespan


@pytest.mark.long_from_source  # the walk to 55 takes seconds from source; the law above walks
def test_ft06_tabu_search_reaches_55() -> None:
    """Fisher and Thompson's 6x6 from jobs in order (a makespan well above 55): one
    search reaches the optimum, 55."""
    shop, machines, _ = _shop_of(FT06)
    assert shop.begin([[i for i, _ in on] for on in machines])
    assert shop.makespan > 55
    assert min(makespan for makespan, _ in shop.walk()) == 55


def test_the_solver_hands_the_search_only_makespans_of_shops() -> None:
    """The tabu search judges a shop by its makespan: a goal of another kind, or a task
    on two machines, goes without it."""
    m, tasks, makespan = jobshop_model(FT06)
    constraints = list(m.constraints.values())
    compiled = Propagators(m.decisions, constraints)
    read = _shop(compiled.machines, constraints, [(makespan + 0, 1)])
    assert read is not None
    assert len(read[1]) == 6 * 5  # a precedence per step of each job
    ends = sum((row[-1].end for row in tasks[1:]), tasks[0][-1].end)
    assert _shop(compiled.machines, constraints, [(ends, 1)]) is None
    assert _shop(compiled.machines, constraints, [(makespan + 0, -1)]) is None
    shared = [*compiled.machines, compiled.machines[0][:2]]
    assert _shop(shared, constraints, [(makespan + 0, 1)]) is None


@settings(max_examples=examples(40), deadline=None)
@given(shops().filter(lambda jobs: sum(len(job) for job in jobs) <= 6))
def test_a_sum_of_ends_goes_by_neighbourhoods_to_the_least(jobs: JobShop) -> None:
    """With the jobs' ends summed as the goal (not a makespan: no tabu search), the
    stream still ends with brute force's least sum, proved (on up to six operations,
    for brute force's sake)."""
    horizon = sum(size for job in jobs for _, size in job)
    m, starts = shop_model(jobs, horizon)
    last_of_job = [sum(len(job) for job in jobs[: j + 1]) - 1 for j in range(len(jobs))]
    sizes = [p for job in jobs for _, p in job]
    ends = [starts[n] + sizes[n] for n in last_of_job]
    m.minimize(sum(ends[1:], ends[0]))
    *_, last = m.solutions()
    least = min(sum(s[n] + sizes[n] for n in last_of_job) for s in _schedules(jobs, horizon))
    assert last.quality is Quality.OPTIMAL and last.objective == (least,)
