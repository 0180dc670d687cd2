"""A killed job resumes: a pipeline (JSON Lines in, a concurrent ordered map, a bad
record caught; JSON Lines, Parquet or SQLite out; a Stream's, or an AsyncStream's
whose calls are coroutines) is killed with SIGKILL at random moments and run again
with ``resume=True`` until it ends; its output is then byte for byte (row for row) the
output of a run never stopped.  A resumed file source seeks past what was done rather
than reading it again.  And what cannot resume exactly is refused at the call with the
reason."""

from __future__ import annotations

import asyncio
import json
import random
import re
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from lazyfun import AsyncStream, RecordError, Stream, astream, stream
from lazyfun.io import read_csv, read_jsonl, read_lines, read_parquet, read_sql, to_jsonl
from tests.children import running

ROOT = Path(__file__).resolve().parent.parent
RECORDS = 8_000

JOB = textwrap.dedent(
    """
    import asyncio, sys, time
    from lazyfun import RecordError, astream
    from lazyfun.io import read_jsonl

    def enriched(record):
        return {"n": record["n"], "square": record["n"] ** 2, "tag": "x" * (record["n"] % 7)}

    def enrich(record):
        time.sleep(0.0005)  # half a second for the job on 8 threads: time for kills
        return enriched(record)

    async def fetch(record):  # an HTTP call, as the ingest in the docs makes
        await asyncio.sleep(0.001)
        return enriched(record)

    source, out, sink = sys.argv[1:4]
    pipeline = read_jsonl(source).map(enrich, concurrency=8).catch(RecordError)
    if sink == "jsonl":
        pipeline.to_jsonl(out, resume=True)
    elif sink == "parquet":
        pipeline.to_parquet(out, row_group=500, resume=True)
    elif sink == "async":
        ingest = astream(read_jsonl(source)).map(fetch, concurrency=8).catch(RecordError)
        asyncio.run(ingest.to_jsonl(out, resume=True))
    else:
        pipeline.to_sql(out, "enriched", 500, resume=True)
    """
)


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("resume") / "in.jsonl"
    lines = [json.dumps({"n": n}) for n in range(RECORDS)]
    lines[4321] = '{"n": broken'  # a bad record, caught by the pipeline
    lines[6789] = "not json at all"
    path.write_text("\n".join(lines) + "\n")
    return path


def _run(source: Path, out: Path, sink: str, kill_after: float | None) -> bool:
    """One run of the job; killed after ``kill_after`` seconds unless it ends first.
    Whether it ended by itself."""
    with running([sys.executable, "-c", JOB, str(source), str(out), sink], cwd=ROOT) as child:
        if kill_after is None:
            return child.wait(timeout=120) == 0
        try:
            return child.wait(timeout=kill_after) == 0
        except subprocess.TimeoutExpired:
            child.send_signal(signal.SIGKILL)
            child.wait(timeout=60)
            return False


