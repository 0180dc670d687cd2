"""How a step calls its function, sync or async: under a retry policy (a count of
attempts, or tenacity's), a :class:`Rate`, a timeout (:func:`within`).  Each wrapper is
a module-level function, so a partial of it travels to worker processes.

>>> work = with_retry(int, 3)
>>> work("7")
7
"""

from __future__ import annotations

import functools
import inspect
import threading
import time
from collections import deque
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any, TypeVar

from lazyfun.streams.shared.parts import Clock, Sleep, check_count, seconds
from lazyfun.streams.shared.reading import passed_on

if TYPE_CHECKING:
    from tenacity import Retrying

__all__ = ["Rate", "at_rate", "is_async", "retried", "retry_policy", "with_retry", "within"]

T = TypeVar("T")
U = TypeVar("U")


def is_async(f: object) -> bool:
    """Whether calling ``f`` gives an awaitable: a coroutine function, a partial of one,
    or an object whose ``__call__`` is one (tenacity's ``AsyncRetrying``)."""
    while isinstance(f, functools.partial):
        f = f.func
    return inspect.iscoroutinefunction(f) or inspect.iscoroutinefunction(
        getattr(f, "__call__", None)  # noqa: B004
    )


def retry_policy(retry: object, coroutine: bool = False) -> Any:
    """A tenacity policy from what ``retry=`` was given, refused at the call otherwise:
    a count of attempts (``retry=3``: a call is tried up to three times, and its last
    error passes on), or a tenacity ``Retrying`` (``AsyncRetrying`` for a coroutine
    function), or None (no retries).

    >>> retry_policy(None) is None, type(retry_policy(3)).__name__
    (True, 'Retrying')
    >>> retry_policy("3")
    Traceback (most recent call last):
    ...
    TypeError: retry= takes a count of attempts (an int from 1) or a tenacity Retrying, got str
    """
    if retry is None:
        return None
    from tenacity import AsyncRetrying, Retrying, stop_after_attempt

    wanted = AsyncRetrying if coroutine else Retrying
    if isinstance(retry, int) and not isinstance(retry, bool):
        if retry < 1:
            raise ValueError(f"retry= counts attempts, at least 1; got {retry}")
        return wanted(stop=stop_after_attempt(retry), reraise=True)
    if isinstance(retry, wanted) and (coroutine or not isinstance(retry, AsyncRetrying)):
        return retry
    raise TypeError(
        f"retry= takes a count of attempts (an int from 1) or a tenacity {wanted.__name__}"
        f"{' (the function is a coroutine function)' if coroutine else ''}, "
        f"got {type(retry).__name__}"
    )


def retried(retry: Retrying, f: Callable[[T], U], item: T) -> U:
    """``f(item)`` under the tenacity policy ``retry`` (module level: it pickles)."""
    result: U = retry(f, item)  # typed even where tenacity is not installed (a build)
    return result


def with_retry(f: Callable[[T], U], retry: object) -> Callable[[T], U]:
    """``f`` under ``retry`` (a count of attempts, or a tenacity policy: ``AsyncRetrying``
    for a coroutine function, ``Retrying`` for a plain one), refused at the call when
    ``retry`` is neither.  A coroutine function stays one (the policy's own call, which
    awaits each attempt); a plain one is wrapped at module level, so it pickles."""
    coroutine = is_async(f)
    policy = retry_policy(retry, coroutine=coroutine)
    if policy is None:
        return f
    if coroutine:
        return functools.partial(policy, f)
    return functools.partial(retried, policy, f)


class Rate:
    """At most ``count`` calls in any ``per`` seconds, shared by every thread (and task)
    that calls through it: each call reserves the first free slot and waits for it.
    ``map(f, rate=..., retry=...)`` meters each attempt, so a retry is a call too.

    >>> now = [0.0]
    >>> rate = Rate(2, 1.0, clock=lambda: now[0])
    >>> [rate.reserve() for _ in range(5)]
    [0.0, 0.0, 1.0, 1.0, 2.0]
    """

    __slots__ = ("clock", "count", "lock", "per", "sleep", "starts")

    def __init__(
        self,
        count: int,
        per: float | timedelta,
        *,
        clock: Clock = time.monotonic,
        sleep: Sleep = time.sleep,
    ) -> None:
        check_count(count, "Rate's count", 1)
        self.count, self.per = count, seconds(per, "Rate's per")
        self.clock, self.sleep = clock, sleep
        self.starts: deque[float] = deque(maxlen=count)
        self.lock = threading.Lock()

    def reserve(self) -> float:
        """Take the next slot: how long to wait, from now, before the call starts."""
        with self.lock:
            now = self.clock()
            starts = self.starts
            start = max(now, starts[0] + self.per) if len(starts) == self.count else now
            starts.append(start)
            return start - now

    def wait(self) -> None:
        """Block until a call may start (the slot taken)."""
        delay = self.reserve()
        if delay > 0:
            self.sleep(delay)

    def __repr__(self) -> str:
        return f"Rate({self.count}, per={self.per})"


def within(limit: float, f: Callable[[T], U], item: T) -> U:
    """``f(item)``, or TimeoutError once it has run ``limit`` seconds: the call is left to
    finish on a daemon thread of its own (a thread cannot be stopped), its result dropped.
    Module level: a partial of it travels to worker processes.

    >>> within(1.0, abs, -3)
    3
    """
    outcome: list[tuple[bool, Any]] = []
    finished = threading.Event()

    def call() -> None:
        try:
            outcome.append((True, f(item)))
        except BaseException as error:
            outcome.append((False, error))
        finally:
            finished.set()

    threading.Thread(target=call, name="lazyfun-timeout", daemon=True).start()
    if not finished.wait(limit):
        raise TimeoutError(f"the call ran over its timeout of {limit:g} s (left to finish)")
    result: U = passed_on(outcome)
    return result


def at_rate(rate: Rate, f: Callable[[T], U], item: T) -> U:
    """``f(item)`` once ``rate`` lets a call start (module level: a partial of it is the
    worker's function)."""
    rate.wait()
    return f(item)
