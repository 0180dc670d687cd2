"""Pipelines: lazyfun's Stream and AsyncStream beside streamable, aiostream, PyFunctional
and the standard library, measured in one run.

- per-item overhead of each step, as a ratio to the builtin that does the same
  (targets: at most 1.5x it, and at most streamable's ratio);
- per-item overhead of the AsyncStream's steps, as a ratio to the hand-written
  ``async for`` loop that does the same, beside aiostream (target: at most 3x);
- the thread-safe LazyList's first walk against a generator (at most 4x);
- I/O-bound map (2,000 calls sleeping 5 ms, 32 at a time) against the ideal;
- a cheap map on two threads (100,000 items): the cost of the concurrency itself;
- 10,000 coroutines sleeping 10 ms, 200 at a time, beside aiostream and the
  hand-written ``asyncio.Semaphore`` and ``gather`` (what asyncio itself reaches);
- a slow head: an ordered map of 100 calls, 8 at a time, the first taking 1 s and the
  others 50 ms (threads and coroutines), against the ideal of 1 s;
- ``group(within=0.5)`` over a source that stalls 2 s: when the first list comes;
- the traced peak memory of a concurrent map at 10^5 and 10^6 items.

The machine may be shared: every timing is the best of five, and the runs compared
are taken in turn within each round, so a burst of load elsewhere falls on all alike.
"""

from __future__ import annotations

import asyncio
import itertools
import time
import tracemalloc
from collections import deque
from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from functools import partial
from typing import Any

import more_itertools

from benchmarks.bench_lazylist import first_walk
from benchmarks.common import best_of, verdict
from lazyfun import astream, stream

N = 300_000


def _drain(items: Iterable[Any]) -> None:
    deque(items, maxlen=0)


def _identity(x: int) -> int:
    return x


def _odd(x: int) -> bool:
    return bool(x & 1)


def _single(x: int) -> tuple[int]:
    return (x,)


def _noop(x: int) -> None:
    return None


def _tapped(x: int) -> int:
    _noop(x)
    return x


def _steps() -> dict[str, dict[str, Callable[[], object]]]:
    """For each step: the builtin doing the same, lazyfun, and the peers that have it."""
    from functional import seq
    from streamable import Stream as Streamable

    xs = range(N)
    never = timedelta(seconds=1)
    return {
        "map": {
            "builtin": lambda: _drain(map(_identity, xs)),
            "lazyfun": lambda: _drain(stream(xs).map(_identity)),
            "streamable": lambda: _drain(Streamable(xs).map(_identity)),
            "pyfunctional": lambda: _drain(seq(xs).map(_identity)),
        },
        "filter": {
            "builtin": lambda: _drain(filter(_odd, xs)),
            "lazyfun": lambda: _drain(stream(xs).filter(_odd)),
            "streamable": lambda: _drain(Streamable(xs).filter(_odd)),
            "pyfunctional": lambda: _drain(seq(xs).filter(_odd)),
        },
        "flatmap": {
            "builtin": lambda: _drain(itertools.chain.from_iterable(map(_single, xs))),
            "lazyfun": lambda: _drain(stream(xs).flatmap(_single)),
            "streamable": lambda: _drain(Streamable(xs).map(_single).flatten()),
            "pyfunctional": lambda: _drain(seq(xs).flat_map(_single)),
        },
        "take": {
            "builtin": lambda: _drain(itertools.islice(xs, N)),
            "lazyfun": lambda: _drain(stream(xs).take(N)),
            "streamable": lambda: _drain(Streamable(xs).take(N)),
            "pyfunctional": lambda: _drain(seq(xs).take(N)),
        },
        "group(100)": {
            "builtin": lambda: _drain(more_itertools.chunked(xs, 100)),
            "lazyfun": lambda: _drain(stream(xs).group(100)),
            "streamable": lambda: _drain(Streamable(xs).group(100)),
            "pyfunctional": lambda: _drain(seq(xs).grouped(100)),
        },
        "catch, no error": {
            "builtin": lambda: _drain(iter(xs)),
            "lazyfun": lambda: _drain(stream(xs).catch(ValueError)),
            "streamable": lambda: _drain(Streamable(xs).catch(ValueError)),
        },
        "do": {
            "builtin": lambda: _drain(map(_tapped, xs)),
            "lazyfun": lambda: _drain(stream(xs).do(_noop)),
            "streamable": lambda: _drain(Streamable(xs).do(_noop)),
        },
        "throttle, never reached": {
            "builtin": lambda: _drain(iter(xs)),
            "lazyfun": lambda: _drain(stream(xs).throttle(10**9, per=never)),
            "streamable": lambda: _drain(Streamable(xs).throttle(10**9, per=never)),
        },
    }


