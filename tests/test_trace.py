"""The trace probe: counts, memory, time, and the report."""

from __future__ import annotations

import itertools
import time

import pytest

from lazyfun import cp, take
from lazyfun.trace import Probe


def test_counts_only_what_the_consumer_pulled() -> None:
    probe = Probe()
    evens = probe.stage(
        "evens", (n for n in probe.stage("naturals", itertools.count()) if n % 2 == 0)
    )
    assert list(take(3, evens)) == [0, 2, 4]
    assert probe.counts == {"naturals": 5, "evens": 3}


def test_counted_sums_over_calls() -> None:
    probe = Probe()
    pairs = probe.counted("pairs")(lambda n: cp([range(n)] * 2))
    assert sum(1 for n in range(4) for _ in pairs(n)) == 0 + 1 + 4 + 9
    assert probe.counts == {"pairs": 14}


def test_memory_and_time_are_recorded_and_reported() -> None:
    with Probe(memory=True) as probe:
        big = list(probe.stage("kept", range(100_000)))
    assert len(big) == 100_000
    assert probe.peak_bytes is not None and probe.peak_bytes > 100_000 * 8
    report = str(probe)
    assert "kept" in report and "100,000" in report and "peak memory" in report
    assert probe.as_dict()["counts"] == {"kept": 100_000}


def test_the_time_is_the_clock_between_entering_and_leaving(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ticks = iter([100.0, 102.5])
    monkeypatch.setattr(time, "perf_counter", lambda: next(ticks, 0.0))
    with Probe() as probe:
        pass
    assert probe.seconds == 2.5
    assert "time 2.500 s" in str(probe)


def test_a_lazy_stream_has_a_small_peak() -> None:
    with Probe(memory=True) as probe:
        total = sum(probe.stage("streamed", range(100_000)))
    assert total == sum(range(100_000))
    assert probe.peak_bytes is not None and probe.peak_bytes < 50_000


def test_disabled_probe_is_a_pass_through() -> None:
    probe = Probe(enabled=False, memory=True)
    xs = iter(range(3))
    with probe:
        assert probe.stage("xs", xs) is xs
    assert probe.counts == {}
    assert probe.peak_bytes is None
