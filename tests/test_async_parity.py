"""AsyncStream beside Stream: the same steps and terminals, every callback plain or a
coroutine function, and the async defects of issue #42 (cancellation, closing, streaming)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar, assert_type

import pytest

from lazyfun import AsyncStream, astream, stream

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

    for make in (
        lambda: astream([1]).takewhile(is_small),
        lambda: astream([1]).dropwhile(is_small),
        lambda: astream([1]).unique(key=key),
        lambda: astream([1]).group(by=key),
        lambda: astream([1]).catch(do=key),
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
