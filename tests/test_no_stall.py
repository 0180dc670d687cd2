"""No stall behind a slow item: an ordered concurrent step keeps its other places busy
while the head is awaited, up to its bound (by default ``grown(concurrency)`` items while
the head is unfinished; ``ahead=`` fixes it), and ``group(within=)`` sends a list on time
while its source stalls.

Each test orders events rather than timing them: the slow call (or the stalled source)
waits for something that can only happen if the rest went on without it, with a long
timeout that only a stall reaches.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun import astream, stream
from lazyfun.parallel.window import grown

STALL = 3.0  # seconds a waiting call or source gives up after: reached only by a stall
AHEAD = 32  # the read-ahead given to 4 places, so that the others go on behind a slow head
BEHIND = 20  # the item the slow head waits for: within that read-ahead


def lazyfun_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("lazyfun") and t.is_alive()]


class Head:
    """A call that is slow at item 0: it waits until item ``BEHIND`` has been called,
    which can only happen while it runs if the other places go on without it."""

    def __init__(self, stall: float = STALL) -> None:
        self.reached = threading.Event()
        self.waited_out = False
        self.stall = stall

    def call(self, n: int) -> int:
        if n == BEHIND:
            self.reached.set()
        if n == 0 and not self.reached.wait(self.stall):
            self.waited_out = True
        return n

    async def acall(self, n: int) -> int:
        if n == BEHIND:
            self.reached.set()
        if n == 0:
            deadline = time.monotonic() + self.stall
            while not self.reached.is_set() and time.monotonic() < deadline:
                await asyncio.sleep(0.005)
            self.waited_out = not self.reached.is_set()
        await asyncio.sleep(0)
        return n


def test_an_ordered_async_map_runs_later_coroutines_while_the_head_is_awaited() -> None:
    head = Head()
    got = asyncio.run(astream(range(40)).map(head.acall, concurrency=4, ahead=AHEAD).to_list())
    assert got == list(range(40))
    assert not head.waited_out  # item 20 started while item 0 was running


def test_an_ordered_async_map_of_a_plain_function_keeps_its_threads_busy() -> None:
    head = Head()
    got = asyncio.run(astream(range(40)).map(head.call, concurrency=4, ahead=AHEAD).to_list())
    assert got == list(range(40))
    assert not head.waited_out


def test_an_ordered_async_filter_and_do_do_not_wait_for_the_head_either() -> None:
    kept, tapped = Head(), Head()
    assert asyncio.run(
        astream(range(30)).filter(kept.acall, concurrency=4, ahead=AHEAD).to_list()
    ) == list(range(1, 30))
    assert asyncio.run(
        astream(range(30)).do(tapped.call, concurrency=4, ahead=AHEAD).to_list()
    ) == list(range(30))
    assert not kept.waited_out and not tapped.waited_out


def test_an_ordered_async_flatmap_reads_later_inner_iterables_while_the_head_is_read() -> None:
    head = Head()

    async def inner(n: int) -> list[int]:
        return [await head.acall(n), -n]

    got = asyncio.run(astream(range(30)).flatmap(inner, concurrency=4, ahead=AHEAD).to_list())
    assert got == [x for n in range(30) for x in (n, -n)]
    assert not head.waited_out


def test_an_ordered_sync_map_keeps_its_threads_busy_while_the_head_runs() -> None:
    head = Head()
    assert stream(range(40)).map(head.call, concurrency=4, ahead=AHEAD).to_list() == list(range(40))
    assert not head.waited_out


def test_the_async_read_ahead_behind_a_slow_head_stays_bounded() -> None:
    read = 0
    gate = threading.Event()

    def counting() -> Iterator[int]:
        nonlocal read
        for n in itertools.count():
            read += 1
            yield n

    def slow_head(n: int) -> int:
        if n == 0:
            gate.wait(STALL)
        return n

    async def main() -> list[int]:
        async with astream(counting()).map(slow_head, concurrency=4, ahead=AHEAD) as items:
            reading = asyncio.ensure_future(items.take(3).to_list())
            await asyncio.sleep(0.3)  # the other places fill what they may meanwhile
            gate.set()
            return await reading

    assert asyncio.run(main()) == [0, 1, 2]
    assert read <= AHEAD + 4  # at most AHEAD held, and a few read as the head came


def test_by_default_the_places_go_on_behind_a_slow_head() -> None:
    head = Head()
    got = stream(range(40)).map(head.call, concurrency=4).to_list()
    assert got == list(range(40))
    assert not head.waited_out  # item 20 was called while item 0 ran: past 5 read
    ahead = Head()
    assert asyncio.run(astream(range(40)).map(ahead.acall, concurrency=4).to_list()) == got
    assert not ahead.waited_out


class Gated:
    """Calls that return at once but for item 0's, which waits for ``gate``; ``calls``
    counts the calls started."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.calls = 0
        self.lock = threading.Lock()

    def call(self, n: int) -> int:
        with self.lock:
            self.calls += 1
        if n == 0:
            self.gate.wait(STALL)
        return n

    async def acall(self, n: int) -> int:
        self.calls += 1
        if n == 0:
            deadline = time.monotonic() + STALL
            while not self.gate.is_set() and time.monotonic() < deadline:
                await asyncio.sleep(0.005)
        return n

    def settled(self, least: int) -> int:
        """The calls started once at least ``least`` have and no more come for a while
        (``STALL`` at most): the read-ahead's bound while item 0 is held."""
        deadline = time.monotonic() + STALL
        while self.calls < least and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(0.2)  # room for any call past the bound to start
        return self.calls

    async def asettled(self, least: int) -> int:
        deadline = time.monotonic() + STALL
        while self.calls < least and time.monotonic() < deadline:
            await asyncio.sleep(0.005)
        await asyncio.sleep(0.2)
        return self.calls


