"""Pages: an explanation of a puzzle's steps, and printable booklets, as single HTML files.

Each page is one self-contained file: inline SVG drawn by
:mod:`lazyfun.sudoku.svg`, a few lines of CSS and JavaScript, nothing fetched
from the network.  Every text taken from input (a title, a puzzle) is
escaped.

- :func:`explanation_page`: the rating at the top, then the grid before each
  step with the step's cells, units, placements and eliminations drawn; the
  step's text; previous/next buttons, the arrow keys, and a list of steps to
  jump to; the solved grid at the end.
- :func:`booklet`: puzzles laid out for print, ``per_page`` to a sheet of A4
  or US letter, numbered with their ratings, and the solutions on the last
  pages.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Literal

from lazyfun.sudoku import Grid, MarkedGrid, Rating, UnsolvedError, count_solutions, solve, variants
from lazyfun.sudoku.board.grid import grid_of
from lazyfun.sudoku.steps.deduction import Position, walkthrough
from lazyfun.sudoku.steps.rating import NO_SCALE, rating_of
from lazyfun.sudoku.svg import grid_svg, position_svg
from lazyfun.sudoku.variants import Variant

__all__ = ["PAPERS", "Paper", "Printed", "booklet", "explanation_page", "printed"]

Paper = Literal["a4", "letter"]
PAPERS: dict[Paper, tuple[str, str]] = {"a4": ("210mm", "297mm"), "letter": ("8.5in", "11in")}

_STYLE = """
body{font-family:Helvetica,Arial,sans-serif;margin:1.5em;color:#111}
h1{font-size:1.4em;margin:0 0 .3em;word-break:break-all}
#rating{margin:0 0 1em;color:#444}
nav{display:flex;gap:.8em;align-items:center;margin-bottom:.8em}
button{font-size:1em;padding:.3em .9em}
.layout{display:flex;gap:2em;align-items:flex-start}
section.step p{max-width:380px;font-size:1.05em}
#steps{max-height:560px;overflow:auto;font-size:.9em;padding-left:2.5em;margin:0}
#steps a{color:#1f5fbf;text-decoration:none}
#steps li.current a{font-weight:bold;color:#111}
"""

_SCRIPT = """
const sections = document.querySelectorAll("section.step");
const items = document.querySelectorAll("#steps li");
let current = 0;
function show(k) {
  current = Math.max(0, Math.min(sections.length - 1, k));
  sections.forEach((s, i) => { s.hidden = i !== current; });
  items.forEach((li, i) => li.classList.toggle("current", i === current));
  document.getElementById("number").textContent = current + 1;
}
document.getElementById("previous").onclick = () => show(current - 1);
document.getElementById("next").onclick = () => show(current + 1);
document.addEventListener("keydown", (e) => {
  if (e.key === "ArrowRight") show(current + 1);
  if (e.key === "ArrowLeft") show(current - 1);
});
items.forEach((li, i) => li.querySelector("a").onclick = (e) => { e.preventDefault(); show(i); });
show(0);
"""


def _rating_text(rating: Rating | None, reason: str | None) -> str:
    if rating is None:
        return f"Not rated: {reason}"
    floor = "+" if rating.floor else ""
    return (
        f"Rating {rating.score:.1f}{floor} ({rating.level}): the hardest step is "
        f"{rating.hardest}; {rating.steps} steps, {rating.guesses} guesses"
    )


def explanation_page(puzzle: Grid | MarkedGrid | Variant, *, title: str | None = None) -> str:
    """The puzzle explained step by step, as one HTML page (eager: it finds every step);
    a marked grid's steps start from its candidates; a variant is drawn with its rules
    (and not rated: the scale is the classic grid's).

    >>> from lazyfun.sudoku import parse
    >>> page = explanation_page(parse("...." "34.." ".3.1" "1..4"))
    >>> page.count('<section class="step"'), "Rating 1.2 (easy)" in page
    (11, True)
    """
    grid = puzzle.grid if isinstance(puzzle, Variant) else grid_of(puzzle)
    drawn = puzzle if isinstance(puzzle, Variant) else grid
    positions: list[Position] = list(walkthrough(puzzle))
    rating: Rating | None = None
    reason = None
    if isinstance(puzzle, Variant):
        reason = f"a variant ({puzzle.kind}): {NO_SCALE}"
    elif count_solutions(puzzle, limit=2) == 1:
        rating = rating_of(p.step for p in positions)
    else:
        reason = "the puzzle has more than one solution"
    heading = title or f"Sudoku {grid}"
    sections = [
        _section(k, position_svg(p, grid), escape(str(p.step)), hidden=k > 0)
        for k, p in enumerate(positions)
    ]
    solved = _grid_after(positions[-1]) if positions else grid  # a full grid has no steps
    sections.append(
        _section(len(positions), grid_svg(drawn, solved, title="solved"), "Solved.", hidden=True)
    )
    items = [f'<li><a href="#">{escape(str(p.step))}</a></li>' for p in positions] + [
        '<li><a href="#">solved</a></li>'
    ]
    total = len(positions) + 1
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(heading)}</title><style>{_STYLE}</style></head><body>"
        f"<h1>{escape(heading)}</h1>"
        f'<p id="rating">{escape(_rating_text(rating, reason))}</p>'
        '<nav><button id="previous" type="button">&#9664; previous</button>'
        f'<span>step <b id="number">1</b> of <b id="total">{total}</b></span>'
        '<button id="next" type="button">next &#9654;</button>'
        "<span>(or the arrow keys)</span></nav>"
        f'<div class="layout"><main>{"".join(sections)}</main>'
        f'<ol id="steps">{"".join(items)}</ol></div>'
        f"<script>{_SCRIPT}</script></body></html>\n"
    )


def _section(k: int, svg: str, text: str, *, hidden: bool) -> str:
    attribute = " hidden" if hidden else ""
    return (
        f'<section class="step" data-step="{k}"{attribute}>'
        f'{svg}<p class="text">{text}</p></section>'
    )


def _grid_after(position: Position) -> Grid:
    cells = list(position.grid.cells)
    for cell, value in position.step.placements:
        cells[cell] = value
    return Grid(tuple(cells), position.grid.box, position.grid.symbols)


@dataclass(frozen=True)
class Printed:
    """One puzzle of a booklet: the puzzle (a variant is printed with its rules), its
    solution, and its rating if known."""

    puzzle: Grid | Variant
    solution: Grid
    rating: Rating | None = None

    @property
    def side(self) -> int:
        """The grid's N."""
        return self.solution.size


def printed(puzzle: Grid | Variant, rating: Rating | None = None) -> Printed:
    """The puzzle with its (first) solution, ready for a booklet; UnsolvedError if none."""
    found = variants.solve(puzzle) if isinstance(puzzle, Variant) else solve(puzzle)
    solution = next(found, None)
    if solution is None:
        raise UnsolvedError("no solution: nothing to print")
    return Printed(puzzle, solution, rating)


def booklet(
    puzzles: Iterable[Printed],
    *,
    per_page: int = 4,
    paper: Paper = "a4",
    title: str = "Sudoku",
) -> str:
    """The puzzles as a page for print: ``per_page`` to a sheet, then the solutions."""
    if per_page not in (1, 2, 4, 6):
        raise ValueError(f"per_page must be 1, 2, 4 or 6, got {per_page}")
    if paper not in PAPERS:
        raise ValueError(f"paper must be a4 or letter, got {paper!r}")
    chosen = list(puzzles)
    if not chosen:
        raise ValueError("a booklet needs at least one puzzle")
    width, height = PAPERS[paper]
    across = 1 if per_page == 1 else 2
    cell = {1: 52, 2: 38, 4: 30, 6: 24}[per_page]
    puzzle_cards = [
        _card(f"{k}", p.rating, grid_svg(p.puzzle, cell=cell * 9 // p.side))
        for k, p in enumerate(chosen, 1)
    ]
    solution_cards = [
        _card(f"{k}: solution", None, grid_svg(p.puzzle, p.solution, cell=cell * 9 // p.side))
        for k, p in enumerate(chosen, 1)
    ]
    sheets = _sheets(puzzle_cards, per_page, title) + _sheets(
        solution_cards, per_page, f"{title}: solutions"
    )
    style = (
        f"@page{{size:{width} {height};margin:12mm}}"
        "body{font-family:Helvetica,Arial,sans-serif;margin:0}"
        ".sheet{break-after:page;page-break-after:always}"
        ".sheet:last-child{break-after:auto;page-break-after:auto}"
        f".cards{{display:grid;grid-template-columns:repeat({across},1fr);gap:8mm}}"
        ".card{break-inside:avoid;text-align:center}.card h2{font-size:12pt;margin:2mm 0}"
        "h1{font-size:14pt;margin:0 0 4mm}"
    )
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{style}</style></head><body>"
        f"{''.join(sheets)}</body></html>\n"
    )


def _card(label: str, rating: Rating | None, svg: str) -> str:
    rated = ""
    if rating is not None:
        rated = f" &middot; {rating.score:.1f} {escape(rating.level)}"
    return f'<div class="card"><h2>{escape(label)}{rated}</h2>{svg}</div>'


def _sheets(cards: Sequence[str], per_page: int, heading: str) -> list[str]:
    return [
        f'<div class="sheet"><h1>{escape(heading)}</h1>'
        f'<div class="cards">{"".join(cards[i : i + per_page])}</div></div>'
        for i in range(0, len(cards), per_page)
    ]
