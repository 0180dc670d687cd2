"""The verbs of data pipelines held to their in-memory definitions (``sorted``,
``heapq.nsmallest``, a dict-of-lists join, ``collections.Counter``, ``statistics``) on
random data with random memory budgets and items failing at random places, sync and
async; what each refuses at the call; and the sort's temporary files, removed at the
end, on ``close()``, on an error and on Ctrl-C."""

from __future__ import annotations

import asyncio
import heapq
import math
import os
import signal
import statistics
import subprocess
import sys
import textwrap
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun import AsyncStream, Stream, astream, stream
from lazyfun.streams.verbs import Accumulators, Recent, reductions
from tests.budget import examples
from tests.children import running

ROOT = Path(__file__).resolve().parent.parent

records = st.lists(st.tuples(st.integers(0, 6), st.integers(-50, 50)), max_size=120)
failing = st.sets(st.integers(0, 119), max_size=6)


class Bad(Exception):
    pass


def _rows(pairs: list[tuple[int, int]]) -> list[dict[str, int]]:
    return [{"k": k, "v": v, "i": i} for i, (k, v) in enumerate(pairs)]


def _failing(rows: list[dict[str, int]], bad: set[int]) -> Iterator[dict[str, int]]:
    """``rows`` through a map that raises on the rows at the ``bad`` places (and resumes)."""

    def check(row: dict[str, int]) -> dict[str, int]:
        if row["i"] in bad:
            raise Bad(row["i"])
        return row

    return map(check, rows)


def _good(rows: list[dict[str, int]], bad: set[int]) -> list[dict[str, int]]:
    return [row for row in rows if row["i"] not in bad]


def _caught(s: Stream[Any]) -> tuple[list[Any], list[int]]:
    errors: list[int] = []
    got = s.catch(Bad, do=lambda e: errors.append(e.args[0])).to_list()
    return got, errors


def _acaught(s: AsyncStream[Any]) -> tuple[list[Any], list[int]]:
    errors: list[int] = []
    got = asyncio.run(s.catch(Bad, do=lambda e: errors.append(e.args[0])).to_list())
    return got, errors


def _resumable(rows: Iterator[Any]) -> AsyncIterator[Any]:
    """An async source that raises where ``rows`` raises and goes on after it."""

    class Source:
        def __aiter__(self) -> Source:
            return self

        async def __anext__(self) -> Any:
            try:
                return next(rows)
            except StopIteration:
                raise StopAsyncIteration from None

    return Source()


def _key(row: dict[str, int]) -> int:
    return row["k"]


# --- sort ------------------------------------------------------------------------------------


@given(pairs=records, bad=failing, memory=st.integers(1, 20_000), reverse=st.booleans())
def test_sort_is_sorted_whatever_the_budget(
    pairs: list[tuple[int, int]], bad: set[int], memory: int, reverse: bool
) -> None:
    rows = _rows(pairs)
    expected = sorted(_good(rows, bad), key=_key, reverse=reverse)  # stable
    got, errors = _caught(stream(_failing(rows, bad)).sort(_key, reverse=reverse, memory=memory))
    assert got == expected
    assert errors == sorted(i for i in bad if i < len(rows))  # in the order they came
    agot, aerrors = _acaught(
        astream(_resumable(_failing(rows, bad))).sort(_key, reverse=reverse, memory=memory)
    )
    assert (agot, aerrors) == (expected, errors)


def test_sort_spills_beyond_its_budget_and_removes_its_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR again
    rows = [{"n": (n * 7919) % 10_000, "pad": "x" * 20} for n in range(10_000)]
    spilled: list[int] = []
    sorted_rows = stream(rows).sort(lambda r: r["n"], memory=100_000)
    items = iter(sorted_rows)
    first = next(items)
    spilled.append(sum(len(files) for _, _, files in os.walk(tmp_path)))
    assert first == {"n": 0, "pad": "x" * 20}
    assert [r["n"] for r in items] == list(range(1, 10_000))
    assert 0 < spilled[0] <= 2  # runs written, merged in passes down to 2 (the fan-in here)
    assert list(tmp_path.iterdir()) == []  # removed at the end
    left = stream(rows).sort(lambda r: r["n"], memory=100_000)
    assert left.first() == {"n": 0, "pad": "x" * 20}  # left early: closed
    assert list(tmp_path.iterdir()) == []

    def broken() -> Iterator[dict[str, Any]]:
        yield from rows
        raise Bad("at the end")

    with pytest.raises(Bad):
        stream(broken()).sort(lambda r: r["n"], memory=100_000).to_list()
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_while_sorting_removes_the_temporary_files(tmp_path: Path) -> None:
    script = textwrap.dedent(
        """
        import itertools, time
        from lazyfun import stream
        def rows():
            for n in itertools.count():
                yield {"n": -n, "pad": "x" * 50}
                if n == 20_000:
                    print("spilling", flush=True)
                if n > 20_000:
                    time.sleep(0.001)
        try:
            stream(rows()).sort(lambda r: r["n"], memory=200_000).count()
        except KeyboardInterrupt:
            print("interrupted", flush=True)
        """
    )
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    with running(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env
    ) as child:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "spilling"
        assert any(tmp_path.iterdir())  # the runs are there while it reads
        child.send_signal(signal.SIGINT)
        assert child.stdout.readline().strip() == "interrupted"
        assert child.wait(timeout=60) == 0
    assert list(tmp_path.iterdir()) == []


