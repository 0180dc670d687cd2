"""A Stream's ``take``, ``catch`` and ``throttle``, through the C flow engine when it
was built: the same steps as :mod:`lazyfun.streams.steps`, with the same behaviour.

The Python forms there pass the items through C builtins (``islice``, ``compress``,
``chain``), with a generator at each stretch's end; even so ``catch`` cost over twice
a plain loop per item.  ``lazyfun/streams/_flow.c`` does each in one C iterator:
``Guarded`` recovers what ``catch`` is given to, with the same :class:`Recovery`;
``Counted`` passes at most ``n`` items on, exceptions uncounted, and is ``take`` itself
and each of a throttle's stretches.  Where the engine was not built, or
``LAZYFUN_PURE=1`` is set, the Python forms run.

>>> list(take(iter("abcd"), 2)), list(catch(iter([1, 2]), Recovery(())))
(['a', 'b'], [1, 2])
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable, Iterator
from itertools import chain
from typing import TypeVar

from lazyfun.compiled import PURE_ENV
from lazyfun.parallel.window import Holding
from lazyfun.streams import steps
from lazyfun.streams.steps import DROPPED, Clock, Pace, Recovery, Sleep, next_of

try:
    from lazyfun.streams import _flow  # the C engine, which import-linter cannot read
except ImportError:  # built without a C compiler
    BUILT = False
else:
    BUILT = not os.environ.get(PURE_ENV)

__all__ = ["BUILT", "catch", "counted_throttle", "take", "throttle"]

T = TypeVar("T")


def take(source: Iterator[T], n: int) -> Iterator[T]:
    """:func:`lazyfun.streams.steps.take`: the first ``n`` items that come through,
    closing a concurrent step right above it once the last is read."""
    if not BUILT:
        return steps.take(source, n)
    return _flow.Counted(  # pyright: ignore[reportPossiblyUnboundVariable] (only when BUILT)
        source, min(n, sys.maxsize), source.close if isinstance(source, Holding) else None
    )


def catch(source: Iterator[T], recovery: Recovery) -> Iterator[T]:
    """:func:`lazyfun.streams.steps.catch`: upstream exceptions handled by ``recovery``."""
    if not BUILT:
        return steps.catch(source, recovery)
    return _flow.Guarded(  # pyright: ignore[reportPossiblyUnboundVariable] (only when BUILT)
        source, recovery, DROPPED
    )


def throttle(
    source: Iterator[T],
    count: int,
    per: float,
    clock: Clock = time.monotonic,
    sleep: Sleep = time.sleep,
) -> Iterator[T]:
    """:func:`lazyfun.streams.steps.throttle`: at most ``count`` items in any ``per``
    seconds."""
    if not BUILT:
        return steps.throttle(source, count, per, clock, sleep)
    return counted_throttle(source, count, per, clock, sleep)


def counted_throttle(
    source: Iterator[T], count: int, per: float, clock: Clock, sleep: Sleep
) -> Iterator[T]:
    """The throttle of C stretches: each is the same ``Counted``, given the stretch's
    allowance, read on by ``chain`` after an error inside it (the Python form's
    ``islice`` ends there instead, and the stretch after it is shorter)."""
    metered = _flow.Counted(source, 0)  # pyright: ignore[reportPossiblyUnboundVariable]
    pace = Pace(count, per, clock, sleep)

    def segments() -> Iterator[Iterable[T]]:
        while True:
            allowed = metered.left = pace.allow()
            rest = None
            if allowed == 1:
                rest = next_of(metered)  # read here, so dated exactly
                if rest is None:
                    return
            else:
                yield metered
            pace.passed(allowed - metered.left)
            if rest is not None:
                yield rest

    return chain.from_iterable(segments())
