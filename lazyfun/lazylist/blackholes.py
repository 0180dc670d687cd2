"""Blackholes: how a LazyList cell is computed once when threads share it.

While a cell is being computed its code is :func:`loop` and its owner is the
forcing state (:class:`Nesting`) of the thread computing it, GHC's blackhole.
Another thread that needs the cell waits for it (:func:`wait_for`); the same
thread needing it again is a loop, reported as :class:`LazyListLoop`, and so is
a cycle through threads waiting on each other.  A cell whose source iterator
raised keeps the exception as its code (:class:`Failed`), so every reader sees
the same cells.  Installed from source, this module is compiled with mypyc with
:mod:`lazyfun.lazylist`.
"""

from __future__ import annotations

import sys
import threading
import weakref
from collections.abc import Callable
from types import TracebackType
from typing import Final, NoReturn, Protocol

__all__ = ["BLACKHOLE", "CLAIM_IS_ATOMIC", "MAX_NESTING", "WAIT_TICK", "LazyListLoop", "Nesting"]


class Cell(Protocol):
    """What waiting needs of a cell: its owner while it is being computed."""

    @property
    def _owner(self) -> Nesting | None: ...


class LazyListLoop(Exception):
    """A list that needs its own cell to compute that cell (GHC's ``<<loop>>``), in one
    thread or through several that wait for each other."""


def loop() -> NoReturn:
    """The code of a cell while it is being computed (a blackhole, in GHC's words)."""
    raise LazyListLoop("this LazyList cell depends on itself (<<loop>>)")


# ``loop`` as a constant: compiled, a function's name is looked up in the module's
# dict at each use, a Final is read directly (claiming a cell compares with it)
BLACKHOLE: Final[Callable[[], NoReturn]] = loop


class Failed:
    """The code of a cell whose source raised: it raises the same exception again, so
    everyone who reads the list sees the same cells (the source cannot be replayed)."""

    def __init__(self, error: Exception) -> None:
        self.error = error
        self.traceback: TracebackType | None = error.__traceback__

    def __call__(self) -> NoReturn:
        raise self.error.with_traceback(self.traceback)


class Nesting:
    """One thread's forcing: how many cells it is computing inside one another right
    now.  The object itself stands for the thread as a cell's owner."""

    def __init__(self) -> None:
        self.nested = 0


class Waiting:
    """The threads waiting for a cell that another thread is computing, and on which."""

    def __init__(self) -> None:
        self.count = 0
        self.on: dict[Nesting, Cell] = {}


# Compiled, a cell computed inside another uses C stack, not Python frames, so
# Python's recursion limit does not stop a runaway nesting before the C stack
# overflows (about 40,000 levels here); this limit does, with a clear error.
MAX_NESTING: Final = 10_000
THREAD: Final = threading.local()  # each thread's Nesting
# Claiming a cell (is it computed? is another thread computing it?) happens under
# one lock; a thread that finds a cell claimed by another waits on CHANGED.
LOCK: Final = threading.Lock()
CHANGED: Final = threading.Condition(LOCK)
WAITING: Final = Waiting()
WAIT_TICK: Final = 0.1  # how often a waiting thread looks again (and can be interrupted)
GIL: Final = getattr(sys, "_is_gil_enabled", lambda: True)()
# see _claim; compiled by an older mypyc (1.14) the module has no __file__ while it loads
CLAIM_IS_ATOMIC: Final = GIL and not globals().get("__file__", "").endswith(".py")


class Recent:
    """The thread that asked for its Nesting last, with it: most forcing is done by one
    thread, and comparing its ident costs half a thread-local lookup.  One pair, read at
    once, so a thread never sees another's ident with its own Nesting."""

    def __init__(self) -> None:
        self.pair: tuple[int, Nesting] = (0, Nesting())  # 0 is no thread's ident


RECENT: Final = Recent()
IDENT: Final = threading.get_ident


def forget(ident: int) -> None:
    """A thread ends: its ident may be another's soon, so it is no longer the recent one."""
    if RECENT.pair[0] == ident:
        RECENT.pair = (0, Nesting())


def nesting() -> Nesting:
    """This thread's Nesting (made at its first forcing, kept until it ends)."""
    ident = IDENT()
    pair = RECENT.pair
    if pair[0] == ident:
        return pair[1]
    try:
        depth: Nesting = THREAD.depth
    except AttributeError:
        depth = THREAD.depth = Nesting()
        THREAD.ending = ending = threading.Lock()  # dropped when the thread ends
        weakref.finalize(ending, forget, ident)
    RECENT.pair = (ident, depth)
    return depth


def wait_for(cell: Cell, me: Nesting) -> None:
    """With the lock held: wait until ``cell`` is no longer being computed by another
    thread; raise LazyListLoop when that thread is this one or waits on this one."""
    owner = cell._owner
    if owner is me:
        loop()
    other: Nesting | None = owner
    for _ in range(len(WAITING.on) + 1):
        waited = WAITING.on.get(other) if other is not None else None
        if waited is None:
            break
        other = waited._owner
        if other is me:
            raise LazyListLoop(
                "this LazyList cell depends on itself through another thread that is "
                "waiting for a cell this thread is computing (<<loop>>)"
            )
    WAITING.count += 1
    WAITING.on[me] = cell
    try:
        CHANGED.wait(WAIT_TICK)
    finally:
        del WAITING.on[me]
        WAITING.count -= 1


def release() -> None:
    """Wake the threads waiting for a cell, if there are any (after a cell is done)."""
    if WAITING.count:
        LOCK.acquire()
        try:
            CHANGED.notify_all()
        finally:
            LOCK.release()
