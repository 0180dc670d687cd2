"""Sudoku: Bird's derivation (``lazyfun.sudoku.bird``) and a fast engine with its shape.

>>> from lazyfun.sudoku import parse, solve
>>> puzzle = parse(
...     "006200080008970000004810500000060002070000030600050000002047100003028400050001200"
... )
>>> print(next(solve(puzzle)))
716235984528974316394816527845163792271489635639752841982647153163528479457391268
"""

from lazyfun.sudoku.canon import equivalent, minlex
from lazyfun.sudoku.engine import count_solutions, is_solution, is_unique, solve
from lazyfun.sudoku.grid import Grid, PuzzleError, check_givens, parse

__all__ = [
    "Grid",
    "PuzzleError",
    "check_givens",
    "count_solutions",
    "equivalent",
    "is_solution",
    "is_unique",
    "minlex",
    "parse",
    "solve",
]
