"""The top of a search tree, cut into independent subtrees: the one cut every parallel
search and count uses.

:func:`lazyfun.search` walks one tree depth-first.  Below any level of it the
subtrees are independent, so a parallel run walks the top of the tree here,
level by level, and hands each open subtree to a worker:

    next level = concat (map (filter (not . blocked) . map prune . expand1) open nodes)

Complete states met above the cut stay in their place as solutions.  The
cut stops ``depth`` levels down, or, without a depth, at the first level
that holds ``wanted`` open subtrees (or when nothing is left open).

>>> def expand1(chosen):
...     return [chosen + (k,) for k in range(1, 4) if sum(chosen) + k <= 4]
>>> tree = Tree(expand1, complete=lambda c: sum(c) == 4)
>>> [(node.state, node.solution) for node in cut((), tree, depth=1)]
[((1,), False), ((2,), False), ((3,), False)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Generic, NamedTuple, TypeVar

from lazyfun.search import never, unchanged

__all__ = ["Cut", "Tree", "cut"]

S = TypeVar("S")


class Tree(NamedTuple, Generic[S]):
    """The four functions of a search, kept together (and sent to workers together)."""

    expand1: Callable[[S], Iterable[S]]
    complete: Callable[[S], object]
    blocked: Callable[[S], object] = never
    prune: Callable[[S], S] = unchanged


class Cut(NamedTuple, Generic[S]):
    """One node of the cut: a complete state (a solution) or the root of an open subtree."""

    state: S
    solution: bool


def cut(start: S, tree: Tree[S], *, depth: int | None = None, wanted: int = 1) -> list[Cut[S]]:
    """The top of the tree below ``start`` in depth-first order (eager: one level at a time).

    ``depth`` levels down, or, without a depth, as many levels as it takes to
    hold ``wanted`` open subtrees.  ``start`` is taken as it is (not pruned);
    blocked nodes are dropped.  The solutions of the cut (its solution nodes,
    and the solutions below its open nodes, in order) are exactly those of
    ``search(start, ...)``, in the same order.
    """
    if tree.blocked(start):
        return []
    level = [Cut(start, bool(tree.complete(start)))]
    done = 0
    while any(not node.solution for node in level):
        opened = sum(not node.solution for node in level)
        if (depth is not None and done >= depth) or (depth is None and opened >= wanted):
            break
        deeper: list[Cut[S]] = []
        for node in level:
            if node.solution:
                deeper.append(node)
                continue
            for child in tree.expand1(node.state):
                child = tree.prune(child)
                if not tree.blocked(child):
                    deeper.append(Cut(child, bool(tree.complete(child))))
        level = deeper
        done += 1
    return level
