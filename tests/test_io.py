"""lazyfun.io's sources and sinks on real files, a real SQLite database and a real local
HTTP server: what they read and write, where a bad record is reported, what is
left behind when a stream fails, and when files are opened and closed."""

from __future__ import annotations

import asyncio
import bz2
import gzip
import json
import lzma
import os
import pickle
import sqlite3
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, TypedDict
from unittest.mock import patch

import msgspec
import pyarrow.parquet as pq
import pytest
import zstandard
from hypothesis import given
from hypothesis import strategies as st

import lazyfun
from lazyfun import astream, stream
from lazyfun.io import (
    RecordError,
    read_csv,
    read_jsonl,
    read_lines,
    read_parquet,
    read_sql,
    to_jsonl,
)
from tests.children import running

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Point:
    x: int
    y: int


class Row(TypedDict):
    name: str
    age: int


class Item(msgspec.Struct):
    id: int
    name: str


def _open_fds(path: Path) -> int:
    """How many of this process's file descriptors are open on ``path`` (Linux)."""
    fds = Path("/proc/self/fd")
    count = 0
    for fd in fds.iterdir():
        try:
            if os.readlink(fd) == str(path):
                count += 1
        except OSError:
            continue
    return count


# --- sources ---------------------------------------------------------------------------


def test_lines_come_without_newlines_and_without_the_bom(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_bytes(b"\xef\xbb\xbfone\r\ntwo\n\nthree")
    assert read_lines(path).to_list() == ["one", "two", "", "three"]


@pytest.mark.parametrize("suffix", [".gz", ".bz2", ".xz", ".zst", ""])
def test_compression_follows_the_suffix_both_ways(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"lines.txt{suffix}"
    assert stream(str(n) for n in range(1000)).to_lines(path) == 1000
    raw = path.read_bytes()
    decompress: dict[str, Callable[[bytes], bytes]] = {
        ".gz": gzip.decompress,
        ".bz2": bz2.decompress,
        ".xz": lzma.decompress,
        ".zst": lambda data: zstandard.ZstdDecompressor().decompressobj().decompress(data),
        "": bytes,
    }
    assert decompress[suffix](raw) == "".join(f"{n}\n" for n in range(1000)).encode()
    assert read_lines(path).map(int).to_list() == list(range(1000))


def test_a_glob_reads_its_files_in_string_order_each_opened_when_reached(tmp_path: Path) -> None:
    for name in ("b10.txt", "b2.txt", "a.txt"):
        (tmp_path / name).write_text(f"{name}\n")
    lines = read_lines(tmp_path / "*.txt")
    items = iter(lines)
    assert next(items) == "a.txt"
    (tmp_path / "b2.txt").unlink()  # expanded at the first read, not yet opened
    (tmp_path / "c.txt").write_text("late\n")  # not matched: the glob was expanded
    assert next(items) == "b10.txt"
    with pytest.raises(FileNotFoundError):
        next(items)


def test_a_source_opens_nothing_until_read_and_an_empty_glob_is_an_error(tmp_path: Path) -> None:
    missing = read_lines(tmp_path / "nothing.txt")
    unmatched = read_jsonl(tmp_path / "*.jsonl")
    with pytest.raises(FileNotFoundError):
        missing.to_list()
    with pytest.raises(FileNotFoundError, match="no file matches"):
        unmatched.to_list()


def test_a_line_that_is_not_utf8_is_a_record_error_and_the_next_line_follows(
    tmp_path: Path,
) -> None:
    path = tmp_path / "mixed.txt"
    path.write_bytes(b"good\n\xff\xfe bad\nafter\n")
    errors: list[RecordError] = []
    assert read_lines(path).catch(RecordError, do=errors.append).to_list() == ["good", "after"]
    [error] = errors
    assert (error.path, error.line) == (str(path), 2)
    assert isinstance(error.__cause__, UnicodeDecodeError)
    assert f"{path}, line 2: not utf-8" in str(error)
    assert read_lines(path, encoding="latin-1").to_list()[1] == "\xff\xfe bad"


def test_encodings_whose_newline_is_not_a_byte_are_refused_at_the_call() -> None:
    with pytest.raises(ValueError, match="utf-16"):
        read_lines("x.txt", encoding="utf-16")


def test_standard_input_and_output_are_a_dash() -> None:
    script = (
        "from lazyfun.io import read_jsonl\n"
        "n = read_jsonl('-').map(lambda r: {'twice': r['n'] * 2}).to_jsonl('-')\n"
        "import sys; print(n, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        input='{"n": 1}\n{"n": 2}\n',
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.stdout == '{"twice":2}\n{"twice":4}\n'
    assert done.stderr.strip() == "2"


def test_jsonl_decodes_into_a_type_and_reports_each_bad_line_in_place(tmp_path: Path) -> None:
    path = tmp_path / "points.jsonl"
    path.write_text('{"x": 1, "y": 2}\n{"x": 1\n\n{"x": "no", "y": 3}\n{"x": 5, "y": 6}\n')
    errors: list[RecordError] = []
    points = read_jsonl(path, Point).catch(RecordError, do=errors.append).to_list()
    assert points == [Point(1, 2), Point(5, 6)]
    assert [(e.line, e.reason.split(":")[0]) for e in errors] == [
        (2, "bad JSON"),
        (4, "does not fit Point"),
    ]
    assert isinstance(errors[0].__cause__, msgspec.DecodeError)
    assert isinstance(errors[1].__cause__, msgspec.ValidationError)


class Counted(msgspec.Struct):
    n: int


# A line of a JSON Lines file as users meet them: a record, and each way a line can be
# something else (blank, bad JSON, two values, half of a value split over two lines, a
# value that does not fit, a byte that is not UTF-8, a BOM).
_JSONL_LINE = st.one_of(
    st.builds(lambda n: b'{"n": %d}' % n, st.integers(-(10**6), 10**6)),
    st.sampled_from(
        [b"", b"   ", b"{bad", b"1 2", b"{} {}", b"[1,", b"2]", b"3,4", b'{"n": "x"}', b'"caf\xe9"']
    ),
)


def _alone(lines: list[bytes]) -> list[tuple[str, Any, int]]:
    """What reading ``lines`` gives when each is decoded alone: each record, or the line
    number of each error, with the byte offset after its line."""
    given: list[tuple[str, Any, int]] = []
    offset = 0
    for number, line in enumerate(lines, 1):
        offset += len(line)
        text = line[3:] if number == 1 and line.startswith(b"\xef\xbb\xbf") else line
        if not text.strip():
            continue
        try:
            given.append(("record", msgspec.json.decode(text, type=Counted), offset))
        except msgspec.DecodeError:  # a ValidationError too
            given.append(("error", number, offset))
    return given


@given(
    lines=st.lists(_JSONL_LINE, max_size=30),
    block=st.sampled_from([1, 9, 40, 1 << 16]),
    newline=st.sampled_from([b"\n", b"\r\n"]),
    bom=st.booleans(),
    ended=st.booleans(),
)
def test_jsonl_read_in_blocks_gives_what_each_line_alone_gives_and_marks_each(
    lines: list[bytes], block: int, newline: bytes, bom: bool, ended: bool
) -> None:
    """A file is read and decoded a block of lines at a time: whatever the block's size,
    each record and each error comes from its own line at its place, and the mark after
    each is the offset after its line."""
    from lazyfun.io import sources

    raw = [line + newline for line in lines]
    if raw and bom:
        raw[0] = b"\xef\xbb\xbf" + raw[0]
    if raw and not ended:
        raw[-1] = raw[-1][: -len(newline)]
    with tempfile.TemporaryDirectory() as folder, patch.object(sources, "_BLOCK", block):
        path = Path(folder, "log.jsonl")
        path.write_bytes(b"".join(raw))
        source = sources.Jsonl(path, Counted)
        read: list[tuple[str, Any, int]] = []
        while True:
            try:
                record: Any = ("record", next(source))
            except StopIteration:
                break
            except RecordError as error:
                record = ("error", error.line)
            mark = source.mark()
            assert mark is not None
            read.append((*record, mark["offset"]))
    assert read == _alone(raw)


def test_standard_input_is_decoded_a_line_as_it_arrives() -> None:
    """A record on standard input is given as soon as its line has come, not when a
    block of them has."""
    script = (
        "from lazyfun.io import read_jsonl\nfor r in read_jsonl('-'): print(r['n'], flush=True)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    pipes = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE}
    with running([sys.executable, "-c", script], env=env, **pipes) as child:
        assert child.stdin is not None and child.stdout is not None
        for n in range(3):
            child.stdin.write(b'{"n": %d}\n' % n)
            child.stdin.flush()
            assert child.stdout.readline() == b"%d\n" % n  # before the next line is written
        child.stdin.close()
        assert child.wait(timeout=60) == 0


def test_jsonl_takes_typed_dicts_and_structs(tmp_path: Path) -> None:
    rows = tmp_path / "rows.jsonl"
    rows.write_text('{"name": "ada", "age": 36}\n')
    assert read_jsonl(rows, Row).to_list() == [{"name": "ada", "age": 36}]
    items = tmp_path / "items.jsonl.gz"
    assert to_jsonl([Item(1, "a"), Item(2, "b")], items) == 2
    assert read_jsonl(items, Item).to_list() == [Item(1, "a"), Item(2, "b")]


def test_csv_rows_are_dicts_or_converted_types_with_the_line_of_a_bad_row(tmp_path: Path) -> None:
    path = tmp_path / "people.csv"
    path.write_bytes(
        b'\xef\xbb\xbfname,age\nada,36\n"alan\nturing",41\nbad row\n\xff,1\ngrace,85\n'
    )
    errors: list[RecordError] = []
    rows = read_csv(path).catch(RecordError, do=errors.append).to_list()
    assert rows == [
        {"name": "ada", "age": "36"},
        {"name": "alan\nturing", "age": "41"},
        {"name": "grace", "age": "85"},
    ]
    assert (errors[0].line, errors[0].reason) == (5, "1 fields, the header has 2")
    assert errors[1].line == 6 and errors[1].reason.startswith("not utf-8")
    typed = read_csv(path, Row).catch(RecordError).to_list()
    assert typed[0] == {"name": "ada", "age": 36}
    path.write_text("name;age\nada;x\n")
    with pytest.raises(RecordError, match="line 2: does not fit Row") as caught:
        read_csv(path, Row, delimiter=";").to_list()
    assert isinstance(caught.value.__cause__, msgspec.ValidationError)


def test_a_wrong_csv_dialect_is_refused_at_the_call() -> None:
    with pytest.raises(TypeError):
        read_csv("x.csv", delimiter="too long")


@pytest.fixture
def big_db(tmp_path: Path) -> Path:
    path = tmp_path / "big.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE big (id INTEGER, name TEXT)")
        db.executemany("INSERT INTO big VALUES (?, ?)", ((n, f"n{n}") for n in range(100_000)))
    db.close()
    return path


def test_read_sql_fetches_as_it_is_read(big_db: Path) -> None:
    db = sqlite3.connect(big_db)
    stepped: list[int] = []

    def counted(n: int) -> int:
        stepped.append(n)
        return n

    db.create_function("counted", 1, counted)
    first = read_sql(db, "SELECT counted(id) AS id, name FROM big").take(5).to_list()
    assert first == [{"id": n, "name": f"n{n}"} for n in range(5)]
    assert len(stepped) <= 16 + 1  # a few rows fetched (sqlite3 steps one ahead), not 100,000
    assert db.execute("SELECT count(*) FROM big").fetchone() == (100_000,)  # still open
    db.close()


def test_read_sql_passes_params_through_and_closes_what_it_opened(big_db: Path) -> None:
    rows = iter(read_sql(big_db, "SELECT id FROM big WHERE id < :top", {"top": 3}))
    assert next(rows) == {"id": 0}
    assert _open_fds(big_db) == 1
    assert list(rows) == [{"id": 1}, {"id": 2}]
    assert _open_fds(big_db) == 0
    taken = read_sql(big_db, "SELECT id FROM big").take(2).to_list()
    assert taken == [{"id": 0}, {"id": 1}]
    assert _open_fds(big_db) == 0  # left by take


def test_read_sql_of_a_missing_database_creates_nothing(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_sql(tmp_path / "none.db", "SELECT 1").to_list()
    assert not (tmp_path / "none.db").exists()


def test_parquet_round_trip_by_row_groups_and_columns(tmp_path: Path) -> None:
    path = tmp_path / "t.parquet"
    rows = [{"id": n, "name": f"n{n}", "score": n / 2} for n in range(2500)]
    assert stream(rows).to_parquet(path, row_group=1000) == 2500
    assert pq.ParquetFile(path).num_row_groups == 3
    assert read_parquet(path).to_list() == rows
    assert read_parquet(path, columns=["id"]).take(2).to_list() == [{"id": 0}, {"id": 1}]
    assert _open_fds(path) == 0


def test_a_file_that_is_not_parquet_is_a_record_error_and_the_next_file_follows(
    tmp_path: Path,
) -> None:
    stream([{"n": 1}]).to_parquet(tmp_path / "a.parquet")
    (tmp_path / "b.parquet").write_bytes(b"not parquet at all")
    stream([{"n": 3}]).to_parquet(tmp_path / "c.parquet")
    errors: list[RecordError] = []
    rows = read_parquet(tmp_path / "*.parquet").catch(RecordError, do=errors.append).to_list()
    assert rows == [{"n": 1}, {"n": 3}]
    assert [(Path(e.path).name, e.line, e.unit) for e in errors] == [("b.parquet", 1, "row")]


def test_files_are_closed_at_the_end_on_close_and_when_take_has_enough(tmp_path: Path) -> None:
    path = tmp_path / "n.jsonl"
    to_jsonl(range(10), path)
    read = iter(read_jsonl(path))
    assert next(read) == 0 and _open_fds(path) == 1
    assert list(read) == list(range(1, 10)) and _open_fds(path) == 0
    assert read_jsonl(path).take(3).to_list() == [0, 1, 2] and _open_fds(path) == 0
    source = iter(read_jsonl(path))
    next(source)
    source.close()  # type: ignore[attr-defined]
    assert _open_fds(path) == 0 and list(source) == []


@pytest.fixture
def http_folder(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    handler = partial(QuietFiles, directory=str(tmp_path))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", tmp_path
    finally:
        httpd.shutdown()
        httpd.server_close()


class QuietFiles(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        return None


def test_urls_are_read_through_fsspec_from_a_local_http_server(
    http_folder: tuple[str, Path],
) -> None:
    base, folder = http_folder
    to_jsonl(({"n": n} for n in range(50)), folder / "served.jsonl.gz")
    stream(["x,y", "1,2"]).to_lines(folder / "served.csv")
    assert read_jsonl(f"{base}/served.jsonl.gz").map(lambda r: r["n"]).sum() == sum(range(50))
    assert read_csv(f"{base}/served.csv", Point).to_list() == [Point(1, 2)]
    file_url = (folder / "served.csv").as_uri()
    assert read_lines(file_url).to_list() == ["x,y", "1,2"]
    to_jsonl([1, 2], f"{(folder / 'written.jsonl').as_uri()}")
    assert read_jsonl(folder / "written.jsonl").to_list() == [1, 2]


# --- sinks -----------------------------------------------------------------------------


def test_each_sink_returns_how_many_records_it_wrote(tmp_path: Path) -> None:
    people = [{"name": "ada", "age": 36}, {"name": "alan", "age": 41}]
    assert stream(people).to_csv(tmp_path / "p.csv") == 2  # the header is not counted
    assert (tmp_path / "p.csv").read_text().splitlines() == ["name,age", "ada,36", "alan,41"]
    assert stream(people).to_sql(tmp_path / "p.db", "people") == 2
    assert read_sql(tmp_path / "p.db", "SELECT * FROM people").to_list() == people
    assert stream([Point(1, 2)]).to_csv(tmp_path / "points.csv") == 1
    assert read_csv(tmp_path / "points.csv", Point).to_list() == [Point(1, 2)]
    assert stream([Item(1, "a")]).to_parquet(tmp_path / "i.parquet") == 1
    assert read_parquet(tmp_path / "i.parquet").to_list() == [{"id": 1, "name": "a"}]
    assert stream([]).to_jsonl(tmp_path / "none.jsonl") == 0
    assert (tmp_path / "none.jsonl").read_bytes() == b""


def test_a_record_with_other_fields_is_a_record_error_after_the_ones_before(
    tmp_path: Path,
) -> None:
    rows = [{"a": 1, "b": 2}, {"b": 3, "a": 4}, {"a": 5, "c": 6}, {"a": 7, "b": 8}]
    with pytest.raises(RecordError) as caught:
        stream(rows).to_csv(tmp_path / "r.csv")
    assert caught.value.line == 4  # under the header and two rows
    assert caught.value.reason == "fields (a, c) differ from the first record's (a, b)"
    assert read_csv(tmp_path / "r.csv").to_list() == [{"a": "1", "b": "2"}, {"a": "4", "b": "3"}]
    with pytest.raises(RecordError, match="row 3: fields") as in_sql:
        stream(rows).to_sql(tmp_path / "r.db", "r", batch=10)
    assert in_sql.value.unit == "row"
    assert read_sql(tmp_path / "r.db", "SELECT a, b FROM r").count() == 2
    extra = [{"a": 1, "b": 2}, {"a": 3, "b": 4, "c": 5}]
    with pytest.raises(RecordError, match=r"row 2: fields \(a, b, c\) differ"):
        stream(extra).to_parquet(tmp_path / "extra.parquet")
    assert read_parquet(tmp_path / "extra.parquet").to_list() == [{"a": 1, "b": 2}]
    with pytest.raises(RecordError, match="line 2: not a line: int is not str"):
        stream(["a", 1, "b"]).to_lines(tmp_path / "l.txt")  # type: ignore[misc]
    assert read_lines(tmp_path / "l.txt").to_list() == ["a"]
    with pytest.raises(RecordError, match="line 3: not JSON"):
        stream([1, 2, object(), 4]).to_jsonl(tmp_path / "j.jsonl")
    assert read_jsonl(tmp_path / "j.jsonl").to_list() == [1, 2]


def test_to_sql_commits_each_batch_in_one_transaction(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    seen: list[int] = []

    def visible(n: int) -> dict[str, int]:
        if n:
            with sqlite3.connect(path) as other:
                seen.append(other.execute("SELECT count(*) FROM t").fetchone()[0])
            other.close()
        return {"n": n}

    sqlite3.connect(path).close()
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE t (n)")
    db.close()
    assert stream(range(10)).map(visible).to_sql(path, "t", batch=3) == 10
    assert seen == [(n // 3) * 3 for n in range(1, 10)]


def test_to_sql_closes_a_batch_on_time(tmp_path: Path) -> None:
    clock = iter(range(100))

    def slow(n: int) -> dict[str, int]:
        next(clock)
        threading.Event().wait(0.02)
        return {"n": n}

    path = tmp_path / "timed.db"
    seen: list[int] = []

    def look(n: int) -> None:
        if n == 9 and path.exists():
            with sqlite3.connect(path) as other:
                seen.extend(other.execute("SELECT count(*) FROM timed").fetchone())
            other.close()

    written = stream(range(10)).do(look).map(slow).to_sql(path, "timed", 1000, within=0.05)
    assert written == 10
    assert seen and 0 < seen[0] < 10  # committed by time, long before 1,000 rows


def test_to_sql_leaves_a_connection_it_was_given_open(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "given.db")
    assert stream([{"n": 1}]).to_sql(db, "given") == 1
    assert db.execute("SELECT n FROM given").fetchall() == [(1,)]
    db.close()


def test_the_record_error_pickles_and_is_exported_by_lazyfun() -> None:
    error = RecordError("a.jsonl", 3, "bad JSON: x")
    again = pickle.loads(pickle.dumps(error))
    assert (again.path, again.line, again.reason, str(again)) == (
        "a.jsonl",
        3,
        "bad JSON: x",
        str(error),
    )
    assert lazyfun.RecordError is RecordError and issubclass(RecordError, ValueError)


# --- nothing lost, or with atomic=True nothing at all --------------------------------------


class Boom(Exception):
    pass


def _failing_at(n: int, k: int | None) -> Iterator[dict[str, Any]]:
    for i in range(n):
        if i == k:
            raise Boom(i)
        yield {"id": i, "name": f"n{i}"}


def _lines(i: dict[str, Any]) -> str:
    return json.dumps(i)


SINKS: dict[str, tuple[str, Callable[..., int], Callable[[Path], list[Any]]]] = {
    "lines": (
        "out.txt.gz",
        lambda s, path, **kw: s.map(_lines).to_lines(path, **kw),
        lambda path: [json.loads(line) for line in read_lines(path)],
    ),
    "jsonl": (
        "out.jsonl.zst",
        lambda s, path, **kw: s.to_jsonl(path, **kw),
        lambda path: read_jsonl(path).to_list(),
    ),
    "csv": (
        "out.csv",
        lambda s, path, **kw: s.to_csv(path, **kw),
        lambda path: [{"id": int(r["id"]), "name": r["name"]} for r in read_csv(path)],
    ),
    "parquet": (
        "out.parquet",
        lambda s, path, **kw: s.to_parquet(path, row_group=7, **kw),
        lambda path: read_parquet(path).to_list(),
    ),
    "sql": (
        "out.db",
        lambda s, path, **kw: s.to_sql(path, "t", 7, **kw),
        lambda path: read_sql(path, "SELECT id, name FROM t ORDER BY rowid").to_list(),
    ),
}


@pytest.mark.untraced
@pytest.mark.parametrize("sink", sorted(SINKS))
@given(n=st.integers(1, 40), k=st.integers(0, 40))
def test_an_error_leaves_exactly_the_records_before_it(sink: str, n: int, k: int) -> None:
    name, write, read = SINKS[sink]
    with _folder() as folder:
        path = folder / name
        with pytest.raises(Boom) if k < n else _nothing():
            write(stream(_failing_at(n, k)), path)
        expected = [{"id": i, "name": f"n{i}"} for i in range(min(n, k))]
        if expected or sink != "sql":
            assert read(path) == expected
        else:  # no record, no fields: no table
            assert read_sql(path, "SELECT name FROM sqlite_master").to_list() == []


@pytest.mark.parametrize("sink", sorted(SINKS))
@given(n=st.integers(1, 40), k=st.integers(0, 39))
def test_atomic_leaves_the_old_file_or_table_untouched(sink: str, n: int, k: int) -> None:
    name, write, read = SINKS[sink]
    with _folder() as folder:
        path = folder / name
        old = [{"id": -i, "name": "old"} for i in range(3)]
        write(stream(old), path)
        with pytest.raises(Boom) if k < n else _nothing():
            write(stream(_failing_at(n, k)), path, atomic=True)
        if k < n:
            assert read(path) == old
            assert sorted(p.name for p in folder.iterdir()) == [name]
        elif sink == "sql":
            assert read(path) == old + [{"id": i, "name": f"n{i}"} for i in range(n)]
        else:
            assert read(path) == [{"id": i, "name": f"n{i}"} for i in range(n)]


def test_atomic_needs_a_file() -> None:
    with pytest.raises(ValueError, match="standard output"):
        stream(["a"]).to_lines("-", atomic=True)


# --- async -------------------------------------------------------------------------------


def test_the_async_sinks_write_on_a_thread_of_their_own(tmp_path: Path) -> None:
    threads: set[str] = set()

    def note(_: object) -> None:
        threads.update(t.name for t in threading.enumerate() if t.name.startswith("lazyfun-sink"))

    async def run() -> list[int]:
        rows = [{"n": n} for n in range(3000)]
        return [
            await astream(rows).do(note).to_jsonl(tmp_path / "a.jsonl"),
            await astream(rows).to_csv(tmp_path / "a.csv"),
            await astream(rows).to_parquet(tmp_path / "a.parquet"),
            await astream(rows).to_sql(tmp_path / "a.db", "a", 500, within=1.0),
            await astream(str(r["n"]) for r in rows).to_lines(tmp_path / "a.txt"),
        ]

    assert asyncio.run(run()) == [3000] * 5
    assert threads  # the writing thread was there while the items were read
    assert read_sql(tmp_path / "a.db", "SELECT n FROM a").map(lambda r: r["n"]).to_list() == list(
        range(3000)
    )
    assert read_jsonl(tmp_path / "a.jsonl").count() == read_parquet(tmp_path / "a.parquet").count()


def test_an_async_sink_keeps_what_came_before_an_error(tmp_path: Path) -> None:
    async def run() -> None:
        await astream(_failing_at(2500, 2345)).to_jsonl(tmp_path / "a.jsonl")

    with pytest.raises(Boom):
        asyncio.run(run())
    assert read_jsonl(tmp_path / "a.jsonl").count() == 2345


def test_async_sources_are_the_sync_ones_made_async(tmp_path: Path) -> None:
    to_jsonl(range(5), tmp_path / "n.jsonl")
    assert asyncio.run(read_jsonl(tmp_path / "n.jsonl").to_async().to_list()) == list(range(5))


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


class _folder:
    """A fresh temporary folder for one hypothesis example."""

    def __enter__(self) -> Path:
        import tempfile

        self.made = tempfile.TemporaryDirectory()
        return Path(self.made.name)

    def __exit__(self, *exc: object) -> None:
        self.made.cleanup()


class _Pair(TypedDict):
    n: int
    word: str


_CSV_LINES = st.sampled_from(
    [
        b"1,one\n",
        b"2,two\n",
        b"x,not a number\n",  # does not convert to an int
        b"3\n",  # a row of another width
        b"\n",  # a blank line, skipped
        b'4,"two\nlines"\n',  # a row over two lines
        b'y,"two\nlines"\n',  # a row over two lines that does not convert
        b"5,caf\xe9\n",  # not UTF-8
        b'6,"unclosed\n',  # a quote the file's end closes
    ]
)


@given(
    st.lists(_CSV_LINES, max_size=40),
    st.sampled_from([1, 2, 3, 7]),
    st.booleans(),
    st.integers(0, 45),
)
def test_law_csv_rows_read_ahead_are_read_as_one_at_a_time(
    lines: list[bytes], ahead: int, typed: bool, resume_at: int
) -> None:
    # the records, and each error at its line, the same whatever rows are read ahead;
    # and a mark taken anywhere, resumed, reads on to the same rest
    from lazyfun.io import sources

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "rows.csv")
        path.write_bytes(b"n,word\n" + b"".join(lines))
        kind = _Pair if typed else None

        def outcomes(source: Iterator[Any], reads: int = 10**6) -> list[object]:
            seen: list[object] = []
            for _ in range(reads):
                try:
                    seen.append(next(source))
                except StopIteration:
                    break
                except RecordError as error:
                    seen.append((error.line, str(error)))
            return seen

        def read(most: int) -> tuple[list[object], list[object]]:
            with patch.object(sources, "AHEAD", most):
                source: sources.Csv[Any] = sources.Csv(path, kind, "utf-8", {})
                first = outcomes(source, resume_at)
                mark = source.mark()
                source.close()
                again: sources.Csv[Any] = sources.Csv(path, kind, "utf-8", {})
                again.resume(mark, source.position)
                rest = outcomes(again)
                again.close()
                return first, rest

        one = read(1)
        assert read(ahead) == one
        assert read(sources.AHEAD) == one


def test_a_csv_rows_error_is_at_the_line_it_starts_on(tmp_path: Path) -> None:
    path = tmp_path / "rows.csv"
    path.write_bytes(b'n,word\n1,one\ny,"two\nlines"\n3\n\n5,caf\xe9\n6,six\n')
    errors: list[RecordError] = []
    rows = read_csv(path, _Pair).catch(RecordError, do=errors.append).to_list()
    assert rows == [{"n": 1, "word": "one"}, {"n": 6, "word": "six"}]
    assert [error.line for error in errors] == [3, 5, 7]


def test_a_csv_columns_repeats_share_one_string_while_it_has_few_values(tmp_path: Path) -> None:
    # a column of few values (a country) holds one string a value across the file; one
    # past SHARED values (a bucket of 2,000) is let be, so what is kept for it stays
    # bounded; the records are the same either way, with a type or without
    from lazyfun.io.sources import SHARED

    path = tmp_path / "users.csv"
    lines = [f"{n},{'de' if n % 3 else 'fr-ca'},{n % 2000}" for n in range(3000)]
    path.write_text("id,country,bucket\n" + "\n".join(lines) + "\n")
    records = read_csv(path).to_list()
    assert records == [
        {"id": str(n), "country": "de" if n % 3 else "fr-ca", "bucket": str(n % 2000)}
        for n in range(3000)
    ]
    assert len({id(record["country"]) for record in records}) == 2
    assert len({id(record["bucket"]) for record in records}) > 2000 > SHARED

    class User(msgspec.Struct):
        id: int
        country: str
        bucket: int

    typed = read_csv(path, User).to_list()
    assert [(u.id, u.country) for u in typed] == [(int(r["id"]), r["country"]) for r in records]
    assert len({id(user.country) for user in typed}) == 2
