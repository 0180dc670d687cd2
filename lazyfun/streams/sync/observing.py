"""Watching a stream go by, sync: :class:`Observe`, the sync ``observe``, its items
counted (:class:`~lazyfun.streams.shared.watching.Counting`) and the counts logged at
growing intervals (:class:`~lazyfun.streams.shared.watching.Reporting`, which the async
``observe`` shares).  The counting itself, one count a step, read by ``explain``, the
bar and a Probe alike, is the shared base's (:mod:`lazyfun.streams.shared.watching`);
``Counting``, the sync ``probe`` step, is named here as well.

>>> list(Observe(iter("ab"), "letters"))
['a', 'b']
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from typing import TypeVar

from lazyfun.streams.shared.watching import Clock, Counting, Reporting
from lazyfun.trace import Counts

__all__ = ["Counting", "Observe"]

T = TypeVar("T")


class Observe(Reporting, Counting[T]):
    """The items unchanged, counted and logged (:class:`Reporting`)."""

    def __init__(
        self,
        source: Iterator[T],
        name: str,
        logger: logging.Logger | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        super().__init__(source, Counts())
        self.watching(name, logger, clock)
