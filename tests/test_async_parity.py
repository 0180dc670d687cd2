"""AsyncStream beside Stream: the same steps and terminals, every callback plain or a
coroutine function, and the async defects of issue #42 (cancellation, closing, streaming)."""

from __future__ import annotations

import asyncio
import io
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import TypeVar, assert_type

import pytest

from lazyfun import AsyncStream, Stream, StreamConsumedError, astream, stream
from lazyfun.streams.aio.aconcurrent import ReadAhead
from lazyfun.streams.aio.asteps import Step
from lazyfun.streams.progress import aprogress
from lazyfun.trace import Probe

T = TypeVar("T")


def run(awaitable: Awaitable[T]) -> T:
    async def main() -> T:
        return await awaitable

    return asyncio.run(main())


async def is_small(n: int) -> bool:
    await asyncio.sleep(0)
    return n < 3


async def parity(n: int) -> int:
    await asyncio.sleep(0)
    return n % 2


async def add(total: int, n: int) -> int:
    await asyncio.sleep(0)
    return total + n


# --- every callback plain or a coroutine function ------------------------------------


def test_callbacks_may_be_coroutine_functions() -> None:
    assert run(astream(range(6)).takewhile(is_small).to_list()) == [0, 1, 2]
    assert run(astream(range(6)).dropwhile(is_small).to_list()) == [3, 4, 5]
    assert run(astream(range(6)).unique(key=parity).to_list()) == [0, 1]
    assert run(astream(range(5)).group(by=parity).to_list()) == [(0, [0, 2, 4]), (1, [1, 3])]
    assert run(astream([1, 2, 3]).reduce(add, 0)) == 6
    assert run(astream(["bb", "a", "ccc"]).min(key=length)) == "a"
    assert run(astream(["bb", "a", "ccc"]).max(key=length)) == "ccc"
    seen: list[int] = []

    async def note(n: int) -> None:
        seen.append(n)

    run(astream(range(3)).for_each(note))
    assert seen == [0, 1, 2]


async def length(text: str) -> int:
    await asyncio.sleep(0)
    return len(text)


def test_catch_takes_coroutine_functions() -> None:
    noted: list[str] = []

    async def where(error: BaseException) -> bool:
        return "x" in str(error)

    async def replace(error: BaseException) -> int:
        return -1

    async def do(error: BaseException) -> None:
        noted.append(str(error)[-3:])

    got = run(
        astream(["1", "x", "3"])
        .map(int)
        .catch(ValueError, where=where, do=do, replace=replace)
        .to_list()
    )
    assert got == [1, -1, 3]
    assert noted == ["'x'"]
    with pytest.raises(ValueError, match="'y'"):
        run(astream(["y"]).map(int).catch(where=where).to_list())


def test_reduce_of_a_coroutine_function_is_awaited_never_a_coroutine() -> None:
    # it gave an unawaited coroutine, silently
    assert run(astream([1, 2, 3]).reduce(add, 10)) == 16
    assert run(astream([1, 2]).reduce(lambda total, n: add(total, n), 0)) == 3


def test_a_coroutine_function_is_not_refused_as_if_the_stream_were_sync() -> None:
    # the checks said "a Stream is synchronous" on an AsyncStream
    async def key(n: int) -> int:
        return n

    async def noted(error: Exception) -> None:
        pass

    for make in (
        lambda: astream([1]).takewhile(is_small),
        lambda: astream([1]).dropwhile(is_small),
        lambda: astream([1]).unique(key=key),
        lambda: astream([1]).group(by=key),
        lambda: astream([1]).catch(do=noted),
    ):
        make()
    with pytest.raises(TypeError, match="needs a function"):
        astream([1]).takewhile(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="synchronous"):
        stream([1]).takewhile(is_small)


def test_min_and_max_take_a_default_as_the_sync_ones_do() -> None:
    assert run(astream([]).min(default=0)) == 0
    assert run(astream([]).max(default=None)) is None
    assert run(astream([2, 1, 1]).min()) == 1
    with pytest.raises(ValueError, match="empty AsyncStream"):
        run(astream([]).max())
    # the first of equal items, as the builtins give
    assert run(astream(["a", "b"]).max(key=len)) == "a"
    assert run(astream(range(5)).sum(10)) == 20


