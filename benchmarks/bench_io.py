"""Sources and sinks (lazyfun.io), in one run, beside a hand-written loop that uses the
same decoder and PyFunctional:

- 1,000,000 JSON records read from ``.jsonl.gz``, mapped and written to ``.jsonl``:
  lazyfun within 1.3x of the hand-written loop (msgspec, gzip, ``encode_lines`` per
  1,000), and at least 3x faster than PyFunctional's
  ``seq.jsonl(...).map(...).to_jsonl(...)``;
- 1,000,000 rows into SQLite through ``to_sql``, within 1.2x of hand-written
  ``executemany`` in batches of 1,000, each committed;
- the peak memory (the child process's peak resident set, VmHWM) of every source
  and sink at 10^5 and at 10^7 lines: within 10 MB of each other.

``--quick`` (or ``LAZYFUN_BENCH_QUICK=1``) runs 100,000 records and 10^5 against 10^6
lines; the ratios are printed either way.

    make bench BENCH=io
    python -m benchmarks.bench_io --quick
"""

from __future__ import annotations

import gzip
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from benchmarks.common import ROOT, verdict

QUICK = os.environ.get("LAZYFUN_BENCH_QUICK") == "1" or "--quick" in sys.argv
RECORDS = 100_000 if QUICK else 1_000_000
SMALL, LARGE = (10**5, 10**6) if QUICK else (10**5, 10**7)
BATCH = 1000


def _record(n: int) -> dict[str, Any]:
    return {"id": n, "name": f"user {n}", "score": n * 0.5, "tags": ["a", "b"]}


def _rescored(record: dict[str, Any]) -> dict[str, Any]:
    return {**record, "score": record["score"] * 2}


def _best(repeats: int, f: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - start)
    return best


def _write_input(path: Path, n: int) -> None:
    import msgspec

    encoder = msgspec.json.Encoder()
    with gzip.open(path, "wb", compresslevel=6) as out:
        for start in range(0, n, BATCH):
            out.write(
                encoder.encode_lines([_record(i) for i in range(start, min(n, start + BATCH))])
            )


def _hand_jsonl(source: Path, target: Path) -> int:
    """The loop one writes by hand with the same decoder and encoder."""
    import msgspec

    decode, encode = msgspec.json.Decoder().decode, msgspec.json.Encoder().encode_lines
    count = 0
    with gzip.open(source, "rb") as lines, open(target, "wb") as out:
        batch = []
        for line in lines:
            batch.append(_rescored(decode(line)))
            if len(batch) == BATCH:
                out.write(encode(batch))
                count += len(batch)
                batch = []
        out.write(encode(batch))
    return count + len(batch)


def _lazyfun_jsonl(source: Path, target: Path) -> int:
    from lazyfun.io import read_jsonl

    return read_jsonl(source).map(_rescored).to_jsonl(target)


def _pyfunctional_jsonl(source: Path, target: Path) -> int:
    from functional import seq

    seq.jsonl(str(source)).map(_rescored).to_jsonl(str(target))
    return RECORDS


def _jsonl(verdicts: list[str], folder: Path) -> None:
    source = folder / "in.jsonl.gz"
    _write_input(source, RECORDS)
    out = folder / "out.jsonl"
    assert _hand_jsonl(source, out) == _lazyfun_jsonl(source, out) == RECORDS
    hand = _best(3, lambda: _hand_jsonl(source, out))
    ours = _best(3, lambda: _lazyfun_jsonl(source, out))
    theirs = _best(1, lambda: _pyfunctional_jsonl(source, out))
    print(f"{RECORDS:,} JSON records .jsonl.gz -> map -> .jsonl (best of 3; PyFunctional once)")
    for name, seconds in (("hand-written loop", hand), ("lazyfun", ours), ("PyFunctional", theirs)):
        print(f"  {name:<20} {seconds:7.2f} s  {RECORDS / seconds:>12,.0f} records/s")
    verdicts.append(
        verdict(
            "jsonl: lazyfun within 1.3x of the hand-written loop",
            ours <= 1.3 * hand,
            f"{ours / hand:.2f}x",
        )
    )
    verdicts.append(
        verdict(
            "jsonl: lazyfun at least 3x faster than PyFunctional",
            theirs >= 3 * ours,
            f"{theirs / ours:.1f}x",
        )
    )


def _rows(n: int) -> Iterator[dict[str, Any]]:
    return ({"id": i, "name": f"user {i}", "score": i * 0.5} for i in range(n))


