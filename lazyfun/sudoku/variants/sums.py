"""Rules with sums: killer cages and arrows.

- :class:`Cage` (killer): the cells hold distinct values that add up to the cage's
  total.  The engine runs it as a ``CAGE`` check (the value sets that make the sum, as
  bits: only their values stay, and a value with one place left in the cage goes
  there); a step keeps a value only if some set making the sum puts it there while the
  other cells share out the rest of the set (:func:`cage_support`).
- :class:`Arrow`: the circled cell holds the sum of the cells along the shaft, run as
  a ``SUM`` check (bounds); a step keeps a value only if the other cells can make the
  sum with it, cells that see each other holding different values (:func:`sum_support`).

>>> [bin(s) for s in sets_making(4, 2, 9)]  # only 1 + 3
['0b101']
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, ClassVar

from lazyfun.drawing import Fragment
from lazyfun.sudoku.board.geometry import cell_name
from lazyfun.sudoku.board.grid import Grid, PuzzleError
from lazyfun.sudoku.solving.tables import CAGE, SUM, Check
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
    centre,
    checked,
    distinct_pairs,
    fpuzzles_items,
    fpuzzles_lines,
    names_of,
    on_board,
    polyline,
    reach,
    register,
    touching,
    values_of,
)

__all__ = ["Arrow", "Cage", "cage_support", "cages_of", "sets_making", "sum_support"]


def sets_making(total: int, size: int, n: int) -> tuple[int, ...]:
    """The sets of ``size`` distinct values 1..n that add up to ``total``, as bits.

    >>> [bin(s) for s in sets_making(6, 3, 9)]  # only 1 + 2 + 3
    ['0b111']
    """
    return tuple(
        sum(1 << (v - 1) for v in values)
        for values in combinations(range(1, n + 1), size)
        if sum(values) == total
    )


def _used(domains: list[int], allowed: int) -> list[set[int]]:
    """``layers[i]``: the sets of distinct values (bits, inside ``allowed``) that the
    first ``i`` cells can hold, one value each."""
    layers = [{0}]
    for domain in domains:
        layers.append(
            {
                used | 1 << (v - 1)
                for used in layers[-1]
                for v in values_of(domain & allowed & ~used)
            }
        )
    return layers


def cage_support(check: Check, domain: Domain) -> list[int]:
    """Killer: for each cell, the values that some set making the sum (``check.table``)
    puts there while the other cells take the rest of the set, one value each."""
    domains = [domain(c) for c in check.cells]
    support = [0] * len(domains)
    for values in check.table:
        before = _used(domains, values)
        after = _used(domains[::-1], values)[::-1]
        for i, cell_domain in enumerate(domains):
            for v in values_of(cell_domain & values & ~support[i]):
                rest = values & ~(1 << (v - 1))
                rest_after = after[i + 1]
                if any(rest & ~used in rest_after for used in before[i] if used & rest == used):
                    support[i] |= 1 << (v - 1)
    return support


def sum_support(check: Check, domain: Domain, peers: tuple[frozenset[int], ...]) -> list[int]:
    """``sum coef_i * x_i = total``: the values of each cell that some way of making the
    sum uses, the cells that see each other holding different values."""
    cells, coefs, total = check.cells, check.table, check.total
    domains = [domain(c) for c in cells]
    ends_from = [(0, 0)] * (len(cells) + 1)  # the least and most the cells from i on add
    for i in range(len(cells) - 1, -1, -1):
        ends = [coefs[i] * v for v in values_of(domains[i])] or [0]
        ends_from[i] = (ends_from[i + 1][0] + min(ends), ends_from[i + 1][1] + max(ends))
    support = [0] * len(cells)
    chosen: list[int] = []

    def walk(i: int, made: int) -> None:
        low, high = ends_from[i]
        if not low <= total - made <= high:
            return
        if i == len(cells):
            for j, v in enumerate(chosen):
                support[j] |= 1 << (v - 1)
            return
        seen = peers[cells[i]]
        for v in values_of(domains[i]):
            if all(w != v or cells[j] not in seen for j, w in enumerate(chosen)):
                chosen.append(v)
                walk(i + 1, made + coefs[i] * v)
                chosen.pop()

    walk(0, 0)
    return support


SIDES = ((0, -1), (1, 0), (0, 1), (-1, 0))  # up, right, down, left as (dx, dy)


@dataclass(frozen=True)
class Cage(Rule):
    """Killer: the cells hold distinct values that add up to ``total`` (None: the
    values are only distinct)."""

    name: str = field(default="killer", init=False)
    cells: tuple[int, ...] = ()
    total: int | None = None
    technique: ClassVar[Technique | None] = Technique(
        "cage combination", "a killer cage's value fits no set of distinct values making its sum", 1
    )

    def apart(self) -> tuple[tuple[int, int], ...]:
        return distinct_pairs(self.cells)

    def why_apart(self) -> str:
        return "are in one killer cage"

    def units(self, box: int) -> tuple[tuple[int, ...], ...]:
        return (self.cells,) if len(self.cells) == box * box else ()

    def checks(self, n: int) -> tuple[Check, ...]:
        if self.total is None:
            return ()
        return (Check(CAGE, self.cells, sets_making(self.total, len(self.cells), n), self.total),)

    def check(self, box: int) -> None:
        on_board(self, self.cells, box)
        n = box * box
        if len(self.cells) > n:
            raise PuzzleError(f"killer: the cage {names_of(self.cells, n)} has more than {n} cells")
        if self.total is not None and not sets_making(self.total, len(self.cells), n):
            raise PuzzleError(
                f"killer: no {len(self.cells)} distinct values of 1..{n} add up to "
                f"{self.total} (the cage {names_of(self.cells, n)}, field sum)"
            )

    def broken(self, cells: tuple[int, ...], n: int) -> str | None:
        values = [cells[c] for c in self.cells]
        if self.total is None or not all(values) or sum(values) == self.total:
            return None
        return (
            f"the killer cage {names_of(self.cells, n)} adds up to {sum(values)}, not {self.total}"
        )

    @property
    def where(self) -> tuple[int, ...]:
        return self.cells

    def label(self, n: int) -> str:
        total = "" if self.total is None else f" (sum {self.total})"
        return f"cage at {cell_name(self.cells[0], n)}{total}"

    def support(self, check: Check, domain: Domain, peers: tuple[frozenset[int], ...]) -> list[int]:
        return cage_support(check, domain)

    def to_json(self, box: int, names: Names) -> list[dict[str, Any]]:
        cage: dict[str, Any] = {"type": "cage", "cells": names(self.cells)}
        return [cage if self.total is None else {**cage, "sum": self.total}]

    def to_fpuzzles(self, data: dict[str, Any], box: int, names: Names) -> None:
        total = {} if self.total is None else {"value": str(self.total)}
        data.setdefault("killercage", []).append({"cells": names(self.cells), **total})

    def draw_over(self, svg: Fragment, box: int, cell: int) -> None:
        """A dashed outline set in from the cage's border, and its sum in its first cell."""
        n = box * box
        inset = cell * 0.08
        inside = set(self.cells)

        def within(col: int, row: int) -> bool:
            return 0 <= col < n and 0 <= row < n and row * n + col in inside

        for c in self.cells:
            col, row = c % n, c // n
            for dx, dy in SIDES:
                if within(col + dx, row + dy):
                    continue
                # The side runs along (tx, ty), from one end (-1) to the other (+1).
                tx, ty = -dy, dx
                ends = []
                for way in (-1, 1):
                    along = within(col + way * tx, row + way * ty)
                    corner = within(col + way * tx + dx, row + way * ty + dy)
                    stretch = cell / 2 + (-inset if not along else inset if corner else 0)
                    ends.append(
                        (
                            (col + 0.5) * cell + dx * (cell / 2 - inset) + way * tx * stretch,
                            (row + 0.5) * cell + dy * (cell / 2 - inset) + way * ty * stretch,
                        )
                    )
                (x1, y1), (x2, y2) = ends
                svg.add(
                    "line",
                    x1=x1,
                    y1=y1,
                    x2=x2,
                    y2=y2,
                    stroke=INK,
                    stroke_width=1,
                    stroke_dasharray="3 2",
                    class_="rule cage",
                )
        if self.total is not None:
            first = min(self.cells)
            x, y = first % n * cell + inset, first // n * cell + inset
            size = cell * 0.26
            svg.add(
                "rect", x=x, y=y, width=size * 1.3, height=size, fill="#fff", class_="rule cage"
            )
            svg.add(
                "text",
                str(self.total),
                x=x + 1,
                y=y + size * 0.85,
                font_size=round(size, 1),
                fill=INK,
                text_anchor="start",
                class_="rule cage sum",
            )


