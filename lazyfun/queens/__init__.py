"""N queens on an n x m board: lazy placements, fast counts, two search strategies.

>>> from lazyfun.queens import queens, count_queens
>>> list(queens(4))
[(1, 3, 0, 2), (2, 0, 3, 1)]
>>> count_queens(8)
92

``queens(rows, cols)`` streams placements in lexicographic order;
``queens(n, strategy="most-constrained")`` reaches a first placement of a
board with hundreds of columns at once.  ``lazyfun.queens.sicp`` is SICP's
exercise 2.42 name for name; ``lazyfun.eager`` keeps the eager versions for
study.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from lazyfun.queens.board import Placement, QueensError, board_size, is_placement
from lazyfun.queens.constrained import MOST_CONSTRAINED_LIMIT, most_constrained
from lazyfun.queens.count import count_queens
from lazyfun.queens.lex import lexicographic, solutions
from lazyfun.trace import Meter

__all__ = [
    "MOST_CONSTRAINED_LIMIT",
    "STRATEGIES",
    "Placement",
    "QueensError",
    "Strategy",
    "count_queens",
    "is_placement",
    "most_constrained",
    "queens",
    "solutions",
]

Strategy = Literal["lexicographic", "most-constrained"]
STRATEGIES: tuple[Strategy, ...] = ("lexicographic", "most-constrained")


def queens(
    rows: int,
    cols: int | None = None,
    *,
    strategy: Strategy = "lexicographic",
    meter: Meter | None = None,
) -> Iterator[Placement]:
    """Every placement of ``cols`` non-attacking queens, one per column, on ``rows`` rows.

    A placement is a tuple ``p`` with ``p[c]`` the row (from 0) of the queen
    in column ``c``; ``cols`` defaults to ``rows``.  Lazy and depth-first,
    memory O(rows + cols) however many placements follow.  With ``rows <
    cols`` the stream is empty; ``queens(n, 0)`` yields the one empty
    placement.

    - ``"lexicographic"`` (the default): placements in lexicographic order,
      the order of the list-comprehension article's ``queens(row, col)``.
    - ``"most-constrained"``: the same placements in another order, found by
      branching on the column with the fewest safe rows; use it for the first
      placements of a large board (n = 200 in milliseconds); boards wider
      than ``MOST_CONSTRAINED_LIMIT`` columns are refused at once, with the
      reason.

    A ``meter`` counts the nodes of the search tree as the stream is read (a
    front end shows that a long search is alive; a study reads how much was
    built): the lexicographic walk counts each partial placement it builds,
    the most-constrained search each node it expands (``lazyfun.search``'s
    count).  Every node behind a placement is counted by the time it is read.

    >>> from lazyfun import ilen, first
    >>> ilen(queens(6, 4)), ilen(queens(3, 4)), list(queens(5, 0))
    (46, 0, [()])
    >>> is_placement(first(queens(300, strategy="most-constrained")), 300)
    True
    """
    if strategy == "lexicographic":
        return lexicographic(rows, cols, meter)
    if strategy == "most-constrained":
        return most_constrained(rows, cols, meter)
    board_size(rows, cols)
    raise QueensError(f"unknown strategy {strategy!r}: choose one of {', '.join(STRATEGIES)}")
