"""The async watching steps: :class:`ACounting`, the async twin of
:class:`~lazyfun.streams.observing.Counting` (the async ``probe`` step, and the base of
the async progress bar), and :class:`Observed`, the async ``observe``.  Each counts into
one :class:`~lazyfun.trace.Counts`, the object an analysed stream's ``explain`` reads.

>>> import asyncio
>>> from lazyfun.streams.asteps import FromSync
>>> counts = Counts()
>>> async def read():
...     return [x async for x in ACounting(FromSync("ab"), counts)]
>>> asyncio.run(read()), counts.items
(['a', 'b'], 2)
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator
from typing import Any

from lazyfun.streams.asteps import Step
from lazyfun.streams.observing import NEVER, Reporting, Watching, timer
from lazyfun.trace import Counts

__all__ = ["ACounting", "Observed"]


class ACounting(Watching, Step):
    """The items of ``source`` unchanged, each item and error counted into ``counts``;
    closing it closes the source (a step of lazyfun's)."""

    __slots__ = ("begun", "counts", "due", "source", "timed")

    def __init__(self, source: AsyncIterator[Any], counts: Counts) -> None:
        self.source, self.counts, self.due = source, counts, NEVER
        self.timed = self.begun = False

    async def __anext__(self) -> Any:
        if not self.begun:
            self.begun = True
            self.begin()
        start = timer() if self.timed else 0.0
        try:
            item = await anext(self.source)
        except StopAsyncIteration:
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


class Observed(Reporting, ACounting):
    """The items unchanged, counted and logged as the sync ``observe`` does."""

    def __init__(
        self, source: AsyncIterator[Any], name: str, logger: logging.Logger | None = None
    ) -> None:
        super().__init__(source, Counts())
        self.watching(name, logger, time.monotonic)
