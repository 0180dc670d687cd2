"""A real pipeline: fetch records over HTTP, retry the flaky ones, rate-limit, batch
them into SQLite.  ``tests/test_example_pipeline.py`` runs it end to end against a
local server.

    python examples/pipeline.py http://127.0.0.1:8000 records.db 1000

The chain reads as the job: the ids; each fetched on 16 threads (a 503 retried
with backoff by tenacity, in the worker, so the record keeps its place); a
record that is not there (404) noted and dropped; at most 200 requests a
second; rows in batches of 50 (or whatever came within half a second); each
batch written in one transaction.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import urllib.error
import urllib.request
from dataclasses import dataclass, field

import tenacity

from lazyfun import stream


class Unavailable(Exception):
    """The server said 503: worth another try."""


@dataclass
class Report:
    written: int = 0
    batches: int = 0
    missing: list[int] = field(default_factory=list)


def fetch(base: str, record: int) -> dict[str, object]:
    """One record as JSON; 503 raises Unavailable (retried), other errors propagate."""
    try:
        with urllib.request.urlopen(f"{base}/records/{record}", timeout=10) as answer:
            data: dict[str, object] = json.load(answer)
            return data
    except urllib.error.HTTPError as error:
        error.close()  # its code and url stay; the connection goes back
        if error.code == 503:
            raise Unavailable(record) from error
        raise


def write(db: sqlite3.Connection, rows: list[dict[str, object]]) -> None:
    """One batch, in one transaction."""
    with db:
        db.executemany(
            "INSERT INTO records (id, name) VALUES (:id, :name)",
            rows,
        )


def run(base: str, db_path: str, count: int, *, per_second: int = 200) -> Report:
    """Fetch records 0..count-1 from ``base`` into the SQLite file ``db_path``."""
    report = Report()
    policy = tenacity.Retrying(
        retry=tenacity.retry_if_exception_type(Unavailable),
        wait=tenacity.wait_exponential(multiplier=0.01, max=0.2),
        stop=tenacity.stop_after_attempt(6),
        reraise=True,
    )

    def note_missing(error: urllib.error.HTTPError) -> None:
        report.missing.append(int(error.url.rsplit("/", 1)[1]))

    db = sqlite3.connect(db_path)
    db.execute("CREATE TABLE IF NOT EXISTS records (id INTEGER PRIMARY KEY, name TEXT)")
    try:
        (
            stream(range(count))
            .throttle(per_second, per=1.0)
            .map(lambda record: fetch(base, record), concurrency=16, retry=policy)
            .catch(urllib.error.HTTPError, where=lambda e: e.code == 404, do=note_missing)
            .group(50, within=0.5)
            .do(lambda rows: write(db, rows))
            .for_each(lambda rows: _count(report, rows))
        )
    finally:
        db.close()
    return report


def _count(report: Report, rows: list[dict[str, object]]) -> None:
    report.written += len(rows)
    report.batches += 1


if __name__ == "__main__":
    done = run(sys.argv[1], sys.argv[2], int(sys.argv[3]))
    print(f"{done.written} records in {done.batches} batches; missing: {done.missing}")
