"""Nothing lost at the sinks: what reached a sink is written when an interrupt (Ctrl-C,
``KeyboardInterrupt`` from a source) or a cancellation passes through it; a Parquet
column widens rather than casting a later value; a JSON line that is not UTF-8 is a
RecordError at its line; a sink refuses to empty the file its pipeline reads."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict

import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lazyfun import astream, stream
from lazyfun.io import RecordError, read_jsonl, read_lines, read_parquet, to_jsonl
from tests.children import running
from tests.test_io import SINKS, _folder

ROOT = Path(__file__).resolve().parent.parent


def _records(n: int) -> list[dict[str, Any]]:
    return [{"id": i, "name": f"n{i}"} for i in range(n)]


def _interrupted_at(n: int, k: int, stop: BaseException) -> Iterator[dict[str, Any]]:
    """``n`` records, ``stop`` raised where the ``k``-th would come (none when k >= n)."""
    for i in range(n):
        if i == k:
            raise stop
        yield {"id": i, "name": f"n{i}"}


# --- interrupts and cancellations -------------------------------------------------------------


@pytest.mark.parametrize("sink", sorted(SINKS))
def test_a_keyboard_interrupt_from_the_source_keeps_what_reached_the_sink(
    sink: str, tmp_path: Path
) -> None:
    name, write, read = SINKS[sink]
    path = tmp_path / name
    with pytest.raises(KeyboardInterrupt):
        write(stream(_interrupted_at(20, 10, KeyboardInterrupt())), path)
    assert read(path) == _records(10)  # all ten, though no batch was full


@pytest.mark.parametrize("sink", sorted(SINKS))
def test_an_interrupt_leaves_nothing_with_atomic(sink: str, tmp_path: Path) -> None:
    name, write, read = SINKS[sink]
    path = tmp_path / name
    write(stream(_records(3)), path)
    with pytest.raises(KeyboardInterrupt):
        write(stream(_interrupted_at(20, 10, KeyboardInterrupt())), path, atomic=True)
    assert read(path) == _records(3)
    assert [p.name for p in tmp_path.iterdir()] == [name]  # no temporary file left


def test_to_sql_within_keeps_what_reached_it_on_an_interrupt(tmp_path: Path) -> None:
    from lazyfun.io import read_sql

    with pytest.raises(KeyboardInterrupt):
        stream(_interrupted_at(50, 37, KeyboardInterrupt())).to_sql(
            tmp_path / "w.db", "w", 1000, within=60.0
        )
    assert read_sql(tmp_path / "w.db", "SELECT id, name FROM w").to_list() == _records(37)


class _Source:
    """An async source that counts what it yielded and, after ``k`` records, waits
    forever (so a timeout or a cancel ends the sink)."""

    def __init__(self, k: int) -> None:
        self.k, self.yielded = k, 0
        self.stalled = asyncio.Event()

    async def items(self) -> AsyncIterator[dict[str, Any]]:
        for i in range(self.k):
            self.yielded += 1  # counted as it is handed over (nothing awaits in between)
            yield {"id": i, "name": f"n{i}"}
        self.stalled.set()
        await asyncio.Event().wait()


def _async_write(sink: str, items: AsyncIterator[Any], path: Path, **kw: Any) -> Any:
    s = astream(items)
    if sink == "lines":
        return s.map(lambda r: __import__("json").dumps(r)).to_lines(path, **kw)
    if sink == "parquet":
        return s.to_parquet(path, row_group=7, **kw)
    if sink == "sql":
        return s.to_sql(path, "t", 7, **kw)
    return getattr(s, f"to_{sink}")(path, **kw)


@pytest.mark.parametrize("sink", sorted(SINKS))
def test_a_timeout_keeps_every_record_the_async_source_gave(sink: str, tmp_path: Path) -> None:
    name, _, read = SINKS[sink]
    path = tmp_path / name
    source = _Source(608)

    async def run() -> None:
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(_async_write(sink, source.items(), path), 0.5)

    asyncio.run(run())
    assert source.yielded > 0  # 608 unless the machine is very slow: all it gave is kept
    assert read(path) == _records(source.yielded)


@pytest.mark.untraced
@pytest.mark.parametrize("sink", sorted(SINKS))
@given(k=st.integers(0, 40), atomic=st.booleans())
def test_a_cancellation_at_any_record_keeps_exactly_the_records_before_it(
    sink: str, k: int, atomic: bool
) -> None:
    name, write, read = SINKS[sink]
    with _folder() as folder:
        path = folder / name
        old = [{"id": -1, "name": "old"}]
        write(stream(old), path)
        source = _Source(k)

        async def run() -> None:
            task = asyncio.ensure_future(_async_write(sink, source.items(), path, atomic=atomic))
            await source.stalled.wait()
            await asyncio.sleep(0.001)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task

        asyncio.run(run())
        before = old if sink == "sql" or atomic else []  # a table is appended to
        assert read(path) == (old if atomic else before + _records(k))


@pytest.mark.untraced
@pytest.mark.parametrize("sink", sorted(SINKS))
@given(
    n=st.integers(1, 40),
    k=st.integers(0, 40),
    stop=st.sampled_from([KeyboardInterrupt, SystemExit, ValueError]),
)
def test_whatever_stops_the_source_the_records_before_it_are_written(
    sink: str, n: int, k: int, stop: type[BaseException]
) -> None:
    name, write, read = SINKS[sink]
    with _folder() as folder:
        path = folder / name
        with pytest.raises(stop) if k < n else _no_error():
            write(stream(_interrupted_at(n, k, stop())), path)
        if k or sink != "sql":  # no record, no fields: no table
            assert read(path) == _records(min(n, k))


class _no_error:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def test_ctrl_c_keeps_every_record_the_pipeline_read(tmp_path: Path) -> None:
    """A real SIGINT to a process whose pipeline is writing: the file holds every record
    the source gave, none twice."""
    script = textwrap.dedent(
        """
        import sys, time
        from lazyfun import stream
        given = 0
        def records():
            global given
            i = 0
            while True:
                yield {"id": i}
                given = i = i + 1
                if i == 50:
                    print("ready", flush=True)
                time.sleep(0.002)
        try:
            stream(records()).map(lambda r: r).to_jsonl(sys.argv[1])
        except KeyboardInterrupt:
            print(given, flush=True)
        """
    )
    out = tmp_path / "c.jsonl"
    with running(
        [sys.executable, "-c", script, str(out)], stdout=subprocess.PIPE, text=True, cwd=ROOT
    ) as child:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        child.send_signal(signal.SIGINT)
        given_count = int(child.stdout.readline())
        assert child.wait(timeout=60) == 0
    assert read_jsonl(out).to_list() == [{"id": i} for i in range(given_count)]
    assert given_count >= 50


# --- Parquet: a column widens, a value is never cast ------------------------------------------


def test_a_later_float_widens_an_integer_column(tmp_path: Path) -> None:
    path = tmp_path / "p.parquet"
    assert stream([{"v": 1}, {"v": 2}, {"v": 2.5}]).to_parquet(path, row_group=2) == 3
    assert read_parquet(path).to_list() == [{"v": 1.0}, {"v": 2.0}, {"v": 2.5}]
    prices = [{"price": 10} for _ in range(10_000)] + [{"price": 12.99}]
    stream(prices).to_parquet(path)
    assert read_parquet(path).map(lambda r: r["price"]).to_list()[-2:] == [10.0, 12.99]
    file = pq.ParquetFile(path)
    assert str(file.schema_arrow.field("price").type) == "double"
    assert file.num_row_groups == 2  # the row groups are kept as written


def test_a_column_of_nones_takes_the_type_that_comes_later(tmp_path: Path) -> None:
    path = tmp_path / "n.parquet"
    rows = [{"v": None, "w": "a"}] * 3 + [{"v": 4, "w": None}, {"v": 5.5, "w": "b"}]
    assert stream(rows).to_parquet(path, row_group=2) == 5
    assert read_parquet(path).to_list() == [
        {"v": None, "w": "a"},
        {"v": None, "w": "a"},
        {"v": None, "w": "a"},
        {"v": 4.0, "w": None},
        {"v": 5.5, "w": "b"},
    ]
    assert [p.name for p in tmp_path.iterdir()] == ["n.parquet"]  # no rewrite left behind


@pytest.mark.parametrize("atomic", [False, True])
def test_a_value_no_type_of_the_column_holds_is_a_record_error(
    tmp_path: Path, atomic: bool
) -> None:
    path = tmp_path / "s.parquet"
    rows = [{"v": 1}, {"v": 2}, {"v": 3}, {"v": 4}, {"v": "x"}, {"v": "y"}]
    with pytest.raises(RecordError, match="row 5: column v is string, the rows before int64"):
        stream(rows).to_parquet(path, row_group=2, atomic=atomic)
    if atomic:
        assert not path.exists()
    else:
        assert read_parquet(path).to_list() == rows[:4]
    with pytest.raises(RecordError, match="row 2: not a Parquet row"):
        stream([{"v": 1}, {"v": "x"}]).to_parquet(path)  # within one batch


def test_an_integer_a_float_cannot_hold_exactly_is_never_cast(tmp_path: Path) -> None:
    path = tmp_path / "big.parquet"
    big = 2**53 + 1
    with pytest.raises(RecordError, match="row 3: widening the columns to v: double"):
        stream([{"v": big}, {"v": 2}, {"v": 2.5}]).to_parquet(path, row_group=2)
    assert read_parquet(path).to_list() == [{"v": big}, {"v": 2}]
    with pytest.raises(RecordError, match="row 3: not a Parquet row: Integer value"):
        stream([{"v": 0.5}, {"v": 2}, {"v": big}]).to_parquet(path, row_group=2)
    assert read_parquet(path).to_list() == [{"v": 0.5}, {"v": 2.0}]


def test_a_file_that_cannot_be_rewritten_refuses_to_widen(tmp_path: Path) -> None:
    script = (
        "from lazyfun import stream; stream([{'v': 1}, {'v': 2.5}]).to_parquet('-', row_group=1)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, cwd=ROOT, timeout=60, check=False
    )
    assert done.returncode == 1
    assert b"RecordError: -, row 2: column v is double, the rows before int64: - cannot" in (
        done.stderr
    )


@dataclass
class _AB:
    a: int
    b: int


@dataclass
class _AB2:
    a: int
    b: int


@dataclass
class _BA:
    b: int
    a: int


# each batch: two records that fit, then the third; None (all written) or the error's
# reason, as a pattern
_FIELDS: dict[str, tuple[list[Any], str | None]] = {
    "a field missing": ([{"a": 1, "b": 2}, {"b": 4, "a": 3}, {"a": 5}], r"fields \(a\) differ"),
    "a field more": (
        [{"a": 1, "b": 2}, {"b": 4, "a": 3}, {"a": 5, "b": 6, "c": 0}],
        r"\(a, b, c\) differ",
    ),
    "a field other": ([{"a": 1, "b": 2}, {"b": 4, "a": 3}, {"a": 5, "c": 6}], r"\(a, c\) differ"),
    "no fields": ([{"a": 1, "b": 2}, {"b": 4, "a": 3}, 7], "named fields .*, got int"),
    "a list": ([{"a": 1, "b": 2}, {"b": 4, "a": 3}, ["a", "b"]], "got list"),
    "a dataclass among dicts": ([{"a": 1, "b": 2}, {"b": 4, "a": 3}, _AB(5, 6)], None),
    "a dict among dataclasses": ([_AB(1, 2), _AB(3, 4), {"b": 6, "a": 5}], None),
    "another dataclass alike": ([_AB(1, 2), _AB(3, 4), _AB2(5, 6)], None),
    "a dataclass in another order": ([_AB(1, 2), _AB(3, 4), _BA(6, 5)], r"\(b, a\) differ"),
}


@pytest.mark.parametrize("case", sorted(_FIELDS))
def test_a_parquet_batch_read_by_columns_finds_the_record_whose_fields_differ(
    case: str, tmp_path: Path
) -> None:
    # a batch of records alike is read a column at a time; one that differs is found as
    # the columns of the first record say, at its row, after the rows before it
    records, reason = _FIELDS[case]
    path = tmp_path / "f.parquet"
    if reason is None:
        assert stream(records).to_parquet(path) == 3
        assert read_parquet(path).to_list() == [
            {"a": 1, "b": 2},
            {"a": 3, "b": 4},
            {"a": 5, "b": 6},
        ]
        return
    with pytest.raises(RecordError, match=f"row 3: .*{reason}") as caught:
        stream(records).to_parquet(path)
    assert caught.value.reason.endswith("from the first record's (a, b)") == ("differ" in reason)
    assert read_parquet(path).to_list() == [{"a": 1, "b": 2}, {"a": 3, "b": 4}]


# --- reading: every bad line is a RecordError -------------------------------------------------


class _Named(TypedDict):
    a: str


@pytest.mark.parametrize("kind", [None, _Named])
def test_a_json_line_that_is_not_utf8_is_a_record_error_and_the_next_line_follows(
    tmp_path: Path, kind: Any
) -> None:
    path = tmp_path / "u.jsonl"
    path.write_bytes(b'{"a": "ok"}\n{"a": "caf\xe9"}\n{"a": "fine"}\n')
    errors: list[RecordError] = []
    got = read_jsonl(path, kind).catch(RecordError, do=errors.append).to_list()
    assert got == [{"a": "ok"}, {"a": "fine"}]
    assert [(e.path, e.line) for e in errors] == [(str(path), 2)]
    assert errors[0].reason == "not utf-8: byte 0xe9 at column 11"


# --- a sink never empties the file its pipeline reads -----------------------------------------


def _seed(path: Path) -> None:
    to_jsonl([{"n": n} for n in range(3)], path)


def test_writing_the_file_being_read_is_refused_at_the_call(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    _seed(path)
    with pytest.raises(ValueError, match="is read by this pipeline"):
        read_jsonl(path).map(lambda r: r).to_jsonl(path)
    os.symlink(path, tmp_path / "link.jsonl")
    os.link(path, tmp_path / "hard.jsonl")
    for other in ("link.jsonl", "hard.jsonl", "./s.jsonl"):  # the same file, another name
        with pytest.raises(ValueError, match="is read by this pipeline"):
            read_jsonl(tmp_path / other).to_jsonl(path)
    with pytest.raises(ValueError, match="is read by this pipeline"):
        read_jsonl(tmp_path / "*.jsonl").to_jsonl(path)  # a glob's match
    with pytest.raises(ValueError, match="is read by this pipeline"):
        to_jsonl(read_jsonl(path), path)
    with pytest.raises(ValueError, match="is read by this pipeline"):
        read_lines(path).to_lines(path)

    async def run() -> None:
        await read_jsonl(path).to_async().map(lambda r: r).to_jsonl(path)

    with pytest.raises(ValueError, match="is read by this pipeline"):
        asyncio.run(run())
    assert read_jsonl(path).to_list() == [{"n": n} for n in range(3)]  # untouched


def test_the_file_being_read_is_rewritten_in_place_with_atomic(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    _seed(path)
    assert read_jsonl(path).map(lambda r: {"n": r["n"] * 10}).to_jsonl(path, atomic=True) == 3
    assert read_jsonl(path).to_list() == [{"n": 0}, {"n": 10}, {"n": 20}]
    assert stream([{"n": 1}]).to_jsonl(path) == 1  # a file not read is written as ever


# --- found in review: each a way a record could be lost ---------------------------------------


def test_an_interrupt_inside_a_write_keeps_the_batch_being_written(tmp_path: Path) -> None:
    from lazyfun.sinks.writers import JsonlWriter, drain
    from lazyfun.streams.sync.steps import Chunked

    class Interrupted(JsonlWriter):
        calls = 0

        def encode(self, records: list[Any]) -> bytes:
            self.calls += 1
            if self.calls == 2:  # Ctrl-C while the second batch is encoded
                raise KeyboardInterrupt
            return super().encode(records)

    path = tmp_path / "w.jsonl"
    with pytest.raises(KeyboardInterrupt):
        drain(Interrupted(path), Chunked(iter(range(7)), 3))
    assert read_jsonl(path).to_list() == [0, 1, 2, 3, 4, 5]  # the batch in hand too


def test_an_interrupt_inside_executemany_keeps_its_rows_and_ends_the_transaction(
    tmp_path: Path,
) -> None:
    import sqlite3

    class Ctrl:
        def __init__(self, boom: bool) -> None:
            self.boom = boom

    def adapt(value: Ctrl) -> int:
        if value.boom:
            raise KeyboardInterrupt
        return 1

    sqlite3.register_adapter(Ctrl, adapt)
    rows = [{"n": i, "c": Ctrl(i == 4)} for i in range(6)]
    connection = sqlite3.connect(":memory:")
    with pytest.raises(KeyboardInterrupt):
        stream(rows).to_sql(connection, "t", batch=3)
    assert not connection.in_transaction  # the caller's connection is not left locked
    assert connection.execute("SELECT n FROM t").fetchall() == [(0,), (1,), (2,), (3,)]


def test_a_sink_cancelled_while_it_opens_leaves_no_file(tmp_path: Path) -> None:
    import time

    from lazyfun.sinks.writers import JsonlWriter, adrain
    from lazyfun.streams.aio.asteps import Group

    def slow_open() -> JsonlWriter:
        writer = JsonlWriter(tmp_path / "o.jsonl", atomic=True)
        time.sleep(0.2)
        return writer

    async def run() -> None:
        items = astream([{"n": 1}])._take_items()
        task = asyncio.ensure_future(adrain(slow_open, Group(items, 1000, None, None)))
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(run())
    assert list(tmp_path.iterdir()) == []  # the temporary file of the open, removed


def test_a_stream_of_a_stream_still_refuses_to_empty_its_file(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    _seed(path)
    with pytest.raises(ValueError, match="is read by this pipeline"):
        stream(read_jsonl(path)).map(lambda r: r).to_jsonl(path)

    async def run() -> None:
        await astream(read_jsonl(path)).to_jsonl(path)

    with pytest.raises(ValueError, match="is read by this pipeline"):
        asyncio.run(run())
    assert read_jsonl(path).count() == 3


def test_a_wait_cancelled_on_a_stream_read_ahead_leaves_its_reader_alive() -> None:
    import threading
    import time

    def slow() -> Iterator[int]:
        for n in range(3):
            time.sleep(0.2)
            yield n

    died: list[BaseException | None] = []
    hook = threading.excepthook
    threading.excepthook = lambda info: died.append(info.exc_value)
    try:
        kept: list[Any] = []

        async def first() -> object:
            items = aiter(stream(slow()))
            kept.append(items)
            try:
                return await asyncio.wait_for(anext(items), 0.05)
            except TimeoutError:
                return "timed out"

        assert asyncio.run(first()) == "timed out"
        time.sleep(0.5)  # the reader shelves its next item after the loop has closed
    finally:
        threading.excepthook = hook
    assert died == []


def test_ctrl_c_while_a_batch_is_written_comes_once_it_is_written(tmp_path: Path) -> None:
    import threading

    from lazyfun.sinks.writers import JsonlWriter, drain
    from lazyfun.streams.sync.steps import Chunked

    class Signalled(JsonlWriter):
        def encode(self, records: list[Any]) -> bytes:
            if records[0] == 3:
                os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C in the middle of the batch
            return super().encode(records)

    path = tmp_path / "c.jsonl"
    with pytest.raises(KeyboardInterrupt):
        drain(Signalled(path), Chunked(iter(range(9)), 3))
    assert read_jsonl(path).to_list() == [0, 1, 2, 3, 4, 5]  # the batch whole, then the stop
    elsewhere: list[int] = []
    worker = threading.Thread(  # off the main thread there is no signal to hold back
        target=lambda: elsewhere.append(
            drain(JsonlWriter(tmp_path / "t.jsonl"), Chunked(iter([1, 2]), 1))
        )
    )
    worker.start()
    worker.join()
    assert elsewhere == [2]


def test_a_row_the_table_refuses_is_a_record_error_after_the_rows_before(tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "strict.db"
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE t (n INTEGER NOT NULL)")
    with pytest.raises(RecordError, match="row 3: table t: NOT NULL"):
        stream([{"n": 1}, {"n": 2}, {"n": None}, {"n": 4}]).to_sql(db, "t")
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT n FROM t").fetchall() == [(1,), (2,)]


def test_a_cancellation_while_a_batch_is_written_keeps_the_batch_gathered_meanwhile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The async sink gathers the next batch while the last is written: a cancellation
    that lands while it waits for that write keeps the batch it gathered too."""
    import threading

    from lazyfun.sinks import writers

    first_write = threading.Event()
    write = writers.SqlWriter.write

    def slow_first(self: writers.SqlWriter, records: list[Any]) -> None:
        if not first_write.is_set():
            first_write.set()
            threading.Event().wait(0.5)  # the first batch takes long to write
        write(self, records)

    monkeypatch.setattr(writers.SqlWriter, "write", slow_first)
    source = _Source(10)  # the second batch is gathered while the first is written
    name, _, read = SINKS["sql"]
    path = tmp_path / name

    async def run() -> None:
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(astream(source.items()).to_sql(path, "t", 4), 0.2)

    asyncio.run(run())
    assert source.yielded == 8
    assert read(path) == _records(8)


