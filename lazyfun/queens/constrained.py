"""A first placement on a large board: branch where the board is most constrained.

The lexicographic search of :mod:`lazyfun.queens.lex` fills column 0, then
column 1, and so on; from about n = 50 on, it can wander for ever in the
subtrees under its first choices.  This strategy is the same skeleton,
:func:`lazyfun.search`, with the choices made differently:

- ``place`` puts a queen and at once strikes the squares it attacks from the
  columns still empty (forward checking), so each column knows its safe rows;
- ``blocked``: an empty column has no safe row, or, when the free rows are
  exactly as many as the empty columns, some free row has no column left;
- ``prune``: ``many forced``, where ``forced`` puts a queen on a free row that
  only one column can still take (only when every free row must be filled);
- ``expand1``: the empty column with the fewest safe rows, ties going to the
  column nearer an edge, its rows tried from the middle of the board outwards.

Trade-off: the stream still holds every placement, each once, but in no
simple order, and each step costs O(cols) big-integer operations where the
lexicographic walk costs a few.  It pays on large boards: with these choices
the first placement of every n from 4 to 399 comes after fewer than 420
branchings (little more than one per column) except n = 366, which takes
3,963; n = 1000 takes about a second.  Other tie-breaks (leftmost column,
rows from the top) leave dozens of sizes under 400 stuck for tens of
thousands of branchings.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from lazyfun.core import many
from lazyfun.queens.board import Placement, QueensError, board_size
from lazyfun.search import search
from lazyfun.trace import Meter

__all__ = [
    "MOST_CONSTRAINED_LIMIT",
    "Board",
    "blocked",
    "complete",
    "expand1",
    "forced",
    "most_constrained",
    "place",
    "start",
]

EMPTY = -1
MOST_CONSTRAINED_LIMIT = 2000


def _path_bytes(rows: int, cols: int) -> int:
    """Bytes held by a full search path: a board per column, ``cols`` masks of ``rows`` bits."""
    return cols * cols * (rows // 8 + 28)


class Board(NamedTuple):
    """A partial placement with, for each empty column, the rows still safe in it.

    ``rows[c]`` is the queen's row in column ``c`` or ``EMPTY``; ``safe[c]`` is
    a bit set of rows (0 once the column is filled); ``free`` the rows that
    hold no queen; ``empty`` the number of empty columns; ``dead`` records
    that a placement left an empty column no row.
    """

    height: int
    rows: tuple[int, ...]
    safe: tuple[int, ...]
    free: int
    empty: int
    dead: bool = False


def start(height: int, width: int) -> Board:
    """The empty board: every row safe in every column.

    >>> start(2, 3)
    Board(height=2, rows=(-1, -1, -1), safe=(3, 3, 3), free=3, empty=3, dead=False)
    """
    full = (1 << height) - 1
    return Board(height, (EMPTY,) * width, (full,) * width, full, width)


def place(board: Board, column: int, row: int) -> Board:
    """Put a queen on (row, column) and strike what it attacks from the empty columns.

    In column ``c`` at distance ``d`` it attacks rows ``row`` and ``row ± d``.

    >>> place(start(4, 4), 0, 1)
    Board(height=4, rows=(1, -1, -1, -1), safe=(0, 8, 5, 13), free=13, empty=3, dead=False)
    """
    bit = 1 << row
    safe = list(board.safe)
    dead = False
    for c, rows in enumerate(safe):
        if rows and c != column:
            d = c - column if c > column else column - c
            rows &= ~(bit | bit << d | bit >> d)
            safe[c] = rows
            dead = dead or not rows
    safe[column] = 0
    placed = (*board.rows[:column], row, *board.rows[column + 1 :])
    return Board(board.height, placed, tuple(safe), board.free & ~bit, board.empty - 1, dead)


def _tight(board: Board) -> bool:
    """Every free row needs a queen: as many free rows as empty columns."""
    return board.free.bit_count() == board.empty


def _covered(board: Board) -> tuple[int, int]:
    """Rows safe in at least one empty column, and in at least two."""
    once = twice = 0
    for rows in board.safe:
        twice |= once & rows
        once |= rows
    return once, twice


def complete(board: Board) -> bool:
    """Every column holds a queen."""
    return board.empty == 0


def blocked(board: Board) -> bool:
    """An empty column has no safe row, or a free row that must be filled has no column."""
    if board.dead:
        return True
    if not _tight(board):
        return False
    once, _ = _covered(board)
    return board.free & ~once != 0


def forced(board: Board) -> Board:
    """Fill one free row that exactly one empty column can take (when every row must be filled).

    ``prune = many forced``: the fixpoint has no such row left.
    """
    if board.dead or not _tight(board):
        return board
    once, twice = _covered(board)
    single = board.free & once & ~twice
    if not single:
        return board
    bit = single & -single
    column = next(c for c, rows in enumerate(board.safe) if rows & bit)
    return place(board, column, bit.bit_length() - 1)


def prune(board: Board) -> Board:
    """``many forced``: forced rows filled until none is left."""
    return many(forced, board)


def expand1(board: Board) -> Iterator[Board]:
    """Branch on the empty column with the fewest safe rows, middle rows first."""
    width = len(board.rows)
    safe = board.safe
    column = min(
        (c for c, r in enumerate(board.rows) if r == EMPTY),
        key=lambda c: (safe[c].bit_count(), -abs(2 * c - width + 1)),
    )
    rows = safe[column]
    choices = [r for r in range(rows.bit_length()) if rows >> r & 1]
    choices.sort(key=lambda r: abs(2 * r - board.height + 1))
    return (place(board, column, r) for r in choices)


def most_constrained(
    rows: int, cols: int | None = None, meter: Meter | None = None
) -> Iterator[Placement]:
    """Every placement, like ``queens(rows, cols)``, found most-constrained-column first.

    Lazy; made for the first few placements of a large board.  The order is
    not lexicographic (see the module docstring).  A board is a bit set of
    rows per column, and the search keeps one board per column placed, so
    memory grows as ``cols`` squared times ``rows``: wider boards than
    ``MOST_CONSTRAINED_LIMIT`` are refused at once with a ``QueensError``.

    >>> from lazyfun import first
    >>> p = first(most_constrained(200))
    >>> from lazyfun.queens.board import is_placement
    >>> len(p), is_placement(p, 200)
    (200, True)
    """
    rows, cols = board_size(rows, cols)
    if cols > MOST_CONSTRAINED_LIMIT:
        raise QueensError(
            f"the most-constrained search keeps a board of {rows} x {cols} bits per column "
            f"placed (about {_path_bytes(rows, cols) / 2**30:,.0f} GiB for {cols} columns); "
            f"it takes boards up to {MOST_CONSTRAINED_LIMIT:,} columns"
        )
    if rows < cols:
        return iter(())
    found = search(
        prune(start(rows, cols)),
        expand1=expand1,
        complete=complete,
        blocked=blocked,
        prune=prune,
        meter=meter,
    )
    return (board.rows for board in found)
