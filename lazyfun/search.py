"""The one search skeleton every program in lazyfun instantiates.

Bird's final Sudoku solver, with its four parameters made explicit::

    search m | blocked m  = []
             | complete m = [m]
             | otherwise  = concat (map (search . prune) (expand1 m))

A program supplies ``expand1`` (branch on one choice point), ``complete``,
and optionally ``prune`` (propagation, usually to a fixpoint) and ``blocked``
(a state that can no longer be completed).  The skeleton walks the tree
depth-first with an explicit stack of child iterators: it holds only the
current path, yields each complete state as soon as it is reached, and has no
recursion-depth limit.

``complete`` and ``blocked`` may return any value; it is read for its truth.

Installed from source, this module is compiled with mypyc (see
:mod:`lazyfun.compiled`): every program's search loop then runs as C.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from lazyfun.trace import Meter

S = TypeVar("S")

__all__ = ["never", "search", "unchanged"]


def never(_: object) -> bool:
    """The default ``blocked``: no state is known to be a dead end before it is expanded."""
    return False


def unchanged(state: S) -> S:
    """The default ``prune``: the state as it is."""
    return state


def search(
    start: S,
    *,
    expand1: Callable[[S], Iterable[S]],
    complete: Callable[[S], object],
    blocked: Callable[[S], object] = never,
    prune: Callable[[S], S] = unchanged,
    meter: Meter | None = None,
) -> Iterator[S]:
    """Yield the complete states below ``start``, depth-first, one at a time.

    ``start`` itself is not pruned (Bird writes ``search . prune``: prune it
    first if it needs it); every child produced by ``expand1`` is.  Children
    are taken from ``expand1`` lazily, one when the search reaches it.  A
    ``meter`` counts the nodes expanded, for a front end to show progress.

    Counting the subsets of {1, 2, 3, 4} that sum to 5, as a search over
    (chosen, remaining) pairs:

    >>> def expand1(state):
    ...     chosen, rest = state
    ...     first, *others = rest
    ...     return [(chosen + (first,), tuple(others)), (chosen, tuple(others))]
    >>> sols = search(
    ...     ((), (1, 2, 3, 4)),
    ...     expand1=expand1,
    ...     complete=lambda s: sum(s[0]) == 5,
    ...     blocked=lambda s: sum(s[0]) > 5 or (not s[1] and sum(s[0]) != 5),
    ... )
    >>> [chosen for chosen, _ in sols]
    [(1, 4), (2, 3)]
    """
    if blocked(start):
        return
    if complete(start):
        yield start
        return
    if meter is not None:
        meter.add()
    path: list[Iterator[S]] = [iter(expand1(start))]
    while path:
        for child in path[-1]:
            child = prune(child)
            if blocked(child):
                continue
            if complete(child):
                yield child
                continue
            if meter is not None:
                meter.add()
            path.append(iter(expand1(child)))
            break
        else:
            path.pop()
