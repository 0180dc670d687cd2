"""A variant: a puzzle's givens and its rules beyond rows, columns and boxes, solved by
the same engine on the variant's own tables.

>>> from lazyfun.sudoku.board.formats import parse
>>> from lazyfun.sudoku.variants.units import DIAGONALS
>>> count_solutions(Variant(parse("." * 16), (DIAGONALS,)))
48
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from lazyfun.sudoku.board.geometry import cell_name, unit_name, units
from lazyfun.sudoku.board.grid import Grid, PuzzleError
from lazyfun.sudoku.solving import engine
from lazyfun.sudoku.solving.tables import Tables, variant_tables
from lazyfun.sudoku.variants.rule import BESIDE, RULES, Rule, reach
from lazyfun.sudoku.variants.units import Regions

__all__ = ["Variant", "count_solutions", "is_solution", "is_unique", "solve"]


@dataclass(frozen=True)
class Variant:
    """A puzzle (its givens) and its rules beyond rows, columns and boxes.

    The givens are checked against every rule when the variant is made:
    two givens that break a rule raise ``PuzzleError`` naming both.
    """

    grid: Grid
    rules: tuple[Rule, ...] = ()
    # What a file said about the puzzle (title, author, ...): kept, never used to solve.
    meta: Mapping[str, object] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        for rule in self.rules:
            if type(rule) is Rule:
                raise PuzzleError(f"unknown rule {rule.name!r}; known: {', '.join(RULES)}")
            rule.check(self.grid.box)
        if sum(isinstance(r, Regions) for r in self.rules) > 1:
            raise PuzzleError("jigsaw: a variant takes one region map")
        _check_givens(self)

    @property
    def names(self) -> tuple[str, ...]:
        """The rules' names."""
        return tuple(r.name for r in self.rules)

    @property
    def kind(self) -> str:
        """The rules' names, each once: ``"killer, thermo"`` (``"classic"`` without rules)."""
        return ", ".join(dict.fromkeys(self.names)) or "classic"

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
    def unit_names(self) -> tuple[str, ...]:
        """What a step calls each of :attr:`units`: ``row 3``, ``region 2``,
        ``diagonal 1``, ``window 4``, ``cage at r1c1 (sum 45)``, ..."""
        n = self.grid.size
        jigsaw = any(isinstance(r, Regions) for r in self.rules)
        names = [unit_name(k, n) for k in range(2 * n)]
        names += [f"{'region' if jigsaw else 'box'} {k + 1}" for k in range(n)]
        for rule in self.rules:
            if isinstance(rule, Regions):
                continue
            own = rule.units(self.grid.box)
            word = rule.unit_word
            names += [f"{word} {k + 1}" if word else rule.label(n) for k in range(len(own))]
        return tuple(names)

    @cached_property
    def named(self) -> dict[str, tuple[int, ...]]:
        """The cells of each unit and each rule on some cells, by the name steps give it."""
        n = self.grid.size
        places = dict(zip(self.unit_names, self.units, strict=True))
        places.update((r.label(n), r.where) for r in self.rules if r.where)
        return places

    @cached_property
    def tables(self) -> Tables:
        """The engine's tables for this board."""
        n = self.grid.size
        moves = tuple(m for r in self.rules for m in r.moves())
        near = [set(cells) for cells in reach(n, moves)]
        for rule in self.rules:
            for a, b in rule.apart():
                near[a].add(b)
                near[b].add(a)
        beside = reach(n, BESIDE) if any(r.side_by_side for r in self.rules) else ()
        return variant_tables(
            self.grid.box,
            self.units,
            tuple(tuple(sorted(cells)) for cells in near),
            beside,
            boxes=not any(isinstance(r, Regions) for r in self.rules),
            checks=tuple(c for r in self.rules for c in r.checks(n)),
        )


def _pairs(variant: Variant) -> Iterator[tuple[int, int, str]]:
    """Every pair of cells a rule forbids to share a value, with the rule's words."""
    n = variant.grid.size
    for unit in variant.units:
        for i, a in enumerate(unit):
            for b in unit[i + 1 :]:
                yield a, b, "share a unit"
    for rule in variant.rules:
        for a, near in enumerate(reach(n, rule.moves())):
            for b in near:
                if a < b:
                    yield a, b, rule.why_apart()
        for a, b in rule.apart():
            yield a, b, rule.why_apart()


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
    for rule in variant.rules:
        broken = rule.broken(cells, n)
        if broken:
            raise PuzzleError(f"givens conflict: {broken}")


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
