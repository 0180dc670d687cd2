"""Variant puzzles with exactly one solution, as an endless lazy stream.

The classic generator's two steps, on a variant's tables:

* ``random_solution``: a full grid that keeps the rules: the engine's
  search with the values of each branching tried in a random order;
* ``minimise``: blank the givens in a random order, keeping a blank only if
  no blanked cell can take another value than the solution's (one search to
  its first solution each, as in :mod:`lazyfun.sudoku.making.generation`).

Killer and thermo puzzles take their shapes from the solution first: cages
of 2 to 5 side-by-side cells with distinct values (the whole grid is caged),
and thermometers along cells of rising values.  A killer starts from no
givens and gets givens from the solution until it is unique, then loses the
ones it can spare.  Jigsaw regions are the boxes with random trades of
border cells between neighbouring regions, each region kept connected; its
map is drawn again when the random search for its grid runs long (some maps
fit no grid, and proving it can take the engine long).

>>> from itertools import islice
>>> from lazyfun.sudoku.variants import count_solutions
>>> made = list(islice(generate("x", 2, seed=1), 3))
>>> [count_solutions(v) for v in made]
[1, 1, 1]
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import count

from lazyfun.search import search
from lazyfun.sudoku.board.geometry import BOX_SIZES
from lazyfun.sudoku.board.grid import Grid, PuzzleError
from lazyfun.sudoku.making.generation import random_solution as classic_solution
from lazyfun.sudoku.solving import engine
from lazyfun.sudoku.variants import MAKINGS, Rule, Variant
from lazyfun.sudoku.variants.rule import Making

__all__ = ["KINDS", "generate", "minimise", "puzzle", "random_solution"]

KINDS = tuple(MAKINGS)
"""The variants :func:`generate` makes: every kind a rule file registers a
:class:`~lazyfun.sudoku.variants.rule.Making` for."""


class _OutOfNodes(Exception):
    """A search ran past its budget of nodes."""


def random_solution(variant: Variant, rng: random.Random, budget: int | None = None) -> Grid:
    """A full grid that keeps the variant's rules (and givens), drawn at random: the
    engine's search with the values of each branching tried in a random order.

    Raises ``PuzzleError`` when no grid fits, and ``_OutOfNodes`` past ``budget``
    nodes (None: no limit).

    >>> rng = random.Random(2)
    >>> from lazyfun.sudoku import parse
    >>> from lazyfun.sudoku.variants import is_solution
    >>> from lazyfun.sudoku.variants import DIAGONALS
    >>> x = Variant(parse("." * 81), (DIAGONALS,))
    >>> is_solution(x, random_solution(x, rng))
    True
    """
    t = variant.tables
    this = engine.Search(len(variant.grid.cells), t)
    nodes = count()

    def shuffled(node: engine.Node) -> Iterator[engine.Node]:
        children = list(engine.expand1(this, node))
        rng.shuffle(children)
        return iter(children)

    def pruned(node: engine.Node) -> engine.Node:
        if budget is not None and next(nodes) > budget:
            raise _OutOfNodes
        return engine.prune(this, node)

    found = search(
        engine.start(variant.grid, t),
        expand1=shuffled,
        complete=engine.complete,
        blocked=engine.blocked,
        prune=pruned,
    )
    node = next(found, None)
    if node is None:
        raise PuzzleError(f"no grid keeps the rules {', '.join(variant.names)}")
    n = variant.grid.size
    return Grid(tuple(x.bit_length() - n for x in node.cands), variant.grid.box)


def _mapped(making: Making, box: int, rng: random.Random) -> tuple[tuple[Rule, ...], Grid]:
    """Random regions that some grid fits, and such a grid: a map whose search runs
    past 5,000 nodes (some maps fit no grid, and proving it can take long) is
    drawn again."""
    assert making.region_map is not None
    empty = Grid((0,) * box**4, box)
    while True:
        rules: tuple[Rule, ...] = (making.region_map(box, rng),)
        try:
            return rules, random_solution(Variant(empty, rules), rng, budget=5000)
        except (PuzzleError, _OutOfNodes):
            continue


def _stays_unique(cells: list[int], variant: Variant, solution: Grid, blanked: int) -> bool:
    """Whether the blanked cell can take no other value than the solution's."""
    t = variant.tables
    root = engine.start_ruling_out(
        tuple(cells), variant.grid.box, blanked, solution.cells[blanked], True, t
    )
    return next(engine.solutions(root, t), None) is None