def test_an_item_whose_key_fails_passes_its_error_on_and_the_rest_sort() -> None:
    rows = [{"n": 3}, {"m": 1}, {"n": 1}, {"n": 2}]
    errors: list[BaseException] = []
    got = stream(rows).sort(lambda r: r["n"]).catch(KeyError, do=errors.append).to_list()
    assert got == [{"n": 1}, {"n": 2}, {"n": 3}]
    assert [str(e) for e in errors] == ["'n'"]


# --- top -------------------------------------------------------------------------------------


@given(pairs=records, bad=failing, k=st.integers(0, 10), reverse=st.booleans())
def test_top_is_heapqs_nsmallest_or_nlargest(
    pairs: list[tuple[int, int]], bad: set[int], k: int, reverse: bool
) -> None:
    rows = _rows(pairs)
    pick = heapq.nlargest if reverse else heapq.nsmallest
    expected = pick(k, _good(rows, bad), key=_key)
    got, _ = _caught(stream(_failing(rows, bad)).top(k, _key, reverse=reverse))
    assert got == expected
    agot, _ = _acaught(astream(_resumable(_failing(rows, bad))).top(k, _key, reverse=reverse))
    assert agot == expected


def test_top_holds_k_items_and_a_chunk() -> None:
    from lazyfun.streams.verbs import CHUNK, Top

    top: Top[int] = Top(3, None, False)
    most = 0
    for start in range(0, 100_000, 1000):
        top.add(list(range(100_000 - start, 99_000 - start, -1)))
        most = max(most, len(top.kept))
    assert top.output() == [1, 2, 3]
    assert most <= 2 * 3 + CHUNK + 1000


# --- join ------------------------------------------------------------------------------------


@given(left=records, right=records, bad=failing, how=st.sampled_from(["inner", "left"]))
def test_join_is_the_dict_of_lists_join(
    left: list[tuple[int, int]], right: list[tuple[int, int]], bad: set[int], how: str
) -> None:
    lrows, rrows = _rows(left), [{"key": k, "w": v} for k, v in right]
    table: dict[int, list[dict[str, int]]] = {}
    for row in rrows:
        table.setdefault(row["key"], []).append(row)
    expected: list[tuple[Any, Any]] = []
    for row in _good(lrows, bad):
        matches = table.get(row["k"], [])
        expected += [(row, r) for r in matches] or ([(row, None)] if how == "left" else [])
    got, _ = _caught(stream(_failing(lrows, bad)).join(rrows, "k", other_on="key", how=how))  # type: ignore[call-overload]
    assert got == expected
    agot, _ = _acaught(
        astream(_resumable(_failing(lrows, bad))).join(rrows, "k", other_on="key", how=how)  # type: ignore[call-overload]
    )
    assert agot == expected
    merged, _ = _caught(
        stream(_failing(sorted(lrows, key=_key), bad)).join(  # type: ignore[call-overload]
            sorted(rrows, key=lambda r: r["key"]), _key, other_on="key", how=how, sorted=True
        )
    )
    assert sorted(map(repr, merged)) == sorted(map(repr, expected))
    amerged, _ = _acaught(
        astream(_resumable(_failing(sorted(lrows, key=_key), bad))).join(  # type: ignore[call-overload]
            sorted(rrows, key=lambda r: r["key"]), _key, other_on="key", how=how, sorted=True
        )
    )
    assert amerged == merged


def test_a_merge_join_raises_at_the_first_key_out_of_order() -> None:
    left = [{"k": 1}, {"k": 3}, {"k": 2}]
    right = [{"k": 1}, {"k": 2}, {"k": 3}]
    joined = iter(stream(left).join(right, "k", sorted=True))
    assert next(joined) == ({"k": 1}, {"k": 1})
    assert next(joined) == ({"k": 3}, {"k": 3})
    with pytest.raises(ValueError, match="this side is not sorted on its key: 2 after 3"):
        next(joined)
    assert next(joined, "ended") == "ended"
    with pytest.raises(ValueError, match="the other side is not sorted on its key: row 3"):
        stream(right).join([{"k": 1}, {"k": 3}, {"k": 2}], "k", sorted=True).to_list()


def test_a_hash_join_refuses_an_other_side_past_its_memory() -> None:
    big = [{"k": n, "pad": "x" * 100} for n in range(10_000)]
    with pytest.raises(ValueError, match=r"passed memory=100,000 bytes.*sorted=True"):
        stream([{"k": 1}]).join(big, "k", memory=100_000).to_list()
    assert stream([{"k": 1}]).join(big, "k").count() == 1


# --- keyed aggregates ------------------------------------------------------------------------


@given(pairs=records)
def test_count_by_is_a_counter_and_reduce_by_a_fold(pairs: list[tuple[int, int]]) -> None:
    rows = _rows(pairs)
    counts = Counter(row["k"] for row in rows)
    assert stream(rows).count_by(_key) == dict(counts)
    assert asyncio.run(astream(rows).count_by(_key)) == dict(counts)
    sums: dict[int, int] = {}
    for row in rows:
        sums[row["k"]] = sums.get(row["k"], 100) + row["v"]
    assert stream(rows).reduce_by(_key, lambda a, r: a + r["v"], 100) == sums
    assert asyncio.run(astream(rows).reduce_by(_key, lambda a, r: a + r["v"], 100)) == sums


