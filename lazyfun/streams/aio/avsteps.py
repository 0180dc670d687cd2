"""The verbs' steps of an async stream's chain: :mod:`lazyfun.streams.sync.vsteps`'s, each
over an async source, feeding the same cores (:mod:`lazyfun.streams.verbs`) a chunk at
a time; an error from the source passes on at its place as in every step.
"""

from __future__ import annotations

from collections import deque
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from lazyfun.streams.joins import HashTable, MergeJoin, MergeJoining
from lazyfun.streams.shared.parts import Step, aclose
from lazyfun.streams.sorting import Sorter, Top
from lazyfun.streams.verbs import Accumulators, Recent, raise_first
from lazyfun.streams.windows import Core

__all__ = [
    "AsyncEventTimeWindows",
    "AsyncHashJoin",
    "AsyncMergeJoin",
    "AsyncReadAll",
    "AsyncUniqueWithin",
    "AsyncWindows",
    "Folded",
]


class AsyncReadAll(Step):
    """:func:`read_all` over an async source."""

    def __init__(self, source: AsyncIterator[Any], core: Sorter[Any] | Top[Any]) -> None:
        self.source, self.core = source, core
        self.out: Iterator[Any] | None = None

    async def __anext__(self) -> Any:
        core = self.core
        while self.out is None:
            raise_first(core.errors)
            chunk: list[Any] = []
            try:
                async for item in _upto(self.source, core.room()):
                    chunk.append(item)
            except Exception:
                core.add(chunk)
                raise
            if not chunk:
                self.out = iter(core.output())
                break
            core.add(chunk)
        raise_first(core.errors)
        item = next(self.out, _END)
        if item is _END:
            await self.aclose()
            raise StopAsyncIteration
        return item

    async def aclose(self) -> None:
        self.out = iter(())
        close = getattr(self.core, "close", None)
        if close is not None:
            close()
        await aclose(self.source)


_END: Any = object()


async def _upto(source: AsyncIterator[Any], n: int) -> AsyncIterator[Any]:
    """Up to ``n`` items of ``source`` (fewer at its end)."""
    for _ in range(n):
        try:
            item = await anext(source)
        except StopAsyncIteration:
            return
        yield item


class AsyncHashJoin(Step):
    """:func:`hash_join` over an async source; the other side is a plain iterable, read
    into the table at the first read."""

    def __init__(
        self,
        source: AsyncIterator[Any],
        key: Callable[[Any], Any],
        other: Iterator[Any],
        table: HashTable[Any],
        left: bool,
    ) -> None:
        self.source, self.key, self.other, self.table, self.left = source, key, other, table, left
        self.building = table.filled(other)
        self.ready: deque[tuple[Any, Any]] = deque()
        self.index = 0  # the items read

    async def __anext__(self) -> Any:
        for error in self.building:  # the table built first, its errors passed on in place
            try:
                raise error
            finally:
                del error  # the frame keeps no error alive once it is passed on
        while not self.ready:
            item = await anext(self.source)
            self.index += 1
            self.ready.extend(self.table.pairs(item, self.key(item), self.left, self.index))
        return self.ready.popleft()


class AsyncMergeJoin(MergeJoining, Step):
    """:class:`~lazyfun.streams.sync.vsteps.MergeJoinStep` over an async source; the other
    side is a plain iterable."""

    def __init__(
        self, source: AsyncIterator[Any], key: Callable[[Any], Any], join: MergeJoin, left: bool
    ) -> None:
        super().__init__(key, join, left)
        self.source = source

    async def __anext__(self) -> Any:
        while not self.ready:
            if self.ended:
                raise StopAsyncIteration
            if not self.waiting:
                self.take(await anext(self.source))
            self.match()
        return self.ready.popleft()


class AsyncUniqueWithin(Step):
    """:class:`UniqueWithin` over an async source."""

    def __init__(
        self, source: AsyncIterator[Any], key: Callable[[Any], Any] | None, recent: Recent
    ) -> None:
        self.source, self.key, self.recent = source, key, recent

    async def __anext__(self) -> Any:
        while True:
            item = await anext(self.source)
            if not self.recent.repeat(item if self.key is None else self.key(item)):
                return item


class Folded:
    """A window's aggregates, folded as its items come: what an async ``group`` gathers
    for ``aggregate``'s windows in place of a list (so a window holds one state a key,
    not its items)."""

    __slots__ = ("acc", "count")

    def __init__(self, acc: Accumulators) -> None:
        self.acc, self.count = acc, 0

    def append(self, item: Any) -> None:
        self.acc.add(item)  # an item whose key or value raises is not counted
        self.count += 1

    def __len__(self) -> int:
        return self.count


class AsyncWindows(Step):
    """:class:`Windows` over an async ``group`` of :class:`Folded` windows: an item whose
    key or value raises passes its error on, and its window goes on."""

    def __init__(self, source: AsyncIterator[Any]) -> None:
        self.source = source

    async def __anext__(self) -> Any:
        window: Folded = await anext(self.source)
        return window.acc.output()


class AsyncEventTimeWindows(Step):
    """:class:`~lazyfun.streams.sync.vsteps.EventTimeWindows` over an async source: the
    same core, each window handed on as soon as the watermark closes it."""

    def __init__(self, source: AsyncIterator[Any], core: Core) -> None:
        self.source, self.core, self.ended = source, core, False

    async def __anext__(self) -> Any:
        core = self.core
        while not core.ready:
            if self.ended:
                raise StopAsyncIteration
            try:
                item = await anext(self.source)
            except StopAsyncIteration:
                self.ended = True
                core.finish()
                continue
            core.add(item)
        return core.ready.popleft()

    def holding(self) -> int:
        """The items the open windows hold (what ``explain`` shows as held)."""
        return self.core.held

    async def aclose(self) -> None:
        self.ended = True
        self.core.close()
        await aclose(self.source)