def _hand_sql(path: Path) -> int:
    path.unlink(missing_ok=True)
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE t (id, name, score)")
    db.commit()
    batch: list[tuple[Any, ...]] = []
    for row in _rows(RECORDS):
        batch.append((row["id"], row["name"], row["score"]))
        if len(batch) == BATCH:
            db.executemany("INSERT INTO t (id, name, score) VALUES (?, ?, ?)", batch)
            db.commit()
            batch = []
    db.executemany("INSERT INTO t (id, name, score) VALUES (?, ?, ?)", batch)
    db.commit()
    db.close()
    return RECORDS


def _lazyfun_sql(path: Path) -> int:
    from lazyfun import stream

    path.unlink(missing_ok=True)
    return stream(_rows(RECORDS)).to_sql(path, "t", BATCH)


def _sql(verdicts: list[str], folder: Path) -> None:
    path = folder / "t.db"
    hand = _best(3, lambda: _hand_sql(path))
    ours = _best(3, lambda: _lazyfun_sql(path))
    print(f"{RECORDS:,} rows into SQLite in batches of {BATCH:,} (best of 3)")
    for name, seconds in (("hand executemany", hand), ("lazyfun to_sql", ours)):
        print(f"  {name:<20} {seconds:7.2f} s  {RECORDS / seconds:>12,.0f} rows/s")
    verdicts.append(
        verdict(
            "sql: to_sql within 1.2x of hand-written executemany",
            ours <= 1.2 * hand,
            f"{ours / hand:.2f}x",
        )
    )


# --- memory: each source and sink in a child process, its peak resident set ------------

FORMATS = {
    "lines": ("data.txt", "to_lines", "read_lines"),
    "jsonl": ("data.jsonl.gz", "to_jsonl", "read_jsonl"),
    "csv": ("data.csv", "to_csv", "read_csv"),
    "parquet": ("data.parquet", "to_parquet", "read_parquet"),
    "sql": ("data.db", "to_sql", "read_sql"),
}


def _child(kind: str, way: str, folder: str, n: int) -> None:
    """Write ``n`` records with a format's sink, or read them back with its source, then
    print the peak resident set in bytes."""
    from lazyfun import stream
    from lazyfun.io import read_csv, read_jsonl, read_lines, read_parquet, read_sql

    name = FORMATS[kind][0]
    path = Path(folder) / name
    if way == "sink":
        rows = stream(_rows(n))
        if kind == "lines":
            written = rows.map(lambda r: r["name"]).to_lines(path)
        elif kind == "sql":
            written = rows.to_sql(path, "t", BATCH)
        else:
            written = getattr(rows, FORMATS[kind][1])(path)
    else:
        sources: dict[str, Callable[[], Any]] = {
            "lines": lambda: read_lines(path),
            "jsonl": lambda: read_jsonl(path),
            "csv": lambda: read_csv(path),
            "parquet": lambda: read_parquet(path),
            "sql": lambda: read_sql(path, "SELECT * FROM t"),
        }
        written = sources[kind]().count()
    assert written == n, (kind, way, written)
    # VmHWM, not ru_maxrss: the latter keeps the parent's size from before the exec
    status = Path("/proc/self/status").read_text().splitlines()
    print(next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmHWM:")))


def _peak(kind: str, way: str, folder: Path, n: int) -> int:
    command = [
        sys.executable,
        "-m",
        "benchmarks.bench_io",
        "--child",
        kind,
        way,
        str(folder),
        str(n),
    ]
    out = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT).stdout
    return int(out.strip())


def _memory(verdicts: list[str], folder: Path) -> None:
    print(f"peak resident set of a child process, {SMALL:,} lines against {LARGE:,}")
    worst = 0
    for kind in FORMATS:
        for way in ("sink", "source"):
            peaks = []
            for n in (SMALL, LARGE):
                where = folder / f"{kind}-{n}"
                where.mkdir(exist_ok=True)
                if way == "source" and not any(where.iterdir()):
                    _peak(kind, "sink", where, n)
                peaks.append(_peak(kind, way, where, n))
            grew = peaks[1] - peaks[0]
            worst = max(worst, grew)
            print(
                f"  {kind:<8} {way:<7} {peaks[0] / 2**20:8.1f} MiB  {peaks[1] / 2**20:8.1f} MiB"
                f"  grew {grew / 2**20:6.1f} MiB"
            )
    verdicts.append(
        verdict(
            f"memory: every source and sink within 10 MB from {SMALL:,} to {LARGE:,} lines",
            worst <= 10 * 10**6,
            f"most growth {worst / 2**20:.1f} MiB",
        )
    )


def main() -> list[str]:
    verdicts: list[str] = []
    with tempfile.TemporaryDirectory(prefix="lazyfun-bench-io-") as name:
        folder = Path(name)
        _jsonl(verdicts, folder)
        _sql(verdicts, folder)
        _memory(verdicts, folder)
    return verdicts


if __name__ == "__main__" and sys.argv[1:2] == ["--child"]:
    _child(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
elif __name__ == "__main__":
    main()