@given(pairs=records)
def test_aggregate_gives_the_named_reductions_of_statistics(pairs: list[tuple[int, int]]) -> None:
    rows = _rows(pairs)
    named: dict[str, Any] = {
        "n": "count",
        "total": ("sum", "v"),
        "low": ("min", "v"),
        "high": ("max", "v"),
        "avg": ("mean", "v"),
        "var": ("var", "v"),
        "std": ("std", lambda r: r["v"]),
        "first": ("first", "i"),
        "last": ("last", "i"),
    }
    got = stream(rows).aggregate(_key, **named)
    assert asyncio.run(astream(rows).aggregate(_key, **named)) == got
    groups: dict[int, list[dict[str, int]]] = {}
    for row in rows:
        groups.setdefault(row["k"], []).append(row)
    assert list(got) == list(groups)
    for k, group in groups.items():
        values = [row["v"] for row in group]
        want = got[k]
        assert (want["n"], want["total"], want["low"], want["high"]) == (
            len(values),
            sum(values),
            min(values),
            max(values),
        )
        assert want["avg"] == pytest.approx(statistics.fmean(values))
        if len(values) > 1:
            assert want["var"] == pytest.approx(statistics.variance(values))
            assert want["std"] == pytest.approx(statistics.stdev(values))
        else:
            assert want["var"] is None and want["std"] is None
        assert (want["first"], want["last"]) == (group[0]["i"], group[-1]["i"])


def test_the_running_variance_is_stable_far_from_zero() -> None:
    values = [1e9 + x for x in (4.0, 7.0, 13.0, 16.0)]
    got = stream(values).aggregate(lambda _: "all", var=("var", lambda x: x))
    assert got["all"]["var"] == pytest.approx(30.0, rel=1e-9)  # a naive sum of squares: 0 or worse


@given(pairs=records, every=st.integers(1, 30), bad=failing)
def test_windows_of_every_n_items_aggregate_each_window(
    pairs: list[tuple[int, int]], every: int, bad: set[int]
) -> None:
    rows = _rows(pairs)
    got, errors = _caught(stream(_failing(rows, bad)).count_by(_key, every=every))
    # an error closes the open window (its counts sent first), as group does
    windows: list[dict[int, int]] = []
    window: Counter[int] = Counter()
    filled = 0
    for row in rows:
        if row["i"] in bad:
            if filled:
                windows.append(dict(window))
            window, filled = Counter(), 0
            continue
        window[row["k"]] += 1
        filled += 1
        if filled == every:
            windows.append(dict(window))
            window, filled = Counter(), 0
    if filled:
        windows.append(dict(window))
    assert got == windows
    assert errors == sorted(i for i in bad if i < len(rows))
    agot, _ = _acaught(astream(_resumable(_failing(rows, bad))).count_by(_key, every=every))
    assert agot == windows


def test_windows_of_time_close_while_the_source_stalls() -> None:
    import time

    def arriving() -> Iterator[str]:
        yield from "aab"
        time.sleep(1.0)
        yield from "bc"

    got = stream(arriving()).count_by(str.upper, within=0.4).to_list()
    assert got == [{"A": 2, "B": 1}, {"B": 1, "C": 1}]

    async def run() -> list[Any]:
        return await astream(arriving()).count_by(str.upper, within=0.4).to_list()

    assert asyncio.run(run()) == got


# --- unique within a window ------------------------------------------------------------------


@given(keys=st.lists(st.integers(0, 5), max_size=80), last=st.integers(1, 6))
def test_unique_last_n_drops_a_key_among_the_last_n_let_through(keys: list[int], last: int) -> None:
    expected: list[int] = []
    kept: list[int] = []
    for k in keys:
        if k in kept[-last:]:
            continue
        kept.append(k)
        expected.append(k)
    assert stream(keys).unique(last=last).to_list() == expected
    assert asyncio.run(astream(keys).unique(last=last).to_list()) == expected


def test_unique_within_remembers_a_key_for_that_long() -> None:
    now = [0.0]
    recent = Recent(10.0, None, clock=lambda: now[0])
    seen = []
    for t, k in [(0, "a"), (1, "b"), (5, "a"), (10, "a"), (10.5, "b"), (12, "b"), (19, "a")]:
        now[0] = t
        seen.append(recent.repeat(k))
    assert seen == [False, False, True, False, True, False, True]
    assert len(recent.times) == 2  # only the keys of the window are held


# --- refused at the call ---------------------------------------------------------------------


def test_bad_arguments_are_refused_at_the_call() -> None:
    s = stream([1])
    with pytest.raises(TypeError, match="memory"):
        s.sort(memory="1GB")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="top's k"):
        s.top(-1)
    with pytest.raises(ValueError, match="how must be 'inner' or 'left'"):
        s.join([], "k", how="outer")  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="memory= is for the hash join"):
        s.join([], "k", sorted=True, memory=10)
    with pytest.raises(ValueError, match="aggregate's total= must be 'count' or"):
        s.aggregate(str, total=("median", "v"))
    with pytest.raises(ValueError, match="at least one named reduction"):
        s.aggregate(str)
    with pytest.raises(ValueError, match=r"within= \(seconds\) or last= \(items\), not both"):
        s.unique(within=1.0, last=2)
    with pytest.raises(TypeError, match="a coroutine function"):

        async def key(n: int) -> int:
            return n

        astream([1]).sort(key)
    with pytest.raises(TypeError, match="give a plain iterable"):
        astream([1]).join(astream([1]), "k")
    assert isinstance(s.top(0), Stream)


