"""The async runner's steps: each builds its part of a chain read with ``async for``,
from the async iterators of :mod:`lazyfun.streams.aio.asteps`, the tasks of
:mod:`lazyfun.streams.aio.aconcurrent` (a plain function's calls on threads) and the
merges and tees of :mod:`lazyfun.streams.aio.abranches`.  The façade has checked the
arguments.  A plain source is read in the event loop, or on a thread where a step reads
ahead of it (``buffer``, ``group(within=)``).
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from lazyfun.parallel.window import grown
from lazyfun.streams.aio import avsteps
from lazyfun.streams.aio.abranches import Interleave, Tee, TeeBranch
from lazyfun.streams.aio.aconcurrent import (
    Buffer,
    Concurrent,
    FromLoop,
    Merge,
    OnThread,
    ReadAhead,
)
from lazyfun.streams.aio.aobserving import ACounting, Observed, ametered
from lazyfun.streams.aio.asteps import (
    Catch,
    Chain,
    Chunked,
    Drop,
    Enumerate,
    FlatMap,
    FromSync,
    Group,
    Map,
    Recovering,
    Scan,
    Sliding,
    Take,
    Throttle,
    Unique,
    While,
    Zip,
    in_memory,
    may_wait,
    source,
)
from lazyfun.streams.aio.asteps import metered as _rated
from lazyfun.streams.explain import gauged
from lazyfun.streams.gauges import Rows
from lazyfun.streams.joins import HashTable, MergeJoin
from lazyfun.streams.plan import Chain as Built
from lazyfun.streams.plan import Node, build, runner
from lazyfun.streams.shared.calling import with_retry
from lazyfun.streams.shared.parts import check_count
from lazyfun.streams.shared.reading import GROUP_AHEAD
from lazyfun.streams.sorting import Sorter, Top
from lazyfun.streams.verbs import Recent
from lazyfun.streams.windows import Core

if TYPE_CHECKING:
    import logging

    from lazyfun.streams.shared.calling import Rate
    from lazyfun.trace import Counts

Stream = Built
metered = ametered  # what an async stream hands on: its items, counted

_AHEAD = 256  # the most items ``async for`` over a sync stream has read ahead on its thread


def then(s: Stream, items: AsyncIterable[Any], *gauges: object) -> Any:
    """The next step's stream, which knows what this one's sources hold (and what the
    step holds: ``items``, or the ``gauges`` of it, for ``explain``)."""
    return Built(items, s._holds, None, None, s._made((items, *gauges)), s._run)


def _read(other: Any) -> AsyncIterator[Any]:
    """Another input of a step: an async stream's items (its plan's chain's), or any
    iterable's, async."""
    if isinstance(other, Node):
        items: AsyncIterator[Any] = build(other)._take_items()
        return items
    return source(other)


def to_async(s: Built) -> Any:
    """A sync chain's items read in the event loop (its steps' holds kept)."""
    return Built(source(s._take_items()), s._holds, None, None, s._made(()), runner("async"))


def read_ahead(items: Iterator[Any], close: Callable[[], None]) -> AsyncIterator[Any]:
    """A sync stream's items for ``async for``: read on a daemon thread of their own,
    handed over in batches (one ahead at first, as many as were handed over each time
    the loop has to wait, ``_AHEAD`` at most); a container's items in the loop."""
    if in_memory(items):
        return FromSync(items)
    return ReadAhead(items, 1, most=_AHEAD, close=close)


def _step(
    s: Stream,
    kind: str,
    f: Any,
    concurrency: int | None,
    ordered: bool,
    ahead: int | None = None,
) -> Any:
    if concurrency is not None:
        check_count(concurrency, f"{kind}'s concurrency", 1)
        held, grow = (ahead, None) if ahead else (concurrency + 1, grown(concurrency))
        step = Concurrent(s._take_items(), f, kind, concurrency, ordered, kind, held, grow)
        return then(s, step)
    if kind == "flatmap":
        return then(s, FlatMap(s._take_items(), f))
    return then(s, Map(s._take_items(), f, kind))


