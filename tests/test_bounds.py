"""The bounds a user sets hold exactly, sync and async: a concurrent step reads at most
``concurrency + 1`` items ahead of its reader, in order or not (``ahead=`` more, so
that a slow call holds no other back), ``group(within=)`` and the
windows of ``count_by(within=)`` read no further ahead than the list they fill, and
items cross from a reading thread into the event loop a batch a wake-up, not a thread
call an item.  (``buffer(n)``'s own bound is held in test_flow and test_astream.)

Each source counts, as it reads an item, how many it has read and its reader has not
yet taken, the item being read included: the most of that is what the step held."""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
from collections.abc import AsyncIterable, Callable, Iterable, Iterator
from typing import Any

import pytest

from lazyfun import AsyncStream, Stream, astream, stream
from lazyfun.streams.aio import aconcurrent

C = 3  # the concurrency asked for
ITEMS = 24  # items read by a reader slower than the calls


class Counting:
    """An endless source of 0, 1, 2, ... that keeps the most items it had read and its
    reader had not yet taken (``taken`` is counted by the reader)."""

    def __init__(self) -> None:
        self.read = self.taken = self.most = 0

    def __iter__(self) -> Iterator[int]:
        for k in itertools.count():
            self.read += 1
            self.most = max(self.most, self.read - self.taken)
            yield k


def _read_slowly(items: Iterable[Any], source: Counting) -> list[Any]:
    got = []
    with items if isinstance(items, Stream) else stream(items) as s:
        for item in s:
            got.append(item)
            source.taken += 1
            if len(got) == ITEMS:
                break
            time.sleep(0.002)  # the calls are done long before the reader comes back
    return got


async def _aread_slowly(items: AsyncIterable[Any], source: Counting) -> list[Any]:
    got = []
    assert isinstance(items, Stream)
    async with items:
        async for item in items:
            got.append(item)
            source.taken += 1
            if len(got) == ITEMS:
                break
            await asyncio.sleep(0.002)
    return got


def _same(n: int) -> int:
    return n


def _slowly(n: int) -> int:
    time.sleep(0.003)  # a task of one item each: the sizes adapt to the time of a call
    return n


def _kept(n: int) -> bool:
    return n >= 0


async def _asame(n: int) -> int:
    await asyncio.sleep(0)
    return n


def _one(n: int) -> list[int]:
    return [n]


async def _aone(n: int) -> list[int]:
    await asyncio.sleep(0)
    return [n]


SYNC: dict[str, Callable[[Iterable[int], bool], Stream[Any]]] = {
    "map": lambda s, o: stream(s).map(_same, concurrency=C, ordered=o, chunksize=1),
    "filter": lambda s, o: stream(s).filter(_kept, concurrency=C, ordered=o, chunksize=1),
    "do": lambda s, o: stream(s).do(_same, concurrency=C, ordered=o, chunksize=1),
    "map, slow calls in adaptive tasks": lambda s, o: stream(s).map(
        _slowly, concurrency=C, ordered=o
    ),
    "flatmap": lambda s, o: stream(s).flatmap(_one, concurrency=C, ordered=o, chunksize=1),
}

ASYNC: dict[str, Callable[[Iterable[int], bool], AsyncStream[Any]]] = {
    "map, threads": lambda s, o: astream(s).map(_same, concurrency=C, ordered=o),
    "map, coroutines": lambda s, o: astream(s).map(_asame, concurrency=C, ordered=o),
    "filter": lambda s, o: astream(s).filter(_kept, concurrency=C, ordered=o),
    "do": lambda s, o: astream(s).do(_asame, concurrency=C, ordered=o),
    "flatmap, coroutines": lambda s, o: astream(s).flatmap(_aone, concurrency=C, ordered=o),
    "flatmap, threads": lambda s, o: astream(s).flatmap(_one, concurrency=C, ordered=o),
}


