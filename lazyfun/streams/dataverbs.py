"""The verbs of data pipelines on the Stream: ``sort``, ``top``, ``join``, ``count_by``,
``reduce_by``, ``aggregate`` and ``unique(within=, last=)``, each saying what it holds
in memory.  :class:`Verbs` is a base of ``Stream``; :class:`AsyncVerbs` of
``AsyncStream``, where the keys are plain functions and the verbs' terminals awaited.
Their work is in :mod:`lazyfun.streams.verbs`; their steps in
:mod:`lazyfun.streams.vsteps`.

>>> from lazyfun import stream
>>> stream([3, 1, 2]).sort().to_list()
[1, 2, 3]
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterable, Callable, Coroutine, Iterable
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Literal, TypeVar, overload

from lazyfun.streams import vsteps
from lazyfun.streams.asteps import FromSync, Group
from lazyfun.streams.aterminals import AsyncTerminals
from lazyfun.streams.explain import called, recorded
from lazyfun.streams.steps import check_callable, check_count, seconds
from lazyfun.streams.terminals import Terminals
from lazyfun.streams.verbs import (
    MEMORY,
    Accumulators,
    HashTable,
    MergeJoin,
    Recent,
    Sorter,
    Top,
    field,
    reductions,
)

if TYPE_CHECKING:
    from lazyfun.streams.astream import AsyncStream
    from lazyfun.streams.stream import Stream

__all__ = ["MEMORY", "AsyncVerbs", "Verbs"]

T = TypeVar("T")
R = TypeVar("R")
K = TypeVar("K")
A = TypeVar("A")

How = Literal["inner", "left"]


def _memory(memory: object, what: str) -> int:
    check_count(memory, f"{what}'s memory (bytes)", 1)
    assert isinstance(memory, int)
    return memory


def _window(every: int | None, within: float | timedelta | None, what: str) -> float | None:
    """``within`` in seconds, both checked at the call; None for ``every`` alone."""
    if every is not None:
        check_count(every, f"{what}'s every", 1)
    return None if within is None else seconds(within, f"{what}'s within")


def _join_arguments(
    on: str | Callable[[Any], Any],
    other_on: str | Callable[[Any], Any] | None,
    how: object,
    merged: bool,
    memory: int | None,
) -> tuple[Callable[[Any], Any], Callable[[Any], Any], int | None]:
    """``join``'s keys and memory budget, checked at the call."""
    if how not in ("inner", "left"):
        raise ValueError(f"join's how must be 'inner' or 'left', got {how!r}")
    if merged and memory is not None:
        raise ValueError(
            "join(sorted=True) holds the rows of one key: memory= is for the hash join"
        )
    limit = None if memory is None else _memory(memory, "join")
    return field(on), field(on if other_on is None else other_on), limit


def _fold(by: Callable[[Any], Any], fn: Callable[[Any, Any], Any], initial: Any) -> Accumulators:
    return Accumulators(by, fold=(fn, initial))


