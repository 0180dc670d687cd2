"""The operators users of the peers ask for: ``any`` and ``all`` that stop at the answer."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from lazyfun import stream


def _counted(read: list[int]) -> Iterator[int]:
    for n in range(10**9):
        read.append(n)
        yield n


def test_any_and_all_read_only_up_to_the_answer() -> None:
    read: list[int] = []
    assert stream(_counted(read)).any(lambda n: n == 7)
    assert read == list(range(8))
    read.clear()
    assert not stream(_counted(read)).all(lambda n: n < 3)
    assert read == list(range(4))
    assert stream([]).all() and not stream([]).any()
    assert stream([0, 0, 1]).any() and not stream([1, 0]).all()


def test_any_lets_go_of_a_concurrent_pipeline() -> None:
    def slow(n: int) -> int:
        time.sleep(0.005)
        return n

    def lazyfun_threads() -> int:
        return sum(t.name.startswith("lazyfun") and t.is_alive() for t in threading.enumerate())

    before = lazyfun_threads()
    assert stream(range(10**6)).map(slow, concurrency=4).any(lambda n: n == 20)
    for _ in range(100):
        if lazyfun_threads() <= before:
            break
        time.sleep(0.02)
    assert lazyfun_threads() <= before


class Stuck:
    """A function whose calls on the items in ``stuck`` block until released."""

    def __init__(self, *stuck: int) -> None:
        self.stuck, self.release = set(stuck), threading.Event()
        self.calls: list[int] = []

    def __call__(self, n: int) -> int:
        self.calls.append(n)
        if n in self.stuck:
            self.release.wait(30)
        return n * 10


def test_a_call_over_its_timeout_is_an_error_at_its_place() -> None:
    f = Stuck(2)
    try:
        got = stream(range(5)).map(f, timeout=0.2).catch(TimeoutError, replace=lambda e: -1)
        assert got.to_list() == [0, 10, -1, 30, 40]
    finally:
        f.release.set()


def test_a_timeout_holds_on_threads_and_each_retry_has_its_own() -> None:
    f = Stuck(3, 6)
    try:
        done = (
            stream(range(8))
            .map(f, concurrency=4, timeout=0.2, retry=2)
            .catch(TimeoutError, replace=lambda e: -1)
            .to_list()
        )
        assert done == [0, 10, 20, -1, 40, 50, -1, 70]
        assert f.calls.count(3) == 2 and f.calls.count(6) == 2  # two attempts, each timed
    finally:
        f.release.set()


@pytest.mark.parametrize("bad", [0, -1.0])
def test_a_timeout_must_be_a_positive_time(bad: float) -> None:
    with pytest.raises(ValueError, match="positive time"):
        stream([1]).map(abs, timeout=bad)


def test_merge_gives_the_items_as_they_come_and_errors_at_their_place() -> None:
    fast_done = threading.Event()

    def fast() -> Iterator[int]:
        yield from [1, 2, 3]
        fast_done.set()

    def waiting() -> Iterator[int]:
        fast_done.wait(30)  # nothing until the other input is through: it must not wait
        yield 100

    assert stream(waiting()).merge(fast()).to_list() == [1, 2, 3, 100]

    def parse(texts: list[str]) -> Iterator[int]:
        return map(int, texts)

    caught = stream(parse(["1", "x", "3"])).merge(parse(["7"])).catch(ValueError).to_list()
    assert sorted(caught) == [1, 3, 7]


def test_closing_a_merge_closes_every_stream_merged_into_it() -> None:
    def slow(n: int) -> int:
        time.sleep(0.005)
        return n

    def lazyfun_threads() -> int:
        return sum(t.name.startswith("lazyfun") and t.is_alive() for t in threading.enumerate())

    before = lazyfun_threads()
    left = stream(range(10**6)).map(slow, concurrency=2)
    right = stream(range(10**6)).map(slow, concurrency=2)
    with left.merge(right) as both:
        assert len([n for n, _ in zip(both, range(10), strict=False)]) == 10
    for _ in range(200):
        if lazyfun_threads() <= before:
            break
        time.sleep(0.02)
    assert lazyfun_threads() <= before


def test_tee_branches_read_side_by_side_and_errors_reach_each_branch() -> None:
    def parse() -> Iterator[int]:
        return map(int, ["1", "x", "3"])

    a, b = stream(parse()).tee(2, bound=2)
    caught_a = a.catch(ValueError, replace=lambda e: -1)
    caught_b = b.catch(ValueError, replace=lambda e: -2)
    assert list(zip(caught_a, caught_b, strict=True)) == [(1, 1), (-1, -2), (3, 3)]


def test_a_branch_too_far_ahead_on_one_thread_is_an_error_not_a_hang() -> None:
    ahead, behind = stream(range(100)).tee(2, bound=10)
    with pytest.raises(BufferError, match="10 items ahead of branch 1"):
        ahead.to_list()
    assert behind.take(3).to_list() == [0, 1, 2]


def test_a_branch_ahead_waits_for_the_other_threads_branch_in_bounded_memory() -> None:
    kept: list[int] = []
    started, fast_started = threading.Event(), threading.Event()
    fast, slow = stream(range(2000)).tee(2, bound=16)

    def read_slowly() -> None:
        for n in slow:
            kept.append(n)
            started.set()
            assert fast_started.wait(30)  # both branches have their readers: no race
            time.sleep(0.0002)

    reader = threading.Thread(target=read_slowly)
    reader.start()
    try:
        assert started.wait(30)  # the slow branch is now the other thread's
        tee = fast._items.tee
        total = 0
        for n in fast:
            fast_started.set()
            total += n
            assert len(tee.book.kept) <= 16
    finally:
        reader.join(30)
    assert total == sum(range(2000))
    assert kept == list(range(2000))


def test_a_branch_ahead_of_one_whose_reader_ended_is_an_error_not_a_hang() -> None:
    fast, slow = stream(range(100)).tee(2, bound=4)
    reader = threading.Thread(target=lambda: next(iter(slow)))  # reads one, then ends
    reader.start()
    reader.join(30)
    with pytest.raises(BufferError, match="one that has ended"):
        for _ in fast:
            pass


def test_the_async_twins_answer_as_the_sync_ones() -> None:
    import asyncio

    from lazyfun import Rate, astream

    async def is_big(n: int) -> bool:
        await asyncio.sleep(0)
        return n > 5

    async def nap(seconds: float) -> float:
        await asyncio.sleep(seconds)
        return seconds

    async def main() -> None:
        assert await astream(range(10**9)).any(is_big)
        assert not await astream([1, 2]).all(is_big)
        assert sorted(await astream([1, 3]).merge([2], astream([4])).to_list()) == [1, 2, 3, 4]
        small, large = astream(range(5)).tee(2, bound=2)
        pairs = [p async for p in small.zip(large)]
        assert pairs == [(n, n) for n in range(5)]
        ahead, _ = astream(range(100)).tee(2, bound=3)
        with pytest.raises(BufferError, match="3 items ahead"):
            await ahead.to_list()
        timed = astream([0.0, 30.0, 0.0]).map(nap, timeout=0.2, concurrency=3)
        assert await timed.catch(TimeoutError, replace=lambda e: -1.0).to_list() == [0.0, -1.0, 0.0]
        rate = Rate(1000, per=1)
        assert await astream(range(3)).map(is_big, rate=rate, retry=2).to_list() == [False] * 3
        assert len(rate.starts) == 3

    asyncio.run(main())
