"""Sudoku: Bird's derivation (``lazyfun.sudoku.bird``) and a fast engine with its shape.

The functions a user reaches for are here; the rooms that hold them are named for
what they do, each layer importing only those below it:

- ``board``: the geometry (units and peers), the grid types, the text forms and links;
- ``solving``: the fast engine and its tables, and the clause-learning search for 25x25;
- ``variants``: the rules beyond the classic ones, and the ``sudoku-puzzle`` JSON format;
- ``steps``: the human techniques, the walk of steps and hints, the rating;
- ``making`` (the generator), ``canon`` (minlex), ``svg`` (pictures) and ``bird``
  (the derivation, stage by stage).

>>> from lazyfun.sudoku import parse, solve
>>> puzzle = parse(
...     "006200080008970000004810500000060002070000030600050000002047100003028400050001200"
... )
>>> print(next(solve(puzzle)))
716235984528974316394816527845163792271489635639752841982647153163528479457391268
>>> print(hint(puzzle))
hidden single (box) in box 5: r5c5=8

``read`` takes a puzzle in any form lazyfun reads, a variant's ``sudoku-puzzle``
JSON and links with rules included, and ``solve`` answers whatever it read:

>>> from lazyfun.sudoku.variants import Cage, Variant
>>> from lazyfun.sudoku.variants.exchange import dumps, to_json
>>> killer = Variant(parse("." * 16), (Cage(cells=(0, 1), total=3),))
>>> read(dumps(to_json(killer))) == killer
True
>>> count_solutions(read(dumps(to_json(killer)))), count_solutions(parse("." * 16))
(48, 288)
"""

from typing import TYPE_CHECKING

# Each name is imported when first used (lazyfun.loading): the board and its text forms
# load without the steps, the generator or the pictures.  The first name read also
# imports lazyfun.sudoku.svg, which registers the pictures a notebook shows.
if TYPE_CHECKING:
    from lazyfun.sudoku.board.formats import parse, write
    from lazyfun.sudoku.board.grid import (
        Grid,
        MarkedGrid,
        PuzzleError,
        UnsolvedError,
        check_givens,
    )
    from lazyfun.sudoku.canon import equivalent, minlex
    from lazyfun.sudoku.making import generate
    from lazyfun.sudoku.solving.engine import count_solutions, is_solution, is_unique, solve
    from lazyfun.sudoku.steps.deduction import Step, hint, steps
    from lazyfun.sudoku.steps.rating import Rating, rate
    from lazyfun.sudoku.variants.exchange import read_puzzle as read
else:
    from lazyfun.loading import lazily

    __getattr__, __dir__ = lazily(
        __name__,
        {
            "lazyfun.sudoku.board.formats": ("parse", "write"),
            "lazyfun.sudoku.board.grid": (
                "Grid",
                "MarkedGrid",
                "PuzzleError",
                "UnsolvedError",
                "check_givens",
            ),
            "lazyfun.sudoku.canon": ("equivalent", "minlex"),
            "lazyfun.sudoku.making": ("generate",),
            "lazyfun.sudoku.solving.engine": (
                "count_solutions",
                "is_solution",
                "is_unique",
                "solve",
            ),
            "lazyfun.sudoku.steps.deduction": ("Step", "hint", "steps"),
            "lazyfun.sudoku.steps.rating": ("Rating", "rate"),
            "lazyfun.sudoku.variants.exchange": ("read_puzzle as read",),
        },
        first=("lazyfun.sudoku.svg",),
    )

__all__ = [
    "Grid",
    "MarkedGrid",
    "PuzzleError",
    "Rating",
    "Step",
    "UnsolvedError",
    "check_givens",
    "count_solutions",
    "equivalent",
    "generate",
    "hint",
    "is_solution",
    "is_unique",
    "minlex",
    "parse",
    "rate",
    "read",
    "solve",
    "steps",
    "write",
]
