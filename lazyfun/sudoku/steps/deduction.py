"""Human-style steps: the deductions a person would make, simplest first, one at a time.

``steps(grid)`` is a lazy stream of :class:`Step`: each is found only when
the consumer asks for the next one.  At each point the techniques are tried
in the order Sudoku Explainer tries them (mostly that of their ratings), and
the first that applies gives the step.  The ladder is one declared table,
:data:`LADDER` (kept in :mod:`~lazyfun.sudoku.steps.ladder`, and named here too):
each :class:`Technique` with its name, its SE rating, its family and the function
that finds it; :data:`TECHNIQUES`, :data:`RATINGS` and :data:`SINGLES` are read off
it, and so is the table in the docs (:func:`ladder_table`).  When no technique
applies, the step is a labelled guess (``"bifurcation"``), checked by the engine's
search.

Cells are numbered 0..N*N-1 in reading order; values from 1.  Candidates
start as the values no given rules out (the usual pencil marks).

A :class:`~lazyfun.sudoku.variants.Variant` is stepped through the same way:
its ladder (:func:`variant_ladder`) is the singles, then the rules' own
techniques (:func:`rule_ladder`: cage combinations, thermometers, arrows,
kropki, greater-than, non-consecutive), then the rest; every technique runs
over the variant's units and peers, and a guess is checked by the variant's
search.  The rules' techniques have no SE rating (:func:`rate` refuses a
variant).

>>> from lazyfun.sudoku.variants import Thermo, Variant
>>> from lazyfun.sudoku import parse
>>> print(hint(Variant(parse("." * 16), (Thermo(cells=(0, 1)),))))
thermometer in thermo at r1c1: r1c1<>4 r1c2<>1
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from lazyfun.sudoku.board.geometry import cell_name
from lazyfun.sudoku.board.grid import Grid, MarkedGrid, PuzzleError, UnsolvedError, drawn, grid_of
from lazyfun.sudoku.solving.engine import solve
from lazyfun.sudoku.steps.ladder import (
    LADDER,
    RATINGS,
    SE_FORCING,
    SINGLES,
    TECHNIQUES,
    Family,
    Ladder,
    Technique,
    ladder_table,
    rule_ladder,
    variant_ladder,
)
from lazyfun.sudoku.steps.ladder import VARIANT_CHAINS as VARIANT_CHAINS
from lazyfun.sudoku.steps.ladder import VARIANT_TECHNIQUES as VARIANT_TECHNIQUES
from lazyfun.sudoku.steps.state import Pair, State, values_of
from lazyfun.sudoku.variants import Rule, Variant

__all__ = [
    "GUESS",
    "LADDER",
    "RATINGS",
    "SE_FORCING",
    "SINGLES",
    "TECHNIQUES",
    "Family",
    "Position",
    "Step",
    "Technique",
    "candidates_of",
    "hint",
    "ladder_table",
    "rule_ladder",
    "steps",
    "variant_ladder",
    "walkthrough",
]


@dataclass(frozen=True, slots=True)
class Step:
    """One deduction: what it places and eliminates, and what it rests on.

    ``placements`` and ``eliminations`` are (cell, value) pairs; ``cells``
    and ``units`` (names such as ``"row 3"``, counted from 1) are what the
    deduction rests on, for highlighting; ``side`` is the grid's N.
    """

    technique: str
    placements: tuple[Pair, ...] = ()
    eliminations: tuple[Pair, ...] = ()
    cells: tuple[int, ...] = ()
    units: tuple[str, ...] = ()
    side: int = 9
    difficulty: float | None = None

    @property
    def rating(self) -> float | None:
        """The Sudoku Explainer rating of the step: its own where its technique rates
        each step (a chain, by its length), else the technique's (None for a guess)."""
        if self.difficulty is not None:
            return round(self.difficulty + 1e-9, 1)
        return RATINGS.get(self.technique)

    def __str__(self) -> str:
        where = f" in {', '.join(self.units)}" if self.units else ""
        actions = [f"{cell_name(c, self.side)}={v}" for c, v in self.placements]
        actions += [f"{cell_name(c, self.side)}<>{v}" for c, v in self.eliminations]
        return f"{self.technique}{where}: {' '.join(actions)}"


GUESS = "bifurcation"


def _solvable(s: State, values: list[int]) -> bool:
    """Whether the placed ``values`` lead to a solution (of the variant, for one)."""
    grid = Grid(tuple(values), s.box)
    try:
        if s.variant is None:
            return next(solve(grid), None) is not None
        return next(solve(grid, s.variant.tables), None) is not None
    except PuzzleError:
        return False


def _guess(s: State) -> Step:
    """No technique applies: branch on a cell with the fewest candidates, and let the
    engine's search say which value leads to a solution (labelled, never silent)."""
    cell = min((c for c, x in enumerate(s.cands) if x), key=lambda c: s.cands[c].bit_count())
    for value in values_of(s.cands[cell]):
        trial = list(s.values)
        trial[cell] = value
        if _solvable(s, trial):
            return Step(GUESS, placements=((cell, value),), cells=(cell,), side=s.n)
    raise UnsolvedError(f"no solution from here: {Grid(tuple(s.values), s.box)}")


def _ladder(techniques: Iterable[str] | None, variant: bool = False) -> Ladder:
    """The ladder, or the part of it named in ``techniques`` (in the ladder's order)."""
    full = variant_ladder() if variant else LADDER
    if techniques is None:
        return full
    wanted = set(techniques)
    unknown = wanted - {t.name for t in full}
    if unknown:
        raise ValueError(f"unknown techniques: {', '.join(sorted(unknown))}")
    return tuple(t for t in full if t.name in wanted)