def test_coroutine_callbacks_are_typed_by_what_they_give() -> None:
    async def key(n: int) -> str:
        return str(n)

    async def zero(error: BaseException) -> int:
        return 0

    assert_type(astream([1]).group(by=key), AsyncStream[tuple[str, list[int]]])
    assert_type(astream(["1"]).map(int).catch(replace=zero), AsyncStream[int])
    total = run(astream([1]).reduce(add, 0))
    assert_type(total, int)


# --- cancellation and errors end the work the stream started -------------------------


class Calls:
    """Coroutine calls that wait for ever, counting the starts and the cancellations."""

    def __init__(self) -> None:
        self.started = self.cancelled = 0

    async def wait(self, n: int) -> int:
        self.started += 1
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.cancelled += 1
            raise
        return n


async def _until(condition: Callable[[], bool]) -> None:
    while not condition():
        await asyncio.sleep(0)


def test_cancelling_a_plain_async_for_over_a_concurrent_map_cancels_its_tasks() -> None:
    calls = Calls()

    async def main() -> int:
        async def reader() -> None:
            async for _ in astream(numbers(100)).buffer(2).map(calls.wait, concurrency=4):
                pass

        task = asyncio.ensure_future(reader())
        await _until(lambda: calls.started == 4)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        return len(asyncio.all_tasks())  # the calls and the buffer's reading task ended

    assert run(main()) == 1
    assert calls.cancelled == 4


async def numbers(n: int) -> AsyncIterator[int]:
    for k in range(n):
        await asyncio.sleep(0)
        yield k


def test_an_error_of_one_call_ends_the_others_when_the_stream_is_left() -> None:
    def failing_on_three(calls: Calls) -> Callable[[int], Awaitable[int]]:
        async def f(n: int) -> int:
            if n == 3:
                await _until(lambda: calls.started == 3)
                raise ValueError(n)
            return await calls.wait(n)

        return f

    by_terminal, by_with = Calls(), Calls()

    async def main() -> int:
        f = failing_on_three(by_terminal)
        with pytest.raises(ValueError, match="3"):
            await astream(range(10)).map(f, concurrency=4, ordered=False).to_list()
        f = failing_on_three(by_with)
        with pytest.raises(ValueError, match="3"):
            async with astream(range(10)).map(f, concurrency=4, ordered=False) as numbers:
                async for _ in numbers:
                    pass
        return len(asyncio.all_tasks())

    assert run(main()) == 1
    # the three calls running beside the failed one, and the next item's call, which the
    # failed call's worker took from the inbox at once (up to n items wait there)
    assert (by_terminal.cancelled, by_with.cancelled) == (4, 4)


def test_an_error_of_a_concurrent_map_is_still_an_item_that_catch_drops() -> None:
    async def fails_on_one(n: int) -> int:
        if n == 1:
            raise ValueError(n)
        return n

    got = run(astream(range(4)).map(fails_on_one, concurrency=2).catch(ValueError).to_list())
    assert got == [0, 2, 3]


# --- flatmap: inner iterators closed, concurrent ones streamed ------------------------


class Inner:
    """Async generators that note when they are closed."""

    def __init__(self) -> None:
        self.open: set[int] = set()
        self.closed: list[int] = []

    async def items(self, n: int) -> AsyncIterator[int]:
        self.open.add(n)
        try:
            for k in range(100):
                await asyncio.sleep(0)
                yield n * 100 + k
        finally:
            self.open.discard(n)
            self.closed.append(n)


def test_a_flatmap_stopped_early_closes_the_inner_generator_it_was_reading() -> None:
    inner = Inner()

    async def main() -> list[int]:
        first = astream([1, 2]).flatmap(inner.items).take(3)
        got = await first.to_list()
        assert inner.closed == [1]  # at once, not when the loop collects the generator
        return got

    assert run(main()) == [100, 101, 102]
    assert not inner.open


