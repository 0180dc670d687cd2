"""Puzzles with exactly one solution, as an endless lazy stream.

A puzzle is made in two steps, each a small named function:

* ``random_solution``: a full grid.  The boxes on the diagonal share no
  unit, so any filling of them is consistent; the engine completes them
  (drawing again in the rare case it cannot, which happens at 4x4),
  and a random relabelling of the values, shuffles of rows within bands, of
  bands, of columns within stacks and of stacks, and a random transposition
  (moves that keep a grid valid) spread the result over many grids;
* ``minimise``: blank the givens in a random order (a symmetric orbit of
  cells at a time), keeping a blank only if the puzzle stays unique.

Whether a given can go is one question to the engine.  A puzzle ``P`` has
the one solution ``S``; blanking the cells of an orbit ``O`` keeps it unique
exactly when no cell ``c`` of ``O`` can take another value than ``S[c]``::

    unique (P \\\\ O)  ==  and [null (solutions (P \\\\ O, with S[c] ruled out at c)) | c <- O]

since another solution must differ from ``S`` in a blanked cell.  Each of
these searches stops at its first solution, and usually fails fast.

One pass over the orbits makes the puzzle minimal: blanking more cells only
adds solutions, so an orbit that could not go early cannot go later either.

At 9x9 both steps have a C form with the same answers
(:func:`lazyfun.sudoku.solving.learning.completed_9x9` and
:func:`~lazyfun.sudoku.solving.learning.minimised_9x9`), used when the C
extension was built; the Python here is what they compute.

>>> first = next(generate(2, seed=1))
>>> from lazyfun.sudoku import count_solutions
>>> count_solutions(first)
1
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import count
from typing import Literal, get_args

from lazyfun.sudoku.board import geometry
from lazyfun.sudoku.board.arrangement import random_transform
from lazyfun.sudoku.board.grid import Grid, PuzzleError
from lazyfun.sudoku.solving import learning
from lazyfun.sudoku.solving.engine import depth_first, solutions, start_ruling_out
from lazyfun.sudoku.steps.rating import LEVEL_NAMES, Level, Rating, rate

__all__ = [
    "SYMMETRIES",
    "Symmetry",
    "blank_orbits",
    "check_request",
    "generate",
    "minimise",
    "of_level",
    "orbits",
    "puzzle",
    "random_solution",
    "rated",
]

Symmetry = Literal["rot180", "rot90", "mirror", "diagonal"]
SYMMETRIES: tuple[str, ...] = get_args(Symmetry)
LEVEL_TRIES = 1000  # puzzles in a row without the asked level before giving up
LOCKED_FROM = 4  # boxes from which the root of each question is pruned by locked candidates


def random_solution(box: int, rng: random.Random) -> Grid:
    """A full valid grid: the diagonal boxes filled at random, completed by the
    engine, then put under a random arrangement (relabelled, its bands, stacks and the
    lines in them shuffled, maybe transposed).

    >>> from lazyfun.sudoku import is_solution, parse
    >>> grid = random_solution(3, random.Random(7))
    >>> grid.is_complete(), is_solution(parse("0" * 81), grid)
    (True, True)
    """
    n = box * box
    full = None
    while full is None:  # a 4x4 filling can be a dead end; a 9x9 one never is
        cells = [0] * (n * n)
        for k in range(box):
            values = rng.sample(range(1, n + 1), n)
            for i, value in enumerate(values):
                row, col = k * box + i // box, k * box + i % box
                cells[row * n + col] = value
        full = _completed(cells, box)
    return random_transform(full, rng)


def _completed(cells: list[int], box: int) -> Grid | None:
    """The depth-first engine's first solution of the start ``cells`` (None: it has
    none), the same grid built or not.  At 9x9 the C search finds it when the engine's
    search would meet no failure on the way (nine starts in ten); else the engine searches."""
    if box == 3 and learning.FAST_9X9:
        found = learning.completed_9x9(cells)
        if found is not None:
            return Grid(found, 3)
    return next(depth_first(Grid(tuple(cells), box)), None)


def _image(symmetry: Symmetry, n: int, row: int, col: int) -> tuple[int, int]:
    """Where a symmetry sends the cell (row, col) of an N x N grid."""
    if symmetry == "rot180":
        return n - 1 - row, n - 1 - col
    if symmetry == "rot90":
        return col, n - 1 - row
    if symmetry == "mirror":
        return row, n - 1 - col
    return col, row


def orbits(box: int, symmetry: Symmetry | None = None) -> list[tuple[int, ...]]:
    """The cells grouped by a symmetry (one cell each without one), in reading order
    of their first cell.

    >>> orbits(2, "rot180")[:3]
    [(0, 15), (1, 14), (2, 13)]
    >>> len(orbits(3, "rot90")), len(orbits(3, "diagonal"))
    (21, 45)
    """
    n = box * box
    if symmetry is None:
        return [(cell,) for cell in range(n * n)]
    if symmetry not in SYMMETRIES:
        raise PuzzleError(f"unknown symmetry {symmetry!r}: choose {', '.join(SYMMETRIES)}")
    seen: set[int] = set()
    groups = []
    for cell in range(n * n):
        if cell in seen:
            continue
        orbit = {cell}
        row, col = divmod(cell, n)
        while True:
            row, col = _image(symmetry, n, row, col)
            if row * n + col in orbit:
                break
            orbit.add(row * n + col)
        seen |= orbit
        groups.append(tuple(sorted(orbit)))
    return groups


def _seen(cells: list[int], peers: tuple[int, ...], n: int) -> bool:
    """Whether the givens among a blank cell's peers hold N-1 values: the cell is a naked
    single, fixed without a search."""
    return len({cells[p] for p in peers} - {0}) == n - 1


def _hidden(cells: list[int], box: int, cell: int, value: int) -> bool:
    """Whether ``value`` has no other place than the blank ``cell`` in one of its units:
    every other cell of the unit is a given or sees a given ``value`` (a hidden single)."""
    peers = geometry.peer_masks(box)
    unit_masks = geometry.unit_masks(box)
    taken = 0
    for i, v in enumerate(cells):
        if v:
            taken |= 1 << i
            if v == value:
                taken |= peers[i]
    alone = 1 << cell
    return any(unit_masks[k] & ~taken == alone for k in geometry.units_of(box)[cell])


def _stays_unique(cells: list[int], box: int, solution: Grid, orbit: tuple[int, ...]) -> bool:
    """Whether the unique puzzle ``cells``, the orbit blanked, still has one solution:
    no blanked cell can take another value than the solution's.  A cell that the
    givens fix at once (a naked or hidden single) cannot; the engine is asked only
    about the others (at 25x25 its clause-learning search, which does not stall)."""
    peers, n = geometry.peers(box), box * box
    blanked = tuple(cells)
    for cell in orbit:
        value = solution.cells[cell]
        if _seen(cells, peers[cell], n) or _hidden(cells, box, cell, value):
            continue
        if box >= learning.FROM_BOX:
            if learning.has_solution_ruling_out(blanked, box, cell, value):
                return False
            continue
        root = start_ruling_out(blanked, box, cell, value, box >= LOCKED_FROM)
        if next(solutions(root), None) is not None:
            return False
    return True


def minimise(
    solution: Grid,
    rng: random.Random,
    *,
    symmetry: Symmetry | None = None,
    minimal: bool = True,
) -> Grid:
    """Blank ``solution``'s cells orbit by orbit, in a random order, keeping each blank
    that leaves the puzzle unique.  With ``minimal``, every orbit is tried (no given
    can then go); without, it stops at the first orbit that has to stay.

    At 9x9 the C routine of :func:`lazyfun.sudoku.solving.learning.minimised_9x9`
    runs the loop of :func:`blank_orbits` when it was built (the same puzzle, some
    ten times as fast); elsewhere :func:`blank_orbits` runs.
    """
    order = orbits(solution.box, symmetry)
    rng.shuffle(order)
    if solution.box == 3 and learning.FAST_9X9:
        return Grid(learning.minimised_9x9(solution.cells, order, minimal=minimal), 3)
    return blank_orbits(solution, order, minimal=minimal)


def blank_orbits(solution: Grid, order: list[tuple[int, ...]], *, minimal: bool = True) -> Grid:
    """Blank ``solution``'s cells orbit by orbit in the ``order`` given, keeping each
    blank that leaves the puzzle unique (without ``minimal``, stopping at the first
    orbit that has to stay).

    >>> grid = random_solution(2, random.Random(1))
    >>> blank_orbits(grid, orbits(2), minimal=False).givens < 16
    True
    """
    box = solution.box
    cells = list(solution.cells)
    for orbit in order:
        for cell in orbit:
            cells[cell] = 0
        if _stays_unique(cells, box, solution, orbit):
            continue
        for cell in orbit:
            cells[cell] = solution.cells[cell]
        if not minimal:
            break
    return Grid(tuple(cells), box)


def check_request(box: int, symmetry: str | None = None, level: str | None = None) -> None:
    """Refuse at once, with the reason, what :func:`generate` cannot make."""
    if box not in geometry.BOX_SIZES:
        raise PuzzleError(
            f"generate makes boxes of {', '.join(map(str, geometry.BOX_SIZES))} "
            f"(4x4, 9x9, 16x16, 25x25), not {box}"
        )
    if box >= learning.FROM_BOX and not learning.AVAILABLE:
        raise PuzzleError(
            f"generate({box}) needs the clause-learning search, which was not built (no C"
            " compiler at install time): the depth-first engine can stall proving a puzzle"
            " of this size unique"
        )
    if symmetry is not None and symmetry not in SYMMETRIES:
        raise PuzzleError(f"unknown symmetry {symmetry!r}: choose {', '.join(SYMMETRIES)}")
    if level is not None and level not in LEVEL_NAMES:
        raise PuzzleError(f"unknown level {level!r}: choose {', '.join(LEVEL_NAMES)}")
    if level is not None and box >= learning.FROM_BOX:
        raise PuzzleError(
            "levels are for 4x4 to 16x16: a 25x25 takes about half a minute to make and"
            " seconds to rate, so filtering by level could run for hours"
        )


def puzzle(
    box: int,
    seed: int,
    index: int,
    *,
    symmetry: Symmetry | None = None,
    minimal: bool = True,
) -> Grid:
    """Puzzle number ``index`` of the stream ``generate(box, seed=seed, ...)``.

    Each puzzle has its own random source, seeded by ``(seed, index)``, so a
    stream can be made in pieces or in parallel and still be the same stream.

    >>> from itertools import islice
    >>> puzzle(3, 5, 1) == list(islice(generate(3, seed=5), 2))[1]
    True
    """
    check_request(box, symmetry)
    rng = random.Random(f"lazyfun.generate:{box}:{seed}:{index}")
    return minimise(random_solution(box, rng), rng, symmetry=symmetry, minimal=minimal)


def rated(
    box: int,
    seed: int,
    index: int,
    *,
    symmetry: Symmetry | None = None,
    minimal: bool = True,
) -> tuple[Grid, Rating]:
    """Puzzle number ``index`` of a stream, with its rating (for workers that make both)."""
    grid = puzzle(box, seed, index, symmetry=symmetry, minimal=minimal)
    return grid, rate(grid)


def of_level(made: Iterator[tuple[Grid, Rating]], level: Level) -> Iterator[tuple[Grid, Rating]]:
    """The rated puzzles of one level, by filtering; gives up with the reason after
    :data:`LEVEL_TRIES` puzzles in a row of other levels."""
    misses = 0
    for grid, rating in made:
        if rating.level == level:
            misses = 0
            yield grid, rating
            continue
        misses += 1
        if misses >= LEVEL_TRIES:
            raise PuzzleError(
                f"no {level} puzzle in {LEVEL_TRIES:,} tries in a row: at this size and "
                "symmetry the generator's minimal puzzles are (almost) never that level"
            )


def generate(
    box: int = 3,
    *,
    seed: int | None = None,
    symmetry: Symmetry | None = None,
    minimal: bool = True,
    level: Level | None = None,
) -> Iterator[Grid]:
    """An endless lazy stream of puzzles with exactly one solution (take what you need).

    ``box`` 2, 3, 4 or 5 makes 4x4, 9x9, 16x16 or 25x25 puzzles (a minimal 25x25
    takes about half a minute: some 400 uniqueness questions to the clause-learning
    search).  ``seed`` makes the
    stream the same on every run and machine (without one, a random seed is
    drawn).  With ``symmetry`` (``"rot180"``, ``"rot90"``, ``"mirror"``,
    ``"diagonal"``) the givens are symmetric.  With ``minimal`` (the default)
    no given, or with a symmetry no orbit of givens, can be removed without
    losing uniqueness; without it, blanking stops at the first given that
    has to stay (quicker, more givens).  With ``level`` (see
    :mod:`lazyfun.sudoku.steps.rating`) only puzzles of that level are kept; a level
    not met in :data:`LEVEL_TRIES` puzzles in a row raises PuzzleError.

    >>> from itertools import islice
    >>> [str(p) for p in islice(generate(2, seed=3), 2)]
    ['0040030000012000', '0310400000000030']
    """
    check_request(box, symmetry, level)
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    if level is None:
        return (puzzle(box, seed, index, symmetry=symmetry, minimal=minimal) for index in count())
    made = (rated(box, seed, index, symmetry=symmetry, minimal=minimal) for index in count())
    return (grid for grid, _ in of_level(made, level))
