"""In order without head-of-line stalls: the default read-ahead of a concurrent map
against a very wide one, and examples/pipeline.py against its floor.

- A few slow calls: 1,500 items in order, 64 at a time, every hundredth call 0.2 s and
  the others 2 ms (1% of the calls a hundred times slower; the 1 s and 10 ms of the
  report that asked for it, scaled down five times), on threads and as coroutines:
  the default read-ahead against ``ahead=4096`` in the same run (target: within 1.5x)
  and against ``ahead=65``, the fixed ``concurrency + 1`` tasks the default was.
- The HTTP job: examples/pipeline.py as it is (16 threads, retries with backoff, a
  rate of 200 requests a second, every attempt counted, batches into SQLite) against a
  local server where 5% of the records answer 503 twice and 0.5% take a second.  Its
  floor is what the rate and the work allow: ``R`` requests at ``r`` a second start no
  sooner than ``ceil(R / r) - 1`` seconds (``r`` may start at once, then ``r`` in each
  second after), the calls' own waits (the slow answers and the backoffs) spread over
  the 16 threads take their sum over 16, and no record is written before its own
  answer; the floor is the largest of the three (target: within 1.2x, default settings),
  timed from the first request the server sees (the setup before it, an httpx client
  and a table, is timed apart: it is the same at any read-ahead).

The machine may be shared: the runs compared are taken in turn, best of a few.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import math
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

from benchmarks.common import verdict
from lazyfun import astream, stream

ITEMS, PLACES, WIDE = 1_500, 64, 4096
SLOW, QUICK, EVERY = 0.2, 0.002, 100  # every EVERY-th call SLOW seconds, the rest QUICK


def _call(n: int) -> int:
    time.sleep(SLOW if n % EVERY == EVERY // 2 else QUICK)
    return n


async def _acall(n: int) -> int:
    await asyncio.sleep(SLOW if n % EVERY == EVERY // 2 else QUICK)
    return n


def _drain(items: Iterable[int]) -> None:
    assert list(items) == list(range(ITEMS))


def _threads(ahead: int | None) -> None:
    _drain(stream(range(ITEMS)).map(_call, concurrency=PLACES, ahead=ahead))


def _tasks(ahead: int | None) -> None:
    async def run() -> list[int]:
        return await astream(range(ITEMS)).map(_acall, concurrency=PLACES, ahead=ahead).to_list()

    _drain(asyncio.run(run()))


def _timed(run: Any, ahead: int | None) -> float:
    start = time.perf_counter()
    run(ahead)
    return time.perf_counter() - start


def _slow_few(verdicts: list[str]) -> None:
    slow = ITEMS // EVERY
    ideal = max(SLOW, (slow * SLOW + (ITEMS - slow) * QUICK) / PLACES)
    print(
        f"a few slow calls: {ITEMS:,} in order, {PLACES} at a time, {slow} of "
        f"{SLOW:g} s and the others {QUICK * 1000:g} ms (ideal {ideal:.2f} s)"
    )
    settings: dict[str, int | None] = {
        "default": None,
        f"ahead={WIDE}": WIDE,
        f"ahead={PLACES + 1} (the old default)": PLACES + 1,
    }
    for place, run in (("threads", _threads), ("coroutines", _tasks)):
        times = {name: math.inf for name in settings}
        for round_ in range(3):
            for name, ahead in settings.items():
                if round_ and ahead == PLACES + 1:
                    continue  # seconds a run: once is enough to see it
                times[name] = min(times[name], _timed(run, ahead))
        for name, elapsed in times.items():
            print(f"  {place:<11}{name:<30}{elapsed:7.3f} s  {elapsed / ideal:5.2f}x the ideal")
        ratio = times["default"] / times[f"ahead={WIDE}"]
        verdicts.append(
            verdict(
                f"1% of calls 100x slower, in order, {place}: default within 1.5x of ahead={WIDE}",
                ratio <= 1.5,
                f"{ratio:.2f}x",
            )
        )


EXAMPLE = Path(__file__).parent.parent / "examples" / "pipeline.py"
RECORDS, RATE = 1_500, 200
REFUSED, LATE, LATE_SECONDS = 20, 200, 1.0  # 1 in 20 answers 503 twice, 1 in 200 takes 1 s
BACKOFF = 0.01 + 0.02  # the example's waits before its second and third attempts


class _Records(BaseHTTPRequestHandler):
    """/records/N as JSON: 503 on the first two tries of every REFUSED-th, a second
    late for every LATE-th (both counted from an offset, so that record 0 is plain)."""

    hits: ClassVar[Counter[int]] = Counter()
    first: ClassVar[list[float]] = []  # when the first request came
    lock: ClassVar[threading.Lock] = threading.Lock()

    def do_GET(self) -> None:
        record = int(self.path.rsplit("/", 1)[1])
        with self.lock:
            self.first[:] = self.first or [time.perf_counter()]
            self.hits[record] += 1
            tries = self.hits[record]
        if record % REFUSED == 3 and tries <= 2:
            self.send_error(503)
            return
        if record % LATE == 7:
            time.sleep(LATE_SECONDS)
        body = json.dumps({"id": record, "name": f"record {record}"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        return None


@contextmanager
def _serving() -> Iterator[str]:
    _Records.hits, _Records.first = Counter(), []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Records)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("pipeline_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks itself up there
    spec.loader.exec_module(module)
    return module


def _http_job(verdicts: list[str]) -> None:
    example = _example()
    with _serving() as base, tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        report = example.run(base, str(Path(folder, "records.db")), RECORDS, per_second=RATE)
        end = time.perf_counter()
    assert report.written == RECORDS
    setup = _Records.first[0] - start  # a client made (0.6 s on a busy machine), a table
    elapsed = end - _Records.first[0]
    requests = sum(_Records.hits.values())
    by_rate = math.ceil(requests / RATE) - 1
    late = sum(1 for n in range(RECORDS) if n % LATE == 7)
    refused = sum(1 for n in range(RECORDS) if n % REFUSED == 3)
    by_work = (late * LATE_SECONDS + refused * BACKOFF) / 16
    floor = max(by_rate, by_work, LATE_SECONDS)
    print(
        f"the HTTP job: examples/pipeline.py, {RECORDS:,} records, {requests:,} requests at "
        f"{RATE} a second ({refused} records refused twice, {late} a second late)"
    )
    print(
        f"  floor {floor:.2f} s (the rate {by_rate:.2f} s, the waits over 16 threads "
        f"{by_work:.2f} s); default settings {elapsed:.2f} s from the first request: "
        f"{elapsed / floor:.2f}x ({setup:.2f} s before it)"
    )
    ratio = elapsed / floor
    verdicts.append(
        verdict(
            "the HTTP example within 1.2x of its floor, default settings",
            ratio <= 1.2,
            f"{ratio:.2f}x",
        )
    )


def main() -> list[str]:
    verdicts: list[str] = []
    _slow_few(verdicts)
    _http_job(verdicts)
    return verdicts
