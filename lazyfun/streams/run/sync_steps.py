"""The sync runner's steps: each builds its part of a chain read with ``for``, from
builtins and itertools, the small iterators of :mod:`lazyfun.streams.sync.steps`, the C flow
engine (:mod:`lazyfun.streams.sync.flow`), threads (:mod:`lazyfun.streams.sync.threaded`) and the
concurrent windows of :mod:`lazyfun.parallel`.  The façade has checked the arguments.

Each step's stream knows what it holds (closed with it) and, for a killed job's
resume, whether the step keeps one output an input in order (:func:`kept`) or not
(:func:`then`, which names the step that blocks resuming).
"""

from __future__ import annotations

import functools
import itertools
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from lazyfun.streams.explain import gauged
from lazyfun.streams.explain import metered as metered  # what a sync stream hands on
from lazyfun.streams.gauges import Gauge, Rows
from lazyfun.streams.joins import HashTable, MergeJoin
from lazyfun.streams.plan import Chain, Closable, Node, async_only, build
from lazyfun.streams.sorting import Sorter, Top
from lazyfun.streams.sync import calls, flow, steps, threaded, vsteps
from lazyfun.streams.sync.observing import Counting, Observe
from lazyfun.streams.verbs import Recent
from lazyfun.streams.windows import Core

if TYPE_CHECKING:
    import logging

    from lazyfun.parallel.places import Via
    from lazyfun.parallel.window import Kind
    from lazyfun.streams.sync.threaded import Rate
    from lazyfun.trace import Counts

Stream = Chain
_map, _filter, _zip, _enumerate = map, filter, zip, enumerate


def source(items: Iterable[Any]) -> Iterator[Any]:
    """What a sync stream reads: the iterator of ``items``."""
    return iter(items)


def then(s: Stream, items: Iterable[Any], *holding: Closable, step: str | None = None) -> Any:
    """The next step's stream: closing it closes what ``s`` holds, and ``holding``.  A
    killed job with this step (named by the function that calls, unless ``step`` says)
    cannot resume exactly: its sink refuses ``resume=True``."""
    blocker = s._blocker or step or sys._getframe(1).f_code.co_name
    return Chain(items, (*s._holds, *holding), blocker, None, s._made(holding), s._run)


def kept(s: Stream, items: Iterable[Any], *holding: Closable, drops: str | None = None) -> Any:
    """The next step's stream, for a step a killed job resumes through: one output an
    input at most, in order, and no state carried from item to item (``drops``: the
    step may drop items)."""
    holds = (*s._holds, *holding)
    return Chain(items, holds, s._blocker, s._dropped or drops, s._made(holding), s._run)


def _read(items: Any) -> tuple[Iterator[Any], tuple[Closable, ...]]:
    """Another input of a step, as an iterator, and what it holds: a plan's chain's
    items (a stream of this mode), an iterable's iterator, an async iterable read on an
    event loop of its own."""
    if isinstance(items, Node):
        chain = build(items)
        return chain._take_items(), chain._holds
    if async_only(items):
        read = threaded.FromAsync(items)
        return read, (read,)
    return iter(items), ()


def _concurrent(
    s: Stream,
    kind: Kind,
    work: Callable[[Any], Any],
    concurrency: int | None,
    ordered: bool,
    ahead: int | None,
    via: Via,
    chunksize: int | None,
) -> Any:
    window = calls.window(
        kind, work, s._take_items, concurrency, ordered, ahead, via, kind, chunksize
    )
    if kind in ("map", "do") and ordered and s._dropped is None:
        return kept(s, window, window)
    if kind in ("map", "do") and ordered:
        return then(s, window, window, step=f"{kind}(concurrency=) after a {s._dropped}")
    return then(s, window, window, step=f"{kind}(concurrency=, ordered={ordered})")


def map(
    s: Stream,
    f: Callable[[Any], Any],
    concurrency: int | None,
    ordered: bool,
    ahead: int | None,
    via: Via,
    chunksize: int | None,
    retry: Any,
    rate: Rate | None,
    timeout: Any,
) -> Any:
    """``f`` on each item, in this thread or on a concurrent window."""
    f = s._counted(f, via)
    work = calls.with_retry(calls.rated(calls.timed(f, timeout), rate, via), retry)
    if calls.sequential(concurrency, via, chunksize, "map"):
        return kept(s, _map(work, s._take_items()))
    return _concurrent(s, "map", work, concurrency, ordered, ahead, via, chunksize)


