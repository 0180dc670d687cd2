"""Watching a stream go by, counted once.

A step that watches the items pass (``observe``'s log, ``progress``'s bar, a trace
Probe's ``probe`` step) is a :class:`Watching` step: it counts each item and error that
passes into one :class:`~lazyfun.trace.Counts`, and shows what it watches from those
counts.  On a stream built to be analysed, :mod:`lazyfun.streams.explain` takes that
same object as the step's counts (and asks the step to time its reads too), so what
``explain(analyze=True)`` says of the step is what its log, its bar or its probe says:
one count, not a second.

:class:`Counting` is the sync step (its async twin, ``ACounting``, is in
:mod:`lazyfun.streams.aobserving`); :class:`Observe` the sync ``observe``, logging the
counts through :class:`Reporting`, which the async one shares.
"""

from __future__ import annotations

import contextlib
import logging
import sys
import time
from collections.abc import Callable, Iterator
from typing import TypeVar

from lazyfun.trace import Counts

__all__ = ["NEVER", "Counting", "Observe", "Reporting", "Watching", "timer"]

T = TypeVar("T")
Clock = Callable[[], float]
timer = time.perf_counter  # what a watching step times its reads by


class Watching:
    """What a watching step does, sync or async, around the reads of its source: the
    counting, the timing once analysed, and the hooks a watcher fills in (:meth:`begin`
    at the first read, :meth:`counted` once the items and errors counted reach ``due``,
    :meth:`ended` at the end), each nothing here.  Between two hooks a read costs no
    call: a log every few items, or none, costs nothing on the others."""

    counts: Counts
    timed: bool
    begun: bool
    due: int

    def timing(self) -> Counts:
        """Time each read from now on (an analysed stream asks it), and give the counts
        (which it then reads as the step's)."""
        self.timed = True
        return self.counts

    def failed(self, start: float) -> None:
        """A read that began at ``start`` raised an error: counted, timed, told."""
        counts = self.counts
        counts.errors += 1
        if self.timed:
            counts.seconds += timer() - start
        if counts.items + counts.errors >= self.due:
            self.counted(True)

    def end(self, start: float) -> None:
        """A read that began at ``start`` found the end."""
        if self.timed:
            self.counts.seconds += timer() - start
        self.ended()

    def begin(self) -> None:
        """The first read begins."""

    def counted(self, error: bool) -> None:
        """The items and errors counted reached ``due``, the last an item (or an
        ``error``)."""

    def ended(self) -> None:
        """The source has no more items."""


NEVER = sys.maxsize  # the count at which a step only counted tells no watcher


class Counting(Watching, Iterator[T]):
    """The items of ``source`` unchanged, each item and error counted into ``counts``
    (an :class:`Exception`: an interrupt is no error of the stream).

    >>> counts = Counts()
    >>> list(Counting(iter("ab"), counts)), counts.items
    (['a', 'b'], 2)
    """

    __slots__ = ("begun", "counts", "due", "source", "timed")

    def __init__(self, source: Iterator[T], counts: Counts) -> None:
        self.source, self.counts, self.due = source, counts, NEVER
        self.timed = self.begun = False

    def __next__(self) -> T:
        if not self.begun:
            self.begun = True
            self.begin()
        start = timer() if self.timed else 0.0
        try:
            item = next(self.source)
        except StopIteration:
            self.end(start)
            raise
        except Exception:
            self.failed(start)
            raise
        counts = self.counts
        counts.items += 1
        if self.timed:
            counts.seconds += timer() - start
        if counts.items + counts.errors >= self.due:
            self.counted(False)
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


class Observe(Reporting, Counting[T]):
    """The items unchanged, counted and logged (:class:`Reporting`).

    >>> list(Observe(iter("ab"), "letters"))
    ['a', 'b']
    """

    def __init__(
        self,
        source: Iterator[T],
        name: str,
        logger: logging.Logger | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        super().__init__(source, Counts())
        self.watching(name, logger, clock)
