"""One count a step: what ``observe`` logs, what a progress bar shows and what a trace
Probe counts are the counts ``explain(analyze=True)`` reads of that step, the same
object, sync and async; read at the moment each is shown, they agree (a second count
kept beside the step would be one item behind there)."""

from __future__ import annotations

import asyncio
import io
import logging
import sys
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from lazyfun import Stream, astream, stream
from lazyfun.streams import progress as progress_module
from lazyfun.trace import Counts, Probe

# the stages around the watched ones are counted by the C flow engine where it is built
pytestmark = pytest.mark.compiled


def run(coroutine: Coroutine[Any, Any, Any]) -> Any:
    return asyncio.run(coroutine)


def fails_on_3_and_6(n: int) -> int:
    if n in (3, 6):
        raise ValueError(n)
    return n


def row(s: Stream[Any, Any], step: str) -> dict[str, object]:
    """``explain(format="dict")``'s row of the step whose label starts with ``step``."""
    rows = s.explain(analyze=True, format="dict")
    return next(r for r in rows if str(r["step"]).startswith(step))


def counts_of(s: Stream[Any, Any], step: str) -> Counts:
    """The counts explain reads of the step whose label starts with ``step``."""
    stage = next(st for st in s._stage.chain() if st.label().startswith(step))
    assert stage.meter is not None
    return stage.meter


class Seen(logging.Handler):
    """Each observe report, with what explain said of the step when it was logged."""

    def __init__(self, said: Callable[[], dict[str, object]]) -> None:
        super().__init__()
        self.said = said
        self.reports: list[tuple[tuple[object, object], tuple[object, object]]] = []

    def emit(self, record: logging.LogRecord) -> None:
        _, items, errors, *_ = record.args  # type: ignore[misc]
        explained = self.said()
        self.reports.append(((items, errors), (explained["out"], explained["errors out"])))


def observed(name: str) -> tuple[logging.Logger, Callable[[Seen], None]]:
    """A logger of its own, and how to listen on it."""
    logger = logging.getLogger(f"lazyfun.test.watching.{name}")
    logger.setLevel(logging.INFO)
    logger.propagate = False
    for handler in list(logger.handlers):
        logger.removeHandler(handler)
    return logger, logger.addHandler


def test_observe_logs_the_counts_explain_reads_at_every_report() -> None:
    logger, listen = observed("sync")
    s = (
        stream(range(10), analyze=True)
        .map(fails_on_3_and_6)
        .observe("numbers", logger)
        .catch(ValueError)
    )
    seen = Seen(lambda: row(s, ".observe"))
    listen(seen)
    assert s.to_list() == [0, 1, 2, 4, 5, 7, 8, 9]
    assert [logged for logged, _ in seen.reports] == [(1, 0), (2, 0), (3, 1), (6, 2), (8, 2)]
    assert all(logged == said for logged, said in seen.reports)
    observe, caught = row(s, ".observe"), row(s, ".catch")
    assert (observe["in"], observe["out"], observe["errors out"]) == (8, 8, 2)
    assert (caught["errors in"], caught["errors out"], caught["out"]) == (2, 0, 8)
    assert isinstance(observe["seconds"], float) and isinstance(observe["waiting"], float)


def test_the_async_observe_logs_the_counts_explain_reads_at_every_report() -> None:
    logger, listen = observed("async")
    s = (
        astream(range(10), analyze=True)
        .map(fails_on_3_and_6)
        .observe("numbers", logger)
        .catch(ValueError)
    )
    seen = Seen(lambda: row(s, ".observe"))
    listen(seen)
    assert run(s.to_list()) == [0, 1, 2, 4, 5, 7, 8, 9]
    assert [logged for logged, _ in seen.reports] == [(1, 0), (2, 0), (3, 1), (6, 2), (8, 2)]
    assert all(logged == said for logged, said in seen.reports)
    assert (row(s, ".observe")["out"], row(s, ".observe")["errors out"]) == (8, 2)


