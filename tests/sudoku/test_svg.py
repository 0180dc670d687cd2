"""Sudoku pictures: well-formed SVG with the digits, marks and highlights asked for."""

from __future__ import annotations

from xml.etree import ElementTree as ET

import pytest

from lazyfun.sudoku import parse, solve
from lazyfun.sudoku.board.geometry import units
from lazyfun.sudoku.steps.deduction import walkthrough
from lazyfun.sudoku.svg import grid_svg, position_svg

NS = "{http://www.w3.org/2000/svg}"
PUZZLE = "006200080008970000004810500000060002070000030600050000002047100003028400050001200"


def _classed(svg: str, tag: str, cls: str) -> list[ET.Element]:
    root = ET.fromstring(svg)  # well-formed, or this raises
    return [e for e in root.iter(NS + tag) if cls in e.get("class", "").split()]


@pytest.mark.parametrize("box", [2, 3, 4, 5])
def test_every_box_size_draws_its_givens_and_placed_digits(box: int) -> None:
    n = box * box
    solution = next(solve(parse("0" * n * n)))
    puzzle = parse("".join(ch if i % 3 == 0 else "0" for i, ch in enumerate(str(solution))))
    svg = grid_svg(puzzle, solution)
    given = _classed(svg, "text", "given")
    placed = _classed(svg, "text", "placed")
    assert len(given) == puzzle.givens
    assert len(placed) == n * n - puzzle.givens
    for element in given + placed:
        cell = int(element.get("data-cell", "-1"))
        assert element.text == solution.symbol(solution.cells[cell])


def test_marks_are_drawn_in_empty_cells_and_eliminations_struck() -> None:
    grid = parse("1...............")
    svg = grid_svg(grid, candidates={1: (2, 3, 4), 5: (2, 3)}, eliminations=[(1, 3)])
    marks = _classed(svg, "text", "mark")
    assert sorted((m.get("data-cell"), m.text) for m in marks) == [
        ("1", "2"),
        ("1", "3"),
        ("1", "4"),
        ("5", "2"),
        ("5", "3"),
    ]
    struck = _classed(svg, "text", "struck")
    assert [(s.get("data-cell"), s.text) for s in struck] == [("1", "3")]


def test_units_and_cells_are_shaded() -> None:
    svg = grid_svg(parse(PUZZLE), cells=[40], units_shaded=["box 5", "row 1"])
    shaded = {int(e.get("data-cell", "-1")) for e in _classed(svg, "rect", "cell")}
    assert shaded == set(units(3)[0]) | set(units(3)[22])
    assert [e.get("data-cell") for e in _classed(svg, "rect", "rests")] == ["40"]


def test_a_step_is_drawn_on_the_state_before_it() -> None:
    walk = walkthrough(parse(PUZZLE))
    for _ in range(3):
        position = next(walk)
    step = position.step
    svg = position_svg(position, parse(PUZZLE))
    assert {int(e.get("data-cell", "-1")) for e in _classed(svg, "rect", "rests")} == set(
        step.cells
    )
    (placing,) = _classed(svg, "text", "places")
    assert (int(placing.get("data-cell", "-1")), placing.text) == (
        step.placements[0][0],
        str(step.placements[0][1]),
    )
    assert len(_classed(svg, "text", "placed")) == 2  # the two steps before it
    assert str(step.technique) in svg


def test_titles_are_escaped() -> None:
    svg = grid_svg(parse(PUZZLE), title='<script>alert("x")</script> & co')
    root = ET.fromstring(svg)
    assert root.find(NS + "title") is not None
    assert root.findtext(NS + "title") == '<script>alert("x")</script> & co'
    assert "<script>" not in svg


def test_a_state_of_another_size_is_refused() -> None:
    with pytest.raises(ValueError, match="the state is 4x4, the puzzle 9x9"):
        grid_svg(parse(PUZZLE), parse("0" * 16))


def test_a_guess_is_labelled() -> None:
    empty = parse("0" * 16)
    position = next(walkthrough(empty, techniques=[]))
    assert position.step.technique == "bifurcation"
    assert "a guess, checked by the search" in position_svg(position)