def test_an_item_whose_key_fails_leaves_its_window_as_it_was() -> None:
    words = ["apple", None, "avocado", "bean", "banana", None, "cherry"]

    def first(word: str | None) -> str:
        assert word is not None, "no word"
        return word[0]

    errors: list[BaseException] = []
    got = stream(words).count_by(first, every=2).catch(AssertionError, do=errors.append)
    assert got.to_list() == [{"a": 2}, {"b": 2}, {"c": 1}]
    assert len(errors) == 2

    async def run() -> list[Any]:
        windows = astream(words).count_by(first, every=2)
        return await windows.catch(AssertionError).to_list()

    assert asyncio.run(run()) == [{"a": 2}, {"b": 2}, {"c": 1}]


def test_a_merge_join_keeps_the_rows_of_a_key_after_the_other_side_raised(
    tmp_path: Path,
) -> None:
    from lazyfun import RecordError
    from lazyfun.io import read_jsonl

    other = tmp_path / "other.jsonl"
    other.write_text('{"k": 1, "v": "a"}\nbroken\n{"k": 1, "v": "b"}\n{"k": 2, "v": "c"}\n')
    left = [{"k": 1, "w": "x"}, {"k": 2, "w": "y"}]
    for merged in (False, True):
        pairs = stream(left).join(read_jsonl(other), "k", sorted=merged).catch(RecordError)
        assert [(a["w"], b["v"]) for a, b in pairs] == [("x", "a"), ("x", "b"), ("y", "c")]


def test_reduce_by_folds_each_key_from_its_own_copy_of_the_start() -> None:
    def gather(acc: list[int], n: int) -> list[int]:
        acc.append(n)
        return acc

    start: list[int] = []
    folded = stream(range(6)).reduce_by(lambda n: n % 2, gather, start)
    assert folded == {0: [0, 2, 4], 1: [1, 3, 5]}
    assert start == []


def test_failing_keys_pass_their_errors_on_in_every_verb_sync_and_async() -> None:
    from dataclasses import dataclass

    from lazyfun.streams.verbs import size_of

    rows = [{"k": 3}, {"j": 0}, {"k": 1}, {"k": 2}] * 3
    for k in (2, None):  # top(2), then a sort spilled with the failures on the way
        errors: list[BaseException] = []
        s, a = stream(rows), astream(rows)
        ours = s.top(k, _key) if k else s.sort(_key, memory=200)
        theirs = a.top(k, _key) if k else a.sort(_key, memory=200)
        got = ours.catch(KeyError, do=errors.append).to_list()
        assert [row["k"] for row in got] == ([1, 1] if k else [1, 1, 1, 2, 2, 2, 3, 3, 3])
        assert len(errors) == 3
        assert asyncio.run(theirs.catch(KeyError).to_list()) == got
    with pytest.raises(TypeError):
        stream([1, "a"]).sort().to_list()  # items that do not compare: no item's fault
    with pytest.raises(TypeError):
        stream([1, "a", 2]).top(1).to_list()
    table_errors: list[BaseException] = []
    joined = stream([{"k": 1}]).join([{"k": 1}, {"x": 0}], "k").catch(do=table_errors.append)
    assert joined.to_list() == [({"k": 1}, {"k": 1})] and len(table_errors) == 1

    @dataclass
    class Row:
        k: int

    assert stream([Row(1)]).join([Row(1), Row(2)], "k").to_list() == [(Row(1), Row(1))]
    with pytest.raises(TypeError, match="a field name or a function"):
        stream([1]).join([1], 3)  # type: ignore[call-overload]
    assert size_of([1, (2, 3)]) > size_of([]) and size_of({"a": 1}, depth=0) > 0

    async def merged() -> list[Any]:
        return (
            await astream([{"k": 1}, {"k": 5}])
            .join([{"k": 1}], "k", sorted=True, how="left")
            .to_list()
        )

    assert asyncio.run(merged()) == [({"k": 1}, {"k": 1}), ({"k": 5}, None)]


# --- the sort's budget, at any size ----------------------------------------------------------

# what a sort holds beside its budget, as its docs state: a file buffer for each of at
# most 64 runs open at once and a frame's pickled bytes
SORT_OVERHEAD = 2**20

_PEAK = textwrap.dedent(
    """
    import random, sys
    from pathlib import Path
    from lazyfun import stream

    def records(n):
        r = random.Random(1)
        for i in range(n):
            yield {"id": i, "v": r.random()}

    def peak():
        lines = Path("/proc/self/status").read_text().splitlines()
        return next(int(l.split()[1]) * 1024 for l in lines if l.startswith("VmHWM:"))

    n, memory, tmpdir = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    # the modules a sort that spills imports, in both children
    stream([2, 1]).sort(memory=1, tmpdir=tmpdir).to_list()
    if memory:
        last = -1.0
        for record in stream(records(n)).sort(lambda r: r["v"], memory=memory, tmpdir=tmpdir):
            assert record["v"] >= last
            last = record["v"]
    else:
        assert stream(records(n)).count() == n
    print(peak())
    """
)


