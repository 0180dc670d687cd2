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
from tests import raising
from tests.raising import (
    ASYNC_KINDS,
    FLATMAP_CASES,
    MAP_CASES,
    AsyncFlaky,
    Failing,
    Flaky,
    Inners,
    Plan,
    agrees,
    caught,
    flatmapped,
    mapped,
)


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


# --- inner iterables that raise part-way: the concurrent flatmap reads what the chain reads


def _aflatmapped(inners: Inners, in_source: set[int], **kw: Any) -> list[Any]:
    async def main() -> list[Any]:
        source = AsyncFlaky(list(range(len(inners.plans))), in_source)
        result: list[Any] = await caught(astream(source).flatmap(inners, **kw)).to_list()
        return result

    return asyncio.run(main())


@pytest.mark.compiled  # the sequential chain is the C flow engine's FlatMapped when built
@given(**FLATMAP_CASES, concurrency=st.integers(1, 4))
@settings(max_examples=50, deadline=None)
def test_a_concurrent_flatmap_on_threads_gives_what_the_sequential_flatmap_gives(
    plans: list[Plan], in_source: set[int], in_f: set[int], ordered: bool, concurrency: int
) -> None:
    inners = Inners(plans, in_f)
    sequential = flatmapped(inners, in_source)
    concurrent = flatmapped(inners, in_source, concurrency=concurrency, ordered=ordered)
    assert agrees(concurrent, sequential, ordered)


@given(
    **{**FLATMAP_CASES, "plans": raising.plans(ASYNC_KINDS)},
    **{f"map_{name}": case for name, case in MAP_CASES.items()},
    concurrency=st.integers(1, 4),
)
@settings(max_examples=50, deadline=None)
def test_a_concurrent_async_flatmap_and_map_give_what_the_sequential_ones_give(
    plans: list[Plan],
    in_source: set[int],
    in_f: set[int],
    ordered: bool,
    map_items: list[int],
    map_in_source: set[int],
    map_in_f: set[int],
    map_ordered: bool,
    concurrency: int,
) -> None:
    inners = Inners(plans, in_f)
    sequential = flatmapped(inners.synced(), in_source)
    assert _aflatmapped(inners, in_source) == sequential  # the async chain reads alike
    concurrent = _aflatmapped(inners, in_source, concurrency=concurrency, ordered=ordered)
    assert agrees(concurrent, sequential, ordered)
    f = Failing(map_in_f)

    async def amapped() -> list[Any]:
        source = AsyncFlaky(map_items, map_in_source)
        chain = astream(source).map(f, concurrency=concurrency, ordered=map_ordered)
        result: list[Any] = await caught(chain).to_list()
        return result

    assert agrees(asyncio.run(amapped()), mapped(map_items, map_in_source, f), map_ordered)


@given(**FLATMAP_CASES, **{f"map_{name}": case for name, case in MAP_CASES.items()})
@settings(max_examples=6, deadline=None)
def test_a_flatmap_and_a_map_on_processes_give_what_the_sequential_ones_give(
    plans: list[Plan],
    in_source: set[int],
    in_f: set[int],
    ordered: bool,
    map_items: list[int],
    map_in_source: set[int],
    map_in_f: set[int],
    map_ordered: bool,
) -> None:
    assert raising.placed_agrees(
        "process", plans, in_source, in_f, ordered, map_items, map_in_source, map_in_f, map_ordered
    )


WORDS = ["246281", "48-2", "", "9-35", "", "1909"]  # a "-" is an error of map(int, word)
DIGITS = [2, 4, 6, 2, 8, 1, 4, 8, 2, 9, 3, 5, 1, 9, 0, 9]


def digits(word: str) -> Iterator[int]:
    return map(int, word)


def test_the_reproducer_of_items_lost_by_a_concurrent_flatmap() -> None:
    def chain(**kw: Any) -> tuple[list[int], int]:
        errors: list[Exception] = []
        items = stream(WORDS).flatmap(digits, **kw).catch(ValueError, do=errors.append).to_list()
        return items, len(errors)

    def achain(**kw: Any) -> tuple[list[int], int]:
        errors: list[Exception] = []

        async def main() -> list[int]:
            flat = astream(WORDS).flatmap(digits, **kw)
            items: list[int] = await flat.catch(ValueError, do=errors.append).to_list()
            return items

        return asyncio.run(main()), len(errors)

    assert chain() == achain() == (DIGITS, 2)
    for n in (2, 4):  # the concurrent chains gave 10 items: [4, 8, 2] and [9, 3, 5] lost
        assert chain(concurrency=n) == achain(concurrency=n) == (DIGITS, 2)
        unordered = (chain(concurrency=n, ordered=False), achain(concurrency=n, ordered=False))
        for items, errors in unordered:
            assert (sorted(items), errors) == (sorted(DIGITS), 2)