def filter(
    s: Stream,
    keep: Callable[[Any], object],
    concurrency: int | None,
    ordered: bool,
    ahead: int | None,
    via: Via,
    chunksize: int | None,
) -> Any:
    """The items ``keep`` holds of."""
    keep = s._counted(keep, via)
    if calls.sequential(concurrency, via, chunksize, "filter"):
        return kept(s, _filter(keep, s._take_items()), drops="filter")
    work = functools.partial(calls.truth, keep)
    return _concurrent(s, "filter", work, concurrency, ordered, ahead, via, chunksize)


def flatmap(
    s: Stream,
    f: Callable[[Any], Iterable[Any]],
    concurrency: int | None,
    ordered: bool,
    ahead: int | None,
    via: Via,
    chunksize: int | None,
    retry: Any,
) -> Any:
    """The items of ``f(x)`` for each ``x``: chained, or each read to its end in a worker
    (on after an error, as the chain reads it; ``retry`` covers the call, as there)."""
    f = s._counted(f, via)
    work = calls.with_retry(f, retry)
    if calls.sequential(concurrency, via, chunksize, "flatmap"):
        return then(s, flow.flat_map(s._take_items(), work))
    return _concurrent(s, "flatmap", work, concurrency, ordered, ahead, via, chunksize)


def do(
    s: Stream,
    f: Callable[[Any], object],
    concurrency: int | None,
    ordered: bool,
    ahead: int | None,
    via: Via,
    chunksize: int | None,
    retry: Any,
) -> Any:
    """The items unchanged, ``f`` called on each."""
    f = s._counted(f, via)
    work: Callable[[Any], object] = calls.with_retry(f, retry)
    if calls.sequential(concurrency, via, chunksize, "do"):
        return kept(s, _map(functools.partial(calls.tapped, work), s._take_items()))
    done = functools.partial(calls.done, work)
    return _concurrent(s, "do", done, concurrency, ordered, ahead, via, chunksize)


def scan(s: Stream, f: Callable[[Any, Any], Any], initial: Any) -> Any:
    return then(s, itertools.accumulate(s._take_items(), f, initial=initial))


def takewhile(s: Stream, keep: Callable[[Any], object]) -> Any:
    return then(s, itertools.takewhile(keep, s._take_items()))


def dropwhile(s: Stream, drop: Callable[[Any], object]) -> Any:
    return then(s, itertools.dropwhile(drop, s._take_items()))


def unique(s: Stream, key: Callable[[Any], object] | None) -> Any:
    return then(s, steps.Unique(s._take_items(), key))


def unique_within(
    s: Stream, key: Callable[[Any], Any] | None, limit: float | None, count: int | None
) -> Any:
    return then(s, vsteps.UniqueWithin(s._take_items(), key, Recent(limit, count)), step="unique")


def catch(
    s: Stream,
    errors: tuple[type[BaseException], ...],
    where: Any,
    replace: Any,
    do: Any,
    stop: bool,
) -> Any:
    recovery = steps.Recovery(errors, where=where, replace=replace, do=do, stop=stop)
    return kept(s, flow.catch(s._take_items(), recovery), drops="catch")


def take(s: Stream, n: int) -> Any:
    return then(s, flow.take(s._take_items(), n))


def drop(s: Stream, n: int) -> Any:
    return then(s, steps.Drop(s._take_items(), n))


def chunked(s: Stream, n: int) -> Any:
    return then(s, steps.Chunked(s._take_items(), n))


def window(s: Stream, n: int) -> Any:
    return then(s, steps.Sliding(s._take_items(), n))


def enumerate(s: Stream, start: int) -> Any:
    return then(s, _enumerate(s._take_items(), start))


def zip(s: Stream, other: Any, longest: bool, fillvalue: Any) -> Any:
    items = s._take_items()
    others, holding = _read(other)
    if longest:
        return then(s, itertools.zip_longest(items, others, fillvalue=fillvalue), *holding)
    return then(s, _zip(items, others, strict=False), *holding)


def chain(s: Stream, others: tuple[Any, ...]) -> Any:
    items = s._take_items()
    holds: list[Closable] = []
    later = []  # read when the chain comes to them; an async iterable on a loop of its own
    for other in others:
        if isinstance(other, Node):
            other, holding = _read(other)
            holds.extend(holding)
        elif async_only(other):
            other = threaded.FromAsync(other)
            holds.append(other)
        later.append(other)
    return then(s, itertools.chain(items, *later), *holds)


