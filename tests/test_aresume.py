"""An AsyncStream's killed job resumes as a Stream's does, and seeks: its source is read
on a thread of its own, which takes where the source stands (its mark) every
``MARK_EVERY`` records; a commit records the latest mark at its position or before,
never one ahead, so a resumed job opens its file at that byte offset and reads through
``MARK_EVERY`` records at most, not what was done.  Killed with SIGKILL at random
moments (a concurrent map of a coroutine function, a bad record caught, a filter) and
run again until it ends, its output is byte for byte a run never stopped's."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun import AsyncStream, RecordError, astream
from lazyfun.io import read_csv, read_jsonl, read_lines
from lazyfun.io.sources import Jsonl
from lazyfun.sinks.resume import MARK_EVERY, ThreadMarks
from tests.children import running
from tests.test_resume import written

ROOT = Path(__file__).resolve().parent.parent
RECORDS = 8_000

JOB = textwrap.dedent(
    """
    import asyncio, sys
    from lazyfun import RecordError, astream
    from lazyfun.io import read_jsonl

    async def fetch(record):  # an HTTP call, as the ingest in the docs makes
        await asyncio.sleep(0.0005)
        return {"n": record["n"], "square": record["n"] ** 2}

    source, out = sys.argv[1:3]
    ingest = (
        astream(read_jsonl(source))
        .map(fetch, concurrency=4)
        .catch(RecordError)
        .filter(lambda record: record["n"] % 5 != 3)
    )
    asyncio.run(ingest.to_jsonl(out, resume=True))
    """
)


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("aresume") / "in.jsonl"
    lines = [json.dumps({"n": n}) for n in range(RECORDS)]
    lines[5432] = '{"n": broken'  # a bad record, caught by the pipeline
    path.write_text("\n".join(lines) + "\n")
    return path


def _run(source: Path, out: Path, kill_after: float | None) -> bool:
    """One run of the job, killed after ``kill_after`` seconds unless it ends first;
    whether it ended by itself."""
    with running([sys.executable, "-c", JOB, str(source), str(out)], cwd=ROOT) as child:
        try:
            return child.wait(timeout=120 if kill_after is None else kill_after) == 0
        except subprocess.TimeoutExpired:
            child.send_signal(signal.SIGKILL)
            child.wait(timeout=60)
            return False


def _check_mark(out: Path) -> None:
    """The progress a kill left (if any): its mark never ahead of the position it was
    recorded with, and behind it by ``MARK_EVERY`` records at most (none only before
    the first was taken)."""
    record = Path(f"{out}.progress")
    if record.exists():
        state = json.loads(record.read_text())
        mark, position = state["mark"], state["position"]
        if mark is None:
            assert position < MARK_EVERY, state
        else:
            assert 0 <= position - mark["position"] <= MARK_EVERY, state


@pytest.fixture(scope="module")
def reference(source: Path) -> tuple[bytes, float]:
    """The output of a run never stopped, and how long the run took."""
    out = source.parent / "reference.jsonl"
    start = time.monotonic()
    assert _run(source, out, None)
    whole = time.monotonic() - start
    kept = [n for n in range(RECORDS) if n != 5432 and n % 5 != 3]
    assert [record["n"] for record in read_jsonl(out).to_list()] == kept
    return out.read_bytes(), whole


@pytest.mark.parametrize("seed", range(3))
def test_an_async_job_killed_at_random_moments_ends_with_every_record_once(
    source: Path, reference: tuple[bytes, float], tmp_path: Path, seed: int
) -> None:
    whole, took = reference
    chance = random.Random(seed)
    kills = 0
    for trial in range(3):  # again, afresh, where the machine ran the first run whole
        out = tmp_path / f"out{trial}.jsonl"
        # killed at a random moment of a run (before it could end, at first), until a
        # run ends by itself; each kill leaves a mark at its commit's position or behind
        while not _run(source, out, chance.uniform(0.3, took * (0.5 + kills / 4))):
            kills += 1
            _check_mark(out)
            assert kills < 30, "the job never ended between kills"
        assert out.read_bytes() == whole, f"{kills} kills"
        if kills:
            return
    raise AssertionError("no run was killed before it ended")


def _junked(path: Path, start: int, end: int) -> None:
    """The bytes ``start:end`` of ``path`` made one line of the same length: a source
    that read them again would count one (bad) record where there were many."""
    data = path.read_bytes()
    path.write_bytes(data[:start] + b"#" * (end - start - 1) + b"\n" + data[end:])


READERS: dict[str, Callable[[Path], Any]] = {
    "read_lines": lambda p: read_lines(p),
    "read_jsonl": lambda p: read_jsonl(p),
    "read_csv": lambda p: read_csv(p),
}


def _number(record: Any) -> int:
    return int(record if isinstance(record, str) else record["n"])


class Stop(Exception):
    """What stops the first run at a record."""


def _job(read: Any, stop: int | None, concurrency: int | None) -> AsyncStream[Any]:
    """The async job: ``read``'s records through a map (a coroutine function on
    ``concurrency`` tasks, or a plain one) that raises at record ``stop``."""

    def check(record: Any) -> Any:
        if stop is not None and _number(record) == stop:
            raise Stop(stop)
        return record

    async def acheck(record: Any) -> Any:
        await asyncio.sleep(0)
        return check(record)

    if concurrency is None:
        return astream(read).map(check)
    return astream(read).map(acheck, concurrency=concurrency)


def _stopped_and_resumed(
    reader: str, folder: Path, records: int, stop: int, concurrency: int | None
) -> None:
    """A job stopped at record ``stop``, the source before its mark made unreadable,
    and resumed: only a source that seeks gets on, to the whole output."""
    source, out = folder / "in.txt", folder / "out.jsonl"
    expected = written(reader, source, records)
    read = READERS[reader]
    with pytest.raises(Stop):
        asyncio.run(_job(read(source), stop, concurrency).to_jsonl(out, resume=True))
    assert len(out.read_text().splitlines()) == stop  # what reached the sink is kept
    state = json.loads(Path(f"{out}.progress").read_text())
    assert state["position"] == stop
    mark = state["mark"]
    if stop < MARK_EVERY:
        assert mark is None  # none taken yet: read through on resume
    else:
        assert mark["file"] == str(source)
        assert 0 <= stop - mark["position"] <= MARK_EVERY  # never ahead, and close
        _junked(source, len("n,word\n") if reader == "read_csv" else 0, mark["offset"])
    resumed = _job(read(source), None, concurrency).to_jsonl(out, resume=True)
    assert asyncio.run(resumed) == records - stop
    assert [json.loads(line) for line in out.read_text().splitlines()] == expected


@pytest.mark.parametrize("concurrency", [None, 4])
@pytest.mark.parametrize("reader", READERS)
def test_a_resumed_async_job_seeks_past_what_was_done(
    tmp_path: Path, reader: str, concurrency: int | None
) -> None:
    _stopped_and_resumed(reader, tmp_path, 5000, 3210, concurrency)


@settings(max_examples=20, deadline=None)
@given(
    stop=st.integers(0, 4 * MARK_EVERY),
    concurrency=st.sampled_from([None, 1, 4, 16]),
    reader=st.sampled_from(sorted(READERS)),
)
def test_an_async_job_stopped_anywhere_resumes_from_a_mark_to_the_whole(
    stop: int, concurrency: int | None, reader: str
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        _stopped_and_resumed(reader, Path(folder), 4 * MARK_EVERY + 100, stop, concurrency)


def test_a_compressed_source_is_read_through(tmp_path: Path) -> None:
    import gzip

    source = tmp_path / "in.jsonl.gz"
    with gzip.open(source, "wt") as file:
        file.writelines(json.dumps({"n": n}) + "\n" for n in range(3000))
    out = tmp_path / "out.jsonl"
    with pytest.raises(Stop):
        asyncio.run(_job(read_jsonl(source), 2500, 4).to_jsonl(out, resume=True))
    assert json.loads(Path(f"{out}.progress").read_text())["mark"] is None  # it cannot seek
    assert asyncio.run(_job(read_jsonl(source), None, 4).to_jsonl(out, resume=True)) == 500
    assert read_jsonl(out).to_list() == [{"n": n} for n in range(3000)]


@given(
    steps=st.lists(st.tuples(st.integers(1, 50), st.integers(0, 400)), max_size=40),
    most=st.integers(2, 6),
)
def test_a_commit_records_the_latest_mark_at_its_position_or_before(
    steps: list[tuple[int, int]], most: int
) -> None:
    """Marks taken every so many records, a commit after each, behind the last mark by up
    to 400 records: it gets a mark at its position or before, never one ahead, never
    older than the last commit's, and the latest such where ``most`` marks kept it."""
    marks = ThreadMarks(most=most)
    taken: list[int] = []
    at = commit = 0
    last: int | None = None
    for step, behind in steps:
        at += step
        marks.took({"position": at})
        taken.append(at)
        commit = max(commit, at - behind)
        got = marks.at(commit)
        best = None if got is None else got["position"]
        assert best is None or best <= commit
        assert last is None or (best is not None and best >= last)
        latest = [p for p in taken[-(most - 1) :] if p <= commit]
        if latest:
            assert best == latest[-1]
        last = best


