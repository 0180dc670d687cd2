"""Ranking on machines: rank-first's two branches hold every schedule between them,
shaving and the ranks' order never take a value of a schedule that keeps them, and the
neighbourhood search and the proof end at the optimum a complete search proves."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.csp import Decision, Domain, Model, Quality, no_overlap
from lazyfun.csp.jobshop import FT06, JobShop, jobshop_model
from lazyfun.csp.propagation.propagators import Propagators
from lazyfun.csp.search.ranking import Ranking
from tests.budget import examples

pytestmark = pytest.mark.compiled  # run again from source by `make unit`


@st.composite
def shops(draw: st.DrawFn) -> JobShop:
    """2-3 jobs of 1-3 operations (each 1-3 long) on 2-3 machines, a job's on
    different machines."""
    machines = draw(st.integers(2, 3))
    jobs = []
    for _ in range(draw(st.integers(2, 3))):
        route = draw(st.permutations(range(machines)))[: draw(st.integers(1, machines))]
        jobs.append(tuple((machine, draw(st.integers(1, 3))) for machine in route))
    return tuple(jobs)


def _model(jobs: JobShop, horizon: int) -> tuple[Model, Propagators, Ranking, list[int]]:
    """The job shop with every job done by ``horizon``; its propagators, ranking and
    the starts' decisions."""
    m, decisions = shop_model(jobs, horizon)
    starts = [d.index for d in decisions]
    compiled = Propagators(m.decisions, list(m.constraints.values()))
    return m, compiled, Ranking(compiled.machines, compiled.offsets, compiled.propagate), starts


def shop_model(jobs: JobShop, horizon: int) -> tuple[Model, list[Decision]]:
    """The job shop with every job done by ``horizon``, without a goal, and the starts'
    decisions, operation by operation in job order."""
    m = Model()
    starts: list[Decision] = []
    on: dict[int, list[object]] = {}
    for j, job in enumerate(jobs):
        previous = None
        for k, (machine, size) in enumerate(job):
            task = m.interval(f"t{j}{k}", start=Domain.integer_range(0, horizon), size=size)
            m.add_constraint(f"t{j}{k} done", task.end <= horizon)
            if previous is not None:
                m.add_constraint(f"t{j}{k} after", previous.end <= task.start)
            on.setdefault(machine, []).append(task)
            starts.append(task.start)
            previous = task
    for machine, tasks in on.items():
        m.add_constraint(f"machine {machine}", no_overlap(tasks))  # type: ignore[arg-type]
    return m, starts


def _schedules(jobs: JobShop, horizon: int) -> list[dict[int, int]]:
    """Every schedule of the jobs done by ``horizon`` (start of each operation, by its
    place in job order: job 0's first is 0, ...), by brute force."""
    operations = [
        (j, k, machine, size) for j, job in enumerate(jobs) for k, (machine, size) in enumerate(job)
    ]
    found: list[dict[int, int]] = []

    def place(n: int, starts: list[int]) -> None:
        if n == len(operations):
            found.append(dict(enumerate(starts)))
            return
        j, k, machine, size = operations[n]
        for start in range(horizon - size + 1):
            if k and start < starts[n - 1] + jobs[j][k - 1][1]:
                continue
            if any(
                operations[o][2] == machine
                and start < starts[o] + operations[o][3]
                and starts[o] < start + size
                for o in range(n)
            ):
                continue
            place(n + 1, [*starts, start])

    place(0, [])
    return found


def _keeps(doms: list[int], values: dict[int, int], offsets: list[int]) -> bool:
    return all(doms[i] >> (v - offsets[i]) & 1 for i, v in values.items())


def _order_kept(
    values: dict[int, int], ranking: Ranking, ranks: tuple[tuple[int, int], ...]
) -> bool:
    """Whether the schedule runs each machine's ranked tasks first, in rank order."""
    for machine, seq in enumerate(ranking.sequences(ranks)):
        rest = [i for i, _ in ranking.machines[machine] if i not in seq]
        order = [*seq, *sorted(rest, key=lambda i: values[i])]
        runs = sorted(order, key=lambda i: values[i])
        if runs[: len(seq)] != seq:
            return False
    return True


