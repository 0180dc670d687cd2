"""AsyncStream: coroutine functions in the chain, their results awaited; awaitable terminals."""

from __future__ import annotations

from typing import assert_type

from lazyfun import AsyncStream, astream, stream


def double(n: int) -> int:
    return 2 * n


async def fetch(n: int) -> str:
    return str(n)


async def is_even(n: int) -> bool:
    return n % 2 == 0


def message(error: ValueError) -> str:
    return str(error.args)


async def main() -> None:
    numbers = astream(range(3))
    assert_type(numbers, AsyncStream[int])
    assert_type(stream(range(3)).to_async(), AsyncStream[int])
    assert_type(numbers.map(fetch), AsyncStream[str])
    assert_type(numbers.map(fetch, concurrency=4, ordered=False), AsyncStream[str])
    assert_type(numbers.map(fetch, concurrency=4, ahead=32), AsyncStream[str])
    assert_type(numbers.map(double), AsyncStream[int])
    assert_type(numbers.filter(is_even), AsyncStream[int])
    assert_type(astream([1, None]).filter(), AsyncStream[int])
    assert_type(numbers.catch(ValueError, replace=message), AsyncStream[int | str])
    assert_type(numbers.scan(lambda total, n: total + n, 0), AsyncStream[int])
    assert_type(numbers.chunked(2), AsyncStream[list[int]])
    assert_type(numbers.enumerate(), AsyncStream[tuple[int, int]])
    assert_type(numbers.zip("ab"), AsyncStream[tuple[int, str]])
    assert_type(numbers.pmap(double, scheduler="sync"), AsyncStream[int])
    assert_type(await numbers.to_list(), list[int])
    assert_type(await numbers.first(), int)
    assert_type(await numbers.first(None), int | None)
    assert_type(await numbers.count(), int)
    async for n in numbers:
        assert_type(n, int)
