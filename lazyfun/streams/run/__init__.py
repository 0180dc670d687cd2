"""The runners: what builds a stream's chain in each mode.

The façade (:mod:`lazyfun.streams.facade`) declares each step once, checks its
arguments and appends a node to the stream's plan (:mod:`lazyfun.streams.plan`); at
the first read the plan is built by the runner of each node's mode, calling its
building function of the node's step name:

- :data:`SYNC` (:mod:`.sync_steps`, :mod:`.sync_reads`): builtins, itertools, the C
  flow engine, threads, processes and dask, read with ``for``;
- :func:`ASYNC` (:mod:`.aio_steps`, :mod:`.aio_reads`): async iterators, tasks, and
  threads for plain functions, read with ``async for``; loaded at its first use, so
  a sync stream never imports asyncio.

The two share nothing but the names in :data:`BUILDS`: each is a function of that name
in both runners (a runner without one fails at its import), called with the chain
built so far (:class:`~lazyfun.streams.plan.Chain`) and the node's arguments; what one
mode cannot do, the façade refuses with its reason.  The async runner adds the names
in :data:`ASYNC_BUILDS` (a sync stream made async; its reading in the event loop).
Importing this package registers both with the plan.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from lazyfun.streams.plan import register
from lazyfun.streams.run import sync_reads, sync_steps

__all__ = ["ASYNC", "ASYNC_BUILDS", "BUILDS", "SYNC", "Runner"]

# what a runner builds, by name: the steps, then the reading (terminals, sinks, folds)
BUILDS = (
    *("source", "metered", "map", "filter", "flatmap", "do", "scan", "takewhile"),
    *("dropwhile", "unique", "unique_within", "catch", "take", "drop", "chunked"),
    *("window", "enumerate", "zip", "chain", "merge", "tee", "branch", "throttle", "group"),
    *("buffer", "observe", "progress", "probe", "pmap", "sort", "top", "join"),
    "event_windows",
    *("first", "last", "to_list", "collected", "count", "reduce", "for_each", "sum"),
    *("extreme", "decides", "aggregated", "to_lines", "to_jsonl", "to_csv"),
    *("to_parquet", "to_sql"),
)
ASYNC_BUILDS = ("to_async", "read_ahead", "aclose")


class Runner:
    """One mode's building functions, each an attribute by its step's name."""

    def __init__(
        self, noun: str, is_async: bool, reread: str, names: tuple[str, ...], *parts: ModuleType
    ) -> None:
        self.noun, self.is_async, self.reread = noun, is_async, reread
        for name in names:
            found = [getattr(part, name) for part in parts if hasattr(part, name)]
            if not found:
                raise ImportError(f"the {noun} runner has no {name!r}")
            setattr(self, name, found[0])

    def __getattr__(self, name: str) -> Any:
        """A name neither part has (typed as any function: the façade calls by name)."""
        raise AttributeError(f"the {self.noun} runner has no step {name!r}")

    def __repr__(self) -> str:
        return f"<{self.noun} runner>"


SYNC = Runner(
    "Stream",
    False,
    "Call .lazylist() on it before its first read to keep a list that can be read many "
    "times, or build the Stream again",
    BUILDS,
    sync_steps,
    sync_reads,
)

_async: list[Runner] = []


def ASYNC() -> Runner:
    """The async runner, its modules imported at the first call."""
    if not _async:
        from lazyfun.streams.run import aio_reads, aio_steps

        _async.append(
            Runner(
                "AsyncStream",
                True,
                "Build it again to read the items again",
                (*BUILDS, *ASYNC_BUILDS),
                aio_steps,
                aio_reads,
            )
        )
    return _async[0]


register("sync", lambda: SYNC)
register("async", ASYNC)
