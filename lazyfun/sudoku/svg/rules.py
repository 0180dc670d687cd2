"""A variant's rules drawn on its grid: what :mod:`lazyfun.sudoku.svg` adds for a variant.

Each rule draws itself the way puzzle books and f-puzzles draw it (its class's
``draw_under`` and ``draw_over``, in the rule's own file), in two layers: under the
grid lines, the shapes cells sit on (the extra regions and windows shaded grey, the
diagonals, the thermometers and the arrows); over them, the marks on cell borders
(each killer cage a dashed outline, its sum in its first cell's corner; kropki dots;
greater-than signs).  A jigsaw's regions get the thick lines the boxes would have.
Rules of the whole grid (anti-knight, anti-king, non-consecutive) have nothing to draw
on: they are named in a caption under the grid.

Every element carries the class ``rule`` and the rule's kind (``rule cage``,
``rule thermo``, ``rule dot white``, ...), so a test or a stylesheet can find them.
"""

from __future__ import annotations

from collections.abc import Iterable

from lazyfun.drawing import Fragment
from lazyfun.sudoku.variants import Rule

__all__ = ["caption", "over", "under"]


def under(svg: Fragment, rules: Iterable[Rule], box: int, cell: int) -> None:
    """The shapes under the grid lines: regions, diagonals, thermometers, arrows."""
    for rule in rules:
        rule.draw_under(svg, box, cell)


def over(svg: Fragment, rules: Iterable[Rule], box: int, cell: int) -> None:
    """The marks over the grid lines: cages and their sums, dots, signs."""
    for rule in rules:
        rule.draw_over(svg, box, cell)


def caption(rules: Iterable[Rule]) -> str:
    """The rules of the whole grid that have no shape to draw, named."""
    return ", ".join(r.name for r in rules if r.in_caption())
