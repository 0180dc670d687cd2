"""The Sudoku engine: Bird's ``search . prune . choices`` with candidates as bitsets.

The same shape as :mod:`lazyfun.sudoku.bird`, run by the same core
:func:`lazyfun.search`; only the representation changes, so that it runs
fast.  Read it as the chapter's four functions over one data type:

* ``Node``: the matrix of choices as a tuple of ints, one bitset per cell
  (bit d-1 set when value d is still possible).  Once a placed cell's value
  has left its peers, its bit moves up by N (to bit N+d-1), out of the
  candidates, so a unit scan sees only the values still to be placed;
* ``prune``: propagation to a fixpoint.  A placed cell removes its value
  from its peers (Bird's ``pruneRow``, done incrementally), and a value with
  one place left in a unit is placed there (hidden singles); at the root
  only, a value confined to one box-line segment leaves the rest of the
  line or box (locked candidates: measured, it pays once but not at every
  node);
* ``blocked``: propagation met a cell with no choice, or a value with no
  place in a unit;
* ``complete``: every cell is placed;
* ``expand1``: one child per value of a cell with the fewest choices, made
  only when the search reaches it.  Ties go to the cell whose units have
  failed most often so far in this search (the weights of dom/wdeg, used
  only to break ties), so the search keeps returning to the part of the
  grid that is hard.

At 9x9 they hand a grid or marked grid to the engine in C of
:mod:`lazyfun.sudoku.solving.nine` (when it was built, and ``LAZYFUN_PURE`` is not
set): the same search laid out for the machine, with the same solutions and counts.
From 25x25 up, :func:`solve` and :func:`count_solutions` hand the puzzle to
the clause-learning search of :mod:`lazyfun.sudoku.solving.learning` (when it was
built): at that size depth-first search can stall on a unique puzzle for
minutes, because it forgets why a branch failed.  The nodes and the
functions on them stay depth-first at every size.

:func:`solve`, :func:`count_solutions` and :func:`is_unique` take a grid, a
marked grid, or any puzzle that carries its own tables (:class:`Ruled`: a
variant, whose rules the tables hold), so that ``solve(read(text))`` answers
whatever ``lazyfun.sudoku.read`` read, without this layer knowing variants.  They
also take the text of a grid, read as ``parse`` reads it: ``solve(line) ==
solve(parse(line))``, and a plain 81-character line goes through the C reader
straight to the C engine (the loop a user writes over a file's lines).

The failure weights are what a search learns as it goes; they live in a
:class:`Search` beside the stream, never in the nodes, which are immutable.
Solutions stream lazily: the first is returned before the rest are searched.

Installed from source, this module is compiled with mypyc (see
:mod:`lazyfun.compiled`); the code here is what runs either way.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from itertools import islice
from math import isqrt
from typing import Final, Protocol, final

from lazyfun.search import search
from lazyfun.sudoku.board import geometry
from lazyfun.sudoku.board.formats import parse
from lazyfun.sudoku.board.grid import Grid, MarkedGrid, check_givens
from lazyfun.sudoku.solving import learning, nine
from lazyfun.sudoku.solving.tables import (
    CAGE,
    PAIR,
    SUM,
    Check,
    Tables,
    run_check,
    tables_of,
    variant_tables,
)

__all__ = [
    "CAGE",
    "PAIR",
    "SUM",
    "Check",
    "Node",
    "Puzzle",
    "Ruled",
    "Search",
    "Tables",
    "blocked",
    "complete",
    "count_below",
    "count_solutions",
    "depth_first",
    "expand1",
    "is_solution",
    "is_unique",
    "prune",
    "solutions",
    "solve",
    "start",
    "start_ruling_out",
    "variant_tables",
]


class Ruled(Protocol):
    """A puzzle that carries the tables it is solved with: its givens (``grid``) and
    the engine's tables of its rules (``tables``), as a
    :class:`~lazyfun.sudoku.variants.Variant` does."""

    @property
    def grid(self) -> Grid: ...

    @property
    def tables(self) -> Tables: ...


# What the public functions solve: a grid, a grid with pencil marks, or a puzzle with rules.
Puzzle = Grid | MarkedGrid | Ruled


@final
class Node:
    """A state of the search: the candidates of every cell, and what is known of them.

    ``cands`` holds one bitset per cell in reading order.  ``open`` counts
    the cells not yet placed.  ``cell``/``value``: a choice made by
    ``expand1`` that ``prune`` has not applied yet (the node stands for
    ``cands`` with ``cands[cell] = value``); ``cell`` is -1 when there is
    none.  ``dead``: propagation proved that no solution lies below.
    """

    __slots__ = ("cands", "cell", "dead", "open", "value")

    def __init__(
        self, cands: tuple[int, ...], open: int, cell: int = -1, value: int = 0, dead: bool = False
    ) -> None:
        self.cands: Final = cands
        self.open: Final = open
        self.cell: Final = cell
        self.value: Final = value
        self.dead: Final = dead

    def __reduce__(self) -> tuple[type[Node], tuple[tuple[int, ...], int, int, int, bool]]:
        return Node, (self.cands, self.open, self.cell, self.value, self.dead)

    def __repr__(self) -> str:
        return f"Node(open={self.open}, cell={self.cell}, value={self.value}, dead={self.dead})"


class Search:
    """What one search looks up and what it learns: its tables and its failure weights.

    ``weights[c]`` counts the failures of propagation in a unit of cell
    ``c`` (a cell left without a choice counts for all its peers).
    """

    def __init__(self, cells: int, tables: Tables | None = None) -> None:
        self.tables = tables or tables_of(geometry.BOX_OF_SIDE[isqrt(cells)])
        self.weights = [0] * cells


def _propagate(  # noqa: C901, PLR0912, PLR0915 (the engine's hot loop, kept whole for speed)
    cands: list[int],
    queue: list[int],
    t: Tables,
    weights: list[int],
    locked: bool,
    everything: bool = False,
) -> int:
    """Prune ``cands`` in place to a fixpoint; return how many cells it placed, or -1.

    ``queue`` holds the cells fixed but not yet removed from their peers; a
    cell taken from it is placed: its bit moves above the candidates (``v <<
    n``).  Only the units where a cell changed are searched for hidden
    singles.  With ``locked``, rounds of locked candidates follow the singles
    until they remove nothing.  -1 means blocked, and the failure is counted
    in ``weights``.  With non-consecutive in play, a placed value also leaves
    its neighbours' values one above and one below it.  Arithmetic checks
    wake like units, when one of their cells changed (``everything``: all of
    them, and every unit, at once: a root with no givens).
    """
    peers, all_units, units_of, full, n = t.peers, t.units, t.units_of, t.full, t.size
    adjacent, checks, first_check = t.adjacent, t.checks, len(t.units)
    every = (1 << (first_check + len(checks))) - 1
    placed = 0
    dirty = every if everything else 0
    for cell in queue:
        dirty |= units_of[cell]
    while True:
        while queue:
            cell = queue.pop()
            v = cands[cell]
            cands[cell] = v << n
            placed += 1
            for p in peers[cell]:
                x = cands[p]
                if x & v:
                    x ^= v
                    if not x:
                        return _failed(peers[p], weights)
                    cands[p] = x
                    dirty |= units_of[p]
                    if not x & (x - 1):
                        queue.append(p)
            if adjacent:
                apart = _apart(cands, queue, cell, v, t, weights)
                if apart < 0:
                    return -1
                dirty |= apart
        changed, dirty = dirty, 0
        while changed:
            bit = changed & -changed
            changed ^= bit
            k = bit.bit_length() - 1
            if k >= first_check:
                woken = run_check(cands, queue, checks[k - first_check], t)
                if woken < 0:
                    return _failed(checks[k - first_check].cells, weights)
                dirty |= woken
                continue
            unit = all_units[k]
            once = twice = 0
            for cell in unit:
                x = cands[cell]
                twice |= once & x
                once |= x
            if (once | once >> n) & full != full:
                return _failed(unit, weights)
            hidden = once & full & ~twice
            if hidden:
                for cell in unit:
                    x = cands[cell]
                    h = x & hidden
                    if h and h != x:
                        if h & (h - 1):
                            return _failed(unit, weights)
                        cands[cell] = h
                        dirty |= units_of[cell]
                        queue.append(cell)
        if queue or dirty:
            continue
        if not locked:
            return placed
        removed = _locked_candidates(cands, queue, t)
        if removed is None:
            return -1
        if not removed:
            return placed
        dirty = every


def _apart(
    cands: list[int], queue: list[int], cell: int, v: int, t: Tables, weights: list[int]
) -> int:
    """Non-consecutive: value ``v`` placed at ``cell`` leaves its neighbours' values
    one above and one below it.  Returns the units that changed, as bits, or -1."""
    near = (v << 1 | v >> 1) & t.full
    dirty = 0
    for p in t.adjacent[cell]:
        x = cands[p]
        if x & near:
            x &= ~near
            if not x:
                return _failed(t.adjacent[p], weights)
            cands[p] = x
            dirty |= t.units_of[p]
            if not x & (x - 1):
                queue.append(p)
    return dirty


def _failed(cells: tuple[int, ...], weights: list[int]) -> int:
    """Count a failure against ``cells``; -1 (blocked), for ``return``."""
    for cell in cells:
        weights[cell] += 1
    return -1


def _locked_candidates(cands: list[int], queue: list[int], t: Tables) -> bool | None:
    """Pointing and claiming: a value confined to one box-line segment of a box
    (or of a line) is removed from the rest of the line (or of the box).

    Returns whether anything was removed, or None for a contradiction.
    """
    changed = False
    seen = []
    for seg in t.segments:
        here = 0
        for cell in seg:
            here |= cands[cell]
        seen.append(here & t.full)
    for i, line_segs, box_segs, line_rest, box_rest in t.locks:
        here = seen[i]
        in_line = in_box = 0
        for j in line_segs:
            in_line |= seen[j]
        for j in box_segs:
            in_box |= seen[j]
        for confined, others in (
            (here & ~in_box & in_line, line_rest),
            (here & ~in_line & in_box, box_rest),
        ):
            if confined:
                for cell in others:
                    x = cands[cell]
                    if x & confined:
                        x &= ~confined
                        if not x:
                            return None
                        cands[cell] = x
                        changed = True
                        if not x & (x - 1):
                            queue.append(cell)
    return changed


# --- the four functions ------------------------------------------------------------


def start(puzzle: Grid | MarkedGrid, tables: Tables | None = None) -> Node:
    """``prune . choices``: the root of the search for a puzzle (givens checked first);
    a marked grid's candidates are where its cells start.  With a variant's
    ``tables``, its rules prune (and the variant checks the givens itself).

    >>> from lazyfun.sudoku import parse
    >>> root = start(parse("1..." "..1." ".1.." "...1"))
    >>> root.open, complete(root), blocked(root)
    (12, False, False)
    """
    grid, ruled_out = _unmarked(puzzle)
    if tables is None:
        check_givens(grid)
    t = tables or tables_of(grid.box)
    cands = [1 << (v - 1) if v else t.full for v in grid.cells]
    for cell, value in ruled_out:
        cands[cell] &= ~(1 << (value - 1))
    if 0 in cands:
        return Node(tuple(cands), len(cands), dead=True)
    fixed = [i for i, x in enumerate(cands) if not x & (x - 1)]
    placed = _propagate(cands, fixed, t, [0] * len(cands), True, bool(t.checks))
    if placed < 0:
        return Node(tuple(cands), len(cands), dead=True)
    return Node(tuple(cands), len(cands) - placed)


def _unmarked(puzzle: Grid | MarkedGrid) -> tuple[Grid, tuple[tuple[int, int], ...]]:
    """The grid of a puzzle, and the (cell, value) pairs its pencil marks rule out."""
    if isinstance(puzzle, MarkedGrid):
        return puzzle.grid, puzzle.ruled_out()
    return puzzle, ()


def start_ruling_out(
    cells: tuple[int, ...],
    box: int,
    cell: int,
    value: int,
    locked: bool = False,
    tables: Tables | None = None,
) -> Node:
    """The root of the search for the solutions of a puzzle that do not put ``value``
    at the blank ``cell``: how a generator asks whether a given can go.

    ``cells`` are assumed consistent (taken from a solution): they are not
    checked, which keeps the question cheap.  ``locked``: prune the root with
    locked candidates too (it pays at 16x16, not at 9x9).  ``tables``: a
    variant's.

    >>> root = start_ruling_out((0,) * 16, 2, 0, 1)
    >>> count_below(root)  # the 288 grids less the 72 with a 1 in the corner
    216
    """
    t = tables or tables_of(box)
    cands = [1 << (v - 1) if v else t.full for v in cells]
    cands[cell] &= ~(1 << (value - 1))
    fixed = [i for i, v in enumerate(cells) if v]
    x = cands[cell]
    if not x & (x - 1):
        fixed.append(cell)
    placed = _propagate(cands, fixed, t, [0] * len(cands), locked, bool(t.checks))
    if placed < 0:
        return Node(tuple(cands), len(cands), dead=True)
    return Node(tuple(cands), len(cands) - placed)


def complete(node: Node) -> bool:
    """Every cell is placed: the node is a solution."""
    return node.open == 0 and not node.dead


def blocked(node: Node) -> bool:
    """Propagation proved that no solution lies below this node."""
    return node.dead


def prune(search: Search, node: Node) -> Node:
    """Apply the node's pending choice and propagate it to a fixpoint."""
    if node.cell < 0:
        return node
    cands = list(node.cands)
    cands[node.cell] = node.value
    placed = _propagate(cands, [node.cell], search.tables, search.weights, False)
    if placed < 0:
        return Node(node.cands, node.open, dead=True)
    return Node(tuple(cands), node.open - placed)


