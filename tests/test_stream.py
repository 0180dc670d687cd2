"""lazyfun.streams.stream: a fluent, typed, one-shot pipeline over itertools and friends."""

from __future__ import annotations

import itertools
from typing import assert_type

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lazyfun import LazyList, Stream, StreamConsumedError, stream
from lazyfun.trace import Probe


def test_each_step_keeps_a_precise_type() -> None:
    assert_type(stream(range(3)).map(str).to_list(), list[str])
    assert_type(stream("ab").enumerate().to_list(), list[tuple[int, str]])
    assert_type(stream([1.5]).zip("x").first(), tuple[float, str])
    assert_type(stream([1]).chunked(2).to_list(), list[list[int]])
    assert_type(stream([1]).window(2).to_list(), list[tuple[int, ...]])
    assert_type(stream([1]).scan(lambda acc, n: acc + str(n), "").last(), str)
    assert_type(stream([1]).first(None), int | None)
    assert_type(stream([1]).reduce(lambda acc, n: acc + n, 0.5), float)
    assert_type(stream([1]).lazylist(), LazyList[int])


def test_a_chain_of_ten_steps_keeps_its_element_type() -> None:
    out = (
        stream(range(100))
        .filter(lambda n: n % 2 == 0)
        .map(lambda n: n * 3)
        .drop(1)
        .takewhile(lambda n: n < 200)
        .dropwhile(lambda n: n < 12)
        .unique(lambda n: n % 7)
        .map(str)
        .filter(str.isdigit)
        .take(4)
        .map(len)
    )
    assert_type(out, Stream[int])
    assert out.to_list() == [2, 2, 2, 2]


def test_steps_against_their_plain_python_meanings() -> None:
    assert stream(range(10)).chunked(4).to_list() == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert stream("abcd").window(3).to_list() == [("a", "b", "c"), ("b", "c", "d")]
    assert stream([3, 1, 2]).scan(max, 0).to_list() == [0, 3, 3, 3]
    assert stream([2, 3, 4]).flatmap(lambda n: [n] * n).count() == 9
    assert stream(range(5)).reduce(lambda acc, n: acc - n, 0) == -10
    assert stream([]).last("none") == "none"
    with pytest.raises(ValueError, match="first"):
        stream([]).first()
    with pytest.raises(ValueError, match="last"):
        stream([]).last()


@given(st.lists(st.integers()), st.integers(0, 5), st.integers(0, 5))
def test_map_filter_take_drop_agree_with_list_comprehensions(xs: list[int], m: int, n: int) -> None:
    got = stream(xs).map(lambda x: x * 2).filter(lambda x: x % 3 != 0).drop(m).take(n)
    assert got.to_list() == [x * 2 for x in xs if (x * 2) % 3 != 0][m : m + n]


def test_steps_are_lazy_and_read_only_what_the_terminal_needs() -> None:
    probe = Probe()
    head = stream(itertools.count()).probe("read", probe).map(lambda n: n * n)
    assert probe.counts == {"read": 0}
    assert head.filter(lambda n: n > 50).first() == 64
    assert probe.counts == {"read": 9}


def test_a_second_read_is_an_error_that_names_the_fix() -> None:
    s = stream(range(3))
    assert list(s) == [0, 1, 2]
    with pytest.raises(StreamConsumedError, match=r"\.lazylist\(\)"):
        list(s)
    t = stream(range(3))
    t.map(str)
    with pytest.raises(StreamConsumedError):
        t.to_list()  # its items went to the step built on it


def test_a_partial_read_still_uses_the_stream_up() -> None:
    s = stream(range(10))
    for _ in s:
        break
    with pytest.raises(StreamConsumedError):
        s.count()


def test_lazylist_switches_to_call_by_need() -> None:
    calls = []

    def noisy(n: int) -> int:
        calls.append(n)
        return n + 1

    xs = stream(range(5)).map(noisy).lazylist()
    assert calls == []
    assert list(xs) == list(xs) == [1, 2, 3, 4, 5]
    assert calls == [0, 1, 2, 3, 4]  # computed once, read twice
