"""What Jupyter shows: pictures of grids, steps and boards; LazyList and Probe as HTML."""

from __future__ import annotations

from xml.etree import ElementTree as ET

from lazyfun import LazyList
from lazyfun.queens.svg import Board
from lazyfun.sudoku import parse
from lazyfun.sudoku.steps.deduction import walkthrough
from lazyfun.trace import Probe

PUZZLE = "....34...3.11..4"


def test_a_grid_and_a_step_show_as_svg() -> None:
    grid = parse(PUZZLE)
    picture = grid._repr_svg_()
    assert picture is not None
    root = ET.fromstring(picture)
    digits = [e.text for e in root.iter("{http://www.w3.org/2000/svg}text")]
    assert sorted(d for d in digits if d) == sorted(str(v) for v in grid.cells if v)
    step = next(walkthrough(grid))._repr_svg_()
    assert step is not None
    assert 'class="cell rests"' in step
    assert "hidden single (box)" in step


def test_a_board_shows_its_queens() -> None:
    assert Board((1, 3, 0, 2), 4)._repr_svg_().count('class="queen"') == 4


def test_a_lazylist_shows_what_is_computed_and_escapes_it() -> None:
    xs = LazyList.of(["<a>", "b", "c"])
    assert xs._repr_html_() == "<code>LazyList</code> [<i>not computed yet</i>]"
    _ = xs[0]
    assert "<b>&#x27;&lt;a&gt;&#x27;</b>, <i>not computed yet</i>" in xs._repr_html_()
    assert list(xs) == ["<a>", "b", "c"]
    assert xs._repr_html_().endswith("<b>&#x27;c&#x27;</b>]")


def test_a_probe_shows_its_counts_as_bars() -> None:
    probe = Probe()
    with probe:
        list(probe.stage("<stage>", range(10)))
    html = probe._repr_html_()
    assert "&lt;stage&gt;" in html
    assert "<td style='text-align:right'>10</td>" in html
    assert "time " in html