# --- whole files: a Parquet file is never torn; a dead writer's leftovers are swept ----------

PARQUET_JOB = textwrap.dedent(
    """
    import sys, time
    from lazyfun import stream

    def rows():
        print("writing", flush=True)
        for n in range(30_000):
            if n % 1000 == 0:
                time.sleep(0.03)  # about a second in all: time for kills mid-write
            yield {"n": n, "pad": "x" * 40}

    stream(rows()).to_parquet(sys.argv[1], row_group=1000)
    """
)


def _killed_while_writing(script: str, path: Path, after: float) -> bool:
    """Run ``script`` on ``path``; SIGKILL it ``after`` seconds from its first line.
    Whether it ended by itself first."""
    with running(
        [sys.executable, "-c", script, str(path)], cwd=ROOT, stdout=subprocess.PIPE
    ) as child:
        assert child.stdout is not None
        child.stdout.readline()  # it has begun writing
        try:
            return child.wait(timeout=after) == 0
        except subprocess.TimeoutExpired:
            child.send_signal(signal.SIGKILL)
            child.wait(timeout=60)
            return False


def test_a_parquet_file_killed_at_any_moment_is_the_old_file_or_the_new(tmp_path: Path) -> None:
    import random

    path = tmp_path / "good.parquet"
    old = [{"n": -n, "pad": "old"} for n in range(500)]
    assert stream(old).to_parquet(path) == 500
    chance = random.Random(69)
    kills = 0
    for _ in range(5):
        if not _killed_while_writing(PARQUET_JOB, path, chance.uniform(0.0, 1.0)):
            kills += 1
        rows = pq.read_table(path).to_pylist()  # whole: it reads back
        assert rows == old or (len(rows) == 30_000 and rows[-1]["n"] == 29_999)
    assert kills > 0
    assert _killed_while_writing(PARQUET_JOB, path, 60.0)  # never killed: the new file
    assert pq.read_table(path).num_rows == 30_000
    assert [p.name for p in tmp_path.iterdir()] == ["good.parquet"]  # leftovers swept


