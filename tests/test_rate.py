"""A retry is a call: ``map(f, retry=..., rate=Rate(count, per=...))`` meters every
attempt, so the rate a user sets holds for the calls that reach the service (measured
on a fake clock: no test waits, none asserts on wall time)."""

from __future__ import annotations

import threading
from collections import Counter
from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lazyfun import Rate, stream


class FakeTime:
    """A clock that moves only when something sleeps on it (safe across threads)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.lock = threading.Lock()

    def clock(self) -> float:
        with self.lock:
            return self.now

    def sleep(self, seconds: float) -> None:
        with self.lock:
            self.now += seconds


def _most_in_a_window(starts: list[float], per: float) -> int:
    ordered = sorted(starts)
    return max(sum(1 for t in ordered if s <= t < s + per) for s in ordered)


def test_every_attempt_of_a_retry_counts_against_the_rate() -> None:
    time = FakeTime()
    rate = Rate(2, per=1.0, clock=time.clock, sleep=time.sleep)
    attempts: Counter[int] = Counter()
    starts: list[float] = []

    def flaky(n: int) -> int:
        starts.append(time.clock())
        attempts[n] += 1
        if attempts[n] < 3:
            raise ConnectionError(n)
        return n

    assert stream(range(4)).map(flaky, retry=3, rate=rate).to_list() == [0, 1, 2, 3]
    assert len(starts) == 12  # three attempts an item, each one a call
    assert _most_in_a_window(starts, 1.0) == 2
    assert starts[-1] == pytest.approx(5.0)  # 12 calls at 2 a second: the last at 5 s


@given(count=st.integers(1, 5), calls=st.integers(1, 40), per=st.sampled_from([0.5, 1.0, 3.0]))
def test_reserved_starts_never_exceed_the_rate(count: int, calls: int, per: float) -> None:
    now = [0.0]
    rate = Rate(count, per=timedelta(seconds=per), clock=lambda: now[0])
    starts = [rate.reserve() for _ in range(calls)]
    assert starts == sorted(starts)
    assert _most_in_a_window(starts, per) <= count
    assert starts[-1] == pytest.approx(((calls - 1) // count) * per)


def test_the_rate_holds_across_threads() -> None:
    time = FakeTime()
    rate = Rate(5, per=1.0, clock=time.clock, sleep=lambda seconds: None)
    reserved: list[float] = []
    lock = threading.Lock()

    def call(n: int) -> int:
        delay = rate.reserve()
        with lock:
            reserved.append(delay)
        return n

    assert stream(range(50)).map(call, concurrency=8).count() == 50
    assert sorted(reserved) == [float(k // 5) for k in range(50)]


def test_a_rate_is_refused_where_it_cannot_hold() -> None:
    with pytest.raises(TypeError, match="must be a lazyfun Rate"):
        stream([1]).map(abs, rate=(5, 1))  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="this process's threads"):
        stream([1]).map(abs, rate=Rate(5, per=1), via="process", concurrency=2)
    with pytest.raises(ValueError, match="at least 1"):
        Rate(0, per=1)
