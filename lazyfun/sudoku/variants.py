"""Sudoku variants: a grid plus rules, solved by the same engine.

A variant is the classic puzzle with more rules, or with its boxes replaced.
Each rule here is *more units* or *more peers*, so it rides on the bitset
engine at full speed: the engine's tables gain the rule's units (hidden
singles run over them too), its extra peers (a placed value leaves them), or
its neighbours (non-consecutive: a placed value leaves the values one above
and one below it in the cells beside it).

- :data:`DIAGONALS` (Sudoku X): each main diagonal holds every value once;
- :data:`WINDOWS` (windoku, hyper): the boxes set one cell in from the
  corners of the classic boxes (four on a 9x9) are units too;
- :class:`Regions` (jigsaw, irregular): a region map replaces the boxes;
- :data:`ANTI_KNIGHT`, :data:`ANTI_KING`: cells a chess knight's (king's)
  move apart never hold the same value;
- :data:`NON_CONSECUTIVE`: cells side by side never hold consecutive values.

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

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property

from lazyfun.sudoku import engine
from lazyfun.sudoku.geometry import cell_name, units
from lazyfun.sudoku.grid import Grid, PuzzleError

__all__ = [
    "ANTI_KING",
    "ANTI_KNIGHT",
    "DIAGONALS",
    "NON_CONSECUTIVE",
    "RULES",
    "WINDOWS",
    "Regions",
    "Rule",
    "Variant",
    "count_solutions",
    "is_solution",
    "is_unique",
    "solve",
]

KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
KING = ((1, 1), (1, -1), (-1, 1), (-1, -1), (0, 1), (1, 0), (0, -1), (-1, 0))
BESIDE = ((0, 1), (1, 0), (0, -1), (-1, 0))


@dataclass(frozen=True)
class Rule:
    """A rule beyond the classic ones, by its name (``x``, ``windoku``, ...)."""

    name: str

    def units(self, box: int) -> tuple[tuple[int, ...], ...]:
        """The cell groups the rule makes hold every value once."""
        if self.name == "x":
            n = box * box
            return (
                tuple(r * n + r for r in range(n)),
                tuple(r * n + n - 1 - r for r in range(n)),
            )
        if self.name == "windoku":
            return _windows(box)
        return ()

    def moves(self) -> tuple[tuple[int, int], ...]:
        """The (row, column) steps between cells that may not share a value."""
        return {"anti-knight": KNIGHT, "anti-king": KING}.get(self.name, ())


DIAGONALS = Rule("x")
WINDOWS = Rule("windoku")
ANTI_KNIGHT = Rule("anti-knight")
ANTI_KING = Rule("anti-king")
NON_CONSECUTIVE = Rule("non-consecutive")


@dataclass(frozen=True)
class Regions(Rule):
    """Jigsaw: ``regions[cell]`` numbers the region of each cell (0..N-1), N cells
    each; the regions replace the boxes."""

    name: str = field(default="jigsaw", init=False)
    regions: tuple[int, ...] = ()

    def units(self, box: int) -> tuple[tuple[int, ...], ...]:
        n = box * box
        return tuple(tuple(c for c, r in enumerate(self.regions) if r == k) for k in range(n))

    def check(self, box: int) -> None:
        """Raise ``PuzzleError`` unless the map gives N regions of N cells."""
        n = box * box
        if len(self.regions) != n * n:
            raise PuzzleError(f"jigsaw: the region map has {len(self.regions)} cells, not {n * n}")
        for cell, r in enumerate(self.regions):
            if not 0 <= r < n:
                raise PuzzleError(
                    f"jigsaw: {cell_name(cell, n)} is in region {r}, not one of 0..{n - 1}"
                )
        for k, unit in enumerate(self.units(box)):
            if len(unit) != n:
                raise PuzzleError(f"jigsaw: region {k} has {len(unit)} cells, not {n}")


RULES = {r.name: r for r in (DIAGONALS, WINDOWS, ANTI_KNIGHT, ANTI_KING, NON_CONSECUTIVE)}
"""The rules without parameters, by name (jigsaw needs its map: :class:`Regions`)."""


def _windows(box: int) -> tuple[tuple[int, ...], ...]:
    """Box-sized squares one cell in from the corners of the classic boxes."""
    n = box * box
    starts = range(1, n - box + 1, box + 1)
    return tuple(
        tuple((top + r) * n + left + c for r in range(box) for c in range(box))
        for top in starts
        for left in starts
    )


def _steps(n: int, moves: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    """For each cell, the cells one of ``moves`` away, on the board."""
    return tuple(
        tuple((r + dr) * n + c + dc for dr, dc in moves if 0 <= r + dr < n and 0 <= c + dc < n)
        for r in range(n)
        for c in range(n)
    )


@dataclass(frozen=True)
class Variant:
    """A puzzle (its givens) and its rules beyond rows, columns and boxes.

    The givens are checked against every rule when the variant is made:
    two givens that break a rule raise ``PuzzleError`` naming both.
    """

    grid: Grid
    rules: tuple[Rule, ...] = ()

    def __post_init__(self) -> None:
        for rule in self.rules:
            if isinstance(rule, Regions):
                rule.check(self.grid.box)
            elif rule not in RULES.values():
                raise PuzzleError(f"unknown rule {rule.name!r}; known: {', '.join(RULES)}, jigsaw")
        _check_givens(self)

    @property
    def names(self) -> tuple[str, ...]:
        """The rules' names."""
        return tuple(r.name for r in self.rules)

    @cached_property
    def units(self) -> tuple[tuple[int, ...], ...]:
        """Rows, columns, the boxes (or the jigsaw's regions), then the rules' units."""
        box = self.grid.box
        n = box * box
        classic = units(box)
        regions = [r for r in self.rules if isinstance(r, Regions)]
        boxes = regions[0].units(box) if regions else classic[2 * n :]
        extra = [u for r in self.rules if not isinstance(r, Regions) for u in r.units(box)]
        return (*classic[: 2 * n], *boxes, *extra)

    @cached_property
    def tables(self) -> engine.Tables:
        """The engine's tables for this board."""
        n = self.grid.size
        moves = tuple(m for r in self.rules for m in r.moves())
        beside = _steps(n, BESIDE) if NON_CONSECUTIVE in self.rules else ()
        return engine.variant_tables(
            self.grid.box,
            self.units,
            _steps(n, moves) if moves else (),
            beside,
            boxes=not any(isinstance(r, Regions) for r in self.rules),
        )


