"""Leaving a concurrent pipeline, any way, ends it: a matrix of the ways to leave (partly
read, an error caught, Ctrl-C, a ``with`` left, dropped without closing) by the places
calls run (threads, processes, a local dask cluster, async tasks).

Each case is a script run in a subprocess.  It prints ``LEAVING`` at the moment it
leaves the pipeline; from there the process must end by itself within five seconds,
with status 0 (130 after Ctrl-C), nothing on stderr that looks like a traceback, and
no thread of lazyfun's still alive once lazyfun's exit hooks have run (a call that
blocks for ever in user code is abandoned on a daemon thread: the process still ends).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

EXIT_SECONDS = 5.0

HEAD = """
import asyncio, atexit, faulthandler, gc, os, signal, sys, threading, time

faulthandler.register(signal.SIGUSR1, all_threads=True)  # a hung case says where it waits

def slow(n):
    time.sleep(0.05)
    if n == 7 and BAD:
        raise ValueError(n)
    return n

def blocks(n):
    if n > 0:
        time.sleep(10**6)  # a call that never returns
    return n

async def slow_async(n):
    await asyncio.sleep(0.05)
    if n == 7 and BAD:
        raise ValueError(n)
    return n

def lazyfun_threads():
    return [t.name for t in threading.enumerate() if t.name.startswith("lazyfun") and t.is_alive()]

def settled():
    # the calls running when the pipeline was left finish on their own (50 ms each; up
    # to 5 s for a machine loaded by the rest of the suite, where 2 s was once short)
    for _ in range(100):
        if not lazyfun_threads():
            return True
        time.sleep(0.05)
    return False

def at_exit():
    # registered before lazyfun is imported, so it runs after lazyfun's exit hooks
    if not BLOCKING and not settled():
        print("lazyfun threads left:", lazyfun_threads(), file=sys.stderr, flush=True)
        os._exit(3)

