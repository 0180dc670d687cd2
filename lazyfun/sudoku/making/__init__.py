"""Making puzzles: unique, minimal puzzles of the classic grid
(:mod:`~lazyfun.sudoku.making.generation`) and of the variants
(:mod:`~lazyfun.sudoku.making.variant_generation`), behind one :func:`generate`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import overload

from lazyfun.sudoku.board.grid import Grid, PuzzleError
from lazyfun.sudoku.making import generation, variant_generation
from lazyfun.sudoku.making.generation import Symmetry
from lazyfun.sudoku.steps.rating import Level
from lazyfun.sudoku.variants import Variant

__all__ = ["generate"]


@overload
def generate(
    box: int = 3,
    *,
    seed: int | None = None,
    symmetry: Symmetry | None = None,
    minimal: bool = True,
    level: Level | None = None,
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
    variant: str,
) -> Iterator[Variant]: ...


def generate(
    box: int = 3,
    *,
    seed: int | None = None,
    symmetry: Symmetry | None = None,
    minimal: bool = True,
    level: Level | None = None,
    variant: str | None = None,
) -> Iterator[Grid] | Iterator[Variant]:
    """An endless lazy stream of puzzles with exactly one solution (take what you need).

    Classic puzzles are made by :func:`lazyfun.sudoku.making.generation.generate`, which
    tells ``box``, ``seed``, ``symmetry``, ``minimal`` and ``level``.  With ``variant``
    (one of :data:`lazyfun.sudoku.making.variant_generation.KINDS`: ``"x"``,
    ``"killer"``, ...) the stream is of variants, made by
    :func:`lazyfun.sudoku.making.variant_generation.generate` (4x4 or 9x9; no symmetry
    or level).

    >>> from itertools import islice
    >>> [str(p) for p in islice(generate(2, seed=3), 2)]
    ['0040030000012000', '0310400000000030']
    >>> next(generate(2, seed=3, variant="x")).names
    ('x',)
    """
    if variant is None:
        return generation.generate(box, seed=seed, symmetry=symmetry, minimal=minimal, level=level)
    if symmetry is not None or level is not None:
        raise PuzzleError("symmetry and level are for classic puzzles, not variants")
    return variant_generation.generate(variant, box, seed=seed, minimal=minimal)
