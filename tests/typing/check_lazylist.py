"""LazyList: its constructors give the element type in both checkers (under pyright they
were LazyList[Unknown]), and a LazyList is covariant: the empty list fits every type."""

from __future__ import annotations

import operator
from collections.abc import Iterator
from typing import Never, assert_type

from lazyfun import LazyList, stream


def double(n: int) -> int:
    return 2 * n


assert_type(LazyList.of(["a"]), LazyList[str])
assert_type(LazyList.of(range(3)).map(double), LazyList[int])
assert_type(LazyList.of(range(3)).map(str), LazyList[str])
assert_type(LazyList.empty(), LazyList[Never])
n = len("1")
assert_type(LazyList.cons(n, LazyList.empty()), LazyList[int])
assert_type(LazyList.cons(n, lambda: LazyList.of([2, 3])), LazyList[int])

ones = LazyList.fix(lambda ones: LazyList.cons(n, lambda: ones))
assert_type(ones, LazyList[int])
fibs = LazyList.fix(
    lambda fibs: LazyList.cons(
        0, lambda: LazyList.cons(1, lambda: fibs.zip_with(operator.add, fibs.tail))
    )
)
assert_type(fibs, LazyList[int])


def total(xs: LazyList[int]) -> int:
    return sum(xs)


total(LazyList.of([True, False]))  # a LazyList[bool] is a LazyList[int]
total(LazyList.empty())  # and so is the empty list

words = LazyList.of(["a", "b"])
numbers = LazyList.of([1, 2])
assert_type(words.head, str)
assert_type(numbers.tail, LazyList[int])
assert_type(numbers[0], int)
assert_type(numbers[1:], LazyList[int])
assert_type(iter(numbers), Iterator[int])
assert_type(numbers.filter(lambda k: k > 0), LazyList[int])
assert_type(numbers.flatmap(range), LazyList[int])
assert_type(numbers.zip_with(lambda k, w: w * k, words), LazyList[str])
assert_type(numbers.take(2).drop(1).takewhile(bool).dropwhile(bool), LazyList[int])
assert_type(numbers + words, LazyList[int | str])
assert_type(numbers.forced(), int)
assert_type(stream(range(3)).lazylist(), LazyList[int])