atexit.register(at_exit)
from lazyfun import astream, stream
"""

PLACES = {
    "threads": "stream(range(10**6)).map({f}, concurrency=4)",
    "process": 'stream(range(10**6)).map({f}, via="process", concurrency=2)',
}
DASK = 'stream(range(10**6)).map({f}, via="dask", concurrency=2)'


SYNC_WAYS = {
    "partly-read": """
        it = iter(make(slow))
        print(next(it), next(it))
        print("LEAVING", flush=True)
    """,
    "error-caught": """
        BAD = True
        try:
            make(slow).to_list()
        except ValueError:
            print("caught")
        print("LEAVING", flush=True)
    """,
    "ctrl-c": """
        try:
            for n in make(slow):
                if n == 2:
                    print("LEAVING", flush=True)
        except KeyboardInterrupt:
            sys.exit(130)
    """,
    "with-left": """
        with make(slow) as s:
            for n in s:
                if n == 3:
                    break
        print(n)
        print("LEAVING", flush=True)
    """,
    "dropped": """
        def first():
            return next(iter(make(slow)))
        print(first())
        gc.collect()
        print("LEAVING", flush=True)
    """,
    "blocked-call": """
        with make(blocks) as s:
            print(next(iter(s)))
        print("LEAVING", flush=True)
    """,
}

ASYNC_WAYS = {
    "partly-read": """
        async def main():
            async for n in astream(range(10**6)).map(F, concurrency=4):
                if n == 2:
                    break
            print(n)
        asyncio.run(main())
        print("LEAVING", flush=True)
    """,
    "error-caught": """
        BAD = True
        async def main():
            try:
                await astream(range(10**6)).map(F, concurrency=4).to_list()
            except ValueError:
                print("caught")
        asyncio.run(main())
        print("LEAVING", flush=True)
    """,
    "ctrl-c": """
        async def main():
            async for n in astream(range(10**6)).map(F, concurrency=4):
                if n == 2:
                    print("LEAVING", flush=True)
        try:
            asyncio.run(main())
        except KeyboardInterrupt:
            sys.exit(130)
    """,
    "with-left": """
        async def main():
            before = asyncio.all_tasks()
            async with astream(range(10**6)).map(F, concurrency=4) as s:
                async for n in s:
                    if n == 3:
                        break
            assert asyncio.all_tasks() == before, asyncio.all_tasks() - before
            print(n)
        asyncio.run(main())
        print("LEAVING", flush=True)
    """,
    "dropped": """
        async def main():
            async for n in astream(range(10**6)).map(F, concurrency=4):
                return n
        print(asyncio.run(main()))
        gc.collect()
        print("LEAVING", flush=True)
    """,
    "blocked-call": """
        async def main():
            async with astream(range(10**6)).map(blocks, concurrency=2) as s:
                async for n in s:
                    return n
        print(asyncio.run(main()))
        print("LEAVING", flush=True)
    """,
}


def _script(body: str, make: str | None, blocking: bool) -> str:
    """The script of one case; its work under ``__main__`` (worker processes import it)."""
    parts = [HEAD, f"BAD, BLOCKING = False, {blocking}"]
    if make is not None:
        parts.append(f"def make(f):\n    return {make.format(f='f')}")
    parts.append('if __name__ == "__main__":\n' + textwrap.indent(textwrap.dedent(body), "    "))
    return "\n".join(parts)


def _run(tmp_path: Path, script: str, interrupt: bool) -> tuple[int, str, float]:
    """Run ``script`` as ``__main__``; the seconds from its LEAVING to its end."""
    path = tmp_path / "leave.py"
    path.write_text(script)
    # in a session of its own, so that a hung case is killed with every process it started
    # (a pool's workers left alive hold its pipes open, and reading them would wait for ever)
    process = subprocess.Popen(
        [sys.executable, str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert process.stdout is not None
    deadline = time.monotonic() + 120  # starting a cluster on a loaded machine
    for line in process.stdout:
        if line.startswith("LEAVING"):
            break
        if time.monotonic() > deadline:
            break
    left = time.monotonic()
    if interrupt:
        process.send_signal(signal.SIGINT)
    try:
        _, err = process.communicate(timeout=EXIT_SECONDS + 25)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGUSR1)  # every thread's stack, to stderr, then killed
        time.sleep(1.0)
        os.killpg(process.pid, signal.SIGKILL)
        _, err = process.communicate()
        return -9, err, float("inf")
    return process.returncode, err, time.monotonic() - left


def _check(status: int, err: str, seconds: float, way: str) -> None:
    assert status == (130 if way == "ctrl-c" else 0), err
    assert "Traceback" not in err, err
    assert seconds < EXIT_SECONDS, f"{seconds:.1f} s to end after leaving"


@pytest.mark.parametrize("way", list(SYNC_WAYS))
@pytest.mark.parametrize("place", list(PLACES))
def test_leaving_a_stream_ends_the_process(tmp_path: Path, place: str, way: str) -> None:
    blocking = way == "blocked-call"
    if blocking and place != "threads":
        pytest.skip("a call blocked for ever is abandoned on a thread; a worker process is not")
    status, err, seconds = _run(
        tmp_path, _script(SYNC_WAYS[way], PLACES[place], blocking), way == "ctrl-c"
    )
    _check(status, err, seconds, way)


# Ctrl-C landing where the main thread has just taken a lock in Condition.__enter__,
# before the with block that lets it go: the case that hung now and then (a future's
# lock left taken, the pool's manager thread waiting on it at exit), made to happen on
# the nth such lock after the stream is left
AT_A_LOCK = """
    _enter = threading.Condition.__enter__
    armed = [-1]
    def enter(self):
        got = _enter(self)
        if armed[0] >= 0 and threading.current_thread() is threading.main_thread():
            armed[0] -= 1
            if armed[0] < 0:
                signal.raise_signal(signal.SIGINT)  # handled here, the lock taken
        return got
    threading.Condition.__enter__ = enter
    try:
        for n in make(slow):
            if n == 2:
                armed[0] = NTH
                print("LEAVING", flush=True)
    except KeyboardInterrupt:
        sys.exit(130)
