"""Types of the C extension ``lazyfun.sudoku.solving._nine``.

See lazyfun.sudoku.solving.nine.
"""

from collections.abc import Generator, Iterable, Sequence
from types import TracebackType
from typing import NoReturn, final

from lazyfun.sudoku.board.grid import Grid

class Conflict(ValueError):
    """Two givens share a unit and a value."""

@final
class Solutions(Generator[Grid]):
    """The solutions of a 9x9 Grid (ruled_out: (cell, value) pairs excluded), one at a
    time, each a Grid of its type and symbols; the search waits in C between them.  Raises
    Conflict when two givens clash.  A generator's methods: send, throw, close."""

    def __new__(
        cls, grid: Grid, ruled_out: Iterable[tuple[int, int]] | None = None
    ) -> Solutions: ...
    def __next__(self) -> Grid: ...
    def send(self, value: None, /) -> Grid:
        """The next solution, as next() gives it (the value is not used: a generator's
        send)."""

    def throw(
        self,
        typ: type[BaseException] | BaseException,
        val: object = None,
        tb: TracebackType | None = None,
        /,
    ) -> NoReturn:
        """End the search and raise the exception (a generator's throw, where the search
        waits)."""

    def close(self) -> None:
        """End the search and free it: next() then raises StopIteration (a generator's
        close)."""

def parse_line(text: str, like: Grid, /) -> Grid | None:
    """The Grid of a plain 81-character line (1-9 givens, '.' or '0' blanks), of the type
    and symbols of like; None for any other text."""

def solutions(grid: Grid, /) -> Solutions:
    """Solutions(grid): the solutions of a 9x9 Grid, one at a time.  Raises Conflict when
    two givens clash."""

def count_grid(grid: Grid, limit: int | None, /) -> int:
    """count(grid.cells, limit): how many solutions a 9x9 Grid has, stopping at limit
    (None: none, else 0 and up).  Raises Conflict when two givens clash."""

def count(
    cells: Sequence[int], limit: int = -1, ruled_out: Iterable[tuple[int, int]] | None = None
) -> int:
    """How many solutions a 9x9 puzzle has, stopping at limit (-1: none).  Raises Conflict
    when two givens clash."""

def solve_lines(lines: Sequence[str], limit: int = 1) -> list[tuple[int, str | None]]:
    """For each line (81 characters, or 729 pencil marks): (count up to limit, the first
    solution's 81 digits or None); the count is -1 when two givens clash."""