def _peak(n: int, memory: int, tmpdir: Path) -> int:
    """VmHWM of a child that reads ``n`` records (sorting them within ``memory``, if any)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COV_CORE", "COVERAGE"))}
    command = [sys.executable, "-c", _PEAK, str(n), str(memory), str(tmpdir)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    return int(done.stdout)


def test_a_sort_holds_its_budget_whatever_the_budget(tmp_path: Path) -> None:
    # 300,000 records of ~280 bytes (84 MB) through 1 MB: ~80 runs, merged in two passes
    n = 300_000
    base = _peak(n, 0, tmp_path)
    small, large = (_peak(n, memory, tmp_path) - base for memory in (2**20, 20 * 2**20))
    assert small <= 2**20 + SORT_OVERHEAD
    assert large <= 20 * 2**20 + SORT_OVERHEAD
    assert small <= large  # a smaller budget never uses more
    assert list(tmp_path.iterdir()) == []


@pytest.mark.untraced
def test_a_sort_spills_runs_in_passes_of_its_fan_in() -> None:
    from lazyfun.streams.verbs import Sorter

    sorter: Sorter[int] = Sorter(None, False, 2**18)
    assert sorter.fan_in == 3 and (sorter.fan_in + 1) * sorter.frame_bytes <= 2**17
    for start in range(0, 200_000, 4096):
        sorter.add([(n * 7919) % 200_000 for n in range(start, min(start + 4096, 200_000))])
    assert len(sorter.runs) > sorter.fan_in  # more runs than one merge reads
    out = sorter.output()
    assert len(sorter.runs) <= sorter.fan_in and len(sorter.readers) == len(sorter.runs)
    assert list(out) == list(range(200_000))
    sorter.close()


@given(
    keys=st.lists(st.integers(0, 5), min_size=50, max_size=400),
    memory=st.integers(1_000, 30_000),
    chunk=st.integers(1, 64),
    reverse=st.booleans(),
    keyed=st.booleans(),
)
def test_a_sorts_merge_of_its_runs_is_sorteds_order(
    keys: list[int], memory: int, chunk: int, reverse: bool, keyed: bool
) -> None:
    # runs of any length, in frames of any size, merged a block at a time: each block
    # what the frames hold up to the first of their last keys; on equal keys (few keys,
    # many items) the earlier run first, the items held in memory last
    from lazyfun.streams.verbs import Sorter

    items = [(k, i) for i, k in enumerate(keys)]
    key = (lambda item: item[0]) if keyed else None
    sorter: Sorter[tuple[int, int]] = Sorter(key, reverse, memory)
    for start in range(0, len(items), chunk):
        sorter.add(items[start : start + chunk])
    assert list(sorter.output()) == sorted(items, key=key, reverse=reverse)
    sorter.close()


# --- keyed folds: one state a key, within memory= when it is given -----------------------


def _folds(memory: int) -> dict[str, Any]:
    """Each keyed fold of a stream of distinct numbers (each its own key), with ``memory``."""
    return {
        "count_by": lambda s: s.count_by(lambda n: n, memory=memory),
        "reduce_by": lambda s: s.reduce_by(lambda n: n, lambda a, n: a + n, 0, memory=memory),
        "aggregate": lambda s: s.aggregate(
            lambda n: n, n="count", total=("sum", lambda n: n / 2), memory=memory
        ),
    }


@pytest.mark.parametrize("fold", ["count_by", "reduce_by", "aggregate"])
@pytest.mark.parametrize("mode", ["sync", "async"])
def test_a_keyed_fold_past_its_memory_is_refused_with_the_reason(fold: str, mode: str) -> None:
    memory = 2_000_000
    made = _folds(memory)[fold]
    with pytest.raises(
        ValueError, match=f"^{fold}: the states of .* keys passed memory="
    ) as caught:
        if mode == "sync":
            made(stream(range(10**7)))
        else:
            asyncio.run(made(astream(range(10**7))))
    keys = int(str(caught.value).split(" keys")[0].rsplit(" ", 1)[1].replace(",", ""))
    # each number's state: from ~80 bytes (an int counted) to ~400 (two reductions)
    assert memory // 500 <= keys <= memory // 60
    # within its budget, the same fold gives what it gives with none
    assert made(stream(range(1000))) == _folds(10**9)[fold](stream(range(1000)))


def test_a_keyed_folds_budget_holds_for_each_window_of_its_own() -> None:
    windows = stream(range(12)).count_by(lambda n: n % 4, every=4, memory=1000).to_list()
    assert windows == [{0: 1, 1: 1, 2: 1, 3: 1}] * 3
    with pytest.raises(ValueError, match="memory=1,000 bytes"):
        stream(range(12)).count_by(lambda n: n, every=12, memory=1000).to_list()


def test_a_folds_loop_is_written_once_not_once_a_window_or_a_session(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The named reductions' loop is compiled once a step: each window (and a session,
    each of whose items is checked by a fresh fold) shares it, budget or none."""
    from lazyfun.streams import verbs

    written: list[object] = []

    def counted(*args: Any) -> Any:
        written.append(args)
        return adder(*args)

    adder = verbs._adder
    monkeypatch.setattr(verbs, "_adder", counted)
    windows = stream(range(100)).tumbling(2, on=float, n="count").to_list()
    sessions = stream(range(0, 300, 3)).session(2, on=float, n="count").to_list()
    budgeted = astream(range(100)).aggregate(lambda n: n % 3, n="count", every=2, memory=10**6)
    assert (len(windows), len(sessions), len(asyncio.run(budgeted.to_list()))) == (50, 100, 50)
    assert len(written) == 3  # one a step


