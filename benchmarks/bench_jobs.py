"""A data engineer's day (#69): five jobs on one event log, by lazyfun, DuckDB and polars.

The log is generated once into ``build/jobs/`` (seeded): ``LINES`` JSON lines of
``{"ts", "kind", "user", "amount"}``, the times out of order by up to five minutes, one
line in a thousand torn or not UTF-8; and a ``users.csv`` of ``USERS`` rows
(``id,name,country``; 200,000 beside 3,000,000 lines, in proportion below that).  The
five jobs:

=================  ====================================================================
per kind           count and sum of ``amount`` per ``kind``
top users          the 10 users of the greatest total ``amount``
per hour           count per ``kind`` per event-time hour (lazyfun: ``tumbling`` windows
                   of an hour on the ``ts`` field's ISO times, five minutes' lateness;
                   the others: ``ts[:13]``)
sort to parquet    every record sorted by ``(user, ts)`` into a Parquet file, 200 MB budget
join users         the events joined with ``users.csv`` on the user's id, count and sum
                   per ``country``
=================  ====================================================================

Each job of each engine runs in a child process of its own, so its peak memory is
the child's ``VmHWM`` (the interpreter and the engine's imports included); its time
is the job's wall time, from before its first read to its answer.  Each job runs
``ROUNDS`` times (``LAZYFUN_BENCH_JOBS_ROUNDS``, 3 unless set), the engines taking
turns, and the table shows each engine's fastest run and its highest peak (one run
alone strayed by up to 60% on this machine).  lazyfun's jobs are written as
``docs/pipelines.md`` teaches (``read_jsonl`` of a type, the msgspec Struct ``Event``, as
polars is given the log's schema, with a ``catch`` of the bad lines, ``aggregate``,
``top``, ``tumbling``, ``sort(memory=).to_parquet``, ``join`` with ``read_csv`` of the
Struct ``User``, its pairs' fields read by ``field`` paths); DuckDB's and polars' as
their users would write them, their bad lines skipped as each allows (a row of NULLs
dropped).  Every answer is set beside lazyfun's
(counts exactly, sums to 1e-9 of their size, the sorted files by their key columns), and
each job ends with the target: lazyfun within 3x of DuckDB's time at no
more than DuckDB's peak.  An engine that is not installed is skipped with one line
(``pip install 'lazyfun[bench]'`` brings both).

    make bench BENCH=jobs
    LAZYFUN_BENCH_JOBS_LINES=300000 python -m benchmarks.bench_jobs
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from operator import attrgetter
from pathlib import Path
from typing import Any

import msgspec

from benchmarks.common import ROOT, verdict

LINES_ENV = "LAZYFUN_BENCH_JOBS_LINES"
ROUNDS = int(os.environ.get("LAZYFUN_BENCH_JOBS_ROUNDS", "3"))
LINES = int(os.environ.get(LINES_ENV, "3000000"))
USERS = max(1_000, LINES * 200_000 // 3_000_000)
FOLDER = ROOT / "build" / "jobs"
BUDGET = 200 * 2**20  # the sort's memory, each engine's where it takes one
SEED = 69
KINDS = ("view", "click", "cart", "buy", "refund")
COUNTRIES = ("de", "fr", "it", "es", "nl", "pl", "se", "no", "pt", "gr", "us", "br", "jp")
JOBS = ("per kind", "top users", "per hour", "sort to parquet", "join users")
ENGINES = ("lazyfun", "duckdb", "polars")
START = datetime(2026, 11, 1, tzinfo=UTC).timestamp()
SPAN = 30 * 86_400  # seconds of events: 720 hours
DISORDER = 300  # seconds an event's time may lag the latest before it


class Event(msgspec.Struct, gc=False):
    """A line of the log, as lazyfun's ``read_jsonl`` decodes it (plain values, no cycle:
    left out of the garbage collector's count, as msgspec advises for such a Struct)."""

    ts: str
    kind: str
    user: int
    amount: float


class User(msgspec.Struct, gc=False):
    """A row of users.csv, as lazyfun's ``read_csv`` converts it."""

    id: int
    name: str
    country: str


# --- the data -----------------------------------------------------------------------