def _next_step(s: State, ladder: Ladder) -> Step:
    for technique in ladder:
        found = technique.find(s)
        if found is not None:
            return Step(
                found.technique or technique.name,
                placements=found.placements,
                eliminations=found.eliminations,
                cells=found.cells,
                units=found.units,
                side=s.n,
                difficulty=found.rating,
            )
    return _guess(s)


Puzzle = Grid | MarkedGrid | Variant


def _state(puzzle: Puzzle, candidates: Mapping[int, Iterable[int]] | None) -> State:
    """Where the steps start: a grid (or variant) and the user's marks, or a marked
    grid's own."""
    if not isinstance(puzzle, MarkedGrid):
        return State(puzzle, candidates)
    if candidates is not None:
        raise ValueError("a marked grid carries its own candidates: pass no candidates")
    return State(puzzle.grid, puzzle.marks())


def hint(
    grid: Puzzle,
    candidates: Mapping[int, Iterable[int]] | None = None,
    *,
    techniques: Iterable[str] | None = None,
) -> Step | None:
    """The simplest next step from a state: the grid's placed values and, if given, the
    user's pencil marks (cell -> values still thought possible; a marked grid has its own).

    >>> from lazyfun.sudoku import parse
    >>> print(hint(parse("123." "34.." "2..." "4...")))
    full house in row 1: r1c4=4
    """
    ladder = _ladder(techniques, isinstance(grid, Variant))
    state = _state(grid, candidates)
    return None if state.solved() else _next_step(state, ladder)


def steps(
    grid: Puzzle,
    candidates: Mapping[int, Iterable[int]] | None = None,
    *,
    techniques: Iterable[str] | None = None,
) -> Iterator[Step]:
    """The steps that solve ``grid``, simplest available first, each found when asked for.

    ``techniques`` limits the ladder to the named ones (what a solver that
    knows only those would do; where they stop, a guess).  Raises PuzzleError
    at once if two givens conflict.

    >>> from lazyfun.sudoku import parse
    >>> walk = steps(parse("...." "34.." ".3.1" "1..4"))
    >>> print(next(walk))
    hidden single (box) in box 1: r1c2=1
    >>> print(next(walk))  # found only now
    full house in column 2: r4c2=2
    """
    ladder = _ladder(techniques, isinstance(grid, Variant))
    state = _state(grid, candidates)
    return _walk(state, ladder)


def candidates_of(grid: Grid | Variant) -> dict[int, tuple[int, ...]]:
    """The pencil marks of the empty cells: the values no placed peer rules out (in a
    variant, no placed value under its rules: its peers, and non-consecutive's neighbours).

    >>> candidates_of(Grid((1, 0, 0, 0) + (0,) * 12, 2))[1]
    (2, 3, 4)
    """
    if not isinstance(grid, Variant):
        return MarkedGrid.of(grid).marks()
    state = State(grid, None)
    return {c: tuple(values_of(x)) for c, x in enumerate(state.cands) if not state.values[c]}


@dataclass(frozen=True, slots=True)
class Position:
    """A step with the state it applies to: the values placed so far and the
    candidates of each cell (``(v,)`` for a placed cell), for drawing or replaying it;
    ``rules``: a variant's rules (drawn too)."""

    grid: Grid
    candidates: tuple[tuple[int, ...], ...]
    step: Step
    rules: tuple[Rule, ...] = ()

    def _repr_svg_(self) -> str | None:
        """The step drawn on its state, for Jupyter (by :mod:`lazyfun.sudoku.svg`)."""
        return drawn(self)

    def marks(self) -> dict[int, tuple[int, ...]]:
        """The candidates of the empty cells, as the ``candidates`` argument takes them."""
        return {c: marks for c, marks in enumerate(self.candidates) if not self.grid.cells[c]}


def walkthrough(
    grid: Puzzle,
    candidates: Mapping[int, Iterable[int]] | None = None,
    *,
    techniques: Iterable[str] | None = None,
) -> Iterator[Position]:
    """``steps`` with the state before each step, lazily: what a picture of a step needs.

    >>> from lazyfun.sudoku import parse
    >>> first = next(walkthrough(parse("...." "34.." ".3.1" "1..4")))
    >>> str(first.grid), first.candidates[1], str(first.step)
    ('0000340003011004', (1, 2), 'hidden single (box) in box 1: r1c2=1')
    """
    ladder = _ladder(techniques, isinstance(grid, Variant))
    state = _state(grid, candidates)
    return _positions(state, ladder, grid.grid if isinstance(grid, Variant) else grid_of(grid))


def _positions(state: State, ladder: Ladder, puzzle: Grid) -> Iterator[Position]:
    while not state.solved():
        step = _next_step(state, ladder)
        before = tuple(
            (v,) if v else tuple(values_of(bits))
            for v, bits in zip(state.values, state.cands, strict=True)
        )
        grid = Grid(tuple(state.values), state.box, puzzle.symbols)
        yield Position(grid, before, step, state.rules)
        state.apply(step.placements, step.eliminations)


def _walk(state: State, ladder: Ladder) -> Iterator[Step]:
    while not state.solved():
        step = _next_step(state, ladder)
        yield step
        state.apply(step.placements, step.eliminations)
