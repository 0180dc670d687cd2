"""A Stream's ``take``, ``catch`` and ``throttle``, through the C flow engine when it
was built: the same steps as :mod:`lazyfun.streams.sync.steps`, with the same behaviour.

The Python forms there pass the items through C builtins (``islice``, ``compress``,
``chain``), with a generator at each stretch's end; even so ``catch`` cost over twice
a plain loop per item.  The C of ``lazyfun/streams/sync/flow_c`` does each in one C iterator:
``Guarded`` recovers what ``catch`` is given to, with the same :class:`Recovery`;
``Counted`` passes at most ``n`` items on, exceptions uncounted, and is ``take`` itself;
given a ``refill`` that waits for the next allowance, it is a throttle; ``FlatMapped``
reads each ``f(x)`` in turn, with no generator between them; ``Probe`` is a hash join's
probe, pairing each item with its rows.  Where the
engine was not built, or ``LAZYFUN_PURE=1`` is set, the Python forms run.

>>> list(take(iter("abcd"), 2)), list(catch(iter([1, 2]), Recovery(())))
(['a', 'b'], [1, 2])
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from lazyfun.compiled import PURE_ENV
from lazyfun.parallel.window import Holding
from lazyfun.streams.fields import attribute_name, field_name
from lazyfun.streams.joins import MISSING, HashTable
from lazyfun.streams.shared.parts import DROPPED, Clock, Recovery, Sleep
from lazyfun.streams.sync import steps
from lazyfun.streams.sync.steps import Pace

try:
    from lazyfun.streams.sync import _flow  # the C engine, which import-linter cannot read
except ImportError:  # built without a C compiler
    BUILT = False
else:
    BUILT = not os.environ.get(PURE_ENV)

__all__ = ["BUILT", "catch", "counted_throttle", "flat_map", "probe", "take", "throttle"]

T = TypeVar("T")
U = TypeVar("U")


def take(source: Iterator[T], n: int) -> Iterator[T]:
    """:func:`lazyfun.streams.sync.steps.take`: the first ``n`` items that come through,
    closing a concurrent step right above it once the last is read."""
    if not BUILT:
        return steps.take(source, n)
    return _flow.Counted(  # pyright: ignore[reportPossiblyUnboundVariable] (only when BUILT)
        source, min(n, sys.maxsize), source.close if isinstance(source, Holding) else None
    )


def flat_map(source: Iterator[T], f: Callable[[T], Iterable[U]]) -> Iterator[U]:
    """:func:`lazyfun.streams.sync.steps.flat_map`: the items of ``f(x)`` for each ``x``, an
    error at its place (``_flow.FlatMapped``: no generator between the inner iterators).
    """
    if not BUILT:
        return steps.flat_map(source, f)
    return _flow.FlatMapped(  # pyright: ignore[reportPossiblyUnboundVariable] (only when BUILT)
        source, f
    )


def probe(
    source: Iterator[Any], key: Callable[[Any], Any], table: HashTable[Any], left: bool
) -> Iterator[tuple[Any, Any]]:
    """A hash join's pairs, ``table`` filled: each item of ``source`` with each row of its
    key (``_flow.Probe``: no generator between an item and its pairs; an error passes on
    at its place and the next read goes on), as ``vsteps``' Python loop gives them.  The
    engine must be built (:data:`BUILT`)."""
    return _flow.Probe(  # pyright: ignore[reportPossiblyUnboundVariable] (only when BUILT)
        source,
        key,
        field_name(key) or attribute_name(key),
        table.first,
        table.index,
        table.more,
        table.matching,
        table.check,
        MISSING,
        left,
    )


def catch(source: Iterator[T], recovery: Recovery) -> Iterator[T]:
    """:func:`lazyfun.streams.sync.steps.catch`: upstream exceptions handled by ``recovery``."""
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
    """:func:`lazyfun.streams.sync.steps.throttle`: at most ``count`` items in any ``per``
    seconds."""
    if not BUILT:
        return steps.throttle(source, count, per, clock, sleep)
    return counted_throttle(source, count, per, clock, sleep)


def counted_throttle(
    source: Iterator[T], count: int, per: float, clock: Clock, sleep: Sleep
) -> Iterator[T]:
    """The throttle as one ``Counted``: the :class:`Pace` gives each stretch's allowance
    (waiting first, if need be) and dates the stretch as its last item is read, no later
    than the Python form does.  An error inside a stretch does not end it there (the
    Python form's ``islice`` ends, and the stretch after it is shorter)."""
    pace = Pace(count, per, clock, sleep)
    return _flow.Counted(  # pyright: ignore[reportPossiblyUnboundVariable]
        source, 0, lambda: pace.passed(pace.allowed), pace.allow
    )
