"""The async watching steps: :class:`Observed`, the async ``observe``, over
:class:`~lazyfun.streams.shared.watching.ACounting` (the async ``probe`` step, and the
base of the async progress bar, named here as well), which counts into one
:class:`~lazyfun.trace.Counts`, the object an analysed stream's ``explain`` reads.
And :func:`ametered`: what an analysed async stream hands on, each stage counted (a
step of the chain, so closing the stream closes what is above it).

>>> import asyncio
>>> from lazyfun.streams.aio.asteps import FromSync
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
from typing import Any, TypeVar, cast

from lazyfun.streams.explain import Accounting, Stage, adopted
from lazyfun.streams.shared.parts import Step
from lazyfun.streams.shared.watching import ACounting, Reporting, Watching
from lazyfun.trace import Counts

__all__ = ["ACounting", "Metered", "Observed", "ametered"]

T = TypeVar("T")


class Observed(Reporting, ACounting):
    """The items unchanged, counted and logged as the sync ``observe`` does."""

    def __init__(
        self, source: AsyncIterator[Any], name: str, logger: logging.Logger | None = None
    ) -> None:
        super().__init__(source, Counts())
        self.watching(name, logger, time.monotonic)


def ametered(items: AsyncIterator[T], stage: Stage) -> AsyncIterator[T]:
    """:func:`lazyfun.streams.explain.metered` for an async stream: each item and error
    that leaves the stage counted, and the time awaiting it (a watching step counts
    itself)."""
    if stage.meter is None:
        return items
    if isinstance(items, Watching):
        return cast(AsyncIterator[T], adopted(items, stage))
    return Metered(items, stage)


class Metered(Accounting, Step):
    """The items of ``source``, each item and error counted into the stage's meter; a
    step like any other, so closing the stream closes its source (a step of lazyfun's)."""

    def __init__(self, source: AsyncIterator[Any], stage: Stage) -> None:
        super().__init__(stage)
        self.source = source

    async def __anext__(self) -> Any:
        start = time.perf_counter()
        try:
            item = await anext(self.source)
        except BaseException as error:
            self._stopped(start, error)
            raise
        self._came(start, item)
        return item