def test_a_concurrent_flatmap_stopped_or_cancelled_closes_every_inner_generator() -> None:
    inner = Inner()
    got = run(astream([1, 2, 3]).flatmap(inner.items, concurrency=2).take(3).to_list())
    assert got == [100, 101, 102]
    assert 1 in inner.closed
    assert not inner.open  # the second one too, if it had begun

    async def main() -> int:
        async def reader() -> None:
            async for _ in astream([4, 5]).flatmap(inner.items, concurrency=2, ordered=False):
                await asyncio.Event().wait()

        task = asyncio.ensure_future(reader())
        await _until(lambda: len(inner.open) == 2)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        return len(asyncio.all_tasks())

    assert run(main()) == 1
    assert not inner.open


async def in_turn(
    values: list[int], mine: asyncio.Event, theirs: asyncio.Event
) -> AsyncIterator[int]:
    for value in values:
        await mine.wait()
        mine.clear()
        yield value
        theirs.set()


def test_a_concurrent_flatmap_as_completed_interleaves_the_items_as_they_arrive() -> None:
    async def main() -> list[int]:
        evens, odds = asyncio.Event(), asyncio.Event()
        evens.set()
        inner = {0: in_turn([0, 2, 4], evens, odds), 1: in_turn([1, 3, 5], odds, evens)}
        got = astream([0, 1]).flatmap(inner.__getitem__, concurrency=2, ordered=False)
        return await got.to_list()

    assert run(main()) == [0, 1, 2, 3, 4, 5]  # each inner list whole: [0, 2, 4, 1, 3, 5]


def test_a_concurrent_flatmap_in_order_streams_the_first_inner_iterable() -> None:
    async def main() -> list[int]:
        seen = asyncio.Event()

        async def inner(n: int) -> AsyncIterator[int]:
            yield n
            await seen.wait()  # only once the consumer has the first item
            yield n + 10

        got: list[int] = []
        async with astream([1, 2]).flatmap(inner, concurrency=2) as items:
            async for item in items:
                got.append(item)
                seen.set()
        return got

    # read to a list first, the first inner iterable never ended: a timeout, not an order
    assert run(asyncio.wait_for(main(), timeout=10)) == [1, 11, 2, 12]


def test_a_concurrent_flatmap_reads_a_plain_inner_iterable_off_the_loop() -> None:
    readers: set[threading.Thread] = set()

    def inner(n: int) -> Iterator[int]:
        for k in range(3):
            readers.add(threading.current_thread())
            yield n + k

    got = run(astream([0, 10]).flatmap(inner, concurrency=2).to_list())
    assert got == [0, 1, 2, 10, 11, 12]
    assert readers and threading.main_thread() not in readers


def test_a_concurrent_flatmap_keeps_errors_at_their_place() -> None:
    def inner(n: int) -> Iterator[int]:
        yield n
        if n == 2:
            raise ValueError(n)
        yield -n

    def chain(concurrency: int | None) -> list[int]:
        upstream = astream(["1", "x", "2", "3"]).map(int)
        return run(upstream.flatmap(inner, concurrency=concurrency).catch(ValueError).to_list())

    assert chain(None) == [1, -1, 2, 3, -3]
    assert chain(2) == chain(None)


# --- one API, by construction: one class, each mode's refusals declared once ------------

ONLY_SYNC = ("close", "lazylist", "to_async")  # close's async twin is aclose


def _public(kind: type) -> set[str]:
    return {name for name in dir(kind) if not name.startswith("_")}


def test_a_stream_of_either_mode_is_the_one_class() -> None:
    assert type(astream([1])) is Stream
    assert type(stream([1])) is Stream
    assert type(stream([1]).to_async()) is Stream


@pytest.mark.parametrize("name", ONLY_SYNC)
def test_a_sync_only_method_of_an_async_stream_is_refused_with_its_reason(name: str) -> None:
    numbers = astream([1])
    with pytest.raises(TypeError, match="async stream"):
        getattr(numbers, name)()


