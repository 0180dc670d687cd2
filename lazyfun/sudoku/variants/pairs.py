"""Rules between pairs of cells: thermometers, kropki dots, greater-than signs.

Each is a relation between two cells, run by the engine as a
:class:`~lazyfun.sudoku.solving.tables.Check` of kind ``PAIR`` (arc consistency over
support tables), and read by a step the same way (:func:`pair_support`): a value stays
in one cell of a pair only if a value of the other keeps the rule with it.

- :class:`Thermo`: values strictly increase from the bulb along the thermometer;
- :class:`Dot` (kropki): white, the two values are consecutive; black, one is twice
  the other;
- :class:`GreaterThan`: the first cell holds the smaller value.

>>> from lazyfun.sudoku.variants.rule import values_of
>>> sign = GreaterThan(cells=(0, 1))
>>> check = sign.checks(4)[0]
>>> [values_of(bits) for bits in pair_support(check, lambda cell: 0b1111)]
[[1, 2, 3], [2, 3, 4]]
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any, ClassVar

from lazyfun.drawing import Fragment
from lazyfun.sudoku.board.geometry import cell_name
from lazyfun.sudoku.board.grid import Grid, PuzzleError
from lazyfun.sudoku.solving.tables import Check
from lazyfun.sudoku.variants.rule import (
    BESIDE,
    INK,
    SHAPE,
    Board,
    Domain,
    Format,
    Making,
    Names,
    Rule,
    Technique,
    between,
    centre,
    checked,
    fpuzzles_items,
    fpuzzles_lines,
    names_of,
    on_board,
    pair_check,
    pair_support,
    polyline,
    reach,
    register,
    touching,
)

__all__ = ["Dot", "GreaterThan", "Thermo", "thermos_of"]


class _Pair(Rule):
    """What the pair rules share: their checks are pairs, read by :func:`pair_support`."""

    def support(self, check: Check, domain: Domain, peers: tuple[frozenset[int], ...]) -> list[int]:
        return pair_support(check, domain)


@dataclass(frozen=True)
class Thermo(_Pair):
    """A thermometer: values strictly increase from the bulb (``cells[0]``) along it."""

    name: str = field(default="thermo", init=False)
    cells: tuple[int, ...] = ()
    technique: ClassVar[Technique | None] = Technique(
        "thermometer", "a value has no rising value next to it", 2
    )

    def checks(self, n: int) -> tuple[Check, ...]:
        return tuple(pair_check(a, b, n, int.__lt__) for a, b in pairwise(self.cells))

    def check(self, box: int) -> None:
        on_board(self, self.cells, box)
        n = box * box
        if len(self.cells) > n:
            raise PuzzleError(f"thermo: {names_of(self.cells, n)} is longer than {n} cells")
        touching(self, self.cells, n)

    def broken(self, cells: tuple[int, ...], n: int) -> str | None:
        for a, b in pairwise(self.cells):
            if cells[a] and cells[b] and cells[a] >= cells[b]:
                return (
                    f"the thermometer {names_of(self.cells, n)} does not rise from "
                    f"{cell_name(a, n)} to {cell_name(b, n)}"
                )
        return None

    @property
    def where(self) -> tuple[int, ...]:
        return self.cells

    def to_json(self, box: int, names: Names) -> list[dict[str, Any]]:
        return [{"type": "line", "kind": "thermo", "cells": names(self.cells)}]

    def to_fpuzzles(self, data: dict[str, Any], box: int, names: Names) -> None:
        data.setdefault("thermometer", []).append({"lines": [names(self.cells)]})

    def draw_under(self, svg: Fragment, box: int, cell: int) -> None:
        n = box * box
        x, y = centre(self.cells[0], n, cell)
        svg.add("circle", cx=x, cy=y, r=cell * 0.38, fill=SHAPE, class_="rule thermo")
        svg.add(
            "polyline",
            points=polyline(centre(c, n, cell) for c in self.cells),
            fill="none",
            stroke=SHAPE,
            stroke_width=cell * 0.25,
            stroke_linecap="round",
            stroke_linejoin="round",
            class_="rule thermo",
        )


def _consecutive(v: int, w: int) -> bool:
    return abs(v - w) == 1


def _double(v: int, w: int) -> bool:
    return v == 2 * w or w == 2 * v


@dataclass(frozen=True)
class Dot(_Pair):
    """A kropki dot between two cells side by side: white, their values are
    consecutive; black, one is twice the other."""

    name: str = field(default="kropki", init=False)
    cells: tuple[int, ...] = ()
    color: str = "white"
    technique: ClassVar[Technique | None] = Technique(
        "kropki", "a value has no partner across a dot", 4
    )

    def _ok(self) -> Callable[[int, int], bool]:
        return _consecutive if self.color == "white" else _double

    def checks(self, n: int) -> tuple[Check, ...]:
        return (pair_check(self.cells[0], self.cells[1], n, self._ok()),)

    def check(self, box: int) -> None:
        on_board(self, self.cells, box)
        if len(self.cells) != 2:
            raise PuzzleError(f"kropki: a dot joins 2 cells, not {len(self.cells)}")
        if self.color not in ("white", "black"):
            raise PuzzleError(f"kropki: color {self.color!r} is not white or black")
        touching(self, self.cells, box * box, diagonal=False)

    def broken(self, cells: tuple[int, ...], n: int) -> str | None:
        v, w = cells[self.cells[0]], cells[self.cells[1]]
        if not v or not w or self._ok()(v, w):
            return None
        return f"the {self.color} dot between {names_of(self.cells, n)} joins {v} and {w}"

    @property
    def where(self) -> tuple[int, ...]:
        return self.cells

    def label(self, n: int) -> str:
        return f"{self.color} dot {names_of(self.cells, n)}"

    def to_json(self, box: int, names: Names) -> list[dict[str, Any]]:
        return [{"type": "edge", "kind": "kropki", "color": self.color, "cells": names(self.cells)}]

    def to_fpuzzles(self, data: dict[str, Any], box: int, names: Names) -> None:
        key = "difference" if self.color == "white" else "ratio"
        data.setdefault(key, []).append({"cells": names(self.cells)})

    def draw_over(self, svg: Fragment, box: int, cell: int) -> None:
        x, y = between(self.cells, box * box, cell)
        svg.add(
            "circle",
            cx=x,
            cy=y,
            r=cell * 0.12,
            fill="#fff" if self.color == "white" else INK,
            stroke=INK,
            stroke_width=1,
            class_=f"rule dot {self.color}",
        )


@dataclass(frozen=True)
class GreaterThan(_Pair):
    """A greater-than sign between two cells side by side: ``cells[0]`` holds the
    smaller value."""

    name: str = field(default="greater-than", init=False)
    cells: tuple[int, ...] = ()
    technique: ClassVar[Technique | None] = Technique(
        "greater-than", "a value has no larger (smaller) one across a sign", 6
    )

    def checks(self, n: int) -> tuple[Check, ...]:
        return (pair_check(self.cells[0], self.cells[1], n, int.__lt__),)

    def check(self, box: int) -> None:
        on_board(self, self.cells, box)
        if len(self.cells) != 2:
            raise PuzzleError(f"greater-than: a sign joins 2 cells, not {len(self.cells)}")
        touching(self, self.cells, box * box, diagonal=False)

    def broken(self, cells: tuple[int, ...], n: int) -> str | None:
        v, w = cells[self.cells[0]], cells[self.cells[1]]
        if not v or not w or v < w:
            return None
        return f"{cell_name(self.cells[0], n)} < {cell_name(self.cells[1], n)} fails: {v} >= {w}"

    @property
    def where(self) -> tuple[int, ...]:
        return self.cells

    def label(self, n: int) -> str:
        return f"{cell_name(self.cells[0], n)} < {cell_name(self.cells[1], n)}"

    def to_json(self, box: int, names: Names) -> list[dict[str, Any]]:
        return [{"type": "edge", "kind": "less", "cells": names(self.cells)}]

    def to_fpuzzles(self, data: dict[str, Any], box: int, names: Names) -> None:
        raise PuzzleError("f-puzzles has no greater-than signs: no link for this variant")

    def draw_over(self, svg: Fragment, box: int, cell: int) -> None:
        n = box * box
        a, b = self.cells
        x, y = between(self.cells, n, cell)
        sign = {1: "<", -1: ">", n: "\u2227", -n: "\u2228"}[b - a]
        svg.add(
            "text",
            sign,
            x=x,
            y=y + cell * 0.1,
            font_size=round(cell * 0.35),
            fill=INK,
            class_="rule sign",
        )


_AROUND = (*BESIDE, (1, 1), (1, -1), (-1, 1), (-1, -1))


def thermos_of(solution: Grid, rng: random.Random, count: int = 10) -> tuple[Thermo, ...]:
    """Up to ``count`` thermometers of 3 to 6 cells along rising values of ``solution``,
    no two sharing a cell."""
    n, cells = solution.size, solution.cells
    used: set[int] = set()
    thermos: list[Thermo] = []
    for start in rng.sample(range(n * n), n * n):
        if len(thermos) == count:
            break
        path = [start]
        while len(path) < 6:
            up = [
                d
                for d in reach(n, _AROUND)[path[-1]]
                if d not in used and d not in path and cells[d] > cells[path[-1]]
            ]
            if not up:
                break
            path.append(rng.choice(up))
        if len(path) >= 3 and not used & set(path):
            used.update(path)
            thermos.append(Thermo(cells=tuple(path)))
    return tuple(thermos)


def _read_line(rule: dict[str, Any], board: Board, where: str) -> list[Rule]:
    if rule.get("kind") != "thermo":
        raise PuzzleError(f"{where}: field kind: the {rule.get('kind')} line is not supported")
    return [checked(Thermo(cells=board.cells(rule.get("cells"), where)), board, where)]


def _read_edge(rule: dict[str, Any], board: Board, where: str) -> list[Rule]:
    cells = board.cells(rule.get("cells"), where)
    kind = rule.get("kind")
    if kind == "kropki":
        return [checked(Dot(cells=cells, color=str(rule.get("color"))), board, where)]
    if kind == "less":
        return [checked(GreaterThan(cells=cells), board, where)]
    raise PuzzleError(f"{where}: field kind: the {kind} edge is not supported")


def _read_thermometers(data: dict[str, Any], board: Board) -> list[Rule]:
    return [
        checked(Thermo(cells=line), board, "thermometer")
        for item in fpuzzles_items(data, "thermometer")
        for line in fpuzzles_lines(item, board, "thermometer")
    ]


def _read_dots(data: dict[str, Any], board: Board) -> list[Rule]:
    rules: list[Rule] = []
    for key, color, default in (("difference", "white", 1), ("ratio", "black", 2)):
        for item in fpuzzles_items(data, key):
            if str(item.get("value") or default) != str(default):
                raise PuzzleError(f"{key}: a dot with value {item.get('value')} is not supported")
            rules.append(
                checked(Dot(cells=board.cells(item.get("cells"), key), color=color), board, key)
            )
    return rules


register(
    Thermo,
    formats=[
        Format(
            "line",
            frozenset({"kind", "cells"}),
            _read_line,
            frozenset({"thermometer"}),
            _read_thermometers,
        )
    ],
    making=[Making("thermo", shapes=thermos_of)],
)
register(
    Dot,
    formats=[
        Format(
            "edge",
            frozenset({"kind", "cells", "color"}),
            _read_edge,
            frozenset({"difference", "ratio"}),
            _read_dots,
        )
    ],
)
register(GreaterThan)