def test_analyze_after_observe_still_keeps_one_count() -> None:
    logger, listen = observed("later")
    s = stream(range(5)).observe("numbers", logger).analyze()
    seen = Seen(lambda: row(s, ".observe"))
    listen(seen)
    assert s.to_list() == [0, 1, 2, 3, 4]
    assert [logged for logged, _ in seen.reports] == [(1, 0), (2, 0), (4, 0), (5, 0)]
    assert all(logged == said for logged, said in seen.reports)


def test_a_probe_on_a_stream_counts_into_what_explain_reads() -> None:
    probe = Probe()
    s = stream(range(100), analyze=True).probe("read", probe).filter(lambda n: n > 4).take(2)
    assert s.to_list() == [5, 6]
    assert counts_of(s, ".probe") is probe.counter("read")
    assert probe.counts == {"read": 7} and row(s, ".probe")["out"] == 7
    assert row(s, ".filter")["in"] == 7


def test_an_async_probe_counts_into_what_explain_reads() -> None:
    probe = Probe()
    s = astream(range(100), analyze=True).probe("read", probe).filter(lambda n: n > 4).take(2)
    assert run(s.to_list()) == [5, 6]
    assert counts_of(s, ".probe") is probe.counter("read")
    assert probe.counts == {"read": 7} and row(s, ".probe")["out"] == 7


def test_a_probe_step_counts_what_passes_analysed_or_not() -> None:
    probe = Probe()
    assert stream(range(10)).probe("plain", probe).take(3).to_list() == [0, 1, 2]
    assert stream(range(10)).probe("off", Probe(enabled=False)).take(1).to_list() == [0]
    assert probe.counts == {"plain": 3}


class Bar:
    """A rich bar's stand-in: each count it is told, with what explain said then."""

    def __init__(self) -> None:
        self.said: Callable[[], object] = lambda: None
        self.shown: list[tuple[object, object]] = []
        self.stopped = False

    def update(self, task: object, completed: int) -> None:
        self.shown.append((completed, self.said()))

    def stop(self) -> None:
        self.stopped = True


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def barred(monkeypatch: pytest.MonkeyPatch) -> Bar:
    """Standard error a terminal, and the bar a :class:`Bar` that reports to the test."""
    bar = Bar()
    monkeypatch.setattr(sys, "stderr", Terminal())
    monkeypatch.setattr(progress_module, "_started", lambda *_: (bar, 0))
    return bar


def test_the_progress_bar_shows_the_count_explain_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    bar = barred(monkeypatch)
    s = stream(range(6), analyze=True).map(fails_on_3_and_6).progress("n").catch(ValueError)
    bar.said = lambda: row(s, ".progress")["out"]
    assert s.to_list() == [0, 1, 2, 4, 5]
    assert bar.shown == [(n, n) for n in range(1, 6)] and bar.stopped
    assert (row(s, ".progress")["out"], row(s, ".progress")["errors out"]) == (5, 1)


def test_the_async_progress_bar_shows_the_count_explain_reads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bar = barred(monkeypatch)
    s = astream(range(6), analyze=True).map(fails_on_3_and_6).progress("n").catch(ValueError)
    bar.said = lambda: row(s, ".progress")["out"]
    assert run(s.to_list()) == [0, 1, 2, 4, 5]
    assert bar.shown == [(n, n) for n in range(1, 6)] and bar.stopped
    assert (row(s, ".progress")["out"], row(s, ".progress")["errors out"]) == (5, 1)


def test_an_error_passes_a_probe_step_and_the_stream_goes_on() -> None:
    probe = Probe()
    s = stream(range(5), analyze=True).map(fails_on_3_and_6).probe("p", probe).catch(ValueError)
    assert s.to_list() == [0, 1, 2, 4]  # a generator's probe ended the stream at the error
    assert probe.counts == {"p": 4} and row(s, ".probe")["errors out"] == 1
    again = Probe()
    a = astream(range(5)).map(fails_on_3_and_6).probe("p", again).catch(ValueError)
    assert run(a.to_list()) == [0, 1, 2, 4] and again.counts == {"p": 4}
