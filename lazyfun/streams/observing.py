"""Watching a stream go by: :class:`Tally` counts a step's items and errors and logs them
at growing intervals; :class:`Observe` is the sync ``observe`` step over it (the async
one, in :mod:`lazyfun.streams.asteps`, shares the tally)."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Iterator
from typing import TypeVar

T = TypeVar("T")
Clock = Callable[[], float]


class Tally:
    """``name``'s counts of items and errors and the time since the first read, logged
    at growing intervals (after 1, 2, 4, 8, ... items or errors) and at the end through
    :mod:`logging` (logger ``lazyfun.observe``, level INFO).  Shared by the sync and
    the async ``observe``."""

    __slots__ = ("clock", "errors", "items", "logger", "name", "next_report", "started")

    def __init__(
        self, name: str, logger: logging.Logger | None = None, clock: Clock = time.monotonic
    ) -> None:
        self.name, self.clock = name, clock
        self.logger = logger or logging.getLogger("lazyfun.observe")
        self.items = self.errors = 0
        self.next_report = 1
        self.started: float | None = None

    def reading(self) -> None:
        """A read begins (the clock starts at the first)."""
        if self.started is None:
            self.started = self.clock()

    def count(self, error: bool) -> None:
        """One more item, or one more error; a report when the count doubles."""
        if error:
            self.errors += 1
        else:
            self.items += 1
        if self.items + self.errors >= self.next_report:
            self.next_report *= 2
            self.report()

    def report(self, final: bool = False) -> None:
        """Log the counts; a logger or handler that raises is left to itself (logging never
        breaks the work it watches: the report is lost, the items are not)."""
        started = self.clock() if self.started is None else self.started
        with contextlib.suppress(Exception):
            self.logger.info(
                "%s: %d items, %d errors, %.3f s%s",
                self.name,
                self.items,
                self.errors,
                self.clock() - started,
                " (done)" if final else "",
            )


class Observe(Iterator[T]):
    """The items unchanged, counted and logged by a :class:`Tally`.

    >>> list(Observe(iter("ab"), "letters"))
    ['a', 'b']
    """

    __slots__ = ("source", "tally")

    def __init__(
        self,
        source: Iterator[T],
        name: str,
        logger: logging.Logger | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        self.source, self.tally = source, Tally(name, logger, clock)

    def __next__(self) -> T:
        self.tally.reading()
        try:
            item = next(self.source)
        except StopIteration:
            self.tally.report(final=True)
            raise
        except Exception:
            self.tally.count(error=True)
            raise
        self.tally.count(error=False)
        return item
