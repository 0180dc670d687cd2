"""Windows on event time (``tumbling``, ``sliding``, ``session``) held to a brute-force
model: for each item, the watermark from the items before it, whether it is late (a
window it belongs to already closed), and the windows of the items that were not, each
computed from scratch, on times out of order by at most ``lateness`` with late items
among them, by key and not, numbers and datetimes, sync and async alike; a window comes
as soon as the watermark passes its end (an endless source, read no further); a late
item goes to ``late`` or is a LateItem at its place and the stream goes on; what the
open windows hold stays within what ``lateness`` allows."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun import Stream, astream, stream
from lazyfun.streams import LateItem, Window
from lazyfun.streams.windows import EventTime, Fixed
from tests.budget import examples

Item = tuple[int, int, int]  # (id: its place in the source, time, key)
Shape = tuple[str, int, int]  # (kind, size or gap, every)

# aligned on every size and step of a minute the tests draw (1 to 12: their lcm, 27,720)
START = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(minutes=27_720 * 1_000)


# --- the model ---------------------------------------------------------------------------


def _starts(t: int, size: int, every: int) -> list[int]:
    """Every multiple of ``every`` whose window of ``size`` holds ``t``, found by search."""
    low = (t - size) // every - 2
    return [k * every for k in range(low, t // every + 2) if k * every <= t < k * every + size]


def _sessions(times: list[tuple[int, int]], gap: int) -> list[list[tuple[int, int]]]:
    """``(time, id)`` pairs cut into sessions: sorted by time, a new one at each step of
    ``gap`` or more."""
    runs: list[list[tuple[int, int]]] = []
    for t, i in sorted(times):
        if runs and t - runs[-1][-1][0] < gap:
            runs[-1].append((t, i))
        else:
            runs.append([(t, i)])
    return runs


def model(
    items: list[Item], shape: Shape, lateness: int, keyed: bool
) -> tuple[list[tuple[Any, int, int, tuple[int, ...]]], list[int]]:
    """The windows ``(key, start, end, ids)`` (ids in the order they came) and the ids of
    the late items, by the rules stated from scratch for each item."""
    kind, size, every = shape
    kept: list[Item] = []
    late: list[int] = []
    latest: int | None = None
    for i, t, k in items:
        mark = None if latest is None else latest - lateness
        key = k if keyed else None
        if kind == "session":
            mine = [(t2, i2) for i2, t2, k2 in kept if (k2 if keyed else None) == key]
            near = [
                run for run in _sessions(mine, size) if run[0][0] - size < t < run[-1][0] + size
            ]
            closed = mark is not None and (
                any(run[-1][0] + size <= mark for run in near) or (not near and t + size <= mark)
            )
        else:
            closed = mark is not None and min(_starts(t, size, every)) + size <= mark
        if closed:
            late.append(i)
        else:
            kept.append((i, t, k))
        latest = t if latest is None else max(latest, t)
    windows: dict[tuple[Any, int, int], list[int]] = {}
    for key in dict.fromkeys(k if keyed else None for _, _, k in kept):
        mine = [(t, i) for i, t, k in kept if (k if keyed else None) == key]
        if kind == "session":
            for run in _sessions(mine, size):
                windows[key, run[0][0], run[-1][0] + size] = [i for _, i in run]
        else:
            for t, i in mine:
                for start in _starts(t, size, every):
                    windows.setdefault((key, start, start + size), []).append(i)
    found = [(key, start, end, tuple(sorted(ids))) for (key, start, end), ids in windows.items()]
    return sorted(found, key=repr), late


# --- the data ----------------------------------------------------------------------------


@st.composite
def shapes(draw: st.DrawFn) -> Shape:
    kind = draw(st.sampled_from(["tumbling", "sliding", "session"]))
    size = draw(st.integers(1, 12))
    every = draw(st.integers(1, size)) if kind == "sliding" else size
    return kind, size, every


@st.composite
def sources(draw: st.DrawFn, lateness: int) -> list[Item]:
    """Times rising by 0 to 4, each moved back by at most ``lateness`` (so none is late),
    and a few moved much further back (late unless an open window still holds them)."""
    steps = draw(st.lists(st.integers(0, 4), max_size=60))
    back = draw(st.lists(st.integers(0, lateness), min_size=len(steps), max_size=len(steps)))
    far = draw(st.sets(st.integers(0, max(0, len(steps) - 1)), max_size=8))
    further = draw(st.lists(st.integers(1, 30), min_size=len(steps), max_size=len(steps)))
    keys = draw(st.lists(st.integers(0, 2), min_size=len(steps), max_size=len(steps)))
    times = list(itertools.accumulate(steps))
    moved = [
        t - b - (lateness + further[n] if n in far else 0)
        for n, (t, b) in enumerate(zip(times, back, strict=True))
    ]
    return [(n, t, k) for n, (t, k) in enumerate(zip(moved, keys, strict=True))]


def _time(item: Item) -> int:
    return item[1]


def _dated(item: Item) -> datetime:
    return START + timedelta(minutes=item[1])


def _key(item: Item) -> int:
    return item[2]


def _windows(
    s: Stream[Item, Any],
    shape: Shape,
    lateness: int,
    keyed: bool,
    dated: bool,
    late: Callable[[Item], object] | None = None,
    **named: Any,
) -> Stream[Window[Item], Any]:
    kind, size, every = shape
    unit: Any = timedelta(minutes=1) if dated else 1
    on = _dated if dated else _time
    by = _key if keyed else None
    if kind == "tumbling":
        return s.tumbling(size * unit, on=on, by=by, lateness=lateness * unit, late=late, **named)
    if kind == "sliding":
        return s.sliding(
            size * unit, every * unit, on=on, by=by, lateness=lateness * unit, late=late, **named
        )
    return s.session(size * unit, on=on, by=by, lateness=lateness * unit, late=late, **named)


def _plain(window: Window[Item], dated: bool) -> tuple[Any, int, int, tuple[int, ...]]:
    """A window as the model gives it (times in minutes from START for datetimes)."""
    start, end = window.start, window.end
    if dated:
        start, end = (start - START) // timedelta(minutes=1), (end - START) // timedelta(minutes=1)
    return window.key, start, end, tuple(sorted(item[0] for item in window.items))


def _ends(windows: list[Window[Item]]) -> list[Any]:
    return [window.end for window in windows]


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


# --- against the model -------------------------------------------------------------------


@settings(max_examples=examples(150), deadline=None)
@given(
    data=st.data(),
    shape=shapes(),
    lateness=st.integers(0, 6),
    keyed=st.booleans(),
    dated=st.booleans(),
)
def test_windows_are_the_models_and_late_items_go_to_late(
    data: st.DataObject, shape: Shape, lateness: int, keyed: bool, dated: bool
) -> None:
    items = data.draw(sources(lateness))
    want, want_late = model(items, shape, lateness, keyed)
    late: list[int] = []
    got = _windows(
        stream(items), shape, lateness, keyed, dated, late=lambda item: late.append(item[0])
    ).to_list()
    assert sorted((_plain(w, dated) for w in got), key=repr) == want
    assert late == want_late
    assert _ends(got) == sorted(_ends(got))  # each came in order of its end
    for window in got:  # its items in the order they came
        assert [item[0] for item in window.items] == sorted(item[0] for item in window.items)
    async_late: list[int] = []
    again = _windows(
        astream(items), shape, lateness, keyed, dated, late=lambda item: async_late.append(item[0])
    )
    assert run(again.to_list()) == got
    assert async_late == late


@settings(max_examples=60, deadline=None)
@given(data=st.data(), shape=shapes(), lateness=st.integers(0, 4), keyed=st.booleans())
def test_reductions_give_the_models_values_and_hold_no_items(
    data: st.DataObject, shape: Shape, lateness: int, keyed: bool
) -> None:
    items = data.draw(sources(lateness))
    want, _ = model(items, shape, lateness, keyed)
    named = {
        "n": "count",
        "ids": ("sum", lambda item: item[0]),
        "first": ("first", lambda item: item[0]),
    }
    late: list[Item] = []
    got = _windows(stream(items), shape, lateness, keyed, False, late.append, **named).to_list()
    assert sorted(((w.key, w.start, w.end, w.values) for w in got), key=repr) == sorted(
        (
            (key, start, end, {"n": len(ids), "ids": sum(ids), "first": ids[0]})
            for key, start, end, ids in want
        ),
        key=repr,
    )
    assert all(w.items == () for w in got)
    again = _windows(astream(items), shape, lateness, keyed, False, late.append, **named)
    assert run(again.to_list()) == got
    assert late[: len(late) // 2] == late[len(late) // 2 :]


@settings(max_examples=60, deadline=None)
@given(
    data=st.data(),
    shape=shapes(),
    lateness=st.integers(0, 4),
    bad=st.sets(st.integers(0, 59), max_size=4),
)
def test_a_late_item_without_late_is_an_error_at_its_place_and_the_stream_goes_on(
    data: st.DataObject, shape: Shape, lateness: int, bad: set[int]
) -> None:
    items = data.draw(sources(lateness))
    want, want_late = model([item for item in items if item[0] not in bad], shape, lateness, False)

    def checked(item: Item) -> Item:
        if item[0] in bad:
            raise KeyError(item[0])
        return item

    errors: list[Exception] = []
    windows = _windows(stream(items).map(checked), shape, lateness, False, False)
    got = windows.catch(LateItem, KeyError, do=errors.append).to_list()
    assert sorted((_plain(w, False) for w in got), key=repr) == want
    places = [error.position for error in errors if isinstance(error, LateItem)]
    kept = [item[0] for item in items if item[0] not in bad]
    assert [kept[place] for place in places] == want_late  # the position: among the items read
    assert [error.item for error in errors if isinstance(error, LateItem)] == [
        items[i] for i in want_late
    ]
    assert sorted(error.args[0] for error in errors if isinstance(error, KeyError)) == sorted(
        bad & {item[0] for item in items}
    )
    async_errors: list[Exception] = []
    again = _windows(astream(items).map(checked), shape, lateness, False, False)
    assert run(again.catch(LateItem, KeyError, do=async_errors.append).to_list()) == got
    assert [type(e) for e in async_errors] == [type(e) for e in errors]


def test_an_item_within_gap_of_a_closed_session_is_late_though_an_open_one_is_near() -> None:
    """Key 0's session at 0 closes when time 20 comes (key 1's); then key 0's 11 opens a
    session, and 5, within the gap of both, would join the open one to the closed one:
    it is late, however long ago the closed one closed."""
    items = [(0, 0, 0), (1, 20, 1), (2, 11, 0), (3, 5, 0)]
    late: list[int] = []
    got = stream(items).session(10, on=_time, by=_key, late=lambda item: late.append(item[0]))
    windows = [_plain(window, False) for window in got]
    assert windows == [(0, 0, 10, (0,)), (0, 11, 21, (2,)), (1, 20, 30, (1,))]
    assert late == [3]
    assert (sorted(windows, key=repr), late) == model(items, ("session", 10, 10), 0, True)


# --- laziness ----------------------------------------------------------------------------


def _endless(read: list[int]) -> Iterator[int]:
    for n in itertools.count():
        read.append(n)
        yield n


@pytest.mark.parametrize("kind", ["tumbling", "sliding", "session"])
def test_a_window_comes_as_soon_as_the_watermark_passes_its_end(kind: str) -> None:
    """Times 0, 1, 2, ... for ever: the first window ends at 10 (a session of gap 10 at
    0; of gap 1 each item is one, and times go up by 1: make them go up by 10), and
    with lateness 5 it comes when time 15 is read, and not a read later."""

    def build(s: Any) -> Any:
        if kind == "tumbling":
            return s.tumbling(10, on=abs, lateness=5)
        if kind == "sliding":
            return s.sliding(10, 10, on=abs, lateness=5)
        return s.map(lambda n: 10 * n).session(10, on=abs, lateness=5)

    read: list[int] = []
    first = next(iter(build(stream(_endless(read)))))
    assert (first.start, first.end) == (0, 10)
    assert read[-1] == (15 if kind != "session" else 2)

    async def first_async() -> Window[int]:
        async for window in build(astream(_endless(read_async))):
            found: Window[int] = window
            return found
        raise AssertionError("no window")

    read_async: list[int] = []
    assert run(first_async()) == first
    assert read_async == read


def test_windows_of_datetimes_come_per_key_and_late_ones_are_named() -> None:
    at = datetime(2026, 3, 1, 9, 0)
    events: list[dict[str, Any]] = [
        {"at": at, "kind": "a", "eur": 3},
        {"at": at + timedelta(minutes=50), "kind": "b", "eur": 4},
        {"at": at + timedelta(minutes=20), "kind": "a", "eur": 5},
        {"at": at + timedelta(hours=1, minutes=20), "kind": "a", "eur": 1},
        {"at": at + timedelta(minutes=5), "kind": "a", "eur": 9},
    ]
    late: list[dict[str, Any]] = []
    hours = stream(events).tumbling(
        timedelta(hours=1),
        on=lambda e: e["at"],
        by=lambda e: e["kind"],
        lateness=timedelta(minutes=10),
        late=late.append,
        n="count",
        total=("sum", "eur"),
    )
    got = [(w.key, w.start.hour, w.values) for w in hours]
    assert got == [
        ("a", 9, {"n": 2, "total": 8}),
        ("b", 9, {"n": 1, "total": 4}),
        ("a", 10, {"n": 1, "total": 1}),
    ]
    assert late == [events[4]]


# --- what is refused ---------------------------------------------------------------------


def test_a_time_of_the_other_kind_is_refused_at_the_first_item_and_the_stream_goes_on() -> None:
    at = datetime(2026, 3, 1, 9, 0)
    errors: list[Exception] = []
    mixed: list[Any] = [at, 5, at]
    got = (
        stream(mixed)
        .tumbling(timedelta(hours=1), on=lambda t: t)
        .catch(TypeError, do=errors.append)
        .to_list()
    )
    assert [w.items for w in got] == [(at, at)]
    assert len(errors) == 1 and "index 1" in str(errors[0]) and "datetime" in str(errors[0])
    with pytest.raises(TypeError, match="index 0"):
        stream([at]).tumbling(10, on=lambda t: t).to_list()
    naive_then_aware = [at, at.replace(tzinfo=UTC)]
    with pytest.raises(TypeError, match="index 1"):
        stream(naive_then_aware).tumbling(timedelta(hours=1), on=lambda t: t).to_list()


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda s: s.tumbling(0, on=abs), ValueError),
        (lambda s: s.tumbling("1h", on=abs), TypeError),
        (lambda s: s.tumbling(timedelta(hours=1), on=abs, lateness=5), TypeError),
        (lambda s: s.sliding(timedelta(hours=1), 5, on=abs), TypeError),
        (lambda s: s.sliding(5, 10, on=abs), ValueError),
        (lambda s: s.session(5, on=abs, lateness=-1), ValueError),
        (lambda s: s.session(5, on=abs, n="median"), ValueError),
        (lambda s: s.tumbling(5, on=5), TypeError),
    ],
)
def test_what_a_window_step_refuses_at_the_call(
    call: Callable[[Any], Any], error: type[Exception]
) -> None:
    for s in (stream([1]), astream([1])):
        with pytest.raises(error):
            call(s)


# --- memory ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "every", "lateness"), [(10, 10, 0), (10, 10, 25), (12, 3, 7), (5, 1, 40)]
)
def test_the_open_windows_stay_within_what_lateness_allows(
    size: int, every: int, lateness: int
) -> None:
    """20,000 items, one a time unit, each up to ``lateness`` late, over three keys: a key
    never has more than ``(lateness + size) // every + 1`` windows open, and they hold no
    more than the items of the last ``2 * lateness + size`` times, each in ``size / every``
    windows."""
    core: EventTime[Item] = EventTime(
        "sliding", _time, _key, lateness, None, None, fixed=Fixed(size, every)
    )
    most_open = most_held = 0
    for n in range(20_000):
        core.add((n, n - (n * 7919) % (lateness + 1), n % 3))
        most_open, most_held = max(most_open, core.open), max(most_held, core.held)
        core.ready.clear()
    assert most_open <= 3 * ((lateness + size) // every + 1)
    assert most_held <= (2 * lateness + size) * -(-size // every)
    source = ((n, n, 0) for n in range(10_000))
    windows = stream(source, analyze=True).tumbling(size, on=_time, lateness=lateness)
    assert windows.count() == -(-10_000 // size)
    rows = windows.explain(analyze=True, format="dict")
    held = next(row["held"] for row in rows if str(row["step"]).startswith(".tumbling"))
    assert isinstance(held, int) and 0 < held <= lateness + size


def test_sessions_hold_only_the_open_ones() -> None:
    """Bursts of five items a hundred apart, each up to 3 late: one session a burst, at
    most two open at once."""
    core: EventTime[Item] = EventTime("session", _time, None, 3, None, None, gap=5)
    most_open = most_held = 0
    for n in range(10_000):
        core.add((n, 100 * (n // 5) + (n * 3) % 5, 0))
        most_open, most_held = max(most_open, core.open), max(most_held, core.held)
    assert most_open <= 2 and most_held <= 10
    core.finish()
    assert len(core.ready) == 2_000 and {len(w.items) for w in core.ready} == {5}


def test_explain_names_the_step_and_the_most_items_it_held_in_both_modes() -> None:
    sync = stream(range(100), analyze=True).tumbling(10, on=abs, lateness=5)
    assert len(sync.to_list()) == 10
    asynchronous = astream(range(100), analyze=True).tumbling(10, on=abs, lateness=5)
    assert len(run(asynchronous.to_list())) == 10
    for windows in (sync, asynchronous):
        rows = windows.explain(analyze=True, format="dict")
        row = next(row for row in rows if row["step"] == ".tumbling(10, on=abs, lateness=5)")
        assert (row["in"], row["out"]) == (100, 10)
        assert isinstance(row["held"], int) and 5 < row["held"] <= 15  # lateness + size at most
