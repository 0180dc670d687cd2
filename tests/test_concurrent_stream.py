"""Stream.map/filter/flatmap/do with concurrency=: bounds, order, errors, early stops."""

from __future__ import annotations

import itertools
import os
import pickle
import re
import signal
import threading
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import tenacity
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun import stream
from lazyfun.parallel import ParallelError, cluster
from lazyfun.parallel.places import THREAD_CHUNK


class InFlight:
    """Counts the calls running at once, under a lock."""

    def __init__(self, seconds: float = 0.002) -> None:
        self.lock = threading.Lock()
        self.now = self.most = self.calls = 0
        self.seconds = seconds

    def __call__(self, n: int) -> int:
        with self.lock:
            self.now += 1
            self.calls += 1
            self.most = max(self.most, self.now)
        time.sleep(self.seconds)
        with self.lock:
            self.now -= 1
        return n * 2


def workers_alive() -> list[threading.Thread]:
    """The threads lazyfun started that are still running."""
    return [t for t in threading.enumerate() if t.name.startswith("lazyfun") and t.is_alive()]


def slow_on(slow: int, seconds: float = 0.2) -> Callable[[int], int]:
    def f(n: int) -> int:
        if n == slow:
            time.sleep(seconds)
        return n

    return f


def square(n: int) -> int:
    return n * n


def fails_on_three(n: int) -> int:
    if n == 3:
        raise KeyError(f"no {n}")
    return n


def test_at_most_n_calls_are_in_flight() -> None:
    for n in (1, 3, 8):
        f = InFlight()
        assert stream(range(60)).map(f, concurrency=n).to_list() == [2 * k for k in range(60)]
        assert f.most <= n
        assert f.calls == 60
    f = InFlight()
    stream(range(60)).map(f, concurrency=8).to_list()
    assert f.most > 1  # it did run concurrently


def test_ordered_keeps_input_order_and_unordered_gives_the_fast_ones_first() -> None:
    f = slow_on(0)
    assert stream(range(6)).map(f, concurrency=3).to_list() == list(range(6))
    got = stream(range(6)).map(slow_on(0), concurrency=3, ordered=False).to_list()
    assert sorted(got) == list(range(6))
    assert got[0] != 0 and got[-1] == 0


def test_filter_flatmap_and_do_run_concurrently_with_the_same_answers() -> None:
    xs = range(50)
    assert stream(xs).filter(lambda n: n % 7 == 0, concurrency=4).to_list() == [
        0,
        7,
        14,
        21,
        28,
        35,
        42,
        49,
    ]
    assert stream(range(4)).flatmap(range, concurrency=3).to_list() == [0, 0, 1, 0, 1, 2]
    seen: list[int] = []
    lock = threading.Lock()

    def note(n: int) -> None:
        with lock:
            seen.append(n)

    assert stream(xs).do(note, concurrency=4).to_list() == list(xs)
    assert sorted(seen) == list(xs)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers()), st.integers(1, 6))
def test_law_concurrent_map_is_map(xs: list[int], n: int) -> None:
    assert stream(xs).map(square, concurrency=n).to_list() == list(map(square, xs))
    unordered = stream(xs).map(square, concurrency=n, ordered=False).to_list()
    assert Counter(unordered) == Counter(map(square, xs))


def test_an_infinite_input_is_read_a_bounded_distance_ahead() -> None:
    read = 0

    def counting() -> Iterator[int]:
        nonlocal read
        for n in itertools.count():
            read += 1
            yield n

    taken = stream(counting()).map(square, concurrency=4).take(10).to_list()
    assert taken == [n * n for n in range(10)]
    # 4 threads, 2 tasks each running, 4 x as many held, items per task at most THREAD_CHUNK
    assert read <= 10 + 4 * 2 * 4 * THREAD_CHUNK


@pytest.mark.untraced
def test_memory_stays_flat_on_a_long_input() -> None:
    def peak(n: int) -> int:
        tracemalloc.start()
        try:
            stream(range(n)).map(square, concurrency=8).count()
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    short, long = peak(100_000), peak(500_000)
    # five times the items: a held input would be five times the peak; a bounded
    # window stays at the size of its tasks (how many are held varies with timing),
    # which it has reached by 100,000 items (about 5 MB; 500,000 held ints take 18 MB)
    assert long < 2 * short, f"{short:,} -> {long:,} bytes"


def test_an_error_comes_at_its_place_with_a_note_and_nothing_after_it_is_lost() -> None:
    results = stream(range(8)).map(fails_on_three, concurrency=3)
    items = iter(results)
    got = [next(items) for _ in range(3)]
    with pytest.raises(KeyError, match="no 3") as raised:
        next(items)
    assert got == [0, 1, 2]
    assert "on item 3 of the input" in "\n".join(raised.value.__notes__)
    assert list(items) == [4, 5, 6, 7]
    caught = (
        stream(range(8)).map(fails_on_three, concurrency=3).catch(KeyError, replace=lambda e: -1)
    )
    assert caught.to_list() == [0, 1, 2, -1, 4, 5, 6, 7]
    unordered = stream(range(8)).map(fails_on_three, concurrency=3, ordered=False).catch(KeyError)
    assert sorted(unordered.to_list()) == [0, 1, 2, 4, 5, 6, 7]