def minimise(variant: Variant, solution: Grid, rng: random.Random, minimal: bool = True) -> Variant:
    """Blank the variant's givens in a random order, keeping each blank that leaves the
    puzzle unique (``variant`` must be unique with ``solution``).  With ``minimal``,
    every given is tried; without, it stops at the first that has to stay."""
    cells = list(variant.grid.cells)
    order = [c for c, v in enumerate(cells) if v]
    rng.shuffle(order)
    for cell in order:
        cells[cell] = 0
        if _stays_unique(cells, variant, solution, cell):
            continue
        cells[cell] = solution.cells[cell]
        if not minimal:
            break
    return Variant(Grid(tuple(cells), variant.grid.box), variant.rules)


def _unique_with_givens(variant: Variant, solution: Grid, rng: random.Random) -> Variant:
    """Add givens from ``solution``, one at a time where the puzzle is still open,
    until the variant is unique."""
    cells = list(variant.grid.cells)
    box = variant.grid.box
    while True:
        puzzle = Variant(Grid(tuple(cells), box), variant.rules)
        found = list(zip(range(2), engine.solve(puzzle.grid, variant.tables), strict=False))
        if len(found) == 1:
            return puzzle
        other = found[1][1] if found[0][1] == solution else found[0][1]
        differ = [c for c in range(len(cells)) if other.cells[c] != solution.cells[c]]
        cell = rng.choice(differ)
        cells[cell] = solution.cells[cell]


def check_request(kind: str, box: int) -> None:
    """Refuse at once, with the reason, what :func:`generate` cannot make."""
    if kind not in MAKINGS:
        raise PuzzleError(f"unknown variant {kind!r}: generate makes {', '.join(KINDS)}")
    if box not in BOX_SIZES or box > 3:
        raise PuzzleError(f"variants are made at 4x4 and 9x9 (box 2 or 3), not box {box}")
    if box < MAKINGS[kind].smallest_box:
        raise PuzzleError(f"{kind} needs {MAKINGS[kind].too_small}")


def puzzle(kind: str, box: int, seed: int, index: int, *, minimal: bool = True) -> Variant:
    """Puzzle number ``index`` of the stream ``generate(kind, box, seed=seed)``."""
    check_request(kind, box)
    making = MAKINGS[kind]
    rng = random.Random(f"lazyfun.variant:{kind}:{box}:{seed}:{index}")
    empty = Grid((0,) * box**4, box)
    if making.shapes is not None:
        solution = classic_solution(box, rng)
        if making.givens_first:
            covered = Variant(empty, making.shapes(solution, rng))
            return minimise(_unique_with_givens(covered, solution, rng), solution, rng, minimal)
        return minimise(Variant(solution, making.shapes(solution, rng)), solution, rng, minimal)
    if making.region_map is not None:
        rules, solution = _mapped(making, box, rng)
    else:
        assert making.rule is not None
        rules = (making.rule,)
        solution = random_solution(Variant(empty, rules), rng)
    return minimise(Variant(solution, rules), solution, rng, minimal)


def generate(
    kind: str, box: int = 3, *, seed: int | None = None, minimal: bool = True
) -> Iterator[Variant]:
    """An endless lazy stream of ``kind`` variants with exactly one solution.

    ``kind`` is one of :data:`KINDS`; ``box`` 2 or 3 (4x4 or 9x9).  ``seed``
    makes the stream the same on every run; ``minimal`` (the default): no given
    can be removed without losing uniqueness.
    """
    check_request(kind, box)
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    return (puzzle(kind, box, seed, index, minimal=minimal) for index in count())