@pytest.mark.parametrize("ordered", [True, False], ids=["in order", "as completed"])
@pytest.mark.parametrize("name", sorted(SYNC))
def test_a_concurrent_step_reads_at_most_concurrency_plus_one_ahead(
    name: str, ordered: bool
) -> None:
    source = Counting()
    got = _read_slowly(SYNC[name](source, ordered), source)
    assert len(got) == ITEMS
    assert got == list(range(ITEMS)) or not ordered
    # C tasks in flight or done, and one more read: a task is one item here, except in
    # adaptive tasks, whose size follows the calls' times (the bound is in tasks: a
    # loaded machine makes a task of several items, and that many more are read)
    if name != "map, slow calls in adaptive tasks":
        assert 2 <= source.most <= C + 1
    else:
        assert source.most >= 2


@pytest.mark.parametrize("ordered", [True, False], ids=["in order", "as completed"])
@pytest.mark.parametrize("name", sorted(ASYNC))
def test_an_async_concurrent_step_reads_at_most_concurrency_plus_one_ahead(
    name: str, ordered: bool
) -> None:
    source = Counting()
    got = asyncio.run(_aread_slowly(ASYNC[name](source, ordered), source))
    assert len(got) == ITEMS
    assert got == list(range(ITEMS)) or not ordered
    assert 2 <= source.most <= C + 1


def test_ahead_lets_a_step_in_order_read_that_far_and_no_further() -> None:
    source = Counting()
    mapped = stream(source).map(_same, concurrency=C, ahead=8 * C, chunksize=1)
    assert _read_slowly(mapped, source) == list(range(ITEMS))
    assert C + 1 < source.most <= 8 * C  # behind the head, the others go on
    source = Counting()
    amapped = astream(source).map(_asame, concurrency=C, ahead=8 * C)
    assert asyncio.run(_aread_slowly(amapped, source)) == list(range(ITEMS))
    assert C + 1 < source.most <= 8 * C


