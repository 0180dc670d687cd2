"""Behaviours the peers' own test suites hold a pipeline to (streamable's, re-expressed
here for the Stream): an error never ends more than its item, ``stop`` means stop, no
step keeps an error alive, logging never breaks the work, and the sources people use."""

from __future__ import annotations

import asyncio
import gc
import io
import logging
import queue
import random
import sys
import threading
import time
import weakref
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from datetime import timedelta
from typing import Any, cast

import pytest

from lazyfun import AsyncStream, Stream, StreamConsumedError, astream, stream
from lazyfun.parallel.runners import ParallelError
from lazyfun.streams.sync import flow


class Inner:
    """An iterator object that raises on its second item and goes on after it."""

    def __init__(self) -> None:
        self.n = 0

    def __iter__(self) -> Iterator[int]:
        return self

    def __next__(self) -> int:
        self.n += 1
        if self.n == 2:
            raise ValueError("second")
        if self.n > 4:
            raise StopIteration
        return self.n


def test_an_inner_iterator_that_raises_is_read_on_after_the_error() -> None:
    got = stream([0, 1]).flatmap(lambda _: Inner()).catch(ValueError, replace=str).to_list()
    assert got == [1, "second", 3, 4, 1, "second", 3, 4]


def test_an_inner_generator_that_raises_ends_there_and_the_next_item_follows() -> None:
    def inner(n: int) -> Iterator[int]:
        yield n
        raise ValueError(n)

    got = stream([10, 20]).flatmap(inner).catch(ValueError, replace=lambda e: -1).to_list()
    assert got == [10, -1, 20, -1]


def test_stop_ends_the_stream_after_the_first_caught_error_whatever_else_is_set() -> None:
    def parse() -> Stream[int]:
        return stream(["1", "x", "3", "y", "5"]).map(int)

    assert parse().catch(ValueError, replace=lambda e: -1, stop=True).to_list() == [1, -1]
    seen: list[str] = []
    assert parse().catch(ValueError, do=lambda e: seen.append("x"), stop=True).to_list() == [1]
    assert seen == ["x"]

    def failing(error: BaseException) -> int:
        raise KeyError("in replace")

    caught = parse().catch(ValueError, replace=failing, stop=True)
    items = iter(caught)
    assert next(items) == 1
    with pytest.raises(KeyError):
        next(items)
    assert list(items) == []  # stopped: nothing after the error


class Marked(Exception):
    """An error that can be watched with a weak reference."""


def _raise_marked(n: int) -> int:
    if n == 3:
        raise Marked(n)
    return n


@pytest.mark.parametrize(
    "build",
    [
        lambda: stream(range(6)).map(_raise_marked).buffer(2),
        lambda: stream(range(6)).map(_raise_marked, concurrency=2),
        lambda: stream(range(6)).map(_raise_marked).chunked(4),
        lambda: stream(range(6)).map(_raise_marked).group(4, within=60),
        lambda: stream(range(6)).map(_raise_marked).take(5),
        lambda: stream(range(6)).map(_raise_marked).catch(KeyError),
        lambda: stream(range(6)).map(_raise_marked).catch(Marked, where=lambda error: False),
        lambda: stream(range(6)).map(_raise_marked).throttle(10**6, per=1.0),
    ],
    ids=[
        "buffer",
        "concurrent",
        "chunked",
        "group-within",
        "take",
        "catch",
        "catch-where",
        "throttle",
    ],
)
def test_no_step_keeps_an_error_alive_after_passing_it_on(
    build: Callable[[], Stream[Any, Any]],
) -> None:
    """With the collector off, an error is freed once nobody holds it: no step keeps it
    in a reference cycle (its frames and all) after passing it on."""

    def errors_passed(items: Iterator[int]) -> list[weakref.ref[Marked]]:
        watched = []
        while True:
            try:
                next(items)
            except Marked as error:
                watched.append(weakref.ref(error))
            except StopIteration:
                return watched

    gc.collect()
    gc.disable()
    try:
        watched = errors_passed(iter(build()))
        assert watched and all(ref() is None for ref in watched)
    finally:
        gc.enable()


def test_catch_keeps_no_error_it_recovered_alive() -> None:
    watched: list[weakref.ref[Marked]] = []

    def watch(error: Marked) -> None:
        watched.append(weakref.ref(error))

    gc.collect()
    gc.disable()
    try:
        caught = stream(range(6)).map(_raise_marked).catch(Marked, do=watch, replace=lambda e: -1)
        assert caught.to_list() == [0, 1, 2, -1, 4, 5]
        assert watched and all(ref() is None for ref in watched)
    finally:
        gc.enable()