def _pairs(variant: Variant) -> Iterator[tuple[int, int, str]]:
    """Every pair of cells a rule forbids to share a value, with the rule's words."""
    n = variant.grid.size
    for unit in variant.units:
        for i, a in enumerate(unit):
            for b in unit[i + 1 :]:
                yield a, b, "share a unit"
    for rule in variant.rules:
        for a, near in enumerate(_steps(n, rule.moves())):
            for b in near:
                if a < b:
                    yield a, b, f"are a {rule.name[5:]}'s move apart"


def _check_givens(variant: Variant) -> None:
    """Raise ``PuzzleError`` naming the first two givens that break a rule."""
    grid = variant.grid
    n, cells = grid.size, grid.cells
    for a, b, why in _pairs(variant):
        if cells[a] and cells[a] == cells[b]:
            raise PuzzleError(
                f"givens conflict: {cell_name(a, n)} and {cell_name(b, n)} {why} "
                f"and are both {grid.symbol(cells[a])}"
            )
    if NON_CONSECUTIVE in variant.rules:
        for a, near in enumerate(_steps(n, BESIDE)):
            for b in near:
                if a < b and cells[a] and cells[b] and abs(cells[a] - cells[b]) == 1:
                    raise PuzzleError(
                        f"givens conflict: {cell_name(a, n)} and {cell_name(b, n)} are side "
                        f"by side with consecutive values {grid.symbol(cells[a])} and "
                        f"{grid.symbol(cells[b])} (non-consecutive)"
                    )


def is_solution(variant: Variant, grid: Grid) -> bool:
    """Whether ``grid`` is complete, keeps the givens, and keeps every rule, checked
    cell by cell from the rules themselves (not from the engine's tables)."""
    puzzle = variant.grid
    if grid.box != puzzle.box or not grid.is_complete():
        return False
    if any(g != v for g, v in zip(grid.cells, puzzle.cells, strict=True) if v):
        return False
    try:
        Variant(grid, variant.rules)
    except PuzzleError:
        return False
    return True


def solve(variant: Variant) -> Iterator[Grid]:
    """Every solution of a variant, lazily, in depth-first order."""
    return engine.solve(variant.grid, variant.tables)


def count_solutions(variant: Variant, limit: int | None = None) -> int:
    """How many solutions a variant has, stopping at ``limit``."""
    return engine.count_solutions(variant.grid, limit, variant.tables)


def is_unique(variant: Variant) -> bool:
    """Whether a variant has exactly one solution (stops at the second)."""
    return engine.is_unique(variant.grid, variant.tables)