"""


@pytest.mark.parametrize("nth", [0, 1, 2, 5])
@pytest.mark.parametrize("place", list(PLACES))
def test_ctrl_c_taken_as_a_lock_is_taken_still_ends_the_process(
    tmp_path: Path, place: str, nth: int
) -> None:
    body = AT_A_LOCK.replace("NTH", str(nth))
    status, err, seconds = _run(tmp_path, _script(body, PLACES[place], False), False)
    _check(status, err, seconds, "ctrl-c")


# What the window runs of the user's in this thread: the input it reads, and the call
# the sync runner makes as the task is handed out.  One that never returns must still
# end at Ctrl-C (the window holds Ctrl-C off only while it touches a pool's or a
# future's locks, never around the user's code)
IN_THIS_THREAD = {
    "call": """
    def forever(n):
        if n == 2:
            print("LEAVING", flush=True)
            while True:
                time.sleep(0.01)
        return n
    try:
        for n in stream(range(10)).map(forever, via="sync", concurrency=2):
            pass
    except KeyboardInterrupt:
        sys.exit(130)
    """,
    "source": """
    def source():
        yield from range(3)
        print("LEAVING", flush=True)
        while True:
            time.sleep(0.01)
    try:
        for n in stream(source()).map(slow, via="process", concurrency=2):
            pass
    except KeyboardInterrupt:
        sys.exit(130)
    """,
}


@pytest.mark.parametrize("what", list(IN_THIS_THREAD))
def test_ctrl_c_ends_the_users_code_the_window_runs_in_this_thread(
    tmp_path: Path, what: str
) -> None:
    status, err, seconds = _run(tmp_path, _script(IN_THIS_THREAD[what], None, False), True)
    _check(status, err, seconds, "ctrl-c")


# A cluster takes seconds to start: `make test` leaves it three ways, `make slow` five.
@pytest.mark.parametrize(
    "way",
    [
        pytest.param(way, marks=pytest.mark.slow) if way in ("ctrl-c", "dropped") else way
        for way in SYNC_WAYS
        if way != "blocked-call"
    ],
)
def test_leaving_a_stream_on_dask_ends_the_process(tmp_path: Path, way: str) -> None:
    status, err, seconds = _run(tmp_path, _script(SYNC_WAYS[way], DASK, False), way == "ctrl-c")
    _check(status, err, seconds, way)


@pytest.mark.parametrize("way", list(ASYNC_WAYS))
@pytest.mark.parametrize("function", ["slow", "slow_async"])
def test_leaving_an_async_stream_ends_the_process(tmp_path: Path, way: str, function: str) -> None:
    blocking = way == "blocked-call"
    if blocking and function == "slow_async":
        pytest.skip("the blocking call is a plain function")
    body = textwrap.dedent(ASYNC_WAYS[way]).replace("F,", f"{function},")
    status, err, seconds = _run(tmp_path, _script(body, None, blocking), way == "ctrl-c")
    _check(status, err, seconds, way)


ORPHANS = """
import os, sys, time
from lazyfun import stream

def slow(n):
    time.sleep(0.05)
    return n

if __name__ == "__main__":
    it = iter(stream(range(10**6)).map(slow, via="process", concurrency=2))
    next(it), next(it)
    import multiprocessing
    print(*[p.pid for p in multiprocessing.active_children()], flush=True)
    if sys.argv[1] == "exit":
        os._exit(0)  # no pool shut down, no exit hook
    time.sleep(600)  # until killed
"""


def _alive(pids: list[int]) -> list[int]:
    """Those of ``pids`` still running (not yet reaped zombies count as gone)."""
    alive = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().split(") ")[1][0] != "Z":
                    alive.append(pid)
        except FileNotFoundError:
            continue
    return alive


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("end", ["exit", "kill"])
def test_a_process_pools_workers_end_when_their_process_ends_without_closing_it(
    tmp_path: Path, end: str
) -> None:
    """A script that leaves by ``os._exit`` or is killed outright shuts no pool down: its
    workers, waiting on a queue whose other end they hold themselves, used to live on
    for ever (and a shell reading the script's output waited with them)."""
    path = tmp_path / "orphans.py"
    path.write_text(ORPHANS)
    out = tmp_path / "pids"
    with out.open("w") as pids_file:
        process = subprocess.Popen(
            [sys.executable, str(path), end], stdout=pids_file, start_new_session=True
        )
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 120
        while not out.read_text().endswith("\n") and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = [int(pid) for pid in out.read_text().split()]
        assert len(workers) == 2
        if end == "kill":
            process.kill()
        process.wait(timeout=60)
        deadline = time.monotonic() + 15
        while _alive(workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _alive(workers) == []
    finally:
        process.kill()
        for pid in _alive(workers):
            os.kill(pid, signal.SIGKILL)
