"""The lazy vocabulary: ``cp``, ``flatmap``, ``many``, ``iterate``, ``reiterable``.

Each function mirrors one line of Bird's *Thinking Functionally with Haskell*
and returns an iterator (or, for ``many``, a single value), so a chain of them
reads like the equations it comes from and runs in constant memory.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sized
from itertools import chain
from typing import Generic, TypeVar, cast

T = TypeVar("T")
U = TypeVar("U")

__all__ = ["cp", "flatmap", "iterate", "many", "reiterable"]


class reiterable(Generic[T]):
    """A lazy iterable that calls ``make()`` afresh each time it is iterated.

    Use it to pass a *stream* to ``cp`` as one of its positions without
    storing the stream: ``cp`` walks every position after the first once per
    prefix, and a ``reiterable`` recomputes it each time instead of keeping
    it.  Nothing runs until it is iterated.

    >>> evens = reiterable(lambda: (n for n in range(6) if n % 2 == 0))
    >>> list(evens), list(evens)
    ([0, 2, 4], [0, 2, 4])
    """

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Iterable[T]]) -> None:
        self.make = make

    def __iter__(self) -> Iterator[T]:
        return iter(self.make())

    def __repr__(self) -> str:
        return f"reiterable({self.make!r})"


class _Memo(Generic[T]):
    """Re-iterable view of a one-shot iterator, read only as far as asked."""

    __slots__ = ("_cache", "_source")

    def __init__(self, source: Iterator[T]) -> None:
        self._source = source
        self._cache: list[T] = []

    def __iter__(self) -> Iterator[T]:
        cache = self._cache
        i = 0
        while True:
            if i < len(cache):
                yield cache[i]
            else:
                for item in self._source:
                    cache.append(item)
                    break
                else:
                    return
                yield cache[i]
            i += 1


def _extend(prefixes: Iterator[tuple[T, ...]], xs: Iterable[T]) -> Iterator[tuple[T, ...]]:
    """``[ys ++ [x] | ys <- prefixes, x <- xs]``: one more position of ``cp``."""
    return (ys + (x,) for ys in prefixes for x in xs)  # noqa: RUF005 - faster than (*ys, x)


def cp(xss: Iterable[Iterable[T]]) -> Iterator[tuple[T, ...]]:
    """Cartesian product, lazily, in lexicographic order.

    Bird's ``cp [] = [[]]; cp (xs:xss) = [x:ys | x <- xs, ys <- cp xss]``,
    built as a fold of generator expressions, one per position, so it yields
    its first tuple at once and holds one generator per position: O(len(xss))
    state, never the product.

    Every position but the first is walked once per prefix, so it must be
    re-iterable.  Sequences, ranges and ``reiterable`` streams are walked
    again as they are; a one-shot iterator is cached as it is read, and only
    as far as the product has needed it.

    >>> list(cp([[1, 2], "ab"]))
    [(1, 'a'), (1, 'b'), (2, 'a'), (2, 'b')]
    >>> list(cp([]))
    [()]
    >>> list(cp([[1, 2], [], [3]]))
    []
    >>> next(cp([range(9)] * 81))[:5]
    (0, 0, 0, 0, 0)

    Unlike ``itertools.product``, it copies no input, and it reads the outer
    iterable only when the first tuple is asked for, position by position,
    stopping at the first empty position (the product is then empty):

    >>> from itertools import count, islice
    >>> list(islice(cp([count(), "xy"]), 3))
    [(0, 'x'), (0, 'y'), (1, 'x')]
    >>> from itertools import chain, repeat
    >>> list(cp(chain([[1], []], repeat([0]))))
    []
    """
    return chain.from_iterable(_fold(xss))


def _fold(xss: Iterable[Iterable[T]]) -> Iterator[Iterator[tuple[T, ...]]]:
    """Build ``cp``'s chain of generators when first asked; yield it once.

    Run under ``chain.from_iterable``, so the outer iterable is read lazily
    and the tuples then flow through C, with no extra Python frame each.
    """
    prefixes: Iterator[tuple[T, ...]] = iter(((),))
    for position, xs in enumerate(xss):
        values = _Memo(xs) if position and isinstance(xs, Iterator) else xs
        if isinstance(values, Sized):
            if len(values) == 0:
                return
        elif isinstance(values, Iterator):  # the first position, walked once
            head = next(values, _NOTHING)
            if head is _NOTHING:
                return
            values = chain((cast(T, head),), values)
        elif next(iter(values), _NOTHING) is _NOTHING:
            return
        prefixes = _extend(prefixes, values)
    yield prefixes


_NOTHING = object()


def flatmap(f: Callable[[T], Iterable[U]], xs: Iterable[T]) -> Iterator[U]:
    """``concat . map f``: apply ``f`` to each item and chain the results lazily.

    SICP's ``(flatmap proc seq)``; Haskell's ``concatMap``.

    >>> list(flatmap(lambda n: range(n), [1, 2, 3]))
    [0, 0, 1, 0, 1, 2]
    """
    return chain.from_iterable(map(f, xs))


def many(f: Callable[[T], T], x: T) -> T:
    """Apply ``f`` until the value stops changing; return that fixpoint.

    Bird's ``many f x = if x == y then x else many f y where y = f x``,
    written as a loop, so no recursion depth limits the number of rounds.
    Eager by nature: it returns one value, not a stream.

    >>> many(lambda n: n // 2, 100)
    0
    >>> many(lambda s: s.replace("aa", "a"), "caaaaat")
    'cat'
    """
    y = f(x)
    while y != x:
        x, y = y, f(y)
    return x


def iterate(f: Callable[[T], T], x: T) -> Iterator[T]:
    """The infinite stream ``x, f x, f (f x), ...`` (Haskell's ``iterate``).

    >>> from itertools import islice
    >>> list(islice(iterate(lambda n: 2 * n, 1), 6))
    [1, 2, 4, 8, 16, 32]
    """
    while True:
        yield x
        x = f(x)