def _rows(db: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as connection:
        return connection.execute("SELECT * FROM enriched ORDER BY rowid").fetchall()


def _trials(source: Path, folder: Path, sink: str, trials: int) -> None:
    reference = folder / f"reference.{sink}"
    start = time.monotonic()
    assert _run(source, reference, sink, None)
    whole = time.monotonic() - start
    chance = random.Random(sink)
    killed = 0
    for trial in range(trials):
        out = folder / f"out{trial}.{sink}"
        kills = 0
        # killed at a random moment of a run (before it could end, at first), until a
        # run ends by itself
        while not _run(source, out, sink, chance.uniform(0.2, whole * (1 + kills / 4))):
            kills += 1
            assert kills < 30, "the job never ended between kills"
        killed += kills
        if sink in ("jsonl", "async"):
            assert out.read_bytes() == reference.read_bytes(), f"trial {trial}, {kills} kills"
        elif sink == "parquet":
            assert pq.read_table(out).to_pylist() == pq.read_table(reference).to_pylist()
            assert not Path(f"{out}.parts").exists()
        else:
            assert _rows(out) == _rows(reference), f"trial {trial}, {kills} kills"
    assert killed > 0  # the kills did land in the runs (some, at random, after one ended)


SINK_KINDS = ["jsonl", "sql", "parquet", "async"]


@pytest.mark.parametrize("sink", SINK_KINDS)
def test_a_job_killed_at_random_moments_resumes_to_the_same_output(
    source: Path, tmp_path: Path, sink: str
) -> None:
    _trials(source, tmp_path, sink, 2)


@pytest.mark.slow
@pytest.mark.parametrize("sink", SINK_KINDS)
def test_twenty_five_kills_a_sink(source: Path, tmp_path: Path, sink: str) -> None:
    _trials(source, tmp_path, sink, 25)


def _junked(path: Path, start: int, end: int) -> None:
    """The bytes ``start:end`` of ``path`` made one line of the same length: a source
    that read them again would count one record where there were many."""
    data = path.read_bytes()
    path.write_bytes(data[:start] + b"#" * (end - start - 1) + b"\n" + data[end:])


READERS: dict[str, Callable[[Path], Stream[Any]]] = {
    "read_lines": lambda p: read_lines(p),
    "read_jsonl": lambda p: read_jsonl(p),
    "read_csv": lambda p: read_csv(p),
}


def written(reader: str, source: Path, records: int) -> list[Any]:
    """``source`` written with ``records`` rows for ``reader``; what it reads back."""
    rows = [{"n": str(n), "word": f"w{n}"} for n in range(records)]
    if reader == "read_csv":
        source.write_text("n,word\n" + "".join(f"{r['n']},{r['word']}\n" for r in rows))
    elif reader == "read_jsonl":
        to_jsonl(rows, source)
    else:
        source.write_text("".join(f"{r['n']}\n" for r in rows))
        return [r["n"] for r in rows]
    return rows


@pytest.mark.parametrize("reader", READERS)
def test_a_resumed_file_source_seeks_past_what_was_done(tmp_path: Path, reader: str) -> None:
    source = tmp_path / "in.txt"
    expected = written(reader, source, 3000)
    read = READERS[reader]
    out = tmp_path / "out.jsonl"

    def stop_at(record: Any) -> Any:
        if record == "1234" or (isinstance(record, dict) and record["n"] == "1234"):
            raise KeyboardInterrupt
        return record

    with pytest.raises(KeyboardInterrupt):
        read(source).map(stop_at).to_jsonl(out, resume=True)
    whole = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(whole) == 1234
    mark = json.loads(Path(f"{out}.progress").read_text())["mark"]
    assert mark["file"] == str(source) and 0 < mark["position"] <= 1234
    # the records before the mark, made unreadable: only a source that seeks gets on
    header = len("n,word\n") if reader == "read_csv" else 0
    _junked(source, header, mark["offset"])
    assert read(source).to_jsonl(out, resume=True) == 3000 - 1234
    assert [json.loads(line) for line in out.read_text().splitlines()] == expected


def test_a_resumed_job_into_sqlite_seeks_too(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    to_jsonl(({"n": n} for n in range(3000)), source)
    db = tmp_path / "out.db"

    def stop_at(record: dict[str, int]) -> dict[str, int]:
        if record["n"] == 1234:
            raise KeyboardInterrupt
        return record

    with pytest.raises(KeyboardInterrupt):
        read_jsonl(source).map(stop_at).to_sql(db, "t", resume=True)
    with sqlite3.connect(db) as connection:
        (marked,) = connection.execute("SELECT mark FROM lazyfun_progress").fetchone()
    mark = json.loads(marked)
    assert mark["file"] == str(source) and 0 < mark["position"] <= 1234
    _junked(source, 0, mark["offset"])  # only a source that seeks gets on
    assert read_jsonl(source).to_sql(db, "t", resume=True) == 3000 - 1234
    assert read_sql(db, "SELECT n FROM t").to_list() == [{"n": n} for n in range(3000)]


def test_a_source_whose_files_changed_under_its_mark_is_read_through(tmp_path: Path) -> None:
    (tmp_path / "part-1.txt").write_text("".join(f"{n}\n" for n in range(3000)))
    source = str(tmp_path / "part-*.txt")
    out = tmp_path / "out.txt"

    def stop_at(line: str) -> str:
        if line == "2500":
            raise KeyboardInterrupt
        return line

    with pytest.raises(KeyboardInterrupt):
        read_lines(source).map(stop_at).to_lines(out, resume=True)
    mark = json.loads(Path(f"{out}.progress").read_text())["mark"]
    assert mark["file"] == str(tmp_path / "part-1.txt") and mark["index"] == 0
    # a file sorted first joins the glob: the mark's place now holds another file, so
    # the 2,500 records done are counted again from the start, 100 of them in it
    (tmp_path / "part-0.txt").write_text("".join(f"a{n}\n" for n in range(100)))
    assert read_lines(source).to_lines(out, resume=True) == 600
    assert read_lines(out).to_list()[2500:] == [str(n) for n in range(2400, 3000)]


def test_an_async_job_resumes_and_refuses_what_it_cannot_resume(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    to_jsonl(({"n": n} for n in range(2500)), source)
    out = tmp_path / "out.jsonl"

    def stopping_at(n: int) -> Callable[[dict[str, int]], dict[str, int]]:
        def stop_at(record: dict[str, int]) -> dict[str, int]:
            if record["n"] == n:
                raise KeyboardInterrupt
            return record

        return stop_at

    for stop in (700, 1700):  # stopped twice: the second run goes on from the first's end
        with pytest.raises(KeyboardInterrupt):
            job = astream(read_jsonl(source)).map(stopping_at(stop), concurrency=4)
            asyncio.run(job.to_jsonl(out, resume=True))
        assert read_jsonl(out).count() == stop
    assert asyncio.run(astream(read_jsonl(source)).to_jsonl(out, resume=True)) == 800
    assert read_jsonl(out).to_list() == [{"n": n} for n in range(2500)]
    parquet = tmp_path / "out.parquet"
    assert asyncio.run(astream(read_jsonl(source)).to_parquet(parquet, resume=True)) == 2500
    assert pq.read_table(parquet).to_pylist() == [{"n": n} for n in range(2500)]
    refused: dict[str, Callable[[], AsyncStream[Any]]] = {
        "enumerate": lambda: astream(read_jsonl(source)).enumerate(),
        "map(concurrency=, ordered=False)": lambda: astream(read_jsonl(source)).map(
            lambda r: r, concurrency=2, ordered=False
        ),
        "map(concurrency=) after a filter": lambda: (
            astream(read_jsonl(source)).filter(bool).map(lambda r: r, concurrency=2)
        ),
    }
    other = tmp_path / "other.jsonl"
    for step, pipeline in refused.items():
        with pytest.raises(ValueError, match=f"the pipeline's {re.escape(step)} step"):
            _ = pipeline().to_jsonl(other, resume=True)  # at the call, before any await
    with pytest.raises(ValueError, match="reads the source itself"):
        _ = astream(read_jsonl(source).map(lambda r: r)).to_jsonl(other, resume=True)
    with pytest.raises(ValueError, match="its to_sql not yet"):
        _ = astream(read_jsonl(source)).to_sql(tmp_path / "o.db", "t", resume=True)
    assert not other.exists()


def test_a_parquet_job_resumes_by_row_group_and_commits_what_a_reader_sees(
    tmp_path: Path,
) -> None:
    source = tmp_path / "in.jsonl"
    to_jsonl(({"n": n} for n in range(2500)), source)
    out = tmp_path / "out.parquet"
    stream([{"n": -1}]).to_parquet(out)  # an old file: replaced only when the job ends

    def stop_at(record: dict[str, int]) -> dict[str, int]:
        if record["n"] == 1234:
            raise KeyboardInterrupt
        return record

    with pytest.raises(RecordError, match=r"no .*progress beside it"):
        read_jsonl(source).to_parquet(out, resume=True)  # not this job's file
    out.unlink()
    with pytest.raises(KeyboardInterrupt):
        read_jsonl(source).map(stop_at).to_parquet(out, row_group=500, resume=True)
    assert not out.exists()
    committed = read_parquet(f"{out}.parts/*.parquet").to_list()
    assert committed == [{"n": n} for n in range(1234)]  # what a reader of the parts sees
    assert read_jsonl(source).to_parquet(out, row_group=500, resume=True) == 2500 - 1234
    assert pq.read_table(out).to_pylist() == [{"n": n} for n in range(2500)]
    assert not Path(f"{out}.parts").exists()
    # a kill after the end was recorded, before the parts went: run again, they go
    Path(f"{out}.parts").mkdir()
    stream([{"n": 0}]).to_parquet(Path(f"{out}.parts") / "00000000.parquet")
    assert read_jsonl(source).to_parquet(out, resume=True) == 0  # it had ended
    assert not Path(f"{out}.parts").exists()


@pytest.mark.parametrize("sink", ["jsonl", "async"])
def test_the_reference_output_is_the_whole_job(source: Path, tmp_path: Path, sink: str) -> None:
    out = tmp_path / "whole.jsonl"
    assert _run(source, out, sink, None)
    kept = (n for n in range(RECORDS) if n not in (4321, 6789))  # the two bad lines caught
    whole = [{"n": n, "square": n**2, "tag": "x" * (n % 7)} for n in kept]
    assert read_jsonl(out).to_list() == whole
    assert json.loads((tmp_path / "whole.jsonl.progress").read_text())["done"] is True


def test_a_resumed_file_is_cut_back_to_its_last_durable_batch(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    to_jsonl(({"n": n} for n in range(2500)), source)
    out = tmp_path / "out.jsonl"
    assert read_jsonl(source).to_jsonl(out, resume=True) == 2500
    whole = out.read_bytes()
    # as a kill after the first batch leaves it: 1,000 durable lines, a torn line after
    cut = sum(len(line) + 1 for line in whole.split(b"\n")[:1000])
    record = Path(f"{out}.progress")
    job = json.loads(record.read_text())["job"]
    record.write_text(
        json.dumps({"job": job, "size": cut, "position": 1000, "written": 1000, "done": False})
    )
    with out.open("r+b") as file:
        file.truncate(cut)
        file.seek(cut)
        file.write(b'{"n":10')
    assert read_jsonl(source).to_jsonl(out, resume=True) == 1500  # this run's records
    assert out.read_bytes() == whole


def test_a_finished_job_run_again_writes_nothing_and_says_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    source = tmp_path / "in.jsonl"
    to_jsonl(({"n": n} for n in range(10)), source)
    out = tmp_path / "out.csv"
    assert read_jsonl(source).to_csv(out, resume=True) == 10
    with caplog.at_level("WARNING", logger="lazyfun.resume"):
        assert read_jsonl(source).to_csv(out, resume=True) == 0
    assert "the job had ended" in caplog.text
    assert read_csv(out).count() == 10
    db = tmp_path / "out.db"
    assert read_csv(out).to_sql(db, "t", resume=True) == 10
    assert read_csv(out).to_sql(db, "t", resume=True) == 0
    assert read_sql(db, "SELECT * FROM t").count() == 10


def test_an_interrupt_leaves_a_resumable_job(tmp_path: Path) -> None:
    source = tmp_path / "in.txt"
    source.write_text("".join(f"{n}\n" for n in range(3000)))
    out = tmp_path / "out.txt"

    def stop_at(line: str) -> str:
        if line == "1234":
            raise KeyboardInterrupt
        return line

    with pytest.raises(KeyboardInterrupt):
        read_lines(source).map(stop_at).to_lines(out, resume=True)
    assert read_lines(out).count() == 1234  # what reached the sink, durable
    assert read_lines(source).to_lines(out, resume=True) == 3000 - 1234
    assert read_lines(out).to_list() == [str(n) for n in range(3000)]


def test_what_cannot_resume_exactly_is_refused_at_the_call(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    to_jsonl(({"n": n} for n in range(10)), source)
    out = tmp_path / "out.jsonl"
    cases: dict[str, Callable[[], Stream[Any]]] = {
        "enumerate": lambda: read_jsonl(source).enumerate(),
        "sort": lambda: read_jsonl(source).sort(lambda r: r["n"]),
        "take": lambda: read_jsonl(source).take(3),
        "flatmap": lambda: read_jsonl(source).flatmap(lambda r: [r, r]),
        "map(concurrency=, ordered=False)": lambda: read_jsonl(source).map(
            lambda r: r, concurrency=2, ordered=False
        ),
        "filter(concurrency=, ordered=True)": lambda: read_jsonl(source).filter(
            bool, concurrency=2
        ),
        "group": lambda: read_jsonl(source).group(3),
        # a concurrent map cannot say which records a dropping step before it dropped
        "map(concurrency=) after a filter": lambda: (
            read_jsonl(source).filter(bool).map(lambda r: r, concurrency=2)
        ),
        "map(concurrency=) after a catch": lambda: (
            read_jsonl(source).catch(RecordError).map(lambda r: r, concurrency=2)
        ),
    }
    for step, pipeline in cases.items():
        with pytest.raises(ValueError, match=f"the pipeline's {re.escape(step)} step"):
            pipeline().to_jsonl(out, resume=True)
    with pytest.raises(ValueError, match="one lazyfun source that can skip"):
        stream([{"n": 1}]).to_jsonl(out, resume=True)
    with pytest.raises(ValueError, match="atomic=True cannot"):
        read_jsonl(source).to_jsonl(out, resume=True, atomic=True)
    with pytest.raises(ValueError, match="not a plain local file"):
        read_jsonl(source).to_jsonl(tmp_path / "out.jsonl.gz", resume=True)
    with pytest.raises(ValueError, match="no atomic=, within="):
        read_jsonl(source).to_sql(tmp_path / "o.db", "t", within=1.0, resume=True)
    assert not out.exists()  # nothing was written by a refused call
    ok = read_jsonl(source).map(lambda r: r, concurrency=2).filter(bool).do(print)
    assert ok.catch(RecordError).map(lambda r: r).to_jsonl(out, resume=True) == 10


def test_a_resumed_batch_that_fails_is_undone_and_the_progress_stays(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    rows = [{"n": n} for n in range(5)] + [{"n": 5, "extra": 1}] + [{"n": 6}]
    to_jsonl(rows, source)
    db = tmp_path / "out.db"
    with pytest.raises(RecordError, match="fields"):
        read_jsonl(source).to_sql(db, "t", 3, resume=True)
    assert read_sql(db, "SELECT n FROM t").count() == 3  # the failed batch undone whole
    assert read_sql(db, "SELECT position FROM lazyfun_progress").to_list() == [{"position": 3}]


def test_a_progress_file_without_its_output_starts_afresh_and_a_shorter_one_is_refused(
    tmp_path: Path,
) -> None:
    source = tmp_path / "in.jsonl"
    to_jsonl(({"n": n} for n in range(3)), source)
    out = tmp_path / "out.jsonl"
    record = Path(f"{out}.progress")
    record.write_text(json.dumps({"size": 10**6, "position": 2, "written": 2, "done": False}))
    assert read_jsonl(source).to_jsonl(out, resume=True) == 3  # no output: from the start
    job = json.loads(record.read_text())["job"]
    record.write_text(
        json.dumps({"job": job, "size": 10**6, "position": 2, "written": 2, "done": False})
    )
    with pytest.raises(RecordError, match="shorter than its progress file says"):
        read_jsonl(source).to_jsonl(out, resume=True)


Sink = Callable[[Stream[Any], Path], int]
SINKS: dict[str, Sink] = {
    "to_jsonl": lambda s, out: s.to_jsonl(out, resume=True),
    "to_csv": lambda s, out: s.to_csv(out, resume=True),
    "to_lines": lambda s, out: s.map(json.dumps).to_lines(out, resume=True),
    "to_sql": lambda s, out: s.to_sql(out, "t", resume=True),
}


def _snapshot(out: Path) -> object:
    """What the output holds: its bytes, or its table's rows (and progress rows)."""
    if out.suffix != ".db":
        return out.read_bytes()
    with sqlite3.connect(out) as db:
        tables = [
            name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        ]
        return {name: db.execute(f"SELECT * FROM {name}").fetchall() for name in tables}


def _write_without_resume(sink: str, records: int, out: Path) -> None:
    rows = stream({"n": n} for n in range(records))
    if sink == "to_sql":
        rows.to_sql(out, "t")
    elif sink == "to_lines":
        rows.map(json.dumps).to_lines(out)
    else:
        getattr(rows, sink)(out)


@pytest.mark.parametrize("sink", SINKS)
def test_resume_never_destroys_an_output_it_has_no_record_of(tmp_path: Path, sink: str) -> None:
    source = tmp_path / "in.jsonl"
    to_jsonl(({"n": n} for n in range(10)), source)
    out = tmp_path / f"out.{'db' if sink == 'to_sql' else 'txt'}"
    _write_without_resume(sink, 100, out)  # another job's output, or one run without resume
    before = _snapshot(out)
    with pytest.raises(
        RecordError, match=r"no (lazyfun_progress row|.*progress beside it)"
    ) as refused:
        SINKS[sink](read_jsonl(source), out)
    assert str(out) in str(refused.value) and refused.value.line is None
    assert _snapshot(out) == before  # nothing written, nothing cut
    assert not Path(f"{out}.progress").exists()
    # an empty output holds nothing to lose: the job goes on
    if sink == "to_sql":
        with sqlite3.connect(out) as db:
            db.execute("DELETE FROM t")
    else:
        out.write_bytes(b"")
    assert SINKS[sink](read_jsonl(source), out) == 10


@pytest.mark.parametrize("sink", SINKS)
def test_resume_refuses_an_output_whose_record_names_another_job(
    tmp_path: Path, sink: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine, theirs = tmp_path / "mine.jsonl", tmp_path / "theirs.jsonl"
    to_jsonl(({"n": n} for n in range(10)), mine)
    to_jsonl(({"n": -n} for n in range(100)), theirs)
    out = tmp_path / f"out.{'db' if sink == 'to_sql' else 'txt'}"
    assert SINKS[sink](read_jsonl(theirs), out) == 100  # their job, resumable, ended
    before = _snapshot(out)
    with pytest.raises(RecordError, match=re.escape(f"read_jsonl({str(theirs)!r})")) as refused:
        SINKS[sink](read_jsonl(mine), out)
    assert str(out) in str(refused.value)
    assert _snapshot(out) == before
    # their job run again from another folder (the same file, named relative to it) is
    # theirs: it had ended
    monkeypatch.chdir(tmp_path)
    assert SINKS[sink](read_jsonl(theirs.name), out) == 0


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_a_job_killed_before_its_first_progress_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    """A kill between the first batch's bytes and its progress leaves an output this job
    recorded (begun, nothing durable): the next run cuts it back and writes it whole."""
    from lazyfun.sinks.resume import Progress

    source = tmp_path / "in.jsonl"
    to_jsonl(({"n": n} for n in range(2500)), source)
    out = tmp_path / "out.jsonl"
    save = Progress.save

    def killed_at_the_first_batch(self: Progress, **state: Any) -> None:
        if state["size"]:
            raise KeyboardInterrupt  # the batch's bytes are written, its progress is not
        save(self, **state)

    def run() -> int:
        if mode == "sync":
            return read_jsonl(source).to_jsonl(out, resume=True)
        return asyncio.run(astream(read_jsonl(source)).to_jsonl(out, resume=True))

    monkeypatch.setattr(Progress, "save", killed_at_the_first_batch)
    with pytest.raises(KeyboardInterrupt):
        run()
    assert out.stat().st_size > 0  # the bytes a kill would leave, with no batch recorded
    monkeypatch.setattr(Progress, "save", save)
    assert run() == 2500
    assert [json.loads(line) for line in out.read_text().splitlines()] == [
        {"n": n} for n in range(2500)
    ]
