"""A variant's rules drawn on its grid: what :mod:`lazyfun.sudoku.svg` adds for a variant.

Each rule is drawn the way puzzle books and f-puzzles draw it, in two
layers: under the grid lines, the shapes cells sit on (the extra regions
and windows shaded grey, the diagonals, the thermometers and the arrows);
over them, the marks on cell borders (each killer cage a dashed outline,
its sum in its first cell's corner; kropki dots; greater-than signs).  A
jigsaw's regions get the thick lines the boxes would have.  Rules of the
whole grid (anti-knight, anti-king, non-consecutive) have nothing to draw
on: they are named in a caption under the grid.

Every element carries the class ``rule`` and the rule's kind (``rule cage``,
``rule thermo``, ``rule dot white``, ...), so a test or a stylesheet can
find them.
"""

from __future__ import annotations

from collections.abc import Iterable

from lazyfun.drawing import Fragment
from lazyfun.sudoku.variants import (
    DIAGONALS,
    WINDOWS,
    Arrow,
    Cage,
    Dot,
    Extra,
    Less,
    Regions,
    Rule,
    Thermo,
)

__all__ = ["caption", "over", "region_lines", "under"]

INK, SHAPE, REGION, DIAGONAL = "#111", "#b8b8b8", "#e9e9e9", "#8fb3e8"

Point = tuple[float, float]


def _centre(c: int, n: int, cell: int) -> Point:
    return c % n * cell + cell / 2, c // n * cell + cell / 2


def _path(points: Iterable[Point]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def under(svg: Fragment, rules: Iterable[Rule], box: int, cell: int) -> None:
    """The shapes under the grid lines: regions, diagonals, thermometers, arrows."""
    n = box * box
    for rule in rules:
        shaded = rule.cells if isinstance(rule, Extra) else ()
        if rule == WINDOWS:
            shaded = tuple(c for unit in rule.units(box) for c in unit)
        for c in shaded:
            svg.add(
                "rect",
                x=c % n * cell,
                y=c // n * cell,
                width=cell,
                height=cell,
                fill=REGION,
                fill_opacity=0.7,
                class_=f"rule {rule.name.replace(' ', '-')}",
                data_cell=c,
            )
        if rule == DIAGONALS:
            for x1, x2 in ((0, n * cell), (n * cell, 0)):
                svg.add(
                    "line",
                    x1=x1,
                    y1=0,
                    x2=x2,
                    y2=n * cell,
                    stroke=DIAGONAL,
                    stroke_width=1.5,
                    class_="rule x",
                )
        if isinstance(rule, Thermo):
            _thermo(svg, rule, n, cell)
        if isinstance(rule, Arrow):
            _arrow(svg, rule, n, cell)


def _thermo(svg: Fragment, rule: Thermo, n: int, cell: int) -> None:
    x, y = _centre(rule.cells[0], n, cell)
    svg.add("circle", cx=x, cy=y, r=cell * 0.38, fill=SHAPE, class_="rule thermo")
    svg.add(
        "polyline",
        points=_path(_centre(c, n, cell) for c in rule.cells),
        fill="none",
        stroke=SHAPE,
        stroke_width=cell * 0.25,
        stroke_linecap="round",
        stroke_linejoin="round",
        class_="rule thermo",
    )


def _arrow(svg: Fragment, rule: Arrow, n: int, cell: int) -> None:
    """The circle, and the shaft from its rim through the cells' centres to a head."""
    cx, cy = _centre(rule.circle, n, cell)
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
    points = [_centre(c, n, cell) for c in rule.shaft]
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
            points=_path(line),
            fill="none",
            stroke=SHAPE,
            stroke_width=2,
            stroke_linejoin="round",
            class_="rule arrow",
        )


def over(svg: Fragment, rules: Iterable[Rule], box: int, cell: int) -> None:
    """The marks over the grid lines: cages and their sums, dots, signs."""
    n = box * box
    for rule in rules:
        if isinstance(rule, Cage):
            _cage(svg, rule, n, cell)
        elif isinstance(rule, Dot):
            x, y = _between(rule.cells, n, cell)
            svg.add(
                "circle",
                cx=x,
                cy=y,
                r=cell * 0.12,
                fill="#fff" if rule.color == "white" else INK,
                stroke=INK,
                stroke_width=1,
                class_=f"rule dot {rule.color}",
            )
        elif isinstance(rule, Less):
            a, b = rule.cells
            x, y = _between(rule.cells, n, cell)
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


def _between(cells: tuple[int, ...], n: int, cell: int) -> Point:
    """The middle of the border two cells side by side share."""
    (ax, ay), (bx, by) = (_centre(c, n, cell) for c in cells)
    return (ax + bx) / 2, (ay + by) / 2


SIDES = ((0, -1), (1, 0), (0, 1), (-1, 0))  # up, right, down, left as (dx, dy)


def _cage(svg: Fragment, cage: Cage, n: int, cell: int) -> None:
    """A dashed outline set in from the cage's border, and its sum in its first cell."""
    inset = cell * 0.08
    inside = set(cage.cells)

    def within(col: int, row: int) -> bool:
        return 0 <= col < n and 0 <= row < n and row * n + col in inside

    for c in cage.cells:
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
                reach = cell / 2 + (-inset if not along else inset if corner else 0)
                ends.append(
                    (
                        (col + 0.5) * cell + dx * (cell / 2 - inset) + way * tx * reach,
                        (row + 0.5) * cell + dy * (cell / 2 - inset) + way * ty * reach,
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
    if cage.total is not None:
        first = min(cage.cells)
        x, y = first % n * cell + inset, first // n * cell + inset
        size = cell * 0.26
        svg.add("rect", x=x, y=y, width=size * 1.3, height=size, fill="#fff", class_="rule cage")
        svg.add(
            "text",
            str(cage.total),
            x=x + 1,
            y=y + size * 0.85,
            font_size=round(size, 1),
            fill=INK,
            text_anchor="start",
            class_="rule cage sum",
        )


def region_lines(regions: Regions, n: int, cell: int) -> Fragment:
    """A jigsaw's lines: thin between cells of a region, thick between regions."""
    lines = Fragment()
    side = n * cell
    for k in range(n + 1):
        at = k * cell
        lines.add("line", x1=at, y1=0, x2=at, y2=side, stroke=INK, stroke_width=0.6)
        lines.add("line", x1=0, y1=at, x2=side, y2=at, stroke=INK, stroke_width=0.6)
    lines.add("rect", x=0, y=0, width=side, height=side, fill="none", stroke=INK, stroke_width=2.5)
    of = regions.regions
    for c in range(n * n):
        col, row = c % n, c // n
        if col + 1 < n and of[c] != of[c + 1]:
            x = (col + 1) * cell
            lines.add(
                "line", x1=x, y1=row * cell, x2=x, y2=(row + 1) * cell, stroke=INK, stroke_width=2.5
            )
        if row + 1 < n and of[c] != of[c + n]:
            y = (row + 1) * cell
            lines.add(
                "line", x1=col * cell, y1=y, x2=(col + 1) * cell, y2=y, stroke=INK, stroke_width=2.5
            )
    return lines


def caption(rules: Iterable[Rule]) -> str:
    """The rules of the whole grid that have no shape to draw, named."""
    return ", ".join(r.name for r in rules if type(r) is Rule and r not in (DIAGONALS, WINDOWS))
