"""The trace probe: counts, memory, time, and the report."""

from __future__ import annotations

import itertools
import threading
import time

import pytest

from lazyfun import cp, stream, take
from lazyfun.trace import Counts, Probe


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
    """The smaller peak of two runs: tracemalloc counts every thread's allocations, and a
    thread left running by an earlier test of the same process (a dask cluster's) has
    been seen to add 270 kB to one reading."""
    peaks = []
    for _ in range(2):
        with Probe(memory=True) as probe:
            total = sum(probe.stage("streamed", range(100_000)))
        assert total == sum(range(100_000))
        assert probe.peak_bytes is not None
        peaks.append(probe.peak_bytes)
    assert min(peaks) < 50_000


def test_disabled_probe_is_a_pass_through() -> None:
    probe = Probe(enabled=False, memory=True)
    xs = iter(range(3))
    with probe:
        assert probe.stage("xs", xs) is xs
    assert probe.counts == {}
    assert probe.peak_bytes is None


def test_each_name_is_one_counts_summed_over_every_stream_it_watches() -> None:
    probe = Probe()
    assert sum(probe.stage("xs", range(3))) + sum(probe.stage("xs", range(4))) == 3 + 6
    assert probe.counter("xs") is probe.counter("xs") and probe.counter("xs").items == 7
    shown = probe.counts
    shown["xs"] = 0  # a snapshot, a new dict each time: the count stays
    assert probe.counts == {"xs": 7}


def test_a_probe_reused_on_two_streams_shows_its_sum_in_each_explain() -> None:
    probe = Probe()
    first = stream(range(3), analyze=True).probe("read", probe)
    assert first.to_list() == [0, 1, 2]
    second = stream(range(4), analyze=True).probe("read", probe)
    assert second.to_list() == [0, 1, 2, 3]
    assert probe.counts == {"read": 7}
    outs = [s.explain(analyze=True, format="dict")[1]["out"] for s in (first, second)]
    assert outs == [7, 7]  # one count: the probe's


def test_counts_keep_a_stage_s_numbers_and_its_calls_from_any_thread() -> None:
    counts = Counts()
    assert counts.snapshot() == (0, 0, 0.0, 0) and counts.calls is None
    counts.counting_calls()
    assert counts.calls == 0

    def call_a_thousand_times() -> None:
        for _ in range(1000):
            counts.called()

    workers = [threading.Thread(target=call_a_thousand_times) for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert counts.calls == 4000
