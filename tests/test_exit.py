"""Leaving a pipeline half read, or after an error, lets the process end: each script
runs in a subprocess that must exit by itself, with status 0 and no traceback (a hung
process is killed at the timeout, which fails the test)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

PARTLY_READ_THREADS = """
    import time
    from lazyfun import stream

    def slow(x):
        time.sleep(0.2)
        return x

    it = iter(stream(range(1000)).map(slow, concurrency=4))
    print(next(it))
"""

ERROR_CAUGHT = """
    from lazyfun import stream

    def bad(x):
        raise ValueError(x)

    try:
        stream(range(100)).map(bad, concurrency=4).to_list()
    except ValueError:
        print("caught")
"""

PARTLY_READ_PROCESSES = """
    import time
    from lazyfun import stream

    def slow(x):
        time.sleep(0.2)
        return x

    if __name__ == "__main__":
        it = iter(stream(range(1000)).map(slow, via="process", concurrency=2))
        print(next(it))
"""

DROPPED_IN_A_FUNCTION = """
    from lazyfun import stream

    def first_square():
        return next(iter(stream(range(10**6)).map(lambda n: n * n, concurrency=4)))

    print(first_square())
"""


@pytest.mark.parametrize(
    ("script", "printed"),
    [
        (PARTLY_READ_THREADS, "0"),
        (ERROR_CAUGHT, "caught"),
        (PARTLY_READ_PROCESSES, "0"),
        (DROPPED_IN_A_FUNCTION, "0"),
    ],
    ids=["partly-read-threads", "error-caught", "partly-read-processes", "dropped"],
)
def test_the_process_ends_cleanly(script: str, printed: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [printed]
    assert "Traceback" not in done.stderr