@pytest.mark.parametrize(
    ("ahead", "concurrency", "message"),
    [
        (0, 2, "map's ahead must be at least 1"),
        (1, 2, "ahead=1 is below concurrency=2"),
        (4, None, "ahead= bounds the read-ahead of concurrency= or via="),
    ],
)
def test_an_ahead_that_cannot_hold_is_refused_at_the_call(
    ahead: int, concurrency: int | None, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        stream(range(3)).map(_same, concurrency=concurrency, ahead=ahead)
    with pytest.raises(ValueError, match=message):
        astream(range(3)).map(_same, concurrency=concurrency, ahead=ahead)


@pytest.mark.parametrize(
    "grouped",
    [
        lambda s: astream(s).group(10, within=5.0),
        lambda s: astream(s).count_by(lambda n: n % 2, every=10, within=5.0),
    ],
    ids=["group", "count_by"],
)
def test_an_async_group_within_reads_no_further_ahead_than_the_list_it_fills(
    grouped: Callable[[Iterable[int]], AsyncStream[Any]],
) -> None:
    source = Counting()

    async def main() -> list[Any]:
        got = []
        async with grouped(source) as lists:
            async for made in lists:
                got.append(made)
                await asyncio.sleep(0.1)  # the consumer holds its list: nothing is read
                assert source.read <= 10 * len(got) + 1  # and at most the one in progress
                if len(got) == 2:
                    break
        return got

    first, second = asyncio.run(main())
    assert first in (list(range(10)), {0: 5, 1: 5})
    assert second in (list(range(10, 20)), {0: 5, 1: 5})


@pytest.mark.parametrize(
    "grouped",
    [
        lambda s: stream(s).group(10, within=5.0),
        lambda s: stream(s).count_by(lambda n: n % 2, every=10, within=5.0),
    ],
    ids=["group", "count_by"],
)
def test_a_group_within_reads_no_further_ahead_than_the_list_it_fills(
    grouped: Callable[[Iterable[int]], Stream[Any]],
) -> None:
    source = Counting()
    got = []
    with grouped(source) as lists:
        for made in lists:
            got.append(made)
            time.sleep(0.1)  # the consumer holds its list: nothing is read meanwhile
            assert source.read <= 10 * len(got) + 1  # and at most the one in progress
            if len(got) == 2:
                break
    first, second = got
    assert first in (list(range(10)), {0: 5, 1: 5})
    assert second in (list(range(10, 20)), {0: 5, 1: 5})


CROSS = 5_000


async def _count(items: AsyncIterable[Any]) -> int:
    return sum([1 async for _ in items])


def _woken(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A count of the times a reading thread wakes the event loop (in a list, to read)."""
    wakes = [0]
    waker = aconcurrent._waker

    def counted(
        loop: asyncio.AbstractEventLoop, arrived: asyncio.Future[None]
    ) -> Callable[[], object]:
        wake = waker(loop, arrived)

        def woken() -> object:
            wakes[0] += 1
            return wake()

        return woken

    monkeypatch.setattr(aconcurrent, "_waker", counted)
    return wakes


def _numbers(n: int) -> Iterator[int]:
    """0, 1, ..., n - 1 from a generator: your code, which may wait, so read on a thread."""
    yield from range(n)


@pytest.mark.parametrize(
    "crossing",
    [
        lambda: astream(_numbers(CROSS)).buffer(256),
        lambda: stream(_numbers(CROSS)),
        lambda: stream(_numbers(CROSS)).to_async().buffer(64),
    ],
    ids=["astream buffer", "async for over a Stream", "to_async buffer"],
)
def test_items_cross_into_the_event_loop_in_batches(
    crossing: Callable[[], AsyncIterable[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The loop is woken once a batch at most, not once an item: far fewer wakes than
    items (a wake an item would be 5,000; a reader that has its batch ready when the
    loop lets it run needs none; the bench holds the time within 3x of a hand-written
    async for)."""
    wakes = _woken(monkeypatch)
    assert asyncio.run(_count(crossing())) == CROSS
    assert wakes[0] <= CROSS // 10


def test_a_loop_waiting_for_a_slow_reader_is_woken_by_it(monkeypatch: pytest.MonkeyPatch) -> None:
    def slowly() -> Iterator[int]:
        for n in range(5):
            time.sleep(0.01)  # the reader is in its read when the loop comes to wait
            yield n

    wakes = _woken(monkeypatch)
    assert asyncio.run(_count(astream(slowly()).buffer(4))) == 5
    assert wakes[0] >= 1


@pytest.mark.parametrize(
    "crossing",
    [
        lambda: astream(range(CROSS)).buffer(256),
        lambda: stream([*range(CROSS)]),
        lambda: astream(dict.fromkeys(range(CROSS))).group(100, within=1.0),
        lambda: stream(range(CROSS)).to_async().buffer(64),
    ],
    ids=["astream buffer", "async for over a Stream", "group within", "to_async buffer"],
)
def test_a_containers_items_cross_with_no_thread(
    crossing: Callable[[], AsyncIterable[Any]],
) -> None:
    """A range, list or dict runs none of your code and never waits: the loop reads it
    itself, with no reading thread started (a generator's items start one, below)."""
    n, started = asyncio.run(_count_seeing_threads(crossing()))
    assert n in (CROSS, CROSS // 100)
    assert started == set()


def test_a_generators_items_cross_on_a_thread() -> None:
    """The same count over a generator starts its reading thread (the test above can fail)."""
    n, started = asyncio.run(_count_seeing_threads(astream(_numbers(CROSS)).buffer(256)))
    assert n == CROSS
    assert len(started) == 1


async def _count_seeing_threads(items: AsyncIterable[Any]) -> tuple[int, set[threading.Thread]]:
    """How many items, and the threads started while they were read."""
    before, started, n = set(threading.enumerate()), set[threading.Thread](), 0
    async for _ in items:
        n += 1
        started |= set(threading.enumerate()) - before
    return n, started
