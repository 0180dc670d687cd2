"""Watching a stream go by, counted once, sync or async.

A step that watches the items pass (``observe``'s log, ``progress``'s bar, a trace
Probe's ``probe`` step) is a :class:`Watching` step: it counts each item and error that
passes into one :class:`~lazyfun.trace.Counts`, and shows what it watches from those
counts.  On a stream built to be analysed, :mod:`lazyfun.streams.explain` takes that
same object as the step's counts (and asks the step to time its reads too), so what
``explain(analyze=True)`` says of the step is what its log, its bar or its probe says:
one count, not a second.

The bookkeeping is :class:`Watching`'s, written once; :class:`Counting` (sync) and
:class:`ACounting` (async) each keep only their read of the source and the count of an
item, inline (a call an item would cost a fifth more).  :class:`Reporting` is
``observe``'s watcher, for both.

>>> counts = Counts()
>>> list(Counting(iter("ab"), counts)), counts.items
(['a', 'b'], 2)
"""

from __future__ import annotations

import contextlib
import logging
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any, TypeVar

from lazyfun.streams.shared.parts import Step
from lazyfun.trace import Counts

__all__ = ["NEVER", "ACounting", "Counting", "Reporting", "Watching", "timer"]

T = TypeVar("T")
Clock = Callable[[], float]
timer = time.perf_counter  # what a watching step times its reads by

NEVER = sys.maxsize  # the count at which a step only counted tells no watcher


class Watching:
    """What a watching step does, sync or async, around the reads of its source: the
    counting, the timing once analysed, and the hooks a watcher fills in (:meth:`begin`
    at the first read, :meth:`counted` once the items and errors counted reach ``due``,
    :meth:`ended` at the end), each nothing here.  Between two hooks a read costs no
    call: the step counts an item inline and calls :meth:`passed` only once the count
    reaches ``check`` (``due``; 0 while timed, or before the first read)."""

    counts: Counts
    timed: bool
    begun: bool
    due: int
    check: int

    def watch(self, counts: Counts) -> None:
        """Count into ``counts``; no watcher told yet (``due`` never)."""
        self.counts, self.due, self.check = counts, NEVER, 0
        self.timed = self.begun = False

    def timing(self) -> Counts:
        """Time each read from now on (an analysed stream asks it), and give the counts
        (which it then reads as the step's)."""
        self.timed, self.check = True, 0
        return self.counts

    def starting(self) -> float:
        """A read begins (the first tells :meth:`begin`): when, if timed."""
        if not self.begun:
            self.begun = True
            self.begin()
        self.check = 0 if self.timed else self.due
        return timer() if self.timed else 0.0

    def passed(self, start: float) -> None:
        """An item came from a read that began at ``start``, and the count reached
        ``check``: timed, and the watcher told if it is due."""
        counts = self.counts
        if self.timed:
            counts.seconds += timer() - start
        if counts.items + counts.errors >= self.due:
            self.counted(False)
        self.check = 0 if self.timed else self.due

    def stopped(self, start: float, error: BaseException) -> None:
        """A read that began at ``start`` raised ``error``: the end (StopIteration,
        StopAsyncIteration), or an error of the stream (an :class:`Exception`: an
        interrupt is none), counted, timed, told."""
        counts, timed = self.counts, self.timed
        if isinstance(error, (StopIteration, StopAsyncIteration)):
            if timed:
                counts.seconds += timer() - start
            self.ended()
        elif isinstance(error, Exception):
            counts.errors += 1
            if timed:
                counts.seconds += timer() - start
            if counts.items + counts.errors >= self.due:
                self.counted(True)
            self.check = 0 if self.timed else self.due

    def begin(self) -> None:
        """The first read begins."""

    def counted(self, error: bool) -> None:
        """The items and errors counted reached ``due``, the last an item (or an
        ``error``)."""

    def ended(self) -> None:
        """The source has no more items."""


class Counting(Watching, Iterator[T]):
    """The items of ``source`` unchanged, each item and error counted into ``counts``
    (an :class:`Exception`: an interrupt is no error of the stream)."""

    def __init__(self, source: Iterator[T], counts: Counts) -> None:
        self.source = source
        self.watch(counts)

    def __next__(self) -> T:
        start = self.starting() if not self.check else 0.0
        try:
            item = next(self.source)
        except BaseException as error:
            self.stopped(start, error)
            raise
        counts = self.counts
        counts.items += 1
        if counts.items + counts.errors >= self.check:
            self.passed(start)
        return item


class ACounting(Watching, Step):
    """The items of an async ``source`` unchanged, each item and error counted into
    ``counts``; closing it closes the source (a step of lazyfun's)."""

    def __init__(self, source: AsyncIterator[Any], counts: Counts) -> None:
        self.source = source
        self.watch(counts)

    async def __anext__(self) -> Any:
        start = self.starting() if not self.check else 0.0
        try:
            item = await anext(self.source)
        except BaseException as error:
            self.stopped(start, error)
            raise
        counts = self.counts
        counts.items += 1
        if counts.items + counts.errors >= self.check:
            self.passed(start)
        return item


class Reporting(Watching):
    """``observe``'s watcher: the counts of items and errors and the time since the first
    read, logged at growing intervals (after 1, 2, 4, 8, ... items or errors) and at the
    end through :mod:`logging` (logger ``lazyfun.observe``, level INFO)."""

    name: str
    logger: logging.Logger
    clock: Clock
    started: float | None

    def watching(self, name: str, logger: logging.Logger | None, clock: Clock) -> None:
        """Set the watcher up: to log under ``name``, timed by ``clock``."""
        self.name, self.clock = name, clock
        self.logger = logger or logging.getLogger("lazyfun.observe")
        self.due = 1
        self.started = None

    def begin(self) -> None:
        """The clock starts at the first read."""
        self.started = self.clock()

    def counted(self, error: bool) -> None:
        """A report, and the next when the count has doubled."""
        self.due *= 2
        self.report()

    def ended(self) -> None:
        """The last report."""
        self.report(final=True)

    def report(self, final: bool = False) -> None:
        """Log the counts; a logger or handler that raises is left to itself (logging never
        breaks the work it watches: the report is lost, the items are not)."""
        started = self.clock() if self.started is None else self.started
        with contextlib.suppress(Exception):
            self.logger.info(
                "%s: %d items, %d errors, %.3f s%s",
                self.name,
                self.counts.items,
                self.counts.errors,
                self.clock() - started,
                " (done)" if final else "",
            )
