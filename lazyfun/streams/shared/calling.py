"""How a step calls its function, sync or async: under a retry policy (a count of
attempts, or tenacity's), a :class:`Rate`, a timeout (:func:`within`).  Each wrapper is
a module-level function, so a partial of it travels to worker processes.

>>> work = with_retry(int, 3)
>>> work("7")
7
"""

from __future__ import annotations

import bisect
import functools
import inspect
import itertools
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Generator
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
    """At most ``count`` calls start in any ``per`` seconds, counted across every thread
    (and task) that calls through it: a call is let go only while fewer than ``count``
    calls started in the ``per`` seconds before, and its start is read from the clock
    then, not booked ahead (a call that wakes late is counted late), and read again
    as close to the call's own first line as the caller can: a thread just before it
    calls, a task once the call's first step has run (its code up to its first wait,
    where it read the clock if it did: an upper bound of its start, however long the
    step or the process was held up).  ``map(f, rate=..., retry=...)`` meters each
    attempt, so a retry is a call too.

    Law (tests/test_rate.py, on the real clock, sync and async, any concurrency): for
    every start ``t`` a call reads itself, at most ``count`` starts lie in
    ``[t, t + per)`` (in a thread, up to the thread's own pause between its last date
    and its first line, which only the operating system decides).

    A waiting call sleeps until its turn may have come, its place among the calls
    waiting before it telling which opening of the window is its own (the waiting
    calls wake one at a time, not all at each opening), and asks again; a call that
    arrives while others wait goes after them.

    >>> now, started = [0.0], []
    >>> rate = Rate(2, 1.0, clock=lambda: now[0], sleep=lambda s: now.__setitem__(0, now[0] + s))
    >>> for _ in range(5):
    ...     _ = rate.wait()
    ...     started.append(now[0])
    >>> started
    [0.0, 0.0, 1.0, 1.0, 2.0]
    """

    __slots__ = ("clock", "count", "lock", "per", "sleep", "starts", "tickets", "waiting")

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
        # the starts in the window, oldest first, each a [time] its caller dates again
        self.starts: deque[list[float]] = deque()
        self.waiting: list[int] = []  # the tickets of the calls waiting, in order
        self.tickets = itertools.count()
        self.lock = threading.Lock()

    def _admit(self, ticket: int) -> float:
        """Under the lock: let the call go, its start dated now (0.0), if the window has
        room for it after the calls waiting before it, else how long until the opening
        that may be its own.  Openings: a start in the window opens one ``per`` after
        it; a free place, taken now, one ``per`` from now.  The starts are dropped
        once they leave the window, oldest first: one dated again out of order (by the
        moments between two dates) is dropped with the one before it (a wait the
        longer, never a start too many)."""
        now, starts, per = self.clock(), self.starts, self.per
        while starts and starts[0][0] + per <= now:
            starts.popleft()
        free = self.count - len(starts)
        ahead = bisect.bisect_left(self.waiting, ticket)
        if ahead < free:
            starts.append([now])
            self.waiting.pop(ahead)
            return 0.0
        openings = [start[0] + per for start in starts] + [now + per] * free
        rounds, place = divmod(ahead - free, self.count)
        return max(openings[place] + rounds * per, openings[0]) - now

    def _enter(self) -> int:
        with self.lock:
            ticket = next(self.tickets)
            self.waiting.append(ticket)
            return ticket

    def _leave(self, ticket: int) -> None:
        """A caller that stopped waiting (interrupted, cancelled) gives its place up."""
        with self.lock:
            if ticket in self.waiting:
                self.waiting.remove(ticket)

    def wait(self) -> list[float]:
        """Block until a call may start; its start, dated as this returns, is given: date
        it again (``start[0] = rate.clock()``) just before the call."""
        ticket = self._enter()
        try:
            while True:
                with self.lock:
                    delay = self._admit(ticket)
                    if delay <= 0:
                        return self.starts[-1]
                self.sleep(delay)
        except BaseException:
            self._leave(ticket)
            raise

    async def call(self, call: Callable[[], Awaitable[U]]) -> U:
        """``await call()`` once a call may start, waiting in the task (``asyncio.sleep``);
        its start is dated again as the call's first step ends."""
        import asyncio

        ticket = self._enter()
        try:
            while True:
                with self.lock:
                    delay = self._admit(ticket)
                    if delay <= 0:
                        start = self.starts[-1]
                        break
                await asyncio.sleep(delay)
        except BaseException:
            self._leave(ticket)
            raise
        result: U = await _Dated(self.clock, start, call())
        return result

    def __repr__(self) -> str:
        return f"Rate({self.count}, per={self.per})"


class _Dated:
    """An awaitable that awaits ``call`` and, once its first step has run (sent, up to
    its first wait or its end), dates ``start`` again by ``clock``, then hands every
    later step through (sends, throws, close: a cancellation reaches the call)."""

    __slots__ = ("call", "clock", "start")

    def __init__(self, clock: Clock, start: list[float], call: Awaitable[Any]) -> None:
        self.clock, self.start, self.call = clock, start, call

    def __await__(self) -> Generator[Any, Any, Any]:
        steps = self.call.__await__()
        try:
            signal = steps.send(None)
        except StopIteration as done:
            return done.value
        finally:
            self.start[0] = self.clock()
        while True:
            try:
                sent = yield signal
            except GeneratorExit:
                steps.close()
                raise
            except BaseException as error:
                try:
                    signal = steps.throw(error)
                except StopIteration as done:
                    return done.value
            else:
                try:
                    signal = steps.send(sent)
                except StopIteration as done:
                    return done.value


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
    """``f(item)`` once ``rate`` lets a call start, its start dated again just before the
    call (module level: a partial of it is the worker's function)."""
    start = rate.wait()
    start[0] = rate.clock()  # no lock between this date and the call: nothing to wake
    return f(item)
