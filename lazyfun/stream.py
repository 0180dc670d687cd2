"""A fluent, typed, one-shot pipeline: ``stream(xs).map(f).filter(p).take(5).to_list()``.

:func:`stream` wraps an iterable in a :class:`Stream`, whose methods are the
library's lazy vocabulary read left to right.  Each step returns a new
Stream and computes nothing; a terminal (``to_list``, ``first``, ``count``,
``reduce``, ...) or a ``for`` loop pulls the items through.  The steps are
itertools, toolz and more-itertools underneath, so a Stream costs about what
the hand-written generator pipeline costs (``make bench BENCH=lazylist``).

>>> stream(range(10)).filter(lambda n: n % 2).map(lambda n: n * n).to_list()
[1, 9, 25, 49, 81]

A Stream is one-shot, like the iterator it wraps, and says so: reading it a
second time raises :class:`StreamConsumedError` instead of silently giving
nothing.  To read the items more than once, turn the Stream into a
call-by-need :class:`~lazyfun.lazylist.LazyList` with :meth:`Stream.lazylist`,
or build the Stream again.

>>> squares = stream(range(4)).map(lambda n: n * n)
>>> squares.to_list()
[0, 1, 4, 9]
>>> squares.to_list()
Traceback (most recent call last):
...
lazyfun.stream.StreamConsumedError: this Stream was already read: ...
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import TYPE_CHECKING, Generic, TypeVar, overload

import more_itertools
import toolz

from lazyfun.lazylist import LazyList

if TYPE_CHECKING:
    from lazyfun.trace import Probe

T = TypeVar("T")
U = TypeVar("U")
D = TypeVar("D")

__all__ = ["Stream", "StreamConsumedError", "stream"]


class StreamConsumedError(RuntimeError):
    """A Stream was read twice; a Stream is one-shot, as the iterator it wraps."""


_NOTHING = object()


class Stream(Generic[T]):
    """A one-shot pipeline over an iterator, composed by method chaining.

    Build one with :func:`stream`.  Every step (``map``, ``filter``, ...)
    uses this Stream up and returns a new one; every terminal reads it to
    the end (or, for ``first``, to the first item).
    """

    __slots__ = ("_items", "_used")

    def __init__(self, items: Iterable[T]) -> None:
        self._items: Iterator[T] = iter(items)
        self._used = False

    def _take_items(self) -> Iterator[T]:
        """The underlying iterator, once; a second call is a StreamConsumedError."""
        if self._used:
            raise StreamConsumedError(
                "this Stream was already read: a Stream is one-shot. Call .lazylist() "
                "on it before its first read to keep a list that can be read many "
                "times, or build the Stream again"
            )
        self._used = True
        return self._items

    def __iter__(self) -> Iterator[T]:
        """The items, once (a ``for`` loop over a Stream uses it up)."""
        return self._take_items()

    def __repr__(self) -> str:
        return f"<Stream {'read' if self._used else 'unread'}>"

    # --- steps: each returns a new Stream, lazily -----------------------------

    def map(self, f: Callable[[T], U]) -> Stream[U]:
        """``map f``: ``f`` applied to each item as it is pulled.

        >>> stream("ab").map(str.upper).to_list()
        ['A', 'B']
        """
        return Stream(map(f, self._take_items()))

    def filter(self, keep: Callable[[T], object]) -> Stream[T]:
        """``filter keep``: the items for which ``keep`` is true.

        >>> stream(range(6)).filter(lambda n: n % 3 == 0).to_list()
        [0, 3]
        """
        return Stream(filter(keep, self._take_items()))

    def flatmap(self, f: Callable[[T], Iterable[U]]) -> Stream[U]:
        """``concatMap f``: the items of ``f(x)`` for each item ``x``, chained.

        >>> stream([1, 2, 3]).flatmap(range).to_list()
        [0, 0, 1, 0, 1, 2]
        """
        return Stream(itertools.chain.from_iterable(map(f, self._take_items())))

    def take(self, n: int) -> Stream[T]:
        """The first ``n`` items (reads no further).

        >>> stream(itertools.count()).take(3).to_list()
        [0, 1, 2]
        """
        return Stream(itertools.islice(self._take_items(), n))

    def drop(self, n: int) -> Stream[T]:
        """Everything after the first ``n`` items.

        >>> stream(range(5)).drop(3).to_list()
        [3, 4]
        """
        return Stream(itertools.islice(self._take_items(), n, None))

    def takewhile(self, keep: Callable[[T], object]) -> Stream[T]:
        """The longest prefix of items satisfying ``keep``.

        >>> stream([1, 4, 9, 16, 1]).takewhile(lambda n: n < 10).to_list()
        [1, 4, 9]
        """
        return Stream(itertools.takewhile(keep, self._take_items()))

    def dropwhile(self, drop: Callable[[T], object]) -> Stream[T]:
        """What follows the longest prefix satisfying ``drop``.

        >>> stream([1, 4, 9, 16, 1]).dropwhile(lambda n: n < 10).to_list()
        [16, 1]
        """
        return Stream(itertools.dropwhile(drop, self._take_items()))

    def chunked(self, n: int) -> Stream[list[T]]:
        """Lists of ``n`` items (the last may be shorter), each read as it is needed.

        >>> stream(range(5)).chunked(2).to_list()
        [[0, 1], [2, 3], [4]]
        """
        return Stream(more_itertools.chunked(self._take_items(), n))

    def window(self, n: int) -> Stream[tuple[T, ...]]:
        """Overlapping windows of ``n`` consecutive items.

        >>> stream(range(4)).window(2).to_list()
        [(0, 1), (1, 2), (2, 3)]
        """
        return Stream(toolz.sliding_window(n, self._take_items()))

    def enumerate(self, start: int = 0) -> Stream[tuple[int, T]]:
        """``(index, item)`` pairs, counting from ``start``.

        >>> stream("ab").enumerate(1).to_list()
        [(1, 'a'), (2, 'b')]
        """
        return Stream(enumerate(self._take_items(), start))

    def zip(self, other: Iterable[U]) -> Stream[tuple[T, U]]:
        """Pairs with the items of ``other``, as long as the shorter one.

        >>> stream("abc").zip(itertools.count()).to_list()
        [('a', 0), ('b', 1), ('c', 2)]
        """
        return Stream(zip(self._take_items(), other, strict=False))

    def scan(self, f: Callable[[U, T], U], initial: U) -> Stream[U]:
        """``scanl f initial``: ``initial`` and every running result of ``f``.

        >>> stream([1, 2, 3]).scan(lambda total, n: total + n, 0).to_list()
        [0, 1, 3, 6]
        """
        return Stream(itertools.accumulate(self._take_items(), f, initial=initial))

    def unique(self, key: Callable[[T], Hashable] | None = None) -> Stream[T]:
        """Each item the first time it (or its ``key``) is seen; remembers what it has seen.

        >>> stream("abracadabra").unique().to_list()
        ['a', 'b', 'r', 'c', 'd']
        """
        return Stream(more_itertools.unique_everseen(self._take_items(), key=key))

    def probe(self, name: str, probe: Probe) -> Stream[T]:
        """Count the items that pass this point under ``name`` in a trace ``Probe``.

        >>> from lazyfun.trace import Probe
        >>> p = Probe()
        >>> stream(range(100)).probe("read", p).filter(lambda n: n > 4).first()
        5
        >>> p.counts
        {'read': 6}
        """
        return Stream(probe.stage(name, self._take_items()))

    def pmap(
        self,
        f: Callable[[T], U],
        *,
        jobs: int | None = None,
        scheduler: str | None = None,
        buffer: int | None = None,
        chunksize: int | None = None,
    ) -> Stream[U]:
        """``f`` on each item on parallel workers, in order, a bounded number read ahead
        (:func:`lazyfun.parallel.pmap`; needs ``f`` picklable for worker processes).

        >>> stream(range(5)).pmap(abs, scheduler="sync").map(str).to_list()
        ['0', '1', '2', '3', '4']
        """
        from lazyfun.parallel.pmap import pmap

        items = self._take_items()
        return Stream(
            pmap(f, items, jobs=jobs, scheduler=scheduler, buffer=buffer, chunksize=chunksize)
        )

    # --- terminals ----------------------------------------------------------

    @overload
    def first(self) -> T: ...

    @overload
    def first(self, default: D) -> T | D: ...

    def first(self, default: object = _NOTHING) -> object:
        """The first item (reads only it); ``default`` when there is none, else ValueError.

        >>> stream(itertools.count(7)).first()
        7
        >>> stream([]).first(None) is None
        True
        """
        for item in self._take_items():
            return item
        if default is _NOTHING:
            raise ValueError("first() of an empty Stream (give a default)")
        return default

    @overload
    def last(self) -> T: ...

    @overload
    def last(self, default: D) -> T | D: ...

    def last(self, default: object = _NOTHING) -> object:
        """The last item (reads the whole Stream, keeping one item); else ``default``.

        >>> stream(range(5)).last()
        4
        """
        item = more_itertools.last(self._take_items(), _NOTHING)
        if item is not _NOTHING:
            return item
        if default is _NOTHING:
            raise ValueError("last() of an empty Stream (give a default)")
        return default

    def to_list(self) -> list[T]:
        """Every item, in a list (eager: the one place a Stream is materialised).

        >>> stream(range(3)).map(str).to_list()
        ['0', '1', '2']
        """
        return list(self._take_items())

    def count(self) -> int:
        """How many items there are (reads them all, keeps none).

        >>> stream(range(10)).filter(lambda n: n % 2).count()
        5
        """
        return more_itertools.ilen(self._take_items())

    def reduce(self, f: Callable[[U, T], U], initial: U) -> U:
        """``foldl f initial``: the items combined from the left.

        >>> stream([1, 2, 3]).reduce(lambda total, n: total * 10 + n, 0)
        123
        """
        return functools.reduce(f, self._take_items(), initial)

    def lazylist(self) -> LazyList[T]:
        """A call-by-need LazyList of the items: read once, on demand, and kept for rereading.

        >>> xs = stream(range(3)).map(lambda n: n * 10).lazylist()
        >>> list(xs), list(xs)
        ([0, 10, 20], [0, 10, 20])
        """
        return LazyList.of(self._take_items())


def stream(items: Iterable[T]) -> Stream[T]:
    """A fluent :class:`Stream` over ``items`` (nothing is read until a terminal asks).

    >>> stream([3, 1, 2]).map(lambda n: n * 2).to_list()
    [6, 2, 4]
    """
    return Stream(items)
