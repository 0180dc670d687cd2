"""Models from the seeds and the classics, built with :mod:`lazyfun.csp`.

- ``sudoku_model``: the Solver Foundation article's Sudoku, either as the
  article writes it (``all_different`` per row, pairwise ``!=`` for columns
  and boxes, one named ``==`` per given) or with ``all_different`` everywhere;
- ``queens_model``: n queens, one decision per column;
- ``send_more_money``: SEND + MORE = MONEY;
- ``golomb_model``: Golomb rulers (CSPLib prob006), the shortest wanted;
- ``knapsack_model``: 0-1 knapsack, the most value wanted; ``HIKING`` is
  Rosetta Code's 22-item instance (capacity 400, optimum 1030);
  ``correlated_items`` draws Pisinger's strongly correlated instances;
- ``random_csp_model``: a random binary CSP (model B), pairs of decisions
  constrained by tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, product
from random import Random
from typing import Literal

from lazyfun.csp.modelling.constraints import Decision, all_different, total
from lazyfun.csp.modelling.domain import Domain, ModelError
from lazyfun.csp.modelling.model import Model
from lazyfun.csp.modelling.relations import table

__all__ = [
    "HIKING",
    "MSF_PUZZLE",
    "correlated_items",
    "golomb_model",
    "knapsack_model",
    "queens_model",
    "random_csp_model",
    "send_more_money",
    "sudoku_model",
]

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


def golomb_model(marks: int) -> tuple[Model, list[Decision]]:
    """A Golomb ruler of ``marks`` marks, as short as can be (CSPLib prob006).

    Marks ``m0 = 0 < m1 < ...``, all their differences distinct; the goal is
    the last mark.  The usual model: a decision per difference, at least
    ``1 + 2 + ... + (j - i)`` for marks ``i < j``; the mirror image cut by
    ``d(0,1) < d(n-2,n-1)``; marks at most ``marks**2``; branching on the marks
    in order.  The optimal lengths for 4..8 marks are 6, 11, 17, 25 and 34.

    >>> model, ruler = golomb_model(5)
    >>> best = model.solve()
    >>> best.quality.name, [best[m] for m in ruler]
    ('OPTIMAL', [0, 1, 4, 9, 11])
    """
    if marks < 2:
        raise ModelError(f"a Golomb ruler needs at least 2 marks, got {marks}")
    model = Model()
    top = marks * marks
    ruler = [model.decision(f"m{i}", Domain.integer_range(0, top)) for i in range(marks)]
    model.add_constraint("origin", ruler[0] == 0)
    for i in range(marks - 1):
        model.add_constraint(f"order{i}", ruler[i] < ruler[i + 1])
    gaps = []
    for i, j in combinations(range(marks), 2):
        least = (j - i) * (j - i + 1) // 2
        gap = model.decision(f"d{i}_{j}", Domain.integer_range(least, top))
        model.add_constraint(f"gap{i}_{j}", gap == ruler[j] - ruler[i])
        gaps.append(gap)
    model.add_constraint("distinct", all_different(gaps))
    if marks > 2:
        model.add_constraint("mirror", gaps[0] < gaps[-1])
    model.minimize(ruler[-1])
    model.branch_on(ruler)
    return model, ruler


HIKING = (
    ("map", 9, 150),
    ("compass", 13, 35),
    ("water", 153, 200),
    ("sandwich", 50, 160),
    ("glucose", 15, 60),
    ("tin", 68, 45),
    ("banana", 27, 60),
    ("apple", 39, 40),
    ("cheese", 23, 30),
    ("beer", 52, 10),
    ("suntan cream", 11, 70),
    ("camera", 32, 30),
    ("T-shirt", 24, 15),
    ("trousers", 48, 10),
    ("umbrella", 73, 40),
    ("waterproof trousers", 42, 70),
    ("waterproof overclothes", 43, 75),
    ("note-case", 22, 80),
    ("sunglasses", 7, 20),
    ("towel", 18, 12),
    ("socks", 4, 50),
    ("book", 30, 10),
)
"""Rosetta Code's "Knapsack problem/0-1": (item, weight in dag, value); 400 dag fit."""


def knapsack_model(
    items: Sequence[tuple[str, int, int]] = HIKING, capacity: int = 400
) -> tuple[Model, list[Decision]]:
    """Take each item or not, weights within ``capacity``, the most value wanted.

    >>> model, take = knapsack_model()
    >>> best = model.solve()
    >>> best.quality.name, best.objective
    ('OPTIMAL', (1030,))
    """
    model = Model()
    take = [model.decision(name, Domain.boolean()) for name, _, _ in items]
    model.add_constraint(
        "capacity", total(w * x for x, (_, w, _) in zip(take, items, strict=True)) <= capacity
    )
    model.maximize(total(v * x for x, (_, _, v) in zip(take, items, strict=True)))
    return model, take


def correlated_items(
    n: int = 50, seed: int = 1, spread: int = 1000
) -> tuple[list[tuple[str, int, int]], int]:
    """Pisinger's "strongly correlated" knapsack: ``n`` items weighing ``1 .. spread``
    (drawn with ``random.Random(seed)``), each worth its weight plus ``spread // 10``;
    the capacity is half their total weight.  Returns ``(items, capacity)``, items
    named ``item0``, ``item1``, ...: hard for branch and bound, since every item
    is worth about as much per weight as every other.

    >>> items, capacity = correlated_items(3, seed=7, spread=100)
    >>> [(w, v) for _, w, v in items], capacity
    ([(42, 52), (20, 30), (51, 61)], 56)
    """
    rng = Random(seed)
    weights = [rng.randint(1, spread) for _ in range(n)]
    items = [(f"item{k}", w, w + spread // 10) for k, w in enumerate(weights)]
    return items, sum(weights) // 2


def random_csp_model(n: int, d: int, density: float, tightness: float, seed: int) -> Model:
    """A random binary CSP (model B's kind): ``n`` decisions over ``0..d-1``, each pair
    constrained with probability ``density`` by a table without a ``tightness`` share
    of the value pairs, drawn by ``random.Random(seed)``.  Near ``tightness`` 0.38 with
    fifty decisions over ten values at density 0.2, most have no solution, and proving
    it is hard: a search meets the same dead ends again and again.

    >>> m = random_csp_model(4, 3, 1.0, 0.0, seed=0)  # every pair allowed
    >>> len(m.decisions), len(m.constraints), m.count()
    (4, 6, 81)
    """
    rng = Random(seed)
    m = Model()
    xs = [m.decision(f"x{i}", Domain.integer_range(0, d - 1)) for i in range(n)]
    pairs = [p for p in combinations(range(n), 2) if rng.random() < density]
    for k, (i, j) in enumerate(pairs):
        rows = [r for r in product(range(d), repeat=2) if rng.random() >= tightness]
        m.add_constraint(f"t{k}", table([xs[i], xs[j]], rows))
    return m