def test_aclose_of_a_sync_stream_is_refused_with_its_reason() -> None:
    numbers: Stream[int] = stream([1])
    with pytest.raises(TypeError, match=r"s\.close"):
        run(numbers.aclose())  # type: ignore[misc]


def test_for_over_an_async_stream_is_refused_at_once() -> None:
    numbers = astream([1])
    with pytest.raises(TypeError, match="async for"):
        iter(numbers)


@pytest.mark.parametrize("step", ["map", "filter", "flatmap", "do"])
def test_where_calls_run_is_refused_in_an_async_stream_with_the_reason(step: str) -> None:
    for placing in ({"via": "thread"}, {"chunksize": 2}):
        with pytest.raises(ValueError, match="an async stream's calls are tasks"):
            getattr(astream([1]), step)(abs, **placing)


@pytest.mark.parametrize("name", sorted(_public(Stream)))
def test_each_public_method_has_an_example(name: str) -> None:
    assert ">>>" in (getattr(Stream, name).__doc__ or "")


def test_the_new_steps_mean_what_the_sync_ones_mean() -> None:
    async def pairs() -> AsyncIterator[int]:
        for n in (10, 20):
            yield n

    assert run(astream("abc").zip(pairs()).to_list()) == stream("abc").zip([10, 20]).to_list()
    assert run(astream("abc").zip(astream([1])).to_list()) == [("a", 1)]
    assert run(astream("a").zip_longest(pairs()).to_list()) == [("a", 10), (None, 20)]
    assert run(astream("ab").zip_longest("x", fillvalue="-").to_list()) == [
        ("a", "x"),
        ("b", "-"),
    ]
    assert run(astream([1, 2, 3]).scan(add, 0).to_list()) == [0, 1, 3, 6]
    assert run(astream([]).scan(add, 5).to_list()) == [5]
    assert run(astream(range(4)).last()) == 3
    assert run(astream("ab").enumerate().to_dict()) == {0: "a", 1: "b"}
    probe = Probe()
    assert run(astream(range(100)).probe("read", probe).take(3).to_list()) == [0, 1, 2]
    assert probe.counts == {"read": 3}
    assert run(astream(range(3)).progress("counting", total=3).to_list()) == [0, 1, 2]


def test_zip_keeps_an_item_read_before_the_other_side_failed() -> None:
    pairs = astream([1, 2, 3]).zip(astream(["1", "x", "3"]).map(int)).catch(ValueError)
    assert run(pairs.to_list()) == [(1, 1), (2, 3)]


def test_the_async_progress_bar_draws_on_a_terminal() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()

    async def read() -> list[int]:
        bar = aprogress(astream(range(5)).__aiter__(), "counting", 5, out=screen)
        return [n async for n in bar]

    assert run(read()) == [0, 1, 2, 3, 4]
    assert "counting" in screen.getvalue()


def test_pmap_steps_its_window_off_the_event_loop() -> None:
    async def main() -> list[bool]:
        gate = threading.Event()

        def waits(n: int) -> bool:
            return gate.wait(timeout=30)  # the loop sets it: a blocked loop never would

        async def opens() -> None:
            await asyncio.sleep(0)
            gate.set()

        opening = asyncio.ensure_future(opens())
        got = await astream(range(3)).pmap(waits, scheduler="sync").to_list()
        await opening
        return got

    assert run(main()) == [True, True, True]


def test_pmap_keeps_order_and_errors_at_their_place() -> None:
    def inverse(n: int) -> float:
        return 1 / n

    got = run(astream([1, 0, 2]).pmap(inverse, jobs=2, scheduler="sync").catch().to_list())
    assert got == [1.0, 0.5]


def test_zip_longest_and_pipe_are_typed_on_both_classes() -> None:
    assert_type(stream([1]).zip_longest(["a"]), Stream[tuple[int | None, str | None]])
    assert_type(stream([1]).zip_longest(["a"], fillvalue=0), Stream[tuple[int, str | int]])
    assert_type(astream([1]).zip_longest(["a"]), AsyncStream[tuple[int | None, str | None]])
    assert_type(
        astream([1]).zip_longest(["a"], fillvalue=0.5), AsyncStream[tuple[int | float, str | float]]
    )
    assert_type(stream([1]).pipe(lambda s: s.map(str)), Stream[str])
    assert_type(astream([1]).pipe(lambda s: s.map(str)), AsyncStream[str])
    assert_type(astream([1]).scan(add, 0), AsyncStream[int])
    assert_type(astream([1]).zip(stream("a")), AsyncStream[tuple[int, str]])