_FOLD_PEAK = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from lazyfun import stream

    def peak():
        lines = Path("/proc/self/status").read_text().splitlines()
        return next(int(l.split()[1]) * 1024 for l in lines if l.startswith("VmHWM:"))

    stream(range(10)).aggregate(lambda n: n, n="count", memory=10**6)  # the imports
    base = peak()
    try:
        users = ({"user": f"user-{n}", "amount": n / 4} for n in range(5 * 10**6))
        stream(users).aggregate(lambda u: u["user"], total=("sum", "amount"), memory=20 * 2**20)
    except ValueError:
        print(peak() - base)
    """
)


@pytest.mark.untraced
def test_a_keyed_fold_stops_at_its_budget_not_at_the_machines_end() -> None:
    """Five million users' totals would take ~1.5 GB; with memory=20 MiB the fold is
    refused with its process's peak near the budget."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COV_CORE", "COVERAGE"))}
    command = [sys.executable, "-c", _FOLD_PEAK]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    assert 0 < int(done.stdout) <= 20 * 2**20 + 2**20


# --- the sort's folder: named for its process, swept once the process is gone -----------------


def test_a_killed_sorts_folder_is_swept_by_the_next_sort_and_a_live_ones_kept(
    tmp_path: Path,
) -> None:
    script = textwrap.dedent(
        """
        import sys, time
        from lazyfun import stream
        def rows():
            for n in range(20_000):
                yield {"n": -n, "pad": "x" * 50}
            print("spilled", flush=True)
            time.sleep(600)
        stream(rows()).sort(lambda r: r["n"], memory=200_000, tmpdir=sys.argv[1]).count()
        """
    )
    with running(
        [sys.executable, "-c", script, str(tmp_path)], stdout=subprocess.PIPE, text=True, cwd=ROOT
    ) as child:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "spilled"
        killed = [p.name for p in tmp_path.iterdir()]
        assert len(killed) == 1 and killed[0].startswith(f"lazyfun-sort-{child.pid}-")
        child.send_signal(signal.SIGKILL)
        assert child.wait(timeout=60) == -signal.SIGKILL
    assert [p.name for p in tmp_path.iterdir()] == killed  # left behind
    with running([sys.executable, "-c", "import time; time.sleep(600)"]) as alive:
        try:
            live = tmp_path / f"lazyfun-sort-{alive.pid}-abc_12"
            live.mkdir()
            (live / "run0").write_bytes(b"")
            other = tmp_path / "lazyfun-sort-notapid"  # not a spill folder of this form
            other.mkdir()
            rows = [{"n": n % 97} for n in range(5000)]
            got = stream(rows).sort(lambda r: r["n"], memory=20_000, tmpdir=tmp_path).to_list()
            assert got == sorted(rows, key=lambda r: r["n"])
            assert sorted(p.name for p in tmp_path.iterdir()) == sorted([live.name, other.name])
            assert (live / "run0").exists()
        finally:
            alive.kill()
    assert alive.wait() == -signal.SIGKILL
    got = asyncio.run(
        astream(rows).sort(lambda r: r["n"], memory=20_000, tmpdir=str(tmp_path)).to_list()
    )
    assert got == sorted(rows, key=lambda r: r["n"])
    assert [p.name for p in tmp_path.iterdir()] == [other.name]  # the dead one's swept too
    with pytest.raises(TypeError, match="tmpdir"):
        stream([1]).sort(tmpdir=3)  # type: ignore[arg-type]


# --- joins on keys of two types --------------------------------------------------------------


USERS = [{"id": "2", "country": "NO"}, {"id": "1", "country": "IT"}]  # read from a CSV
EVENTS = [{"user": 1, "amount": 5}, {"user": 2, "amount": 7}, {"user": 1, "amount": 1}]


def test_a_join_on_keys_of_two_types_is_an_error_not_an_empty_join() -> None:
    from lazyfun.streams.verbs import KeyMismatch

    for how in ("inner", "left"):
        with pytest.raises(KeyMismatch, match=r"'2'.*item 1.*int: 1") as info:
            stream(USERS).join(EVENTS, "id", other_on="user", how=how).to_list()
        assert (info.value.this, info.value.other) == (str, int)
        with pytest.raises(KeyMismatch) as info:
            asyncio.run(astream(USERS).join(EVENTS, "id", other_on="user", how=how).to_list())
        assert (info.value.this, info.value.other) == (str, int)
    # each item is an error at its place, and the join goes on
    errors: list[BaseException] = []
    mixed: list[dict[str, Any]] = [{"user": 1}, {"user": "2"}, {"user": 2.0}, {"user": None}]
    mixed.append({"user": 3})
    got = (
        stream(mixed)
        .join(EVENTS, "user", how="left")
        .catch(KeyMismatch, do=errors.append)
        .map(lambda pair: (pair[0]["user"], pair[1] and pair[1]["amount"]))
        .to_list()
    )
    assert got == [(1, 5), (1, 1), (2.0, 7), (None, None), (3, None)]  # 2.0 == 2: numbers
    assert [str(e).split(" (")[0] for e in errors] == ["join: this side's key '2'"]
    assert "item 2" in str(errors[0])