def _stamp(seconds: float) -> str:
    """An ISO time to the millisecond, UTC: ``2026-11-01T00:00:00.000Z``."""
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def generated(lines: int = LINES, users: int = USERS) -> tuple[Path, Path]:
    """The event log and users.csv of this size, written once into ``build/jobs/``
    (seeded: the same files each time): event ``i`` is due at ``i / lines`` of the span
    and stamped up to ``DISORDER`` seconds before that; one line in a thousand is cut
    short (a torn write) or carries bytes that are not UTF-8."""
    FOLDER.mkdir(parents=True, exist_ok=True)
    events, table = FOLDER / f"events-{lines}.jsonl", FOLDER / f"users-{users}.csv"
    if not events.exists():
        print(f"  writing {events} ({lines:,} lines)")
        r = random.Random(SEED)
        kinds = r.choices(KINDS, weights=(60, 25, 8, 5, 2), k=lines)
        part = events.with_suffix(".part")
        with part.open("wb") as file:
            for i, kind in enumerate(kinds):
                ts = _stamp(START + SPAN * i / lines - r.uniform(0, DISORDER))
                user, amount = r.randrange(users + users // 20), round(r.expovariate(0.05), 2)
                line = f'{{"ts":"{ts}","kind":"{kind}","user":{user},"amount":{amount}}}'
                data = line.encode()
                if r.random() < 0.001:  # torn (cut short), or not UTF-8
                    cut = r.randrange(1, len(data) - 1)
                    data = data[:cut] if i % 2 else data[:20] + b"\xff\xfe" + data[20:]
                file.write(data + b"\n")
        part.rename(events)
    if not table.exists():
        r = random.Random(SEED + 1)
        part = table.with_suffix(".part")
        with part.open("w") as file:
            file.write("id,name,country\n")
            file.writelines(f"{n},user {n},{r.choice(COUNTRIES)}\n" for n in range(users))
        part.rename(table)
    return events, table


# --- each engine's jobs, in a child --------------------------------------------------

Answer = Any  # a job's answer as JSON: a dict or list, the same shape for each engine


EXPLAINED: list[Any] = []  # the stream a lazyfun job read last, for its explain


def _lazyfun(job: str, events: Path, users: Path, out: Path) -> tuple[Answer, int]:
    """A job as lazyfun's docs teach it, and how many bad lines it reported."""
    from lazyfun import RecordError, field, stream
    from lazyfun.io import read_csv, read_jsonl

    bad: list[int | None] = []  # the bad lines' numbers
    log = read_jsonl(events, Event).catch(RecordError, do=lambda error: bad.append(error.line))
    EXPLAINED.append(log)
    answer: Answer
    if job == "per kind":
        kinds = log.aggregate(attrgetter("kind"), n="count", total=("sum", "amount"))
        answer = {k: [v["n"], v["total"]] for k, v in kinds.items()}
    elif job == "top users":
        totals = log.aggregate(attrgetter("user"), total=("sum", "amount"))
        best = stream(totals.items()).top(10, key=lambda kv: kv[1]["total"], reverse=True)
        answer = [[user, v["total"]] for user, v in best]
    elif job == "per hour":  # event-time windows of an hour, per kind, as they close
        hourly = log.tumbling(3600, on="ts", by=attrgetter("kind"), lateness=DISORDER, n="count")
        EXPLAINED.append(hourly)
        answer = {f"{w.key} {_stamp(w.start)[:13]}": w.values["n"] for w in hourly}
    elif job == "sort to parquet":
        ordered = log.sort(key=attrgetter("user", "ts"), memory=BUDGET)
        EXPLAINED.append(ordered)
        answer = ordered.to_parquet(out / "lazyfun.parquet")
    else:
        pairs = log.join(read_csv(users, User), "user", other_on="id")
        EXPLAINED.append(pairs)
        # each pair's fields by path, read inline by the fold
        countries = pairs.aggregate(
            field(1, "country"), n="count", total=("sum", field(0, "amount"))
        )
        answer = {k: [v["n"], v["total"]] for k, v in countries.items()}
    return answer, len(bad)


def _quoted(path: Path) -> str:
    """A path as an SQL string literal."""
    return "'" + str(path).replace("'", "''") + "'"


_COLUMNS = "{'ts': 'VARCHAR', 'kind': 'VARCHAR', 'user': 'BIGINT', 'amount': 'DOUBLE'}"


def _duckdb(job: str, events: Path, users: Path, out: Path) -> tuple[Answer, int]:
    """A job in DuckDB's SQL: the log read with ``ignore_errors``, its rows of NULLs
    (the bad lines) left out."""
    import duckdb

    db = duckdb.connect()
    db.execute(
        f"CREATE VIEW log AS SELECT * FROM read_json({_quoted(events)}, "
        f"format='newline_delimited', columns={_COLUMNS}, ignore_errors=true) "
        'WHERE ts IS NOT NULL AND kind IS NOT NULL AND "user" IS NOT NULL AND amount IS NOT NULL'
    )
    answer: Answer
    if job == "per kind":
        rows = db.sql("SELECT kind, count(*), sum(amount) FROM log GROUP BY kind").fetchall()
        answer = {k: [n, t] for k, n, t in rows}
    elif job == "top users":
        query = 'SELECT "user", sum(amount) t FROM log GROUP BY "user" ORDER BY t DESC LIMIT 10'
        answer = [list(row) for row in db.sql(query).fetchall()]
    elif job == "per hour":
        query = "SELECT kind, substr(ts, 1, 13), count(*) FROM log GROUP BY ALL"
        answer = {f"{k} {h}": n for k, h, n in db.sql(query).fetchall()}
    elif job == "sort to parquet":
        db.execute(f"SET memory_limit='{BUDGET // 2**20}MB'")
        target = _quoted(out / "duckdb.parquet")
        db.execute(f'COPY (SELECT * FROM log ORDER BY "user", ts) TO {target} (FORMAT parquet)')
        answer = db.sql(f"SELECT count(*) FROM {target}").fetchall()[0][0]
    else:
        db.execute(
            f"CREATE VIEW users AS SELECT * FROM read_csv({_quoted(users)}, header=true, "
            "columns={'id': 'BIGINT', 'name': 'VARCHAR', 'country': 'VARCHAR'})"
        )
        query = (
            "SELECT u.country, count(*), sum(l.amount) FROM log l "
            'JOIN users u ON l."user" = u.id GROUP BY u.country'
        )
        answer = {k: [n, t] for k, n, t in db.sql(query).fetchall()}
    return answer, 0


def _polars(job: str, events: Path, users: Path, out: Path) -> tuple[Answer, int]:
    """A job in polars' lazy frames.  polars' JSON Lines reader refuses the whole file
    for one line that is not UTF-8 or not JSON (``ignore_errors`` or not), so the log is
    read as lines of text (lossily: a byte that is not UTF-8 becomes U+FFFD), the lines
    with a U+FFFD or that do not parse left out, the rest decoded: all in polars."""
    import polars as pl

    text = pl.scan_csv(
        events,
        has_header=False,
        separator="\x1f",
        quote_char=None,
        encoding="utf8-lossy",
        schema={"line": pl.String},
    )
    line = pl.col("line")
    schema = pl.Struct({"ts": pl.String, "kind": pl.String, "user": pl.Int64, "amount": pl.Float64})
    good = ~line.str.contains("\ufffd", literal=True) & line.str.json_path_match("$").is_not_null()
    log = text.filter(good).select(line.str.json_decode(schema)).unnest("line")
    answer: Answer
    if job == "per kind":
        frame = log.group_by("kind").agg(pl.len(), pl.col("amount").sum()).collect()
        answer = {k: [n, t] for k, n, t in frame.iter_rows()}
    elif job == "top users":
        totals = log.group_by("user").agg(pl.col("amount").sum().alias("t"))
        frame = totals.sort("t", descending=True).head(10).collect()
        answer = [list(row) for row in frame.iter_rows()]
    elif job == "per hour":
        hours = log.group_by("kind", pl.col("ts").str.slice(0, 13).alias("h")).agg(pl.len())
        answer = {f"{k} {h}": n for k, h, n in hours.collect().iter_rows()}
    elif job == "sort to parquet":
        target = out / "polars.parquet"
        log.sort("user", "ts").sink_parquet(target)
        answer = pl.scan_parquet(target).select(pl.len()).collect().item()
    else:
        table = pl.scan_csv(users, schema={"id": pl.Int64, "name": pl.String, "country": pl.String})
        joined = log.join(table, left_on="user", right_on="id")
        frame = joined.group_by("country").agg(pl.len(), pl.col("amount").sum()).collect()
        answer = {k: [n, t] for k, n, t in frame.iter_rows()}
    return answer, 0


_RUN: dict[str, Callable[[str, Path, Path, Path], tuple[Answer, int]]] = {
    "lazyfun": _lazyfun,
    "duckdb": _duckdb,
    "polars": _polars,
}


def _status(field: str) -> int:
    lines = Path("/proc/self/status").read_text().splitlines()
    return next(int(line.split()[1]) * 1024 for line in lines if line.startswith(field))


def _child(engine: str, job: str, events: Path, users: Path, out: Path) -> None:
    """Run one job of one engine and print its seconds, peak and answer as JSON (and,
    for an analysed lazyfun job, its ``explain``)."""
    start, cpu = time.perf_counter(), time.process_time()
    answer, bad = _RUN[engine](job, events, users, out)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    report = {"seconds": seconds, "cpu": cpu, "peak": _status("VmHWM:"), "answer": answer}
    report["bad"] = bad
    if EXPLAINED and os.environ.get("LAZYFUN_ANALYZE"):
        report["explain"] = EXPLAINED[-1].explain(analyze=True)
        report["rows"] = EXPLAINED[-1].explain(analyze=True, format="dict")
    print(json.dumps(report, default=str))


# --- the run: each job of each engine in a child, the answers set side by side ------


class Run:
    """One job of one engine as its child reported it (an analysed lazyfun job: with
    its ``explain``, as text and as rows)."""

    def __init__(self, report: dict[str, Any]) -> None:
        self.seconds: float = report["seconds"]
        self.cpu: float = report["cpu"]  # the process's CPU seconds: what load changes least
        self.peak: int = report["peak"]
        self.answer: Answer = report["answer"]
        self.bad: int = report["bad"]
        self.explain: str = report.get("explain", "")
        self.rows: list[dict[str, Any]] = report.get("rows", [])


def _in_child(
    engine: str, job: str, events: Path, users: Path, out: Path, analyze: bool = False
) -> Run | str:
    """``job`` run by ``engine`` in a child process; what it failed with, if it did."""
    command = [sys.executable, "-m", "benchmarks.bench_jobs", "--child", engine, job]
    command += [str(events), str(users), str(out)]
    env = {k: v for k, v in os.environ.items() if k != "LAZYFUN_ANALYZE"}
    env |= {"LAZYFUN_ANALYZE": "1"} if analyze else {}
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False, env=env)
    if done.returncode != 0:
        return (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
    return Run(json.loads(done.stdout.strip().splitlines()[-1]))


def _fastest(runs: list[Run | str]) -> Run | str:
    """The fastest of one engine's runs of a job, with the highest peak of them; the
    first failure, if a run failed."""
    failed = [run for run in runs if isinstance(run, str)]
    if failed:
        return failed[0]
    done = [run for run in runs if isinstance(run, Run)]
    best = min(done, key=lambda run: run.seconds)
    best.peak = max(run.peak for run in done)
    return best


def _close(a: object, b: object) -> bool:
    """Two answers the same: counts and keys exactly, sums to 1e-9 of their size."""
    if isinstance(a, float) or isinstance(b, float):
        if not (isinstance(a, int | float) and isinstance(b, int | float)):
            return False
        return math.isclose(a, b, rel_tol=1e-9)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(map(_close, a, b))
    return a == b


def _sorted_alike(out: Path, engine: str) -> bool:
    """Whether ``engine``'s sorted file has lazyfun's rows in lazyfun's order, by the
    key columns ``user`` and ``ts`` (rows of one key may come in any order)."""
    import pyarrow.parquet as pq

    ours = pq.read_table(out / "lazyfun.parquet", columns=["user", "ts"])
    theirs = pq.read_table(out / f"{engine}.parquet", columns=["user", "ts"])
    return bool(ours.equals(theirs.cast(ours.schema)))


def _agrees(job: str, engine: str, run: Run, ours: Run, out: Path) -> bool:
    if not _close(run.answer, ours.answer):
        return False
    return job != "sort to parquet" or engine == "lazyfun" or _sorted_alike(out, engine)


def _installed(engine: str) -> bool:
    if engine == "lazyfun" or importlib.util.find_spec(engine) is not None:
        return True
    print(f"  {engine}: skipped (not installed: pip install 'lazyfun[bench]')")
    return False


def main() -> list[str]:
    """Generate the data once, run every job of every installed engine, print the table
    and the target of each job."""
    events, users = generated()
    out = FOLDER / "out"
    out.mkdir(exist_ok=True)
    engines = [engine for engine in ENGINES if _installed(engine)]
    print(f"five jobs on {LINES:,} lines and {USERS:,} users ({LINES_ENV} sets the lines)")
    print(f"  each engine's fastest of {max(1, ROUNDS)} runs, and its highest peak")
    print(
        f"  {'job':<18}{'engine':<10}{'seconds':>9}{'CPU s':>8}{'peak MB':>9}  agrees with lazyfun"
    )
    verdicts: list[str] = []
    ours_of: dict[str, Run] = {}
    for job in JOBS:
        tried: dict[str, list[Run | str]] = {engine: [] for engine in engines}
        for _ in range(max(1, ROUNDS)):  # the engines take turns
            for engine in engines:
                tried[engine].append(_in_child(engine, job, events, users, out))
        runs = {engine: _fastest(tried[engine]) for engine in engines}
        ours = runs["lazyfun"]
        for engine, run in runs.items():
            if isinstance(run, str):
                print(f"  {job:<18}{engine:<10}  failed: {run}")
                continue
            agrees = "-" if isinstance(ours, str) else _agrees(job, engine, run, ours, out)
            said = {True: "yes", False: "NO", "-": "-"}[agrees]
            extra = f" ({run.bad:,} bad lines reported by number)" if run.bad else ""
            figures = f"{run.seconds:9.2f}{run.cpu:8.2f}{run.peak / 2**20:9.0f}"
            print(f"  {job:<18}{engine:<10}{figures}  {said}{extra}")
        duck = runs.get("duckdb")
        if isinstance(ours, Run) and isinstance(duck, Run):
            ratio, peak = ours.seconds / duck.seconds, ours.peak / duck.peak
            verdicts.append(
                verdict(
                    f"{job}: lazyfun within 3x of DuckDB's time at no more than its peak",
                    ratio <= 3 and peak <= 1,
                    f"{ratio:.1f}x the time, {peak:.2f}x the peak",
                )
            )
        if isinstance(ours, Run):
            ours_of[job] = ours
    _analysed(ours_of, events, users, out)
    return verdicts


def _identity(item: Any) -> Any:
    return item


def _odd(n: int) -> int:
    return n & 1


def analyze_cost(n: int = 1_000_000, rounds: int = 7) -> float:
    """What ``analyze`` costs an item and stage, in nanoseconds of CPU time: a source
    and three steps (``map``, ``filter``, ``catch``) over ``n`` numbers, analysed and
    not, in turn, the best of ``rounds`` each (a job's own time varies by more than the
    counts cost it, so they are measured here, on steps that cost little else)."""
    from collections import deque

    from lazyfun import stream

    def run(on: bool) -> None:
        pipeline = stream(range(n), analyze=on).map(_identity).filter(_odd)
        deque(pipeline.catch(ValueError), maxlen=0)

    best = {False: math.inf, True: math.inf}
    for _ in range(rounds):
        for on in best:
            start = time.process_time()
            run(on)
            best[on] = min(best[on], time.process_time() - start)
    items_and_stages = n * 2 + n // 2 * 2  # the source and the map give n, the rest n / 2
    return (best[True] - best[False]) * 1e9 / items_and_stages


def _analysed(ours: dict[str, Run], events: Path, users: Path, out: Path) -> None:
    """What ``analyze`` costs an item and stage (:func:`analyze_cost`), and where the
    time of the two slowest lazyfun jobs goes: their ``explain(analyze=True)``."""
    print(f"analyze's cost: {analyze_cost():.0f} ns of CPU time an item and stage")
    for job in sorted(ours, key=lambda j: ours[j].seconds)[-2:]:
        run = _in_child("lazyfun", job, events, users, out, analyze=True)
        if isinstance(run, Run):
            print(f"where lazyfun's '{job}' spends its {run.seconds:.1f} s (analysed):")
            print("  " + run.explain.replace("\n", "\n  "))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        engine, job, *paths = sys.argv[2:]
        _child(engine, job, *map(Path, paths))
    else:
        main()