def merge(s: Stream, others: tuple[Any, ...], buffer: int) -> Any:
    sources = [s._take_items()]
    read = [_read(other) for other in others]
    holds = [hold for _, holding in read for hold in holding]
    merged = threaded.Merge([*sources, *(each for each, _ in read)], buffer)
    return then(s, merged, *holds, merged)


def tee(s: Stream, n: int, bound: int) -> Any:
    """What the branches share: the items, kept until each branch has read them."""
    return Chain(
        threaded.Tee(s._take_items(), n, bound), s._holds, s._blocker, None, s._stage, s._run
    )


def branch(s: Stream, k: int) -> Any:
    """The ``k``-th branch of a tee (``s``: the tee's chain)."""
    return then(s, threaded.TeeBranch(s._items, k), step="tee")


def throttle(s: Stream, count: int, per: float) -> Any:
    return kept(s, flow.throttle(s._take_items(), count, per))


def group(s: Stream, size: int | None, limit: float | None, by: Any) -> Any:
    items: Iterator[Any] = s._take_items()
    wait, ask, holding = None, None, list[threaded.Buffer[Any]]()
    if limit is not None:  # read on a thread, so a list is closed on time while it stalls
        ahead = threaded.Buffer(items, threaded.GROUP_AHEAD, asked=True)
        items, wait, ask, holding = ahead, ahead.ready, ahead.ask, [ahead]
    if by is None:
        return then(s, steps.Group(items, size, limit, wait=wait, ask=ask), *holding)
    return then(s, steps.GroupBy(items, by, size, limit, wait=wait, ask=ask), *holding)


def buffer(s: Stream, n: int) -> Any:
    buffered = threaded.Buffer(s._take_items(), n)
    return then(s, buffered, buffered)


def observe(s: Stream, name: str, logger: logging.Logger | None) -> Any:
    return kept(s, Observe(s._take_items(), name, logger))


def progress(s: Stream, description: str | None, total: int | None) -> Any:
    from lazyfun.streams.progress import Bar
    from lazyfun.streams.progress import progress as counting

    counted = counting(s._take_items(), description, total)
    return kept(s, counted, *([counted] if isinstance(counted, Bar) else []))


def probe(s: Stream, counts: Counts | None) -> Any:
    if counts is None:  # the probe is off
        return then(s, s._take_items())
    return then(s, Counting(s._take_items(), counts))


def pmap(
    s: Stream,
    f: Callable[[Any], Any],
    jobs: int | None,
    scheduler: str | None,
    buffer: int | None,
    chunksize: int | None,
) -> Any:
    from lazyfun.parallel.pmap import pmap as parallel

    items = s._take_items()
    window = parallel(f, items, jobs=jobs, scheduler=scheduler, buffer=buffer, chunksize=chunksize)
    return then(s, window, window)


def sort(s: Stream, key: Any, reverse: bool, memory: int, tmpdir: Any) -> Any:
    key = None if key is None else s._counted(key)
    sorter: Sorter[Any] = gauged(s._stage, Sorter(key, reverse, memory, tmpdir))
    return then(s, vsteps.read_all(s._take_items(), sorter), sorter)


def top(s: Stream, k: int, key: Any, reverse: bool) -> Any:
    kept = gauged(s._stage, Top(k, None if key is None else s._counted(key), reverse))
    gauge = (kept,) if isinstance(kept, Gauge) else ()  # a Top holds nothing to close
    return then(s, vsteps.read_all(s._take_items(), kept), *gauge)


def join(
    s: Stream,
    other: Iterable[Any],
    key: Callable[[Any], Any],
    other_key: Callable[[Any], Any],
    left: bool,
    merged: bool,
    limit: int | None,
) -> Any:
    rows, holding = _read(other)
    key = s._counted(key)
    if merged:
        merge = vsteps.MergeJoinStep(s._take_items(), key, MergeJoin(rows, other_key), left)
        return then(s, merge, *holding)
    table: HashTable[Any] = HashTable(other_key, limit)
    joined = vsteps.hash_join(s._take_items(), key, rows, table, left)
    return then(s, joined, *holding, Rows(table))


def event_windows(s: Stream, core: Core) -> Any:
    """``tumbling``, ``sliding``, ``session``: the windows of ``core`` as they close."""
    windows = vsteps.EventTimeWindows(s._take_items(), core)
    return then(s, windows, windows, step=core.what)