def test_a_merge_join_on_keys_of_two_types_is_an_error_that_ends_it() -> None:
    from lazyfun.streams.verbs import KeyMismatch

    left = sorted(USERS, key=lambda r: r["id"])
    right = sorted(EVENTS, key=lambda r: r["user"])
    joined = iter(stream(left).join(right, "id", other_on="user", sorted=True))
    with pytest.raises(KeyMismatch) as info:
        next(joined)
    assert (info.value.this, info.value.other) == (str, int)
    assert next(joined, "ended") == "ended"

    async def merged() -> list[Any]:
        return await astream(left).join(right, "id", other_on="user", sorted=True).to_list()

    with pytest.raises(KeyMismatch):
        asyncio.run(merged())
    with pytest.raises(KeyMismatch, match="this side's keys do not compare: item 2"):
        stream([{"k": 1}, {"k": "1"}]).join([{"k": 1}], "k", sorted=True).to_list()
    with pytest.raises(KeyMismatch, match="the other side's keys do not compare: row 2"):
        stream([{"k": 1}, {"k": 9}]).join([{"k": 1}, {"k": "x"}], "k", sorted=True).to_list()
    floats = stream([{"k": 1}, {"k": 2}]).join([{"k": 1.0}, {"k": 2.0}], "k", sorted=True)
    assert floats.count() == 2


# --- exact sums ------------------------------------------------------------------------------


def test_aggregate_sums_floats_exactly_and_ints_as_ints() -> None:
    values = [0.1] * 10 + [1e16, 1.0, -1e16]
    got = stream(values).aggregate(lambda _: "all", total=("sum", lambda x: x))
    assert got == {"all": {"total": 2.0}}  # a plain sum gives 0.0
    assert asyncio.run(astream(values).aggregate(lambda _: 0, s=("sum", float))) == {0: {"s": 2.0}}
    ints = stream([2**70, 1, -(2**70)]).aggregate(lambda _: 0, s=("sum", int))[0]["s"]
    assert ints == 1 and type(ints) is int
    mixed = stream([2**60, 0.5, 1, -(2**60)]).aggregate(lambda _: 0, s=("sum", lambda x: x))
    assert mixed == {0: {"s": 1.5}}  # the exact sum, as a float
    windows = stream(values * 2).aggregate(lambda _: 0, every=13, s=("sum", float)).to_list()
    assert windows == [{0: {"s": 2.0}}, {0: {"s": 2.0}}]


@pytest.mark.parametrize("engine", [True, False], ids=["engine", "written"])
@pytest.mark.parametrize(
    ("values", "refused", "total"),
    [
        ([1, 2, None, 3], [2], 6),
        ([None, 1, 2.5], [1, 2], None),
        ([1.5, None, 2.5], [1], 4.0),
        ([0.5, 1, 2.25, "x"], [3], 3.75),
        ([Decimal("1.5"), 2, 0.5], [2], Decimal("3.5")),
        (["a", "b"], [], "ab"),
    ],
)
def test_a_sum_refuses_a_value_it_cannot_add_at_its_item_not_at_the_end(
    values: list[Any], refused: list[int], total: Any, engine: bool
) -> None:
    """A sum of numbers and a None (a missing amount) was a TypeError at the end, from
    the last ``+``, and the whole key's sum lost; now the item is refused where it is."""
    from lazyfun.streams import verbs

    acc = Accumulators(lambda _: 0, reductions({"s": ("sum", lambda v: v)}))
    acc._add_all = verbs._adder(acc.by, acc.named or [], engine=engine)
    acc.state = verbs._states(acc._add_all)
    failed = []
    for i, value in enumerate(values):
        try:
            acc.add(value)
        except TypeError:
            failed.append(i)
    assert failed == refused
    assert acc.output() == {0: {"s": total}}


@pytest.mark.untraced
def test_aggregate_sum_holds_a_few_floats_a_key_not_one_a_value() -> None:
    import random
    import tracemalloc

    rng = random.Random(69)
    rows = [(key, round(rng.uniform(0, 200), 2)) for _ in range(31) for key in range(4000)]
    sums = stream(rows).aggregate(lambda r: r[0], s=("sum", lambda r: r[1]))
    assert all(sums[k]["s"] == math.fsum(v for j, v in rows if j == k) for k in (0, 3999))
    tracemalloc.start()
    try:
        fresh = reductions({"s": ("sum", lambda r: r[1] * 1.0)})  # floats of its own, as decoded
        held = Accumulators(lambda r: r[0], fresh)
        for row in rows:
            held.add(row)
        # what the fold's code allocated (its loop, its floats), not another thread's
        ours = [tracemalloc.Filter(True, pattern) for pattern in ("*verbs.py", "<aggregate*")]
        traced = tracemalloc.take_snapshot().filter_traces(ours).statistics("filename")
        per_key = sum(stat.size for stat in traced) / 4000
    finally:
        tracemalloc.stop()
    assert per_key < 300  # bytes: the key's list and its two floats (31 floats held were 1,200)


