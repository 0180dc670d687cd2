"""Laziness as numbers: a probe that counts what each stage of a pipeline produced.

Wrap the stages you want to watch; run the pipeline; read the counts.  Each count is
kept in a :class:`Counts`, the one counter of a pipeline's stage: a Stream's
``.probe(name, probe)`` step counts into the probe's (``probe.counter(name)``), and
on an analysed Stream that object is the step's counts in ``explain(analyze=True)``,
as the counts its ``observe`` reports and its progress bar shows are.  With
``memory=True`` the probe also records the peak memory allocated while it was
open (``tracemalloc``), and it always records the time it was open.

>>> from lazyfun import cp, first
>>> probe = Probe()
>>> with probe:
...     candidates = probe.stage("candidates", cp([range(9)] * 4))
...     hits = probe.stage("hits", (c for c in candidates if sum(c) == 20))
...     print(first(hits))
(0, 4, 8, 8)
>>> probe.counts
{'candidates': 405, 'hits': 1}

Only 405 of the 6561 candidates were ever built: the consumer stopped at the
first hit.  A disabled probe hands every stream back untouched, so leaving the
calls in place costs nothing:

>>> quiet = Probe(enabled=False)
>>> xs = iter([1, 2])
>>> quiet.stage("xs", xs) is xs
True
"""

from __future__ import annotations

import threading
import time
import tracemalloc
from collections.abc import Callable, Iterable, Iterator
from html import escape
from types import TracebackType
from typing import Any, Generic, ParamSpec, TypeVar

from lazyfun.lazylist import LazyList

T = TypeVar("T")
P = ParamSpec("P")

__all__ = ["Counts", "Meter", "Probe", "Watched"]


class Counts:
    """What one stage of a pipeline did, counted as it goes: the ``items`` and ``errors``
    that left it, the ``seconds`` spent getting them (the stages it reads included), the
    calls of its function (:attr:`calls`) and the most items it ``held`` at once.

    One object a stage, read by everyone who watches the stage: a Stream's
    ``explain(analyze=True)``, its ``observe`` reports, its progress bar and a
    :class:`Probe`'s count under a name.  Where the C flow engine counts a stage itself,
    ``tally`` is its tally (and ``counter`` its count of calls), and :meth:`snapshot`
    reads the counts there.

    >>> counts = Counts()
    >>> counts.items += 2
    >>> counts.errors += 1
    >>> counts.snapshot(), counts.calls
    ((2, 1, 0.0, 0), None)
    """

    __slots__ = ("_calls", "_lock", "counter", "errors", "held", "items", "seconds", "tally")

    def __init__(self) -> None:
        self.items = self.errors = self.held = 0
        self.seconds = 0.0
        self._calls: int | None = None
        self._lock = threading.Lock()
        self.tally: Any = None  # the C flow engine's Tally, where it counts the stage
        self.counter: Any = None  # the C flow engine's Calls, where it counts the calls

    def snapshot(self) -> tuple[int, int, float, int]:
        """Items, errors, seconds and the most held, so far."""
        kept = self if self.tally is None else self.tally
        return kept.items, kept.errors, kept.seconds, kept.held

    @property
    def calls(self) -> int | None:
        """How many times the stage's function ran (None: the stage has none, or it ran
        where it is not counted, in worker processes)."""
        return self._calls if self.counter is None else self.counter.made

    def called(self) -> None:
        """One more call (from any thread)."""
        with self._lock:
            self._calls = (self._calls or 0) + 1

    def counting_calls(self) -> None:
        """This stage's calls are counted (zero so far)."""
        self._calls = self._calls or 0


