"""Job shops: Fisher and Thompson's instances, and their model with intervals.

A job is a route of operations, each on one machine for a time, in order; a
machine runs one operation at a time.  The goal: the least makespan, the time
the last job ends.  The data are the OR-Library's (J. E. Beasley,
``jobshop1.txt``; H. Fisher and G. L. Thompson, "Probabilistic learning
combinations of local job-shop scheduling rules", 1963): each job a tuple of
``(machine, duration)`` pairs, machines counted from 0.

>>> model, tasks, makespan = jobshop_model(FT06)
>>> best = model.solve()
>>> best.quality.name, best[makespan]
('OPTIMAL', 55)
"""

from __future__ import annotations

from itertools import pairwise

from lazyfun.csp.modelling.constraints import Decision
from lazyfun.csp.modelling.domain import Domain
from lazyfun.csp.modelling.model import Model
from lazyfun.csp.modelling.scheduling import Interval, no_overlap

__all__ = ["FT06", "FT10", "JobShop", "jobshop_model"]

JobShop = tuple[tuple[tuple[int, int], ...], ...]


def _jobs(text: str) -> JobShop:
    rows = [[int(x) for x in line.split()] for line in text.strip().splitlines()]
    return tuple(tuple(zip(row[::2], row[1::2], strict=True)) for row in rows)


# Fisher and Thompson 6x6 (mt06): optimum 55.
FT06 = _jobs(
    """
    2  1  0  3  1  6  3  7  5  3  4  6
    1  8  2  5  4 10  5 10  0 10  3  4
    2  5  3  4  5  8  0  9  1  1  4  7
    1  5  0  5  2  5  3  3  4  8  5  9
    2  9  1  3  4  5  5  4  0  3  3  1
    1  3  3  3  5  9  0 10  4  4  2  1
    """
)

# Fisher and Thompson 10x10 (mt10): optimum 930.
FT10 = _jobs(
    """
    0 29 1 78 2  9 3 36 4 49 5 11 6 62 7 56 8 44 9 21
    0 43 2 90 4 75 9 11 3 69 1 28 6 46 5 46 7 72 8 30
    1 91 0 85 3 39 2 74 8 90 5 10 7 12 6 89 9 45 4 33
    1 81 2 95 0 71 4 99 6  9 8 52 7 85 3 98 9 22 5 43
    2 14 0  6 1 22 5 61 3 26 4 69 8 21 7 49 9 72 6 53
    2 84 1  2 5 52 3 95 8 48 9 72 0 47 6 65 4  6 7 25
    1 46 0 37 3 61 2 13 6 32 5 21 9 32 8 89 7 30 4 55
    2 31 0 86 1 46 5 74 4 32 6 88 8 19 9 48 7 36 3 79
    0 76 1 69 3 76 5 51 2 85 9 11 6 40 7 89 4 26 8 74
    1 85 0 13 2 61 6  7 8 64 9 76 5 47 3 52 4 90 7 45
    """
)


def jobshop_model(jobs: JobShop) -> tuple[Model, list[list[Interval]], Decision]:
    """The model of a job shop: an interval per operation (named ``j<job>m<machine>``),
    each after the one before it in its job, the operations of a machine not
    overlapping, and the makespan (at least every job's end) to minimise.

    Returns the model, the intervals job by job, and the makespan.
    """
    horizon = sum(d for job in jobs for _, d in job)
    m = Model()
    tasks: list[list[Interval]] = []
    for j, job in enumerate(jobs):
        before = 0
        after = sum(d for _, d in job)
        row = []
        for machine, duration in job:
            start = Domain.integer_range(before, horizon - after)
            row.append(m.interval(f"j{j}m{machine}", start=start, size=duration))
            before += duration
            after -= duration
        tasks.append(row)
        for k, (a, b) in enumerate(pairwise(row)):
            m.add_constraint(f"job {j} step {k + 1}", a.end <= b.start)
    machines = sorted({machine for job in jobs for machine, _ in job})
    for machine in machines:
        on = [
            t
            for job, row in zip(jobs, tasks, strict=True)
            for (mc, _), t in zip(job, row, strict=True)
            if mc == machine
        ]
        m.add_constraint(f"machine {machine}", no_overlap(on))
    longest = max(sum(d for _, d in job) for job in jobs)
    makespan = m.decision("makespan", Domain.integer_range(longest, horizon))
    for j, row in enumerate(tasks):
        m.add_constraint(f"job {j} done", makespan >= row[-1].end)
    m.minimize(makespan)
    return m, tasks, makespan
