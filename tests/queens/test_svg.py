"""Queens pictures: one queen per column on the right square, boards of any shape."""

from __future__ import annotations

from xml.etree import ElementTree as ET

import pytest

from lazyfun.queens import QueensError, queens
from lazyfun.queens.svg import SQUARE, board_svg, boards_svg

NS = "{http://www.w3.org/2000/svg}"


def _queens(svg: str) -> list[tuple[int, int]]:
    root = ET.fromstring(svg)
    return [
        (int(e.get("data-column", "-1")), int(e.get("data-row", "-1")))
        for e in root.iter(NS + "text")
        if e.get("class") == "queen"
    ]


def test_a_placement_on_a_board_that_is_not_square() -> None:
    placement = next(queens(6, 4))
    svg = board_svg(placement, 6)
    root = ET.fromstring(svg)
    assert (root.get("width"), root.get("height")) == (str(4 * SQUARE), str(6 * SQUARE))
    assert _queens(svg) == list(enumerate(placement))


def test_a_strip_numbers_its_boards() -> None:
    placements = list(queens(8))[:10]
    svg = boards_svg(placements, 8, per_row=4)
    root = ET.fromstring(svg)
    numbers = [e.text for e in root.iter(NS + "text") if e.get("class") == "number"]
    assert numbers == [str(k) for k in range(1, 11)]
    assert len(_queens(svg)) == 80


def test_a_wrong_placement_is_refused() -> None:
    with pytest.raises(QueensError, match="not a placement"):
        board_svg((0, 1), 4)
    with pytest.raises(QueensError, match="no placement"):
        boards_svg([], 4)