class Probe:
    """Counts the items each named stage produces; optionally time and peak memory.

    Use ``stage(name, iterable)`` to watch a stream, ``counted(name)`` to watch
    every stream a function returns (summed over calls), and ``with probe:`` to
    time the run and, with ``memory=True``, trace its peak allocation.  Each name's
    count is a :class:`Counts` (``counter(name)``), summed over every stream watched
    under that name; ``counts`` is a snapshot of them all.
    """

    def __init__(self, *, memory: bool = False, enabled: bool = True) -> None:
        self.enabled = enabled
        self.memory = memory
        self.counters: dict[str, Counts] = {}
        self.seconds: float | None = None
        self.peak_bytes: int | None = None
        self._started = 0.0
        self._owns_tracemalloc = False

    def stage(self, name: str, items: Iterable[T]) -> Iterator[T]:
        """Return ``items`` as an iterator that counts, under ``name``, what passes.

        Counting happens as the consumer pulls, so the count is how many items
        the stage actually produced, not how many it could have.
        """
        if not self.enabled:
            return iter(items)
        return _counting(self.counter(name), items)

    def counter(self, name: str) -> Counts:
        """The counts kept under ``name`` (made, at zero, the first time it is asked):
        the object a stage watched under ``name`` counts into, a Stream's ``probe`` step
        included, and which that Stream's ``explain(analyze=True)`` reads.

        >>> probe = Probe()
        >>> probe.counter("read") is probe.counter("read"), probe.counts
        (True, {'read': 0})
        """
        counts = self.counters.get(name)
        if counts is None:
            counts = self.counters[name] = Counts()
        return counts

    @property
    def counts(self) -> dict[str, int]:
        """How many items each name counted so far (a snapshot: a new dict each time)."""
        return {name: counts.items for name, counts in self.counters.items()}

    def lazylist(self, name: str, xs: LazyList[T]) -> Watched[T]:
        """Watch a call-by-need list: ``name computed`` counts each cell once, when it is
        computed; ``name read`` counts every element read through the view.

        Read the list twice and the reads double while the computations stay:

        >>> from lazyfun import LazyList
        >>> probe = Probe()
        >>> squares = probe.lazylist("squares", LazyList.of(range(3)).map(lambda n: n * n))
        >>> list(squares), list(squares)
        ([0, 1, 4], [0, 1, 4])
        >>> probe.counts
        {'squares computed': 3, 'squares read': 6}
        """
        return Watched(self, name, xs)

    def counted(self, name: str) -> Callable[[Callable[P, Iterable[T]]], Callable[P, Iterator[T]]]:
        """Decorator: count, under ``name``, the items of every stream ``f`` returns.

        >>> probe = Probe()
        >>> @probe.counted("children")
        ... def children(n):
        ...     return range(n)
        >>> [sum(children(n)) for n in range(4)]
        [0, 0, 1, 3]
        >>> probe.counts
        {'children': 6}
        """

        def wrap(f: Callable[P, Iterable[T]]) -> Callable[P, Iterator[T]]:
            def counted_f(*args: P.args, **kwargs: P.kwargs) -> Iterator[T]:
                return self.stage(name, f(*args, **kwargs))

            counted_f.__name__ = getattr(f, "__name__", name)
            counted_f.__doc__ = f.__doc__
            return counted_f

        return wrap

    def __enter__(self) -> Probe:
        if self.enabled and self.memory:
            if tracemalloc.is_tracing():
                tracemalloc.reset_peak()
            else:
                tracemalloc.start()
                self._owns_tracemalloc = True
            self._baseline = tracemalloc.get_traced_memory()[0]
        self._started = time.perf_counter()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.seconds = time.perf_counter() - self._started
        if self.enabled and self.memory:
            peak = tracemalloc.get_traced_memory()[1]
            self.peak_bytes = max(0, peak - self._baseline)
            if self._owns_tracemalloc:
                tracemalloc.stop()
                self._owns_tracemalloc = False

    def as_dict(self) -> dict[str, Any]:
        """The report as plain data: stage counts, seconds, peak bytes."""
        return {"counts": self.counts, "seconds": self.seconds, "peak_bytes": self.peak_bytes}

    def __str__(self) -> str:
        counts = self.counts
        width = max((len(name) for name in counts), default=5)
        lines = [f"{name:<{width}}  {count:>15,}" for name, count in counts.items()]
        extras = []
        if self.seconds is not None:
            extras.append(f"time {self.seconds:.3f} s")
        if self.peak_bytes is not None:
            extras.append(f"peak memory {self.peak_bytes:,} bytes")
        if extras:
            lines.append(", ".join(extras))
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """For Jupyter: each stage's count as a row with a bar, longest bar the largest count.

        >>> probe = Probe()
        >>> for name, n in (("children", 8), ("kept", 2)):
        ...     _ = list(probe.stage(name, range(n)))
        >>> html = probe._repr_html_()
        >>> html.count("<tr>"), 'width:100%' in html, 'width:25%' in html
        (3, True, True)
        """
        counts = self.counts
        largest = max(counts.values(), default=0) or 1
        rows = "".join(
            f"<tr><td>{escape(name)}</td><td style='text-align:right'>{count:,}</td>"
            f"<td style='width:200px'><div style='background:#4c8bf5;height:.8em;"
            f"width:{100 * count / largest:.0f}%'></div></td></tr>"
            for name, count in counts.items()
        )
        extras = escape(str(self).splitlines()[-1]) if self.seconds is not None else ""
        return f"<table><tr><th>stage</th><th>items</th><th></th></tr>{rows}</table>" + (
            f"<p>{extras}</p>" if extras else ""
        )

    def __repr__(self) -> str:
        return (
            f"Probe(counts={self.counts!r}, seconds={self.seconds!r}, "
            f"peak_bytes={self.peak_bytes!r})"
        )


