"""The terminals: reading a stream once, to the end (or to the first item), and what
the reading gives.  Declared once; each has two types, its value for a sync stream and
an awaitable of it for an async one (the one place the modes differ in type), and the
runner of the stream's mode reads it.  The sinks are in
:mod:`lazyfun.streams.facade.sinks`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, overload

from lazyfun.streams.facade.base import NOTHING
from lazyfun.streams.facade.verbs import Verbs
from lazyfun.streams.modes import Async, M, Sync

if TYPE_CHECKING:
    pass

__all__ = ["Terminals"]

T = TypeVar("T")
U = TypeVar("U")
D = TypeVar("D")
K = TypeVar("K")
V = TypeVar("V")

Await = Coroutine[Any, Any, U]  # what an async stream's terminal gives: await it


class Comparable(Protocol):
    def __lt__(self, other: Any, /) -> bool: ...


C = TypeVar("C", bound=Comparable)


class Terminals(Verbs[T, M]):
    """The terminals of the façade."""

    __slots__ = ()

    @overload
    def first(self: Terminals[T, Sync]) -> T: ...

    @overload
    def first(self: Terminals[T, Sync], default: D) -> T | D: ...

    @overload
    def first(self: Terminals[T, Async]) -> Await[T]: ...

    @overload
    def first(self: Terminals[T, Async], default: D) -> Await[T | D]: ...

    def first(self, default: object = NOTHING) -> Any:
        """The first item (reads only it, then closes the stream: what it started beyond
        it is let go); ``default`` when there is none, else ValueError.

        >>> stream(range(7, 10**9)).first()
        7
        >>> stream([]).first(None) is None
        True
        >>> import asyncio
        >>> asyncio.run(astream(range(7, 10**9)).first())
        7
        """
        return self._run.first(self._built(), default)

    @overload
    def last(self: Terminals[T, Sync]) -> T: ...

    @overload
    def last(self: Terminals[T, Sync], default: D) -> T | D: ...

    @overload
    def last(self: Terminals[T, Async]) -> Await[T]: ...

    @overload
    def last(self: Terminals[T, Async], default: D) -> Await[T | D]: ...

    def last(self, default: object = NOTHING) -> Any:
        """The last item (reads the whole stream, keeping one item); else ``default``.

        >>> stream(range(5)).last()
        4
        """
        return self._run.last(self._built(), default)

    @overload
    def to_list(self: Terminals[T, Sync]) -> list[T]: ...

    @overload
    def to_list(self: Terminals[T, Async]) -> Await[list[T]]: ...

    def to_list(self) -> Any:
        """Every item, in a list (eager: the one place a stream is materialised).

        >>> stream(range(3)).map(str).to_list()
        ['0', '1', '2']
        >>> import asyncio
        >>> asyncio.run(astream(range(3)).map(str).to_list())
        ['0', '1', '2']
        """
        return self._run.to_list(self._built())

    @overload
    def count(self: Terminals[T, Sync]) -> int: ...

    @overload
    def count(self: Terminals[T, Async]) -> Await[int]: ...

    def count(self) -> Any:
        """How many items there are (reads them all, keeps none).

        >>> stream(range(10)).filter(lambda n: n % 2).count()
        5
        """
        return self._run.count(self._built())

    @overload
    def reduce(self: Terminals[T, Sync], f: Callable[[U, T], U], initial: U) -> U: ...

    @overload
    def reduce(
        self: Terminals[T, Async], f: Callable[[U, T], Awaitable[U]], initial: U
    ) -> Await[U]: ...

    @overload
    def reduce(self: Terminals[T, Async], f: Callable[[U, T], U], initial: U) -> Await[U]: ...

    def reduce(self, f: Callable[[U, T], Any], initial: U) -> Any:
        """``foldl f initial``: the items combined from the left (in an async stream ``f``
        may be a coroutine function).

        >>> stream([1, 2, 3]).reduce(lambda total, n: total * 10 + n, 0)
        123
        """
        self._checked(f, "reduce")
        return self._run.reduce(self._built(), f, initial)

    @overload
    def for_each(self: Terminals[T, Sync], f: Callable[[T], object]) -> None: ...

    @overload
    def for_each(self: Terminals[T, Async], f: Callable[[T], object]) -> Await[None]: ...

    def for_each(self, f: Callable[[T], object]) -> Any:
        """``f`` on every item, for its effect (reads the whole stream; in an async stream
        ``f`` may be a coroutine function).

        >>> stream("ab").for_each(print)
        a
        b
        """
        self._checked(f, "for_each")
        return self._run.for_each(self._built(), f)

    @overload
    def sum(self: Terminals[int, Sync], start: int = 0) -> int: ...

    @overload
    def sum(self: Terminals[float, Sync], start: float = 0) -> float: ...

    @overload
    def sum(self: Terminals[int, Async], start: int = 0) -> Await[int]: ...

    @overload
    def sum(self: Terminals[float, Async], start: float = 0) -> Await[float]: ...

    def sum(self, start: Any = 0) -> Any:
        """The sum of the items, from ``start``.

        >>> stream(range(5)).sum()
        10
        """
        return self._run.sum(self._built(), start)

    @overload
    def min(self: Terminals[C, Sync], *, key: None = None) -> C: ...

    @overload
    def min(self: Terminals[T, Sync], *, key: Callable[[T], Comparable]) -> T: ...

    @overload
    def min(self: Terminals[C, Sync], *, key: None = None, default: D) -> C | D: ...

    @overload
    def min(self: Terminals[T, Sync], *, key: Callable[[T], Comparable], default: D) -> T | D: ...

    @overload
    def min(self: Terminals[C, Async], *, key: None = None) -> Await[C]: ...

    @overload
    def min(
        self: Terminals[T, Async], *, key: Callable[[T], Comparable | Awaitable[Comparable]]
    ) -> Await[T]: ...

    @overload
    def min(self: Terminals[C, Async], *, key: None = None, default: D) -> Await[C | D]: ...

    @overload
    def min(
        self: Terminals[T, Async],
        *,
        key: Callable[[T], Comparable | Awaitable[Comparable]],
        default: D,
    ) -> Await[T | D]: ...

    def min(self, *, key: Callable[[T], Any] | None = None, default: Any = NOTHING) -> Any:
        """The least item (by ``key``; in an async stream it may be a coroutine function);
        ``default`` for an empty stream, else ValueError.

        >>> stream([3, 1, 2]).min(), stream(["bb", "a"]).min(key=len), stream([]).min(default=0)
        (1, 'a', 0)
        """
        if key is not None:
            self._checked(key, "min's key")
        return self._run.extreme(self._built(), False, key, default, "min")

    @overload
    def max(self: Terminals[C, Sync], *, key: None = None) -> C: ...

    @overload
    def max(self: Terminals[T, Sync], *, key: Callable[[T], Comparable]) -> T: ...

    @overload
    def max(self: Terminals[C, Sync], *, key: None = None, default: D) -> C | D: ...

    @overload
    def max(self: Terminals[T, Sync], *, key: Callable[[T], Comparable], default: D) -> T | D: ...

    @overload
    def max(self: Terminals[C, Async], *, key: None = None) -> Await[C]: ...

    @overload
    def max(
        self: Terminals[T, Async], *, key: Callable[[T], Comparable | Awaitable[Comparable]]
    ) -> Await[T]: ...

    @overload
    def max(self: Terminals[C, Async], *, key: None = None, default: D) -> Await[C | D]: ...

    @overload
    def max(
        self: Terminals[T, Async],
        *,
        key: Callable[[T], Comparable | Awaitable[Comparable]],
        default: D,
    ) -> Await[T | D]: ...

    def max(self, *, key: Callable[[T], Any] | None = None, default: Any = NOTHING) -> Any:
        """The greatest item (by ``key``); ``default`` for an empty stream, else ValueError.

        >>> stream([3, 1, 2]).max(), stream(["bb", "a"]).max(key=len)
        (3, 'bb')
        """
        if key is not None:
            self._checked(key, "max's key")
        return self._run.extreme(self._built(), True, key, default, "max")

    @overload
    def any(self: Terminals[T, Sync], pred: Callable[[T], object] | None = None) -> bool: ...

    @overload
    def any(
        self: Terminals[T, Async], pred: Callable[[T], object] | None = None
    ) -> Await[bool]: ...

    def any(self, pred: Callable[[T], object] | None = None) -> Any:
        """Whether some item satisfies ``pred`` (is true, without one); reads only up to
        the first that does, then lets go of the rest of the pipeline.

        >>> stream(range(10**9)).map(lambda n: n * n).any(lambda n: n > 50)
        True
        >>> stream([0, "", None]).any()
        False
        """
        if pred is not None:
            self._checked(pred, "any")
        return self._run.decides(self._built(), pred, True)

    @overload
    def all(self: Terminals[T, Sync], pred: Callable[[T], object] | None = None) -> bool: ...

    @overload
    def all(
        self: Terminals[T, Async], pred: Callable[[T], object] | None = None
    ) -> Await[bool]: ...

    def all(self, pred: Callable[[T], object] | None = None) -> Any:
        """Whether every item satisfies ``pred`` (is true, without one); reads only up to
        the first that does not, then lets go of the rest of the pipeline.

        >>> stream(range(10**9)).all(lambda n: n < 5)
        False
        >>> stream([1, "a"]).all()
        True
        """
        if pred is not None:
            self._checked(pred, "all")
        return self._run.decides(self._built(), pred, False)

    @overload
    def to_set(self: Terminals[T, Sync]) -> set[T]: ...

    @overload
    def to_set(self: Terminals[T, Async]) -> Await[set[T]]: ...

    def to_set(self) -> Any:
        """Every item, in a set (eager).

        >>> sorted(stream("abracadabra").to_set())
        ['a', 'b', 'c', 'd', 'r']
        """
        return self._run.collected(self._built(), set)

    @overload
    def to_dict(self: Terminals[tuple[K, V], Sync]) -> dict[K, V]: ...

    @overload
    def to_dict(self: Terminals[tuple[K, V], Async]) -> Await[dict[K, V]]: ...

    def to_dict(self) -> Any:
        """The ``(key, value)`` pairs, in a dict (eager; a later key wins).

        >>> stream("ab").enumerate().to_dict()
        {0: 'a', 1: 'b'}
        """
        return self._run.collected(self._built(), dict)
