"""A real pipeline: fetch records over HTTP, retry the flaky ones, rate-limit, batch
them into SQLite.  ``tests/test_example_pipeline.py`` runs it end to end against a
local server.

    python examples/pipeline.py http://127.0.0.1:8000 records.db 1000

The chain reads as the job: the ids; each fetched with httpx on 16 threads (a 503
retried with backoff by tenacity, in the worker, so the record keeps its place); a
record that is not there (404) noted and dropped; at most 200 requests a second;
rows written to SQLite by ``to_sql`` in batches of 50 (or whatever came within half
a second), each batch in one transaction.  Any other error stops the run, and the
rows that came before it are in the table.
"""

from __future__ import annotations

import sqlite3
import sys
from dataclasses import dataclass, field

import httpx
import tenacity

from lazyfun import Rate, stream


class Unavailable(Exception):
    """The server said 503: worth another try."""


@dataclass
class Report:
    written: int = 0
    missing: list[int] = field(default_factory=list)


def fetch(client: httpx.Client, record: int) -> dict[str, object]:
    """One record as JSON; 503 raises Unavailable (retried), other errors propagate."""
    answer = client.get(f"/records/{record}")
    if answer.status_code == 503:
        raise Unavailable(record)
    answer.raise_for_status()
    data: dict[str, object] = answer.json()
    return data


def run(base: str, db_path: str, count: int, *, per_second: int = 200) -> Report:
    """Fetch records 0..count-1 from ``base`` into the SQLite file ``db_path``."""
    report = Report()
    policy = tenacity.Retrying(
        retry=tenacity.retry_if_exception_type(Unavailable),
        wait=tenacity.wait_exponential(multiplier=0.01, max=0.2),
        stop=tenacity.stop_after_attempt(6),
        reraise=True,
    )

    def not_there(error: httpx.HTTPStatusError) -> bool:
        return error.response.status_code == 404

    def note_missing(error: httpx.HTTPStatusError) -> None:
        report.missing.append(int(error.request.url.path.rsplit("/", 1)[1]))

    with sqlite3.connect(db_path) as db:
        db.execute("CREATE TABLE IF NOT EXISTS records (id INTEGER PRIMARY KEY, name TEXT)")
    db.close()
    rate = Rate(per_second, per=1.0)  # every request counts, the retried ones too
    with httpx.Client(base_url=base, timeout=10) as client:
        report.written = (
            stream(range(count))
            # 16 requests at once; while one is retried, the others go on (their records
            # held until it is done, to keep the order: 1,024 at most)
            .map(lambda record: fetch(client, record), concurrency=16, retry=policy, rate=rate)
            .catch(httpx.HTTPStatusError, where=not_there, do=note_missing)
            .to_sql(db_path, "records", batch=50, within=0.5)
        )
    return report


if __name__ == "__main__":
    done = run(sys.argv[1], sys.argv[2], int(sys.argv[3]))
    print(f"{done.written} records; missing: {done.missing}")