def _counting(counts: Counts, items: Iterable[T]) -> Iterator[T]:
    """``items``, each counted into ``counts`` as the consumer pulls it."""
    for item in items:
        counts.items += 1
        yield item


class Watched(Generic[T]):
    """A LazyList seen through a probe (see :meth:`Probe.lazylist`); iterate it as the list."""

    def __init__(self, probe: Probe, name: str, xs: LazyList[T]) -> None:
        self.probe, self.read_as = probe, f"{name} read"
        computed = probe.counter(f"{name} computed")
        probe.counter(self.read_as)

        def compute(x: T) -> T:
            computed.items += 1
            return x

        self.list: LazyList[T] = xs.map(compute) if probe.enabled else xs

    def __iter__(self) -> Iterator[T]:
        return self.probe.stage(self.read_as, self.list)


class Meter:
    """Work done by a running search, counted as it goes, for whoever watches it.

    Searches that take a ``meter`` add to it as they work (the core
    :func:`lazyfun.search` adds one per node it expands); a front end reads
    it from another thread to show that a long run is alive.  ``total``,
    when known, makes the count a fraction.

    >>> m = Meter("subtrees", total=8)
    >>> m.add(3)
    >>> m.describe().split(" (")[0]
    '3/8 subtrees'
    """

    def __init__(self, unit: str = "nodes", total: int | None = None) -> None:
        self.unit = unit
        self.total = total
        self.done = 0
        self.started = time.perf_counter()

    def add(self, work: int = 1) -> None:
        """Count ``work`` more units done."""
        self.done += work

    def restart(self) -> None:
        """Start the clock again (the count stays)."""
        self.started = time.perf_counter()

    def elapsed(self) -> float:
        """Seconds since the meter started."""
        return time.perf_counter() - self.started

    def rate(self) -> float:
        """Units per second so far."""
        elapsed = self.elapsed()
        return self.done / elapsed if elapsed > 0 else 0.0

    def describe(self) -> str:
        """``1,234 nodes (456/s)``, or ``3/8 subtrees (1/s)`` with a total."""
        done = f"{self.done:,}/{self.total:,}" if self.total is not None else f"{self.done:,}"
        return f"{done} {self.unit} ({self.rate():,.0f}/s)"
