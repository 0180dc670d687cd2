"""Nothing is lost silently: errors travel to their place through concurrent steps and
batching steps, and a concurrent chain caught loses what the sequential one loses.
"""

from __future__ import annotations

import asyncio
import operator
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun import astream, stream


class Flaky(Iterator[int]):
    """A resumable source: the items of ``items``, raising ``ValueError`` instead at the
    positions in ``failing`` and going on with the next one, as a Stream step does."""

    def __init__(self, items: list[int], failing: set[int]) -> None:
        self.items, self.failing, self.at = items, failing, 0

    def __next__(self) -> int:
        if self.at >= len(self.items):
            raise StopIteration
        self.at += 1
        if self.at - 1 in self.failing:
            raise ValueError(f"source failed at {self.at - 1}")
        return self.items[self.at - 1]


def double(n: int) -> int:
    return 2 * n


def _failing_on(bad: set[int]) -> Callable[[int], int]:
    def f(n: int) -> int:
        if n in bad:
            raise ValueError(f"f failed on {n}")
        return n + 1

    return f


def not_of_three(n: int) -> bool:
    return n % 3 != 0


def and_negated(n: int) -> list[int]:
    return [n, -n]


def nothing(n: int) -> None:
    return None


STEPS: dict[str, Callable[[Any, dict[str, Any]], Any]] = {
    "map": lambda s, kw: s.map(double, **kw),
    "filter": lambda s, kw: s.filter(not_of_three, **kw),
    "flatmap": lambda s, kw: s.flatmap(and_negated, **kw),
    "do": lambda s, kw: s.do(nothing, **kw),
}


@pytest.mark.parametrize("step", sorted(STEPS))
@pytest.mark.parametrize("via", [None, "process"])
def test_an_error_upstream_of_a_concurrent_step_keeps_its_place(step: str, via: Any) -> None:
    def chain(kw: dict[str, Any]) -> list[Any]:
        upstream = stream(["1", "x", "3", "4"]).map(int)
        result: list[Any] = STEPS[step](upstream, kw).catch(ValueError).to_list()
        return result

    sequential = chain({})
    assert sequential  # the reproducer: [2, 6, 8] for map; the concurrent chain gave []
    assert chain({"concurrency": 2, "via": via}) == sequential


def test_the_reproducer_of_the_issue() -> None:
    chain = stream(["1", "x", "3", "4"]).map(int).map(double, concurrency=2)
    assert chain.catch(ValueError).to_list() == [2, 6, 8]


@given(
    items=st.lists(st.integers(0, 50), max_size=40),
    in_source=st.sets(st.integers(0, 39), max_size=5),
    in_f=st.sets(st.integers(0, 50), max_size=5),
    concurrency=st.integers(1, 4),
    ordered=st.booleans(),
)
@settings(max_examples=60)
def test_catch_after_a_concurrent_map_gives_what_the_sequential_map_gives(
    items: list[int], in_source: set[int], in_f: set[int], concurrency: int, ordered: bool
) -> None:
    f = _failing_on(in_f)
    sequential = stream(Flaky(items, in_source)).map(f).catch(ValueError).to_list()
    concurrent = (
        stream(Flaky(items, in_source))
        .map(f, concurrency=concurrency, ordered=ordered)
        .catch(ValueError)
        .to_list()
    )
    if ordered:
        assert concurrent == sequential
    else:
        assert Counter(concurrent) == Counter(sequential)


def _read_until_error(batches: Iterator[list[int]]) -> tuple[list[list[int]], bool]:
    seen: list[list[int]] = []
    try:
        seen.extend(batches)
    except ValueError:
        return seen, True
    return seen, False


def test_a_partial_batch_is_flushed_before_the_error_passes() -> None:
    def f(n: int) -> int:
        if n == 50:
            raise ValueError(n)
        return n

    batches = iter(stream(range(120)).map(f).chunked(20))
    seen, failed = _read_until_error(batches)
    assert failed and [len(b) for b in seen] == [20, 20, 10]
    assert [n for b in seen for n in b] == list(range(50))
    assert [len(b) for b in batches] == [20, 20, 20, 9]  # the rest, after the error


