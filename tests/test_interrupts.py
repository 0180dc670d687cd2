"""Ctrl-C held off where the main thread holds a pool's locks
(:mod:`lazyfun.parallel.interrupts`), each case a script of its own: a real SIGINT."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

HEAD = """
import signal, sys, threading
from lazyfun.parallel.interrupts import HeldInterrupts

def case(body):
    try:
        body()
    except KeyboardInterrupt:
        print("raised", flush=True)
"""

CASES = {
    # noted in the block, raised at its end: what ran after the signal ran
    "held": (
        """
        def body():
            with HeldInterrupts():
                signal.raise_signal(signal.SIGINT)
                print("went on", flush=True)
            print("after", flush=True)
        case(body)
        """,
        ["went on", "raised"],
    ),
    # in a wait, raised at once; one noted before a wait, raised as the wait begins
    "waiting": (
        """
        def body():
            with HeldInterrupts() as held:
                with held.open():
                    signal.raise_signal(signal.SIGINT)
                    print("not reached", flush=True)
        case(body)
        def noted():
            with HeldInterrupts() as held:
                signal.raise_signal(signal.SIGINT)
                with held.open():
                    print("not reached", flush=True)
        case(noted)
        """,
        ["raised", "raised"],
    ),
    # nested: raised at the outer block's end, or in the inner one's wait
    "nested": (
        """
        def body():
            with HeldInterrupts():
                with HeldInterrupts():
                    signal.raise_signal(signal.SIGINT)
                print("outer goes on", flush=True)
        case(body)
        def inner_wait():
            with HeldInterrupts():
                with HeldInterrupts() as inner, inner.open():
                    signal.raise_signal(signal.SIGINT)
                    print("not reached", flush=True)
        case(inner_wait)
        print(signal.getsignal(signal.SIGINT) is signal.default_int_handler, flush=True)
        """,
        ["outer goes on", "raised", "raised", "True"],
    ),
    # a handler of the user's own is left in place, and called as the signal comes
    "own handler": (
        """
        signal.signal(signal.SIGINT, lambda *_: print("own", flush=True))
        def body():
            with HeldInterrupts():
                signal.raise_signal(signal.SIGINT)
                print("went on", flush=True)
        case(body)
        """,
        ["own", "went on"],
    ),
    # an error under way in the block: the Ctrl-C noted is raised over it, as it came
    "error": (
        """
        def body():
            try:
                with HeldInterrupts():
                    signal.raise_signal(signal.SIGINT)
                    raise ValueError("in the block")
            except ValueError as error:
                print(error, flush=True)
        case(body)
        print(signal.getsignal(signal.SIGINT) is signal.default_int_handler, flush=True)
        """,
        ["raised", "True"],
    ),
    # off the main thread the block changes nothing (only the main thread has handlers)
    "thread": (
        """
        def inside():
            with HeldInterrupts() as held, held.open():
                print(signal.getsignal(signal.SIGINT) is signal.default_int_handler, flush=True)
        thread = threading.Thread(target=inside)
        thread.start()
        thread.join()
        """,
        ["True"],
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_ctrl_c_in_a_held_block_is_raised_where_no_lock_is_held(name: str) -> None:
    body, expected = CASES[name]
    script = HEAD + textwrap.dedent(body)
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:-1] == expected, done.stderr