def map(
    s: Stream,
    f: Callable[[Any], Any],
    concurrency: int | None,
    ordered: bool,
    ahead: int | None,
    via: object,
    chunksize: int | None,
    retry: Any,
    rate: Rate | None,
    timeout: Any,
) -> Any:
    """``f`` on each item, awaited if it is a coroutine function; with ``concurrency``
    as tasks (a plain ``f`` on threads)."""
    f = s._counted(f)
    work = with_retry(_rated(f, rate, timeout), retry)
    return _step(s, "map", work, concurrency, ordered, ahead)


def filter(
    s: Stream,
    keep: Callable[[Any], object],
    concurrency: int | None,
    ordered: bool,
    ahead: int | None,
    via: object,
    chunksize: int | None,
) -> Any:
    return _step(s, "filter", s._counted(keep), concurrency, ordered, ahead)


def flatmap(
    s: Stream,
    f: Callable[[Any], Any],
    concurrency: int | None,
    ordered: bool,
    ahead: int | None,
    via: object,
    chunksize: int | None,
    retry: Any,
) -> Any:
    work = with_retry(s._counted(f), retry)
    if concurrency is None:
        return _step(s, "flatmap", work, None, ordered)
    check_count(concurrency, "flatmap's concurrency", 1)
    held, grow = (ahead, None) if ahead else (concurrency, grown(concurrency))
    merged = Merge(s._take_items(), work, concurrency, ordered, "flatmap", held=held, grow=grow)
    return then(s, merged)


def do(
    s: Stream,
    f: Callable[[Any], object],
    concurrency: int | None,
    ordered: bool,
    ahead: int | None,
    via: object,
    chunksize: int | None,
    retry: Any,
) -> Any:
    return _step(s, "do", with_retry(s._counted(f), retry), concurrency, ordered, ahead)


def scan(s: Stream, f: Callable[[Any, Any], Any], initial: Any) -> Any:
    return then(s, Scan(s._take_items(), f, initial))


def takewhile(s: Stream, keep: Callable[[Any], object]) -> Any:
    return then(s, While(s._take_items(), keep, taking=True))


def dropwhile(s: Stream, drop: Callable[[Any], object]) -> Any:
    return then(s, While(s._take_items(), drop, taking=False))


def unique(s: Stream, key: Callable[[Any], object] | None) -> Any:
    return then(s, Unique(s._take_items(), key))


def unique_within(
    s: Stream, key: Callable[[Any], Any] | None, limit: float | None, count: int | None
) -> Any:
    return then(s, avsteps.AsyncUniqueWithin(s._take_items(), key, Recent(limit, count)))


def catch(
    s: Stream,
    errors: tuple[type[BaseException], ...],
    where: Any,
    replace: Any,
    do: Any,
    stop: bool,
) -> Any:
    recovery = Recovering(errors, where=where, replace=replace, do=do, stop=stop)
    return then(s, Catch(s._take_items(), recovery))


def take(s: Stream, n: int) -> Any:
    return then(s, Take(s._take_items(), n))


def drop(s: Stream, n: int) -> Any:
    return then(s, Drop(s._take_items(), n))


def chunked(s: Stream, n: int) -> Any:
    return then(s, Chunked(s._take_items(), n))


def window(s: Stream, n: int) -> Any:
    return then(s, Sliding(s._take_items(), n))


def enumerate(s: Stream, start: int) -> Any:
    return then(s, Enumerate(s._take_items(), start))


def zip(s: Stream, other: Any, longest: bool, fillvalue: Any) -> Any:
    return then(s, Zip(s._take_items(), _read(other), longest, fillvalue))


def chain(s: Stream, others: tuple[Any, ...]) -> Any:
    return then(s, Chain([s._take_items(), *(_read(other) for other in others)]))


def merge(s: Stream, others: tuple[Any, ...], buffer: int) -> Any:
    return then(s, Interleave([s._take_items(), *(_read(other) for other in others)], buffer))


