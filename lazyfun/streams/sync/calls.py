"""How a Stream's step calls its function: under a retry policy (a count of attempts or
tenacity's: :func:`with_retry`, the async chain's too), a rate, a timeout; and the small
wrappers that make a filter or a do of a plain function, each at module level so that a
process pool can pickle it.

>>> work = with_retry(int, 3)
>>> work("7")
7
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import TYPE_CHECKING, Any, TypeVar

from lazyfun.streams.shared.calling import Rate, at_rate, with_retry, within
from lazyfun.streams.shared.parts import check_count, seconds

if TYPE_CHECKING:
    from lazyfun.parallel.places import Via
    from lazyfun.parallel.window import Kind, Window

__all__ = [
    "done",
    "rated",
    "sequential",
    "tapped",
    "timed",
    "truth",
    "window",
    "with_retry",
]

T = TypeVar("T")
U = TypeVar("U")


def rated(f: Callable[[T], U], rate: Rate | None, via: Via) -> Callable[[T], U]:
    """``f`` metered by ``rate`` (refused at the call where it cannot hold: a Rate counts
    the calls of one process, and crosses to no other)."""
    if rate is None:
        return f
    from concurrent.futures import ThreadPoolExecutor

    if not isinstance(rate, Rate):
        raise TypeError(f"map's rate must be a lazyfun Rate, got {type(rate).__name__}")
    if via not in (None, "thread") and not isinstance(via, ThreadPoolExecutor):
        raise ValueError("map's rate meters calls on this process's threads: leave via out")
    return functools.partial(at_rate, rate, f)


def timed(f: Callable[[T], U], timeout: float | timedelta | None) -> Callable[[T], U]:
    """``f`` ended at ``timeout`` seconds a call (inside a retry, so each attempt has its
    own); refused at the call unless it is a positive number of seconds."""
    if timeout is None:
        return f
    return functools.partial(within, seconds(timeout, "map's timeout"), f)


def truth(keep: Callable[[T], object], item: T) -> bool:
    return bool(keep(item))


def done(f: Callable[[T], object], item: T) -> None:
    f(item)


def tapped(f: Callable[[T], object], item: T) -> T:
    f(item)
    return item


def sequential(concurrency: int | None, via: Via, chunksize: int | None, what: str) -> bool:
    """Whether a step runs in the reading thread: neither ``concurrency`` nor ``via``
    given; a ``chunksize`` then has nothing to size, and is refused."""
    if chunksize is not None:
        check_count(chunksize, f"{what}'s chunksize", 1)
    if concurrency is not None or via is not None:
        return False
    if chunksize is not None:
        raise ValueError(f"{what}: chunksize sizes the tasks of concurrency= or via=; give one")
    return True


def window(
    kind: Kind,
    work: Callable[[Any], Any],
    items: Callable[[], Iterator[Any]],
    concurrency: int | None,
    ordered: bool,
    ahead: int | None,
    via: Via,
    what: str,
    chunksize: int | None,
) -> Window[Any]:
    """The window of a concurrent step over the ``items`` a stream hands over (taken
    once the arguments are checked)."""
    from lazyfun.parallel.places import check_concurrency, concurrent

    check_concurrency(concurrency, what)
    return concurrent(
        work,
        items(),
        kind=kind,
        concurrency=concurrency,
        ordered=ordered,
        ahead=ahead,
        via=via,
        what=what,
        chunksize=chunksize,
    )