# --- async for over a Stream ------------------------------------------------------------


def test_async_for_reads_a_sync_stream_off_the_event_loop() -> None:
    async def main() -> tuple[list[bool], set[threading.Thread]]:
        gate = threading.Event()
        readers: set[threading.Thread] = set()

        def waits(n: int) -> bool:
            readers.add(threading.current_thread())
            return gate.wait(timeout=30)  # the loop sets it: a blocked loop never would

        async def opens() -> None:
            await asyncio.sleep(0)
            gate.set()

        opening = asyncio.ensure_future(opens())
        got = [ok async for ok in stream(range(3)).map(waits)]
        await opening
        return got, readers

    got, readers = run(main())
    assert got == [True, True, True]
    assert threading.main_thread() not in readers


def test_closing_the_async_iterator_of_a_stream_closes_the_stream() -> None:
    started: list[int] = []

    def slow(n: int) -> int:
        started.append(n)
        return n

    async def main() -> list[int]:
        squares = stream(range(10**9)).map(slow, concurrency=2)
        items = aiter(squares)
        got = [await anext(items), await anext(items)]
        assert isinstance(items, Step)
        await items.aclose()
        with pytest.raises(StopAsyncIteration):
            await anext(items)
        assert isinstance(items, ReadAhead)
        assert next(items.ahead.source, "ended") == "ended"  # the map's window was closed
        return got

    assert run(main()) == [0, 1]
    assert run(astream(stream("ab").map(str.upper)).to_list()) == ["A", "B"]
    caught = astream(stream(["1", "x", "3"]).map(int)).catch(ValueError)
    assert run(caught.to_list()) == [1, 3]  # an error read on the thread keeps its place


def test_a_cancelled_read_of_a_stream_loses_no_item() -> None:
    async def main() -> list[int]:
        gate = threading.Event()

        def waits(n: int) -> int:
            gate.wait(timeout=30)
            return n

        items = aiter(stream(range(3)).map(waits))
        reading = asyncio.ensure_future(anext(items))
        await asyncio.sleep(0)
        reading.cancel()
        await asyncio.gather(reading, return_exceptions=True)
        gate.set()
        return [await anext(items) for _ in range(3)]

    assert run(main()) == [0, 1, 2]


def test_a_read_cancelled_by_a_timeout_ends_the_concurrent_map_and_says_so() -> None:
    calls = Calls()

    async def main() -> int:
        squares = astream(range(10)).map(calls.wait, concurrency=3)
        items = aiter(squares)
        reading = asyncio.ensure_future(anext(items))
        await _until(lambda: calls.started == 3)
        reading.cancel()  # as asyncio.wait_for's timeout does
        await asyncio.gather(reading, return_exceptions=True)
        with pytest.raises(StreamConsumedError, match="cancelled"):
            await anext(items)  # never a silent end
        return len(asyncio.all_tasks())

    assert run(main()) == 1
    assert calls.cancelled == 3


@pytest.mark.parametrize("k", [1, 5, 40])
def test_async_for_over_a_stream_reads_about_as_far_ahead_as_it_took(k: int) -> None:
    """Handed over in batches that double while the loop waits: a reader that stops
    after k items has had at most about as many more read."""
    read = 0

    def counting() -> Iterator[int]:
        nonlocal read
        for n in range(10**6):
            read += 1
            yield n

    async def main() -> list[int]:
        got = []
        items = aiter(stream(counting()))
        async for n in items:
            got.append(n)
            if len(got) == k:
                break
        await items.aclose()  # type: ignore[attr-defined]
        return got

    assert run(main()) == list(range(k))
    assert read <= 2 * k + 2
