"""How hard a puzzle is for a person: the hardest step it needs, on the Sudoku Explainer scale.

``rate(grid)`` solves the puzzle by :func:`lazyfun.sudoku.steps.deduction.steps`
(simplest technique first) and reads off the hardest step:

=========  ==============  ==================================================
level      score           what it takes
=========  ==============  ==================================================
easy       up to 2.3       singles; SE's direct pointing (1.7), direct
                           claiming (1.9), direct hidden pair (2.0)
medium     2.5 to 2.8      direct hidden triple, pointing and claiming
hard       3.0 to 4.4      pairs, triples, X-wing, swordfish, two strong
                           links (skyscraper, 2-string kite, turbot fish,
                           grouped: 4.0 to 4.3), XY/XYZ-wings
expert     4.5 to 6.5      unique rectangles and loops (4.5 to 5.0),
                           quads, jellyfish, three strong links (5.4 to
                           5.7), WXYZ-wing (5.5, 5.6), BUG (5.6), four
                           strong links (5.8 to 6.1), VWXYZ-wing (6.2 to
                           6.4)
extreme    above 6.5       the UVWXYZ-wing (6.6); SE's chains: X-, Y- and
                           XY-cycles and forcing
                           chains (6.5 to 7.0 and up), nishio (7.5),
                           multiple (8.0) and dynamic (8.5) forcing chains,
                           dynamic forcing chains (+) (9.0), with
                           forcing chains nested (9.5) and with multiple
                           forcing chains nested (10.0), each with its
                           bonus for length; or a guess was needed: the
                           ladder ended (the floor, 10.5)
=========  ==============  ==================================================

Scores are Sudoku Explainer's values for the techniques, tried in the order
SE tries them (its direct techniques before the naked single; a direct step
places the hidden single it leads to).  The strong links take SE's values by
shape; each chain step is rated by its kind and length as SE rates it (see
:mod:`lazyfun.sudoku.steps.chaining` and :mod:`lazyfun.sudoku.steps.forcing`).
Beyond the implemented ladder there is no made-up number: the rating says
``floor``, and the score is the hardest step before the first guess or
:data:`TOP`, the base of SE's first rule past the ladder (dynamic forcing
chains nested in dynamic ones, 10.5), whichever is higher: a lower bound.  (The steps after a
guess are taken on a grid Sudoku Explainer never sees, so they do not count.)
Against serate the score is serate's ER on all 100 puzzles of serate_draw100.txt
(spread over ER 1 to 9.3), all 180 of serate_sample180.txt, and the 40 of
serate_nested.txt that stay within the nested levels (10.1 to 11.5; ``make bench
BENCH=rate``): samples of public sets, in ../shared/data/sudoku/tests-data.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, get_args

from lazyfun.sudoku.board.grid import Grid, MarkedGrid, PuzzleError, UnsolvedError
from lazyfun.sudoku.solving.engine import count_solutions
from lazyfun.sudoku.steps.deduction import GUESS, Step, steps
from lazyfun.sudoku.variants import Variant

__all__ = ["LEVELS", "LEVEL_NAMES", "Level", "Rating", "rate", "rating_of"]

Level = Literal["easy", "medium", "hard", "expert", "extreme"]
LEVELS: tuple[tuple[Level, float], ...] = (
    ("easy", 2.3),
    ("medium", 2.8),
    ("hard", 4.4),
    ("expert", 6.5),
)
LEVEL_NAMES: tuple[str, ...] = get_args(Level)
TOP = 10.5  # SE's dynamic forcing chains nested in dynamic ones: past the ladder
NO_SCALE = "the Sudoku Explainer scale is defined for the classic grid and its techniques"


def _variant(variant: Variant) -> str:
    return f"a variant ({variant.kind})"


@dataclass(frozen=True, slots=True)
class Rating:
    """A puzzle's difficulty.

    ``score``: the highest Sudoku Explainer value among the steps; with
    ``floor``, guesses were needed and the score is only a lower bound.
    ``hardest``: that step's technique (``"bifurcation"`` for a guess).
    """

    score: float
    hardest: str
    level: Level
    steps: int
    guesses: int
    floor: bool


def _level(score: float, floor: bool) -> Level:
    if floor:
        return "extreme"
    for level, most in LEVELS:
        if score <= most:
            return level
    return "extreme"


def rate(grid: Grid | MarkedGrid | Variant) -> Rating:
    """The difficulty of a puzzle with one solution (eager: it walks every step); a marked
    grid is rated from its candidates.

    Raises PuzzleError for conflicting givens, and its UnsolvedError for a puzzle
    without exactly one solution (a rating of a puzzle that has several is meaningless).
    A variant is refused with the reason: the scale is the classic grid's.

    >>> from lazyfun.sudoku import parse
    >>> rate(parse("...." "34.." ".3.1" "1..4"))
    Rating(score=1.2, hardest='hidden single (box)', level='easy', steps=10, guesses=0, floor=False)
    """
    if isinstance(grid, Variant):
        raise PuzzleError(f"{_variant(grid)} has no rating: {NO_SCALE}")
    found = count_solutions(grid, limit=2)
    if found != 1:
        raise UnsolvedError(
            "more than one solution: no rating" if found else "no solution: nothing to rate",
            solutions=found,
        )
    return rating_of(steps(grid))


def rating_of(walk: Iterable[Step]) -> Rating:
    """The rating that a puzzle's steps give (eager: it reads every step); ``rate``
    without the uniqueness check, for a caller that has the steps already.  A variant
    rule's step (a cage combination, ...) is refused: the scale has no value for it."""
    hardest: tuple[float, str] = (0.0, "none")
    taken = guesses = 0
    for step in walk:
        taken += 1
        if step.technique == GUESS:
            guesses += 1
        elif step.rating is None:
            raise PuzzleError(f"a {step.technique} step has no rating: {NO_SCALE}")
        elif step.rating > hardest[0] and not guesses:
            hardest = (step.rating, step.technique)
    score, technique = hardest
    if guesses:
        score, technique = max(score, TOP), "bifurcation"
    return Rating(score, technique, _level(score, guesses > 0), taken, guesses, guesses > 0)
