"""Making puzzles: unique, minimal puzzles of the classic grid
(:mod:`~lazyfun.sudoku.making.generation`), of a requested rating
(:mod:`~lazyfun.sudoku.making.climbing`) and of the variants
(:mod:`~lazyfun.sudoku.making.variant_generation`), behind one :func:`generate`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import overload

from lazyfun.sudoku.board.grid import Grid, PuzzleError
from lazyfun.sudoku.making import climbing, generation, variant_generation
from lazyfun.sudoku.making.climbing import Range
from lazyfun.sudoku.making.generation import Symmetry
from lazyfun.sudoku.steps.rating import NO_SCALE, Level
from lazyfun.sudoku.variants import Variant
from lazyfun.trace import Meter

__all__ = ["generate"]


@overload
def generate(
    box: int = 3,
    *,
    seed: int | None = None,
    symmetry: Symmetry | None = None,
    minimal: bool = True,
    level: Level | None = None,
    rating: Range | None = None,
    meter: Meter | None = None,
    variant: None = None,
) -> Iterator[Grid]: ...


@overload
def generate(
    box: int = 3,
    *,
    seed: int | None = None,
    symmetry: Symmetry | None = None,
    minimal: bool = True,
    level: Level | None = None,
    rating: Range | None = None,
    meter: Meter | None = None,
    variant: str,
) -> Iterator[Variant]: ...


def generate(
    box: int = 3,
    *,
    seed: int | None = None,
    symmetry: Symmetry | None = None,
    minimal: bool = True,
    level: Level | None = None,
    rating: Range | None = None,
    meter: Meter | None = None,
    variant: str | None = None,
) -> Iterator[Grid] | Iterator[Variant]:
    """An endless lazy stream of puzzles with exactly one solution (take what you need).

    Classic puzzles are made by :func:`lazyfun.sudoku.making.generation.generate`, which
    tells ``box``, ``seed``, ``symmetry``, ``minimal`` and ``level``.  With ``variant``
    (one of :data:`lazyfun.sudoku.making.variant_generation.KINDS`: ``"x"``,
    ``"killer"``, ...) the stream is of variants, made by
    :func:`lazyfun.sudoku.making.variant_generation.generate` (4x4 or 9x9; no symmetry
    or level).

    With ``rating=(low, high)`` the stream is of minimal puzzles that ``rate`` scores
    inside the range (Sudoku Explainer's scale), found by climbing a clue at a time
    (:func:`lazyfun.sudoku.making.climbing.made_to_rating`; ``meter`` counts the puzzles
    rated on the way); a range the ladder cannot certify, or the size cannot reach, is
    refused at once with the reason, and so is a rating for a variant.

    >>> from itertools import islice
    >>> [str(p) for p in islice(generate(2, seed=3), 2)]
    ['0040030000012000', '0310400000000030']
    >>> next(generate(2, seed=3, variant="x")).names
    ('x',)
    """
    if rating is not None:
        if variant is not None:
            raise PuzzleError(f"a variant ({variant}) has no rating: {NO_SCALE}")
        if level is not None:
            raise PuzzleError("ask for a level or a rating range, not both")
        if not minimal:
            raise PuzzleError("puzzles made to a rating are minimal: drop minimal=False")
        return climbing.made_to_rating(box, rating, seed=seed, symmetry=symmetry, meter=meter)
    if variant is None:
        return generation.generate(box, seed=seed, symmetry=symmetry, minimal=minimal, level=level)
    if symmetry is not None or level is not None:
        raise PuzzleError("symmetry and level are for classic puzzles, not variants")
    return variant_generation.generate(variant, box, seed=seed, minimal=minimal)
