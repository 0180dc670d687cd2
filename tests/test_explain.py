"""``explain``: the plan as written, shown before anything is read, and for an analysed
stream the exact counts of each step, equal to what a chain tapped by hand sees."""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun import AsyncStream, Stream, astream, stream
from lazyfun.trace import Probe
from tests.budget import examples

# the counts are kept by the C flow engine where it is built, else in Python: the pure
# pass runs these again on the Python form
pytestmark = pytest.mark.compiled


@dataclass
class Tap(Iterator[Any]):
    """An iterator that counts what passes through it: items, and errors raised."""

    items: Iterator[Any]
    passed: int = 0
    errors: int = 0

    def __next__(self) -> Any:
        try:
            item = next(self.items)
        except StopIteration:
            raise
        except Exception:
            self.errors += 1
            raise
        self.passed += 1
        return item


@dataclass
class Calls:
    """A step's function that counts its calls and fails on the items it is told."""

    failing: frozenset[int] = frozenset()
    made: int = 0
    seen: list[int] = field(default_factory=list)

    def __call__(self, n: int) -> int:
        self.made += 1
        if n in self.failing:
            raise ValueError(n)
        return n * 2

    async def acall(self, n: int) -> int:
        """The same, as a coroutine function that lets the event loop run first."""
        await asyncio.sleep(0)
        return self(n)


@dataclass
class ATap(AsyncIterator[Any]):
    """:class:`Tap` for an async iterator."""

    items: AsyncIterator[Any]
    passed: int = 0
    errors: int = 0

    async def __anext__(self) -> Any:
        try:
            item = await anext(self.items)
        except StopAsyncIteration:
            raise
        except Exception:
            self.errors += 1
            raise
        self.passed += 1
        return item


def read_all(items: Iterator[Any]) -> list[Any]:
    """Every item, errors that reach the end skipped (the iterator goes on after them)."""
    got: list[Any] = []
    while True:
        try:
            got.append(next(items))
        except StopIteration:
            return got
        except ValueError:
            continue


def test_the_plan_shows_each_step_as_written_and_reads_nothing() -> None:
    read: list[int] = []

    def source() -> Iterator[int]:
        for n in range(10):
            read.append(n)
            yield n

    pipeline = (
        stream(source())
        .map(str, concurrency=4, ordered=False)
        .filter(str.isdigit)
        .catch(ValueError, KeyError, replace=repr)
        .group(3)
        .take(2)
    )
    assert repr(pipeline) == pipeline.explain()
    assert pipeline.explain().splitlines() == [
        "stream(<generator source>)",
        ".map(str, concurrency=4, ordered=False)",
        ".filter(str.isdigit)",
        ".catch(ValueError, KeyError, replace=repr)",
        ".group(3)",
        ".take(2)",
    ]
    assert read == []
    assert stream([1, 2, 3]).explain() == "stream([1, 2, 3])"


def test_a_function_inside_an_argument_shows_by_its_name_as_one_outside_does() -> None:
    from lazyfun import field

    pairs = stream([({"a": 1.0}, {"c": "x"})] * 3, analyze=True)
    pairs.aggregate(field(1, "c"), t=("sum", field(0, "a")), u=("max", lambda p: 1))
    row = pairs.explain(analyze=True).splitlines()[-1]
    assert row.startswith(
        ".aggregate(field(1, 'c'), t=('sum', field(0, 'a')), u=('max', <lambda>))"
    )
    assert " at 0x" not in row


def test_after_a_take_the_map_ran_as_often_as_the_source_was_read() -> None:
    square = Calls()
    pipeline = stream(range(100), analyze=True).map(square).take(5)
    assert pipeline.to_list() == [0, 2, 4, 6, 8]
    source, mapped, taken, _ = pipeline.explain(analyze=True, format="dict")
    assert source["out"] == 5 and source["in"] is None
    assert (mapped["in"], mapped["out"], mapped["calls"]) == (5, 5, 5) == (5, 5, square.made)
    assert (taken["in"], taken["out"], taken["calls"]) == (5, 5, None)


