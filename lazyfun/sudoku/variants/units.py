"""Rules that only add units, or replace the boxes: X, windoku, extra regions, jigsaw.

Each rides on the bitset engine at full speed: the engine's tables gain the rule's
units (hidden singles run over them too).

- :data:`DIAGONALS` (Sudoku X): each main diagonal holds every value once;
- :data:`WINDOWS` (windoku, hyper): the boxes set one cell in from the corners of the
  classic boxes (four on a 9x9) are units too;
- :class:`Extra`: an extra region, whose cells hold distinct values;
- :class:`Regions` (jigsaw, irregular): a region map replaces the boxes.

>>> DIAGONALS.units(2)
((0, 5, 10, 15), (3, 6, 9, 12))
>>> WINDOWS.units(3)[0]
(10, 11, 12, 19, 20, 21, 28, 29, 30)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, ClassVar

from lazyfun.drawing import Fragment
from lazyfun.sudoku.board.geometry import cell_name
from lazyfun.sudoku.board.grid import PuzzleError
from lazyfun.sudoku.variants.rule import (
    BESIDE,
    DIAGONAL,
    INK,
    Board,
    Format,
    Making,
    Names,
    Rule,
    distinct_pairs,
    on_board,
    reach,
    register,
    shade,
)

__all__ = [
    "DIAGONALS",
    "WINDOWS",
    "Diagonals",
    "Extra",
    "Regions",
    "Windows",
    "named_regions",
    "random_regions",
]


@dataclass(frozen=True)
class Diagonals(Rule):
    """Sudoku X: each main diagonal holds every value once."""

    name: str = field(default="x", init=False)
    unit_word: ClassVar[str | None] = "diagonal"

    def units(self, box: int) -> tuple[tuple[int, ...], ...]:
        n = box * box
        return (tuple(r * n + r for r in range(n)), tuple(r * n + n - 1 - r for r in range(n)))

    def to_json(self, box: int, names: Names) -> list[dict[str, Any]]:
        return [{"type": "region", "kind": "diagonal", "cells": names(u)} for u in self.units(box)]

    def to_fpuzzles(self, data: dict[str, Any], box: int, names: Names) -> None:
        data["diagonal+"] = data["diagonal-"] = True

    def draw_under(self, svg: Fragment, box: int, cell: int) -> None:
        side = box * box * cell
        for x1, x2 in ((0, side), (side, 0)):
            svg.add(
                "line",
                x1=x1,
                y1=0,
                x2=x2,
                y2=side,
                stroke=DIAGONAL,
                stroke_width=1.5,
                class_="rule x",
            )


@dataclass(frozen=True)
class Windows(Rule):
    """Windoku: box-sized squares one cell in from the corners of the classic boxes."""

    name: str = field(default="windoku", init=False)
    unit_word: ClassVar[str | None] = "window"

    def units(self, box: int) -> tuple[tuple[int, ...], ...]:
        n = box * box
        starts = range(1, n - box + 1, box + 1)
        return tuple(
            tuple((top + r) * n + left + c for r in range(box) for c in range(box))
            for top in starts
            for left in starts
        )

    def to_json(self, box: int, names: Names) -> list[dict[str, Any]]:
        return [{"type": "region", "kind": "window", "cells": names(u)} for u in self.units(box)]

    def to_fpuzzles(self, data: dict[str, Any], box: int, names: Names) -> None:
        for unit in self.units(box):
            data.setdefault("extraregion", []).append({"cells": names(unit)})

    def draw_under(self, svg: Fragment, box: int, cell: int) -> None:
        shade(svg, self, (c for unit in self.units(box) for c in unit), box * box, cell)


DIAGONALS = Diagonals()
WINDOWS = Windows()


@dataclass(frozen=True)
class Extra(Rule):
    """An extra region: its cells hold distinct values (every value, if it has N
    cells).  ``kind`` is what the region is called where it came from
    (``diagonal``, ``window``, ``disjoint``, ...); it does not change the rule."""

    name: str = field(default="extra region", init=False)
    cells: tuple[int, ...] = ()
    kind: str = "extra"

    def units(self, box: int) -> tuple[tuple[int, ...], ...]:
        return (self.cells,) if len(self.cells) == box * box else ()

    def apart(self) -> tuple[tuple[int, int], ...]:
        return distinct_pairs(self.cells)

    def check(self, box: int) -> None:
        on_board(self, self.cells, box)
        if len(self.cells) > box * box:
            raise PuzzleError(f"extra region: {len(self.cells)} cells cannot hold distinct values")

    @property
    def where(self) -> tuple[int, ...]:
        return self.cells

    def to_json(self, box: int, names: Names) -> list[dict[str, Any]]:
        return [{"type": "region", "kind": self.kind, "cells": names(self.cells)}]

    def to_fpuzzles(self, data: dict[str, Any], box: int, names: Names) -> None:
        data.setdefault("extraregion", []).append({"cells": names(self.cells)})

    def draw_under(self, svg: Fragment, box: int, cell: int) -> None:
        shade(svg, self, self.cells, box * box, cell)


def named_regions(extras: list[Extra], box: int) -> list[Rule]:
    """Extra regions, with the X's two diagonals and windoku's windows by their names."""
    have = {e.cells for e in extras}
    named: list[Rule] = []
    for rule in (DIAGONALS, WINDOWS):
        units = set(rule.units(box))
        if units <= have:
            named.append(rule)
            have -= units
    return named + [e for e in extras if e.cells in have]


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

    @classmethod
    def of_boxes(cls, boxes: list[tuple[int, ...]], n: int) -> Regions:
        """The region map that a file's list of regions (``box`` rules) makes."""
        regions = [-1] * (n * n)
        for k, cells in enumerate(boxes):
            for cell in cells:
                if regions[cell] >= 0:
                    raise PuzzleError(f"box regions: {cell_name(cell, n)} is in two of them")
                regions[cell] = k
        if len(boxes) != n or -1 in regions:
            raise PuzzleError(f"box regions: a grid needs {n} of them, covering every cell")
        return cls(regions=tuple(regions))

    def to_json(self, box: int, names: Names) -> list[dict[str, Any]]:
        """None of its own: a document states a jigsaw's regions as its grid's boxes."""
        return []

    def to_fpuzzles(self, data: dict[str, Any], box: int, names: Names) -> None:
        n = box * box
        for c, region in enumerate(self.regions):
            data["grid"][c // n][c % n]["region"] = region

    def lines(self, n: int, cell: int) -> Fragment:
        """A jigsaw's lines: thin between cells of a region, thick between regions."""
        lines = Fragment()
        side = n * cell
        for k in range(n + 1):
            at = k * cell
            lines.add("line", x1=at, y1=0, x2=at, y2=side, stroke=INK, stroke_width=0.6)
            lines.add("line", x1=0, y1=at, x2=side, y2=at, stroke=INK, stroke_width=0.6)
        lines.add(
            "rect", x=0, y=0, width=side, height=side, fill="none", stroke=INK, stroke_width=2.5
        )
        of = self.regions
        for c in range(n * n):
            col, row = c % n, c // n
            if col + 1 < n and of[c] != of[c + 1]:
                x = (col + 1) * cell
                lines.add(
                    "line",
                    x1=x,
                    y1=row * cell,
                    x2=x,
                    y2=(row + 1) * cell,
                    stroke=INK,
                    stroke_width=2.5,
                )
            if row + 1 < n and of[c] != of[c + n]:
                y = (row + 1) * cell
                lines.add(
                    "line",
                    x1=col * cell,
                    y1=y,
                    x2=(col + 1) * cell,
                    y2=y,
                    stroke=INK,
                    stroke_width=2.5,
                )
        return lines


def random_regions(box: int, rng: random.Random, trades: int = 300) -> Regions:
    """A jigsaw region map: the boxes, with random trades of border cells between
    neighbouring regions that keep every region connected.

    >>> regions = random_regions(3, random.Random(1))
    >>> sorted(regions.regions.count(k) for k in range(9))
    [9, 9, 9, 9, 9, 9, 9, 9, 9]
    """
    n = box * box
    beside = reach(n, BESIDE)
    regions = [(c // n // box) * box + (c % n) // box for c in range(n * n)]
    for _ in range(trades):
        a = rng.randrange(n * n)
        near = [b for b in beside[a] if regions[b] != regions[a]]
        if not near:
            continue
        b = rng.choice(near)
        ra, rb = regions[a], regions[b]
        partners = [
            c
            for c in range(n * n)
            if regions[c] == rb and c != b and any(regions[d] == ra for d in beside[c])
        ]
        if not partners:
            continue
        c = rng.choice(partners)
        regions[a], regions[c] = rb, ra
        if not (_connected(regions, ra, n) and _connected(regions, rb, n)):
            regions[a], regions[c] = ra, rb
    return Regions(regions=tuple(regions))


def _connected(regions: list[int], k: int, n: int) -> bool:
    cells = {c for c, r in enumerate(regions) if r == k}
    seen, todo = set(), [next(iter(cells))]
    while todo:
        cell = todo.pop()
        if cell not in seen:
            seen.add(cell)
            todo.extend(d for d in reach(n, BESIDE)[cell] if d in cells)
    return seen == cells


def _read_region(rule: dict[str, Any], board: Board, where: str) -> list[Rule]:
    return [Extra(cells=board.cells(rule.get("cells"), where), kind=str(rule.get("kind")))]


def _read_fpuzzles(data: dict[str, Any], board: Board) -> list[Rule]:
    """A link's diagonals (both: X; one: an extra region) and extra regions."""
    rules: list[Rule] = []
    diagonals = (bool(data.get("diagonal-")), bool(data.get("diagonal+")))
    if all(diagonals):
        rules.append(DIAGONALS)
    elif any(diagonals):
        main = DIAGONALS.units(board.box)[diagonals.index(True)]
        rules.append(Extra(cells=main, kind="diagonal"))
    items = data.get("extraregion") or []
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise PuzzleError("extraregion: a list of objects")
    extras = [Extra(cells=board.cells(e.get("cells"), "extraregion")) for e in items]
    return rules + named_regions(extras, board.box)


_REGION = Format(
    "region",
    frozenset({"kind", "cells"}),
    _read_region,
    frozenset({"diagonal+", "diagonal-", "extraregion"}),
    _read_fpuzzles,
)
register(Diagonals, formats=[_REGION], making=[Making("x", rule=DIAGONALS)])
register(
    Windows,
    making=[
        Making(
            "windoku",
            rule=WINDOWS,
            smallest_box=3,
            too_small="room for its windows: 9x9 (box 3)",
        )
    ],
)
register(Extra)
register(Regions, making=[Making("jigsaw", region_map=random_regions)])
