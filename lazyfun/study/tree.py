"""The search tree, drawn: what the lazy search built inside what the eager version builds.

``queens_tree(n, k)`` and ``sudoku_tree(grid, k)`` run the lazy program to
its first ``k`` solutions with a :class:`~lazyfun.trace.Probe` on the nodes
it builds, record which nodes those were, and lay them inside the whole tree
that the eager version builds:

- N queens: the eager flatmap adjoins every row to every safe placement of
  the columns before (``queens_flatmap``'s candidates, 15,720 for n = 8),
  then throws the unsafe ones away; the lazy search builds only safe
  placements, one at a time, and stops at the k-th solution;
- Sudoku: the candidate grids of Bird's ``expand . choices``, as a tree by
  blank cells in reading order; the lazy ``filter valid . expand`` builds
  candidates until the k-th valid one.

``tree_svg`` draws the result as an icicle: the root on top, each node as
wide as the leaves under it, one row per depth, coloured built, solution,
never built, or (queens) rejected as unsafe by the eager version.  Runs of
nodes too narrow to see are merged into one shape per colour, so 20,000
nodes draw as a few thousand shapes.

>>> tree = queens_tree(4, 1)
>>> tree.eager_nodes, tree.built, tree.probe_count, tree.found
(60, 8, 8, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Literal

from lazyfun.drawing import Svg
from lazyfun.eager import Work, queens_flatmap
from lazyfun.queens.lex import Partial, adjoin, expand1, lexicographic, safe_rows
from lazyfun.search import search
from lazyfun.sudoku import Grid
from lazyfun.sudoku.bird import choices, expand, valid
from lazyfun.trace import Probe
from lazyfun.vocab import ilen

__all__ = [
    "KINDS",
    "TREE_LIMIT",
    "Kind",
    "SearchTree",
    "queens_tree",
    "sudoku_tree",
    "tree_summary",
    "tree_svg",
]

Matrix = tuple[tuple[int, ...], ...]
Kind = Literal["built", "solution", "never built", "rejected"]
KINDS: dict[Kind, str] = {
    "built": "#4c8bf5",
    "solution": "#e8a33d",
    "never built": "#d9d9d9",
    "rejected": "#f2c4c4",
}
TREE_LIMIT = 200_000  # nodes: a bigger eager tree is refused before anything is built


@dataclass(frozen=True)
class SearchTree:
    """A tree in preorder (``depth`` and ``kind`` per node, root first) and its counts.

    ``built`` counts the nodes below the root that the lazy search built;
    ``probe_count`` is what its probe counted while it ran, under the name
    ``counted`` (for queens the same nodes; for Sudoku the leaves, the
    candidate grids); ``eager_nodes`` counts the nodes below the root that the
    eager version builds.
    """

    title: str
    counted: str
    depth: tuple[int, ...]
    kind: tuple[Kind, ...]
    eager_nodes: int
    built: int
    probe_count: int
    found: int


def queens_tree(n: int, solutions: int = 1) -> SearchTree:
    """The n-queens tree: the lazy search to its first ``solutions`` placements."""
    _refuse_queens(n)
    probe = Probe()
    built: set[tuple[int, ...]] = set()
    children = probe.counted("partials")(_recorded(expand1(n), built))
    found = {
        p.rows
        for p in islice(
            search(Partial(()), expand1=children, complete=lambda p: len(p.rows) == n),
            solutions,
        )
    }
    depth: list[int] = [0]
    kind: list[Kind] = ["built"]
    _descend(Partial(()), n, depth, kind, built, found)
    work = Work()
    queens_flatmap(n, n, work)
    return SearchTree(
        f"{n} queens, to the first {_solutions(solutions)}",
        "partial placements",
        tuple(depth),
        tuple(kind),
        work.candidates,
        sum(1 for k in kind[1:] if k in ("built", "solution")),
        probe.counts.get("partials", 0),
        len(found),
    )


def _descend(
    p: Partial,
    n: int,
    depth: list[int],
    kind: list[Kind],
    built: set[tuple[int, ...]],
    found: set[tuple[int, ...]],
) -> None:
    """Every candidate below the safe placement ``p``, in preorder (eager's whole subtree)."""
    stack: list[tuple[Partial, int, Iterator[int]]] = [(p, safe_rows(p, n), iter(range(n)))]
    while stack:
        top, safe, rows = stack[-1]
        row = next(rows, None)
        if row is None:
            stack.pop()
            continue
        if not safe >> row & 1:
            depth.append(len(top.rows) + 1)
            kind.append("rejected")
            continue
        child = adjoin(top, row)
        depth.append(len(child.rows))
        kind.append(_kind(child.rows in built, child.rows in found))
        if len(child.rows) < n:
            stack.append((child, safe_rows(child, n), iter(range(n))))


def sudoku_tree(grid: Grid, solutions: int = 1) -> SearchTree:
    """The tree of Bird's ``expand . choices`` by blank cells: the lazy ``filter valid``
    to its first ``solutions`` valid grids."""
    options = choices(grid.rows)
    blanks = [len(c) for row in options for c in row if len(c) > 1]
    sizes = [1]
    for count in blanks:
        sizes.append(sizes[-1] * count)
    _refuse(sum(sizes) - 1, f"a grid with {len(blanks)} blank cells")
    probe = Probe()
    visited: list[tuple[int, ...]] = []
    candidates = _seen(grid, probe.stage("candidates", expand(options)), visited)
    found = [tuple(g) for g in islice(filter(valid, candidates), solutions)]
    found_choices = {_blank_values(grid, g) for g in found}
    reached = {leaf[:k] for leaf in visited for k in range(len(leaf) + 1)}
    depth: list[int] = []
    kind: list[Kind] = []
    values = [tuple(c) for row in options for c in row if len(c) > 1]

    def walk(prefix: tuple[int, ...]) -> None:
        depth.append(len(prefix))
        is_leaf = len(prefix) == len(values)
        kind.append(_kind(prefix in reached, is_leaf and prefix in found_choices))
        if not is_leaf:
            for v in values[len(prefix)]:
                walk((*prefix, v))

    walk(())
    return SearchTree(
        f"Sudoku with {len(blanks)} blanks, to the first {_solutions(solutions)}",
        "candidate grids",
        tuple(depth),
        tuple(kind),
        len(depth) - 1,
        len(reached) - 1,
        probe.counts.get("candidates", 0),
        len(found),
    )


def _solutions(k: int) -> str:
    return "solution" if k == 1 else f"{k} solutions"


def _kind(built: bool, solution: bool) -> Kind:
    if solution:
        return "solution"
    return "built" if built else "never built"


def _refuse_queens(n: int) -> None:
    """The eager flatmap adjoins n rows to each safe placement of 0..n-1 columns: count
    those placements column by column, and stop as soon as the tree is too big."""
    nodes = 0
    for k in range(n):
        nodes += n * ilen(lexicographic(n, k))
        _refuse(nodes, f"{n} queens")


def _refuse(nodes: int, what: str) -> None:
    if nodes > TREE_LIMIT:
        raise ValueError(
            f"the eager tree of {what} has {nodes:,} nodes; drawing stops at "
            f"{TREE_LIMIT:,} (a picture that size is already a grey blur)"
        )


def _recorded(
    children: Callable[[Partial], Iterator[Partial]], built: set[tuple[int, ...]]
) -> Callable[[Partial], Iterator[Partial]]:
    def recording(p: Partial) -> Iterator[Partial]:
        for child in children(p):
            built.add(child.rows)
            yield child

    return recording


def _blank_values(grid: Grid, candidate: Iterable[Iterable[int]]) -> tuple[int, ...]:
    cells = [v for row in candidate for v in row]
    return tuple(v for v, given in zip(cells, grid.cells, strict=True) if not given)


def _seen(
    grid: Grid, candidates: Iterable[Matrix], visited: list[tuple[int, ...]]
) -> Iterator[Matrix]:
    """The candidates, each one's blank-cell values recorded as it passes."""
    for g in candidates:
        visited.append(_blank_values(grid, g))
        yield g


def tree_summary(tree: SearchTree) -> str:
    """The tree as a few lines of text: its counts, then one line per depth with the
    nodes the lazy search built (solutions among them) of those the eager version builds.

    A depth's ``eager`` count is every node at that depth, ``rejected`` included; the
    ``built`` counts add up to ``tree.built``.

    >>> print(tree_summary(queens_tree(4, 1)).split(": ", 1)[1])
    the lazy search built 8 of the 60 nodes the eager version builds
    its probe counted 8 partial placements
    depth  built  eager
        1      2      4
        2      3     16
        3      2     24
        4      1     16  (1 solution)
    """
    lines = [
        f"{tree.title}: the lazy search built {tree.built:,} of the {tree.eager_nodes:,} nodes "
        "the eager version builds",
        f"its probe counted {tree.probe_count:,} {tree.counted}",
        f"{'depth':>5}  {'built':>5}  {'eager':>5}",
    ]
    for d in range(1, max(tree.depth) + 1):
        kinds = [k for depth, k in zip(tree.depth, tree.kind, strict=True) if depth == d]
        built = sum(1 for k in kinds if k in ("built", "solution"))
        found = kinds.count("solution")
        line = f"{d:>5}  {built:>5,}  {len(kinds):>5,}"
        lines.append(line + (f"  ({found} solution{'s' if found > 1 else ''})" if found else ""))
    return "\n".join(lines)


WIDTH = 1200  # pixels
ROW = 36  # pixels per depth, at most
HEADER = 64  # pixels above the tree for the title and the legend
NARROW = 2.0  # pixels: narrower nodes of one colour side by side are drawn as one shape


def tree_svg(tree: SearchTree, *, width: int = WIDTH) -> str:
    """The tree as an icicle picture, with its counts and a legend."""
    leaves = _leaves(tree.depth)
    deepest = max(tree.depth)
    row = min(ROW, 720 / (deepest + 1))
    scale = width / leaves[0]
    title = (
        f"{tree.title}: the lazy search built {tree.built:,} of the {tree.eager_nodes:,} nodes "
        f"the eager version builds"
    )
    svg = Svg(width, HEADER + (deepest + 1) * row, title=title)
    svg.add("text", title, x=0, y=18, font_size=14, class_="title")
    _legend(svg, tree)
    at = [0.0] * (deepest + 2)  # the next free x at each depth
    runs: list[tuple[int, float, float, Kind]] = []
    for d, k, count in zip(tree.depth, tree.kind, leaves, strict=True):
        x = at[d]
        w = count * scale
        for deeper in range(d + 1, deepest + 2):
            at[deeper] = max(at[deeper], x)
        at[d] = x + w
        last = runs[-1] if runs else None
        if (
            last is not None
            and last[0] == d
            and last[3] == k
            and w < NARROW
            and abs(last[1] + last[2] - x) < 1e-6
        ):
            runs[-1] = (d, last[1], last[2] + w, k)
        else:
            runs.append((d, x, w, k))
    solutions = [run for run in runs if run[3] == "solution"]
    others = [run for run in runs if run[3] != "solution"]
    for d, x, w, k in others + solutions:  # solutions on top, wide enough to see
        if k == "solution":
            w = max(w, 3.0)
        svg.add(
            "rect",
            x=x,
            y=HEADER + d * row,
            width=max(w, 0.3),
            height=row - 1,
            fill=KINDS[k],
            stroke="#fff" if w >= NARROW * 4 else "none",
            stroke_width=0.5,
            class_=f"node {k.replace(' ', '-')}",
        )
    return svg.close()


def _legend(svg: Svg, tree: SearchTree) -> None:
    counts = {k: tree.kind.count(k) for k in KINDS}
    entries: list[tuple[Kind, str]] = [
        (
            "built",
            f"built by the lazy search: {tree.built:,} "
            f"(its probe counted {tree.probe_count:,} {tree.counted})",
        ),
        ("solution", f"solutions found: {tree.found}"),
        ("never built", f"never built: {counts['never built']:,}"),
    ]
    if counts["rejected"]:
        entries.append(
            ("rejected", f"built and rejected by the eager version: {counts['rejected']:,}")
        )
    x = 0.0
    for k, text in entries:
        svg.add("rect", x=x, y=34, width=14, height=14, fill=KINDS[k])
        svg.add("text", text, x=x + 20, y=46, font_size=12)
        x += 30 + 6.6 * len(text)


def _leaves(depth: tuple[int, ...]) -> list[int]:
    """How many leaves each node of a preorder tree has under it (1 for a leaf)."""
    count = [0] * len(depth)
    open_nodes: list[int] = []
    for i, d in enumerate(depth):
        while open_nodes and depth[open_nodes[-1]] >= d:
            done = open_nodes.pop()
            count[done] = count[done] or 1
            if open_nodes:
                count[open_nodes[-1]] += count[done]
        open_nodes.append(i)
    while open_nodes:
        done = open_nodes.pop()
        count[done] = count[done] or 1
        if open_nodes:
            count[open_nodes[-1]] += count[done]
    return count
