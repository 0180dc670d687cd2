"""Puzzles made to a requested rating: a climb, one clue at a time.

Random minimal puzzles mostly rate 1.2 to 4 on the Sudoku Explainer scale,
so filtering them finds a hard range by luck, if at all.  A climb looks for
it instead:

* start from a random minimal puzzle ``P`` of a random solution ``S``
  (:func:`~lazyfun.sudoku.making.generation.random_solution`,
  :func:`~lazyfun.sudoku.making.generation.minimise`) and rate it;
* change it a little, keeping ``S`` its one solution: *add* a clue of ``S``
  (half the time), or *move* one (blank a given, add a clue of ``S``
  elsewhere; the result must stay unique), then minimise again with the new
  clue tried last, so the change is not simply undone;
* rate the neighbour and keep it when it is no further from the range than
  the puzzle it came from (sideways moves walk the plateaus of equal scores);
* yield every puzzle met inside the range (once per climb), and start a new
  climb after :data:`PATIENCE` neighbours in a row that came no closer.

A puzzle is a subset of ``S``'s clues throughout, so uniqueness is one
question: ``S`` with the puzzle's blanks blanked as one orbit stays unique
(the generator's own test, in C at 9x9 when it was built).  Every puzzle
yielded is unique and minimal, and ``rate`` puts it inside the range.

The distance to the range ``[lo, hi]`` is ``lo - score`` below it,
``score - hi`` above it, and for a puzzle past the ladder (``floor``: a guess
was needed) one more than its floor's distance: harder than anything rated.

What the ladder cannot certify is refused at once, with the reason: a range
reaching above the ladder's top value without a guess (:func:`ceiling`), a
range with no technique's value in it, a range above what minimal puzzles of
the size reach (every minimal 4x4 puzzle rates 1.2: :data:`MINIMAL_4X4`), a
16x16 or 25x25 (slow to make and rate, and nearly always past the ladder).

>>> from itertools import islice
>>> from lazyfun.sudoku import rate
>>> [rate(p).score for p in islice(made_to_rating(3, (3.0, 4.4), seed=1), 2)]
[4.0, 4.0]
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from functools import cache

from lazyfun.sudoku.board.formats import parse
from lazyfun.sudoku.board.grid import Grid, PuzzleError
from lazyfun.sudoku.making.generation import (
    Symmetry,
    blank_orbits,
    check_request,
    orbits,
    random_solution,
)
from lazyfun.sudoku.solving import learning
from lazyfun.sudoku.steps import rating as ladder
from lazyfun.sudoku.steps.deduction import RATINGS
from lazyfun.sudoku.steps.rating import Rating, rate
from lazyfun.trace import Meter

__all__ = [
    "MINIMAL_4X4",
    "PATIENCE",
    "Range",
    "ceiling",
    "check_range",
    "distance",
    "made_to_rating",
    "neighbour",
    "reach",
]

Range = tuple[float, float]
MOST_BOX = 3  # ratings asked for up to 9x9
PATIENCE = 40  # neighbours in a row that come no closer before a climb starts again

# Every minimal unique 4x4 puzzle, one for each class under the Sudoku equivalences
# (minlex form): the 588 subsets of clues of the two essentially different 4x4 grids
# that are unique and minimal (4 to 6 clues; none has 7 or more) fall in these 36.
MINIMAL_4X4: tuple[str, ...] = (
    "0000000101020203", "0000000101023000", "0000000101200300", "0000000101202003",
    "0000000102000304", "0000000102000320", "0000000102003040", "0000000102003102",
    "0000000102033010", "0000001200001300", "0000001201030320", "0000001201033000",
    "0000001201034000", "0000001201300400", "0000001201303000", "0000010200000213",
    "0000010200000231", "0000010200000321", "0000010200000340", "0000010200001030",
    "0000010200002030", "0000010200003040", "0000010200030240", "0000010200201003",
    "0000010200203001", "0000010200304000", "0001002001002003", "0001002001002300",
    "0001002001003002", "0001002001003200", "0001002001003400", "0001002003004002",
    "0001002003004100", "0001010000203000", "0001012000023000", "0001020000304000",
)  # fmt: skip


def ceiling() -> float:
    """The highest score ``rate`` gives without a guess: the top of the ladder as it is
    (a puzzle past it rates ``floor``, a lower bound that certifies nothing)."""
    return float(ladder.TOP)


def reach(box: int) -> float:
    """The highest score a minimal puzzle of this box size can get from the ladder: at
    4x4, the highest rating among :data:`MINIMAL_4X4` (ratings are the same for
    equivalent puzzles); at 9x9, :func:`ceiling`.

    >>> reach(2)
    1.2
    """
    return _reach_4x4(ceiling()) if box == 2 else ceiling()


@cache
def _reach_4x4(top: float) -> float:
    """The highest rating among the minimal 4x4 classes (for the ladder whose top is
    ``top``: a ladder that changes is asked again)."""
    ratings = [rate(parse(text)) for text in MINIMAL_4X4]
    return max(top if r.floor else r.score for r in ratings)


def check_range(box: int, wanted: Range, symmetry: Symmetry | None = None) -> Range:
    """The range as two floats, or PuzzleError at once with the reason it cannot be met."""
    check_request(box, symmetry)
    try:
        lo, hi = (float(end) for end in wanted)
    except (TypeError, ValueError):
        raise PuzzleError(f"a rating range is two numbers (low, high), not {wanted!r}") from None
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise PuzzleError(f"a rating range is two finite numbers, not {lo}-{hi}")
    if lo > hi:
        raise PuzzleError(f"the rating range {lo}-{hi} is empty: its low end is above its high")
    if box > MOST_BOX:
        raise PuzzleError(
            "ratings are for 4x4 and 9x9: a minimal 16x16 takes about a second to make and"
            " rate and nearly always needs a guess on this ladder (a 25x25: half a minute),"
            " so a climb to a rating could run for hours"
        )
    top = ceiling()
    if hi > top:
        raise PuzzleError(
            f"the ladder certifies ratings up to {top:g}: a puzzle past it needs a guess, and"
            f" its rating is only a floor, so {lo:g}-{hi:g} cannot be checked"
        )
    if lo > reach(box):
        raise PuzzleError(
            f"no minimal {box * box}x{box * box} puzzle rates above {reach(box):g} with these"
            f" techniques, so none rates {lo:g}-{hi:g}"
        )
    # from the first chain on, each step is rated by its length: every value is reached
    chained = hi >= RATINGS["chains and cycles"]
    if not chained and not any(lo <= value <= hi for value in RATINGS.values()):
        values = ", ".join(f"{v:g}" for v in sorted(set(RATINGS.values())))
        raise PuzzleError(
            f"no technique of the ladder is rated {lo:g}-{hi:g} (its values: {values})"
        )
    return lo, hi


def distance(rating: Rating, wanted: Range) -> float:
    """How far a rating is from the range: 0 inside; past the ladder, beyond anything rated.

    >>> distance(Rating(4.2, "XY-wing", "hard", 30, 0, False), (5.0, 6.0))
    0.8
    >>> distance(Rating(6.5, "bifurcation", "extreme", 30, 1, True), (5.0, 6.0))
    1.5
    """
    lo, hi = wanted
    if rating.floor:
        return round(max(rating.score - hi, 0.0) + 1.0, 6)
    if rating.score < lo:
        return round(lo - rating.score, 6)
    return round(max(rating.score - hi, 0.0), 6)


def _minimised(solution: Grid, order: list[tuple[int, ...]]) -> Grid:
    """The loop of :func:`~lazyfun.sudoku.making.generation.blank_orbits` (in C at 9x9)."""
    if solution.box == 3 and learning.FAST_9X9:
        return Grid(learning.minimised_9x9(solution.cells, order), 3)
    return blank_orbits(solution, order)


def neighbour(
    grid: Grid, solution: Grid, units: list[tuple[int, ...]], rng: random.Random
) -> Grid | None:
    """A minimal puzzle of ``solution`` one change away from the minimal ``grid``: a clue
    (an orbit of ``units``) added, or moved, then the puzzle minimised with the new clue
    tried last; None when the move loses uniqueness.

    The puzzle's blanks go first, as one orbit: ``solution`` with them blanked is the
    puzzle, unique exactly when that orbit can be blanked, so the minimiser's first
    question is the uniqueness test.
    """
    cells = grid.cells
    givens = [u for u in units if cells[u[0]]]
    blanks = [u for u in units if not cells[u[0]]]
    if not blanks:
        return None
    added = rng.choice(blanks)
    keep = list(givens)
    if len(givens) > 1 and rng.random() < 0.5:
        keep.remove(rng.choice(givens))
    rng.shuffle(keep)
    clues = {c for u in keep for c in u} | set(added)
    blanked = tuple(c for c in range(len(cells)) if c not in clues)
    made = _minimised(solution, [blanked, *keep, added])
    if any(made.cells[c] for c in blanked):
        return None  # the move left a second solution
    return made


def _start(box: int, rng: random.Random, units: list[tuple[int, ...]]) -> tuple[Grid, Grid]:
    solution = random_solution(box, rng)
    order = list(units)
    rng.shuffle(order)
    return _minimised(solution, order), solution


def made_to_rating(
    box: int,
    wanted: Range,
    *,
    seed: int | None = None,
    symmetry: Symmetry | None = None,
    meter: Meter | None = None,
    per_climb: int | None = None,
) -> Iterator[Grid]:
    """An endless lazy stream of unique minimal puzzles that ``rate`` puts inside
    ``wanted`` (low, high), found by climbing (see the module); each is yielded as soon as
    it is found.  ``seed`` makes the stream the same on every run; ``meter`` counts the
    puzzles rated on the way.  A climb yields every puzzle it meets inside the range
    (neighbours: the same solution, a clue or two apart); ``per_climb`` starts a new climb
    after that many, for puzzles of more different grids.  Raises PuzzleError at once for
    a range the ladder cannot certify or the size cannot reach (:func:`check_range`)."""
    target = check_range(box, wanted, symmetry)
    if per_climb is not None and per_climb < 1:
        raise PuzzleError(f"per_climb must be at least 1, got {per_climb}")
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    rng = random.Random(f"lazyfun.generate.rating:{box}:{seed}")
    return _climbs(box, target, rng, orbits(box, symmetry), (meter, per_climb))


def _climbs(
    box: int,
    target: Range,
    rng: random.Random,
    units: list[tuple[int, ...]],
    limits: tuple[Meter | None, int | None],
) -> Iterator[Grid]:
    meter, per_climb = limits
    most = per_climb if per_climb is not None else -1
    while True:
        grid, solution = _start(box, rng, units)
        here = _rated(grid, target, meter)
        seen = {grid.cells}
        found = 0
        if here == 0:
            found += 1
            yield grid
        stale = 0
        while stale < PATIENCE and found != most:
            near = neighbour(grid, solution, units, rng)
            if near is None or near.cells in seen:
                stale += 1
                continue
            seen.add(near.cells)
            there = _rated(near, target, meter)
            if there == 0:
                found += 1
                yield near
            stale = 0 if there < here else stale + 1
            if there <= here:
                grid, here = near, there


def _rated(grid: Grid, target: Range, meter: Meter | None) -> float:
    if meter is not None:
        meter.add()
    return distance(rate(grid), target)
