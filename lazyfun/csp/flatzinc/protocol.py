"""Solving a FlatZinc model and writing its solutions in the FlatZinc protocol
(``x = 3;`` lines, ``----------``, ``==========``, ``=====UNSATISFIABLE=====``,
``=====UNKNOWN=====``), and the command line that does it."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator, Sequence
from functools import partial
from typing import TextIO

from lazyfun.csp.clauses.engine import LearningSolutions
from lazyfun.csp.clauses.portfolio import Portfolio
from lazyfun.csp.flatzinc.builder import FlatZinc
from lazyfun.csp.flatzinc.reader import read
from lazyfun.csp.flatzinc.text import FlatZincError
from lazyfun.csp.modelling.model import Learning
from lazyfun.csp.modelling.results import Quality, Solution
from lazyfun.csp.search.restarts import RESTART_NODES
from lazyfun.csp.search.solver import Solutions

__all__ = ["COMPLETE", "SOLUTION", "UNKNOWN", "UNSATISFIABLE", "main", "run", "solve"]

SOLUTION = "----------"
COMPLETE = "=========="
UNSATISFIABLE = "=====UNSATISFIABLE====="
UNKNOWN = "=====UNKNOWN====="
ROUNDS_EVERY = 2
"""Without free search, of the runs of the solver's branching, one in this many has rounds
of large neighbourhood search before it, and fewer while they find nothing better (see
:class:`lazyfun.csp.search.lns.Neighbourhoods`)."""


def _shown(v: int, boolean: bool) -> str:
    return ("true" if v else "false") if boolean else str(v)


def _lines(fz: FlatZinc, values: Sequence[int]) -> Iterator[str]:
    for o in fz.outputs:
        shown = [_shown(x if isinstance(x, int) else values[x.index], o.boolean) for x in o.values]
        if not o.dims:
            yield f"{o.name} = {shown[0]};"
        else:
            index = ", ".join(f"{lo}..{hi}" for lo, hi in o.dims)
            yield f"{o.name} = array{len(o.dims)}d({index}, [{', '.join(shown)}]);"
    yield SOLUTION


def solve(
    fz: FlatZinc,
    *,
    all_solutions: bool = False,
    time_limit: float | None = None,
    out: TextIO | None = None,
    statistics: bool = False,
    init_time: float | None = None,
    lns: bool | None = None,
    learn: Learning = False,
    portfolio: bool = True,
) -> None:
    """Solve ``fz`` and write its solutions to ``out`` in the FlatZinc protocol.

    Satisfaction: the first solution, or with ``all_solutions`` every one and
    ``==========`` when they are all found (solutions are told apart by what they
    show: one that differs only in variables not shown is not shown again).
    Optimisation: with ``all_solutions`` (MiniZinc's ``-a`` and ``-i``) each better
    solution as it is found, otherwise the best; ``==========`` once it is proved
    optimal.  The search restarts (see :mod:`lazyfun.csp.search.restarts`): the
    challenge's search annotations are often weak, and dom/wdeg's runs make up for
    it.  Once a solution is known, one in :data:`ROUNDS_EVERY` of those runs has rounds of
    large neighbourhood search before it (see :mod:`lazyfun.csp.search.lns`), and fewer
    while they find nothing better; with ``lns=True`` (MiniZinc's ``-f``, free search)
    every run is rounds instead, with ``lns=False`` none.
    With ``learn`` (``--learn``), the runs keep what they refuted as nogoods (see
    :mod:`lazyfun.csp.search.learning`); with ``learn="clauses"`` (``--clauses``), every
    failure gives a nogood (lazy clause generation: :mod:`lazyfun.csp.clauses.engine`).
    With neither, a ``time_limit`` and ``portfolio``, the search (restarts, ``lns``) takes
    the first half of the time (a satisfaction's first third) and, unless it settled the
    model, lazy clause generation the rest, from its best solution
    (:mod:`lazyfun.csp.clauses.portfolio`); not when every solution of a satisfaction
    model is asked for.
    ``time_limit`` is in seconds; ``=====UNKNOWN=====`` when it ends the search
    before a solution.
    ``statistics`` adds the search's nodes, failures, propagations and time as
    ``%%%mzn-stat:`` lines (``solveTime``: the search, compiling the constraints
    included; ``initTime``, when given: reading the model, in seconds; with ``lns``,
    ``lnsRounds``; with ``learn``, ``nogoods``).
    """
    target = out if out is not None else sys.stdout
    if fz.unsatisfiable is not None:
        target.write(UNSATISFIABLE + "\n")
        return
    satisfy = fz.goal == "satisfy"
    started = time.perf_counter()
    stream: Solutions | Portfolio = _searched(fz, time_limit, lns=lns, learn=learn)
    if portfolio and learn is False and time_limit is not None and not (satisfy and all_solutions):
        assert isinstance(stream, Solutions)
        left = time_limit - (time.perf_counter() - started)  # compiling the first counts
        second = partial(_clauses, fz)
        stream = Portfolio(stream, second, max(0.0, left), optimising=not satisfy)
    shown: tuple[int, ...] | None = None
    seen: set[str] = set()
    last: Solution | None = None
    for last in stream:
        assert last.values is not None
        if satisfy:
            _show_new(fz, last.values, target, seen)
            if not all_solutions:
                break
        elif all_solutions and last.quality is not Quality.OPTIMAL:
            shown = _show(fz, last.values, target)
    if last is None or last.values is None:
        target.write((UNKNOWN if stream.stopped_by else UNSATISFIABLE) + "\n")
    else:
        if not satisfy and last.values != shown:
            _show(fz, last.values, target)
        if (
            (all_solutions and stream.stopped_by is None)
            if satisfy
            else last.quality is Quality.OPTIMAL
        ):
            target.write(COMPLETE + "\n")
    if statistics:
        _statistics(stream, time.perf_counter() - started, init_time, target)


def _statistics(
    stream: Solutions | Portfolio, elapsed: float, init_time: float | None, target: TextIO
) -> None:
    """The search's figures as ``%%%mzn-stat:`` lines (see :func:`solve`)."""
    if init_time is not None:
        target.write(f"%%%mzn-stat: initTime={init_time:.3f}\n")
    target.write(
        f"%%%mzn-stat: nodes={stream.nodes}\n%%%mzn-stat: failures={stream.failures}\n"
        f"%%%mzn-stat: propagations={stream.propagations}\n"
        f"%%%mzn-stat: solveTime={elapsed:.3f}\n"
    )
    if stream.lns is not None:
        target.write(f"%%%mzn-stat: lnsRounds={stream.lns.rounds}\n")
    if isinstance(stream, Portfolio | LearningSolutions) or stream.learnt is not None:
        target.write(f"%%%mzn-stat: nogoods={stream.nogoods}\n")
    target.write("%%%mzn-stat-end\n")


def _searched(
    fz: FlatZinc, time_limit: float | None, *, lns: bool | None, learn: Learning = False
) -> Solutions:
    """``fz``'s solutions, searched in restarts (the challenge's branchings are often
    weak), with rounds of large neighbourhood search unless ``lns`` is False (instead of
    every run of the solver's branching when True, before one in :data:`ROUNDS_EVERY` when
    None) that set free or keep the model's own variables: those FlatZinc introduced follow
    them (unless there are no others); with ``learn``, keeping nogoods."""
    stream = fz.model.solutions(time_limit=time_limit, lns=lns is not False, learn=learn)
    stream.restart_nodes = RESTART_NODES
    if stream.lns is not None:
        stream.lns.every = 1 if lns else ROUNDS_EVERY
        own = [i for i in stream.lns.candidates if i not in fz.introduced]
        stream.lns.candidates = own or stream.lns.candidates
    return stream


def _clauses(fz: FlatZinc, time_limit: float) -> LearningSolutions:
    """``fz``'s solutions searched by lazy clause generation."""
    stream = fz.model.solutions(time_limit=time_limit, learn="clauses")
    assert isinstance(stream, LearningSolutions)
    return stream


def _show_new(fz: FlatZinc, values: tuple[int, ...], target: TextIO, seen: set[str]) -> None:
    """Show a solution unless one showing the same was shown."""
    text = "".join(line + "\n" for line in _lines(fz, values))
    if text not in seen:
        seen.add(text)
        target.write(text)
        target.flush()


def _show(fz: FlatZinc, values: tuple[int, ...], target: TextIO) -> tuple[int, ...]:
    target.write("".join(line + "\n" for line in _lines(fz, values)))
    target.flush()
    return values


def run(
    path: str,
    all_solutions: bool = False,
    time_limit: float | None = None,
    out: TextIO | None = None,
    *,
    free_search: bool = False,
    statistics: bool = False,
    learn: Learning = False,
    portfolio: bool = True,
) -> None:
    """Read the ``.fzn`` file at ``path``, solve it and write the solutions to ``out``
    (standard output by default) in the FlatZinc protocol (see :func:`solve`;
    ``time_limit`` in seconds, reading the file included: MiniZinc's limit is the
    whole run's); ``free_search`` (``-f``) leaves out the search annotations and searches
    large neighbourhoods (``lns``); ``learn`` (``--learn``) records nogoods from restarts,
    ``learn="clauses"`` (``--clauses``) learns from every failure; with neither, and
    ``portfolio`` (not ``--alone``), the time is shared with learning from every failure
    (an optimisation's second half, a satisfaction's last two thirds)."""
    started = time.perf_counter()
    fz = read(path, free_search=free_search)
    init_time = time.perf_counter() - started
    if time_limit is not None:
        time_limit = max(0.0, time_limit - init_time)
    solve(
        fz,
        all_solutions=all_solutions,
        time_limit=time_limit,
        out=out,
        statistics=statistics,
        init_time=init_time,
        lns=True if free_search else None,
        learn=learn,
        portfolio=portfolio,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m lazyfun.csp.flatzinc FILE.fzn [-a] [-i] [-t MS] [-f] [-s] [-p N]
    [--learn | --clauses | --alone]``."""
    parser = argparse.ArgumentParser(
        prog="python -m lazyfun.csp.flatzinc",
        description="Solve a FlatZinc model with lazyfun.csp.",
    )
    parser.add_argument("file", help="a .fzn file")
    parser.add_argument(
        "-a", "--all-solutions", action="store_true", help="every solution (or every better one)"
    )
    parser.add_argument(
        "-i", "--intermediate", action="store_true", help="every better solution (as -a)"
    )
    parser.add_argument(
        "-t", "--time-limit", type=int, metavar="MS", help="stop after MS milliseconds"
    )
    parser.add_argument(
        "-f",
        "--free-search",
        action="store_true",
        help="leave out the search annotations; search large neighbourhoods",
    )
    parser.add_argument(
        "-s", "--statistics", action="store_true", help="the search's nodes and time at the end"
    )
    parser.add_argument("-p", "--parallel", type=int, metavar="N", help="workers: one only")
    parser.add_argument(
        "--learn",
        action="store_true",
        help="keep what each restart refuted as nogoods, propagated by the later ones",
    )
    parser.add_argument(
        "--clauses",
        action="store_true",
        help="learn a nogood from every failure (lazy clause generation)",
    )
    parser.add_argument(
        "--alone",
        action="store_true",
        help="with a time limit, search by restarts all the time (by default, lazy clause "
        "generation takes an optimisation's second half, a satisfaction's last two thirds)",
    )
    args = parser.parse_args(argv)
    if args.parallel is not None and args.parallel > 1:
        print(f"{parser.prog}: one worker only; -p {args.parallel} is ignored", file=sys.stderr)
    try:
        run(
            args.file,
            all_solutions=args.all_solutions or args.intermediate,
            time_limit=None if args.time_limit is None else args.time_limit / 1000,
            free_search=args.free_search,
            statistics=args.statistics,
            learn="clauses" if args.clauses else args.learn,
            portfolio=not args.alone,
        )
    except (FlatZincError, OSError) as error:
        print(f"{parser.prog}: {error}", file=sys.stderr)
        return 2
    return 0