ITEMS = 3 * grown(4)  # more than the read-ahead holds behind item 0


@pytest.mark.parametrize(("ahead", "bound"), [(None, grown(4)), (8, 8)])
def test_the_sync_read_ahead_behind_a_held_head_is_its_bound_exactly(
    ahead: int | None, bound: int
) -> None:
    """By default the places go on past ``concurrency + 1`` while item 0 is held, until
    ``grown(concurrency)`` items are read, and no further; ``ahead=`` is a fixed limit."""
    calls = Gated()
    with ThreadPoolExecutor(1) as reader:
        got = reader.submit(
            stream(range(ITEMS)).map(calls.call, concurrency=4, ahead=ahead).to_list
        )
        held = calls.settled(bound)
        calls.gate.set()
        assert got.result() == list(range(ITEMS))
    assert held == bound
    assert calls.calls == ITEMS


@pytest.mark.parametrize("coroutine", [True, False])
@pytest.mark.parametrize(("ahead", "bound"), [(None, grown(4)), (8, 8)])
def test_the_async_read_ahead_behind_a_held_head_is_its_bound_exactly(
    ahead: int | None, bound: int, coroutine: bool
) -> None:
    calls = Gated()
    f: Callable[[int], Any] = calls.acall if coroutine else calls.call
    settled = calls.asettled if coroutine else lambda least: asyncio.to_thread(calls.settled, least)

    async def main() -> tuple[int, list[Any]]:
        mapped = astream(range(ITEMS)).map(f, concurrency=4, ahead=ahead)
        got = asyncio.ensure_future(mapped.to_list())
        held = await settled(bound)
        calls.gate.set()
        return held, await got

    held, got = asyncio.run(main())
    assert got == list(range(ITEMS))
    assert held == bound


@pytest.mark.parametrize(("ahead", "bound"), [(None, grown(4)), (8, 8)])
def test_the_async_flatmap_behind_a_held_head_starts_its_bound_exactly(
    ahead: int | None, bound: int
) -> None:
    """In order, the inner iterables after a held first one start past ``concurrency``
    by default, up to ``grown(concurrency)`` started and not read to their end."""
    calls = Gated()

    async def inner(n: int) -> list[int]:
        return [await calls.acall(n), -n]

    async def main() -> tuple[int, list[int]]:
        flat = astream(range(ITEMS)).flatmap(inner, concurrency=4, ahead=ahead)
        got = asyncio.ensure_future(flat.to_list())
        held = await calls.asettled(bound)
        calls.gate.set()
        return held, await got

    held, got = asyncio.run(main())
    assert got == [x for n in range(ITEMS) for x in (n, -n)]
    assert held == bound