@dataclass(frozen=True)
class Arrow(Rule):
    """An arrow: the circled cell holds the sum of the cells along its shaft."""

    name: str = field(default="arrow", init=False)
    circle: int = 0
    shaft: tuple[int, ...] = ()
    technique: ClassVar[Technique | None] = Technique(
        "arrow", "the arrow's other cells cannot make its sum with a value", 3
    )

    def checks(self, n: int) -> tuple[Check, ...]:
        coefs = (-1,) + (1,) * len(self.shaft)
        return (Check(SUM, (self.circle, *self.shaft), coefs, 0),)

    def check(self, box: int) -> None:
        on_board(self, (self.circle, *self.shaft), box)
        touching(self, (self.circle, *self.shaft), box * box)

    def broken(self, cells: tuple[int, ...], n: int) -> str | None:
        values = [cells[c] for c in self.shaft]
        if not cells[self.circle] or not all(values) or sum(values) == cells[self.circle]:
            return None
        return (
            f"the arrow from {cell_name(self.circle, n)} along {names_of(self.shaft, n)} "
            f"adds up to {sum(values)}, not {cells[self.circle]}"
        )

    @property
    def where(self) -> tuple[int, ...]:
        return (self.circle, *self.shaft)

    def support(self, check: Check, domain: Domain, peers: tuple[frozenset[int], ...]) -> list[int]:
        return sum_support(check, domain, peers)

    def to_json(self, box: int, names: Names) -> list[dict[str, Any]]:
        return [{"type": "arrow", "bulb": names((self.circle,)), "lines": [names(self.shaft)]}]

    def to_fpuzzles(self, data: dict[str, Any], box: int, names: Names) -> None:
        data.setdefault("arrow", []).append(
            {"cells": names((self.circle,)), "lines": [names((self.circle, *self.shaft))]}
        )

    def draw_under(self, svg: Fragment, box: int, cell: int) -> None:
        """The circle, and the shaft from its rim through the cells' centres to a head."""
        n = box * box
        cx, cy = centre(self.circle, n, cell)
        radius = cell * 0.4
        svg.add(
            "circle",
            cx=cx,
            cy=cy,
            r=radius,
            fill="none",
            stroke=SHAPE,
            stroke_width=2,
            class_="rule arrow",
        )
        points = [centre(c, n, cell) for c in self.shaft]
        (fx, fy), (lx, ly) = points[0], points[-1]
        dx, dy = fx - cx, fy - cy
        length = (dx * dx + dy * dy) ** 0.5
        rim = (cx + dx / length * radius, cy + dy / length * radius)
        px, py = points[-2] if len(points) > 1 else (cx, cy)
        hx, hy = lx - px, ly - py
        size = (hx * hx + hy * hy) ** 0.5
        ux, uy = hx / size * cell * 0.2, hy / size * cell * 0.2
        head = [(lx - ux - uy, ly - uy + ux), (lx, ly), (lx - ux + uy, ly - uy - ux)]
        for line in ([rim, *points], head):
            svg.add(
                "polyline",
                points=polyline(line),
                fill="none",
                stroke=SHAPE,
                stroke_width=2,
                stroke_linejoin="round",
                class_="rule arrow",
            )


