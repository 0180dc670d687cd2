"""Reading a Stream: once, and to the end (or to the first item).

:class:`Terminals` is the half of :class:`~lazyfun.streams.stream.Stream` that reads:
the one-shot rule (a second read is a :class:`StreamConsumedError`, never a
silent empty stream) and the terminals, ``to_list``, ``first``, ``count``,
``reduce``, ``sum``, ``min``, ``max``, ``to_set``, ``to_dict``,
``for_each``, ``lazylist``.  The other half, the lazy steps, is in
:mod:`lazyfun.streams.stream`; the examples here use its ``stream``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from types import TracebackType
from typing import Any, Generic, Protocol, Self, TypeVar, overload

import more_itertools

from lazyfun.lazylist import LazyList
from lazyfun.streams.steps import check_callable

__all__ = ["StreamConsumedError", "Terminals"]

T = TypeVar("T")
U = TypeVar("U")
D = TypeVar("D")
K = TypeVar("K")
V = TypeVar("V")


class StreamConsumedError(RuntimeError):
    """A Stream was read twice; a Stream is one-shot, as the iterator it wraps."""


class Closable(Protocol):
    """What a step that holds threads, processes, tasks or a progress bar offers."""

    def close(self) -> None: ...


class _Comparable(Protocol):
    def __lt__(self, other: Any, /) -> bool: ...


C = TypeVar("C", bound=_Comparable)

_NOTHING: Any = object()


class Terminals(Generic[T]):
    """A one-shot source of items and the ways to read it (the base of ``Stream``)."""

    __slots__ = ("_closed", "_holds", "_items", "_used")

    def __init__(self, items: Iterable[T], holds: tuple[Closable, ...] = ()) -> None:
        self._items: Iterator[T] = iter(items)
        self._used = self._closed = False
        self._holds = holds

    def _take_items(self) -> Iterator[T]:
        """The underlying iterator, once; a second call is a StreamConsumedError."""
        if self._closed:
            raise StreamConsumedError("this Stream was closed: build the Stream again")
        if self._used:
            raise StreamConsumedError(
                "this Stream was already read: a Stream is one-shot. Call .lazylist() "
                "on it before its first read to keep a list that can be read many "
                "times, or build the Stream again"
            )
        self._used = True
        return self._items

    def close(self) -> None:
        """End the pipeline now: every concurrent step's queued calls are cancelled and the
        pool or cluster it started is shut down (a call running in your code is left to
        finish on its own, on a daemon thread or worker, and never holds the process
        open); a buffer's thread stops; a progress bar ends.  Your source, and an
        Executor or cluster you passed in, stay open.  Closing twice is nothing.

        >>> squares = stream(range(10**9)).map(lambda n: n * n, concurrency=4)
        >>> it = iter(squares)
        >>> next(it), next(it)
        (0, 1)
        >>> squares.close()
        >>> next(it, "ended")
        'ended'
        """
        self._closed = not self._used  # once read, a second read says so
        holds, self._holds = self._holds, ()
        for hold in reversed(holds):  # from the consumer's end back to the source
            hold.close()

    def __enter__(self) -> Self:
        """``with stream(...) as s:`` closes ``s`` when the block is left, any way.

        >>> with stream(range(10**9)).map(str, concurrency=2) as digits:
        ...     next(iter(digits))
        '0'
        """
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __iter__(self) -> Iterator[T]:
        """The items, once (a ``for`` loop over a Stream uses it up)."""
        return self._take_items()

    def __repr__(self) -> str:
        return f"<Stream {'read' if self._used else 'unread'}>"

    @overload
    def first(self) -> T: ...

    @overload
    def first(self, default: D) -> T | D: ...

    def first(self, default: object = _NOTHING) -> object:
        """The first item (reads only it); ``default`` when there is none, else ValueError.

        >>> stream(range(7, 10**9)).first()
        7
        >>> stream([]).first(None) is None
        True
        """
        with self:
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
        with self:
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
        with self:
            return list(self._take_items())

    def count(self) -> int:
        """How many items there are (reads them all, keeps none).

        >>> stream(range(10)).filter(lambda n: n % 2).count()
        5
        """
        with self:
            return more_itertools.ilen(self._take_items())

    def reduce(self, f: Callable[[U, T], U], initial: U) -> U:
        """``foldl f initial``: the items combined from the left.

        >>> stream([1, 2, 3]).reduce(lambda total, n: total * 10 + n, 0)
        123
        """
        with self:
            return functools.reduce(f, self._take_items(), initial)

    def for_each(self, f: Callable[[T], object]) -> None:
        """``f`` on every item, for its effect (reads the whole Stream).

        >>> stream("ab").for_each(print)
        a
        b
        """
        check_callable(f, "for_each")
        with self:
            for item in self._take_items():
                f(item)

    @overload
    def sum(self: Terminals[int], start: int = 0) -> int: ...

    @overload
    def sum(self: Terminals[float], start: float = 0) -> float: ...

    def sum(self: Terminals[Any], start: Any = 0) -> Any:
        """The sum of the items, from ``start``.

        >>> stream(range(5)).sum()
        10
        """
        with self:
            return sum(self._take_items(), start)

    @overload
    def min(self: Terminals[C], *, key: None = None) -> C: ...

    @overload
    def min(self, *, key: Callable[[T], _Comparable]) -> T: ...

    @overload
    def min(self: Terminals[C], *, key: None = None, default: D) -> C | D: ...

    @overload
    def min(self, *, key: Callable[[T], _Comparable], default: D) -> T | D: ...

    def min(self, *, key: Callable[[T], Any] | None = None, default: Any = _NOTHING) -> Any:
        """The least item (by ``key``); ``default`` for an empty Stream, else ValueError.

        >>> stream([3, 1, 2]).min(), stream(["bb", "a"]).min(key=len), stream([]).min(default=0)
        (1, 'a', 0)
        """
        with self:
            return _extreme(min, self._take_items(), key, default, "min")

    @overload
    def max(self: Terminals[C], *, key: None = None) -> C: ...

    @overload
    def max(self, *, key: Callable[[T], _Comparable]) -> T: ...

    @overload
    def max(self: Terminals[C], *, key: None = None, default: D) -> C | D: ...

    @overload
    def max(self, *, key: Callable[[T], _Comparable], default: D) -> T | D: ...

    def max(self, *, key: Callable[[T], Any] | None = None, default: Any = _NOTHING) -> Any:
        """The greatest item (by ``key``); ``default`` for an empty Stream, else ValueError.

        >>> stream([3, 1, 2]).max(), stream(["bb", "a"]).max(key=len)
        (3, 'bb')
        """
        with self:
            return _extreme(max, self._take_items(), key, default, "max")

    def to_set(self) -> set[T]:
        """Every item, in a set (eager).

        >>> sorted(stream("abracadabra").to_set())
        ['a', 'b', 'c', 'd', 'r']
        """
        with self:
            return set(self._take_items())

    def to_dict(self: Terminals[tuple[K, V]]) -> dict[K, V]:
        """The ``(key, value)`` pairs, in a dict (eager; a later key wins).

        >>> stream("ab").enumerate().to_dict()
        {0: 'a', 1: 'b'}
        """
        with self:
            return dict(self._take_items())

    def lazylist(self) -> LazyList[T]:
        """A call-by-need LazyList of the items: read once, on demand, and kept for rereading.

        >>> xs = stream(range(3)).map(lambda n: n * 10).lazylist()
        >>> list(xs), list(xs)
        ([0, 10, 20], [0, 10, 20])
        """
        return LazyList.of(self._take_items())


def _extreme(
    pick: Callable[..., Any], items: Iterator[Any], key: Any, default: Any, name: str
) -> Any:
    found = pick(items, key=key, default=_NOTHING)
    if found is not _NOTHING:
        return found
    if default is _NOTHING:
        raise ValueError(f"{name}() of an empty Stream (give a default)")
    return default
