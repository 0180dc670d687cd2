"""examples/pipeline.py end to end: a local HTTP server with slow answers, 503s that
pass on retry, 404s and a broken record, fetched with concurrency into SQLite."""

from __future__ import annotations

import importlib.util
import json
import sqlite3
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import httpx
import pytest

EXAMPLE = Path(__file__).parent.parent / "examples" / "pipeline.py"
COUNT = 300
MISSING = {17, 150, 299}


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("pipeline_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks itself up there
    spec.loader.exec_module(module)
    return module


class Records(BaseHTTPRequestHandler):
    """/records/N: every 7th slow, every 5th a 503 on its first two tries, MISSING 404,
    the BROKEN ones a 500."""

    hits: ClassVar[Counter[int]] = Counter()
    broken: ClassVar[set[int]] = set()
    first_seen: ClassVar[dict[int, float]] = {}
    lock: ClassVar[threading.Lock] = threading.Lock()

    def do_GET(self) -> None:
        record = int(self.path.rsplit("/", 1)[1])
        with self.lock:
            self.hits[record] += 1
            tries = self.hits[record]
            self.first_seen.setdefault(record, time.monotonic())
        if record in MISSING:
            self.send_error(404)
            return
        if record in self.broken:
            self.send_error(500)
            return
        if record % 5 == 0 and tries <= 2:
            self.send_error(503)
            return
        if record % 7 == 0:
            time.sleep(0.05)
        body = json.dumps({"id": record, "name": f"record {record}"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        return None


class Server(ThreadingHTTPServer):
    """The records' server; a client that leaves mid-answer (a pipeline ended by an error
    closes its connections) is no error of the server's."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@pytest.fixture
def server() -> Iterator[str]:
    Records.hits = Counter()
    Records.first_seen = {}
    Records.broken = set()
    httpd = Server(("127.0.0.1", 0), Records)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.mark.untraced
def test_every_record_arrives_exactly_once(server: str, tmp_path: Path) -> None:
    example = load_example()
    db_path = tmp_path / "records.db"
    report = example.run(server, str(db_path), COUNT, per_second=1000)
    with sqlite3.connect(db_path) as db:
        ids = [row[0] for row in db.execute("SELECT id FROM records ORDER BY id")]
    assert ids == [n for n in range(COUNT) if n not in MISSING]
    assert report.written == COUNT - len(MISSING)
    assert sorted(report.missing) == sorted(MISSING)
    assert all(Records.hits[n] == 3 for n in range(0, COUNT, 5) if n not in MISSING)


def test_the_rate_limit_holds(server: str, tmp_path: Path) -> None:
    example = load_example()
    example.run(server, str(tmp_path / "slow.db"), 30, per_second=20)
    arrivals = sorted(Records.first_seen.values())
    assert len(arrivals) == 30
    # any 21 records: 20 a second, so they span a second (less a little for the wire)
    assert min(b - a for a, b in zip(arrivals, arrivals[20:], strict=False)) >= 0.9


def test_an_error_at_record_50_leaves_rows_0_to_49_in_the_table(
    server: str, tmp_path: Path
) -> None:
    example = load_example()
    Records.broken = {50}
    db_path = tmp_path / "broken.db"
    with pytest.raises(httpx.HTTPStatusError, match="500"):
        example.run(server, str(db_path), COUNT, per_second=1000)
    with sqlite3.connect(db_path) as db:
        ids = [row[0] for row in db.execute("SELECT id FROM records ORDER BY id")]
    db.close()
    assert ids == [n for n in range(50) if n not in MISSING]