def _branching_cell(cands: tuple[int, ...], weights: list[int]) -> int:
    """A cell with the fewest choices above one, the heaviest among those (-1: none)."""
    best, fewest, most = -1, 1 << 30, -1
    for cell, x in enumerate(cands):
        if x & (x - 1):
            k = x.bit_count()
            if k < fewest or (k == fewest and weights[cell] > most):
                best, fewest, most = cell, k, weights[cell]
    return best


def expand1(search: Search, node: Node) -> Iterator[Node]:
    """One child per value of the most constrained cell, lowest value first, made lazily."""
    cands, open_cells = node.cands, node.open
    cell = _branching_cell(cands, search.weights)
    x = cands[cell]
    while x:
        bit = x & -x
        x ^= bit
        yield Node(cands, open_cells, cell, bit)


def solutions(node: Node, tables: Tables | None = None) -> Iterator[Node]:
    """Every complete node below ``node``, depth-first, lazily: one call of ``search``."""
    this = Search(len(node.cands), tables)
    return search(
        node,
        expand1=partial(expand1, this),
        complete=complete,
        blocked=blocked,
        prune=partial(prune, this),
    )


# --- the public functions ------------------------------------------------------------


def count_below(node: Node, limit: int | None = None, tables: Tables | None = None) -> int:
    """How many solutions lie below ``node`` (at most ``limit``): a subtree's count."""
    return sum(1 for _ in islice(solutions(node, tables), limit))