def tee(s: Stream, n: int, bound: int) -> Any:
    """What the branches share: the items, kept until each branch has read them."""
    return Built(Tee(s._take_items(), n, bound), s._holds, None, None, s._stage, s._run)


def branch(s: Stream, k: int) -> Any:
    """The ``k``-th branch of a tee (``s``: the tee's chain)."""
    return then(s, TeeBranch(s._items, k))


def throttle(s: Stream, count: int, per: float) -> Any:
    return then(s, Throttle(s._take_items(), count, per))


def group(s: Stream, size: int | None, limit: float | None, by: Any) -> Any:
    if size is not None and limit is None and by is None:
        return then(s, Chunked(s._take_items(), size))
    items, ask = s._take_items(), None
    if limit is not None and may_wait(items):  # its reads would block the loop
        items = ReadAhead(items.items, GROUP_AHEAD, asked=True)
        ask = items.ask
    return then(s, Group(items, size, limit, by, ask=ask))


def buffer(s: Stream, n: int) -> Any:
    items = s._take_items()
    if may_wait(items):  # read on a thread, taken in the loop as they come
        return then(s, ReadAhead(items.items, n))
    if isinstance(items, FromSync):  # a container's items: nothing to wait for
        return then(s, items)
    return then(s, Buffer(items, n))


def observe(s: Stream, name: str, logger: logging.Logger | None) -> Any:
    return then(s, Observed(s._take_items(), name, logger))


def progress(s: Stream, description: str | None, total: int | None) -> Any:
    from lazyfun.streams.progress import aprogress

    return then(s, aprogress(s._take_items(), description, total))


def probe(s: Stream, counts: Counts | None) -> Any:
    if counts is None:  # the probe is off
        return then(s, s._take_items())
    return then(s, ACounting(s._take_items(), counts))


def pmap(
    s: Stream,
    f: Callable[[Any], Any],
    jobs: int | None,
    scheduler: str | None,
    buffer: int | None,
    chunksize: int | None,
) -> Any:
    """The window of :func:`lazyfun.parallel.pmap`, stepped on a thread of its own (the
    event loop never waits for it), reading this stream in the loop."""
    from lazyfun.parallel.pmap import pmap as parallel

    feed = FromLoop(s._take_items())
    window = parallel(f, feed, jobs=jobs, scheduler=scheduler, buffer=buffer, chunksize=chunksize)
    return then(s, OnThread(window, window.close, feed))


def sort(s: Stream, key: Any, reverse: bool, memory: int, tmpdir: Any) -> Any:
    key = None if key is None else s._counted(key)
    sorter: Sorter[Any] = gauged(s._stage, Sorter(key, reverse, memory, tmpdir))
    return then(s, avsteps.AsyncReadAll(s._take_items(), sorter), sorter)


def top(s: Stream, k: int, key: Any, reverse: bool) -> Any:
    kept = gauged(s._stage, Top(k, None if key is None else s._counted(key), reverse))
    return then(s, avsteps.AsyncReadAll(s._take_items(), kept), kept)


def join(
    s: Stream,
    other: Iterable[Any],
    key: Callable[[Any], Any],
    other_key: Callable[[Any], Any],
    left: bool,
    merged: bool,
    limit: int | None,
) -> Any:
    rows = build(other)._take_items() if isinstance(other, Node) else iter(other)
    key = s._counted(key)
    if merged:
        merge = avsteps.AsyncMergeJoin(s._take_items(), key, MergeJoin(rows, other_key), left)
        return then(s, merge)
    table: HashTable[Any] = HashTable(other_key, limit)
    joined = avsteps.AsyncHashJoin(s._take_items(), key, rows, table, left)
    return then(s, joined, Rows(table))


def event_windows(s: Stream, core: Core) -> Any:
    """``tumbling``, ``sliding``, ``session``: the windows of ``core`` as they close."""
    return then(s, avsteps.AsyncEventTimeWindows(s._take_items(), core))
