"""Sudoku pictures: a grid, its pencil marks and a step, drawn as SVG strings.

Pure functions from the program's objects to an SVG document, as
``chess.svg`` draws a board: no file, no terminal, only the standard
library (written through :mod:`lazyfun.drawing`, which escapes every text,
titles included).  Givens are black; digits placed since (a later state, or
the solution) are blue; a step's cells are shaded yellow and its units pale
blue, its placements green and its eliminated candidates struck in red.

Elements carry classes and ``data-cell`` numbers (0..N*N-1 in reading order)
so that a page, a test or a stylesheet can find them: ``cell rests`` for a
cell a step rests on, ``digit given`` / ``digit placed`` / ``digit places``
for digits, ``mark`` / ``mark struck`` for candidates.

>>> from lazyfun.sudoku import parse
>>> picture = grid_svg(parse("1.3." "..1." ".1.." "...1"), title="a 4x4 puzzle")
>>> picture.startswith("<svg") and picture.count('class="digit given"')
5
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache

from lazyfun.drawing import Fragment, Svg
from lazyfun.sudoku.board.geometry import unit_index, units
from lazyfun.sudoku.board.grid import Grid, MarkedGrid, draws
from lazyfun.sudoku.steps.deduction import GUESS, RATINGS, Position
from lazyfun.sudoku.svg import rules as rule_svg
from lazyfun.sudoku.variants import Regions, Variant

__all__ = ["CELL", "grid_svg", "position_svg"]

CELL = 40  # pixels per cell, by default
INK, PLACED, PLACES, STRUCK = "#111", "#1f5fbf", "#1a7f37", "#c62828"
RESTS, UNIT, BACKGROUND = "#ffe98a", "#dbe8ff", "#fff"
TITLE = 28  # pixels above the grid for a title


def grid_svg(
    puzzle: Grid | Variant,
    state: Grid | None = None,
    *,
    candidates: Mapping[int, Iterable[int]] | None = None,
    cells: Iterable[int] = (),
    units_shaded: Iterable[str | int] = (),
    placements: Iterable[tuple[int, int]] = (),
    eliminations: Iterable[tuple[int, int]] = (),
    title: str | None = None,
    cell: int = CELL,
) -> str:
    """The puzzle as an SVG document, optionally at a later ``state`` (or its solution).

    ``candidates`` (cell -> values) are drawn as pencil marks in each empty
    cell's corner grid; ``cells`` are shaded as what a deduction rests on and
    ``units_shaded`` (names such as ``"row 3"``, or unit numbers) as its
    units; ``placements`` and ``eliminations`` are (cell, value) pairs drawn
    as a step's effect.  Boxes of size 2 to 5 are drawn alike.  A variant is
    drawn with its rules (:mod:`lazyfun.sudoku.svg.rules`), and its units and
    rules can be shaded by the names its steps give them (``region 2``,
    ``cage at r1c1 (sum 10)``).
    """
    variant = puzzle if isinstance(puzzle, Variant) else None
    rules = variant.rules if variant is not None else ()
    puzzle = puzzle.grid if isinstance(puzzle, Variant) else puzzle
    state = state if state is not None else puzzle
    if state.box != puzzle.box:
        raise ValueError(
            f"the state is {state.size}x{state.size}, the puzzle {puzzle.size}x{puzzle.size}"
        )
    n, box = puzzle.size, puzzle.box
    top = TITLE if title else 0
    side = n * cell
    words = rule_svg.caption(rules)
    bottom = TITLE if words else 0
    svg = Svg(side + 2, side + 2 + top + bottom, title=title, left=-1, top=-1 - top)
    if title:
        svg.add("text", title, x=0, y=-top / 3, font_size=top // 2, text_anchor="start")
    if words:
        svg.add(
            "text", words, x=0, y=side + bottom * 0.7, font_size=bottom // 2, text_anchor="start"
        )
    svg.add("style", _style(cell, box))
    svg.add("rect", x=0, y=0, width=side, height=side, fill=BACKGROUND)
    shaded = {c for u in units_shaded for c in _unit_cells(u, box, variant)}
    resting = set(cells)
    for c in sorted(shaded | resting):
        svg.add(
            "rect",
            x=c % n * cell,
            y=c // n * cell,
            width=cell,
            height=cell,
            fill=RESTS if c in resting else UNIT,
            class_="cell rests" if c in resting else "cell unit",
            data_cell=c,
        )
    rule_svg.under(svg, rules, box, cell)
    regions = [r for r in rules if isinstance(r, Regions)]
    svg.place(regions[0].lines(n, cell) if regions else _lines(n, box, cell))
    rule_svg.over(svg, rules, box, cell)
    placing = dict(placements)
    struck = set(eliminations)
    for c, value in enumerate(state.cells):
        if value:
            kind = "given" if puzzle.cells[c] else "placed"
            _digit(svg, c, n, cell, state.symbol(value), kind)
        elif c in placing:
            _digit(svg, c, n, cell, state.symbol(placing[c]), "places")
        elif candidates is not None and c in candidates:
            _marks(svg, c, state, cell, candidates[c], struck)
    return svg.close()


def position_svg(position: Position, puzzle: Grid | None = None, *, cell: int = CELL) -> str:
    """A step drawn on the state before it: its cells, units, placements and eliminations,
    with its technique and rating as the title (a guess is labelled as one); a variant's
    step (``position.rules``) is drawn with the rules.

    >>> from lazyfun.sudoku import parse
    >>> from lazyfun.sudoku.steps.deduction import walkthrough
    >>> first = next(walkthrough(parse("...." "34.." ".3.1" "1..4")))
    >>> picture = position_svg(first)
    >>> "hidden single (box), SE 1.2" in picture, picture.count('class="cell rests"')
    (True, 1)
    """
    step = position.step
    start = puzzle if puzzle is not None else position.grid
    return grid_svg(
        Variant(start, position.rules) if position.rules else start,
        position.grid,
        candidates=position.marks(),
        cells=step.cells,
        units_shaded=step.units,
        placements=step.placements,
        eliminations=step.eliminations,
        title=_title(step.technique),
        cell=cell,
    )


def _title(technique: str) -> str:
    if technique == GUESS:
        return f"{technique}: a guess, checked by the search"
    rating = RATINGS.get(technique)
    if rating is None:
        return f"{technique}: a variant's rule, read alone"
    return f"{technique}, SE {rating}"


def _unit_cells(unit: str | int, box: int, variant: Variant | None) -> tuple[int, ...]:
    """The cells of a unit given by number or by name (a variant's, if there is one)."""
    n = box * box
    if variant is None:
        return units(box)[unit if isinstance(unit, int) else unit_index(unit, n)]
    if isinstance(unit, int):
        return variant.units[unit]
    if unit not in variant.named:
        raise ValueError(f"not a unit or rule of this variant: {unit!r}")
    return variant.named[unit]


@cache
def _lines(n: int, box: int, cell: int) -> Fragment:
    """Thin lines between cells, thick ones between boxes."""
    lines = Fragment()
    side = n * cell
    for k in range(n + 1):
        width = 2.5 if k % box == 0 else 0.6
        at = k * cell
        lines.add("line", x1=at, y1=0, x2=at, y2=side, stroke=INK, stroke_width=width)
        lines.add("line", x1=0, y1=at, x2=side, y2=at, stroke=INK, stroke_width=width)
    return lines


@cache
def _style(cell: int, box: int) -> str:
    """What every digit and mark of one kind shares, said once per picture."""
    return (
        f".digit,.mark,.sign{{text-anchor:middle}}.digit{{font-size:{round(cell * 0.6)}px}}"
        f".given{{fill:{INK}}}.placed{{fill:{PLACED}}}.places{{fill:{PLACES}}}"
        f".mark{{font-size:{cell / box * 0.75:.1f}px;fill:#555}}.struck{{fill:{STRUCK}}}"
    )


def _digit(svg: Fragment, c: int, n: int, cell: int, symbol: str, kind: str) -> None:
    svg.add(
        "text",
        symbol,
        x=c % n * cell + cell / 2,
        y=c // n * cell + cell * 0.7,
        class_=f"digit {kind}",
        data_cell=c,
    )


def _marks(
    svg: Fragment,
    c: int,
    state: Grid,
    cell: int,
    values: Iterable[int],
    struck: set[tuple[int, int]],
) -> None:
    """Pencil marks in the cell's b x b corner grid; an eliminated one struck through."""
    n, box = state.size, state.box
    step = cell / box
    x0, y0 = c % n * cell, c // n * cell
    for value in values:
        x = x0 + (value - 1) % box * step + step / 2
        y = y0 + (value - 1) // box * step + step * 0.75
        gone = (c, value) in struck
        svg.add(
            "text",
            state.symbol(value),
            x=x,
            y=y,
            class_="mark struck" if gone else "mark",
            data_cell=c,
        )
        if gone:
            half, middle = step * 0.35, y - step * 0.25
            svg.add(
                "line",
                x1=x - half,
                y1=middle,
                x2=x + half,
                y2=middle,
                stroke=STRUCK,
                stroke_width=1.2,
            )


def _marked_svg(marked: MarkedGrid) -> str:
    """A marked grid: its grid with the candidates drawn."""
    return grid_svg(marked.grid, candidates=marked.marks())


draws(Grid, grid_svg)
draws(MarkedGrid, _marked_svg)
draws(Position, position_svg)