def cages_of(solution: Grid, rng: random.Random) -> tuple[Rule, ...]:
    """The whole grid cut into cages of side-by-side cells with distinct values (mostly
    2 to 5 cells; a cell left alone joins no cage), each with its sum."""
    n, cells = solution.size, solution.cells
    free = set(range(n * n))
    cages: list[Rule] = []
    for start in rng.sample(range(n * n), n * n):
        if start not in free:
            continue
        cage = [start]
        free.discard(start)
        for _ in range(rng.randint(1, 4)):
            near = [
                d
                for c in cage
                for d in reach(n, BESIDE)[c]
                if d in free and cells[d] not in {cells[x] for x in cage}
            ]
            if not near:
                break
            pick = rng.choice(near)
            cage.append(pick)
            free.discard(pick)
        if len(cage) > 1:
            cages.append(Cage(cells=tuple(sorted(cage)), total=sum(cells[c] for c in cage)))
    return tuple(cages)


def _read_cage(rule: dict[str, Any], board: Board, where: str) -> list[Rule]:
    total = rule.get("sum")
    if total is not None and (not isinstance(total, int) or isinstance(total, bool)):
        raise PuzzleError(f"{where}: field sum: an integer")
    return [checked(Cage(cells=board.cells(rule.get("cells"), where), total=total), board, where)]


def _read_arrow(rule: dict[str, Any], board: Board, where: str) -> list[Rule]:
    bulb = board.cells(rule.get("bulb"), where, "bulb")
    if len(bulb) != 1:
        raise PuzzleError(
            f"{where}: field bulb: arrows with a bulb of more than one cell are not supported"
        )
    shafts = rule.get("lines")
    if not isinstance(shafts, list) or not shafts:
        raise PuzzleError(f"{where}: field lines: a list of shafts")
    return [
        checked(Arrow(circle=bulb[0], shaft=board.cells(shaft, where, "lines")), board, where)
        for shaft in shafts
    ]


def _read_killercages(data: dict[str, Any], board: Board) -> list[Rule]:
    rules: list[Rule] = []
    for item in fpuzzles_items(data, "killercage"):
        value = str(item.get("value", "")).strip()
        cage = Cage(
            cells=board.cells(item.get("cells"), "killercage"),
            total=int(value) if value.isdigit() else None,
        )
        rules.append(checked(cage, board, "killercage"))
    return rules


def _read_arrows(data: dict[str, Any], board: Board) -> list[Rule]:
    rules: list[Rule] = []
    for item in fpuzzles_items(data, "arrow"):
        circle = board.cells(item.get("cells"), "arrow")
        if len(circle) != 1:
            raise PuzzleError("arrow: arrows with a bulb of more than one cell are not supported")
        for line in fpuzzles_lines(item, board, "arrow"):
            shaft = tuple(c for c in line if c != circle[0])
            rules.append(checked(Arrow(circle=circle[0], shaft=shaft), board, "arrow"))
    return rules


register(
    Cage,
    formats=[
        Format(
            "cage",
            frozenset({"cells", "sum"}),
            _read_cage,
            frozenset({"killercage"}),
            _read_killercages,
        )
    ],
    making=[Making("killer", shapes=cages_of, givens_first=True)],
)
register(
    Arrow,
    formats=[
        Format(
            "arrow", frozenset({"bulb", "lines"}), _read_arrow, frozenset({"arrow"}), _read_arrows
        )
    ],
)