ATOMIC_JOB = textwrap.dedent(
    """
    import sys, time
    from lazyfun import stream

    def rows():
        print("writing", flush=True)
        for n in range(10**9):
            if n % 1000 == 0:
                time.sleep(0.01)
            yield {"n": n}

    stream(rows()).to_jsonl(sys.argv[1], atomic=True)
    """
)


def test_a_dead_writers_temporary_file_is_swept_by_the_next_write(tmp_path: Path) -> None:
    path = tmp_path / "out.jsonl"
    with running(
        [sys.executable, "-c", ATOMIC_JOB, str(path)], cwd=ROOT, stdout=subprocess.PIPE
    ) as child:
        assert child.stdout is not None
        child.stdout.readline()
        dead = child.pid
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=60)
    left = [p.name for p in tmp_path.iterdir()]
    assert len(left) == 1 and left[0].startswith(f".out.jsonl.{dead}.")  # its pid in its name
    # a live writer's file is left alone: this process's, and a running child's
    with running([sys.executable, "-c", "import time; time.sleep(60)"]) as alive:
        try:
            mine = tmp_path / f".out.jsonl.{os.getpid()}.0123456789ab.tmp"
            theirs = tmp_path / f".out.jsonl.{alive.pid}.ba9876543210.tmp"
            mine.write_bytes(b"")
            theirs.write_bytes(b"")
            assert stream([{"n": 1}]).to_jsonl(path) == 1
            assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
                ["out.jsonl", mine.name, theirs.name]
            )
        finally:
            alive.kill()
