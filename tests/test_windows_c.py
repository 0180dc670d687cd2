"""The C flow engine's windows held to the Python reference: its ``Windowed`` (tumbling
and sliding windows of numbers, folded) gives, item for item, what
:class:`~lazyfun.streams.windows.EventTime` gives: the same windows at the same moments
(their starts' and values' types too), the same late items to ``late`` or the same
LateItem, the same errors of ``on``, ``by`` and the values at the same places; on times
out of order, late ones among them, ints and floats, by key and not.  Its ``TimeField``
reads an ISO-8601 string as ``datetime.fromisoformat`` and ``timestamp`` do, naive
times as UTC's; and ``on=`` a field's name windows as the function it stands for."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from operator import itemgetter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun import astream, stream
from lazyfun.streams.sync import windowed
from lazyfun.streams.sync.windowed import BUILT, event_time, time_field
from lazyfun.streams.windows import Core, EventTime, Fixed, TimeField, iso_seconds, reducing
from tests.budget import examples

needs_c = pytest.mark.skipif(not BUILT, reason="the C flow engine is not built (or LAZYFUN_PURE)")

Item = tuple[int, Any, int]  # (id, time, key)


def _time(item: Item) -> Any:
    """An item's time; a time of None is an error of on's."""
    if item[1] is None:
        raise KeyError("no time")
    return item[1]


def _key(item: Item) -> int:
    """An item's key; a key of -1 is an error of by's."""
    if item[2] < 0:
        raise LookupError("no key")
    return item[2]


def _amount(item: Item) -> Any:
    """The summed value: the id, but a string for every 17th (a sum's TypeError)."""
    return "x" if item[0] % 17 == 16 else item[0]


NAMED: dict[str, Any] = {"n": "count", "total": ("sum", _amount), "low": ("min", _time)}
COUNTS: dict[str, Any] = {"n": "count", "again": "count"}  # counted with no Folder


@st.composite
def items(draw: st.DrawFn) -> list[Item]:
    """Times mostly rising, each a little back (up to 6), some far back (late), some
    floats, a few errors (no time, no key, a string, NaN, a bool)."""
    n = draw(st.integers(0, 60))
    made: list[Item] = []
    now = draw(st.integers(-20, 20))
    for i in range(n):
        now += draw(st.integers(0, 3))
        t: Any = now - draw(st.sampled_from([0, 0, 0, 1, 2, 6, 20]))
        kind = draw(st.sampled_from(["int"] * 6 + ["float"] * 3 + ["odd"]))
        if kind == "float":
            t = t + draw(st.sampled_from([0.0, 0.5, 0.25, -0.75]))
        elif kind == "odd":
            t = draw(st.sampled_from([None, "7", math.nan, True]))
        key = draw(st.sampled_from([0, 1, 2, 0, -1] if i % 5 == 4 else [0, 1, 2]))
        made.append((i, t, key))
    return made


def _plain(value: Any) -> Any:
    """A value with its type, so 1 and 1.0 differ."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return (type(value).__name__, value)


def _trace(core: Core, source: list[Item], late: list[Item]) -> list[Any]:
    """What the core did, item by item: each item's error (type and message) or the
    windows it closed, the late items taken so far; then the windows left at the end."""
    trace: list[Any] = []
    for item in source:
        try:
            core.add(item)
        except Exception as error:  # an item's error, at its place
            trace.append(("error", type(error).__name__, str(error)))
        done = [
            (w.key, _plain(w.start), _plain(w.end), w.items, _plain(w.values)) for w in core.ready
        ]
        core.ready.clear()
        trace.append((done, len(late)))
    core.finish()
    trace.append([(w.key, _plain(w.start), _plain(w.end), _plain(w.values)) for w in core.ready])
    return trace


@needs_c
@settings(max_examples=examples(300), deadline=None)
@given(
    source=items(),
    shape=st.sampled_from(
        [(1, 1), (3, 3), (4, 2), (5, 1), (2.5, 2.5), (3, 1.5), (12, 12), (10, 4)]
    ),
    lateness=st.sampled_from([0, 1, 4, 2.5]),
    keyed=st.booleans(),
    taken=st.booleans(),
    named=st.sampled_from([NAMED, COUNTS]),
)
def test_the_c_windows_are_the_pythons_item_for_item(
    source: list[Item],
    shape: tuple[Any, Any],
    lateness: Any,
    keyed: bool,
    taken: bool,
    named: dict[str, Any],
) -> None:
    size, every = shape
    traces = []
    for engine in (EventTime, event_time):
        late: list[Item] = []
        core = engine(
            "sliding",
            _time,
            _key if keyed else None,
            lateness,
            late.append if taken else None,
            reducing(named),
            fixed=Fixed(size, every),
        )
        traces.append((_trace(core, source, late), late))
    assert type(core).__name__ == "Windowed"
    assert traces[0] == traces[1]


def _dated(item: dict[str, Any]) -> Any:
    """A dict item's time, as :func:`_time` reads a tuple's."""
    return _time((item["id"], item["t"], 0))


@needs_c
@settings(max_examples=examples(150), deadline=None)
@given(source=items(), counted=st.booleans(), lateness=st.sampled_from([0, 2.5]))
def test_by_a_fields_getter_is_read_inline_with_the_same_windows_and_errors(
    source: list[Item], counted: bool, lateness: Any
) -> None:
    """``by=itemgetter("k")`` is read by its field's name in C (as the fold reads one):
    the same windows as its call, and an item without the field its KeyError in place."""
    dicts = [{"id": i, "t": t} if k < 0 else {"id": i, "t": t, "k": k} for i, t, k in source]
    named: dict[str, Any] = {"n": "count"} if counted else {"n": "count", "low": ("min", _dated)}
    traces = []
    for engine in (EventTime, event_time):
        core = engine(
            "tumbling", _dated, itemgetter("k"), lateness, None, reducing(named), fixed=Fixed(3, 3)
        )
        traces.append(_trace(core, dicts, []))  # type: ignore[arg-type]
    assert type(core).__name__ == "Windowed"
    assert traces[0] == traces[1]


@needs_c
def test_the_c_core_is_taken_only_where_it_is_the_same() -> None:
    """Windows with items, sessions, datetimes' windows: the Python core."""
    fixed = Fixed(10, 10)
    count = reducing({"n": "count"})
    assert type(event_time("t", abs, None, 0, None, count, fixed=fixed)).__name__ == "Windowed"
    assert isinstance(event_time("t", abs, None, 0, None, None, fixed=fixed), EventTime)
    assert isinstance(event_time("t", abs, None, 0, None, count, gap=5), EventTime)
    dated = Fixed(timedelta(hours=1), timedelta(hours=1))
    assert isinstance(event_time("t", abs, None, timedelta(0), None, count, fixed=dated), EventTime)


def _iso(moment: datetime, shape: str) -> str:
    """``moment`` written in one of the shapes ISO-8601 allows."""
    if shape == "ms":
        return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    if shape == "us":
        return moment.isoformat(timespec="microseconds")
    if shape == "s":
        return moment.replace(tzinfo=None).isoformat(timespec="seconds")
    if shape == "space":
        return moment.isoformat(sep=" ")
    return moment.isoformat(timespec="minutes")


def _outcome(f: Callable[[Any], Any], item: Any) -> Any:
    try:
        value = f(item)
    except Exception as error:  # the same error, or the same value
        return type(error).__name__, str(error)
    return type(value).__name__, value


@needs_c
@settings(max_examples=examples(400), deadline=None)
@given(
    moment=st.datetimes(
        min_value=datetime(1800, 1, 1), max_value=datetime(2200, 12, 31), timezones=st.just(UTC)
    ),
    offset=st.integers(-14 * 60, 14 * 60),
    shape=st.sampled_from(["ms", "us", "s", "space", "minutes"]),
    garble=st.sampled_from(["", "", "", "x", "Zz", "9"]),
)
def test_the_c_time_field_reads_a_string_as_the_python_does(
    moment: datetime, offset: int, shape: str, garble: str
) -> None:
    zoned = moment.astimezone(timezone(timedelta(minutes=offset)))
    text = _iso(zoned, shape) + garble
    fast, slow = time_field("ts", dated=False), TimeField("ts", iso_seconds)
    assert type(fast).__name__ == "TimeField"
    assert _outcome(fast, {"ts": text}) == _outcome(slow, {"ts": text})
    if not garble:
        naive = datetime.fromisoformat(text)
        if naive.tzinfo is None:
            naive = naive.replace(tzinfo=UTC)
        assert fast({"ts": text}) == naive.timestamp()


@needs_c
@settings(max_examples=examples(200), deadline=None)
@given(
    texts=st.lists(
        st.sampled_from(["2026-02-28", "2026-02-29", "2024-02-29", "0000-01-01", "2026-03-01"])
        .flatmap(
            lambda day: st.tuples(
                st.just(day),
                st.integers(0, 25),
                st.integers(0, 60),
                st.sampled_from(["Z", ".250Z", "+01:00", "", "x", ".1Z"]),
            )
        )
        .map(lambda p: f"{p[0]}T{p[1]:02d}:{p[2]:02d}:05{p[3]}"),
        max_size=30,
    )
)
def test_one_c_time_field_reads_times_of_shared_dates_as_the_python_does(
    texts: list[str],
) -> None:
    # one field reads them all (a date read once serves the times after it that share
    # it): each time, valid or not, as the Python reading has it
    fast, slow = time_field("ts", dated=False), TimeField("ts", iso_seconds)
    for text in texts:
        assert _outcome(fast, {"ts": text}) == _outcome(slow, {"ts": text})


@needs_c
@pytest.mark.parametrize(
    "value",
    [
        "2026-02-29T00:00:00Z",  # no such day
        "2026-13-01T00:00:00Z",
        "2026-01-01T24:00:00Z",
        "2026-01-01T00:00:00.1234Z",
        "2026-01-01T00:00:00+25:00",
        "2026-01-01T00:00:00.000Z\x00",
        "\udc80",
        "",
        12.5,
        None,
    ],
)
def test_the_c_time_field_leaves_to_the_python_what_it_does_not_read(value: Any) -> None:
    fast, slow = time_field("ts", dated=False), TimeField("ts", iso_seconds)
    assert _outcome(fast, {"ts": value}) == _outcome(slow, {"ts": value})
    assert _outcome(fast, {}) == _outcome(slow, {})


def test_on_a_fields_name_windows_as_the_function_it_stands_for() -> None:
    """``on="ts"`` of ISO strings, of numbers, of datetimes (timedeltas), sync and async."""
    base = datetime(2026, 11, 1, tzinfo=UTC)
    events: list[dict[str, Any]] = [
        {"ts": (base + timedelta(minutes=m)).isoformat().replace("+00:00", "Z"), "kind": m % 3}
        for m in [0, 5, 70, 50, 130, 200, 190, 400]
    ]

    def seconds(event: dict[str, Any]) -> float:
        return datetime.fromisoformat(event["ts"]).timestamp()

    def windows(
        on: Any, size: Any, lateness: Any, source: list[dict[str, Any]] = events, aio: bool = False
    ) -> list[Any]:
        def shaped(s: Any) -> Any:
            return s.tumbling(size, on=on, by=lambda e: e["kind"], lateness=lateness, n="count")

        got = (
            asyncio.run(shaped(astream(source)).to_list())
            if aio
            else shaped(stream(source)).to_list()
        )
        return [(w.key, w.start, w.end, w.values) for w in got]

    want = windows(seconds, 3600, 1200)
    assert windows("ts", 3600, 1200) == want
    assert windows("ts", 3600, 1200, aio=True) == want
    hour = timedelta(hours=1)
    dated = windows("ts", hour, timedelta(minutes=20))
    assert [(k, s.timestamp(), e.timestamp(), v) for k, s, e, v in dated] == want
    numbers = [{"ts": seconds(e), "kind": e["kind"]} for e in events]
    assert windows("ts", 3600, 1200, numbers) == want
    naive = [{"ts": e["ts"].removesuffix("Z"), "kind": e["kind"]} for e in events]
    assert windows("ts", 3600, 1200, naive) == want


def test_a_fields_string_that_is_no_time_is_an_error_at_its_place() -> None:
    events = [{"ts": "1970-01-01T00:00:01Z"}, {"ts": "soon"}, {"ts": "1970-01-01T00:00:02Z"}]
    errors: list[ValueError] = []
    got = stream(events).tumbling(10, on="ts", n="count").catch(ValueError, do=errors.append)
    assert [(w.start, w.values) for w in got] == [(0, {"n": 2})] and len(errors) == 1
    with pytest.raises(ValueError, match="'soon' is not an ISO-8601 time"):
        stream(events).tumbling(10, on="ts", n="count").to_list()
    assert windowed.BUILT == BUILT
