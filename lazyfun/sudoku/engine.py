"""The Sudoku engine: Bird's ``search . prune . choices`` with candidates as bitsets.

Same shape as :mod:`lazyfun.sudoku.bird`, run by the same core ``search``
skeleton; only the representation changes so that it runs fast:

* a matrix of choices is a flat ``list[int]``, one bitset per cell (bit d-1
  set when value d is still possible).  Once a fixed cell has left its
  peers, its bit moves up by N (to bit N+d-1), out of the candidates: a unit
  scan then sees only the values still to be placed, and looks for a hidden
  single only where one can be;
* ``prune`` is propagation to a fixpoint: a fixed cell removes its value from
  its peers (Bird's ``pruneRow``, done incrementally), and a value with one
  place left in a unit is fixed there (hidden singles); at the root only, a
  value confined to one box-line segment leaves the rest of the line or box
  (locked candidates: measured, it pays once but not at every node);
* ``expand1`` branches on a cell with the fewest choices, one child per value,
  made only when the search reaches it.  Ties go to the cell whose units
  have failed most often so far in this search (the weights of dom/wdeg,
  used only to break ties): the search keeps returning to the part of the
  grid that is hard;
* ``blocked`` is found by the propagation itself (a cell with no choice, or a
  value with no place in a unit).

Solutions stream lazily: the first is returned before the rest are searched.

Installed from source, this module is compiled with mypyc (see
:mod:`lazyfun.compiled`); the code here is what runs either way.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from itertools import islice

from lazyfun.search import search
from lazyfun.sudoku.grid import Grid, check_givens, units

__all__ = ["count_below", "count_solutions", "is_solution", "is_unique", "solve", "subtrees"]

# A search node: the candidate bitsets and the cell to branch on next
# (COMPLETE when every cell is fixed, BLOCKED when propagation failed).
Node = tuple[list[int], int]
COMPLETE = -1
BLOCKED = -2
_DEAD: Node = ([], BLOCKED)


@dataclass(frozen=True, slots=True)
class _Tables:
    """Everything the engine precomputes for one box size."""

    size: int
    full: int
    units: tuple[tuple[int, ...], ...]
    peers: tuple[tuple[int, ...], ...]
    # For each cell, its units as bits (bit k: units[k]).
    units_of: tuple[int, ...]
    # Box/line intersections (segments), for locked candidates: the cells of
    # each segment, and for each segment the indices of the other segments of
    # its line and of its box, and the cells of the rest of its line and box.
    segments: tuple[tuple[int, ...], ...]
    locks: tuple[
        tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...
    ]


@cache
def _tables(box: int) -> _Tables:
    n = box * box
    all_units = units(box)
    peers = tuple(
        tuple(sorted({p for u in all_units if cell in u for p in u} - {cell}))
        for cell in range(n * n)
    )
    lines = all_units[: 2 * n]
    segments = [line[k * box : (k + 1) * box] for line in lines for k in range(box)]
    box_of = {cell: i for i, u in enumerate(all_units[2 * n :]) for cell in u}
    locks = []
    for i, seg in enumerate(segments):
        line = lines[i // box]
        same_line = [j for j in range(len(segments)) if j != i and j // box == i // box]
        same_box = [
            j
            for j in range(len(segments))
            if j != i
            and (j < n * box) == (i < n * box)
            and box_of[segments[j][0]] == box_of[seg[0]]
        ]
        box_cells = all_units[2 * n + box_of[seg[0]]]
        locks.append(
            (
                i,
                tuple(same_line),
                tuple(same_box),
                tuple(c for c in line if c not in seg),
                tuple(c for c in box_cells if c not in seg),
            )
        )
    units_of = tuple(
        sum(1 << k for k, unit in enumerate(all_units) if cell in unit) for cell in range(n * n)
    )
    return _Tables(n, (1 << n) - 1, all_units, peers, units_of, tuple(segments), tuple(locks))


# Per search: for each cell, how many times propagation failed in one of its
# units (a cell left without a choice counts for all its peers).
Conflicts = list[int]


def _propagate(
    cands: list[int], queue: list[int], t: _Tables, conflicts: Conflicts, locked: bool
) -> bool:
    """Prune ``cands`` in place to a fixpoint; False if it proves them blocked.

    ``queue`` holds the cells fixed but not yet removed from their peers;
    a cell taken from it has its bit moved above the candidates (``v << n``).
    Only the units where a cell changed are searched for hidden singles.
    With ``locked``, one round of locked candidates follows the singles.
    A failure is counted in ``conflicts``.
    """
    peers, all_units, units_of, full, n = t.peers, t.units, t.units_of, t.full, t.size
    locked_done = not locked
    dirty = 0
    for cell in queue:
        dirty |= units_of[cell]
    while True:
        while queue:
            cell = queue.pop()
            v = cands[cell]
            cands[cell] = v << n
            for p in peers[cell]:
                x = cands[p]
                if x & v:
                    x ^= v
                    if not x:
                        return _failed(peers[p], conflicts)
                    cands[p] = x
                    dirty |= units_of[p]
                    if not x & (x - 1):
                        queue.append(p)
        changed, dirty = dirty, 0
        while changed:
            bit = changed & -changed
            changed ^= bit
            unit = all_units[bit.bit_length() - 1]
            once = twice = 0
            for cell in unit:
                x = cands[cell]
                twice |= once & x
                once |= x
            if (once | once >> n) & full != full:
                return _failed(unit, conflicts)
            hidden = once & full & ~twice
            if hidden:
                for cell in unit:
                    x = cands[cell]
                    h = x & hidden
                    if h and h != x:
                        if h & (h - 1):
                            return _failed(unit, conflicts)
                        cands[cell] = h
                        dirty |= units_of[cell]
                        queue.append(cell)
        if queue or dirty:
            continue
        if locked_done:
            return True
        locked_done = True
        removed = _locked_candidates(cands, queue, t)
        if removed is None:
            return False
        if not removed:
            return True
        dirty = (1 << len(all_units)) - 1


def _failed(cells: tuple[int, ...], conflicts: Conflicts) -> bool:
    """Count a failure against ``cells``; False (blocked), for ``return``."""
    for cell in cells:
        conflicts[cell] += 1
    return False


def _locked_candidates(cands: list[int], queue: list[int], t: _Tables) -> bool | None:
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


def _branch_cell(cands: list[int], conflicts: Conflicts) -> int:
    """A cell with the fewest choices above one, the most conflicts among those; or COMPLETE."""
    best, fewest, most = COMPLETE, 1 << 30, -1
    for cell, x in enumerate(cands):
        if x & (x - 1):
            k = x.bit_count()
            if k < fewest or (k == fewest and conflicts[cell] > most):
                best, fewest, most = cell, k, conflicts[cell]
    return best


def _prune(
    cands: list[int], fixed: list[int], t: _Tables, conflicts: Conflicts, locked: bool = False
) -> Node:
    """Propagate, then pick the branching cell: the node for these candidates."""
    if not _propagate(cands, fixed, t, conflicts, locked):
        return _DEAD
    return cands, _branch_cell(cands, conflicts)


def _root(grid: Grid) -> Node:
    """``prune . choices`` for a grid (givens checked first)."""
    check_givens(grid)
    t = _tables(grid.box)
    cands = [1 << (v - 1) if v else t.full for v in grid.cells]
    fixed = [i for i, v in enumerate(grid.cells) if v]
    return _prune(cands, fixed, t, [0] * len(cands), locked=True)


def _children(node: Node, t: _Tables, conflicts: Conflicts) -> Iterator[Node]:
    """``map prune . expand1``: one child per value of the branching cell, pruned."""
    cands, cell = node
    x = cands[cell]
    while x:
        bit = x & -x
        x ^= bit
        child = cands.copy()
        child[cell] = bit
        yield _prune(child, [cell], t, conflicts)


def _search_from(box: int, start: Node) -> Iterator[list[int]]:
    """Every solution below a pruned node, as single-bit candidates, depth-first."""
    t = _tables(box)
    conflicts = [0] * len(start[0])

    def expand1(node: Node) -> Iterator[Node]:
        cands, cell = node
        x = cands[cell]
        while x:
            bit = x & -x
            x ^= bit
            child = cands.copy()
            child[cell] = bit
            yield child, cell

    def prune(node: Node) -> Node:
        return _prune(node[0], [node[1]], t, conflicts)

    nodes = search(
        start,
        expand1=expand1,
        complete=lambda node: node[1] == COMPLETE,
        blocked=lambda node: node[1] == BLOCKED,
        prune=prune,
    )
    for cands, _ in nodes:
        yield cands


def _raw_solutions(grid: Grid) -> Iterator[list[int]]:
    """Every solution as a list of single-bit candidates, depth-first."""
    return _search_from(grid.box, _root(grid))


def subtrees(grid: Grid, depth: int) -> list[Node]:
    """The search tree cut ``depth`` branchings below the root: independent subtrees.

    Eager (one level at a time, breadth-first): the pruned nodes at that
    depth, plus the solutions met above it; dead branches are dropped.  The
    solutions below them, taken together, are the solutions of ``grid``.

    >>> from lazyfun.sudoku import parse
    >>> parts = subtrees(parse("0" * 16), 2)
    >>> len(parts), sum(count_below(2, node) for node in parts)
    (12, 288)
    """
    t = _tables(grid.box)
    level = [_root(grid)]
    conflicts = [0] * grid.size**2
    for _ in range(depth):
        deeper: list[Node] = []
        for node in level:
            if node[1] == COMPLETE:
                deeper.append(node)
            elif node[1] != BLOCKED:
                deeper += _children(node, t, conflicts)
        level = deeper
    return [node for node in level if node[1] != BLOCKED]


def count_below(box: int, node: Node, limit: int | None = None) -> int:
    """How many solutions lie below one node of ``subtrees`` (at most ``limit``)."""
    return sum(1 for _ in islice(_search_from(box, node), limit))


def solve(grid: Grid) -> Iterator[Grid]:
    """Every solution of ``grid``, lazily, in depth-first order.

    Raises ``PuzzleError`` at once if two givens conflict; an impossible
    puzzle simply yields nothing.

    >>> from lazyfun.sudoku import parse
    >>> solutions = solve(parse("1..." "..1." ".1.." "...1"))
    >>> print(next(solutions))
    1234341221434321
    >>> sum(1 for _ in solutions)  # the other 17, computed only now
    17
    """
    symbols, n = grid.symbols, grid.size
    for cands in _raw_solutions(grid):
        yield Grid(tuple(x.bit_length() - n for x in cands), grid.box, symbols)


def count_solutions(grid: Grid, limit: int | None = None) -> int:
    """How many solutions ``grid`` has, stopping at ``limit`` if given.

    >>> from lazyfun.sudoku import parse
    >>> count_solutions(parse("0" * 16))
    288
    >>> count_solutions(parse("0" * 16), limit=10)
    10
    """
    return sum(1 for _ in islice(_raw_solutions(grid), limit))


def is_unique(grid: Grid) -> bool:
    """Whether ``grid`` has exactly one solution (stops at the second)."""
    return count_solutions(grid, limit=2) == 1


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
    return all({grid.cells[c] for c in unit} == values for unit in units(grid.box))
