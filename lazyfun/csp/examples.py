"""Models from the seeds and the classics, built with :mod:`lazyfun.csp`.

- ``sudoku_model``: the Solver Foundation article's Sudoku, either as the
  article writes it (``all_different`` per row, pairwise ``!=`` for columns
  and boxes, one named ``==`` per given) or with ``all_different`` everywhere;
- ``queens_model``: n queens, one decision per column;
- ``send_more_money``: SEND + MORE = MONEY.
"""

from __future__ import annotations

from itertools import combinations
from typing import Literal

from lazyfun.csp.constraints import Decision, all_different
from lazyfun.csp.domain import Domain, ModelError
from lazyfun.csp.model import Model

__all__ = ["MSF_PUZZLE", "queens_model", "send_more_money", "sudoku_model"]

MSF_PUZZLE = "006200080008970000004810500000060002070000030600050000002047100003028400050001200"
"""The puzzle of the Solver Foundation article's demo."""


def sudoku_model(
    puzzle: str, style: Literal["article", "all_different"] = "article", box: int = 3
) -> tuple[Model, list[list[Decision]]]:
    """A Sudoku as a model; returns the model and its grid of decisions ``grid[r][c]``.

    Decisions are named ``grid{r}{c}`` as in the article; givens are
    constraints named ``v{r}{c}``.  Blanks are ``0`` or ``.``.
    """
    size = box * box
    if len(puzzle) != size * size:
        raise ModelError(f"a {size}x{size} puzzle has {size * size} cells, got {len(puzzle)}")
    model = Model()
    digits = Domain.integer_range(1, size)
    grid = [[model.decision(f"grid{r}{c}", digits) for c in range(size)] for r in range(size)]
    columns = [[grid[r][c] for r in range(size)] for c in range(size)]
    boxes = [
        [grid[br + r][bc + c] for r in range(box) for c in range(box)]
        for br in range(0, size, box)
        for bc in range(0, size, box)
    ]
    for r, row in enumerate(grid):
        model.add_constraint(f"rowConstraint{r}", all_different(row))
    for kind, units in (("colConstraint", columns), ("cubeConstraint", boxes)):
        for u, unit in enumerate(units):
            if style == "all_different":
                model.add_constraint(f"{kind}{u}", all_different(unit))
            else:
                for (i, a), (j, b) in combinations(enumerate(unit), 2):
                    model.add_constraint(f"{kind}{u}_{i}_{j}", a != b)
    for k, ch in enumerate(puzzle):
        if ch not in ".0":
            value = int(ch, 36)
            if not 1 <= value <= size:
                raise ModelError(f"cell {k + 1}: {ch!r} is not a value of a {size}x{size} Sudoku")
            model.add_constraint(f"v{k // size}{k % size}", grid[k // size][k % size] == value)
    return model, grid


def queens_model(n: int) -> tuple[Model, list[Decision]]:
    """n queens: ``q[c]`` is the row of column c's queen; rows all different, diagonals too."""
    model = Model()
    q = [model.decision(f"q{c}", Domain.integer_range(0, n - 1)) for c in range(n)]
    model.add_constraint("rows", all_different(q))
    for i, j in combinations(range(n), 2):
        model.add_constraint(f"diagonal{i}_{j}", abs(q[i] - q[j]) != j - i)
    return model, q


def send_more_money() -> tuple[Model, dict[str, Decision]]:
    """SEND + MORE = MONEY, leading letters non-zero, letters all different."""
    model = Model()
    letters = {ch: model.decision(ch, Domain.integer_range(0, 9)) for ch in "SENDMORY"}
    s, e, n, d, m, o, r, y = (letters[ch] for ch in "SENDMORY")
    model.add_constraint("distinct", all_different(letters.values()))
    model.add_constraint("S", s != 0)
    model.add_constraint("M", m != 0)
    model.add_constraint(
        "sum",
        1000 * s + 100 * e + 10 * n + d + 1000 * m + 100 * o + 10 * r + e
        == 10000 * m + 1000 * o + 100 * n + 10 * e + y,
    )
    return model, letters
