"""No step keeps an error alive through a reference cycle: with the cycle collector off,
an error caught further down is freed once it is dropped (a frame that raised it and
still holds it, or its future, in a local would keep it, and all its traceback holds,
until the collector runs)."""

from __future__ import annotations

import asyncio
import gc
import time
import weakref
from collections.abc import Callable
from typing import Any

import pytest

from lazyfun import AsyncStream, Stream, astream, stream


class Boom(Exception):
    pass


def fails_on_three(x: int) -> int:
    if x == 3:
        raise Boom(x)
    return x


async def awaited(x: int) -> int:
    await asyncio.sleep(0)
    return fails_on_three(x)


def _source() -> Any:
    return map(fails_on_three, range(8))


SYNC: dict[str, Callable[[], Stream[Any]]] = {
    "map": lambda: stream(range(8)).map(fails_on_three),
    "map, concurrent": lambda: stream(range(8)).map(fails_on_three, concurrency=2),
    "map, unordered": lambda: stream(range(8)).map(fails_on_three, concurrency=2, ordered=False),
    "filter, concurrent": lambda: stream(range(8)).filter(fails_on_three, concurrency=2),
    "flatmap, concurrent": lambda: stream(range(8)).flatmap(
        lambda x: [fails_on_three(x)], concurrency=2
    ),
    "chunked": lambda: stream(_source()).chunked(3),
    "group within": lambda: stream(_source()).group(3, within=5.0),
    "buffer": lambda: stream(_source()).buffer(2),
    "sort": lambda: stream(_source()).sort(),
    "top": lambda: stream(_source()).top(3),
    "join": lambda: stream(_source()).join([1, 2], lambda x: x),
    "count_by every": lambda: stream(_source()).count_by(lambda x: x, every=3),
    "unique last": lambda: stream(_source()).unique(last=2),
}

ASYNC: dict[str, Callable[[], AsyncStream[Any]]] = {
    "map, coroutines": lambda: astream(range(8)).map(awaited, concurrency=2),
    "map, unordered": lambda: astream(range(8)).map(awaited, concurrency=2, ordered=False),
    "map, threads": lambda: astream(range(8)).map(fails_on_three, concurrency=2),
    "flatmap, concurrent": lambda: astream(range(8)).flatmap(
        lambda x: [fails_on_three(x)], concurrency=2
    ),
    "buffer of a plain source": lambda: astream(_source()).buffer(2),
    "async for over a Stream": lambda: astream(stream(_source())),
    "group within": lambda: astream(_source()).group(3, within=5.0),
    "sort": lambda: astream(_source()).sort(),
}


def _freed(run: Callable[[Callable[[BaseException], bool]], object]) -> list[bool]:
    refs: list[weakref.ref[BaseException]] = []

    def keep(error: BaseException) -> bool:
        refs.append(weakref.ref(error))
        return True

    gc.collect()
    gc.disable()
    try:
        run(keep)
        # a worker thread may still be leaving the frame that raised the error when the
        # run is over; a cycle, which only the collector could break, never lets go
        for _ in range(100):
            if all(ref() is None for ref in refs):
                break
            time.sleep(0.01)
        return [ref() is None for ref in refs]
    finally:
        gc.enable()


@pytest.mark.parametrize("name", sorted(SYNC))
def test_a_caught_error_is_freed_without_the_collector(name: str) -> None:
    assert _freed(lambda keep: SYNC[name]().catch(Boom, where=keep).to_list()) == [True]


@pytest.mark.parametrize("name", sorted(ASYNC))
def test_an_async_step_frees_a_caught_error_without_the_collector(name: str) -> None:
    def run(keep: Callable[[BaseException], bool]) -> object:
        return asyncio.run(ASYNC[name]().catch(Boom, where=keep).to_list())

    assert _freed(run) == [True]
