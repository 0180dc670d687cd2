"""How each of LazyList's lazy transformations computes a cell.

Each function here returns a :class:`~lazyfun.lazylist.LazyList` whose cell
is computed by a small ``step`` closure: it forces as many cells of its source
as it needs and gives ``None`` (the end), a ``(head, tail)`` pair whose tail is
the same transformation of the rest, or another list whose cell this one is.
Nothing is computed when the function is called.  ``LazyList``'s methods
(``map``, ``filter``, ``take``, ...) check their arguments and call these
(``mapped``, ``filtered``, ``taken``, ...); the
module and :mod:`lazyfun.lazylist` import each other, and are compiled with
mypyc together.

>>> from lazyfun import LazyList
>>> evens = filtered(lambda n: n % 2 == 0, LazyList.of(range(10)))
>>> evens.forced(), list(evens), evens.forced()
(0, [0, 2, 4, 6, 8], 5)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from lazyfun import lazylist
from lazyfun.blackholes import Failed

__all__ = [
    "appended",
    "dropped",
    "dropped_while",
    "every",
    "filtered",
    "flatmapped",
    "mapped",
    "of_iterator",
    "taken",
    "taken_while",
    "zipped_with",
]

T = TypeVar("T")
U = TypeVar("U")
V = TypeVar("V")


def of_iterator(items: Iterator[T]) -> lazylist.LazyList[T]:
    """The items as cells, one item read per cell forced; an error is kept in its cell."""

    def step() -> lazylist.Evaluated[T]:
        try:
            for x in items:
                return x, lazylist.LazyList(step)
        except Exception as error:
            return Failed(error)
        return None

    return lazylist.LazyList(step)


def mapped(f: Callable[[T], U], src: lazylist.LazyList[T]) -> lazylist.LazyList[U]:
    """``map f (x:xs) = f x : map f xs``."""

    def step() -> lazylist.Evaluated[U]:
        src._force()
        tail = src._tail
        if tail is None:
            return None
        return f(src._head), mapped(f, tail)

    return lazylist.LazyList(step)


def filtered(keep: Callable[[T], object], src: lazylist.LazyList[T]) -> lazylist.LazyList[T]:
    """``filter p (x:xs) = if p x then x : filter p xs else filter p xs``, as a loop."""

    def step() -> lazylist.Evaluated[T]:
        node = src
        while True:
            node._force()
            tail = node._tail
            if tail is None:
                return None
            x = node._head
            if keep(x):
                return x, filtered(keep, tail)
            node = tail

    return lazylist.LazyList(step)


def flatmapped(
    f: Callable[[T], Iterable[U]], src: lazylist.LazyList[T], inner: Iterator[U] | None
) -> lazylist.LazyList[U]:
    """``concatMap f (x:xs) = f x ++ concatMap f xs``, reading ``f x`` as needed
    (``inner`` is what is left of the current one)."""

    def step() -> lazylist.Evaluated[U]:
        items, node = inner, src
        while True:
            if items is not None:
                for y in items:
                    return y, flatmapped(f, node, items)
            node._force()
            tail = node._tail
            if tail is None:
                return None
            items, node = iter(f(node._head)), tail

    return lazylist.LazyList(step)


def zipped_with(
    f: Callable[[T, U], V], xs: lazylist.LazyList[T], ys: lazylist.LazyList[U]
) -> lazylist.LazyList[V]:
    """``zipWith f (x:xs) (y:ys) = f x y : zipWith f xs ys``; empty when either is."""

    def step() -> lazylist.Evaluated[V]:
        xs._force()
        x_tail = xs._tail
        if x_tail is None:
            return None
        ys._force()
        y_tail = ys._tail
        if y_tail is None:
            return None
        return f(xs._head, ys._head), zipped_with(f, x_tail, y_tail)

    return lazylist.LazyList(step)


def taken(n: int, src: lazylist.LazyList[T]) -> lazylist.LazyList[T]:
    """``take n (x:xs) = x : take (n-1) xs``; ``take 0 _ = []``."""

    if n <= 0:
        return lazylist.LazyList(None)

    def step() -> lazylist.Evaluated[T]:
        src._force()
        tail = src._tail
        if tail is None:
            return None
        return src._head, taken(n - 1, tail)

    return lazylist.LazyList(step)


def taken_while(keep: Callable[[T], object], src: lazylist.LazyList[T]) -> lazylist.LazyList[T]:
    """``takeWhile p (x:xs) = if p x then x : takeWhile p xs else []``."""

    def step() -> lazylist.Evaluated[T]:
        src._force()
        tail = src._tail
        if tail is None or not keep(src._head):
            return None
        return src._head, taken_while(keep, tail)

    return lazylist.LazyList(step)


def every(k: int, src: lazylist.LazyList[T]) -> lazylist.LazyList[T]:
    """Every ``k``-th element, starting with the first."""

    def step() -> lazylist.Evaluated[T]:
        src._force()
        if src._tail is None:
            return None
        return src._head, every(k, dropped(k, src))

    return lazylist.LazyList(step)


def appended(xs: lazylist.LazyList[T], ys: lazylist.LazyList[T]) -> lazylist.LazyList[T]:
    """``(x:xs) ++ ys = x : (xs ++ ys)``; ``[] ++ ys = ys`` (the cell becomes ys's)."""

    def step() -> lazylist.Evaluated[T]:
        xs._force()
        tail = xs._tail
        if tail is None:
            return ys
        return xs._head, appended(tail, ys)

    return lazylist.LazyList(step)


def dropped(n: int, src: lazylist.LazyList[T]) -> lazylist.LazyList[T]:
    """Everything after the first ``n`` elements: the cell after them, reached when forced."""

    def step() -> lazylist.Evaluated[T]:
        node = src
        for _ in range(n):
            node._force()
            tail = node._tail
            if tail is None:
                return None
            node = tail
        return node

    return lazylist.LazyList(step)


def dropped_while(drop: Callable[[T], object], src: lazylist.LazyList[T]) -> lazylist.LazyList[T]:
    """The list from the first element that ``drop`` rejects."""

    def step() -> lazylist.Evaluated[T]:
        node = src
        while True:
            node._force()
            tail = node._tail
            if tail is None or not drop(node._head):
                return node
            node = tail

    return lazylist.LazyList(step)
