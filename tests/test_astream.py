"""AsyncStream: coroutines in the chain, bounded tasks, errors, early stops, types."""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import TypeVar, assert_type

import pytest
import tenacity
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun import AsyncStream, StreamConsumedError, astream, stream

T = TypeVar("T")


def run(awaitable: Awaitable[T]) -> T:
    async def main() -> T:
        return await awaitable

    return asyncio.run(main())


async def double(n: int) -> int:
    await asyncio.sleep(0)
    return 2 * n


async def numbers(n: int) -> AsyncIterator[int]:
    for k in range(n):
        await asyncio.sleep(0)
        yield k


def test_coroutines_and_plain_functions_mix_in_one_chain() -> None:
    got = run(astream(numbers(6)).map(double).filter(lambda n: n % 4 == 0).map(str).to_list())
    assert got == ["0", "4", "8"]
    assert run(astream(range(3)).flatmap(lambda n: [n] * n).to_list()) == [1, 2, 2]
    assert run(stream(range(3)).to_async().map(double).to_list()) == [0, 2, 4]


def test_types_are_unwrapped_from_coroutines() -> None:
    assert_type(astream([1]).map(double), AsyncStream[int])
    assert_type(astream([1]).map(str), AsyncStream[str])
    chain = (
        astream(numbers(50))
        .map(double, concurrency=4)
        .filter(lambda n: n > 3)
        .catch(ValueError)
        .do(print)
        .take(30)
        .drop(1)
        .chunked(3)
        .flatmap(lambda xs: xs)
        .enumerate()
        .map(lambda pair: pair[1])
    )
    assert_type(chain, AsyncStream[int])
    assert run(chain.take(3).to_list()) == [6, 8, 10]


class Gauge:
    def __init__(self) -> None:
        self.now = self.most = 0

    async def __call__(self, n: int) -> int:
        self.now += 1
        self.most = max(self.most, self.now)
        await asyncio.sleep(0.001 * (n % 3))
        self.now -= 1
        return n


def test_at_most_n_tasks_run_at_once_in_order_or_as_completed() -> None:
    gauge = Gauge()
    assert run(astream(range(40)).map(gauge, concurrency=5).to_list()) == list(range(40))
    assert 1 < gauge.most <= 5

    async def slow_first(n: int) -> int:
        await asyncio.sleep(0.1 if n == 0 else 0)
        return n

    got = run(astream(range(5)).map(slow_first, concurrency=3, ordered=False).to_list())
    assert sorted(got) == list(range(5)) and got[-1] == 0


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers()), st.integers(1, 5))
def test_law_concurrent_async_map_is_map(xs: list[int], n: int) -> None:
    assert run(astream(xs).map(double, concurrency=n).to_list()) == [2 * x for x in xs]
    unordered = run(astream(xs).map(double, concurrency=n, ordered=False).to_list())
    assert Counter(unordered) == Counter(2 * x for x in xs)


def test_plain_functions_run_in_threads_with_concurrency() -> None:
    names: set[str] = set()
    together = threading.Barrier(4, timeout=10)

    def meet(n: int) -> int:
        names.add(threading.current_thread().name)
        together.wait()  # only four calls running at once can pass
        return n

    assert run(astream(range(8)).map(meet, concurrency=4).to_list()) == list(range(8))
    assert threading.main_thread().name not in names


def test_errors_come_at_their_place_and_catch_goes_on() -> None:
    async def fails_on_two(n: int) -> int:
        if n == 2:
            raise KeyError(n)
        return n

    async def go() -> tuple[list[int], list[str]]:
        items = aiter(astream(range(5)).map(fails_on_two, concurrency=2))
        got = [await anext(items), await anext(items)]
        with pytest.raises(KeyError) as raised:
            await anext(items)
        got += [x async for x in items]
        return got, raised.value.__notes__

    got, notes = run(go())
    assert got == [0, 1, 3, 4]
    assert "on item 2 of the input" in notes[0]
    caught = astream(range(5)).map(fails_on_two).catch(KeyError, replace=lambda e: -1)
    assert run(caught.to_list()) == [0, 1, -1, 3, 4]


def test_stopping_early_cancels_every_task() -> None:
    async def go() -> int:
        before = len(asyncio.all_tasks())

        async def forever(n: int) -> int:
            await asyncio.sleep(0 if n == 0 else 60)
            return n

        assert await astream(range(100)).map(forever, concurrency=10).first() == 0
        items = aiter(astream(range(100)).map(forever, concurrency=10, ordered=False))
        assert await anext(items) == 0
        await items.aclose()  # type: ignore[attr-defined]
        await asyncio.sleep(0)
        return len(asyncio.all_tasks()) - before

    assert run(go()) == 0


def test_retry_with_asyncretrying() -> None:
    tries = Counter[int]()

    async def flaky(n: int) -> int:
        tries[n] += 1
        if tries[n] < 2:
            raise ConnectionError(n)
        return n

    policy = tenacity.AsyncRetrying(stop=tenacity.stop_after_attempt(3), reraise=True)
    assert run(astream(range(4)).map(flaky, concurrency=2, retry=policy).to_list()) == [0, 1, 2, 3]
    assert set(tries.values()) == {2}
    with pytest.raises(TypeError, match="AsyncRetrying"):
        astream([1]).map(flaky, retry=tenacity.Retrying())


