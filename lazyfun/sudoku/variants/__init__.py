"""Sudoku variants: a grid plus rules, solved by the same engine.

A variant is the classic puzzle with more rules, or with its boxes replaced.  Each
rule rides on the bitset engine: as more units (hidden singles run over them too),
more peers (a placed value leaves them), neighbours (non-consecutive), or arithmetic
checks woken like units (cages, arrows, thermometers, dots, signs).

A rule is one class, and a family of alike rules one file, each registered in
:mod:`~lazyfun.sudoku.variants.rule` (the hooks every rule answers):

- :mod:`~lazyfun.sudoku.variants.units`: :data:`DIAGONALS` (Sudoku X),
  :data:`WINDOWS` (windoku), :class:`Extra` regions, :class:`Regions` (jigsaw);
- :mod:`~lazyfun.sudoku.variants.peers`: :data:`ANTI_KNIGHT`, :data:`ANTI_KING`,
  :data:`NON_CONSECUTIVE`;
- :mod:`~lazyfun.sudoku.variants.pairs`: :class:`Thermo`, :class:`Dot` (kropki),
  :class:`GreaterThan`;
- :mod:`~lazyfun.sudoku.variants.sums`: :class:`Cage` (killer), :class:`Arrow`.

:mod:`~lazyfun.sudoku.variants.variant` holds :class:`Variant` and its solving;
:mod:`~lazyfun.sudoku.variants.exchange` the ``sudoku-puzzle`` JSON format and links.

>>> from lazyfun.sudoku import parse
>>> empty = parse("." * 16)
>>> count_solutions(Variant(empty)), count_solutions(Variant(empty, (DIAGONALS,)))
(288, 48)
>>> count_solutions(Variant(empty, (ANTI_KING,)))  # no 4x4 grid keeps kings apart
0
>>> x = Variant(parse("." * 81), (DIAGONALS, ANTI_KNIGHT))
>>> answer = next(solve(x))
>>> print(answer)
123456789967812453845793216352968174671345892498127635286579341534681927719234568
>>> is_solution(x, answer)
True

``is_solution`` checks a grid against the rules directly, not through the
engine's tables: it is how the tests judge the engine.
"""

# One line a family of rules: importing it registers its rules.
from lazyfun.sudoku.variants.units import DIAGONALS, WINDOWS, Extra, Regions  # isort: skip
from lazyfun.sudoku.variants.peers import ANTI_KING, ANTI_KNIGHT, NON_CONSECUTIVE  # isort: skip
from lazyfun.sudoku.variants.sums import Arrow, Cage, sets_making  # isort: skip
from lazyfun.sudoku.variants.pairs import Dot, GreaterThan, Thermo  # isort: skip
from lazyfun.sudoku.variants.rule import (
    BESIDE,
    MAKINGS,
    RULES,
    Rule,
    pair_check,
    reach,
)
from lazyfun.sudoku.variants.variant import (
    Variant,
    count_solutions,
    is_solution,
    is_unique,
    solve,
)

__all__ = [
    "ANTI_KING",
    "ANTI_KNIGHT",
    "BESIDE",
    "DIAGONALS",
    "MAKINGS",
    "NON_CONSECUTIVE",
    "RULES",
    "WINDOWS",
    "Arrow",
    "Cage",
    "Dot",
    "Extra",
    "GreaterThan",
    "Regions",
    "Rule",
    "Thermo",
    "Variant",
    "count_solutions",
    "is_solution",
    "is_unique",
    "pair_check",
    "reach",
    "sets_making",
    "solve",
]
