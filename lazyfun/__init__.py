"""lazyfun: typed lazy combinators and the classic search programs written with them.

The core vocabulary lives here: ``cp``, ``fair_cp``, ``flatmap``, ``many``,
``iterate``, ``search``, typed ``compose``/``pipe``, and the toolz /
more-itertools pieces a pipeline needs; ``LazyList`` (call-by-need lists) and
``stream`` (a fluent, one-shot pipeline, with ``astream`` its async twin)
are the two other ways to hold a sequence lazily; ``lazyfun.io`` reads files,
URLs and databases into a Stream and writes them back.  The programs are
subpackages: ``lazyfun.sudoku``, ``lazyfun.queens``, ``lazyfun.csp``;
``lazyfun.trace`` makes laziness visible.
"""

from typing import TYPE_CHECKING

import lazyfun.compiled  # noqa: F401  (first: with LAZYFUN_PURE=1 it makes the source run)

# Each name is imported when first used (lazyfun.loading), so `import lazyfun` loads
# no Stream, no asyncio, no I/O; the checkers read the same names from here.
if TYPE_CHECKING:
    from lazyfun.compose import compose, compose_left, pipe
    from lazyfun.core import cp, fair_cp, flatmap, iterate, many, reiterable
    from lazyfun.io import RecordError
    from lazyfun.lazylist import LazyList, LazyListLoop
    from lazyfun.search import search
    from lazyfun.streams import (
        AsyncStream,
        Rate,
        Stream,
        StreamConsumedError,
        astream,
        field,
        stream,
    )
    from lazyfun.vocab import (
        chunked,
        concat,
        drop,
        first,
        identity,
        ilen,
        interleave,
        last,
        nth,
        second,
        sliding_window,
        take,
        unique_everseen,
    )
else:
    from lazyfun.loading import lazily

    __getattr__, __dir__ = lazily(
        __name__,
        {
            "lazyfun.compose": ("compose", "compose_left", "pipe"),
            "lazyfun.core": ("cp", "fair_cp", "flatmap", "iterate", "many", "reiterable"),
            "lazyfun.sinks.errors": ("RecordError",),
            "lazyfun.lazylist": ("LazyList", "LazyListLoop"),
            "lazyfun.search": ("search",),
            "lazyfun.streams.stream": ("AsyncStream", "Stream", "astream", "stream"),
            "lazyfun.streams.shared.parts": ("StreamConsumedError",),
            "lazyfun.streams.shared.calling": ("Rate",),
            "lazyfun.streams.verbs": ("field",),
            "lazyfun.vocab": (
                "chunked",
                "concat",
                "drop",
                "first",
                "identity",
                "ilen",
                "interleave",
                "last",
                "nth",
                "second",
                "sliding_window",
                "take",
                "unique_everseen",
            ),
        },
    )

__version__ = "0.1.0"

__all__ = [
    "AsyncStream",
    "LazyList",
    "LazyListLoop",
    "Rate",
    "RecordError",
    "Stream",
    "StreamConsumedError",
    "astream",
    "chunked",
    "compose",
    "compose_left",
    "concat",
    "cp",
    "drop",
    "fair_cp",
    "field",
    "first",
    "flatmap",
    "identity",
    "ilen",
    "interleave",
    "iterate",
    "last",
    "many",
    "nth",
    "pipe",
    "reiterable",
    "search",
    "second",
    "sliding_window",
    "stream",
    "take",
    "unique_everseen",
]