def test_errors_are_counted_where_they_pass_and_where_they_are_caught() -> None:
    fails = Calls(frozenset({1, 4}))
    pipeline = stream(range(6), analyze=True).map(fails, retry=3).catch(ValueError)
    assert pipeline.to_list() == [0, 4, 6, 10]
    _, mapped, caught, _ = pipeline.explain(analyze=True, format="dict")
    assert (mapped["out"], mapped["errors out"], mapped["calls"]) == (4, 2, 6 + 2 * 2)
    assert (caught["errors in"], caught["errors out"], caught["out"]) == (2, 0, 4)
    text = pipeline.explain(analyze=True, times=False)
    assert text.splitlines()[2].split()[-5:] == ["6", "4", "0/2", "10", "-"]
    assert text.splitlines()[3].split()[-5:] == ["4", "4", "2/0", "-", "-"]


def test_counts_hold_on_a_stream_left_early_closed_or_ended_by_an_error() -> None:
    left = stream(range(100), analyze=True).map(str)
    items = iter(left)
    assert [next(items), next(items)] == ["0", "1"]
    left.close()
    assert [row["out"] for row in left.explain(analyze=True, format="dict")] == [2, 2]

    broken = stream([1, 0, 2], analyze=True).map(lambda n: 1 // n)
    with pytest.raises(ZeroDivisionError):
        broken.to_list()
    rows = broken.explain(analyze=True, format="dict")
    assert (rows[1]["out"], rows[1]["errors out"], rows[1]["calls"]) == (1, 1, 2)


def test_an_async_streams_counts_hold_when_left_early_closed_or_ended_by_an_error() -> None:
    async def left_early() -> list[object]:
        left = astream(range(100), analyze=True).map(Calls().acall)
        items = aiter(left)
        assert [await anext(items), await anext(items)] == [0, 2]
        await left.aclose()
        return [row["out"] for row in left.explain(analyze=True, format="dict")]

    async def taken() -> list[tuple[object, object]]:
        square = Calls()
        pipeline = astream(range(100), analyze=True).map(square.acall).take(5)
        assert await pipeline.to_list() == [0, 2, 4, 6, 8]
        return [(row["out"], row["calls"]) for row in pipeline.explain(analyze=True, format="dict")]

    async def broken() -> tuple[object, object, object]:
        pipeline = astream([1, 0, 2], analyze=True).map(lambda n: 1 // n)
        with pytest.raises(ZeroDivisionError):
            await pipeline.to_list()
        row = pipeline.explain(analyze=True, format="dict")[1]
        return row["out"], row["errors out"], row["calls"]

    assert asyncio.run(left_early()) == [2, 2]
    assert asyncio.run(taken()) == [(5, None), (5, 5), (5, None), (5, None)]
    assert asyncio.run(broken()) == (1, 1, 2)


def test_a_concurrent_step_shows_its_calls_and_the_most_it_held() -> None:
    pipeline = stream(range(50), analyze=True).map(abs, concurrency=3, chunksize=1)
    assert pipeline.to_list() == list(range(50))
    source, mapped, _ = pipeline.explain(analyze=True, format="dict")
    assert source["out"] == 50 and mapped["calls"] == 50 and mapped["out"] == 50
    assert isinstance(mapped["held"], int) and 1 <= mapped["held"] <= 50
    buffered = stream(range(20), analyze=True).buffer(4)
    assert buffered.to_list() == list(range(20))
    held = buffered.explain(analyze=True, format="dict")[1]["held"]
    assert isinstance(held, int) and 1 <= held <= 4


def test_a_group_holds_its_lists_and_times_are_kept() -> None:
    pipeline = stream(range(10), analyze=True).group(4)
    assert pipeline.to_list() == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    row = pipeline.explain(analyze=True, format="dict")[1]
    assert row["held"] == 4 and row["out"] == 3
    assert isinstance(row["seconds"], float) and row["seconds"] >= 0.0
    header = pipeline.explain(analyze=True).splitlines()[0].split()
    assert header == [
        "step",
        "in",
        "out",
        "errors",
        "calls",
        "held",
        "inside",
        "ms",
        "waiting",
        "ms",
    ]


def test_counts_need_an_analysed_stream_and_analyze_comes_before_reading() -> None:
    plain = stream(range(3)).map(str)
    plain.to_list()
    with pytest.raises(ValueError, match="analyze=True"):
        plain.explain(analyze=True)
    with pytest.raises(ValueError, match="before reading"):
        plain.analyze()
    later = stream(range(3)).analyze().map(str)
    assert later.to_list() == ["0", "1", "2"]
    assert later.explain(analyze=True, format="dict")[0]["out"] == 3
    with pytest.raises(ValueError, match="'text' or 'dict'"):
        later.explain(format="json")  # type: ignore[call-overload]


def test_the_environment_analyses_every_stream() -> None:
    code = (
        "from lazyfun import stream\n"
        "s = stream(range(4)).map(str)\n"
        "s.to_list()\n"
        "print(s.explain(analyze=True, format='dict')[1]['calls'])\n"
    )
    env = {**os.environ, "LAZYFUN_ANALYZE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.stdout.strip() == "4", done.stderr


def test_an_async_stream_explains_itself_with_coroutines_counted() -> None:
    async def double(n: int) -> int:
        await asyncio.sleep(0)
        if n == 3:
            raise ValueError(n)
        return n * 2

    async def run() -> tuple[list[int], AsyncStream[int]]:
        pipeline = astream(range(8), analyze=True).map(double, concurrency=3).catch(ValueError)
        return await pipeline.to_list(), pipeline

    got, pipeline = asyncio.run(run())
    assert got == [0, 2, 4, 8, 10, 12, 14]
    assert pipeline.explain().splitlines() == [
        "astream(range(0, 8))",
        ".map(double, concurrency=3)",
        ".catch(ValueError)",
        ".to_list()",
    ]
    _, mapped, caught, _ = pipeline.explain(analyze=True, format="dict")
    assert (mapped["calls"], mapped["out"], mapped["errors out"]) == (8, 7, 1)
    assert (caught["errors in"], caught["out"]) == (1, 7)
    assert repr(stream(range(2)).to_async().map(str)).splitlines()[1:] == [
        ".to_async()",
        ".map(str)",
    ]


def test_closing_an_analysed_async_stream_ends_what_it_holds_as_one_not_analysed() -> None:
    async def tasks_left(analyze: bool) -> int:
        s = astream(range(10**9), analyze=analyze).map(abs, concurrency=4).buffer(5).map(str)
        items = aiter(s)
        assert await anext(items) == "0"
        await s.aclose()  # through each stage's count: the buffer's reading task ends
        await asyncio.sleep(0.05)
        return len(asyncio.all_tasks())

    assert asyncio.run(tasks_left(True)) == asyncio.run(tasks_left(False)) == 1


# --- the law: explain's counts are what a chain tapped by hand sees ------------------------

STEPS = ("map", "filter", "catch", "take", "do", "threaded map", "group", "observe", "probe")
ASYNC_STEPS = (*STEPS, "coroutine map", "concurrent coroutines")
CONCURRENT = ("threaded map", "concurrent coroutines")
CALLING = ("map", "filter", "do", *CONCURRENT, "coroutine map")  # their calls are counted
QUIET = logging.getLogger("lazyfun.test.explain.quiet")  # observe's reports, unread
QUIET.propagate = False


def build(kind: str, s: Any, f: Calls, k: int) -> Any:
    """One step of the chain (``f`` the step's function, ``k`` the take's count)."""
    steps: dict[str, Callable[[], Any]] = {
        "map": lambda: s.map(f),
        "filter": lambda: s.filter(lambda n: f(n) % 3 != 0),
        "catch": lambda: s.catch(ValueError),
        "take": lambda: s.take(k),
        "do": lambda: s.do(f),
        "threaded map": lambda: s.map(f, concurrency=2),
        "group": lambda: s.group(2).map(sum),
        "observe": lambda: s.observe("o", QUIET),  # a watching step: counts its own
        "probe": lambda: s.probe("p", Probe()),
        "coroutine map": lambda: s.map(f.acall),
        "concurrent coroutines": lambda: s.map(f.acall, concurrency=2),
    }
    return steps[kind]()


def _no_take_after_a_concurrent_step(kinds: list[str]) -> bool:
    """A take after a concurrent step reads ahead by as much as the calls ran: the two
    runs compared would differ by timing, not by counting."""
    concurrent = [k for k, kind in enumerate(kinds) if kind in CONCURRENT]
    return not concurrent or "take" not in kinds[concurrent[0] :]


chains = st.lists(st.sampled_from(STEPS), min_size=1, max_size=5).filter(
    _no_take_after_a_concurrent_step
)
achains = st.lists(st.sampled_from(ASYNC_STEPS), min_size=1, max_size=5).filter(
    _no_take_after_a_concurrent_step
)


def _rows_of_each_step(kinds: list[str]) -> tuple[list[int], list[int]]:
    """Each step's first row in the explain, and the row whose output its tap saw (a
    group is two: the group and the sum of each list); row 0 is the source."""
    firsts, ends = [], [0]
    for kind in kinds:
        firsts.append(ends[-1] + 1)
        ends.append(ends[-1] + (2 if kind == "group" else 1))
    return firsts, ends


@settings(max_examples=examples(60), deadline=None)
@given(
    kinds=chains,
    items=st.lists(st.integers(0, 20), max_size=30),
    failing=st.frozensets(st.integers(0, 40), max_size=6),
    k=st.integers(0, 10),
)
def test_explains_counts_equal_a_chain_tapped_by_hand(
    kinds: list[str], items: list[int], failing: frozenset[int], k: int
) -> None:
    # the analysed chain
    mine = [Calls(failing) for _ in kinds]
    analysed: Any = stream(items, analyze=True)
    for kind, f in zip(kinds, mine, strict=True):
        analysed = build(kind, analysed, f, k)
    got = read_all(iter(analysed))
    rows = analysed.explain(analyze=True, format="dict")

    # the same chain, each step a stream of its own over a tap of the one before
    theirs = [Calls(failing) for _ in kinds]
    taps = [Tap(iter(items))]
    for kind, f in zip(kinds, theirs, strict=True):
        taps.append(Tap(iter(build(kind, stream(taps[-1]), f, k))))
    assert read_all(taps[-1]) == got

    firsts, ends = _rows_of_each_step(kinds)
    assert len(rows) == ends[-1] + 1
    for tap, end in zip(taps, ends, strict=True):
        assert (rows[end]["out"], rows[end]["errors out"]) == (tap.passed, tap.errors), rows
    for kind, f, g, first in zip(kinds, mine, theirs, firsts, strict=True):
        assert f.made == g.made
        calls = f.made if kind in CALLING else None
        assert rows[first]["calls"] == calls, (kind, rows)


@settings(max_examples=examples(40), deadline=None)
@given(
    kinds=achains,
    items=st.lists(st.integers(0, 20), max_size=30),
    failing=st.frozensets(st.integers(0, 40), max_size=6),
    k=st.integers(0, 10),
)
def test_an_async_chains_counts_equal_a_chain_tapped_by_hand(
    kinds: list[str], items: list[int], failing: frozenset[int], k: int
) -> None:
    mine = [Calls(failing) for _ in kinds]
    theirs = [Calls(failing) for _ in kinds]

    async def run() -> tuple[list[Any], list[dict[str, object]], list[Any], list[ATap]]:
        analysed: Any = astream(items, analyze=True)
        for kind, f in zip(kinds, mine, strict=True):
            analysed = build(kind, analysed, f, k)
        got = [item async for item in _skipping(analysed)]
        rows: list[dict[str, object]] = analysed.explain(analyze=True, format="dict")
        taps = [ATap(aiter(astream(items)))]
        for kind, f in zip(kinds, theirs, strict=True):
            taps.append(ATap(aiter(build(kind, astream(taps[-1]), f, k))))
        tapped = [item async for item in _skipping(taps[-1])]
        return got, rows, tapped, taps

    got, rows, tapped, taps = asyncio.run(run())
    assert tapped == got
    firsts, ends = _rows_of_each_step(kinds)
    assert len(rows) == ends[-1] + 1
    for tap, end in zip(taps, ends, strict=True):
        assert (rows[end]["out"], rows[end]["errors out"]) == (tap.passed, tap.errors), rows
    for kind, f, g, first in zip(kinds, mine, theirs, firsts, strict=True):
        assert f.made == g.made
        assert rows[first]["calls"] == (f.made if kind in CALLING else None), (kind, rows)


async def _skipping(chain: AsyncStream[Any] | AsyncIterator[Any]) -> AsyncIterator[Any]:
    """The items of an async chain, errors that reach the end skipped."""
    items = aiter(chain)
    while True:
        try:
            yield await anext(items)
        except StopAsyncIteration:
            return
        except ValueError:
            continue


def test_a_stream_of_a_stream_is_itself_and_analyze_turns_it_on() -> None:
    inner: Stream[int] = stream(range(3))
    assert stream(inner, analyze=True) is inner
    assert inner.to_list() == [0, 1, 2]
    assert inner.explain(analyze=True, format="dict")[0]["out"] == 3


def test_a_reader_names_itself_as_the_source(tmp_path: Any) -> None:
    from lazyfun.io import read_csv, read_jsonl, read_sql

    path, db = tmp_path / "n.jsonl", tmp_path / "n.db"
    stream([{"n": 1}, {"n": 2}]).to_jsonl(path)
    stream([{"n": 1}]).to_sql(db, "t")
    pipeline = read_jsonl(path).analyze().map(str)
    assert pipeline.to_list() == ["{'n': 1}", "{'n': 2}"]
    rows = pipeline.explain(analyze=True, format="dict")
    assert rows[0]["step"] == f"read_jsonl({str(path)!r})" and rows[0]["out"] == 2
    assert read_sql(db, "select n from t").explain() == f"read_sql({str(db)!r}, 'select n from t')"
    stream([{"n": 1}]).to_csv(tmp_path / "n.csv")
    table = read_csv(tmp_path / "n.csv").analyze()
    assert table.to_list() == [{"n": "1"}]
    assert table.explain() == f"read_csv({str(tmp_path / 'n.csv')!r})\n.to_list()"


# --- every source, verb and terminal is a row (#69) ---------------------------------------


def test_a_terminal_is_the_last_row_with_what_it_took_in_gave_and_its_time() -> None:
    listed = stream(range(10), analyze=True).map(str)
    assert listed.to_list() == [str(n) for n in range(10)]
    rows = listed.explain(analyze=True, format="dict")
    assert [row["step"] for row in rows] == ["stream(range(0, 10))", ".map(str)", ".to_list()"]
    assert (rows[2]["in"], rows[2]["out"], rows[2]["held"], rows[2]["calls"]) == (10, 10, 10, None)
    assert rows[2]["waiting"] == rows[1]["seconds"]
    counted = stream(range(7), analyze=True)
    assert counted.count() == 7
    last = counted.explain(analyze=True, format="dict")[-1]
    assert (last["step"], last["in"], last["out"]) == (".count()", 7, None)
    broken = stream([1, 0], analyze=True).map(lambda n: 1 // n)
    with pytest.raises(ZeroDivisionError):
        broken.to_list()
    last = broken.explain(analyze=True, format="dict")[-1]
    assert (last["step"], last["errors in"], last["errors out"]) == (".to_list()", 1, 1)


def test_a_sink_is_a_row_with_the_records_it_wrote_and_the_time_inside_it(tmp_path: Any) -> None:
    path = tmp_path / "out.jsonl"
    pipeline = stream(range(50), analyze=True).map(lambda n: {"n": n})
    assert pipeline.to_jsonl(path) == 50
    *_, sink = pipeline.explain(analyze=True, format="dict")
    assert str(sink["step"]).startswith(".to_jsonl(") and (sink["in"], sink["out"]) == (50, 50)
    assert isinstance(sink["inside"], float) and sink["inside"] > 0.0
    assert pipeline.explain(analyze=True).splitlines()[-1].startswith(".to_jsonl(")


def test_an_async_terminal_is_a_row_and_a_terminal_given_a_window_is_a_step() -> None:
    async def run() -> list[dict[str, object]]:
        pipeline = astream(range(5), analyze=True).map(Calls().acall)
        assert await pipeline.to_list() == [0, 2, 4, 6, 8]
        rows: list[dict[str, object]] = pipeline.explain(analyze=True, format="dict")
        return rows

    rows = asyncio.run(run())
    assert [(row["step"], row["in"], row["out"]) for row in rows[1:]] == [
        (".map(Calls.acall)", 5, 5),
        (".to_list()", 5, 5),
    ]
    windows = stream("abcab", analyze=True).count_by(str, every=2)
    assert windows.to_list() == [{"a": 1, "b": 1}, {"c": 1, "a": 1}, {"b": 1}]
    steps = [row["step"] for row in windows.explain(analyze=True, format="dict")]
    assert steps == ["stream('abcab')", ".count_by(str, every=2)", ".to_list()"]


def test_a_keyed_fold_holds_one_state_a_key() -> None:
    pipeline = stream("banana", analyze=True)
    assert pipeline.count_by(str) == {"b": 1, "a": 3, "n": 2}
    *_, folded = pipeline.explain(analyze=True, format="dict")
    assert (folded["step"], folded["in"], folded["out"], folded["held"]) == (
        ".count_by(str)",
        6,
        3,
        3,
    )


def test_a_sort_shows_its_key_calls_what_it_held_and_the_runs_it_spilled() -> None:
    rows = [{"n": n % 97, "pad": f"{n:040d}"} for n in range(20_000)]
    spilled = stream(rows, analyze=True).sort(key=lambda r: r["n"], memory=100_000)
    assert spilled.count() == 20_000
    sort = spilled.explain(analyze=True, format="dict")[1]
    assert sort["calls"] is not None and int(str(sort["calls"])) >= 20_000
    assert isinstance(sort["held"], int) and 0 < sort["held"] < 20_000
    assert isinstance(sort["spilled runs"], int) and sort["spilled runs"] >= 2
    assert isinstance(sort["spilled bytes"], int) and sort["spilled bytes"] > 20_000 * 40
    header = spilled.explain(analyze=True, times=False).splitlines()[0].split()
    assert header[-1] == "spilled"

    held = stream(rows, analyze=True).sort(key=lambda r: r["n"])
    assert held.count() == 20_000
    sort = held.explain(analyze=True, format="dict")[1]
    assert (sort["held"], sort["spilled runs"], sort["spilled bytes"]) == (20_000, 0, 0)
    assert "spilled" not in held.explain(analyze=True).splitlines()[0]


@dataclass(slots=True)
class _Visit:
    user: int
    ts: str


def test_an_analysed_sort_by_a_getter_reads_its_fields_as_an_unanalysed_one_does() -> None:
    # the getter's fields are read from the records (in C): analysed, the key is still
    # not called an item, and the order is the same
    from operator import attrgetter

    from lazyfun.streams import sorting

    visits = [_Visit(n * 7919 % 503, f"t{n % 11}") for n in range(20_000)]
    by = attrgetter("user", "ts")
    plain = stream(visits).sort(key=by, memory=1_000_000).to_list()
    analysed = stream(visits, analyze=True).sort(key=by, memory=1_000_000)
    assert analysed.to_list() == plain == sorted(visits, key=by)
    calls = analysed.explain(analyze=True, format="dict")[1]["calls"]
    if sorting.CALLS is not None:  # the C engine reads the fields
        assert calls is not None and int(str(calls)) < len(visits) // 2  # a few a frame


def test_a_sorts_spill_counts_the_runs_its_merge_passes_wrote_and_removed() -> None:
    """Past its fan-in, a sort merges its runs in passes, each writing every item again
    into longer runs and removing the shorter: what it spilled is all of them."""
    import pickle

    rows = [{"n": (n * 7919) % 40_000, "pad": f"{n:020d}"} for n in range(40_000)]
    once = len(pickle.dumps(rows, pickle.HIGHEST_PROTOCOL))  # the items written once
    spilled = stream(rows, analyze=True).sort(key=lambda r: r["n"], memory=100_000)
    assert [r["n"] for r in spilled] == list(range(40_000))
    sort = spilled.explain(analyze=True, format="dict")[1]
    # ~130 runs of ~300 items, merged two at a time: seven writes of every item
    assert isinstance(sort["spilled runs"], int) and sort["spilled runs"] > 200
    assert isinstance(sort["spilled bytes"], int) and sort["spilled bytes"] > 4 * once


def test_a_join_shows_its_other_side_as_rows_above_it_and_the_table_it_holds(
    tmp_path: Any,
) -> None:
    from lazyfun.io import read_csv

    users = tmp_path / "users.csv"
    stream([{"id": n, "country": "de" if n % 2 else "fr"} for n in range(30)]).to_csv(users)
    events = stream(range(100), analyze=True)
    joined = events.join(read_csv(users), lambda n: n % 40, other_on=lambda u: int(u["id"]))
    assert joined.count() == 80  # the keys 0-29 come three times to 80, then 0-19 again
    rows = joined.explain(analyze=True, format="dict")
    steps = [str(row["step"]) for row in rows]
    assert steps[:2] == ["stream(range(0, 100))", f"  read_csv({str(users)!r})"]
    assert steps[2].startswith(".join(") and steps[3] == ".count()"
    side, join = rows[1], rows[2]
    assert (side["in"], side["out"]) == (None, 30)
    assert (join["in"], join["out"], join["calls"], join["held"]) == (100, 80, 100, 30)

    # a side of steps: its last step is counted (the ones before it were built unanalysed)
    table = read_csv(users).map(lambda u: {**u, "id": int(u["id"])})
    paired = stream(range(100), analyze=True).join(table, lambda n: n % 40, other_on="id")
    assert paired.count() == 80
    sides = [(row["step"], row["out"]) for row in paired.explain(analyze=True, format="dict")]
    assert sides[1:3] == [(f"  read_csv({str(users)!r})", None), ("  .map(<lambda>)", 30)]

    plain = stream(range(4), analyze=True).join([{"id": 1}, {"id": 3}], lambda n: n, other_on="id")
    assert plain.to_list() == [(1, {"id": 1}), (3, {"id": 3})]
    rows = plain.explain(analyze=True, format="dict")
    assert str(rows[1]["step"]).startswith("  stream([") and rows[1]["out"] == 2


def test_an_async_join_and_sort_show_their_rows_too() -> None:
    async def run() -> list[dict[str, object]]:
        pipeline = (
            astream(range(6), analyze=True)
            .sort(key=lambda n: -n)
            .join(stream([{"id": 2}, {"id": 4}]), lambda n: n, other_on="id")
        )
        assert [n for n, _ in await pipeline.to_list()] == [4, 2]
        rows: list[dict[str, object]] = pipeline.explain(analyze=True, format="dict")
        return rows

    rows = asyncio.run(run())
    assert [str(row["step"]).split("(")[0] for row in rows] == [
        "astream",
        ".sort",
        "  stream",
        ".join",
        ".to_list",
    ]
    assert rows[1]["held"] == 6 and int(str(rows[1]["calls"])) >= 6
    assert (rows[2]["out"], rows[3]["held"], rows[3]["calls"]) == (2, 2, 6)