@pytest.mark.parametrize(
    ("batch", "in_order"),
    [
        (lambda s: s.chunked(3), True),
        (lambda s: s.group(3), True),
        (lambda s: s.group(3, within=60), True),
        (lambda s: s.group(by=lambda n: n % 2).map(operator.itemgetter(1)), False),
        (lambda s: s.window(3).map(list), False),
    ],
    ids=["chunked", "group", "group-within", "group-by", "window"],
)
@given(
    items=st.lists(st.integers(0, 99), min_size=1, max_size=30, unique=True),
    failing=st.integers(0, 29),
)
@settings(max_examples=40)
def test_the_batches_before_an_error_hold_the_items_read_before_it(
    batch: Callable[[Any], Any], in_order: bool, items: list[int], failing: int
) -> None:
    before = items[:failing]
    seen, failed = _read_until_error(iter(batch(stream(Flaky(items, {failing})))))
    assert failed == (failing < len(items))
    flat = [n for b in seen for n in b]
    if in_order:  # the batches concatenate to the items read before the error
        assert flat == before
    else:  # every item read before the error is in a batch seen before it
        assert set(flat) == set(before)


def test_group_by_yields_its_open_groups_in_order_before_the_error() -> None:
    items = stream(Flaky([1, 2, 3, 4, 5], {3})).group(by=lambda n: n % 2)
    seen = iter(items)
    assert [next(seen), next(seen)] == [(1, [1, 3]), (0, [2])]
    with pytest.raises(ValueError, match="source failed at 3"):
        next(seen)
    assert list(seen) == [(1, [5])]


def test_streamables_example_errors_at_2_and_5_in_groups_of_3() -> None:
    got: list[Any] = stream(Flaky(list(range(10)), {2, 5})).chunked(3).catch(ValueError).to_list()
    assert got == [[0, 1], [3, 4], [6, 7, 8], [9]]


def test_a_window_never_spans_an_error() -> None:
    got: list[Any] = stream(Flaky(list(range(6)), {2})).window(2).catch(ValueError).to_list()
    assert got == [(0, 1), (3, 4), (4, 5)]


def test_retry_takes_a_count_of_attempts() -> None:
    calls: Counter[int] = Counter()

    def twice_failing(n: int) -> int:
        calls[n] += 1
        if calls[n] < 3:
            raise OSError("try again")
        return n

    assert stream(range(3)).map(twice_failing, retry=3).to_list() == [0, 1, 2]
    assert all(count == 3 for count in calls.values())
    calls.clear()
    with pytest.raises(OSError, match="try again"):
        stream(range(3)).map(twice_failing, retry=2).to_list()


@pytest.mark.parametrize("retry", ["3", 0, 2.5, True])
def test_retry_refuses_anything_else_at_the_call(retry: Any) -> None:
    with pytest.raises((TypeError, ValueError), match="retry="):
        stream(range(3)).map(double, retry=retry)


class AsyncFlaky:
    """``Flaky`` as an async iterator."""

    def __init__(self, items: list[int], failing: set[int]) -> None:
        self.flaky = Flaky(items, failing)

    def __aiter__(self) -> AsyncFlaky:
        return self

    async def __anext__(self) -> int:
        try:
            return next(self.flaky)
        except StopIteration:
            raise StopAsyncIteration from None


@pytest.mark.parametrize(
    ("batch", "expected"),
    [
        (lambda s: s.chunked(3), [[0, 1], [3, 4], [6, 7, 8], [9]]),
        (lambda s: s.group(3), [[0, 1], [3, 4], [6, 7, 8], [9]]),
        (
            lambda s: s.group(by=lambda n: n % 2),
            [(0, [0]), (1, [1]), (1, [3]), (0, [4]), (0, [6, 8]), (1, [7, 9])],
        ),
        (lambda s: s.window(2), [(0, 1), (3, 4), (6, 7), (7, 8), (8, 9)]),
    ],
    ids=["chunked", "group", "group-by", "window"],
)
def test_async_batches_flush_before_an_error_too(
    batch: Callable[[Any], Any], expected: list[Any]
) -> None:
    async def run() -> list[Any]:
        result: list[Any] = (
            await batch(astream(AsyncFlaky(list(range(10)), {2, 5}))).catch(ValueError).to_list()
        )
        return result

    assert asyncio.run(run()) == expected
    assert batch(stream(Flaky(list(range(10)), {2, 5}))).catch(ValueError).to_list() == expected