def test_retry_runs_in_the_worker_and_keeps_the_item_in_place() -> None:
    tries: Counter[int] = Counter()
    lock = threading.Lock()

    def flaky(n: int) -> int:
        with lock:
            tries[n] += 1
            attempt = tries[n]
        if n % 2 and attempt < 3:
            raise ConnectionError(n)
        return n

    policy = tenacity.Retrying(
        stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_none(), reraise=True
    )
    assert stream(range(6)).map(flaky, concurrency=3, retry=policy).to_list() == list(range(6))
    assert tries == Counter({0: 1, 1: 3, 2: 1, 3: 3, 4: 1, 5: 3})
    tries.clear()
    assert stream(range(4)).map(flaky, retry=policy).to_list() == list(range(4))  # no concurrency
    assert tries[3] == 3


def test_stopping_early_leaves_no_thread_behind() -> None:
    before = threading.active_count()
    items = iter(stream(itertools.count()).map(InFlight(0.01), concurrency=6))
    assert next(items) == 0
    assert threading.active_count() > before
    items.close()  # type: ignore[attr-defined]
    deadline = time.monotonic() + 5
    while workers_alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert workers_alive() == []
    assert threading.active_count() <= before
    assert stream(itertools.count()).map(square, concurrency=4).first() == 0  # a terminal closes
    deadline = time.monotonic() + 5
    while workers_alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert workers_alive() == []


def test_ctrl_c_ends_a_concurrent_map_within_a_second() -> None:
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    before = threading.active_count()
    finished: list[int] = []

    def long_call(n: int) -> None:
        time.sleep(2)
        finished.append(n)

    timer.start()
    with pytest.raises(KeyboardInterrupt):
        stream(itertools.count()).map(long_call, concurrency=4).to_list()
    assert finished == []  # control came back while the first calls were still running
    timer.join()
    assert threading.active_count() <= before + 4  # the running sleeps finish on their own


def test_a_users_executor_is_used_and_left_running() -> None:
    with ThreadPoolExecutor(3) as pool:
        assert stream(range(5)).map(square, concurrency=3, via=pool).to_list() == [0, 1, 4, 9, 16]
        assert pool.submit(square, 4).result() == 16  # not shut down


def test_processes_take_module_level_functions_and_refuse_a_lambda_at_the_call() -> None:
    assert stream(range(6)).map(square, concurrency=2, via="process").to_list() == [
        n * n for n in range(6)
    ]
    with pytest.raises(ParallelError, match="cannot be pickled"):
        stream(range(3)).map(lambda n: n, concurrency=2, via="process")
    got = stream(range(6)).map(fails_on_three, concurrency=2, via="process").catch(KeyError)
    assert got.to_list() == [0, 1, 2, 4, 5]


def test_dask_runs_the_same_map(monkeypatch: pytest.MonkeyPatch) -> None:
    with cluster("sync") as place:
        assert stream(range(4)).map(square, via=place).to_list() == [0, 1, 4, 9]
    assert stream(range(4)).map(square, via="sync").to_list() == [0, 1, 4, 9]


def test_threads_are_the_default_even_inside_a_cluster_block() -> None:
    names: set[str] = set()

    def where(n: int) -> int:
        names.add(threading.current_thread().name)
        return n

    with cluster("sync"):
        stream(range(20)).map(where, concurrency=2).to_list()
    assert all(name.startswith("lazyfun") for name in names)


def test_bad_arguments_are_refused_at_the_call() -> None:
    with pytest.raises(ValueError, match="concurrency must be at least 1"):
        stream([1]).map(square, concurrency=0)
    with pytest.raises(TypeError, match="needs a function"):
        stream([1]).map(3)  # type: ignore[call-overload]
    with pytest.raises(ParallelError, match="via must be"):
        stream([1]).map(square, via="threads")

    async def coro(n: int) -> int:
        return n

    with pytest.raises(TypeError, match="astream"):
        stream([1]).map(coro)


def _is_value_error(error: BaseException) -> bool:
    return isinstance(error, ValueError)


def test_a_retry_policy_that_must_travel_is_checked_to_pickle() -> None:
    retry = tenacity.retry_if_exception(_is_value_error)
    policy = tenacity.Retrying(stop=tenacity.stop_after_attempt(2), retry=retry)
    try:
        pickle.dumps(policy)
    except TypeError:
        # before tenacity 9.2.1 a policy held a thread-local and pickled on no terms: the
        # process pool refuses it at the call, with the reason, rather than in a worker
        with pytest.raises(ParallelError, match="cannot be pickled"):
            stream([2]).map(square, concurrency=1, via="process", retry=policy)
        return
    assert stream([2]).map(square, concurrency=1, via="process", retry=policy).to_list() == [4]


def test_chunksize_fixes_the_items_a_task_carries() -> None:
    threads: dict[int, int] = {}

    def slow(n: int) -> int:
        threads[n] = threading.get_ident()
        time.sleep(0.01)
        return n

    got = stream(range(12)).map(slow, concurrency=4, chunksize=3).to_list()
    assert got == list(range(12))
    # each task of three ran its items one after another on one thread; tasks of one
    # item would have run items 0, 1 and 2 at once on three threads
    for first in range(0, 12, 3):
        assert len({threads[n] for n in range(first, first + 3)}) == 1


@pytest.mark.parametrize(
    ("options", "error", "says"),
    [
        ({"chunksize": 2}, ValueError, "chunksize sizes the tasks of concurrency= or via="),
        ({"concurrency": 2, "chunksize": 0}, ValueError, "map's chunksize must be at least 1"),
        ({"concurrency": 2, "chunksize": "2"}, TypeError, "map's chunksize must be an int"),
    ],
)
def test_a_chunksize_that_cannot_be_is_refused_at_the_call(
    options: dict[str, Any], error: type[Exception], says: str
) -> None:
    with pytest.raises(error, match=re.escape(says)):
        stream(range(3)).map(abs, **options)
