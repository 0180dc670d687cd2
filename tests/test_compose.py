"""Typed composition behaves like toolz's, in both orders."""

from __future__ import annotations

import itertools

from lazyfun import (
    chunked,
    compose,
    compose_left,
    concat,
    drop,
    first,
    interleave,
    last,
    nth,
    pipe,
    second,
    sliding_window,
    take,
    unique_everseen,
)


def test_compose_is_right_to_left_and_compose_left_is_left_to_right() -> None:
    def inc(n: int) -> int:
        return n + 1

    def double(n: int) -> int:
        return 2 * n

    assert compose(inc, double)(5) == 11
    assert compose_left(inc, double)(5) == 12
    assert pipe(5, inc, double) == 12
    assert pipe(5) == 5


def test_pipe_accepts_more_stages_than_the_overloads_name() -> None:
    def inc(n: int) -> int:
        return n + 1

    assert pipe(0, *([inc] * 12)) == 12


def test_the_lazy_re_exports_stay_lazy_on_infinite_streams() -> None:
    naturals = itertools.count
    assert list(take(3, drop(2, naturals()))) == [2, 3, 4]
    assert list(take(4, interleave([naturals(), naturals(100)]))) == [0, 100, 1, 101]
    assert list(take(2, sliding_window(2, naturals()))) == [(0, 1), (1, 2)]
    assert list(take(3, unique_everseen(n // 3 for n in naturals()))) == [0, 1, 2]
    assert next(chunked(naturals(), 3)) == [0, 1, 2]
    assert list(take(3, concat([[1], naturals()]))) == [1, 0, 1]


def test_the_single_value_re_exports() -> None:
    assert first(iter([]), None) is None
    assert first("abc") == "a"
    assert second("abc") == "b"
    assert nth(2, "abc") == "c"
    assert last(iter("abc")) == "c"
