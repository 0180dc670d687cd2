"""lazyfun.runs on a 2-worker LocalCluster: the answers of one process, and faults survived."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest

from lazyfun.parallel import ParallelError, runners
from lazyfun.queens import count_queens
from lazyfun.runs import canon_file, count_queens_parallel, count_solutions_parallel, solve_file
from lazyfun.sudoku import count_solutions, parse, solve
from lazyfun.sudoku.canon import minlex
from tests.clusters import local_cluster
from tests.datafiles import read_lines
from tests.puzzles import PUZZLES

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A 2-worker LocalCluster of processes for the whole module; yields its address."""
    with local_cluster() as address:
        yield address


def test_queens_counts_equal_the_sequential_ones(cluster: str) -> None:
    for n in (8, 10, 11):
        assert count_queens_parallel(n, scheduler=cluster) == count_queens(n)
    assert count_queens_parallel(10, depth=5, scheduler=cluster) == 724
    assert count_queens_parallel(8, 6, scheduler=cluster) == 550  # rectangular: in-process


def _serg(count: int) -> tuple[list[str], list[int]]:
    """The first ``count`` puzzles of the serg benchmark (many solutions each), and
    tdoku's count of each (a public set's sample: skipped where it is absent)."""
    counts = [int(c) for c in read_lines("serg_first20.counts.txt")[:count]]
    return read_lines("serg_first20.txt")[:count], counts


def test_sudoku_counts_equal_the_sequential_ones(cluster: str) -> None:
    assert count_solutions_parallel(parse("0" * 16), scheduler=cluster) == 288
    for puzzle, expected in zip(*_serg(4), strict=True):
        grid = parse(puzzle)
        assert count_solutions_parallel(grid, depth=3, scheduler=cluster) == expected
        assert expected == count_solutions(grid)


def test_batches_come_back_in_input_order_with_bad_lines_in_place(cluster: str) -> None:
    lines = [*PUZZLES[:7], "1234", "# comment", *PUZZLES[7:12]]
    answers = list(solve_file(lines, scheduler=cluster, partition=3))
    assert [a.line for a in answers] == [1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14]
    kinds = [a.kind for a in answers]
    assert kinds == ["solution"] * 7 + ["invalid"] + ["solution"] * 5
    assert answers[7].problem == "unsupported size 2x2 (4 cells); supported: 4x4, 9x9, 16x16, 25x25"
    good = [a for a in answers if a.kind == "solution"]
    assert [str(a.grid) for a in good] == [str(next(solve(parse(p)))) for p in PUZZLES[:12]]


def test_canon_file_matches_minlex_in_order(cluster: str) -> None:
    lines = read_lines("puzzles17_first50.txt")[:30]
    answers = list(canon_file(lines, scheduler=cluster, partition=4))
    assert [str(a.grid) for a in answers] == [str(minlex(parse(p))) for p in lines]


def test_count_and_unique_modes(cluster: str) -> None:
    serg, counts = _serg(3)
    counted = list(solve_file(serg, mode="count", scheduler=cluster, partition=1))
    assert [a.count for a in counted] == counts
    unique = list(solve_file([PUZZLES[0], "0" * 16], mode="unique", scheduler=cluster))
    assert [a.count for a in unique] == [1, 2]
    checked = list(solve_file([PUZZLES[0], "0" * 16], scheduler=cluster))
    assert [(a.count, a.problem) for a in checked] == [(1, None), (2, "more than one solution")]
    first = list(solve_file(["0" * 16], mode="first", scheduler=cluster))
    assert str(first[0].grid) == "1234341221434321"


@pytest.mark.untraced
def test_a_killed_worker_loses_nothing(cluster: str) -> None:
    """Kill one worker process in the middle of a count: dask reruns its tasks."""
    client = distributed.Client(cluster, set_as_default=False)
    try:
        pids = client.run(os.getpid)
        result: list[int] = []
        counting = threading.Thread(
            target=lambda: result.append(count_queens_parallel(13, depth=4, scheduler=cluster))
        )
        counting.start()
        deadline = time.monotonic() + 30
        busy: list[str] = []
        while not busy:
            assert time.monotonic() < deadline, "the count never started"
            busy = [worker for worker, tasks in client.processing().items() if tasks]
            time.sleep(0.005)
        os.kill(pids[busy[0]], signal.SIGKILL)  # a worker with tasks in hand
        counting.join(timeout=120)
        assert result == [count_queens(13)]
        # the nanny starts another worker: the module's later tests find the cluster whole
        client.wait_for_workers(2, timeout=60)
    finally:
        client.close()


def test_sync_scheduler_and_environment_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    assert count_queens_parallel(9, scheduler="sync") == 352
    monkeypatch.setenv(runners.ENVIRONMENT, "sync")
    assert count_solutions_parallel(parse("0" * 16)) == 288


