"""Sources, functions and inner iterables that raise part-way, for the laws that compare
a concurrent step with the sequential one (threads, processes, dask, asyncio): each is
defined at module level, so a process pool or a dask worker can unpickle it."""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator, Iterator
from typing import Any, TypeVar

from hypothesis import strategies as st

from lazyfun import stream

T = TypeVar("T")


class Flaky(Iterator[T]):
    """A resumable source: the items of ``items``, raising ``ValueError`` instead at the
    positions in ``failing`` and going on with the next one, as a Stream step does;
    ``at`` counts the reads."""

    def __init__(self, items: list[T], failing: set[int]) -> None:
        self.items, self.failing, self.at = items, failing, 0

    def __next__(self) -> T:
        if self.at >= len(self.items):
            raise StopIteration
        self.at += 1
        if self.at - 1 in self.failing:
            raise ValueError(f"source failed at {self.at - 1}")
        return self.items[self.at - 1]


class AsyncFlaky:
    """``Flaky`` as an async iterator."""

    def __init__(self, items: list[int], failing: set[int]) -> None:
        self.flaky: Flaky[int] = Flaky(items, failing)

    def __aiter__(self) -> AsyncFlaky:
        return self

    async def __anext__(self) -> int:
        try:
            return next(self.flaky)
        except StopIteration:
            raise StopAsyncIteration from None


class Resuming(Iterator[int]):
    """An iterator object (not a generator: a paginated client, ``map(int, text)``): the
    items of ``plan``, raising ``ValueError`` at each None of it and going on after it."""

    def __init__(self, plan: tuple[int | None, ...], name: str) -> None:
        self.plan, self.name, self.at = plan, name, 0

    def __next__(self) -> int:
        if self.at >= len(self.plan):
            raise StopIteration
        self.at += 1
        step = self.plan[self.at - 1]
        if step is None:
            raise ValueError(f"{self.name} failed at read {self.at - 1}")
        return step


def ending(plan: tuple[int | None, ...], name: str) -> Iterator[int]:
    """A generator: the items of ``plan`` up to its first None, where it raises and ends."""
    for at, step in enumerate(plan):
        if step is None:
            raise ValueError(f"{name} failed at read {at}")
        yield step


class AsyncResuming:
    """``Resuming`` as an async iterator: it goes on after an error too."""

    def __init__(self, plan: tuple[int | None, ...], name: str) -> None:
        self.resuming = Resuming(plan, name)

    def __aiter__(self) -> AsyncResuming:
        return self

    async def __anext__(self) -> int:
        try:
            return next(self.resuming)
        except StopIteration:
            raise StopAsyncIteration from None


async def aending(plan: tuple[int | None, ...], name: str) -> AsyncIterator[int]:
    """``ending`` as an async generator: it ends at its first error."""
    for n in ending(plan, name):
        yield n


Plan = tuple[str, tuple[int | None, ...]]  # the kind of an inner iterable, and its reads
SYNC_KINDS = ("iterator", "generator", "list")
ASYNC_KINDS = (*SYNC_KINDS, "async iterator", "async generator")


class Inners:
    """The function of a flatmap: on item ``i``, the inner iterable ``plans[i]`` says
    (a ``Resuming`` iterator, an ``ending`` generator, a list of its items, or their async
    twins), or a ``ValueError`` of its own when ``i`` is in ``failing``."""

    def __init__(self, plans: list[Plan], failing: set[int]) -> None:
        self.plans, self.failing = plans, failing

    def __call__(self, i: int) -> Any:
        if i in self.failing:
            raise ValueError(f"f failed on {i}")
        kind, plan = self.plans[i]
        name = f"inner {i}"
        if kind == "iterator":
            return Resuming(plan, name)
        if kind == "generator":
            return ending(plan, name)
        if kind == "async iterator":
            return AsyncResuming(plan, name)
        if kind == "async generator":
            return aending(plan, name)
        return [n for n in plan if n is not None]

    def synced(self) -> Inners:
        """The same inner iterables, each async one as its sync twin."""
        plans = [(kind.removeprefix("async "), plan) for kind, plan in self.plans]
        return Inners(plans, self.failing)


class Failing:
    """``n + 1``, or a ``ValueError`` on the items in ``bad``."""

    def __init__(self, bad: set[int]) -> None:
        self.bad = bad

    def __call__(self, n: int) -> int:
        if n in self.bad:
            raise ValueError(f"f failed on {n}")
        return n + 1


def plans(kinds: tuple[str, ...]) -> st.SearchStrategy[list[Plan]]:
    """Inner iterables of the ``kinds``, each a few reads, any of which may raise."""
    reads = st.lists(st.one_of(st.integers(0, 99), st.none()), max_size=6).map(tuple)
    return st.lists(st.tuples(st.sampled_from(kinds), reads), max_size=10)


FLATMAP_CASES = {  # a flatmap's inner iterables, and where the source and the function fail
    "plans": plans(SYNC_KINDS),
    "in_source": st.sets(st.integers(0, 9), max_size=3),
    "in_f": st.sets(st.integers(0, 9), max_size=3),
    "ordered": st.booleans(),
}
MAP_CASES = {  # a map's items, and where the source and the function fail
    "items": st.lists(st.integers(0, 50), max_size=30),
    "in_source": st.sets(st.integers(0, 29), max_size=4),
    "in_f": st.sets(st.integers(0, 50), max_size=4),
    "ordered": st.booleans(),
}


def caught(chain: Any) -> Any:
    """Each error replaced by its message: the lists compare items and errors alike."""
    return chain.catch(ValueError, replace=str)


def agrees(concurrent: list[Any], sequential: list[Any], ordered: bool) -> bool:
    """In order: the same list, each error at its place; as completed: the same items
    and the same errors, in any order."""
    return concurrent == sequential if ordered else Counter(concurrent) == Counter(sequential)


def flatmapped(inners: Inners, in_source: set[int], **kw: Any) -> list[Any]:
    """A sync flatmap of ``inners`` over a source failing at ``in_source``, caught."""
    source = Flaky(list(range(len(inners.plans))), in_source)
    result: list[Any] = caught(stream(source).flatmap(inners, **kw)).to_list()
    return result


def mapped(items: list[int], in_source: set[int], f: Failing, **kw: Any) -> list[Any]:
    """A sync map of ``f`` over ``items`` failing at ``in_source``, caught."""
    result: list[Any] = caught(stream(Flaky(items, in_source)).map(f, **kw)).to_list()
    return result


def placed_agrees(
    via: str,
    plans: list[Plan],
    in_source: set[int],
    in_f: set[int],
    ordered: bool,
    map_items: list[int],
    map_in_source: set[int],
    map_in_f: set[int],
    map_ordered: bool,
) -> bool:
    """Whether a flatmap and a map, two at a time ``via`` processes or a dask cluster,
    give what the sequential chains give (the laws' body for the places that pickle)."""
    inners, f = Inners(plans, in_f), Failing(map_in_f)
    placed = flatmapped(inners, in_source, concurrency=2, ordered=ordered, via=via)
    on_place = mapped(map_items, map_in_source, f, concurrency=2, ordered=map_ordered, via=via)
    return agrees(placed, flatmapped(inners, in_source), ordered) and agrees(
        on_place, mapped(map_items, map_in_source, f), map_ordered
    )