def _values(source: Any) -> list[Any]:
    """Every value ``source`` gives, a record error as its line, to the end."""
    values: list[Any] = []
    while True:
        try:
            values.append(next(source))
        except StopIteration:
            return values
        except RecordError as error:
            values.append(("error", error.line))


@settings(max_examples=40, deadline=None)
@given(
    lines=st.lists(st.sampled_from(['{"n": 1}', '{"n": 2}', "bad", ""]), max_size=40),
    every=st.integers(1, 5),
)
def test_a_source_read_with_its_marks_gives_the_same_values_and_each_mark_resumes(
    lines: list[str], every: int
) -> None:
    """Read in stretches with a mark taken between, a source gives what it gives alone
    (its record errors at their places, blank lines skipped); each mark names where it
    was taken: a source resumed from it gives the rest, and marks are ``every`` values
    apart, one more after an error."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "in.jsonl"
        path.write_text("".join(f"{line}\n" for line in lines))
        alone = _values(Jsonl(path))
        marks = ThreadMarks(every=every, most=1000)
        assert _values(marks.reading(Jsonl(path))) == alone
        taken = [mark["position"] for mark in marks.taken]
        assert taken == sorted(set(taken)) and all(p <= len(alone) for p in taken)
        assert all(b - a <= every + 1 for a, b in zip([0, *taken], taken, strict=False))
        assert not taken or len(alone) - taken[-1] <= every + 1
        for mark in marks.taken:
            resumed = Jsonl(path)
            resumed.resume(mark, mark["position"])
            assert _values(resumed) == alone[mark["position"] :]