@recorded
class Verbs(Terminals[T]):
    """The verbs of a Stream (its base below the steps)."""

    __slots__ = ()

    def _verb(self, items: Iterable[R], *holding: Any, step: str | None = None) -> Stream[R]:
        """The verb's Stream (a killed job cannot resume through a verb, which holds
        items or state across them)."""
        from lazyfun.streams.stream import Stream

        blocker = self._blocker or step or sys._getframe(1).f_code.co_name
        return Stream(items, (*self._holds, *holding), blocker, None, called(self, self._stage))

    def pmap(
        self,
        f: Callable[[T], R],
        *,
        jobs: int | None = None,
        scheduler: str | None = None,
        buffer: int | None = None,
        chunksize: int | None = None,
    ) -> Stream[R]:
        """``f`` on each item on parallel workers, in order, a bounded number read ahead
        (:func:`lazyfun.parallel.pmap`; needs ``f`` picklable for worker processes); a
        killed job cannot resume through it.

        >>> stream(range(5)).pmap(abs, scheduler="sync").map(str).to_list()
        ['0', '1', '2', '3', '4']
        """
        from lazyfun.parallel.pmap import pmap

        items = self._take_items()
        window = pmap(f, items, jobs=jobs, scheduler=scheduler, buffer=buffer, chunksize=chunksize)
        return self._verb(window, window)

    def to_async(self) -> AsyncStream[T]:
        """This Stream as an :class:`~lazyfun.streams.astream.AsyncStream` (read in the event loop).

        >>> import asyncio
        >>> asyncio.run(stream(range(3)).to_async().map(str).to_list())
        ['0', '1', '2']
        """
        from lazyfun.streams.astream import AsyncStream

        return AsyncStream(self._take_items(), self._holds, called(self, self._stage))

    def sort(
        self, key: Callable[[T], Any] | None = None, *, reverse: bool = False, memory: int = MEMORY
    ) -> Stream[T]:
        """The items sorted by ``key`` (stable; ``reverse`` as ``sorted`` takes it),
        holding about ``memory`` bytes (256 MiB unless you say): beyond it, sorted runs
        are written to temporary files and merged lazily as the Stream is read.  The
        files are removed at the end, on ``close()``, on an error and on Ctrl-C.  An
        error from upstream passes on before the sorted items, and the sort goes on.

        >>> rows = [{"n": 2}, {"n": 1}, {"n": 2, "late": True}]
        >>> stream(rows).sort(key=lambda r: r["n"]).to_list()
        [{'n': 1}, {'n': 2}, {'n': 2, 'late': True}]
        """
        if key is not None:
            check_callable(key, "sort's key")
        sorter: Sorter[T] = Sorter(key, reverse, _memory(memory, "sort"))
        return self._verb(vsteps.read_all(self._take_items(), sorter), sorter)

    def top(
        self, k: int, key: Callable[[T], Any] | None = None, *, reverse: bool = False
    ) -> Stream[T]:
        """The ``k`` least items by ``key`` (with ``reverse``, the greatest), in order, as
        ``heapq.nsmallest`` (``nlargest``) gives them; holds ``k`` items and a chunk.

        >>> stream([5, 1, 4, 2, 3]).top(2).to_list(), stream("hello").top(1, reverse=True).to_list()
        ([1, 2], ['o'])
        """
        check_count(k, "top's k", 0)
        if key is not None:
            check_callable(key, "top's key")
        return self._verb(vsteps.read_all(self._take_items(), Top(k, key, reverse)))

    @overload
    def join(
        self,
        other: Iterable[R],
        on: str | Callable[[T], Any],
        *,
        how: Literal["inner"] = "inner",
        other_on: str | Callable[[R], Any] | None = None,
        sorted: bool = False,
        memory: int | None = None,
    ) -> Stream[tuple[T, R]]: ...

    @overload
    def join(
        self,
        other: Iterable[R],
        on: str | Callable[[T], Any],
        *,
        how: Literal["left"],
        other_on: str | Callable[[R], Any] | None = None,
        sorted: bool = False,
        memory: int | None = None,
    ) -> Stream[tuple[T, R | None]]: ...

    def join(
        self,
        other: Iterable[Any],
        on: str | Callable[[Any], Any],
        *,
        how: How = "inner",
        other_on: str | Callable[[Any], Any] | None = None,
        sorted: bool = False,
        memory: int | None = None,
    ) -> Stream[Any]:
        """Pairs ``(item, row)`` of each item and each row of ``other`` with the same key
        (``on``: a field name or a function; ``other_on`` for the other side, else
        ``on``), in this Stream's order, then ``other``'s; with ``how="left"`` an item
        with no row comes once, paired with None.  ``other`` is read into a hash table
        at the first read (refused with the reason once it passes ``memory=`` bytes);
        with ``sorted=True`` both sides must be sorted on their keys and are merged in
        constant memory (the rows of one key), a key out of order a ValueError.

        >>> people = [{"id": 1, "name": "ada"}, {"id": 2, "name": "alan"}]
        >>> orders = [{"who": 1, "item": "tea"}, {"who": 1, "item": "cake"}]
        >>> pairs = stream(people).join(orders, "id", other_on="who", how="left")
        >>> [(person["name"], order and order["item"]) for person, order in pairs]
        [('ada', 'tea'), ('ada', 'cake'), ('alan', None)]
        """
        key, other_key, limit = _join_arguments(on, other_on, how, sorted, memory)
        holding = other._holds if isinstance(other, Terminals) else ()
        rows = iter(other)
        if sorted:
            merge = vsteps.MergeJoinStep(
                self._take_items(), key, MergeJoin(rows, other_key), how == "left"
            )
            return self._verb(merge, *holding)
        table: HashTable[Any] = HashTable(other_key, limit)
        return self._verb(
            vsteps.hash_join(self._take_items(), key, rows, table, how == "left"), *holding
        )

    @overload
    def count_by(self, key: Callable[[T], K]) -> dict[K, int]: ...

    @overload
    def count_by(
        self, key: Callable[[T], K], *, every: int | None = None, within: float | timedelta
    ) -> Stream[dict[K, int]]: ...

    @overload
    def count_by(
        self, key: Callable[[T], K], *, every: int, within: float | timedelta | None = None
    ) -> Stream[dict[K, int]]: ...

    def count_by(
        self,
        key: Callable[[T], Any],
        *,
        every: int | None = None,
        within: float | timedelta | None = None,
    ) -> Any:
        """How many items each key has, in a dict (a terminal, like ``collections.Counter``
        of the keys); with ``every=n`` or ``within=seconds``, a Stream of such a dict for
        each window instead.  Holds one count a key.

        >>> stream("banana").count_by(str.upper)
        {'B': 1, 'A': 3, 'N': 2}
        >>> stream("banana").count_by(str.upper, every=3).to_list()
        [{'B': 1, 'A': 1, 'N': 1}, {'A': 2, 'N': 1}]
        """
        check_callable(key, "count_by's key")
        return self._aggregated(_fold(key, _plus_one, 0), every, within, "count_by")

    @overload
    def reduce_by(
        self, key: Callable[[T], K], fn: Callable[[A, T], A], initial: A
    ) -> dict[K, A]: ...

    @overload
    def reduce_by(
        self,
        key: Callable[[T], K],
        fn: Callable[[A, T], A],
        initial: A,
        *,
        every: int | None = None,
        within: float | timedelta,
    ) -> Stream[dict[K, A]]: ...

    @overload
    def reduce_by(
        self,
        key: Callable[[T], K],
        fn: Callable[[A, T], A],
        initial: A,
        *,
        every: int,
        within: float | timedelta | None = None,
    ) -> Stream[dict[K, A]]: ...

    def reduce_by(
        self,
        key: Callable[[T], Any],
        fn: Callable[[Any, T], Any],
        initial: Any,
        *,
        every: int | None = None,
        within: float | timedelta | None = None,
    ) -> Any:
        """Each key's items folded by ``fn`` from ``initial``, in a dict (a terminal); with
        ``every=`` or ``within=``, a Stream of a dict a window.  Holds one value a key.

        >>> stream(["ab", "c", "de"]).reduce_by(len, lambda total, s: total + s, "")
        {2: 'abde', 1: 'c'}
        """
        check_callable(key, "reduce_by's key")
        check_callable(fn, "reduce_by's fn")
        return self._aggregated(_fold(key, fn, initial), every, within, "reduce_by")

    @overload
    def aggregate(
        self, by: Callable[[T], K], *, every: None = None, within: None = None, **named: Any
    ) -> dict[K, dict[str, Any]]: ...

    @overload
    def aggregate(
        self,
        by: Callable[[T], K],
        *,
        every: int,
        within: float | timedelta | None = None,
        **named: Any,
    ) -> Stream[dict[K, dict[str, Any]]]: ...

    @overload
    def aggregate(
        self,
        by: Callable[[T], K],
        *,
        every: int | None = None,
        within: float | timedelta,
        **named: Any,
    ) -> Stream[dict[K, dict[str, Any]]]: ...

    def aggregate(
        self,
        by: Callable[[T], Any],
        *,
        every: int | None = None,
        within: float | timedelta | None = None,
        **named: Any,
    ) -> Any:
        """Named reductions of each key's items, in a dict of dicts (a terminal); with
        ``every=`` or ``within=``, a Stream of one a window.  Each name is ``"count"``
        or a pair of a reduction (``sum``, ``min``, ``max``, ``mean``, ``var``, ``std``:
        Welford's running moments, numerically stable; ``first``, ``last``) and what it
        reduces: a field name or a function of the item.  Holds one state a key.

        >>> sales = [{"at": "Oslo", "eur": 10}, {"at": "Rome", "eur": 4}, {"at": "Oslo", "eur": 6}]
        >>> stream(sales).aggregate(lambda s: s["at"], n="count", total=("sum", "eur"))
        {'Oslo': {'n': 2, 'total': 16}, 'Rome': {'n': 1, 'total': 4}}
        """
        check_callable(by, "aggregate's by")
        acc = Accumulators(by, reductions(named))
        return self._aggregated(acc, every, within, "aggregate")

    def _aggregated(
        self, acc: Accumulators, every: int | None, within: float | timedelta | None, what: str
    ) -> Any:
        limit = _window(every, within, what)
        if every is None and limit is None:
            with self:
                for item in self._take_items():
                    acc.add(item)
            return acc.output()
        from lazyfun.streams import threaded

        items: Any = self._take_items()
        if limit is None:
            return self._verb(vsteps.Windows(items, acc, every, None), step=what)
        ahead = threaded.Buffer(items, threaded.GROUP_AHEAD, asked=True)
        windows = vsteps.Windows(ahead, acc, every, limit, wait=ahead.ready, ask=ahead.ask)
        return self._verb(windows, ahead, step=what)

    def _unique_within(
        self,
        key: Callable[[T], Any] | None,
        within: float | timedelta | None,
        last: int | None,
    ) -> Stream[T]:
        """``unique`` with a window (``Stream.unique``'s ``within`` or ``last``)."""
        if key is not None:
            check_callable(key, "unique's key")
        limit, count = _recent(within, last)
        step: vsteps.UniqueWithin[T] = vsteps.UniqueWithin(
            self._take_items(), key, Recent(limit, count)
        )
        return self._verb(step)


