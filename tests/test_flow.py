"""The steps that hold state or time, the catch, and the everyday surface of a Stream."""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any, TypeGuard, assert_type

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typing_extensions import TypeIs

from lazyfun import Stream, stream
from lazyfun.streams.sync.steps import Group, GroupBy, throttle


class FakeClock:
    """A monotonic clock that moves only when told to (or when slept on)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def workers_alive() -> list[threading.Thread]:
    """The threads lazyfun started that are still running."""
    return [t for t in threading.enumerate() if t.name.startswith("lazyfun") and t.is_alive()]


def fails_on(bad: set[int]) -> Iterator[int]:
    """0..9 through a map that raises on the ``bad`` items (a map resumes after)."""

    def f(n: int) -> int:
        if n in bad:
            raise ValueError(f"bad {n}")
        return n

    return map(f, range(10))


def test_catch_drops_replaces_stops_and_filters_by_type_and_where() -> None:
    assert stream(fails_on({2, 5})).catch().to_list() == [0, 1, 3, 4, 6, 7, 8, 9]
    replaced = stream(fails_on({2})).catch(ValueError, replace=lambda e: str(e)).to_list()
    assert replaced == [0, 1, "bad 2", 3, 4, 5, 6, 7, 8, 9]
    assert stream(fails_on({2})).catch(stop=True).to_list() == [0, 1]
    seen: list[str] = []
    stream(fails_on({2, 5})).catch(do=lambda e: seen.append(str(e))).to_list()
    assert seen == ["bad 2", "bad 5"]
    with pytest.raises(ValueError, match="bad 5"):
        stream(fails_on({2, 5})).catch(where=lambda e: "2" in str(e)).to_list()
    with pytest.raises(ValueError, match="bad 2"):
        stream(fails_on({2})).catch(KeyError).to_list()  # another type passes through


def test_what_catch_calls_may_raise_and_that_propagates() -> None:
    def boom(error: BaseException) -> int:
        raise RuntimeError("in replace")

    with pytest.raises(RuntimeError, match="in replace"):
        stream(fails_on({1})).catch(replace=boom).to_list()


def test_steps_that_hold_state_never_yield_a_wrong_result_after_an_upstream_error() -> None:
    # a batch is flushed before the error passes on, and a window never spans it
    assert stream(fails_on({2})).window(2).catch().to_list() == [
        (0, 1), (3, 4), (4, 5), (5, 6), (6, 7), (7, 8), (8, 9)
    ]  # fmt: skip
    assert stream(fails_on({2})).chunked(3).catch().to_list() == [[0, 1], [3, 4, 5], [6, 7, 8], [9]]
    assert stream(fails_on({2})).group(4).catch().to_list() == [[0, 1], [3, 4, 5, 6], [7, 8, 9]]
    assert stream(fails_on({1, 2})).take(3).catch().to_list() == [0, 3, 4]
    assert stream(fails_on({1})).drop(2).catch().to_list() == [3, 4, 5, 6, 7, 8, 9]
    assert stream(fails_on({1})).flatmap(lambda n: [n, n]).catch().take(4).to_list() == [0, 0, 2, 2]
    assert stream(fails_on({0})).unique(lambda n: n % 3).catch().to_list() == [1, 2, 3]
    assert stream(fails_on({3})).enumerate().catch().to_list()[3] == (3, 4)


@given(st.lists(st.integers()), st.integers(1, 7))
def test_law_chunks_and_groups_concatenate_back_to_the_input(xs: list[int], k: int) -> None:
    groups = stream(xs).group(k).to_list()
    assert [x for g in groups for x in g] == xs
    assert all(1 <= len(g) <= k for g in groups)
    assert stream(xs).chunked(k).to_list() == groups


def test_throttle_lets_count_items_through_in_any_window_of_per_seconds() -> None:
    clock = FakeClock()
    got = list(throttle(iter(range(7)), 3, 1.0, clock=clock, sleep=clock.sleep))
    assert got == list(range(7))
    assert clock.slept == [1.0, 1.0]  # items 3 and 6 waited for the window to pass


def test_throttle_does_not_count_errors_and_never_waits_when_the_rate_is_not_reached() -> None:
    clock = FakeClock()
    throttled = throttle(fails_on({1, 2, 3}), 2, 1.0, clock=clock, sleep=clock.sleep)
    got = []
    for _ in range(12):
        try:
            got.append(next(throttled))
        except ValueError:
            continue
        except StopIteration:
            break
    assert got == [0, 4, 5, 6, 7, 8, 9]
    assert clock.slept == [1.0, 1.0, 1.0]  # 7 items, 2 a second: 5, 7 and 9 waited
    never = FakeClock()
    assert len(list(throttle(iter(range(1000)), 10**6, 1.0, never, never.sleep))) == 1000
    assert never.slept == []
    assert stream(range(4)).throttle(2, per=timedelta(milliseconds=10)).to_list() == [0, 1, 2, 3]


def test_throttle_far_from_its_limit_reads_the_clock_once_a_stretch_not_once_an_item() -> None:
    clock = FakeClock()
    reads = 0

    def counted() -> float:
        nonlocal reads
        reads += 1
        return clock()

    assert sum(throttle(iter(range(10**5)), 10**9, 1.0, counted, clock.sleep)) == sum(range(10**5))
    assert reads < 100 and clock.slept == []
    # an error inside a stretch is not counted: 2 a second, and 0, 1, 3 and 4 come through
    limited = throttle(fails_on({2}), 3, 1.0, clock=clock, sleep=clock.sleep)
    got = [next(limited), next(limited)]
    with pytest.raises(ValueError, match="bad 2"):
        next(limited)
    got.append(next(limited))
    assert clock.slept == []  # 0, 1 and 3 in the first second: the error took no place
    got.append(next(limited))
    assert got == [0, 1, 3, 4] and clock.slept == [1.0]


def test_the_steps_go_on_after_an_error_they_pass_on_and_leave_your_source_open() -> None:
    # an error catch lets through is passed on, and the catch goes on after it
    absent: dict[int, int] = {}
    twice = stream(fails_on({2, 5})).map(lambda n: n if n != 7 else absent[n]).catch(KeyError)
    assert twice.catch(ValueError).to_list() == [0, 1, 3, 4, 6, 8, 9]

    # an error from the function or from an inner iterable, at its place
    def inner(n: int) -> Iterator[int]:
        yield n
        if n == 1:
            raise ValueError("inner")

    assert stream(fails_on({3})).flatmap(inner).catch().take(6).to_list() == [0, 1, 2, 4, 5, 6]

    def one_is_not_iterable(n: int) -> Any:
        return n if n == 1 else [n]

    assert stream([1, 2]).flatmap(one_is_not_iterable).catch(TypeError).to_list() == [2]
    # take reads no further than it must, even at the end of a shorter source
    source = iter(range(10))
    assert stream(source).catch().take(3).to_list() == [0, 1, 2]
    assert next(source) == 3  # neither read on nor closed
    assert stream(range(2)).take(5).to_list() == [0, 1]
    assert stream(range(3)).take(10**30).throttle(10**30, per=1).to_list() == [0, 1, 2]
    assert stream(fails_on({0, 1})).take(0).catch().to_list() == []
    # a concurrent step right above take is closed as soon as the last item is out
    squares = iter(stream(itertools.count()).map(lambda n: n * n, concurrency=2).take(2))
    assert [next(squares), next(squares)] == [0, 1]
    deadline = time.monotonic() + 10
    while workers_alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert workers_alive() == []


def test_group_closes_a_list_on_time_as_items_arrive() -> None:
    clock = FakeClock()

    def arriving() -> Iterator[int]:
        for n, at in enumerate([0.0, 0.1, 0.2, 1.5, 1.6, 3.0]):
            clock.now = at
            yield n

    assert list(Group(arriving(), 10, 1.0, clock=clock)) == [[0, 1, 2], [3, 4], [5]]


def test_group_by_key_closes_each_key_on_its_own_and_flushes_at_the_end() -> None:
    words = ["apple", "bee", "avocado", "bat", "ant", "cat", "bear"]
    got = stream(words).group(2, by=lambda w: w[0]).to_list()
    assert got == [("a", ["apple", "avocado"]), ("b", ["bee", "bat"]), ("a", ["ant"]),
                   ("c", ["cat"]), ("b", ["bear"])]  # fmt: skip
    clock = FakeClock()

    def arriving() -> Iterator[str]:
        for word, at in zip(words, [0, 0.5, 2, 2.1, 2.2, 2.3, 4], strict=True):
            clock.now = at
            yield word

    timed = list(GroupBy(arriving(), lambda w: w[0], None, 1.0, clock=clock))
    assert timed[0] == ("a", ["apple"])  # due at 1.0, sent when "avocado" arrived at 2
    assert ("b", ["bee"]) in timed
    assert sorted(x for _, g in timed for x in g) == sorted(words)


def test_buffer_reads_ahead_on_a_thread_and_keeps_errors_in_place() -> None:
    read: list[int] = []

    def producing() -> Iterator[int]:
        for n in range(5):
            read.append(n)
            yield n

    items = iter(stream(producing()).buffer(3))
    assert next(items) == 0
    deadline = time.monotonic() + 2
    while len(read) < 4 and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.05)
    # read ahead while the consumer was elsewhere: the item taken, and at most 3 held
    assert 2 <= len(read) <= 4
    assert list(items) == [1, 2, 3, 4]
    assert stream(fails_on({2})).buffer(2).catch().to_list() == [0, 1, 3, 4, 5, 6, 7, 8, 9]
    before = threading.active_count()
    endless = iter(stream(itertools.count()).buffer(2))
    next(endless)
    endless.close()  # type: ignore[attr-defined]
    deadline = time.monotonic() + 2
    while threading.active_count() > before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert threading.active_count() <= before


@pytest.mark.parametrize("n", [1, 2, 3, 8])
def test_a_buffer_of_n_never_holds_more_than_n_items(n: int) -> None:
    """The items read and not yet taken, the one being read included, are at most n,
    however the reader and the consumer interleave."""
    read = taken = most = 0
    lock = threading.Lock()

    def producing() -> Iterator[int]:
        nonlocal read, most
        for k in itertools.count():
            with lock:
                read += 1
                most = max(most, read - taken)
            yield k

    items = iter(stream(producing()).buffer(n))
    for k in range(40):
        assert next(items) == k
        with lock:
            taken += 1
        time.sleep(0.002 * (k % 3))  # now slower than the reader, now faster
    time.sleep(0.05)
    assert most <= n + 1  # the one being read counted when it is read, before it is taken
    assert read - taken <= n
    items.close()  # type: ignore[attr-defined]


def test_group_within_reads_no_further_ahead_than_the_list_it_fills() -> None:
    read = 0

    def counting() -> Iterator[int]:
        nonlocal read
        for k in itertools.count():
            read += 1
            yield k

    with stream(counting()).group(10, within=5.0) as grouped:
        lists = iter(grouped)
        assert next(lists) == list(range(10))
        time.sleep(0.1)  # the consumer holds its list: nothing more is read
        assert read <= 11  # the ten, and at most the one read in progress
        assert next(lists) == list(range(10, 20))
        time.sleep(0.1)
        assert read <= 21
    read = 0
    with stream(counting()).group(5, within=5.0, by=lambda k: k % 2) as by_parity:
        pairs = iter(by_parity)
        assert next(pairs) == (0, [0, 2, 4, 6, 8])
        time.sleep(0.1)
        after = read
        time.sleep(0.1)
        assert read == after  # by key too, the reading waits while the consumer is away


def test_observe_logs_counts_at_growing_intervals(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="lazyfun.observe"):
        stream(fails_on({4})).observe("numbers").catch().count()
    lines = [r.getMessage() for r in caplog.records]
    assert lines[0].startswith("numbers: 1 items, 0 errors")
    assert [line.split(":")[1].split(",")[0] for line in lines] == [
        " 1 items", " 2 items", " 4 items", " 7 items", " 9 items"
    ]  # fmt: skip
    assert "1 errors" in lines[-1] and lines[-1].endswith("(done)")


def test_progress_is_silent_off_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    assert stream(range(3)).progress("counting", total=3).to_list() == [0, 1, 2]
    assert capsys.readouterr().err == ""


def test_unique_works_on_unhashable_items() -> None:
    rows = [{"a": 1}, {"a": 2}, {"a": 1}, [1], [1]]
    assert stream(rows).unique().to_list() == [{"a": 1}, {"a": 2}, [1]]


def test_the_everyday_surface() -> None:
    assert stream(range(5)).sum() == 10
    assert stream([0.5, 1.5]).sum() == 2.0
    assert stream([3, 1, 2]).min() == 1 and stream([3, 1, 2]).max() == 3
    assert stream(["aa", "b"]).max(key=len) == "aa"
    assert stream([]).max(default=None) is None
    with pytest.raises(ValueError, match="empty"):
        stream([]).min()
    assert stream("abca").to_set() == {"a", "b", "c"}
    assert stream([("a", 1), ("b", 2)]).to_dict() == {"a": 1, "b": 2}
    out: list[int] = []
    stream(range(3)).for_each(out.append)
    assert out == [0, 1, 2]
    assert (stream([1]) + [2] + (3,)).to_list() == [1, 2, 3]
    assert stream("ab").zip_longest([1]).to_list() == [("a", 1), ("b", None)]
    assert stream(range(4)).pipe(lambda s, k: s.map(lambda n: n * k), 10).to_list() == [
        0,
        10,
        20,
        30,
    ]


def test_filter_with_a_type_guard_narrows_the_item_type() -> None:
    def is_str(x: object) -> TypeGuard[str]:
        return isinstance(x, str)

    def is_int(x: int | str) -> TypeIs[int]:
        return isinstance(x, int)

    mixed: list[int | str] = [1, "a", 2]
    assert_type(stream(mixed).filter(is_str), Stream[str])
    assert_type(stream(mixed).filter(is_int), Stream[int])
    assert_type(stream(mixed).filter(bool), Stream[int | str])
    assert stream(mixed).filter(is_int).to_list() == [1, 2]


def test_a_ten_step_chain_of_the_new_steps_keeps_its_type() -> None:
    out = (
        stream(range(100))
        .do(lambda n: None)
        .map(lambda n: n * 2, concurrency=2)
        .catch(ValueError)
        .throttle(10**6, per=1)
        .filter(lambda n: n % 3 == 0, concurrency=2)
        .buffer(4)
        .observe("chain")
        .group(5)
        .flatmap(lambda g: g[:1])
        .take(3)
    )
    assert_type(out, Stream[int])
    assert out.to_list() == [0, 30, 60]
    assert_type(stream("ab").group(by=str.upper), Stream[tuple[str, list[str]]])
    assert_type(stream([1]).catch(replace=lambda e: "x"), Stream[int | str])


def test_every_step_refuses_a_bad_argument_at_the_call() -> None:
    refusals: list[tuple[Callable[[], object], str]] = [
        (lambda: stream([1]).chunked(0), "chunked's n must be at least 1"),
        (lambda: stream([1]).window(0), "window's n must be at least 1"),
        (lambda: stream([1]).take(-1), "take's n must be at least 0"),
        (lambda: stream([1]).drop(-2), "drop's n must be at least 0"),
        (lambda: stream([1]).group(0), "group's size must be at least 1"),
        (lambda: stream([1]).group(), "group needs a size"),
        (lambda: stream([1]).throttle(0, per=1), "throttle's count must be at least 1"),
        (lambda: stream([1]).throttle(1, per=0), "throttle's per must be a positive time"),
        (lambda: stream([1]).buffer(0), "buffer's n must be at least 1"),
        (lambda: stream([1]).group(2, within=-1), "group's within must be a positive time"),
    ]
    for make, message in refusals:
        with pytest.raises(ValueError, match=message):
            make()
    with pytest.raises(TypeError, match="exception types"):
        stream([1]).catch(ValueError("x"))  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="take's n must be an int"):
        stream([1]).take(1.5)  # type: ignore[arg-type]


def test_progress_draws_a_bar_on_a_terminal() -> None:
    import io

    from lazyfun.streams.progress import progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    assert list(progress(iter(range(5)), "counting", 5, out=screen)) == [0, 1, 2, 3, 4]
    assert "counting" in screen.getvalue()
    with pytest.raises(ValueError, match="total"):
        progress(iter([]), None, -1)


def test_take_closes_the_workers_above_it_and_never_a_source_of_yours() -> None:
    numbers = iter(range(10))
    assert stream(numbers).take(3).to_list() == [0, 1, 2]
    assert list(numbers) == list(range(3, 10))  # yours to go on reading
    assert stream(itertools.count()).map(abs, concurrency=4).take(2).to_list() == [0, 1]
    deadline = time.monotonic() + 10
    while workers_alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert workers_alive() == []