@settings(max_examples=examples(150), deadline=None)
@given(shops(), st.integers(4, 7), st.data())
def test_ranking_keeps_every_schedule_of_its_ranks(
    jobs: JobShop, horizon: int, data: st.DataObject
) -> None:
    """Down a random path of rank-first branches: each schedule lies in one of the two
    branches, and the ranks' order, propagation and shaving keep every schedule that
    runs the ranked tasks in their order."""
    _, compiled, ranking, starts = _model(jobs, horizon)
    every = [{starts[n]: v for n, v in s.items()} for s in _schedules(jobs, horizon)]
    offsets = compiled.offsets
    doms = list(compiled.start)
    assert compiled.propagate(doms, range(len(doms))) or not every
    ranks: tuple[tuple[int, int], ...] = ()
    while every:
        assert ranking.enforce(doms, ranks) and ranking.shave(doms, rounds=3)
        kept = [v for v in every if _order_kept(v, ranking, ranks)]
        assert all(_keeps(doms, v, offsets) for v in kept)
        machine, task = ranking.choose(doms, ranks)
        if machine < 0:
            break
        first = ranking.first(doms, machine, task, ranks)
        later = ranking.not_first(doms, machine, task, ranks)
        assert all(_keeps(first, v, offsets) or _keeps(later, v, offsets) for v in kept)
        if data.draw(st.booleans()):
            doms, ranks = first, (*ranks, (machine, task))
            every = [v for v in kept if _order_kept(v, ranking, ranks)]
        else:
            doms = later
            every = [v for v in kept if _keeps(later, v, offsets)]
        if not compiled.propagate(doms, range(len(doms))):
            assert not every
            break


def test_shaving_finds_what_propagation_misses() -> None:
    """Three jobs of a 2 on machine 0 then a 1, a 3 and a 1 on machine 1, all done by 7:
    propagation leaves the second job free to start at 0, 1 or 2; shaving sees that it
    must start at 0 (its 3 must follow at once), as brute force does."""
    jobs = (((0, 2), (1, 1)), ((0, 2), (1, 3)), ((0, 2), (1, 1)))
    _, compiled, ranking, starts = _model(jobs, 7)
    doms = list(compiled.start)
    assert compiled.propagate(doms, range(len(doms)))
    second = starts[2]

    def values() -> list[int]:
        return [v for v in range(8) if doms[second] >> v & 1]

    assert values() == [0, 1, 2]
    assert ranking.shave(doms)
    assert values() == [0]
    assert {s[2] for s in _schedules(jobs, 7)} == {0}


@settings(max_examples=examples(100), deadline=None)
@given(shops())
def test_the_proved_makespan_is_brute_force_s_least(jobs: JobShop) -> None:
    """The stream (tabu search, then the proof) holds strictly better schedules and ends
    with a schedule, proved optimal, that brute force cannot beat: none ends sooner."""
    m, tasks, _ = jobshop_model(jobs)
    stream = m.solutions()
    results = list(stream)
    assert results[-1].quality is Quality.OPTIMAL
    objectives = [r.objective[0] for r in results[:-1]]
    assert objectives == sorted(set(objectives), reverse=True)
    best = results[-1]
    starts = [[best[t.start] for t in row] for row in tasks]
    ends = [
        [start + p for start, (_, p) in zip(row, job, strict=True)]
        for row, job in zip(starts, jobs, strict=True)
    ]
    assert all(
        b >= a
        for row_s, row_e in zip(starts, ends, strict=True)
        for a, b in zip(row_e[:-1], row_s[1:], strict=True)
    )
    runs = sorted(
        (start, end, machine)
        for job, row_s, row_e in zip(jobs, starts, ends, strict=True)
        for (machine, _), start, end in zip(job, row_s, row_e, strict=True)
    )
    for machine in {mc for job in jobs for mc, _ in job}:
        on = [(a, b) for a, b, mc in runs if mc == machine]
        assert all(b1 <= a2 for (_, b1), (a2, _) in pairwise(on))
    assert best.objective == (max(max(row) for row in ends),)
    assert not _schedules(jobs, best.objective[0] - 1)


def test_ft06_is_proved_optimal_at_55() -> None:
    model, _, _ = jobshop_model(FT06)
    stream = model.solutions()
    *_, last = stream
    assert last.quality is Quality.OPTIMAL and last.objective == (55,)
    assert stream.bound == 55
