"""What the solver reads off a scheduling model before it searches: whether moving a
task earlier never harms (a *regular* model, where SetTimes may postpone tasks and
ranking applies; see :mod:`lazyfun.csp.search.ranking`), whether it is a shop the
tabu search can judge (see :mod:`lazyfun.csp.search.tabu`), and so which of the
scheduling searches apply (:func:`schedulers`); and the budgets the solver gives them."""

from __future__ import annotations

from collections.abc import Sequence

from lazyfun.csp.modelling.constraints import Constraint, Expr, Linear
from lazyfun.csp.modelling.scheduling import Cumulative, NoOverlap
from lazyfun.csp.propagation.disjunctive import SetTimes
from lazyfun.csp.propagation.propagators import Propagators
from lazyfun.csp.search.ranking import Ranking
from lazyfun.csp.search.tabu import Arc

__all__ = [
    "FIRST_NODES",
    "FREE_MACHINES",
    "PATIENCE",
    "RUNS",
    "TARGET_NODES",
    "TRY_NODES",
    "earlier_keeps",
    "precedence",
    "regular",
    "schedulers",
    "shop",
]

# The neighbourhood search for a schedule's bound (see lazyfun.csp.search.ranking): the
# branchings the first schedule may take, the machines left free to re-rank, the
# branchings a try may take, and how many tries in a row may find nothing better.
FIRST_NODES = 3_000
FREE_MACHINES = 3
TRY_NODES = 300
PATIENCE = 40
# Where the model is a shop the tabu search can judge, the searches in a row that
# may find nothing better.
RUNS = 3
# Then targets below the best schedule, with shaving (see lazyfun.csp.search.solver): the
# branchings each may take.
TARGET_NODES = 2_000


def schedulers(
    compiled: Propagators,
    constraints: Sequence[Constraint],
    goals: Sequence[tuple[Expr, int]],
    annotated: bool,
) -> tuple[SetTimes | None, Ranking | None, tuple[list[list[tuple[int, int]]], list[Arc]] | None]:
    """The scheduling searches that apply: SetTimes where there are tasks and no
    branching of the model's (``annotated``), rank-first where SetTimes may postpone
    and every machine is a no_overlap with tasks, the tabu search where that is a shop
    it can judge (see :func:`shop`)."""
    set_times = (
        SetTimes(
            compiled.tasks,
            compiled.sizes,
            compiled.offsets,
            postpone=not compiled.optional and regular(constraints, goals),
        )
        if compiled.tasks and not annotated
        else None
    )
    machines = compiled.machines
    ranking = (
        Ranking(machines, compiled.offsets, compiled.propagate)
        if set_times is not None
        and set_times.postpone
        and machines
        and all(machines)
        and not any(isinstance(c, Cumulative) for c in constraints)
        else None
    )
    judged = shop(machines, constraints, goals) if ranking is not None and goals else None
    return set_times, ranking, judged


def regular(constraints: Sequence[Constraint], goals: Sequence[tuple[Expr, int]]) -> bool:
    """Whether a task that could start earlier can be moved there without harm: the first
    goal minimises a sum that grows with its decisions (a makespan, the ends), the
    resources' tasks have fixed sizes, and each other constraint is an inequality that
    moving a start earlier keeps (see :func:`earlier_keeps`)."""
    if not goals or any(a * goals[0][1] < 0 for a in goals[0][0].terms.values()):
        return False
    resources = [c for c in constraints if isinstance(c, NoOverlap | Cumulative)]
    if any(x.parts()[1] >= 0 for c in resources for x in c.intervals):
        return False
    starts = {x.start.index for c in resources for x in c.intervals}
    return all(
        isinstance(c, NoOverlap | Cumulative)
        or (isinstance(c, Linear) and earlier_keeps(c, starts))
        for c in constraints
    )


def earlier_keeps(c: Linear, starts: set[int]) -> bool:
    """Whether ``c``, read as ``sum a_i x_i + k <= 0`` (or ``< 0``), holds still when a
    start moves earlier: each start's coefficient is positive (a deadline, ``end <=
    makespan``), or ``c`` is a precedence of two starts with a lag of at least 0 (the
    later one's earliest start then already waits for the earlier; see
    :func:`precedence`)."""
    if c.op in ("==", "!="):
        return False
    sign = -1 if c.op in (">=", ">") else 1
    if all(sign * a > 0 for i, a in c.expr.terms.items() if i in starts):
        return True
    arc = precedence(c, starts)
    return arc is not None and arc[2] >= 0


def precedence(c: Linear, starts: set[int]) -> Arc | None:
    """``c`` as a precedence ``x_b >= x_a + lag`` of two starts, ``(a, b, lag)``; None
    when it is not one."""
    if c.op in ("==", "!="):
        return None
    sign = -1 if c.op in (">=", ">") else 1
    terms = {i: sign * a for i, a in c.expr.terms.items()}
    if sorted(terms.values()) != [-1, 1] or not set(terms) <= starts:
        return None
    (a,) = [i for i, x in terms.items() if x == 1]
    (b,) = [i for i, x in terms.items() if x == -1]
    return a, b, sign * c.expr.constant + (1 if c.op in ("<", ">") else 0)


def shop(
    machines: Sequence[Sequence[tuple[int, int]]],
    constraints: Sequence[Constraint],
    goals: Sequence[tuple[Expr, int]],
) -> tuple[list[list[tuple[int, int]]], list[Arc]] | None:
    """The machines and precedences for the tabu search (see :mod:`lazyfun.csp.search.tabu`),
    when the model is a shop it can judge: each task on one machine, and the first
    goal a makespan (one decision, minimised, that is no task's start); else None."""
    tasks = [[(i, p) for i, p in on if p > 0] for on in machines]
    starts = [i for on in tasks for i, _ in on]
    if len(starts) != len(set(starts)) or len(goals) != 1:
        return None
    expr, sign = goals[0]
    terms = list(expr.terms.items())
    if len(terms) != 1 or terms[0][1] * sign <= 0 or terms[0][0] in starts:
        return None
    on_machines = set(starts)
    arcs = [
        arc
        for c in constraints
        if isinstance(c, Linear)
        for arc in [precedence(c, on_machines)]
        if arc is not None
    ]
    return tasks, arcs