class Stalling:
    """0, 1, 2, then a stall until ``resume`` is set (or ``STALL`` passes), then 3, 4;
    ``resumed`` says whether the stall is over."""

    def __init__(self) -> None:
        self.resume = threading.Event()
        self.resumed = False

    def __iter__(self) -> Iterator[int]:
        yield from range(3)
        self.resume.wait(STALL)
        self.resumed = True
        yield from range(3, 5)


def test_group_within_sends_a_list_on_time_while_the_source_stalls() -> None:
    source = Stalling()
    lists, stalled = [], []
    for gathered in stream(source).group(10, within=0.2):
        lists.append(gathered)
        stalled.append(not source.resumed)
        source.resume.set()
    assert lists == [[0, 1, 2], [3, 4]]
    assert stalled[0]  # the first list came out while the source was still stalled


def test_group_within_by_key_sends_the_due_lists_while_the_source_stalls() -> None:
    source = Stalling()
    got, stalled = [], []
    for pair in stream(source).group(within=0.2, by=lambda n: n % 2):
        got.append(pair)
        stalled.append(not source.resumed)
        source.resume.set()
    assert got[0] == (0, [0, 2]) and stalled[0]
    assert sorted(n for _, g in got for n in g) == [0, 1, 2, 3, 4]


def test_an_async_group_within_sends_a_list_on_time_while_a_plain_source_blocks() -> None:
    source = Stalling()

    async def main() -> tuple[list[list[int]], list[bool]]:
        lists, stalled = [], []
        async for gathered in astream(source).group(10, within=0.2):
            lists.append(gathered)
            stalled.append(not source.resumed)
            source.resume.set()
        return lists, stalled

    lists, stalled = asyncio.run(main())
    assert lists == [[0, 1, 2], [3, 4]]
    assert stalled[0]  # the blocking read ran on a thread: the loop sent the list meanwhile


def test_group_within_flushes_its_list_before_an_error_and_goes_on() -> None:
    def f(n: int) -> int:
        if n == 3:
            raise ValueError(n)
        return n

    batches = iter(stream(range(8)).map(f).group(10, within=60))
    assert next(batches) == [0, 1, 2]
    with pytest.raises(ValueError, match="3"):
        next(batches)
    assert list(batches) == [[4, 5, 6, 7]]


def test_closing_a_group_within_stops_its_reading_thread() -> None:
    before = set(lazyfun_threads())
    with stream(itertools.count()).group(5, within=1.0) as lists:
        assert next(iter(lists)) == [0, 1, 2, 3, 4]
    deadline = time.monotonic() + STALL
    while set(lazyfun_threads()) - before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not set(lazyfun_threads()) - before


def test_closing_an_async_group_within_stops_its_reading_thread() -> None:
    before = set(lazyfun_threads())

    async def main() -> list[int]:
        async with astream(itertools.count()).group(5, within=1.0) as lists:
            return await anext(aiter(lists))

    assert asyncio.run(main()) == [0, 1, 2, 3, 4]
    deadline = time.monotonic() + STALL
    while set(lazyfun_threads()) - before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not set(lazyfun_threads()) - before


async def _after(delay: float, n: int) -> int:
    await asyncio.sleep(delay)
    return n


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 3), max_size=40), st.integers(1, 5))
def test_law_an_ordered_async_map_keeps_the_input_order_whatever_ends_first(
    delays: list[int], n: int
) -> None:
    async def call(pair: tuple[int, int]) -> int:
        k, delay = pair
        return await _after(delay / 1000, k)

    pairs = list(enumerate(delays))
    got = asyncio.run(astream(pairs).map(call, concurrency=n).to_list())
    assert got == list(range(len(delays)))


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(), max_size=60), st.integers(1, 7))
def test_law_group_within_a_long_time_is_chunked(xs: list[int], size: int) -> None:
    chunks = [xs[k : k + size] for k in range(0, len(xs), size)]
    assert stream(xs).group(size, within=60).to_list() == chunks
