"""Sudoku: Bird's derivation (``lazyfun.sudoku.bird``) and a fast engine with its shape.

The functions a user reaches for are here; the modules that hold them are
named for what they hold: ``grid`` (the types and the grid text forms),
``formats`` (every format puzzles travel in, read by content),
``geometry`` (units and peers), ``engine`` (the fast search), ``bird`` (the
derivation), ``generation``, ``deduction`` (human-style steps), ``rating``,
``canon`` (minlex) and ``learning`` (the clause-learning search for 25x25).

>>> from lazyfun.sudoku import parse, solve
>>> puzzle = parse(
...     "006200080008970000004810500000060002070000030600050000002047100003028400050001200"
... )
>>> print(next(solve(puzzle)))
716235984528974316394816527845163792271489635639752841982647153163528479457391268
>>> print(hint(puzzle))
hidden single (box) in box 5: r5c5=8
"""

from lazyfun.sudoku.canon import equivalent, minlex
from lazyfun.sudoku.deduction import Step, hint, steps
from lazyfun.sudoku.engine import count_solutions, is_solution, is_unique, solve
from lazyfun.sudoku.formats import read, write
from lazyfun.sudoku.generation import generate
from lazyfun.sudoku.grid import (
    Grid,
    MarkedGrid,
    PuzzleError,
    UnsolvedError,
    check_givens,
    parse,
)
from lazyfun.sudoku.rating import Rating, rate

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
