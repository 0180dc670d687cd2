"""The lazy vocabulary: ``cp``, ``fair_cp``, ``flatmap``, ``many``, ``iterate``, ``reiterable``.

Each function mirrors one line of Bird's *Thinking Functionally with Haskell*
and returns an iterator (or, for ``many``, a single value), so a chain of them
reads like the equations it comes from and runs in constant memory.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence, Sized
from itertools import chain, product, repeat
from operator import add
from typing import Generic, TypeVar, cast

T = TypeVar("T")
U = TypeVar("U")

__all__ = ["cp", "fair_cp", "flatmap", "iterate", "many", "reiterable"]


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
    """``[ys ++ [x] | ys <- prefixes, x <- xs]``: one more position of ``cp``.

    The loops run in C (``map`` of ``+`` over ``xs`` paired as 1-tuples), with
    no Python frame per tuple.
    """
    return chain.from_iterable(map(lambda ys: map(add, repeat(ys), zip(xs)), prefixes))


def _extend_by_table(
    prefixes: Iterator[tuple[T, ...]], table: tuple[tuple[T, ...], ...]
) -> Iterator[tuple[T, ...]]:
    """``[ys ++ zs | ys <- prefixes, zs <- table]``: the last positions, all at once."""
    return chain.from_iterable(map(lambda ys: map(add, repeat(ys), table), prefixes))


def cp(xss: Iterable[Iterable[T]]) -> Iterator[tuple[T, ...]]:
    """Cartesian product, lazily, in lexicographic order.

    Bird's ``cp [] = [[]]; cp (xs:xss) = [x:ys | x <- xs, ys <- cp xss]``,
    built as a fold of generators, one per position, so it yields its first
    tuple at once and holds one generator per position: O(len(xss)) state,
    never the product.

    Every position but the first is walked once per prefix, so it must be
    re-iterable.  Sequences, ranges and ``reiterable`` streams are walked
    again as they are; a one-shot iterator is cached as it is read, and only
    as far as the product has needed it.

    Speed: when every position is a short sequence (a tuple, list, range or
    string of at most ``COPY`` items) the tuples come from
    ``itertools.product`` itself.  Otherwise the last positions that are
    short sequences are joined into one table of at most ``TABLE`` suffixes,
    so each tuple still costs a single ``+`` in C.

    >>> list(cp([[1, 2], "ab"]))
    [(1, 'a'), (1, 'b'), (2, 'a'), (2, 'b')]
    >>> list(cp([]))
    [()]
    >>> list(cp([[1, 2], [], [3]]))
    []
    >>> next(cp([range(9)] * 81))[:5]
    (0, 0, 0, 0, 0)

    Unlike ``itertools.product``, it copies no long or one-shot input, and
    it reads the outer iterable only when the first tuple is asked for,
    position by position, stopping at the first empty position (the product
    is then empty):

    >>> from itertools import count, islice
    >>> list(islice(cp([count(), "xy"]), 3))
    [(0, 'x'), (0, 'y'), (1, 'x')]
    >>> from itertools import chain, repeat
    >>> list(cp(chain([[1], []], repeat([0]))))
    []
    """
    return chain.from_iterable(_fold(xss))


TABLE = 256  # the most suffix tuples cp precomputes from its last small positions
COPY = 4096  # the longest sequence position that cp lets itertools.product copy
_SEQUENCES = (tuple, list, range, str)


def _fold(xss: Iterable[Iterable[T]]) -> Iterator[Iterator[tuple[T, ...]]]:
    """Build ``cp``'s chain of generators when first asked; yield it once.

    Run under ``chain.from_iterable``, so the outer iterable is read lazily
    and the tuples then flow through C, with no extra Python frame each.
    When every position is a short sequence, that chain is
    ``itertools.product`` itself (copying them costs nothing worth saving).
    """
    positions: list[Iterable[T]] = []
    small = True
    for xs in xss:
        if type(xs) in _SEQUENCES:
            length = len(cast(Sequence[T], xs))
            if not length:
                return
            small = small and length <= COPY
            positions.append(xs)
            continue
        values = _readable(xs, first=not positions)
        if values is None:
            return
        small = False
        positions.append(values)
    if small:
        yield product(*positions)
        return
    size, cut = 1, len(positions)
    while cut and type(positions[cut - 1]) in _SEQUENCES:
        size *= len(cast(Sequence[T], positions[cut - 1]))
        if size > TABLE:
            break
        cut -= 1
    prefixes: Iterator[tuple[T, ...]] = iter(((),))
    for values in positions[:cut]:
        prefixes = _extend(prefixes, values)
    table = tuple(product(*positions[cut:]))
    yield prefixes if table == ((),) else _extend_by_table(prefixes, table)


def _readable(xs: Iterable[T], first: bool) -> Iterable[T] | None:
    """A position ready to be walked as often as ``cp`` needs, or None when it is empty."""
    values = _Memo(xs) if not first and isinstance(xs, Iterator) else xs
    if isinstance(values, Sized):
        return values if len(values) else None
    if isinstance(values, Iterator):  # the first position, walked once
        head = next(values, _NOTHING)
        if head is _NOTHING:
            return None
        return chain((cast(T, head),), values)
    return None if next(iter(values), _NOTHING) is _NOTHING else values


_NOTHING = object()


def fair_cp(xss: Iterable[Iterable[T]]) -> Iterator[tuple[T, ...]]:
    """Cartesian product in diagonal order: fair even when the positions are infinite.

    ``cp`` never moves its first position on while a later one is infinite:
    ``cp([count(), count()])`` yields ``(0, 0), (0, 1), (0, 2), ...`` and never
    reaches ``(1, 0)``.  ``fair_cp`` yields the tuples by the sum of their
    indices (diagonal ``d`` holds the tuples whose positions' indices add up
    to ``d``), so every tuple comes at a finite place: ``(i, j)`` of two
    infinite positions is among the first ``(i+j+1)(i+j+2)/2`` tuples, each
    tuple exactly once.  Cantor's enumeration of pairs, for any number of
    positions.

    The positions are read at once (finitely many); their items only as far
    as the diagonals reached need (diagonal ``d`` reads item ``d`` of each),
    and kept, since a later diagonal needs them again.  Finite positions end
    the product when the last diagonal is done; an empty one makes it empty.

    >>> from itertools import count, islice
    >>> list(islice(fair_cp([count(), count()]), 6))
    [(0, 0), (0, 1), (1, 0), (0, 2), (1, 1), (2, 0)]
    >>> sorted(fair_cp([[1, 2], "ab"])) == sorted(cp([[1, 2], "ab"]))
    True
    >>> list(fair_cp([])), list(fair_cp([count(), []]))
    ([()], [])
    """
    seen = [_Growing(iter(xs)) for xs in xss]
    if not seen:
        yield ()
        return
    diagonal = 0
    while True:
        for items in seen:
            items.reach(diagonal)
        if any(not items.values for items in seen):
            return
        bounds = [len(items.values) for items in seen]
        if diagonal > sum(bounds) - len(bounds):
            return  # every position ended, and every diagonal through them is done
        for indices in _diagonal(diagonal, bounds):
            yield tuple([items.values[i] for items, i in zip(seen, indices, strict=True)])
        diagonal += 1


class _Growing(Generic[T]):
    """The items of one position of ``fair_cp`` read so far, and whether it ended."""

    __slots__ = ("ended", "source", "values")

    def __init__(self, source: Iterator[T]) -> None:
        self.source = source
        self.values: list[T] = []
        self.ended = False

    def reach(self, index: int) -> None:
        """Read item ``index`` if the position has one (and every item before it)."""
        while not self.ended and len(self.values) <= index:
            item = next(self.source, _NOTHING)
            if item is _NOTHING:
                self.ended = True
            else:
                self.values.append(cast(T, item))


def _diagonal(total: int, bounds: list[int]) -> Iterator[tuple[int, ...]]:
    """Index tuples adding up to ``total``, index ``k`` below ``bounds[k]``, in lex order."""
    if len(bounds) == 1:
        if total < bounds[0]:
            yield (total,)
        return
    room = sum(bounds[1:]) - len(bounds) + 1  # the most the later positions can take
    for first in range(max(0, total - room), min(total, bounds[0] - 1) + 1):
        for rest in _diagonal(total - first, bounds[1:]):
            yield (first, *rest)


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
