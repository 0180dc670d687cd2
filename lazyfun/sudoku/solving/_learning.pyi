"""Types of the C extension ``lazyfun.sudoku.solving._learning``.

See lazyfun.sudoku.solving.learning.
"""

from collections.abc import Sequence
from typing import final

@final
class Learner:
    """Clause learning over one Sudoku puzzle of box 2..5 (cells in reading order, 0 blank;
    ``units``: the 3N units of N cells, flat; ``peers``: each cell's peers, flat, as
    lazyfun.sudoku.board.geometry gives them; ``ruled_out``: (cell, value) pairs excluded from
    the start)."""

    def __init__(
        self,
        box: int,
        cells: Sequence[int],
        units: Sequence[int],
        peers: Sequence[int],
        restart_base: int = 100,
        seed: int = 0,
        ruled_out: Sequence[tuple[int, int]] | None = None,
    ) -> None: ...
    def run(self, budget: int = -1, /) -> int:
        """1: a solution (see solution()); 0: none left; -1: the budget of conflicts spent."""
    def solution(self) -> tuple[int, ...]:
        """The solution run() just found: the cells in reading order, values from 1."""
    def stats(self) -> dict[str, int]:
        """Counters so far: conflicts, decisions, propagations, restarts, learnts (kept),
        learnt_literals."""

def minimise_9x9(
    solution: Sequence[int], orbits: Sequence[Sequence[int]], minimal: bool = True
) -> tuple[int, ...]:
    """The full 9x9 grid ``solution``'s cells blanked orbit by orbit, in the order given, each
    blank kept if the puzzle stays unique (without ``minimal``, stopping at the first orbit
    that has to stay)."""

def complete_9x9(cells: Sequence[int], /) -> tuple[int, ...] | None:
    """The first solution the depth-first engine finds for the 9x9 puzzle ``cells`` (0
    blank), or None when its search would meet a failure on the way."""
