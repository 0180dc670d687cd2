"""Behaviours the peers' own test suites hold a pipeline to (streamable's, re-expressed
here for the Stream): an error never ends more than its item, ``stop`` means stop, no
step keeps an error alive, logging never breaks the work, and the sources people use."""

from __future__ import annotations

import asyncio
import gc
import io
import logging
import weakref
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest

from lazyfun import Stream, astream, stream


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
def test_no_step_keeps_an_error_alive_after_passing_it_on(build: object) -> None:
    """With the collector off, an error is freed once nobody holds it: no step keeps it
    in a reference cycle (its frames and all) after passing it on."""
    assert callable(build)

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
                assert watched[0]() is None  # dropped: freed, the stream still alive
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
