"""A job shop: jobs routed through machines, scheduled for the least makespan.

Each job is a sequence of operations, each on one machine for a time; a job's
operations run in order, and a machine runs one operation at a time.  The
model says so with intervals (``m.interval``), their ends and starts, and
``no_overlap`` per machine; the makespan is at least every job's end, and is
minimised.  ``solutions()`` streams the schedules as they improve, and ends
with the best once more, proved optimal.

Run it::

    python examples/jobshop.py          # Fisher and Thompson's 6x6 (optimum 55)
    python examples/jobshop.py ft10     # their 10x10 (optimum 930): about 3 minutes
"""

from __future__ import annotations

import sys
import time

from lazyfun.csp import Domain, Interval, Model, Quality, Solution, no_overlap
from lazyfun.csp.jobshop import FT06, FT10, JobShop

INSTANCES = {"ft06": FT06, "ft10": FT10}


def schedule(jobs: JobShop) -> tuple[Model, list[list[Interval]]]:
    """The model: an interval per operation, the jobs' order, one task at a time on a
    machine, and the makespan to minimise; and the intervals, job by job."""
    horizon = sum(duration for job in jobs for _, duration in job)
    m = Model()
    tasks = [
        [
            m.interval(
                f"job {j} on machine {machine}", start=Domain.integer_range(0, horizon), size=d
            )
            for machine, d in job
        ]
        for j, job in enumerate(jobs)
    ]
    for j, row in enumerate(tasks):
        for k in range(1, len(row)):
            m.add_constraint(f"job {j}, step {k}", row[k - 1].end <= row[k].start)
    for machine in sorted({machine for job in jobs for machine, _ in job}):
        on_it = [
            task
            for job, row in zip(jobs, tasks, strict=True)
            for (used, _), task in zip(job, row, strict=True)
            if used == machine
        ]
        m.add_constraint(f"machine {machine}", no_overlap(on_it))
    makespan = m.decision("makespan", Domain.integer_range(0, horizon))
    for j, row in enumerate(tasks):
        m.add_constraint(f"job {j} is done", makespan >= row[-1].end)
    m.minimize(makespan)
    return m, tasks


def show(jobs: JobShop, tasks: list[list[Interval]], best: Solution) -> str:
    """Each machine's operations in time order: ``start-end job``."""
    lines = []
    for machine in sorted({machine for job in jobs for machine, _ in job}):
        runs = sorted(
            (best[task.start], best[task.start] + duration, j)
            for j, (job, row) in enumerate(zip(jobs, tasks, strict=True))
            for (used, duration), task in zip(job, row, strict=True)
            if used == machine
        )
        cells = "  ".join(f"{s:>4}-{e:<4} j{j}" for s, e, j in runs)
        lines.append(f"machine {machine}: {cells}")
    return "\n".join(lines)


def main(name: str = "ft06") -> int:
    jobs = INSTANCES[name]
    started = time.perf_counter()
    model, tasks = schedule(jobs)
    stream = model.solutions()
    best = None
    for solution in stream:
        best = solution
        seconds = time.perf_counter() - started
        if solution.quality is Quality.FEASIBLE:
            print(f"{seconds:8.2f} s  makespan {solution.objective[0]}  ({stream.nodes} nodes)")
    assert best is not None
    print(show(jobs, tasks, best))
    print(
        f"{name}: makespan {best.objective[0]} proved optimal in "
        f"{time.perf_counter() - started:.2f} s, {stream.nodes} nodes"
    )
    return best.objective[0]


if __name__ == "__main__":
    main(*sys.argv[1:2])
