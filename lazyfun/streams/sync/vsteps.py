"""The verbs' steps: each reads its source a chunk at a time into the verb's core
(:mod:`lazyfun.streams.verbs`) and gives what the core gives, as an iterator of a sync
stream's chain (:mod:`lazyfun.streams.aio.avsteps` has the async chain's, over the same
cores).

A failing item passes on as errors do in every step: an error from the source is
raised at the next read and the step goes on with the item after it, keeping what
it held; an item whose key (or value) raises is left out and its error passes on.

>>> list(read_all(iter([3, 1, 2]), Sorter(None, True, 2**20)))
[3, 2, 1]
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from itertools import chain, islice
from typing import Any, TypeVar

from lazyfun.streams.joins import MISSING, HashTable, MergeJoin, MergeJoining
from lazyfun.streams.shared.parts import Held
from lazyfun.streams.sorting import Sorter, Top
from lazyfun.streams.sync import flow
from lazyfun.streams.sync.steps import Failure
from lazyfun.streams.verbs import Accumulators, Recent, field_name
from lazyfun.streams.windows import Core, Window

__all__ = [
    "EventTimeWindows",
    "MergeJoinStep",
    "UniqueWithin",
    "Windows",
    "hash_join",
    "read_all",
]

T = TypeVar("T")


def read_all(source: Iterator[Any], core: Sorter[Any] | Top[Any]) -> Iterator[Any]:
    """A verb that reads its whole source before it gives anything (``sort``, ``top``):
    ``core.add`` takes each chunk, ``core.output()`` gives the items at the end, read in
    C (a chain of segments: an error passes on as a segment whose read raises it).
    Closing ``core`` lets go of what it holds."""
    return chain.from_iterable(_segments(source, core))


def _segments(source: Iterator[Any], core: Sorter[Any] | Top[Any]) -> Iterator[Iterable[Any]]:
    while True:
        chunk: list[Any] = []
        try:  # list.extend keeps the items it appended before an error
            chunk.extend(islice(source, core.room()))
        except Exception as error:
            core.add(chunk)
            yield Failure(error)
            del error
            continue
        if not chunk:
            break
        core.add(chunk)
        while core.errors:
            yield Failure(core.errors.popleft())
    out = core.output()
    while core.errors:
        yield Failure(core.errors.popleft())
    yield out
    close = getattr(core, "close", None)
    if close is not None:
        close()


def hash_join(
    source: Iterator[Any],
    key: Callable[[Any], Any],
    other: Iterator[Any],
    table: HashTable[Any],
    left: bool,
) -> Iterator[tuple[Any, Any]]:
    """Pairs of an item and each row of ``other`` with its key (``left``: and the items
    with none, paired with None), ``other`` read into ``table`` at the first read; the
    pairs by the C flow engine's ``Probe`` where it was built, else read in C, the
    pairs up to an error as one segment, the error as a segment whose read raises it
    (an item at a time: the pairs of an item are given before the next is read).  An
    item whose key can equal none of the table's (by type: :meth:`HashTable.check`) is
    a KeyMismatch at its place, and the join goes on."""
    return chain.from_iterable(_join_segments(source, key, other, table, left))


def _join_segments(
    source: Iterator[Any],
    key: Callable[[Any], Any],
    other: Iterator[Any],
    table: HashTable[Any],
    left: bool,
) -> Iterator[Iterable[tuple[Any, Any]]]:
    for error in table.filled(other):
        yield Failure(error)
    if flow.BUILT:  # the same pairs and errors, in one C iterator
        yield flow.probe(source, key, table, left)
        return
    numbered = enumerate(source, 1)  # an error from the source counts no item
    failed: list[Exception] = []
    while True:  # the pairs up to an error, the error, the pairs after it
        yield _pairs(numbered, key, table, left, failed)
        if not failed:
            return
        yield Failure(failed.pop())


def _pairs(
    numbered: Iterator[tuple[int, Any]],
    key: Callable[[Any], Any],
    table: HashTable[Any],
    left: bool,
    failed: list[Exception],
) -> Iterator[tuple[Any, Any]]:
    """The pairs of the items of ``numbered`` up to its end, or up to an error (of the
    source, of a key, a KeyMismatch), which ends them, kept in ``failed``.  A key made
    by :func:`~lazyfun.streams.verbs.field` is read inline, as it reads."""
    first, more, matching, check = table.first.get, table.more, table.matching, table.check
    placed, size = table.index, len(table.index)
    name = field_name(key)
    try:
        for index, item in numbered:
            if name is None:
                k = key(item)
            else:
                try:
                    k = item[name]
                except TypeError:  # not a mapping: a dataclass, a Struct, a named tuple
                    k = getattr(item, name)
            # an int key of an indexed table is read at its place, any other looked up
            row = placed[k] if type(k) is int and 0 <= k < size else first(k, MISSING)
            if row is MISSING:
                if type(k) not in matching:  # a key that may never match: a type check
                    check(k, index)
                if left:
                    yield item, None
                continue
            yield item, row
            if more:
                for row in more.get(k, ()):
                    yield item, row
    except Exception as error:
        failed.append(error)


class MergeJoinStep(MergeJoining, Iterator[tuple[Any, Any]]):
    """A merge join of two inputs sorted on their keys: constant memory (the other
    side's rows of one key), a key out of order a ValueError that ends it."""

    def __init__(
        self, source: Iterator[Any], key: Callable[[Any], Any], join: MergeJoin, left: bool
    ) -> None:
        super().__init__(key, join, left)
        self.source = source

    def __next__(self) -> tuple[Any, Any]:
        while not self.ready:
            if self.ended:
                raise StopIteration
            if not self.waiting:
                self.take(next(self.source))
            self.match()
        return self.ready.popleft()


class UniqueWithin(Iterator[T]):
    """Each item whose key was not let through within the window (``Recent``)."""

    def __init__(self, source: Iterator[T], key: Callable[[T], Any] | None, recent: Recent) -> None:
        self.source, self.key, self.recent = source, key, recent

    def __next__(self) -> T:
        while True:
            item = next(self.source)
            if not self.recent.repeat(item if self.key is None else self.key(item)):
                return item


class Windows(Iterator[dict[Any, Any]]):
    """The aggregates of each window of ``every`` items or ``within`` seconds (from its
    first item: checked as items arrive and at the end, and, given ``wait``, while the
    next is awaited), each a fresh dict; an error from the source first sends the open
    window's aggregates, then passes on."""

    def __init__(
        self,
        source: Iterator[Any],
        acc: Accumulators,
        every: int | None,
        within: float | None,
        wait: Callable[[float], bool] | None = None,
        ask: Callable[[int | None], None] | None = None,
    ) -> None:
        self.source, self.acc, self.every, self.within = source, acc, every, within
        self.wait, self.ask = wait, ask
        self.count = 0
        self.opened = 0.0
        self.held = Held()
        self.exhausted = False

    def _send(self) -> dict[Any, Any]:
        self.count = 0
        return self.acc.output()

    def __next__(self) -> dict[Any, Any]:
        self.held.raise_held()
        if self.exhausted:
            raise StopIteration
        if self.ask is not None:
            self.ask(None if self.every is None else self.every - self.count)
        try:
            return self._fill()
        finally:
            if self.ask is not None:
                self.ask(0)

    def _fill(self) -> dict[Any, Any]:
        while True:
            wait, within = self.wait, self.within
            # the window's time is up while the next item is awaited
            if (
                self.count
                and wait is not None
                and within is not None
                and not wait(self.opened + within)
            ):
                return self._send()
            try:
                item = next(self.source)
            except StopIteration:
                self.exhausted = True
                if self.count:
                    return self._send()
                raise
            except Exception as error:
                if not self.count:
                    raise
                self.held.hold(error)
                return self._send()
            now = time.monotonic()
            if self.count and self.within is not None and now - self.opened >= self.within:
                sent = self._send()  # the late item opens the next window
                try:
                    self._take(item, now)
                except Exception as error:  # its error comes after the window sent
                    self.held.hold(error)
                return sent
            self._take(item, now)
            if self.every is not None and self.count >= self.every:
                return self._send()

    def _take(self, item: Any, now: float) -> None:
        self.acc.add(item)  # an item whose key or value raises passes its error on
        if not self.count:
            self.opened = now
        self.count += 1


class EventTimeWindows(Iterator[Window[Any]]):
    """The windows on event time of :class:`~lazyfun.streams.windows.EventTime`, each
    handed on as soon as the watermark closes it (the source is read only until one
    has), the rest at the source's end.  An error from the source, or of an item,
    passes on at its place and the step goes on with the next; closing it lets go of
    the open windows.

    >>> from lazyfun.streams.windows import EventTime, Fixed
    >>> core = EventTime("tumbling", abs, None, 0, None, None, fixed=Fixed(2, 2))
    >>> [(w.start, w.items) for w in EventTimeWindows(iter([0, 1, 2, 5]), core)]
    [(0, (0, 1)), (2, (2,)), (4, (5,))]
    """

    __slots__ = ("core", "ended", "source")

    def __init__(self, source: Iterator[Any], core: Core) -> None:
        self.source, self.core, self.ended = source, core, False

    def __next__(self) -> Window[Any]:
        core = self.core
        while not core.ready:
            if self.ended:
                raise StopIteration
            if core.pull(self.source):  # the source ended
                self.ended = True
                core.finish()
        return core.ready.popleft()

    def holding(self) -> int:
        """The items the open windows hold (what ``explain`` shows as held)."""
        return self.core.held

    def close(self) -> None:
        self.ended = True
        self.core.close()
