"""The globals lazyfun's ``mznlib`` hands over whole (see
:mod:`~lazyfun.csp.flatzinc.solver_config`): MiniZinc's ``circuit``, ``table``,
``cumulative``, ``disjunctive``, ``lex_less`` and ``lex_lesseq`` arrive as
``lazyfun_circuit``, ``lazyfun_table_int``, ``lazyfun_cumulative``,
``lazyfun_disjunctive`` and ``lazyfun_lex_less_int`` (and the like) and are posted as
lazyfun's own constraints (``all_different`` arrives as
``fzn_all_different_int``, read by :mod:`~lazyfun.csp.flatzinc.builtins`)."""

from __future__ import annotations

from collections.abc import Sequence

from lazyfun.csp.flatzinc.builder import Builder, Value, builtin
from lazyfun.csp.modelling.constraints import AllDifferent, Decision
from lazyfun.csp.modelling.relations import circuit, lex_less, lex_less_equal, table
from lazyfun.csp.modelling.scheduling import Interval, cumulative, no_overlap

__all__ = ["decisions_of"]


def decisions_of(b: Builder, xs: Sequence[Decision | int]) -> list[Decision]:
    """Each of ``xs`` as a decision: a number as a new decision fixed to it."""
    return [x if isinstance(x, Decision) else b.fresh(x, x) for x in xs]


@builtin("lazyfun_circuit")
def _circuit(b: Builder, args: Sequence[Value]) -> None:
    """``lazyfun_circuit(x, first)``: ``x[k]`` the stop after stop ``k``, stops numbered
    from ``first``; posted with an ``all_different`` of the successors."""
    stops = decisions_of(b, b.array(args[0]))
    first = b.var(args[1])
    if isinstance(first, Decision):
        raise b.fail("lazyfun_circuit: the first stop must be a number")
    if len({d.index for d in stops}) != len(stops):
        b.post(False)
        return
    b.post(AllDifferent(stops))
    b.post(circuit(stops, first))


@builtin("lazyfun_table_int", "lazyfun_table_bool")
def _table(b: Builder, args: Sequence[Value]) -> None:
    """``lazyfun_table_int(x, t)``: ``x`` is one of the rows of ``t`` (its rows flattened
    into one array, ``len(x)`` values each)."""
    xs, flat = decisions_of(b, b.array(args[0])), b.array(args[1])
    width = len(xs)
    if any(isinstance(v, Decision) for v in flat) or (width and len(flat) % width):
        raise b.fail(f"lazyfun_table: {len(flat)} numbers are not rows of {width}")
    values = [v for v in flat if isinstance(v, int)]
    if not width:
        return
    b.post(table(xs, [values[k : k + width] for k in range(0, len(values), width)]))


def _nonnegative(b: Builder, x: Decision | int) -> Decision | int:
    """``x``, or when its domain reaches below 0 a decision over its values 0 or more tied
    to it (the mznlib has said it is 0 or more)."""
    if isinstance(x, int) or x.domain.low >= 0:
        return x
    cut = b.fresh(0, max(x.domain.high, 0))
    b.post(cut == x)
    return cut


def _tasks(b: Builder, starts: Value, sizes: Value) -> list[Interval]:
    """The intervals of ``starts`` and ``sizes``."""
    begin, length = decisions_of(b, b.array(starts)), b.array(sizes)
    if len(begin) != len(length):
        raise b.fail(f"{len(begin)} starts for {len(length)} durations")
    tasks = []
    for start, size in zip(begin, length, strict=True):
        size = _nonnegative(b, size)
        b.count += 1
        tasks.append(b.model.interval(f"_task#{b.count}", start, size))
    return tasks


@builtin("lazyfun_disjunctive")
def _disjunctive(b: Builder, args: Sequence[Value]) -> None:
    """``lazyfun_disjunctive(s, d)``: no two tasks of positive duration overlap."""
    tasks = _tasks(b, args[0], args[1])
    if tasks:
        b.post(no_overlap(tasks))


@builtin("lazyfun_cumulative")
def _cumulative(b: Builder, args: Sequence[Value]) -> None:
    """``lazyfun_cumulative(s, d, r, c)``: the tasks running at any time use at most ``c``
    (a number) of the resource."""
    tasks, demands, capacity = _tasks(b, args[0], args[1]), b.array(args[2]), b.var(args[3])
    if isinstance(capacity, Decision):
        raise b.fail("lazyfun_cumulative: the capacity must be a number")
    if len(demands) != len(tasks):
        raise b.fail(f"lazyfun_cumulative: {len(demands)} demands for {len(tasks)} tasks")
    if tasks:
        b.post(cumulative(tasks, [_nonnegative(b, r) for r in demands], capacity))


@builtin("lazyfun_lex_less_int", "lazyfun_lex_less_bool")
def _lex_less(b: Builder, args: Sequence[Value]) -> None:
    """``lazyfun_lex_less_int(x, y)``: ``x`` comes strictly before ``y`` in lexicographic
    order."""
    xs, ys = decisions_of(b, b.array(args[0])), decisions_of(b, b.array(args[1]))
    b.post(lex_less(xs, ys) if xs or ys else False)


@builtin("lazyfun_lex_lesseq_int", "lazyfun_lex_lesseq_bool")
def _lex_less_equal(b: Builder, args: Sequence[Value]) -> None:
    """``lazyfun_lex_lesseq_int(x, y)``: ``x`` comes before ``y`` in lexicographic order,
    or equals it."""
    xs, ys = decisions_of(b, b.array(args[0])), decisions_of(b, b.array(args[1]))
    if xs or ys:
        b.post(lex_less_equal(xs, ys))
