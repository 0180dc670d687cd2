"""Types of the C extension ``lazyfun.sudoku.canon._minlex``.

See lazyfun.sudoku.canon (the search) and lazyfun/sudoku/canon/minlex_c (the C).
"""

from collections.abc import Sequence

class Conflict(ValueError):
    """Two givens share a unit and a value."""

def minlex(cells: Sequence[int], bound: int = 1048576, /) -> tuple[int, ...] | None:
    """The minlex form of 81 values (0 blank), or None when a row of the search would keep
    more than ``bound`` states (the caller falls back).  Raises Conflict when two givens
    share a unit."""

def minlex_lines(lines: Sequence[str], /) -> list[str | None]:
    """The minlex form of each line of 81 characters ('0' or '.' blank) as 81 digits, None
    where the search would outgrow its bound."""