def _learns(grid: Grid) -> bool:
    """Whether ``grid`` goes to the clause-learning search (25x25 and up, when built)."""
    return learning.AVAILABLE and grid.box >= learning.FROM_BOX


def _in_c(grid: Grid) -> bool:
    """Whether ``grid`` goes to the 9x9 engine in C (9x9, when built and not pure)."""
    return nine.FAST and grid.box == 3


def _grid(node: Node, like: Grid) -> Grid:
    """A complete node as a grid, in the alphabet of the puzzle."""
    n = like.size
    return Grid(tuple(x.bit_length() - n for x in node.cands), like.box, like.symbols)


def _board(puzzle: Puzzle, tables: Tables | None) -> tuple[Grid | MarkedGrid, Tables | None]:
    """The grid (or marked grid) a search starts from, and the tables it searches with:
    ``tables``, or the puzzle's own when it carries them (a variant)."""
    if isinstance(puzzle, (Grid, MarkedGrid)):
        return puzzle, tables
    if tables is not None:
        raise ValueError("this puzzle carries its own tables: give no others")
    return puzzle.grid, puzzle.tables


def solve(puzzle: Puzzle | str, tables: Tables | None = None) -> Iterator[Grid]:
    """Every solution of a puzzle, lazily, in depth-first order (for a marked grid:
    those that keep to its pencil marks; for a variant, or with a variant's
    ``tables``, those that keep its rules).  A text is the grid ``parse`` reads
    from it (its ``PuzzleError`` at once).

    Raises ``PuzzleError`` at once if two givens conflict; an impossible
    puzzle simply yields nothing.  At 9x9 the engine in C finds them
    (:mod:`lazyfun.sudoku.solving.nine`), from 25x25 up the clause-learning
    search (:mod:`lazyfun.sudoku.solving.learning`), each in its own order.

    >>> from lazyfun.sudoku import parse
    >>> found = solve(parse("1..." "..1." ".1.." "...1"))
    >>> print(next(found))
    1234341221434321
    >>> sum(1 for _ in found)  # the other 17, computed only now
    17
    >>> print(next(solve("1..." "..1." ".1.." "...1")))
    1234341221434321
    """
    if isinstance(puzzle, str):
        puzzle = parse(puzzle)
    if tables is None and isinstance(puzzle, Grid) and _in_c(puzzle):
        try:
            return nine.solutions(puzzle)  # the C search itself: no generator around it
        except nine.Conflict:
            return nine.clashing(puzzle)
    return _searched(puzzle, tables)


