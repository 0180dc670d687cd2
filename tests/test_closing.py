"""Closing a pipeline: ``Stream.close()`` and ``with``, ``AsyncStream.aclose()`` and
``async with``; and a concurrent step that keeps the concurrency asked for when its
items turn slow (the leaving-by-any-way matrix runs in subprocesses: test_leaving.py)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from lazyfun import astream, stream
from lazyfun.parallel.daemons import DaemonPool
from lazyfun.streams.sync.steps import StreamConsumedError


class Calls:
    """Counts the calls of a function, those running at once and the most at once."""

    def __init__(self, seconds: float, slow_from: int = 0) -> None:
        self.lock = threading.Lock()
        self.started = self.now = self.most = 0
        self.seconds, self.slow_from = seconds, slow_from

    def __call__(self, n: int) -> int:
        with self.lock:
            self.started += 1
            self.now += 1
            self.most = max(self.most, self.now)
        if n >= self.slow_from:
            time.sleep(self.seconds)
        with self.lock:
            self.now -= 1
        return n


def _lazyfun_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name.startswith("lazyfun") and t.is_alive()}


def _settle(before: set[threading.Thread]) -> set[threading.Thread]:
    for _ in range(100):
        left = _lazyfun_threads() - before
        if not left:
            break
        time.sleep(0.02)
    return left


def test_close_cancels_the_queued_calls_and_lets_the_threads_go() -> None:
    before = _lazyfun_threads()
    calls = Calls(0.02)
    squares = stream(range(10**6)).map(calls, concurrency=4)
    it = iter(squares)
    assert [next(it), next(it)] == [0, 1]
    squares.close()
    started = calls.started
    assert next(it, "ended") == "ended"
    assert not _settle(before)
    assert calls.started == started  # nothing queued ran after the close
    assert started < 200


def test_with_closes_on_the_way_out_even_on_an_error() -> None:
    before = _lazyfun_threads()
    with pytest.raises(KeyError), stream(range(10**6)).map(Calls(0.01), concurrency=3) as s:
        for n in s:
            if n == 5:
                raise KeyError(n)
    assert not _settle(before)


def test_a_closed_stream_is_not_read_and_closing_twice_is_nothing() -> None:
    s = stream(range(3)).map(str, concurrency=2)
    s.close()
    s.close()
    with pytest.raises(StreamConsumedError, match="was closed"):
        s.to_list()


def test_closing_leaves_your_source_and_your_executor_open() -> None:
    def source() -> Iterator[int]:
        yield from range(100)

    items = source()
    with ThreadPoolExecutor(2) as pool:
        with stream(items).map(abs, via=pool, concurrency=2) as s:
            assert next(iter(s)) == 0
        assert pool.submit(abs, -3).result() == 3  # still taking calls
    assert next(items) > 0  # the generator goes on where the window left it


def test_closing_reaches_through_later_steps_and_other_streams() -> None:
    before = _lazyfun_threads()
    left = stream(range(10**6)).map(Calls(0.01), concurrency=2)
    right = stream(range(10**6)).map(Calls(0.01), concurrency=2)
    with left.map(str).zip(right).filter(bool).take(10**6) as s:
        assert next(iter(s)) == ("0", 0)
    assert not _settle(before)


def test_a_terminal_that_stops_on_an_error_lets_the_threads_go() -> None:
    def bad(n: int) -> int:
        if n == 3:
            raise ValueError(n)
        return n

    before = _lazyfun_threads()
    with pytest.raises(ValueError):
        stream(range(10**6)).map(bad, concurrency=4).to_list()
    assert not _settle(before)


def test_slow_items_after_fast_ones_still_run_as_many_at_once_as_asked() -> None:
    """Batching grows on the 2,000 instant items; when the items turn slow, the tasks that
    overrun hand their unstarted items back, so eight calls run at once again."""
    calls = Calls(0.02, slow_from=2000)
    assert stream(range(2160)).map(calls, concurrency=8).count() == 2160
    assert calls.most >= 6, calls.most
    unordered = Calls(0.02, slow_from=2000)
    done = stream(range(2160)).map(unordered, concurrency=8, ordered=False).to_list()
    assert sorted(done) == list(range(2160))
    assert unordered.most >= 6, unordered.most


def test_an_error_and_a_handed_back_batch_keep_their_places() -> None:
    def f(n: int) -> int:
        if n >= 1000:
            time.sleep(0.005)
        if n % 97 == 0:
            raise ValueError(n)
        return n

    caught = stream(range(1200)).map(f, concurrency=4).catch(ValueError).to_list()
    assert caught == [n for n in range(1200) if n % 97]


def test_the_daemon_pool_refuses_calls_after_shutdown() -> None:
    pool = DaemonPool(1)
    assert pool.submit(pow, 2, 3).result() == 8
    pool.shutdown()
    with pytest.raises(RuntimeError, match="shut down"):
        pool.submit(pow, 2, 3)
    with pytest.raises(ValueError, match="at least one worker"):
        DaemonPool(0)


def test_aclose_cancels_every_task_and_async_with_closes() -> None:
    async def slow(n: int) -> int:
        await asyncio.sleep(0.01)
        return n

    async def main() -> tuple[int, int]:
        before = asyncio.all_tasks()
        squares = astream(range(10**6)).map(slow, concurrency=8)
        first = await anext(aiter(squares))
        await squares.aclose()
        assert asyncio.all_tasks() == before
        async with astream(range(10**6)).map(slow, concurrency=8) as s:
            second = await anext(aiter(s))
        assert asyncio.all_tasks() == before
        return first, second

    assert asyncio.run(main()) == (0, 0)


def test_aclose_leaves_your_async_source_open() -> None:
    async def source() -> AsyncIterator[int]:
        for n in range(10):
            yield n

    async def main() -> list[int]:
        items = source()
        async with astream(items).map(abs, concurrency=2) as s:
            async for _ in s:
                break
        return [n async for n in items]

    rest = asyncio.run(main())
    assert rest and rest == list(range(10 - len(rest), 10))


def test_an_async_map_of_a_plain_function_runs_as_many_threads_as_asked() -> None:
    calls = Calls(0.02)

    async def main() -> int:
        return await astream(range(64)).map(calls, concurrency=16).count()

    assert asyncio.run(main()) == 64
    assert calls.most == 16  # not the loop's default pool: min(32, cores + 4)