def test_unreachable_scheduler_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runners, "CONNECT_TIMEOUT", "1s")
    with pytest.raises(
        ParallelError, match=r"cannot reach the dask scheduler at tcp://127\.0\.0\.1:9"
    ):
        count_queens_parallel(9, scheduler="tcp://127.0.0.1:9")


def test_bad_arguments() -> None:
    with pytest.raises(ParallelError, match="jobs must be at least 1"):
        count_queens_parallel(9, jobs=0)
    with pytest.raises(ValueError, match="unknown mode"):
        list(solve_file([], mode="fast", scheduler="sync"))  # type: ignore[arg-type]


def test_without_dask_a_process_pool_is_used_and_said_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import builtins

    real_import = builtins.__import__

    def no_dask(name: str, *args: object, **kwargs: object) -> object:
        if name.startswith(("distributed", "dask")):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_dask)
    monkeypatch.setattr(runners, "_warned", False)
    with pytest.warns(RuntimeWarning, match="dask is not installed"):
        assert count_queens_parallel(9, jobs=2) == 352
    assert count_queens_parallel(9, jobs=2) == 352  # no second warning (pytest would fail on it)
    with pytest.raises(ParallelError, match="needs dask"):
        count_queens_parallel(9, scheduler="tcp://127.0.0.1:9")


def test_a_cluster_started_for_a_call_leaves_no_process_behind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    psutil = pytest.importorskip("psutil")
    monkeypatch.delenv(runners.ENVIRONMENT, raising=False)
    me = psutil.Process()
    before = {p.pid for p in me.children(recursive=True)}
    answers = list(canon_file(PUZZLES[:4], jobs=2))
    assert [str(a.grid) for a in answers] == [str(minlex(parse(p))) for p in PUZZLES[:4]]
    deadline = time.monotonic() + 10
    while {p.pid for p in me.children(recursive=True)} - before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert {p.pid for p in me.children(recursive=True)} - before == set()


def test_a_lost_handshake_is_tried_again_and_an_unreachable_scheduler_is_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import distributed

    from lazyfun.parallel.runners import HANDSHAKES, connect

    calls: list[str] = []

    def flaky(address: str, **_: object) -> str:
        calls.append(address)
        if len(calls) < HANDSHAKES:
            raise AssertionError  # distributed's `assert len(msg) == 1`, the race lost
        return "client"

    monkeypatch.setattr(distributed, "Client", flaky)
    assert connect("tcp://here:1") == "client" and len(calls) == HANDSHAKES

    def unreachable(address: str, **_: object) -> str:
        calls.append(address)
        raise OSError("connection refused")

    calls.clear()
    monkeypatch.setattr(distributed, "Client", unreachable)
    with pytest.raises(OSError, match="refused"):
        connect("tcp://here:1")
    assert len(calls) == 1


def test_a_local_cluster_that_never_starts_is_an_error_not_a_hang(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    never = threading.Event()
    tries: list[int] = []

    def stuck(**options: object) -> object:
        tries.append(int(str(options["n_workers"])))
        never.wait()  # as distributed waits for a worker's lost hello
        return object()

    monkeypatch.setattr(runners, "CLUSTER_START_SECONDS", 0.2)
    with pytest.raises(ParallelError, match="did not start in 0 s, 2 times"):
        runners._local_cluster(stuck, 3)
    assert tries == [3, 3]
    never.set()

    def started(**options: object) -> str:
        return "a cluster"

    assert runners._local_cluster(started, 2) == "a cluster"


# A worker killed inside the block, and the one its nanny starts in its place stopped at
# once, before it can say hello: distributed's close then waits for that hello for ever.
LOST_RESTART = """
import os, signal, time
import psutil
from lazyfun.parallel import cluster, runners

runners.CLUSTER_CLOSE_SECONDS = 2
with cluster(jobs=2):
    workers = runners._worker_processes()
    os.kill(min(p.pid for p in workers), signal.SIGKILL)
    deadline = time.monotonic() + 60
    while not (runners._worker_processes() - workers):
        assert time.monotonic() < deadline, "no worker was started in the killed one's place"
        time.sleep(0.001)
    for new in runners._worker_processes() - workers:
        os.kill(new.pid, signal.SIGSTOP)
def living(pid):
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False

# a process killed may still be listed (another thread reaped it): the living ones
print("left the block", sorted(p.pid for p in runners._worker_processes() if living(p.pid)))
"""


@pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="no SIGSTOP here")
def test_a_local_cluster_that_cannot_close_is_left_its_workers_killed() -> None:
    """The block ends, and no worker process outlives it.  Stopped before its hello (the
    case seen nearly every time here), the new worker holds the close until
    CLUSTER_CLOSE_SECONDS (2 s here), and then it is killed and the warning says so;
    stopped just after it, the nanny kills it in the course of the close."""
    done = subprocess.run(
        [sys.executable, "-c", LOST_RESTART], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "left the block []" in done.stdout
    if "RuntimeWarning" in done.stderr:
        assert "did not close in 2 s: its worker processes still running were killed" in done.stderr
