"""Clause learning for large boards: the engine that does not stall at 25x25.

The depth-first engine (:mod:`lazyfun.sudoku.solving.engine`) forgets why a branch
failed.  On a unique 25x25 puzzle with about 270 givens that is fatal: the
same few contradictions are met again under thousands of unrelated choices,
and the search ran past a million failures without an answer.  A learning
search remembers each contradiction as a clause and never repeats it.

The search is conflict-driven clause learning (CDCL), over the same
question as Bird's: a variable ``(cell, value)`` says "this cell holds this
value".  Read it as the engine's four functions, plus memory:

* ``prune`` is unit propagation.  The board's own rules are never written
  as clauses; they stay bitsets, as in the engine: a placed value leaves
  its cell and its peers (naked singles follow), and a value with one place
  left in a unit goes there (hidden singles).  Learned clauses are watched
  (two literals each) and propagate too;
* ``blocked`` is a conflict: a cell with no value, a value with no place in a
  unit, or a learned clause with every literal false;
* ``expand1`` is a decision: place the open ``(cell, value)`` whose activity
  is highest (VSIDS: variables met in recent conflicts come first);
* on a conflict the search *learns*: it resolves back from the conflict to
  the first unique implication point (first UIP) of the last decision, adds
  the clause (minimised: literals the rest imply are dropped), and jumps
  back to the level where the clause forces a new literal, not just one
  level up.  Restarts (Luby sequence) keep the clauses and the activities.

Each solution is found lazily; after one, a clause ruling out its decisions
sends the search on to the next, so :func:`solve` streams every solution,
in the same set as the engine's (the order may differ), and
``count_solutions(grid, limit=2)`` proves uniqueness.

The search runs in a small C extension (``lazyfun/sudoku/solving/learning_c/``: the
learner's state, propagation, the search and the Python glue, each a file), built
with the package; it takes the board's units and peers from
:mod:`lazyfun.sudoku.board.geometry` (see :func:`learner`), releases the GIL and is
called in slices of
:data:`SLICE` conflicts, so Ctrl-C and other threads are never kept waiting.
Where no C compiler was at hand, :data:`AVAILABLE` is False and the engine
keeps its depth-first search at every size.

The same extension answers the 9x9 generator's questions in C
(``learning_c/unique9.c``): which givens of a full grid can go, orbit by orbit,
keeping the puzzle unique (:func:`minimised_9x9`), and which full grid the
depth-first engine completes a start to (:func:`completed_9x9`).  That is no clause learning, only
singles and a small depth-first search on 9-bit masks, but it lives beside the
learner to be built the same way; :mod:`lazyfun.sudoku.making.generation` uses it
when :data:`FAST_9X9` (built, and ``LAZYFUN_PURE`` not set), with the same answers
as its Python loop.  docs/sudoku.md, "The engine at
25x25", has the measurements against OR-Tools CP-SAT.

>>> from lazyfun.sudoku import parse
>>> from lazyfun.sudoku.solving.engine import is_solution
>>> puzzle = parse("1..." "..1." ".1.." "...1")
>>> grids = solve(puzzle)
>>> is_solution(puzzle, next(grids))
True
>>> sum(1 for _ in grids)  # the other 17, found only now
17
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

from lazyfun.compiled import PURE_ENV
from lazyfun.sudoku.board import geometry
from lazyfun.sudoku.board.grid import Grid, check_givens

try:
    from lazyfun.sudoku.solving._learning import Learner, complete_9x9, minimise_9x9
except ImportError:  # built without a C compiler: the engine searches depth-first
    AVAILABLE = False
else:
    AVAILABLE = True
FAST_9X9: Final = AVAILABLE and not os.environ.get(PURE_ENV)  # generation asks C at 9x9

__all__ = [
    "AVAILABLE",
    "FAST_9X9",
    "FROM_BOX",
    "SLICE",
    "Stats",
    "completed_9x9",
    "count_solutions",
    "has_solution_ruling_out",
    "learner",
    "minimised_9x9",
    "solve",
    "stats_of",
]

FROM_BOX: Final = 5  # the engine hands boards of this box size and up to the learning search
SLICE: Final = 2000  # conflicts per call into C between chances to interrupt


@dataclass(frozen=True)
class Stats:
    """What one learning search did: its work, for benchmarks and the curious."""

    conflicts: int
    decisions: int
    propagations: int
    restarts: int
    learnts: int  # kept now, after the reductions
    learnt_literals: int  # summed over every clause learned


def _built() -> None:
    if not AVAILABLE:
        raise RuntimeError(
            "the learning engine was not built (no C compiler at install time);"
            " lazyfun.sudoku.solving.engine.solve searches depth-first instead"
        )


@cache
def _geometry(box: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The units and peers of :mod:`lazyfun.sudoku.board.geometry`, flat, as the C engine
    reads them."""
    units = tuple(cell for unit in geometry.units(box) for cell in unit)
    peers = tuple(p for of in geometry.peers(box) for p in of)
    return units, peers


