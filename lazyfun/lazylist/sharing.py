"""Bird's cartesian product with its tails shared: ``shared_cp``, call-by-need.

``cp`` in :mod:`lazyfun.core` is call-by-name: the product of the tail is walked
anew for every element of the head.  ``shared_cp`` is the call-by-need reading of
the same equation, built on :class:`~lazyfun.lazylist.LazyList`: each tail
product is computed once and kept for every later walk.  Installed from source,
this module is compiled with mypyc, as the LazyList is.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from copy import copy
from itertools import chain, repeat, tee
from operator import add
from typing import Generic, TypeVar

from lazyfun.lazylist.cells import LazyList

__all__ = ["shared_cp"]

T = TypeVar("T")


def shared_cp(xss: Iterable[Iterable[T]]) -> LazyList[tuple[T, ...]]:
    """Bird's cartesian product, with the product of the tail computed once and shared.

    ``cp [] = [[]]``; ``cp (xs:xss) = [x:ys | x <- xs, ys <- yss] where yss = cp xss``.

    ``yss`` is computed once, on demand, and walked again for every ``x``:
    the call-by-need reading of Bird's definition.  The result is a
    LazyList; each shared tail product is a memo table (an array filled as
    it is first walked) rather than a chain of cells: the same sharing, with
    a fraction of the objects for the garbage collector to trace.  Time is
    close to an eager product's; memory grows as the product is walked,
    since every shared tail product is kept (the price of sharing).  The
    positions are read at once (there are finitely many); their items as
    needed, once each.

    >>> list(shared_cp([[1, 2], "ab"]))
    [(1, 'a'), (1, 'b'), (2, 'a'), (2, 'b')]
    >>> list(shared_cp([])), list(shared_cp([[1], []]))
    ([()], [])
    """
    positions = [xs if isinstance(xs, LazyList) else LazyList.of(xs) for xs in xss]
    if not positions:
        return LazyList.of([()])
    yss: Iterable[tuple[T, ...]] = ((),)
    for xs in reversed(positions[1:]):
        yss = _Table(_prepend_each(xs, yss))
    return LazyList.of(_prepend_each(positions[0], yss))


def _prepend_each(xs: LazyList[T], yss: Iterable[tuple[T, ...]]) -> Iterator[tuple[T, ...]]:
    """``[x:ys | x <- xs, ys <- yss]``, in C: ``+`` mapped along ``yss`` for each ``x``."""
    return chain.from_iterable(map(lambda x: map(add, repeat((x,)), yss), xs))


class _Table(Generic[T]):
    """A shared, call-by-need sequence: each item read from ``source`` once, on first
    demand, and kept for every later walk.

    ``itertools.tee`` does the bookkeeping in C: ``start`` never moves, so the
    tee's buffer keeps every item read; each walk is a copy of ``start``.
    """

    def __init__(self, source: Iterator[T]) -> None:
        self.start = tee(source, 1)[0]

    def __iter__(self) -> Iterator[T]:
        return copy(self.start)