def _searched(puzzle: Puzzle, tables: Tables | None) -> Iterator[Grid]:
    """The solutions of what :func:`solve` does not hand to C directly: a marked grid, a
    variant, another size."""
    board, tables = _board(puzzle, tables)
    grid, ruled_out = _unmarked(board)
    if tables is None and _learns(grid):
        yield from learning.solve(grid, ruled_out=ruled_out)
        return
    if tables is None and _in_c(grid):
        yield from nine.solve(grid, ruled_out)
        return
    yield from depth_first(board, tables)


def depth_first(puzzle: Grid | MarkedGrid, tables: Tables | None = None) -> Iterator[Grid]:
    """Every solution in this engine's own depth-first order, at every size: what
    :func:`solve` gives where no other engine takes the puzzle, and what a generator
    that must make the same grids from a seed, built or not, completes a start with.

    >>> from lazyfun.sudoku import parse
    >>> print(next(depth_first(parse("." * 81))))
    123456789456789123789123456231674895875912364694538217317265948542897631968341572
    """
    grid, _ = _unmarked(puzzle)
    for node in solutions(start(puzzle, tables), tables):
        yield _grid(node, grid)


def count_solutions(
    puzzle: Puzzle | str, limit: int | None = None, tables: Tables | None = None
) -> int:
    """How many solutions a puzzle has (keeping to its marks), stopping at ``limit``;
    a text is the grid ``parse`` reads from it.

    >>> from lazyfun.sudoku import parse
    >>> count_solutions(parse("0" * 16))
    288
    >>> count_solutions(parse("0" * 16), limit=10), count_solutions("0" * 16, limit=10)
    (10, 10)
    """
    if isinstance(puzzle, str):
        puzzle = parse(puzzle)
    if tables is None and isinstance(puzzle, Grid) and _in_c(puzzle):
        try:
            return nine.count_grid(puzzle, limit)
        except nine.Conflict:
            nine.clash(puzzle)
    board, tables = _board(puzzle, tables)
    grid, ruled_out = _unmarked(board)
    if tables is None and _learns(grid):
        return learning.count_solutions(grid, limit, ruled_out=ruled_out)
    if tables is None and _in_c(grid):
        return nine.count_solutions(grid, limit, ruled_out)
    return count_below(start(board, tables), limit, tables)


def is_unique(puzzle: Puzzle | str, tables: Tables | None = None) -> bool:
    """Whether a puzzle (or the text of a grid) has exactly one solution (stops at the
    second)."""
    return count_solutions(puzzle, limit=2, tables=tables) == 1


def is_solution(puzzle: Grid, grid: Grid) -> bool:
    """Whether ``grid`` is complete, valid, and keeps every given of ``puzzle``.

    >>> from lazyfun.sudoku import parse
    >>> p = parse("1..." "..1." ".1.." "...1")
    >>> is_solution(p, parse("1234341221434321")), is_solution(p, parse("1234341221434312"))
    (True, False)
    """
    if grid.box != puzzle.box or not grid.is_complete():
        return False
    if any(g != v for g, v in zip(grid.cells, puzzle.cells, strict=True) if v):
        return False
    values = set(range(1, grid.size + 1))
    return all({grid.cells[c] for c in unit} == values for unit in geometry.units(grid.box))