def learner(
    box: int,
    cells: tuple[int, ...],
    *,
    seed: int = 0,
    ruled_out: list[tuple[int, int]] | None = None,
) -> Learner:
    """A clause-learning search over the puzzle ``cells`` of box size ``box``, on the
    board's geometry (the C engine computes none of its own)."""
    _built()
    units, peers = _geometry(box)
    return Learner(  # pyright: ignore[reportPossiblyUnboundVariable] (_built raised without it)
        box, cells, units, peers, seed=seed, ruled_out=ruled_out
    )


def _learner(grid: Grid, seed: int, ruled_out: Iterable[tuple[int, int]]) -> Learner:
    check_givens(grid)
    return learner(grid.box, grid.cells, seed=seed, ruled_out=list(ruled_out))


def _found(learner: Learner) -> bool:
    """Run to the next solution (True) or to the end of the search (False)."""
    while (outcome := learner.run(SLICE)) < 0:
        pass
    return outcome == 1


def solve(
    grid: Grid, *, seed: int = 0, ruled_out: Iterable[tuple[int, int]] = ()
) -> Iterator[Grid]:
    """Every solution of ``grid``, lazily, found by clause learning.

    Raises ``PuzzleError`` at once if two givens conflict.  ``seed`` (0: none)
    perturbs the order of the first decisions; the set of solutions is the
    same for every seed.  ``ruled_out``: (cell, value) pairs no solution may hold.
    """
    learner = _learner(grid, seed, ruled_out)
    while _found(learner):
        yield Grid(learner.solution(), grid.box, grid.symbols)


def count_solutions(
    grid: Grid, limit: int | None = None, *, ruled_out: Iterable[tuple[int, int]] = ()
) -> int:
    """How many solutions ``grid`` has, stopping at ``limit`` if given.

    >>> from lazyfun.sudoku import parse
    >>> count_solutions(parse("0" * 16)), count_solutions(parse("0" * 16), limit=5)
    (288, 5)
    """
    learner = _learner(grid, 0, ruled_out)
    found = 0
    while (limit is None or found < limit) and _found(learner):
        found += 1
    return found


def has_solution_ruling_out(cells: tuple[int, ...], box: int, cell: int, value: int) -> bool:
    """Eager: whether the puzzle ``cells`` has a solution that does not put ``value`` at
    ``cell``: the question a generator asks before blanking a cell (the learning
    counterpart of :func:`lazyfun.sudoku.solving.engine.start_ruling_out`).  The cells are
    assumed consistent (taken from a solution) and are not checked.

    >>> cells = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 0)
    >>> has_solution_ruling_out(cells, 2, 15, 1), has_solution_ruling_out(cells, 2, 15, 2)
    (False, True)
    """
    return _found(learner(box, cells, ruled_out=[(cell, value)]))


def minimised_9x9(
    solution: tuple[int, ...], order: Sequence[Sequence[int]], *, minimal: bool = True
) -> tuple[int, ...]:
    """Eager, in C: the full 9x9 grid ``solution`` with its cells blanked orbit by orbit
    in the ``order`` given, each blank kept if the puzzle stays unique (without
    ``minimal``, stopping at the first orbit that has to stay): the loop of
    :func:`lazyfun.sudoku.making.generation.blank_orbits`, with its answers.

    >>> from lazyfun.sudoku.solving.engine import solve
    >>> from lazyfun.sudoku import parse, count_solutions
    >>> full = next(solve(parse("0" * 81)))
    >>> puzzle = minimised_9x9(full.cells, [(cell,) for cell in range(81)])
    >>> count_solutions(Grid(puzzle, 3), limit=2), sum(map(bool, puzzle)) < 30
    (1, True)
    """
    _built()
    return minimise_9x9(  # pyright: ignore[reportPossiblyUnboundVariable] (_built raised without it)
        solution, order, minimal
    )


def completed_9x9(cells: Sequence[int]) -> tuple[int, ...] | None:
    """Eager, in C: the first solution :func:`lazyfun.sudoku.solving.engine.depth_first` gives
    for the 9x9 puzzle ``cells``, when the engine's search meets no failure on the way to
    it; None when it does (or there is no solution): then ask the engine.  Without a
    failure the engine's failure weights stay zero, so its path depends only on the
    propagated states, which the C search computes too; after one, ties between
    branching cells go by weights that only the engine keeps.

    >>> from lazyfun.sudoku.solving.engine import depth_first
    >>> from lazyfun.sudoku import parse
    >>> completed_9x9((0,) * 81) == next(depth_first(parse("0" * 81))).cells
    True
    """
    _built()
    return complete_9x9(cells)  # pyright: ignore[reportPossiblyUnboundVariable] (_built raised)


def stats_of(grid: Grid, *, seed: int = 0) -> tuple[Grid | None, Stats]:
    """Eager: the first solution of ``grid`` (None: there is none) and the work it took."""
    learner = _learner(grid, seed, ())
    first = Grid(learner.solution(), grid.box, grid.symbols) if _found(learner) else None
    return first, Stats(**learner.stats())
