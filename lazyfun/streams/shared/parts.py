"""The small pieces every step node is made of, sync or async: the sentinels, the
argument checks, an error a batching step holds until it has flushed its batch (and a
sliding window's, :class:`Windowing`), ``catch``'s :class:`Recovery`, ``unique``'s
memory (:class:`Seen`), and an async node's base (:class:`Step`, :func:`aclose`).

>>> seen = Seen()
>>> [seen.first(mark) for mark in (1, [2], 1, [2])]
[True, True, False, False]
"""

from __future__ import annotations

from collections import deque
from collections.abc import AsyncIterator, Callable, Sized
from datetime import timedelta
from typing import Any

__all__ = [
    "DROPPED",
    "NOTHING",
    "Clock",
    "Held",
    "Recovery",
    "Seen",
    "Sleep",
    "Step",
    "StreamConsumedError",
    "Windowing",
    "aclose",
    "check_count",
    "seconds",
]

Clock = Callable[[], float]
Sleep = Callable[[float], object]

NOTHING: Any = object()  # no value (a default not given, an end): the streams' one sentinel
DROPPED: Any = object()  # what Recovery.recover gives for an exception to drop


class StreamConsumedError(RuntimeError):
    """A Stream was read twice; a Stream is one-shot, as the iterator it wraps."""


def check_count(n: object, what: str, least: int) -> None:
    """Refuse at the call a count that is not an int of at least ``least``."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"{what} must be an int, got {type(n).__name__}")
    if n < least:
        raise ValueError(f"{what} must be at least {least}, got {n}")


def seconds(per: float | timedelta, what: str) -> float:
    """``per`` in seconds, refused at the call unless positive."""
    value = per.total_seconds() if isinstance(per, timedelta) else float(per)
    if not value > 0:
        raise ValueError(f"{what} must be a positive time, got {per!r}")
    return value


class Held:
    """An error a batching step passes on after it has flushed what it held: the step
    yields its partial batch first, then raises the error at the next read, and keeps
    no reference to the error once raised."""

    __slots__ = ("failure",)

    def __init__(self) -> None:
        self.failure: Exception | None = None

    def hold(self, error: Exception) -> None:
        self.failure = error

    def flush(self, batch: Sized, error: Exception) -> None:
        """``error`` came while ``batch`` was gathered: held, to pass on once the batch is
        handed over, or, with nothing gathered, raised now."""
        if not batch:
            try:
                raise error
            finally:
                del error  # the frame keeps no error alive (in a cycle) once it is passed on
        self.failure = error

    def raise_held(self) -> None:
        """Raise the held error, if any, and forget it."""
        failure, self.failure = self.failure, None
        if failure is not None:
            try:
                raise failure
            finally:
                failure = None  # the frame keeps no error alive after passing it on


class Windowing:
    """What a sliding window holds, sync or async: the last ``n`` items, and an error
    held until the items no window showed yet are handed over."""

    __slots__ = ("held", "n", "window")

    def __init__(self, n: int) -> None:
        self.n = n
        self.window: deque[Any] = deque(maxlen=n)
        self.held = Held()

    def broken(self, error: Exception) -> tuple[Any, ...]:
        """A read raised ``error``: a window never spans an error, so the items no window
        showed yet come out short (the error passed on at the next read), or, with
        none, the error passes on now; the next window starts afresh."""
        window = self.window
        partial = tuple(window) if len(window) < self.n else ()
        window.clear()
        try:
            self.held.flush(partial, error)
        finally:
            del error  # the frame keeps no error alive (in a cycle) once it is passed on
        return partial


class Recovery:
    """What ``catch`` does with an exception raised upstream: for the ``errors`` types
    (default ``Exception``) where ``where`` holds, ``do`` first, then ``replace``, or
    end with ``stop``, or drop it.  Shared by the sync and the async ``catch``; the
    stream's façade has checked the arguments."""

    __slots__ = ("do", "errors", "replace", "stop", "stopped", "where")

    def __init__(
        self,
        errors: tuple[type[BaseException], ...],
        where: Callable[[Any], object] | None = None,
        replace: Callable[[Any], Any] | None = None,
        do: Callable[[Any], object] | None = None,
        stop: bool = False,
    ) -> None:
        self.errors = errors or (Exception,)
        self.where, self.replace, self.do, self.stop = where, replace, do, stop
        self.stopped = False

    def recover(self, error: BaseException) -> Any:
        """The item standing for ``error``, or DROPPED; ``error`` again if ``where``
        says no (call it inside the ``except`` that caught it)."""
        if self.where is not None and not self.where(error):
            try:
                raise error
            finally:
                del error  # its traceback holds this frame: no cycle keeps it alive
        self.stopped = self.stop  # with stop, nothing after this error, whatever follows
        if self.do is not None:
            self.do(error)
        if self.replace is not None:
            return self.replace(error)
        return DROPPED


class Seen:
    """What ``unique`` remembers, sync or async: hashable marks in a set, unhashable ones
    in a list (found by equality, so slower)."""

    __slots__ = ("seen", "unhashable")

    def __init__(self) -> None:
        self.seen: set[Any] = set()
        self.unhashable: list[Any] = []

    def first(self, mark: object) -> bool:
        """Whether ``mark`` is seen for the first time (it is remembered from now on)."""
        try:
            if mark in self.seen:
                return False
            self.seen.add(mark)
        except TypeError:
            if mark in self.unhashable:
                return False
            self.unhashable.append(mark)
        return True


async def aclose(source: object) -> None:
    """Close ``source`` if it is a step of lazyfun's: a source of yours is never closed."""
    if isinstance(source, Step):
        await source.aclose()


class Step(AsyncIterator[Any]):
    """An async step over ``source``: closing it closes the source."""

    source: AsyncIterator[Any]

    async def aclose(self) -> None:
        await aclose(self.source)
