"""Ctrl-C held off while the main thread holds a pool's locks: :class:`HeldInterrupts`.

Python raises ``KeyboardInterrupt`` at the next bytecode the main thread runs, and that
may be inside ``threading.Condition.__enter__``, once its lock is taken and before the
``with`` block that would let it go has begun (a known hole of the ``with`` statement).
The lock stays taken for good.  A window of tasks takes its futures' locks (``done``,
``result``, ``add_done_callback``) and its pool's (``submit``) many times an item, so a
Ctrl-C now and then left a future's lock taken, and at exit the process pool's manager
thread, setting that future's outcome, waited on it for ever: the process hung.

Within ``HeldInterrupts()``, a Ctrl-C is noted, not raised, and raised as the block
ends, where no such lock is held; within its :meth:`~HeldInterrupts.open`, where the
thread only waits (on a lock of its own, whose wait a signal ends cleanly) or runs the
user's code (reading the input, a call the sync runner makes here), it is raised at
once, so a wait or a call that never ends can always be left.  Only in the main
thread, and only where Ctrl-C raises ``KeyboardInterrupt``
(``signal.default_int_handler``): a handler of the user's own is left alone.

>>> with HeldInterrupts() as held, held.open():
...     print("a wait that Ctrl-C ends at once")
a wait that Ctrl-C ends at once
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

__all__ = ["HeldInterrupts"]


class _Held:
    """What the blocks in place share (the main thread's alone): how deep they nest,
    whether a Ctrl-C was noted, and how many open stretches are under way."""

    depth = 0
    noted = False
    opened = 0


def _interrupted(signum: int, frame: FrameType | None) -> None:
    """The handler while a block holds Ctrl-C off."""
    if _Held.opened:
        raise KeyboardInterrupt
    _Held.noted = True


class HeldInterrupts:
    """A block in which Ctrl-C is raised only at its end, or in its :meth:`open`.
    Blocks nest (a window reading another): Ctrl-C is raised at the outer one's end,
    or in any one's open stretch."""

    __slots__ = ("held",)

    def __init__(self) -> None:
        self.held = False  # whether this block is one of those holding Ctrl-C off

    def __enter__(self) -> HeldInterrupts:
        if threading.current_thread() is not threading.main_thread():
            return self
        if _Held.depth == 0:
            if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
                return self
            signal.signal(signal.SIGINT, _interrupted)
        _Held.depth += 1
        self.held = True
        return self

    @contextmanager
    def open(self) -> Iterator[None]:
        """A stretch within the block where Ctrl-C is raised at once (one noted before
        too): a wait, or the user's code (which may run for ever)."""
        if not self.held:
            yield
            return
        if _Held.noted:
            _Held.noted = False
            raise KeyboardInterrupt
        _Held.opened += 1
        try:
            yield
        finally:
            _Held.opened -= 1

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if not self.held:
            return
        self.held = False
        _Held.depth -= 1
        if _Held.depth:
            return
        signal.signal(signal.SIGINT, signal.default_int_handler)
        if _Held.noted:
            _Held.noted = False
            if kind is None or not issubclass(kind, KeyboardInterrupt):
                raise KeyboardInterrupt  # as it would have come, over an error under way
