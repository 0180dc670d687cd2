"""Queens pictures: a placement on its n x m board, or several as a strip, as SVG.

A placement ``p`` puts the queen of column ``c`` on row ``p[c]``, row 0 at
the top, on a board of ``rows`` rows and ``len(p)`` columns: the article's
boards need not be square, so the drawing takes the board's height.

>>> picture = board_svg((1, 3, 0, 2), 4)
>>> picture.count('class="queen"'), picture.count('class="square dark"')
(4, 8)
>>> boards_svg([(1, 3, 0, 2), (2, 0, 3, 1)], 4).count('class="board"')
2
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from lazyfun.drawing import Fragment, Svg
from lazyfun.queens.board import Placement, QueensError, is_placement

__all__ = ["SQUARE", "Board", "board_svg", "boards_svg"]

SQUARE = 36  # pixels per square, by default
LIGHT, DARK, QUEEN = "#f0d9b5", "#b58863", "#1b1b1b"
GAP = 16  # pixels between two boards of a strip
CAPTION = 20  # pixels under each board of a strip for its number
PER_ROW = 6  # boards on one line of a strip, at most


@dataclass(frozen=True)
class Board:
    """A placement on its board, which Jupyter shows as a picture.

    >>> Board((1, 3, 0, 2), 4)._repr_svg_().count('class="queen"')
    4
    """

    placement: Placement
    rows: int

    def _repr_svg_(self) -> str:
        return board_svg(self.placement, self.rows)


def board_svg(
    placement: Placement, rows: int, *, title: str | None = None, square: int = SQUARE
) -> str:
    """One placement on a ``rows`` x ``len(placement)`` board."""
    _check(placement, rows)
    cols = len(placement)
    svg = Svg(cols * square, rows * square, title=title)
    svg.place(_board(placement, rows, square, 0, 0))
    return svg.close()


def boards_svg(
    placements: Iterable[Placement],
    rows: int,
    *,
    title: str | None = None,
    square: int = SQUARE,
    per_row: int = PER_ROW,
) -> str:
    """Several placements of one board size side by side, numbered from 1, ``per_row``
    to a line (the K placements that ``lazyfun queens N --limit K --svg FILE`` writes)."""
    boards = list(placements)
    if not boards:
        raise QueensError("no placement to draw")
    for p in boards:
        _check(p, rows)
    cols = len(boards[0])
    if any(len(p) != cols for p in boards):
        raise QueensError("placements of different widths cannot share a strip")
    across = min(per_row, len(boards))
    down = -(-len(boards) // across)
    width, height = cols * square + GAP, rows * square + CAPTION + GAP
    svg = Svg(across * width - GAP, down * height - GAP, title=title)
    for k, p in enumerate(boards):
        x, y = k % across * width, k // across * height
        svg.place(_board(p, rows, square, x, y))
        svg.add(
            "text",
            str(k + 1),
            x=x + cols * square / 2,
            y=y + rows * square + CAPTION * 0.8,
            font_size=CAPTION * 0.7,
            text_anchor="middle",
            class_="number",
        )
    return svg.close()


def _check(placement: Placement, rows: int) -> None:
    if not is_placement(placement, rows):
        raise QueensError(f"not a placement on a board of {rows} rows: {placement!r}")


def _board(placement: Placement, rows: int, square: int, x: float, y: float) -> Fragment:
    board = Fragment()
    cols = len(placement)
    board.add(
        "rect", x=x, y=y, width=cols * square, height=rows * square, fill=LIGHT, class_="board"
    )
    for r in range(rows):
        for c in range(cols):
            if (r + c) % 2:
                board.add(
                    "rect",
                    x=x + c * square,
                    y=y + r * square,
                    width=square,
                    height=square,
                    fill=DARK,
                    class_="square dark",
                )
    for c, r in enumerate(placement):
        board.add(
            "text",
            "\u265b",
            x=x + c * square + square / 2,
            y=y + r * square + square * 0.78,
            font_size=square * 0.8,
            text_anchor="middle",
            fill=QUEEN,
            class_="queen",
            data_column=c,
            data_row=r,
        )
    return board