def _recent(within: float | timedelta | None, last: int | None) -> tuple[float | None, int | None]:
    if within is not None and last is not None:
        raise ValueError("unique takes within= (seconds) or last= (items), not both")
    if last is not None:
        check_count(last, "unique's last", 1)
    return (None if within is None else seconds(within, "unique's within")), last


def _plus_one(count: int, _item: object) -> int:
    return count + 1


@recorded
class AsyncVerbs(AsyncTerminals[T]):
    """The verbs of an AsyncStream: as :class:`Verbs`, the keys plain functions (a
    coroutine function is refused at the call), the dicts of the terminals awaited."""

    __slots__ = ()

    def _verb(self, items: AsyncIterable[R]) -> AsyncStream[R]:
        from lazyfun.streams.astream import AsyncStream

        return AsyncStream(items, self._sources, called(self, self._stage))

    def sort(
        self, key: Callable[[T], Any] | None = None, *, reverse: bool = False, memory: int = MEMORY
    ) -> AsyncStream[T]:
        """As :meth:`Stream.sort <lazyfun.streams.dataverbs.Verbs.sort>`.

        >>> import asyncio
        >>> asyncio.run(astream("banana").sort(reverse=True).to_list())
        ['n', 'n', 'b', 'a', 'a', 'a']
        """
        if key is not None:
            check_callable(key, "sort's key")
        return self._verb(
            vsteps.AsyncReadAll(self._take_items(), Sorter(key, reverse, _memory(memory, "sort")))
        )

    def top(
        self, k: int, key: Callable[[T], Any] | None = None, *, reverse: bool = False
    ) -> AsyncStream[T]:
        """As :meth:`Stream.top <lazyfun.streams.dataverbs.Verbs.top>`.

        >>> import asyncio
        >>> asyncio.run(astream([5, 1, 4]).top(2).to_list())
        [1, 4]
        """
        check_count(k, "top's k", 0)
        if key is not None:
            check_callable(key, "top's key")
        return self._verb(vsteps.AsyncReadAll(self._take_items(), Top(k, key, reverse)))

    @overload
    def join(
        self,
        other: Iterable[R],
        on: str | Callable[[T], Any],
        *,
        how: Literal["inner"] = "inner",
        other_on: str | Callable[[R], Any] | None = None,
        sorted: bool = False,
        memory: int | None = None,
    ) -> AsyncStream[tuple[T, R]]: ...

    @overload
    def join(
        self,
        other: Iterable[R],
        on: str | Callable[[T], Any],
        *,
        how: Literal["left"],
        other_on: str | Callable[[R], Any] | None = None,
        sorted: bool = False,
        memory: int | None = None,
    ) -> AsyncStream[tuple[T, R | None]]: ...

    def join(
        self,
        other: Iterable[Any],
        on: str | Callable[[Any], Any],
        *,
        how: How = "inner",
        other_on: str | Callable[[Any], Any] | None = None,
        sorted: bool = False,
        memory: int | None = None,
    ) -> AsyncStream[Any]:
        """As :meth:`Stream.join <lazyfun.streams.dataverbs.Verbs.join>`; the other side is a
        plain iterable (read in the event loop).

        >>> import asyncio
        >>> joined = astream([{"id": 1}, {"id": 2}]).join([{"id": 2, "x": "b"}], "id")
        >>> asyncio.run(joined.to_list())
        [({'id': 2}, {'id': 2, 'x': 'b'})]
        """
        if isinstance(other, AsyncIterable) and not isinstance(other, Iterable):
            raise TypeError(
                "an AsyncStream's join reads the other side in the loop: give a plain iterable"
            )
        key, other_key, limit = _join_arguments(on, other_on, how, sorted, memory)
        left, rows = how == "left", iter(other)
        if sorted:
            merge = vsteps.AsyncMergeJoin(self._take_items(), key, MergeJoin(rows, other_key), left)
            return self._verb(merge)
        table: HashTable[Any] = HashTable(other_key, limit)
        return self._verb(vsteps.AsyncHashJoin(self._take_items(), key, rows, table, left))

    @overload
    def count_by(self, key: Callable[[T], K]) -> Coroutine[Any, Any, dict[K, int]]: ...

    @overload
    def count_by(
        self, key: Callable[[T], K], *, every: int | None = None, within: float | timedelta
    ) -> AsyncStream[dict[K, int]]: ...

    @overload
    def count_by(
        self, key: Callable[[T], K], *, every: int, within: float | timedelta | None = None
    ) -> AsyncStream[dict[K, int]]: ...

    def count_by(
        self,
        key: Callable[[T], Any],
        *,
        every: int | None = None,
        within: float | timedelta | None = None,
    ) -> Any:
        """As :meth:`Stream.count_by <lazyfun.streams.dataverbs.Verbs.count_by>`: the dict
        awaited; with ``every=`` or ``within=`` an AsyncStream of a dict a window (one
        state a key, folded as the items come).

        >>> import asyncio
        >>> asyncio.run(astream("banana").count_by(str.upper))
        {'B': 1, 'A': 3, 'N': 2}
        >>> asyncio.run(astream("banana").count_by(str.upper, every=3).to_list())
        [{'B': 1, 'A': 1, 'N': 1}, {'A': 2, 'N': 1}]
        """
        check_callable(key, "count_by's key")
        return self._aggregated(_fold(key, _plus_one, 0), every, within, "count_by")

    @overload
    def reduce_by(
        self, key: Callable[[T], K], fn: Callable[[A, T], A], initial: A
    ) -> Coroutine[Any, Any, dict[K, A]]: ...

    @overload
    def reduce_by(
        self,
        key: Callable[[T], K],
        fn: Callable[[A, T], A],
        initial: A,
        *,
        every: int | None = None,
        within: float | timedelta,
    ) -> AsyncStream[dict[K, A]]: ...

    @overload
    def reduce_by(
        self,
        key: Callable[[T], K],
        fn: Callable[[A, T], A],
        initial: A,
        *,
        every: int,
        within: float | timedelta | None = None,
    ) -> AsyncStream[dict[K, A]]: ...

    def reduce_by(
        self,
        key: Callable[[T], Any],
        fn: Callable[[Any, T], Any],
        initial: Any,
        *,
        every: int | None = None,
        within: float | timedelta | None = None,
    ) -> Any:
        """As :meth:`Stream.reduce_by <lazyfun.streams.dataverbs.Verbs.reduce_by>` (see
        :meth:`count_by` for the windows).

        >>> import asyncio
        >>> asyncio.run(astream(["ab", "c", "de"]).reduce_by(len, lambda n, s: n + len(s), 0))
        {2: 4, 1: 1}
        """
        check_callable(key, "reduce_by's key")
        check_callable(fn, "reduce_by's fn")
        return self._aggregated(_fold(key, fn, initial), every, within, "reduce_by")

    @overload
    def aggregate(
        self, by: Callable[[T], K], *, every: None = None, within: None = None, **named: Any
    ) -> Coroutine[Any, Any, dict[K, dict[str, Any]]]: ...

    @overload
    def aggregate(
        self,
        by: Callable[[T], K],
        *,
        every: int,
        within: float | timedelta | None = None,
        **named: Any,
    ) -> AsyncStream[dict[K, dict[str, Any]]]: ...

    @overload
    def aggregate(
        self,
        by: Callable[[T], K],
        *,
        every: int | None = None,
        within: float | timedelta,
        **named: Any,
    ) -> AsyncStream[dict[K, dict[str, Any]]]: ...

    def aggregate(
        self,
        by: Callable[[T], Any],
        *,
        every: int | None = None,
        within: float | timedelta | None = None,
        **named: Any,
    ) -> Any:
        """As :meth:`Stream.aggregate <lazyfun.streams.dataverbs.Verbs.aggregate>` (see
        :meth:`count_by` for the windows).

        >>> import asyncio
        >>> asyncio.run(astream("banana").aggregate(str.upper, n="count"))
        {'B': {'n': 1}, 'A': {'n': 3}, 'N': {'n': 2}}
        """
        check_callable(by, "aggregate's by")
        return self._aggregated(Accumulators(by, reductions(named)), every, within, "aggregate")

    async def _folded(self, acc: Accumulators) -> Any:
        async with self:
            async for item in self._take_items():
                acc.add(item)
        return acc.output()

    def _aggregated(
        self, acc: Accumulators, every: int | None, within: float | timedelta | None, what: str
    ) -> Any:
        limit = _window(every, within, what)
        if every is None and limit is None:
            return self._folded(acc)
        items: Any = self._take_items()
        ask = None
        if limit is not None and isinstance(items, FromSync):
            from lazyfun.streams.aconcurrent import ReadAhead
            from lazyfun.streams.threaded import GROUP_AHEAD

            items = ReadAhead(items.items, GROUP_AHEAD, asked=True)
            ask = items.ask
        fresh = acc.fresh
        windows = Group(items, every, limit, None, lambda: vsteps.Folded(fresh()), ask)
        return self._verb(vsteps.AsyncWindows(windows))

    def _unique_within(
        self,
        key: Callable[[T], Any] | None,
        within: float | timedelta | None,
        last: int | None,
    ) -> AsyncStream[T]:
        """``unique`` with a window (``AsyncStream.unique``'s ``within`` or ``last``)."""
        if key is not None:
            check_callable(key, "unique's key")
        limit, count = _recent(within, last)
        return self._verb(vsteps.AsyncUniqueWithin(self._take_items(), key, Recent(limit, count)))
