"""Sudoku by equational reasoning: Bird, *Thinking Functionally with Haskell*, ch. 5.

Read this module top to bottom as the chapter.  We start from a specification
that is obviously right and hopelessly slow::

    solve = filter valid . expand . choices

and rewrite it, one law at a time, into a program that is fast enough to use::

    solve = search . prune . choices

Every stage is a small function on matrices (tuples of rows); every stream is
lazy, so even the specification runs in constant memory, one candidate grid at
a time.  The laws that justify each step are property tests in
``tests/sudoku/test_bird_laws.py``.  Box sizes 2..5 are all handled: the box
size is read off the matrix (N = b*b rows).

A cell of a ``Matrix[Choices]`` is the tuple of values still possible there;
a cell of a grid is a value, 0 for a blank.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from math import isqrt, prod
from typing import TypeVar

import lazyfun
from lazyfun.core import cp, many, reiterable
from lazyfun.lazylist.sharing import shared_cp
from lazyfun.sudoku.board.grid import Grid

T = TypeVar("T")
Row = tuple[T, ...]
Matrix = tuple[tuple[T, ...], ...]
Choices = tuple[int, ...]

__all__ = [
    "blocked",
    "boxs",
    "choices",
    "cols",
    "complete",
    "count_candidates",
    "expand",
    "expand1",
    "expand_by_need",
    "extract",
    "group",
    "nodups",
    "prune",
    "prune_by",
    "prune_row",
    "rows",
    "safe",
    "search",
    "solve_by_need",
    "solve_naive",
    "solve_pruned",
    "solve_search",
    "ungroup",
    "valid",
]


# --- 5.1 Specification ------------------------------------------------------


def choices(grid: Matrix[int]) -> Matrix[Choices]:
    """``choices = map (map choice) where choice d = if blank d then digits else [d]``.

    >>> choices(((1, 0), (0, 0)))[0]
    ((1,), (1, 2))
    """
    digits = tuple(range(1, len(grid) + 1))
    return tuple(tuple((d,) if d else digits for d in row) for row in grid)


def expand(m: Matrix[Choices]) -> Iterator[Matrix[int]]:
    """``expand = cp . map cp``: every grid the choices allow, one at a time.

    Each row's product is a ``reiterable`` stream, so the outer ``cp`` walks
    the rows again and again without ever storing them.

    >>> list(expand((((1,), (1, 2)), ((3,), (4,)))))
    [((1, 1), (3, 4)), ((1, 2), (3, 4))]
    """
    return cp(reiterable(_row_product(row)) for row in m)


def _row_product(row: Row[Choices]) -> Callable[[], Iterator[Row[int]]]:
    return lambda: cp(row)


def expand_by_need(m: Matrix[Choices]) -> Iterator[Matrix[int]]:
    """``expand = cp . map cp`` read call-by-need, as Haskell runs it.

    Each row's product and each tail product ``yss`` of ``cp (xs:xss) =
    [x:ys | x <- xs, ys <- yss] where yss = cp xss`` is a shared
    :class:`~lazyfun.lazylist.LazyList`: computed once, on first demand,
    and reused for every ``x``.  As fast as the eager product, it keeps what
    it has computed (the tail products), where ``expand`` keeps nothing and
    recomputes.

    >>> list(expand_by_need((((1,), (1, 2)), ((3,), (4,)))))
    [((1, 1), (3, 4)), ((1, 2), (3, 4))]
    """
    return iter(shared_cp([shared_cp(row) for row in m]))


def solve_by_need(grid: Grid) -> Iterator[Grid]:
    """``solve = filter valid . expand . choices`` with ``expand`` call-by-need."""
    return map(Grid.from_rows, filter(valid, expand_by_need(choices(grid.rows))))


def count_candidates(m: Matrix[Choices]) -> int:
    """How many grids ``expand m`` yields: the product of the numbers of choices.

    Eager and cheap (no grid is built); front ends use it to refuse what
    would not finish.

    >>> count_candidates(choices(((1, 0), (0, 0))))
    8
    """
    return prod(len(cs) for row in m for cs in row)


def nodups(xs: Sequence[T]) -> bool:
    """``nodups (x:xs) = x `notElem` xs && nodups xs``: no value twice.

    >>> nodups((1, 2, 3)), nodups((1, 2, 1))
    (True, False)
    """
    return len(set(xs)) == len(xs)


def valid(g: Matrix[int]) -> bool:
    """``valid g = all nodups (rows g) && all nodups (cols g) && all nodups (boxs g)``."""
    return all(map(nodups, rows(g))) and all(map(nodups, cols(g))) and all(map(nodups, boxs(g)))


def rows(m: Matrix[T]) -> Matrix[T]:
    """``rows = id``."""
    return m


def cols(m: Matrix[T]) -> Matrix[T]:
    """``cols = transpose``.

    Bird: ``cols [xs] = [[x] | x <- xs]; cols (xs:xss) = zipWith (:) xs (cols xss)``.

    >>> cols(((1, 2), (3, 4)))
    ((1, 3), (2, 4))
    """
    return tuple(zip(*m, strict=True))


def boxs(m: Matrix[T]) -> Matrix[T]:
    """``boxs = map ungroup . ungroup . map cols . group . map group``.

    Row i of the result is box i of ``m`` (boxes in reading order, cells in
    reading order inside each box).

    >>> boxs(((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16)))[1]
    (3, 4, 7, 8)
    """
    b = isqrt(len(m))
    return tuple(map(ungroup, ungroup(map(cols, group(b, tuple(group(b, row) for row in m))))))


def group(b: int, xs: tuple[T, ...]) -> tuple[tuple[T, ...], ...]:
    """``group [] = []; group xs = take b xs : group (drop b xs)``.

    >>> group(2, (1, 2, 3, 4))
    ((1, 2), (3, 4))
    """
    return tuple(xs[i : i + b] for i in range(0, len(xs), b))


def ungroup(xss: Iterable[tuple[T, ...]]) -> tuple[T, ...]:
    """``ungroup = concat``.

    >>> ungroup(((1, 2), (3, 4)))
    (1, 2, 3, 4)
    """
    return tuple(x for xs in xss for x in xs)


def solve_naive(grid: Grid) -> Iterator[Grid]:
    """``solve = filter valid . expand . choices`` -- the specification, run lazily.

    It streams every candidate grid (9^blanks of them) in constant memory and
    keeps the valid ones.  Only for grids with a handful of blanks.
    """
    return map(Grid.from_rows, filter(valid, expand(choices(grid.rows))))


# --- 5.2 Pruning the matrix of choices --------------------------------------


def prune_row(row: Row[Choices]) -> Row[Choices]:
    """``pruneRow row = map (remove fixed) row where fixed = [d | [d] <- row]``.

    ``remove ds [x] = [x]; remove ds xs = filter (`notElem` ds) xs``.

    >>> prune_row(((6,), (1, 2), (3,), (1, 3, 4), (5, 6)))
    ((6,), (1, 2), (3,), (1, 4), (5,))
    """
    fixed = {cs[0] for cs in row if len(cs) == 1}
    return tuple(cs if len(cs) == 1 else tuple(d for d in cs if d not in fixed) for cs in row)


def prune_by(
    f: Callable[[Matrix[Choices]], Matrix[Choices]], m: Matrix[Choices]
) -> Matrix[Choices]:
    """``pruneBy f = f . map pruneRow . f`` (``f`` is an involution: rows, cols, boxs)."""
    return f(tuple(map(prune_row, f(m))))


def prune(m: Matrix[Choices]) -> Matrix[Choices]:
    """``prune = pruneBy boxs . pruneBy cols . pruneBy rows``."""
    return prune_by(boxs, prune_by(cols, prune_by(rows, m)))


def solve_pruned(grid: Grid) -> Iterator[Grid]:
    """``solve = filter valid . expand . many prune . choices``."""
    return map(Grid.from_rows, filter(valid, expand(many(prune, choices(grid.rows)))))


# --- 5.3 Expanding a single cell --------------------------------------------


def expand1(m: Matrix[Choices]) -> Iterator[Matrix[Choices]]:
    """Expand the first cell with the fewest choices (more than one), one child each.

    ``expand1 rows = [rows1 ++ [row1 ++ [c] : row2] ++ rows2 | c <- cs]``
    ``  where (rows1, row:rows2) = break (any best) rows``
    ``        (row1, cs:row2)    = break best row``
    ``        best cs = (length cs == n); n = minimum (counts rows)``

    >>> list(expand1((((1, 2), (1, 2, 3)), ((3,), (4,)))))
    [(((1,), (1, 2, 3)), ((3,), (4,))), (((2,), (1, 2, 3)), ((3,), (4,)))]
    """
    n = min(len(cs) for row in m for cs in row if len(cs) > 1)
    r, row = next((r, row) for r, row in enumerate(m) if any(len(cs) == n for cs in row))
    c = next(c for c, cs in enumerate(row) if len(cs) == n)
    for d in row[c]:
        yield (*m[:r], (*row[:c], (d,), *row[c + 1 :]), *m[r + 1 :])


def complete(m: Matrix[Choices]) -> bool:
    """``complete = all (all single)``."""
    return all(len(cs) == 1 for row in m for cs in row)


def safe(m: Matrix[Choices]) -> bool:
    """``safe m = all ok (rows m) && all ok (cols m) && all ok (boxs m)``.

    ``ok row = nodups [d | [d] <- row]``: no value fixed twice in a unit.
    """

    def ok(row: Row[Choices]) -> bool:
        return nodups([cs[0] for cs in row if len(cs) == 1])

    return all(map(ok, rows(m))) and all(map(ok, cols(m))) and all(map(ok, boxs(m)))


def blocked(m: Matrix[Choices]) -> bool:
    """``blocked m = void m || not (safe m)``, ``void = any (any null)``."""
    return any(len(cs) == 0 for row in m for cs in row) or not safe(m)


def extract(m: Matrix[Choices]) -> Matrix[int]:
    """``extract = map (map head)``: a complete matrix of choices as a grid."""
    return tuple(tuple(cs[0] for cs in row) for row in m)


def search(m: Matrix[Choices]) -> Iterator[Matrix[Choices]]:
    """Bird's ``search``, as an instance of the core skeleton::

    search m | blocked m  = []
             | complete m = [m]
             | otherwise  = concat (map (search . prune) (expand1 m))
    """
    return lazyfun.search(m, expand1=expand1, complete=complete, blocked=blocked, prune=prune)


def solve_search(grid: Grid) -> Iterator[Grid]:
    """``solve = map extract . search . prune . choices``: Bird's final solver."""
    return (Grid.from_rows(extract(m)) for m in search(prune(choices(grid.rows))))