@pytest.mark.untraced
@pytest.mark.parametrize("key", [str, int])
def test_aggregate_lets_each_keys_state_go_as_it_makes_its_values(key: type) -> None:
    """A dict's states are let go key by key as their values are made; the C fold's
    table of integer keys' states is let go whole once they are made, and is kept small
    beside them (a third of the values), so the two together are never twice either."""
    import tracemalloc

    from lazyfun.streams import verbs

    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        held = Accumulators(lambda r: key(r[0]), reductions({"s": ("sum", lambda r: r[1] * 1.0)}))
        for k in range(20_000):
            held.add((k, 0.5))
            held.add((k, 0.25))
        state = tracemalloc.get_traced_memory()[0] - base
        tracemalloc.reset_peak()
        out = held.output()
        kept, peak = (at - base for at in tracemalloc.get_traced_memory())
    finally:
        tracemalloc.stop()
    assert out[key(19_999)] == {"s": 0.75}
    if key is int and verbs.FOLDER is not None:  # the table, whole until the end
        assert state < kept / 2 and peak < kept + state * 1.1
    else:  # a list a key emptied, or a C state let go, as its values are made
        assert peak < kept + state / 2


@given(
    st.lists(
        st.floats(
            allow_nan=False, allow_infinity=False, width=64, max_value=1e300, min_value=-1e300
        ),
        max_size=200,
    )
)
def test_aggregate_sum_is_math_fsum(values: list[float]) -> None:
    import math

    got = stream(values).aggregate(lambda _: 0, s=("sum", float))
    assert got == ({0: {"s": math.fsum(values)}} if values else {})


@settings(max_examples=examples(100), deadline=None)
@given(
    st.lists(
        st.one_of(
            st.floats(
                allow_nan=False, allow_infinity=False, width=64, max_value=1e300, min_value=-1e300
            ),
            st.integers(min_value=-(2**53), max_value=2**53),
        ),
        min_size=1,
        max_size=100,
    )
)
def test_a_windows_sum_step_by_step_is_exact_as_math_fsum(values: list[float]) -> None:
    """The reduction's own step (a window's, not aggregate's generated loop) sums
    exactly too: floats and ints among them rounded once, ints alone an int."""
    import math

    (window,) = stream(values).tumbling(1, on=lambda _: 0, s=("sum", lambda v: v)).to_list()
    exact = sum(values) if all(type(v) is int for v in values) else math.fsum(values)
    assert window.values == {"s": exact}


def test_a_sum_of_inf_and_minus_inf_is_nan_as_sum_gives() -> None:
    got = stream([math.inf, 1.5, -math.inf]).aggregate(lambda _: 0, s=("sum", float))
    assert math.isnan(got[0]["s"])
    spilled = [1e16, 1.0, -1e16, 0.1] * 20 + [math.inf, -math.inf]  # past its 32 floats
    assert math.isnan(stream(spilled).aggregate(lambda _: 0, s=("sum", float))[0]["s"])


def test_a_join_on_a_key_function_that_cannot_be_hashed() -> None:
    class Id:
        """A callable with __eq__ and no __hash__ (so it cannot be hashed)."""

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Id)

        def __call__(self, row: dict[str, int]) -> int:
            return row["id"]

    pairs = stream([{"id": 1}, {"id": 2}]).join([{"id": 2}], Id()).to_list()
    assert pairs == [({"id": 2}, {"id": 2})]


def test_a_fields_path_reads_a_step_at_a_time_and_a_fold_reads_it_as_a_function_would() -> None:
    import msgspec

    from lazyfun import field

    class User(msgspec.Struct):
        id: int
        country: str

    pairs = [({"amount": 2.0}, User(1, "pt")), ({"amount": 3.5}, User(2, "pt"))]
    pairs.append(({"amount": 1.0}, User(3, "fr")))
    assert field("user", "id")({"user": {"id": 7}}) == 7  # a nested record
    assert field(1, "country")(pairs[0]) == "pt"
    assert field(-1)([4, 5]) == 5  # a place alone: x[place]
    by_path = stream(pairs).aggregate(field(1, "country"), n="count", s=("sum", field(0, "amount")))
    by_hand = stream(pairs).aggregate(
        lambda p: p[1].country, n="count", s=("sum", lambda p: p[0]["amount"])
    )
    assert by_path == by_hand == {"pt": {"n": 2, "s": 5.5}, "fr": {"n": 1, "s": 1.0}}
    assert "field(1, 'country')" in repr(stream(pairs).map(field(1, "country")))
    with pytest.raises(IndexError):
        field(2, "country")(pairs[0])  # a place past the pair: its IndexError
    with pytest.raises(AttributeError):
        field(1, "name")(pairs[0])
    for wrong in [(1.5,), ("a", True), (len, "a"), ()]:
        with pytest.raises(TypeError):
            field(*wrong)  # type: ignore[arg-type]


def test_a_field_is_an_items_value_of_that_name_else_its_attribute() -> None:
    from collections import namedtuple
    from dataclasses import dataclass
    from types import MappingProxyType

    import msgspec

    from lazyfun.streams.verbs import field

    class Event(msgspec.Struct):
        user: int

    @dataclass(slots=True)
    class Row:
        user: int

    Pair = namedtuple("Pair", "user other")
    user: Callable[[Any], Any] = field("user")
    kinds: list[Any] = [
        {"user": 1}, MappingProxyType({"user": 2}), Counter(user=3), Event(4), Row(5), Pair(6, 0)
    ]  # fmt: skip
    assert list(map(user, kinds)) == [1, 2, 3, 4, 5, 6]
    with pytest.raises(KeyError):
        user({"id": 1})  # a mapping without it: its KeyError, no attribute tried
    with pytest.raises(AttributeError):
        user((1, 2))  # a tuple's items are by number: no such attribute either
    ids: Callable[[Any], Any] = field("id")
    with pytest.raises(AttributeError):
        ids(Event(1))