def interleaved(runs: dict[str, Callable[[], object]], rounds: int = 5) -> dict[str, float]:
    """The best of ``rounds`` wall times of each run, the runs taken in turn each round."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(rounds):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def _overheads(verdicts: list[str]) -> None:
    print(f"per-item cost over {N:,} items, as a ratio to the builtin doing the same")
    print(f"  {'step':<24}{'builtin':>10}{'lazyfun':>10}{'streamable':>12}{'pyfunctional':>14}")
    for step, runs in _steps().items():
        times = interleaved(runs)
        base = times["builtin"]
        ratios = {name: t / base for name, t in times.items()}
        cells = "".join(
            f"{(f'{ratios[name]:.2f}x' if name in ratios else '-'):>{width}}"
            for name, width in (("lazyfun", 10), ("streamable", 12), ("pyfunctional", 14))
        )
        print(f"  {step:<24}{base * 1e9 / N:>8.0f}ns{cells}")
        ours = ratios["lazyfun"]
        verdicts.append(verdict(f"{step}: at most 1.5x the builtin", ours <= 1.5, f"{ours:.2f}x"))
        verdicts.append(
            verdict(
                f"{step}: lazyfun's ratio at most streamable's (5% for noise)",
                ours <= 1.05 * ratios["streamable"],
                f"{ours:.2f}x against {ratios['streamable']:.2f}x",
            )
        )
        if step in ("map", "filter"):
            verdicts.append(
                verdict(f"{step}: within 1.1x of the builtin", ours <= 1.1, f"{ours:.2f}x")
            )


A = 100_000  # items through each async step


async def _arange(n: int) -> AsyncIterator[int]:
    for x in range(n):
        yield x


async def _hand_chunked(items: AsyncIterator[int], n: int) -> AsyncIterator[list[int]]:
    gathered: list[int] = []
    async for x in items:
        gathered.append(x)
        if len(gathered) == n:
            yield gathered
            gathered = []
    if gathered:
        yield gathered


async def _hand_map(items: AsyncIterator[int]) -> AsyncIterator[int]:
    async for x in items:
        yield _identity(x)


async def _hand_filter(items: AsyncIterator[int]) -> AsyncIterator[int]:
    async for x in items:
        if _odd(x):
            yield x


async def _hand_take(items: AsyncIterator[int], n: int) -> AsyncIterator[int]:
    async for x in items:
        yield x
        n -= 1
        if not n:
            return


def _async_steps() -> dict[str, dict[str, Callable[[], AsyncIterable[Any]]]]:
    """For each async step: the hand-written loop, lazyfun, aiostream; each reads an async
    generator of ``A`` items."""
    from aiostream import pipe
    from aiostream import stream as aiostream

    def theirs(step: Any) -> Callable[[], AsyncIterable[Any]]:
        return lambda: aiostream.iterate(_arange(A)) | step

    return {
        "chunked(100)": {
            "by hand": lambda: _hand_chunked(_arange(A), 100),
            "lazyfun": lambda: astream(_arange(A)).chunked(100),
            "aiostream": theirs(pipe.chunks(100)),
        },
        "map": {
            "by hand": lambda: _hand_map(_arange(A)),
            "lazyfun": lambda: astream(_arange(A)).map(_identity),
            "aiostream": theirs(pipe.map(_identity)),
        },
        "filter": {
            "by hand": lambda: _hand_filter(_arange(A)),
            "lazyfun": lambda: astream(_arange(A)).filter(_odd),
            "aiostream": theirs(pipe.filter(_odd)),
        },
        "take": {
            "by hand": lambda: _hand_take(_arange(A), A),
            "lazyfun": lambda: astream(_arange(A)).take(A),
            "aiostream": theirs(pipe.take(A)),
        },
    }


async def _adrain(items: AsyncIterable[Any]) -> None:
    if hasattr(items, "stream"):  # an aiostream pipeline is read inside its context
        async with items.stream() as streamer:
            async for _ in streamer:
                pass
        return
    async for _ in items:
        pass


def _run_async(make: Callable[[], AsyncIterable[Any]]) -> Callable[[], None]:
    """A run that reads a fresh pipeline from ``make`` to its end on an event loop."""
    return lambda: asyncio.run(_adrain(make()))


def _async_overheads(verdicts: list[str]) -> None:
    print(f"async per-item cost over {A:,} items of an async generator, as a ratio to a")
    print("hand-written async for loop doing the same")
    print(f"  {'step':<24}{'by hand':>10}{'lazyfun':>10}{'aiostream':>12}")
    for step, runs in _async_steps().items():
        times = interleaved({name: _run_async(make) for name, make in runs.items()})
        base = times["by hand"]
        ours, theirs = times["lazyfun"] / base, times["aiostream"] / base
        print(f"  {step:<24}{base * 1e9 / A:>8.0f}ns{ours:>9.2f}x{theirs:>11.2f}x")
        verdicts.append(
            verdict(f"async {step}: at most 3x the hand-written loop", ours <= 3, f"{ours:.2f}x")
        )


def _nap(n: int) -> int:
    time.sleep(0.005)
    return n


def _io_bound(verdicts: list[str]) -> None:
    from streamable import Stream as Streamable

    items, workers = 2_000, 32
    ideal = items * 0.005 / workers
    print(f"I/O-bound: {items:,} calls sleeping 5 ms, {workers} at a time (ideal {ideal:.3f} s)")

    def pool_map() -> None:
        with ThreadPoolExecutor(workers) as pool:
            _drain(pool.map(_nap, range(items)))

    runs = {
        "lazyfun": lambda: _drain(stream(range(items)).map(_nap, concurrency=workers)),
        "lazyfun unordered": lambda: _drain(
            stream(range(items)).map(_nap, concurrency=workers, ordered=False)
        ),
        "streamable": lambda: _drain(Streamable(range(items)).map(_nap, concurrency=workers)),
        "ThreadPoolExecutor.map": pool_map,
    }
    times = interleaved(runs)
    for name, elapsed in times.items():
        print(f"  {name:<24}{elapsed:7.3f} s  {ideal / elapsed:6.1%} of ideal")
    share = ideal / times["lazyfun"]
    verdicts.append(
        verdict("I/O-bound map at 90% of the ideal throughput", share >= 0.9, f"{share:.1%}")
    )


def _cheap_on_threads(verdicts: list[str]) -> None:
    from streamable import Stream as Streamable

    items = 100_000
    print(f"a cheap map (identity) on 2 threads, {items:,} items: the cost of concurrency")

    def pool_map() -> None:
        with ThreadPoolExecutor(2) as pool:
            _drain(pool.map(_identity, range(items)))

    runs = {
        "lazyfun": lambda: _drain(stream(range(items)).map(_identity, concurrency=2)),
        "streamable": lambda: _drain(Streamable(range(items)).map(_identity, concurrency=2)),
        "ThreadPoolExecutor.map": pool_map,
        "builtin map": lambda: _drain(map(_identity, range(items))),
    }
    times = interleaved(runs)
    for name, elapsed in times.items():
        print(f"  {name:<24}{elapsed * 1e9 / items:9.0f} ns an item")
    ratio = times["lazyfun"] / times["streamable"]
    verdicts.append(
        verdict(
            "cheap concurrent map: at most a third of streamable's per-item cost",
            ratio <= 1 / 3,
            f"{ratio:.3f} of it",
        )
    )


async def _sleep_a_little(n: int) -> int:
    await asyncio.sleep(0.01)
    return n


def _async(verdicts: list[str]) -> None:
    from aiostream import pipe
    from aiostream import stream as aiostream

    items, limit = 10_000, 200
    ideal = items * 0.01 / limit
    print(f"async: {items:,} coroutines sleeping 10 ms, {limit} at a time (ideal {ideal:.2f} s)")

    async def ours() -> None:
        await astream(range(items)).map(_sleep_a_little, concurrency=limit).count()

    async def theirs() -> None:
        mapped = aiostream.iterate(range(items)) | pipe.map(_sleep_a_little, task_limit=limit)
        async with mapped.stream() as streamer:
            async for _ in streamer:
                pass

    async def by_hand() -> None:
        places = asyncio.Semaphore(limit)

        async def one(n: int) -> int:
            async with places:
                return await _sleep_a_little(n)

        await asyncio.gather(*(one(n) for n in range(items)))

    async def floor() -> None:  # the least any map can do: `limit` loops, no results kept
        numbers = iter(range(items))

        async def worker() -> None:
            for n in numbers:
                await _sleep_a_little(n)

        await asyncio.gather(*(worker() for _ in range(limit)))

    times = interleaved(
        {
            "lazyfun": lambda: asyncio.run(ours()),
            "aiostream": lambda: asyncio.run(theirs()),
            "Semaphore + gather": lambda: asyncio.run(by_hand()),
            f"{limit} bare loops (floor)": lambda: asyncio.run(floor()),
        }
    )
    for name, elapsed in times.items():
        print(f"  {name:<24}{elapsed:7.3f} s  {ideal / elapsed:6.1%} of ideal")
    share = ideal / times["lazyfun"]
    verdicts.append(
        verdict("async map at 75% of the ideal throughput", share >= 0.75, f"{share:.1%}")
    )
    of_floor = times[f"{limit} bare loops (floor)"] / times["lazyfun"]
    verdicts.append(
        verdict(
            "async map at 95% of the throughput of bare loops (the event loop's own floor)",
            of_floor >= 0.95,
            f"{of_floor:.1%}",
        )
    )


HEAD_SECONDS, REST_SECONDS = 1.0, 0.05  # the slow head's call, and every other one


def _slow_head(n: int) -> int:
    time.sleep(HEAD_SECONDS if n == 0 else REST_SECONDS)
    return n


async def _slow_head_async(n: int) -> int:
    await asyncio.sleep(HEAD_SECONDS if n == 0 else REST_SECONDS)
    return n


def _head_of_line(verdicts: list[str]) -> None:
    from aiostream import pipe
    from aiostream import stream as aiostream
    from streamable import Stream as Streamable

    items, limit = 100, 8
    ideal = max(HEAD_SECONDS, (items - 1) * REST_SECONDS / (limit - 1))
    print(
        f"a slow head: {items} calls in order, {limit} at a time, the first {HEAD_SECONDS:g} s "
        f"and the others {REST_SECONDS * 1000:.0f} ms (ideal {ideal:.2f} s); lazyfun with "
        f"ahead={8 * limit}, and without (the default, grown behind the slow head)"
    )

    ahead = 8 * limit  # room for the calls behind the head; the default grows to it

    async def ours() -> None:
        mapped = astream(range(items)).map(_slow_head_async, concurrency=limit, ahead=ahead)
        await mapped.count()

    async def theirs() -> None:
        mapped = aiostream.iterate(range(items)) | pipe.map(_slow_head_async, task_limit=limit)
        async with mapped.stream() as streamer:
            async for _ in streamer:
                pass

    runs = {
        "lazyfun threads": lambda: _drain(
            stream(range(items)).map(_slow_head, concurrency=limit, ahead=ahead)
        ),
        "lazyfun, no ahead=": lambda: _drain(
            stream(range(items)).map(_slow_head, concurrency=limit)
        ),
        "streamable threads": lambda: _drain(
            Streamable(range(items)).map(_slow_head, concurrency=limit)
        ),
        "lazyfun async": lambda: asyncio.run(ours()),
        "aiostream": lambda: asyncio.run(theirs()),
    }
    times = {name: best_of(2, run) for name, run in runs.items()}
    for name, elapsed in times.items():
        print(f"  {name:<24}{elapsed:7.3f} s  {elapsed / ideal:5.2f}x the ideal")
    for name in ("lazyfun threads", "lazyfun async"):
        ratio = times[name] / ideal
        verdicts.append(
            verdict(f"slow head, {name}: within 1.5x of the ideal", ratio <= 1.5, f"{ratio:.2f}x")
        )


STALL_SECONDS, WITHIN = 2.0, 0.5  # how long the source stalls after its first items; the limit


def _stalling() -> Iterable[int]:
    yield from range(3)
    time.sleep(STALL_SECONDS)
    yield from range(3, 5)


async def _stalling_async() -> Any:
    for n in range(3):
        yield n
    await asyncio.sleep(STALL_SECONDS)
    for n in range(3, 5):
        yield n


def _first_list(lists: Iterable[list[int]]) -> float:
    start = time.perf_counter()
    for _ in lists:
        return time.perf_counter() - start
    return float("inf")


async def _first_list_async(lists: Any) -> float:
    start = time.perf_counter()
    async for _ in lists:
        return time.perf_counter() - start
    return float("inf")


def _group_on_time(verdicts: list[str]) -> None:
    from streamable import Stream as Streamable

    print(
        f"group(10, within={WITHIN:g}) over a source that stalls {STALL_SECONDS:g} s after "
        "3 items: when the first list comes"
    )

    def streamable_first() -> float:
        lists = Streamable(_stalling()).group(10, within=timedelta(seconds=WITHIN))
        return _first_list(lists)

    async def plain_async() -> float:
        async with astream(_stalling()).group(10, within=WITHIN) as lists:
            return await _first_list_async(lists)

    async def async_source() -> float:
        async with astream(_stalling_async()).group(10, within=WITHIN) as lists:
            return await _first_list_async(lists)

    def ours() -> float:
        with stream(_stalling()).group(10, within=WITHIN) as lists:
            return _first_list(lists)

    firsts = {
        "lazyfun Stream": ours(),
        "lazyfun AsyncStream, plain source": asyncio.run(plain_async()),
        "lazyfun AsyncStream, async source": asyncio.run(async_source()),
        "streamable": streamable_first(),
    }
    for name, first in firsts.items():
        print(f"  {name:<36}{first:6.2f} s")
    for name in ("lazyfun Stream", "lazyfun AsyncStream, plain source"):
        first = firsts[name]
        verdicts.append(
            verdict(f"group within, {name}: first list by 0.7 s", first <= 0.7, f"{first:.2f} s")
        )


def _memory(verdicts: list[str]) -> None:
    def peak(n: int) -> int:
        tracemalloc.start()
        try:
            _drain(stream(range(n)).map(_identity, concurrency=8))
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    short, long = peak(10**5), peak(10**6)
    print(f"traced peak of map(f, concurrency=8): {short:,} B at 10^5, {long:,} B at 10^6")
    ratio = long / short
    verdicts.append(
        verdict("memory: peak at 10^6 within 1.2x of 10^5", ratio <= 1.2, f"{ratio:.2f}x")
    )


CROSS = 20_000  # items crossing between the sync and the async worlds


def _crossing(verdicts: list[str]) -> None:
    """Items crossing from a plain iterable or a Stream to the event loop, against a
    hand-written ``async for`` over the same items (target: within 3x).  A range is
    read in the loop (nothing there waits); a generator and a file are read on a thread
    and handed over in batches."""
    import os
    import tempfile

    from lazyfun.io import read_lines

    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "lines.txt")
    with open(path, "w") as file:
        file.writelines(f"line {n}\n" for n in range(CROSS))

    async def hand(items: Iterable[Any]) -> int:
        async def each() -> AsyncIterator[Any]:
            for item in items:
                yield item

        return sum([1 async for _ in each()])

    async def over_stream() -> int:
        return sum([1 async for _ in stream(range(CROSS))])

    def numbers() -> Iterator[int]:  # your code, which may wait: read on a thread
        yield from range(CROSS)

    ways: dict[str, tuple[Callable[[], Any], Callable[[], Any]]] = {
        "astream(range).buffer(256).count()": (
            lambda: astream(range(CROSS)).buffer(256).count(),
            lambda: hand(range(CROSS)),
        ),
        "async for over a Stream": (over_stream, lambda: hand(range(CROSS))),
        "read_lines(...).to_async().buffer(256).count()": (
            lambda: read_lines(path).to_async().buffer(256).count(),
            lambda: hand(read_lines(path)),
        ),
    }
    print(f"crossing to the event loop, {CROSS:,} items (best of 5, ms)")
    for name, (ours, theirs) in ways.items():
        mine = best_of(5, lambda ours=ours: asyncio.run(ours()))
        baseline = best_of(5, lambda theirs=theirs: asyncio.run(theirs()))
        verdicts.append(
            verdict(
                f"{name} within 3x of a hand-written async for",
                mine <= 3 * baseline,
                f"{mine * 1000:.1f} ms against {baseline * 1000:.1f} ms: {mine / baseline:.2f}x",
            )
        )
    # measured, no target: the hand-written loop reads the generator in the event loop,
    # which a generator that waits would block; ours reads it on a thread
    mine = best_of(5, lambda: asyncio.run(astream(numbers()).buffer(256).count()))
    baseline = best_of(5, lambda: asyncio.run(hand(numbers())))
    print(
        f"  astream(generator).buffer(256).count(), read on a thread: {mine * 1000:.1f} ms "
        f"against {baseline * 1000:.1f} ms read in the loop ({mine / baseline:.2f}x)"
    )


def _analysed() -> None:
    """What ``explain``'s counts cost: each step with ``analyze=True`` against without,
    sync steps over ``N`` items, async ones over an async generator of ``A``."""
    xs = range(N)

    def later(make: Callable[[bool], AsyncIterable[Any]]) -> Callable[[bool], object]:
        return lambda on: asyncio.run(_adrain(make(on)))

    steps: dict[str, tuple[int, Callable[[bool], object]]] = {
        "map": (N, lambda on: _drain(stream(xs, analyze=on).map(_identity))),
        "filter": (N, lambda on: _drain(stream(xs, analyze=on).filter(_odd))),
        "flatmap": (N, lambda on: _drain(stream(xs, analyze=on).flatmap(_single))),
        "take": (N, lambda on: _drain(stream(xs, analyze=on).take(N))),
        "do": (N, lambda on: _drain(stream(xs, analyze=on).do(_identity))),
        "group(100)": (N, lambda on: _drain(stream(xs, analyze=on).group(100))),
        "catch, no error": (N, lambda on: _drain(stream(xs, analyze=on).catch(ValueError))),
        "throttle, never reached": (
            N,
            lambda on: _drain(stream(xs, analyze=on).throttle(10**9, per=1.0)),
        ),
        "map(concurrency=2)": (
            N,
            lambda on: _drain(stream(xs, analyze=on).map(_identity, concurrency=2)),
        ),
        "async map": (A, later(lambda on: astream(_arange(A), analyze=on).map(_identity))),
        "async filter": (A, later(lambda on: astream(_arange(A), analyze=on).filter(_odd))),
        "async take": (A, later(lambda on: astream(_arange(A), analyze=on).take(A))),
        "async chunked(100)": (
            A,
            later(lambda on: astream(_arange(A), analyze=on).chunked(100)),
        ),
    }
    print("explain's counts: a stream with analyze=True against without, per item")
    print(f"  {'step':<24}{'without':>10}{'analysed':>10}{'ratio':>8}{'per item and stage':>20}")
    for step, (n, run) in steps.items():
        times = interleaved({"without": partial(run, False), "analysed": partial(run, True)})
        extra = (times["analysed"] - times["without"]) * 1e9 / n / 2  # the source and the step
        print(
            f"  {step:<24}{times['without'] * 1e9 / n:>8.0f}ns{times['analysed'] * 1e9 / n:>8.0f}ns"
            f"{times['analysed'] / times['without']:>7.1f}x{extra:>18.0f}ns"
        )


def main() -> list[str]:
    verdicts: list[str] = []
    _crossing(verdicts)
    _overheads(verdicts)
    _analysed()
    _async_overheads(verdicts)
    first_walk(verdicts)
    _io_bound(verdicts)
    _cheap_on_threads(verdicts)
    _async(verdicts)
    _head_of_line(verdicts)
    _group_on_time(verdicts)
    _memory(verdicts)
    return verdicts
