"""Stream: each step's item type, and what its terminals give."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TypeGuard, assert_type

from lazyfun import AsyncStream, LazyList, Stream, stream


def double(n: int) -> int:
    return 2 * n


def is_text(item: object) -> TypeGuard[str]:
    return isinstance(item, str)


def first_k(items: Stream[int], k: int) -> Stream[int]:
    return items.take(k)


def message(error: ValueError) -> str:
    return str(error.args)


def code(error: KeyError) -> int:
    return len(error.args)


numbers = stream(range(3))
assert_type(numbers, Stream[int])
assert_type(stream("ab"), Stream[str])
assert_type(numbers.map(double), Stream[int])
assert_type(numbers.map(str, concurrency=2), Stream[str])
assert_type(numbers.map(str, concurrency=2, ahead=16), Stream[str])
assert_type(numbers.filter(None, concurrency=2, ahead=4), Stream[int])
assert_type(numbers.flatmap(range), Stream[int])
assert_type(numbers.do(print), Stream[int])
assert_type(numbers.pmap(double, scheduler="sync"), Stream[int])

# filter() leaves None out of the item type; a TypeGuard narrows it
assert_type(stream([1, None]).filter(), Stream[int])
assert_type(stream([1, None]).filter(lambda n: n is not None), Stream[int | None])
assert_type(stream([1, "a"]).filter(is_text), Stream[str])

# catch's where, do and replace take the caught error's type
assert_type(numbers.catch(ValueError), Stream[int])
assert_type(numbers.catch(ValueError, replace=message), Stream[int | str])
assert_type(
    numbers.catch(ValueError, do=message, where=lambda error: bool(error.args)), Stream[int]
)
assert_type(numbers.catch(KeyError, replace=code), Stream[int])
assert_type(numbers.catch(replace=lambda error: str(error)), Stream[int | str])

assert_type(numbers.take(2).drop(1).takewhile(bool).dropwhile(bool), Stream[int])
assert_type(numbers.chunked(2), Stream[list[int]])
assert_type(numbers.window(2), Stream[tuple[int, ...]])
assert_type(numbers.enumerate(), Stream[tuple[int, int]])
assert_type(numbers.zip("ab"), Stream[tuple[int, str]])
assert_type(numbers.zip_longest("ab"), Stream[tuple[int | None, str | None]])
assert_type(numbers.zip_longest("ab", fillvalue=0), Stream[tuple[int, str | int]])
assert_type(numbers.chain([3]).merge([4]).unique().buffer(2), Stream[int])
assert_type(numbers.scan(lambda text, n: text + str(n), ""), Stream[str])
assert_type(numbers.group(2), Stream[list[int]])
assert_type(numbers.group(by=lambda n: n % 2 == 0), Stream[tuple[bool, list[int]]])
assert_type(numbers.throttle(10, per=1.0), Stream[int])
assert_type(numbers.tee(), tuple[Stream[int], ...])
assert_type(numbers.pipe(first_k, 2), Stream[int])
assert_type(numbers.to_async(), AsyncStream[int])
assert_type(iter(numbers), Iterator[int])

assert_type(numbers.first(), int)
assert_type(numbers.first(None), int | None)
assert_type(numbers.last(), int)
assert_type(numbers.to_list(), list[int])
assert_type(numbers.to_set(), set[int])
assert_type(numbers.count(), int)
assert_type(numbers.reduce(lambda total, n: total + n, 0.5), float)
assert_type(numbers.sum(), int)
assert_type(numbers.min(), int)
assert_type(numbers.max(key=str), int)
assert_type(numbers.any(), bool)
assert_type(numbers.map(lambda n: (n, str(n))).to_dict(), dict[int, str])
assert_type(numbers.lazylist(), LazyList[int])

# the keyed folds: a dict (a stream of them by windows), with or without a budget
assert_type(numbers.count_by(double), dict[int, int])
assert_type(numbers.count_by(double, memory=2**20), dict[int, int])
assert_type(numbers.count_by(str, every=2, memory=2**20), Stream[dict[str, int]])
assert_type(numbers.reduce_by(str, lambda a, n: a + n, 0, memory=2**20), dict[str, int])
assert_type(numbers.aggregate(str, n="count", memory=2**20), dict[str, dict[str, Any]])