def test_group_closes_on_time_while_waiting_for_the_next_item() -> None:
    async def slow_source() -> AsyncIterator[int]:
        yield 1
        yield 2
        await asyncio.sleep(0.3)
        third.set()
        yield 3

    async def go() -> list[tuple[bool, list[int]]]:
        return [
            (third.is_set(), group) async for group in astream(slow_source()).group(10, within=0.05)
        ]

    third = asyncio.Event()
    seen = run(go())
    assert seen == [(False, [1, 2]), (True, [3])]  # [1, 2] was sent before item 3 came


def test_the_other_steps_and_terminals() -> None:
    async def go() -> None:
        assert await astream(range(5)).count() == 5
        assert await astream(range(5)).sum() == 10
        assert await astream([3, 1]).min() == 1 and await astream([3, 1]).max() == 3
        assert await astream("abca").to_set() == {"a", "b", "c"}
        assert await astream(range(4)).reduce(lambda a, n: a * 10 + n, 0) == 123
        empty: list[int] = []
        assert await astream(empty).first(-1) == -1
        assert await astream(range(6)).takewhile(lambda n: n < 3).to_list() == [0, 1, 2]
        assert await astream(range(6)).dropwhile(lambda n: n < 3).to_list() == [3, 4, 5]
        assert await astream(range(4)).window(2).to_list() == [(0, 1), (1, 2), (2, 3)]
        assert await astream([[1], [1], [2]]).unique().to_list() == [[1], [2]]
        assert await (astream([1]) + numbers(2)).to_list() == [1, 0, 1]
        assert await astream("aAb").group(by=str.isupper).to_list() == [
            (False, ["a", "b"]),
            (True, ["A"]),
        ]
        assert await astream(range(3)).buffer(2).observe("x").to_list() == [0, 1, 2]
        assert await astream(range(3)).throttle(100, per=1).to_list() == [0, 1, 2]
        seen: list[int] = []

        async def note(n: int) -> None:
            seen.append(n)

        await astream(range(3)).for_each(note)
        assert seen == [0, 1, 2]
        s = astream(range(2))
        await s.to_list()
        with pytest.raises(StreamConsumedError):
            await s.to_list()

    run(go())


@pytest.mark.untraced
def test_many_sleeping_tasks_fill_the_limit_and_no_more() -> None:
    gauge = Gauge()

    async def nap(n: int) -> int:
        return await gauge(1)  # every call sleeps the same 1 ms

    assert run(astream(range(2000)).map(nap, concurrency=200).count()) == 2000
    assert gauge.most == 200


def test_bad_arguments_are_refused_at_the_call() -> None:
    with pytest.raises(ValueError, match="concurrency must be at least 1"):
        astream([1]).map(double, concurrency=0)
    with pytest.raises(TypeError, match="needs a function"):
        astream([1]).map(1)  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="group needs"):
        astream([1]).group()
    f: Callable[[int], int] = abs
    assert run(astream([-1]).map(f).to_list()) == [1]


def test_buffer_reads_a_blocking_plain_source_off_the_event_loop() -> None:
    def blocking() -> Iterator[int]:
        for n in range(3):
            time.sleep(0.1)
            yield n

    async def go() -> tuple[list[int], int]:
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        beat = asyncio.ensure_future(ticker())
        got = await astream(blocking()).buffer(2).to_list()
        beat.cancel()
        await asyncio.gather(beat, return_exceptions=True)
        return got, ticks

    got, ticks = run(go())
    assert got == [0, 1, 2]
    assert ticks >= 10  # the loop kept running while the source blocked


@pytest.mark.parametrize("plain", [False, True])
@pytest.mark.parametrize("n", [1, 2, 5])
def test_an_async_buffer_of_n_never_holds_more_than_n_items(n: int, plain: bool) -> None:
    """The items read and not yet taken, the one being read included, are at most n,
    from an async source and from a plain one read on a thread."""
    read = 0

    def counting() -> Iterator[int]:
        nonlocal read
        k = 0
        while True:
            read += 1
            yield k
            k += 1

    async def acounting() -> AsyncIterator[int]:
        for k in counting():
            yield k

    async def go() -> list[int]:
        items = astream(counting() if plain else acounting()).buffer(n).__aiter__()
        held = []
        for taken in range(1, 30):
            await anext(items)
            await asyncio.sleep(0.002 * (taken % 3))
            held.append(read - taken)
        for _ in range(200):  # however loaded the machine, the reader gets to run
            await asyncio.sleep(0.01)
            if read - 29 > n // 2:
                break
        held.append(read - 29)
        await items.aclose()  # type: ignore[attr-defined]
        return held

    held = run(go())
    assert max(held) <= n
    assert held[-1] > n // 2  # and it reads ahead while the consumer is elsewhere


def test_filter_without_a_predicate_keeps_the_true_items_as_the_sync_filter_does() -> None:
    items = [0, 1, None, "", "a", 2]
    assert asyncio.run(astream(items).filter().to_list()) == stream(items).filter().to_list()
    assert asyncio.run(astream(items).filter().to_list()) == [1, "a", 2]