def test_a_log_handler_that_raises_never_breaks_the_pipeline() -> None:
    class Broken(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            raise OSError("the disk is full")

        def handleError(self, record: logging.LogRecord) -> None:
            raise OSError("and so is the error log")

    logger = logging.getLogger("lazyfun.test.broken")
    logger.addHandler(Broken())
    logger.setLevel(logging.INFO)
    logger.propagate = False
    assert stream(range(100)).observe("numbers", logger).count() == 100


def test_filter_without_a_predicate_keeps_the_true_items() -> None:
    assert stream([0, 1, "", "a", None, [], [0]]).filter().to_list() == [1, "a", [0]]
    assert stream([0, 2, 0, 3]).filter(concurrency=2).to_list() == [2, 3]


def test_an_async_iterable_is_read_synchronously() -> None:
    closed: list[bool] = []

    async def numbers() -> AsyncIterator[int]:
        try:
            for n in range(10):
                yield n
        finally:
            closed.append(True)

    assert stream(numbers()).map(lambda n: n * n).take(3).to_list() == [0, 1, 4]
    assert stream(numbers()).sum() == 45
    assert closed  # the Stream's own loop ended, its generators closed


def test_a_function_called_until_it_signals_the_end() -> None:
    lines = io.StringIO("a\nb\nc\n")
    assert stream(lines.readline, until="").map(str.strip).to_list() == ["a", "b", "c"]
    with pytest.raises(TypeError, match="needs a function"):
        stream([1, 2], until=None)  # type: ignore[call-overload]


# --- concurrent steps: every item and error the chain hands on, and no error kept -------


class MarkedSource(Iterator[int]):
    """``range(6)``, raising ``Marked`` instead of 3 and going on (as a Stream step does)."""

    def __init__(self) -> None:
        self.n = -1

    def __next__(self) -> int:
        self.n += 1
        if self.n == 3:
            raise Marked(self.n)
        if self.n >= 6:
            raise StopIteration
        return self.n


class MarkedInner(Iterator[int]):
    """An inner iterator ``[n, Marked, n]`` (on n == 3): it goes on after its error."""

    def __init__(self, n: int) -> None:
        self.n, self.reads = n, 0

    def __next__(self) -> int:
        self.reads += 1
        if self.reads == 2 and self.n == 3:
            raise Marked(self.n)
        if self.reads > 3:
            raise StopIteration
        return self.n


def _marked_list(n: int) -> list[int]:
    return [_raise_marked(n)]


def _kept(n: int) -> bool:
    return _raise_marked(n) >= 0


CONCURRENT_STEPS: dict[
    tuple[str, str], Callable[[Stream[int, Any], dict[str, Any]], Stream[Any, Any]]
] = {  # where the error comes from: the source, the function, an inner iterable
    ("map", "source"): lambda s, kw: s.map(abs, **kw),
    ("map", "function"): lambda s, kw: s.map(_raise_marked, **kw),
    ("filter", "source"): lambda s, kw: s.filter(abs, **kw),
    ("filter", "function"): lambda s, kw: s.filter(_kept, **kw),
    ("do", "source"): lambda s, kw: s.do(abs, **kw),
    ("do", "function"): lambda s, kw: s.do(_raise_marked, **kw),
    ("flatmap", "source"): lambda s, kw: s.flatmap(lambda n: [n], **kw),
    ("flatmap", "function"): lambda s, kw: s.flatmap(_marked_list, **kw),
    ("flatmap", "inner"): lambda s, kw: s.flatmap(MarkedInner, **kw),
}


def _source(where: str) -> Iterator[int]:
    return MarkedSource() if where == "source" else iter(range(6))


# An error raised on a worker thread reaches the consumer while that thread may still be
# leaving the frame that caught it: freed means gone within a second, the stream still
# alive (a step that kept it would keep it until the stream went).
FREED_WAITS = 100


def _freed(error: weakref.ref[Marked]) -> bool:
    """Whether the error behind ``error`` is gone within ``FREED_WAITS`` looks."""
    for _ in range(FREED_WAITS):
        if error() is None:
            return True
        time.sleep(0.01)
    return False


@pytest.mark.parametrize("ordered", [True, False], ids=["ordered", "as-completed"])
@pytest.mark.parametrize(("step", "where"), sorted(CONCURRENT_STEPS))
def test_a_concurrent_step_keeps_no_error_the_consumer_dropped(
    step: str, where: str, ordered: bool
) -> None:
    """With the collector off, an error the consumer caught and dropped is freed while
    the stream is still alive, as a sequential step frees it (the window kept an error
    read from the source in a cycle, with every frame it passed, until the stream went)."""
    build = CONCURRENT_STEPS[step, where]
    gc.collect()
    gc.disable()
    try:
        items = iter(build(stream(_source(where)), {"concurrency": 2, "ordered": ordered}))
        watched = []
        while True:
            try:
                next(items)
            except Marked as error:
                watched.append(weakref.ref(error))
            except StopIteration:
                break
            if watched:
                assert _freed(watched[0])  # dropped: freed, the stream still alive
        assert len(watched) == 1
    finally:
        gc.enable()


@pytest.mark.parametrize("ordered", [True, False], ids=["ordered", "as-completed"])
@pytest.mark.parametrize(("step", "where"), sorted(CONCURRENT_STEPS))
def test_a_concurrent_async_step_keeps_no_error_the_consumer_dropped(
    step: str, where: str, ordered: bool
) -> None:
    build = CONCURRENT_STEPS[step, where]

    async def main() -> list[weakref.ref[Marked]]:
        items = aiter(build(astream(_source(where)), {"concurrency": 2, "ordered": ordered}))
        watched = []
        while True:
            try:
                await anext(items)
            except Marked as error:
                watched.append(weakref.ref(error))
            except StopAsyncIteration:
                return watched
            if watched:
                for _ in range(FREED_WAITS):  # the loop runs the callbacks that let go of it
                    if watched[0]() is None:
                        break
                    await asyncio.sleep(0.01)
                assert watched[0]() is None  # dropped: freed, the stream still alive

    gc.collect()
    gc.disable()
    try:
        assert len(asyncio.run(main())) == 1
    finally:
        gc.enable()


def test_the_reproducer_of_an_error_kept_by_a_live_concurrent_map() -> None:
    gc.collect()
    gc.disable()
    try:
        items = iter(stream(map(int, "123-")).map(abs, concurrency=2))
        assert [next(items), next(items), next(items)] == [1, 2, 3]
        dropped = 0
        try:
            next(items)
        except ValueError as error:
            dropped = id(error)
        assert dropped
        assert all(id(thing) != dropped for thing in gc.get_objects())
        assert list(items) == []
    finally:
        gc.enable()


# streamable's "0" elements fail upstream (a TypeError: not iterable), each "-" inside
ELEMENTS: list[Any] = ["0-1", "234", "", "", "---", "---", 0, 0, "-5-"]


def _digits(chars: Any) -> Iterator[int]:
    return map(int, chars)


@pytest.mark.parametrize("ordered", [True, False], ids=["ordered", "as-completed"])
@pytest.mark.parametrize("concurrency", [None, 1, 2])
def test_a_flatmap_is_resilient_to_upstream_and_inner_errors(
    concurrency: int | None, ordered: bool
) -> None:
    """streamable's flatten test: every item of every inner iterator, every ValueError
    of an inner read (one each "-": the iterator is read on after it), and every
    TypeError of the upstream map (a number is no iterable), in a Stream and an
    AsyncStream, sequential and concurrent."""
    dashes = "".join(e for e in ELEMENTS if isinstance(e, str)).count("-")
    numbers = sum(not isinstance(e, str) for e in ELEMENTS)
    kw: dict[str, Any] = {"concurrency": concurrency, "ordered": ordered}

    def caught(chain: Any, values: list[Exception], types: list[Exception]) -> Any:
        return chain.catch(ValueError, do=values.append).catch(TypeError, do=types.append)

    values: list[Exception] = []
    types: list[Exception] = []
    flat = stream(ELEMENTS).map(_digits).flatmap(lambda inner: inner, **kw)
    got = caught(flat, values, types).to_list()
    assert (len(values), len(types)) == (dashes, numbers)
    assert (got if ordered else sorted(got)) == list(range(6))

    async def main(wrap: Any) -> list[int]:
        flat = astream(ELEMENTS).map(_digits).map(wrap).flatmap(lambda inner: inner, **kw)
        return list(await caught(flat, avalues, atypes).to_list())

    for wrap in (lambda inner: inner, _aiter_of):
        avalues: list[Exception] = []
        atypes: list[Exception] = []
        agot = asyncio.run(main(wrap))
        assert (len(avalues), len(atypes)) == (dashes, numbers)
        assert (agot if ordered else sorted(agot)) == list(range(6))


class _AsyncOf:
    """A sync iterator as an async one that goes on after an error too."""

    def __init__(self, items: Iterator[int]) -> None:
        self.items = items

    def __aiter__(self) -> _AsyncOf:
        return self

    async def __anext__(self) -> int:
        try:
            return next(self.items)
        except StopIteration:
            raise StopAsyncIteration from None


def _aiter_of(items: Iterator[int]) -> _AsyncOf:
    return _AsyncOf(items)


# --- streamable's suite, step by step, in both modes ------------------------------------
#
# Each test names the streamable test it re-expresses ("streamable: test_x").  A Stream
# (``stream``) is read with ``next``, an AsyncStream (``astream``) with ``anext`` on a
# loop of the test's own; ``read`` drains either, an error as its type at its place.
# Where lazyfun made another documented choice (docs/pipelines.md), the test holds
# lazyfun's choice and says so.

MODES = ["sync", "async"]


def make(mode: str, items: Any) -> Stream[Any, Any]:
    """The stream of ``items`` in ``mode``."""
    return stream(items) if mode == "sync" else astream(items)


def adapt(mode: str, f: Callable[..., Any]) -> Callable[..., Any]:
    """``f`` as it is for a Stream, as a coroutine function for an AsyncStream (which
    takes both: every function given to an async step may be either)."""
    if mode == "sync":
        return f

    async def awaited(*args: Any) -> Any:
        return f(*args)

    return awaited


def read(s: Any, limit: int | None = None) -> list[Any]:
    """The items of ``s`` (a Stream or an AsyncStream) to its end (or ``limit`` reads),
    each error as its type, at its place: an error never ends the reading."""
    if isinstance(s, cast(type, AsyncStream)):
        return asyncio.run(_aread(aiter(cast(Any, s)), limit))
    items, got = iter(s), list[Any]()
    while limit is None or len(got) < limit:
        try:
            got.append(next(items))
        except StopIteration:
            break
        except Exception as error:
            got.append(type(error))
    return got


async def _aread(items: AsyncIterator[Any], limit: int | None) -> list[Any]:
    got = list[Any]()
    while limit is None or len(got) < limit:
        try:
            got.append(await anext(items))
        except StopAsyncIteration:
            break
        except Exception as error:
            got.append(type(error))
    return got


def _inverse(n: float) -> float:
    return 1 / n


def _sleepy(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


async def _asleepy(seconds: float) -> float:
    await asyncio.sleep(seconds)
    return seconds


# --- map ------------------------------------------------------------------------------


@pytest.mark.parametrize("concurrency", [1, 2, 64])
@pytest.mark.parametrize("mode", MODES)
def test_map_keeps_the_input_order_whatever_the_calls_take(mode: str, concurrency: int) -> None:
    # streamable: test_map_preserves_order
    delays = random.Random(concurrency).choices([0.0, 0.0005, 0.001], k=48)
    f = _sleepy if mode == "sync" else _asleepy
    got = read(make(mode, delays).map(f, concurrency=concurrency))
    assert got == delays


@pytest.mark.parametrize("mode", MODES)
def test_map_as_completed_gives_the_first_call_done_first(mode: str) -> None:
    # streamable: test_map_concurrency_ordering (an event where it sleeps a second)
    if mode == "sync":
        let_go = threading.Event()

        def call(n: int) -> int:
            if n == 0:
                assert let_go.wait(30)
            return n

        items = iter(stream(range(3)).map(call, concurrency=2, ordered=False, chunksize=1))
        assert next(items) == 1  # item 0's call is held: item 1's comes out first
        let_go.set()
        assert sorted(items) == [0, 2]
        return

    async def main() -> tuple[int, list[int]]:
        let_go = asyncio.Event()

        async def call(n: int) -> int:
            if n == 0:
                await asyncio.wait_for(let_go.wait(), 30)
            return n

        items = aiter(astream(range(3)).map(call, concurrency=2, ordered=False))
        first = await anext(items)
        let_go.set()
        return first, sorted([n async for n in items])

    assert asyncio.run(main()) == (1, [0, 2])


@pytest.mark.parametrize("ordered", [True, False], ids=["ordered", "as-completed"])
@pytest.mark.parametrize("concurrency", [None, 2])
@pytest.mark.parametrize("mode", MODES)
def test_map_errors_upstream_or_in_the_function_keep_their_place(
    mode: str, concurrency: int | None, ordered: bool
) -> None:
    # streamable: test_map_with_errors
    def finish(s: Stream[Any, Any]) -> list[Any]:
        got = read(s.catch(ZeroDivisionError, replace=lambda error: "inf"))
        return got if ordered else sorted(got, key=str)

    expected = ["inf", 1.0, "inf", 0.5, "inf"]
    if not ordered:
        expected = sorted(expected, key=str)
    upstream = make(mode, [0, 1, 0, 2, 0]).map(_inverse)
    assert finish(upstream.map(abs, concurrency=concurrency, ordered=ordered)) == expected
    inside = make(mode, [0, 1, 0, 2, 0])
    assert finish(inside.map(_inverse, concurrency=concurrency, ordered=ordered)) == expected


@pytest.mark.parametrize("concurrency", [None, 1, 2, 4])
@pytest.mark.parametrize("mode", MODES)
def test_map_reads_at_most_concurrency_plus_one_ahead(mode: str, concurrency: int | None) -> None:
    # streamable: test_map_concurrent_buffersize.  streamable's concurrency=1 is the
    # sequential map, which reads one item for one; lazyfun's is a concurrent step of one
    # call at a time, which reads ahead like any other: at most `ahead` tasks read and not
    # handed on (docs/pipelines.md: "`ahead=k` lets the step hold up to `k` tasks"; a task
    # is one item here), so past the item handed on the test holds that bound
    pulled: list[int] = []
    kw: dict[str, Any] = {}
    if concurrency is not None:
        kw = {"concurrency": concurrency, "ahead": concurrency + 1}
    if mode == "sync":
        if concurrency is not None:
            kw["chunksize"] = 1
        assert next(iter(stream(range(20)).do(pulled.append).map(abs, **kw))) == 0
        time.sleep(0.01)
    else:

        async def main() -> int:
            items = aiter(astream(_agen(range(20))).do(pulled.append).map(abs, **kw))
            first = await anext(items)
            await asyncio.sleep(0.01)  # the tasks started have read what they read
            return first

        assert asyncio.run(main()) == 0
    if concurrency is None:
        assert pulled == [0]
    else:
        assert 1 <= len(pulled) - 1 <= concurrency + 1


@pytest.mark.parametrize("step", ["map", "do", "filter", "flatmap"])
@pytest.mark.parametrize("mode", MODES)
def test_a_concurrency_below_one_is_refused_at_the_call(mode: str, step: str) -> None:
    # streamable: test_validate_concurrency
    with pytest.raises(ValueError):
        getattr(make(mode, [1]), step)(lambda n: [n], concurrency=0)


def test_a_process_pool_runs_the_function_in_other_processes() -> None:
    # streamable: test_do_with_process_pool, test_map_example_process_concurrency
    state: list[int] = []
    assert stream(range(10)).do(state.append, via="process", concurrency=2).to_list() == list(
        range(10)
    )
    assert state == []  # appended to in the workers' copies, not here


def test_a_function_that_cannot_travel_to_a_process_is_refused_at_the_call() -> None:
    # streamable: test_process_concurrency_raises_on_unserializable_functions (lazyfun
    # refuses it when the step is made, not at the first read: docs/pipelines.md, `via=`)
    def local(n: int) -> int:
        return n

    for f in (lambda n: n, local):
        with pytest.raises(ParallelError):
            stream(range(3)).map(f, via="process", concurrency=2)


# --- do, filter -----------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_do_sees_every_item_and_hands_it_on_unchanged(mode: str) -> None:
    # streamable: test_do
    seen: set[int] = set()
    got = read(make(mode, range(50)).do(adapt(mode, seen.add), concurrency=2))
    assert got == list(range(50))
    assert seen == set(range(50))


@pytest.mark.parametrize("mode", MODES)
def test_filter_is_builtin_filter(mode: str) -> None:
    # streamable: test_filter
    def odd(n: int) -> int:
        return n % 2

    assert read(make(mode, range(20)).filter(adapt(mode, odd))) == list(filter(odd, range(20)))
    assert read(make(mode, [0, 1, 2, 0]).filter()) == [1, 2]


# --- flatmap --------------------------------------------------------------------------


async def _agen(items: Iterable[int]) -> AsyncIterator[int]:
    for item in items:
        yield item


RUNS = [range(4), range(4, 5), range(5, 8), range(8, 10)]


@pytest.mark.parametrize("inner", ["plain", "async"])
@pytest.mark.parametrize("mode", MODES)
def test_flatmap_gives_the_items_in_nested_loop_order(mode: str, inner: str) -> None:
    # streamable: test_flatten_without_concurrency
    if mode == "sync" and inner == "async":
        pytest.skip("a Stream's flatmap takes iterables (an async one: the test below)")
    wrap: Callable[[range], Any] = (lambda run: run) if inner == "plain" else _agen
    assert read(make(mode, RUNS).flatmap(wrap)) == list(range(10))


@pytest.mark.parametrize("inner", ["plain", "async"])
@pytest.mark.parametrize("mode", MODES)
def test_a_concurrent_flatmap_in_order_keeps_each_inner_run_together(mode: str, inner: str) -> None:
    # streamable: test_flatten_with_concurrency, test_flatten_on_async_iterables,
    # test_flatten_example.  streamable interleaves the runs read at once; lazyfun's
    # ordered flatmap gives the first run's items, then the next one's (docs/pipelines.md:
    # "in order, the first one's items come as they arrive while the later ones read
    # ahead"), and with ordered=False every item as it arrives
    if mode == "sync" and inner == "async":
        pytest.skip("a Stream's flatmap takes iterables (an async one: the test below)")
    wrap: Callable[[range], Any] = (lambda run: run) if inner == "plain" else _agen
    assert read(make(mode, RUNS).flatmap(wrap, concurrency=2)) == list(range(10))
    unordered = read(make(mode, RUNS).flatmap(wrap, concurrency=2, ordered=False))
    assert sorted(unordered) == list(range(10))
    assert read(make(mode, ["hel", "lo", "!"]).flatmap(iter, concurrency=2)) == list("hello!")


def _itself(x: Any) -> Any:
    return x


@pytest.mark.parametrize("concurrency", [None, 2])
@pytest.mark.parametrize("mode", MODES)
def test_flatmap_of_something_not_iterable_is_an_error_at_its_place(
    mode: str, concurrency: int | None
) -> None:
    # streamable: test_flatten_on_non_iterable
    got = read(make(mode, [1, [1]]).flatmap(_itself, concurrency=concurrency))
    assert got == [TypeError, 1]


@pytest.mark.parametrize("concurrency", [None, 2])
def test_a_streams_flatmap_of_async_iterables_is_an_error_at_each(concurrency: int | None) -> None:
    # streamable: test_flatten_on_async_iterables (the sync half: refused, and read on)
    got = read(stream([_agen([0, 1]), [2]]).flatmap(_itself, concurrency=concurrency))
    assert got == [TypeError, 2]


# --- group, chunked -------------------------------------------------------------------


def _parity(n: int) -> int:
    return n % 2


def _char_parity(c: str) -> int:
    return int(c) % 2


AFTER = [(0, ["6", "8"]), (1, ["7", "9"])]  # the lists after the error, by key
GROUP_CASES: dict[str, tuple[Callable[[str], Stream[Any, Any]], int, Any, list[Any]]] = {
    "empty": (lambda m: make(m, []), 4, None, []),
    "full": (lambda m: make(m, range(10)), 2, None, [[0, 1], [2, 3], [4, 5], [6, 7], [8, 9]]),
    "last-short": (lambda m: make(m, range(10)), 4, None, [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]),
    "last-single": (lambda m: make(m, range(10)), 3, None, [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]),
    "upstream-error": (
        lambda m: make(m, "01-23456789").map(int),
        3,
        None,
        [[0, 1], ValueError, [2, 3, 4], [5, 6, 7], [8, 9]],
    ),
    "by": (
        lambda m: make(m, range(10)),
        2,
        _parity,
        [(0, [0, 2]), (1, [1, 3]), (0, [4, 6]), (1, [5, 7]), (0, [8]), (1, [9])],
    ),
    "by-upstream-error": (
        lambda m: make(m, "01-23456789").map(int),
        2,
        _parity,
        [(0, [0]), (1, [1]), ValueError, (0, [2, 4]), (1, [3, 5]), (0, [6, 8]), (1, [7, 9])],
    ),
    "by-key-error": (
        lambda m: make(m, "01-23456789"),
        2,
        _char_parity,
        [(0, ["0"]), (1, ["1"]), ValueError, (0, ["2", "4"]), (1, ["3", "5"]), *AFTER],
    ),
}


@pytest.mark.parametrize("case", sorted(GROUP_CASES))
@pytest.mark.parametrize("mode", MODES)
def test_group_cases(mode: str, case: str) -> None:
    # streamable: test_group_cases (those without time): an error, upstream or of the key,
    # first flushes every open list, oldest first (docs/pipelines.md: "the batches seen
    # before an error hold exactly the items read before it")
    source, size, by, expected = GROUP_CASES[case]
    key = None if by is None else adapt(mode, by)
    assert read(source(mode).group(size, by=key)) == expected


@pytest.mark.parametrize("mode", MODES)
def test_a_key_error_with_stop_keeps_the_lists_read_before_it(mode: str) -> None:
    # streamable: test_group_cases ("by with by exception"): a stop right after the first
    # error still sees every item read before it
    grouped = make(mode, "01-23").group(2, by=_char_parity).catch(ValueError, stop=True)
    assert read(grouped) == [(0, ["0"]), (1, ["1"])]


@pytest.mark.parametrize("mode", MODES)
def test_group_refuses_a_size_or_a_time_that_is_not_positive(mode: str) -> None:
    # streamable: test_group_raises_on_non_positive, test_group_raises_on_non_positive_up_to.
    # streamable's group() alone is one list of everything; lazyfun's needs a bound
    # (docs/pipelines.md: "group(size, within=seconds, by=key)")
    for size in (0, -1):
        with pytest.raises(ValueError):
            make(mode, [1]).group(size)
    for within in (0, -1.0, timedelta(), timedelta(days=-1)):
        with pytest.raises(ValueError):
            make(mode, [1]).group(100, within=within)
    with pytest.raises(ValueError):
        make(mode, [1]).group()


def _ticking(pulled: list[int]) -> Iterator[int]:
    """0, 1, 2, ... one every 10 ms, each noted as it is read."""
    n = 0
    while True:
        time.sleep(0.01)
        pulled.append(n)
        yield n
        n += 1


async def _aticking(pulled: list[int]) -> AsyncIterator[int]:
    n = 0
    while True:
        await asyncio.sleep(0.01)
        pulled.append(n)
        yield n
        n += 1


@pytest.mark.parametrize("within", [0.05, 0.002])
@pytest.mark.parametrize("mode", MODES)
def test_group_within_reads_nothing_while_the_consumer_holds_a_list(
    mode: str, within: float
) -> None:
    # streamable: test_group_within_does_not_pull_ahead_of_consumption and
    # test_group_within_does_not_pull_ahead_of_consumption_on_timeout (within=0.002):
    # past the lists handed on, at most an item that came after its list's time was up
    # (it opens the next list: docs/pipelines.md) and the read in progress
    pulled: list[int] = []
    if mode == "sync":
        with stream(_ticking(pulled)).group(within=within) as grouped:
            items = iter(grouped)
            lists = [next(items), next(items), next(items)]
            time.sleep(0.1)
    else:

        async def main() -> list[list[int]]:
            async with astream(_aticking(pulled)).group(within=within) as grouped:
                items = aiter(grouped)
                lists = [await anext(items), await anext(items), await anext(items)]
                await asyncio.sleep(0.1)
                return lists

        lists = asyncio.run(main())
    handed = [n for gathered in lists for n in gathered]
    assert handed == list(range(len(handed)))
    assert len(pulled) <= len(handed) + 2


# --- take, drop (streamable's skip), takewhile, dropwhile -------------------------------

TAKE_CASES: dict[str, tuple[Callable[[str], Stream[Any, Any]], str, Any, list[Any]]] = {
    "take-empty": (lambda m: make(m, []), "take", 1, []),
    "take-none": (lambda m: make(m, range(9)), "take", 0, []),
    "take-one": (lambda m: make(m, range(9)), "take", 1, [0]),
    "take-two": (lambda m: make(m, range(9)), "take", 2, [0, 1]),
    "take-all": (lambda m: make(m, range(9)), "take", 9, list(range(9))),
    "take-more": (lambda m: make(m, range(9)), "take", sys.maxsize, list(range(9))),
    "take-errors-uncounted": (lambda m: make(m, "1-2-3-4").map(int), "take", 3, [1, 2, 3]),
    "takewhile": (lambda m: make(m, "1234-56"), "takewhile", lambda c: c != "-", list("1234")),
    "takewhile-errors": (
        lambda m: make(m, "1-2-3-4"),
        "takewhile",
        lambda c: int(c) != 4,
        ["1", "2", "3"],
    ),
    "drop-empty": (lambda m: make(m, []), "drop", 0, []),
    "drop-none": (lambda m: make(m, range(9)), "drop", 0, list(range(9))),
    "drop-one": (lambda m: make(m, range(9)), "drop", 1, list(range(1, 9))),
    "drop-all": (lambda m: make(m, range(9)), "drop", 9, []),
    "drop-more": (lambda m: make(m, range(9)), "drop", sys.maxsize, []),
    "drop-errors-uncounted": (lambda m: make(m, "1-2-3-4").map(int), "drop", 3, [4]),
    "dropwhile": (lambda m: make(m, "1234-56"), "dropwhile", lambda c: c != "-", list("-56")),
    "dropwhile-errors": (
        lambda m: make(m, "1-2-3-4"),
        "dropwhile",
        lambda c: int(c) != 2,
        ["2", "-", "3", "-", "4"],
    ),
}


@pytest.mark.parametrize("case", sorted(TAKE_CASES))
@pytest.mark.parametrize("mode", MODES)
def test_take_and_drop_cases(mode: str, case: str) -> None:
    # streamable: test_take_cases, test_skip_cases (its until=predicate is takewhile and
    # dropwhile of the opposite predicate): errors upstream or of the predicate are not
    # counted and pass on
    source, step, arg, expected = TAKE_CASES[case]
    arg = adapt(mode, arg) if callable(arg) else arg
    assert read(getattr(source(mode), step)(arg).catch(ValueError)) == expected


@pytest.mark.parametrize("step", ["take", "takewhile"])
@pytest.mark.parametrize("mode", MODES)
def test_a_take_that_ended_stays_ended(mode: str, step: str) -> None:
    # streamable: test_take_additional_nexts
    made = make(mode, range(10))
    taken = made.take(2) if step == "take" else made.takewhile(lambda n: n != 2)
    if mode == "sync":
        items = iter(taken)
        assert [next(items), next(items)] == [0, 1]
        for _ in range(2):
            with pytest.raises(StopIteration):
                next(items)
        return

    async def main() -> None:
        items = aiter(taken)
        assert [await anext(items), await anext(items)] == [0, 1]
        for _ in range(2):
            with pytest.raises(StopAsyncIteration):
                await anext(items)

    asyncio.run(main())


@pytest.mark.parametrize("mode", MODES)
def test_take_and_drop_refuse_a_negative_count(mode: str) -> None:
    # streamable: test_take_raises_on_negative_limit, test_skip_raises_on_negative_until
    for step in ("take", "drop"):
        with pytest.raises(ValueError):
            getattr(make(mode, [1]), step)(-1)


# --- catch ----------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_catch_hands_on_a_stream_without_errors_unchanged(mode: str) -> None:
    # streamable: test_catch_yields_elements_without_exceptions
    assert read(make(mode, range(20)).catch(Exception)) == list(range(20))


@pytest.mark.parametrize("mode", MODES)
def test_catch_drops_the_errors_it_matches_and_passes_the_others_on(mode: str) -> None:
    # streamable: test_catch_ignores_matching_exceptions, test_catch_raises_non_matching_exceptions
    assert read(make(mode, "12-34").map(int).catch(ValueError)) == [1, 2, 3, 4]
    got = read(make(mode, "1-2034").map(int).do(_inverse).catch(ValueError))
    assert got == [1, 2, ZeroDivisionError, 3, 4]


@pytest.mark.parametrize("mode", MODES)
def test_catch_goes_through_thousands_of_errors_in_a_row(mode: str) -> None:
    # streamable: test_catch_handles_thousands_of_consecutive_exceptions
    def fail(n: int) -> int:
        raise KeyError(n)

    assert read(make(mode, range(2000)).map(fail).catch(KeyError)) == []


@pytest.mark.parametrize("mode", MODES)
def test_catch_chained_or_of_several_types(mode: str) -> None:
    # streamable: test_catch_chained, test_catch_tuple
    def parsed() -> Stream[Any, Any]:
        return make(mode, "1-2034").map(int).do(_inverse)

    assert read(parsed().catch(ValueError).catch(ZeroDivisionError)) == [1, 2, 3, 4]
    assert read(parsed().catch(ValueError, ZeroDivisionError)) == [1, 2, 3, 4]


@pytest.mark.parametrize("mode", MODES)
def test_catch_where_picks_the_errors(mode: str) -> None:
    # streamable: test_catch_where (on what the error carries, not on a library's wording)
    def parse(char: str) -> int:
        if not char.isdigit():
            raise Marked("dash" if char == "-" else "other")
        return int(char)

    def dash(error: Marked) -> bool:
        return error.args == ("dash",)

    caught = make(mode, "0?1-2").map(parse).catch(Marked, where=adapt(mode, dash))
    assert read(caught) == [0, Marked, 1, 2]  # the dash's error caught, the other one not


@pytest.mark.parametrize("mode", MODES)
def test_catch_replace_do_and_their_order(mode: str) -> None:
    # streamable: test_catch_replace_with_none, test_catch_do, test_catch_replace_occurs_after_do,
    # test_catch_do_occurs_after_where, test_catch_sync_async_params_combination
    assert read(make(mode, "1-23").map(int).catch(replace=adapt(mode, lambda e: None))) == [
        1,
        None,
        2,
        3,
    ]
    errors: list[Exception] = []
    tapped = (
        make(mode, [1, 0, 2, 3])
        .do(_inverse)
        .catch(ZeroDivisionError, do=adapt(mode, errors.append))
    )
    assert read(tapped) == [1, 2, 3]
    assert [type(error) for error in errors] == [ZeroDivisionError]
    errors.clear()
    counted = make(mode, "-").map(int)
    got = read(
        counted.catch(do=adapt(mode, errors.append), replace=adapt(mode, lambda e: len(errors)))
    )
    assert got == [1]  # replace ran after do
    errors.clear()
    unseen = make(mode, "-").map(int).catch(where=lambda e: False, do=adapt(mode, errors.append))
    assert read(unseen) == [ValueError]
    assert errors == []  # do runs only on what where picks
    for where in (lambda e: True, adapt(mode, lambda e: True)):
        errors.clear()
        mixed = make(mode, [0, 1, 0, 1, 0]).do(_inverse)
        mixed = mixed.catch(where=where, do=adapt(mode, errors.append), replace=lambda e: None)
        assert read(mixed) == [None, 1, None, 1, None]
        assert len(errors) == 3


def _raise_key(error: Exception) -> Any:
    raise KeyError("raised by the handler")


@pytest.mark.parametrize("mode", MODES)
def test_what_a_handler_raises_passes_on_in_place_of_the_error(mode: str) -> None:
    # streamable: test_catch_with_do_raising, test_catch_with_replace_raising
    def inverses() -> Stream[Any, Any]:
        return make(mode, [0, 1, 0, 1, 0]).map(_inverse)

    errors: list[Exception] = []
    tapped = inverses().catch(ZeroDivisionError, do=adapt(mode, _raise_key))
    assert read(tapped.catch(KeyError, do=errors.append)) == [1.0, 1.0]
    assert len(errors) == 3
    replaced = inverses().catch(ZeroDivisionError, replace=adapt(mode, _raise_key))
    assert read(replaced.catch(KeyError, replace=lambda e: None)) == [None, 1.0, None, 1.0, None]


@pytest.mark.parametrize("mode", MODES)
def test_catch_stop(mode: str) -> None:
    # streamable: test_catch_stop, test_catch_stop_with_falsy_where,
    # test_catch_stop_with_where_raising, test_catch_stop_with_do_raising,
    # test_catch_stop_with_replace_raising, test_catch_stop_with_replacement
    def parsed() -> Stream[Any, Any]:
        return make(mode, "01-3").map(int)

    def inverses() -> Stream[Any, Any]:
        return make(mode, [1, 0, 1, 0]).map(_inverse)

    assert read(parsed().catch(ValueError, stop=True)) == [0, 1]
    unpicked = parsed().catch(ValueError, where=lambda e: False, stop=True)
    assert read(unpicked.catch(ValueError)) == [0, 1, 3]  # not caught: no stop
    undecided = inverses().catch(where=adapt(mode, _raise_key), stop=True)
    assert read(undecided.catch(KeyError)) == [1.0, 1.0]  # where raised: not caught, no stop
    assert read(inverses().catch(do=adapt(mode, _raise_key), stop=True).catch(KeyError)) == [1.0]
    stopped = inverses().catch(replace=adapt(mode, _raise_key), stop=True)
    assert read(stopped.catch(KeyError)) == [1.0]
    assert read(parsed().catch(ValueError, stop=True, replace=lambda e: None)) == [0, 1, None]


# --- observe --------------------------------------------------------------------------


class Reports(logging.Handler):
    """The (items, errors) of each report an ``observe`` logs, and whether it is the last."""

    def __init__(self) -> None:
        super().__init__()
        self.counts: list[tuple[int, int]] = []
        self.last: list[bool] = []

    def emit(self, record: logging.LogRecord) -> None:
        assert isinstance(record.args, tuple)
        _, items, errors, _, final = record.args
        self.counts.append((int(items), int(errors)))  # type: ignore[call-overload]
        self.last.append(bool(final))


def _observed(mode: str, chars: str, name: str) -> tuple[Stream[Any, Any], Reports]:
    reports = Reports()
    logger = logging.getLogger(f"lazyfun.test.observe.{name}.{mode}")
    logger.handlers[:] = [reports]
    logger.setLevel(logging.INFO)
    logger.propagate = False
    observed = make(mode, chars).map(int).map(_inverse).observe(name, logger)
    return observed, reports


@pytest.mark.parametrize("mode", MODES)
def test_observe_hands_on_the_items_and_the_errors(mode: str) -> None:
    # streamable: test_observe_yields_upstream_elements, test_observe_reraises
    observed, _ = _observed(mode, "12---3456----7", "items")
    assert read(observed.catch(ValueError)) == [1 / n for n in range(1, 8)]
    observed, _ = _observed(mode, "10", "reraises")
    assert read(observed) == [1.0, ZeroDivisionError]


@pytest.mark.parametrize("mode", MODES)
def test_observe_reports_at_powers_of_two_and_at_the_end(mode: str) -> None:
    # streamable: test_observe_empty_stream, test_observe_every_none_with_catch,
    # test_observe_every_none_skips_last_observation_if_redundant.  streamable reports when
    # the items or the errors reach a power of two and leaves out a last report that says
    # nothing new; lazyfun reports when items and errors together reach one, and always at
    # the end (docs/pipelines.md: "counts and elapsed time logged at 1, 2, 4, 8, ... items",
    # lazyfun/streams/shared/watching.py: "after 1, 2, 4, 8, ... items or errors ... and at
    # the end"); every= and do= are streamable's, not lazyfun's
    observed, reports = _observed(mode, "", "empty")
    assert read(observed) == []
    assert (reports.counts, reports.last) == ([(0, 0)], [True])
    observed, reports = _observed(mode, "12---3456----07", "powers")
    read(observed.catch(ValueError).catch(ZeroDivisionError))
    # 1, 2 items; 2 errors (4 in all); 5 items, 3 errors (8); the end: 7 items, 8 errors
    assert reports.counts == [(1, 0), (2, 0), (2, 2), (5, 3), (7, 8)]
    assert reports.last == [False] * 4 + [True]


# --- throttle -------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_throttle_refuses_a_count_or_a_time_that_is_not_positive(mode: str) -> None:
    # streamable: test_throttle_raises_when_per_is_not_positive,
    # test_throttle_raises_when_up_to_not_positive
    for count in (0, -1):
        with pytest.raises(ValueError):
            make(mode, [1]).throttle(count, per=1.0)
    for per in (0, -1.0, timedelta(), timedelta(days=-1)):
        with pytest.raises(ValueError):
            make(mode, [1]).throttle(1, per=per)


class Waited(Exception):
    """A throttle would have waited (the seconds): raised in place of the wait."""


@pytest.fixture
def no_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """A throttle's wait, sync or async, raises :class:`Waited` instead of sleeping."""

    def sleep(seconds: float) -> None:
        raise Waited(seconds)

    real = asyncio.sleep

    async def asleep(seconds: float, result: Any = None) -> Any:
        if seconds > 0:
            raise Waited(seconds)
        return await real(0, result)

    monkeypatch.setattr(flow.throttle, "__defaults__", (time.monotonic, sleep))
    monkeypatch.setattr(asyncio, "sleep", asleep)


@pytest.mark.usefixtures("no_wait")
@pytest.mark.parametrize("mode", MODES)
def test_throttle_lets_errors_through_without_counting_them(mode: str) -> None:
    # streamable: test_throttle_sliding_window counts errors in the window; lazyfun's
    # throttle does not (docs/pipelines.md: "exceptions passing through do not count"), so
    # with two items an hour, the errors before them never wait.  The window's timing
    # itself is held on the clock by tests/test_flow.py and tests/test_rate.py
    throttled = make(mode, "---12").map(int).throttle(2, per=3600.0)
    assert read(throttled, limit=5) == [ValueError, ValueError, ValueError, 1, 2]


@pytest.mark.xfail(
    strict=True,
    reason="a throttle waits for room before it reads on, so the end of its source after "
    "a full window comes a whole `per` late (an error too)",
)
@pytest.mark.usefixtures("no_wait")
@pytest.mark.parametrize("mode", MODES)
def test_throttle_ends_without_waiting_once_the_last_item_is_out(mode: str) -> None:
    # streamable: test_throttle_example (10 items, 3 a second: 3 s, "ceil(10 / 3) - 1"
    # windows): the stream ends with its last item, not a window after it
    assert read(make(mode, [1, 2]).throttle(2, per=3600.0), limit=3) == [1, 2]


# --- buffer ---------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_buffer_hands_on_every_item_and_error_in_place(mode: str) -> None:
    # streamable: test_buffer_preserves_elements, test_buffer_with_exceptions
    assert read(make(mode, range(100)).buffer(5)) == list(range(100))
    got = read(make(mode, "0-23--6").map(int).buffer(3))
    assert got == [0, ValueError, 2, 3, ValueError, ValueError, 6]


@pytest.mark.parametrize("n", [1, 3, 10])
@pytest.mark.parametrize("mode", MODES)
def test_buffer_reads_ahead_and_holds_at_most_n(mode: str, n: int) -> None:
    # streamable: test_buffer_size_is_respected, test_buffer_example.  streamable's buffer
    # keeps exactly n read past the consumer; lazyfun's holds at most n (docs/pipelines.md:
    # "reads up to n items ahead"; the sync one waits until half is taken before it reads
    # on, lazyfun/streams/shared/reading.py's Shelf), so the test holds the bound and
    # that it reads ahead at all, not the exact count
    pulled: list[int] = []
    taken = 0

    def held() -> int:
        return len(pulled) - taken

    if mode == "sync":
        items = iter(stream(range(100)).do(pulled.append).buffer(n))
        assert pulled == []
        for taken in range(1, 4):
            assert next(items) == taken - 1
            time.sleep(0.02)
            assert 1 <= held() <= n
        return

    async def main() -> None:
        nonlocal taken
        items = aiter(astream(range(100)).do(pulled.append).buffer(n))
        await asyncio.sleep(0.01)
        assert pulled == []
        for taken in range(1, 4):
            assert await anext(items) == taken - 1
            await asyncio.sleep(0.02)
            assert 1 <= held() <= n

    asyncio.run(main())


@pytest.mark.parametrize("mode", MODES)
def test_buffer_refuses_a_size_below_one(mode: str) -> None:
    # streamable: test_buffer_raises_on_invalid_up_to
    with pytest.raises(ValueError):
        make(mode, [1]).buffer(0)


# --- unique (streamable's distinct) ---------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_unique_keeps_the_first_of_each(mode: str) -> None:
    # streamable: test_distinct_example
    assert read(make(mode, "001000111").unique().map(int)) == [0, 1]
    assert read(make(mode, range(10)).unique(adapt(mode, _parity))) == [0, 1]


# --- sources, concatenation, one-shot reading -----------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_an_iterator_or_an_async_iterator_is_a_source(mode: str) -> None:
    # streamable: test_iter_source, test_aiter_source
    assert read(make(mode, iter(range(10)))) == list(range(10))
    assert read(make(mode, _agen(range(10)))) == list(range(10))


def test_a_queue_read_until_it_is_empty() -> None:
    # streamable: test_queue_source, test_func_source, test_source_function.  lazyfun
    # calls a function with until= (as iter(f, sentinel)); an async function is no source
    # of lazyfun's (an async generator is), so streamable's test_source_async_function,
    # test_queue_source_async and test_afunc_source have no counterpart here
    waiting: queue.Queue[int] = queue.Queue()
    for n in range(10):
        waiting.put(n)
    got = stream(waiting.get_nowait, until=None).catch(queue.Empty, stop=True).to_list()
    assert got == list(range(10))


@pytest.mark.parametrize("mode", MODES)
def test_something_not_iterable_is_no_source(mode: str) -> None:
    # streamable: test_source_type_error (lazyfun refuses it when the stream is made)
    with pytest.raises(TypeError):
        read(make(mode, 1))


@pytest.mark.parametrize("mode", MODES)
def test_streams_concatenate_with_plus(mode: str) -> None:
    # streamable: test_add, test_add_example
    joined = make(mode, range(10)) + make(mode, range(10, 20)) + range(20, 30)
    assert read(joined) == list(range(30))
    mixed = make(mode, range(3)) + make(mode, range(3)).map(str)
    assert read(mixed) == [0, 1, 2, "0", "1", "2"]


@pytest.mark.parametrize("mode", MODES)
def test_a_stream_is_read_once_and_says_so_the_second_time(mode: str) -> None:
    # streamable: test_multiple_iterations, test_in.  A streamable stream is read again
    # from its source; lazyfun's is one-shot and a second read raises (docs/pipelines.md:
    # "a second read: `StreamConsumedError`")
    numbers = make(mode, range(5))
    assert read(numbers) == list(range(5))
    with pytest.raises(StreamConsumedError):
        read(numbers)
    if mode == "sync":
        words = stream(map(str, range(5)))
        assert "0" in words
        with pytest.raises(StreamConsumedError):
            assert "1" in words


def _marked_int(char: str) -> int:
    """``int(char)``, raising ``Marked`` on what is no digit."""
    if not char.isdigit():
        raise Marked(char)
    return int(char)


def _steps() -> dict[str, Callable[[Stream[Any, Any]], Stream[Any, Any]]]:
    """streamable's operations as lazyfun's steps (their test_next_post_exhaustion and
    test_ref_cycles lists)."""
    return {
        "plain": lambda s: s,
        "buffer": lambda s: s.buffer(10),
        "catch": lambda s: s.catch(KeyError),  # lets the error through
        "do": lambda s: s.do(str),
        "filter": lambda s: s.filter(),
        "chunked-flatmap": lambda s: s.chunked(2).flatmap(lambda x: x),
        "chunked-flatmap-2": lambda s: s.chunked(2).flatmap(lambda x: x, concurrency=2),
        "chunked-flatmap-10": lambda s: s.chunked(2).flatmap(lambda x: x, concurrency=10),
        "group": lambda s: s.group(10),
        "group-by": lambda s: s.group(1, by=str).flatmap(lambda pair: pair[1]),
        "group-by-within": lambda s: s.group(1, by=str, within=1.0),
        "group-within": lambda s: s.group(within=1.0),
        "map": lambda s: s.map(str),
        "map-2": lambda s: s.map(str, concurrency=2),
        "map-10": lambda s: s.map(str, concurrency=10),
        "map-2-as-completed": lambda s: s.map(str, concurrency=2, ordered=False),
        "map-10-as-completed": lambda s: s.map(str, concurrency=10, ordered=False),
        "observe": lambda s: s.observe("numbers", _QUIET),
        "drop": lambda s: s.drop(10),
        "take": lambda s: s.take(10),
        "throttle": lambda s: s.throttle(10**6, per=1.0),
        "unique": lambda s: s.unique(),
    }


_QUIET = logging.getLogger("lazyfun.test.quiet")
_QUIET.propagate = False
_QUIET.addHandler(logging.NullHandler())
STEPS = _steps()


@pytest.mark.parametrize("step", sorted(STEPS))
@pytest.mark.parametrize("mode", MODES)
def test_a_read_past_the_end_ends_again(mode: str, step: str) -> None:
    # streamable: test_next_post_exhaustion
    built = STEPS[step](make(mode, range(20)))
    if mode == "sync":
        items = iter(built)
        list(items)
        with pytest.raises(StopIteration):
            next(items)
        return

    async def main() -> None:
        items = aiter(built)
        [item async for item in items]
        with pytest.raises(StopAsyncIteration):
            await anext(items)

    asyncio.run(main())


@pytest.mark.parametrize("step", sorted(STEPS))
@pytest.mark.parametrize("mode", MODES)
def test_no_step_keeps_the_error_of_a_finished_read_alive(mode: str, step: str) -> None:
    # streamable: test_ref_cycles: with the collector off, the error of the last read of
    # map(int, "123-") is freed once the consumer lets go of it (a Marked, which a weak
    # reference can watch, where int raises a ValueError)
    build = STEPS[step]

    def last_error_sync() -> weakref.ref[Marked]:
        items = iter(build(stream(map(_marked_int, "123-"))))
        while True:
            try:
                next(items)
            except Marked as error:
                return weakref.ref(error)

    async def last_error_async() -> weakref.ref[Marked]:
        items = aiter(build(astream(map(_marked_int, "123-"))))
        while True:
            try:
                await anext(items)
            except Marked as error:
                return weakref.ref(error)

    gc.disable()  # what the collector would free is not freed: only what nothing holds
    try:
        watched = last_error_sync() if mode == "sync" else asyncio.run(last_error_async())
        assert watched() is None
    finally:
        gc.enable()


@pytest.mark.parametrize("step", sorted(STEPS))
@pytest.mark.parametrize("mode", MODES)
def test_nothing_is_read_before_the_first_item_is_asked_for(mode: str, step: str) -> None:
    # streamable: test_buffer_size_is_respected's first assertion and every "pulled" test:
    # making the stream and its iterator reads nothing
    pulled: list[int] = []
    built = STEPS[step](make(mode, range(20)).do(pulled.append))
    if mode == "sync":
        items = iter(built)
        time.sleep(0.01)
        assert pulled == []
        next(items)
        return

    async def main() -> None:
        items = aiter(built)
        await asyncio.sleep(0.01)
        assert pulled == []
        await anext(items)
        await aclose(items)

    asyncio.run(main())


async def aclose(items: Any) -> None:
    await items.aclose()


_FAILING: list[ValueError] = []  # the very error _fail_on_three raises, made by each test


def _fail_on_three(n: int) -> int:
    if n == 3:
        raise _FAILING[0]
    return n


@pytest.mark.parametrize(
    "build",
    [
        lambda s: s.map(_fail_on_three),
        lambda s: s.map(_fail_on_three, concurrency=2),
        lambda s: s.map(_fail_on_three, concurrency=2, ordered=False),
        lambda s: s.do(_fail_on_three, concurrency=2),
        lambda s: s.map(_fail_on_three).buffer(2),
        lambda s: s.map(_fail_on_three).group(2),
        lambda s: s.map(_fail_on_three).throttle(10**6, per=1.0).observe("n", _QUIET),
        lambda s: s.flatmap(lambda n: [_fail_on_three(n)], concurrency=2),
    ],
    ids=[
        "map",
        "map-2",
        "map-2-as-completed",
        "do-2",
        "buffer",
        "group",
        "throttle-observe",
        "flatmap-2",
    ],
)
@pytest.mark.parametrize("mode", MODES)
def test_the_error_raised_is_the_one_the_consumer_gets(
    mode: str, build: Callable[[Stream[Any, Any]], Stream[Any, Any]]
) -> None:
    # streamable: the identity its tests take for granted (pytest.raises of the very
    # error a function raised): a step hands on the exception object, not a copy
    _FAILING[:] = [ValueError("this very error")]
    got: list[BaseException] = []
    read(build(make(mode, range(6))).catch(ValueError, do=got.append))
    assert got and all(error is _FAILING[0] for error in got)


def test_async_for_over_a_concurrent_stream_leaves_the_loop_free() -> None:
    # streamable: test_aiter_of_concurrent_sync_operations (without timing it: the loop
    # keeps ticking while the items come)
    async def main() -> tuple[int, int]:
        ticks = 0
        reading = True

        async def tick() -> None:
            nonlocal ticks
            while reading:
                ticks += 1
                await asyncio.sleep(0.001)

        ticker = asyncio.ensure_future(tick())
        slow = stream(range(16)).map(lambda n: _sleepy(0.01) and n, concurrency=4)
        count = 0
        async for _ in slow:
            count += 1
        reading = False
        await ticker
        return count, ticks

    count, ticks = asyncio.run(main())
    assert count == 16
    assert ticks >= 5  # the items took some 40 ms, the loop woke the ticker meanwhile
